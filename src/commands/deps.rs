//! `kaiseki deps`: the data dependence graph as a table, CSV or DOT.

use crate::cli::DepsFormat;
use crate::{groups, pipeline};
use kaiseki_codegen::{deps, sarif};
use kaiseki_frontend::SourceOptions;
use kaiseki_rules::Select;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The rule files of `dir`, which must declare the relations the rows
/// are built from.
fn rules_for_deps(dir: &Path, relations: &[&str]) -> Result<kaiseki_rules::RuleProgram, String> {
    let program = pipeline::load_rules(dir)?;
    let declared = |name: &&str| program.ir().relations.iter().any(|r| r.name == *name);
    match relations.iter().find(|name| !declared(name)) {
        None => Ok(program),
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

pub fn run(
    files: &[PathBuf],
    opts: &SourceOptions,
    format: DepsFormat,
    include: deps::Include,
    dot: bool,
    rules: Option<&Path>,
    jobs: usize,
) -> Result<ExitCode, String> {
    let (program, mut diags) = kaiseki_frontend::parse_files(files, opts);
    let relations = deps::relations(include);
    let rules = match rules {
        Some(dir) => Some(rules_for_deps(dir, &relations)?),
        None => None,
    };
    let derive = |mut facts: kaiseki_facts::FactBase| {
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
    let lower_diags = if !dot && format == DepsFormat::Csv {
        // Each group's lines are written as soon as it and those before it
        // are done, and its relations freed: memory holds the program and
        // the groups in flight, however many rows come out.
        let mut out = super::Output::stdout();
        out.write(&deps::csv_header())?;
        let lower_diags = groups::for_each_group(
            &program,
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
    } else {
        let mut analyzed = Vec::new();
        let lower_diags =
            groups::for_each_group(&program, jobs, groups::Order::Name, derive, |group| {
                analyzed.push(group);
                Ok(())
            })?;
        let rows: Vec<deps::DepRow> = analyzed
            .iter()
            .flat_map(|(facts, derived)| deps::dependence_rows(facts, derived, include))
            .collect();
        let text = match (dot, format) {
            (true, _) => deps::to_dot(&rows),
            (false, DepsFormat::Sarif) => {
                let files = sarif::unit_files(analyzed.iter().map(|(facts, _)| facts));
                sarif::dependences(&rows, |unit| files.get(unit).copied())
            }
            (false, _) => deps::to_table(&rows),
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
    let had_errors = pipeline::report(&diags);
    Ok(super::status(had_errors))
}
