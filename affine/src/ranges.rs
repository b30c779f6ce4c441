//! The cheap test asked before the exact one: the range of each subscript
//! difference `U_d - V_d` over a box holding both references' iteration
//! spaces (each loop's bounds over the ranges of the loops outside it).
//! When zero lies outside the range of some dimension, or some loop's box
//! is empty, U and V never touch one element and the exact test is not
//! asked. Most pairs of references in different nests that never meet are
//! told apart here. Sound, not exact: the box holds every iteration, and
//! a range that holds zero decides nothing.

use super::linear::Linear;
use super::pair::Pair;

/// The values a variable can take; `None` on a side: unbounded there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Interval {
    lo: Option<i128>,
    hi: Option<i128>,
}

impl Interval {
    const ANY: Interval = Interval { lo: None, hi: None };

    fn is_empty(self) -> bool {
        matches!((self.lo, self.hi), (Some(lo), Some(hi)) if lo > hi)
    }

    fn contains(self, x: i128) -> bool {
        self.lo.is_none_or(|lo| lo <= x) && self.hi.is_none_or(|hi| x <= hi)
    }
}

/// The range of `constant + Σ coeffs[i] x_i` (leaving out `skip`) with
/// each `x_i` in `vars[i]`; an overflow leaves that side unbounded.
fn range(l: &Linear, vars: &[Interval], skip: Option<usize>) -> Interval {
    let mut lo = Some(i128::from(l.constant));
    let mut hi = lo;
    for (i, (&c, x)) in l.coeffs.iter().zip(vars).enumerate() {
        if c == 0 || Some(i) == skip {
            continue;
        }
        let c = i128::from(c);
        let (least, greatest) = if c > 0 { (x.lo, x.hi) } else { (x.hi, x.lo) };
        let term = |bound: Option<i128>| bound.and_then(|b| b.checked_mul(c));
        lo = lo.zip(term(least)).and_then(|(a, b)| a.checked_add(b));
        hi = hi.zip(term(greatest)).and_then(|(a, b)| a.checked_add(b));
    }
    Interval { lo, hi }
}

/// Narrows `vars` by the constraint `l >= 0`: for each variable `x_k` with
/// coefficient `a`, `a x_k >= -(rest)` over the others' ranges.
fn narrow(l: &Linear, vars: &mut [Interval]) {
    for k in 0..vars.len() {
        let a = i128::from(l.coeff(k));
        if a == 0 {
            continue;
        }
        // a x_k >= -rest >= -max(rest)
        let Some(bound) = range(l, vars, Some(k)).hi.and_then(i128::checked_neg) else {
            continue;
        };
        let x = &mut vars[k];
        if a > 0 {
            // x_k >= ceil(bound / a)
            let lo = -(-bound).div_euclid(a);
            x.lo = Some(x.lo.map_or(lo, |old| old.max(lo)));
        } else {
            // x_k <= floor(-bound / -a)
            let hi = (-bound).div_euclid(-a);
            x.hi = Some(x.hi.map_or(hi, |old| old.min(hi)));
        }
    }
}

impl Pair<'_> {
    /// Do the ranges alone show that U and V never touch one element?
    pub(crate) fn never_meet_by_ranges(&self) -> bool {
        let mut vars = vec![Interval::ANY; self.nvars()];
        // The rows come in order: symbols, then each loop after the loops
        // outside it, so one pass sees every bound it depends on.
        for row in &self.domain {
            narrow(row, &mut vars);
        }
        vars.iter().any(|x| x.is_empty())
            || self
                .differences
                .iter()
                .flatten()
                .any(|d| !range(d, &vars, None).contains(0))
    }
}

#[cfg(test)]
mod tests {
    use super::super::*;

    fn one_loop(subscript: NormalForm, trip: i64) -> RefInfo {
        RefInfo {
            subscripts: vec![Subscript::Affine(subscript)],
            loops: vec![LoopBound::trip(trip)],
            guards: Vec::new(),
        }
    }

    fn never_meet(u: &RefInfo, v: &RefInfo, common: usize) -> bool {
        Pair::new(u, v, common, &SymbolRanges::new())
            .unwrap()
            .never_meet_by_ranges()
    }

    #[test]
    fn disjoint_ranges_in_different_nests_never_meet() {
        // A(I) for I = 0..9, then A(J + 10) for J = 0..4.
        let u = one_loop(NormalForm::new(0, &[1]), 10);
        let v = one_loop(NormalForm::new(10, &[1]), 5);
        assert!(never_meet(&u, &v, 0));
        // A(J + 9) reaches A(9).
        let w = one_loop(NormalForm::new(9, &[1]), 5);
        assert!(!never_meet(&u, &w, 0));
    }

    #[test]
    fn a_triangular_loop_is_bounded_by_the_outer_one() {
        // DO I = 0, 4; DO J = 0, I: A(I + J) reaches at most A(8).
        let inner = LoopBound::Span {
            scale: 1,
            span: NormalForm::new(0, &[1]),
        };
        let u = RefInfo {
            subscripts: vec![Subscript::Affine(NormalForm::new(0, &[1, 1]))],
            loops: vec![LoopBound::trip(5), inner],
            guards: Vec::new(),
        };
        let at = |c| one_loop(NormalForm::new(c, &[0]), 1);
        assert!(never_meet(&u, &at(9), 0));
        assert!(!never_meet(&u, &at(8), 0));
    }

    #[test]
    fn an_empty_loop_meets_nothing() {
        let u = one_loop(NormalForm::new(0, &[1]), 0);
        let v = one_loop(NormalForm::new(0, &[1]), 3);
        assert!(never_meet(&u, &v, 0));
    }

    #[test]
    fn unknowns_decide_nothing() {
        // A(I + N) against A(I): N may be anything.
        let u = one_loop(NormalForm::new(0, &[1]).with_symbol("N", 1), 10);
        let v = one_loop(NormalForm::new(100, &[1]), 10);
        assert!(!never_meet(&u, &v, 0));
        // An unknown bound leaves the loop unbounded above.
        let unknown = RefInfo {
            subscripts: vec![Subscript::Affine(NormalForm::new(0, &[1]))],
            loops: vec![LoopBound::Unknown],
            guards: Vec::new(),
        };
        assert!(!never_meet(&unknown, &v, 0));
        // A subscript without a normal form.
        let opaque = RefInfo {
            subscripts: vec![Subscript::Unknown],
            loops: vec![LoopBound::trip(10)],
            guards: Vec::new(),
        };
        assert!(!never_meet(&opaque, &v, 0));
    }
}
