//! The functors kaiseki's rules call: thin wrappers that read their
//! arguments off rule symbols, hand them to the mathematics
//! (`kaiseki-affine`, `kaiseki-sections`) or the unrolling model
//! ([`crate::unroll`]), and spell the answers back as symbols.

pub mod regions;
pub mod sad;
pub mod subscripts;
pub mod unroll;

use kaiseki_engine::FunctorRegistry;
use kaiseki_facts::FactBase;

/// Soufflé's intrinsics and kaiseki's functors: what the built-in rules,
/// and rule files run on kaiseki's facts, call.
pub fn standard() -> FunctorRegistry<FactBase> {
    let mut r = FunctorRegistry::intrinsics();
    for spec in subscripts::FUNCTORS
        .iter()
        .chain(unroll::FUNCTORS)
        .chain(sad::FUNCTORS)
        .chain(regions::FUNCTORS)
    {
        r.register(*spec)
            .unwrap_or_else(|e| panic!("kaiseki's functors: {e}"));
    }
    r
}
