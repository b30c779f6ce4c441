//! The compiled pipeline: `build.rs` translates the built-in rules
//! (`rules/dl/*.dl`) with [`crate::dl::to_ascent`] into `ascent_run!{}`
//! programs, one per part of the strata, run in order and included here. It computes on the same `i64` rows as the
//! interpreter, with symbols interned the same way, so both engines give
//! the same tables.

use crate::dl::diag::Sources;
use crate::error::EngineError;
use crate::functors::{Calls, FunctorRegistry};
use crate::rows::Rows;
use crate::run::{execute, DeclaredRelation, Select, Signature};
use kaiseki_facts::{ColType, FactBase, Table};

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
type Evaluate = fn(&[Rows], &Calls, &[bool]) -> Vec<Rows>;

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
    pub(crate) evaluate: Option<Evaluate>,
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
    pub fn run(
        &self,
        facts: &FactBase,
        registry: &FunctorRegistry,
    ) -> Result<Vec<Table>, EngineError> {
        self.run_select(facts, registry, Select::All)
    }

    /// Runs the program on `facts`: the selected relations, rows sorted.
    pub fn run_select(
        &self,
        facts: &FactBase,
        registry: &FunctorRegistry,
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
pub(crate) fn pass<T: Clone>(rows: &mut Vec<T>, keep: bool) -> Vec<T> {
    if keep {
        rows.clone()
    } else {
        std::mem::take(rows)
    }
}

// The built-in program is left out of this crate's unit tests, which do
// not need it: compiling its Ascent code a second time, for the test
// harness, took minutes (the workspace's tests/engines_agree.rs tests it).
#[cfg(not(test))]
mod builtin {
    include!(concat!(env!("OUT_DIR"), "/builtin.rs"));
}

/// The built-in rules, compiled.
#[cfg(not(test))]
pub fn builtin_program() -> &'static CompiledProgram {
    &builtin::PROGRAM
}

/// Runs the compiled built-in rules on `facts` with the standard functors.
#[cfg(not(test))]
pub fn run_compiled(facts: &FactBase) -> Result<Vec<Table>, EngineError> {
    builtin::PROGRAM.run(facts, &FunctorRegistry::standard())
}

/// The test programs of `rules/tests/compiled/<name>/`, compiled the same way.
#[cfg(test)]
pub(crate) mod fixtures {
    include!(concat!(env!("OUT_DIR"), "/fixtures.rs"));
}
