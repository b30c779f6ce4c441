//! Errors of a run (the rule program itself was checked when loaded).

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The compiled rules had errors when the crate was built.
    NotCompiled { origin: String, errors: Vec<String> },
    /// A relation asked for is not declared by the program.
    UnknownRelation(String),
    /// Two engines were asked to compare runs of different rule files.
    DifferentRules { compiled: String },
    /// An `.input` relation does not match the fact base.
    Input { relation: String, message: String },
    /// A functor is missing from the registry, has another signature, or
    /// returned a value of the wrong type.
    Functor { name: String, message: String },
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::NotCompiled { origin, errors } => {
                write!(
                    f,
                    "the compiled rules ({origin}) did not check when kaiseki was built:"
                )?;
                for e in errors {
                    write!(f, "\n{e}")?;
                }
                Ok(())
            }
            EngineError::UnknownRelation(name) => {
                write!(f, "the rules declare no relation `{name}`")
            }
            EngineError::DifferentRules { compiled } => write!(
                f,
                "the rules differ from those compiled from {compiled} (edited since the build?)"
            ),
            EngineError::Input { relation, message } => {
                write!(f, "input relation `{relation}`: {message}")
            }
            EngineError::Functor { name, message } => write!(f, "functor `{name}`: {message}"),
        }
    }
}

impl std::error::Error for EngineError {}
