//! The judge's own reading of the scalar shapes that make a loop parallel
//! although the loop carries a flow on them, kept deliberately simple and
//! independent of the analyses: a variable is a reduction when every
//! statement of the loop that mentions it is an update `S = S op e`
//! (`S = e + S`, `S = S - e`, `S = MAX(S, e)`), possibly under IFs that do
//! not mention it, or a test `IF (e .GT. S)` (`.LT.`, `.GE.`, `.LE.`, or
//! `S` on the left) whose statements set `S = e` or record where
//! (`W = f`, f not mentioning S); W is then a location variable, which
//! needs a strict test (`.GT.`, `.LT.`: the first of equal values wins).
//! An induction variable has one definition, `M = M + c` directly in the
//! loop's body, and is only read elsewhere in it.

use crate::interp::RedOp;
use kaiseki_frontend::ast::{BinOp, Expr, ExprKind, Program, Stmt, StmtKind};
use std::collections::{BTreeMap, BTreeSet};

/// What a scalar is in a loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Role {
    Reduction(RedOp),
    /// Records where the min/max of the named variable was found.
    Location(String),
    Induction(i64),
}

/// The DO statement at `line` in any unit of `program`.
pub fn find_do(program: &Program, line: u32) -> Option<&Stmt> {
    fn walk(stmts: &[Stmt], line: u32) -> Option<&Stmt> {
        stmts.iter().find_map(|s| {
            if s.pos.line == line && matches!(s.kind, StmtKind::Do { .. }) {
                return Some(s);
            }
            children(s).iter().find_map(|b| walk(b, line))
        })
    }
    program.units.iter().find_map(|u| walk(&u.body, line))
}

/// The blocks directly inside a statement.
fn children(s: &Stmt) -> Vec<&[Stmt]> {
    match &s.kind {
        StmtKind::Do { body, .. } | StmtKind::DoWhile { body, .. } => vec![body],
        StmtKind::If {
            arms, else_part, ..
        } => arms
            .iter()
            .map(|a| &a.body[..])
            .chain(else_part.iter().map(|e| &e.body[..]))
            .collect(),
        StmtKind::Select { cases, .. } => cases.iter().map(|c| &c.body[..]).collect(),
        StmtKind::LogicalIf { stmt, .. } => vec![std::slice::from_ref(&**stmt)],
        _ => Vec::new(),
    }
}

/// The loop's DO variable and those of the loops inside it.
pub fn do_vars(do_stmt: &Stmt) -> BTreeSet<String> {
    fn walk(s: &Stmt, out: &mut BTreeSet<String>) {
        if let StmtKind::Do { var, .. } = &s.kind {
            out.insert(var.text.clone());
        }
        for b in children(s) {
            b.iter().for_each(|s| walk(s, out));
        }
    }
    let mut out = BTreeSet::new();
    walk(do_stmt, &mut out);
    out
}

/// The roles of the scalars of the loop `do_stmt` (a DO statement).
pub fn roles(do_stmt: &Stmt) -> BTreeMap<String, Role> {
    let StmtKind::Do { body, .. } = &do_stmt.kind else {
        return BTreeMap::new();
    };
    let mut names = BTreeSet::new();
    for s in body {
        stmt_names(s, &mut names);
    }
    let mut out = BTreeMap::new();
    for v in &names {
        if let Some(op) = reduction(body, v) {
            out.insert(v.clone(), Role::Reduction(op));
        } else if let Some(c) = induction(body, v) {
            out.insert(v.clone(), Role::Induction(c));
        }
    }
    let reductions: Vec<String> = out.keys().cloned().collect();
    for w in &names {
        if out.contains_key(w) {
            continue;
        }
        if let Some(v) = reductions.iter().find(|v| location(body, v, w)) {
            out.insert(w.clone(), Role::Location(v.clone()));
        }
    }
    out
}

/// `Some(op)` when every statement mentioning `v` is a reduction shape of
/// one operator.
fn reduction(body: &[Stmt], v: &str) -> Option<RedOp> {
    let mut ops = BTreeSet::new();
    let ok = body.iter().all(|s| reduction_stmt(s, v, &mut ops));
    let op = ops.pop_first()?;
    (ok && ops.is_empty()).then_some(op)
}

