//! kaiseki's analyses as Datalog: the rule files of `rules/dl` (one concern
//! each: dataflow, dependence, subscripts, parallelization, regions,
//! unrolling, HPF communication), compiled into the crate by `build.rs`
//! through the engine's Ascent translation, and the functors they call.
//!
//! It holds no engine and no mathematics: the Datalog engine is
//! `kaiseki-engine`, the dependence mathematics `kaiseki-affine`, the
//! section algebra `kaiseki-sections`. The rules read kaiseki's fact base
//! (`kaiseki-facts`).
//!
//! Code map:
//! - [`builtin`]: the built-in rules' directory, loading rule files
//!   against kaiseki's facts and functors ([`load_rules`]), the compiled
//!   program ([`builtin_program`], [`run_compiled`]), the comparison of
//!   both engines on it ([`compare_builtin`]) and the generated `facts.dl`.
//! - [`functors`]: the functors, each a thin wrapper from rule symbols to
//!   the mathematics and back ([`functors::standard`]: the registry).
//! - [`unroll`]: the unrolling model of seed 004 (machine, loop body,
//!   estimate and search) that the unrolling functors run.
//! - [`kinds`]: what each id column numbers (references, statements,
//!   loops...), from the input schemas through the rules.

pub mod builtin;
pub mod functors;
pub mod kinds;
pub mod unroll;

#[cfg(not(test))]
pub use builtin::{builtin_program, compare_builtin, run_compiled};
pub use builtin::{builtin_rules_dir, check_rules, facts_decls, load_rules, run_interpreted};
