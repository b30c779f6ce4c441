//! The dependence graph as other tools read it: one [`DepRow`] per
//! (source reference, sink reference, kind, direction vector), printed as
//! the CSV contract, an aligned table or Graphviz DOT.
//!
//! CSV header (stable): `unit,kind,var,src_line,src_col,dst_line,dst_col,
//! loops,distance,direction,carrier,certainty,minimal`.

use crate::{num, quote_from, sym};
use kaiseki_facts::{FactBase, Table, Value};
use rustc_hash::FxHashMap;
use std::collections::{BTreeMap, BTreeSet};

pub const CSV_HEADER: [&str; 13] = [
    "unit",
    "kind",
    "var",
    "src_line",
    "src_col",
    "dst_line",
    "dst_col",
    "loops",
    "distance",
    "direction",
    "carrier",
    "certainty",
    "minimal",
];

/// Which rows [`dependence_rows`] builds besides the minimal dependences.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Include {
    /// The general (Kuck) output, anti and input dependences (`--all`).
    pub general: bool,
    /// The bookkeeping of the DO loops' own indices, `loop_index_dependence`
    /// (`--loop-vars`): left out by default, they are in every loop and
    /// tell nothing.
    pub loop_index: bool,
}

/// The derived relations the rows of `include` are built from.
pub fn relations(include: Include) -> Vec<&'static str> {
    let mut names = vec![
        "dependence",
        "general_dependence",
        "array_tested",
        "array_dependence",
    ];
    if !include.loop_index {
        names.push("loop_index_dependence");
    }
    names
}

/// One edge of the dependence graph. Its names borrow from the facts and
/// the derived tables: a run makes about a million rows.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct DepRow<'a> {
    pub unit: &'a str,
    pub src_line: i64,
    pub src_col: i64,
    pub dst_line: i64,
    pub dst_col: i64,
    pub kind: &'a str,
    pub var: &'a str,
    /// Lines of the DO statements enclosing both references, outermost first.
    pub loops: Vec<i64>,
    /// Per loop of `loops`: the distance in iterations, `None` when not one known number.
    pub distance: Vec<Option<i64>>,
    /// Per loop of `loops`: `<`, `=`, `>` or `*`.
    pub direction: Vec<char>,
    /// Line of the DO statement of the carrying loop, 0 when loop-independent.
    pub carrier: i64,
    pub certainty: &'a str,
    pub minimal: bool,
}

impl DepRow<'_> {
    /// The fields in CSV header order.
    pub fn fields(&self) -> Vec<String> {
        let mut fields = Vec::with_capacity(CSV_HEADER.len());
        self.write_fields(&mut String::new(), |f| fields.push(std::mem::take(f)));
        fields
    }

    /// Appends the fields to `out` in CSV header order, calling `end` after
    /// each one: the one rendering of a row that every format shares.
    fn write_fields(&self, out: &mut String, mut end: impl FnMut(&mut String)) {
        for s in [self.unit, self.kind, self.var] {
            out.push_str(s);
            end(out);
        }
        for n in [self.src_line, self.src_col, self.dst_line, self.dst_col] {
            push_number(out, n);
            end(out);
        }
        push_list(out, &self.loops, |o, &l| push_number(o, l));
        end(out);
        push_list(out, &self.distance, |o, d| match d {
            Some(n) => push_number(o, *n),
            None => o.push('*'),
        });
        end(out);
        push_list(out, &self.direction, |o, &c| o.push(c));
        end(out);
        push_number(out, self.carrier);
        end(out);
        out.push_str(self.certainty);
        end(out);
        out.push_str(if self.minimal { "true" } else { "false" });
        end(out);
    }
}

/// Appends `n` in decimal (`write!` costs a tenth of a second on the
/// eight million numbers of a large CSV).
fn push_number(out: &mut String, n: i64) {
    out.push_str(itoa::Buffer::new().format(n));
}

