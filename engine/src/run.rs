//! One run of an engine, the same for all of them: bind the `.input`
//! relations to the fact base by name, intern the program's symbol
//! constants first, resolve its functors, evaluate, decode the rows.

use crate::error::EngineError;
use crate::functors::{Calls, FunctorContext, FunctorRegistry};
use crate::rows::{decode, encode, Interner, Rows};
use crate::table::{ColType, Facts, Table};
use std::collections::HashMap;

/// Why `.input name(columns)` does not match the fact base `F`, if it does
/// not (checked at load time too, as a diagnostic).
pub fn input_mismatch<F: Facts>(name: &str, columns: &[(&str, ColType)]) -> Option<String> {
    let Some(schema) = F::columns(name) else {
        return Some(format!("the fact base has no relation `{name}`"));
    };
    if schema == columns {
        return None;
    }
    let show = |cols: Vec<(&str, ColType)>| {
        let cols: Vec<String> = cols
            .iter()
            .map(|(n, t)| format!("{n}: {}", t.souffle_name()))
            .collect();
        format!("{name}({})", cols.join(", "))
    };
    Some(format!(
        "declared as `{}` but the fact base has `{}`",
        show(columns.to_vec()),
        show(schema)
    ))
}

/// A relation as a program declares it.
pub struct DeclaredRelation<'a> {
    pub name: &'a str,
    pub columns: Vec<(&'a str, ColType)>,
    pub input: bool,
    pub output: bool,
}

/// Which relations a run returns as tables. Building tables costs more
/// than deriving the rows of big relations, so callers that need only
/// some relations should say which.
#[derive(Clone, Copy, Debug)]
pub enum Select<'a> {
    /// Every declared relation, inputs included.
    All,
    /// The relations marked `.output`.
    Outputs,
    /// Every relation the rules derive (not the inputs).
    Derived,
    /// These relations (each must be declared).
    Only(&'a [&'a str]),
}

impl Select<'_> {
    /// For each relation of `sig`, whether it is selected.
    fn mask(&self, sig: &Signature) -> Result<Vec<bool>, EngineError> {
        match self {
            Select::All => Ok(vec![true; sig.relations.len()]),
            Select::Outputs => Ok(sig.relations.iter().map(|r| r.output).collect()),
            Select::Derived => Ok(sig.relations.iter().map(|r| !r.input).collect()),
            Select::Only(names) => {
                if let Some(unknown) = names
                    .iter()
                    .find(|n| !sig.relations.iter().any(|r| r.name == **n))
                {
                    return Err(EngineError::UnknownRelation(unknown.to_string()));
                }
                Ok(sig
                    .relations
                    .iter()
                    .map(|r| names.contains(&r.name))
                    .collect())
            }
        }
    }
}

/// What a run needs to know of a program besides its rules.
pub struct Signature<'a> {
    /// The declared relations, in the order the engine numbers them.
    pub relations: Vec<DeclaredRelation<'a>>,
    /// The functors, in the order the engine numbers them.
    pub functors: Vec<(&'a str, Vec<ColType>, ColType)>,
    /// The symbol constants, interned first and in this order.
    pub symbols: Vec<&'a str>,
}

/// Runs `evaluate` (given the rows of every declared relation, inputs
/// filled, the functors and which relations are wanted) and returns the
/// selected relations as sorted tables, in declaration order. `evaluate`
/// returns rows for at least the declared relations, in order (those not
/// wanted may be left empty).
pub fn execute<F: Facts>(
    sig: &Signature,
    facts: &F,
    registry: &FunctorRegistry<F>,
    select: Select,
    evaluate: impl FnOnce(Vec<Rows>, &Calls, &[bool]) -> Vec<Rows>,
) -> Result<Vec<Table>, EngineError> {
    execute_given(sig, facts, &[], registry, select, evaluate)
}

