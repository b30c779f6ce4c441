//! `kaiseki spmd`: the program as SPMD Fortran + MPI under the
//! owner-computes rule, sending only the transfers the communication
//! analysis finds needed (rules/dl/comm.dl plans, codegen/src/spmd writes).

use kaiseki_codegen::spmd;
use kaiseki_frontend::{inlined_lines, Form, SourceOptions};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub fn run(
    files: &[PathBuf],
    opts: &SourceOptions,
    output: &Path,
    options: spmd::Options,
    rules: Option<&Path>,
    jobs: usize,
) -> Result<ExitCode, String> {
    let (analyzed, had_errors) =
        super::parallel::analyze_on_request(files, opts, rules, jobs, "comm", spmd::RELATIONS)?;
    if had_errors {
        return Ok(super::status(had_errors));
    }
    let targets = super::output_paths(files, output)?;
    let mut read = Vec::with_capacity(files.len());
    for file in files {
        let name = file.display().to_string();
        let source =
            std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        let fixed = opts.form_of(&name) == Form::Fixed;
        let lines = inlined_lines(&name, &source, opts);
        read.push((name, fixed, lines));
    }
    let spmd_files: Vec<spmd::SpmdFile> = read
        .iter()
        .map(|(name, fixed, lines)| spmd::SpmdFile {
            lines,
            fixed: *fixed,
            name,
        })
        .collect();
    let (texts, warnings) = match spmd::generate(&spmd_files, &analyzed, options) {
        Ok(done) => done,
        Err(e) => {
            eprintln!("{e}");
            return Ok(ExitCode::from(1));
        }
    };
    // A warning names its line and unit; the file when there is one.
    let prefix = match read.as_slice() {
        [(name, _, _)] => format!("{name}: "),
        _ => String::new(),
    };
    for w in warnings {
        eprintln!("{prefix}warning: {w}");
    }
    for ((name, fixed, _), (target, text)) in read.iter().zip(targets.iter().zip(texts)) {
        let ext = target.extension().and_then(|e| e.to_str()).unwrap_or("");
        let free_name = ["f90", "f95", "f03", "f08"].contains(&ext.to_ascii_lowercase().as_str());
        if *fixed && free_name {
            eprintln!(
                "{}: warning: written in fixed source form, as {name} is, but compilers read this name as free form: name it .f, or compile with -ffixed-form",
                target.display()
            );
        }
        std::fs::write(target, text).map_err(|e| format!("{}: {e}", target.display()))?;
    }
    eprintln!("wrote {}", output.display());
    Ok(super::status(had_errors))
}
