//! Running the interpreter and the compiled code on the same facts and
//! diffing what they derive: the two must agree on every relation.

use crate::compiled::CompiledProgram;
use crate::error::EngineError;
use crate::functors::FunctorRegistry;
use crate::interp::run_interpreted_with;
use crate::program::RuleProgram;
use crate::table::{Facts, Table};
use std::collections::BTreeSet;

/// How many differing rows of one relation are shown.
const SHOWN: usize = 5;

/// The differences between two engines' tables, one line each; empty when
/// they agree.
pub fn diff_tables(interpreted: &[Table], compiled: &[Table]) -> Vec<String> {
    let mut out = Vec::new();
    let names: BTreeSet<&str> = interpreted
        .iter()
        .chain(compiled)
        .map(|t| t.name.as_str())
        .collect();
    for name in names {
        let find = |ts: &'_ [Table]| ts.iter().find(|t| t.name == name).cloned();
        let (a, b) = match (find(interpreted), find(compiled)) {
            (Some(a), Some(b)) => (a, b),
            (a, _) => {
                let side = if a.is_some() {
                    "compiled"
                } else {
                    "interpreted"
                };
                out.push(format!("{name}: missing from the {side} result"));
                continue;
            }
        };
        if a.columns != b.columns {
            out.push(format!("{name}: columns differ"));
            continue;
        }
        let (ra, rb): (BTreeSet<_>, BTreeSet<_>) =
            (a.rows.iter().collect(), b.rows.iter().collect());
        for (only, side) in [
            (ra.difference(&rb), "interpreted"),
            (rb.difference(&ra), "compiled"),
        ] {
            let rows: Vec<_> = only.collect();
            if rows.is_empty() {
                continue;
            }
            let shown: Vec<String> = rows
                .iter()
                .take(SHOWN)
                .map(|r| {
                    r.iter()
                        .map(|v| v.to_string())
                        .collect::<Vec<_>>()
                        .join("\t")
                })
                .collect();
            out.push(format!(
                "{name}: {} rows only in the {side} result, e.g. [{}]",
                rows.len(),
                shown.join("], [")
            ));
        }
    }
    out
}

/// Runs `program` interpreted and `compiled` (the same rule files,
/// compiled) on `facts`; the differences, empty when the engines agree.
pub fn compare_engines<F: Facts>(
    program: &RuleProgram,
    compiled: &CompiledProgram,
    facts: &F,
    registry: &FunctorRegistry<F>,
) -> Result<Vec<String>, EngineError> {
    if !program.read_from(&compiled.sources()) {
        return Err(EngineError::DifferentRules {
            compiled: compiled.origin.to_string(),
        });
    }
    let interpreted = run_interpreted_with(program, facts, registry)?;
    let compiled = compiled.run(facts, registry)?;
    Ok(diff_tables(&interpreted, &compiled))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compiled::fixtures;
    use crate::table::{ColType, Value};
    use crate::testing::{facts, fixture, fixtures_dir, registry, TestFacts};
    use proptest::prelude::*;

    #[test]
    fn every_fixture_directory_is_compiled() {
        let dirs = std::fs::read_dir(fixtures_dir())
            .unwrap()
            .filter(|e| e.as_ref().unwrap().path().is_dir())
            .count();
        assert_eq!(fixtures::ALL.len(), dirs);
        assert!(fixtures::ALL.iter().all(|(_, p)| p.errors.is_empty()));
    }

    #[test]
    fn fixtures_derive_something_on_a_fixed_fact_base() {
        let f = facts(
            &[(0, 1), (1, 2), (2, 0), (2, 3), (5, 6)],
            &[0, 3, 4, 7],
            &[0, 1, 2, 3, 0],
        );
        for (name, compiled) in fixtures::ALL {
            let tables = compiled.run(&f, &registry()).unwrap();
            let derived: usize = tables
                .iter()
                .filter(|t| {
                    compiled
                        .relations
                        .iter()
                        .any(|r| r.name == t.name && !r.input)
                })
                .map(|t| t.rows.len())
                .sum();
            assert!(derived > 0, "{name} derives nothing");
            let interpreted = run_interpreted_with(&fixture(name), &f, &registry()).unwrap();
            assert_eq!(
                diff_tables(&interpreted, &tables),
                Vec::<String>::new(),
                "{name}"
            );
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn interpreted_and_compiled_agree_on_every_fixture(
            edges in prop::collection::vec((0..12i64, 0..12i64), 0..30),
            trips in prop::collection::vec(0..12i64, 0..6),
            kinds in prop::collection::vec(0..4usize, 0..8),
        ) {
            let f = facts(&edges, &trips, &kinds);
            for (name, compiled) in fixtures::ALL {
                let diff = compare_engines(&fixture(name), compiled, &f, &registry()).unwrap();
                prop_assert!(diff.is_empty(), "{}: {:?}", name, diff);
            }
        }
    }

    #[test]
    fn compiled_runs_return_the_selected_relations_only() {
        let (_, tc) = fixtures::ALL.iter().find(|(n, _)| *n == "tc").unwrap();
        let f = facts(&[(0, 1), (1, 2)], &[], &[]);
        let registry = registry();
        let all = tc.run(&f, &registry).unwrap();
        let outputs = tc
            .run_select(&f, &registry, crate::Select::Outputs)
            .unwrap();
        assert_eq!(tc.outputs(), ["path"]);
        assert_eq!(outputs.len(), 1);
        assert_eq!(Some(&outputs[0]), all.iter().find(|t| t.name == "path"));
    }

    #[test]
    fn engines_compare_only_the_same_rules() {
        let (_, tc) = fixtures::ALL.iter().find(|(n, _)| *n == "tc").unwrap();
        let other = fixture("closure");
        let err = compare_engines(&other, tc, &TestFacts::default(), &registry());
        assert!(matches!(err, Err(EngineError::DifferentRules { .. })));
    }

    #[test]
    fn diffs_name_the_relation_and_the_rows() {
        let table = |rows: Vec<i64>| Table {
            name: "p".into(),
            columns: vec![("x".into(), ColType::Number)],
            rows: rows.into_iter().map(|n| vec![Value::Number(n)]).collect(),
        };
        assert!(diff_tables(&[table(vec![1, 2])], &[table(vec![1, 2])]).is_empty());
        assert_eq!(
            diff_tables(&[table(vec![1, 2])], &[table(vec![1, 3])]),
            vec![
                "p: 1 rows only in the interpreted result, e.g. [2]",
                "p: 1 rows only in the compiled result, e.g. [3]"
            ]
        );
        assert_eq!(
            diff_tables(&[table(vec![])], &[]),
            vec!["p: missing from the compiled result"]
        );
    }
}
