//! `kaiseki unroll --emit`: the program with every loop nest unrolled and
//! jammed at the factors of the decision `unroll_choice` (or forced ones),
//! rebuilt from the syntax tree; every line outside those nests is copied
//! byte for byte.
//!
//! A loop of trip count T unrolled k times becomes a main loop of T/k
//! iterations, each running the k copies of its body, and a remainder
//! loop of T mod k iterations running one copy; its bounds are saved in
//! integer temporaries first, as Fortran evaluates them once. The copies of
//! the innermost body are written in the original order of their
//! iterations, the outer loops' copies first (unroll-and-jam). That is a
//! legal reordering for the fully permutable bands `unroll.dl` accepts; a
//! nest it blocks is left as it is, with its reasons as a warning. An outer
//! loop is not jammed (factor 1, with a warning) when an inner loop's
//! bounds change with it (a triangular nest) or with what the nest
//! assigns, or when statements stand beside an inner loop.

use crate::fortran_writer::{
    all_loops, binary, check_lines, declarations_line, expr, indent_of, last_line, shifted, splice,
    terminal, DoLoop as Loop, Temps,
};
use crate::scalar_replace::{self, Assignment};
use crate::source_lines::{statement_end, statement_lines};
use crate::unroll::UnrollRow;
use kaiseki_frontend::ast::{BinOp, Expr, ExprKind, FileId, Program, Stmt, StmtKind, IMPLIED_DO};
use kaiseki_frontend::fold::{fold_int, text_as_written, Const};
use kaiseki_frontend::symbols::Symbols;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// Something the writer did not do as asked, at a line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    pub line: usize,
    pub col: usize,
    pub message: String,
}

/// The rewritten source, what was left undone, and how many nests changed.
#[derive(Debug, Default)]
pub struct Emitted {
    pub text: String,
    pub warnings: Vec<Warning>,
    pub unrolled: usize,
}

/// One loop of a band (a `DoLoop`).
impl Loop<'_> {
    fn line(&self) -> usize {
        self.stmt.pos.line as usize
    }

    /// The step when it is an integer literal (`-2`, or none: 1).
    fn literal_step(&self) -> Option<i64> {
        self.step.map_or(Some(1), |s| {
            fold_int(s, &HashMap::<String, Const>::new()).filter(|&n| n != 0)
        })
    }

    /// The lower bound, trip count and step when all are literals.
    fn constant_trips(&self) -> Option<(i64, i64, i64)> {
        let none = HashMap::<String, Const>::new();
        let (lo, hi) = (fold_int(self.lower, &none)?, fold_int(self.upper, &none)?);
        let s = self.literal_step()?;
        Some((lo, ((hi - lo + s) / s).max(0), s))
    }
}

