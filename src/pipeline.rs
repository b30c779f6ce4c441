//! The data flow every command shares: files -> syntax tree -> facts ->
//! derived relations, with diagnostics printed on the way.

use kaiseki_facts::{FactBase, Table};
use kaiseki_frontend::{ast::Program, Diagnostic, SourceOptions};
use kaiseki_rules::dl::diag::Sources;
use kaiseki_rules::{RuleProgram, Select};
use std::path::{Path, PathBuf};

/// The lowered input of an analysis, with whether any error was reported.
pub struct Lowered {
    pub program: Program,
    pub facts: FactBase,
    pub had_errors: bool,
}

/// Parses and lowers `files`, printing every diagnostic to stderr.
pub fn lower_files(files: &[PathBuf], opts: &SourceOptions) -> Lowered {
    let (program, mut diags) = kaiseki_frontend::parse_files(files, opts);
    let (facts, lower_diags) = kaiseki_frontend::lower(&program);
    diags.extend(lower_diags);
    let had_errors = report(&diags);
    Lowered {
        program,
        facts,
        had_errors,
    }
}

/// Prints the diagnostics (per file, errors and warnings past a cap are
/// summed up); true when one of them is an error: warnings alone leave the
/// exit status 0.
pub fn report(diags: &[Diagnostic]) -> bool {
    for d in kaiseki_frontend::diagnostics::shown(diags) {
        eprintln!("{d}");
    }
    diags.iter().any(Diagnostic::is_error)
}

/// Runs the built-in compiled rules (`rules` `None`), or interprets the
/// rule program `rules`. Returns the selected relations, rows sorted
/// (building tables costs more than deriving: select only what is printed).
pub fn derive_with(
    facts: &FactBase,
    rules: Option<&RuleProgram>,
    select: Select,
) -> Result<Vec<Table>, String> {
    let registry = kaiseki_rules::FunctorRegistry::standard();
    match rules {
        None => kaiseki_rules::builtin_program().run_select(facts, &registry, select),
        Some(program) => kaiseki_rules::run_interpreted_select(program, facts, &registry, select),
    }
    .map_err(|e| e.to_string())
}

/// Loads a rule directory, printing its diagnostics.
pub fn load_rules(dir: &Path) -> Result<RuleProgram, String> {
    read_rules(dir).map(|(_, program)| program)
}

/// The files of a rule directory and the program they make, printing
/// their diagnostics.
fn read_rules(dir: &Path) -> Result<(Sources, RuleProgram), String> {
    let what = || format!("the rule files of {}", dir.display());
    let sources = kaiseki_rules::dl::read_dir(dir).map_err(|d| rule_errors(&d, &what()))?;
    let program = RuleProgram::from_sources(&sources).map_err(|d| rule_errors(&d, &what()))?;
    Ok((sources, program))
}

/// The relations marked `.output` by the built-in rules (`None`) or by `rules`.
pub fn output_names(rules: Option<&RuleProgram>) -> Vec<&str> {
    match rules {
        None => kaiseki_rules::builtin_program().outputs(),
        Some(program) => program.outputs(),
    }
}

/// The relations of groups of units put together: ids are the whole
/// program's and every rule is local to a unit, so each relation is the
/// union of its rows in the groups, as one run over the whole program
/// gives it (sorted, without duplicates). Each group has the same
/// relations in the same order (one program, one selection).
pub fn merge_tables(groups: Vec<Vec<Table>>) -> Vec<Table> {
    let mut groups = groups.into_iter();
    let mut merged = groups.next().unwrap_or_default();
    for tables in groups {
        for (into, table) in merged.iter_mut().zip(tables) {
            debug_assert_eq!(into.name, table.name);
            into.rows.extend(table.rows);
        }
    }
    // Sorted runs one after the other: the sort merges them.
    for table in &mut merged {
        table.normalize();
    }
    merged
}

/// Evaluates a rule body over the facts of `program` and every relation
/// of the rules (built-in, or interpreted from `rules`): the table `query`
/// whose columns are the named variables of `body` in order of appearance,
/// and the lowering diagnostics. The rules run on groups of units with
/// `jobs` threads; the body, which may join across units, runs once over
/// what they derived together.
pub fn query(
    program: &Program,
    jobs: usize,
    body: &str,
    rules: Option<&Path>,
) -> Result<(Table, Vec<Diagnostic>), String> {
    let (base, rule_program) = match rules {
        None => (kaiseki_rules::builtin_program().sources(), None),
        Some(dir) => read_rules(dir).map(|(sources, program)| (sources, Some(program)))?,
    };
    let body = body.trim().trim_end_matches('.');
    // The body stands alone on line 3 of the query's source, so its
    // diagnostics point into what the user typed (shown as line 1).
    let compile = |head: String| {
        let mut sources = base.clone();
        sources
            .files
            .push(("<query>".to_string(), format!("{head} :-\n{body}.\n")));
        RuleProgram::from_sources(&sources).map_err(|mut diags| {
            for d in diags.iter_mut().filter(|d| d.file == "<query>") {
                d.line = d.line.saturating_sub(2);
            }
            rule_errors(&diags, "<query>")
        })
    };
    // First find the variables and their types with a probe rule, then
    // declare the answer relation with them.
    let probe = compile(".decl query_probe()\nquery_probe()".to_string())?;
    let rule = probe
        .ir()
        .rules
        .iter()
        .find(|r| probe.ir().relations[r.head].name == "query_probe")
        .ok_or("the query has no rule")?;
    let vars: Vec<(String, &str)> = rule
        .vars
        .iter()
        .filter(|v| !v.temp && !v.name.starts_with('_'))
        .map(|v| (v.name.clone(), v.ty.map_or("symbol", |t| t.name())))
        .collect();
    let decl: Vec<String> = vars.iter().map(|(n, t)| format!("{n}: {t}")).collect();
    let head: Vec<&str> = vars.iter().map(|(n, _)| n.as_str()).collect();
    let program_with_query = compile(format!(
        ".decl query({})\nquery({})",
        decl.join(", "),
        head.join(", ")
    ))?;
    let (groups, diags) = crate::groups::map_groups(program, jobs, |facts| {
        let derived = derive_with(&facts, rule_program.as_ref(), Select::Derived)?;
        Ok((facts, derived))
    })?;
    let mut facts = FactBase::default();
    let mut derived = Vec::with_capacity(groups.len());
    for (group_facts, group_derived) in groups {
        facts.extend(group_facts);
        derived.push(group_derived);
    }
    facts.normalize();
    let derived = merge_tables(derived);
    let registry = kaiseki_rules::FunctorRegistry::standard();
    let tables = kaiseki_rules::run_interpreted_given(
        &program_with_query,
        &facts,
        &derived,
        &registry,
        Select::Only(&["query"]),
    )
    .map_err(|e| e.to_string())?;
    let table = tables
        .into_iter()
        .next()
        .ok_or_else(|| "the query produced no relation".to_string())?;
    Ok((table, diags))
}

/// Prints the diagnostics of rule files; the error that sums them up.
fn rule_errors(diags: &[kaiseki_rules::RuleDiagnostic], what: &str) -> String {
    for d in diags {
        eprintln!("{d}");
    }
    format!("{} error(s) in {what}", diags.len())
}
