//! Translation of a checked program into Rust source: `ascent_run!{}`
//! blocks over `i64` columns, one per part of the strata ([`parts`]),
//! with symbols interned by the same interner as the interpreter's
//! (constants first), plus the description of the program that
//! [`crate::compiled`] needs to bind inputs and decode outputs. The output
//! is `include!`d by the crate whose `build.rs` writes it, which depends
//! on `ascent` and names this crate `kaiseki_engine`.
//!
//! Each literal becomes the Ascent clause of the same meaning, in the
//! order of [`Rule::source_order`]: atoms `r(..)`, negations `!r(..)`,
//! comparisons `if`, bindings `let`, arithmetic through [`crate::ops`]
//! (`if let` where it can fail), functor calls `for x in calls.call(..)`
//! and aggregates `agg x = ::kaiseki_engine::ops::max(t) in aux(..)`.

use super::ast::{AggKind, ArithOp, CmpOp, Type};
use super::diag::{RuleDiagnostic, Sources};
use super::ir::*;
use std::fmt::Write;
use std::path::Path;

fn rel_ident(p: &Program, rel: RelId) -> String {
    if p.relations[rel].aggregate_body {
        format!("aux{rel}")
    } else {
        format!("r_{}", p.relations[rel].name)
    }
}

fn col_type(t: Type) -> &'static str {
    match t {
        Type::Number => "::kaiseki_engine::ColType::Number",
        Type::Symbol => "::kaiseki_engine::ColType::Symbol",
    }
}

fn constant(c: Const) -> String {
    let v = c.value();
    if v < 0 {
        format!("({v}i64)")
    } else {
        format!("{v}i64")
    }
}

/// Translates one rule, tracking which variables Ascent binds by
/// reference (those of relation clauses) to dereference them in Rust
/// expressions.
fn rule_text(p: &Program, rule: &Rule) -> String {
    let mut by_ref = vec![false; rule.vars.len()];
    let mut bound = vec![false; rule.vars.len()];
    let value = |t: &Term, by_ref: &[bool]| match t {
        Term::Var(v, _) if by_ref[*v] => format!("*v{v}"),
        Term::Var(v, _) => format!("v{v}"),
        Term::Const(c, _) => constant(*c),
        Term::Any(_) => "_".to_string(),
    };
    let clause_args = |args: &[Term]| -> String {
        let parts: Vec<String> = args
            .iter()
            .map(|t| match t {
                Term::Var(v, _) => format!("v{v}"),
                Term::Const(c, _) => constant(*c),
                Term::Any(_) => "_".to_string(),
            })
            .collect();
        parts.join(", ")
    };
    let (order, _) = rule.source_order();
    let mut items = Vec::new();
    for i in order {
        let kind = &rule.body[i].kind;
        let binds = kind.binds(&bound, &rule.vars).unwrap_or_default();
        let item = match kind {
            LitKind::Atom { rel, args } => {
                for v in &binds {
                    by_ref[*v] = true;
                }
                format!("{}({})", rel_ident(p, *rel), clause_args(args))
            }
            LitKind::Not { rel, args } => {
                format!("!{}({})", rel_ident(p, *rel), clause_args(args))
            }
            LitKind::Compare { op, lhs, rhs } => match binds.first() {
                Some(v) => {
                    let src = if lhs.var() == Some(*v) { rhs } else { lhs };
                    format!("let v{v} = {}", value(src, &by_ref))
                }
                None => {
                    let op = match op {
                        CmpOp::Eq => "==",
                        CmpOp::Ne => "!=",
                        CmpOp::Lt => "<",
                        CmpOp::Le => "<=",
                        CmpOp::Gt => ">",
                        CmpOp::Ge => ">=",
                    };
                    format!("if {} {op} {}", value(lhs, &by_ref), value(rhs, &by_ref))
                }
            },
            LitKind::Arith { dst, op, lhs, rhs } => {
                let (l, r) = (value(lhs, &by_ref), value(rhs, &by_ref));
                match op {
                    ArithOp::Add => format!("let v{dst} = ::kaiseki_engine::ops::add({l}, {r})"),
                    ArithOp::Sub => format!("let v{dst} = ::kaiseki_engine::ops::sub({l}, {r})"),
                    ArithOp::Mul => format!("let v{dst} = ::kaiseki_engine::ops::mul({l}, {r})"),
                    ArithOp::Div => {
                        format!("if let Some(v{dst}) = ::kaiseki_engine::ops::div({l}, {r})")
                    }
                    ArithOp::Rem => {
                        format!("if let Some(v{dst}) = ::kaiseki_engine::ops::rem({l}, {r})")
                    }
                }
            }
            LitKind::Call { dst, functor, args } => {
                let args: Vec<String> = args.iter().map(|t| value(t, &by_ref)).collect();
                format!(
                    "for v{dst} in calls.call({functor}, &[{}])",
                    args.join(", ")
                )
            }
            LitKind::Aggregate {
                dst,
                kind,
                rel,
                args,
                target,
            } => {
                // `target` names the aggregated column (rule variables are `v<n>`).
                let mut args: Vec<String> = args
                    .iter()
                    .map(|t| clause_args(std::slice::from_ref(t)))
                    .collect();
                let mut input = "";
                if let Some(col) = target {
                    args[*col] = "target".to_string();
                    input = "target";
                }
                let f = match kind {
                    AggKind::Count => "count",
                    AggKind::Sum => "sum",
                    AggKind::Min => "min",
                    AggKind::Max => "max",
                };
                format!(
                    "agg v{dst} = ::kaiseki_engine::ops::{f}({input}) in {}({})",
                    rel_ident(p, *rel),
                    args.join(", ")
                )
            }
        };
        for v in binds {
            bound[v] = true;
        }
        items.push(item);
    }
    let head: Vec<String> = rule.head_args.iter().map(|t| value(t, &by_ref)).collect();
    let head = format!("{}({})", rel_ident(p, rule.head), head.join(", "));
    if items.is_empty() {
        format!("        {head};\n")
    } else {
        format!(
            "        {head} <--\n            {};\n",
            items.join(",\n            ")
        )
    }
}

