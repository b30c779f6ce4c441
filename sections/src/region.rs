//! Regions of spec 001 (section 1.1): the data a part of a program may
//! modify (MOD) or use (USE), surely defines (DDEF), may use before it
//! defines it (EUSE), or may leave to be read later (LIVE).
//!
//! A [`Region`] is a set of elements of several variables: sections, each
//! with its variable's name (a scalar is a section of rank 0). A
//! [`Summary`] keeps the MOD, USE, DDEF and EUSE of one part of a program
//! and combines parts by the spec's rules: the two branches of an IF
//! (Case 1, [`Summary::join`]), a sequence (Case 2, [`Summary::then`]) and
//! every iteration of a DO loop (Case 3, [`Summary::over`]). MOD, USE,
//! EUSE and LIVE are may-sets (widened when a result cannot be written),
//! DDEF a must-set (narrowed).
//!
//! A summary's sections are in terms of the values scalars hold where its
//! part starts. So when parts are put in sequence, the sections of the
//! second that name a scalar the first may modify no longer say which
//! elements: they are made stale (a may-set widens those subscripts to `?`,
//! a must-set drops the item). The same holds across iterations for every
//! scalar the body modifies but the DO variable.
//!
//! Text: `A(1:N, I) ; S` (items joined by ` ; `, `{}` for none); a summary
//! is its four sets joined by ` | `, in the order MOD, USE, DDEF, EUSE.

use crate::assumptions::Assumptions;
use crate::dim::{Dim, Triplet};
use crate::iterations::Loop;
use crate::section::Section;
use crate::subset::{is_empty, is_subset, is_subset_within};
use crate::{difference_pieces, intersection, iterations, parse_section, union};
use crate::{Affine, Answer, Approx};
use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::str::FromStr;

/// A set of elements of several variables: a union of named sections.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Region(Vec<(String, Section)>);

fn text(name: &str, s: &Section) -> String {
    s.named(name).to_string()
}

impl Region {
    /// The union of `items`, sorted by their text, without duplicates or
    /// items with no element.
    pub fn of(items: impl IntoIterator<Item = (String, Section)>) -> Region {
        let mut v: Vec<(String, Section)> = items
            .into_iter()
            .filter(|(_, s)| *s != Section::Empty)
            .collect();
        v.sort_by_cached_key(|(n, s)| text(n, s));
        v.dedup();
        Region(v)
    }

    pub fn items(&self) -> &[(String, Section)] {
        &self.0
    }

    /// Whether an item is a section of `name`.
    pub fn names(&self, name: &str) -> bool {
        self.0.iter().any(|(n, _)| n == name)
    }

    /// The scalars it holds.
    pub fn scalars(&self) -> BTreeSet<&str> {
        self.0
            .iter()
            .filter(|(_, s)| s.rank() == Some(0))
            .map(|(n, _)| n.as_str())
            .collect()
    }

