//! Kanada & Ishida's dependence graph, end to end: `kaiseki deps` on
//! `kanada_deps.f` gives the minimal output and anti dependences of the
//! paper (not Kuck's general ones), minimal input dependences (its
//! appendix) only between uses that can execute one after the other, and
//! `--all` adds exactly the general dependences the minimal ones imply. The table and DOT formats
//! carry the same rows as the CSV.

mod common;

use common::{example, kaiseki_ok, parse_deps_csv, Dep};
use std::collections::BTreeSet;

const KANADA: &str = "kanada_deps.f";

/// Where variable `var` stands in the one statement of `kanada_deps.f`
/// that reads `stmt` (1-based line and column).
fn at(stmt: &str, var: &str) -> (u32, u32) {
    let text = std::fs::read_to_string(example(KANADA)).expect("kanada_deps.f");
    let mut found = text.lines().enumerate().filter_map(|(i, line)| {
        let start = line.find(stmt).filter(|_| !line.starts_with('C'))?;
        let offset = stmt.find(var).expect("var in stmt");
        Some((i as u32 + 1, (start + offset) as u32 + 1))
    });
    let pos = found.next().unwrap_or_else(|| panic!("{stmt:?} not found"));
    assert!(found.next().is_none(), "{stmt:?} is not unique");
    pos
}

fn deps(extra: &[&str]) -> Vec<Dep> {
    let file = example(KANADA);
    let mut args = vec![
        "deps",
        file.to_str().expect("utf-8 path"),
        "--format",
        "csv",
    ];
    args.extend(extra);
    parse_deps_csv(&kaiseki_ok(args))
}

/// (src, dst) of the rows of one kind on X.
fn edges(rows: &[Dep], kind: &str, minimal: bool) -> BTreeSet<((u32, u32), (u32, u32))> {
    rows.iter()
        .filter(|r| r.kind == kind && r.var == "X" && r.minimal == minimal)
        .map(|r| (r.src, r.dst))
        .collect()
}

#[test]
fn output_dependences_are_the_minimal_chain_d1_d2_d3() {
    let rows = deps(&[]);
    let (d1, d2, d3) = (
        at("X = 1.0", "X"),
        at("X = Y * 2.0", "X"),
        at("X = W + Z", "X"),
    );
    assert_eq!(
        edges(&rows, "output", true),
        BTreeSet::from([(d1, d2), (d2, d3)])
    );
    let d1_d2 = rows
        .iter()
        .find(|r| r.kind == "output" && r.src == d1 && r.dst == d2)
        .expect("d1 -> d2");
    assert_eq!(
        d1_d2.certainty, "exact",
        "d1 and d2 are in one block: {d1_d2:?}"
    );
    assert!(rows
        .iter()
        .all(|r| r.unit == "KANADA" && r.loops.is_empty() && r.carrier == 0));
    assert!(
        rows.iter().all(|r| r.minimal),
        "no general row without --all"
    );
}

#[test]
fn flow_dependences_follow_reaching_definitions() {
    let rows = deps(&[]);
    let (d1, d2, d3) = (
        at("X = 1.0", "X"),
        at("X = Y * 2.0", "X"),
        at("X = W + Z", "X"),
    );
    let want = BTreeSet::from([
        (d1, at("Y = X + 1.0", "X")),
        (d2, at("Z = X + Y", "X")),
        (d2, at("W = X * 3.0", "X")),
        (d2, at("W = X - 3.0", "X")),
        (d3, at("PRINT *, X", "X")),
    ]);
    assert_eq!(edges(&rows, "flow", true), want);
}

#[test]
fn anti_dependences_are_minimal_from_exposed_uses() {
    let rows = deps(&[]);
    let (d2, d3) = (at("X = Y * 2.0", "X"), at("X = W + Z", "X"));
    let want = BTreeSet::from([
        (at("Y = X + 1.0", "X"), d2),
        (at("Z = X + Y", "X"), d3),
        (at("W = X * 3.0", "X"), d3),
        (at("W = X - 3.0", "X"), d3),
    ]);
    assert_eq!(edges(&rows, "anti", true), want);
    assert!(!edges(&rows, "anti", true).contains(&(at("Y = X + 1.0", "X"), d3)));
}

