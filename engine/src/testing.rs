//! Helpers shared by the crate's tests: the fixture programs of
//! `tests/compiled`, and a small fact base of the relations they read.

use crate::functors::FunctorRegistry;
use crate::program::RuleProgram;
use crate::table::{ColType, Facts, Table, Value};
use std::path::{Path, PathBuf};

/// The input relations of the test programs, named and typed as in
/// kaiseki's fact base, for which those programs were first written.
#[derive(Clone, Debug, Default)]
pub struct TestFacts {
    /// `cfg_edge(from, to)`
    pub cfg_edge: Vec<(i64, i64)>,
    /// `cfg_entry(unit, stmt)`
    pub cfg_entry: Vec<(String, i64)>,
    /// `loop_trip(loop, trip)`
    pub loop_trip: Vec<(i64, i64)>,
    /// `stmt(stmt, unit, line, col, kind)`
    pub stmt: Vec<(i64, String, i64, i64, String)>,
    /// `def(ref, stmt, var)`
    pub def: Vec<(i64, i64, String)>,
    /// `use(ref, stmt, var)`
    pub r#use: Vec<(i64, i64, String)>,
}

use ColType::{Number, Symbol};

const SCHEMAS: &[(&str, &[(&str, ColType)])] = &[
    ("cfg_edge", &[("from", Number), ("to", Number)]),
    ("cfg_entry", &[("unit", Symbol), ("stmt", Number)]),
    ("loop_trip", &[("loop", Number), ("trip", Number)]),
    (
        "stmt",
        &[
            ("stmt", Number),
            ("unit", Symbol),
            ("line", Number),
            ("col", Number),
            ("kind", Symbol),
        ],
    ),
    ("def", &[("ref", Number), ("stmt", Number), ("var", Symbol)]),
    ("use", &[("ref", Number), ("stmt", Number), ("var", Symbol)]),
];

impl Facts for TestFacts {
    fn columns(name: &str) -> Option<Vec<(&'static str, ColType)>> {
        let (_, columns) = SCHEMAS.iter().find(|(n, _)| *n == name)?;
        Some(columns.to_vec())
    }

    fn tables(&self) -> Vec<Table> {
        let n = |x: &i64| Value::Number(*x);
        let s = |x: &String| Value::Symbol(x.clone());
        let rows: [Vec<Vec<Value>>; 6] = [
            self.cfg_edge
                .iter()
                .map(|(a, b)| vec![n(a), n(b)])
                .collect(),
            self.cfg_entry
                .iter()
                .map(|(a, b)| vec![s(a), n(b)])
                .collect(),
            self.loop_trip
                .iter()
                .map(|(a, b)| vec![n(a), n(b)])
                .collect(),
            self.stmt
                .iter()
                .map(|(a, b, c, d, e)| vec![n(a), s(b), n(c), n(d), s(e)])
                .collect(),
            self.def
                .iter()
                .map(|(a, b, c)| vec![n(a), n(b), s(c)])
                .collect(),
            self.r#use
                .iter()
                .map(|(a, b, c)| vec![n(a), n(b), s(c)])
                .collect(),
        ];
        SCHEMAS
            .iter()
            .zip(rows)
            .map(|((name, columns), rows)| {
                let mut t = Table {
                    name: name.to_string(),
                    columns: columns.iter().map(|(c, t)| (c.to_string(), *t)).collect(),
                    rows,
                };
                t.normalize();
                t
            })
            .collect()
    }
}

/// `tests/compiled`: one directory per test program.
pub fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/compiled")
}

/// The functors the test programs call: the intrinsics.
pub fn registry() -> FunctorRegistry<TestFacts> {
    FunctorRegistry::intrinsics()
}

/// The test program `name`, loaded for the interpreter.
pub fn fixture(name: &str) -> RuleProgram {
    let sources = crate::dl::read_dir(&fixtures_dir().join(name));
    sources
        .and_then(|sources| RuleProgram::from_sources_with(&sources, &registry()))
        .unwrap_or_else(|d| panic!("{name}: {d:?}"))
}

/// A small fact base for every fixture's inputs.
pub fn facts(edges: &[(i64, i64)], trips: &[i64], kinds: &[usize]) -> TestFacts {
    let mut f = TestFacts {
        cfg_edge: edges.to_vec(),
        cfg_entry: vec![("MAIN".into(), 0)],
        ..TestFacts::default()
    };
    f.loop_trip = trips
        .iter()
        .enumerate()
        .map(|(i, &trip)| (i as i64, trip))
        .collect();
    let names = ["assign", "do", "call", "12"];
    for (i, &k) in kinds.iter().enumerate() {
        let stmt = i as i64;
        let unit = if i % 3 == 0 { "SUB" } else { "MAIN" };
        f.stmt.push((
            stmt,
            unit.into(),
            stmt + 1,
            (k as i64 * 3) % 8,
            names[k % names.len()].into(),
        ));
        let var = ["X", "Y", "Z"][k % 3].to_string();
        f.def.push((2 * stmt, stmt, var.clone()));
        f.r#use.push((2 * stmt + 1, stmt, var));
    }
    f
}