    /// `a ∪ b` of two may-sets or two must-sets: sections of one variable
    /// are merged where their union is exactly a section, kept apart
    /// otherwise.
    pub fn union(&self, other: &Region, mode: Approx, ctx: &Assumptions) -> Region {
        let mut out: Vec<(String, Section)> = Vec::new();
        let mut slots: HashMap<&str, Vec<usize>> = HashMap::new();
        'next: for (n, s) in self.0.iter().chain(&other.0) {
            let mine = slots.entry(n.as_str()).or_default();
            for &k in mine.iter() {
                let u = union(&out[k].1, s, mode, ctx);
                if u.exact {
                    out[k].1 = u.section;
                    continue 'next;
                }
            }
            mine.push(out.len());
            out.push((n.clone(), s.clone()));
        }
        Region::of(out)
    }

    /// The sections of each variable.
    fn by_name(&self) -> HashMap<&str, Vec<&Section>> {
        let mut m: HashMap<&str, Vec<&Section>> = HashMap::new();
        for (n, s) in &self.0 {
            m.entry(n.as_str()).or_default().push(s);
        }
        m
    }

    /// `a ∩ b` (must): the elements both surely hold.
    pub fn meet(&self, other: &Region, ctx: &Assumptions) -> Region {
        let theirs = other.by_name();
        let mut out = Vec::new();
        for (n, s) in &self.0 {
            for t in theirs.get(n.as_str()).into_iter().flatten() {
                let x = intersection(s, t, Approx::Must, ctx).section;
                if is_empty(&x, ctx) != Answer::Yes {
                    out.push((n.clone(), x));
                }
            }
        }
        Region::of(out)
    }

    /// `a − b`, approximated in `mode`. A may-set minus a must-set also
    /// drops the pieces that lie in the hull of adjacent sections of `b`
    /// (`A(0)`, `A(1:N-1)` and `A(N)` surely hold `A(0:N)`, see
    /// [`adjacent_hulls`]) or in a section of `b` within the array's
    /// declared bounds ([`is_subset_within`]): what `LHS(3, N-1)` reads
    /// after those three writes is none of what the part before exposes,
    /// even where N-1 < 1 (then N-1 = 0, as LHS is declared `0:162`).
    pub fn minus(&self, other: &Region, mode: Approx, ctx: &Assumptions) -> Region {
        let theirs = other.by_name();
        let mut out = Vec::new();
        for (n, s) in &self.0 {
            let mut pieces = vec![s.clone()];
            let sure: Vec<&Section> = theirs.get(n.as_str()).cloned().unwrap_or_default();
            for t in &sure {
                pieces = pieces
                    .iter()
                    .flat_map(|p| difference_pieces(p, t, mode, ctx).0)
                    .collect();
            }
            if mode == May && !pieces.is_empty() && !sure.is_empty() {
                let hulls = adjacent_hulls(&sure);
                let declared = ctx.declared(n);
                pieces.retain(|p| {
                    let covered = |t: &Section| match declared {
                        Some(d) => is_subset_within(p, t, d, ctx) == Answer::Yes,
                        None => is_subset(p, t, ctx) == Answer::Yes,
                    };
                    !hulls.iter().any(covered)
                        && (declared.is_none() || !sure.iter().any(|t| covered(t)))
                });
            }
            out.extend(
                pieces
                    .into_iter()
                    .filter(|p| is_empty(p, ctx) != Answer::Yes)
                    .map(|p| (n.clone(), p)),
            );
        }
        Region::of(out).union(&Region::default(), mode, ctx)
    }

    /// The elements over every iteration of `l`, widened or narrowed.
    pub fn iterations(&self, l: &Loop, mode: Approx, ctx: &Assumptions) -> Region {
        let out = self.0.iter().filter_map(|(n, s)| {
            let x = iterations(s, l, mode, ctx).section;
            (is_empty(&x, ctx) != Answer::Yes).then(|| (n.clone(), x))
        });
        Region::of(out)
            .stale(&BTreeSet::from([l.var.as_str()]), mode)
            .union(&Region::default(), mode, ctx)
    }

    /// The elements over the iterations of `l` before the current one, in
    /// terms of the current value of its DO variable (`lo : var-step`).
    pub fn before(&self, l: &Loop, mode: Approx, ctx: &Assumptions) -> Region {
        let fresh = format!("{}'", l.var);
        let renamed = self.0.iter().filter_map(|(n, s)| {
            let t = s.substitute(&l.var, &Affine::symbol(&fresh))?;
            Some((n.clone(), t))
        });
        let renamed = Region::of(renamed);
        match Affine::symbol(&l.var).add_constant(-l.step) {
            Some(hi) => renamed.iterations(&Loop::new(&fresh, l.lo.clone(), hi, l.step), mode, ctx),
            None if mode == Approx::May => renamed.stale(&BTreeSet::from([fresh.as_str()]), mode),
            None => Region::default(),
        }
    }

    /// The items that name one of `scalars` in a subscript or bound no
    /// longer say which elements: may widens those dimensions to `?`, must
    /// drops the item.
    /// What is live at the end of an iteration of a loop whose DO variable
    /// is `var`, from what is live when the loop ends (`self`, in terms of
    /// the values then): the increment reads `var` and gives it another value.
    pub fn before_increment(&self, var: &str, a: &Assumptions) -> Region {
        self.stale(&BTreeSet::from([var]), Approx::May).union(
            &Region::of([(var.to_string(), Section::Dims(vec![]))]),
            Approx::May,
            a,
        )
    }

    pub fn stale(&self, scalars: &BTreeSet<&str>, mode: Approx) -> Region {
        let out = self.0.iter().filter_map(|(n, s)| {
            let hit = |d: &Dim| scalars.iter().any(|v| d.mentions(v));
            let dims = s.dims()?;
            if !dims.iter().any(hit) {
                return Some((n.clone(), s.clone()));
            }
            match mode {
                Approx::Must => None,
                Approx::May => Some((
                    n.clone(),
                    Section::Dims(
                        dims.iter()
                            .map(|d| if hit(d) { Dim::Unknown } else { d.clone() })
                            .collect(),
                    ),
                )),
            }
        });
        // Sections that are not products (Unknown) name no scalar: kept.
        let other = self.0.iter().filter(|(_, s)| s.dims().is_none()).cloned();
        Region::of(out.chain(other))
    }
}

