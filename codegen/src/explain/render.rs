//! Proof trees and failed derivations as text for people and as Graphviz
//! DOT: rows with their ids shown as readers know them (`X@6:7`), each
//! step with the rule file and line it used, each input fact with the
//! source line it came from.

use super::proof::{How, Premise, Proof};
use super::relations::{Env, Reach, Relations};
use crate::names::{Names, Place};
use kaiseki_engine::dl::diag::Sources;
use kaiseki_engine::dl::ir::{LitKind, RelId, Rule, Term};
use kaiseki_facts::{IdKind, Value};
use kaiseki_frontend::ast::SourceFile;
use std::collections::{HashMap, HashSet};
use std::fmt::Write;
use std::rc::Rc;

/// An input fact on the way of a proof, placed in the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlowStep {
    /// The file the fact's statement was read from (its unit's, or an
    /// INCLUDEd one).
    pub file: String,
    pub line: i64,
    pub col: i64,
    /// The steps between the proved row and the one this fact is a
    /// premise of (0: a premise of the proved row's own step).
    pub nesting: usize,
    /// `def(X@13:7, 13:7, "X") for rgen(B@10:7, X@13:7) by dataflow.dl:18`.
    pub message: String,
}

/// What showing rows and steps needs besides the relations.
pub struct Show<'s> {
    /// What each column of each relation numbers (`kinds::column_kinds`).
    pub kinds: &'s [Vec<Option<IdKind>>],
    /// `None`: ids as numbers.
    pub names: Option<&'s Names>,
    /// The rule files, in the order of `Pos::file`.
    pub rules: &'s Sources,
    /// The files read (the analyzed ones and those they INCLUDE), for
    /// the source line of each input fact; empty: none shown.
    pub sources: &'s [SourceFile],
}

impl<'s> Show<'s> {
    fn cell(&self, rel: RelId, col: usize, v: &Value) -> String {
        match (v, self.kinds[rel].get(col).copied().flatten(), self.names) {
            (Value::Number(n), Some(kind), Some(names)) => names.show(kind, *n),
            (Value::Symbol(s), _, _) => format!("{s:?}"),
            (v, _, _) => v.to_string(),
        }
    }

