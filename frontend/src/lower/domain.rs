//! Conditions decided over the iteration domain (`never_edge`): an IF
//! condition whose only variables are the DO variables of the loops
//! around it and named constants is evaluated, with Fortran's semantics
//! ([`crate::fold`]: MOD with the sign of its first argument, MODULO with
//! the sign of the second), at every point where it is tested: the values
//! each DO variable takes (its bounds folded at each point of the loops
//! around it, the step's values; its range when they do not fold) where
//! the conditions of the IFs around it hold and those of the earlier arms
//! of its own IF do not ([`Known`]; a condition that does not fold is
//! taken to hold, so the points are a superset). When it has one value at
//! all of them, it has that value in every execution: the branch it never
//! takes is a `never_edge`. Any other condition (a scalar the loops may
//! change, an array element, a call, points past [`MAX_POINTS`]) decides
//! nothing.
//!
//! The same conditions constrain the references under them
//! (`guard_form`): the comparisons a condition, or its negation for the
//! arms after it, certainly implies, as affine forms of the DO variables
//! (`>= 0` or `= 0`), and the box of the values the DO variables it names
//! take at those points, which the dependence tests add to the iteration
//! domain of each reference there. And the iterations of each loop the
//! statements of an arm run in (`iteration_first`, `iteration_last`,
//! numbered from the loop's first): the DO statement's initial value
//! flows only into the first, and a dependence carried by a loop only
//! into an iteration after its source's.

use std::collections::BTreeMap;

use kaiseki_facts::{GuardForm, IterationFirst, IterationLast, NeverEdge, RunsDuring, RunsLast};

use super::affine::{Form, Term};
use super::loops::trip_count;
use super::{LoopFrame, Range, UnitLowerer};
use crate::ast::{BinOp, Expr, ExprKind, UnOp};
use crate::fold::{self, Const, Env};
use crate::intrinsics::Intrinsic;

/// The most points of a box a condition is evaluated at.
const MAX_POINTS: i64 = 4096;

/// The most points at which [`UnitLowerer::runs_at_some_point`] looks for
/// one that runs a statement (it asks for every scalar assignment in a
/// loop: past them, the answer is no).
const MAX_SEARCH: i64 = 256;

/// The named constants, and the DO variables at one point of the box.
struct Point<'e> {
    values: BTreeMap<String, Const>,
    /// By loop id, the number of the iteration its DO variable's value is
    /// (0 for the first; `None`: not known, its bounds did not fold).
    iteration: BTreeMap<i64, Option<i64>>,
    outer: &'e dyn Env,
}

impl Env for Point<'_> {
    fn constant(&self, name: &str) -> Option<&Const> {
        self.values.get(name).or_else(|| self.outer.constant(name))
    }
    fn intrinsic(&self, name: &str) -> Option<&'static Intrinsic> {
        self.outer.intrinsic(name)
    }
}

/// The iterations of the DO loop `loop` (numbered from 0, the first) the
/// statements under some IF arm run in: none before `first`, none after
/// `last` (when known), in every execution of the loop.
pub(super) struct Iterations {
    pub(super) r#loop: i64,
    pub(super) first: i64,
    pub(super) last: Option<i64>,
}

/// A condition that holds wherever the statement being lowered runs: the
/// condition of an IF arm around it (`holds`), or of an arm before that
/// arm (negated), over the DO variables of the `depth` loops around the IF.
pub(super) struct Known<'a> {
    pub(super) cond: &'a Expr,
    pub(super) holds: bool,
    pub(super) depth: usize,
}

impl<'a> UnitLowerer<'_, '_, 'a> {
    /// The value `cond` has in every execution, when it has one (see the
    /// module's documentation).
    pub(super) fn decided(&self, cond: &Expr) -> Option<bool> {
        if !self.folds_over(cond, &self.loops) {
            return None;
        }
        let mut seen: Option<bool> = None;
        // Both values seen: nothing decides it.
        let mut mixed = false;
        let complete = self.each_point(&[cond], None, &mut |at| match fold::fold(cond, at) {
            Some(Const::Logical(v)) if seen.is_none_or(|s| s == v) => {
                seen = Some(v);
                true
            }
            Some(Const::Logical(_)) => {
                mixed = true;
                false
            }
            // A DO variable without a value (its bounds did not fold).
            _ => false,
        });
        // No point: the code is dead already (a loop that never runs, an
        // arm decided before); nothing more to say.
        match (complete, mixed) {
            (_, true) => None,
            (true, false) => seen,
            (false, false) => self.decided_by_ranges(cond),
        }
    }

