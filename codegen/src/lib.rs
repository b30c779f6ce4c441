//! What kaiseki prints: reports, CSV contracts and Graphviz pictures built
//! from the facts and the derived relations.

pub mod deps;
pub mod table;
