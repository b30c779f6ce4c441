//! `kaiseki analyze`: run every rule file, write every `.output` relation.

use crate::pipeline;
use kaiseki_facts::Format;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub fn run(
    files: &[PathBuf],
    output: &Path,
    format: Format,
    rules: Option<&Path>,
) -> Result<ExitCode, String> {
    let lowered = pipeline::lower_files(files);
    let derived = pipeline::derive(&lowered.facts, rules)?;
    let outputs = pipeline::output_names(rules)?;
    let tables: Vec<_> = derived
        .into_iter()
        .filter(|t| outputs.contains(&t.name))
        .collect();
    super::write_tables(&tables, output, format)?;
    for t in &tables {
        println!("{:<28} {:>8} rows", t.name, t.rows.len());
    }
    println!("wrote {} relations to {}", tables.len(), output.display());
    Ok(super::status(lowered.had_errors))
}