fn tuple_type(arity: usize) -> String {
    match arity {
        1 => "(i64,)".to_string(),
        n => format!("({})", vec!["i64"; n].join(", ")),
    }
}

/// The rule files as a Rust slice of (file name, text): embedded so that
/// the interpreter can run exactly the rules that were compiled.
fn embedded(sources: &Sources) -> String {
    let files: Vec<String> = sources
        .files
        .iter()
        .map(|(name, text)| {
            let base = std::path::Path::new(name)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            format!("({base:?}, {text:?})")
        })
        .collect();
    format!("&[{}]", files.join(", "))
}

/// What a build script writes for the rule files of `dir` (`origin`: how
/// the program names it): the module text of the checked program
/// ([`translate`]), or, when it does not check, of one that reports the
/// errors when run ([`translate_failure`]); and the build warnings, one
/// line each: the errors, and with `lint` the rules that fall into the
/// compiled engine's trap ([`super::join_order`]).
pub fn translate_dir(dir: &Path, origin: &str, timed: bool, lint: bool) -> (String, Vec<String>) {
    let (sources, checked) = match super::read_dir(dir) {
        Ok(sources) => {
            let checked = super::compile(&sources);
            (sources, checked)
        }
        Err(diags) => (Sources::default(), Err(diags)),
    };
    match checked {
        Ok(program) => {
            let found = if lint {
                super::join_order::full_reads(&program)
            } else {
                Vec::new()
            };
            let warnings = sources
                .resolve(found)
                .iter()
                .map(|d| format!("{}:{}:{}: {}", d.file, d.line, d.col, d.message))
                .collect();
            (translate(&program, origin, &sources, timed), warnings)
        }
        Err(diags) => {
            let warnings = diags.iter().map(|d| d.headline()).collect();
            (translate_failure(&diags, origin, &sources), warnings)
        }
    }
}

