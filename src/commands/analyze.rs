//! `kaiseki analyze`: run every rule file, write every `.output` relation.

use crate::pipeline;
use kaiseki_facts::Format;
use kaiseki_frontend::SourceOptions;
use kaiseki_rules::Select;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

pub fn run(
    files: &[PathBuf],
    opts: &SourceOptions,
    output: &Path,
    format: Format,
    stats: bool,
    rules: Option<&Path>,
) -> Result<ExitCode, String> {
    let start = Instant::now();
    let mut lowered = pipeline::lower_files(files, opts);
    // The loop dependence information of every tested pair and the
    // parallelization are for reports like this one; `deps` does not pay
    // for them.
    for what in ["coincidence", "parallel"] {
        lowered
            .facts
            .request
            .push(kaiseki_facts::Request { what: what.into() });
    }
    let lowered_at = start.elapsed();
    let select = if stats { Select::All } else { Select::Outputs };
    let derived = pipeline::derive(&lowered.facts, rules, select)?;
    if stats {
        eprintln!(
            "lowering {:.3} s, rules {:.3} s",
            lowered_at.as_secs_f64(),
            (start.elapsed() - lowered_at).as_secs_f64()
        );
        let mut sizes: Vec<_> = derived.iter().map(|t| (t.rows.len(), &t.name)).collect();
        sizes.sort_by(|a, b| b.cmp(a));
        for (n, name) in sizes {
            eprintln!("{name:<28} {n:>10}");
        }
    }
    let outputs = pipeline::output_names(rules)?;
    let tables: Vec<_> = derived
        .into_iter()
        .filter(|t| outputs.contains(&t.name))
        .collect();
    super::write_tables(&tables, output, format)?;
    let mut summary = String::new();
    for t in &tables {
        summary.push_str(&format!("{:<28} {:>8} rows\n", t.name, t.rows.len()));
    }
    summary.push_str(&format!(
        "wrote {} relations to {}\n",
        tables.len(),
        output.display()
    ));
    super::emit(&summary)?;
    Ok(super::status(lowered.had_errors))
}
