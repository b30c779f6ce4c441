//! `kaiseki openmp`: the program with `!$OMP PARALLEL DO` before the
//! outermost parallel loop of each nest (rules/dl/parallel.dl decides,
//! codegen/src/openmp.rs writes).

use kaiseki_codegen::openmp;
use kaiseki_frontend::{Form, SourceOptions};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub fn run(
    files: &[PathBuf],
    opts: &SourceOptions,
    output: &Path,
    rules: Option<&Path>,
    jobs: usize,
) -> Result<ExitCode, String> {
    let (analyzed, had_errors) = super::parallel::analyze(files, opts, rules, jobs)?;
    let targets = super::output_paths(files, output)?;
    let inside_regions = openmp::called_in_regions(&analyzed);
    let mut total = 0;
    for (file, target) in files.iter().zip(targets) {
        let name = file.display().to_string();
        let loops: Vec<openmp::OmpLoop> = analyzed
            .iter()
            .flat_map(|(facts, derived)| openmp::omp_loops(facts, derived, &name, &inside_regions))
            .collect();
        let source =
            std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        let fixed = opts.form_of(&name) == Form::Fixed;
        let text = openmp::rewrite(&source, fixed, &loops);
        std::fs::write(&target, text).map_err(|e| format!("{}: {e}", target.display()))?;
        total += loops.len();
    }
    eprintln!(
        "{total} loop{} parallel: wrote {}",
        if total == 1 { "" } else { "s" },
        output.display()
    );
    Ok(super::status(had_errors))
}