fn reduction_stmt(s: &Stmt, v: &str, ops: &mut BTreeSet<RedOp>) -> bool {
    if !mentions_stmt(s, v) {
        return true;
    }
    match &s.kind {
        StmtKind::Assign { lhs, rhs } => match update_op(lhs, rhs, v) {
            Some(op) => {
                ops.insert(op);
                true
            }
            None => false,
        },
        StmtKind::LogicalIf { cond, stmt } if !mentions(cond, v) => reduction_stmt(stmt, v, ops),
        StmtKind::LogicalIf { cond, stmt } => {
            minmax_guard(cond, v, std::slice::from_ref(&**stmt), ops).is_some()
        }
        StmtKind::If {
            arms, else_part, ..
        } if arms.len() == 1 && else_part.is_none() && mentions(&arms[0].cond, v) => {
            minmax_guard(&arms[0].cond, v, &arms[0].body, ops).is_some()
        }
        StmtKind::If {
            arms, else_part, ..
        } => {
            arms.iter().all(|a| !mentions(&a.cond, v))
                && arms
                    .iter()
                    .flat_map(|a| &a.body)
                    .chain(else_part.iter().flat_map(|e| &e.body))
                    .all(|s| reduction_stmt(s, v, ops))
        }
        StmtKind::Do { body, .. } => {
            !do_header_mentions(s, v) && body.iter().all(|s| reduction_stmt(s, v, ops))
        }
        _ => false,
    }
}

/// For a test of `v` guarding `body` that keeps a min or max: the
/// operator, and whether the test is strict; every statement of the body
/// sets `v` to the compared value or sets another scalar without reading `v`.
fn minmax_guard(cond: &Expr, v: &str, body: &[Stmt], ops: &mut BTreeSet<RedOp>) -> Option<bool> {
    let ExprKind::Binary(op, a, b) = &cond.kind else {
        return None;
    };
    let (larger, strict) = match op {
        BinOp::Gt => (true, true),
        BinOp::Ge => (true, false),
        BinOp::Lt => (false, true),
        BinOp::Le => (false, false),
        _ => return None,
    };
    // `e .GT. v` keeps the larger e; `v .GT. e` the smaller.
    let (value, keep_max) = match (is_var(a, v), is_var(b, v)) {
        (false, true) if !mentions(a, v) => (a, larger),
        (true, false) if !mentions(b, v) => (b, !larger),
        _ => return None,
    };
    let mut sets_v = false;
    for s in body {
        let StmtKind::Assign { lhs, rhs } = &s.kind else {
            return None;
        };
        if is_var(lhs, v) && same(rhs, value) {
            sets_v = true;
        } else if matches!(lhs.kind, ExprKind::Var(_)) && !mentions(lhs, v) && !mentions(rhs, v) {
        } else {
            return None;
        }
    }
    sets_v.then(|| {
        ops.insert(if keep_max { RedOp::Max } else { RedOp::Min });
        strict
    })
}

/// `w` records where the min/max of `v` was found: every statement
/// mentioning `w` is an assignment to it under a strict test of `v`, and
/// `w` is read nowhere in the loop.
fn location(body: &[Stmt], v: &str, w: &str) -> bool {
    fn ok(s: &Stmt, v: &str, w: &str, found: &mut bool) -> bool {
        if !mentions_stmt(s, w) {
            return true;
        }
        let (cond, inner): (&Expr, &[Stmt]) = match &s.kind {
            StmtKind::If {
                arms, else_part, ..
            } if arms.len() == 1 && else_part.is_none() => (&arms[0].cond, &arms[0].body),
            StmtKind::LogicalIf { cond, stmt } => (cond, std::slice::from_ref(&**stmt)),
            StmtKind::Do { body, .. } => {
                return !do_header_mentions(s, w) && body.iter().all(|s| ok(s, v, w, found));
            }
            _ => return false,
        };
        if mentions(cond, w) {
            return false;
        }
        if mentions(cond, v) {
            let strict = minmax_guard(cond, v, inner, &mut BTreeSet::new()) == Some(true);
            let assigns = inner.iter().all(|s| match &s.kind {
                StmtKind::Assign { rhs, .. } => !mentions(rhs, w) && !mentions(rhs, v),
                _ => false,
            }) && inner
                .iter()
                .any(|s| matches!(&s.kind, StmtKind::Assign { lhs, .. } if is_var(lhs, w)));
            *found |= strict && assigns;
            return strict && assigns;
        }
        inner.iter().all(|s| ok(s, v, w, found))
    }
    let mut found = false;
    body.iter().all(|s| ok(s, v, w, &mut found)) && found
}

