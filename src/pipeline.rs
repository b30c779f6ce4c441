//! The data flow every command shares: files -> syntax tree -> facts ->
//! derived relations, with diagnostics printed on the way.

use kaiseki_engine::dl::diag::Sources;
use kaiseki_engine::{RuleProgram, Select};
use kaiseki_facts::{FactBase, IdKind, Table};
use kaiseki_frontend::{ast::Program, Diagnostic, SourceOptions};
use std::path::{Path, PathBuf};

/// The lowered input of an analysis, with whether any error was reported.
pub struct Lowered {
    pub facts: FactBase,
    pub had_errors: bool,
}

/// Parses and lowers `files`, printing every diagnostic to stderr.
pub fn lower_files(files: &[PathBuf], opts: &SourceOptions) -> Lowered {
    let (program, mut diags) = kaiseki_frontend::parse_files(files, opts);
    let (facts, lower_diags) = kaiseki_frontend::lower(&program);
    diags.extend(lower_diags);
    let had_errors = report(&diags);
    Lowered { facts, had_errors }
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
    let registry = kaiseki_rules::functors::standard();
    match rules {
        None => kaiseki_rules::builtin_program().run_select(facts, &registry, select),
        Some(program) => kaiseki_engine::run_interpreted_select(program, facts, &registry, select),
    }
    .map_err(|e| e.to_string())
}

/// Loads a rule directory, printing its diagnostics.
pub fn load_rules(dir: &Path) -> Result<RuleProgram, String> {
    read_rules(dir).map(|(_, program)| program)
}

/// The files of a rule directory and the program they make, printing
/// their diagnostics.
pub fn read_rules(dir: &Path) -> Result<(Sources, RuleProgram), String> {
    let what = || format!("the rule files of {}", dir.display());
    let sources = kaiseki_engine::dl::read_dir(dir).map_err(|d| rule_errors(&d, &what()))?;
    let program = kaiseki_rules::check_rules(&sources).map_err(|d| rule_errors(&d, &what()))?;
    Ok((sources, program))
}

/// The built-in rules as a program of the interpreter (their IR: column
/// kinds, proofs), from the files the binary was compiled from.
pub fn builtin_rule_program() -> Result<RuleProgram, String> {
    kaiseki_rules::check_rules(&kaiseki_rules::builtin_program().sources())
        .map_err(|d| format!("{} error(s) in the built-in rules", d.len()))
}