impl fmt::Display for Region {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return write!(f, "{{}}");
        }
        for (i, (n, s)) in self.0.iter().enumerate() {
            if i > 0 {
                write!(f, " ; ")?;
            }
            write!(f, "{}", s.named(n))?;
        }
        Ok(())
    }
}

impl FromStr for Region {
    type Err = crate::ParseError;

    fn from_str(t: &str) -> Result<Region, Self::Err> {
        let t = t.trim();
        if t == "{}" || t.is_empty() {
            return Ok(Region::default());
        }
        t.split(" ; ")
            .map(parse_section)
            .collect::<Result<Vec<_>, _>>()
            .map(Region::of)
    }
}

/// MOD, USE, DDEF and EUSE of one part of a program.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub modified: Region,
    pub used: Region,
    pub defined: Region,
    pub exposed: Region,
}

use Approx::{May, Must};

impl Summary {
    /// A part that only reads `r` (what is live at its start).
    pub fn reading(r: Region) -> Summary {
        Summary {
            used: r.clone(),
            exposed: r,
            ..Summary::default()
        }
    }

    fn stale(&self, scalars: &BTreeSet<&str>) -> Summary {
        Summary {
            modified: self.modified.stale(scalars, May),
            used: self.used.stale(scalars, May),
            defined: self.defined.stale(scalars, Must),
            exposed: self.exposed.stale(scalars, May),
        }
    }

    /// Case 2: this part, then `next` (whose sections are in terms of the
    /// values at its own start).
    pub fn then(&self, next: &Summary, ctx: &Assumptions) -> Summary {
        let n = next.stale(&self.modified.scalars());
        Summary {
            modified: self.modified.union(&n.modified, May, ctx),
            used: self.used.union(&n.used, May, ctx),
            defined: self.defined.union(&n.defined, Must, ctx),
            exposed: self
                .exposed
                .union(&n.exposed.minus(&self.defined, May, ctx), May, ctx),
        }
    }

    /// Case 1: this part or `other` (the two branches of an IF).
    pub fn join(&self, other: &Summary, ctx: &Assumptions) -> Summary {
        Summary {
            modified: self.modified.union(&other.modified, May, ctx),
            used: self.used.union(&other.used, May, ctx),
            defined: self.defined.meet(&other.defined, ctx),
            exposed: self.exposed.union(&other.exposed, May, ctx),
        }
    }

