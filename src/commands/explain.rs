//! `kaiseki explain`: the proof tree of each row of a derived relation
//! that matches a pattern, or with `--why-not` why no row does. A rule
//! body (what `query` takes) is explained as the rule `query(...) :-
//! body`: each answer's tree has the body's literals as its premises.

use crate::pipeline;
use kaiseki_codegen::explain::{Pattern, PatternError, Prover, Relations, Show};
use kaiseki_codegen::names::Names;
use kaiseki_facts::Value;
use kaiseki_frontend::SourceOptions;
use kaiseki_rules::{builtin_program, functors, kinds};
use std::fmt::Write;
use std::path::Path;
use std::process::ExitCode;

pub struct Options<'a> {
    pub depth: usize,
    pub width: usize,
    pub dot: bool,
    pub why_not: bool,
    pub rules: Option<&'a Path>,
    pub jobs: usize,
}

pub fn run(file: &Path, opts: &SourceOptions, text: &str, o: Options) -> Result<ExitCode, String> {
    if !Pattern::is_atom(text) {
        return run_body(file, opts, text, &o);
    }
    let pattern = match Pattern::parse(text) {
        Ok(p) => p,
        Err(e) => return Ok(pattern_error(text, e)),
    };
    let (sources, interpreted) = match o.rules {
        None => (builtin_program().sources(), None),
        Some(dir) => {
            let (sources, program) = pipeline::read_rules(dir)?;
            (sources, Some(program))
        }
    };
    let program = match &interpreted {
        Some(p) => p.clone(),
        None => pipeline::builtin_rule_program()?,
    };
    let ir = program.ir();
    let Some(rel) = ir
        .relations
        .iter()
        .position(|r| r.name == pattern.rel && !r.aggregate_body)
    else {
        return Ok(pattern_error(
            text,
            (1, format!("no relation `{}`", pattern.rel)),
        ));
    };
    if ir.relations[rel].arity() != pattern.arity() {
        let m = format!(
            "`{}` has {} columns but {} arguments are given",
            pattern.rel,
            ir.relations[rel].arity(),
            pattern.arity()
        );
        return Ok(pattern_error(text, (1, m)));
    }
    let reads: Vec<&str> = pipeline::derived_closure(ir, rel)
        .into_iter()
        .map(|r| ir.relations[r].name.as_str())
        .collect();
    let (parsed, mut diags) = kaiseki_frontend::parse_files(&[file], opts);
    let (facts, tables, lower_diags) =
        pipeline::derive_groups(&parsed, o.jobs, interpreted.as_ref(), &reads)?;
    diags.extend(lower_diags);
    let had_errors = pipeline::report(&diags);
    let kinds = kinds::column_kinds(ir);
    let choices = match pattern.resolve(&kinds[rel], &facts) {
        Ok(c) => c,
        Err(e) => return Ok(pattern_error(text, e)),
    };
    // Looked up by the columns of one value; the others filter the rows.
    let key: Vec<Option<Value>> = choices
        .iter()
        .map(|c| {
            c.as_ref()
                .filter(|vs| vs.len() == 1)
                .map(|vs| vs[0].clone())
        })
        .collect();
    let registry = functors::standard();
    let relations = Relations::new(ir, &facts, tables, &registry);
    let names = Names::new(&facts);
    let show = Show {
        kinds: &kinds,
        names: Some(&names),
        rules: &sources,
        sources: &parsed.files,
    };
    let rows: Vec<&[Value]> = relations
        .matching(rel, &key)
        .into_iter()
        .filter(|row| {
            pattern.consistent(row)
                && choices
                    .iter()
                    .zip(row.iter())
                    .all(|(c, x)| c.as_ref().is_none_or(|vs| vs.contains(x)))
        })
        .collect();
    // A place of several references: the first stands for them.
    let first: Vec<Option<Value>> = choices
        .iter()
        .map(|c| c.as_ref().map(|vs| vs[0].clone()))
        .collect();
    super::emit(&explanations(&relations, &show, rel, &first, &rows, &o))?;
    Ok(super::status(had_errors))
}

