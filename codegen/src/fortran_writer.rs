//! The syntax-tree side of the Fortran writers (`unroll_emit`, `transform`):
//! the loops of a unit and the lines they span, expressions with DO
//! variables replaced, and the source with ranges of lines replaced, every
//! other line copied byte for byte. `source_lines` lays statements out in
//! the columns of their form.

use crate::source_lines::{free_code, is_fixed_comment};
use kaiseki_frontend::ast::{
    BinOp, DeclKind, Expr, ExprKind, FileId, LoopEnd, Stmt, StmtKind, Unit,
};
use std::collections::{HashMap, HashSet};

/// The lines of a nest must hold it alone: no `;` joining another statement.
pub fn check_lines(lines: &[&str], first: usize, last: usize, fixed: bool) -> Result<(), String> {
    for (i, line) in lines[first - 1..last].iter().enumerate() {
        let code = if fixed && is_fixed_comment(line) {
            ""
        } else {
            free_code(line)
        };
        if code.contains(';') {
            return Err(format!("line {} holds several statements", first + i));
        }
    }
    Ok(())
}

/// Every DO and DO WHILE loop of `body` (also inside IF blocks), outer
/// loops first, each with the loops around it: a nest under a blocked one
/// (a time loop's) has a row of its own.
pub fn all_loops<'a>(body: &'a [Stmt], around: &[&'a Stmt]) -> Vec<(&'a Stmt, Vec<&'a Stmt>)> {
    let mut out = Vec::new();
    for s in body {
        match &s.kind {
            StmtKind::Do { body, .. } | StmtKind::DoWhile { body, .. } => {
                out.push((s, around.to_vec()));
                let mut inner = around.to_vec();
                inner.push(s);
                out.extend(all_loops(body, &inner));
            }
            StmtKind::If {
                arms, else_part, ..
            } => {
                for a in arms {
                    out.extend(all_loops(&a.body, around));
                }
                if let Some(e) = else_part {
                    out.extend(all_loops(&e.body, around));
                }
            }
            StmtKind::Select { cases, .. } => {
                for c in cases {
                    out.extend(all_loops(&c.body, around));
                }
            }
            _ => {}
        }
    }
    out
}

/// The parts of a DO statement (not a DO WHILE).
pub struct DoLoop<'a> {
    pub stmt: &'a Stmt,
    pub var: &'a str,
    pub lower: &'a Expr,
    pub upper: &'a Expr,
    pub step: Option<&'a Expr>,
    pub body: &'a [Stmt],
}

impl<'a> DoLoop<'a> {
    pub fn of(stmt: &'a Stmt) -> Option<Self> {
        match &stmt.kind {
            StmtKind::Do {
                var,
                lower,
                upper,
                step,
                body,
                ..
            } => Some(DoLoop {
                stmt,
                var: &var.text,
                lower,
                upper,
                step: step.as_ref(),
                body,
            }),
            _ => None,
        }
    }
}

/// The terminal statement of a labelled DO loop (the loop itself otherwise).
pub fn terminal(s: &Stmt) -> &Stmt {
    match &s.kind {
        StmtKind::Do {
            end: LoopEnd::Label(_),
            body,
            ..
        } => body.last().map_or(s, terminal),
        _ => s,
    }
}

/// The line of the last statement of `s` (its END DO, or the terminal
/// statement of a labelled DO).
pub fn last_line(s: &Stmt) -> usize {
    match &s.kind {
        StmtKind::Do {
            end: LoopEnd::EndDo { pos, .. },
            ..
        }
        | StmtKind::DoWhile {
            end: LoopEnd::EndDo { pos, .. },
            ..
        } => pos.line as usize,
        StmtKind::Do { body, .. } | StmtKind::DoWhile { body, .. } => {
            body.last().map_or(s.pos.line as usize, last_line)
        }
        StmtKind::If { end, .. } | StmtKind::Select { end, .. } => end.line as usize,
        _ => s.pos.line as usize,
    }
}

/// The statement indentation of a DO line (fixed form: at least column 7).
pub fn indent_of(line: &str, fixed: bool) -> String {
    if fixed {
        let code = line.get(6..).unwrap_or("");
        let extra = if line.starts_with('\t') {
            0
        } else {
            code.len() - code.trim_start().len()
        };
        " ".repeat(6 + extra)
    } else {
        " ".repeat(line.len() - line.trim_start().len())
    }
}

pub fn expr(kind: ExprKind) -> Expr {
    Expr {
        pos: Default::default(),
        kind,
    }
}

pub fn binary(op: BinOp, a: Expr, b: Expr) -> Expr {
    // `I+-2` is no Fortran: a negative shift subtracts.
    match (op, &b.kind) {
        (BinOp::Add, ExprKind::Int(n)) if *n < 0 => binary(BinOp::Sub, a, expr(ExprKind::Int(-n))),
        _ => expr(ExprKind::Binary(op, Box::new(a), Box::new(b))),
    }
}

