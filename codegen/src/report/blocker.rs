//! One blocker of a loop, read back from the text `rules/dl/parallel.dl`
//! gives it (`kind VAR src_line->dst_line` for a carried dependence, `what
//! line` for an excluded construct, `opaque statement line (reason)`, or a
//! sentence), with the dependence rows behind a carried dependence: what
//! the report links to the source lines.

use crate::deps::DepRow;
use std::collections::HashMap;

/// A blocker as the report shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Blocker {
    /// `parallel`'s text.
    pub text: String,
    /// A carried dependence: its rows in the loop.
    pub dependence: Option<Dependence>,
    /// The line the blocker names (a construct's, an opaque statement's).
    pub line: Option<i64>,
}

/// The dependence rows of one carried-dependence blocker.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dependence {
    pub kind: String,
    pub var: String,
    /// Line and column of the first row's source and sink references.
    pub src: (i64, i64),
    pub dst: (i64, i64),
    /// The first row's direction and distance vectors over the loops
    /// around both references: `(=,<)`, `(0,1)` (`*`: not one number).
    pub direction: String,
    pub distance: String,
    /// The rows between those lines (several references of the variable).
    pub rows: usize,
}

/// The dependence kinds of `deps`.
const KINDS: [&str; 4] = ["flow", "anti", "output", "input"];

/// The carried dependence rows of a group of units by the lines a
/// blocker names (carrier line, source line, sink line). A routine has
/// millions of rows and thousands of blockers: each is looked up, not
/// searched for.
pub struct CarriedRows<'r, 'a> {
    rows: HashMap<(i64, i64, i64), Vec<&'r DepRow<'a>>>,
}

impl<'r, 'a> CarriedRows<'r, 'a> {
    pub fn new(rows: &'r [DepRow<'a>]) -> Self {
        let mut by_lines: HashMap<_, Vec<&DepRow>> = HashMap::new();
        for r in rows.iter().filter(|r| r.carrier != 0) {
            by_lines
                .entry((r.carrier, r.src_line, r.dst_line))
                .or_default()
                .push(r);
        }
        CarriedRows { rows: by_lines }
    }

    /// The rows of `kind` on `var` between lines `src` and `dst` that the
    /// loop at `carrier` of `unit` carries.
    fn get(
        &self,
        unit: &str,
        carrier: i64,
        kind: &str,
        var: &str,
        src: i64,
        dst: i64,
    ) -> Vec<&'r DepRow<'a>> {
        self.rows
            .get(&(carrier, src, dst))
            .into_iter()
            .flatten()
            .filter(|r| r.unit == unit && r.kind == kind && r.var == var)
            .copied()
            .collect()
    }
}

impl Blocker {
    /// Reads `text`, a blocker of the loop at `loop_line` of `unit`; its
    /// dependence's rows are looked up in `deps`.
    pub fn read(text: &str, unit: &str, loop_line: i64, deps: &CarriedRows) -> Blocker {
        let words: Vec<&str> = text.split_whitespace().collect();
        let lines = words
            .get(2)
            .and_then(|w| w.split_once("->"))
            .and_then(|(a, b)| Some((a.parse::<i64>().ok()?, b.parse::<i64>().ok()?)));
        let dependence = match (words.as_slice(), lines) {
            ([kind, var, _], Some((src, dst))) if KINDS.contains(kind) => {
                let rows = deps.get(unit, loop_line, kind, var, src, dst);
                Some(match rows.first() {
                    Some(r) => Dependence {
                        kind: kind.to_string(),
                        var: var.to_string(),
                        src: (r.src_line, r.src_col),
                        dst: (r.dst_line, r.dst_col),
                        direction: vector(r.direction.iter().map(char::to_string)),
                        distance: vector(
                            r.distance
                                .iter()
                                .map(|d| d.map_or("*".to_string(), |d| d.to_string())),
                        ),
                        rows: rows.len(),
                    },
                    // A blocker always has its row; if not, the lines still show.
                    None => Dependence {
                        kind: kind.to_string(),
                        var: var.to_string(),
                        src: (src, 0),
                        dst: (dst, 0),
                        ..Dependence::default()
                    },
                })
            }
            _ => None,
        };
        let line = match &dependence {
            Some(d) => Some(d.src.0),
            None => words.iter().find_map(|w| w.parse().ok()),
        };
        Blocker {
            text: text.to_string(),
            dependence,
            line,
        }
    }
}

