//! Covering writes: does a write V touch, for every instance of a reference
//! U, the element that instance touches? Then a V that always runs between
//! a dependence's source and U kills it: the element U touches was written
//! by V after the source (the dependence is the source's with V, and V's
//! with U), as Kanada & Ishida's minimal dependences and the dynamic ones
//! link an access only with the next access of the element.
//!
//! The question is `∀ x ∈ iterations(U) ∃ y ∈ iterations(V)` with `y` equal
//! to `x` on the common loops and the same subscripts. It is answered by
//! construction, never by search: V's other loop indices are solved from
//! subscript equations where they have coefficient ±1 (an integer for every
//! `x`), indices no subscript uses take their loop's first iteration, every
//! equation left must vanish, and each of V's loop constraints, rewritten
//! over `x`, must follow from U's loops and the symbols' ranges: the exact
//! integer test finds its negation infeasible. Anything else (a subscript
//! or a bound of V not affine, a coefficient other than ±1, a budget spent)
//! answers "not covered", which keeps the dependence.

use super::feasibility::{feasible_parts, Feasibility};
use super::linear::Linear;
use super::{LoopBound, Pair};

impl Pair<'_> {
    /// Whether V writes the element of every instance of U: for each point
    /// of U's iteration space, a point of V's in the same iterations of the
    /// common loops touches the same element.
    pub fn covered_by_v(&self) -> bool {
        self.cover_proof().unwrap_or(false)
    }

    /// [`Self::covered_by_v`]; `None` on overflow.
    fn cover_proof(&self) -> Option<bool> {
        let (a, b) = (self.u.loops.len(), self.v.loops.len());
        let is_v = |l: &Linear| (a..a + b).any(|k| l.coeff(k) != 0);
        let v_unknown = self.v.loops.contains(&LoopBound::Unknown);
        if self.differences.iter().any(Option::is_none) || v_unknown {
            return Some(false);
        }
        // U's domain (its loops and the symbols' ranges), and V's.
        let (mut v_domain, u_domain): (Vec<Linear>, Vec<Linear>) =
            self.domain.iter().cloned().partition(is_v);
        let mut eqs = self.equations();
        eqs.extend(self.same_outer_iterations(self.common, None));
        for k in (a..a + b).rev() {
            // I'_k = value, from an equation with coefficient ±1 on I'_k,
            // or the first iteration when no equation has I'_k.
            let value = match eqs.iter().position(|e| e.coeff(k).abs() == 1) {
                Some(i) => {
                    let e = eqs.swap_remove(i);
                    let c = e.coeff(k);
                    let mut rest = e;
                    rest.coeffs[k] = 0;
                    // c * I'_k + rest = 0, so I'_k = -c * rest (c = ±1).
                    rest.combine(-c, &Linear::zero(0), 0).ok()?
                }
                None if eqs.iter().all(|e| e.coeff(k) == 0) => Linear::zero(self.nvars()),
                None => return Some(false),
            };
            for l in eqs.iter_mut().chain(v_domain.iter_mut()) {
                let c = std::mem::take(&mut l.coeffs[k]);
                if c != 0 {
                    *l = l.combine(1, &value, c).ok()?;
                }
            }
        }
        if eqs.iter().any(|e| e.constant != 0 || !e.is_constant()) {
            return Some(false);
        }
        // Each of V's constraints `g >= 0` holds on U's domain: `g <= -1`
        // has no integer point there.
        for g in &v_domain {
            let violated = g.negated().ok()?.plus_constant(-1).ok()?;
            let mut budget = self.budget();
            let answer = feasible_parts(
                self.nvars(),
                &[],
                &[&u_domain, std::slice::from_ref(&violated)],
                &mut budget,
            );
            if answer != Feasibility::Infeasible {
                return Some(false);
            }
        }
        Some(true)
    }
}

#[cfg(test)]
mod tests {
    use super::super::symbolic::Packed;
    use super::super::{NormalForm, RefInfo, Subscript, SymbolRanges};
    use super::*;

    /// Whether the write `v` covers `u`, each a dims and a loops pack.
    fn covers(u: (&str, &str), v: (&str, &str)) -> bool {
        let u = Packed::parse(u.0, u.1).expect("u packed");
        let v = Packed::parse(v.0, v.1).expect("v packed");
        let common = u
            .loop_ids
            .iter()
            .zip(&v.loop_ids)
            .take_while(|(a, b)| a == b)
            .count();
        Pair::new(&u.info, &v.info, common, &SymbolRanges::new())
            .expect("pair")
            .covered_by_v()
    }

    /// `f` at iteration `x` with the symbol N = `n`.
    fn eval(f: &NormalForm, x: &[i64], n: i64) -> i64 {
        let loops: i64 = x.iter().enumerate().map(|(g, &i)| f.coeff(g) * i).sum();
        f.constant + loops + f.symbols.get("N").copied().unwrap_or(0) * n
    }

