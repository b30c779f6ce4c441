//! `kaiseki openmp`: the program written back with `!$OMP PARALLEL DO`
//! before every loop of `omp_loop` (rules/dl/parallel.dl), its clauses
//! from the parallelization relations (PRIVATE from `omp_private`), and
//! each induction variable set in closed form (`omp_induction`) first in
//! the body; every other line is
//! byte-identical. Nothing is decided here: the loops, clauses and
//! statements are relations.

use crate::parallel::{decisions, LoopDecision};
use crate::source_lines::{is_fixed_comment, statement_end, statement_lines};
use crate::{num, sym};
use kaiseki_facts::{FactBase, Table};
use std::collections::{BTreeMap, HashMap, HashSet};

/// What to write around one loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OmpLoop {
    /// Line of the DO statement (1-based).
    pub do_line: usize,
    /// Line of its END DO; `None` for a DO ending on a labelled statement,
    /// where OpenMP assumes the end directive.
    pub end_line: Option<usize>,
    /// `PRIVATE(T)`, `REDUCTION(+:S)`, ...
    pub clauses: Vec<String>,
    /// Statements put first in the body.
    pub prologue: Vec<String>,
    /// Statements put right after the loop (the final MOD of a `mod`
    /// reduction, `omp_epilogue`).
    pub epilogue: Vec<String>,
}

