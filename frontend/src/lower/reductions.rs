//! The statement shapes a reduction is made of (spec 001, section 2.3):
//! `reduction_update(stmt, var, op)` (`S = S + X(I)`, `P = P * X(I)`,
//! `XMAX = MAX(XMAX, X(I))`, `H(K) = H(K) + 1`), `minmax_test(stmt, var,
//! op, value)` (`IF (X(I) .GT. XMAX)`; `strict_test` when the comparison
//! keeps the first of equal values), and, under such a test,
//! `guarded(stmt, test)` and `copy_assign(stmt, var, value)`. Only the
//! shape of one statement is read here; whether every reference of a
//! variable in a loop has one of these shapes is the rules' question
//! (`rules/dl/parallel.dl`).

use kaiseki_facts::{CopyAssign, Guarded, MinmaxTest, ModUpdate, ReductionUpdate, StrictTest};

use super::UnitLowerer;
use crate::ast::{BinOp, Expr, ExprKind, UnOp};
use crate::fold;
use crate::symbols::{ApplyClass, NameClass};

impl<'a> UnitLowerer<'_, '_, 'a> {
    /// The reduction shapes of the assignment `stmt`: `lhs = rhs`.
    pub(super) fn reduction_shapes(&mut self, stmt: i64, lhs: &'a Expr, rhs: &'a Expr) {
        let Some(var) = self.target(lhs) else {
            return;
        };
        let target = fold::text(lhs, self.syms);
        if let Some(op) = self.update_op(&target, var, rhs) {
            self.g.facts.reduction_update.push(ReductionUpdate {
                stmt,
                var: var.to_string(),
                op: op.to_string(),
            });
        } else if let Some(modulus) = self.mod_update(&target, var, lhs, rhs) {
            self.g.facts.reduction_update.push(ReductionUpdate {
                stmt,
                var: var.to_string(),
                op: "mod".to_string(),
            });
            self.g.facts.mod_update.push(ModUpdate {
                stmt,
                var: var.to_string(),
                modulus,
            });
        }
        if self.guard.is_some() && matches!(lhs.kind, ExprKind::Var(_)) {
            self.g.facts.copy_assign.push(CopyAssign {
                stmt,
                var: var.to_string(),
                value: fold::text(rhs, self.syms),
            });
        }
    }

    /// `guarded(stmt, test)` for a statement numbered while the THEN part
    /// of a min/max test is lowered.
    pub(super) fn mark_guarded(&mut self, stmt: i64) {
        if let Some(test) = self.guard {
            self.g.facts.guarded.push(Guarded { stmt, test });
        }
    }

