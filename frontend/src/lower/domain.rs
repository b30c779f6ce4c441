//! Conditions decided over the iteration domain (`never_edge`): an IF
//! condition whose only variables are the DO variables of the loops
//! around it (each with the range of values its constant bounds give, see
//! [`super::loops`]) and named constants is evaluated, with Fortran's
//! semantics ([`crate::fold`]: MOD with the sign of its first argument,
//! MODULO with the sign of the second), at every point of the box of
//! those ranges. When it has one value at all of them, it has that value
//! in every execution: the branch it never takes is a `never_edge`. Any
//! other condition (a scalar the loops may change, an array element, a
//! call, a box past [`MAX_POINTS`]) decides nothing.
//!
//! The same conditions constrain the references under them
//! (`guard_form`): the comparisons a condition, or its negation for the
//! arms after it, certainly implies, as affine forms of the DO variables
//! (`>= 0` or `= 0`), which the dependence tests add to the iteration
//! domain of each reference there.

use std::collections::BTreeMap;

use kaiseki_facts::{GuardForm, NeverEdge};

use super::affine::{Form, Term};
use super::UnitLowerer;
use crate::ast::{BinOp, Expr, ExprKind, UnOp};
use crate::fold::{self, Const, Env};
use crate::intrinsics::Intrinsic;

/// The most points of a box a condition is evaluated at.
const MAX_POINTS: i64 = 4096;

/// The named constants, and the DO variables at one point of the box.
struct Point<'e> {
    values: BTreeMap<String, Const>,
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

impl UnitLowerer<'_, '_, '_> {
    /// The value `cond` has in every execution, when it has one (see the
    /// module's documentation).
    pub(super) fn decided(&self, cond: &Expr) -> Option<bool> {
        let mut names = Vec::new();
        let mut ok = true;
        cond.any_name(&mut |name, applied| {
            if applied {
                // Only the intrinsic functions fold; an array element stops it.
                ok &= Env::intrinsic(self.syms, name).is_some();
            } else if !names.iter().any(|n: &String| n == name) {
                names.push(name.to_string());
            }
            !ok
        });
        if !ok {
            return None;
        }
        // Each name: a DO variable of a loop around (its range), or a constant.
        let mut vars: Vec<(String, (i64, i64))> = Vec::new();
        for name in names {
            let frame = self
                .loops
                .iter()
                .rev()
                .find(|f| f.var.as_deref() == Some(name.as_str()));
            match frame {
                Some(f) => vars.push((name, f.range?)),
                None if matches!(Env::constant(self.syms, &name), Some(Const::Int(_))) => {}
                None => return None,
            }
        }
        let mut points: i64 = 1;
        for (_, (lo, hi)) in &vars {
            if hi < lo {
                // The loop never runs: nothing to decide.
                return None;
            }
            points = points.checked_mul(hi.checked_sub(*lo)?.checked_add(1)?)?;
            if points > MAX_POINTS {
                return None;
            }
        }
        let mut at = Point {
            values: vars
                .iter()
                .map(|(n, (lo, _))| (n.clone(), Const::Int(*lo)))
                .collect(),
            outer: self.syms,
        };
        let mut seen: Option<bool> = None;
        loop {
            let Some(Const::Logical(v)) = fold::fold(cond, &at) else {
                return None;
            };
            if seen.is_some_and(|s| s != v) {
                return None;
            }
            seen = Some(v);
            // The next point, the first variable fastest.
            let mut k = 0;
            loop {
                let Some((name, (lo, hi))) = vars.get(k) else {
                    return seen;
                };
                let Some(Const::Int(x)) = at.values.get_mut(name) else {
                    return None;
                };
                if *x < *hi {
                    *x += 1;
                    break;
                }
                *x = *lo;
                k += 1;
            }
        }
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
    /// arm's body), under the IF test `test`.
    pub(super) fn guard_arm(&mut self, test: i64, first: i64, constraints: &[(Form, bool)]) {
        let end = self.g.next_stmt;
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

    /// A control edge no run takes.
    pub(super) fn never(&mut self, from: i64, to: i64) {
        self.g.facts.never_edge.push(NeverEdge { from, to });
    }
}
