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
#[cfg(test)]
mod naive;
mod plan;
mod store;

use crate::dl::ir::{LitKind, Program, Stratum};
use crate::error::EngineError;
use crate::functors::{Calls, FunctorRegistry};
use crate::program::RuleProgram;
use crate::rows::Rows;
use crate::run::{execute, execute_given, Select};
use crate::table::{Facts, Table};
use plan::Op;
use store::Store;

/// Runs `program` on `facts` with the functors of `registry`: every
/// declared relation (inputs included), rows sorted and deduplicated.
pub fn run_interpreted_with<F: Facts>(
    program: &RuleProgram,
    facts: &F,
    registry: &FunctorRegistry<F>,
) -> Result<Vec<Table>, EngineError> {
    run_interpreted_select(program, facts, registry, Select::All)
}

/// [`run_interpreted_with`] returning only the selected relations.
pub fn run_interpreted_select<F: Facts>(
    program: &RuleProgram,
    facts: &F,
    registry: &FunctorRegistry<F>,
    select: Select,
) -> Result<Vec<Table>, EngineError> {
    let p = program.ir();
    execute(
        &program.signature(),
        facts,
        registry,
        select,
        |inputs, calls, wanted| evaluate(p, inputs, calls, wanted, &[]),
    )
}

/// [`run_interpreted_select`] with the rows of some derived relations
/// known beforehand (`given`, e.g. put together from runs on groups of
/// program units): they start with those rows, and a stratum whose
/// relations are all given is not evaluated again. A program that adds
/// rules over them (a query) then costs only its own rules.
pub fn run_interpreted_given<F: Facts>(
    program: &RuleProgram,
    facts: &F,
    given: &[Table],
    registry: &FunctorRegistry<F>,
    select: Select,
) -> Result<Vec<Table>, EngineError> {
    let p = program.ir();
    let known: Vec<bool> = p
        .relations
        .iter()
        .map(|r| !r.input && given.iter().any(|t| t.name == r.name))
        .collect();
    execute_given(
        &program.signature(),
        facts,
        given,
        registry,
        select,
        |inputs, calls, wanted| evaluate(p, inputs, calls, wanted, &known),
    )
}

/// Runs every stratum but those whose relations are all `known` (given
/// with the inputs); the rows of the wanted relations (declared ones come
/// first in the program; the others are left empty).
pub(crate) fn evaluate(
    p: &Program,
    inputs: Vec<Rows>,
    calls: &Calls,
    wanted: &[bool],
    known: &[bool],
) -> Vec<Rows> {
    let mut stores: Vec<Store> = p.relations.iter().map(|r| Store::new(r.arity())).collect();
    for (store, rows) in stores.iter_mut().zip(&inputs) {
        for row in rows.iter() {
            store.insert(row);
        }
    }
    let is_known = |r: &usize| known.get(*r).copied().unwrap_or(false);
    let needed = needed(p, wanted, known);
    for stratum in &p.strata {
        let skip = |r: &usize| is_known(r) || !needed[*r];
        if !stratum.relations.is_empty() && stratum.relations.iter().all(skip) {
            continue;
        }
        evaluate_stratum(p, stratum, &mut stores, calls);
    }
    stores
        .iter()
        .zip(wanted)
        .map(|(store, wanted)| {
            let mut rows = Rows::new(store.arity());
            if *wanted {
                for i in 0..store.len() {
                    rows.push(store.row(i));
                }
            }
            rows
        })
        .collect()
}

