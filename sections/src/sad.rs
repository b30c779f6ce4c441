//! Li & Harada's section access descriptors `<D, M>` (section 3): a section
//! `D` of an array and the mapping `M` that gives, for each element, the
//! virtual processors that hold a copy of it (or `T`, "invalid on every
//! processor", for what an assignment kills).
//!
//! A mapping is one [`Holder`] per dimension of the virtual-processor space
//! (the template): the paper's pair `<P, F>` where `P[i]` is the dimension
//! of the array that dimension `i` follows and `F[i]` the function from
//! that subscript to the position (table 1), or a position that does not
//! depend on the element (the second and third rows of table 1). Sets of
//! descriptors ([`SadSet`]) are lists; the dataflow sets IN, OUT, Gen,
//! UPIN, UPOUT are must-sets (every listed copy surely exists), Kill and K
//! may-sets (every element that may be invalid is listed).
//!
//! Text: `<A(1:100, I), VPROCS<[2,1],[j,j]>>`, `<A(I, J), T>`; a holder
//! that follows no subscript prints `-` in `P` and its positions in `F`
//! (`=1`, `=2:100`, `=I`), `*` for every position, `?` for unknown. A
//! conditional descriptor (available when the condition of the IF statement
//! `s` held, `+`, or did not, `-`) is prefixed `s+:`. `<*, T>` kills every
//! array, `<$N, T>` every descriptor whose text mentions the scalar `N`
//! (which was assigned). Items are joined by ` ; `, `{}` is the empty set.

use crate::affine::{gcd, Affine};
use crate::assumptions::Assumptions;
use crate::dim::Dim;
use crate::section::Section;
use crate::subset::{is_empty, is_subset};
use crate::{difference_pieces, intersection, iterations, parse_section, union, Answer};
use crate::{Approx, Loop};
use std::fmt;

/// Where one dimension of the virtual-processor space holds an element.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Holder {
    /// Position `(num * x + off) / den` where `x` is subscript `dim`
    /// (1-based) of the element; no position when that is not an integer.
    Of {
        dim: usize,
        num: i64,
        off: i64,
        den: i64,
    },
    /// The same positions for every element: the triplet `first:bound:stride`
    /// over loop variables, printed `=I` or `=2:100`.
    At(TripletText),
    /// Every position (a replicated dimension).
    All,
    /// Not known (φ).
    Unknown,
}

/// A one-dimensional section kept as its dimension (ordered for sorting by
/// its text).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TripletText(String);

impl TripletText {
    pub fn new(d: &Dim) -> TripletText {
        TripletText(d.to_string())
    }

    pub fn dim(&self) -> Option<Dim> {
        parse_section(&format!("X({})", self.0))
            .ok()
            .and_then(|(_, s)| s.dims().and_then(|d| d.first().cloned()))
    }

    fn section(&self) -> Option<Section> {
        self.dim().map(|d| Section::Dims(vec![d]))
    }
}

impl Holder {
    /// `(num*x + off)/den` in lowest terms with a positive denominator;
    /// `None` for `den == 0`.
    pub fn of(dim: usize, num: i64, off: i64, den: i64) -> Option<Holder> {
        if den == 0 {
            return None;
        }
        let s = den.signum();
        let g = gcd(gcd(num, off), den).max(1);
        Some(Holder::Of {
            dim,
            num: s * num / g,
            off: s * off / g,
            den: s * den / g,
        })
    }

    /// Whether every position this holder gives an element is also given by
    /// `other` (for every element).
    fn within(&self, other: &Holder, ctx: &Assumptions) -> bool {
        match (self, other) {
            (_, Holder::All) => true,
            (Holder::At(a), Holder::At(b)) => match (a.section(), b.section()) {
                (Some(a), Some(b)) => is_subset(&a, &b, ctx) == Answer::Yes,
                _ => false,
            },
            (Holder::Unknown, _) | (_, Holder::Unknown) => false,
            (a, b) => a == b,
        }
    }

    fn mentions(&self, name: &str) -> bool {
        match self {
            Holder::At(t) => t.dim().is_some_and(|d| d.mentions(name)),
            _ => false,
        }
    }
}

/// `M`: the holders of the elements, or `T` (invalid everywhere).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mapping {
    Invalid,
    To {
        template: String,
        holders: Vec<Holder>,
    },
}

