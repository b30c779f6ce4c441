//! The Fortran 77/90 + HPF frontend: source files -> [`ast::Program`] ->
//! facts ([`kaiseki_facts::FactBase`]).
//!
//! The frontend never fails: it returns a tree with what could be parsed and
//! the diagnostics for the rest (per-statement recovery; a statement that is
//! valid but not modelled becomes [`ast::StmtKind::Opaque`] with a warning).

mod align;
pub mod ast;
mod classify;
mod constants;
pub mod data;
mod derived;
pub mod diagnostics;
mod files;
mod fixed_words;
pub mod fold;
mod hpf_library;
mod hpf_syntax;
pub mod intrinsics;
mod lexer;
mod lines;
pub mod lower;
mod markers;
mod masked;
mod parser;
mod preprocess;
mod scopes;
mod source;
mod statement;
mod structure;
pub mod symbols;
pub mod synth;

pub use diagnostics::{Diagnostic, Severity};
pub use files::{inlined_lines, InlinedLine};
pub use lower::{lower, lower_diagnostics, lower_units, CallEffects, NextIds};
pub use source::{form_of, Form, MacroArg, SourceOptions};

use preprocess::Input;
use source::{read_text, Reporter};

/// Parses the given files (fixed or free form by extension; `.F`, `.F90`,
/// `.fpp`... through the C preprocessor with the macros of `opts`) into one
/// program. Never panics: unreadable files and bad statements become
/// diagnostics and the rest is still parsed.
pub fn parse_files<P: AsRef<std::path::Path>>(
    paths: &[P],
    opts: &SourceOptions,
) -> (ast::Program, Vec<Diagnostic>) {
    let mut rep = Reporter::default();
    let mut units = Vec::new();
    for p in paths {
        let path = p.as_ref().to_string_lossy().to_string();
        match read_text(p.as_ref()) {
            Ok(text) => parse_text(&path, &text, Input::Disk, opts, &mut rep, &mut units),
            Err(e) => rep.file_error(&path, e),
        }
    }
    let mut program = ast::Program {
        files: Vec::new(),
        units,
        generics: Default::default(),
    };
    scopes::resolve(&mut program, &mut rep);
    derived::flatten(&mut program, &mut rep);
    scopes::shape_allocated(&mut program);
    program.files = rep.files;
    (program, rep.diags)
}

/// Parses `text` as if read from `path` (whose extension chooses the
/// form and preprocessing; INCLUDEs are resolved next to `path`).
pub fn parse_source(path: &str, text: &str) -> (ast::Program, Vec<Diagnostic>) {
    let mut rep = Reporter::default();
    let mut units = Vec::new();
    let opts = SourceOptions::default();
    parse_text(path, text, Input::Text(text), &opts, &mut rep, &mut units);
    let mut program = ast::Program {
        files: Vec::new(),
        units,
        generics: Default::default(),
    };
    scopes::resolve(&mut program, &mut rep);
    derived::flatten(&mut program, &mut rep);
    scopes::shape_allocated(&mut program);
    program.files = rep.files;
    (program, rep.diags)
}

fn parse_text(
    path: &str,
    text: &str,
    input: Input,
    opts: &SourceOptions,
    rep: &mut Reporter,
    units: &mut Vec<ast::Unit>,
) {
    let file = rep.add_file(path, text);
    let lines = if opts.preprocesses(path) {
        match preprocess::preprocess(file, input, opts, rep) {
            Some(lines) => lines,
            None => return,
        }
    } else {
        files::as_written(file, rep)
    };
    let stmts = files::statements_of(file, &lines, opts.form_of(path), opts, rep);
    if stmts.is_empty() && !rep.diags.iter().any(|d| d.path == path && d.is_error()) {
        rep.file_error(path, "empty file: no Fortran statements");
        return;
    }
    let eof = files::end_of(file, rep);
    units.extend(structure::build_units(stmts, eof, rep));
}
