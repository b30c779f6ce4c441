//! `kaiseki parallel`: for every loop, whether its iterations can run in
//! parallel, what that takes and what stops it (spec 001).

use crate::cli::TableFormat;
use crate::{groups, pipeline};
use kaiseki_codegen::parallel;
use kaiseki_engine::Select;
use kaiseki_facts::{FactBase, Table};
use kaiseki_frontend::ast::Program;
use kaiseki_frontend::SourceOptions;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The facts and the parallelization relations of one group of units.
pub type Analyzed = (FactBase, Vec<Table>);

/// The facts and the parallelization relations of each group of units,
/// and whether any error was reported.
pub fn analyze(
    files: &[PathBuf],
    opts: &SourceOptions,
    rules: Option<&Path>,
    jobs: usize,
) -> Result<(Vec<Analyzed>, bool), String> {
    analyze_on_request(files, opts, rules, jobs, "parallel", parallel::RELATIONS)
}

/// The facts of each group of units with the relations `relations` of the
/// analysis `what` asked for (`request(what)`), and whether any error was
/// reported.
pub fn analyze_on_request(
    files: &[PathBuf],
    opts: &SourceOptions,
    rules: Option<&Path>,
    jobs: usize,
    what: &str,
    relations: &[&str],
) -> Result<(Vec<Analyzed>, bool), String> {
    analyze_program(files, opts, rules, jobs, what, relations).map(|(_, a, e)| (a, e))
}

/// [`analyze_on_request`] with the syntax tree the facts were lowered from.
pub fn analyze_program(
    files: &[PathBuf],
    opts: &SourceOptions,
    rules: Option<&Path>,
    jobs: usize,
    what: &str,
    relations: &[&str],
) -> Result<(Program, Vec<Analyzed>, bool), String> {
    let (program, mut diags) = kaiseki_frontend::parse_files(files, opts);
    let rules = rules.map(pipeline::load_rules).transpose()?;
    let (analyzed, lower_diags) = groups::map_groups(&program, jobs, |mut facts| {
        facts
            .request
            .push(kaiseki_facts::Request { what: what.into() });
        let derived = pipeline::derive_with(&facts, rules.as_ref(), Select::Only(relations))?;
        Ok((facts, derived))
    })?;
    diags.extend(lower_diags);
    let had_errors = pipeline::report(&diags);
    Ok((program, analyzed, had_errors))
}

pub fn run(
    files: &[PathBuf],
    opts: &SourceOptions,
    format: TableFormat,
    rules: Option<&Path>,
    jobs: usize,
) -> Result<ExitCode, String> {
    let (analyzed, had_errors) = analyze(files, opts, rules, jobs)?;
    let mut rows: Vec<parallel::ParallelRow> = analyzed
        .iter()
        .flat_map(|(facts, derived)| parallel::rows(facts, derived))
        .collect();
    rows.sort();
    super::emit(&match format {
        TableFormat::Csv => parallel::to_csv(&rows),
        TableFormat::Table => parallel::to_table(&rows),
    })?;
    Ok(super::status(had_errors))
}
