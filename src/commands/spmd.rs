//! `kaiseki spmd`: the program as SPMD Fortran + MPI under the
//! owner-computes rule, sending only the transfers the communication
//! analysis finds needed (rules/dl/comm.dl plans, codegen/src/spmd writes).

use kaiseki_codegen::spmd;
use kaiseki_frontend::{inlined_lines, Form, SourceOptions};
use std::path::Path;
use std::process::ExitCode;

pub fn run(
    file: &Path,
    opts: &SourceOptions,
    output: &Path,
    options: spmd::Options,
    rules: Option<&Path>,
    jobs: usize,
) -> Result<ExitCode, String> {
    let (analyzed, had_errors) = super::parallel::analyze_on_request(
        &[file.to_path_buf()],
        opts,
        rules,
        jobs,
        "comm",
        spmd::RELATIONS,
    )?;
    if had_errors {
        return Ok(super::status(had_errors));
    }
    let name = file.display().to_string();
    let source = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let fixed = opts.form_of(&name) == Form::Fixed;
    let lines = inlined_lines(&name, &source, opts);
    let (text, warnings) = match spmd::generate(&lines, fixed, &name, &analyzed, options) {
        Ok(done) => done,
        Err(e) => {
            eprintln!("{e}");
            return Ok(ExitCode::from(1));
        }
    };
    for w in warnings {
        eprintln!("{name}: warning: {w}");
    }
    let ext = output.extension().and_then(|e| e.to_str()).unwrap_or("");
    let free_name = ["f90", "f95", "f03", "f08"].contains(&ext.to_ascii_lowercase().as_str());
    if fixed && free_name {
        eprintln!(
            "{}: warning: written in fixed source form, as {name} is, but compilers read this name as free form: name it .f, or compile with -ffixed-form",
            output.display()
        );
    }
    std::fs::write(output, text).map_err(|e| format!("{}: {e}", output.display()))?;
    eprintln!("wrote {}", output.display());
    Ok(super::status(had_errors))
}
