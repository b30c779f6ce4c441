//! Normal forms and array references as the symbols the rules carry: the
//! one place where their text encoding is defined.
//!
//! A rule cannot hold a vector, so a normal form travels through Datalog as a
//! symbol, `7+16*i5+3*i9-2*N#12`: the constant, then one term per standard
//! induction variable `i<loop>` (loop = the id of its DO statement), then one
//! per loop-invariant symbol (upper-case: `N` is N's value on entry to the
//! unit, `N#12` the value reference 12 defined). Terms are sorted and never
//! zero, so equal forms are equal symbols. The rules fold subscripts term by
//! term with the `@nf_*` functors (`kaiseki-rules`) and pack each array
//! reference for the dependence tests:
//!
//! - dims: `|nf|nf` — one `|`-prefixed entry per subscript, `?` when it has
//!   no normal form;
//! - loops: `;5:1:0+1*N:1;9:...` — per enclosing loop, outermost first,
//!   `id:lower:upper:step` with `?` for what is unknown; then the guards of
//!   the IFs around the reference, `&ge:nf` (nf >= 0) or `&eq:nf` (nf = 0).
//!
//! Loop-keyed forms become the position-keyed [`NormalForm`]s of the native
//! tests with [`LoopForm::over`], and a packed reference a [`RefInfo`] with
//! [`Packed::parse`].

use super::normal_form::{normalize_do, Guard, LoopBound, NormalForm, RefInfo, Subscript};
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

/// `constant + Σ loops[l] * I_l + Σ symbols[s] * s`, keyed by loop id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoopForm {
    pub constant: i64,
    /// Loop id -> coefficient of its standard induction variable (never 0).
    pub loops: BTreeMap<i64, i64>,
    /// Symbol -> coefficient (never 0).
    pub symbols: BTreeMap<String, i64>,
}

impl LoopForm {
    pub fn constant(c: i64) -> Self {
        LoopForm {
            constant: c,
            ..LoopForm::default()
        }
    }

    /// `I_loop`, the standard induction variable of a loop.
    pub fn induction(r#loop: i64) -> Self {
        LoopForm {
            loops: BTreeMap::from([(r#loop, 1)]),
            ..LoopForm::default()
        }
    }

    /// A loop-invariant unknown; `None` when the name cannot be encoded.
    pub fn symbol(name: &str) -> Option<Self> {
        valid_symbol(name).then(|| LoopForm {
            symbols: BTreeMap::from([(name.to_string(), 1)]),
            ..LoopForm::default()
        })
    }

    /// `self + other`, `None` on overflow.
    pub fn add(&self, other: &LoopForm) -> Option<LoopForm> {
        let mut sum = self.clone();
        sum.constant = sum.constant.checked_add(other.constant)?;
        add_terms(&mut sum.loops, &other.loops, 1)?;
        add_terms(&mut sum.symbols, &other.symbols, 1)?;
        Some(sum)
    }

    /// `k * self`, `None` on overflow.
    pub fn scale(&self, k: i64) -> Option<LoopForm> {
        let mut scaled = LoopForm::constant(self.constant.checked_mul(k)?);
        add_terms(&mut scaled.loops, &self.loops, k)?;
        add_terms(&mut scaled.symbols, &self.symbols, k)?;
        Some(scaled)
    }

    /// The positional form over `loops` (the enclosing loops, outermost
    /// first): `None` when it uses another loop.
    pub fn over(&self, loops: &[i64]) -> Option<NormalForm> {
        let mut form = NormalForm::new(self.constant, &[]);
        for (&l, &c) in &self.loops {
            let g = loops.iter().position(|&x| x == l)?;
            if form.coeffs.len() <= g {
                form.coeffs.resize(g + 1, 0);
            }
            form.coeffs[g] = c;
        }
        for (s, &c) in &self.symbols {
            form = form.with_symbol(&scoped_over(s, loops)?, c);
        }
        Some(form)
    }
}

/// The first id of the loops that run over the ranges of a section
/// reference (`A(1:N, J)`: one for its first dimension): ids no statement
/// has, each local to its reference, so never a loop two references share.
const SECTION_LOOPS: i64 = 1 << 40;

/// The loop of dimension `dim` (1-based, at most 15) of section reference `r`.
pub fn section_loop(r: i64, dim: i64) -> i64 {
    SECTION_LOOPS + r * 16 + dim
}

/// Whether a loop id is a section's ([`section_loop`]).
pub fn is_section_loop(id: i64) -> bool {
    id >= SECTION_LOOPS
}

/// A symbol scoped to a loop, `M@<loop id>` (M's value throughout one
/// execution of that loop, which does not write M), named by the loop's
/// position among `loops` instead: `M@<g>` ([`super::pair`] links U's and
/// V's only in the same execution). `None` when the loop is not one of them.
fn scoped_over(name: &str, loops: &[i64]) -> Option<String> {
    let Some((var, id)) = name.split_once('@') else {
        return Some(name.to_string());
    };
    let id: i64 = id.parse().ok()?;
    let g = loops.iter().position(|&l| l == id)?;
    Some(format!("{var}@{g}"))
}

/// `into += k * from`, dropping zero coefficients.
fn add_terms<K: Ord + Clone>(
    into: &mut BTreeMap<K, i64>,
    from: &BTreeMap<K, i64>,
    k: i64,
) -> Option<()> {
    for (key, &c) in from {
        let sum = into
            .get(key)
            .copied()
            .unwrap_or(0)
            .checked_add(c.checked_mul(k)?)?;
        if sum == 0 {
            into.remove(key);
        } else {
            into.insert(key.clone(), sum);
        }
    }
    Some(())
}

/// Symbols are Fortran names (upper case), optionally `#<reference>` or
/// `@<loop>` (scoped to a loop).
fn valid_symbol(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_uppercase())
        && chars.all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || "_#$@".contains(c))
}

impl fmt::Display for LoopForm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.constant)?;
        let loops = self.loops.iter().map(|(l, &c)| (format!("i{l}"), c));
        let symbols = self.symbols.iter().map(|(s, &c)| (s.clone(), c));
        for (name, c) in loops.chain(symbols) {
            let sign = if c < 0 { '-' } else { '+' };
            write!(f, "{sign}{}*{name}", c.unsigned_abs())?;
        }
        Ok(())
    }
}