/// `Some(c)` when `v`'s only definition is `v = v + c` (or `v - c`) at the
/// top of the body and every other mention reads it.
fn induction(body: &[Stmt], v: &str) -> Option<i64> {
    let mut inc = None;
    for s in body {
        match &s.kind {
            StmtKind::Assign { lhs, rhs } if is_var(lhs, v) => {
                let c = match &rhs.kind {
                    ExprKind::Binary(BinOp::Add, a, b) if is_var(a, v) => int(b)?,
                    ExprKind::Binary(BinOp::Add, a, b) if is_var(b, v) => int(a)?,
                    ExprKind::Binary(BinOp::Sub, a, b) if is_var(a, v) => -int(b)?,
                    _ => return None,
                };
                if inc.replace(c).is_some() {
                    return None;
                }
            }
            _ if defines(s, v) => return None,
            _ => {}
        }
    }
    inc
}

fn int(e: &Expr) -> Option<i64> {
    match &e.kind {
        ExprKind::Int(i) => Some(*i),
        _ => None,
    }
}

/// The reduction operator of `lhs = rhs` on `v`.
fn update_op(lhs: &Expr, rhs: &Expr, v: &str) -> Option<RedOp> {
    if !is_var(lhs, v) {
        return None;
    }
    let other = |e: &Expr| !mentions(e, v);
    match &rhs.kind {
        ExprKind::Binary(BinOp::Add, a, b) if is_var(a, v) && other(b) => Some(RedOp::Add),
        ExprKind::Binary(BinOp::Add, a, b) if is_var(b, v) && other(a) => Some(RedOp::Add),
        ExprKind::Binary(BinOp::Sub, a, b) if is_var(a, v) && other(b) => Some(RedOp::Add),
        ExprKind::Binary(BinOp::Mul, a, b) if is_var(a, v) && other(b) => Some(RedOp::Mul),
        ExprKind::Binary(BinOp::Mul, a, b) if is_var(b, v) && other(a) => Some(RedOp::Mul),
        ExprKind::Apply { name, args } if args.len() == 2 => {
            let op = match name.as_str() {
                "MAX" => RedOp::Max,
                "MIN" => RedOp::Min,
                _ => return None,
            };
            let (a, b) = (&args[0], &args[1]);
            ((is_var(a, v) && other(b)) || (is_var(b, v) && other(a))).then_some(op)
        }
        _ => None,
    }
}

fn is_var(e: &Expr, v: &str) -> bool {
    matches!(&e.kind, ExprKind::Var(n) if n == v)
}

/// Structural equality, positions aside.
fn same(a: &Expr, b: &Expr) -> bool {
    match (&a.kind, &b.kind) {
        (ExprKind::Int(x), ExprKind::Int(y)) => x == y,
        (ExprKind::Real(x), ExprKind::Real(y)) => x == y,
        (ExprKind::Logical(x), ExprKind::Logical(y)) => x == y,
        (ExprKind::Str(x), ExprKind::Str(y)) => x == y,
        (ExprKind::Var(x), ExprKind::Var(y)) => x == y,
        (ExprKind::Apply { name: n, args: x }, ExprKind::Apply { name: m, args: y }) => {
            n == m && x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y))
        }
        (ExprKind::Unary(o, x), ExprKind::Unary(p, y)) => o == p && same(x, y),
        (ExprKind::Binary(o, x1, x2), ExprKind::Binary(p, y1, y2)) => {
            o == p && same(x1, y1) && same(x2, y2)
        }
        _ => false,
    }
}

fn mentions(e: &Expr, v: &str) -> bool {
    e.any_name(&mut |n, _| n == v)
}

