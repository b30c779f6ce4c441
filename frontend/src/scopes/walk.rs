//! Walks over a unit's declarations and statements: the names it declares
//! and references, and its expressions (to rewrite calls).

use rustc_hash::FxHashSet;
use std::collections::BTreeSet;

use crate::ast::{
    CaseValue, DeclKind, Entity, Expr, ExprKind, ForallIndex, IoItem, Name, Stmt, StmtKind, Unit,
    COMPONENT_REF,
};

/// The names a unit declares itself: its name, dummies, and the names of
/// its declarations.
pub(super) fn declared_names(unit: &Unit) -> FxHashSet<String> {
    let mut out: FxHashSet<String> = FxHashSet::default();
    out.insert(unit.name.text.clone());
    out.extend(unit.args.iter().map(|a| a.text.clone()));
    for d in &unit.decls {
        match &d.kind {
            DeclKind::Type { entities, .. }
            | DeclKind::Dimension(entities)
            | DeclKind::Common { entities, .. }
            | DeclKind::Derived { entities, .. } => {
                out.extend(entities.iter().map(|e| e.name.text.clone()))
            }
            DeclKind::Parameter(list) => out.extend(list.iter().map(|(n, _)| n.text.clone())),
            DeclKind::External(ns) | DeclKind::Intrinsic(ns) => {
                out.extend(ns.iter().map(|n| n.text.clone()))
            }
            DeclKind::CrayPointer(pairs) => {
                for (p, e) in pairs {
                    out.insert(p.text.clone());
                    out.insert(e.name.text.clone());
                }
            }
            _ => {}
        }
    }
    out
}

/// Every name a unit's statements and declarations reference, sorted.
pub(super) fn referenced_names(unit: &Unit) -> BTreeSet<String> {
    names_where(unit, |_| true)
}

/// The names a unit references as variables, never applied to arguments
/// nor called.
pub(super) fn plain_names(unit: &Unit) -> BTreeSet<String> {
    let applied = names_where(unit, |applied| applied);
    let mut plain = names_where(unit, |applied| !applied);
    plain.retain(|n| !applied.contains(n));
    plain
}

/// The names a unit references where `keep` accepts how they stand
/// (applied to arguments or called: true).
fn names_where(unit: &Unit, keep: impl Fn(bool) -> bool) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut add = |e: &Expr| {
        names_in(e, &mut |n, applied| {
            if keep(applied) {
                out.insert(n.to_string());
            }
        })
    };
    for d in &unit.decls {
        decl_exprs(&d.kind, &mut add);
        match &d.kind {
            DeclKind::Save(ns) | DeclKind::Namelist(ns) => {
                ns.iter().for_each(|n| add(&name_expr(n)));
            }
            DeclKind::Access { names, .. } => names.iter().for_each(|n| add(&name_expr(n))),
            _ => {}
        }
    }
    for s in &unit.body {
        stmt_exprs(s, &mut add);
    }
    out
}

/// Calls `hit` on each name of `e` (applied to arguments or not); of a
/// component reference (`P(I)%X(J)`), the object's name and the names in
/// the subscripts, not the components'.
fn names_in(e: &Expr, hit: &mut impl FnMut(&str, bool)) {
    match &e.kind {
        ExprKind::Apply { name, args } if name == COMPONENT_REF => {
            if let Some(base) = args.first() {
                names_in(base, hit);
            }
            for part in args.iter().skip(1) {
                if let ExprKind::Apply { args, .. } = &part.kind {
                    args.iter().for_each(|a| names_in(a, hit));
                }
            }
        }
        ExprKind::Var(n) => hit(n, false),
        ExprKind::Apply { name, args } => {
            hit(name, true);
            args.iter().for_each(|a| names_in(a, hit));
        }
        ExprKind::Range {
            lower,
            upper,
            stride,
        } => [lower, upper, stride]
            .into_iter()
            .flatten()
            .for_each(|x| names_in(x, hit)),
        ExprKind::Unary(_, x) => names_in(x, hit),
        ExprKind::Binary(_, a, b) => {
            names_in(a, hit);
            names_in(b, hit);
        }
        ExprKind::Int(_) | ExprKind::Real(_) | ExprKind::Logical(_) | ExprKind::Str(_) => {}
    }
}

/// A name of `pointers` that statement `s` (or a statement inside it)
/// references, if any.
pub(super) fn pointer_in(s: &Stmt, pointers: &FxHashSet<String>) -> Option<String> {
    let mut found = None;
    stmt_exprs(s, &mut |e: &Expr| {
        names_in(e, &mut |n, _| {
            if found.is_none() && pointers.contains(n) {
                found = Some(n.to_string());
            }
        })
    });
    found
}