/// The Rust module text for a checked program read from `sources`. With
/// `timed`, Ascent times every rule and stratum and each run prints the
/// times to standard error (the `rule-times` feature: which rule of the
/// compiled program is slow, in the join order the rule is written in).
pub fn translate(p: &Program, origin: &str, sources: &Sources, timed: bool) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "// Generated by build.rs from {origin}: do not edit.\n");
    // Declared relations come first in `p.relations`, auxiliary ones after.
    let declared: Vec<RelId> = (0..p.relations.len())
        .take_while(|r| !p.relations[*r].aggregate_body)
        .collect();
    s.push_str("pub(crate) static PROGRAM: ::kaiseki_engine::compiled::CompiledProgram = ::kaiseki_engine::compiled::CompiledProgram {\n");
    let _ = writeln!(
        s,
        "    origin: {origin:?},\n    sources: {},\n    errors: &[],\n    relations: &[",
        embedded(sources)
    );
    for &r in &declared {
        let rel = &p.relations[r];
        let cols: Vec<String> = rel
            .columns
            .iter()
            .map(|(n, t)| format!("({n:?}, {})", col_type(*t)))
            .collect();
        let _ = writeln!(
            s,
            "        ::kaiseki_engine::compiled::RelationInfo {{ name: {:?}, columns: &[{}], input: {}, output: {} }},",
            rel.name,
            cols.join(", "),
            rel.input,
            rel.output
        );
    }
    s.push_str("    ],\n    functors: &[\n");
    for f in &p.functors {
        let args: Vec<&str> = f.args.iter().map(|t| col_type(*t)).collect();
        let _ = writeln!(
            s,
            "        ::kaiseki_engine::compiled::FunctorInfo {{ name: {:?}, args: &[{}], result: {} }},",
            f.name,
            args.join(", "),
            col_type(f.result)
        );
    }
    let _ = writeln!(
        s,
        "    ],\n    symbols: &{:?},\n    evaluate: Some(evaluate),\n}};\n",
        p.symbols
    );
    s.push_str(&evaluate_text(p, &declared, timed));
    s
}

/// About this many rules go into each part of the compiled program: a
/// part's indices live until it returns, so smaller parts free them
/// sooner. 60 instead of 150 took the peak of the 52,480-line elements
/// unit from 1.69 GB to 1.23 GB (its subscript tests' part held 550 MB),
/// at 0.99x the time; 30 was slower.
const PART_RULES: usize = 60;

/// A run of consecutive strata compiled as one `ascent_run!`.
pub struct Part {
    /// Its rules, in evaluation order.
    pub rules: Vec<usize>,
    /// The relations it derives.
    pub derives: Vec<RelId>,
    /// The relations whose rows the inputs or earlier parts hold: those it
    /// reads, and input relations that it adds rows to.
    pub reads: Vec<RelId>,
}

/// The strata cut, in evaluation order, into parts of about
/// `PART_RULES` rules. Ascent writes a whole program as one function,
/// and rustc's type and borrow checking and LLVM grow faster than the
/// function: one part per ~150 rules compiled in a fraction of the time
/// (type checking 25 s instead of 213 s, measured with 9 parts), and LLVM
/// works on the parts in parallel. A part's indices live until it
/// returns, so a fixpoint (a recursive stratum of more than two rules;
/// two are a chain's first step and next step, whose rows grow no bigger
/// than their input's) is a part of its own: the indices of the strata
/// before it are freed before it starts, and its own (`dataflow_in`'s
/// are the biggest of a run) before the strata that read it index its
/// rows again. On the 53,000-line uniform unit that took the peak from
/// 1.47 GB to 1.12 GB at the same time; on a unit twice as long, from
/// 2.97 GB to 2.05 GB.
pub fn parts(p: &Program) -> Vec<Part> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut after_fixpoint = false;
    for stratum in p.strata.iter().filter(|s| !s.rules.is_empty()) {
        let fixpoint = stratum.recursive && stratum.rules.len() > 2;
        match groups.last_mut() {
            Some(last)
                if !after_fixpoint
                    && !fixpoint
                    && last.len() + stratum.rules.len() <= PART_RULES =>
            {
                last.extend(&stratum.rules)
            }
            _ => groups.push(stratum.rules.clone()),
        }
        after_fixpoint = fixpoint;
    }
    groups
        .into_iter()
        .map(|rules| {
            let mut derives: Vec<RelId> = rules.iter().map(|&i| p.rules[i].head).collect();
            derives.sort_unstable();
            derives.dedup();
            let mut reads: Vec<RelId> = rules
                .iter()
                .flat_map(|&i| p.rules[i].body.iter().filter_map(|l| l.kind.reads()))
                .map(|(rel, _)| rel)
                .filter(|rel| derives.binary_search(rel).is_err())
                .chain(derives.iter().copied().filter(|&r| p.relations[r].input))
                .collect();
            reads.sort_unstable();
            reads.dedup();
            Part {
                rules,
                derives,
                reads,
            }
        })
        .collect()
}

