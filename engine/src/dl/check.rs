//! Type inference and checking (number vs symbol), and the binding check:
//! every variable of a head, a negation, a comparison, a functor argument
//! or an aggregate's grouping must be bound by a positive atom (directly
//! or through `=`, arithmetic, functors and aggregates).

use super::ast::{AggKind, CmpOp, Type};
use super::diag::{Diagnostic, Pos};
use super::ir::*;

/// Infers the variable types of every rule (filling [`Var::ty`] and the
/// columns of auxiliary relations) and returns type and binding errors.
pub fn check(p: &mut Program) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    for r in 0..p.rules.len() {
        let types = infer(&p.rules[r], p);
        for (var, ty) in p.rules[r].vars.iter_mut().zip(&types) {
            var.ty = *ty;
        }
        let rule = &p.rules[r];
        if p.relations[rule.head].aggregate_body {
            let cols: Vec<Type> = rule
                .head_args
                .iter()
                .map(|t| term_type(rule, *t).unwrap_or(Type::Number))
                .collect();
            for (col, ty) in p.relations[rule.head].columns.iter_mut().zip(cols) {
                col.1 = ty;
            }
        }
        check_types(&p.rules[r], p, &mut diags);
        check_bindings(&p.rules[r], p, &mut diags);
    }
    diags
}

fn term_type(rule: &Rule, t: Term) -> Option<Type> {
    match t {
        Term::Var(v, _) => rule.vars[v].ty,
        Term::Const(c, _) => Some(c.ty()),
        Term::Any(_) => None,
    }
}

/// The type each variable gets from its first typed occurrence: atoms
/// first, then the other literals, then the head.
fn infer(rule: &Rule, p: &Program) -> Vec<Option<Type>> {
    let mut ty: Vec<Option<Type>> = vec![None; rule.vars.len()];
    let mut changed = true;
    let set = |ty: &mut Vec<Option<Type>>, t: &Term, to: Option<Type>, changed: &mut bool| {
        if let (Term::Var(v, _), Some(to)) = (t, to) {
            if ty[*v].is_none() {
                ty[*v] = Some(to);
                *changed = true;
            }
        }
    };
    let of = |ty: &[Option<Type>], t: &Term| match t {
        Term::Var(v, _) => ty[*v],
        Term::Const(c, _) => Some(c.ty()),
        Term::Any(_) => None,
    };
    while changed {
        changed = false;
        for atoms_only in [true, false] {
            for lit in &rule.body {
                match &lit.kind {
                    LitKind::Atom { rel, args } | LitKind::Not { rel, args } => {
                        if atoms_only == matches!(lit.kind, LitKind::Atom { .. }) {
                            for (t, col) in args.iter().zip(&p.relations[*rel].columns) {
                                set(&mut ty, t, Some(col.1), &mut changed);
                            }
                        }
                    }
                    _ if atoms_only => {}
                    LitKind::Aggregate { dst, rel, args, .. } => {
                        for (t, col) in args.iter().zip(&p.relations[*rel].columns) {
                            set(&mut ty, t, Some(col.1), &mut changed);
                        }
                        set(
                            &mut ty,
                            &Term::Var(*dst, lit.pos),
                            Some(Type::Number),
                            &mut changed,
                        );
                    }
                    LitKind::Arith { dst, lhs, rhs, .. } => {
                        for t in [&Term::Var(*dst, lit.pos), lhs, rhs] {
                            set(&mut ty, t, Some(Type::Number), &mut changed);
                        }
                    }
                    LitKind::Call { dst, functor, args } => {
                        let f = &p.functors[*functor];
                        for (t, a) in args.iter().zip(&f.args) {
                            set(&mut ty, t, Some(*a), &mut changed);
                        }
                        set(
                            &mut ty,
                            &Term::Var(*dst, lit.pos),
                            Some(f.result),
                            &mut changed,
                        );
                    }
                    LitKind::Compare { op, lhs, rhs } => {
                        if matches!(op, CmpOp::Eq | CmpOp::Ne) {
                            let (l, r) = (of(&ty, lhs), of(&ty, rhs));
                            set(&mut ty, lhs, r, &mut changed);
                            set(&mut ty, rhs, l, &mut changed);
                        } else {
                            set(&mut ty, lhs, Some(Type::Number), &mut changed);
                            set(&mut ty, rhs, Some(Type::Number), &mut changed);
                        }
                    }
                }
            }
        }
        if !p.relations[rule.head].aggregate_body {
            for (t, col) in rule.head_args.iter().zip(&p.relations[rule.head].columns) {
                set(&mut ty, t, Some(col.1), &mut changed);
            }
        }
    }
    ty
}