impl Blocker {
    /// What the blocker is, without its lines: `flow A`, `call DUMMY`,
    /// `opaque statement (pointer)`; the same in every loop it stops.
    pub fn what(&self) -> String {
        match &self.dependence {
            Some(d) => format!("{} {}", d.kind, d.var),
            None => self
                .text
                .split_whitespace()
                .filter(|w| w.parse::<i64>().is_err())
                .collect::<Vec<_>>()
                .join(" "),
        }
    }

    /// Where the panel lists the blocker: what excludes a loop (a call,
    /// I/O, an opaque statement) or a sentence (a last value not sure)
    /// first, as the one reason a reader needs, then the carried
    /// dependences, flow before output and anti (which renaming or
    /// privatization may remove). TSVC's timing loops carry 40 anti
    /// dependences through the call that excludes them: listed in
    /// `parallel`'s order, the call was the 42nd row, hidden under "… and
    /// 30 more".
    pub fn rank(&self) -> usize {
        match &self.dependence {
            None => 0,
            Some(d) => match d.kind.as_str() {
                "flow" => 1,
                "output" => 2,
                _ => 3,
            },
        }
    }
}

/// `(a,b,c)`.
fn vector(items: impl Iterator<Item = String>) -> String {
    format!("({})", items.collect::<Vec<_>>().join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row<'a>(src_line: i64, dst_line: i64) -> DepRow<'a> {
        DepRow {
            unit: "P",
            src_line,
            src_col: 7,
            dst_line,
            dst_col: 11,
            kind: "flow",
            var: "A",
            loops: vec![5, 6],
            distance: vec![Some(0), Some(1)],
            direction: vec!['=', '<'],
            carrier: 6,
            certainty: "proven",
            minimal: true,
        }
    }

    fn b_what(deps: &CarriedRows, text: &str) -> String {
        Blocker::read(text, "P", 6, deps).what()
    }

    #[test]
    fn a_dependence_blocker_gets_its_rows_and_a_construct_its_line() {
        let rows = [row(7, 8), row(7, 8), row(9, 8)];
        let deps = CarriedRows::new(&rows);
        let b = Blocker::read("flow A 7->8", "P", 6, &deps);
        let d = b.dependence.expect("a dependence");
        assert_eq!((d.src, d.dst, d.rows), ((7, 7), (8, 11), 2));
        assert_eq!(
            (d.direction.as_str(), d.distance.as_str()),
            ("(=,<)", "(0,1)")
        );
        // Another loop carries nothing of it.
        assert_eq!(
            Blocker::read("flow A 7->8", "P", 5, &deps)
                .dependence
                .map(|d| d.rows),
            Some(0)
        );
        assert_eq!(b_what(&deps, "flow A 7->8"), "flow A");
        assert_eq!(b_what(&deps, "call DUMMY 12"), "call DUMMY");
        assert_eq!(
            b_what(&deps, "opaque statement 14 (pointer)"),
            "opaque statement (pointer)"
        );
        let call = Blocker::read("call 12", "P", 6, &deps);
        assert_eq!((call.dependence, call.line), (None, Some(12)));
        let opaque = Blocker::read("opaque statement 14 (pointer)", "P", 6, &deps);
        assert_eq!(opaque.line, Some(14));
        assert_eq!(
            Blocker::read("last value of T not set by every iteration", "P", 6, &deps).line,
            None
        );
    }

    #[test]
    fn what_excludes_a_loop_comes_first_then_flow_dependences() {
        let deps = CarriedRows::new(&[]);
        let mut blockers: Vec<Blocker> = ["anti A 7->8", "output B 9->9", "flow C 7->8", "call 12"]
            .iter()
            .map(|t| Blocker::read(t, "P", 6, &deps))
            .collect();
        blockers.sort_by_key(Blocker::rank);
        let texts: Vec<&str> = blockers.iter().map(|b| b.text.as_str()).collect();
        assert_eq!(
            texts,
            ["call 12", "flow C 7->8", "output B 9->9", "anti A 7->8"]
        );
    }
}
