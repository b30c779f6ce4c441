//! `kaiseki check`: parse and lower, print diagnostics, exit 0 when clean.

use crate::pipeline;
use std::path::PathBuf;
use std::process::ExitCode;

pub fn run(files: &[PathBuf]) -> Result<ExitCode, String> {
    let lowered = pipeline::lower_files(files);
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