    /// Records `minmax_test` when the condition of `stmt`, an IF whose only
    /// part is the one that `cond` guards, compares a scalar with a value
    /// that does not mention it; returns `stmt` then, the guard of the
    /// statements of its THEN part.
    pub(super) fn minmax_test(&mut self, stmt: i64, cond: &Expr) -> Option<i64> {
        let ExprKind::Binary(op, a, b) = &cond.kind else {
            return None;
        };
        // `value .GT. var` and `var .LT. value` keep the larger value.
        let larger = match op {
            BinOp::Gt | BinOp::Ge => true,
            BinOp::Lt | BinOp::Le => false,
            _ => return None,
        };
        let strict = matches!(op, BinOp::Gt | BinOp::Lt);
        let syms = self.syms;
        fn scalar<'e>(syms: &crate::symbols::Symbols, e: &'e Expr) -> Option<&'e String> {
            match &e.kind {
                ExprKind::Var(n) if syms.classify_name(n) == NameClass::Scalar => Some(n),
                _ => None,
            }
        }
        // With a scalar on both sides, either may be the one kept.
        let mut found = Vec::new();
        if let Some(v) = scalar(syms, b).filter(|v| !mentions(a, v)) {
            found.push((v, larger, a));
        }
        if let Some(v) = scalar(syms, a).filter(|v| !mentions(b, v)) {
            found.push((v, !larger, b));
        }
        if found.is_empty() {
            return None;
        }
        if strict {
            self.g.facts.strict_test.push(StrictTest { stmt });
        }
        for (var, max, value) in found {
            self.g.facts.minmax_test.push(MinmaxTest {
                stmt,
                var: var.clone(),
                op: if max { "max" } else { "min" }.to_string(),
                value: fold::text(value, self.syms),
            });
        }
        Some(stmt)
    }

    /// The variable an assignment's left side defines: a scalar, or the
    /// array of an element.
    fn target(&self, lhs: &'a Expr) -> Option<&'a str> {
        match &lhs.kind {
            ExprKind::Var(n) if self.syms.classify_name(n) == NameClass::Scalar => Some(n),
            ExprKind::Apply { name, args } => {
                matches!(self.syms.classify_apply(name, args), ApplyClass::Element).then_some(name)
            }
            _ => None,
        }
    }

    /// The reduction operator of `target = rhs`: the target is one term of
    /// a `+`/`-` chain (added, not subtracted) or of a `*` chain, or one
    /// argument of MAX/MIN, and the other terms do not mention `var`.
    fn update_op(&self, target: &str, var: &str, rhs: &Expr) -> Option<&'static str> {
        let is_target = |e: &Expr| fold::text(e, self.syms) == target;
        let only_once = |terms: &[&Expr]| {
            let (hits, rest): (Vec<&&Expr>, Vec<&&Expr>) = terms.iter().partition(|e| is_target(e));
            hits.len() == 1 && rest.iter().all(|e| !mentions(e, var))
        };
        match &rhs.kind {
            ExprKind::Binary(BinOp::Add | BinOp::Sub, ..) => {
                let mut terms = Vec::new();
                additive_terms(rhs, true, &mut terms);
                let added: Vec<&Expr> = terms.iter().filter(|t| t.1).map(|t| t.0).collect();
                let subtracted = terms.iter().filter(|t| !t.1).map(|t| t.0);
                let ok = only_once(&added) && subtracted.clone().all(|e| !mentions(e, var));
                ok.then_some("+")
            }
            ExprKind::Binary(BinOp::Mul, ..) => {
                let mut factors = Vec::new();
                product_factors(rhs, &mut factors);
                only_once(&factors).then_some("*")
            }
            ExprKind::Apply { name, args } => {
                let ApplyClass::Intrinsic(row) = self.syms.classify_apply(name, args) else {
                    return None;
                };
                let op = match row.name {
                    "MAX" | "AMAX0" | "AMAX1" | "DMAX1" | "MAX0" | "MAX1" => "max",
                    "MIN" | "AMIN0" | "AMIN1" | "DMIN1" | "MIN0" | "MIN1" => "min",
                    _ => return None,
                };
                let args: Vec<&Expr> = args.iter().collect();
                only_once(&args).then_some(op)
            }
            _ => None,
        }
    }
}

impl<'a> UnitLowerer<'_, '_, 'a> {
    /// The modulus of `target = MOD(target + e1 + ..., m)` (checksum code's
    /// running sum): an INTEGER scalar, a constant m > 0, and terms that
    /// are never negative ([`Self::never_negative`]). Then every partial
    /// sum is too, so `MOD` of it is its remainder in the arithmetic
    /// sense (Fortran's MOD takes the sign of its first argument), and the
    /// partial results of iterations run apart combine by `+` with one
    /// final `MOD` (the rules' `mod` reduction, which also proves the value
    /// on entry to the loop in 0..m-1).
    fn mod_update(&self, target: &str, var: &str, lhs: &Expr, rhs: &Expr) -> Option<i64> {
        if !matches!(lhs.kind, ExprKind::Var(_)) || !self.syms.is_integer_scalar(var) {
            return None;
        }
        let ExprKind::Apply { name, args } = &rhs.kind else {
            return None;
        };
        let ApplyClass::Intrinsic(row) = self.syms.classify_apply(name, args) else {
            return None;
        };
        let [sum, m] = &args[..] else { return None };
        let modulus = fold::fold_int(m, self.syms).filter(|&m| m > 0)?;
        if row.name != "MOD" {
            return None;
        }
        let mut terms = Vec::new();
        additive_terms(sum, true, &mut terms);
        let (hits, rest): (Vec<_>, Vec<_>) = terms
            .iter()
            .partition(|(e, _)| fold::text(e, self.syms) == target);
        let ok = matches!(hits[..], [(_, true)])
            && !rest.is_empty()
            && rest
                .iter()
                .all(|(e, added)| *added && !mentions(e, var) && self.never_negative(e));
        ok.then_some(modulus)
    }