/// Appends the items `;`-separated.
fn push_list<T>(out: &mut String, items: &[T], mut push: impl FnMut(&mut String, &T)) {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(';');
        }
        push(out, item);
    }
}

/// A reference: its statement (an index into [`Index::stmts`]), variable
/// and position.
struct Ref<'a> {
    stmt: usize,
    var: &'a str,
    line: i64,
    col: i64,
}

/// A statement: its unit and the loops enclosing it.
#[derive(Default)]
struct Stmt<'a> {
    unit: &'a str,
    /// The unit's rank in name order (rows are sorted by unit first, and
    /// ranks compare much faster than names).
    unit_rank: usize,
    /// (loop id, DO line), outermost first (by depth, then id).
    loops: Vec<(i64, i64)>,
}

/// What the rows need to know about references and loops, from the facts.
/// A row hashes only to find its two references and its carrier's line,
/// not their statements: the rows of a large unit are millions, their
/// references spread over it.
struct Index<'a> {
    refs: FxHashMap<i64, Ref<'a>>,
    /// The statements; the first stands for a statement without facts.
    stmts: Vec<Stmt<'a>>,
    /// loop id -> DO line
    loop_line: FxHashMap<i64, i64>,
}

impl<'a> Index<'a> {
    fn new(facts: &'a FactBase) -> Self {
        // "" (a statement without a unit) ranks first, as Stmt::default says.
        let mut units: Vec<&str> = facts.stmt.iter().map(|s| s.unit.as_str()).collect();
        units.push("");
        units.sort_unstable();
        units.dedup();
        let mut stmts = vec![Stmt::default()];
        let mut stmt_ix: FxHashMap<i64, usize> = FxHashMap::default();
        let mut slot = |stmts: &mut Vec<Stmt<'a>>, id: i64| {
            *stmt_ix.entry(id).or_insert_with(|| {
                stmts.push(Stmt::default());
                stmts.len() - 1
            })
        };
        for s in &facts.stmt {
            let i = slot(&mut stmts, s.stmt);
            stmts[i].unit = &s.unit;
            stmts[i].unit_rank = units.binary_search(&stmts[i].unit).unwrap_or(0);
        }
        let loop_line: FxHashMap<i64, i64> =
            facts.r#loop.iter().map(|l| (l.r#loop, l.line)).collect();
        for ls in &facts.loop_stmt {
            let line = loop_line.get(&ls.r#loop).copied().unwrap_or(0);
            let i = slot(&mut stmts, ls.stmt);
            stmts[i].loops.push((ls.r#loop, line));
        }
        let depth: FxHashMap<i64, i64> = facts.r#loop.iter().map(|l| (l.r#loop, l.depth)).collect();
        for stmt in &mut stmts {
            stmt.loops
                .sort_unstable_by_key(|&(l, _)| (depth.get(&l).copied().unwrap_or(0), l));
            stmt.loops.dedup();
        }
        let pos: FxHashMap<i64, (i64, i64)> = facts
            .ref_pos
            .iter()
            .map(|p| (p.r#ref, (p.line, p.col)))
            .collect();
        let defs = facts.def.iter().map(|d| (d.r#ref, d.stmt, d.var.as_str()));
        let uses = facts
            .r#use
            .iter()
            .map(|u| (u.r#ref, u.stmt, u.var.as_str()));
        let refs = defs
            .chain(uses)
            .map(|(r, stmt, var)| {
                let (line, col) = pos.get(&r).copied().unwrap_or((0, 0));
                let stmt = stmt_ix.get(&stmt).copied().unwrap_or(0);
                (
                    r,
                    Ref {
                        stmt,
                        var,
                        line,
                        col,
                    },
                )
            })
            .collect();
        Index {
            refs,
            stmts,
            loop_line,
        }
    }
}

/// The derived row a [`DepRow`] was built from: its relation's name and
/// the row (what `kaiseki explain` proves).
pub type Origin<'a> = (&'a str, &'a [Value]);

/// The source and sink references of the row an origin names: its second
/// and third columns, in each relation the rows are built from.
pub fn origin_refs((_, row): Origin) -> (i64, i64) {
    (num(&row[1]), num(&row[2]))
}

/// Builds the rows, sorted and without duplicates, from the derived
/// relations (rows sorted, as the engines return them):
/// - `array_dependence(kind, src, dst, carrier, direction, distance,
///   certainty)` for the pairs of array element references the subscript
///   test examined (`array_tested(kind, src, dst)`; a tested pair without
///   a vector is independent and has no row);
/// - `dependence(kind, src, dst, carrier, certainty)` for every other pair;
/// - with `include.general`, `general_dependence(kind, src, dst, carrier)`
///   (minimal = false, certainty possible);
/// - without `include.loop_index`, none of `loop_index_dependence(kind,
///   src, dst)`.
pub fn dependence_rows<'a>(
    facts: &'a FactBase,
    derived: &'a [Table],
    include: Include,
) -> Vec<DepRow<'a>> {
    traced_rows(facts, derived, include)
        .into_iter()
        .map(|(row, _)| row)
        .collect()
}

/// [`dependence_rows`], each with the derived row it was built from (one
/// of them, when several give the same row).
pub fn traced_rows<'a>(
    facts: &'a FactBase,
    derived: &'a [Table],
    include: Include,
) -> Vec<(DepRow<'a>, Origin<'a>)> {
    let ix = Index::new(facts);
    let rows_of = |name: &str| {
        derived
            .iter()
            .find(|t| t.name == name)
            .map_or(&[][..], |t| &t.rows[..])
    };
    let (dependence, array, general) = (
        rows_of("dependence"),
        rows_of("array_dependence"),
        if include.general {
            rows_of("general_dependence")
        } else {
            &[]
        },
    );
    let hidden = if include.loop_index {
        &[]
    } else {
        rows_of("loop_index_dependence")
    };
    // Every relation is sorted by (kind, src, dst) first: the pairs to
    // leave out are found by walking them together.
    let mut tested = Walk::new(rows_of("array_tested"));
    let (mut hidden_minimal, mut hidden_array, mut hidden_general) =
        (Walk::new(hidden), Walk::new(hidden), Walk::new(hidden));
    // Each row with its unit's rank and origin.
    let mut rows = Vec::with_capacity(dependence.len() + array.len() + general.len());
    let traced = |origin: Origin<'a>| move |(rank, row)| (rank, row, origin);
    for r in dependence {
        let key = pair(r);
        if tested.has(key) || hidden_minimal.has(key) {
            continue;
        }
        let origin = ("dependence", &r[..]);
        rows.extend(ix.row(edge(r), sym(&r[4]), true).map(traced(origin)));
    }
    for r in array {
        if hidden_array.has(pair(r)) {
            continue;
        }
        let vector = (sym(&r[4]), sym(&r[5]));
        let origin = ("array_dependence", &r[..]);
        rows.extend(
            ix.array_row(edge(r), vector, sym(&r[6]))
                .map(traced(origin)),
        );
    }
    for r in general {
        if hidden_general.has(pair(r)) {
            continue;
        }
        let origin = ("general_dependence", &r[..]);
        rows.extend(ix.row(edge(r), "possible", false).map(traced(origin)));
    }
    // Sorted as `DepRow` orders them, in two passes: by unit (its rank
    // stands in for its name) and positions, integers only, then each run
    // of rows between the same positions in full.
    let key = |(rank, r, _): &(usize, DepRow, Origin)| {
        (*rank, r.src_line, r.src_col, r.dst_line, r.dst_col)
    };
    rows.sort_unstable_by_key(key);
    for run in rows.chunk_by_mut(|a, b| key(a) == key(b)) {
        run.sort_unstable_by(|a, b| a.1.cmp(&b.1));
    }
    rows.dedup_by(|a, b| key(a) == key(b) && a.1 == b.1);
    rows.into_iter()
        .map(|(_, row, origin)| (row, origin))
        .collect()
}

/// The (kind, src, dst) a row of a dependence relation starts with.
fn pair(r: &[Value]) -> (&str, i64, i64) {
    (sym(&r[0]), num(&r[1]), num(&r[2]))
}

/// The (kind, src, dst, carrier) of a row of `dependence`,
/// `array_dependence` or `general_dependence`.
fn edge(r: &[Value]) -> (&str, i64, i64, i64) {
    (sym(&r[0]), num(&r[1]), num(&r[2]), num(&r[3]))
}

/// The (kind, src, dst) pairs of a relation sorted by them, asked about
/// pairs in increasing order (the rows of another relation so sorted).
struct Walk<'a> {
    pairs: std::iter::Peekable<std::slice::Iter<'a, Vec<Value>>>,
}

impl<'a> Walk<'a> {
    fn new(rows: &'a [Vec<Value>]) -> Self {
        Walk {
            pairs: rows.iter().peekable(),
        }
    }

    /// Whether `key` is one of the pairs; no smaller key may be asked next.
    fn has(&mut self, key: (&str, i64, i64)) -> bool {
        while self.pairs.next_if(|r| pair(r) < key).is_some() {}
        self.pairs.peek().is_some_and(|r| pair(r) == key)
    }
}

/// A `;`-separated direction and distance vector, parsed; `None` when a
/// field is not a direction or a distance, or the lists differ in length.
fn parse_vector(direction: &str, distance: &str) -> Option<(Vec<char>, Vec<Option<i64>>)> {
    let (mut dirs, mut dists) = (Vec::new(), Vec::new());
    // Empty lists have no items (not one empty item).
    if direction.is_empty() && distance.is_empty() {
        return Some((dirs, dists));
    }
    let (mut ds, mut xs) = (direction.split(';'), distance.split(';'));
    loop {
        match (ds.next(), xs.next()) {
            (None, None) => return Some((dirs, dists)),
            (Some(d), Some(x)) => {
                dirs.push(match d {
                    "<" | "=" | ">" | "*" => d.chars().next()?,
                    _ => return None,
                });
                dists.push(if x == "*" {
                    None
                } else {
                    Some(x.parse().ok()?)
                });
            }
            _ => return None,
        }
    }
}

impl<'a> Index<'a> {
    /// The row of a tested array dependence: its `;`-separated direction
    /// and distance per common loop. Lists that do not fit the common loops
    /// (never produced by the rules) give `*` everywhere: still sound.
    fn array_row(
        &self,
        edge: (&'a str, i64, i64, i64),
        (direction, distance): (&str, &str),
        certainty: &'a str,
    ) -> Option<(usize, DepRow<'a>)> {
        let (rank, mut row) = self.row(edge, certainty, true)?;
        match parse_vector(direction, distance).filter(|(d, _)| d.len() == row.loops.len()) {
            Some((dirs, dists)) => {
                row.direction = dirs;
                row.distance = dists;
            }
            None => {
                row.direction = vec!['*'; row.loops.len()];
                row.distance = vec![None; row.loops.len()];
                row.certainty = "possible";
            }
        }
        Some((rank, row))
    }

    /// The row of the edge (kind, src ref, dst ref, carrier loop), with the
    /// rank of its unit. A carried dependence is `=` on the loops outside
    /// its carrier, `<` on the carrier and `*` inside it; distances are not
    /// known at this level (`*`), except 0 on the `=` loops.
    fn row(
        &self,
        (kind, src, dst, carrier): (&'a str, i64, i64, i64),
        certainty: &'a str,
        minimal: bool,
    ) -> Option<(usize, DepRow<'a>)> {
        let (s, d) = (self.refs.get(&src)?, self.refs.get(&dst)?);
        let s_stmt = &self.stmts[s.stmt];
        let d_loops = &self.stmts[d.stmt].loops;
        let common = s_stmt.loops.iter().filter(|l| d_loops.contains(l));
        let mut loops = Vec::new();
        let mut direction = Vec::new();
        let mut distance = Vec::new();
        let mut inside = false;
        for &(l, line) in common {
            loops.push(line);
            if inside {
                direction.push('*');
                distance.push(None);
            } else if l == carrier {
                direction.push('<');
                distance.push(None);
                inside = true;
            } else {
                direction.push('=');
                distance.push(Some(0));
            }
        }
        let row = DepRow {
            unit: s_stmt.unit,
            src_line: s.line,
            src_col: s.col,
            dst_line: d.line,
            dst_col: d.col,
            kind,
            var: s.var,
            loops,
            distance,
            direction,
            carrier: if carrier == 0 {
                0
            } else {
                self.loop_line.get(&carrier).copied().unwrap_or(0)
            },
            certainty,
            minimal,
        };
        Some((s_stmt.unit_rank, row))
    }
}

/// The CSV header line, [`CSV_HEADER`].
pub fn csv_header() -> String {
    CSV_HEADER.join(",") + "\n"
}

/// The CSV lines of `rows`, after [`csv_header`] (a large table is written
/// in parts, one per unit).
pub fn csv_lines(rows: &[DepRow]) -> String {
    let mut out = String::new();
    for r in rows {
        let mut start = out.len();
        r.write_fields(&mut out, |out| {
            quote_from(out, start);
            out.push(',');
            start = out.len();
        });
        // The last field's comma ends the line instead.
        out.pop();
        out.push('\n');
    }
    out
}

/// The header of [`by_loop`]'s rows.
pub const BY_LOOP_HEADER: [&str; 6] = ["unit", "loop_line", "var", "kind", "rows", "distances"];

/// A group of [`by_loop`]: unit, the carrier's line, variable, kind.
type GroupKey<'a> = (&'a str, i64, &'a str, &'a str);

/// Per loop, the dependences it carries, grouped by variable and kind:
/// how many rows, and the distances they have in that loop (`*` for none
/// known), one screen for a routine whose table is thousands of rows. In
/// unit and loop line order, the groups with more rows first.
pub fn by_loop(rows: &[DepRow]) -> Vec<Vec<String>> {
    let mut groups: BTreeMap<GroupKey, (usize, BTreeSet<Option<i64>>)> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.carrier != 0) {
        let at = r.loops.iter().position(|&l| l == r.carrier);
        let distance = at.and_then(|i| r.distance.get(i).copied().flatten());
        let g = groups
            .entry((r.unit, r.carrier, r.var, r.kind))
            .or_default();
        g.0 += 1;
        g.1.insert(distance);
    }
    let mut out: Vec<((&str, i64), usize, Vec<String>)> = groups
        .into_iter()
        .map(|((unit, line, var, kind), (n, distances))| {
            let distances: Vec<String> = distances
                .iter()
                .map(|d| d.map_or("*".to_string(), |d| d.to_string()))
                .collect();
            let fields = vec![
                unit.to_string(),
                line.to_string(),
                var.to_string(),
                kind.to_string(),
                n.to_string(),
                distances.join(";"),
            ];
            ((unit, line), n, fields)
        })
        .collect();
    out.sort_by(|a, b| {
        a.0.cmp(&b.0)
            .then(b.1.cmp(&a.1))
            .then_with(|| a.2.cmp(&b.2))
    });
    out.into_iter().map(|(_, _, fields)| fields).collect()
}

/// The rows as an aligned table for people.
pub fn to_table(rows: &[DepRow]) -> String {
    let body: Vec<Vec<String>> = rows.iter().map(DepRow::fields).collect();
    crate::table::render(&CSV_HEADER, &body)
}

/// The graph in Graphviz DOT: one cluster per unit, a node per reference
/// (`VAR line:col`), an edge per row labelled with its kind and direction.
pub fn to_dot(rows: &[DepRow]) -> String {
    let mut units: BTreeMap<&str, Vec<&DepRow>> = BTreeMap::new();
    for r in rows {
        units.entry(r.unit).or_default().push(r);
    }
    let mut out =
        String::from("digraph dependences {\n  node [shape=box, fontname=\"monospace\"];\n");
    for (i, (unit, rows)) in units.iter().enumerate() {
        out.push_str(&format!(
            "  subgraph cluster_{i} {{\n    label=\"{unit}\";\n"
        ));
        let mut nodes = BTreeSet::new();
        for r in rows {
            nodes.insert((r.src_line, r.src_col, r.var));
            nodes.insert((r.dst_line, r.dst_col, r.var));
        }
        for (line, col, var) in &nodes {
            out.push_str(&format!(
                "    \"{unit}:{line}:{col}\" [label=\"{var} {line}:{col}\"];\n"
            ));
        }
        for r in rows {
            let style = match r.kind {
                "flow" => "solid",
                "anti" => "dashed",
                "output" => "bold",
                _ => "dotted",
            };
            let dir: String = r.direction.iter().collect();
            let label = if dir.is_empty() {
                r.kind.to_string()
            } else {
                format!("{} ({dir})", r.kind)
            };
            out.push_str(&format!(
                "    \"{unit}:{}:{}\" -> \"{unit}:{}:{}\" [label=\"{label}\", style={style}];\n",
                r.src_line, r.src_col, r.dst_line, r.dst_col
            ));
        }
        out.push_str("  }\n");
    }
    out.push_str("}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use kaiseki_facts::{Def, Loop, LoopStmt, RefPos, Stmt, Use};

    fn table(name: &str, rows: Vec<Vec<Value>>) -> Table {
        Table {
            name: name.into(),
            columns: Vec::new(),
            rows,
        }
    }

    fn s(x: &str) -> Value {
        Value::Symbol(x.into())
    }

    fn n(x: i64) -> Value {
        Value::Number(x)
    }

    /// `A(I) = A(I-1)` in `DO I` (statement 2 in loop 1, line 10), in unit `P`;
    /// reference 1 reads A at 11:20, reference 2 writes it at 11:7.
    fn facts() -> FactBase {
        let mut f = FactBase::default();
        for (stmt, line) in [(1, 10), (2, 11)] {
            f.stmt.push(Stmt {
                stmt,
                unit: "P".into(),
                line,
                col: 7,
                kind: "assign".into(),
            });
        }
        f.r#loop.push(Loop {
            r#loop: 1,
            unit: "P".into(),
            kind: "do".into(),
            var: "I".into(),
            line: 10,
            depth: 1,
        });
        f.loop_stmt.push(LoopStmt { r#loop: 1, stmt: 2 });
        f.r#use.push(Use {
            r#ref: 1,
            stmt: 2,
            var: "A".into(),
        });
        f.def.push(Def {
            r#ref: 2,
            stmt: 2,
            var: "A".into(),
        });
        f.ref_pos.push(RefPos {
            r#ref: 1,
            line: 11,
            col: 20,
        });
        f.ref_pos.push(RefPos {
            r#ref: 2,
            line: 11,
            col: 7,
        });
        f
    }

    #[test]
    fn tested_pairs_take_their_vectors_and_rows_come_sorted_once() {
        let facts = facts();
        let derived = [
            table(
                "dependence",
                vec![
                    vec![s("anti"), n(1), n(2), n(0), s("possible")],
                    vec![s("anti"), n(1), n(2), n(0), s("possible")],
                    vec![s("flow"), n(2), n(1), n(1), s("possible")],
                ],
            ),
            table("array_tested", vec![vec![s("flow"), n(2), n(1)]]),
            table("array_dependence", vec![flow_vector("<", "1")]),
        ];
        let rows = dependence_rows(&facts, &derived, Include::default());
        let csv = csv_header() + &csv_lines(&rows);
        assert_eq!(
            csv,
            "unit,kind,var,src_line,src_col,dst_line,dst_col,loops,distance,direction,carrier,certainty,minimal\n\
             P,flow,A,11,7,11,20,10,1,<,10,exact,true\n\
             P,anti,A,11,20,11,7,10,0,=,0,possible,true\n"
        );
        assert_eq!(rows[1].fields()[9], "=");
    }

    /// An exact `array_dependence` row: flow from reference 2 to 1, carried by loop 1.
    fn flow_vector(direction: &str, distance: &str) -> Vec<Value> {
        vec![
            s("flow"),
            n(2),
            n(1),
            n(1),
            s(direction),
            s(distance),
            s("exact"),
        ]
    }

    #[test]
    fn vectors_that_do_not_fit_the_loops_are_unknown() {
        let facts = facts();
        let derived = [table("array_dependence", vec![flow_vector("<;=", "1;0")])];
        let rows = dependence_rows(&facts, &derived, Include::default());
        assert_eq!(rows[0].direction, vec!['*']);
        assert_eq!(rows[0].distance, vec![None]);
        assert_eq!(rows[0].certainty, "possible");
    }

    #[test]
    fn loop_index_rows_are_left_out_unless_asked() {
        let facts = facts();
        let flow = vec![s("flow"), n(2), n(1), n(1), s("possible")];
        let anti = vec![s("anti"), n(1), n(2), n(0), s("possible")];
        let derived = [
            table("dependence", vec![anti.clone(), flow.clone()]),
            table("general_dependence", vec![flow[..4].to_vec()]),
            table("loop_index_dependence", vec![flow[..3].to_vec()]),
        ];
        let kinds = |include| -> Vec<(&str, bool)> {
            dependence_rows(&facts, &derived, include)
                .iter()
                .map(|r| (r.kind, r.minimal))
                .collect()
        };
        let general = Include {
            general: true,
            loop_index: false,
        };
        assert_eq!(kinds(general), [("anti", true)]);
        assert_eq!(
            kinds(Include {
                loop_index: true,
                ..general
            }),
            [("flow", false), ("flow", true), ("anti", true)]
        );
        assert!(relations(Include::default()).contains(&"loop_index_dependence"));
        assert!(!relations(Include {
            loop_index: true,
            general: false
        })
        .contains(&"loop_index_dependence"));
    }

    #[test]
    fn vectors_parse_or_are_refused() {
        assert_eq!(parse_vector("", ""), Some((vec![], vec![])));
        assert_eq!(
            parse_vector("<;*", "2;*"),
            Some((vec!['<', '*'], vec![Some(2), None]))
        );
        assert_eq!(parse_vector("<", ""), None);
        assert_eq!(parse_vector("<;=", "1"), None);
        assert_eq!(parse_vector("x", "1"), None);
        assert_eq!(parse_vector("<", "one"), None);
    }

    #[test]
    fn numbers_print_as_display_does() {
        for x in [0, 7, -7, 10, 1234567890, i64::MAX, i64::MIN] {
            let mut out = String::from("x");
            push_number(&mut out, x);
            assert_eq!(out, format!("x{x}"));
        }
    }

    #[test]
    fn csv_fields_with_separators_are_quoted() {
        let row = DepRow {
            unit: "A,B",
            src_line: 1,
            src_col: 2,
            dst_line: 3,
            dst_col: 4,
            kind: "say \"hi\"",
            var: "X",
            loops: vec![5, 6],
            distance: vec![Some(-1), None],
            direction: vec!['>', '*'],
            carrier: 5,
            certainty: "exact",
            minimal: false,
        };
        let csv = csv_lines(std::slice::from_ref(&row));
        assert_eq!(
            csv.lines().next(),
            Some("\"A,B\",\"say \"\"hi\"\"\",X,1,2,3,4,5;6,-1;*,>;*,5,exact,false")
        );
        assert_eq!(row.fields().len(), CSV_HEADER.len());
    }
}