/// A symbol that does not spell a [`LoopForm`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadEncoding(pub String);

impl fmt::Display for BadEncoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not a packed normal form or reference", self.0)
    }
}

impl FromStr for LoopForm {
    type Err = BadEncoding;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || BadEncoding(s.to_string());
        // The constant runs up to the first sign after its own.
        let end = s[1.min(s.len())..]
            .find(['+', '-'])
            .map_or(s.len(), |i| i + 1);
        let mut form = LoopForm::constant(s[..end].parse().map_err(|_| bad())?);
        let mut rest = &s[end..];
        while !rest.is_empty() {
            let negative = rest.starts_with('-');
            let body = &rest[1..];
            let end = body.find(['+', '-']).map_or(body.len(), |i| i);
            let (coeff, name) = body[..end].split_once('*').ok_or_else(bad)?;
            let magnitude: i64 = coeff.parse().map_err(|_| bad())?;
            let c = if negative { -magnitude } else { magnitude };
            let term = match name.strip_prefix('i') {
                Some(id) => LoopForm::induction(id.parse().map_err(|_| bad())?),
                None => LoopForm::symbol(name).ok_or_else(bad)?,
            };
            form = form.add(&term.scale(c).ok_or_else(bad)?).ok_or_else(bad)?;
            rest = &body[end..];
        }
        Ok(form)
    }
}

/// The entry of a pack for something unknown.
pub const UNKNOWN: &str = "?";

fn optional<T: FromStr>(text: &str) -> Result<Option<T>, BadEncoding> {
    if text == UNKNOWN {
        Ok(None)
    } else {
        text.parse()
            .map(Some)
            .map_err(|_| BadEncoding(text.to_string()))
    }
}

/// One loop of a loops pack: `id:lower:upper:step`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct PackedLoop {
    id: i64,
    lower: Option<LoopForm>,
    upper: Option<LoopForm>,
    step: Option<i64>,
}

/// An array reference unpacked: the ids of its enclosing loops (outermost
/// first) and what the native tests need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packed {
    pub loop_ids: Vec<i64>,
    pub info: RefInfo,
}

impl Packed {
    /// Reads a dims pack and a loops pack. Each DO loop goes through
    /// [`normalize_do`], so non-unit and negative steps and bounds over
    /// outer loops are exact; a form over a loop that does not enclose it
    /// makes that piece unknown.
    pub fn parse(dims: &str, loops: &str) -> Result<Packed, BadEncoding> {
        // The guards follow the loops: `&ge:nf` (nf >= 0), `&eq:nf` (nf = 0).
        let (loops, guard_pack) = loops.split_at(loops.find('&').unwrap_or(loops.len()));
        let loops = parse_loops(loops)?;
        let loop_ids: Vec<i64> = loops.iter().map(|l| l.id).collect();
        let mut bounds = Vec::with_capacity(loops.len());
        for (g, l) in loops.iter().enumerate() {
            let outer = &loop_ids[..g];
            let lower = l.lower.as_ref().and_then(|f| f.over(outer));
            let upper = l.upper.as_ref().and_then(|f| f.over(outer));
            bounds.push(
                match normalize_do(lower.as_ref(), upper.as_ref(), l.step, g) {
                    Ok((_, bound)) => bound,
                    Err(_) => LoopBound::Unknown,
                },
            );
        }
        let subscripts = entries(dims, '|')?
            .into_iter()
            .map(|entry| {
                Ok(match optional::<LoopForm>(entry)? {
                    Some(form) => form
                        .over(&loop_ids)
                        .map_or(Subscript::Unknown, Subscript::Affine),
                    None => Subscript::Unknown,
                })
            })
            .collect::<Result<_, BadEncoding>>()?;
        // A guard that cannot be read, or uses another loop, is left out:
        // fewer constraints, a larger domain.
        let guards = entries(guard_pack, '&')?
            .into_iter()
            .filter_map(|entry| {
                let (relation, form) = entry.split_once(':')?;
                let eq = match relation {
                    "ge" => false,
                    "eq" => true,
                    _ => return None,
                };
                let form = form.parse::<LoopForm>().ok()?.over(&loop_ids)?;
                Some(Guard { form, eq })
            })
            .collect();
        Ok(Packed {
            loop_ids,
            info: RefInfo {
                subscripts,
                loops: bounds,
                guards,
            },
        })
    }
}

