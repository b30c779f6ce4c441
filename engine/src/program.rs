//! A rule program checked as one: its rule files parsed, checked and
//! stratified, its inputs checked against the fact base and its functors
//! against the registry.

use crate::dl::{self, ast::Type, diag::Diagnostic, diag::RuleDiagnostic, diag::Sources, ir};
use crate::functors::FunctorRegistry;
use crate::run::{input_mismatch, DeclaredRelation, Signature};
use crate::table::{ColType, Facts};

pub(crate) fn col_type(t: Type) -> ColType {
    match t {
        Type::Number => ColType::Number,
        Type::Symbol => ColType::Symbol,
    }
}

/// A checked, stratified rule program, ready for [`crate::run_interpreted_with`].
#[derive(Clone, Debug)]
pub struct RuleProgram {
    ir: ir::Program,
    /// [`Sources::fingerprint`] of the files it was read from.
    fingerprint: u64,
}

impl RuleProgram {
    /// Checks `sources` as one program against the fact base `F` and the
    /// functors of `registry`.
    pub fn from_sources_with<F: Facts>(
        sources: &Sources,
        registry: &FunctorRegistry<F>,
    ) -> Result<RuleProgram, Vec<RuleDiagnostic>> {
        let ir = dl::compile(sources)?;
        let mut diags = Vec::new();
        for rel in ir.relations.iter().filter(|r| r.input) {
            let cols: Vec<(&str, ColType)> = rel
                .columns
                .iter()
                .map(|(n, t)| (n.as_str(), col_type(*t)))
                .collect();
            if let Some(m) = input_mismatch::<F>(&rel.name, &cols) {
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