/// The relations the wanted ones are derived from (themselves included),
/// not looking past `known` ones: a stratum none of them is in need not
/// run (a query reading one relation costs that relation's rules only).
fn needed(p: &Program, wanted: &[bool], known: &[bool]) -> Vec<bool> {
    let mut needed: Vec<bool> = (0..p.relations.len())
        .map(|r| wanted.get(r).copied().unwrap_or(false))
        .collect();
    let mut todo: Vec<usize> = (0..needed.len()).filter(|r| needed[*r]).collect();
    while let Some(r) = todo.pop() {
        if known.get(r).copied().unwrap_or(false) {
            continue;
        }
        for rule in p.rules.iter().filter(|rule| rule.head == r) {
            for (read, _) in rule.body.iter().filter_map(|l| l.kind.reads()) {
                if !needed[read] {
                    needed[read] = true;
                    todo.push(read);
                }
            }
        }
    }
    needed
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

/// A rule to plan: its index, the delta atom of the variant (`None`: a
/// full evaluation), which body literals read the rule's own stratum.
struct Variant {
    rule: usize,
    delta: Option<usize>,
    recursive: Vec<bool>,
}

/// Plans every variant with the current relation sizes, and brings the
/// indices the plans use up to date.
fn plan_all(p: &Program, variants: &[Variant], stores: &mut [Store]) -> Vec<Planned> {
    let plans = variants
        .iter()
        .map(|v| {
            let rule = &p.rules[v.rule];
            Planned {
                head: rule.head,
                nregs: rule.vars.len(),
                ops: plan::plan(rule, v.delta, &v.recursive, stores),
            }
        })
        .collect();
    stores.iter_mut().for_each(Store::update_indices);
    plans
}

/// Semi-naive evaluation of one stratum. The rules that read no relation
/// of the stratum run once; each recursive rule runs as one variant per
/// body atom of the stratum (that atom reading only the delta) until no
/// relation of the stratum grows, planned again at each iteration.
fn evaluate_stratum(p: &Program, stratum: &Stratum, stores: &mut [Store], calls: &Calls) {
    let mut in_stratum = vec![false; p.relations.len()];
    for &r in &stratum.relations {
        in_stratum[r] = true;
        stores[r].stable = 0;
    }
    let mut once = Vec::new();
    let mut variants = Vec::new();
    for &rule in &stratum.rules {
        let recursive: Vec<bool> = p.rules[rule]
            .body
            .iter()
            .map(|l| matches!(l.kind, LitKind::Atom { rel, .. } if in_stratum[rel]))
            .collect();
        if recursive.contains(&true) {
            for (i, _) in recursive.iter().enumerate().filter(|(_, r)| **r) {
                variants.push(Variant {
                    rule,
                    delta: Some(i),
                    recursive: recursive.clone(),
                });
            }
        } else {
            once.push(Variant {
                rule,
                delta: None,
                recursive,
            });
        }
    }
    let plans = plan_all(p, &once, stores);
    let derived = derive(&plans, stores, calls);
    insert_all(derived, stores);
    while !variants.is_empty()
        && stratum
            .relations
            .iter()
            .any(|&r| stores[r].stable < stores[r].len())
    {
        let plans = plan_all(p, &variants, stores);
        let derived = derive(&plans, stores, calls);
        for &r in &stratum.relations {
            stores[r].stable = stores[r].len();
        }
        insert_all(derived, stores);
    }
    for &r in &stratum.relations {
        stores[r].update_indices();
        stores[r].stable = stores[r].len();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{facts, fixture, fixtures_dir, registry, TestFacts};
    use proptest::prelude::*;

    fn fixture_names() -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(fixtures_dir())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn given_relations_are_not_derived_again() {
        let text = ".decl cfg_edge(from: number, to: number)\n.input cfg_edge\n\
                    .decl path(a: number, b: number)\n\
                    path(X, Y) :- cfg_edge(X, Y).\npath(X, Z) :- path(X, Y), cfg_edge(Y, Z).\n\
                    .decl back(a: number)\nback(X) :- path(X, X).\n";
        let sources = crate::dl::diag::Sources {
            files: vec![("t.dl".into(), text.into())],
        };
        let registry = registry();
        let program = RuleProgram::from_sources_with(&sources, &registry).unwrap();
        let cycle = facts(&[(0, 1), (1, 0)], &[], &[]);
        let whole = run_interpreted_with(&program, &cycle, &registry).unwrap();
        let path: Vec<Table> = whole.iter().filter(|t| t.name == "path").cloned().collect();
        // Without any edge, `path` keeps its given rows and `back` is
        // derived from them.
        let empty = TestFacts::default();
        let got =
            run_interpreted_given(&program, &empty, &path, &registry, Select::Derived).unwrap();
        let names: Vec<&str> = got.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(
            names,
            ["path", "back"],
            "the derived relations, not the inputs"
        );
        let table = |tables: &[Table], name: &str| -> Table {
            tables.iter().find(|t| t.name == name).unwrap().clone()
        };
        assert_eq!(table(&got, "path"), table(&whole, "path"));
        assert_eq!(table(&got, "back"), table(&whole, "back"));
        assert_eq!(table(&got, "back").rows.len(), 2);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        /// A fixture with a span replaced by another piece of it: when it
        /// still checks, it runs without a panic. (Not `arith`, whose
        /// counting recursion, damaged, could run forever.)
        #[test]
        fn damaged_programs_that_check_run(
            which in 0..3usize,
            cuts in prop::collection::vec((0..2000usize, 0..6usize, 0..2000usize), 1..3),
        ) {
            let name = ["aggregates", "functors", "negation"][which];
            let path = fixtures_dir().join(name).join(format!("{name}.dl"));
            let mut text: Vec<char> = std::fs::read_to_string(path).unwrap().chars().collect();
            for (at, len, from) in cuts {
                let at = at % (text.len() + 1);
                let end = (at + len).min(text.len());
                let from = from % (text.len() + 1);
                let piece: Vec<char> = text[from..(from + 3).min(text.len())].to_vec();
                text.splice(at..end, piece);
            }
            let sources = crate::dl::diag::Sources {
                files: vec![("t.dl".into(), text.into_iter().collect())],
            };
            if let Ok(program) = RuleProgram::from_sources_with(&sources, &registry()) {
                let f = facts(&[(0, 1), (1, 2), (2, 0)], &[0, 3], &[0, 1, 2, 3]);
                let _ = run_interpreted_with(&program, &f, &registry());
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]
        /// Semi-naive evaluation with join planning derives exactly what
        /// the naive fixpoint derives, on random graphs.
        #[test]
        fn semi_naive_equals_naive_fixpoint(
            edges in prop::collection::vec((0..10i64, 0..10i64), 0..25),
            trips in prop::collection::vec(0..12i64, 0..6),
            kinds in prop::collection::vec(0..4usize, 0..8),
        ) {
            let f = facts(&edges, &trips, &kinds);
            let registry = registry();
            for name in fixture_names() {
                let program = fixture(&name);
                let fast = run_interpreted_with(&program, &f, &registry).unwrap();
                let slow = execute(&program.signature(), &f, &registry, Select::All, |inputs, calls, _| {
                    naive::evaluate(program.ir(), inputs, calls)
                })
                .unwrap();
                prop_assert_eq!(fast, slow, "{}", name);
            }
        }
    }
}
