//! The rule language: a subset of Soufflé's Datalog, read into a checked,
//! stratified [`ir::Program`]. This module depends on nothing else in the
//! crate, because `build.rs` includes it too (to translate the built-in
//! rules into Ascent): one parser for both engines.
//!
//! # The subset
//!
//! ```text
//! // line comments and /* block comments */
//! .decl edge(from: number, to: number)       // types: number (i64), symbol (string)
//! .input edge                                // bound to the fact base by name; IO options
//! .output path(IO=file, delimiter="\t")      //   in parentheses are accepted and ignored
//! .functor dist(a: number, b: number): number   // a Rust function of the engine's registry
//!
//! edge(1, 2).                                // a fact: constants only
//! path(X, Y) :- edge(X, Y).
//! path(X, Z) :- path(X, Y), edge(Y, Z).
//! a(X), b(X) :- c(X).                        // several heads: one rule each
//! h(X, Y + 1) :- e(X, Y), !p(X, _), X != Y, (f(X) ; g(X)).
//! d(X, Z) :- e(X, Y), Z = @dist(X, Y), Z >= 0, S = cat("a", to_string(Z)).
//! n(X, N) :- e(X, _), N = count : { edge(X, _) }.
//! m(X, M) :- e(X, _), M = max Y : { edge(X, Y) }.   // also min, sum
//! ```
//!
//! - Literals: atoms, negated atoms `!r(..)`, comparisons `= != < <= > >=`
//!   (ordering only on numbers), parenthesized disjunctions `( .. ; .. )`.
//! - Expressions: numbers, strings, variables, `_` (only as an argument of a
//!   body atom), `+ - * / %` and unary `-` on numbers (wrapping on overflow;
//!   division or remainder by zero gives no result), functor calls
//!   `@f(..)` and the intrinsics `cat`, `to_number`, `to_string` (with or
//!   without `@`), and aggregates.
//! - A functor returns zero, one or several values; the rule fires once
//!   per value.
//! - Aggregates: `count : { body }`, `sum E : { body }`, `min E : { .. }`,
//!   `max E : { .. }` (or `: atom` without braces). A body variable that also
//!   occurs in the enclosing clause outside aggregates groups the
//!   aggregate and must be bound outside it; every other variable is local
//!   and must be bound by an atom of the body. The aggregate ranges over
//!   the distinct matching combinations of the body's tuples; `count` and
//!   `sum` of nothing are 0, `min` and `max` of nothing give no result.
//!   No disjunction inside an aggregate.
//! - Negation and aggregates must be stratified (not through recursion).
//! - All `.dl` files of a directory are one program, read in file-name order.

pub mod ast;
pub mod check;
pub mod diag;
pub mod ir;
pub mod join_order;
pub mod lexer;
pub mod lower;
pub mod parser;
pub mod stratify;
pub mod to_ascent;

use diag::{RuleDiagnostic, Sources};
use std::path::Path;

/// Parses, checks and stratifies a program made of `sources`.
pub fn compile(sources: &Sources) -> Result<ir::Program, Vec<RuleDiagnostic>> {
    let mut diags = Vec::new();
    let mut files = Vec::new();
    for (i, (_, text)) in sources.files.iter().enumerate() {
        let (items, d) = parser::parse_file(i as u32, text);
        files.push(items);
        diags.extend(d);
    }
    let (mut program, d) = lower::lower(&files, sources);
    diags.extend(d);
    diags.extend(check::check(&mut program));
    diags.extend(stratify::stratify(&mut program));
    if diags.is_empty() {
        Ok(program)
    } else {
        Err(sources.resolve(diags))
    }
}

/// Reads every `*.dl` file of `dir`, sorted by file name.
pub fn read_dir(dir: &Path) -> Result<Sources, Vec<RuleDiagnostic>> {
    let io_error = |e: std::io::Error, what: &Path| {
        vec![RuleDiagnostic {
            file: what.display().to_string(),
            line: 0,
            col: 0,
            message: e.to_string(),
            source_line: None,
        }]
    };
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| io_error(e, dir))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "dl") && p.is_file())
        .collect();
    paths.sort();
    let mut sources = Sources::default();
    for path in paths {
        let text = std::fs::read_to_string(&path).map_err(|e| io_error(e, &path))?;
        sources.files.push((path.display().to_string(), text));
    }
    Ok(sources)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Pieces of rule text, so random programs get past the lexer often.
    const PIECES: &[&str] = &[
        ".decl ",
        ".input ",
        ".output ",
        ".functor ",
        "p",
        "q",
        "r",
        "X",
        "Y",
        "_",
        "(",
        ")",
        ",",
        ".",
        ":-",
        "!",
        "=",
        "<",
        "+",
        "-",
        "*",
        "/",
        "1",
        "\"s\"",
        ": number",
        ": symbol",
        "count",
        "sum",
        " : ",
        "{",
        "}",
        ";",
        "@f",
        "cat",
        " ",
        "\n",
        "x: number",
        "\"",
        "/*",
        "%",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]
        /// Any text gives a program or diagnostics, never a panic.
        #[test]
        fn never_panics(pieces in prop::collection::vec(0..PIECES.len(), 0..60)) {
            let text: String = pieces.iter().map(|&i| PIECES[i]).collect();
            let sources = diag::Sources { files: vec![("t.dl".into(), text)] };
            if let Err(diags) = compile(&sources) {
                prop_assert!(!diags.is_empty());
            }
        }
    }

    /// Valid programs to damage: errors then reach the checks after parsing.
    const PROGRAMS: &[&str] = &[
        include_str!("../../tests/compiled/aggregates/aggregates.dl"),
        include_str!("../../tests/compiled/functors/functors.dl"),
        include_str!("../../tests/compiled/arith/arith.dl"),
        include_str!("../../tests/compiled/negation/negation.dl"),
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]
        /// A valid program with a span cut out or replaced by another piece of
        /// it is checked without a panic.
        #[test]
        fn damaged_programs_never_panic(
            which in 0..PROGRAMS.len(),
            cuts in prop::collection::vec((0..2000usize, 0..8usize, 0..2000usize), 1..4),
        ) {
            let mut text: Vec<char> = PROGRAMS[which].chars().collect();
            for (at, len, from) in cuts {
                let at = at % (text.len() + 1);
                let end = (at + len).min(text.len());
                let from = from % (text.len() + 1);
                let piece: Vec<char> = text[from..(from + 3).min(text.len())].to_vec();
                text.splice(at..end, piece);
            }
            let sources = diag::Sources { files: vec![("t.dl".into(), text.into_iter().collect())] };
            let _ = compile(&sources);
        }
    }

    #[test]
    fn strata_come_in_dependency_order() {
        let text = ".decl e(a: number, b: number)\n.decl p(a: number, b: number)\n.decl n(a: number)\n\
                    e(1, 2).\np(X, Y) :- e(X, Y).\np(X, Z) :- p(X, Y), e(Y, Z).\nn(X) :- e(X, _), !p(X, X).";
        let sources = diag::Sources {
            files: vec![("t.dl".into(), text.into())],
        };
        let program = compile(&sources).unwrap();
        let names: Vec<(Vec<&str>, bool)> = program
            .strata
            .iter()
            .map(|s| {
                let rels = s
                    .relations
                    .iter()
                    .map(|r| program.relations[*r].name.as_str())
                    .collect();
                (rels, s.recursive)
            })
            .collect();
        assert_eq!(
            names,
            vec![(vec!["e"], false), (vec!["p"], true), (vec!["n"], false)]
        );
    }
}