fn name_expr(n: &Name) -> Expr {
    Expr {
        pos: n.pos,
        kind: ExprKind::Var(n.text.clone()),
    }
}

/// The expressions of a declaration: bounds, initial values, EQUIVALENCE
/// and DATA items.
pub(super) fn decl_exprs(d: &DeclKind, f: &mut impl FnMut(&Expr)) {
    let entity = |e: &Entity, f: &mut dyn FnMut(&Expr)| {
        for dim in &e.dims {
            dim.lower.iter().chain(&dim.upper).for_each(&mut *f);
        }
        e.init.iter().for_each(f);
    };
    match d {
        DeclKind::Type { entities, .. }
        | DeclKind::Dimension(entities)
        | DeclKind::Common { entities, .. }
        | DeclKind::Derived { entities, .. } => entities.iter().for_each(|e| entity(e, f)),
        DeclKind::Parameter(list) => list.iter().for_each(|(_, e)| f(e)),
        DeclKind::Equivalence(groups) => groups.iter().flatten().for_each(f),
        DeclKind::Data(sets) => {
            for set in sets {
                set.objects.iter().flat_map(|o| o.exprs()).for_each(&mut *f);
                for v in set.values.iter().flatten() {
                    v.repeat.iter().chain(&v.value).for_each(&mut *f);
                }
            }
        }
        _ => {}
    }
}

/// Every expression of a statement and of the statements inside it, with
/// the names a statement holds outside expressions (DO variables, called
/// procedures) as variables.
pub(super) fn stmt_exprs(s: &Stmt, f: &mut impl FnMut(&Expr)) {
    match &s.kind {
        StmtKind::Assign { lhs, rhs } => {
            f(lhs);
            f(rhs);
        }
        StmtKind::Do {
            var,
            lower,
            upper,
            step,
            body,
            ..
        } => {
            f(&name_expr(var));
            [lower, upper].into_iter().chain(step).for_each(&mut *f);
            body.iter().for_each(|s| stmt_exprs(s, f));
        }
        StmtKind::DoWhile { cond, body, .. } => {
            f(cond);
            body.iter().for_each(|s| stmt_exprs(s, f));
        }
        StmtKind::If {
            arms, else_part, ..
        } => {
            for a in arms {
                f(&a.cond);
                a.body.iter().for_each(|s| stmt_exprs(s, f));
            }
            for s in else_part.iter().flat_map(|e| &e.body) {
                stmt_exprs(s, f);
            }
        }
        StmtKind::LogicalIf { cond, stmt } => {
            f(cond);
            stmt_exprs(stmt, f);
        }
        StmtKind::Select {
            selector, cases, ..
        } => {
            f(selector);
            for c in cases {
                for v in c.values.iter().flatten() {
                    case_value_exprs(v).for_each(&mut *f);
                }
                c.body.iter().for_each(|s| stmt_exprs(s, f));
            }
        }
        StmtKind::Where {
            indices,
            mask,
            lhs,
            rhs,
        } => {
            indices
                .iter()
                .flat_map(ForallIndex::bounds)
                .for_each(&mut *f);
            [mask, lhs, rhs].into_iter().for_each(f)
        }
        StmtKind::ComputedGoto { index, .. } => f(index),
        StmtKind::ArithIf { expr, .. } => f(expr),
        StmtKind::Call { name, args } => {
            f(&Expr {
                pos: name.pos,
                kind: ExprKind::Apply {
                    name: name.text.clone(),
                    args: Vec::new(),
                },
            });
            args.iter().for_each(f);
        }
        StmtKind::Read { control, items }
        | StmtKind::Write { control, items }
        | StmtKind::Print { control, items } => {
            control.exprs().for_each(&mut *f);
            items.iter().for_each(|i| io_item_exprs(i, f));
        }
        StmtKind::File {
            control, outputs, ..
        } => {
            control.exprs().for_each(&mut *f);
            outputs.iter().for_each(f);
        }
        StmtKind::Allocate {
            objects,
            stat,
            source,
            ..
        } => objects.iter().chain(stat).chain(source).for_each(f),
        StmtKind::Goto(_)
        | StmtKind::Exit { .. }
        | StmtKind::Cycle { .. }
        | StmtKind::Continue
        | StmtKind::Return
        | StmtKind::Stop
        | StmtKind::Format
        | StmtKind::Opaque { .. } => {}
    }
}

