//! The affine mathematics of loop programs: pure functions over integers,
//! each tested against enumeration (`brute_force`) and the papers' examples.
//! It knows no Fortran text, no facts and no Datalog: the rules hand it
//! normal forms and references spelled as symbols ([`symbolic`]) through
//! their functors (`kaiseki-rules`). Today it holds the array subscript
//! dependence mathematics of Ishida & Kanada (seed 002); exact iteration
//! domains, guards and closed forms of induction variables belong here too.
//!
//! Data flow: a caller describes two references U and V ([`RefInfo`]:
//! subscripts and loop bounds in normal form over standard induction
//! variables, [`normal_form`]), prepares them as a [`Pair`] (the integer system of
//! "same element, both inside their loops", [`pair`]), then asks either
//! - [`Pair::coincidence`]: the paper's loop dependence information for one
//!   common loop (section 3), decided by the coefficient rules (1)-(3)
//!   (section 4), the Diophantine method (section 5) or our exact test
//!   ([`coincidence`]); or
//! - [`Pair::dependence_vectors`]: direction and distance vectors over all
//!   common loops ([`vectors`]); or
//! - [`Pair::covered_by_v`]: whether V writes the element of every instance
//!   of U, so that a V always run between a dependence's ends kills it
//!   (`cover`).
//!
//! Underneath: [`linear`] (checked integer affine expressions),
//! `ranges` (the cheap bounds test asked first),
//! [`diophantine`] (general integer solution of linear equations),
//! [`feasibility`] (exact integer feasibility, Omega-test style, budgeted).
//!
//! Soundness: "does not hold" / "no vector" is said only when proven;
//! anything unknown (non-affine subscripts, unknown bounds, an exhausted
//! budget, overflow) leaves a dependence possible.

pub mod coincidence;
mod cover;
pub mod diophantine;
pub mod direction;
pub mod feasibility;
pub mod linear;
pub mod normal_form;
pub mod pair;
mod ranges;
mod samples;
pub mod symbolic;
pub mod vectors;

#[cfg(test)]
mod benchmark;
#[cfg(test)]
mod brute_force;
#[cfg(test)]
mod paper_examples;

pub use coincidence::{Property, Rule, Verdict};
pub use direction::Dir;
pub use feasibility::questions_past_budget;
pub use normal_form::{
    normalize_do, Guard, LoopBound, NormalForm, RefInfo, Subscript, SubscriptError, SymbolRange,
    SymbolRanges,
};
pub use pair::{Pair, EXACT_TEST_BUDGET};
pub use vectors::DepVector;