    /// Whether `cond` names only DO variables of `loops`, constants and
    /// intrinsic functions: what may fold at the points of those loops.
    fn folds_over(&self, cond: &Expr, loops: &[LoopFrame]) -> bool {
        let mut ok = true;
        cond.any_name(&mut |name, applied| {
            if applied {
                // Only the intrinsic functions fold; an array element stops it.
                ok &= Env::intrinsic(self.syms, name).is_some();
            } else {
                ok &= loops.iter().any(|f| f.var.as_deref() == Some(name))
                    || matches!(Env::constant(self.syms, name), Some(Const::Int(_)));
            }
            !ok
        });
        ok
    }

    /// The value of `cond` decided from the ranges of the DO variables
    /// alone, where its points cannot all be visited (`DO K = 2, N + 1`:
    /// K's range has no upper end): it never holds when a comparison it
    /// implies is false over the whole box of the ranges, and always holds
    /// when one its negation implies is (`2*J + 2*K .GT. 11` with J >= 4
    /// and K >= 2).
    fn decided_by_ranges(&self, cond: &Expr) -> Option<bool> {
        let known = self.usable_known();
        let impossible = |negate: bool| {
            let mut implied = Vec::new();
            self.constraints(cond, negate, &mut implied);
            implied.iter().any(|(form, eq)| {
                let (lo, hi) = self.form_range(form, &known);
                hi.is_some_and(|h| h < 0) || (*eq && lo.is_some_and(|l| l > 0))
            })
        };
        if impossible(false) {
            Some(false)
        } else if impossible(true) {
            Some(true)
        } else {
            None
        }
    }