/// A rule body explained: compiled as `query` compiles it, its answers
/// proved through the rule `query(...) :- body`.
fn run_body(
    file: &Path,
    opts: &SourceOptions,
    body: &str,
    o: &Options,
) -> Result<ExitCode, String> {
    let query = match pipeline::compile_query(body, o.rules) {
        Ok(q) => q,
        Err(e) => return Ok(super::query::query_error(e)),
    };
    let (parsed, mut diags) = kaiseki_frontend::parse_files(&[file], opts);
    let run = pipeline::run_query(&parsed, o.jobs, &query, &query.proof_reads())?;
    diags.extend(run.diags);
    let had_errors = pipeline::report(&diags);
    let ir = query.program.ir();
    let rel = query.relation();
    let kinds = kinds::column_kinds(ir);
    let registry = functors::standard();
    let mut tables = run.derived;
    tables.push(run.answers);
    let relations = Relations::new(ir, &run.facts, tables, &registry);
    let names = Names::new(&run.facts);
    let show = Show {
        kinds: &kinds,
        names: Some(&names),
        rules: &query.sources,
        sources: &parsed.files,
    };
    let rows: Vec<&[Value]> = relations.rows(rel).iter().map(Vec::as_slice).collect();
    let any = vec![None; ir.relations[rel].arity()];
    super::emit(&explanations(&relations, &show, rel, &any, &rows, o))?;
    Ok(super::status(had_errors))
}

/// What `explain` prints for the `rows` of relation `rel` that match
/// `key`: their proof trees (`--width` of them, `--depth` deep, or as
/// DOT), or with `--why-not` why no row of `key` is derived.
fn explanations(
    relations: &Relations,
    show: &Show,
    rel: usize,
    key: &[Option<Value>],
    rows: &[&[Value]],
    o: &Options,
) -> String {
    let mut out = String::new();
    if o.why_not {
        why_not(relations, show, rel, key, rows, &mut out);
    } else if rows.is_empty() {
        let _ = writeln!(
            out,
            "no row of `{}` matches; `--why-not` says why",
            relations.ir.relations[rel].name
        );
    } else {
        let prover = Prover::new(relations);
        let proofs: Vec<_> = rows
            .iter()
            .take(o.width)
            .map(|row| prover.prove(rel, row, o.depth))
            .collect();
        if o.dot {
            out = show.dot(relations, &proofs);
        } else {
            for p in &proofs {
                out.push_str(&show.tree(relations, p, o.depth));
                out.push('\n');
            }
            if rows.len() > o.width {
                let _ = writeln!(out, "... {} more rows (--width)", rows.len() - o.width);
            }
        }
    }
    out
}

/// For each rule that could derive a row matching `key`, the literal that
/// fails first on the branch of its search that got furthest.
fn why_not(
    relations: &Relations,
    show: &Show,
    rel: usize,
    key: &[Option<Value>],
    rows: &[&[Value]],
    out: &mut String,
) {
    let wanted = show.atom(relations, rel, key);
    if !rows.is_empty() {
        let _ = writeln!(
            out,
            "{wanted} is derived ({} rows match): `kaiseki explain` shows why",
            rows.len()
        );
        return;
    }
    let _ = writeln!(out, "{wanted} is not derived:");
    let ir = relations.ir;
    for rule in ir.rules.iter().filter(|r| r.head == rel) {
        let at = show.rule_at(rule);
        let reason = match relations.unify_head(rule, key) {
            None => "its head does not match".to_string(),
            Some(env) => {
                let reach = relations.instances(rule, env, &|_, _, _| true, &mut |_, _| true);
                show.failure(relations, rule, &reach)
            }
        };
        let _ = writeln!(out, "  by {at}: {reason}");
    }
    if !ir.rules.iter().any(|r| r.head == rel) {
        let _ = writeln!(out, "  no rule derives `{}`", ir.relations[rel].name);
    }
}

/// A wrong pattern is a usage error (exit 2), shown as query errors are.
fn pattern_error(text: &str, (col, message): PatternError) -> ExitCode {
    let mut s = format!("<pattern>:1:{col}: error: {message}");
    let _ = kaiseki_facts::excerpt::write_excerpt(&mut s, text, col);
    eprintln!("{s}");
    ExitCode::from(2)
}
