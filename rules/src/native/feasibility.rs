//! Exact integer feasibility of linear equalities and inequalities, within an
//! operation budget: the decision procedure behind the "exact" rule.
//!
//! The method is the Omega test (Pugh, 1991) in its plain form:
//! - equalities are solved all at once by their general integer solution
//!   ([`super::diophantine`]) and substituted away;
//! - each inequality is divided by the gcd of its coefficients with the
//!   constant rounded down (integer tightening); parallel inequalities keep
//!   the tighter one, opposite ones meeting exactly become an equality;
//! - a variable bounded on one side only is dropped with its constraints;
//!   Fourier–Motzkin elimination is exact over the integers when all lower or
//!   all upper coefficients of the variable are 1; otherwise the real shadow
//!   (infeasible => infeasible) and the dark shadow (feasible => feasible) are
//!   tried, then the "splinters" `a·x = lower + i` for the few `i` that can
//!   still hold a solution. The splinters are the bounded enumeration that
//!   makes the test exact.
//!
//! Every step spends from a [`Budget`]; an exhausted budget or an `i64`
//! overflow gives [`Feasibility::Unknown`], never a wrong "infeasible".
//! A "feasible" answer carries a witness point, checked against the input.

use super::diophantine;
use super::linear::{add, ceil_div, floor_div, mul, sub, Linear, Overflow};

/// `eqs[i](x) = 0` and `ineqs[j](x) >= 0` over `nvars` integer variables.
#[derive(Clone, Debug, Default)]
pub struct System {
    pub nvars: usize,
    pub eqs: Vec<Linear>,
    pub ineqs: Vec<Linear>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Feasibility {
    /// An integer point satisfying every constraint.
    Feasible(Vec<i64>),
    Infeasible,
    /// The budget ran out or a number overflowed.
    Unknown,
}

/// Operations the test may still spend (one per constraint it creates or
/// normalizes). Polly caps isl at 500,000 operations for a whole dependence
/// problem; one query here is a small part of such a problem.
#[derive(Clone, Debug)]
pub struct Budget {
    remaining: u64,
}

impl Budget {
    pub fn new(operations: u64) -> Self {
        Budget {
            remaining: operations,
        }
    }

    fn spend(&mut self, operations: usize) -> Result<(), Undecided> {
        let ops = u64::try_from(operations).unwrap_or(u64::MAX);
        self.remaining = self.remaining.checked_sub(ops).ok_or(Undecided)?;
        Ok(())
    }
}

/// Why a search stopped without an answer (budget or overflow).
struct Undecided;

impl From<Overflow> for Undecided {
    fn from(_: Overflow) -> Self {
        Undecided
    }
}

type Answer = Result<Option<Vec<i64>>, Undecided>;

/// Decide whether `system` has an integer solution.
pub fn feasible(system: &System, budget: &mut Budget) -> Feasibility {
    let nvars = system
        .eqs
        .iter()
        .chain(&system.ineqs)
        .map(|l| l.coeffs.len())
        .fold(system.nvars, usize::max);
    let widen = |l: &Linear| {
        let mut l = l.clone();
        l.coeffs.resize(nvars, 0);
        l
    };
    let eqs: Vec<Linear> = system.eqs.iter().map(widen).collect();
    let ineqs: Vec<Linear> = system.ineqs.iter().map(widen).collect();
    match solve(nvars, &eqs, ineqs, budget) {
        Ok(Some(w)) if satisfies(system, &w) => Feasibility::Feasible(w),
        Ok(Some(_)) | Err(Undecided) => Feasibility::Unknown,
        Ok(None) => Feasibility::Infeasible,
    }
}

fn satisfies(system: &System, x: &[i64]) -> bool {
    system.eqs.iter().all(|e| e.eval(x) == Ok(0))
        && system.ineqs.iter().all(|l| l.eval(x).is_ok_and(|v| v >= 0))
}

fn solve(nvars: usize, eqs: &[Linear], ineqs: Vec<Linear>, budget: &mut Budget) -> Answer {
    if eqs.is_empty() {
        return solve_inequalities(nvars, ineqs, budget);
    }
    budget.spend(eqs.len() * nvars + ineqs.len())?;
    let Some(map) = diophantine::solve(eqs, nvars)? else {
        return Ok(None);
    };
    let over_t = ineqs
        .iter()
        .map(|l| l.substitute(&map))
        .collect::<Result<Vec<_>, _>>()?;
    match solve_inequalities(map.generators.len(), over_t, budget)? {
        Some(t) => Ok(Some(map.point(&t)?)),
        None => Ok(None),
    }
}

/// How a variable can be eliminated, cheapest kind first.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Elimination {
    /// Bounded on one side only: drop it with its constraints.
    OneSided,
    /// All lower or all upper coefficients are 1: Fourier–Motzkin is exact.
    Exact,
    /// Real shadow, dark shadow, splinters.
    Inexact,
}

