//! `kaiseki analyze`: run every rule file, write every `.output` relation.

use crate::{groups, pipeline};
use kaiseki_codegen::names::Names;
use kaiseki_engine::Select;
use kaiseki_facts::Format;
use kaiseki_frontend::SourceOptions;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// What `analyze` writes besides the relations.
pub struct Report {
    /// The size of every relation and the time taken, on stderr.
    pub stats: bool,
    /// Ids as the numbers of the facts, not as a reader knows them.
    pub raw: bool,
    /// Every region set (request("regions")).
    pub regions: bool,
}

pub fn run(
    files: &[PathBuf],
    opts: &SourceOptions,
    output: &Path,
    format: Format,
    Report {
        stats,
        raw,
        regions,
    }: Report,
    rules: Option<&Path>,
    jobs: usize,
) -> Result<ExitCode, String> {
    let start = Instant::now();
    let (program, mut diags) = kaiseki_frontend::parse_files(files, opts);
    let rules = rules.map(pipeline::load_rules).transpose()?;
    let parsed_at = start.elapsed();
    let select = if stats { Select::All } else { Select::Outputs };
    let (per_group, lower_diags) = groups::map_groups(program, jobs, |mut facts| {
        // The loop dependence information of every tested pair, the
        // parallelization, the communication sets and the regions are for
        // reports like this one; `deps` does not pay for them.
        let asked = ["coincidence", "parallel", "comm"].into_iter();
        for what in asked.chain(regions.then_some("regions")) {
            facts
                .request
                .push(kaiseki_facts::Request { what: what.into() });
        }
        let tables = pipeline::derive_with(&facts, rules.as_ref(), select)?;
        Ok((tables, (!raw).then(|| Names::new(&facts))))
    })?;
    diags.extend(lower_diags);
    let had_errors = pipeline::report(&diags);
    let groups = per_group.len();
    let (per_group, group_names): (Vec<_>, Vec<_>) = per_group.into_iter().unzip();
    let names = group_names.into_iter().flatten().reduce(|mut all, more| {
        all.extend(more);
        all
    });
    let derived = pipeline::merge_tables(per_group);
    if stats {
        eprintln!(
            "parsing {:.3} s, lowering and rules {:.3} s ({groups} groups of units, {jobs} threads)",
            parsed_at.as_secs_f64(),
            (start.elapsed() - parsed_at).as_secs_f64()
        );
        let mut sizes: Vec<_> = derived.iter().map(|t| (t.rows.len(), &t.name)).collect();
        sizes.sort_by(|a, b| b.cmp(a));
        for (n, name) in sizes {
            eprintln!("{name:<28} {n:>10}");
        }
    }
    let outputs = pipeline::output_names(rules.as_ref());
    let mut tables: Vec<_> = derived
        .into_iter()
        .filter(|t| outputs.contains(&t.name.as_str()))
        .collect();
    // Ids as a reader knows them (`X@6:7`, `DO I@5`), after the merge: rows
    // stay in the order of the ids.
    if let Some(names) = &names {
        let kinds = pipeline::relation_kinds(rules.as_ref())?;
        for t in &mut tables {
            if let Some(k) = kinds.get(&t.name) {
                names.show_table(t, k);
            }
        }
    }
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
    Ok(super::status(had_errors))
}
