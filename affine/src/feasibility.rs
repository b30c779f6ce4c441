//! Exact integer feasibility of linear equalities and inequalities, within an
//! operation budget: the decision procedure behind the "exact" rule.
//!
//! The method is the Omega test (Pugh, 1991) in its plain form:
//! - equalities are solved all at once by their general integer solution
//!   ([`super::diophantine`]) and substituted away;
//! - each inequality is divided by the gcd of its coefficients with the
//!   constant rounded down (integer tightening); parallel inequalities keep
//!   the tighter one, opposite ones meeting exactly become an equality;
//! - cheap tests first, at every step: the single-variable bounds drop the
//!   constraints they imply and refute those they contradict (Banerjee-style);
//!   interval propagation may empty a variable's range (infeasible); on the
//!   system as asked, a greedy search fixing variables mid-range may find a
//!   point (feasible);
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

use std::sync::atomic::{AtomicU64, Ordering};

use super::diophantine;
use super::linear::{add, ceil_div, floor_div, gcd, mul, sub, Linear, Overflow};

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
    /// The budget ran out once already (counted in [`PAST_BUDGET`]).
    exhausted: bool,
}

/// How many budgets ran out since the process started: each is an
/// integer question answered "unknown" (a dependence kept as possible)
/// for want of operations, not for want of an answer. `kaiseki deps
/// --stats` prints it, so that a figure of precision can say how much of
/// it the budget cost.
static PAST_BUDGET: AtomicU64 = AtomicU64::new(0);

/// The number of budgets that ran out so far in this process (see
/// [`PAST_BUDGET`]).
pub fn questions_past_budget() -> u64 {
    PAST_BUDGET.load(Ordering::Relaxed)
}

impl Budget {
    pub fn new(operations: u64) -> Self {
        Budget {
            remaining: operations,
            exhausted: false,
        }
    }

    fn spend(&mut self, operations: usize) -> Result<(), Undecided> {
        let ops = u64::try_from(operations).unwrap_or(u64::MAX);
        match self.remaining.checked_sub(ops) {
            Some(left) => {
                self.remaining = left;
                Ok(())
            }
            None => {
                if !self.exhausted {
                    self.exhausted = true;
                    PAST_BUDGET.fetch_add(1, Ordering::Relaxed);
                }
                self.remaining = 0;
                Err(Undecided)
            }
        }
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
    feasible_parts(system.nvars, &system.eqs, &[&system.ineqs], budget)
}

/// [`feasible`] for equalities `eqs` and the inequalities of all `ineqs`
/// slices, so that callers asking many questions about one domain need not
/// copy it.
pub fn feasible_parts(
    nvars: usize,
    eqs: &[Linear],
    ineqs: &[&[Linear]],
    budget: &mut Budget,
) -> Feasibility {
    let all_ineqs = || ineqs.iter().flat_map(|part| part.iter());
    // The solver's arithmetic never makes i64::MIN (see `linear`); refuse it as input.
    let has_min = |l: &Linear| l.constant == i64::MIN || l.coeffs.contains(&i64::MIN);
    if eqs.iter().chain(all_ineqs()).any(has_min) {
        return Feasibility::Unknown;
    }
    let nvars = eqs
        .iter()
        .chain(all_ineqs())
        .map(|l| l.coeffs.len())
        .fold(nvars, usize::max);
    let mut rows = Rows::with_capacity(nvars, all_ineqs().count());
    for l in all_ineqs() {
        rows.push_linear(l);
    }
    let satisfied = |x: &[i64]| {
        eqs.iter().all(|e| e.eval(x) == Ok(0))
            && all_ineqs().all(|l| l.eval(x).is_ok_and(|v| v >= 0))
    };
    match solve(eqs, rows, budget) {
        Ok(Some(w)) if satisfied(&w) => Feasibility::Feasible(w),
        Ok(Some(_)) | Err(Undecided) => Feasibility::Unknown,
        Ok(None) => Feasibility::Infeasible,
    }
}

/// Inequalities `coeffs · x + constant >= 0`, stored row after row as the
/// `nvars` coefficients then the constant: one allocation per system, which
/// matters because elimination builds a new system at every step.
#[derive(Clone)]
struct Rows {
    width: usize,
    data: Vec<i64>,
}

impl Rows {
    fn with_capacity(nvars: usize, rows: usize) -> Self {
        Rows {
            width: nvars + 1,
            data: Vec::with_capacity(rows * (nvars + 1)),
        }
    }

    fn nvars(&self) -> usize {
        self.width - 1
    }

    fn len(&self) -> usize {
        self.data.len() / self.width
    }

