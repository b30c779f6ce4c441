//! Every kind of error in a rule program, with its exact position.

use kaiseki_engine::dl::diag::Sources;
use kaiseki_rules::check_rules;

/// The headlines of the diagnostics of a one-file program `t.dl`.
fn errors(text: &str) -> Vec<String> {
    let sources = Sources {
        files: vec![("t.dl".into(), text.into())],
    };
    match check_rules(&sources) {
        Ok(_) => vec![],
        Err(diags) => diags.iter().map(|d| d.headline()).collect(),
    }
}

const EDGE: &str =
    ".decl e(a: number, b: number)\n.decl s(x: symbol)\n.decl g(a: number, n: number)\n";

#[test]
fn syntax_error() {
    assert_eq!(
        errors("p(X) :- q(X)\np(1)."),
        vec!["t.dl:2:1: error: expected `.` at the end of the clause, found `p`"]
    );
}

#[test]
fn unknown_relation() {
    assert_eq!(
        errors(&format!("{EDGE}e(X, Y) :- f(X, Y).")),
        vec!["t.dl:4:12: error: unknown relation `f`"]
    );
    assert_eq!(
        errors(&format!("{EDGE}.output h")),
        vec!["t.dl:4:9: error: unknown relation `h`"]
    );
}

#[test]
fn arity_mismatch() {
    assert_eq!(
        errors(&format!("{EDGE}e(X, X) :- e(X, Y, Y).")),
        vec!["t.dl:4:12: error: `e` has 2 columns but 3 arguments are given"]
    );
}

#[test]
fn type_mismatch() {
    assert_eq!(
        errors(&format!("{EDGE}e(X, Y) :- e(X, Y), s(Y).")),
        vec!["t.dl:4:23: error: type mismatch: `Y` is a number, but column `x` of `s` is a symbol"]
    );
    assert_eq!(
        errors(&format!("{EDGE}s(\"a\").\ne(1, \"b\").")),
        vec![
            "t.dl:5:6: error: type mismatch: \"b\" is a symbol, but column `b` of `e` is a number"
        ]
    );
    assert_eq!(
        errors(&format!("{EDGE}e(X, X) :- s(Y), e(X, _), Y < X.")),
        vec!["t.dl:4:27: error: type mismatch: `<` compares numbers, `Y` is a symbol"]
    );
    assert_eq!(
        errors(&format!("{EDGE}e(X, Z) :- s(Y), e(X, _), Z = Y + 1.")),
        vec!["t.dl:4:31: error: type mismatch: `+` needs numbers, `Y` is a symbol"]
    );
    assert_eq!(
        errors(&format!("{EDGE}s(Z) :- e(X, _), Z = cat(X, \"a\").")),
        vec!["t.dl:4:26: error: type mismatch: argument 1 of `@cat` is a symbol, `X` is a number"]
    );
}

#[test]
fn unbound_in_head() {
    assert_eq!(
        errors(&format!("{EDGE}e(X, Z) :- e(X, _).")),
        vec!["t.dl:4:6: error: variable `Z` is unbound in the head"]
    );
    assert_eq!(
        errors(&format!("{EDGE}e(X, Z + 1) :- e(X, _).")),
        vec!["t.dl:4:6: error: variable `Z` is unbound in the head"]
    );
}

#[test]
fn unbound_in_negation() {
    assert_eq!(
        errors(&format!("{EDGE}s(X) :- s(X), !e(1, Y).")),
        vec!["t.dl:4:21: error: variable `Y` is unbound in a negation"]
    );
}

#[test]
fn unbound_in_comparison() {
    assert_eq!(
        errors(&format!("{EDGE}e(X, X) :- e(X, _), X < Y.")),
        vec!["t.dl:4:25: error: variable `Y` is unbound in a comparison"]
    );
    // `X = X + 1` binds nothing.
    assert_eq!(
        errors(&format!("{EDGE}e(1, 1) :- X = X + 1.")),
        vec!["t.dl:4:12: error: variable `X` is unbound in a comparison"]
    );
}

#[test]
fn unbound_in_functor_argument() {
    assert_eq!(
        errors(&format!("{EDGE}s(Y) :- s(X), Y = cat(X, Z).")),
        vec!["t.dl:4:26: error: variable `Z` is unbound in a functor argument"]
    );
}