impl Holder {
    /// The holder restricted to the elements of `s`: a position that
    /// follows a subscript which is a single index in `s` is that position.
    fn on(&self, s: &Section) -> Holder {
        let Holder::Of { dim, num, off, den } = self else {
            return self.clone();
        };
        let point = s
            .dims()
            .and_then(|d| d.get(dim.checked_sub(1)?))
            .and_then(|d| match d {
                Dim::Triplet(t) => t.as_point().cloned(),
                _ => None,
            });
        let at = point
            .and_then(|p| p.scale(*num)?.add_constant(*off))
            .and_then(|v| match (*den, v.as_constant()) {
                (1, _) => Some(v),
                (d, Some(c)) if c % d == 0 => Some(Affine::constant(c / d)),
                _ => None,
            });
        at.map_or_else(
            || self.clone(),
            |v| Holder::At(TripletText::new(&Dim::point(v))),
        )
    }
}

impl Mapping {
    /// Whether, for every element of `s`, the processors this mapping
    /// gives it are among those `other` gives it.
    fn within_on(&self, other: &Mapping, s: &Section, ctx: &Assumptions) -> bool {
        match (self, other) {
            (
                Mapping::To {
                    template: t1,
                    holders: h1,
                },
                Mapping::To {
                    template: t2,
                    holders: h2,
                },
            ) => {
                t1 == t2
                    && h1.len() == h2.len()
                    && h1
                        .iter()
                        .zip(h2)
                        .all(|(a, b)| a.on(s).within(&b.on(s), ctx))
            }
            _ => false,
        }
    }
}

/// One descriptor `<D, M>`, maybe conditional.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sad {
    /// The IF statement and the branch (`true`: its condition held).
    pub cond: Option<(i64, bool)>,
    pub array: String,
    pub section: SectionText,
    pub mapping: Mapping,
}

/// A section kept with its text (ordered by it).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SectionText(String, SectionKey);

/// The section itself; compared as equal so that the text decides order.
#[derive(Clone, Debug)]
struct SectionKey(Section);

impl PartialEq for SectionKey {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl Eq for SectionKey {}
impl std::hash::Hash for SectionKey {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}
impl PartialOrd for SectionKey {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for SectionKey {
    fn cmp(&self, _: &Self) -> std::cmp::Ordering {
        std::cmp::Ordering::Equal
    }
}

impl SectionText {
    pub fn new(array: &str, s: Section) -> SectionText {
        SectionText(s.named(array).to_string(), SectionKey(s))
    }

    pub fn get(&self) -> &Section {
        &self.1 .0
    }

    pub fn text(&self) -> &str {
        &self.0
    }
}

impl Sad {
    pub fn new(array: &str, section: Section, mapping: Mapping) -> Sad {
        Sad {
            cond: None,
            array: array.to_string(),
            section: SectionText::new(array, section),
            mapping,
        }
    }

    pub fn section(&self) -> &Section {
        self.section.get()
    }

    fn with_section(&self, s: Section) -> Sad {
        Sad {
            section: SectionText::new(&self.array, s),
            ..self.clone()
        }
    }

    fn empty(&self, ctx: &Assumptions) -> bool {
        is_empty(self.section(), ctx) == Answer::Yes
    }

    /// Whether a bound, a subscript or a holder uses `name`.
    pub fn mentions(&self, name: &str) -> bool {
        self.section().mentions(name)
            || matches!(&self.mapping, Mapping::To { holders, .. } if holders.iter().any(|h| h.mentions(name)))
    }

    /// Whether `kill` (a `T` descriptor) may invalidate this one.
    fn killed_by(&self, kill: &Sad) -> bool {
        kill.array == "*" || kill.array == self.array
    }
}

/// A set of descriptors (a list: a union of its items).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SadSet(pub Vec<Sad>);

impl SadSet {
    pub fn items(&self) -> &[Sad] {
        &self.0
    }

    /// Sorted, without duplicates: equal sets of items print the same.
    fn canonical(mut items: Vec<Sad>) -> SadSet {
        items.sort();
        items.dedup();
        SadSet(items)
    }

    /// `a ∪ b`. Items with the same array, mapping and condition are merged
    /// when their union is a section (must: a merge that is not exact keeps
    /// both).
    pub fn union(&self, other: &SadSet, ctx: &Assumptions) -> SadSet {
        let mut out: Vec<Sad> = Vec::new();
        'next: for x in self.0.iter().chain(&other.0) {
            for y in out.iter_mut() {
                if y.array == x.array && y.mapping == x.mapping && y.cond == x.cond {
                    let u = union(y.section(), x.section(), Approx::Must, ctx);
                    if u.exact {
                        *y = y.with_section(u.section);
                        continue 'next;
                    }
                }
            }
            out.push(x.clone());
        }
        SadSet::canonical(out)
    }