fn tuple_vec(p: &Program, rel: RelId) -> String {
    format!("Vec<{}>", tuple_type(p.relations[rel].arity()))
}

/// A Rust expression true when one of `terms` is.
fn any(terms: &[String]) -> String {
    if terms.is_empty() {
        "false".to_string()
    } else {
        terms.join(" || ")
    }
}

/// `evaluate`: binds the inputs, runs the parts the wanted relations need
/// in order (a run of `deps` skips the parallelization's), each on the
/// relations it reads (moved out of the inputs and the earlier parts'
/// results, or copied while a later part that runs or the caller still
/// needs them), and returns the wanted relations; then one function per
/// part.
fn evaluate_text(p: &Program, declared: &[RelId], timed: bool) -> String {
    let parts = parts(p);
    let mut s = String::new();
    s.push_str(
        "/// Runs the rules; `inputs` and the result are indexed like `PROGRAM.relations`.\n",
    );
    s.push_str("#[allow(unused, unused_mut, non_snake_case, clippy::all)]\n");
    s.push_str("fn evaluate(inputs: &[::kaiseki_engine::rows::Rows], calls: &::kaiseki_engine::functors::Calls, wanted: &[bool]) -> Vec<::kaiseki_engine::rows::Rows> {\n");
    for (r, rel) in p.relations.iter().enumerate() {
        let n = rel.arity();
        if rel.input {
            let fields: Vec<String> = (0..n).map(|c| format!("row[{c}]")).collect();
            let tuple = if n == 1 {
                format!("({},)", fields[0])
            } else {
                format!("({})", fields.join(", "))
            };
            let _ = writeln!(
                s,
                "    let mut rel_{r}: {} = inputs[{r}].iter().map(|row| {tuple}).collect();",
                tuple_vec(p, r)
            );
        } else {
            let _ = writeln!(s, "    let mut rel_{r}: {} = Vec::new();", tuple_vec(p, r));
        }
    }
    // Whether part k runs: it derives a wanted relation, or a later part
    // that runs reads what it derives.
    for (k, part) in parts.iter().enumerate().rev() {
        let wanted = part
            .derives
            .iter()
            .filter(|r| declared.contains(r))
            .map(|r| format!("wanted[{r}]"));
        let readers = (k + 1..parts.len())
            .filter(|&j| part.derives.iter().any(|r| parts[j].reads.contains(r)))
            .map(|j| format!("run{j}"));
        let terms: Vec<String> = wanted.chain(readers).collect();
        let _ = writeln!(s, "    let run{k} = {};", any(&terms));
    }
    for (k, part) in parts.iter().enumerate() {
        let args: Vec<String> = part
            .reads
            .iter()
            .map(|&r| {
                let later = (k + 1..parts.len())
                    .filter(|&j| parts[j].reads.contains(&r))
                    .map(|j| format!("run{j}"));
                let wanted = declared.contains(&r).then(|| format!("wanted[{r}]"));
                let keep: Vec<String> = later.chain(wanted).collect();
                format!(
                    "::kaiseki_engine::compiled::pass(&mut rel_{r}, {})",
                    any(&keep)
                )
            })
            .collect();
        let outs: Vec<String> = part.derives.iter().map(|r| format!("rel_{r}")).collect();
        let _ = writeln!(
            s,
            "    if run{k} {{ ({},) = part{k}(calls, {}); }}",
            outs.join(", "),
            args.join(", ")
        );
    }
    s.push_str("    vec![\n");
    for &r in declared {
        let n = p.relations[r].arity();
        let fields: Vec<String> = (0..n).map(|c| format!("t.{c}")).collect();
        let _ = writeln!(
            s,
            "        if wanted[{r}] {{ ::kaiseki_engine::rows::Rows::collect({n}, rel_{r}.iter().map(|t| [{}])) }} else {{ ::kaiseki_engine::rows::Rows::new({n}) }},",
            fields.join(", ")
        );
    }
    s.push_str("    ]\n}\n\n");
    for (k, part) in parts.iter().enumerate() {
        s.push_str(&part_text(p, k, part, timed));
    }
    s
}