    /// `rel(a, b, c)`, `_` for a column any value matches.
    pub fn atom(&self, r: &Relations, rel: RelId, row: &[Option<Value>]) -> String {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(c, v)| v.as_ref().map_or("_".into(), |v| self.cell(rel, c, v)))
            .collect();
        format!("{}({})", r.ir.relations[rel].name, cells.join(", "))
    }

    fn row(&self, r: &Relations, rel: RelId, row: &[Value]) -> String {
        let cells: Vec<Option<Value>> = row.iter().cloned().map(Some).collect();
        self.atom(r, rel, &cells)
    }

    /// `dataflow.dl:22`: where a rule is written.
    pub fn rule_at(&self, rule: &Rule) -> String {
        let file = self
            .rules
            .files
            .get(rule.pos.file as usize)
            .map_or("?", |(n, _)| n.rsplit('/').next().unwrap_or(n));
        format!("{file}:{}", rule.pos.line)
    }

    /// The place of a row: that of its first column that numbers a
    /// reference, statement, loop or block.
    fn located(&self, rel: RelId, row: &[Value]) -> Option<Place<'s>> {
        let names = self.names?;
        row.iter().enumerate().find_map(|(c, v)| {
            let kind = self.kinds[rel].get(c).copied().flatten()?;
            names.place(kind, super::relations::number(v))
        })
    }

    /// `prog.f:12:11: Y = X`: the source place of an input fact, in the
    /// file its statement was read from.
    fn place(&self, rel: RelId, row: &[Value]) -> Option<String> {
        let Place { file, line, col } = self.located(rel, row)?;
        let source = self.sources.iter().find(|f| f.path == file)?;
        let text = source.lines.get((line as usize).checked_sub(1)?)?;
        Some(format!("{file}:{line}:{col}: {}", text.trim()))
    }

    /// The input facts of a proof that have a source place, in proof
    /// order (depth first, premises in body order), each once: the walk a
    /// SARIF code flow shows. A row used by several steps is walked once.
    pub fn flow(&self, r: &Relations, proof: &Proof) -> Vec<FlowStep> {
        let mut steps = Vec::new();
        let mut walked = HashSet::new();
        let mut shown = HashSet::new();
        self.flow_from(r, proof, 0, &mut walked, &mut shown, &mut steps);
        steps
    }

    fn flow_from<'p>(
        &self,
        r: &Relations,
        proof: &'p Proof,
        nesting: usize,
        walked: &mut HashSet<*const Proof>,
        shown: &mut HashSet<(RelId, &'p [Value])>,
        steps: &mut Vec<FlowStep>,
    ) {
        if !walked.insert(proof as *const Proof) {
            return;
        }
        let How::Rule { rule, premises, .. } = &proof.how else {
            return;
        };
        for p in premises {
            let Premise::Atom(child) = p else { continue };
            if !matches!(child.how, How::Input) {
                self.flow_from(r, child, nesting + 1, walked, shown, steps);
                continue;
            }
            let Some(at) = self.located(child.rel, &child.row) else {
                continue;
            };
            if shown.insert((child.rel, &child.row)) {
                steps.push(FlowStep {
                    file: at.file.to_string(),
                    line: at.line,
                    col: at.col,
                    nesting,
                    message: format!(
                        "{} for {} by {}",
                        self.row(r, child.rel, &child.row),
                        self.row(r, proof.rel, &proof.row),
                        self.rule_at(&r.ir.rules[*rule])
                    ),
                });
            }
        }
    }

    fn premise(&self, r: &Relations, p: &Premise) -> String {
        match p {
            Premise::Atom(proof) => self.row(r, proof.rel, &proof.row),
            Premise::Absent { rel, args } => format!("no {}", self.atom(r, *rel, args)),
            Premise::Compare { op, lhs, rhs } => format!("{lhs} {} {rhs}", op.spelling()),
            Premise::Arith {
                op,
                lhs,
                rhs,
                result,
            } => format!("{lhs} {} {rhs} = {result}", op.spelling()),
            Premise::Call {
                functor,
                args,
                result,
            } => {
                let args: Vec<String> = args.iter().map(quoted).collect();
                format!(
                    "@{}({}) = {}",
                    r.ir.functors[*functor].name,
                    args.join(", "),
                    quoted(result)
                )
            }
            Premise::Aggregate {
                kind,
                rel,
                args,
                result,
                ..
            } => format!(
                "{} over {} = {result}",
                kind.name(),
                self.atom(r, *rel, args)
            ),
        }
    }

    /// The proof as an indented tree, one line per node.
    pub fn tree(&self, r: &Relations, proof: &Proof, depth: usize) -> String {
        let mut out = String::new();
        self.node(r, proof, "", "", depth, &mut out);
        out
    }

    fn node(
        &self,
        r: &Relations,
        proof: &Proof,
        lead: &str,
        rest: &str,
        depth: usize,
        out: &mut String,
    ) {
        let head = self.row(r, proof.rel, &proof.row);
        let _ = match &proof.how {
            How::Input => match self.place(proof.rel, &proof.row) {
                Some(place) => writeln!(out, "{lead}{head}  input  {place}"),
                None => writeln!(out, "{lead}{head}  input"),
            },
            How::Cut => writeln!(out, "{lead}{head}  ... (deeper than --depth {depth})"),
            How::Missing => writeln!(
                out,
                "{lead}{head}  derived, but no rule instance re-derives it (please report)"
            ),
            How::Rule { rule, .. } => {
                writeln!(out, "{lead}{head}  by {}", self.rule_at(&r.ir.rules[*rule]))
            }
        };
        let How::Rule { premises, .. } = &proof.how else {
            return;
        };
        for (i, p) in premises.iter().enumerate() {
            let last = i + 1 == premises.len();
            let (here, below) = if last {
                ("└─ ", "   ")
            } else {
                ("├─ ", "│  ")
            };
            let lead = format!("{rest}{here}");
            let rest = format!("{rest}{below}");
            match p {
                Premise::Atom(child) => self.node(r, child, &lead, &rest, depth, out),
                leaf => {
                    let _ = writeln!(out, "{lead}{}", self.premise(r, leaf));
                }
            }
        }
    }

    /// The proofs as one Graphviz digraph: a node per row (shared when
    /// two steps use the same row), a box per other premise, edges from
    /// each row to what it was derived from.
    pub fn dot(&self, r: &Relations, proofs: &[Rc<Proof>]) -> String {
        let mut out =
            String::from("digraph explain {\n  node [shape=ellipse, fontname=\"monospace\"];\n");
        let mut ids: HashMap<*const Proof, usize> = HashMap::new();
        let mut leaves = 0;
        for p in proofs {
            self.dot_node(r, p, &mut ids, &mut leaves, &mut out);
        }
        out.push_str("}\n");
        out
    }

    fn dot_node(
        &self,
        r: &Relations,
        proof: &Rc<Proof>,
        ids: &mut HashMap<*const Proof, usize>,
        leaves: &mut usize,
        out: &mut String,
    ) -> usize {
        if let Some(id) = ids.get(&Rc::as_ptr(proof)) {
            return *id;
        }
        let id = ids.len();
        ids.insert(Rc::as_ptr(proof), id);
        let how = match &proof.how {
            How::Input => self
                .place(proof.rel, &proof.row)
                .unwrap_or_else(|| "input".into()),
            How::Cut => "...".into(),
            How::Missing => "not re-derived".into(),
            How::Rule { rule, .. } => format!("by {}", self.rule_at(&r.ir.rules[*rule])),
        };
        let head = self.row(r, proof.rel, &proof.row);
        let shape = if matches!(proof.how, How::Input) {
            ", shape=note"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "  n{id} [label={}{shape}];",
            dot_str(&format!("{head}\n{how}"))
        );
        if let How::Rule { premises, .. } = &proof.how {
            for p in premises {
                let to = match p {
                    Premise::Atom(child) => {
                        format!("n{}", self.dot_node(r, child, ids, leaves, out))
                    }
                    leaf => {
                        *leaves += 1;
                        let name = format!("l{leaves}");
                        let _ = writeln!(
                            out,
                            "  {name} [label={}, shape=box];",
                            dot_str(&self.premise(r, leaf))
                        );
                        name
                    }
                };
                let _ = writeln!(out, "  n{id} -> {to};");
            }
        }
        id
    }

    /// Why `rule` does not derive the row: the literal that failed first
    /// on the branch that got furthest, with the bindings it had.
    pub fn failure(&self, r: &Relations, rule: &Rule, reach: &Reach) -> String {
        let Some(lit) = reach.failed else {
            return "its body holds".into();
        };
        let env = &reach.env;
        let args = |args: &[Term]| -> Vec<Option<Value>> {
            args.iter().map(|t| r.value(t, env)).collect()
        };
        let mut text = match &rule.body[lit].kind {
            LitKind::Atom { rel, args: a } => format!("no {}", self.atom(r, *rel, &args(a))),
            LitKind::Not { rel, args: a } => {
                let key = args(a);
                let held = r.matching(*rel, &key);
                let shown = held
                    .first()
                    .map_or_else(|| self.atom(r, *rel, &key), |row| self.row(r, *rel, row));
                format!("{shown} holds (negated in the rule)")
            }
            LitKind::Compare { op, lhs, rhs } => format!(
                "{} {} {} is false",
                show_term(r, lhs, rule, env),
                op.spelling(),
                show_term(r, rhs, rule, env)
            ),
            LitKind::Arith { op, lhs, rhs, .. } => format!(
                "{} {} {} has no value",
                show_term(r, lhs, rule, env),
                op.spelling(),
                show_term(r, rhs, rule, env)
            ),
            LitKind::Call {
                functor, args: a, ..
            } => {
                let a: Vec<String> = a.iter().map(|t| show_term(r, t, rule, env)).collect();
                format!(
                    "@{}({}) returns no value",
                    r.ir.functors[*functor].name,
                    a.join(", ")
                )
            }
            LitKind::Aggregate {
                kind, rel, args: a, ..
            } => {
                format!(
                    "{} over {} has no value",
                    kind.name(),
                    self.atom(r, *rel, &args(a))
                )
            }
        };
        let bound: Vec<String> = rule
            .vars
            .iter()
            .zip(env)
            .enumerate()
            .filter(|(_, (v, _))| !v.temp && !v.name.starts_with('_'))
            .filter_map(|(i, (v, x))| {
                Some(format!("{} = {}", v.name, self.var(rule, i, x.as_ref()?)))
            })
            .collect();
        if !bound.is_empty() {
            let _ = write!(text, " (with {})", bound.join(", "));
        }
        text
    }
}

