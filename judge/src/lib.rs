//! kaiseki's brute-force judge, used only by tests: an interpreter of the
//! syntax tree that records every memory access ([`trace`]), the real
//! dependences those accesses make ([`deps`]), and seeded generators of
//! random Fortran programs ([`gen`]). What the analyses claim statically is
//! checked against what a run actually does.

pub mod deps;
pub mod gen;
pub mod interp;
pub mod trace;

pub use deps::{dependences, DepKind, Dependence};
pub use interp::{run, Config, Run, RunError};
pub use trace::{Access, Iteration, Loc, Mode};
