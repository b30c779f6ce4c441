//! The loop parallelization report (spec 001): one [`ParallelRow`] per
//! loop from the relations of `rules/dl/parallel.dl`, printed as the CSV
//! contract or an aligned table.
//!
//! CSV header (stable): `unit,loop_line,var,depth,verdict,private,
//! lastprivate,reductions,inductions,blockers,transform`.

use crate::{csv_line, num, sym};
use kaiseki_facts::{FactBase, Table};
use std::collections::{BTreeMap, BTreeSet};

pub const CSV_HEADER: [&str; 11] = [
    "unit",
    "loop_line",
    "var",
    "depth",
    "verdict",
    "private",
    "lastprivate",
    "reductions",
    "inductions",
    "blockers",
    "transform",
];

/// The derived relations the rows and the OpenMP directives are built from.
pub const RELATIONS: &[&str] = &[
    "parallel",
    "private",
    "firstprivate",
    "lastprivate",
    "reduction",
    "loc_var",
    "induction",
    "blocker",
    "omp_loop",
    "omp_induction",
    "omp_epilogue",
    "omp_private",
    "omp_if",
    "omp_cheap",
    "align_offset",
    "distribute_part",
    "interchange",
    "peel",
    "fuse",
    "split_read",
    "split_dim",
    "skew",
    "collapse",
    "transform",
];

/// What the analysis says of one loop and what it takes to run it in parallel.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoopDecision {
    pub verdict: String,
    pub private: BTreeSet<String>,
    pub firstprivate: BTreeSet<String>,
    pub lastprivate: BTreeSet<String>,
    /// (operator, variable): `+`, `*`, `max`, `min`, `maxloc`, `minloc`.
    pub reductions: BTreeSet<(String, String)>,
    /// For a `maxloc`/`minloc` variable, the variables recording where.
    pub locations: BTreeMap<String, BTreeSet<String>>,
    pub inductions: BTreeSet<String>,
    pub blockers: BTreeSet<String>,
}

/// The decisions of every loop, by loop id.
pub fn decisions(derived: &[Table]) -> BTreeMap<i64, LoopDecision> {
    let rows_of = |name: &str| {
        derived
            .iter()
            .find(|t| t.name == name)
            .map_or(&[][..], |t| &t.rows[..])
    };
    let mut out: BTreeMap<i64, LoopDecision> = BTreeMap::new();
    for r in rows_of("parallel") {
        out.entry(num(&r[0])).or_default().verdict = sym(&r[1]).to_string();
    }
    let mut set = |name: &str, pick: fn(&mut LoopDecision) -> &mut BTreeSet<String>| {
        for r in rows_of(name) {
            pick(out.entry(num(&r[0])).or_default()).insert(sym(&r[1]).to_string());
        }
    };
    set("private", |d| &mut d.private);
    set("firstprivate", |d| &mut d.firstprivate);
    set("lastprivate", |d| &mut d.lastprivate);
    set("induction", |d| &mut d.inductions);
    set("blocker", |d| &mut d.blockers);
    for r in rows_of("reduction") {
        let d = out.entry(num(&r[0])).or_default();
        d.reductions
            .insert((sym(&r[1]).to_string(), sym(&r[2]).to_string()));
    }
    for r in rows_of("loc_var") {
        let d = out.entry(num(&r[0])).or_default();
        d.locations
            .entry(sym(&r[1]).to_string())
            .or_default()
            .insert(sym(&r[2]).to_string());
    }
    out
}

/// One row of the report.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct ParallelRow {
    pub unit: String,
    pub loop_line: i64,
    pub var: String,
    pub depth: i64,
    pub verdict: String,
    pub private: Vec<String>,
    pub lastprivate: Vec<String>,
    /// `op:VAR`, `maxloc:XMAX@IMAX`.
    pub reductions: Vec<String>,
    pub inductions: Vec<String>,
    pub blockers: Vec<String>,
    /// What would make the loop, or a loop of it, parallel
    /// (`rules/dl/transform.dl`): `align 22+1`, `distribute 21 to part 1
    /// (parallel)`, `interchange with J 34`.
    pub transform: Vec<String>,
}

impl ParallelRow {
    /// The fields in CSV header order.
    pub fn fields(&self) -> Vec<String> {
        vec![
            self.unit.clone(),
            self.loop_line.to_string(),
            self.var.clone(),
            self.depth.to_string(),
            self.verdict.clone(),
            self.private.join(";"),
            self.lastprivate.join(";"),
            self.reductions.join(";"),
            self.inductions.join(";"),
            self.blockers.join(";"),
            self.transform.join(";"),
        ]
    }
}

/// The rows of every loop the rules judged, sorted by unit then line.
pub fn rows(facts: &FactBase, derived: &[Table]) -> Vec<ParallelRow> {
    let decisions = decisions(derived);
    let mut transforms = crate::transform::report(derived);
    let mut rows: Vec<ParallelRow> = facts
        .r#loop
        .iter()
        .filter_map(|l| {
            let d = decisions.get(&l.r#loop)?;
            let reductions = d
                .reductions
                .iter()
                .map(|(op, v)| match d.locations.get(v) {
                    Some(ws) => format!(
                        "{op}:{v}@{}",
                        ws.iter().cloned().collect::<Vec<_>>().join("@")
                    ),
                    None => format!("{op}:{v}"),
                })
                .collect();
            Some(ParallelRow {
                unit: l.unit.clone(),
                loop_line: l.line,
                var: l.var.clone(),
                depth: l.depth,
                verdict: d.verdict.clone(),
                private: d.private.iter().cloned().collect(),
                lastprivate: d.lastprivate.iter().cloned().collect(),
                reductions,
                inductions: d.inductions.iter().cloned().collect(),
                blockers: d.blockers.iter().cloned().collect(),
                transform: transforms.remove(&l.r#loop).unwrap_or_default(),
            })
        })
        .collect();
    rows.sort();
    rows
}

/// The CSV text: header, then one line per row.
pub fn to_csv(rows: &[ParallelRow]) -> String {
    let header: Vec<String> = CSV_HEADER.iter().map(|h| h.to_string()).collect();
    let mut out = csv_line(&header);
    for r in rows {
        out.push_str(&csv_line(&r.fields()));
    }
    out
}

/// An aligned table for people: a few blockers per loop (`table::capped`),
/// then how many more; the CSV has them all.
pub fn to_table(rows: &[ParallelRow]) -> String {
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let mut fields = r.fields();
            fields[9] = crate::table::capped(&r.blockers, ";", "--format csv lists all");
            fields
        })
        .collect();
    crate::table::render(&CSV_HEADER, &cells)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_shows_a_few_blockers_and_the_csv_all() {
        let row = ParallelRow {
            unit: "P".into(),
            verdict: "sequential".into(),
            blockers: (0..20).map(|i| format!("flow A {i}->{i}")).collect(),
            ..ParallelRow::default()
        };
        let table = to_table(std::slice::from_ref(&row));
        assert!(table.contains("flow A 7->7;... 12 more"), "{table}");
        assert!(!table.contains("flow A 8->8"), "{table}");
        assert!(to_csv(&[row]).contains("flow A 19->19"));
    }
}