/// `source` (the file `file` of `program`) with the nests of `rows`
/// unrolled and jammed; `forced` replaces every decided vector (truncated
/// or padded with 1 to the band's depth).
pub fn emit(
    program: &Program,
    file: FileId,
    source: &str,
    fixed: bool,
    rows: &[UnrollRow],
    forced: Option<&[i64]>,
) -> Emitted {
    let lines: Vec<&str> = source.split_inclusive('\n').collect();
    let by_line: HashMap<(&str, i64), &UnrollRow> = rows
        .iter()
        .map(|r| ((r.unit.as_str(), r.nest_line), r))
        .collect();
    let temps = Temps::new(source);
    let unit_names = program.procedure_names();
    let mut out = Emitted::default();
    // Lines replaced (first, last, new lines) and declarations inserted
    // before a line.
    let mut replaced: Vec<(usize, usize, Vec<String>)> = Vec::new();
    let mut declared: Vec<(usize, Vec<String>)> = Vec::new();
    for unit in &program.units {
        let (syms, _) = Symbols::build(unit, &unit_names);
        let mut used = BTreeSet::new();
        let mut values = Vec::new();
        for (nest, around) in all_loops(&unit.body, &[]) {
            if nest.pos.file != file {
                continue;
            }
            let Some(row) = by_line.get(&(unit.name.text.as_str(), i64::from(nest.pos.line)))
            else {
                continue;
            };
            let warn = |out: &mut Emitted, message: String| {
                out.warnings.push(Warning {
                    line: nest.pos.line as usize,
                    col: nest.pos.col as usize,
                    message,
                })
            };
            // A flattened derived-type component (`P%X(J, I)` for
            // `P(I)%X(J)`, frontend `derived`) is no Fortran to write
            // back: such a nest is left as written. (Debug text: a `%`
            // in a character constant only leaves a nest more.)
            if format!("{nest:?}").contains('%') {
                let why = "it references derived-type components, which are not written back";
                warn(&mut out, format!("loop nest left as it is: {why}"));
                continue;
            }
            let last = match nest_end(nest, &around, &lines, fixed) {
                Ok(last) => last,
                Err(why) => {
                    warn(&mut out, format!("loop nest left as it is: {why}"));
                    continue;
                }
            };
            let plan = plan(nest, row, forced, &syms, &lines, fixed);
            let (band, factors, notes) = match plan {
                Ok(p) => p,
                Err(why) => {
                    warn(&mut out, format!("loop nest left as it is: {why}"));
                    continue;
                }
            };
            for n in notes {
                warn(&mut out, n);
            }
            if factors.iter().all(|&k| k == 1) {
                continue;
            }
            let first = band[0].line();
            let mut w = Writer {
                fixed,
                indent: indent_of(lines[first - 1], fixed),
                temps: &temps,
                syms: &syms,
                used: &mut used,
                values: &mut values,
                out: Vec::new(),
            };
            if let Some(label) = nest.label {
                w.out.push(if fixed {
                    format!("{label:<5} {}CONTINUE", &w.indent[6..])
                } else {
                    format!("{}{label} CONTINUE", w.indent)
                });
            }
            w.emit_loop(&band, &factors, 0, &[vec![]], 0);
            replaced.push((first, last, w.out));
            out.unrolled += 1;
        }
        let mut types: BTreeMap<String, Vec<String>> = BTreeMap::new();
        if !used.is_empty() {
            types.insert("INTEGER".into(), used.into_iter().collect());
        }
        for (ty, name) in values {
            types.entry(ty).or_default().push(name);
        }
        if let Some(at) = declarations_line(unit, file).filter(|_| !types.is_empty()) {
            let indent = if fixed { "      " } else { "" };
            let lines = types.iter().flat_map(|(ty, names)| {
                statement_lines(indent, &format!("{ty} {}", names.join(", ")), fixed)
            });
            declared.push((at, lines.collect()));
        }
    }
    out.text = splice(&lines, source, &replaced, &declared);
    out
}

/// The band of a nest, the factors to apply and notes on loops not jammed.
type Plan<'a> = (Vec<Loop<'a>>, Vec<i64>, Vec<String>);

