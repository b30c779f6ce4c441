//! `kaiseki deps`: the data dependence graph as a table, CSV, DOT or
//! SARIF (with `--proof`, each result's code flow walks its proof).

use crate::cli::DepsFormat;
use crate::{groups, pipeline};
use kaiseki_codegen::explain::{Prover, Relations, Show};
use kaiseki_codegen::json::Json;
use kaiseki_codegen::names::Names;
use kaiseki_codegen::{deps, sarif};
use kaiseki_engine::dl::diag::Sources;
use kaiseki_engine::{RuleProgram, Select};
use kaiseki_facts::{FactBase, IdKind, Table};
use kaiseki_frontend::SourceOptions;
use kaiseki_rules::kinds;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The rule files of `dir`, which must declare the relations the rows
/// are built from.
fn rules_for_deps(dir: &Path, relations: &[&str]) -> Result<(Sources, RuleProgram), String> {
    let (sources, program) = pipeline::read_rules(dir)?;
    let declared = |name: &&str| program.ir().relations.iter().any(|r| r.name == *name);
    match relations.iter().find(|name| !declared(name)) {
        None => Ok((sources, program)),
        Some(&"loop_index_dependence") => Err(format!(
            "the rule files of {} declare no relation `loop_index_dependence`, which tells the rows \
             of the DO loops' own indices to leave out: copy rules/dl/loop_index.dl there, or \
             give --loop-vars to show every row",
            dir.display()
        )),
        Some(name) => Err(format!(
            "the rule files of {} declare no relation `{name}`, which kaiseki deps reads",
            dir.display()
        )),
    }
}

/// What `deps` writes besides the rows.
pub struct Options {
    pub format: DepsFormat,
    pub include: deps::Include,
    pub dot: bool,
    /// The carried dependences per loop ([`deps::by_loop`]) instead of the rows.
    pub by_loop: bool,
    /// SARIF code flows of each row's proof.
    pub proof: bool,
    /// Print to standard error how many integer questions ran out of
    /// their budget (each answered "possible").
    pub stats: bool,
}

pub fn run(
    files: &[PathBuf],
    opts: &SourceOptions,
    o: Options,
    rules: Option<&Path>,
    jobs: usize,
) -> Result<ExitCode, String> {
    let (program, mut diags) = kaiseki_frontend::parse_files(files, opts);
    let include = o.include;
    let mut relations = deps::relations(include);
    let (sources, rules) = match rules {
        Some(dir) => {
            let (sources, program) = rules_for_deps(dir, &relations)?;
            (sources, Some(program))
        }
        None => (kaiseki_rules::builtin_program().sources(), None),
    };
    // A proof reads every derived relation the rows' relations read.
    let prover_rules = match (o.proof, &rules) {
        (false, _) => None,
        (true, Some(p)) => Some(p.clone()),
        (true, None) => Some(pipeline::builtin_rule_program()?),
    };
    let closure: Vec<String> = prover_rules
        .iter()
        .flat_map(|p| proof_reads(p, &relations))
        .collect();
    relations.extend(closure.iter().map(String::as_str));
    let derive = |mut facts: FactBase| {
        if include.general {
            facts.request.push(kaiseki_facts::Request {
                what: "general".into(),
            });
        }
        let derived = pipeline::derive_with(&facts, rules.as_ref(), Select::Only(&relations))?;
        Ok((facts, derived))
    };
    // Groups in unit name order, a name's units in one group: each group's
    // rows, sorted, follow the previous group's.
    let lower_diags = if !o.dot && !o.by_loop && o.format == DepsFormat::Csv {
        // Each group's lines are written as soon as it and those before it
        // are done, and its relations freed: memory holds the program and
        // the groups in flight, however many rows come out.
        let mut out = super::Output::stdout();
        out.write(&deps::csv_header())?;
        let lower_diags = groups::for_each_group(
            program,
            jobs,
            groups::Order::Name,
            |facts| {
                let (facts, derived) = derive(facts)?;
                Ok(deps::csv_lines(&deps::dependence_rows(
                    &facts, &derived, include,
                )))
            },
            |lines| out.write(&lines),
        )?;
        out.finish()?;
        lower_diags
    } else if !o.dot && o.format == DepsFormat::Sarif {
        // Each result is written as soon as it is built (with --proof,
        // proved) and dropped: memory holds the groups in flight and the
        // proofs of one group, not the log.
        let mut out = super::Output::stdout();
        let mut log = sarif::DependenceLog::default();
        out.write(log.head())?;
        let prover = prover_rules.as_ref().map(|p| (p, &sources));
        let lower_diags = groups::for_each_group(
            program,
            jobs,
            groups::Order::Name,
            derive,
            |(facts, derived)| {
                sarif_results(&facts, derived, include, prover, &mut |result| {
                    out.write(&log.result(&result))
                })
            },
        )?;
        out.write(&log.tail())?;
        out.finish()?;
        lower_diags
    } else {
        let mut analyzed = Vec::new();
        let lower_diags =
            groups::for_each_group(program, jobs, groups::Order::Name, derive, |group| {
                analyzed.push(group);
                Ok(())
            })?;
        let rows: Vec<deps::DepRow> = analyzed
            .iter()
            .flat_map(|(facts, derived)| deps::dependence_rows(facts, derived, include))
            .collect();
        let text = if o.by_loop {
            let summary = deps::by_loop(&rows);
            if o.format == DepsFormat::Csv {
                let mut text = kaiseki_codegen::csv_line(&deps::BY_LOOP_HEADER.map(String::from));
                for fields in &summary {
                    text.push_str(&kaiseki_codegen::csv_line(fields));
                }
                text
            } else {
                kaiseki_codegen::table::render(&deps::BY_LOOP_HEADER, &summary)
            }
        } else if o.dot {
            deps::to_dot(&rows)
        } else {
            deps::to_table(&rows)
        };
        super::emit_parts(&[text])?;
        // The process ends after this command: freeing the million rows of
        // the derived tables one allocation at a time took 0.4 s, exiting
        // frees them at once; so do the rows, which borrow from them.
        std::mem::forget(rows);
        std::mem::forget(analyzed);
        lower_diags
    };
    diags.extend(lower_diags);
    if o.stats {
        eprintln!(
            "integer questions past their budget of {} operations (answered possible): {}",
            kaiseki_affine::EXACT_TEST_BUDGET,
            kaiseki_affine::questions_past_budget()
        );
    }
    let had_errors = pipeline::report(&diags);
    Ok(super::status(had_errors))
}

