//! The compiled pipeline: a build script translates a rule program with
//! [`crate::dl::to_ascent`] into `ascent_run!{}` programs, one per part of
//! the strata, run in order, and its crate includes them as a
//! [`CompiledProgram`] (kaiseki's built-in rules are `kaiseki-rules`'; this
//! crate's own test programs are compiled in its tests). It computes on the
//! same `i64` rows as the interpreter, with symbols interned the same way,
//! so both engines give the same tables.

use crate::dl::diag::Sources;
use crate::error::EngineError;
use crate::functors::{Calls, FunctorRegistry};
use crate::rows::Rows;
use crate::run::{execute, DeclaredRelation, Select, Signature};
use crate::table::{ColType, Facts, Table};

/// A declared relation of a compiled program.
pub struct RelationInfo {
    pub name: &'static str,
    pub columns: &'static [(&'static str, ColType)],
    pub input: bool,
    pub output: bool,
}

/// A functor a compiled program calls, as it declares it.
pub struct FunctorInfo {
    pub name: &'static str,
    pub args: &'static [ColType],
    pub result: ColType,
}

/// The generated code: inputs, functors and which relations to return.
pub type Evaluate = fn(&[Rows], &Calls, &[bool]) -> Vec<Rows>;

/// A rule program compiled into the crate.
pub struct CompiledProgram {
    /// The directory it was translated from.
    pub origin: &'static str,
    /// The rule files it was translated from: (file name, text).
    pub sources: &'static [(&'static str, &'static str)],
    /// Its diagnostics when it did not check (then it cannot run).
    pub errors: &'static [&'static str],
    pub relations: &'static [RelationInfo],
    pub functors: &'static [FunctorInfo],
    /// Interned first, in this order (the numbering the code assumes).
    pub symbols: &'static [&'static str],
    /// The generated code; `None` when the program did not check.
    pub evaluate: Option<Evaluate>,
}

impl CompiledProgram {
    /// The names of the relations marked `.output`, in declaration order.
    pub fn outputs(&self) -> Vec<&'static str> {
        self.relations
            .iter()
            .filter(|r| r.output)
            .map(|r| r.name)
            .collect()
    }

    /// The rule files it was translated from, for the interpreter.
    pub fn sources(&self) -> Sources {
        Sources {
            files: self
                .sources
                .iter()
                .map(|(n, t)| (n.to_string(), t.to_string()))
                .collect(),
        }
    }

    /// The declared relations, functors and constants, as a run needs them.
    pub(crate) fn signature(&self) -> Signature<'static> {
        Signature {
            relations: self
                .relations
                .iter()
                .map(|r| DeclaredRelation {
                    name: r.name,
                    columns: r.columns.to_vec(),
                    input: r.input,
                    output: r.output,
                })
                .collect(),
            functors: self
                .functors
                .iter()
                .map(|f| (f.name, f.args.to_vec(), f.result))
                .collect(),
            symbols: self.symbols.to_vec(),
        }
    }

    /// Runs the program on `facts`: every declared relation, rows sorted.
    pub fn run<F: Facts>(
        &self,
        facts: &F,
        registry: &FunctorRegistry<F>,
    ) -> Result<Vec<Table>, EngineError> {
        self.run_select(facts, registry, Select::All)
    }

    /// Runs the program on `facts`: the selected relations, rows sorted.
    pub fn run_select<F: Facts>(
        &self,
        facts: &F,
        registry: &FunctorRegistry<F>,
        select: Select,
    ) -> Result<Vec<Table>, EngineError> {
        let Some(evaluate) = self.evaluate else {
            return Err(EngineError::NotCompiled {
                origin: self.origin.to_string(),
                errors: self.errors.iter().map(|e| e.to_string()).collect(),
            });
        };
        execute(
            &self.signature(),
            facts,
            registry,
            select,
            |inputs, calls, wanted| evaluate(&inputs, calls, wanted),
        )
    }
}

/// The rows of a relation for the next part of a compiled program: a
/// copy while a later part or the caller still needs them, else moved.
pub fn pass<T: Clone>(rows: &mut Vec<T>, keep: bool) -> Vec<T> {
    if keep {
        rows.clone()
    } else {
        std::mem::take(rows)
    }
}

/// The test programs of `tests/compiled/<name>/`, compiled by `build.rs`.
#[cfg(test)]
pub(crate) mod fixtures {
    include!(concat!(env!("OUT_DIR"), "/fixtures.rs"));
}