fn describe(rule: &Rule, p: &Program, t: Term) -> String {
    match t {
        Term::Var(v, _) if rule.vars[v].temp => "the expression".to_string(),
        Term::Var(v, _) => format!("`{}`", rule.vars[v].name),
        Term::Const(Const::Number(n), _) => format!("`{n}`"),
        Term::Const(Const::Symbol(s), _) => format!("{:?}", p.symbols[s as usize]),
        Term::Any(_) => "`_`".to_string(),
    }
}

/// Each argument's type against its column's.
fn check_columns(rule: &Rule, p: &Program, args: &[Term], rel: RelId, diags: &mut Vec<Diagnostic>) {
    let r = &p.relations[rel];
    for (t, (col, cty)) in args.iter().zip(&r.columns) {
        match term_type(rule, *t) {
            Some(ty) if ty != *cty => {
                let whose = if r.aggregate_body {
                    "the aggregate's body".to_string()
                } else {
                    format!("`{}`", r.name)
                };
                diags.push(Diagnostic::new(
                    t.pos(),
                    format!(
                        "type mismatch: {} is a {}, but column `{col}` of {whose} is a {}",
                        describe(rule, p, *t),
                        ty.name(),
                        cty.name()
                    ),
                ))
            }
            _ => {}
        }
    }
}

