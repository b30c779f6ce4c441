//! A test oracle for the interpreter: the naive fixpoint. Every rule of a
//! stratum is re-evaluated over whole relations until nothing changes,
//! literals in written order by nested loops over B-tree sets: no delta,
//! no planning, no index. The interpreter must derive exactly the same.

use crate::dl::ast::{AggKind, ArithOp, CmpOp};
use crate::dl::ir::{LitKind, Program, Rule, Term};
use crate::functors::Calls;
use crate::ops;
use crate::rows::Rows;
use std::collections::BTreeSet;

type Relation = BTreeSet<Vec<i64>>;

pub fn evaluate(p: &Program, inputs: Vec<Rows>, calls: &Calls) -> Vec<Rows> {
    let mut rels: Vec<Relation> = vec![BTreeSet::new(); p.relations.len()];
    for (rel, rows) in rels.iter_mut().zip(&inputs) {
        rel.extend(rows.iter().map(<[i64]>::to_vec));
    }
    for stratum in &p.strata {
        loop {
            let mut changed = false;
            for &r in &stratum.rules {
                let rule = &p.rules[r];
                let mut out = Vec::new();
                let (order, _) = rule.source_order();
                let mut env = vec![None; rule.vars.len()];
                solve(rule, &order, &rels, calls, &mut env, &mut out);
                for row in out {
                    changed |= rels[rule.head].insert(row);
                }
            }
            if !changed {
                break;
            }
        }
    }
    p.relations
        .iter()
        .zip(&rels)
        .map(|(r, rows)| {
            let mut out = Rows::new(r.arity());
            rows.iter().for_each(|row| out.push(row));
            out
        })
        .collect()
}

fn value(t: &Term, env: &[Option<i64>]) -> Option<i64> {
    match t {
        Term::Var(v, _) => env[*v],
        Term::Const(c, _) => Some(c.value()),
        Term::Any(_) => None,
    }
}

/// Whether `row` matches `args`, binding unbound variables in `env`.
fn unify(args: &[Term], row: &[i64], env: &mut [Option<i64>]) -> bool {
    args.iter().zip(row).all(|(t, &x)| match t {
        Term::Any(_) => true,
        Term::Var(v, _) if env[*v].is_none() => {
            env[*v] = Some(x);
            true
        }
        t => value(t, env) == Some(x),
    })
}

fn solve(
    rule: &Rule,
    order: &[usize],
    rels: &[Relation],
    calls: &Calls,
    env: &mut Vec<Option<i64>>,
    out: &mut Vec<Vec<i64>>,
) {
    let Some((&first, rest)) = order.split_first() else {
        out.push(
            rule.head_args
                .iter()
                .map(|t| value(t, env).unwrap_or(0))
                .collect(),
        );
        return;
    };
    let mut with = |env: &mut Vec<Option<i64>>, dst: usize, v: i64| {
        let saved = env[dst];
        env[dst] = Some(v);
        solve(rule, rest, rels, calls, env, out);
        env[dst] = saved;
    };
    match &rule.body[first].kind {
        LitKind::Atom { rel, args } => {
            for row in &rels[*rel] {
                let mut e = env.clone();
                if unify(args, row, &mut e) {
                    solve(rule, rest, rels, calls, &mut e, out);
                }
            }
        }
        LitKind::Not { rel, args } => {
            if !rels[*rel]
                .iter()
                .any(|row| unify(args, row, &mut env.clone()))
            {
                solve(rule, rest, rels, calls, env, out);
            }
        }
        LitKind::Compare { op, lhs, rhs } => match (value(lhs, env), value(rhs, env)) {
            (Some(a), Some(b)) if op.holds(a, b) => solve(rule, rest, rels, calls, env, out),
            (None, Some(b)) if *op == CmpOp::Eq => with(env, lhs.var().unwrap_or(0), b),
            (Some(a), None) if *op == CmpOp::Eq => with(env, rhs.var().unwrap_or(0), a),
            _ => {}
        },
        LitKind::Arith { dst, op, lhs, rhs } => {
            let (a, b) = (value(lhs, env).unwrap_or(0), value(rhs, env).unwrap_or(0));
            let v = match op {
                ArithOp::Add => Some(ops::add(a, b)),
                ArithOp::Sub => Some(ops::sub(a, b)),
                ArithOp::Mul => Some(ops::mul(a, b)),
                ArithOp::Div => ops::div(a, b),
                ArithOp::Rem => ops::rem(a, b),
            };
            if let Some(v) = v {
                with(env, *dst, v);
            }
        }
        LitKind::Call { dst, functor, args } => {
            let args: Vec<i64> = args.iter().map(|t| value(t, env).unwrap_or(0)).collect();
            for v in calls.call(*functor, &args) {
                with(env, *dst, v);
            }
        }
        LitKind::Aggregate {
            dst,
            kind,
            rel,
            args,
            target,
        } => {
            let rows: Vec<&Vec<i64>> = rels[*rel]
                .iter()
                .filter(|row| unify(args, row, &mut env.clone()))
                .collect();
            let values = rows.iter().map(|row| (&row[target.unwrap_or(0)],));
            let v = match kind {
                AggKind::Count => ops::count(values.map(|_| ())).next(),
                AggKind::Sum => ops::sum(values).next(),
                AggKind::Min => ops::min(values).next(),
                AggKind::Max => ops::max(values).next(),
            };
            if let Some(v) = v {
                with(env, *dst, v);
            }
        }
    }
}