    /// The least and greatest values of an affine form of the DO variables
    /// over the ranges of those variables (`None`: no end known).
    fn form_range(&self, form: &Form, known: &[&Known<'a>]) -> (Option<i128>, Option<i128>) {
        let mut lo = Some(i128::from(form.constant));
        let mut hi = lo;
        for (term, &c) in &form.terms {
            let Term::Loop(id) = term else {
                return (None, None);
            };
            let Some(frame) = self.loops.iter().find(|f| f.id == *id) else {
                return (None, None);
            };
            let (vlo, vhi) = self.known_range(frame, known);
            let c = i128::from(c);
            let (a, b) = (
                vlo.map(|v| c * i128::from(v)),
                vhi.map(|v| c * i128::from(v)),
            );
            let (least, greatest) = if c >= 0 { (a, b) } else { (b, a) };
            lo = lo.zip(least).map(|(x, y)| x + y);
            hi = hi.zip(greatest).map(|(x, y)| x + y);
        }
        (lo, hi)
    }

    /// The least and greatest values each DO variable named in the known
    /// conditions takes where they all hold, as constraints `I - min >= 0`
    /// and `max - I >= 0` where they are tighter than the loop's range: a
    /// box around the iteration domain of the statements under them,
    /// sound for any condition that folds (MOD, `.OR.`, `.NE.`), which
    /// the affine constraints of [`Self::constraints`] cannot express.
    ///
    /// Returns the iterations of the loops around that the same
    /// statements run in, as far as known (see [`Iterations`]).
    pub(super) fn domain_box(&self, out: &mut Vec<(Form, bool)>) -> Vec<Iterations> {
        let names = self.known_names();
        let mut bounds: BTreeMap<String, (i64, i64)> = BTreeMap::new();
        // By loop: the least and greatest iteration numbers, or `None`
        // once a point did not know it.
        let mut numbers: BTreeMap<i64, Option<(i64, i64)>> = BTreeMap::new();
        let complete = self.each_point(&[], None, &mut |at| {
            for name in &names {
                if let Some(Const::Int(v)) = at.values.get(name) {
                    let b = bounds.entry(name.clone()).or_insert((*v, *v));
                    *b = (b.0.min(*v), b.1.max(*v));
                }
            }
            for (&l, &k) in &at.iteration {
                let n = numbers.entry(l).or_insert(k.map(|k| (k, k)));
                *n = n.zip(k).map(|((a, b), k)| (a.min(k), b.max(k)));
            }
            true
        });
        if !complete || names.is_empty() {
            return Vec::new();
        }
        for frame in &self.loops {
            let Some(var) = &frame.var else { continue };
            let Some(&(min, max)) = bounds.get(var) else {
                continue;
            };
            let (lo, hi) = (
                frame.range.0.unwrap_or(i64::MIN),
                frame.range.1.unwrap_or(i64::MAX),
            );
            let i = Form::term(Term::Loop(frame.id));
            if min > lo {
                out.extend(i.clone().add(Form::constant(-min)).map(|f| (f, false)));
            }
            if max < hi {
                out.extend(
                    i.scale(-1)
                        .and_then(|f| f.add(Form::constant(max)))
                        .map(|f| (f, false)),
                );
            }
        }
        let mut spans: Vec<Iterations> = numbers
            .into_iter()
            .filter_map(|(l, n)| {
                n.map(|(first, last)| Iterations {
                    r#loop: l,
                    first,
                    last: Some(last),
                })
            })
            .collect();
        // Never in a first iteration: no point holds with the loop's DO
        // variable at its first value (its upper bound need not be known).
        for frame in &self.loops {
            let named = frame.var.as_ref().is_some_and(|v| names.contains(v));
            if named && frame.bounds.is_some() && !spans.iter().any(|s| s.r#loop == frame.id) {
                let mut any = false;
                let complete = self.each_point(&[], Some(frame.id), &mut |_| {
                    any = true;
                    false
                });
                if complete && !any {
                    spans.push(Iterations {
                        r#loop: frame.id,
                        first: 1,
                        last: None,
                    });
                }
            }
        }
        spans
    }

    /// The iterations of the loops around in which a DO loop with bounds
    /// `lower`, `upper` and step `st` (about to be entered) runs at least
    /// once: its body runs only where `st * (upper - lower) >= 0`. When
    /// that gap is `a * I + r` for the DO variable I of a loop around
    /// whose lower bound is a constant, the greatest value r takes over
    /// the ranges of the other DO variables bounds I on one side, and so
    /// the iterations of I's loop the body can run in: `DO J = 4, I + 1,
    /// -1` inside `DO I = 3, N + 1` runs only where I <= 3, in the first
    /// iteration of the I loop (whatever N), so nothing there is carried
    /// by it. A triangular loop empty in all but a few outer iterations
    /// is what the inner trip count alone (which varies) cannot say.
    pub(super) fn running_iterations(
        &self,
        lower: &Expr,
        upper: &Expr,
        st: i64,
    ) -> Vec<Iterations> {
        let mut spans = Vec::new();
        let (Some(lo), Some(up)) = (self.affine(lower), self.affine(upper)) else {
            return spans;
        };
        // s * gap >= 0 wherever the loop runs (s: the step's sign).
        let Some(gap) = lo
            .scale(-1)
            .and_then(|l| up.add(l))
            .and_then(|g| g.scale(st.signum()))
        else {
            return spans;
        };
        for (term, &a) in &gap.terms {
            let Term::Loop(o) = term else { continue };
            let Some(frame) = self.loops.iter().find(|f| f.id == *o) else {
                continue;
            };
            let Some((first, st_o)) = frame
                .bounds
                .as_ref()
                .and_then(|(l, _, s)| Some((fold::fold_int(l, self.syms)?, *s)))
            else {
                continue;
            };
            // r = gap - a * I, at most r_max over the other variables.
            let mut rest = gap.clone();
            rest.terms.remove(term);
            let Some(r_max) = self.form_range(&rest, &self.usable_known()).1 else {
                continue;
            };
            // a * I + r_max >= 0: I >= ceil(-r_max / a) when a > 0,
            // I <= floor(r_max / -a) when a < 0.
            let (a, r_max) = (i128::from(a), r_max);
            let (at_least, bound) = if a > 0 {
                (true, ceil_div(-r_max, a))
            } else {
                (false, r_max.div_euclid(-a))
            };
            // I = first + st_o * k: the bound on I as one on k.
            let (first, st_o) = (i128::from(first), i128::from(st_o));
            let d = bound - first;
            let (from, k) = match (at_least, st_o > 0) {
                // k >= ceil(d / st_o)
                (true, true) => (true, ceil_div(d, st_o)),
                // k <= floor(d / st_o)
                (false, true) => (false, d.div_euclid(st_o)),
                // first + st_o * k >= bound: k <= floor(-d / -st_o)
                (true, false) => (false, (-d).div_euclid(-st_o)),
                // k >= ceil(-d / -st_o)
                (false, false) => (true, ceil_div(-d, -st_o)),
            };
            let Ok(k) = i64::try_from(k) else { continue };
            match from {
                true if k > 0 => spans.push(Iterations {
                    r#loop: *o,
                    first: k,
                    last: None,
                }),
                false if k >= 0 => spans.push(Iterations {
                    r#loop: *o,
                    first: 0,
                    last: Some(k),
                }),
                _ => {}
            }
        }
        spans
    }

    /// The names of the known conditions that may be read: a condition
    /// naming the DO variable of a loop inside its IF (the value it had at
    /// the test is not the loop's) is left out.
    fn usable_known(&self) -> Vec<&Known<'a>> {
        self.known
            .iter()
            .filter(|k| {
                !k.cond.any_name(&mut |name, applied| {
                    !applied
                        && self.loops[k.depth.min(self.loops.len())..]
                            .iter()
                            .any(|f| f.var.as_deref() == Some(name))
                })
            })
            .collect()
    }