/// What each column of each relation of the built-in rules (`None`) or of
/// `rules` numbers (references, statements, loops...), by relation name.
pub fn relation_kinds(
    rules: Option<&RuleProgram>,
) -> Result<std::collections::HashMap<String, Vec<Option<IdKind>>>, String> {
    let builtin;
    let program = match rules {
        Some(p) => p,
        None => {
            builtin = builtin_rule_program()?;
            &builtin
        }
    };
    let ir = program.ir();
    Ok(ir
        .relations
        .iter()
        .map(|r| r.name.clone())
        .zip(kaiseki_rules::kinds::column_kinds(ir))
        .collect())
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

/// A rule body compiled against the rules (built-in, or the files of a
/// `--rules` directory) as the rule `query(V1, ...) :- body.`, whose columns
/// are the body's named variables in order of appearance.
pub struct Query {
    /// The rules and the query rule.
    pub program: RuleProgram,
    /// What each column of `query` numbers (references, loops...).
    pub kinds: Vec<Option<IdKind>>,
    /// The derived relations the body reads: the rules run only for them,
    /// and not at all when there are none.
    pub reads: Vec<String>,
    /// The rule files and `<query>`, the body's own (what a proof step names).
    pub sources: Sources,
    /// The interpreted rules (`--rules`); `None`: the compiled ones.
    rules: Option<RuleProgram>,
}

/// Why a query could not be compiled.
pub enum QueryError {
    /// The body is wrong: diagnostics at `<query>:1:col` (a usage error).
    Body(Vec<kaiseki_engine::RuleDiagnostic>),
    /// The rule files are (printed already).
    Rules(String),
}

/// Compiles `body` against the rules (built-in, or read from `rules`).
pub fn compile_query(body: &str, rules: Option<&Path>) -> Result<Query, QueryError> {
    let (base, rule_program) = match rules {
        None => (kaiseki_rules::builtin_program().sources(), None),
        Some(dir) => read_rules(dir)
            .map(|(sources, program)| (sources, Some(program)))
            .map_err(QueryError::Rules)?,
    };
    let body = body.trim_end().trim_end_matches('.');
    // The body stands alone on line 3 of the query's source, so its
    // diagnostics point into what the user typed (shown as line 1).
    let compile = |head: String| {
        let mut sources = base.clone();
        sources
            .files
            .push(("<query>".to_string(), format!("{head} :-\n{body}.\n")));
        let program = kaiseki_rules::check_rules(&sources).map_err(|mut diags| {
            diags.retain(|d| d.file == "<query>");
            for d in diags.iter_mut() {
                d.line = d.line.saturating_sub(2);
            }
            QueryError::Body(diags)
        })?;
        Ok((sources, program))
    };
    // First find the variables and their types with a probe rule, then
    // declare the answer relation with them.
    let (_, probe) = compile(".decl query_probe()\nquery_probe()".to_string())?;
    let rule = probe
        .ir()
        .rules
        .iter()
        .find(|r| probe.ir().relations[r.head].name == "query_probe")
        .ok_or_else(|| QueryError::Rules("the query has no rule".into()))?;
    let vars: Vec<(String, &str)> = rule
        .vars
        .iter()
        .filter(|v| !v.temp && !v.name.starts_with('_'))
        .map(|v| (v.name.clone(), v.ty.map_or("symbol", |t| t.name())))
        .collect();
    let decl: Vec<String> = vars.iter().map(|(n, t)| format!("{n}: {t}")).collect();
    let head: Vec<&str> = vars.iter().map(|(n, _)| n.as_str()).collect();
    let (sources, program) = compile(format!(
        ".decl query({})\nquery({})",
        decl.join(", "),
        head.join(", ")
    ))?;
    let ir = program.ir();
    let query = ir
        .relations
        .iter()
        .position(|r| r.name == "query")
        .ok_or_else(|| QueryError::Rules("the query has no relation".into()))?;
    let kinds = kaiseki_rules::kinds::column_kinds(ir).swap_remove(query);
    let reads = derived_reads(ir, query)
        .into_iter()
        .map(|r| ir.relations[r].name.clone())
        .collect();
    Ok(Query {
        program,
        kinds,
        reads,
        sources,
        rules: rule_program,
    })
}

impl Query {
    /// The id of the relation `query` in [`Query::program`].
    pub fn relation(&self) -> usize {
        let ir = self.program.ir();
        // compile_query found it there.
        ir.relations
            .iter()
            .position(|r| r.name == "query")
            .unwrap_or_default()
    }

    /// Every derived relation the body reads, directly or not: what
    /// proving its answers needs besides [`Query::reads`].
    pub fn proof_reads(&self) -> Vec<String> {
        let ir = self.program.ir();
        derived_closure(ir, self.relation())
            .into_iter()
            .map(|r| ir.relations[r].name.clone())
            .filter(|name| name != "query")
            .collect()
    }
}

/// The derived relations of the rules that relation `of` reads, through
/// the auxiliary relations of its aggregates.
fn derived_reads(ir: &kaiseki_engine::dl::ir::Program, of: usize) -> Vec<usize> {
    let mut reads = Vec::new();
    let mut todo = vec![of];
    let mut seen = vec![false; ir.relations.len()];
    while let Some(r) = todo.pop() {
        for rule in ir.rules.iter().filter(|rule| rule.head == r) {
            for (read, _) in rule.body.iter().filter_map(|l| l.kind.reads()) {
                if std::mem::replace(&mut seen[read], true) || ir.relations[read].input {
                    continue;
                }
                if ir.relations[read].aggregate_body {
                    todo.push(read);
                } else {
                    reads.push(read);
                }
            }
        }
    }
    reads.sort_unstable();
    reads
}

/// `of` (when derived) and every derived relation it reads, directly or
/// through other derived relations: what a run must return to re-derive
/// the rows of `of`.
pub fn derived_closure(ir: &kaiseki_engine::dl::ir::Program, of: usize) -> Vec<usize> {
    let mut all: Vec<usize> = Vec::new();
    if !ir.relations[of].input {
        all.push(of);
    }
    let mut todo = vec![of];
    while let Some(r) = todo.pop() {
        for read in derived_reads(ir, r) {
            if !all.contains(&read) {
                all.push(read);
                todo.push(read);
            }
        }
    }
    all.sort_unstable();
    all
}

/// What a query computed: its answers, the facts (to show the ids), the
/// derived relations it was evaluated over, and the lowering diagnostics.
pub struct QueryRun {
    pub answers: Table,
    pub facts: FactBase,
    pub derived: Vec<Table>,
    pub diags: Vec<Diagnostic>,
}

/// The answers of `query` over the facts of `program` and the derived
/// relations `reads` (at least [`Query::reads`]; [`Query::proof_reads`]
/// to prove them). The rules run on groups of units with `jobs` threads;
/// the body, which may join across units, runs once over what they
/// derived together.
pub fn run_query(
    program: &Program,
    jobs: usize,
    query: &Query,
    reads: &[String],
) -> Result<QueryRun, String> {
    let reads: Vec<&str> = reads.iter().map(String::as_str).collect();
    let (facts, derived, diags) = derive_groups(program, jobs, query.rules.as_ref(), &reads)?;
    let registry = kaiseki_rules::functors::standard();
    let tables = kaiseki_engine::run_interpreted_given(
        &query.program,
        &facts,
        &derived,
        &registry,
        Select::Only(&["query"]),
    )
    .map_err(|e| e.to_string())?;
    let answers = tables
        .into_iter()
        .next()
        .ok_or_else(|| "the query produced no relation".to_string())?;
    Ok(QueryRun {
        answers,
        facts,
        derived,
        diags,
    })
}

/// The facts of `program` and the derived relations `reads` (none: the
/// rules do not run), derived on groups of units with `jobs` threads and
/// put together, with the lowering diagnostics. The built-in rules
/// (`rules` `None`) are interpreted here too: the compiled program runs
/// every stratum, the interpreter only those `reads` depend on, which for
/// the few relations of a query or an explanation is the faster way
/// (`query 'access(R, S, V)'` on the 10,000-line uniform unit: 0.5 s
/// instead of 1.6 s; a flow query on the 53,000-line one: 9.6 s instead
/// of 10.7 s, and half the memory). Both engines give the same relations
/// (tests/engines_agree.rs).
pub fn derive_groups(
    program: &Program,
    jobs: usize,
    rules: Option<&RuleProgram>,
    reads: &[&str],
) -> Result<(FactBase, Vec<Table>, Vec<Diagnostic>), String> {
    let builtin;
    let rules = match rules {
        None if !reads.is_empty() => {
            builtin = builtin_rule_program()?;
            Some(&builtin)
        }
        rules => rules,
    };
    // What `analyze` computes on request, a query or an explanation may
    // read too: only the strata its relations need run. The regions of
    // every level only when a region relation is read (they cost the
    // square of a long unit's length).
    let regions = reads.iter().any(|r| r.starts_with("region_"));
    let asked = ["coincidence", "parallel", "comm", "general"].into_iter();
    let asked: Vec<&str> = asked.chain(regions.then_some("regions")).collect();
    let (groups, diags) = crate::groups::map_groups(program, jobs, |mut facts| {
        let derived = if reads.is_empty() {
            Vec::new()
        } else {
            let given = facts.request.len();
            for what in &asked {
                facts.request.push(kaiseki_facts::Request {
                    what: (*what).into(),
                });
            }
            let derived = derive_with(&facts, rules, Select::Only(reads))?;
            facts.request.truncate(given);
            derived
        };
        Ok((facts, derived))
    })?;
    let mut facts = FactBase::default();
    let mut derived = Vec::with_capacity(groups.len());
    for (group_facts, group_derived) in groups {
        facts.extend(group_facts);
        derived.push(group_derived);
    }
    facts.normalize();
    Ok((facts, merge_tables(derived), diags))
}

/// Prints the diagnostics of rule files; the error that sums them up.
fn rule_errors(diags: &[kaiseki_engine::RuleDiagnostic], what: &str) -> String {
    for d in diags {
        eprintln!("{d}");
    }
    format!("{} error(s) in {what}", diags.len())
}