    /// Any number of runs of a body whose loop has no DO variable (DO
    /// WHILE): what it modifies changes from run to run, and nothing is
    /// surely defined.
    pub fn repeated(&self) -> Summary {
        let s = self.stale(&self.modified.scalars());
        Summary {
            defined: Region::default(),
            ..s
        }
    }

    /// Case 3: every iteration of DO loop `l` whose body this summarizes
    /// (`None`: a loop whose bounds are not affine; `var` its DO
    /// variable). EUSE is the union over i of EUSE(i) minus the DDEF of the
    /// iterations before i. The DO variable is modified and defined by the
    /// loop (even one that runs no iteration) before any iteration reads
    /// it, and read by its increments.
    pub fn over(&self, var: &str, l: Option<&Loop>, ctx: &Assumptions) -> Summary {
        let own = Region::of([(var.to_string(), Section::Dims(vec![]))]);
        let Some(l) = l else {
            let s = self.repeated().stale(&BTreeSet::from([var]));
            return Summary {
                modified: s.modified.union(&own, May, ctx),
                used: s.used.union(&own, May, ctx),
                exposed: s.exposed.minus(&own, May, ctx),
                defined: own,
            };
        };
        let mut changed = self.modified.scalars();
        changed.remove(var);
        let s = self.stale(&changed);
        let before = s.defined.before(l, Must, ctx);
        Summary {
            modified: s.modified.iterations(l, May, ctx).union(&own, May, ctx),
            used: s.used.iterations(l, May, ctx).union(&own, May, ctx),
            defined: s.defined.iterations(l, Must, ctx).union(&own, Must, ctx),
            exposed: s
                .exposed
                .minus(&before, May, ctx)
                .minus(&own, May, ctx)
                .iterations(l, May, ctx),
        }
    }
}

/// What sections of one array in a must-set surely hold together beyond
/// each alone: the hull of two that differ in one dimension only, where
/// they are runs of consecutive indices and the second starts right after
/// the first ends (`A(1:5, 0)` and `A(1:5, 1:N-1)` give `A(1:5, 0:N-1)`),
/// repeated while new ones come (at most a few rounds). Sound whatever the
/// symbols: every index of `a:c` is in `a:b` or in `b+1:c`, empty or not.
fn adjacent_hulls(sure: &[&Section]) -> Vec<Section> {
    const ROUNDS: usize = 3;
    let mut all: Vec<Section> = sure.iter().map(|s| (*s).clone()).collect();
    let mut hulls: Vec<Section> = Vec::new();
    for _ in 0..ROUNDS {
        let mut found = Vec::new();
        for a in &all {
            for b in &all {
                if let Some(h) = adjacent_hull(a, b) {
                    if !all.contains(&h) && !found.contains(&h) {
                        found.push(h);
                    }
                }
            }
        }
        if found.is_empty() {
            break;
        }
        all.extend(found.iter().cloned());
        hulls.extend(found);
    }
    hulls
}

/// `a` followed by `b` in one dimension, the others alike (see
/// [`adjacent_hulls`]).
fn adjacent_hull(a: &Section, b: &Section) -> Option<Section> {
    let (Section::Dims(x), Section::Dims(y)) = (a, b) else {
        return None;
    };
    if x.len() != y.len() {
        return None;
    }
    let mut differing = (0..x.len()).filter(|&j| x[j] != y[j]);
    let (Some(j), None) = (differing.next(), differing.next()) else {
        return None;
    };
    let (Dim::Triplet(s), Dim::Triplet(t)) = (&x[j], &y[j]) else {
        return None;
    };
    let consecutive = |t: &Triplet| t.stride() == 1 || t.as_point().is_some();
    if !consecutive(s) || !consecutive(t) || t.first().sub(s.bound())?.as_constant()? != 1 {
        return None;
    }
    let joined = Triplet::new(s.first().clone(), t.bound().clone(), 1)?;
    let mut dims = x.clone();
    dims[j] = Dim::Triplet(joined);
    Some(Section::Dims(dims))
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} | {} | {} | {}",
            self.modified, self.used, self.defined, self.exposed
        )
    }
}