fn check_types(rule: &Rule, p: &Program, diags: &mut Vec<Diagnostic>) {
    for lit in &rule.body {
        match &lit.kind {
            LitKind::Atom { rel, args } | LitKind::Not { rel, args } => {
                check_columns(rule, p, args, *rel, diags)
            }
            LitKind::Aggregate {
                rel,
                args,
                kind,
                target,
                ..
            } => {
                check_columns(rule, p, args, *rel, diags);
                if let (Some(col), true) = (target, *kind != AggKind::Count) {
                    if p.relations[*rel].columns[*col].1 != Type::Number {
                        diags.push(Diagnostic::new(
                            lit.pos,
                            format!(
                                "type mismatch: `{}` needs a number target, this one is a symbol",
                                kind.name()
                            ),
                        ));
                    }
                }
            }
            _ => {}
        }
    }
    if !p.relations[rule.head].aggregate_body {
        check_columns(rule, p, &rule.head_args, rule.head, diags);
    }
    for lit in &rule.body {
        match &lit.kind {
            LitKind::Arith { lhs, rhs, op, .. } => {
                for t in [lhs, rhs] {
                    if term_type(rule, *t) == Some(Type::Symbol) {
                        diags.push(Diagnostic::new(
                            t.pos(),
                            format!(
                                "type mismatch: `{}` needs numbers, {} is a symbol",
                                op.spelling(),
                                describe(rule, p, *t)
                            ),
                        ));
                    }
                }
            }
            LitKind::Compare { op, lhs, rhs } => {
                let (l, r) = (term_type(rule, *lhs), term_type(rule, *rhs));
                if matches!(op, CmpOp::Eq | CmpOp::Ne) {
                    if let (Some(l), Some(r)) = (l, r) {
                        if l != r {
                            diags.push(Diagnostic::new(
                                lit.pos,
                                format!(
                                    "type mismatch: cannot compare {} (a {}) with {} (a {})",
                                    describe(rule, p, *lhs),
                                    l.name(),
                                    describe(rule, p, *rhs),
                                    r.name()
                                ),
                            ));
                        }
                    }
                } else {
                    for (t, ty) in [(lhs, l), (rhs, r)] {
                        if ty == Some(Type::Symbol) {
                            diags.push(Diagnostic::new(
                                t.pos(),
                                format!(
                                    "type mismatch: `{}` compares numbers, {} is a symbol",
                                    op.spelling(),
                                    describe(rule, p, *t)
                                ),
                            ));
                        }
                    }
                }
            }
            LitKind::Call { functor, args, .. } => {
                let f = &p.functors[*functor];
                for (i, (t, want)) in args.iter().zip(&f.args).enumerate() {
                    match term_type(rule, *t) {
                        Some(ty) if ty != *want => diags.push(Diagnostic::new(
                            t.pos(),
                            format!(
                                "type mismatch: argument {} of `@{}` is a {}, {} is a {}",
                                i + 1,
                                f.name,
                                want.name(),
                                describe(rule, p, *t),
                                ty.name()
                            ),
                        )),
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
}

fn unbound_message(rule: &Rule, p: &Program, lit: Option<&Literal>, name: &str) -> String {
    let in_aggregate_body = p.relations[rule.head].aggregate_body;
    match lit.map(|l| (l.context, &l.kind)) {
        Some((_, LitKind::Aggregate { .. })) => {
            format!("variable `{name}` is shared with an aggregate but not bound outside it")
        }
        None | Some((Context::Head | Context::Aggregate, _)) if in_aggregate_body => {
            format!("variable `{name}` of an aggregate is not bound by an atom inside it")
        }
        None | Some((Context::Head, _)) => format!("variable `{name}` is unbound in the head"),
        Some((Context::Negation, _)) => format!("variable `{name}` is unbound in a negation"),
        Some((Context::Comparison, _)) => format!("variable `{name}` is unbound in a comparison"),
        Some((Context::FunctorArg, _)) => {
            format!("variable `{name}` is unbound in a functor argument")
        }
        Some((Context::AtomArg, _)) => {
            format!("variable `{name}` is unbound in an argument expression")
        }
        Some((Context::Atom | Context::Aggregate, _)) => {
            format!("variable `{name}` is unbound")
        }
    }
}

/// Reports the variables that nothing binds, each once, where it is first
/// used. Unbound temporaries only follow from an unbound variable reported
/// elsewhere, so the check first assumes every temporary bound and reports
/// what is still unbound; only when that finds nothing (a cycle like
/// `X = X + 1`) are the variables of the literals that cannot run reported.
fn check_bindings(rule: &Rule, p: &Program, diags: &mut Vec<Diagnostic>) {
    let bound_after = |start: Vec<bool>| {
        let (order, stuck) = rule.order_from(start.clone());
        let mut bound = start;
        for &i in &order {
            for v in rule.body[i]
                .kind
                .binds(&bound, &rule.vars)
                .unwrap_or_default()
            {
                bound[v] = true;
            }
        }
        (bound, stuck)
    };
    let temps: Vec<bool> = rule.vars.iter().map(|v| v.temp).collect();
    let (mut bound, mut stuck) = bound_after(temps);
    if stuck.is_empty()
        && rule
            .head_args
            .iter()
            .all(|t| t.var().is_none_or(|v| bound[v]))
    {
        (bound, stuck) = bound_after(vec![false; rule.vars.len()]);
    }
    // (position, variable, literal or `None` for the head), body first.
    let mut uses: Vec<(bool, Pos, VarId, Option<&Literal>)> = Vec::new();
    for &i in &stuck {
        for t in rule.body[i].kind.terms() {
            if let Term::Var(v, pos) = t {
                uses.push((false, pos, v, Some(&rule.body[i])));
            }
        }
    }
    for t in &rule.head_args {
        if let Term::Var(v, pos) = *t {
            uses.push((true, pos, v, None));
        }
    }
    uses.sort_by_key(|u| (u.0, u.1));
    let mut reported = vec![false; rule.vars.len()];
    for (_, pos, v, lit) in uses {
        if !bound[v] && !rule.vars[v].temp && !reported[v] {
            reported[v] = true;
            let msg = unbound_message(rule, p, lit, &rule.vars[v].name);
            diags.push(Diagnostic::new(pos, msg));
        }
    }
}
