//! `kaiseki report`: what the analyses say of every loop, gathered for a
//! static HTML page (`html.rs`) a reader opens offline: the verdict and
//! clauses of `parallel`, what blocks the loop with the rows of `deps
//! --by-loop` behind it, the proof `explain` gives of a blocker, the
//! decision of `unroll` and, for HPF programs, the transfers of `comm`.
//! Nothing is derived here: every field comes from those reports' own
//! builders (`parallel::rows`, `deps::dependence_rows`, `deps::by_loop`,
//! `unroll::rows`, `comm::rows`) and from the prover.

mod blocker;
mod html;

pub use blocker::{Blocker, CarriedRows, Dependence};
pub use html::page;

use crate::comm::{self, CommRow};
use crate::deps;
use crate::explain::{Prover, Relations, Show};
use crate::names::Names;
use crate::parallel::{self, ParallelRow};
use crate::unroll::{self, UnrollRow};
use kaiseki_facts::{FactBase, IdKind, Table, Value};
use std::collections::HashMap;
use std::sync::Arc;

/// Blockers of one loop whose proofs the report shows; the others name
/// the `kaiseki explain` command that proves them.
pub const PROVED_BLOCKERS: usize = 3;

/// Steps shown below a proved blocker (`explain --depth`).
pub const PROOF_DEPTH: usize = 4;

/// One loop as the report shows it.
#[derive(Clone, Debug, Default)]
pub struct LoopReport {
    /// The loop's id (its DO statement) in its group's facts.
    pub id: i64,
    /// The file its DO statement was read from.
    pub file: String,
    /// The line of its `enddo` (the DO line for a loop without one).
    pub end_line: i64,
    /// `parallel`'s row: unit, line, variable, verdict, clauses, blockers.
    pub decision: ParallelRow,
    /// Each of `decision.blockers`, read.
    pub blockers: Vec<Blocker>,
    /// `deps --by-loop`'s groups of this loop: variable, kind, rows, distances.
    pub carried: Vec<Carried>,
    /// The proof tree of the first [`PROVED_BLOCKERS`] blockers (text, tree).
    pub proofs: Vec<(String, String)>,
    /// The unroll decision of the nest this loop is in, shared by the
    /// loops of the nest.
    pub unroll: Option<Arc<Unroll>>,
}

/// The unroll decision of a nest as the report shows it: `unroll`'s row
/// with its reasons grouped. A routine's nest has one reason per
/// dependence and direction vector (a LAPACK nest 100,000 of them, 34 MB
/// of text in each of its loops' panels before they were grouped): a
/// reason is shown once with how many direction vectors it stands for.
#[derive(Clone, Debug, Default)]
pub struct Unroll {
    /// `unroll`'s row, its `blockers` left empty (they are in `why`).
    pub row: UnrollRow,
    /// Each reason (a dependence without its direction) and how many of
    /// `unroll`'s reasons it stands for: those that are not a dependence
    /// first, each part in `unroll`'s order.
    pub why: Vec<(String, usize)>,
}

impl Unroll {
    /// Groups `row`'s reasons; those that are not a dependence (a call,
    /// several inner loops, a whole array) come first: they are few, and
    /// say what a dependence's thousands of vectors would bury.
    pub fn new(mut row: UnrollRow) -> Unroll {
        let mut structural: Vec<(String, usize)> = Vec::new();
        let mut dependences: Vec<(String, usize)> = Vec::new();
        let mut at: HashMap<String, usize> = HashMap::new();
        for reason in std::mem::take(&mut row.blockers) {
            let (key, group) = match reason.split_once(" direction ") {
                Some((what, _)) => (what.to_string(), &mut dependences),
                None => (reason, &mut structural),
            };
            match at.get(&key) {
                Some(&i) => group[i].1 += 1,
                None => {
                    at.insert(key.clone(), group.len());
                    group.push((key, 1));
                }
            }
        }
        structural.extend(dependences);
        Unroll {
            row,
            why: structural,
        }
    }
}

/// A group of the carried dependences of a loop (`deps --by-loop`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Carried {
    pub var: String,
    pub kind: String,
    pub rows: usize,
    pub distances: String,
}

impl LoopReport {
    /// The page's anchor of the loop: `loop-UNIT-LINE`.
    pub fn anchor(&self) -> String {
        format!("loop-{}-{}", self.decision.unit, self.decision.loop_line)
    }
}

/// What the report shows of a program: its loops and its remote reads,
/// each with the file it was read from.
#[derive(Debug, Default)]
pub struct Findings {
    pub loops: Vec<LoopReport>,
    pub transfers: Vec<(String, CommRow)>,
}

impl Findings {
    /// Adds another group's findings (every rule is local to a unit).
    pub fn extend(&mut self, other: Findings) {
        self.loops.extend(other.loops);
        self.transfers.extend(other.transfers);
    }

    /// Loops by file and line, transfers by file, line and column.
    pub fn sort(&mut self) {
        self.loops
            .sort_by(|a, b| (&a.file, a.decision.loop_line).cmp(&(&b.file, b.decision.loop_line)));
        self.transfers.sort();
    }
}

