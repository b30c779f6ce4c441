//! `kaiseki check`: parse and lower, print diagnostics, exit 0 when clean.

use crate::pipeline;
use kaiseki_frontend::SourceOptions;
use std::path::PathBuf;
use std::process::ExitCode;

pub fn run(files: &[PathBuf], opts: &SourceOptions) -> Result<ExitCode, String> {
    let lowered = pipeline::lower_files(files, opts);
    let units = lowered.program.units.len();
    let stmts = lowered.facts.stmt.len();
    eprintln!(
        "{} file(s), {units} unit(s), {stmts} statement(s){}",
        files.len(),
        if lowered.had_errors {
            ", with errors"
        } else {
            ""
        }
    );
    Ok(super::status(lowered.had_errors))
}
