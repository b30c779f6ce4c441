//! kaiseki's fact base: the relation schemas that lowering produces and the
//! rules read, one documented Rust type per relation, with TSV (Soufflé
//! `.facts`) and CSV I/O.
//!
//! The names of relations and columns are the same words in `.dl` files,
//! Rust fields and CSV headers. `docs/relations.md` is generated from the
//! doc comments here (`kaiseki facts --list`).

pub mod io;
pub mod relation;
mod schema;

pub use io::{read_table, write_table, Format};
pub use relation::{
    BlockId, ColType, Column, FormId, IdKind, LoopId, RefId, Relation, Schema, StmtId, Table, Value,
};
pub use schema::*;

/// The source excerpt under a located message, which the Fortran
/// diagnostics print as the rule diagnostics do: the engine's, shown here
/// beside the positions (1-based line and column) both are written in.
pub use kaiseki_engine::excerpt;

/// The rule engine reads the fact base by relation name, in the columns of
/// its schemas.
impl kaiseki_engine::Facts for FactBase {
    fn columns(name: &str) -> Option<Vec<(&'static str, ColType)>> {
        let schema = FactBase::SCHEMAS.iter().find(|s| s.name == name)?;
        Some(schema.columns.iter().map(|c| (c.name, c.ty)).collect())
    }

    fn tables(&self) -> Vec<Table> {
        FactBase::tables(self)
    }
}