/// The derived relations besides `relations` that proving their rows reads.
fn proof_reads(rules: &RuleProgram, relations: &[&str]) -> Vec<String> {
    let ir = rules.ir();
    let mut reads: Vec<String> = relations
        .iter()
        .filter_map(|name| ir.relations.iter().position(|r| r.name == *name))
        .flat_map(|rel| pipeline::derived_closure(ir, rel))
        .map(|r| ir.relations[r].name.clone())
        .filter(|name| !relations.contains(&name.as_str()))
        .collect();
    reads.sort_unstable();
    reads.dedup();
    reads
}

/// Hands the SARIF results of one group of units to `write`, one at a
/// time; with `prover` (the rules and their files), each with the code
/// flow of its row's proof.
fn sarif_results(
    facts: &FactBase,
    derived: Vec<Table>,
    include: deps::Include,
    prover: Option<(&RuleProgram, &Sources)>,
    write: &mut dyn FnMut(Json) -> Result<(), String>,
) -> Result<(), String> {
    let names = Names::new(facts);
    // The files its source and sink references were read from.
    let files = |origin: &deps::Origin| {
        let (src, dst) = deps::origin_refs(*origin);
        let file = |r| names.place(IdKind::Ref, r).map_or("", |p| p.file);
        (file(src), file(dst))
    };
    let Some((rules, sources)) = prover else {
        for (row, origin) in &deps::traced_rows(facts, &derived, include) {
            write(sarif::dependence(row, files(origin), &[]))?;
        }
        return Ok(());
    };
    // The rows read a copy of the few tables they are built from; the
    // prover holds every table.
    let read = deps::relations(include);
    let row_tables: Vec<Table> = derived
        .iter()
        .filter(|t| read.contains(&t.name.as_str()))
        .cloned()
        .collect();
    let rows = deps::traced_rows(facts, &row_tables, include);
    let ir = rules.ir();
    let registry = kaiseki_rules::functors::standard();
    let relations = Relations::new(ir, facts, derived, &registry);
    let prover = Prover::new(&relations);
    let kinds = kinds::column_kinds(ir);
    let show = Show {
        kinds: &kinds,
        names: Some(&names),
        rules: sources,
        sources: &[],
    };
    for (row, origin) in &rows {
        let (name, cells) = origin;
        let flow = ir
            .relations
            .iter()
            .position(|r| r.name == *name)
            .map(|rel| show.flow(&relations, &prover.prove(rel, cells, usize::MAX)))
            .unwrap_or_default();
        write(sarif::dependence(row, files(origin), &flow))?;
    }
    Ok(())
}