    /// Whether the INTEGER expression `e` is never negative, by its form:
    /// a constant >= 0, a DO variable of a loop around whose values start
    /// at 0 or more (the body cannot assign it), `MODULO(x, c)` of any
    /// INTEGER x with a constant c > 0, `MOD(x, c)` of such an `e`, and
    /// sums and products of these. Anything else (an array element, a
    /// scalar the code sets) may be negative as far as this knows.
    fn never_negative(&self, e: &Expr) -> bool {
        if let Some(c) = fold::fold_int(e, self.syms) {
            return c >= 0;
        }
        match &e.kind {
            ExprKind::Var(n) => self
                .loops
                .iter()
                .rev()
                .find(|f| f.var.as_deref() == Some(n.as_str()))
                .is_some_and(|f| f.range.0.is_some_and(|lo| lo >= 0)),
            ExprKind::Binary(BinOp::Add | BinOp::Mul, a, b) => {
                self.never_negative(a) && self.never_negative(b)
            }
            ExprKind::Apply { name, args } => {
                let ApplyClass::Intrinsic(row) = self.syms.classify_apply(name, args) else {
                    return false;
                };
                let [x, c] = &args[..] else { return false };
                let positive = fold::fold_int(c, self.syms).is_some_and(|c| c > 0);
                match row.name {
                    "MODULO" => positive && self.integer_valued(x),
                    "MOD" => positive && self.never_negative(x),
                    _ => false,
                }
            }
            _ => false,
        }
    }

    /// Whether `e` is built of INTEGER constants, scalars and array
    /// elements with `+`, `-` and `*` (MODULO of a REAL is REAL).
    fn integer_valued(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Int(_) => true,
            ExprKind::Var(n) => {
                self.syms.is_integer_scalar(n)
                    || matches!(self.syms.param(n), Some(crate::fold::Const::Int(_)))
            }
            ExprKind::Apply { name, args } => {
                matches!(self.syms.classify_apply(name, args), ApplyClass::Element)
                    && self.syms.type_of(name) == crate::ast::TypeSpec::Integer
            }
            ExprKind::Unary(UnOp::Neg | UnOp::Plus, x) => self.integer_valued(x),
            ExprKind::Binary(BinOp::Add | BinOp::Sub | BinOp::Mul, a, b) => {
                self.integer_valued(a) && self.integer_valued(b)
            }
            _ => false,
        }
    }
}

/// The terms of a `+`/`-` chain with their signs (true: added).
fn additive_terms<'e>(e: &'e Expr, sign: bool, out: &mut Vec<(&'e Expr, bool)>) {
    match &e.kind {
        ExprKind::Binary(BinOp::Add, a, b) => {
            additive_terms(a, sign, out);
            additive_terms(b, sign, out);
        }
        ExprKind::Binary(BinOp::Sub, a, b) => {
            additive_terms(a, sign, out);
            additive_terms(b, !sign, out);
        }
        _ => out.push((e, sign)),
    }
}

/// The factors of a `*` chain.
fn product_factors<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match &e.kind {
        ExprKind::Binary(BinOp::Mul, a, b) => {
            product_factors(a, out);
            product_factors(b, out);
        }
        _ => out.push(e),
    }
}

/// Whether `name` occurs anywhere in `e` (as a variable, an array or a
/// function).
pub(super) fn mentions(e: &Expr, name: &str) -> bool {
    e.any_name(&mut |n, _| n == name)
}