/// [`execute`] where the derived relations named by the `given` tables
/// start with their rows (derived beforehand, e.g. by runs on parts of the
/// fact base); `evaluate` need not derive them again.
pub fn execute_given<F: Facts>(
    sig: &Signature,
    facts: &F,
    given: &[Table],
    registry: &FunctorRegistry<F>,
    select: Select,
    evaluate: impl FnOnce(Vec<Rows>, &Calls, &[bool]) -> Vec<Rows>,
) -> Result<Vec<Table>, EngineError> {
    let wanted = select.mask(sig)?;
    let symbols = Interner::with_constants(&sig.symbols);
    let inputs = bind_inputs(&sig.relations, facts, given, &symbols)?;
    let ctx = FunctorContext::new(facts);
    let calls = Calls::new(&sig.functors, registry, &ctx, &symbols)?;
    let rows = evaluate(inputs, &calls, &wanted);
    calls.finish()?;
    let ranks = symbols.ranks();
    Ok(sig
        .relations
        .iter()
        .zip(&rows)
        .zip(&wanted)
        .filter(|(_, wanted)| **wanted)
        .map(|((rel, rows), _)| {
            let columns: Vec<(String, ColType)> = rel
                .columns
                .iter()
                .map(|(n, t)| (n.to_string(), *t))
                .collect();
            decode(rel.name, &columns, rows, &symbols, &ranks)
        })
        .collect())
}

/// The rows of every relation of a program: the fact base's table for an
/// input relation, the given table for a derived one if there is one, no
/// rows for the others.
fn bind_inputs<F: Facts>(
    relations: &[DeclaredRelation],
    facts: &F,
    given: &[Table],
    symbols: &Interner,
) -> Result<Vec<Rows>, EngineError> {
    let tables: HashMap<String, Table> = facts
        .tables()
        .into_iter()
        .map(|t| (t.name.clone(), t))
        .collect();
    relations
        .iter()
        .map(
            |DeclaredRelation {
                 name,
                 columns,
                 input,
                 ..
             }| {
                let error = |message| EngineError::Input {
                    relation: name.to_string(),
                    message,
                };
                let types: Vec<ColType> = columns.iter().map(|c| c.1).collect();
                if !input {
                    return match given.iter().find(|t| t.name == *name) {
                        Some(table) => encode(table, &types, symbols)
                            .map_err(|m| error(format!("given rows: {m}"))),
                        None => Ok(Rows::new(columns.len())),
                    };
                }
                if let Some(message) = input_mismatch::<F>(name, columns) {
                    return Err(error(message));
                }
                let table = tables
                    .get(*name)
                    .ok_or_else(|| error("missing from the fact base".to_string()))?;
                encode(table, &types, symbols).map_err(error)
            },
        )
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::TestFacts;
    use crate::Value;
    use ColType::Number;

    #[test]
    fn inputs_must_match_the_schema() {
        assert_eq!(
            input_mismatch::<TestFacts>("cfg_edge", &[("from", Number), ("to", Number)]),
            None
        );
        assert_eq!(
            input_mismatch::<TestFacts>("cfg_edge", &[("a", Number), ("to", Number)]).unwrap(),
            "declared as `cfg_edge(a: number, to: number)` but the fact base has `cfg_edge(from: number, to: number)`"
        );
        assert_eq!(
            input_mismatch::<TestFacts>("edge", &[]).unwrap(),
            "the fact base has no relation `edge`"
        );
    }

    #[test]
    fn input_rows_come_from_the_fact_base() {
        let mut facts = TestFacts::default();
        facts.cfg_edge.push((1, 2));
        let rel = |name, input| DeclaredRelation {
            name,
            columns: vec![("from", Number), ("to", Number)],
            input,
            output: !input,
        };
        let rels = vec![rel("cfg_edge", true), rel("path", false)];
        let rows = bind_inputs(&rels, &facts, &[], &Interner::default()).unwrap();
        assert_eq!(rows[0].iter().collect::<Vec<_>>(), vec![&[1, 2][..]]);
        assert!(rows[1].is_empty());
        // A derived relation starts with its given rows.
        let path = Table {
            name: "path".into(),
            columns: Vec::new(),
            rows: vec![vec![Value::Number(3); 2]],
        };
        let rows = bind_inputs(&rels, &facts, &[path], &Interner::default()).unwrap();
        assert_eq!(rows[1].iter().collect::<Vec<_>>(), vec![&[3, 3][..]]);
    }
}
