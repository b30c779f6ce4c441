//! kaiseki's fact base: the relation schemas that lowering produces and the
//! rules read, one documented Rust type per relation, with TSV (Soufflé
//! `.facts`) and CSV I/O.
//!
//! The names of relations and columns are the same words in `.dl` files,
//! Rust fields and CSV headers. `docs/relations.md` is generated from the
//! doc comments here (`kaiseki facts --list`).

pub mod excerpt;
pub mod io;
pub mod relation;
mod schema;

pub use io::{read_table, write_table, Format};
pub use relation::{
    BlockId, ColType, Column, FormId, IdKind, LoopId, RefId, Relation, Schema, StmtId, Table, Value,
};
pub use schema::*;
