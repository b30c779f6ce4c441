//! Loop dependence information (section 3 of Ishida & Kanada) and the rules
//! that decide it: the coefficient rules (1)-(3) of section 4, the Diophantine
//! method of section 5, and our exact integer test.
//!
//! For a common loop `g` of U and V and `n >= 0`, with the loops outside `g`
//! at the same iteration for both references:
//! - **loop n-times exact coincidence** (ループn回完全一致性): every access of V
//!   in the iteration of `g` that comes `n` after U's touches the element U
//!   touched. It is universal over U's and V's iterations (and the symbols),
//!   as rule (1) is; it holds vacuously when no iteration has a partner `n`
//!   later, so a certain dependence needs it *and* a possible coincidence.
//! - **loop n-times possible coincidence** (ループn回一致可能性): V may touch,
//!   exactly `n` iterations of `g` later, an element U touched.
//! - **loop n-or-more possible coincidence** (ループn回以上一致可能性): the same,
//!   `n` or more iterations later.
//!
//! The rules are tried cheapest first; each decides only what it proves.
//! [`Verdict::Unknown`] means no rule decided (the exact test ran out of
//! budget, or non-affine subscripts or unknown bounds hide the answer):
//! callers must then assume the coincidence possible and not exact.

use super::diophantine;
use super::feasibility::{feasible, Feasibility, System};
use super::linear::{gcd, Linear, Parametric};
use super::normal_form::{NormalForm, Subscript, SubscriptError};
use super::pair::Pair;

/// The three loop dependence properties of section 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Property {
    /// Loop n-times exact coincidence.
    ExactCoincidence,
    /// Loop n-times possible coincidence.
    PossibleCoincidence,
    /// Loop n-or-more possible coincidence.
    PossibleCoincidenceOrMore,
}

/// The rule that decided a verdict, numbered as in the paper.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// (1): `C0 = D0 + D_g n`, equal coefficients on `g` and the outer loops,
    /// zero coefficients on every other loop, in every dimension.
    Coefficient1,
    /// (2-1) on dimension `dim`: U's subscript is always the larger.
    Coefficient2_1 { dim: usize },
    /// (2-2) on dimension `dim`: U's subscript is always the smaller.
    Coefficient2_2 { dim: usize },
    /// (3-1) on dimension `dim`: (2-1) for every later iteration (`D_g <= 0`).
    Coefficient3_1 { dim: usize },
    /// (3-2) on dimension `dim`: (2-2) for every later iteration (`D_g >= 0`).
    Coefficient3_2 { dim: usize },
    /// Section 5: the general solution of the subscript equations, with the
    /// loop bounds tightened to the solutions' congruence classes, leaves no
    /// solution (conditions (3), (4-1), (4-2)).
    Diophantine,
    /// Our exact integer test of the whole system (all dimensions, the bounds,
    /// triangular loops, symbols).
    Exact,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    Holds(Rule),
    DoesNotHold(Rule),
    /// Undecided: assume the coincidence possible and not exact.
    Unknown,
}

