//! `kaiseki explain`: why a row of a derived relation is there (its proof
//! tree down to input facts), or why it is not (for each rule that could
//! derive it, the body literal that fails first).
//!
//! Works the same for both engines without touching them: the run's
//! relations are held as tables ([`Relations`]), and a row is re-derived
//! on demand by searching, for each rule whose head matches it, a body
//! instance that holds in those tables ([`Prover`]; ranks keep recursive
//! proofs well founded). [`Show`] prints trees as text or DOT, and walks
//! their input facts for SARIF code flows ([`Show::flow`]).

mod pattern;
mod proof;
mod relations;
mod render;

pub use pattern::{Pattern, PatternError};
pub use proof::{How, Premise, Proof, Prover};
pub use relations::{arith, compare, Env, Reach, Relations};
pub use render::{FlowStep, Show};
