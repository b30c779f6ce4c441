//! `kaiseki deps`: the data dependence graph as a table, CSV or DOT.

use crate::cli::DepsFormat;
use crate::{groups, pipeline};
use kaiseki_codegen::{deps, sarif};
use kaiseki_frontend::SourceOptions;
use kaiseki_rules::Select;
use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The rule files of `dir`, which must declare the relations the rows
/// are built from.
fn rules_for_deps(dir: &Path, relations: &[&str]) -> Result<kaiseki_rules::RuleProgram, String> {
    let program = pipeline::load_rules(dir)?;
    let declared = |name: &&str| program.ir().relations.iter().any(|r| r.name == *name);
    match relations.iter().find(|name| !declared(name)) {
        None => Ok(program),
        Some(&"loop_index_dependence") => Err(format!(
            "the rule files of {} declare no relation `loop_index_dependence`, which tells the rows \
             of the DO loops' own indices to leave out: copy rules/dl/loop_index.dl there, or \
             give --loop-vars to show every row",
            dir.display()
        )),
        Some(name) => Err(format!(
            "the rule files of {} declare no relation `{name}`, which kaiseki deps reads",
            dir.display()
        )),
    }
}

pub fn run(
    files: &[PathBuf],
    opts: &SourceOptions,
    format: DepsFormat,
    include: deps::Include,
    dot: bool,
    rules: Option<&Path>,
    jobs: usize,
) -> Result<ExitCode, String> {
    let (program, mut diags) = kaiseki_frontend::parse_files(files, opts);
    let relations = deps::relations(include);
    let rules = match rules {
        Some(dir) => Some(rules_for_deps(dir, &relations)?),
        None => None,
    };
    let (analyzed, lower_diags) = groups::map_groups(&program, jobs, |mut facts| {
        if include.general {
            facts.request.push(kaiseki_facts::Request {
                what: "general".into(),
            });
        }
        let derived = pipeline::derive_with(&facts, rules.as_ref(), Select::Only(&relations))?;
        Ok((facts, derived))
    })?;
    diags.extend(lower_diags);
    let had_errors = pipeline::report(&diags);
    let per_group = groups::map_parallel(&analyzed, jobs, |(facts, derived)| {
        deps::dependence_rows(facts, derived, include)
    })?;
    let units = by_unit(&per_group);
    let parts = match (dot, format) {
        // Each unit's lines on the worker threads: the rows are in unit order.
        (false, DepsFormat::Csv) => {
            let lines = groups::map_parallel(&units, jobs, |rows| deps::csv_lines(rows))?;
            std::iter::once(deps::csv_header()).chain(lines).collect()
        }
        (true, _) => vec![deps::to_dot(&units.concat())],
        (false, DepsFormat::Table) => vec![deps::to_table(&units.concat())],
        (false, DepsFormat::Sarif) => {
            let files = sarif::unit_files(analyzed.iter().map(|(facts, _)| facts));
            vec![sarif::dependences(&units.concat(), |unit| {
                files.get(unit).copied()
            })]
        }
    };
    super::emit_parts(&parts)?;
    // The process ends after this command: freeing the million rows of the
    // derived tables one allocation at a time took 0.4 s, exiting frees
    // them at once; so do the rows, which borrow from them.
    std::mem::forget(per_group);
    std::mem::forget(analyzed);
    Ok(super::status(had_errors))
}

/// The rows of each unit, units in `DepRow` order. Each group's rows are
/// sorted, so a unit's rows are one run of them, borrowed; only a unit name
/// that several groups hold (units of the same name in several files) needs
/// its runs merged.
fn by_unit<'r, 'a>(per_group: &'r [Vec<deps::DepRow<'a>>]) -> Vec<Cow<'r, [deps::DepRow<'a>]>> {
    let mut runs: Vec<&[deps::DepRow]> = per_group
        .iter()
        .flat_map(|rows| rows.chunk_by(|a, b| a.unit == b.unit))
        .collect();
    runs.sort_by_key(|run| run[0].unit);
    let mut units: Vec<Cow<[deps::DepRow]>> = Vec::with_capacity(runs.len());
    for run in runs {
        match units.last_mut() {
            Some(last) if last[0].unit == run[0].unit => {
                let merged = last.to_mut();
                merged.extend_from_slice(run);
                merged.sort();
                merged.dedup();
            }
            _ => units.push(Cow::Borrowed(run)),
        }
    }
    units
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(unit: &str, src_line: i64) -> deps::DepRow<'_> {
        deps::DepRow {
            unit,
            src_line,
            src_col: 7,
            dst_line: src_line + 1,
            dst_col: 7,
            kind: "flow",
            var: "X",
            loops: Vec::new(),
            distance: Vec::new(),
            direction: Vec::new(),
            carrier: 0,
            certainty: "exact",
            minimal: true,
        }
    }

    #[test]
    fn units_come_in_name_order_and_a_name_in_two_groups_is_merged() {
        let groups = vec![
            vec![row("B", 3), row("C", 1)],
            vec![row("A", 5), row("B", 1), row("B", 3)],
        ];
        let units: Vec<Vec<(&str, i64)>> = by_unit(&groups)
            .iter()
            .map(|u| u.iter().map(|r| (r.unit, r.src_line)).collect())
            .collect();
        assert_eq!(
            units,
            [vec![("A", 5)], vec![("B", 1), ("B", 3)], vec![("C", 1)]]
        );
    }
}