impl Pair<'_> {
    /// Does `property` hold for U then V with respect to common loop `g`
    /// (0 = outermost) and `n` iterations?
    pub fn coincidence(
        &self,
        g: usize,
        n: i64,
        property: Property,
    ) -> Result<Verdict, SubscriptError> {
        if g >= self.common {
            return Err(SubscriptError::NotCommonLoop {
                loop_index: g,
                common: self.common,
            });
        }
        if n < 0 {
            return Err(SubscriptError::NegativeCount { n });
        }
        if let Some(verdict) = self.coefficient_rules(g, n, property) {
            return Ok(verdict);
        }
        if property != Property::ExactCoincidence && self.diophantine_rule(g, n, property) {
            return Ok(Verdict::DoesNotHold(Rule::Diophantine));
        }
        Ok(self.exact_rule(g, n, property))
    }

    /// Section 4. Every standard induction variable is `>= 0`; the sign of
    /// `U_d - V_d` then follows from the signs of its coefficients.
    fn coefficient_rules(&self, g: usize, n: i64, property: Property) -> Option<Verdict> {
        let forms = self
            .u
            .subscripts
            .iter()
            .zip(&self.v.subscripts)
            .map(|pair| match pair {
                (Subscript::Affine(c), Subscript::Affine(d)) if c.same_symbols(d) => Some((c, d)),
                _ => None,
            });
        match property {
            Property::ExactCoincidence => {
                let mut all = true;
                for f in forms {
                    all &= f.is_some_and(|(c, d)| self.rule_1(c, d, g, n));
                }
                all.then_some(Verdict::Holds(Rule::Coefficient1))
            }
            Property::PossibleCoincidence | Property::PossibleCoincidenceOrMore => {
                let or_more = property == Property::PossibleCoincidenceOrMore;
                forms.enumerate().find_map(|(dim, f)| {
                    let (c, d) = f?;
                    let (larger, smaller) = self.always_ordered(c, d, g, n)?;
                    let dg = d.coeff(g);
                    let rule = match (or_more, larger, smaller) {
                        (false, true, _) => Rule::Coefficient2_1 { dim },
                        (false, _, true) => Rule::Coefficient2_2 { dim },
                        (true, true, _) if dg <= 0 => Rule::Coefficient3_1 { dim },
                        (true, _, true) if dg >= 0 => Rule::Coefficient3_2 { dim },
                        _ => return None,
                    };
                    Some(Verdict::DoesNotHold(rule))
                })
            }
        }
    }

    /// Rule (1) on one dimension: `C0 = D0 + D_g n`, `C_h = D_h` for `h <= g`,
    /// and `C_h = D_h = 0` for every other loop of either reference.
    fn rule_1(&self, c: &NormalForm, d: &NormalForm, g: usize, n: i64) -> bool {
        let shifted = d
            .coeff(g)
            .checked_mul(n)
            .and_then(|x| x.checked_add(d.constant));
        shifted == Some(c.constant)
            && (0..=g).all(|h| c.coeff(h) == d.coeff(h))
            && (g + 1..self.u.loops.len()).all(|h| c.coeff(h) == 0)
            && (g + 1..self.v.loops.len()).all(|h| d.coeff(h) == 0)
    }

    /// The premises of rules (2-1) and (2-2) on one dimension, as
    /// `(U always larger, U always smaller)` for `I'_h = I_h` (h < g),
    /// `I'_g = I_g + n`: `C0 - D0 - D_g n` has the sign, `C_h - D_h` for
    /// `h <= g` agrees with it, and so do U's own coefficients and the
    /// negated ones of V on the loops each runs independently. The paper
    /// writes the last part `C_h >= D_h` and `C_h D_h = 0` for a loop that
    /// both references run inside `g`; we read it per renamed variable
    /// (`C_h >= 0 >= D_h`), which the paper's form implies.
    fn always_ordered(
        &self,
        c: &NormalForm,
        d: &NormalForm,
        g: usize,
        n: i64,
    ) -> Option<(bool, bool)> {
        let delta = c
            .constant
            .checked_sub(d.constant)?
            .checked_sub(d.coeff(g).checked_mul(n)?)?;
        let outer = (0..=g).map(|h| c.coeff(h).checked_sub(d.coeff(h)));
        let u_inner = (g + 1..self.u.loops.len()).map(|h| Some(c.coeff(h)));
        let v_inner = (g + 1..self.v.loops.len()).map(|h| d.coeff(h).checked_neg());
        let terms = outer
            .chain(u_inner)
            .chain(v_inner)
            .collect::<Option<Vec<i64>>>()?;
        Some((
            delta > 0 && terms.iter().all(|&t| t >= 0),
            delta < 0 && terms.iter().all(|&t| t <= 0),
        ))
    }

    /// Section 5, conditions (3) and (4): true when the subscript equations
    /// (with the loops outside `g` at the same iteration, and loop `g` shifted
    /// by `n` for the n-times property) have no solution, or none inside the
    /// bounds once each variable's interval is rounded to the congruence class
    /// the general solution imposes on it, or (n-or-more) none where V is at
    /// least `n` iterations of `g` later.
    fn diophantine_rule(&self, g: usize, n: i64, property: Property) -> bool {
        let or_more = property == Property::PossibleCoincidenceOrMore;
        let mut eqs = self.equations();
        eqs.extend(self.same_outer_iterations(g, (!or_more).then_some(n)));
        let solution = match diophantine::solve(&eqs, self.nvars()) {
            Ok(Some(solution)) => solution,
            Ok(None) => return true,
            Err(_) => return false,
        };
        let Some(boxed) = self.congruent_box(&solution) else {
            return true;
        };
        if eqs.iter().any(|e| !interval(e, &boxed).contains(0)) {
            return true;
        }
        if or_more {
            let distance = self.distance(g);
            let later = interval(&distance, &boxed);
            let in_t = distance.substitute(&solution).ok();
            let constant_short = in_t.is_some_and(|d| d.is_constant() && d.constant < n);
            return constant_short || later.hi.is_some_and(|hi| hi < i128::from(n));
        }
        false
    }

    /// The box of the domain (each variable's interval, outer loops first so
    /// that triangular bounds use them), each interval rounded to the
    /// congruence class `x_i ≡ particular_i (mod gcd of its generators)`;
    /// `None` when some interval becomes empty.
    fn congruent_box(&self, solution: &Parametric) -> Option<Vec<Interval>> {
        let mut boxed = vec![Interval::ALL; self.nvars()];
        // The domain lists symbol ranges first, then each loop after the loops
        // outside it: one pass in order sees every bound's variables bounded.
        for c in &self.domain {
            tighten(&mut boxed, c);
        }
        for (i, slot) in boxed.iter_mut().enumerate() {
            let p = i128::from(solution.particular[i]);
            let m = i128::from(
                solution
                    .generators
                    .iter()
                    .fold(0, |acc, gen| gcd(acc, gen[i])),
            );
            let (lo, hi) = if m == 0 {
                if !slot.contains(p) {
                    return None;
                }
                (Some(p), Some(p))
            } else {
                (
                    slot.lo.map(|l| p + ceil_i128(l - p, m) * m),
                    slot.hi.map(|h| p + floor_i128(h - p, m) * m),
                )
            };
            if lo.zip(hi).is_some_and(|(l, h)| l > h) {
                return None;
            }
            *slot = Interval { lo, hi };
        }
        Some(boxed)
    }

    /// Our exact test: integer feasibility of the whole system.
    fn exact_rule(&self, g: usize, n: i64, property: Property) -> Verdict {
        let mut budget = self.budget();
        let mut ask = |eqs: Vec<Linear>, extra: Option<Linear>| {
            let mut ineqs = self.domain.clone();
            ineqs.extend(extra);
            feasible(
                &System {
                    nvars: self.nvars(),
                    eqs,
                    ineqs,
                },
                &mut budget,
            )
        };
        let possible = |answer: Feasibility| match answer {
            Feasibility::Feasible(_) => Verdict::Holds(Rule::Exact),
            Feasibility::Infeasible => Verdict::DoesNotHold(Rule::Exact),
            Feasibility::Unknown => Verdict::Unknown,
        };
        match property {
            Property::PossibleCoincidence => {
                let mut eqs = self.equations();
                eqs.extend(self.same_outer_iterations(g, Some(n)));
                possible(ask(eqs, None))
            }
            Property::PossibleCoincidenceOrMore => {
                let mut eqs = self.equations();
                eqs.extend(self.same_outer_iterations(g, None));
                let at_least_n = self.distance(g).plus_constant(-n).ok();
                match at_least_n {
                    Some(c) => possible(ask(eqs, Some(c))),
                    None => Verdict::Unknown,
                }
            }
            Property::ExactCoincidence => {
                // Exact iff no dimension can differ on the shifted domain.
                let mut certain = true;
                for difference in &self.differences {
                    let Some(diff) = difference else {
                        certain = false;
                        continue;
                    };
                    for side in [
                        diff.plus_constant(-1).ok(),
                        diff.negated().and_then(|d| d.plus_constant(-1)).ok(),
                    ] {
                        let Some(side) = side else {
                            certain = false;
                            continue;
                        };
                        match ask(self.same_outer_iterations(g, Some(n)), Some(side)) {
                            Feasibility::Infeasible => {}
                            // A real pair of iterations where the elements differ.
                            Feasibility::Feasible(_) if self.exact_domain => {
                                return Verdict::DoesNotHold(Rule::Exact);
                            }
                            Feasibility::Feasible(_) | Feasibility::Unknown => certain = false,
                        }
                    }
                }
                if certain {
                    Verdict::Holds(Rule::Exact)
                } else {
                    Verdict::Unknown
                }
            }
        }
    }
}

