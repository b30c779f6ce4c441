//! The data flow every command shares: files -> syntax tree -> facts ->
//! derived relations, with diagnostics printed on the way.

use kaiseki_facts::{FactBase, Table};
use kaiseki_frontend::{ast::Program, Diagnostic, SourceOptions};
use kaiseki_rules::Select;
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

/// Runs the built-in compiled rules, or interprets the rule files of `rules`.
/// Returns the selected relations, rows sorted (building tables costs
/// more than deriving: select only what is printed).
pub fn derive(
    facts: &FactBase,
    rules: Option<&Path>,
    select: Select,
) -> Result<Vec<Table>, String> {
    let program = rules.map(load_rules).transpose()?;
    derive_with(facts, program.as_ref(), select)
}

/// [`derive`] with the rule files already loaded (`None`: the built-in rules).
pub fn derive_with(
    facts: &FactBase,
    rules: Option<&kaiseki_rules::RuleProgram>,
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
pub fn load_rules(dir: &Path) -> Result<kaiseki_rules::RuleProgram, String> {
    kaiseki_rules::load_rules(dir).map_err(|diags| {
        for d in &diags {
            eprintln!("{d}");
        }
        format!(
            "{} error(s) in the rule files of {}",
            diags.len(),
            dir.display()
        )
    })
}

/// The relations marked `.output` by the built-in rules or by `rules`.
pub fn output_names(rules: Option<&Path>) -> Result<Vec<String>, String> {
    Ok(match rules {
        None => kaiseki_rules::builtin_program()
            .outputs()
            .into_iter()
            .map(String::from)
            .collect(),
        Some(dir) => load_rules(dir)?
            .outputs()
            .into_iter()
            .map(String::from)
            .collect(),
    })
}

/// Evaluates a rule body over the facts and every relation of the rules
/// (interpreted): the table `query` whose columns are the named variables
/// of `body` in order of appearance.
pub fn query(facts: &FactBase, body: &str, rules: Option<&Path>) -> Result<Table, String> {
    let dir = rules.map_or_else(kaiseki_rules::builtin_rules_dir, Path::to_path_buf);
    let base = kaiseki_rules::dl::read_dir(&dir).map_err(|d| rule_errors(&d, &dir))?;
    let body = body.trim().trim_end_matches('.');
    // The body stands alone on line 3 of the query's source, so its
    // diagnostics point into what the user typed (shown as line 1).
    let compile = |head: String| {
        let mut sources = base.clone();
        sources
            .files
            .push(("<query>".to_string(), format!("{head} :-\n{body}.\n")));
        kaiseki_rules::RuleProgram::from_sources(&sources).map_err(|mut diags| {
            for d in diags.iter_mut().filter(|d| d.file == "<query>") {
                d.line = d.line.saturating_sub(2);
            }
            rule_errors(&diags, Path::new("<query>"))
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
    let program = compile(format!(
        ".decl query({})\nquery({})",
        decl.join(", "),
        head.join(", ")
    ))?;
    let tables = kaiseki_rules::run_interpreted(&program, facts).map_err(|e| e.to_string())?;
    tables
        .into_iter()
        .find(|t| t.name == "query")
        .ok_or_else(|| "the query produced no relation".to_string())
}

fn rule_errors(diags: &[kaiseki_rules::RuleDiagnostic], what: &Path) -> String {
    for d in diags {
        eprintln!("{d}");
    }
    format!("{} error(s) in {}", diags.len(), what.display())
}
