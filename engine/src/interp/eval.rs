//! Runs one plan: a nested loop over its operations, with the rule's
//! variables in registers, appending head rows to the pending rows.

use super::plan::{ColOp, Op, Src};
use super::store::Store;
use crate::dl::ast::{AggKind, ArithOp};
use crate::functors::Calls;
use crate::ops;
use crate::rows::Rows;

/// What a plan reads.
pub struct Env<'a> {
    pub stores: &'a [Store],
    pub calls: &'a Calls<'a>,
}

/// Runs `ops` with `nregs` registers, appending derived rows to `out`.
pub fn run(ops: &[Op], nregs: usize, env: &Env, out: &mut Rows) {
    let mut regs = vec![0; nregs];
    step(ops, 0, env, &mut regs, out);
}

fn get(s: &Src, regs: &[i64]) -> i64 {
    match s {
        Src::Reg(r) => regs[*r],
        Src::Const(c) => *c,
    }
}

/// Binds and checks the columns of a row; false when a check fails.
fn bind(cols: &[ColOp], row: &[i64], regs: &mut [i64]) -> bool {
    for c in cols {
        match c {
            ColOp::Bind(col, reg) => regs[*reg] = row[*col],
            ColOp::Check(col, s) => {
                if row[*col] != get(s, regs) {
                    return false;
                }
            }
        }
    }
    true
}

fn aggregate(
    kind: AggKind,
    store: &Store,
    rows: impl Iterator<Item = u32>,
    target: Option<usize>,
) -> Option<i64> {
    let col = target.unwrap_or(0);
    let values = rows.map(|r| (&store.row(r)[col],));
    match kind {
        AggKind::Count => ops::count(values.map(|_| ())).next(),
        AggKind::Sum => ops::sum(values).next(),
        AggKind::Min => ops::min(values).next(),
        AggKind::Max => ops::max(values).next(),
    }
}

fn step(ops: &[Op], pc: usize, env: &Env, regs: &mut [i64], out: &mut Rows) {
    let next = pc + 1;
    match &ops[pc] {
        Op::Scan { rel, range, cols } => {
            let store = &env.stores[*rel];
            let (lo, hi) = store.bounds(*range);
            for r in lo..hi {
                if bind(cols, store.row(r), regs) {
                    step(ops, next, env, regs, out);
                }
            }
        }
        Op::Probe {
            rel,
            index,
            range,
            key,
            cols,
        } => {
            let store = &env.stores[*rel];
            for r in store.lookup(*index, *range, |i| get(&key[i], regs)) {
                if bind(cols, store.row(r), regs) {
                    step(ops, next, env, regs, out);
                }
            }
        }
        Op::Contains {
            rel,
            range,
            row,
            negated,
        } => {
            let store = &env.stores[*rel];
            let (lo, hi) = store.bounds(*range);
            let found = store
                .find(|c| get(&row[c], regs))
                .is_some_and(|r| lo <= r && r < hi);
            if found != *negated {
                step(ops, next, env, regs, out);
            }
        }
        Op::Exists {
            rel,
            index,
            range,
            key,
            negated,
        } => {
            let store = &env.stores[*rel];
            let found = store
                .lookup(*index, *range, |i| get(&key[i], regs))
                .next()
                .is_some();
            if found != *negated {
                step(ops, next, env, regs, out);
            }
        }
        Op::Filter { op, lhs, rhs } => {
            if op.holds(get(lhs, regs), get(rhs, regs)) {
                step(ops, next, env, regs, out);
            }
        }
        Op::Assign { dst, src } => {
            regs[*dst] = get(src, regs);
            step(ops, next, env, regs, out);
        }
        Op::Arith { dst, op, lhs, rhs } => {
            let (a, b) = (get(lhs, regs), get(rhs, regs));
            let value = match op {
                ArithOp::Add => Some(ops::add(a, b)),
                ArithOp::Sub => Some(ops::sub(a, b)),
                ArithOp::Mul => Some(ops::mul(a, b)),
                ArithOp::Div => ops::div(a, b),
                ArithOp::Rem => ops::rem(a, b),
            };
            if let Some(v) = value {
                regs[*dst] = v;
                step(ops, next, env, regs, out);
            }
        }
        Op::Call { dst, functor, args } => {
            let args: Vec<i64> = args.iter().map(|a| get(a, regs)).collect();
            for v in env.calls.call(*functor, &args) {
                regs[*dst] = v;
                step(ops, next, env, regs, out);
            }
        }
        Op::Aggregate {
            dst,
            kind,
            rel,
            index,
            key,
            target,
        } => {
            let store = &env.stores[*rel];
            let value = match index {
                Some(ix) => aggregate(
                    *kind,
                    store,
                    store.lookup(*ix, super::store::Range::All, |i| get(&key[i], regs)),
                    *target,
                ),
                None => aggregate(*kind, store, 0..store.len(), *target),
            };
            if let Some(v) = value {
                regs[*dst] = v;
                step(ops, next, env, regs, out);
            }
        }
        Op::Emit { args } => out.push_from(args.iter().map(|a| get(a, regs))),
    }
}