/// The derived relations the report is built from, besides those a
/// blocker's proof reads.
pub fn relations() -> Vec<&'static str> {
    let mut names = deps::relations(deps::Include::default());
    names.extend(parallel::RELATIONS);
    names.extend(unroll::RELATIONS);
    names.extend(comm::RELATIONS);
    names
}

/// The findings of one group of units, proofs not yet added
/// ([`add_proofs`]).
pub fn findings(facts: &FactBase, derived: &[Table]) -> Findings {
    let names = Names::new(facts);
    let deps = deps::dependence_rows(facts, derived, deps::Include::default());
    let mut carried: HashMap<(String, i64), Vec<Carried>> = HashMap::new();
    for g in deps::by_loop(&deps) {
        let [unit, line, var, kind, rows, distances] = &g[..] else {
            continue;
        };
        carried
            .entry((unit.clone(), line.parse().unwrap_or(0)))
            .or_default()
            .push(Carried {
                var: var.clone(),
                kind: kind.clone(),
                rows: rows.parse().unwrap_or(0),
                distances: distances.clone(),
            });
    }
    let stmt_line: HashMap<i64, i64> = facts.stmt.iter().map(|s| (s.stmt, s.line)).collect();
    let end_line: HashMap<i64, i64> = facts
        .loop_end
        .iter()
        .filter_map(|e| Some((e.r#loop, *stmt_line.get(&e.stmt)?)))
        .collect();
    let by_blocker = CarriedRows::new(&deps);
    let unrolls: Vec<Arc<Unroll>> = unroll::rows(facts, derived)
        .into_iter()
        .map(|u| Arc::new(Unroll::new(u)))
        .collect();
    let mut decided: HashMap<(String, i64), ParallelRow> = parallel::rows(facts, derived)
        .into_iter()
        .map(|d| ((d.unit.clone(), d.loop_line), d))
        .collect();
    let loops = facts
        .r#loop
        .iter()
        .filter_map(|l| {
            let key = (l.unit.clone(), l.line);
            let decision = decided.remove(&key)?;
            let mut blockers: Vec<Blocker> = decision
                .blockers
                .iter()
                .map(|text| Blocker::read(text, &l.unit, l.line, &by_blocker))
                .collect();
            blockers.sort_by_key(Blocker::rank);
            Some(LoopReport {
                id: l.r#loop,
                file: names
                    .place(IdKind::Loop, l.r#loop)
                    .map_or(String::new(), |p| p.file.to_string()),
                end_line: end_line.get(&l.r#loop).copied().unwrap_or(l.line),
                blockers,
                carried: carried.remove(&key).unwrap_or_default(),
                proofs: Vec::new(),
                unroll: unrolls
                    .iter()
                    .find(|u| u.row.loop_ids.contains(&l.r#loop))
                    .cloned(),
                decision,
            })
        })
        .collect();
    let unit_file: HashMap<&str, &str> = facts
        .unit
        .iter()
        .map(|u| (u.unit.as_str(), u.file.as_str()))
        .collect();
    let transfers = comm::rows(facts, derived)
        .into_iter()
        .map(|r| {
            (
                unit_file
                    .get(r.unit.as_str())
                    .copied()
                    .unwrap_or("")
                    .to_string(),
                r,
            )
        })
        .collect();
    Findings { loops, transfers }
}

/// Adds to each loop the proof tree of its first [`PROVED_BLOCKERS`]
/// blockers (in the order the panel lists them: what excludes the loop
/// first), as `kaiseki explain 'blocker(...)'` prints it.
pub fn add_proofs(loops: &mut [LoopReport], relations: &Relations, show: &Show) {
    let Some(rel) = relations
        .ir
        .relations
        .iter()
        .position(|r| r.name == "blocker")
    else {
        return;
    };
    let prover = Prover::new(relations);
    for l in loops {
        l.proofs = l
            .blockers
            .iter()
            .take(PROVED_BLOCKERS)
            .map(|b| {
                let row = [Value::Number(l.id), Value::Symbol(b.text.clone())];
                let proof = prover.prove(rel, &row, PROOF_DEPTH);
                (b.text.clone(), show.tree(relations, &proof, PROOF_DEPTH))
            })
            .collect();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unroll_reason_is_shown_once_for_all_its_direction_vectors() {
        let row = UnrollRow {
            blockers: [
                "anti dependence on A from line 7 to line 7 direction <;>",
                "anti dependence on A from line 7 to line 7 direction <;*",
                "call of F on line 9",
                "anti dependence on A from line 7 to line 8 direction <;>",
                "anti dependence on A from line 7 to line 7 direction =;>",
            ]
            .map(String::from)
            .to_vec(),
            ..UnrollRow::default()
        };
        let u = Unroll::new(row);
        assert!(u.row.blockers.is_empty(), "the reasons are in `why` only");
        let why: Vec<(&str, usize)> = u.why.iter().map(|(r, n)| (r.as_str(), *n)).collect();
        assert_eq!(
            why,
            [
                ("call of F on line 9", 1),
                ("anti dependence on A from line 7 to line 7", 3),
                ("anti dependence on A from line 7 to line 8", 1),
            ]
        );
    }
}
