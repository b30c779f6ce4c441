//! The functors that hand the mathematics (`kaiseki-affine`, `kaiseki-sections`)
//! to the rules, and the unrolling model.

pub mod functors;
pub mod regions;
pub mod sad;
pub mod unroll;