/// `e` with the DO variables of `shifts` replaced by their shifted values.
pub fn shifted(e: &Expr, shifts: &HashMap<&str, Expr>) -> Expr {
    rebuilt(e, &|x| match &x.kind {
        ExprKind::Var(n) => shifts.get(n.as_str()).cloned().unwrap_or(x),
        _ => x,
    })
}

/// `e` with the array elements at the positions (line, column) of
/// `names` renamed, their subscripts kept.
pub fn renamed(e: &Expr, names: &HashMap<(u32, u32), String>) -> Expr {
    rebuilt(
        e,
        &|x| match (&x.kind, names.get(&(x.pos.line, x.pos.col))) {
            (ExprKind::Apply { args, .. }, Some(name)) => Expr {
                pos: x.pos,
                kind: ExprKind::Apply {
                    name: name.clone(),
                    args: args.clone(),
                },
            },
            _ => x,
        },
    )
}

/// `e` rebuilt bottom-up, each node (its parts rebuilt) handed to `node`.
fn rebuilt(e: &Expr, node: &dyn Fn(Expr) -> Expr) -> Expr {
    let go = |x: &Expr| Box::new(rebuilt(x, node));
    let kind = match &e.kind {
        ExprKind::Apply { name, args } => ExprKind::Apply {
            name: name.clone(),
            args: args.iter().map(|a| rebuilt(a, node)).collect(),
        },
        ExprKind::Range {
            lower,
            upper,
            stride,
        } => ExprKind::Range {
            lower: lower.as_deref().map(go),
            upper: upper.as_deref().map(go),
            stride: stride.as_deref().map(go),
        },
        ExprKind::Unary(op, x) => ExprKind::Unary(*op, go(x)),
        ExprKind::Binary(op, a, b) => ExprKind::Binary(*op, go(a), go(b)),
        ExprKind::Var(_)
        | ExprKind::Int(_)
        | ExprKind::Real(_)
        | ExprKind::Logical(_)
        | ExprKind::Str(_) => e.kind.clone(),
    };
    node(Expr { pos: e.pos, kind })
}

/// The source with the nests replaced and the declarations inserted.
pub fn splice(
    lines: &[&str],
    source: &str,
    replaced: &[(usize, usize, Vec<String>)],
    declared: &[(usize, Vec<String>)],
) -> String {
    let newline = if source.contains("\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    let mut out = String::with_capacity(source.len() * 2);
    let push = |out: &mut String, new: &[String]| {
        for l in new {
            out.push_str(l);
            out.push_str(newline);
        }
    };
    let mut n = 1;
    while n <= lines.len() {
        for (_, d) in declared.iter().filter(|(at, _)| *at == n) {
            push(&mut out, d);
        }
        if let Some((_, last, new)) = replaced.iter().find(|(first, _, _)| *first == n) {
            push(&mut out, new);
            n = last + 1;
            continue;
        }
        out.push_str(lines[n - 1]);
        if !lines[n - 1].ends_with('\n') && n < lines.len() {
            out.push_str(newline);
        }
        n += 1;
    }
    out
}

/// Where the temporaries' INTEGER statement goes: before the first DATA
/// statement or executable statement (FORMAT may stand before IMPLICIT).
pub fn declarations_line(unit: &Unit, file: FileId) -> Option<usize> {
    let body = unit
        .body
        .iter()
        .find(|s| !matches!(s.kind, StmtKind::Format))
        .map(|s| s.pos);
    let data = unit
        .decls
        .iter()
        .find(|d| matches!(d.kind, DeclKind::Data(_)))
        .map(|d| d.pos);
    [body, data]
        .into_iter()
        .flatten()
        .filter(|p| p.file == file)
        .map(|p| p.line as usize)
        .min()
}

/// Names of the temporaries, with a prefix no name of the file uses:
/// in `unroll_emit`, `KUL1`, `KUT1`, `KUS1` for the lower bound, trip count
/// and step of the outermost loop, `KUV1`, `KUV2`, ... for the values
/// scalar replacement holds; in `transform`, `KUC1`, ... for the copies of
/// arrays read ahead.
pub struct Temps {
    prefix: String,
}

impl Temps {
    pub fn new(source: &str) -> Self {
        let words: HashSet<String> = source
            .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            .map(str::to_ascii_uppercase)
            .collect();
        let prefix = ('U'..='Z')
            .map(|c| format!("K{c}"))
            .find(|p| !words.iter().any(|w| w.starts_with(p.as_str())))
            .unwrap_or_else(|| "KAISEKI".into());
        Temps { prefix }
    }

    pub fn name(&self, what: char, level: usize) -> String {
        format!("{}{what}{}", self.prefix, level + 1)
    }
}
