//! Join planning: the order in which one rule's literals run, and how each
//! reads its relation (scan, index probe, membership test).
//!
//! The order is greedy. In a semi-naive step the delta atom goes first
//! (it is the small one); then, repeatedly, every literal that can run
//! (filters, negations, arithmetic, functors, aggregates) runs as soon as
//! its variables are bound, so it prunes early; and the next atom is a
//! fully bound one (a membership test) or else the one expected to yield
//! the fewest rows for the bindings so far ([`Store::fan_out`]: the
//! relation's size over the effective distinct values of its bound
//! columns, which weighs values by how often they occur). Every
//! bound column of an atom is a key of a hash index on those columns.
//! Plans are made again at every iteration, as relations grow.

use super::store::{Range, Store};
use crate::dl::ast::{AggKind, ArithOp, CmpOp};
use crate::dl::ir::{LitKind, RelId, Rule, Term};

/// Where an operand comes from.
#[derive(Clone, Copy, Debug)]
pub enum Src {
    Reg(usize),
    Const(i64),
}

/// What to do with one column of a scanned row.
#[derive(Clone, Copy, Debug)]
pub enum ColOp {
    Bind(usize, usize),
    Check(usize, Src),
}

#[derive(Clone, Debug)]
pub enum Op {
    /// Every row of the range.
    Scan {
        rel: RelId,
        range: Range,
        cols: Vec<ColOp>,
    },
    /// The rows of the range whose index key equals `key`.
    Probe {
        rel: RelId,
        index: usize,
        range: Range,
        key: Vec<Src>,
        cols: Vec<ColOp>,
    },
    /// Whether the row is (or, negated, is not) in the range.
    Contains {
        rel: RelId,
        range: Range,
        row: Vec<Src>,
        negated: bool,
    },
    /// Whether some row of the range has this key (or, negated, none has):
    /// an atom with `_` whose other columns are all bound.
    Exists {
        rel: RelId,
        index: usize,
        range: Range,
        key: Vec<Src>,
        negated: bool,
    },
    Filter {
        op: CmpOp,
        lhs: Src,
        rhs: Src,
    },
    Assign {
        dst: usize,
        src: Src,
    },
    Arith {
        dst: usize,
        op: ArithOp,
        lhs: Src,
        rhs: Src,
    },
    Call {
        dst: usize,
        functor: usize,
        args: Vec<Src>,
    },
    /// An aggregate over the (complete) auxiliary relation; `index` is
    /// `None` when nothing groups it.
    Aggregate {
        dst: usize,
        kind: AggKind,
        rel: RelId,
        index: Option<usize>,
        key: Vec<Src>,
        target: Option<usize>,
    },
    /// Adds the head row to the pending rows.
    Emit {
        args: Vec<Src>,
    },
}

fn src(t: &Term) -> Src {
    match t {
        Term::Var(v, _) => Src::Reg(*v),
        Term::Const(c, _) => Src::Const(c.value()),
        // `_` never reaches an operand: lowering and checking keep it in atom arguments.
        Term::Any(_) => Src::Const(0),
    }
}

/// How far an atom's columns are known: (bound columns, unbound).
fn bound_columns(args: &[Term], bound: &[bool]) -> (Vec<usize>, usize) {
    let mut key = Vec::new();
    let mut free = 0;
    for (c, t) in args.iter().enumerate() {
        match t {
            Term::Const(..) => key.push(c),
            Term::Var(v, _) if bound[*v] => key.push(c),
            Term::Var(..) => free += 1,
            Term::Any(_) => {}
        }
    }
    (key, free)
}

/// The range of each atom of a semi-naive variant. For the variant whose
/// delta is the recursive atom `delta`, atoms of the stratum before it read
/// everything, after it only the old rows; so each new derivation is made
/// once, by the variant of its last new tuple.
pub fn range_of(atom: usize, delta: Option<usize>, recursive: &[bool]) -> Range {
    match delta {
        Some(d) if recursive[atom] => {
            if atom < d {
                Range::All
            } else if atom == d {
                Range::Delta
            } else {
                Range::Old
            }
        }
        _ => Range::All,
    }
}

/// Plans `rule` for the variant with delta atom `delta` (a body literal
/// index, `None` for a full evaluation). `recursive[i]` tells whether body
/// literal `i` reads a relation of the rule's own stratum.
pub fn plan(
    rule: &Rule,
    delta: Option<usize>,
    recursive: &[bool],
    stores: &mut [Store],
) -> Vec<Op> {
    let mut bound = vec![false; rule.vars.len()];
    let mut placed = vec![false; rule.body.len()];
    let mut ops = Vec::new();
    let mut next_atom = delta;
    loop {
        // Everything that can run now, in written order, before the next join.
        let mut progress = true;
        while progress {
            progress = false;
            for (lit, placed) in rule.body.iter().zip(placed.iter_mut()) {
                let lit = &lit.kind;
                if *placed || matches!(lit, LitKind::Atom { .. }) {
                    continue;
                }
                if let Some(binds) = lit.binds(&bound, &rule.vars) {
                    ops.push(non_atom(lit, &binds, &bound, stores));
                    *placed = true;
                    for v in binds {
                        bound[v] = true;
                    }
                    progress = true;
                }
            }
        }
        let atom = next_atom
            .take()
            .or_else(|| best_atom(rule, &placed, &bound, stores));
        let Some(i) = atom else { break };
        let LitKind::Atom { rel, args } = &rule.body[i].kind else {
            break;
        };
        let range = range_of(i, delta, recursive);
        ops.push(atom_op(*rel, args, range, &bound, stores));
        placed[i] = true;
        for t in args {
            if let Term::Var(v, _) = t {
                bound[*v] = true;
            }
        }
    }
    ops.push(Op::Emit {
        args: rule.head_args.iter().map(src).collect(),
    });
    ops
}