/// An integer interval; `None` ends are infinite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Interval {
    lo: Option<i128>,
    hi: Option<i128>,
}

impl Interval {
    const ALL: Interval = Interval { lo: None, hi: None };

    fn contains(&self, x: i128) -> bool {
        self.lo.is_none_or(|l| l <= x) && self.hi.is_none_or(|h| x <= h)
    }
}

/// The range of `l` over the box (interval arithmetic).
fn interval(l: &Linear, boxed: &[Interval]) -> Interval {
    let mut out = Interval {
        lo: Some(i128::from(l.constant)),
        hi: Some(i128::from(l.constant)),
    };
    for (&c, x) in l.coeffs.iter().zip(boxed) {
        if c == 0 {
            continue;
        }
        let c = i128::from(c);
        let (lo, hi) = if c > 0 { (x.lo, x.hi) } else { (x.hi, x.lo) };
        out.lo = out.lo.zip(lo).map(|(a, b)| a + c * b);
        out.hi = out.hi.zip(hi).map(|(a, b)| a + c * b);
    }
    out
}

/// Narrow the interval of each variable of `c(x) >= 0` that the others bound.
fn tighten(boxed: &mut [Interval], c: &Linear) {
    for (v, &a) in c.coeffs.iter().enumerate() {
        if a == 0 {
            continue;
        }
        let mut others = c.clone();
        others.coeffs[v] = 0;
        // a x_v >= -others: others' maximum bounds x_v from one side.
        let Some(max_others) = interval(&others, boxed).hi else {
            continue;
        };
        let a = i128::from(a);
        if a > 0 {
            let l = ceil_i128(-max_others, a);
            boxed[v].lo = Some(boxed[v].lo.map_or(l, |x| x.max(l)));
        } else {
            let h = floor_i128(max_others, -a);
            boxed[v].hi = Some(boxed[v].hi.map_or(h, |x| x.min(h)));
        }
    }
}

fn floor_i128(a: i128, b: i128) -> i128 {
    a.div_euclid(b)
}

fn ceil_i128(a: i128, b: i128) -> i128 {
    -(-a).div_euclid(b)
}