fn solve_inequalities(nvars: usize, ineqs: Vec<Linear>, budget: &mut Budget) -> Answer {
    budget.spend(ineqs.len() + 1)?;
    let Some(cons) = normalize(ineqs)? else {
        return Ok(None);
    };
    match opposite_pair(&cons)? {
        Some(Opposite::Contradiction) => return Ok(None),
        Some(Opposite::Equality(eq)) => return solve(nvars, &[eq], cons, budget),
        None => {}
    }
    let Some((var, kind)) = choose_variable(nvars, &cons) else {
        // No variable left: every constraint was a satisfied constant.
        return Ok(Some(vec![0; nvars]));
    };
    let (bounds, rest): (Vec<Linear>, Vec<Linear>) =
        cons.iter().cloned().partition(|c| c.coeffs[var] != 0);
    let reduced = match kind {
        Elimination::OneSided => solve_inequalities(nvars, rest, budget)?,
        Elimination::Exact => {
            solve_inequalities(nvars, shadow(&rest, &bounds, var, false)?, budget)?
        }
        Elimination::Inexact => {
            if solve_inequalities(nvars, shadow(&rest, &bounds, var, false)?, budget)?.is_none() {
                return Ok(None);
            }
            match solve_inequalities(nvars, shadow(&rest, &bounds, var, true)?, budget)? {
                Some(w) => Some(w),
                None => return splinter(nvars, &cons, &bounds, var, budget),
            }
        }
    };
    match reduced {
        Some(w) => Ok(Some(place(w, &bounds, var)?)),
        None => Ok(None),
    }
}

/// Integer tightening and merging of parallel constraints; `None` when a
/// constant constraint is false.
fn normalize(ineqs: Vec<Linear>) -> Result<Option<Vec<Linear>>, Undecided> {
    let mut cons: Vec<Linear> = Vec::with_capacity(ineqs.len());
    for l in ineqs {
        let g = l.content();
        if g == 0 {
            if l.constant < 0 {
                return Ok(None);
            }
            continue;
        }
        let l = if g == 1 {
            l
        } else {
            Linear {
                coeffs: l.coeffs.iter().map(|c| c / g).collect(),
                constant: floor_div(l.constant, g),
            }
        };
        match cons.iter_mut().find(|c| c.coeffs == l.coeffs) {
            Some(c) => c.constant = c.constant.min(l.constant),
            None => cons.push(l),
        }
    }
    Ok(Some(cons))
}

/// What two opposite constraints `c(x) >= 0` and `-c(x) + k >= 0` say.
enum Opposite {
    /// `c.constant + k < 0`: no point satisfies both.
    Contradiction,
    /// `c.constant + k == 0`: together they pin `c(x) = 0`.
    Equality(Linear),
}

fn opposite_pair(cons: &[Linear]) -> Result<Option<Opposite>, Undecided> {
    for (i, a) in cons.iter().enumerate() {
        for b in &cons[i + 1..] {
            if a.coeffs.iter().zip(&b.coeffs).all(|(x, y)| *x == -*y) {
                match add(a.constant, b.constant)? {
                    s if s < 0 => return Ok(Some(Opposite::Contradiction)),
                    0 => return Ok(Some(Opposite::Equality(a.clone()))),
                    _ => {}
                }
            }
        }
    }
    Ok(None)
}

