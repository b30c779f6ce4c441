//! Helpers shared by the crate's tests: the fixture programs of
//! `rules/tests/compiled` and small fact bases for their inputs.

use crate::program::RuleProgram;
use kaiseki_facts::{CfgEdge, CfgEntry, Def, FactBase, LoopTrip, Stmt, Use};
use std::path::{Path, PathBuf};

/// `rules/tests/compiled`: one directory per test program.
pub fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/compiled")
}

/// The test program `name`, loaded for the interpreter.
pub fn fixture(name: &str) -> RuleProgram {
    crate::load_rules(&fixtures_dir().join(name)).unwrap_or_else(|d| panic!("{name}: {d:?}"))
}

/// A small fact base for every fixture's inputs.
pub fn facts(edges: &[(i64, i64)], trips: &[i64], kinds: &[usize]) -> FactBase {
    let mut f = FactBase {
        cfg_edge: edges
            .iter()
            .map(|&(from, to)| CfgEdge { from, to })
            .collect(),
        cfg_entry: vec![CfgEntry {
            unit: "MAIN".into(),
            stmt: 0,
        }],
        ..FactBase::default()
    };
    f.loop_trip = trips
        .iter()
        .enumerate()
        .map(|(i, &trip)| LoopTrip {
            r#loop: i as i64,
            trip,
        })
        .collect();
    let names = ["assign", "do", "call", "12"];
    for (i, &k) in kinds.iter().enumerate() {
        let stmt = i as i64;
        let unit = if i % 3 == 0 { "SUB" } else { "MAIN" };
        f.stmt.push(Stmt {
            stmt,
            unit: unit.into(),
            line: stmt + 1,
            col: (k as i64 * 3) % 8,
            kind: names[k % names.len()].into(),
        });
        let var = ["X", "Y", "Z"][k % 3].to_string();
        f.def.push(Def {
            r#ref: 2 * stmt,
            stmt,
            var: var.clone(),
        });
        f.r#use.push(Use {
            r#ref: 2 * stmt + 1,
            stmt,
            var,
        });
    }
    f.normalize();
    f
}
