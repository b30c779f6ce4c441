//! The unrolling report (seed 004): one [`UnrollRow`] per loop nest from
//! the relations of `rules/dl/unroll.dl`, as the CSV contract or an
//! aligned table, and the P(k) grids of `--grid`.
//!
//! CSV headers (stable): `unit,nest_line,loops,factors,body_ops,cycles,
//! path_growth,removed,perf,stop` and, for the grid, `unit,nest_line,k,
//! perf,saturated`.

use crate::{csv_line, num, sym};
use kaiseki_facts::{FactBase, Table};
use std::collections::BTreeMap;

pub const CSV_HEADER: [&str; 10] = [
    "unit",
    "nest_line",
    "loops",
    "factors",
    "body_ops",
    "cycles",
    "path_growth",
    "removed",
    "perf",
    "stop",
];

pub const GRID_HEADER: [&str; 5] = ["unit", "nest_line", "k", "perf", "saturated"];

/// The derived relations the rows are built from.
pub const RELATIONS: &[&str] = &[
    "unroll_band",
    "unroll_blocked",
    "unroll_model",
    "unroll_choice",
    "unroll_path",
];

/// One nest: where it is, its band, the model and the decision.
#[derive(Clone, Debug, Default, PartialEq, PartialOrd, Eq, Ord)]
pub struct UnrollRow {
    pub unit: String,
    pub nest_line: i64,
    /// The DO statement ids of the band, outermost first.
    pub loop_ids: Vec<i64>,
    pub loops: Vec<i64>,
    pub factors: String,
    pub body_ops: String,
    pub cycles: String,
    pub path_growth: String,
    pub removed: String,
    pub perf: String,
    pub stop: String,
    /// What blocks a nest that is not fully permutable.
    pub blockers: Vec<String>,
    /// The vectors the search passed, from the ones to the factors.
    pub path: Vec<Vec<i64>>,
}

fn rows_of<'t>(derived: &'t [Table], name: &str) -> &'t [Vec<kaiseki_facts::Value>] {
    derived
        .iter()
        .find(|t| t.name == name)
        .map_or(&[][..], |t| &t.rows[..])
}

/// The rows of one group of units.
pub fn rows(facts: &FactBase, derived: &[Table]) -> Vec<UnrollRow> {
    let line_of: BTreeMap<i64, (&str, i64)> = facts
        .r#loop
        .iter()
        .map(|l| (l.r#loop, (l.unit.as_str(), l.line)))
        .collect();
    let mut out: BTreeMap<i64, UnrollRow> = BTreeMap::new();
    let mut bands: BTreeMap<i64, BTreeMap<i64, i64>> = BTreeMap::new();
    for r in rows_of(derived, "unroll_band") {
        bands
            .entry(num(&r[0]))
            .or_default()
            .insert(num(&r[2]), num(&r[1]));
    }
    for r in rows_of(derived, "unroll_choice") {
        let nest = num(&r[0]);
        let Some(&(unit, line)) = line_of.get(&nest) else {
            continue;
        };
        let ids: Vec<i64> = bands
            .get(&nest)
            .map_or(vec![nest], |b| b.values().copied().collect());
        let row = out.entry(nest).or_default();
        row.unit = unit.to_string();
        row.nest_line = line;
        row.loops = ids
            .iter()
            .map(|id| line_of.get(id).map_or(0, |l| l.1))
            .collect();
        row.loop_ids = ids;
        row.factors = sym(&r[1]).to_string();
        row.perf = sym(&r[2]).to_string();
        row.stop = sym(&r[3]).to_string();
    }
    for r in rows_of(derived, "unroll_model") {
        if let Some(row) = out.get_mut(&num(&r[0])) {
            row.body_ops = sym(&r[1]).to_string();
            row.cycles = sym(&r[2]).to_string();
            row.path_growth = sym(&r[3]).to_string();
            row.removed = sym(&r[4]).to_string();
        }
    }
    for r in rows_of(derived, "unroll_path") {
        if let Some(row) = out.get_mut(&num(&r[0])) {
            row.path = sym(&r[1])
                .split('>')
                .map(|k| k.split(';').filter_map(|x| x.parse().ok()).collect())
                .collect();
        }
    }
    for r in rows_of(derived, "unroll_blocked") {
        if let Some(row) = out.get_mut(&num(&r[0])) {
            row.blockers.push(sym(&r[1]).to_string());
        }
    }
    out.into_values().collect()
}

fn join(xs: &[i64]) -> String {
    xs.iter().map(i64::to_string).collect::<Vec<_>>().join(";")
}

fn cells(r: &UnrollRow) -> Vec<String> {
    vec![
        r.unit.clone(),
        r.nest_line.to_string(),
        join(&r.loops),
        r.factors.clone(),
        r.body_ops.clone(),
        r.cycles.clone(),
        r.path_growth.clone(),
        r.removed.clone(),
        r.perf.clone(),
        r.stop.clone(),
    ]
}

pub fn to_csv(rows: &[UnrollRow]) -> String {
    let mut out = CSV_HEADER.join(",") + "\n";
    for r in rows {
        out.push_str(&csv_line(&cells(r)));
    }
    out
}

/// The table adds what blocks each nest that is not permutable: a few of
/// its blockers (`table::capped`; relation `unroll_blocked` has them all).
pub fn to_table(rows: &[UnrollRow]) -> String {
    let mut header = CSV_HEADER.to_vec();
    header.push("why");
    let body: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let mut c = cells(r);
            c.push(crate::table::capped(
                &r.blockers,
                "; ",
                "relation unroll_blocked lists all",
            ));
            c
        })
        .collect();
    crate::table::render(&header, &body)
}

/// One cell of a P(k) grid.
#[derive(Clone, Debug, PartialEq)]
pub struct GridCell {
    pub unit: String,
    pub nest_line: i64,
    pub k: Vec<i64>,
    pub perf: f64,
    pub saturated: bool,
}

fn grid_cells(c: &GridCell) -> Vec<String> {
    vec![
        c.unit.clone(),
        c.nest_line.to_string(),
        join(&c.k),
        format!("{:.3}", c.perf),
        c.saturated.to_string(),
    ]
}

pub fn grid_csv(cells: &[GridCell]) -> String {
    let mut out = GRID_HEADER.join(",") + "\n";
    for c in cells {
        out.push_str(&csv_line(&grid_cells(c)));
    }
    out
}

/// Saturated cells are marked `*`.
pub fn grid_table(cells: &[GridCell]) -> String {
    let body: Vec<Vec<String>> = cells
        .iter()
        .map(|c| {
            let mut v = grid_cells(c);
            v[4] = if c.saturated {
                "*".into()
            } else {
                String::new()
            };
            v
        })
        .collect();
    crate::table::render(&GRID_HEADER, &body)
}