fn choose_variable(nvars: usize, cons: &[Linear]) -> Option<(usize, Elimination)> {
    (0..nvars)
        .filter_map(|v| {
            let (mut lower, mut upper, mut lower_unit, mut upper_unit) =
                (0usize, 0usize, true, true);
            for c in cons {
                match c.coeffs[v] {
                    a if a > 0 => {
                        lower += 1;
                        lower_unit &= a == 1;
                    }
                    a if a < 0 => {
                        upper += 1;
                        upper_unit &= a == -1;
                    }
                    _ => {}
                }
            }
            let kind = match () {
                _ if lower + upper == 0 => return None,
                _ if lower == 0 || upper == 0 => Elimination::OneSided,
                _ if lower_unit || upper_unit => Elimination::Exact,
                _ => Elimination::Inexact,
            };
            Some((v, (kind, lower * upper)))
        })
        .min_by_key(|&(_, key)| key)
        .map(|(v, (kind, _))| (v, kind))
}

/// Fourier–Motzkin: `rest` plus, for each lower bound `a·x + α >= 0` and upper
/// bound `-b·x + β >= 0`, the real shadow `b·α + a·β >= 0`, or the dark shadow
/// `b·α + a·β >= (a-1)(b-1)`.
fn shadow(
    rest: &[Linear],
    bounds: &[Linear],
    var: usize,
    dark: bool,
) -> Result<Vec<Linear>, Overflow> {
    let mut out = rest.to_vec();
    for lo in bounds.iter().filter(|c| c.coeffs[var] > 0) {
        for up in bounds.iter().filter(|c| c.coeffs[var] < 0) {
            let (a, b) = (lo.coeffs[var], -up.coeffs[var]);
            let mut combined = lo.combine(b, up, a)?;
            if dark {
                combined.constant = sub(combined.constant, mul(a - 1, b - 1)?)?;
            }
            out.push(combined);
        }
    }
    Ok(out)
}

/// Pugh's splinters: an integer solution missed by the dark shadow lies close
/// to some lower bound: `a·x + α = i` with `0 <= i <= (m·a - a - m) / m`, `m`
/// the largest upper coefficient of `x`.
fn splinter(
    nvars: usize,
    cons: &[Linear],
    bounds: &[Linear],
    var: usize,
    budget: &mut Budget,
) -> Answer {
    let m = bounds.iter().map(|c| -c.coeffs[var]).max().unwrap_or(0);
    for lo in bounds.iter().filter(|c| c.coeffs[var] > 0) {
        let a = lo.coeffs[var];
        let top = floor_div(sub(sub(mul(m, a)?, a)?, m)?, m);
        for i in 0..=top {
            let eq = lo.plus_constant(-i)?;
            if let Some(w) = solve(nvars, &[eq], cons.to_vec(), budget)? {
                return Ok(Some(w));
            }
        }
    }
    Ok(None)
}

