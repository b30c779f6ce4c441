//! `kaiseki comm`: every read of an element another virtual processor
//! owns under the owner-computes rule, and whether its transfer is needed
//! or redundant (Li & Harada, seed 000).

use crate::cli::TableFormat;
use kaiseki_codegen::comm;
use kaiseki_frontend::SourceOptions;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub fn run(
    files: &[PathBuf],
    opts: &SourceOptions,
    format: TableFormat,
    rules: Option<&Path>,
    jobs: usize,
) -> Result<ExitCode, String> {
    let (analyzed, had_errors) =
        super::parallel::analyze_on_request(files, opts, rules, jobs, "comm", comm::RELATIONS)?;
    let mut rows: Vec<comm::CommRow> = analyzed
        .iter()
        .flat_map(|(facts, derived)| comm::rows(facts, derived))
        .collect();
    rows.sort();
    super::emit(&match format {
        TableFormat::Csv => comm::to_csv(&rows),
        TableFormat::Table => comm::to_table(&rows),
    })?;
    Ok(super::status(had_errors))
}