fn do_header_mentions(s: &Stmt, v: &str) -> bool {
    match &s.kind {
        StmtKind::Do {
            var,
            lower,
            upper,
            step,
            ..
        } => {
            var.text == v
                || mentions(lower, v)
                || mentions(upper, v)
                || step.as_ref().is_some_and(|e| mentions(e, v))
        }
        _ => false,
    }
}

/// Whether the statement (or one inside it) mentions `v` at all.
fn mentions_stmt(s: &Stmt, v: &str) -> bool {
    let mut names = BTreeSet::new();
    stmt_names(s, &mut names);
    names.contains(v)
}

/// Whether the statement (or one inside it) may define `v`.
fn defines(s: &Stmt, v: &str) -> bool {
    match &s.kind {
        StmtKind::Assign { lhs, .. } | StmtKind::Where { lhs, .. } => {
            mentions(lhs, v) && matches!(lhs.kind, ExprKind::Var(_))
        }
        StmtKind::Do { var, .. } if var.text == v => true,
        StmtKind::Read { .. } | StmtKind::Call { .. } | StmtKind::Opaque { .. } => true,
        _ => children(s).iter().any(|b| b.iter().any(|s| defines(s, v))),
    }
}

/// Every variable name the statement (and those inside it) mentions.
fn stmt_names(s: &Stmt, out: &mut BTreeSet<String>) {
    fn expr(e: &Expr, out: &mut BTreeSet<String>) {
        e.any_name(&mut |n, _| {
            out.insert(n.to_string());
            false
        });
    }

    /// The names an I/O list item mentions, implied-DO variables included.
    fn io_item_names(item: &kaiseki_frontend::ast::IoItem, out: &mut BTreeSet<String>) {
        match item {
            kaiseki_frontend::ast::IoItem::Expr(e) => expr(e, out),
            kaiseki_frontend::ast::IoItem::ImpliedDo(d) => {
                out.insert(d.var.text.clone());
                [Some(&d.lower), Some(&d.upper), d.step.as_ref()]
                    .into_iter()
                    .flatten()
                    .for_each(|e| expr(e, out));
                d.items.iter().for_each(|i| io_item_names(i, out));
            }
        }
    }
    match &s.kind {
        StmtKind::Assign { lhs, rhs } => {
            expr(lhs, out);
            expr(rhs, out);
        }
        StmtKind::Do {
            var,
            lower,
            upper,
            step,
            ..
        } => {
            out.insert(var.text.clone());
            [Some(lower), Some(upper), step.as_ref()]
                .into_iter()
                .flatten()
                .for_each(|e| expr(e, out));
        }
        StmtKind::DoWhile { cond, .. } | StmtKind::LogicalIf { cond, .. } => expr(cond, out),
        StmtKind::If { arms, .. } => arms.iter().for_each(|a| expr(&a.cond, out)),
        StmtKind::Where {
            indices,
            mask,
            lhs,
            rhs,
        } => indices
            .iter()
            .flat_map(|i| i.bounds())
            .chain([mask, lhs, rhs])
            .for_each(|e| expr(e, out)),
        StmtKind::Select {
            selector, cases, ..
        } => {
            expr(selector, out);
            for v in cases.iter().flat_map(|c| c.values.iter().flatten()) {
                match v {
                    kaiseki_frontend::ast::CaseValue::Single(e) => expr(e, out),
                    kaiseki_frontend::ast::CaseValue::Range(lo, hi) => {
                        lo.iter().chain(hi).for_each(|e| expr(e, out))
                    }
                }
            }
        }
        StmtKind::Write { items, .. }
        | StmtKind::Print { items, .. }
        | StmtKind::Read { items, .. } => {
            items.iter().for_each(|i| io_item_names(i, out));
        }
        StmtKind::Call { args, .. } => args.iter().for_each(|e| expr(e, out)),
        StmtKind::ComputedGoto { index, .. } => expr(index, out),
        StmtKind::ArithIf { expr: e, .. } => expr(e, out),
        _ => {}
    }
    for b in children(s) {
        b.iter().for_each(|s| stmt_names(s, out));
    }
}