/// Choose `x_var` for a point `w` of the reduced system: its smallest value
/// allowed by the lower bounds (else its largest allowed by the upper bounds).
fn place(mut w: Vec<i64>, bounds: &[Linear], var: usize) -> Result<Vec<i64>, Overflow> {
    w[var] = 0;
    let (mut lowest, mut highest) = (None::<i64>, None::<i64>);
    for c in bounds {
        let a = c.coeffs[var];
        let rest = c.eval(&w)?;
        if a > 0 {
            let l = ceil_div(rest.checked_neg().ok_or(Overflow)?, a);
            lowest = Some(lowest.map_or(l, |x| x.max(l)));
        } else {
            let u = floor_div(rest, -a);
            highest = Some(highest.map_or(u, |x| x.min(u)));
        }
    }
    w[var] = lowest.or(highest).unwrap_or(0);
    Ok(w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn lin(coeffs: &[i64], constant: i64) -> Linear {
        Linear {
            coeffs: coeffs.to_vec(),
            constant,
        }
    }

    fn decide(system: &System) -> Feasibility {
        feasible(system, &mut Budget::new(1_000_000))
    }

    #[test]
    fn pughs_example_has_real_but_no_integer_solutions() {
        // 27 <= 11x + 13y <= 45, -10 <= 7x - 9y <= 4 (Pugh 1991, section 2.3).
        let system = System {
            nvars: 2,
            eqs: vec![],
            ineqs: vec![
                lin(&[11, 13], -27),
                lin(&[-11, -13], 45),
                lin(&[7, -9], 10),
                lin(&[-7, 9], 4),
            ],
        };
        let brute = (-20..=20).any(|x: i64| {
            (-20..=20).any(|y: i64| system.ineqs.iter().all(|l| l.eval(&[x, y]).unwrap() >= 0))
        });
        assert!(!brute);
        assert_eq!(decide(&system), Feasibility::Infeasible);
        // Widened by one on the right, it has the point (x, y) = (3, 2)? Check via the witness.
        let mut wider = system.clone();
        wider.ineqs[1] = lin(&[-11, -13], 60);
        let Feasibility::Feasible(w) = decide(&wider) else {
            panic!("expected a solution")
        };
        assert!(wider.ineqs.iter().all(|l| l.eval(&w).unwrap() >= 0));
    }

    #[test]
    fn equalities_and_unbounded_variables() {
        // 2x + 4y = 3 has no integer solution even though x, y are unbounded.
        let system = System {
            nvars: 2,
            eqs: vec![lin(&[2, 4], -3)],
            ineqs: vec![],
        };
        assert_eq!(decide(&system), Feasibility::Infeasible);
        // x - y = 1, x >= 10: feasible, witness checked.
        let system = System {
            nvars: 2,
            eqs: vec![lin(&[1, -1], -1)],
            ineqs: vec![lin(&[1, 0], -10)],
        };
        assert!(
            matches!(decide(&system), Feasibility::Feasible(w) if w[0] - w[1] == 1 && w[0] >= 10)
        );
    }

    #[test]
    fn an_exhausted_budget_answers_unknown() {
        let system = System {
            nvars: 2,
            eqs: vec![],
            ineqs: vec![
                lin(&[11, 13], -27),
                lin(&[-11, -13], 45),
                lin(&[7, -9], 10),
                lin(&[-7, 9], 4),
            ],
        };
        assert_eq!(feasible(&system, &mut Budget::new(3)), Feasibility::Unknown);
    }

    proptest! {
        #[test]
        fn agrees_with_enumeration_on_bounded_systems(
            rows in prop::collection::vec((prop::collection::vec(-7i64..=7, 3), -12i64..=12), 1..=4),
            eq_row in prop::option::of((prop::collection::vec(-4i64..=4, 3), -6i64..=6)),
        ) {
            // Box -4 <= x_i <= 4 plus random constraints.
            let mut ineqs: Vec<Linear> = rows.iter().map(|(c, k)| lin(c, *k)).collect();
            for v in 0..3 {
                let mut up = Linear::constant(3, 4);
                up.coeffs[v] = -1;
                let mut lo = Linear::constant(3, 4);
                lo.coeffs[v] = 1;
                ineqs.push(up);
                ineqs.push(lo);
            }
            let eqs: Vec<Linear> = eq_row.iter().map(|(c, k)| lin(c, *k)).collect();
            let system = System { nvars: 3, eqs, ineqs };
            let mut any = false;
            for x in -4..=4 { for y in -4..=4 { for z in -4..=4 {
                any |= satisfies(&system, &[x, y, z]);
            }}}
            match decide(&system) {
                Feasibility::Feasible(w) => prop_assert!(any && satisfies(&system, &w)),
                Feasibility::Infeasible => prop_assert!(!any),
                Feasibility::Unknown => prop_assert!(false, "budget too small for a 3-variable system"),
            }
        }
    }
}