fn case_value_exprs(v: &CaseValue) -> impl Iterator<Item = &Expr> {
    match v {
        CaseValue::Single(e) => vec![e],
        CaseValue::Range(lo, hi) => lo.iter().chain(hi).collect(),
    }
    .into_iter()
}

fn io_item_exprs(i: &IoItem, f: &mut impl FnMut(&Expr)) {
    match i {
        IoItem::Expr(e) => f(e),
        IoItem::ImpliedDo(d) => {
            f(&name_expr(&d.var));
            [&d.lower, &d.upper]
                .into_iter()
                .chain(&d.step)
                .for_each(&mut *f);
            d.items.iter().for_each(|i| io_item_exprs(i, f));
        }
    }
}

/// Calls `f` on every top-level expression of `s` and of the statements
/// inside it (a CALL's arguments, not its name).
/// Applies `f` to `s` and to every statement nested in it (the bodies of
/// DO, DO WHILE, IF, SELECT CASE; the statement of a logical IF).
pub(super) fn for_each_stmt_mut(s: &mut Stmt, f: &mut impl FnMut(&mut Stmt)) {
    f(s);
    match &mut s.kind {
        StmtKind::Do { body, .. } | StmtKind::DoWhile { body, .. } => {
            body.iter_mut().for_each(|s| for_each_stmt_mut(s, f));
        }
        StmtKind::If {
            arms, else_part, ..
        } => {
            for a in arms {
                a.body.iter_mut().for_each(|s| for_each_stmt_mut(s, f));
            }
            for s in else_part.iter_mut().flat_map(|e| &mut e.body) {
                for_each_stmt_mut(s, f);
            }
        }
        StmtKind::LogicalIf { stmt, .. } => for_each_stmt_mut(stmt, f),
        StmtKind::Select { cases, .. } => {
            for c in cases {
                c.body.iter_mut().for_each(|s| for_each_stmt_mut(s, f));
            }
        }
        _ => {}
    }
}

pub(super) fn for_each_expr_mut(s: &mut Stmt, f: &mut impl FnMut(&mut Expr)) {
    match &mut s.kind {
        StmtKind::Assign { lhs, rhs } => {
            f(lhs);
            f(rhs);
        }
        StmtKind::Do {
            lower,
            upper,
            step,
            body,
            ..
        } => {
            f(lower);
            f(upper);
            step.iter_mut().for_each(&mut *f);
            body.iter_mut().for_each(|s| for_each_expr_mut(s, f));
        }
        StmtKind::DoWhile { cond, body, .. } => {
            f(cond);
            body.iter_mut().for_each(|s| for_each_expr_mut(s, f));
        }
        StmtKind::If {
            arms, else_part, ..
        } => {
            for a in arms {
                f(&mut a.cond);
                a.body.iter_mut().for_each(|s| for_each_expr_mut(s, f));
            }
            for s in else_part.iter_mut().flat_map(|e| &mut e.body) {
                for_each_expr_mut(s, f);
            }
        }
        StmtKind::LogicalIf { cond, stmt } => {
            f(cond);
            for_each_expr_mut(stmt, f);
        }
        StmtKind::Select {
            selector, cases, ..
        } => {
            f(selector);
            for c in cases {
                c.body.iter_mut().for_each(|s| for_each_expr_mut(s, f));
            }
        }
        StmtKind::Where {
            indices,
            mask,
            lhs,
            rhs,
        } => {
            let bounds = indices.iter_mut().flat_map(ForallIndex::bounds_mut);
            bounds.chain([mask, lhs, rhs]).for_each(f)
        }
        StmtKind::ComputedGoto { index, .. } => f(index),
        StmtKind::ArithIf { expr, .. } => f(expr),
        StmtKind::Call { args, .. } => args.iter_mut().for_each(f),
        StmtKind::Read { items, .. }
        | StmtKind::Write { items, .. }
        | StmtKind::Print { items, .. } => items.iter_mut().for_each(|i| io_item_mut(i, f)),
        StmtKind::Allocate {
            objects, source, ..
        } => objects.iter_mut().chain(source).for_each(f),
        StmtKind::File { .. }
        | StmtKind::Exit { .. }
        | StmtKind::Cycle { .. }
        | StmtKind::Goto(_)
        | StmtKind::Continue
        | StmtKind::Return
        | StmtKind::Stop
        | StmtKind::Format
        | StmtKind::Opaque { .. } => {}
    }
}

fn io_item_mut(i: &mut IoItem, f: &mut impl FnMut(&mut Expr)) {
    match i {
        IoItem::Expr(e) => f(e),
        IoItem::ImpliedDo(d) => d.items.iter_mut().for_each(|i| io_item_mut(i, f)),
    }
}
