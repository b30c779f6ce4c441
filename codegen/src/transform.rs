//! `kaiseki openmp --transform`: the loops `rules/dl/transform.dl` decides
//! to align (`align_offset`), distribute (`distribute_part`), interchange
//! (`interchange`), peel (`peel`), fuse (`fuse`), skew (`skew`) or whose
//! reads to rename (`split_read`), rewritten from the
//! syntax tree; every other line is
//! copied byte for byte. Nothing is decided here: which loop, which
//! offsets and parts are relations, and the program written is judged
//! again for its directives (`kaiseki openmp` on it).
//!
//! - Alignment: iteration I of the aligned loop runs instance I + o of a
//!   statement of offset o, in the order of those instances in the
//!   original run (by offset, then program order); the instances before
//!   the first iteration and after the last are peeled, written out with
//!   the DO variable replaced by their values. A loop whose trip count is
//!   not known to cover the largest offset keeps its original form for
//!   short runs, behind an IF.
//! - Distribution: one loop per part, over the same iterations, each with
//!   the statements (and the comment lines before them) of its part, in
//!   program order within it.
//! - Interchange: the two DO statements swap their variables and bounds.
//! - Peeling: the first (last) iteration's assignments written before
//!   (after) the rest of the loop with the DO variable replaced by the
//!   bound, behind an IF unless the loop is known to run.
//! - Fusion: the second loop's body (and the comment lines between the
//!   two) after the first's, under the first's header, one END DO.
//! - Skewing (`skew`): `DO K` over the sums of the two DO variables, the
//!   inner loop over the iterations of one hyperplane (`MAX`, `MIN` of
//!   the bounds), the outer DO variable replaced by `K - I`.
//! - Node splitting (`split_read`): before the loop, an allocatable copy
//!   of the elements each renamed read reaches (`split_dim`: the section
//!   its subscripts sweep, or the whole array), which the read then names
//!   instead of the array; the copy is freed after the loop.

use crate::fortran_writer::{
    all_loops, binary, check_lines, declarations_line, expr, indent_of, last_line, renamed,
    shifted, splice, terminal, DoLoop as Header, Temps,
};
use crate::scalar_replace::declared_type;
use crate::source_lines::{statement_end, statement_lines};
use crate::{num, sym};
use kaiseki_facts::{FactBase, Table};
use kaiseki_frontend::ast::{BinOp, Expr, ExprKind, FileId, LoopEnd, Program, Stmt, StmtKind};
use kaiseki_frontend::fold::text_as_written;
use kaiseki_frontend::symbols::Symbols;
use std::collections::{BTreeMap, HashMap, HashSet};

/// What to do with one loop; statements are named by line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rewrite {
    /// The offset of each assignment of the body, and whether the loop's
    /// trip count is known (`loop_trip`): then `transform.dl` aligned it
    /// only if it covers the offsets, and no IF keeps the original loop.
    Align(HashMap<(u32, u32), i64>, bool),
    /// The part (from 1) of each assignment and inner DO of the body.
    Distribute(HashMap<(u32, u32), i64>),
    /// Swap with the DO loop inside.
    Interchange,
    /// Peel the first iteration (`true`) or the last, and whether the
    /// loop's trip count is known (then it is at least 1: no IF guards
    /// the peeled iteration).
    Peel(bool, bool),
    /// Take in the body of the DO loop at this line (the next statement),
    /// whose lines are then dropped.
    Fuse(u32),
    /// The lines of a loop fused into the one before it.
    Fused,
    /// Rename these reads to copies taken before the loop.
    Split(Vec<SplitRead>),
    /// Run the nest with the DO loop inside along its hyperplanes.
    Skew,
}

/// A read of an array element that reads a copy of the array instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitRead {
    /// Where the array's name stands (line, column).
    pub at: (u32, u32),
    /// For each dimension, how far its subscript moves from one iteration
    /// to the next: the copy's section runs from the subscript's value in
    /// the first iteration to its value in the last (the other way round
    /// where negative). `None`: the whole array is copied.
    pub moves: Option<Vec<i64>>,
}

