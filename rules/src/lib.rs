//! kaiseki's rules: the Datalog rule language ([`dl`]), its two engines
//! and the functors the rules call.
//!
//! Data flow: `.dl` files -> [`dl::compile`] (parse, check, stratify) ->
//! a checked program that either the interpreter runs at run time
//! ([`run_interpreted`], for `--rules DIR`) or `build.rs` translates to
//! Ascent at build time ([`run_compiled`], the built-in rules of
//! `rules/dl`). Both read the input relations from a
//! [`kaiseki_facts::FactBase`] by name and return the declared relations
//! ([`Select`]) as sorted [`kaiseki_facts::Table`]s; [`compare_builtin`]
//! checks that they agree.
//!
//! Code map:
//! - [`dl`]: lexer, parser, syntax tree, lowering to flat rules
//!   ([`dl::ir`]), type and binding checks, stratification, and the
//!   translation to Ascent; shared with `build.rs`.
//! - [`program`]: loading a directory of rules; `facts.dl` generation.
//! - `interp`: the semi-naive interpreter (stores and indices, join
//!   planning, plan execution).
//! - [`compiled`]: the Ascent programs `build.rs` generated.
//! - [`run`]: what every run does around an engine (inputs, functors,
//!   tables); [`rows`]: interned `i64` rows; [`ops`]: the arithmetic and
//!   aggregates both engines share; [`functors`]: the functor registry.
//! - [`compare`]: both engines on the same facts, diffed.
//! - [`kinds`]: what each id column numbers (references, statements,
//!   loops...), from the input schemas through the rules.
//!
//! Invariants: both engines run the same checked program, number symbol
//! constants the same way and call the same `ops` and functors, so they
//! derive identical relations; loading never panics (bad rules give
//! diagnostics), and a run fails only with an [`EngineError`].

#[cfg(test)]
mod bench;
pub mod compare;
pub mod compiled;
pub mod dl;
pub mod error;
pub mod functors;
mod indices;
mod interp;
pub mod kinds;
pub mod native;
pub mod ops;
pub mod program;
pub mod rows;
pub mod run;
#[cfg(test)]
mod testing;

#[cfg(not(test))]
pub use compare::compare_builtin;
pub use compare::{compare_engines, diff_tables};
pub use compiled::CompiledProgram;
#[cfg(not(test))]
pub use compiled::{builtin_program, run_compiled};
pub use dl::diag::RuleDiagnostic;
pub use error::EngineError;
pub use functors::{Functor, FunctorContext, FunctorRegistry, FunctorSpec};
pub use interp::{
    run_interpreted, run_interpreted_given, run_interpreted_select, run_interpreted_with,
};
pub use program::{builtin_rules_dir, facts_decls, load_rules, RuleProgram};
pub use run::Select;