/// One part: an `ascent_run!` over the relations it reads and derives,
/// returning the derived ones.
fn part_text(p: &Program, k: usize, part: &Part, timed: bool) -> String {
    let mut s = String::new();
    let params: Vec<String> = part
        .reads
        .iter()
        .map(|&r| format!("in_{r}: {}", tuple_vec(p, r)))
        .collect();
    let results: Vec<String> = part.derives.iter().map(|&r| tuple_vec(p, r)).collect();
    s.push_str("#[allow(unused, non_snake_case, clippy::all)]\n");
    let _ = writeln!(
        s,
        "fn part{k}(calls: &::kaiseki_engine::functors::Calls, {}) -> ({},) {{",
        params.join(", "),
        results.join(", ")
    );
    s.push_str("    let result = ::ascent::ascent_run! {\n");
    if timed {
        s.push_str("        #![measure_rule_times]\n");
    }
    for &r in &part.reads {
        let types = vec!["i64"; p.relations[r].arity()].join(", ");
        // A relation the part only reads needs no index against duplicates.
        let ds = if part.derives.contains(&r) {
            "derived"
        } else {
            "read_only"
        };
        let _ = writeln!(
            s,
            "        #[ds(::kaiseki_engine::indices::{ds})] relation {}({types}) = in_{r};",
            rel_ident(p, r)
        );
    }
    for &r in part.derives.iter().filter(|r| !part.reads.contains(r)) {
        let types = vec!["i64"; p.relations[r].arity()].join(", ");
        let _ = writeln!(
            s,
            "        #[ds(::kaiseki_engine::indices::derived)] relation {}({types});",
            rel_ident(p, r)
        );
    }
    for &i in &part.rules {
        s.push_str(&rule_text(p, &p.rules[i]));
    }
    s.push_str("    };\n");
    if timed {
        let _ = writeln!(
            s,
            "    eprintln!(\"part {k}:\\n{{}}\", result.scc_times_summary());"
        );
    }
    let outs: Vec<String> = part
        .derives
        .iter()
        .map(|&r| format!("result.{}", rel_ident(p, r)))
        .collect();
    let _ = writeln!(s, "    ({},)\n}}\n", outs.join(", "));
    s
}

/// The module text for a program that did not check: running it reports
/// the diagnostics (the crate still builds, so the interpreter still runs).
pub fn translate_failure(diags: &[RuleDiagnostic], origin: &str, sources: &Sources) -> String {
    let errors: Vec<String> = diags.iter().map(|d| d.to_string()).collect();
    let sources = embedded(sources);
    format!(
        "// Generated by build.rs from {origin}, which has errors.\n\n\
         pub(crate) static PROGRAM: ::kaiseki_engine::compiled::CompiledProgram = ::kaiseki_engine::compiled::CompiledProgram {{\n    \
         origin: {origin:?},\n    sources: {sources},\n    errors: &{errors:?},\n    relations: &[],\n    functors: &[],\n    symbols: &[],\n    evaluate: None,\n}};\n"
    )
}