/// The units a parallel region may run: every unit called, directly or
/// through others, from a statement inside a loop of `omp_loop`, over all
/// the analyzed groups of units (the rules see one unit at a time). A
/// directive in one of them would open a region inside the caller's at
/// each call: nested, it runs on one thread and costs its start and end
/// every time, so their loops get none ([`omp_loops`]' `inside_regions`).
pub fn called_in_regions(analyzed: &[(FactBase, Vec<Table>)]) -> HashSet<String> {
    let mut callees: HashMap<&str, Vec<&str>> = HashMap::new();
    let mut from_regions: Vec<&str> = Vec::new();
    for (facts, derived) in analyzed {
        let unit_of: HashMap<i64, &str> = facts
            .stmt
            .iter()
            .map(|s| (s.stmt, s.unit.as_str()))
            .collect();
        let regions: HashSet<i64> = derived
            .iter()
            .filter(|t| t.name == "omp_loop")
            .flat_map(|t| t.rows.iter().map(|r| num(&r[0])))
            .collect();
        let in_region: HashSet<i64> = facts
            .loop_stmt
            .iter()
            .filter(|ls| regions.contains(&ls.r#loop))
            .map(|ls| ls.stmt)
            .collect();
        for c in &facts.call {
            if let Some(unit) = unit_of.get(&c.stmt) {
                callees.entry(unit).or_default().push(&c.callee);
            }
            if in_region.contains(&c.stmt) {
                from_regions.push(&c.callee);
            }
        }
    }
    let mut seen: HashSet<String> = HashSet::new();
    while let Some(unit) = from_regions.pop() {
        if seen.insert(unit.to_string()) {
            from_regions.extend(callees.get(unit).into_iter().flatten());
        }
    }
    seen
}

/// What `kaiseki openmp` was asked for beyond the directives.
#[derive(Clone, Copy, Debug, Default)]
pub struct Choices {
    /// `--transform`, which rewrites loops: the `COLLAPSE(n)` clauses of
    /// `collapse`.
    pub collapse: bool,
    /// `--every-loop`: directives on the `omp_cheap` loops too.
    pub every_loop: bool,
}

/// The loops of `file` to write directives around, in line order, but for
/// those of the units in `inside_regions` (see [`called_in_regions`]) and,
/// unless `choices.every_loop`, the loops whose work does not pay for
/// their region (`omp_cheap`).
pub fn omp_loops(
    facts: &FactBase,
    derived: &[Table],
    file: &str,
    inside_regions: &HashSet<String>,
    choices: Choices,
) -> Vec<OmpLoop> {
    let rows_of = |name: &str| {
        derived
            .iter()
            .find(|t| t.name == name)
            .map_or(&[][..], |t| &t.rows[..])
    };
    let units: HashMap<&str, &str> = facts
        .unit
        .iter()
        .map(|u| (u.unit.as_str(), u.file.as_str()))
        .collect();
    let stmts: HashMap<i64, (&str, i64, i64)> = facts
        .stmt
        .iter()
        .map(|s| (s.stmt, (s.unit.as_str(), s.line, s.col)))
        .collect();
    let ends: HashMap<i64, i64> = facts.loop_end.iter().map(|e| (e.r#loop, e.stmt)).collect();
    // Statements read from an INCLUDEd file are not in `file`'s text: a
    // loop with its DO or its end there is left as it is.
    let included: HashSet<i64> = facts.stmt_file.iter().map(|s| s.stmt).collect();
    // The text in column `col` of a relation's rows, by loop (column 0).
    let by_loop = |name: &str, col: usize| {
        let mut out: BTreeMap<i64, Vec<String>> = BTreeMap::new();
        for r in rows_of(name) {
            out.entry(num(&r[0]))
                .or_default()
                .push(sym(&r[col]).to_string());
        }
        out
    };
    let mut prologues = by_loop("omp_induction", 2);
    let mut epilogues = by_loop("omp_epilogue", 2);
    let privates = by_loop("omp_private", 1);
    let conditions = by_loop("omp_if", 1);
    // `collapse(loop, n)` (rules/dl/transform.dl): the perfect parallel
    // nest the directive shares out as one loop.
    let collapsed: HashMap<i64, i64> = rows_of("collapse")
        .iter()
        .filter(|_| choices.collapse)
        .map(|r| (num(&r[0]), num(&r[1])))
        .collect();
    let cheap: HashSet<i64> = rows_of("omp_cheap")
        .iter()
        .filter(|_| !choices.every_loop)
        .map(|r| num(&r[0]))
        .collect();
    let decided = decisions(derived);
    let mut loops: Vec<OmpLoop> = rows_of("omp_loop")
        .iter()
        .filter_map(|r| {
            let l = num(&r[0]);
            let &(unit, line, _) = stmts.get(&l)?;
            let end = ends.get(&l);
            if units.get(unit) != Some(&file)
                || inside_regions.contains(unit)
                || cheap.contains(&l)
                || included.contains(&l)
                || end.is_some_and(|e| included.contains(e))
            {
                return None;
            }
            let mut clauses = decided
                .get(&l)
                .map(|d| clauses(d, privates.get(&l).map_or(&[], Vec::as_slice)))
                .unwrap_or_default();
            if let Some(n) = collapsed.get(&l) {
                clauses.push(format!("COLLAPSE({n})"));
            }
            // An IF clause is one expression, never split: one too long
            // for a fixed-form line leaves the loop parallel at every
            // trip count.
            let width = 72 - "!$OMP& ".len();
            clauses.extend(
                conditions
                    .get(&l)
                    .into_iter()
                    .flatten()
                    .map(|c| format!("IF({c})"))
                    .filter(|c| c.len() <= width),
            );
            let prologue = prologues.remove(&l).unwrap_or_default();
            let epilogue = epilogues.remove(&l).unwrap_or_default();
            // A derived-type component is a variable of its own for the
            // analyses (`P%X`, frontend `derived`) but cannot be named in
            // a clause (`PRIVATE(P%X)` is not OpenMP), nor set in a
            // prologue as one variable: such a loop is left sequential.
            if clauses.iter().chain(&prologue).any(|c| names_component(c)) {
                return None;
            }
            let end_line = end
                .and_then(|e| stmts.get(e))
                .filter(|(_, _, col)| *col != 0)
                .map(|(_, line, _)| *line as usize);
            // An epilogue goes after the END DO; a loop ending on a
            // labelled statement (perhaps shared with other loops) is
            // left sequential rather than guessed at.
            if !epilogue.is_empty() && end_line.is_none() {
                return None;
            }
            Some(OmpLoop {
                do_line: line as usize,
                end_line,
                clauses,
                prologue,
                epilogue,
            })
        })
        .collect();
    loops.sort_by_key(|l| l.do_line);
    loops
}

/// Whether a clause or statement names a flattened derived-type component
/// (`P%X`): `%` stands nowhere else in them.
fn names_component(text: &str) -> bool {
    text.contains('%')
}

/// The data-sharing and reduction clauses of a loop's decision, with its
/// PRIVATE list (`omp_private`).
fn clauses(d: &LoopDecision, private: &[String]) -> Vec<String> {
    let list = |name: &str, vars: Vec<&String>| -> Option<String> {
        let names: Vec<&str> = vars.iter().map(|v| v.as_str()).collect();
        (!names.is_empty()).then(|| format!("{name}({})", names.join(", ")))
    };
    let mut out: Vec<String> = [
        list("PRIVATE", private.iter().collect()),
        list("FIRSTPRIVATE", d.firstprivate.iter().collect()),
        list("LASTPRIVATE", d.lastprivate.iter().collect()),
    ]
    .into_iter()
    .flatten()
    .collect();
    let mut by_op: BTreeMap<String, Vec<&String>> = BTreeMap::new();
    for (op, v) in &d.reductions {
        // A `mod` reduction adds its partial results (the final MOD is
        // the loop's epilogue).
        let op = if op == "mod" { "+" } else { op };
        by_op.entry(op.to_ascii_uppercase()).or_default().push(v);
    }
    for (op, vars) in by_op {
        let names: Vec<&str> = vars.iter().map(|v| v.as_str()).collect();
        out.push(format!("REDUCTION({op}:{})", names.join(", ")));
    }
    out
}

/// `source` with the directives and prologues of `loops` inserted; `fixed`
/// for fixed-form source (72 columns, continuation in column 6).
pub fn rewrite(source: &str, fixed: bool, loops: &[OmpLoop]) -> String {
    let lines: Vec<&str> = source.split_inclusive('\n').collect();
    let newline = if source.contains("\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    let mut before: HashMap<usize, Vec<String>> = HashMap::new();
    let mut after: HashMap<usize, Vec<String>> = HashMap::new();
    for l in loops {
        before
            .entry(l.do_line)
            .or_default()
            .extend(directive(&l.clauses, fixed));
        if !l.prologue.is_empty() {
            let last = statement_end(&lines, l.do_line, fixed);
            let indent = body_indent(&lines, last, fixed);
            for s in &l.prologue {
                after
                    .entry(last)
                    .or_default()
                    .extend(statement_lines(&indent, s, fixed));
            }
        }
        if let Some(end) = l.end_line {
            let last = statement_end(&lines, end, fixed);
            let indent = leading_indent(lines[end - 1], fixed);
            let text = after.entry(last).or_default();
            text.push("!$OMP END PARALLEL DO".to_string());
            for s in &l.epilogue {
                text.extend(statement_lines(&indent, s, fixed));
            }
        }
    }
    let mut out = String::with_capacity(source.len() + 64 * loops.len());
    for (i, line) in lines.iter().enumerate() {
        let n = i + 1;
        for d in before.get(&n).into_iter().flatten() {
            out.push_str(d);
            out.push_str(newline);
        }
        out.push_str(line);
        if let Some(extra) = after.get(&n) {
            if !line.ends_with('\n') {
                out.push_str(newline);
            }
            for e in extra {
                out.push_str(e);
                out.push_str(newline);
            }
        }
    }
    out
}

/// `!$OMP PARALLEL DO` and its clauses, one continuation line per clause
/// (split further where one would pass column 72 in fixed form).
fn directive(clauses: &[String], fixed: bool) -> Vec<String> {
    let mut out = vec!["!$OMP PARALLEL DO".to_string()];
    let limit = if fixed { 72 } else { 132 };
    for c in clauses {
        for part in split_clause(c, limit - "!$OMP& ".len()) {
            if fixed {
                out.push(format!("!$OMP& {part}"));
            } else {
                let last = out.len() - 1;
                out[last].push_str(" &");
                out.push(format!("!$OMP& {part}"));
            }
        }
    }
    out
}

/// `NAME(a, b, c)` as several clauses of the same name, each at most
/// `width` characters where the names allow.
fn split_clause(clause: &str, width: usize) -> Vec<String> {
    if clause.len() <= width || clause.starts_with("IF(") {
        return vec![clause.to_string()];
    }
    let Some(open) = clause.find('(') else {
        return vec![clause.to_string()];
    };
    // `REDUCTION(+:A, B)` keeps its `+:` in each part.
    let head_end = clause[open..].find(':').map_or(open + 1, |c| open + c + 1);
    let (head, body) = clause.split_at(head_end);
    let body = body.trim_end_matches(')');
    let mut parts: Vec<String> = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    for name in body.split(", ") {
        let len: usize = current.iter().map(|n| n.len() + 2).sum();
        if !current.is_empty() && head.len() + len + name.len() + 1 > width {
            parts.push(format!("{head}{})", current.join(", ")));
            current.clear();
        }
        current.push(name);
    }
    parts.push(format!("{head}{})", current.join(", ")));
    parts
}

/// The indentation of the statements of a body whose DO statement ends on
/// line `last`: that of the next statement line, at least the DO's.
fn body_indent(lines: &[&str], last: usize, fixed: bool) -> String {
    let next = lines[last..].iter().find(|l| {
        !(if fixed {
            is_fixed_comment(l)
        } else {
            l.trim().is_empty()
        })
    });
    leading_indent(next.copied().unwrap_or(""), fixed)
}

/// The blanks a statement written in line with `line` starts with (in
/// fixed form at least the six columns before the statement field).
fn leading_indent(line: &str, fixed: bool) -> String {
    let width = if fixed && line.starts_with('\t') {
        0
    } else {
        line.len() - line.trim_start().len()
    };
    " ".repeat(if fixed { width.max(6) } else { width })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn omp(
        do_line: usize,
        end_line: Option<usize>,
        clauses: &[&str],
        prologue: &[&str],
    ) -> OmpLoop {
        OmpLoop {
            epilogue: Vec::new(),
            do_line,
            end_line,
            clauses: clauses.iter().map(|c| c.to_string()).collect(),
            prologue: prologue.iter().map(|c| c.to_string()).collect(),
        }
    }

    #[test]
    fn free_form_directive_wraps_the_loop_and_keeps_other_lines() {
        let src = "program p\n  do i = 1, n\n    s = s + a(i)\n  end do\nend\n";
        let out = rewrite(src, false, &[omp(2, Some(4), &["REDUCTION(+:S)"], &[])]);
        assert_eq!(
            out,
            "program p\n!$OMP PARALLEL DO &\n!$OMP& REDUCTION(+:S)\n  do i = 1, n\n    s = s + a(i)\n  end do\n!$OMP END PARALLEL DO\nend\n"
        );
    }

    #[test]
    fn fixed_form_prologue_follows_the_do_and_its_continuation() {
        let src = "      DO 10 I = 1,\n     &  N\n        K = K + 2\n   10 CONTINUE\n      END\n";
        let out = rewrite(
            src,
            true,
            &[omp(1, None, &["LASTPRIVATE(K)"], &["K = 0 + 2*(I - (1))"])],
        );
        assert_eq!(
            out,
            "!$OMP PARALLEL DO\n!$OMP& LASTPRIVATE(K)\n      DO 10 I = 1,\n     &  N\n        K = 0 + 2*(I - (1))\n        K = K + 2\n   10 CONTINUE\n      END\n"
        );
    }

    #[test]
    fn long_clauses_split_within_72_columns() {
        let vars: Vec<String> = (0..20).map(|i| format!("VARIABLE{i}")).collect();
        let clause = format!("PRIVATE({})", vars.join(", "));
        let lines = directive(&[clause], true);
        assert!(lines.len() > 3, "{lines:?}");
        assert!(lines.iter().all(|l| l.len() <= 72), "{lines:?}");
        let named: Vec<&str> = lines[1..]
            .iter()
            .flat_map(|l| l["!$OMP& PRIVATE(".len()..l.len() - 1].split(", "))
            .collect();
        assert_eq!(named, vars.iter().map(String::as_str).collect::<Vec<_>>());
    }

    #[test]
    fn reduction_clauses_group_variables_by_operator() {
        let mut d = LoopDecision::default();
        for (op, v) in [("+", "S"), ("max", "XMAX"), ("+", "T")] {
            d.reductions.insert((op.into(), v.into()));
        }
        d.lastprivate.insert("L".into());
        assert_eq!(
            clauses(&d, &["W".to_string()]),
            [
                "PRIVATE(W)",
                "LASTPRIVATE(L)",
                "REDUCTION(+:S, T)",
                "REDUCTION(MAX:XMAX)"
            ]
        );
    }
}