/// The rewritings of the loops of one group of units, by unit name and
/// line of the DO statement; loops with a statement read from an
/// INCLUDEd file are left out (only the given file is written).
pub fn rewrites(facts: &FactBase, derived: &[Table]) -> HashMap<(String, u32), Rewrite> {
    let rows_of = |name: &str| {
        derived
            .iter()
            .find(|t| t.name == name)
            .map_or(&[][..], |t| &t.rows[..])
    };
    let stmts: HashMap<i64, (&str, u32, u32)> = facts
        .stmt
        .iter()
        .map(|s| (s.stmt, (s.unit.as_str(), s.line as u32, s.col as u32)))
        .collect();
    let included: HashSet<i64> = facts.stmt_file.iter().map(|s| s.stmt).collect();
    let mut touches_include: HashSet<i64> = facts
        .loop_stmt
        .iter()
        .filter(|ls| included.contains(&ls.stmt))
        .map(|ls| ls.r#loop)
        .collect();
    touches_include.extend(included.iter().copied());
    let key = |l: i64| -> Option<(String, u32)> {
        let &(unit, line, _) = stmts.get(&l)?;
        (!touches_include.contains(&l)).then(|| (unit.to_string(), line))
    };
    let trips: HashSet<i64> = facts.loop_trip.iter().map(|t| t.r#loop).collect();
    let runs: HashSet<i64> = facts
        .loop_trip
        .iter()
        .filter(|t| t.trip >= 1)
        .map(|t| t.r#loop)
        .collect();
    let mut out: HashMap<(String, u32), Rewrite> = HashMap::new();
    for (relation, align) in [("align_offset", true), ("distribute_part", false)] {
        for r in rows_of(relation) {
            let (Some(k), Some(&(_, line, col))) = (key(num(&r[0])), stmts.get(&num(&r[1]))) else {
                continue;
            };
            let entry = out.entry(k).or_insert_with(|| {
                if align {
                    Rewrite::Align(HashMap::new(), trips.contains(&num(&r[0])))
                } else {
                    Rewrite::Distribute(HashMap::new())
                }
            });
            if let Rewrite::Align(m, _) | Rewrite::Distribute(m) = entry {
                m.insert((line, col), num(&r[2]));
            }
        }
    }
    for r in rows_of("interchange") {
        if let Some(k) = key(num(&r[0])) {
            out.insert(k, Rewrite::Interchange);
        }
    }
    for r in rows_of("skew") {
        if let Some(k) = key(num(&r[0])) {
            out.insert(k, Rewrite::Skew);
        }
    }
    for r in rows_of("peel") {
        if let Some(k) = key(num(&r[0])) {
            let first = sym(&r[1]) == "first";
            out.insert(k, Rewrite::Peel(first, runs.contains(&num(&r[0]))));
        }
    }
    let ref_pos: HashMap<i64, (u32, u32)> = facts
        .ref_pos
        .iter()
        .map(|p| (p.r#ref, (p.line as u32, p.col as u32)))
        .collect();
    let mut moves: HashMap<i64, BTreeMap<i64, i64>> = HashMap::new();
    for r in rows_of("split_dim") {
        moves
            .entry(num(&r[1]))
            .or_default()
            .insert(num(&r[2]), num(&r[3]));
    }
    for r in rows_of("split_read") {
        let (Some(k), Some(&at)) = (key(num(&r[0])), ref_pos.get(&num(&r[1]))) else {
            continue;
        };
        let read = SplitRead {
            at,
            moves: moves
                .get(&num(&r[1]))
                .map(|m| m.values().copied().collect()),
        };
        if let Rewrite::Split(reads) = out.entry(k).or_insert(Rewrite::Split(Vec::new())) {
            reads.push(read);
            reads.sort_by_key(|r| r.at);
        }
    }
    for r in rows_of("fuse") {
        if let (Some(k), Some(second)) = (key(num(&r[0])), key(num(&r[1]))) {
            out.insert(k, Rewrite::Fuse(second.1));
            out.insert(second, Rewrite::Fused);
        }
    }
    out
}

/// The `transform` rows of each loop, by loop id: the report's column.
pub fn report(derived: &[Table]) -> BTreeMap<i64, Vec<String>> {
    let mut out: BTreeMap<i64, Vec<String>> = BTreeMap::new();
    for t in derived.iter().filter(|t| t.name == "transform") {
        for r in &t.rows {
            out.entry(num(&r[0]))
                .or_default()
                .push(sym(&r[1]).to_string());
        }
    }
    out.values_mut().for_each(|v| v.sort());
    out
}

/// The rewritten source and how many loops were rewritten.
#[derive(Debug, Default)]
pub struct Transformed {
    pub text: String,
    pub loops: usize,
}

/// `source` (the file `file` of `program`) with the loops of `rewrites`
/// rewritten; a loop inside one rewritten is left as it is.
pub fn emit(
    program: &Program,
    file: FileId,
    source: &str,
    fixed: bool,
    rewrites: &HashMap<(String, u32), Rewrite>,
) -> Transformed {
    let lines: Vec<&str> = source.split_inclusive('\n').collect();
    let mut replaced: Vec<(usize, usize, Vec<String>)> = Vec::new();
    let mut declared: Vec<(usize, Vec<String>)> = Vec::new();
    let mut out = Transformed::default();
    let temps = Temps::new(source);
    let unit_names = program.procedure_names();
    let mut made = 0;
    for unit in &program.units {
        let (syms, _) = Symbols::build(unit, &unit_names);
        let mut added = Temporaries {
            temps: &temps,
            syms: &syms,
            made,
            declared: Vec::new(),
        };
        let mut done: Vec<&Stmt> = Vec::new();
        for (l, around) in all_loops(&unit.body, &[]) {
            if l.pos.file != file
                || around
                    .iter()
                    .any(|a| done.iter().any(|d| std::ptr::eq(*a, *d)))
            {
                continue;
            }
            let Some(rewrite) = rewrites.get(&(unit.name.text.clone(), l.pos.line)) else {
                continue;
            };
            // A fused loop's lines go with the loop before it.
            let next = match rewrite {
                Rewrite::Fused => continue,
                Rewrite::Fuse(line) => {
                    let Some((n, _)) = all_loops(&unit.body, &[])
                        .into_iter()
                        .find(|(n, _)| n.pos.file == file && n.pos.line == *line)
                    else {
                        continue;
                    };
                    Some(n)
                }
                _ => None,
            };
            // A flattened derived-type component (`P%X`) is no Fortran
            // to write back (as in `unroll_emit`).
            if format!("{l:?}").contains('%') {
                continue;
            }
            let Some(new) = rewritten(l, next, &around, rewrite, &lines, fixed, &mut added) else {
                continue;
            };
            replaced.extend(new);
            done.push(l);
            out.loops += 1;
        }
        made = added.made;
        if let Some(at) = declarations_line(unit, file).filter(|_| !added.declared.is_empty()) {
            let indent = if fixed { "      " } else { "" };
            let lines = added
                .declared
                .iter()
                .flat_map(|d| statement_lines(indent, d, fixed));
            declared.push((at, lines.collect()));
        }
    }
    replaced.sort_by_key(|r| r.0);
    out.text = splice(&lines, source, &replaced, &declared);
    out
}

/// The variables a unit's rewritten loops add: the copies renamed reads
/// read, the DO variables of skewed nests; their names (one numbering for
/// the file) and declarations.
struct Temporaries<'a> {
    temps: &'a Temps,
    syms: &'a Symbols<'a>,
    made: usize,
    declared: Vec<String>,
}

impl Temporaries<'_> {
    fn name(&mut self, what: char) -> String {
        self.made += 1;
        self.temps.name(what, self.made - 1)
    }

    /// A copy of `array` of the given rank: allocatable, of its element's
    /// type (none for a CHARACTER array).
    fn copy(&mut self, array: &str, rank: usize) -> Option<String> {
        let ty = declared_type(array, self.syms)?;
        let name = self.name('C');
        let shape = vec![":"; rank].join(",");
        self.declared
            .push(format!("{ty}, ALLOCATABLE :: {name}({shape})"));
        Some(name)
    }

    /// A new INTEGER variable.
    fn integer(&mut self) -> String {
        let name = self.name('K');
        self.declared.push(format!("INTEGER {name}"));
        name
    }
}

/// The name and subscripts of the array element at `at` (line, column)
/// in the assignments of `body`.
fn element_at(body: &[Stmt], at: (u32, u32)) -> Option<(String, Vec<Expr>)> {
    let mut found = None;
    for s in body {
        if let StmtKind::Assign { lhs, rhs } = &s.kind {
            for e in [lhs, rhs] {
                e.clone().for_each_apply_mut(&mut |pos, name, args| {
                    if (pos.line, pos.col) == at {
                        found = Some((name.clone(), args.clone()));
                    }
                });
            }
        }
    }
    found
}

/// A DO statement the writer rewrites: not of a named construct, no
/// INDEPENDENT before it.
fn header(s: &Stmt) -> Option<Header<'_>> {
    let plain = matches!(
        &s.kind,
        StmtKind::Do {
            construct: None,
            independent: None,
            ..
        }
    );
    Header::of(s).filter(|_| plain)
}

impl Header<'_> {
    /// `DO VAR = lower, upper[, step]` with another upper bound if given.
    fn text(&self, label: Option<u32>, upper: Option<&Expr>) -> String {
        let label = label.map_or(String::new(), |l| format!(" {l}"));
        format!(
            "DO{label} {} = {}, {}{}",
            self.var,
            text_as_written(self.lower),
            text_as_written(upper.unwrap_or(self.upper)),
            step_text(self)
        )
    }
}

/// `, step` as written, or nothing.
fn step_text(h: &Header<'_>) -> String {
    h.step
        .map_or(String::new(), |s| format!(", {}", text_as_written(s)))
}

/// The lines of a loop's body as written, from the line after its DO
/// statement to the line before its END DO or its terminal CONTINUE (a
/// terminal that does something is part of the body), 1-based, inclusive.
fn body_lines(l: &Stmt, lines: &[&str], fixed: bool) -> (usize, usize) {
    let from = statement_end(lines, l.pos.line as usize, fixed) + 1;
    let end = last_line(l);
    let to = match l_end(l) {
        LoopEnd::Label(_) if !matches!(terminal(l).kind, StmtKind::Continue) => {
            statement_end(lines, end, fixed)
        }
        _ => end - 1,
    };
    (from, to)
}

/// Lines `from..=to` (1-based) without their line ends.
fn copied(lines: &[&str], from: usize, to: usize) -> Vec<String> {
    lines[from - 1..to.max(from - 1)]
        .iter()
        .map(|t| t.trim_end_matches(['\n', '\r']).to_string())
        .collect()
}

/// The replaced line ranges and their new lines for one loop, or `None`
/// when its text cannot be rewritten (a DO statement with a label of its
/// own, a terminal shared with a loop around it that does something, `;`
/// joining statements). `next` is the loop a fusion takes in.
fn rewritten(
    l: &Stmt,
    next: Option<&Stmt>,
    around: &[&Stmt],
    rewrite: &Rewrite,
    lines: &[&str],
    fixed: bool,
    added: &mut Temporaries,
) -> Option<Vec<(usize, usize, Vec<String>)>> {
    let h = header(l)?;
    let first = l.pos.line as usize;
    let end = last_line(l);
    let last = match around.iter().find(|a| last_line(a) == end) {
        None => statement_end(lines, end, fixed),
        Some(_) if matches!(terminal(l).kind, StmtKind::Continue) => end - 1,
        Some(_) => return None,
    };
    if l.label.is_some() || check_lines(lines, first, last, fixed).is_err() {
        return None;
    }
    let indent = indent_of(lines[first - 1], fixed);
    let inner = format!("{indent}  ");
    let stmt = |out: &mut Vec<String>, indent: &str, text: &str| {
        out.extend(statement_lines(indent, text, fixed));
    };
    let header_end = statement_end(lines, first, fixed);
    match rewrite {
        Rewrite::Interchange => {
            let m = h.body.iter().find(|s| header(s).is_some())?;
            let hm = header(m)?;
            let m_first = m.pos.line as usize;
            let m_end = statement_end(lines, m_first, fixed);
            if m.label.is_some() || check_lines(lines, m_first, m_end, fixed).is_err() {
                return None;
            }
            let (ll, ml) = (loop_label(l), loop_label(m));
            let mut outer = Vec::new();
            stmt(&mut outer, &indent, &hm.text(ll, None));
            let mut nested = Vec::new();
            stmt(
                &mut nested,
                &indent_of(lines[m_first - 1], fixed),
                &h.text(ml, None),
            );
            Some(vec![(first, header_end, outer), (m_first, m_end, nested)])
        }
        Rewrite::Fused => None,
        Rewrite::Skew => {
            // DO K over the sums of the two DO variables, DO I over one
            // hyperplane's iterations, the outer variable J = K - I.
            let m = h.body.iter().find(|s| header(s).is_some())?;
            let hm = header(m)?;
            if m.label.is_some() {
                return None;
            }
            let k = expr(ExprKind::Var(added.integer()));
            let text = |e: Expr| text_as_written(&e);
            let sum = |a: &Expr, b: &Expr| text(binary(BinOp::Add, a.clone(), b.clone()));
            let minus = |b: &Expr| text(binary(BinOp::Sub, k.clone(), b.clone()));
            let mut out = Vec::new();
            let k_text = text(k.clone());
            let outer = format!(
                "DO {k_text} = {}, {}",
                sum(h.lower, hm.lower),
                sum(h.upper, hm.upper)
            );
            stmt(&mut out, &indent, &outer);
            let plane = format!(
                "DO {} = MAX({}, {}), MIN({}, {})",
                hm.var,
                text_as_written(hm.lower),
                minus(h.upper),
                text_as_written(hm.upper),
                minus(h.lower)
            );
            stmt(&mut out, &inner, &plane);
            let j = binary(
                BinOp::Sub,
                k.clone(),
                expr(ExprKind::Var(hm.var.to_string())),
            );
            let shifts = HashMap::from([(h.var, j)]);
            out.extend(assignments(hm.body, &format!("{inner}  "), fixed, &|e| {
                shifted(e, &shifts)
            })?);
            stmt(&mut out, &inner, "END DO");
            stmt(&mut out, &indent, "END DO");
            Some(vec![(first, last, out)])
        }
        Rewrite::Split(reads) => {
            // Each copy allocated over its section and filled, the loop
            // with the reads renamed, the copies freed.
            let mut out = Vec::new();
            let mut names = HashMap::new();
            for read in reads {
                let (array, subscripts) = element_at(h.body, read.at)?;
                let name = added.copy(&array, subscripts.len())?;
                let bounds: Vec<String> = match &read.moves {
                    None => (1..=subscripts.len())
                        .map(|d| format!("LBOUND({array},{d}):UBOUND({array},{d})"))
                        .collect(),
                    Some(moves) => moves
                        .iter()
                        .zip(&subscripts)
                        .map(|(&m, s)| {
                            let at = |bound: &Expr| {
                                text_as_written(&shifted(
                                    s,
                                    &HashMap::from([(h.var, bound.clone())]),
                                ))
                            };
                            let (from, to) = (at(h.lower), at(h.upper));
                            if m < 0 {
                                format!("{to}:{from}")
                            } else {
                                format!("{from}:{to}")
                            }
                        })
                        .collect(),
                };
                let bounds = bounds.join(", ");
                stmt(&mut out, &indent, &format!("ALLOCATE ({name}({bounds}))"));
                let source = match read.moves {
                    None => array,
                    Some(_) => format!("{array}({bounds})"),
                };
                stmt(&mut out, &indent, &format!("{name} = {source}"));
                names.insert(read.at, name);
            }
            stmt(&mut out, &indent, &h.text(None, None));
            out.extend(assignments(h.body, &inner, fixed, &|e| renamed(e, &names))?);
            stmt(&mut out, &indent, "END DO");
            let mut freed: Vec<&String> = names.values().collect();
            freed.sort();
            let freed: Vec<&str> = freed.iter().map(|n| n.as_str()).collect();
            stmt(
                &mut out,
                &indent,
                &format!("DEALLOCATE ({})", freed.join(", ")),
            );
            Some(vec![(first, last, out)])
        }
        Rewrite::Fuse(_) => {
            // The first loop's header and body, the lines between the two
            // loops (comments), the second loop's body, one END DO.
            let m = next?;
            let hm = header(m)?;
            let m_last = statement_end(lines, last_line(m), fixed);
            if m.label.is_some() || check_lines(lines, m.pos.line as usize, m_last, fixed).is_err()
            {
                return None;
            }
            let (from, to) = body_lines(l, lines, fixed);
            let (m_from, m_to) = body_lines(m, lines, fixed);
            let mut out = Vec::new();
            stmt(&mut out, &indent, &h.text(None, None));
            out.extend(copied(lines, from, to));
            out.extend(copied(lines, last + 1, hm.stmt.pos.line as usize - 1));
            out.extend(copied(lines, m_from, m_to));
            stmt(&mut out, &indent, "END DO");
            Some(vec![(first, m_last, out)])
        }
        Rewrite::Peel(first_iteration, runs) => {
            // The peeled iteration's assignments with the DO variable
            // replaced by the bound, behind an IF unless the loop is known
            // to run; the rest of the loop as written.
            let (from, to) = body_lines(l, lines, fixed);
            let bound = if *first_iteration { h.lower } else { h.upper };
            let shifts = HashMap::from([(h.var, bound.clone())]);
            let at = if *runs { indent.clone() } else { inner.clone() };
            let mut peeled = assignments(h.body, &at, fixed, &|e| shifted(e, &shifts))?;
            if !*runs {
                let test = format!(
                    "IF (({}) .LE. ({})) THEN",
                    text_as_written(h.lower),
                    text_as_written(h.upper)
                );
                let mut guarded = Vec::new();
                stmt(&mut guarded, &indent, &test);
                guarded.append(&mut peeled);
                stmt(&mut guarded, &indent, "END IF");
                peeled = guarded;
            }
            let one = expr(ExprKind::Int(1));
            let rest = if *first_iteration {
                let lower = binary(BinOp::Add, h.lower.clone(), one);
                format!(
                    "DO {} = {}, {}{}",
                    h.var,
                    text_as_written(&lower),
                    text_as_written(h.upper),
                    step_text(&h)
                )
            } else {
                let upper = binary(BinOp::Sub, h.upper.clone(), one);
                h.text(None, Some(&upper))
            };
            let mut out = Vec::new();
            if *first_iteration {
                out.append(&mut peeled);
            }
            stmt(&mut out, &indent, &rest);
            out.extend(copied(lines, from, to));
            stmt(&mut out, &indent, "END DO");
            if !*first_iteration {
                out.append(&mut peeled);
            }
            Some(vec![(first, last, out)])
        }
        Rewrite::Distribute(parts) => {
            // Each node with the lines from the end of the one before it.
            let mut by_part: BTreeMap<i64, Vec<String>> = BTreeMap::new();
            let mut from = header_end + 1;
            let nodes: Vec<&Stmt> = h
                .body
                .iter()
                .filter(|s| !matches!(s.kind, StmtKind::Continue))
                .collect();
            for (i, s) in nodes.iter().enumerate() {
                let part = *parts.get(&(s.pos.line, s.pos.col))?;
                let mut to = statement_end(lines, last_line(s), fixed);
                if i + 1 == nodes.len() && to < last && matches!(l_end(l), LoopEnd::EndDo { .. }) {
                    to = last - 1;
                }
                by_part
                    .entry(part)
                    .or_default()
                    .extend(copied(lines, from, to));
                from = to + 1;
            }
            let mut out = Vec::new();
            for body in by_part.values() {
                stmt(&mut out, &indent, &h.text(None, None));
                out.extend(body.iter().cloned());
                stmt(&mut out, &indent, "END DO");
            }
            Some(vec![(first, last, out)])
        }
        Rewrite::Align(offsets, trips_known) => {
            let mut body: Vec<(i64, usize, &Expr, &Expr)> = Vec::new();
            for (pos, s) in h.body.iter().enumerate() {
                match &s.kind {
                    StmtKind::Assign { lhs, rhs } => {
                        body.push((*offsets.get(&(s.pos.line, s.pos.col))?, pos, lhs, rhs))
                    }
                    StmtKind::Continue => {}
                    _ => return None,
                }
            }
            body.sort_by_key(|&(o, pos, _, _)| (o, pos));
            let shift = body.iter().map(|b| b.0).max()?;
            let var = expr(ExprKind::Var(h.var.to_string()));
            let plus = |base: &Expr, n: i64| {
                if n == 0 {
                    base.clone()
                } else {
                    binary(BinOp::Add, base.clone(), expr(ExprKind::Int(n)))
                }
            };
            let write =
                |out: &mut Vec<String>, indent: &str, at: &Expr, s: &(i64, usize, &Expr, &Expr)| {
                    let shifts = HashMap::from([(h.var, at.clone())]);
                    let text = format!(
                        "{} = {}",
                        text_as_written(&shifted(s.2, &shifts)),
                        text_as_written(&shifted(s.3, &shifts))
                    );
                    stmt(out, indent, &text);
                };
            let mut out = Vec::new();
            let inner = if *trips_known {
                indent.clone()
            } else {
                let guarded = format!(
                    "IF (({}) - ({}) .GE. {}) THEN",
                    text_as_written(h.upper),
                    text_as_written(h.lower),
                    shift - 1
                );
                stmt(&mut out, &indent, &guarded);
                inner
            };
            // Iterations lower - shift .. lower - 1: the instances before
            // the first iteration of the statements shifted.
            for k in 0..shift {
                for s in body.iter().filter(|s| s.0 >= shift - k) {
                    write(&mut out, &inner, &plus(h.lower, k - shift + s.0), s);
                }
            }
            let core_upper = binary(BinOp::Sub, h.upper.clone(), expr(ExprKind::Int(shift)));
            stmt(&mut out, &inner, &h.text(None, Some(&core_upper)));
            for s in &body {
                write(&mut out, &format!("{inner}  "), &plus(&var, s.0), s);
            }
            stmt(&mut out, &inner, "END DO");
            // Iterations upper - shift + 1 .. upper: the instances after
            // the last iteration of the statements not shifted as far.
            for k in 1..=shift {
                for s in body.iter().filter(|s| s.0 <= shift - k) {
                    write(&mut out, &inner, &plus(h.upper, k - shift + s.0), s);
                }
            }
            if !trips_known {
                stmt(&mut out, &indent, "ELSE");
                out.extend(copied(lines, first, last));
                stmt(&mut out, &indent, "END IF");
            }
            Some(vec![(first, last, out)])
        }
    }
}

/// The assignments of a loop body written at `indent`, both sides of each
/// rebuilt by `rebuild`; `None` when the body holds another statement
/// than an assignment or CONTINUE.
fn assignments(
    body: &[Stmt],
    indent: &str,
    fixed: bool,
    rebuild: &dyn Fn(&Expr) -> Expr,
) -> Option<Vec<String>> {
    let mut out = Vec::new();
    for s in body {
        match &s.kind {
            StmtKind::Assign { lhs, rhs } => {
                let text = format!(
                    "{} = {}",
                    text_as_written(&rebuild(lhs)),
                    text_as_written(&rebuild(rhs))
                );
                out.extend(statement_lines(indent, &text, fixed));
            }
            StmtKind::Continue => {}
            _ => return None,
        }
    }
    Some(out)
}

/// The label a labelled DO statement names (`DO 10 I = ...`).
fn loop_label(s: &Stmt) -> Option<u32> {
    match l_end(s) {
        LoopEnd::Label(n) => Some(*n),
        _ => None,
    }
}

fn l_end(s: &Stmt) -> &LoopEnd {
    match &s.kind {
        StmtKind::Do { end, .. } | StmtKind::DoWhile { end, .. } => end,
        _ => unreachable!("a DO statement"),
    }
}