    /// `a ∩ b` (must): the copies both list, item by item with equal
    /// mappings and conditions.
    pub fn meet(&self, other: &SadSet, ctx: &Assumptions) -> SadSet {
        let mut out = Vec::new();
        for x in &self.0 {
            for y in &other.0 {
                if x.array == y.array && x.mapping == y.mapping && x.cond == y.cond {
                    let m = intersection(x.section(), y.section(), Approx::Must, ctx);
                    let z = x.with_section(m.section);
                    if !z.empty(ctx) {
                        out.push(z);
                    }
                }
            }
        }
        SadSet::canonical(out)
    }

    /// `a − b` (must): what `b` kills (`T` items, `<*, T>`, `<$N, T>`), or
    /// the copies `b` lists with the same mapping, taken out of `a`.
    pub fn minus(&self, other: &SadSet, ctx: &Assumptions) -> SadSet {
        let mut out = Vec::new();
        for x in &self.0 {
            if other
                .0
                .iter()
                .any(|k| k.array.strip_prefix('$').is_some_and(|v| x.mentions(v)))
            {
                continue;
            }
            let mut pieces = vec![x.section().clone()];
            for k in &other.0 {
                let subtracts = match k.mapping {
                    Mapping::Invalid => x.killed_by(k),
                    _ => {
                        k.array == x.array
                            && k.cond == x.cond
                            && x.mapping.within_on(&k.mapping, x.section(), ctx)
                    }
                };
                if !subtracts {
                    continue;
                }
                if k.array == "*" {
                    pieces.clear();
                    break;
                }
                pieces = pieces
                    .iter()
                    .flat_map(|p| difference_pieces(p, k.section(), Approx::Must, ctx).0)
                    .collect();
            }
            out.extend(
                pieces
                    .into_iter()
                    .map(|p| x.with_section(p))
                    .filter(|z| !z.empty(ctx)),
            );
        }
        SadSet::canonical(out).union(&SadSet::default(), ctx)
    }

    /// `iterations(S, k, low:high:step)` (section 5.2): every descriptor over
    /// the iterations of `l`, widened (may) or narrowed (must). A holder at
    /// positions that move with `k` is expanded too, unless the section also
    /// moves with `k` (their coupling is lost: may widens the holder to
    /// every position, must drops the descriptor).
    pub fn iterations(&self, l: &Loop, mode: Approx, ctx: &Assumptions) -> SadSet {
        let mut out = Vec::new();
        for x in &self.0 {
            let moves = x.section().mentions(&l.var);
            let mapping = match &x.mapping {
                Mapping::Invalid => Some(Mapping::Invalid),
                Mapping::To { template, holders } => holders
                    .iter()
                    .map(|h| match h {
                        Holder::At(t) if h.mentions(&l.var) => match (moves, mode) {
                            (true, Approx::Must) => None,
                            (true, Approx::May) => Some(Holder::All),
                            (false, _) => {
                                let e = iterations(&t.section()?, l, mode, ctx);
                                match e.section.dims() {
                                    Some([d]) => Some(Holder::At(TripletText::new(d))),
                                    _ if mode == Approx::May => Some(Holder::All),
                                    _ => None,
                                }
                            }
                        },
                        other => Some(other.clone()),
                    })
                    .collect::<Option<Vec<_>>>()
                    .map(|holders| Mapping::To {
                        template: template.clone(),
                        holders,
                    }),
            };
            let Some(mapping) = mapping else { continue };
            let e = iterations(x.section(), l, mode, ctx);
            let z = Sad {
                mapping,
                ..x.with_section(e.section)
            };
            if !z.empty(ctx) {
                out.push(z);
            }
        }
        SadSet::canonical(out).union(&SadSet::default(), ctx)
    }

    /// The same sets with `from` renamed `to` (a fresh name).
    pub fn rename(&self, from: &str, to: &Affine) -> Option<SadSet> {
        if !self.0.iter().any(|x| x.mentions(from)) {
            return Some(self.clone());
        }
        // Sections and holders are affine texts: rename through them.
        let mut out = Vec::new();
        for x in &self.0 {
            let s = x.section().substitute(from, to)?;
            let mapping = match &x.mapping {
                Mapping::To { template, holders } => Mapping::To {
                    template: template.clone(),
                    holders: holders
                        .iter()
                        .map(|h| match h {
                            Holder::At(t) => {
                                let d = t.section()?.substitute(from, to)?;
                                Some(Holder::At(TripletText::new(&d.dims()?[0])))
                            }
                            other => Some(other.clone()),
                        })
                        .collect::<Option<Vec<_>>>()?,
                },
                Mapping::Invalid => Mapping::Invalid,
            };
            out.push(Sad {
                mapping,
                ..x.with_section(s)
            });
        }
        Some(SadSet(out))
    }

