//! `kaiseki unroll`: per loop nest, the unroll vector of Koseki, Komatsu &
//! Fukazawa (seed 004), the model behind it, and the P(k) grid
//! (rules/dl/unroll.dl decides, codegen/src/unroll.rs prints).

use crate::cli::TableFormat;
use crate::{groups, pipeline};
use kaiseki_codegen::unroll::{self, GridCell, UnrollRow};
use kaiseki_codegen::unroll_emit;
use kaiseki_codegen::unroll_png::{self, Panel};
use kaiseki_engine::Select;
use kaiseki_facts::{FactBase, Table};
use kaiseki_frontend::ast::Program;
use kaiseki_frontend::{Form, SourceOptions};
use kaiseki_rules::unroll::machine::Machine;
use kaiseki_rules::unroll::parse_model;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The facts and the unrolling relations of one group of units.
pub type Analyzed = (FactBase, Vec<Table>);

/// What `kaiseki unroll` was asked for besides the report.
pub struct Options<'a> {
    pub machine: Option<&'a Path>,
    pub format: TableFormat,
    pub grid: Option<u16>,
    /// `--grid K --png OUT`: the grids drawn, not printed.
    pub png: Option<&'a Path>,
    pub rules: Option<&'a Path>,
    pub jobs: usize,
    /// `--emit -o OUT [--factors K,...]`: write the unrolled program.
    pub emit: Option<Emit<'a>>,
}

/// Where to write the unrolled program, and the factors forced on every nest.
pub struct Emit<'a> {
    pub output: &'a Path,
    pub factors: Option<&'a [i64]>,
}

/// The files of `program` rewritten with their nests unrolled and jammed
/// (codegen/src/unroll_emit.rs), one to `emit.output` or several into it
/// as a directory; what was not done is printed as warnings.
fn write_unrolled(
    files: &[PathBuf],
    program: &Program,
    opts: &SourceOptions,
    rows: &[UnrollRow],
    emit: &Emit,
    had_errors: bool,
) -> Result<ExitCode, String> {
    let targets = super::output_paths(files, emit.output)?;
    let mut unrolled = 0;
    for (given, target) in files.iter().zip(&targets) {
        // The file's id among the program's files, which also hold the
        // files its INCLUDE lines read.
        let shown = given.display().to_string();
        let Some(id) = program.files.iter().position(|f| f.path == shown) else {
            return Err(format!("{shown}: not among the files read"));
        };
        let file = &program.files[id];
        let name = &file.path;
        let source = std::fs::read_to_string(name).map_err(|e| format!("{name}: {e}"))?;
        let fixed = opts.form_of(name) == Form::Fixed;
        let done = unroll_emit::emit(program, id, &source, fixed, rows, emit.factors);
        for w in &done.warnings {
            let line = file.lines.get(w.line - 1).map_or("", String::as_str);
            eprintln!(
                "{name}:{}:{}: warning: {}\n  {line}\n  {}^",
                w.line,
                w.col,
                w.message,
                " ".repeat(w.col.saturating_sub(1))
            );
        }
        std::fs::write(target, done.text).map_err(|e| format!("{}: {e}", target.display()))?;
        unrolled += done.unrolled;
    }
    eprintln!(
        "{unrolled} loop nest{} unrolled: wrote {}",
        if unrolled == 1 { "" } else { "s" },
        emit.output.display()
    );
    Ok(super::status(had_errors))
}

/// The syntax tree, the facts and the unrolling relations of each group
/// of units, and whether any error was reported.
pub fn analyze(
    files: &[PathBuf],
    opts: &SourceOptions,
    machine: &Machine,
    rules: Option<&Path>,
    jobs: usize,
) -> Result<(Program, Vec<Analyzed>, bool), String> {
    let (program, mut diags) = kaiseki_frontend::parse_files(files, opts);
    let rules = rules.map(pipeline::load_rules).transpose()?;
    let (analyzed, lower_diags) = groups::map_groups(&program, jobs, |mut facts| {
        facts.request.push(kaiseki_facts::Request {
            what: "unroll".into(),
        });
        add_machine(&mut facts, machine);
        let derived =
            pipeline::derive_with(&facts, rules.as_ref(), Select::Only(unroll::RELATIONS))?;
        Ok((facts, derived))
    })?;
    diags.extend(lower_diags);
    let had_errors = pipeline::report(&diags);
    Ok((program, analyzed, had_errors))
}

/// The `machine` facts the unrolling rules read, from `machine`.
pub fn add_machine(facts: &mut FactBase, machine: &Machine) {
    for (param, value) in machine.params() {
        facts.machine.push(kaiseki_facts::Machine {
            param: param.to_string(),
            value,
        });
    }
}

/// The machine of `--machine FILE`, or the paper's; a bad file is bad
/// input, printed: exit status 1.
pub fn machine_or_exit(path: Option<&Path>) -> Result<Machine, ExitCode> {
    match path.map(read_machine).transpose() {
        Ok(m) => Ok(m.unwrap_or_default()),
        Err(e) => {
            eprintln!("{e}");
            Err(ExitCode::from(1))
        }
    }
}

