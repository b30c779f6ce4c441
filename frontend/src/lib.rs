//! The Fortran 77/90 + HPF frontend: source files -> [`ast::Program`] ->
//! facts ([`kaiseki_facts::FactBase`]).
//!
//! The frontend never fails: it returns a tree with what could be parsed and
//! the diagnostics for the rest (per-statement recovery; a statement that is
//! valid but not modelled becomes [`ast::StmtKind::Opaque`] with a warning).

pub mod ast;
pub mod diagnostics;
pub mod fold;
pub mod lower;
pub mod symbols;
pub mod synth;

pub use diagnostics::{Diagnostic, Severity};
pub use lower::lower;
