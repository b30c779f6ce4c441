//! Helpers of the lowering tests: parse and lower a source text, and pick
//! rows out of the fact base.

#![allow(dead_code)]

use kaiseki_facts::FactBase;
use kaiseki_frontend::{lower, parse_source, Diagnostic};

/// Parses and lowers `text` (fixed form for `.f`, free form for `.f90`);
/// the parser must accept it without errors.
pub fn lower_src(path: &str, text: &str) -> (FactBase, Vec<Diagnostic>) {
    let (program, parse_diags) = parse_source(path, text);
    let errors: Vec<String> = parse_diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.to_string())
        .collect();
    assert!(errors.is_empty(), "parse errors:\n{}", errors.join("\n"));
    lower(&program)
}

/// Lowers a text that must give no diagnostics at all.
pub fn facts(path: &str, text: &str) -> FactBase {
    let (f, diags) = lower_src(path, text);
    let all: Vec<String> = diags.iter().map(|d| d.to_string()).collect();
    assert!(all.is_empty(), "diagnostics:\n{}", all.join("\n"));
    f
}

/// Statement ids and kinds, in id order.
pub fn kinds(f: &FactBase) -> Vec<(i64, String)> {
    f.stmt.iter().map(|s| (s.stmt, s.kind.clone())).collect()
}

/// The id of the `n`-th (0-based) statement of `kind`.
pub fn nth(f: &FactBase, kind: &str, n: usize) -> i64 {
    f.stmt
        .iter()
        .filter(|s| s.kind == kind)
        .nth(n)
        .unwrap_or_else(|| panic!("no {kind} #{n}"))
        .stmt
}

/// The id of the first statement of `kind` on `line`.
pub fn at_line(f: &FactBase, kind: &str, line: i64) -> i64 {
    f.stmt
        .iter()
        .find(|s| s.kind == kind && s.line == line)
        .unwrap_or_else(|| panic!("no {kind} on line {line}"))
        .stmt
}

pub fn succs(f: &FactBase, from: i64) -> Vec<i64> {
    f.cfg_edge
        .iter()
        .filter(|e| e.from == from)
        .map(|e| e.to)
        .collect()
}

/// The references of a statement in id order: (ref, "use"/"def", var).
pub fn refs(f: &FactBase, stmt: i64) -> Vec<(i64, &'static str, String)> {
    let mut v: Vec<(i64, &'static str, String)> = f
        .r#use
        .iter()
        .filter(|u| u.stmt == stmt)
        .map(|u| (u.r#ref, "use", u.var.clone()))
        .chain(
            f.def
                .iter()
                .filter(|d| d.stmt == stmt)
                .map(|d| (d.r#ref, "def", d.var.clone())),
        )
        .collect();
    v.sort();
    v
}

/// An affine form as (constant, [(loop, coeff)], [(var, coeff)]).
pub type FormRows = (i64, Vec<(i64, i64)>, Vec<(String, i64)>);

pub fn form(f: &FactBase, form: i64) -> FormRows {
    let c = f
        .affine
        .iter()
        .find(|a| a.form == form)
        .expect("affine row")
        .constant;
    let loops = f
        .affine_loop
        .iter()
        .filter(|a| a.form == form)
        .map(|a| (a.r#loop, a.coeff))
        .collect();
    let vars = f
        .affine_var
        .iter()
        .filter(|a| a.form == form)
        .map(|a| (a.var.clone(), a.coeff))
        .collect();
    (c, loops, vars)
}

/// The forms of the subscripts of reference `r`, by dimension (`None` for non-affine).
pub fn subscripts(f: &FactBase, r: i64) -> Vec<Option<FormRows>> {
    let rank = f
        .array_ref
        .iter()
        .find(|a| a.r#ref == r)
        .expect("array_ref")
        .rank;
    (1..=rank)
        .map(|d| {
            f.subscript
                .iter()
                .find(|s| s.r#ref == r && s.dim == d)
                .map(|s| form(f, s.form))
        })
        .collect()
}

pub fn errors(diags: &[Diagnostic]) -> Vec<String> {
    diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.message.clone())
        .collect()
}

/// The worked examples: `<workspace>/../shared/examples` (CI clones
/// `shared` beside the repository).
pub fn examples_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/examples")
}

/// Parses and lowers one example, named by its file name.
pub fn example(file: &str) -> (FactBase, Vec<Diagnostic>) {
    let path = examples_dir().join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    lower_src(file, &text)
}

/// An example that must lower without any diagnostic.
pub fn example_facts(file: &str) -> FactBase {
    let (f, diags) = example(file);
    let all: Vec<String> = diags.iter().map(|d| d.to_string()).collect();
    assert!(all.is_empty(), "diagnostics:\n{}", all.join("\n"));
    f
}

/// The id of the loop whose DO statement is on `line`.
pub fn loop_at(f: &FactBase, line: i64) -> i64 {
    f.r#loop
        .iter()
        .find(|l| l.line == line)
        .unwrap_or_else(|| panic!("no loop on line {line}"))
        .r#loop
}
