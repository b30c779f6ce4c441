//! The dependence graph as other tools read it: one [`DepRow`] per
//! (source reference, sink reference, kind, direction vector), printed as
//! the CSV contract, an aligned table or Graphviz DOT.
//!
//! CSV header (stable): `unit,kind,var,src_line,src_col,dst_line,dst_col,
//! loops,distance,direction,carrier,certainty,minimal`.

use kaiseki_facts::{FactBase, Table, Value};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

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

/// The derived relations the rows are built from.
pub const RELATIONS: &[&str] = &[
    "dependence",
    "general_dependence",
    "array_tested",
    "array_dependence",
];

/// One edge of the dependence graph.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct DepRow {
    pub unit: String,
    pub src_line: i64,
    pub src_col: i64,
    pub dst_line: i64,
    pub dst_col: i64,
    pub kind: String,
    pub var: String,
    /// Lines of the DO statements enclosing both references, outermost first.
    pub loops: Vec<i64>,
    /// Per loop of `loops`: the distance in iterations, `None` when not one known number.
    pub distance: Vec<Option<i64>>,
    /// Per loop of `loops`: `<`, `=`, `>` or `*`.
    pub direction: Vec<char>,
    /// Line of the DO statement of the carrying loop, 0 when loop-independent.
    pub carrier: i64,
    pub certainty: String,
    pub minimal: bool,
}

impl DepRow {
    /// The fields in CSV header order.
    pub fn fields(&self) -> Vec<String> {
        let join = |v: Vec<String>| v.join(";");
        vec![
            self.unit.clone(),
            self.kind.clone(),
            self.var.clone(),
            self.src_line.to_string(),
            self.src_col.to_string(),
            self.dst_line.to_string(),
            self.dst_col.to_string(),
            join(self.loops.iter().map(i64::to_string).collect()),
            join(
                self.distance
                    .iter()
                    .map(|d| d.map_or("*".to_string(), |n| n.to_string()))
                    .collect(),
            ),
            join(self.direction.iter().map(char::to_string).collect()),
            self.carrier.to_string(),
            self.certainty.clone(),
            self.minimal.to_string(),
        ]
    }
}

/// What the rows need to know about references and loops, from the facts.
struct Index<'a> {
    ref_stmt: HashMap<i64, (i64, &'a str)>,
    ref_pos: HashMap<i64, (i64, i64)>,
    stmt_unit: HashMap<i64, &'a str>,
    stmt_loops: HashMap<i64, BTreeSet<i64>>,
    /// loop id -> (depth, DO line)
    loops: HashMap<i64, (i64, i64)>,
}