/// The entries of a pack, each introduced by `sep`.
fn entries(pack: &str, sep: char) -> Result<Vec<&str>, BadEncoding> {
    if pack.is_empty() {
        return Ok(Vec::new());
    }
    let rest = pack
        .strip_prefix(sep)
        .ok_or_else(|| BadEncoding(pack.to_string()))?;
    Ok(rest.split(sep).collect())
}

fn parse_loops(pack: &str) -> Result<Vec<PackedLoop>, BadEncoding> {
    entries(pack, ';')?
        .into_iter()
        .map(|entry| {
            let fields: Vec<&str> = entry.split(':').collect();
            let [id, lower, upper, step] = fields[..] else {
                return Err(BadEncoding(entry.to_string()));
            };
            Ok(PackedLoop {
                id: id.parse().map_err(|_| BadEncoding(entry.to_string()))?,
                lower: optional(lower)?,
                upper: optional(upper)?,
                step: optional(step)?,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(s: &str) -> LoopForm {
        s.parse().unwrap()
    }

    #[test]
    fn forms_print_canonically_and_read_back() {
        let f = LoopForm::constant(7)
            .add(&LoopForm::induction(9).scale(3).unwrap())
            .unwrap()
            .add(&LoopForm::induction(5).scale(16).unwrap())
            .unwrap()
            .add(&LoopForm::symbol("N#12").unwrap().scale(-2).unwrap())
            .unwrap();
        assert_eq!(f.to_string(), "7+16*i5+3*i9-2*N#12");
        assert_eq!(form("7+16*i5+3*i9-2*N#12"), f);
        assert_eq!(form("-3").to_string(), "-3");
        assert_eq!(form("0-1*i5").to_string(), "0-1*i5");
        // Terms cancel and disappear.
        let g = form("1+2*i5+1*N").add(&form("-1-2*i5")).unwrap();
        assert_eq!(g.to_string(), "0+1*N");
        assert_eq!(form("5+1*i3").scale(0).unwrap().to_string(), "0");
    }

    #[test]
    fn bad_text_and_overflow_are_refused() {
        for bad in [
            "", "x", "1+", "1+2", "1+2*", "1*i5", "1+2*n", "1+a*i5", "1+2*i",
        ] {
            assert!(bad.parse::<LoopForm>().is_err(), "{bad:?} accepted");
        }
        assert!(LoopForm::symbol("lower").is_none());
        assert_eq!(form(&i64::MAX.to_string()).add(&form("1")), None);
        assert_eq!(form("2+1*i4").scale(i64::MAX), None);
    }

    #[test]
    fn positional_forms_follow_the_enclosing_loops() {
        let f = form("7+16*i5+3*i9");
        assert_eq!(f.over(&[5, 9]), Some(NormalForm::new(7, &[16, 3])));
        assert_eq!(f.over(&[9]), None);
        assert_eq!(
            form("1+1*N").over(&[]),
            Some(NormalForm::new(1, &[]).with_symbol("N", 1))
        );
    }

    #[test]
    fn packs_become_references_with_exact_do_bounds() {
        // DO 10 K = 1, N / DO 20 I = K+1, N: A(K, I).
        let loops = ";10:1:0+1*N:1;20:2+1*i10:0+1*N:1";
        let packed = Packed::parse("|1+1*i10|2+1*i10+1*i20", loops).unwrap();
        assert_eq!(packed.loop_ids, vec![10, 20]);
        assert_eq!(
            packed.info.loops[1],
            LoopBound::Span {
                scale: 1,
                span: NormalForm::new(-2, &[-1]).with_symbol("N", 1)
            }
        );
        assert_eq!(
            packed.info.subscripts,
            vec![
                Subscript::Affine(NormalForm::new(1, &[1])),
                Subscript::Affine(NormalForm::new(2, &[1, 1]))
            ]
        );
        // Unknown pieces, and a bound over an inner loop, stay unknown.
        let odd = Packed::parse("|?", ";3:?:5:1;4:0+1*i4:9:?").unwrap();
        assert_eq!(odd.info.subscripts, vec![Subscript::Unknown]);
        assert_eq!(odd.info.loops, vec![LoopBound::Unknown, LoopBound::Unknown]);
        assert_eq!(Packed::parse("", "").unwrap().info.loops, vec![]);
        for (dims, loops) in [("1", ""), ("|x", ""), ("", ";3:1:2"), ("", "3:1:2:1")] {
            assert!(Packed::parse(dims, loops).is_err(), "{dims:?} {loops:?}");
        }
    }
}