    /// The DO variables of the loops around that the usable known
    /// conditions name.
    fn known_names(&self) -> Vec<String> {
        let mut names = Vec::new();
        for k in self.usable_known() {
            collect_loop_names(k.cond, &self.loops, &mut names);
        }
        names
    }

    /// Calls `visit` at every point of the DO variables (those `conds`
    /// and the known conditions name, and those their loops' bounds name)
    /// where every known condition that folds holds; a condition on
    /// anything else is taken to hold (the points are a superset of the
    /// iteration domain). A variable whose bounds do not fold takes every
    /// value of its loop's range, or none (it is unbound: a condition on
    /// it does not fold). Returns false when `visit` stopped it or the
    /// points went past [`MAX_POINTS`].
    ///
    /// With `pinned`, that loop's DO variable takes only its first value
    /// (when its lower bound folds).
    fn each_point(
        &self,
        conds: &[&Expr],
        pinned: Option<i64>,
        visit: &mut dyn FnMut(&Point) -> bool,
    ) -> bool {
        let known = self.usable_known();
        let mut names = Vec::new();
        for c in conds.iter().copied().chain(known.iter().map(|k| k.cond)) {
            collect_loop_names(c, &self.loops, &mut names);
        }
        // The loops whose bounds the named variables depend on.
        for frame in self.loops.iter().rev() {
            if let (Some(var), Some((lo, up, _))) = (&frame.var, &frame.bounds) {
                if names.contains(var) {
                    collect_loop_names(lo, &self.loops, &mut names);
                    collect_loop_names(up, &self.loops, &mut names);
                }
            }
        }
        // The loops inside those whose bounds name them: a point is in the
        // domain only where such a loop runs (`IF (I .EQ. 4)` inside `DO J
        // = 3, I + 1, -1` is tested only where I <= 2). Their own values
        // do not matter, only whether they have one.
        let mut gates = Vec::new();
        for frame in &self.loops {
            if let (Some(var), Some((lo, up, _))) = (&frame.var, &frame.bounds) {
                let mut named = Vec::new();
                collect_loop_names(lo, &self.loops, &mut named);
                collect_loop_names(up, &self.loops, &mut named);
                if !names.contains(var)
                    && named.iter().any(|n| names.contains(n))
                    && named.iter().all(|n| names.contains(n))
                {
                    gates.push(frame.id);
                }
            }
        }
        let frames: Vec<(&LoopFrame, Range)> = self
            .loops
            .iter()
            .filter(|f| f.var.as_ref().is_some_and(|v| names.contains(v)) || gates.contains(&f.id))
            .map(|f| (f, self.known_range(f, &known)))
            .collect();
        let mut at = Point {
            values: BTreeMap::new(),
            iteration: BTreeMap::new(),
            outer: self.syms,
        };
        let mut budget = MAX_POINTS;
        let mut leaf = |at: &Point| {
            let holds = known.iter().all(|k| match fold::fold(k.cond, at) {
                Some(Const::Logical(v)) => v == k.holds,
                _ => true,
            });
            !holds || visit(at)
        };
        walk(&frames, &gates, pinned, &mut at, &mut budget, &mut leaf)
    }