/// The band of `nest`, the factors to apply and notes on loops not jammed,
/// or why the nest stays as it is.
fn plan<'a>(
    nest: &'a Stmt,
    row: &UnrollRow,
    forced: Option<&[i64]>,
    syms: &Symbols,
    lines: &[&str],
    fixed: bool,
) -> Result<Plan<'a>, String> {
    if row.stop == "not-permutable" {
        return Err(format!(
            "not a fully permutable band ({})",
            row.blockers.join("; ")
        ));
    }
    let mut band = vec![Loop::of(nest).ok_or("not a DO loop")?];
    for &line in row.loops.iter().skip(1) {
        let inner = band[band.len() - 1]
            .body
            .iter()
            .filter_map(Loop::of)
            .find(|l| l.line() as i64 == line)
            .ok_or(format!("no loop on line {line} in the band"))?;
        band.push(inner);
    }
    let depth = band.len();
    let mut k: Vec<i64> = match forced {
        Some(f) => (0..depth).map(|i| f.get(i).copied().unwrap_or(1)).collect(),
        None => row
            .factors
            .split(';')
            .map(|x| x.parse().unwrap_or(1))
            .collect(),
    };
    k.resize(depth, 1);
    for l in &band {
        if !syms.is_integer_scalar(l.var) {
            return Err(format!("the DO variable {} is not an INTEGER", l.var));
        }
    }
    for l in &band {
        if let Some(s) = l.body.iter().find(|s| !band_statement(s)) {
            return Err(format!(
                "a statement other than an assignment (or one with an implied DO) on line {}",
                s.pos.line
            ));
        }
    }
    if let Some(s) = band.last().and_then(|l| {
        l.body
            .iter()
            .find(|s| matches!(s.kind, StmtKind::Do { .. }))
    }) {
        return Err(format!(
            "a loop in the innermost loop, on line {}",
            s.pos.line
        ));
    }
    check_lines(
        lines,
        band[0].line(),
        statement_end(lines, last_line(nest), fixed),
        fixed,
    )?;
    let assigned = assigned_names(band[0].body);
    let mut notes = Vec::new();
    for j in 0..depth {
        if k[j] == 1 {
            continue;
        }
        let moving = band[j + 1..].iter().find(|l| {
            [Some(l.lower), Some(l.upper), l.step]
                .into_iter()
                .flatten()
                .any(|e| e.any_name(&mut |n, _| n == band[j].var || assigned.contains(n)))
        });
        let beside = band[j..depth - 1]
            .iter()
            .zip(&band[j + 1..])
            .find(|(outer, inner)| {
                outer
                    .body
                    .iter()
                    .any(|s| !std::ptr::eq(s, inner.stmt) && !matches!(s.kind, StmtKind::Continue))
            });
        let why = match (moving, beside) {
            (Some(l), _) => format!(
                "the bounds of the loop on line {} change with it or with the nest",
                l.line()
            ),
            (None, Some((_, inner))) => {
                format!("statements stand beside the loop on line {}", inner.line())
            }
            (None, None) => continue,
        };
        notes.push(format!(
            "loop {} on line {} not unrolled ({} asked): {why}",
            band[j].var,
            band[j].line(),
            k[j]
        ));
        k[j] = 1;
    }
    Ok((band, k, notes))
}

/// What a band may hold besides its loops: not an array constructor's
/// implied DO, whose variable a copy would shift as the loop's.
fn band_statement(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Assign { lhs, rhs } => ![lhs, rhs]
            .iter()
            .any(|e| e.any_name(&mut |n, _| n == IMPLIED_DO)),
        StmtKind::Continue | StmtKind::Do { .. } => true,
        _ => false,
    }
}

/// The last line the rewritten nest replaces. A labelled DO ending on the
/// terminal statement of a loop around it (`DO 10 T`, `DO 10 J`, `10
/// CONTINUE`) leaves that CONTINUE in place for the outer loop; a shared
/// terminal that does something (an assignment) cannot be split.
fn nest_end(nest: &Stmt, around: &[&Stmt], lines: &[&str], fixed: bool) -> Result<usize, String> {
    let end = last_line(nest);
    let Some(outer) = around.iter().find(|l| last_line(l) == end) else {
        return Ok(statement_end(lines, end, fixed));
    };
    match terminal(nest).kind {
        StmtKind::Continue => Ok(end - 1),
        _ => Err(format!(
            "its terminal statement on line {end} also ends the loop on line {}",
            outer.pos.line
        )),
    }
}

/// The names the statements assign (scalars and arrays).
fn assigned_names(body: &[Stmt]) -> HashSet<&str> {
    let mut out = HashSet::new();
    for s in body {
        match &s.kind {
            StmtKind::Assign { lhs, .. } => {
                if let ExprKind::Var(n) | ExprKind::Apply { name: n, .. } = &lhs.kind {
                    out.insert(n.as_str());
                }
            }
            StmtKind::Do { body, .. } => out.extend(assigned_names(body)),
            _ => {}
        }
    }
    out
}

