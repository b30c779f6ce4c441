//! What the engine reads and returns: rows of [`Value`]s in [`Table`]s with
//! typed columns, and the [`Facts`] a run reads its input relations from.
//! A fact base with Rust types of its own (kaiseki's is `kaiseki_facts`)
//! shows itself to the engine through [`Facts`].

use std::fmt;

/// The two column types of the Datalog subset (Soufflé's `number` and `symbol`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ColType {
    Number,
    Symbol,
}

impl ColType {
    /// The Soufflé spelling used in `.decl` lines.
    pub fn souffle_name(self) -> &'static str {
        match self {
            ColType::Number => "number",
            ColType::Symbol => "symbol",
        }
    }
}

/// One field of one row.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    Number(i64),
    Symbol(String),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Number(n) => write!(f, "{n}"),
            Value::Symbol(s) => f.write_str(s),
        }
    }
}

/// An untyped table: what the interpreter and the exporters work on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    pub name: String,
    pub columns: Vec<(String, ColType)>,
    pub rows: Vec<Vec<Value>>,
}

impl Table {
    /// Sorts and deduplicates the rows: every exported file is sorted.
    pub fn normalize(&mut self) {
        self.rows.sort();
        self.rows.dedup();
    }
}

/// A fact base: the input relations a run binds its `.input` declarations
/// to, by name. It is also what functors may read
/// ([`crate::FunctorContext::facts`]).
pub trait Facts {
    /// The columns (names and types) of the input relation `name`, if the
    /// fact base has one: `.input` declarations are checked against them
    /// when rules load and again when they run.
    fn columns(name: &str) -> Option<Vec<(&'static str, ColType)>>;

    /// Every relation as a table.
    fn tables(&self) -> Vec<Table>;
}