/// The unplaced atom expected to yield the fewest rows per binding so far:
/// a fully bound atom (a test) first, then the least estimated fan-out.
fn best_atom(rule: &Rule, placed: &[bool], bound: &[bool], stores: &mut [Store]) -> Option<usize> {
    // (index, has unbound columns, estimated fan-out)
    let mut best: Option<(usize, bool, f64)> = None;
    for (i, lit) in rule.body.iter().enumerate() {
        let LitKind::Atom { rel, args } = &lit.kind else {
            continue;
        };
        if placed[i] {
            continue;
        }
        let (key, free) = bound_columns(args, bound);
        let (open, rows) = (free > 0, stores[*rel].fan_out(&key));
        let better = match best {
            None => true,
            Some((_, b_open, b_rows)) => (open, rows) < (b_open, b_rows),
        };
        if better {
            best = Some((i, open, rows));
        }
    }
    best.map(|(i, _, _)| i)
}

/// The binds and checks of the columns not matched by an index key.
fn col_ops(args: &[Term], key: &[usize], bound: &[bool]) -> Vec<ColOp> {
    let mut seen = bound.to_vec();
    let mut cols = Vec::new();
    for (c, t) in args.iter().enumerate() {
        if key.contains(&c) {
            continue;
        }
        match t {
            Term::Var(v, _) if !seen[*v] => {
                seen[*v] = true;
                cols.push(ColOp::Bind(c, *v));
            }
            Term::Var(..) | Term::Const(..) => cols.push(ColOp::Check(c, src(t))),
            Term::Any(_) => {}
        }
    }
    cols
}

fn atom_op(rel: RelId, args: &[Term], range: Range, bound: &[bool], stores: &mut [Store]) -> Op {
    let (key, free) = bound_columns(args, bound);
    if free == 0 {
        return test_op(rel, args, range, &key, false, stores);
    }
    // A delta is scanned whole: it is small, and the point of the variant.
    if key.is_empty() || range == Range::Delta {
        let cols = col_ops(args, &[], bound);
        return Op::Scan { rel, range, cols };
    }
    Op::Probe {
        rel,
        index: stores[rel].index_on(&key),
        range,
        key: key.iter().map(|&c| src(&args[c])).collect(),
        cols: col_ops(args, &key, bound),
    }
}

/// An atom that binds nothing: one membership test (all columns known)
/// or one existence test (some are `_`).
fn test_op(
    rel: RelId,
    args: &[Term],
    range: Range,
    key: &[usize],
    negated: bool,
    stores: &mut [Store],
) -> Op {
    if key.len() == args.len() {
        return Op::Contains {
            rel,
            range,
            row: args.iter().map(src).collect(),
            negated,
        };
    }
    Op::Exists {
        rel,
        index: stores[rel].index_on(key),
        range,
        key: key.iter().map(|&c| src(&args[c])).collect(),
        negated,
    }
}

/// The operation of a literal other than an atom, which binds `binds`.
fn non_atom(lit: &LitKind, binds: &[usize], bound: &[bool], stores: &mut [Store]) -> Op {
    match lit {
        LitKind::Not { rel, args } => {
            let (key, _) = bound_columns(args, bound);
            test_op(*rel, args, Range::All, &key, true, stores)
        }
        LitKind::Compare { op, lhs, rhs } => match binds.first() {
            Some(&v) => Op::Assign {
                dst: v,
                src: src(if lhs.var() == Some(v) { rhs } else { lhs }),
            },
            None => Op::Filter {
                op: *op,
                lhs: src(lhs),
                rhs: src(rhs),
            },
        },
        LitKind::Arith { dst, op, lhs, rhs } => Op::Arith {
            dst: *dst,
            op: *op,
            lhs: src(lhs),
            rhs: src(rhs),
        },
        LitKind::Call { dst, functor, args } => Op::Call {
            dst: *dst,
            functor: *functor,
            args: args.iter().map(src).collect(),
        },
        LitKind::Aggregate {
            dst,
            kind,
            rel,
            args,
            target,
        } => {
            let (key, _) = bound_columns(args, bound);
            Op::Aggregate {
                dst: *dst,
                kind: *kind,
                rel: *rel,
                index: (!key.is_empty()).then(|| stores[*rel].index_on(&key)),
                key: key.iter().map(|&c| src(&args[c])).collect(),
                target: *target,
            }
        }
        // Atoms are planned by `atom_op`.
        LitKind::Atom { rel, args } => atom_op(*rel, args, Range::All, bound, stores),
    }
}