    fn iter(&self) -> std::slice::ChunksExact<'_, i64> {
        self.data.chunks_exact(self.width)
    }

    fn push(&mut self, row: &[i64]) {
        self.data.extend_from_slice(row);
    }

    /// Keep the rows for which `keep` is true, in order.
    fn retain(&mut self, mut keep: impl FnMut(&[i64]) -> bool) {
        let w = self.width;
        let mut kept = 0;
        for r in 0..self.len() {
            if keep(&self.data[r * w..(r + 1) * w]) {
                self.data.copy_within(r * w..(r + 1) * w, kept * w);
                kept += 1;
            }
        }
        self.data.truncate(kept * w);
    }

    fn push_linear(&mut self, l: &Linear) {
        let n = self.nvars();
        self.data.extend((0..n).map(|i| l.coeff(i)));
        self.data.push(l.constant);
    }
}

fn coeffs(row: &[i64]) -> &[i64] {
    &row[..row.len() - 1]
}

fn constant(row: &[i64]) -> i64 {
    row[row.len() - 1]
}

fn to_linear(row: &[i64]) -> Linear {
    Linear {
        coeffs: coeffs(row).to_vec(),
        constant: constant(row),
    }
}

/// The row's value at `x`, without variable `skip`'s term.
fn eval_row(row: &[i64], x: &[i64], skip: Option<usize>) -> Result<i64, Overflow> {
    coeffs(row)
        .iter()
        .zip(x)
        .enumerate()
        .filter(|(i, _)| Some(*i) != skip)
        .try_fold(constant(row), |acc, (_, (&c, &v))| add(acc, mul(c, v)?))
}