impl Show<'_> {
    /// The value of variable `var` of `rule`, shown by what the first
    /// column it stands in (head first, then body atoms) numbers.
    fn var(&self, rule: &Rule, var: usize, v: &Value) -> String {
        let at = |rel: RelId, args: &[Term]| {
            args.iter()
                .position(|t| t.var() == Some(var))
                .map(|c| (rel, c))
        };
        let column = at(rule.head, &rule.head_args).or_else(|| {
            rule.body.iter().find_map(|l| match &l.kind {
                LitKind::Atom { rel, args } | LitKind::Not { rel, args } => at(*rel, args),
                _ => None,
            })
        });
        match column {
            Some((rel, c)) => self.cell(rel, c, v),
            None => quoted(v),
        }
    }
}

fn show_term(r: &Relations, t: &Term, rule: &Rule, env: &Env) -> String {
    match (r.value(t, env), t) {
        (Some(v), _) => quoted(&v),
        (None, Term::Var(v, _)) => rule.vars[*v].name.clone(),
        (None, _) => "_".into(),
    }
}

fn quoted(v: &Value) -> String {
    match v {
        Value::Symbol(s) => format!("{s:?}"),
        Value::Number(n) => n.to_string(),
    }
}

/// A DOT string literal (`\n` kept as a line break).
fn dot_str(s: &str) -> String {
    let escaped = s
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n");
    format!("\"{escaped}\"")
}