/// A machine file: `key = value` lines (TOML's integers), `#` comments,
/// over the paper's machine. Errors name the file, line and column.
pub fn read_machine(path: &Path) -> Result<Machine, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut m = Machine::default();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("");
        if line.trim().is_empty() {
            continue;
        }
        let at = |col: usize, msg: String| {
            format!(
                "{}:{}:{}: error: {msg}\n  {raw}\n  {}^",
                path.display(),
                i + 1,
                col + 1,
                " ".repeat(col)
            )
        };
        let Some((key, value)) = line.split_once('=') else {
            return Err(at(0, "expected `name = integer`".into()));
        };
        let col = key.len() + 1 + (value.len() - value.trim_start().len());
        let value: i64 = value
            .trim()
            .replace('_', "")
            .parse()
            .map_err(|_| at(col, format!("`{}` is not an integer", value.trim())))?;
        let key_col = key.len() - key.trim_start().len();
        m.set(key.trim(), value).map_err(|e| at(key_col, e))?;
    }
    Ok(m)
}

/// The syntax tree and the rows of every nest of `files`.
pub fn report(
    files: &[PathBuf],
    opts: &SourceOptions,
    machine: &Machine,
    rules: Option<&Path>,
    jobs: usize,
) -> Result<(Program, Vec<UnrollRow>, bool), String> {
    let (program, analyzed, had_errors) = analyze(files, opts, machine, rules, jobs)?;
    let mut rows: Vec<UnrollRow> = analyzed
        .iter()
        .flat_map(|(facts, derived)| unroll::rows(facts, derived))
        .collect();
    rows.sort();
    Ok((program, rows, had_errors))
}

/// P(k) and saturation for every k with components 1..=size, per nest
/// with a model.
pub fn grid(rows: &[UnrollRow], size: u16, machine: &Machine) -> Vec<GridCell> {
    let mut cells = Vec::new();
    for r in rows {
        let record = format!(
            "{}|{}|{}|{}",
            r.body_ops, r.cycles, r.path_growth, r.removed
        );
        let Some(model) = parse_model(&record) else {
            continue;
        };
        let depth = r.loops.len();
        let mut k = vec![1i64; depth];
        loop {
            cells.push(GridCell {
                unit: r.unit.clone(),
                nest_line: r.nest_line,
                k: k.clone(),
                perf: model.perf(&k, machine),
                saturated: model.saturated(&k, machine),
            });
            // The next vector, the innermost loop fastest.
            let Some(i) = (0..depth).rev().find(|&i| k[i] < i64::from(size)) else {
                break;
            };
            k[i] += 1;
            k[i + 1..].iter_mut().for_each(|x| *x = 1);
        }
    }
    cells
}

/// The grids of `rows` as a heat map with the search paths
/// (codegen/src/unroll_png.rs), one panel per nest with a model.
fn write_png(
    rows: &[UnrollRow],
    size: u16,
    machine: &Machine,
    out: &Path,
    had_errors: bool,
) -> Result<ExitCode, String> {
    let cells = grid(rows, size, machine);
    let panels: Vec<Panel> = rows
        .iter()
        .filter(|r| {
            cells
                .iter()
                .any(|c| c.unit == r.unit && c.nest_line == r.nest_line)
        })
        .map(|r| Panel {
            cells: cells
                .iter()
                .filter(|c| c.unit == r.unit && c.nest_line == r.nest_line)
                .collect(),
            path: r.path.clone(),
            chosen: r
                .factors
                .split(';')
                .map(|k| k.parse().unwrap_or(1))
                .collect(),
        })
        .collect();
    let bytes = unroll_png::draw(&panels, usize::from(size))?;
    std::fs::write(out, bytes).map_err(|e| format!("{}: {e}", out.display()))?;
    eprintln!(
        "{} grid{} drawn: wrote {}",
        panels.len(),
        if panels.len() == 1 { "" } else { "s" },
        out.display()
    );
    Ok(super::status(had_errors))
}

pub fn run(files: &[PathBuf], opts: &SourceOptions, o: &Options) -> Result<ExitCode, String> {
    let machine = match machine_or_exit(o.machine) {
        Ok(m) => m,
        Err(code) => return Ok(code),
    };
    let (program, rows, had_errors) = report(files, opts, &machine, o.rules, o.jobs)?;
    if let Some(emit) = &o.emit {
        return write_unrolled(files, &program, opts, &rows, emit, had_errors);
    }
    if let (Some(size), Some(out)) = (o.grid, o.png) {
        return write_png(&rows, size, &machine, out, had_errors);
    }
    let text = match (o.grid, o.format) {
        (Some(size), TableFormat::Csv) => unroll::grid_csv(&grid(&rows, size, &machine)),
        (Some(size), TableFormat::Table) => unroll::grid_table(&grid(&rows, size, &machine)),
        (None, TableFormat::Csv) => unroll::to_csv(&rows),
        (None, TableFormat::Table) => unroll::to_table(&rows),
    };
    super::emit(&text)?;
    Ok(super::status(had_errors))
}
