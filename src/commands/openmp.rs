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
    // One file: `output` is the file to write; several: the directory
    // each is written into under its own name.
    let several = files.len() > 1;
    let mut names = std::collections::HashSet::new();
    if let Some(twice) = files
        .iter()
        .find(|f| several && !names.insert(f.file_name()))
    {
        return Err(format!(
            "{}: two of the files have this name; they cannot both be written into {}",
            twice.display(),
            output.display()
        ));
    }
    if several {
        std::fs::create_dir_all(output).map_err(|e| format!("{}: {e}", output.display()))?;
    }
    let mut total = 0;
    for file in files {
        let name = file.display().to_string();
        let loops: Vec<openmp::OmpLoop> = analyzed
            .iter()
            .flat_map(|(facts, derived)| openmp::omp_loops(facts, derived, &name))
            .collect();
        let source =
            std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        let fixed = opts.form_of(&name) == Form::Fixed;
        let text = openmp::rewrite(&source, fixed, &loops);
        let target = match (several, file.file_name()) {
            (true, Some(base)) => output.join(base),
            _ => output.to_path_buf(),
        };
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