    /// Whether every copy `g` lists is in this set: some items whose
    /// mappings hold `g`'s (and whose condition is none or `cond`) cover
    /// its section.
    pub fn covers(&self, g: &Sad, cond: Option<(i64, bool)>, ctx: &Assumptions) -> bool {
        let mut rest = vec![g.section().clone()];
        for y in &self.0 {
            if y.array != g.array
                || !(y.cond.is_none() || y.cond == cond)
                || !g.mapping.within_on(&y.mapping, g.section(), ctx)
            {
                continue;
            }
            rest = rest
                .iter()
                .flat_map(|p| difference_pieces(p, y.section(), Approx::May, ctx).0)
                .collect();
        }
        rest.iter().all(|p| is_empty(p, ctx) == Answer::Yes)
    }

    /// The conditions of the conditional items.
    pub fn conditions(&self) -> Vec<(i64, bool)> {
        let mut c: Vec<_> = self.0.iter().filter_map(|x| x.cond).collect();
        c.sort();
        c.dedup();
        c
    }

    /// Every item made conditional on `cond` (items already conditional
    /// keep their own, inner condition).
    pub fn when(&self, cond: (i64, bool)) -> SadSet {
        SadSet::canonical(
            self.0
                .iter()
                .map(|x| Sad {
                    cond: x.cond.or(Some(cond)),
                    ..x.clone()
                })
                .collect(),
        )
    }
}

impl fmt::Display for Holder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Holder::Of { num, off, den, .. } => {
                let body = Affine::term("j", *num)
                    .add_constant(*off)
                    .map_or("?".to_string(), |a| a.to_string());
                if *den == 1 {
                    write!(f, "{body}")
                } else if *off == 0 && *num == 1 {
                    write!(f, "j/{den}")
                } else {
                    write!(f, "({body})/{den}")
                }
            }
            Holder::At(t) => write!(f, "={}", t.0),
            Holder::All => write!(f, "*"),
            Holder::Unknown => write!(f, "?"),
        }
    }
}

impl fmt::Display for Sad {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some((s, held)) = self.cond {
            write!(f, "{s}{}:", if held { '+' } else { '-' })?;
        }
        let d = if self.array == "*" || self.array.starts_with('$') {
            self.array.clone()
        } else {
            self.section.text().to_string()
        };
        match &self.mapping {
            Mapping::Invalid => write!(f, "<{d}, T>"),
            Mapping::To { template, holders } => {
                let p: Vec<String> = holders
                    .iter()
                    .map(|h| match h {
                        Holder::Of { dim, .. } => dim.to_string(),
                        _ => "-".to_string(),
                    })
                    .collect();
                let fs: Vec<String> = holders.iter().map(|h| h.to_string()).collect();
                write!(f, "<{d}, {template}<[{}],[{}]>>", p.join(","), fs.join(","))
            }
        }
    }
}

impl fmt::Display for SadSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return write!(f, "{{}}");
        }
        let items: Vec<String> = self.0.iter().map(|x| x.to_string()).collect();
        write!(f, "{}", items.join(" ; "))
    }
}

/// Text that is not a descriptor set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SadError(pub String);

impl std::str::FromStr for SadSet {
    type Err = SadError;

    fn from_str(text: &str) -> Result<SadSet, SadError> {
        let text = text.trim();
        if text == "{}" || text.is_empty() {
            return Ok(SadSet::default());
        }
        text.split(" ; ")
            .map(parse_item)
            .collect::<Result<_, _>>()
            .map(SadSet)
    }
}