    /// The range of the DO variable of `frame` narrowed by the known
    /// conditions' comparisons of it alone (`I .LE. 5` gives the end
    /// `DO I = 3, N` lacks): what the points take where its bounds do not
    /// fold.
    fn known_range(&self, frame: &LoopFrame, known: &[&Known<'a>]) -> Range {
        let (mut lo, mut hi) = frame.range;
        for k in known {
            let mut implied = Vec::new();
            self.constraints(k.cond, !k.holds, &mut implied);
            for (form, eq) in implied {
                // c*I + k >= 0, and <= 0 too when eq.
                let mut sides = vec![form.clone()];
                if eq {
                    sides.extend(form.scale(-1));
                }
                for side in sides {
                    let [(Term::Loop(l), &c)] = side.terms.iter().collect::<Vec<_>>()[..] else {
                        continue;
                    };
                    if *l != frame.id {
                        continue;
                    }
                    let k0 = side.constant;
                    if c > 0 {
                        // I >= ceil(-k0 / c)
                        let least = k0
                            .checked_neg()
                            .and_then(|n| n.checked_add(c - 1))
                            .and_then(|n| n.checked_div_euclid(c));
                        lo = tighter(lo, least, i64::max);
                    } else {
                        // I <= floor(k0 / -c)
                        let greatest = c.checked_neg().and_then(|d| k0.checked_div_euclid(d));
                        hi = tighter(hi, greatest, i64::min);
                    }
                }
            }
        }
        (lo, hi)
    }

    /// The affine constraints `cond` (with `negate`, its negation)
    /// certainly implies, each `(form, eq)`: `form >= 0`, or `form = 0`
    /// when `eq`. A disjunction gives none (it implies no one of its
    /// parts); so does a comparison of anything but integer affine forms
    /// of the DO variables of the loops around.
    pub(super) fn constraints(&self, cond: &Expr, negate: bool, out: &mut Vec<(Form, bool)>) {
        match &cond.kind {
            ExprKind::Unary(UnOp::Not, x) => self.constraints(x, !negate, out),
            ExprKind::Binary(BinOp::And, a, b) if !negate => {
                self.constraints(a, false, out);
                self.constraints(b, false, out);
            }
            ExprKind::Binary(BinOp::Or, a, b) if negate => {
                self.constraints(a, true, out);
                self.constraints(b, true, out);
            }
            ExprKind::Binary(
                op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne),
                a,
                b,
            ) => {
                let only_loops = |f: &Form| f.terms.keys().all(|t| matches!(t, Term::Loop(_)));
                let (Some(fa), Some(fb)) = (self.affine(a), self.affine(b)) else {
                    return;
                };
                if !only_loops(&fa) || !only_loops(&fb) {
                    return;
                }
                let op = match (op, negate) {
                    (op, false) => *op,
                    (BinOp::Lt, true) => BinOp::Ge,
                    (BinOp::Le, true) => BinOp::Gt,
                    (BinOp::Gt, true) => BinOp::Le,
                    (BinOp::Ge, true) => BinOp::Lt,
                    (BinOp::Eq, true) => BinOp::Ne,
                    (_, true) => BinOp::Eq,
                };
                // d = a - b
                let Some(d) = fb.scale(-1).and_then(|nb| fa.add(nb)) else {
                    return;
                };
                let minus_one = Form::constant(-1);
                let c = match op {
                    BinOp::Ge => Some((d, false)),
                    BinOp::Gt => d.add(minus_one).map(|f| (f, false)),
                    BinOp::Le => d.scale(-1).map(|f| (f, false)),
                    BinOp::Lt => d
                        .scale(-1)
                        .and_then(|f| f.add(minus_one))
                        .map(|f| (f, false)),
                    BinOp::Eq => Some((d, true)),
                    _ => None,
                };
                // A constant one says nothing of the DO variables (the
                // branch it rules out is a `never_edge`).
                out.extend(c.filter(|(f, _)| !f.terms.is_empty()));
            }
            _ => {}
        }
    }