fn solve(eqs: &[Linear], ineqs: Rows, budget: &mut Budget) -> Answer {
    if eqs.is_empty() {
        return solve_inequalities(ineqs, true, budget);
    }
    let nvars = ineqs.nvars();
    budget.spend(eqs.len() * nvars + ineqs.len())?;
    let Some(map) = diophantine::solve(eqs, nvars)? else {
        return Ok(None);
    };
    let mut over_t = Rows::with_capacity(map.generators.len(), ineqs.len());
    let mut row_t = vec![0; over_t.width];
    for row in ineqs.iter() {
        let dot = |v: &[i64]| {
            coeffs(row)
                .iter()
                .zip(v)
                .try_fold(0i64, |acc, (&c, &x)| add(acc, mul(c, x)?))
        };
        for (slot, generator) in row_t.iter_mut().zip(&map.generators) {
            *slot = dot(generator)?;
        }
        row_t[over_t.width - 1] = add(constant(row), dot(&map.particular)?)?;
        over_t.push(&row_t);
    }
    match solve_inequalities(over_t, true, budget)? {
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

/// `top`: the system as asked (not one derived by elimination), where a
/// greedy search for a point is worth its cost.
fn solve_inequalities(rows: Rows, top: bool, budget: &mut Budget) -> Answer {
    budget.spend(rows.len() + 1)?;
    let Some((mut rows, keys)) = normalize(&rows) else {
        return Ok(None);
    };
    match opposite_pair(&rows, &keys)? {
        Some(Opposite::Contradiction) => return Ok(None),
        Some(Opposite::Equality(eq)) => return solve(&[eq], rows, budget),
        None => {}
    }
    match prune_by_bounds(&mut rows) {
        Pruned::Infeasible => return Ok(None),
        Pruned::OnlyBounds(point) => return Ok(Some(point)),
        Pruned::Constraints(mut bounds) => {
            if !propagate(&rows, &mut bounds, if top { 2 } else { 1 }) {
                return Ok(None);
            }
            if top {
                if let Some(point) = greedy_point(&rows, &bounds) {
                    return Ok(Some(point));
                }
            }
        }
    }
    let Some((var, kind)) = choose_variable(&rows) else {
        // No variable left: every constraint was a satisfied constant.
        return Ok(Some(vec![0; rows.nvars()]));
    };
    let mut eliminate = |shadow: Shadow| -> Answer {
        solve_inequalities(project(&rows, var, shadow)?, false, budget)
    };
    let reduced = match kind {
        Elimination::OneSided => eliminate(Shadow::Drop)?,
        Elimination::Exact => eliminate(Shadow::Real)?,
        Elimination::Inexact => match eliminate(Shadow::Dark)? {
            Some(w) => Some(w),
            None if eliminate(Shadow::Real)?.is_none() => return Ok(None),
            None => return splinter(&rows, var, budget),
        },
    };
    match reduced {
        Some(w) => Ok(Some(place(w, &rows, var)?)),
        None => Ok(None),
    }
}

/// Integer tightening (divide by the gcd of the coefficients, round the
/// constant down) and merging of parallel constraints; `None` when a constant
/// constraint is false.
fn normalize(rows: &Rows) -> Option<(Rows, Vec<u64>)> {
    let mut out = Rows::with_capacity(rows.nvars(), rows.len());
    let mut keys = Vec::with_capacity(rows.len());
    let mut scratch = vec![0; rows.width];
    for row in rows.iter() {
        // Most rows have a coefficient ±1: stop at gcd 1, divide nothing.
        let mut g = 0;
        for &c in coeffs(row) {
            g = gcd(g, c);
            if g == 1 {
                break;
            }
        }
        match g {
            0 if constant(row) < 0 => return None,
            0 => continue,
            1 => scratch.copy_from_slice(row),
            _ => {
                for (s, &c) in scratch.iter_mut().zip(coeffs(row)) {
                    *s = c / g;
                }
                scratch[rows.width - 1] = floor_div(constant(row), g);
            }
        }
        let key = coefficient_key(coeffs(&scratch));
        let width = out.width;
        match out
            .data
            .chunks_exact_mut(width)
            .zip(&keys)
            .find(|(r, &k)| k == key && coeffs(r) == coeffs(&scratch))
        {
            Some((r, _)) => r[width - 1] = r[width - 1].min(scratch[width - 1]),
            None => {
                out.push(&scratch);
                keys.push(key);
            }
        }
    }
    Some((out, keys))
}

/// A hash of the coefficients that is linear in them (wrapping), so that
/// parallel rows share a key and opposite rows have opposite keys: a cheap
/// filter before comparing whole rows.
fn coefficient_key(coeffs: &[i64]) -> u64 {
    coeffs.iter().fold(0u64, |k, &c| {
        k.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(c as u64)
    })
}

/// The outcome of [`prune_by_bounds`].
enum Pruned {
    Infeasible,
    /// Only single-variable bounds are left; here is a point inside them.
    OnlyBounds(Vec<i64>),
    /// Some constraints (left in the rows) remain; the variables' bounds.
    Constraints(Vec<Bounds>),
}

/// The (lower, upper) bounds of a variable.
type Bounds = (Option<i64>, Option<i64>);

/// The cheap test inside the exact one (Banerjee-style): the single-variable
/// constraints bound each variable; a constraint that holds everywhere in that
/// box is dropped, one that holds nowhere proves infeasibility. Run before
/// every elimination, it keeps Fourier–Motzkin from multiplying redundant
/// constraints.
fn prune_by_bounds(rows: &mut Rows) -> Pruned {
    let nvars = rows.nvars();
    // (lower, upper) of each variable.
    let mut bounds: Vec<Bounds> = vec![(None, None); nvars];
    for row in rows.iter() {
        let mut vars = coeffs(row).iter().enumerate().filter(|(_, &a)| a != 0);
        if let (Some((v, &a)), None) = (vars.next(), vars.next()) {
            // Normalized: a = ±1.
            let k = constant(row);
            let (lower, upper) = &mut bounds[v];
            if a > 0 {
                *lower = Some(lower.map_or(-k, |l| l.max(-k)));
            } else {
                *upper = Some(upper.map_or(k, |u| u.min(k)));
            }
        }
    }
    if bounds
        .iter()
        .any(|b| matches!(b, (Some(l), Some(u)) if l > u))
    {
        return Pruned::Infeasible;
    }
    let (mut infeasible, mut only_bounds) = (false, true);
    rows.retain(|row| {
        if coeffs(row).iter().filter(|&&a| a != 0).count() <= 1 {
            return true;
        }
        // Range of the row over the box, in i128 (a sum of a few i64 products).
        let k = i128::from(constant(row));
        let (mut min, mut max) = (Some(k), Some(k));
        for (&a, &(lower, upper)) in coeffs(row).iter().zip(&bounds).filter(|(&a, _)| a != 0) {
            let (at_min, at_max) = if a > 0 {
                (lower, upper)
            } else {
                (upper, lower)
            };
            let a = i128::from(a);
            min = min.zip(at_min).map(|(m, x)| m + a * i128::from(x));
            max = max.zip(at_max).map(|(m, x)| m + a * i128::from(x));
        }
        infeasible |= max.is_some_and(|m| m < 0);
        let needed = min.is_none_or(|m| m < 0);
        only_bounds &= !needed;
        needed
    });
    match () {
        _ if infeasible => Pruned::Infeasible,
        _ if only_bounds => Pruned::OnlyBounds(
            bounds
                .iter()
                .map(|&(lower, upper)| lower.or(upper).unwrap_or(0))
                .collect(),
        ),
        _ => Pruned::Constraints(bounds),
    }
}

/// Interval propagation: each row `a·x_v + rest >= 0` bounds `x_v` by the
/// largest value `rest` takes in the box, for `rounds` passes over the rows
/// (`bounds` must already hold the single-variable rows).
/// False when some interval becomes empty, which proves the rows infeasible.
/// (A bound whose arithmetic would overflow is simply not derived.)
fn propagate(rows: &Rows, bounds: &mut [Bounds], rounds: usize) -> bool {
    for _round in 0..rounds {
        for row in rows.iter() {
            // The row's maximum over the box, without the terms that are unbounded there.
            let mut finite_max = Some(constant(row));
            let mut unbounded = 0;
            let mut unbounded_var = 0;
            let mut terms = 0;
            for (v, (&a, &(lower, upper))) in coeffs(row).iter().zip(bounds.iter()).enumerate() {
                if a == 0 {
                    continue;
                }
                terms += 1;
                match if a > 0 { upper } else { lower } {
                    Some(x) => finite_max = finite_max.and_then(|m| add(m, mul(a, x).ok()?).ok()),
                    None => {
                        unbounded += 1;
                        unbounded_var = v;
                    }
                }
            }
            // A single-variable row is a bound `bounds` already holds.
            let Some(finite_max) = finite_max.filter(|_| terms > 1) else {
                continue;
            };
            for (v, &a) in coeffs(row).iter().enumerate().filter(|(_, &a)| a != 0) {
                // The other terms' maximum: finite_max without v's own term.
                let others = match unbounded {
                    0 => {
                        let (lower, upper) = bounds[v];
                        (if a > 0 { upper } else { lower })
                            .and_then(|x| sub(finite_max, mul(a, x).ok()?).ok())
                    }
                    1 if unbounded_var == v => Some(finite_max),
                    _ => None,
                };
                let Some(others) = others else { continue };
                let (lower, upper) = &mut bounds[v];
                // a·x_v >= -others.
                if a > 0 {
                    let l = ceil_div(-others, a);
                    *lower = Some(lower.map_or(l, |x| x.max(l)));
                } else {
                    let u = floor_div(others, -a);
                    *upper = Some(upper.map_or(u, |x| x.min(u)));
                }
                if matches!(bounds[v], (Some(l), Some(u)) if l > u) {
                    return false;
                }
            }
        }
    }
    true
}

/// A quick search for a point: fix the variables one by one in the middle of
/// their propagated intervals, else at their lower ends, else at their upper
/// ends (thin systems defeat the middle; each try costs less than one
/// elimination). `None` proves nothing (elimination follows).
fn greedy_point(rows: &Rows, bounds: &[Bounds]) -> Option<Vec<i64>> {
    [Pick::Middle, Pick::Lower, Pick::Upper]
        .into_iter()
        .find_map(|pick| greedy_try(rows, bounds.to_vec(), pick))
}

/// Where [`greedy_try`] fixes a variable with two bounds.
#[derive(Clone, Copy)]
enum Pick {
    Middle,
    Lower,
    Upper,
}

fn greedy_try(rows: &Rows, mut bounds: Vec<Bounds>, pick: Pick) -> Option<Vec<i64>> {
    let mut point = vec![0; bounds.len()];
    for v in 0..bounds.len() {
        let value = match (bounds[v], pick) {
            ((Some(l), Some(u)), Pick::Middle) => l + ((i128::from(u) - i128::from(l)) / 2) as i64,
            ((Some(_), Some(u)), Pick::Upper) => u,
            ((Some(l), _), _) => l,
            ((None, Some(u)), _) => u,
            ((None, None), _) => 0,
        };
        bounds[v] = (Some(value), Some(value));
        point[v] = value;
        // With every variable fixed, the check below says the same.
        if v + 1 < point.len() && !propagate(rows, &mut bounds, 1) {
            return None;
        }
    }
    rows.iter()
        .all(|row| eval_row(row, &point, None).is_ok_and(|x| x >= 0))
        .then_some(point)
}

/// What two opposite constraints `c(x) >= 0` and `-c(x) + k >= 0` say.
enum Opposite {
    /// `c.constant + k < 0`: no point satisfies both.
    Contradiction,
    /// `c.constant + k == 0`: together they pin `c(x) = 0`.
    Equality(Linear),
}

fn opposite_pair(rows: &Rows, keys: &[u64]) -> Result<Option<Opposite>, Undecided> {
    for (i, (a, ka)) in rows.iter().zip(keys).enumerate() {
        for (b, kb) in rows.iter().zip(keys).skip(i + 1) {
            if ka.wrapping_add(*kb) == 0 && coeffs(a).iter().zip(coeffs(b)).all(|(x, y)| *x == -*y)
            {
                match add(constant(a), constant(b))? {
                    s if s < 0 => return Ok(Some(Opposite::Contradiction)),
                    0 => return Ok(Some(Opposite::Equality(to_linear(a)))),
                    _ => {}
                }
            }
        }
    }
    Ok(None)
}

fn choose_variable(rows: &Rows) -> Option<(usize, Elimination)> {
    (0..rows.nvars())
        .filter_map(|v| {
            let (mut lower, mut upper, mut lower_unit, mut upper_unit) =
                (0usize, 0usize, true, true);
            for row in rows.iter() {
                match row[v] {
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

/// What replaces the constraints on an eliminated variable.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shadow {
    /// Nothing (the variable is bounded on one side only).
    Drop,
    /// For each lower bound `a·x + α >= 0` and upper bound `-b·x + β >= 0`:
    /// `b·α + a·β >= 0`, every real solution's projection.
    Real,
    /// `b·α + a·β >= (a-1)(b-1)`: points whose range of `x` surely holds an integer.
    Dark,
}

/// Fourier–Motzkin on `var`: the rows without it plus its shadow.
fn project(rows: &Rows, var: usize, shadow: Shadow) -> Result<Rows, Overflow> {
    let (lower, upper) = rows.iter().fold((0, 0), |(l, u), r| match r[var] {
        a if a > 0 => (l + 1, u),
        a if a < 0 => (l, u + 1),
        _ => (l, u),
    });
    let combos = if shadow == Shadow::Drop {
        0
    } else {
        lower * upper
    };
    let mut out = Rows::with_capacity(rows.nvars(), rows.len() - lower - upper + combos);
    for row in rows.iter().filter(|r| r[var] == 0) {
        out.push(row);
    }
    if shadow == Shadow::Drop {
        return Ok(out);
    }
    let mut combined = vec![0; rows.width];
    for lo in rows.iter().filter(|r| r[var] > 0) {
        for up in rows.iter().filter(|r| r[var] < 0) {
            let (a, b) = (lo[var], -up[var]);
            for (c, (&l, &u)) in combined.iter_mut().zip(lo.iter().zip(up)) {
                *c = add(mul(b, l)?, mul(a, u)?)?;
            }
            if shadow == Shadow::Dark {
                let last = rows.width - 1;
                combined[last] = sub(combined[last], mul(a - 1, b - 1)?)?;
            }
            out.push(&combined);
        }
    }
    Ok(out)
}

/// Pugh's splinters: an integer solution missed by the dark shadow lies close
/// to some lower bound: `a·x + α = i` with `0 <= i <= (m·a - a - m) / m`, `m`
/// the largest upper coefficient of `x`.
fn splinter(rows: &Rows, var: usize, budget: &mut Budget) -> Answer {
    let m = rows.iter().map(|r| -r[var]).max().unwrap_or(0);
    for lo in rows.iter().filter(|r| r[var] > 0) {
        let a = lo[var];
        let top = floor_div(sub(sub(mul(m, a)?, a)?, m)?, m);
        for i in 0..=top {
            let eq = to_linear(lo).plus_constant(-i)?;
            if let Some(w) = solve(&[eq], rows.clone(), budget)? {
                return Ok(Some(w));
            }
        }
    }
    Ok(None)
}

/// Choose `x_var` for a point `w` of the reduced system: its smallest value
/// allowed by the lower bounds (else its largest allowed by the upper bounds).
fn place(mut w: Vec<i64>, rows: &Rows, var: usize) -> Result<Vec<i64>, Overflow> {
    let (mut lowest, mut highest) = (None::<i64>, None::<i64>);
    for row in rows.iter().filter(|r| r[var] != 0) {
        let a = row[var];
        let rest = eval_row(row, &w, Some(var))?;
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

    fn satisfies(system: &System, x: &[i64]) -> bool {
        system.eqs.iter().all(|e| e.eval(x) == Ok(0))
            && system.ineqs.iter().all(|l| l.eval(x).is_ok_and(|v| v >= 0))
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
        let before = questions_past_budget();
        assert_eq!(feasible(&system, &mut Budget::new(3)), Feasibility::Unknown);
        // Counted once for the question (other tests may count too).
        assert!(questions_past_budget() > before);
        let mut enough = Budget::new(1_000_000);
        let _ = feasible(&system, &mut enough);
        assert!(!enough.exhausted, "a budget that sufficed is not counted");
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