/// The lines of one rewritten nest.
struct Writer<'t> {
    fixed: bool,
    indent: String,
    temps: &'t Temps,
    syms: &'t Symbols<'t>,
    /// The integer temporaries of the unit.
    used: &'t mut BTreeSet<String>,
    /// The unit's value temporaries: type statement and name.
    values: &'t mut Vec<(String, String)>,
    out: Vec<String>,
}

impl Writer<'_> {
    fn stmt(&mut self, depth: usize, text: &str) {
        let indent = format!("{}{}", self.indent, "  ".repeat(depth));
        self.out.extend(statement_lines(&indent, text, self.fixed));
    }

    fn temp(&mut self, what: char, level: usize) -> String {
        let n = self.temps.name(what, level);
        self.used.insert(n.clone());
        n
    }

    /// Loop `i` of the band at the copies `offsets` of the loops around it.
    fn emit_loop(
        &mut self,
        band: &[Loop],
        k: &[i64],
        i: usize,
        offsets: &[Vec<i64>],
        depth: usize,
    ) {
        let l = &band[i];
        let with = |ks: std::ops::Range<i64>| -> Vec<Vec<i64>> {
            offsets
                .iter()
                .flat_map(|o| {
                    ks.clone().map(move |x| {
                        let mut o = o.clone();
                        o.push(x);
                        o
                    })
                })
                .collect()
        };
        if k[i] == 1 {
            let step = l
                .step
                .map_or(String::new(), |s| format!(", {}", text_as_written(s)));
            self.stmt(
                depth,
                &format!(
                    "DO {} = {}, {}{step}",
                    l.var,
                    text_as_written(l.lower),
                    text_as_written(l.upper)
                ),
            );
            self.emit_body(band, k, i, &with(0..1), depth + 1);
            self.stmt(depth, "END DO");
            return;
        }
        if let Some((lo, trips, s)) = l.constant_trips() {
            // Literal bounds: the loops' bounds are numbers the compiler
            // sees, and a loop that never runs is left out (the other one
            // leaves the DO variable at the original's final value).
            let (kk, step) = (k[i], |s: i64| {
                if s == 1 {
                    String::new()
                } else {
                    format!(", {s}")
                }
            });
            let full = trips / kk;
            if full > 0 {
                let last = lo + (full - 1) * s * kk;
                self.stmt(
                    depth,
                    &format!("DO {} = {lo}, {last}{}", l.var, step(s * kk)),
                );
                self.emit_body(band, k, i, &with(0..kk), depth + 1);
                self.stmt(depth, "END DO");
            }
            if full == 0 || trips % kk != 0 {
                let (first, last) = (lo + full * s * kk, lo + (trips - 1) * s);
                self.stmt(depth, &format!("DO {} = {first}, {last}{}", l.var, step(s)));
                self.emit_body(band, k, i, &with(0..1), depth + 1);
                self.stmt(depth, "END DO");
            }
            return;
        }
        let (lo, trips) = (self.temp('L', i), self.temp('T', i));
        self.stmt(depth, &format!("{lo} = {}", text_as_written(l.lower)));
        self.stmt(depth, &format!("{trips} = {}", text_as_written(l.upper)));
        let step = match l.literal_step() {
            Some(s) if s < 0 => format!("({s})"),
            Some(s) => s.to_string(),
            None => {
                let s = self.temp('S', i);
                self.stmt(
                    depth,
                    &format!("{s} = {}", text_as_written(l.step.unwrap_or(l.lower))),
                );
                s
            }
        };
        let big = match l.literal_step() {
            Some(s) if s < 0 => format!("({})", s * k[i]),
            Some(s) => (s * k[i]).to_string(),
            None => format!("({}*{step})", k[i]),
        };
        let unit = step == "1";
        self.stmt(
            depth,
            &if unit {
                format!("{trips} = {trips}-{lo}+1")
            } else {
                format!("{trips} = ({trips}-{lo}+{step})/{step}")
            },
        );
        self.stmt(depth, &format!("IF ({trips} .LT. 0) {trips} = 0"));
        let kk = k[i];
        self.stmt(
            depth,
            &format!("DO {} = {lo}, {lo}+({trips}/{kk}-1)*{big}, {big}", l.var),
        );
        self.emit_body(band, k, i, &with(0..kk), depth + 1);
        self.stmt(depth, "END DO");
        self.stmt(
            depth,
            &if unit {
                format!("DO {} = {lo}+{trips}/{kk}*{big}, {lo}+{trips}-1", l.var)
            } else {
                format!(
                    "DO {} = {lo}+{trips}/{kk}*{big}, {lo}+({trips}-1)*{step}, {step}",
                    l.var
                )
            },
        );
        self.emit_body(band, k, i, &with(0..1), depth + 1);
        self.stmt(depth, "END DO");
    }

    /// The body of loop `i` at the copies `offsets` (one per loop up to i):
    /// the innermost body copy by copy; an outer body statement by
    /// statement (its statements beside the inner loop have one copy).
    fn emit_body(
        &mut self,
        band: &[Loop],
        k: &[i64],
        i: usize,
        offsets: &[Vec<i64>],
        depth: usize,
    ) {
        let body = band[i].body;
        if i + 1 == band.len() {
            let block: Vec<Assignment> = offsets
                .iter()
                .flat_map(|o| body.iter().filter_map(|s| self.assignment(band, s, o)))
                .collect();
            for (lhs, rhs) in self.replaced(&block) {
                self.write(&lhs, &rhs, depth);
            }
            return;
        }
        for s in body {
            if std::ptr::eq(s, band[i + 1].stmt) {
                self.emit_loop(band, k, i + 1, offsets, depth);
            } else {
                for o in offsets {
                    if let Some((lhs, rhs)) = self.assignment(band, s, o) {
                        self.write(&lhs, &rhs, depth);
                    }
                }
            }
        }
    }

    /// The jammed body with scalar replacement: the n-th temporary of a
    /// type in a body is the unit's n-th of that type (bodies share them).
    fn replaced(&mut self, block: &[Assignment]) -> Vec<Assignment> {
        let mut nth: HashMap<String, usize> = HashMap::new();
        let (temps, values) = (self.temps, &mut *self.values);
        scalar_replace::replace(block, self.syms, &mut |ty| {
            let n = nth.entry(ty.to_string()).or_insert(0);
            *n += 1;
            let same = values.iter().filter(|(t, _)| t == ty).nth(*n - 1);
            if let Some((_, name)) = same {
                return name.clone();
            }
            let name = temps.name('V', values.len());
            values.push((ty.to_string(), name.clone()));
            name
        })
    }

    fn write(&mut self, lhs: &Expr, rhs: &Expr, depth: usize) {
        let text = format!("{} = {}", text_as_written(lhs), text_as_written(rhs));
        self.stmt(depth, &text);
    }

    /// An assignment of the copy `offset` (CONTINUE: none).
    fn assignment(&self, band: &[Loop], s: &Stmt, offset: &[i64]) -> Option<Assignment> {
        let StmtKind::Assign { lhs, rhs } = &s.kind else {
            return None;
        };
        let mut shifts: HashMap<&str, Expr> = HashMap::new();
        for (j, &o) in offset.iter().enumerate() {
            if o == 0 {
                continue;
            }
            let l = &band[j];
            let var = expr(ExprKind::Var(l.var.to_string()));
            let by = match l.literal_step() {
                Some(s) => expr(ExprKind::Int(o * s)),
                None => binary(
                    BinOp::Mul,
                    expr(ExprKind::Int(o)),
                    expr(ExprKind::Var(self.temps.name('S', j))),
                ),
            };
            shifts.insert(l.var, binary(BinOp::Add, var, by));
        }
        Some((shifted(lhs, &shifts), shifted(rhs, &shifts)))
    }
}
