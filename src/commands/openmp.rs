//! `kaiseki openmp`: the program with `!$OMP PARALLEL DO` before the
//! outermost parallel loop of each nest (rules/dl/parallel.dl decides,
//! codegen/src/openmp.rs writes). With `--transform`, the loops
//! rules/dl/transform.dl decides to align, distribute, interchange, peel
//! or fuse are rewritten first (codegen/src/transform.rs), and the program
//! written is analyzed again for its directives, which then collapse the
//! perfect parallel nests (`COLLAPSE(n)`).

use kaiseki_codegen::{openmp, parallel, transform};
use kaiseki_frontend::{Form, SourceOptions};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub fn run(
    files: &[PathBuf],
    opts: &SourceOptions,
    output: &Path,
    transform: bool,
    every_loop: bool,
    rules: Option<&Path>,
    jobs: usize,
) -> Result<ExitCode, String> {
    let targets = super::output_paths(files, output)?;
    let mut had_errors = false;
    let sources: Vec<PathBuf> = if transform {
        had_errors = write_transformed(files, opts, &targets, rules, jobs)?;
        targets.clone()
    } else {
        files.to_vec()
    };
    let (analyzed, errors) = super::parallel::analyze(&sources, opts, rules, jobs)?;
    had_errors |= errors;
    let inside_regions = openmp::called_in_regions(&analyzed);
    let mut total = 0;
    for (file, target) in sources.iter().zip(targets) {
        let name = file.display().to_string();
        let loops: Vec<openmp::OmpLoop> = analyzed
            .iter()
            .flat_map(|(facts, derived)| {
                let choices = openmp::Choices {
                    collapse: transform,
                    every_loop,
                };
                openmp::omp_loops(facts, derived, &name, &inside_regions, choices)
            })
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

/// Writes each file to its target with the loops of `transform.dl`
/// rewritten; whether any error was reported.
fn write_transformed(
    files: &[PathBuf],
    opts: &SourceOptions,
    targets: &[PathBuf],
    rules: Option<&Path>,
    jobs: usize,
) -> Result<bool, String> {
    let (program, analyzed, had_errors) = super::parallel::analyze_program(
        files,
        opts,
        rules,
        jobs,
        "parallel",
        parallel::RELATIONS,
    )?;
    let mut rewrites = std::collections::HashMap::new();
    for (facts, derived) in &analyzed {
        rewrites.extend(transform::rewrites(facts, derived));
    }
    let mut total = 0;
    for (given, target) in files.iter().zip(targets) {
        let shown = given.display().to_string();
        let Some(id) = program.files.iter().position(|f| f.path == shown) else {
            return Err(format!("{shown}: not among the files read"));
        };
        let source = std::fs::read_to_string(given).map_err(|e| format!("{shown}: {e}"))?;
        let fixed = opts.form_of(&shown) == Form::Fixed;
        let done = transform::emit(&program, id, &source, fixed, &rewrites);
        std::fs::write(target, done.text).map_err(|e| format!("{}: {e}", target.display()))?;
        total += done.loops;
    }
    eprintln!(
        "{total} loop{} transformed",
        if total == 1 { "" } else { "s" }
    );
    Ok(had_errors)
}
