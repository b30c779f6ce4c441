//! kaiseki's built-in rules (`rules/dl`): where they are, how a rule
//! program is loaded against kaiseki's fact base and functors, the
//! compiled program `build.rs` made of them, and the generated `facts.dl`.

use crate::functors;
use kaiseki_engine::dl::{self, diag::Sources};
#[cfg(not(test))]
use kaiseki_engine::{compare_engines, CompiledProgram};
use kaiseki_engine::{run_interpreted_with, EngineError, RuleDiagnostic, RuleProgram};
use kaiseki_facts::{FactBase, Table};
use std::path::{Path, PathBuf};

/// Checks `sources` as one program against kaiseki's fact base and the
/// standard functors.
pub fn check_rules(sources: &Sources) -> Result<RuleProgram, Vec<RuleDiagnostic>> {
    RuleProgram::from_sources_with(sources, &functors::standard())
}

/// Reads and checks every `*.dl` file of `dir` (in file-name order) as one program.
pub fn load_rules(dir: &Path) -> Result<RuleProgram, Vec<RuleDiagnostic>> {
    check_rules(&dl::read_dir(dir)?)
}

/// The directory of the built-in rules (`rules/dl`), which `build.rs` also
/// compiles with Ascent.
pub fn builtin_rules_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("dl")
}

/// The text of `rules/dl/facts.dl`: a `.decl` and an `.input` for every
/// relation of the fact base, with its documentation above it.
pub fn facts_decls() -> String {
    let mut s = String::from(
        "// The input relations: generated from kaiseki_facts::FactBase::SCHEMAS by\n\
         // kaiseki_rules::facts_decls(); do not edit. After changing facts/src/schema.rs,\n\
         // regenerate with: KAISEKI_BLESS=1 cargo test -p kaiseki-rules facts_dl\n",
    );
    for schema in FactBase::SCHEMAS {
        s.push_str(&format!(
            "\n// {}\n.decl {}\n.input {}\n",
            schema.doc.trim(),
            schema.signature(),
            schema.name
        ));
    }
    s
}

/// Runs `program` on `facts` with the standard functors: every declared
/// relation (inputs included), rows sorted and deduplicated.
pub fn run_interpreted(program: &RuleProgram, facts: &FactBase) -> Result<Vec<Table>, EngineError> {
    run_interpreted_with(program, facts, &functors::standard())
}

// The built-in program is left out of this crate's unit tests, which do
// not need it: compiling its Ascent code a second time, for the test
// harness, took minutes (the workspace's tests/engines_agree.rs tests it).
#[cfg(not(test))]
mod compiled {
    include!(concat!(env!("OUT_DIR"), "/builtin.rs"));
}

/// The built-in rules, compiled.
#[cfg(not(test))]
pub fn builtin_program() -> &'static CompiledProgram {
    &compiled::PROGRAM
}

/// Runs the compiled built-in rules on `facts` with the standard functors.
#[cfg(not(test))]
pub fn run_compiled(facts: &FactBase) -> Result<Vec<Table>, EngineError> {
    compiled::PROGRAM.run(facts, &functors::standard())
}

/// [`compare_engines`] on the built-in rules with the standard functors:
/// the interpreter runs the very files the crate was compiled from (kept
/// in the binary), whatever `rules/dl` holds now. Errors become text.
#[cfg(not(test))]
pub fn compare_builtin(facts: &FactBase) -> Result<Vec<String>, String> {
    let compiled = builtin_program();
    let program = check_rules(&compiled.sources()).map_err(|diags| {
        diags
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    })?;
    compare_engines(&program, compiled, facts, &functors::standard()).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_dl_is_up_to_date() {
        let path = builtin_rules_dir().join("facts.dl");
        let want = facts_decls();
        if std::env::var_os("KAISEKI_BLESS").is_some() {
            std::fs::write(&path, &want).expect("write rules/dl/facts.dl");
        }
        let have = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            have == want,
            "rules/dl/facts.dl differs from facts_decls(); regenerate it with\n  KAISEKI_BLESS=1 cargo test -p kaiseki-rules facts_dl"
        );
    }

    #[test]
    fn facts_dl_declares_every_input_relation() {
        let sources = Sources {
            files: vec![("facts.dl".into(), facts_decls())],
        };
        let program = check_rules(&sources).unwrap();
        assert_eq!(program.ir().relations.len(), FactBase::SCHEMAS.len());
        assert!(program.ir().relations.iter().all(|r| r.input && !r.output));
    }

    #[test]
    fn inputs_and_functors_are_checked_at_load() {
        let sources = Sources {
            files: vec![(
                "a.dl".into(),
                ".decl cfg_edge(a: number, b: number)\n.input cfg_edge\n.functor nope(x: number): number\n.decl p(x: number)\np(Y) :- cfg_edge(X, _), Y = @nope(X).\n".into(),
            )],
        };
        let errs: Vec<String> = check_rules(&sources)
            .unwrap_err()
            .iter()
            .map(|d| d.headline())
            .collect();
        assert_eq!(
            errs,
            vec![
                "a.dl:1:7: error: `.input cfg_edge`: declared as `cfg_edge(a: number, b: number)` but the fact base has `cfg_edge(from: number, to: number)`",
                "a.dl:3:10: error: functor `nope`: no functor `nope` is registered in the engine",
            ]
        );
    }
}