#[test]
fn unbound_around_aggregates() {
    assert_eq!(
        errors(&format!("{EDGE}g(X, N) :- N = count : {{ e(X, _) }}.")),
        vec!["t.dl:4:16: error: variable `X` is shared with an aggregate but not bound outside it"]
    );
    assert_eq!(
        errors(&format!(
            "{EDGE}g(X, N) :- e(X, _), N = sum Y : {{ e(X, _) }}."
        )),
        vec!["t.dl:4:29: error: variable `Y` of an aggregate is not bound by an atom inside it"]
    );
}

#[test]
fn negation_through_recursion_names_the_cycle() {
    let text = ".decl p(x: number)\n.decl q(x: number)\np(1).\np(X) :- q(X), !p(X).\nq(X) :- p(X).";
    assert_eq!(
        errors(text),
        vec!["t.dl:4:16: error: negation through recursion (not stratifiable): p -> p"]
    );
    let text = ".decl p(x: number)\n.decl q(x: number)\np(1).\np(X) :- p(X), !q(X).\nq(X) :- p(X).";
    assert_eq!(
        errors(text),
        vec!["t.dl:4:16: error: negation through recursion (not stratifiable): p -> q -> p"]
    );
}

#[test]
fn aggregate_through_recursion_names_the_cycle() {
    let text = ".decl p(x: number)\np(1).\np(N) :- p(X), N = count : { p(_) }.";
    assert_eq!(
        errors(text),
        vec!["t.dl:3:19: error: aggregate through recursion (not stratifiable): p -> p"]
    );
}

#[test]
fn unknown_functor() {
    assert_eq!(
        errors(&format!("{EDGE}e(X, Y) :- e(X, _), Y = @dist(X, 1).")),
        vec!["t.dl:4:25: error: unknown functor `@dist` (declare it: `.functor dist(a: number): symbol`)"]
    );
    // Declared but not provided by the engine.
    assert_eq!(
        errors(&format!("{EDGE}.functor dist(a: number, b: number): number\ne(X, Y) :- e(X, _), Y = @dist(X, 1).")),
        vec!["t.dl:4:10: error: functor `dist`: no functor `dist` is registered in the engine"]
    );
    assert_eq!(
        errors(&format!("{EDGE}e(X, Y) :- e(X, _), Y = to_string(X, 1).")),
        vec!["t.dl:4:25: error: functor `to_string` takes 1 arguments but 2 are given"]
    );
}

#[test]
fn duplicate_declaration() {
    assert_eq!(
        errors(".decl p(x: number)\n.decl p(y: symbol)"),
        vec!["t.dl:2:7: error: relation `p` is declared twice (first at t.dl:1:7)"]
    );
}

#[test]
fn wildcards_only_in_body_atoms() {
    assert_eq!(
        errors(&format!("{EDGE}e(X, _) :- e(X, 1).")),
        vec!["t.dl:4:6: error: `_` cannot stand in a head"]
    );
    assert_eq!(
        errors(&format!("{EDGE}e(X, X) :- e(X, 1), X != _.")),
        vec!["t.dl:4:26: error: `_` can only be an argument of a body atom"]
    );
}

#[test]
fn every_error_is_reported_in_file_order() {
    let text = format!("{EDGE}e(X, Y) :- f(X).\ne(X, Z) :- e(X, _).\np(1)\ne(1, 2).");
    assert_eq!(
        errors(&text),
        vec![
            "t.dl:4:12: error: unknown relation `f`",
            "t.dl:5:6: error: variable `Z` is unbound in the head",
            "t.dl:7:1: error: expected `.` at the end of the clause, found `e`",
        ]
    );
}

#[test]
fn diagnostics_show_the_line_and_a_caret() {
    let sources = Sources {
        files: vec![("t.dl".into(), format!("{EDGE}e(X, Z) :- e(X, _)."))],
    };
    let d = check_rules(&sources).unwrap_err();
    assert_eq!(
        d[0].to_string(),
        "t.dl:4:6: error: variable `Z` is unbound in the head\n  e(X, Z) :- e(X, _).\n       ^"
    );
}

#[test]
fn one_program_across_files_in_name_order() {
    let dir = std::env::temp_dir().join(format!("kaiseki-rules-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("b.dl"), ".decl p(x: number)\n.output p\n").unwrap();
    std::fs::write(dir.join("a.dl"), "p(1).\nq(2).\n").unwrap();
    std::fs::write(dir.join("notes.txt"), "not a rule file").unwrap();
    let result = kaiseki_rules::load_rules(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    let errors: Vec<String> = result.unwrap_err().iter().map(|d| d.headline()).collect();
    let a = dir.join("a.dl").display().to_string();
    assert_eq!(
        errors,
        vec![format!("{a}:2:1: error: unknown relation `q`")]
    );
}