    /// `guard_form` rows for the statements numbered from `first` on (an
    /// arm's body), under the IF test `test`, and their `iteration_first`
    /// and `iteration_last` rows (`spans`, from [`Self::domain_box`]).
    pub(super) fn guard_arm(
        &mut self,
        test: i64,
        first: i64,
        constraints: &[(Form, bool)],
        spans: &[Iterations],
    ) {
        let end = self.g.next_stmt;
        self.iteration_rows(first..end, spans);
        for (form, eq) in constraints {
            let form = self.emit_form(form);
            for stmt in first..end {
                self.g.facts.guard_form.push(GuardForm {
                    stmt,
                    test,
                    form,
                    relation: if *eq { "eq" } else { "ge" }.to_string(),
                });
            }
        }
    }

    /// The `iteration_first` and `iteration_last` rows of the statements
    /// `stmts`, which run only in the iterations `spans` give.
    pub(super) fn iteration_rows(&mut self, stmts: std::ops::Range<i64>, spans: &[Iterations]) {
        for span in spans {
            for stmt in stmts.clone() {
                if span.first > 0 {
                    self.g.facts.iteration_first.push(IterationFirst {
                        stmt,
                        r#loop: span.r#loop,
                        iteration: span.first,
                    });
                }
                if let Some(last) = span.last {
                    self.g.facts.iteration_last.push(IterationLast {
                        stmt,
                        r#loop: span.r#loop,
                        iteration: last,
                    });
                }
            }
        }
    }

    /// A control edge no run takes.
    pub(super) fn never(&mut self, from: i64, to: i64) {
        self.g.facts.never_edge.push(NeverEdge { from, to });
    }

    /// Notes, for the statement `stmt` being lowered (an assignment to a
    /// scalar or a whole array, or a DO statement), the loops around it of which it runs in some
    /// iteration of every run that reaches the loop's end, and those of
    /// which it runs in the last iteration, where an inner loop or an IF
    /// inside the loop may skip it (else it runs in every iteration, which
    /// the dataflow knows). The rows wait for the loop's end: a jump in its
    /// body drops them ([`Self::certain_rows`]).
    pub(super) fn note_certain(&mut self, stmt: i64) {
        let depth = self.loops.len();
        if depth == 0 {
            return;
        }
        for at in 0..depth {
            if at + 1 == depth && !self.known.iter().any(|k| k.depth > at) {
                continue;
            }
            let during = self.runs_at_some_point(at, Within::Some);
            let last = self.runs_at_some_point(at, Within::Last);
            if during || last {
                let rows = self.certain.entry(self.loops[at].id).or_default();
                rows.push((stmt, during, last));
            }
        }
    }