impl FromStr for Summary {
    type Err = crate::ParseError;

    fn from_str(t: &str) -> Result<Summary, Self::Err> {
        let parts: Vec<&str> = t.split(" | ").collect();
        let [m, u, d, e] = parts[..] else {
            return Err(crate::ParseError {
                offset: 0,
                message: "a summary is four sets joined by ` | `".to_string(),
            });
        };
        Ok(Summary {
            modified: m.parse()?,
            used: u.parse()?,
            defined: d.parse()?,
            exposed: e.parse()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::enumerate::{elements, Elements};
    use std::collections::BTreeMap;
    use std::sync::Arc;

    fn r(t: &str) -> Region {
        t.parse().unwrap()
    }

    fn s(t: &str) -> Summary {
        t.parse().unwrap()
    }

    /// The elements of a region under `env`, as (name, index tuple), with
    /// `?` and `:` read as 1..=6 (may) or nothing (must).
    fn points(
        x: &Region,
        env: &BTreeMap<String, i64>,
        mode: Approx,
    ) -> BTreeSet<(String, Vec<i64>)> {
        let mut out = BTreeSet::new();
        for (n, sec) in x.items() {
            match elements(sec, env, (1, 6), mode).unwrap() {
                Elements::Everything => {
                    for i in 1..=6 {
                        out.insert((n.clone(), vec![i]));
                    }
                }
                Elements::Set(set) => out.extend(set.into_iter().map(|t| (n.clone(), t))),
            }
        }
        out
    }

    fn env(pairs: &[(&str, i64)]) -> BTreeMap<String, i64> {
        pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
    }

    #[test]
    fn text_round_trips() {
        for t in ["{}", "A(1:N, I) ; S", "B(?) ; T"] {
            assert_eq!(r(t).to_string(), t);
        }
        let x = s("A(I) ; S | B(I) | S | B(I)");
        assert_eq!(x.to_string(), "A(I) ; S | B(I) | S | B(I)");
        assert!("A(I) | B".parse::<Summary>().is_err());
    }

    #[test]
    fn a_sequence_exposes_what_the_first_part_did_not_define() {
        let ctx = Assumptions::none();
        let first = s("T ; X(I) | A(I) | T ; X(I) | A(I)");
        let second = s("Y(I) | T ; X(I) ; X(I+1) | Y(I) | T ; X(I) ; X(I+1)");
        let both = first.then(&second, &ctx);
        assert_eq!(both.exposed.to_string(), "A(I) ; X(I+1)");
        assert_eq!(both.defined.to_string(), "T ; X(I) ; Y(I)");
        assert_eq!(both.used.to_string(), "A(I) ; T ; X(I:I+1)");
    }

    /// MG's `resid`: `U1(1:N1)` written whole, then read from 1 to N1: the
    /// read is covered whatever N1 is (both empty when N1 < 1), though
    /// nothing says how N1 compares with 0.
    #[test]
    fn a_symbolic_section_covers_itself() {
        let ctx = Assumptions::none();
        let first = s("U1(1:N1) | U(1:N1) | U1(1:N1) | U(1:N1)");
        let second = s("R(2:N1-1) | U1(1:N1) | R(2:N1-1) | U1(1:N1)");
        let both = first.then(&second, &ctx);
        assert_eq!(both.exposed.to_string(), "U(1:N1)");
        let inner = s("{} | U1(2:N1) | {} | U1(2:N1)");
        assert_eq!(first.then(&inner, &ctx).exposed.to_string(), "U(1:N1)");
        // Not beyond: U1(0:N1) reads U1(0).
        let wider = s("{} | U1(0:N1) | {} | U1(0:N1)");
        assert_ne!(first.then(&wider, &ctx).exposed.to_string(), "U(1:N1)");
    }

    #[test]
    fn sections_after_a_changed_scalar_are_stale() {
        let ctx = Assumptions::none();
        // M = M + 1, then A(M) = A(M) + 1: the element is not the one at entry.
        let first = s("M | M | M | M");
        let second = s("A(M) | A(M) | A(M) | A(M)");
        let both = first.then(&second, &ctx);
        assert_eq!(both.defined.to_string(), "M");
        assert_eq!(both.exposed.to_string(), "A(?) ; M");
        assert_eq!(both.modified.to_string(), "A(?) ; M");
    }

    #[test]
    fn branches_define_only_what_both_define() {
        let ctx = Assumptions::none();
        let then = s("S ; T | X | S ; T | X");
        let other = s("T | Y | T | Y");
        let j = then.join(&other, &ctx);
        assert_eq!(j.defined.to_string(), "T");
        assert_eq!(j.modified.to_string(), "S ; T");
        assert_eq!(j.exposed.to_string(), "X ; Y");
    }

    #[test]
    fn a_loop_exposes_only_what_earlier_iterations_did_not_define() {
        let ctx = Assumptions::none();
        let l = Loop::new("I", Affine::constant(1), Affine::symbol("N"), 1);
        // X(I) = X(I-1) + A(I): X(0) and A(1:N) are exposed; X(I-1) minus
        // X(1:I-1) is X(0) in the first iteration only, which a section in
        // terms of I cannot say: may keeps X(I-1) (no iteration is peeled).
        let body = s("X(I) | A(I) ; X(I-1) | X(I) | A(I) ; X(I-1)");
        let all = body.over("I", Some(&l), &ctx);
        assert_eq!(all.modified.to_string(), "I ; X(1:N)");
        assert_eq!(all.exposed.to_string(), "A(1:N) ; X(0:N-1)");
        // The body reads I, which the loop defines first.
        let body = s("X(I) | I | X(I) | I");
        assert_eq!(body.over("I", Some(&l), &ctx).exposed.to_string(), "{}");
        // T(J) filled, then read, in every iteration: nothing exposed.
        let body = s("T(1:N) | T(1:N) | T(1:N) | {}");
        assert_eq!(body.over("I", Some(&l), &ctx).exposed.to_string(), "{}");
        // X(I) = 0 then X(I-1) read: X(I-1) was defined by the iteration
        // before, except in the first.
        let body = s("X(I) | X(I-1) | X(I) | X(I-1)");
        let l2 = Loop::new("I", Affine::constant(2), Affine::symbol("N"), 1);
        assert_eq!(
            body.over("I", Some(&l2), &ctx).exposed.to_string(),
            "X(1:N-1)"
        );
        // S = S + A(I): S is exposed (in the first iteration) and defined
        // only when the loop runs.
        let body = s("S | A(I) ; S | S | A(I) ; S");
        let all = body.over("I", Some(&l), &ctx);
        assert_eq!(all.exposed.to_string(), "A(1:N) ; S");
        assert!(!all.defined.names("S"));
        let ten = Loop::new("I", Affine::constant(1), Affine::constant(10), 1);
        assert!(body.over("I", Some(&ten), &ctx).defined.names("S"));
    }

    #[test]
    fn unknown_bounds_widen_what_moves_with_the_loop() {
        let ctx = Assumptions::none();
        let body = s("X(I) ; T | A(I) | X(I) ; T | A(I)");
        let all = body.over("I", None, &ctx);
        assert_eq!(all.modified.to_string(), "I ; T ; X(?)");
        assert_eq!(all.defined.to_string(), "I");
        assert_eq!(all.exposed.to_string(), "A(?)");
    }

    /// Every operation against enumeration on small constant sections.
    #[test]
    fn operations_agree_with_enumeration() {
        let ctx = Assumptions::none();
        let texts = [
            "{}",
            "A(1:4)",
            "A(2:6:2)",
            "A(3)",
            "A(1:4) ; B(2)",
            "A(5:6) ; S",
            "S",
            "A(?)",
        ];
        let e = env(&[]);
        for a in texts {
            for b in texts {
                let (x, y) = (r(a), r(b));
                let (px, py) = (points(&x, &e, Approx::May), points(&y, &e, Approx::May));
                let u = points(&x.union(&y, Approx::May, &ctx), &e, Approx::May);
                assert_eq!(u, &px | &py, "{a} ∪ {b}");
                let m = points(&x.minus(&y, Approx::May, &ctx), &e, Approx::May);
                let must_y = points(&y, &e, Approx::Must);
                assert!(m.is_superset(&(&px - &must_y)), "{a} − {b} (may)");
                let (mx, my) = (points(&x, &e, Approx::Must), points(&y, &e, Approx::Must));
                let meet = points(&x.meet(&y, &ctx), &e, Approx::Must);
                assert!(meet.is_subset(&(&mx & &my)), "{a} ∩ {b} (must)");
            }
        }
    }

    /// BT's solver: LHS(:, 0), LHS(:, 1:N-1) and LHS(:, N) written, then
    /// LHS(3, N-1) read: nothing exposed once the bounds say N-1 >= 0.
    #[test]
    fn adjacent_writes_and_declared_bounds_cover_a_read() {
        let read = r("LHS(3, N-1)");
        let written = r("LHS(1:5, 0) ; LHS(1:5, 1:N-1) ; LHS(1:5, N)");
        let none = Assumptions::none();
        assert_eq!(read.minus(&written, May, &none).to_string(), "LHS(3, N-1)");
        // N-2 may be -1 (N = 1), below every written index.
        assert_eq!(
            r("LHS(3, N-2)").minus(&written, May, &none).to_string(),
            "LHS(3, N-2)"
        );
        let declared = BTreeMap::from([("LHS".to_string(), vec![Some((1, 5)), Some((0, 10))])]);
        let ctx = Assumptions::none().with_declared(Arc::new(declared));
        let left = read.minus(&written, May, &ctx);
        assert_eq!(left.to_string(), "{}");
        // Against enumeration: every element the read may touch inside the
        // bounds is surely written, for every N.
        for n in -2..=12 {
            let e = env(&[("N", n)]);
            let inside: BTreeSet<_> = points(&read, &e, May)
                .into_iter()
                .filter(|(_, i)| (0..=10).contains(&i[1]))
                .collect();
            assert!(inside.is_subset(&points(&written, &e, Must)), "N = {n}");
        }
        // A gap: LHS(:, N) is not written (LHS(:, 0:N-1) still is).
        let gap = r("LHS(1:5, 0) ; LHS(1:5, 1:N-1) ; LHS(1:5, N+1)");
        assert_eq!(read.minus(&gap, May, &ctx).to_string(), "{}");
        assert_eq!(
            r("LHS(3, N)").minus(&gap, May, &ctx).to_string(),
            "LHS(3, N)"
        );
    }

    #[test]
    fn before_holds_the_earlier_iterations() {
        let ctx = Assumptions::none();
        let l = Loop::new("I", Affine::constant(1), Affine::constant(5), 1);
        let x = r("X(I)");
        for i in 1..=5 {
            let e = env(&[("I", i)]);
            let before = points(&x.before(&l, Approx::Must, &ctx), &e, Approx::Must);
            let want: BTreeSet<_> = (1..i).map(|j| ("X".to_string(), vec![j])).collect();
            assert!(before.is_subset(&want), "I = {i}: {before:?}");
            let may = points(&x.before(&l, Approx::May, &ctx), &e, Approx::May);
            assert!(may.is_superset(&want), "I = {i}: {may:?}");
        }
    }
}
