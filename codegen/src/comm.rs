//! The HPF communication report (Li & Harada, seed 000): one [`CommRow`]
//! per read of an element that another virtual processor owns, from the
//! relation `comm_ref` of `rules/dl/comm.dl`, printed as the CSV contract
//! or an aligned table.
//!
//! CSV header (stable): `unit,line,col,array,section,owner,reader,verdict,
//! condition,send_section,send_at_line`.

use crate::{csv_line, num, sym};
use kaiseki_facts::{FactBase, Table};
use std::collections::HashMap;

pub const CSV_HEADER: [&str; 11] = [
    "unit",
    "line",
    "col",
    "array",
    "section",
    "owner",
    "reader",
    "verdict",
    "condition",
    "send_section",
    "send_at_line",
];

/// The derived relations the rows are built from.
pub const RELATIONS: &[&str] = &["comm_ref"];

/// One row of the report.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct CommRow {
    pub unit: String,
    pub line: i64,
    pub col: i64,
    pub array: String,
    /// The section read per execution of the innermost enclosing loop.
    pub section: String,
    pub owner: String,
    pub reader: String,
    /// `needed`, `complete`, `conditional`, `partial` or `local`.
    pub verdict: String,
    pub condition: String,
    pub send_section: String,
    /// The line of the statement at whose exit `send_section` is sent.
    pub send_at_line: Option<i64>,
}

impl CommRow {
    /// The fields in CSV header order.
    pub fn fields(&self) -> Vec<String> {
        vec![
            self.unit.clone(),
            self.line.to_string(),
            self.col.to_string(),
            self.array.clone(),
            self.section.clone(),
            self.owner.clone(),
            self.reader.clone(),
            self.verdict.clone(),
            self.condition.clone(),
            self.send_section.clone(),
            self.send_at_line.map_or(String::new(), |l| l.to_string()),
        ]
    }
}

/// The rows of every remote read, sorted by unit, line and column.
pub fn rows(facts: &FactBase, derived: &[Table]) -> Vec<CommRow> {
    let Some(t) = derived.iter().find(|t| t.name == "comm_ref") else {
        return vec![];
    };
    let pos: HashMap<i64, (i64, i64)> = facts
        .ref_pos
        .iter()
        .map(|p| (p.r#ref, (p.line, p.col)))
        .collect();
    let array: HashMap<i64, &str> = facts
        .array_ref
        .iter()
        .map(|a| (a.r#ref, a.array.as_str()))
        .chain(
            facts
                .whole_array_ref
                .iter()
                .map(|a| (a.r#ref, a.array.as_str())),
        )
        .collect();
    let stmt: HashMap<i64, (&str, i64)> = facts
        .stmt
        .iter()
        .map(|s| (s.stmt, (s.unit.as_str(), s.line)))
        .collect();
    let mut rows: Vec<CommRow> = t
        .rows
        .iter()
        .map(|r| {
            let (rf, s, send) = (num(&r[0]), num(&r[1]), num(&r[8]));
            let (line, col) = pos.get(&rf).copied().unwrap_or_default();
            let (unit, _) = stmt.get(&s).copied().unwrap_or_default();
            CommRow {
                unit: unit.to_string(),
                line,
                col,
                array: array.get(&rf).copied().unwrap_or_default().to_string(),
                section: sym(&r[2]).to_string(),
                owner: sym(&r[3]).to_string(),
                reader: sym(&r[4]).to_string(),
                verdict: sym(&r[5]).to_string(),
                condition: sym(&r[6]).to_string(),
                send_section: sym(&r[7]).to_string(),
                send_at_line: (send != 0).then(|| stmt.get(&send).map_or(0, |x| x.1)),
            }
        })
        .collect();
    rows.sort();
    rows
}

/// The CSV text: header, then one line per row.
pub fn to_csv(rows: &[CommRow]) -> String {
    let header: Vec<String> = CSV_HEADER.iter().map(|h| h.to_string()).collect();
    let mut out = csv_line(&header);
    for r in rows {
        out.push_str(&csv_line(&r.fields()));
    }
    out
}

/// An aligned table for people.
pub fn to_table(rows: &[CommRow]) -> String {
    let cells: Vec<Vec<String>> = rows.iter().map(CommRow::fields).collect();
    crate::table::render(&CSV_HEADER, &cells)
}
