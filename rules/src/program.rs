//! Loading a rule program: every `.dl` file of a directory, checked as one
//! program, with its inputs checked against the fact base and its
//! functors against the registry. Also the generated `facts.dl`.

use crate::dl::{self, ast::Type, diag::Diagnostic, diag::RuleDiagnostic, diag::Sources, ir};
use crate::functors::FunctorRegistry;
use crate::run::{input_mismatch, DeclaredRelation, Signature};
use kaiseki_facts::{ColType, FactBase};
use std::path::{Path, PathBuf};

pub(crate) fn col_type(t: Type) -> ColType {
    match t {
        Type::Number => ColType::Number,
        Type::Symbol => ColType::Symbol,
    }
}

/// A checked, stratified rule program, ready for [`crate::run_interpreted`].
#[derive(Clone, Debug)]
pub struct RuleProgram {
    ir: ir::Program,
    /// [`Sources::fingerprint`] of the files it was read from.
    fingerprint: u64,
}

impl RuleProgram {
    /// Checks `sources` as one program against the standard functors.
    pub fn from_sources(sources: &Sources) -> Result<RuleProgram, Vec<RuleDiagnostic>> {
        RuleProgram::from_sources_with(sources, &FunctorRegistry::standard())
    }

    /// Checks `sources` as one program against the functors of `registry`.
    pub fn from_sources_with(
        sources: &Sources,
        registry: &FunctorRegistry,
    ) -> Result<RuleProgram, Vec<RuleDiagnostic>> {
        let ir = dl::compile(sources)?;
        let mut diags = Vec::new();
        for rel in ir.relations.iter().filter(|r| r.input) {
            let cols: Vec<(&str, ColType)> = rel
                .columns
                .iter()
                .map(|(n, t)| (n.as_str(), col_type(*t)))
                .collect();
            if let Some(m) = input_mismatch(&rel.name, &cols) {
                diags.push(Diagnostic::new(
                    rel.pos,
                    format!("`.input {}`: {m}", rel.name),
                ));
            }
        }
        for f in &ir.functors {
            let args: Vec<ColType> = f.args.iter().map(|t| col_type(*t)).collect();
            if let Some(m) = registry.mismatch(&f.name, &args, col_type(f.result)) {
                diags.push(Diagnostic::new(f.pos, format!("functor `{}`: {m}", f.name)));
            }
        }
        if diags.is_empty() {
            Ok(RuleProgram {
                ir,
                fingerprint: sources.fingerprint(),
            })
        } else {
            Err(sources.resolve(diags))
        }
    }

    /// Whether it was read from the same rule files (names and texts) as
    /// `sources`.
    pub fn read_from(&self, sources: &Sources) -> bool {
        self.fingerprint == sources.fingerprint()
    }

    /// The checked program.
    pub fn ir(&self) -> &ir::Program {
        &self.ir
    }

    /// The declared relations, functors and constants, as a run needs them.
    pub(crate) fn signature(&self) -> Signature<'_> {
        Signature {
            relations: self
                .ir
                .relations
                .iter()
                .filter(|r| !r.aggregate_body)
                .map(|r| DeclaredRelation {
                    name: &r.name,
                    columns: r
                        .columns
                        .iter()
                        .map(|(n, t)| (n.as_str(), col_type(*t)))
                        .collect(),
                    input: r.input,
                    output: r.output,
                })
                .collect(),
            functors: self
                .ir
                .functors
                .iter()
                .map(|f| {
                    let args = f.args.iter().map(|t| col_type(*t)).collect();
                    (f.name.as_str(), args, col_type(f.result))
                })
                .collect(),
            symbols: self.ir.symbols.iter().map(String::as_str).collect(),
        }
    }

    /// The names of the relations marked `.output`, in declaration order.
    pub fn outputs(&self) -> Vec<&str> {
        self.ir
            .relations
            .iter()
            .filter(|r| r.output)
            .map(|r| r.name.as_str())
            .collect()
    }
}

/// Reads and checks every `*.dl` file of `dir` (in file-name order) as one program.
pub fn load_rules(dir: &Path) -> Result<RuleProgram, Vec<RuleDiagnostic>> {
    RuleProgram::from_sources(&dl::read_dir(dir)?)
}

/// The directory of the built-in rules (`rules/dl`), which `build.rs` also
/// compiles with Ascent.
pub fn builtin_rules_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("dl")
}

/// The text of `rules/dl/facts.dl`: a `.decl` and an `.input` for every
/// relation of the fact base, with its documentation above it.
pub fn facts_decls() -> String {
    let mut s = String::from(
        "// The input relations: generated from kaiseki_facts::FactBase::SCHEMAS by\n\
         // kaiseki_rules::facts_decls(); do not edit. After changing facts/src/schema.rs,\n\
         // regenerate with: KAISEKI_BLESS=1 cargo test -p kaiseki-rules facts_dl\n",
    );
    for schema in FactBase::SCHEMAS {
        s.push_str(&format!(
            "\n// {}\n.decl {}\n.input {}\n",
            schema.doc.trim(),
            schema.signature(),
            schema.name
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_dl_is_up_to_date() {
        let path = builtin_rules_dir().join("facts.dl");
        let want = facts_decls();
        if std::env::var_os("KAISEKI_BLESS").is_some() {
            std::fs::write(&path, &want).expect("write rules/dl/facts.dl");
        }
        let have = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            have == want,
            "rules/dl/facts.dl differs from facts_decls(); regenerate it with\n  KAISEKI_BLESS=1 cargo test -p kaiseki-rules facts_dl"
        );
    }

    #[test]
    fn facts_dl_declares_every_input_relation() {
        let sources = Sources {
            files: vec![("facts.dl".into(), facts_decls())],
        };
        let program = RuleProgram::from_sources(&sources).unwrap();
        assert_eq!(program.ir().relations.len(), FactBase::SCHEMAS.len());
        assert!(program.ir().relations.iter().all(|r| r.input && !r.output));
    }

    #[test]
    fn inputs_and_functors_are_checked_at_load() {
        let sources = Sources {
            files: vec![(
                "a.dl".into(),
                ".decl cfg_edge(a: number, b: number)\n.input cfg_edge\n.functor nope(x: number): number\n.decl p(x: number)\np(Y) :- cfg_edge(X, _), Y = @nope(X).\n".into(),
            )],
        };
        let errs: Vec<String> = RuleProgram::from_sources(&sources)
            .unwrap_err()
            .iter()
            .map(|d| d.headline())
            .collect();
        assert_eq!(
            errs,
            vec![
                "a.dl:1:7: error: `.input cfg_edge`: declared as `cfg_edge(a: number, b: number)` but the fact base has `cfg_edge(from: number, to: number)`",
                "a.dl:3:10: error: functor `nope`: no functor `nope` is registered in the engine",
            ]
        );
    }
}