    /// The iteration points of a reference's loops, N = `n`.
    fn points(r: &RefInfo, n: i64) -> Vec<Vec<i64>> {
        let mut out = vec![vec![]];
        for bound in &r.loops {
            let LoopBound::Span { scale, span } = bound else {
                unreachable!("enumerated only with known bounds")
            };
            out = out
                .into_iter()
                .flat_map(|prefix: Vec<i64>| {
                    let limit = eval(span, &prefix, n);
                    (0..)
                        .take_while(move |&i| scale * i <= limit)
                        .map(move |i| {
                            let mut p = prefix.clone();
                            p.push(i);
                            p
                        })
                })
                .collect();
        }
        out
    }

    /// The element a reference touches at `x`, N = `n`.
    fn element(r: &RefInfo, x: &[i64], n: i64) -> Vec<i64> {
        r.subscripts
            .iter()
            .map(|s| match s {
                Subscript::Affine(f) => eval(f, x, n),
                Subscript::Unknown => unreachable!("enumerated only when affine"),
            })
            .collect()
    }

    /// Every point of U's space meets V, by enumeration with N = `n`: what
    /// `covers` must never claim wrongly.
    fn covers_by_enumeration(u: (&str, &str), v: (&str, &str), n: i64) -> bool {
        let u = Packed::parse(u.0, u.1).expect("u packed");
        let v = Packed::parse(v.0, v.1).expect("v packed");
        let common = u
            .loop_ids
            .iter()
            .zip(&v.loop_ids)
            .take_while(|(a, b)| a == b)
            .count();
        let written: Vec<(Vec<i64>, Vec<i64>)> = points(&v.info, n)
            .into_iter()
            .map(|y| (y[..common].to_vec(), element(&v.info, &y, n)))
            .collect();
        points(&u.info, n).into_iter().all(|x| {
            let e = element(&u.info, &x, n);
            written.iter().any(|(c, w)| c[..] == x[..common] && *w == e)
        })
    }

    /// (writer's dims and loops, reader's dims and loops, covered).
    type Case = (
        (&'static str, &'static str),
        (&'static str, &'static str),
        bool,
    );

    const CASES: &[Case] = &[
        // DO I = 1, N: A(I) = ... covers DO I = 1, N: ... = A(I).
        (
            ("|1+1*i5", ";5:1:0+1*N:1"),
            ("|1+1*i2", ";2:1:0+1*N:1"),
            true,
        ),
        // ... and a shorter range, A(I+1) for I = 1, N-1.
        (
            ("|2+1*i5", ";5:1:-1+1*N:1"),
            ("|1+1*i2", ";2:1:0+1*N:1"),
            true,
        ),
        // ... but not A(I+1) for I = 1, N: A(N+1) is not written.
        (
            ("|2+1*i5", ";5:1:0+1*N:1"),
            ("|1+1*i2", ";2:1:0+1*N:1"),
            false,
        ),
        // Even elements do not cover all.
        (
            ("|1+1*i5", ";5:1:0+1*N:1"),
            ("|2+2*i2", ";2:1:0+1*N:1"),
            false,
        ),
        // A reversed loop covers: DO I = N, 1, -1.
        (
            ("|1+1*i5", ";5:1:0+1*N:1"),
            ("|0-1*i2+1*N", ";2:0+1*N:1:-1"),
            true,
        ),
        // A 2-D sweep covers a transposed read, J outer.
        (
            ("|1+1*i5|1+1*i6", ";5:1:10:1;6:1:10:1"),
            ("|1+1*i3|1+1*i2", ";2:1:10:1;3:1:10:1"),
            true,
        ),
        // An inner loop no subscript uses: covered only when it runs.
        (
            ("|1+1*i5", ";5:1:10:1"),
            ("|1+1*i2", ";2:1:10:1;3:1:0+1*N:1"),
            false,
        ),
        (
            ("|1+1*i5", ";5:1:10:1"),
            ("|1+1*i2", ";2:1:10:1;3:1:3:1"),
            true,
        ),
        // In the same loop: V before U in the same iteration.
        (
            ("|1+1*i2", ";2:1:0+1*N:1"),
            ("|1+1*i2", ";2:1:0+1*N:1"),
            true,
        ),
        (
            ("|2+1*i2", ";2:1:0+1*N:1"),
            ("|1+1*i2", ";2:1:0+1*N:1"),
            false,
        ),
        // A constant element written once covers reads of it.
        (("|5", ";5:1:0+1*N:1"), ("|5", ""), true),
        (("|1+1*i5", ";5:1:0+1*N:1"), ("|5", ""), false),
        // Unknown bounds or subscripts of V: never covered.
        (("|1+1*i5", ";5:1:10:1"), ("|1+1*i2", ";2:1:?:1"), false),
        (("|1+1*i5", ";5:1:10:1"), ("|?", ";2:1:10:1"), false),
    ];

    #[test]
    fn covers_what_enumeration_shows_and_only_that() {
        for &(u, v, expected) in CASES {
            assert_eq!(covers(u, v), expected, "{u:?} by {v:?}");
            if expected {
                for n in 0..6 {
                    assert!(covers_by_enumeration(u, v, n), "{u:?} by {v:?}, N = {n}");
                }
            }
        }
    }
}
