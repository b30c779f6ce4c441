//! `kaiseki query`: evaluate a rule body over the facts and the derived
//! relations and print the bindings of its named variables.

use crate::cli::TableFormat;
use crate::pipeline;
use kaiseki_frontend::SourceOptions;
use std::path::Path;
use std::process::ExitCode;

pub fn run(
    file: &Path,
    opts: &SourceOptions,
    body: &str,
    format: TableFormat,
    rules: Option<&Path>,
    jobs: usize,
) -> Result<ExitCode, String> {
    let (program, mut diags) = kaiseki_frontend::parse_files(&[file], opts);
    let (result, lower_diags) = pipeline::query(&program, jobs, body, rules)?;
    diags.extend(lower_diags);
    let had_errors = pipeline::report(&diags);
    let header: Vec<&str> = result.columns.iter().map(|(n, _)| n.as_str()).collect();
    let rows: Vec<Vec<String>> = result
        .rows
        .iter()
        .map(|r| r.iter().map(|v| v.to_string()).collect())
        .collect();
    match format {
        TableFormat::Table => super::emit(&kaiseki_codegen::table::render(&header, &rows))?,
        TableFormat::Csv => {
            let mut out = Vec::new();
            kaiseki_facts::write_table(&result, kaiseki_facts::Format::Csv, &mut out)
                .map_err(|e| e.to_string())?;
            super::emit(&String::from_utf8_lossy(&out))?;
        }
    }
    Ok(super::status(had_errors))
}