    /// The `runs_during` and `runs_last` rows of the DO loop `id`, whose
    /// body ends with statement `end`, now that its body is lowered: none
    /// when the body may jump (a GO TO, EXIT, CYCLE, RETURN, STOP, an I/O
    /// statement's END= or ERR=, an opaque statement) or has a SELECT CASE,
    /// whose arms are not among the known conditions.
    pub(super) fn certain_rows(&mut self, id: i64, end: i64) {
        let Some(rows) = self.certain.remove(&id) else {
            return;
        };
        let skips = self
            .g
            .facts
            .stmt
            .iter()
            .rev()
            .take_while(|r| r.stmt > id)
            .any(|r| r.stmt < end && SKIPPING.contains(&r.kind.as_str()))
            || self
                .gotos
                .iter()
                .any(|&(from, _, _)| from > id && from < end);
        if skips {
            return;
        }
        for (stmt, during, last) in rows {
            if during {
                self.g
                    .facts
                    .runs_during
                    .push(RunsDuring { stmt, r#loop: id });
            }
            if last {
                self.g.facts.runs_last.push(RunsLast { stmt, r#loop: id });
            }
        }
    }

    /// Whether the statement being lowered runs at some point of the
    /// iteration domain of the loops `self.loops[at..]` where the loop
    /// `self.loops[at]` has a value every run reaching its end takes
    /// (`within`), and every condition of the IFs around the statement
    /// inside that loop folds to the arm's value. A loop whose bounds do
    /// not fold there, a DO WHILE, or a condition on anything else (a DO
    /// variable of a loop outside, a scalar, an array element) answers no.
    fn runs_at_some_point(&self, at: usize, within: Within) -> bool {
        let frames = &self.loops[at..];
        // On the DO variables of the loops from `at` to the IF (not of a
        // loop inside the IF: its value is not the one at the test).
        let conds: Vec<&Known> = self.known.iter().filter(|k| k.depth > at).collect();
        if !conds
            .iter()
            .all(|k| self.folds_over(k.cond, &self.loops[at..k.depth.min(self.loops.len())]))
        {
            return false;
        }
        // So must the bounds of the loops inside, over the loops around them.
        let inner_bounds_fold = frames.iter().enumerate().skip(1).all(|(i, f)| {
            f.bounds.as_ref().is_some_and(|(lo, up, _)| {
                self.folds_over(lo, &frames[..i]) && self.folds_over(up, &frames[..i])
            })
        });
        if !inner_bounds_fold {
            return false;
        }
        let mut at_point = Point {
            values: BTreeMap::new(),
            iteration: BTreeMap::new(),
            outer: self.syms,
        };
        let Some((lo, up, st)) = &frames[0].bounds else {
            return false;
        };
        let (lo, up) = (fold::fold_int(lo, &at_point), fold::fold_int(up, &at_point));
        // The first and the last iterations run in every run that reaches
        // the end (the last value is the upper bound for a step of 1 or
        // -1); with both bounds known, every value does.
        let firsts = match (within, lo, up) {
            (Within::Some, Some(lo), Some(up)) => {
                sequence(lo, up, *st, MAX_SEARCH).or(Some(vec![lo]))
            }
            (Within::Some, Some(lo), None) => Some(vec![lo]),
            (_, None, Some(up)) if st.abs() == 1 => Some(vec![up]),
            (Within::Last, Some(lo), Some(up)) => trip_count(lo, up, *st)
                .filter(|&n| n > 0)
                .and_then(|n| st.checked_mul(n - 1)?.checked_add(lo))
                .map(|v| vec![v]),
            (Within::Last, Some(_), None) | (_, None, _) => None,
        };
        let Some(firsts) = firsts else {
            return false;
        };
        let var = frames[0].var.clone().expect("a DO loop's frame");
        let mut budget = MAX_SEARCH;
        firsts.into_iter().any(|v| {
            at_point.values.insert(var.clone(), Const::Int(v));
            some_point(&frames[1..], &conds, &mut at_point, &mut budget)
        })
    }
}

/// The kinds of statements that may take control past others in a loop's
/// body, or choose among them by conditions [`Known`] does not hold.
const SKIPPING: [&str; 11] = [
    "goto",
    "computed_goto",
    "arith_if",
    "exit",
    "cycle",
    "return",
    "stop",
    "opaque",
    "select",
    "case",
    "case_default",
];

/// The iterations of a loop asked about in
/// [`UnitLowerer::runs_at_some_point`].
#[derive(Clone, Copy)]
enum Within {
    /// Any iteration.
    Some,
    /// The last one.
    Last,
}

/// The values `lo`, `lo + st`, ... up to `up`, when fewer than `budget`.
fn sequence(lo: i64, up: i64, st: i64, budget: i64) -> Option<Vec<i64>> {
    let mut out = Vec::new();
    let mut v = lo;
    while (st > 0 && v <= up) || (st < 0 && v >= up) {
        if out.len() as i64 >= budget {
            return None;
        }
        out.push(v);
        v = v.checked_add(st)?;
    }
    Some(out)
}

/// Whether some point of the loops `frames` (outermost first, each with
/// bounds that fold at `at`) makes every condition of `conds` fold to its
/// arm's value; false past the budget.
fn some_point(frames: &[LoopFrame], conds: &[&Known], at: &mut Point, budget: &mut i64) -> bool {
    let Some((frame, inner)) = frames.split_first() else {
        *budget -= 1;
        return *budget >= 0
            && conds
                .iter()
                .all(|k| fold::fold(k.cond, at) == Some(Const::Logical(k.holds)));
    };
    let (Some(var), Some((lo, up, st))) = (&frame.var, &frame.bounds) else {
        return false;
    };
    let (Some(lo), Some(up)) = (fold::fold_int(lo, at), fold::fold_int(up, at)) else {
        return false;
    };
    let Some(vs) = sequence(lo, up, *st, *budget) else {
        return false;
    };
    let found = vs.into_iter().any(|v| {
        at.values.insert(var.clone(), Const::Int(v));
        *budget > 0 && some_point(inner, conds, at, budget)
    });
    at.values.remove(var);
    found
}

/// `n / d` rounded up, for `d > 0`.
fn ceil_div(n: i128, d: i128) -> i128 {
    n.div_euclid(d) + i128::from(n.rem_euclid(d) != 0)
}

/// Adds to `names` the DO variables of `loops` that `e` names.
fn collect_loop_names(e: &Expr, loops: &[LoopFrame], names: &mut Vec<String>) {
    e.any_name(&mut |name, applied| {
        if !applied
            && !names.iter().any(|n| n == name)
            && loops.iter().any(|f| f.var.as_deref() == Some(name))
        {
            names.push(name.to_string());
        }
        false
    });
}

/// The tighter of two ends of a range (`pick`: `max` for least ends,
/// `min` for greatest), each when known.
fn tighter(a: Option<i64>, b: Option<i64>, pick: fn(i64, i64) -> i64) -> Option<i64> {
    match (a, b) {
        (Some(x), Some(y)) => Some(pick(x, y)),
        (x, None) => x,
        (None, y) => y,
    }
}

/// The values of the DO variable of `frame` at the point `at` of the
/// loops around it: the sequence its bounds and step give when they fold
/// there (none when the loop does not run), else its `range` (both ends known).
///
/// Also whether the values are the sequence (the first of them is the
/// first iteration's).
fn values(
    (frame, range): &(&LoopFrame, Range),
    at: &Point,
    budget: i64,
    pinned: bool,
) -> Option<(Vec<i64>, bool)> {
    if let Some(lo) = pinned
        .then_some(frame.bounds.as_ref())
        .flatten()
        .and_then(|(lo, _, _)| fold::fold_int(lo, at))
    {
        return Some((vec![lo], true));
    }
    let folded = frame
        .bounds
        .as_ref()
        .and_then(|(lo, up, st)| Some((fold::fold_int(lo, at)?, fold::fold_int(up, at)?, *st)));
    let exact = folded.is_some();
    let (lo, hi, st) = match folded {
        Some(b) => b,
        None => {
            let (Some(a), Some(b)) = *range else {
                return None;
            };
            if b.checked_sub(a)? >= budget {
                return None;
            }
            (a, b, 1)
        }
    };
    sequence(lo, hi, st, budget).map(|out| (out, exact))
}

/// The points of `frames` (outermost first) from `at` on, each passed to
/// `leaf` (the `pinned` loop at its first value); false when `leaf`
/// stopped or the budget ran out. A loop of `gates` gives no value to its
/// DO variable: the points go on only where it runs.
fn walk(
    frames: &[(&LoopFrame, Range)],
    gates: &[i64],
    pinned: Option<i64>,
    at: &mut Point,
    budget: &mut i64,
    leaf: &mut dyn FnMut(&Point) -> bool,
) -> bool {
    let Some((framed, inner)) = frames.split_first() else {
        *budget -= 1;
        return *budget >= 0 && leaf(at);
    };
    let frame = framed.0;
    let var = frame.var.clone().expect("a DO loop's frame");
    let Some((vs, exact)) = values(framed, at, *budget, pinned == Some(frame.id)) else {
        // Unbound: conditions on it do not fold.
        if *budget <= 0 {
            return false;
        }
        at.iteration.insert(frame.id, None);
        let complete = walk(inner, gates, pinned, at, budget, leaf);
        at.iteration.remove(&frame.id);
        return complete;
    };
    if gates.contains(&frame.id) {
        if vs.is_empty() {
            return true;
        }
        at.iteration.insert(frame.id, None);
        let complete = walk(inner, gates, pinned, at, budget, leaf);
        at.iteration.remove(&frame.id);
        return complete;
    }
    let mut complete = true;
    for (k, v) in vs.into_iter().enumerate() {
        at.values.insert(var.clone(), Const::Int(v));
        at.iteration.insert(frame.id, exact.then_some(k as i64));
        if !walk(inner, gates, pinned, at, budget, leaf) {
            complete = false;
            break;
        }
    }
    at.values.remove(&var);
    at.iteration.remove(&frame.id);
    complete
}
