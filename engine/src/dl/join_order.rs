//! A trap of the compiled engine that the interpreter does not have. Ascent
//! joins a rule's atoms in the order they are written (after
//! [`Rule::source_order`]); in a fixpoint it runs the rule once per
//! recursive atom with that atom's new rows, but the atoms written before
//! it are read in full at every iteration. A fixpoint of many iterations
//! then costs iterations x those atoms' rows: the square of the input when
//! both grow with it (a chain of 10,000 statements took 1.52 s instead of
//! 0.18 s). Ascent spares only the first two atoms of a "simple join"
//! (plain distinct variables, nothing between them but tests): it starts
//! from the smaller side. The interpreter plans its joins from the new rows
//! and does not need this.

use super::ast::ArithOp;
use super::diag::Diagnostic;
use super::ir::{LitKind, Program, Rule, Term, VarId};

/// The rules of recursive strata that read an atom in full at every
/// iteration of the compiled fixpoint, each with a diagnostic at the rule.
pub fn full_reads(p: &Program) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    for stratum in p.strata.iter().filter(|s| s.recursive) {
        for &r in &stratum.rules {
            let rule = &p.rules[r];
            let atoms = atoms_in_order(rule);
            let recursive = |rel: usize| stratum.relations.contains(&rel);
            let late = atoms
                .iter()
                .enumerate()
                .skip(1)
                .find(|(i, &(rel, _))| recursive(rel) && !(*i == 1 && simple_join(rule)));
            if let Some((i, &(rel, _))) = late {
                let before: Vec<String> = atoms[..i]
                    .iter()
                    .map(|&(rel, _)| format!("`{}`", p.relations[rel].name))
                    .collect();
                found.push(Diagnostic::new(
                    rule.pos,
                    format!(
                        "the compiled engine reads {} in full at every iteration of this fixpoint: write the recursive atom `{}` first",
                        before.join(", "),
                        p.relations[rel].name
                    ),
                ));
            }
        }
    }
    found
}

/// The rule's atoms (relation, arguments) in the order they are joined.
fn atoms_in_order(rule: &Rule) -> Vec<(usize, &[Term])> {
    rule.source_order()
        .0
        .into_iter()
        .filter_map(|i| match &rule.body[i].kind {
            LitKind::Atom { rel, args } => Some((*rel, args.as_slice())),
            _ => None,
        })
        .collect()
}

/// Whether Ascent sees the first two atoms as a simple join: the first is
/// the first literal; only its conditions (comparisons, `+ - *`) come
/// between them; their arguments are variables (or `_`), none twice in one
/// atom; the conditions after the second read only what it binds.
fn simple_join(rule: &Rule) -> bool {
    let order = rule.source_order().0;
    let lit = |k: usize| &rule.body[order[k]].kind;
    // What Ascent attaches to the clause before it (`if`, `let`); a
    // division is an `if let`, which the first clause may not have.
    let condition = |k: usize| match lit(k) {
        LitKind::Compare { .. } => true,
        LitKind::Arith { op, .. } => !matches!(op, ArithOp::Div | ArithOp::Rem),
        _ => false,
    };
    let plain_vars = |k: usize| -> Option<Vec<VarId>> {
        let LitKind::Atom { args, .. } = lit(k) else {
            return None;
        };
        let mut vars = Vec::new();
        for t in args {
            match t {
                Term::Var(v, _) if !vars.contains(v) => vars.push(*v),
                Term::Any(_) => {}
                _ => return None,
            }
        }
        Some(vars)
    };
    if order.is_empty() || plain_vars(0).is_none() {
        return false;
    }
    let mut k = 1;
    while k < order.len() && condition(k) {
        k += 1;
    }
    let Some(mut own) = (k < order.len()).then(|| plain_vars(k)).flatten() else {
        return false;
    };
    let mut bound = vec![false; rule.vars.len()];
    for &i in &order[..=k] {
        for v in rule.body[i]
            .kind
            .binds(&bound, &rule.vars)
            .unwrap_or_default()
        {
            bound[v] = true;
        }
    }
    for j in (k + 1..order.len())
        .take_while(|&j| matches!(lit(j), LitKind::Compare { .. } | LitKind::Arith { .. }))
    {
        let binds = lit(j).binds(&bound, &rule.vars).unwrap_or_default();
        let mut reads = lit(j)
            .terms()
            .into_iter()
            .filter_map(Term::var)
            .filter(|v| !binds.contains(v));
        if reads.any(|v| !own.contains(&v)) {
            return false;
        }
        for v in binds {
            bound[v] = true;
            own.push(v);
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dl::diag::Sources;

    fn warnings(text: &str) -> Vec<String> {
        let sources = Sources {
            files: vec![("t.dl".into(), text.into())],
        };
        let program = crate::dl::compile(&sources).expect("the program checks");
        full_reads(&program)
            .into_iter()
            .map(|d| format!("{}:{} {}", d.pos.line, d.pos.col, d.message))
            .collect()
    }

    const DECLS: &str =
        ".decl edge(a: number, b: number)\n.input edge\n.decl path(a: number, b: number)\n";

    #[test]
    fn a_recursive_atom_after_a_static_one_is_reported() {
        let w = warnings(&format!("{DECLS}path(X, Y) :- edge(X, Y).\npath(X, Z) :- edge(Y, Z), Y > 0, !edge(Z, Z), path(X, Y).\n"));
        assert_eq!(
            w,
            ["5:1 the compiled engine reads `edge` in full at every iteration of this fixpoint: write the recursive atom `path` first"]
        );
    }

    #[test]
    fn the_recursive_atom_first_or_a_simple_join_is_not() {
        // Recursive atom first; a plain pair Ascent starts from either side.
        let w = warnings(&format!(
            "{DECLS}path(X, Y) :- edge(X, Y).\npath(X, Z) :- path(X, Y), edge(Y, Z).\npath(X, Z) :- edge(Y, Z), path(X, Y).\n"
        ));
        assert!(w.is_empty(), "{w:?}");
    }

    #[test]
    fn a_constant_or_a_shared_variable_spoils_the_simple_join() {
        let w = warnings(&format!("{DECLS}path(X, Y) :- edge(X, Y).\npath(X, Z) :- edge(1, Z), path(X, Z).\npath(X, Z) :- edge(Y, Z), path(Y, Y), X = Z.\n"));
        assert_eq!(w.len(), 2, "{w:?}");
    }
}