#[test]
fn uses_in_two_if_arms_have_no_input_dependence_between_them() {
    let rows = deps(&[]);
    let (then_use, else_use) = (at("W = X * 3.0", "X"), at("W = X - 3.0", "X"));
    let z_use = at("Z = X + Y", "X");
    assert_eq!(
        edges(&rows, "input", true),
        BTreeSet::from([(z_use, then_use), (z_use, else_use)])
    );
    // Y is defined once, then used three times in order: minimal input
    // dependences (the paper's appendix) link each use to the one before.
    let y_inputs: BTreeSet<_> = rows
        .iter()
        .filter(|r| r.kind == "input" && r.var == "Y")
        .map(|r| (r.src, r.dst))
        .collect();
    let (y1, y2) = (at("X = Y * 2.0", "Y"), at("Z = X + Y", "Y"));
    assert_eq!(
        y_inputs,
        BTreeSet::from([(y1, y2), (y2, at("PRINT *, X, Y", "Y"))])
    );
}

#[test]
fn all_adds_exactly_the_general_dependences() {
    let minimal = deps(&[]);
    let all = deps(&["--all"]);
    let kept: Vec<Dep> = all.iter().filter(|r| r.minimal).cloned().collect();
    assert_eq!(kept, minimal, "--all keeps every minimal row unchanged");
    let general: BTreeSet<_> = all
        .iter()
        .filter(|r| !r.minimal)
        .map(|r| {
            (
                r.kind.as_str(),
                r.var.as_str(),
                r.src,
                r.dst,
                r.certainty.as_str(),
            )
        })
        .collect();
    let (d1, d3) = (at("X = 1.0", "X"), at("X = W + Z", "X"));
    // Kuck: d1 ->o d3 through d2; u ->a d3 through u ->a d2 ->o d3; the
    // first use of Y ->i the third through the second.
    let want = BTreeSet::from([
        ("output", "X", d1, d3, "possible"),
        ("anti", "X", at("Y = X + 1.0", "X"), d3, "possible"),
        (
            "input",
            "Y",
            at("X = Y * 2.0", "Y"),
            at("PRINT *, X, Y", "Y"),
            "possible",
        ),
    ]);
    assert_eq!(general, want);
}

/// The whitespace-separated words of a table row: the CSV fields without
/// the empty ones.
fn words(fields: &[String]) -> Vec<String> {
    fields.iter().filter(|f| !f.is_empty()).cloned().collect()
}

fn csv_fields(line: &str) -> Vec<String> {
    line.split(',').map(str::to_string).collect()
}

#[test]
fn the_table_has_the_rows_of_the_csv() {
    // kanada_deps.f has no loops; ishida_fig3.f fills the loop columns.
    for name in [KANADA, "ishida_fig3.f"] {
        let file = example(name);
        let file = file.to_str().expect("utf-8 path");
        let csv = kaiseki_ok(["deps", file, "--format", "csv", "--all"]);
        let table = kaiseki_ok(["deps", file, "--all"]);
        let csv_rows: Vec<Vec<String>> = csv.lines().map(|l| words(&csv_fields(l))).collect();
        let table_rows: Vec<Vec<String>> = table
            .lines()
            .map(|l| l.split_whitespace().map(str::to_string).collect())
            .collect();
        assert!(csv_rows.len() > 5, "{name}: {csv}");
        assert_eq!(table_rows, csv_rows, "{name}:\n{table}");
    }
}

#[test]
fn dot_draws_every_row_as_an_edge_between_declared_nodes() {
    let file = example(KANADA);
    let file = file.to_str().expect("utf-8 path");
    let rows = deps(&[]);
    let dot = kaiseki_ok(["deps", file, "--dot"]);
    assert!(dot.starts_with("digraph "), "{dot}");
    assert!(dot.trim_end().ends_with('}'));
    assert_eq!(dot.matches('{').count(), dot.matches('}').count());
    assert_eq!(dot.matches('"').count() % 2, 0, "quotes balance");
    let node = |(line, col): (u32, u32)| format!("\"KANADA:{line}:{col}\"");
    let declared: BTreeSet<String> = dot
        .lines()
        .filter(|l| l.contains("[label=") && !l.contains("->"))
        .map(|l| l.split_whitespace().next().unwrap_or("").to_string())
        .collect();
    let edges: Vec<&str> = dot.lines().filter(|l| l.contains(" -> ")).collect();
    assert_eq!(edges.len(), rows.len(), "one edge per row:\n{dot}");
    for r in &rows {
        let (src, dst) = (node(r.src), node(r.dst));
        assert!(declared.contains(&src) && declared.contains(&dst), "{r:?}");
        let edge = format!("{src} -> {dst} [label=\"{}", r.kind);
        assert!(
            edges.iter().any(|e| e.trim_start().starts_with(&edge)),
            "{edge} in\n{dot}"
        );
    }
}