impl<'a> Index<'a> {
    fn new(facts: &'a FactBase) -> Self {
        let mut ref_stmt = HashMap::new();
        for d in &facts.def {
            ref_stmt.insert(d.r#ref, (d.stmt, d.var.as_str()));
        }
        for u in &facts.r#use {
            ref_stmt.insert(u.r#ref, (u.stmt, u.var.as_str()));
        }
        let mut stmt_loops: HashMap<i64, BTreeSet<i64>> = HashMap::new();
        for ls in &facts.loop_stmt {
            stmt_loops.entry(ls.stmt).or_default().insert(ls.r#loop);
        }
        Index {
            ref_stmt,
            ref_pos: facts
                .ref_pos
                .iter()
                .map(|p| (p.r#ref, (p.line, p.col)))
                .collect(),
            stmt_unit: facts
                .stmt
                .iter()
                .map(|s| (s.stmt, s.unit.as_str()))
                .collect(),
            stmt_loops,
            loops: facts
                .r#loop
                .iter()
                .map(|l| (l.r#loop, (l.depth, l.line)))
                .collect(),
        }
    }

    /// Loops enclosing both statements, outermost first.
    fn common_loops(&self, s1: i64, s2: i64) -> Vec<i64> {
        let empty = BTreeSet::new();
        let a = self.stmt_loops.get(&s1).unwrap_or(&empty);
        let b = self.stmt_loops.get(&s2).unwrap_or(&empty);
        let mut common: Vec<i64> = a.intersection(b).copied().collect();
        common.sort_by_key(|l| self.loops.get(l).map_or(0, |x| x.0));
        common
    }

    fn line_of_loop(&self, l: i64) -> i64 {
        self.loops.get(&l).map_or(0, |x| x.1)
    }
}

fn num(v: &Value) -> i64 {
    match v {
        Value::Number(n) => *n,
        Value::Symbol(_) => 0,
    }
}

fn sym(v: &Value) -> &str {
    match v {
        Value::Symbol(s) => s,
        Value::Number(_) => "",
    }
}

/// Builds the rows from the derived relations:
/// - `array_dependence(kind, src, dst, carrier, direction, distance,
///   certainty)` for the pairs of array element references the subscript
///   test examined (`array_tested(kind, src, dst)`; a tested pair without
///   a vector is independent and has no row);
/// - `dependence(kind, src, dst, carrier, certainty)` for every other pair;
/// - with `all`, `general_dependence(kind, src, dst, carrier)` (minimal =
///   false, certainty possible).
pub fn dependence_rows(facts: &FactBase, derived: &[Table], all: bool) -> Vec<DepRow> {
    let ix = Index::new(facts);
    let table = |name: &str| derived.iter().find(|t| t.name == name);
    let rows_of = |name: &str| table(name).map_or(&[][..], |t| &t.rows[..]);
    let tested: HashSet<(&str, i64, i64)> = rows_of("array_tested")
        .iter()
        .map(|r| (sym(&r[0]), num(&r[1]), num(&r[2])))
        .collect();
    let mut rows = BTreeSet::new();
    for r in rows_of("dependence") {
        if tested.contains(&(sym(&r[0]), num(&r[1]), num(&r[2]))) {
            continue;
        }
        let edge = (sym(&r[0]), num(&r[1]), num(&r[2]), num(&r[3]));
        rows.extend(ix.row(edge, sym(&r[4]), true));
    }
    for r in rows_of("array_dependence") {
        let edge = (sym(&r[0]), num(&r[1]), num(&r[2]), num(&r[3]));
        let vector = (sym(&r[4]), sym(&r[5]));
        rows.extend(ix.array_row(edge, vector, sym(&r[6])));
    }
    if all {
        for r in table("general_dependence").map_or(&[][..], |t| &t.rows) {
            let edge = (sym(&r[0]), num(&r[1]), num(&r[2]), num(&r[3]));
            rows.extend(ix.row(edge, "possible", false));
        }
    }
    rows.into_iter().collect()
}

impl Index<'_> {
    /// The row of a tested array dependence: its `;`-separated direction
    /// and distance per common loop. Lists that do not fit the common loops
    /// (never produced by the rules) give `*` everywhere: still sound.
    fn array_row(
        &self,
        edge: (&str, i64, i64, i64),
        (direction, distance): (&str, &str),
        certainty: &str,
    ) -> Option<DepRow> {
        let mut row = self.row(edge, certainty, true)?;
        let split = |s: &str| -> Vec<String> {
            if s.is_empty() {
                Vec::new()
            } else {
                s.split(';').map(String::from).collect()
            }
        };
        let (dirs, dists) = (split(direction), split(distance));
        let parsed: Option<Vec<(char, Option<i64>)>> = dirs
            .iter()
            .zip(&dists)
            .map(|(d, x)| {
                let dir = match d.as_str() {
                    "<" | "=" | ">" | "*" => d.chars().next()?,
                    _ => return None,
                };
                let dist = if x == "*" {
                    None
                } else {
                    Some(x.parse().ok()?)
                };
                Some((dir, dist))
            })
            .collect();
        match parsed.filter(|p| p.len() == row.loops.len() && dists.len() == dirs.len()) {
            Some(p) => {
                row.direction = p.iter().map(|x| x.0).collect();
                row.distance = p.iter().map(|x| x.1).collect();
            }
            None => {
                row.direction = vec!['*'; row.loops.len()];
                row.distance = vec![None; row.loops.len()];
                row.certainty = "possible".to_string();
            }
        }
        Some(row)
    }

    /// The row of the edge (kind, src ref, dst ref, carrier loop). A carried
    /// dependence is `=` on the loops outside its carrier, `<` on the
    /// carrier and `*` inside it; distances are not known at this level
    /// (`*`), except 0 on the `=` loops.
    fn row(
        &self,
        (kind, src, dst, carrier): (&str, i64, i64, i64),
        certainty: &str,
        minimal: bool,
    ) -> Option<DepRow> {
        let (&(s1, var), &(s2, _)) = (self.ref_stmt.get(&src)?, self.ref_stmt.get(&dst)?);
        let loops = self.common_loops(s1, s2);
        let mut direction = Vec::new();
        let mut distance = Vec::new();
        let mut inside = false;
        for &l in &loops {
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
        let (src_line, src_col) = self.ref_pos.get(&src).copied().unwrap_or((0, 0));
        let (dst_line, dst_col) = self.ref_pos.get(&dst).copied().unwrap_or((0, 0));
        Some(DepRow {
            unit: self.stmt_unit.get(&s1).unwrap_or(&"").to_string(),
            src_line,
            src_col,
            dst_line,
            dst_col,
            kind: kind.to_string(),
            var: var.to_string(),
            loops: loops.iter().map(|&l| self.line_of_loop(l)).collect(),
            distance,
            direction,
            carrier: if carrier == 0 {
                0
            } else {
                self.line_of_loop(carrier)
            },
            certainty: certainty.to_string(),
            minimal,
        })
    }
}

/// The rows as CSV with [`CSV_HEADER`].
pub fn to_csv(rows: &[DepRow]) -> String {
    let mut w = csv_line(&CSV_HEADER.map(String::from));
    for r in rows {
        w.push_str(&csv_line(&r.fields()));
    }
    w
}

fn csv_line(fields: &[String]) -> String {
    let quoted: Vec<String> = fields
        .iter()
        .map(|f| {
            if f.contains([',', '"', '\n']) {
                format!("\"{}\"", f.replace('"', "\"\""))
            } else {
                f.clone()
            }
        })
        .collect();
    quoted.join(",") + "\n"
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
        units.entry(&r.unit).or_default().push(r);
    }
    let mut out =
        String::from("digraph dependences {\n  node [shape=box, fontname=\"monospace\"];\n");
    for (i, (unit, rows)) in units.iter().enumerate() {
        out.push_str(&format!(
            "  subgraph cluster_{i} {{\n    label=\"{unit}\";\n"
        ));
        let mut nodes = BTreeSet::new();
        for r in rows {
            nodes.insert((r.src_line, r.src_col, r.var.as_str()));
            nodes.insert((r.dst_line, r.dst_col, r.var.as_str()));
        }
        for (line, col, var) in &nodes {
            out.push_str(&format!(
                "    \"{unit}:{line}:{col}\" [label=\"{var} {line}:{col}\"];\n"
            ));
        }
        for r in rows {
            let style = match r.kind.as_str() {
                "flow" => "solid",
                "anti" => "dashed",
                "output" => "bold",
                _ => "dotted",
            };
            let dir: String = r.direction.iter().collect();
            let label = if dir.is_empty() {
                r.kind.clone()
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
