//! A Datalog engine: a documented subset of Soufflé's rule language
//! ([`dl`]) and two engines that run it, an interpreter and a translation
//! to Ascent that a build script compiles into the crate that uses it.
//!
//! It knows no Fortran and no analysis: a program reads its input relations
//! by name from any fact base that implements [`Facts`], and calls the Rust
//! functions a [`FunctorRegistry`] holds. kaiseki's rules, fact base and
//! functors are `kaiseki-rules` and `kaiseki-facts`.
//!
//! Data flow: `.dl` files -> [`dl::compile`] (parse, check, stratify) ->
//! a checked program that either the interpreter runs at run time
//! ([`run_interpreted_with`], on a [`RuleProgram`]) or a build script
//! translates to Ascent ([`dl::to_ascent`]) and runs as a
//! [`CompiledProgram`]. Both read the input relations from the [`Facts`]
//! and return the declared relations ([`Select`]) as sorted [`Table`]s;
//! [`compare_engines`] checks that they agree.
//!
//! Code map:
//! - [`dl`]: lexer, parser, syntax tree, lowering to flat rules
//!   ([`dl::ir`]), type and binding checks, stratification, the join-order
//!   lint and the translation to Ascent; shared with `build.rs`.
//! - [`table`]: values, column types, tables and the [`Facts`] trait.
//! - [`program`]: a checked program, its inputs checked against the fact
//!   base and its functors against the registry.
//! - `interp`: the semi-naive interpreter (stores and indices, join
//!   planning, plan execution).
//! - [`compiled`]: what the generated Ascent code runs in, and
//!   [`indices`], the data-structure providers it declares relations with.
//! - [`run`]: what every run does around an engine (inputs, functors,
//!   tables); [`rows`]: interned `i64` rows; [`ops`]: the arithmetic and
//!   aggregates both engines share; [`functors`]: the functor registry.
//! - [`compare`]: both engines on the same facts, diffed.
//!
//! Invariants: both engines run the same checked program, number symbol
//! constants the same way and call the same `ops` and functors, so they
//! derive identical relations; loading never panics (bad rules give
//! diagnostics), and a run fails only with an [`EngineError`].

// The generated code names the engine `::kaiseki_engine`, also in this
// crate's own test programs.
extern crate self as kaiseki_engine;

#[cfg(test)]
mod bench;
pub mod compare;
pub mod compiled;
pub mod dl;
pub mod error;
pub mod excerpt;
pub mod functors;
pub mod indices;
mod interp;
pub mod ops;
pub mod program;
pub mod rows;
pub mod run;
pub mod table;
#[cfg(test)]
mod testing;

pub use compare::{compare_engines, diff_tables};
pub use compiled::CompiledProgram;
pub use dl::diag::RuleDiagnostic;
pub use error::EngineError;
pub use functors::{Functor, FunctorContext, FunctorRegistry, FunctorSpec};
pub use interp::{run_interpreted_given, run_interpreted_select, run_interpreted_with};
pub use program::RuleProgram;
pub use run::Select;
pub use table::{ColType, Facts, Table, Value};