fn parse_item(text: &str) -> Result<Sad, SadError> {
    let bad = || SadError(format!("not a descriptor: {text}"));
    let (cond, rest) = match text.split_once(':') {
        Some((c, r)) if !c.starts_with('<') => {
            let held = c.ends_with('+');
            let s: i64 = c[..c.len() - 1].parse().map_err(|_| bad())?;
            (Some((s, held)), r)
        }
        _ => (None, text),
    };
    let rest = rest
        .strip_prefix('<')
        .and_then(|r| r.strip_suffix('>'))
        .ok_or_else(bad)?;
    // The section ends at the first ", " outside parentheses.
    let mut depth = 0;
    let mut cut = None;
    for (i, c) in rest.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                cut = Some(i);
                break;
            }
            _ => {}
        }
    }
    let cut = cut.ok_or_else(bad)?;
    let (d, m) = (rest[..cut].trim(), rest[cut + 1..].trim());
    let (array, section) = if d == "*" || d.starts_with('$') {
        (d.to_string(), Section::Unknown)
    } else {
        parse_section(d).map_err(|_| bad())?
    };
    let mapping = if m == "T" {
        Mapping::Invalid
    } else {
        let (template, body) = m.split_once('<').ok_or_else(bad)?;
        let body = body.strip_suffix('>').ok_or_else(bad)?;
        let (p, fs) = body.split_once("],[").ok_or_else(bad)?;
        let p: Vec<&str> = p.trim_start_matches('[').split(',').collect();
        let fs: Vec<&str> = fs.trim_end_matches(']').split(',').collect();
        if p.len() != fs.len() {
            return Err(bad());
        }
        let holders = p
            .iter()
            .zip(&fs)
            .map(|(p, f)| parse_holder(p, f).ok_or_else(bad))
            .collect::<Result<Vec<_>, _>>()?;
        Mapping::To {
            template: template.to_string(),
            holders,
        }
    };
    Ok(Sad {
        cond,
        array: array.clone(),
        section: SectionText::new(&array, section),
        mapping,
    })
}

fn parse_holder(p: &str, f: &str) -> Option<Holder> {
    match f {
        "*" => return Some(Holder::All),
        "?" => return Some(Holder::Unknown),
        _ => {}
    }
    if let Some(t) = f.strip_prefix('=') {
        return Some(Holder::At(TripletText(t.to_string())));
    }
    let dim: usize = p.parse().ok()?;
    let (body, den) = match f.rsplit_once('/') {
        Some((b, d)) => (
            b.trim_start_matches('(').trim_end_matches(')'),
            d.parse().ok()?,
        ),
        None => (f, 1),
    };
    let a: Affine = body.parse().ok()?;
    Holder::of(dim, a.coeff("j"), a.constant_part(), den)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(t: &str) -> SadSet {
        t.parse().unwrap()
    }

    #[test]
    fn text_round_trips() {
        for t in [
            "<C(2*I, J-1), VPROCS<[1,2],[j/2,j+1]>>",
            "<A(I, J), T>",
            "52+:<A(100, 2:100), VPROCS<[2,-],[j,=1]>> ; <B(1:10), T<[1],[(3*j+1)/2]>>",
            "<*, T> ; <$N, T>",
            "{}",
        ] {
            assert_eq!(set(t).to_string(), t);
        }
    }

    #[test]
    fn example_4_gen_of_l1() {
        // iterations(OUT'_6, I, 2:100) minus iterations(A(100, I-1)).
        let ctx = Assumptions::none();
        let out6 = set("<A(1:100, I), VPROCS<[2,1],[j,j]>>");
        let l = Loop::new("I", Affine::constant(2), Affine::constant(100), 1);
        let g = out6.iterations(&l, Approx::Must, &ctx);
        let k = set("<A(100, I-1), T>").iterations(&l, Approx::May, &ctx);
        assert_eq!(k.to_string(), "<A(100, 1:99), T>");
        let gen = g.minus(&k, &ctx);
        assert_eq!(
            gen.to_string(),
            "<A(100, 100), VPROCS<[2,1],[j,j]>> ; <A(1:99, 2:100), VPROCS<[2,1],[j,j]>>"
        );
    }

    #[test]
    fn covers_needs_the_holders_too() {
        let ctx = Assumptions::none();
        let inn = set("<A(1:100, I), VPROCS<[2,1],[j,j]>>");
        let same = &set("<A(1, I), VPROCS<[2,1],[j,j]>>").0[0];
        let other = &set("<A(1, I), VPROCS<[1,2],[j,j]>>").0[0];
        assert!(inn.covers(same, None, &ctx));
        assert!(!inn.covers(other, None, &ctx));
        // A(1, I) is held by VPROCS(I, 1) under [2,1],[j,j]: the same holder
        // named by constants (Example 6: s6's copy fetched at s3).
        let at = &set("<A(1, I), VPROCS<[-,-],[=I,=1]>>").0[0];
        assert!(inn.covers(at, None, &ctx));
        let elsewhere = &set("<A(1, I), VPROCS<[-,-],[=I,=2]>>").0[0];
        assert!(!inn.covers(elsewhere, None, &ctx));
        let wide = set("<A(1:5, I), VPROCS<[-,-],[=1:10,=1]>>");
        assert!(wide.covers(&set("<A(2, I), VPROCS<[-,-],[=3,=1]>>").0[0], None, &ctx));
    }
}
