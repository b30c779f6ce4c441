//! What the built-in rules (`rules/dl`) must keep to for the compiled
//! engine: the engine's lint finds no trap in them, and their cut into
//! Ascent parts keeps the fixpoints alone.

use kaiseki_engine::dl::{self, ir::Program, ir::RelId, join_order::full_reads, to_ascent::parts};
use kaiseki_rules::builtin_rules_dir;

fn builtin() -> Program {
    dl::compile(&dl::read_dir(&builtin_rules_dir()).unwrap()).unwrap()
}

/// The built-in rules keep clear of the trap: a new rule that falls
/// into it fails here (and `build.rs` warns of it).
#[test]
fn the_builtin_rules_read_nothing_in_full_at_every_iteration() {
    let sources = dl::read_dir(&builtin_rules_dir()).unwrap();
    let program = dl::compile(&sources).unwrap();
    let found: Vec<String> = sources
        .resolve(full_reads(&program))
        .iter()
        .map(|d| format!("{}:{}: {}", d.file, d.line, d.message))
        .collect();
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// The built-in rules' parts: every rule once, in stratum order; the
/// dataflow fixpoint alone in its part, the dependence rules that read
/// it in a later one; every relation a part reads an input or derived
/// by a part.
#[test]
fn builtin_parts_keep_the_order_and_fixpoints_alone() {
    let program = builtin();
    let parts = parts(&program);
    assert!(parts.len() > 1, "the rules are cut");
    let order: Vec<usize> = parts.iter().flat_map(|q| q.rules.clone()).collect();
    let strata: Vec<usize> = program
        .strata
        .iter()
        .flat_map(|s| s.rules.clone())
        .collect();
    assert_eq!(order, strata);
    let part_of = |name: &str| {
        let rel = program
            .relations
            .iter()
            .position(|r| r.name == name)
            .unwrap();
        parts.iter().position(|q| q.derives.contains(&rel)).unwrap()
    };
    let fixpoint = part_of("dataflow_in");
    let derives = |names: &[&str]| -> Vec<RelId> {
        let mut rels: Vec<RelId> = names
            .iter()
            .map(|n| program.relations.iter().position(|r| r.name == *n).unwrap())
            .collect();
        rels.sort_unstable();
        rels
    };
    assert_eq!(parts[fixpoint].derives, derives(&["dataflow_in"]));
    for reader in ["flow", "output", "anti", "input"] {
        assert!(part_of(reader) > fixpoint, "{reader}");
    }
    for q in &parts {
        for &r in &q.reads {
            assert!(
                program.relations[r].input || parts.iter().any(|o| o.derives.contains(&r)),
                "{} comes from somewhere",
                program.relations[r].name
            );
        }
    }
}
