//! The interpreter (`--rules DIR`): runs a checked program stratum by
//! stratum, each to its fixpoint by semi-naive evaluation.
//!
//! Tuples are fixed-width `i64` rows (symbols interned), kept in
//! append-only [`store::Store`]s whose row ranges are the semi-naive
//! delta; rules run as join plans ([`plan`]) over hash indices kept
//! current incrementally. datafrog is not used: its `Variable`s need
//! statically typed tuples and re-sort a keyed copy of a relation for
//! every join key, while here rows have a width known only at run time,
//! and one append-only array per relation serves as total, delta and
//! every index at once.

mod eval;
mod plan;
mod store;

use crate::dl::ir::{LitKind, Program, Stratum};
use crate::error::EngineError;
use crate::functors::{Calls, FunctorRegistry};
use crate::inputs::{bind_inputs, DeclaredRelation};
use crate::program::{col_type, RuleProgram};
use crate::rows::{decode, Interner, Rows};
use kaiseki_facts::{ColType, FactBase, Table};
use plan::Op;
use store::Store;

/// Runs `program` on `facts` with the standard functors: every declared
/// relation (inputs included), rows sorted and deduplicated.
pub fn run_interpreted(program: &RuleProgram, facts: &FactBase) -> Result<Vec<Table>, EngineError> {
    run_interpreted_with(program, facts, &FunctorRegistry::standard())
}

/// [`run_interpreted`] with the functors of `registry`.
pub fn run_interpreted_with(
    program: &RuleProgram,
    facts: &FactBase,
    registry: &FunctorRegistry,
) -> Result<Vec<Table>, EngineError> {
    let p = program.ir();
    let symbols = Interner::with_constants(&p.symbols);
    let relations: Vec<DeclaredRelation> = p
        .relations
        .iter()
        .map(|r| DeclaredRelation {
            name: &r.name,
            columns: r
                .columns
                .iter()
                .map(|(n, t)| (n.as_str(), col_type(*t)))
                .collect(),
            input: r.input,
        })
        .collect();
    let inputs = bind_inputs(&relations, facts, &symbols)?;
    let functors: Vec<(&str, Vec<ColType>, ColType)> = p
        .functors
        .iter()
        .map(|f| {
            let args = f.args.iter().map(|t| col_type(*t)).collect();
            (f.name.as_str(), args, col_type(f.result))
        })
        .collect();
    let calls = Calls::new(&functors, registry, facts, &symbols)?;
    let mut stores: Vec<Store> = inputs
        .iter()
        .map(|rows| {
            let mut store = Store::new(rows.arity());
            for row in rows.iter() {
                store.insert(row);
            }
            store
        })
        .collect();
    for stratum in &p.strata {
        evaluate_stratum(p, stratum, &mut stores, &calls);
    }
    calls.finish()?;
    Ok(relations
        .iter()
        .zip(&stores)
        .zip(&p.relations)
        .filter(|(_, r)| !r.aggregate_body)
        .map(|((rel, store), _)| {
            let columns: Vec<(String, ColType)> = rel
                .columns
                .iter()
                .map(|(n, t)| (n.to_string(), *t))
                .collect();
            let mut rows = Rows::new(store.arity());
            for i in 0..store.len() {
                rows.push(store.row(i));
            }
            decode(rel.name, &columns, &rows, &symbols)
        })
        .collect())
}

/// A planned rule: its head, its register count and its operations.
struct Planned {
    head: usize,
    nregs: usize,
    ops: Vec<Op>,
}

/// Runs plans over the current stores; the rows they derive, per relation.
fn derive(plans: &[Planned], stores: &[Store], calls: &Calls) -> Vec<(usize, Rows)> {
    let env = eval::Env { stores, calls };
    plans
        .iter()
        .map(|pl| {
            let mut out = Rows::new(stores[pl.head].arity());
            eval::run(&pl.ops, pl.nregs, &env, &mut out);
            (pl.head, out)
        })
        .collect()
}

fn insert_all(derived: Vec<(usize, Rows)>, stores: &mut [Store]) {
    for (rel, rows) in derived {
        for row in rows.iter() {
            stores[rel].insert(row);
        }
    }
}

/// Semi-naive evaluation of one stratum. The rules that read no relation
/// of the stratum run once; each recursive rule runs as one variant per
/// body atom of the stratum (that atom reading only the delta) until no
/// relation of the stratum grows.
fn evaluate_stratum(p: &Program, stratum: &Stratum, stores: &mut [Store], calls: &Calls) {
    let mut in_stratum = vec![false; p.relations.len()];
    for &r in &stratum.relations {
        in_stratum[r] = true;
        stores[r].stable = 0;
    }
    let mut once = Vec::new();
    let mut variants = Vec::new();
    for &ri in &stratum.rules {
        let rule = &p.rules[ri];
        let recursive: Vec<bool> = rule
            .body
            .iter()
            .map(|l| matches!(l.kind, LitKind::Atom { rel, .. } if in_stratum[rel]))
            .collect();
        let planned = |ops| Planned {
            head: rule.head,
            nregs: rule.vars.len(),
            ops,
        };
        if recursive.contains(&true) {
            for (i, _) in recursive.iter().enumerate().filter(|(_, r)| **r) {
                variants.push(planned(plan::plan(rule, Some(i), &recursive, stores)));
            }
        } else {
            once.push(planned(plan::plan(rule, None, &recursive, stores)));
        }
    }
    // Planning may have made indices on any relation it reads.
    stores.iter_mut().for_each(Store::update_indices);
    let derived = derive(&once, stores, calls);
    insert_all(derived, stores);
    if !variants.is_empty() {
        loop {
            for &r in &stratum.relations {
                stores[r].update_indices();
            }
            if stratum
                .relations
                .iter()
                .all(|&r| stores[r].stable == stores[r].len())
            {
                break;
            }
            let derived = derive(&variants, stores, calls);
            for &r in &stratum.relations {
                stores[r].stable = stores[r].len();
            }
            insert_all(derived, stores);
        }
    }
    for &r in &stratum.relations {
        stores[r].update_indices();
        stores[r].stable = stores[r].len();
    }
}
