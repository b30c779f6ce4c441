//! `kaiseki openmp`: the program with `!$OMP PARALLEL DO` before the
//! outermost parallel loop of each nest (rules/dl/parallel.dl decides,
//! codegen/src/openmp.rs writes).

use kaiseki_codegen::openmp;
use kaiseki_frontend::{form_of, Form, SourceOptions};
use std::path::Path;
use std::process::ExitCode;

pub fn run(
    file: &Path,
    opts: &SourceOptions,
    output: &Path,
    rules: Option<&Path>,
    jobs: usize,
) -> Result<ExitCode, String> {
    let (analyzed, had_errors) =
        super::parallel::analyze(&[file.to_path_buf()], opts, rules, jobs)?;
    let name = file.display().to_string();
    let loops: Vec<openmp::OmpLoop> = analyzed
        .iter()
        .flat_map(|(facts, derived)| openmp::omp_loops(facts, derived, &name))
        .collect();
    let source = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let fixed = form_of(&name) == Form::Fixed;
    let text = openmp::rewrite(&source, fixed, &loops);
    std::fs::write(output, text).map_err(|e| format!("{}: {e}", output.display()))?;
    eprintln!(
        "{} loop{} parallel: wrote {}",
        loops.len(),
        if loops.len() == 1 { "" } else { "s" },
        output.display()
    );
    Ok(super::status(had_errors))
}
