//! What the id columns of every relation number ([`IdKind`]): declared
//! for the input relations in `facts/src/schema.rs`, and following for the
//! derived ones from their rules, so that no rule file repeats it and an
//! edited rule file needs no annotation.
//!
//! Loop and block ids are statement ids (a DO statement's, a block's first
//! statement's), so the kinds are sets: a value in a loop column and a
//! statement column is a loop (the narrower); a column some rules fill
//! with loops and others with statements holds statements (the wider).
//! A derived column has the kind of what every rule deriving it puts
//! there: a constant (`0`, "no loop") leaves it as it is, a variable the
//! kind its positive body atoms give it; a value computed by arithmetic
//! or a functor, or ids of two unrelated kinds (references and
//! statements), leave it a plain number. Recursive relations start with
//! no rule seen and widen to a fixpoint.

use kaiseki_engine::dl::ir::{LitKind, Program, Rule, Term};
use kaiseki_facts::{FactBase, IdKind};

/// One column's kind while the fixpoint runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Known {
    /// No rule has put a variable there yet.
    Unseen,
    Id(IdKind),
    Plain,
}

/// Loop and block ids are statement ids.
fn within(a: IdKind, b: IdKind) -> bool {
    a == b || (matches!(a, IdKind::Loop | IdKind::Block) && b == IdKind::Stmt)
}

impl Known {
    /// The kind of a value in both kinds of columns (a variable in two
    /// atoms): a number that is also a loop is a loop (a carrier computed
    /// by a functor and joined with a dependence's carrier).
    fn narrow(self, other: Known) -> Known {
        match (self, other) {
            (Known::Unseen, k) | (k, Known::Unseen) => k,
            (Known::Plain, k) | (k, Known::Plain) => k,
            (Known::Id(a), Known::Id(b)) if within(a, b) => Known::Id(a),
            (Known::Id(a), Known::Id(b)) if within(b, a) => Known::Id(b),
            // A loop's DO statement that begins a block.
            (Known::Id(IdKind::Loop), Known::Id(IdKind::Block))
            | (Known::Id(IdKind::Block), Known::Id(IdKind::Loop)) => Known::Id(IdKind::Loop),
            _ => Known::Plain,
        }
    }

    /// The kind of a column filled from both (two rules).
    fn widen(self, other: Known) -> Known {
        match (self, other) {
            (Known::Unseen, k) | (k, Known::Unseen) => k,
            (Known::Id(a), Known::Id(b)) if within(a, b) => Known::Id(b),
            (Known::Id(a), Known::Id(b)) if within(b, a) => Known::Id(a),
            (Known::Id(IdKind::Loop), Known::Id(IdKind::Block))
            | (Known::Id(IdKind::Block), Known::Id(IdKind::Loop)) => Known::Id(IdKind::Stmt),
            _ => Known::Plain,
        }
    }
}

/// The kind of each column of each relation of `p` (in the order of
/// `p.relations`), `None` for a plain number or a symbol.
pub fn column_kinds(p: &Program) -> Vec<Vec<Option<IdKind>>> {
    let mut kinds: Vec<Vec<Known>> = p
        .relations
        .iter()
        .map(|r| {
            if r.input {
                let schema = FactBase::SCHEMAS.iter().find(|s| s.name == r.name);
                (0..r.arity())
                    .map(|i| match schema.and_then(|s| s.columns.get(i)?.kind) {
                        Some(k) => Known::Id(k),
                        None => Known::Plain,
                    })
                    .collect()
            } else {
                vec![Known::Unseen; r.arity()]
            }
        })
        .collect();
    // Each column only widens once its rules are seen; the bound is a
    // safeguard for a program whose narrowing and widening would cycle.
    for _ in 0..64 {
        let mut changed = false;
        for rule in &p.rules {
            let mut var_kind = vec![Known::Unseen; rule.vars.len()];
            for lit in &rule.body {
                if let LitKind::Atom { rel, args } = &lit.kind {
                    for (i, t) in args.iter().enumerate() {
                        if let Some(v) = t.var() {
                            var_kind[v] = var_kind[v].narrow(kinds[*rel][i]);
                        }
                    }
                }
            }
            for (i, t) in rule.head_args.iter().enumerate() {
                let k = match t {
                    Term::Var(v, _) if var_kind[*v] != Known::Unseen => var_kind[*v],
                    // Bound by `=`, arithmetic or a functor.
                    Term::Var(..) if !bound_by_atom(rule, *t) => Known::Plain,
                    _ => continue,
                };
                let met = kinds[rule.head][i].widen(k);
                if met != kinds[rule.head][i] {
                    kinds[rule.head][i] = met;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    kinds
        .into_iter()
        .map(|cols| {
            cols.into_iter()
                .map(|k| match k {
                    Known::Id(k) => Some(k),
                    Known::Unseen | Known::Plain => None,
                })
                .collect()
        })
        .collect()
}

/// Whether a positive body atom of `rule` binds the head variable `t`.
fn bound_by_atom(rule: &Rule, t: Term) -> bool {
    rule.body.iter().any(|lit| match &lit.kind {
        LitKind::Atom { args, .. } => args.iter().any(|a| a.var().is_some() && a.var() == t.var()),
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin::builtin_rules_dir;

    fn kinds_of(extra: &str) -> (Program, Vec<Vec<Option<IdKind>>>) {
        let mut sources = kaiseki_engine::dl::read_dir(&builtin_rules_dir()).unwrap();
        sources.files.retain(|(n, _)| n.ends_with("facts.dl"));
        sources.files.push(("t.dl".into(), extra.into()));
        let p = kaiseki_engine::dl::compile(&sources).unwrap_or_else(|d| panic!("{d:?}"));
        let k = column_kinds(&p);
        (p, k)
    }

    fn of(p: &Program, k: &[Vec<Option<IdKind>>], name: &str) -> Vec<Option<IdKind>> {
        let i = p.relations.iter().position(|r| r.name == name).unwrap();
        k[i].clone()
    }

    #[test]
    fn kinds_follow_from_the_rules() {
        let (p, k) = kinds_of(
            ".decl pair(a: number, b: number, n: number, s: symbol)
             pair(D, S, L, V) :- def(D, S, V), loop_stmt(L, S).
             pair(D, S, 0, V) :- use(D, S, V).
             .decl mixed(a: number)
             mixed(D) :- def(D, _, _).
             mixed(S) :- stmt(S, _, _, _, _).
             .decl sum(a: number)
             sum(N) :- def(D, _, _), N = D + 1.
             .decl narrowed(a: number)
             narrowed(N) :- sum(N), loop_stmt(N, _).
             .decl both(a: number)
             both(L) :- block_stmt(L, _, _), loop(L, _, _, _, _, _).
             .decl either(a: number)
             either(L) :- loop(L, _, _, _, _, _).
             either(S) :- stmt(S, _, _, _, _).
             .decl reach(a: number, b: number)
             reach(A, B) :- cfg_edge(A, B).
             reach(A, C) :- reach(A, B), cfg_edge(B, C).",
        );
        use IdKind::*;
        assert_eq!(
            of(&p, &k, "pair"),
            vec![Some(Ref), Some(Stmt), Some(Loop), None]
        );
        assert_eq!(of(&p, &k, "mixed"), vec![None]);
        assert_eq!(of(&p, &k, "both"), vec![Some(Loop)]);
        assert_eq!(of(&p, &k, "either"), vec![Some(Stmt)]);
        assert_eq!(of(&p, &k, "sum"), vec![None]);
        assert_eq!(of(&p, &k, "narrowed"), vec![Some(Loop)]);
        assert_eq!(of(&p, &k, "reach"), vec![Some(Stmt), Some(Stmt)]);
    }

    #[test]
    fn the_dependence_graph_has_references_and_loops() {
        let sources = kaiseki_engine::dl::read_dir(&builtin_rules_dir()).unwrap();
        let p = kaiseki_engine::dl::compile(&sources).unwrap();
        let k = column_kinds(&p);
        use IdKind::*;
        assert_eq!(
            of(&p, &k, "dependence"),
            vec![None, Some(Ref), Some(Ref), Some(Loop), None]
        );
        // The verdicts are per loop, though carriers of array dependences
        // come from a functor's record.
        assert_eq!(of(&p, &k, "parallel"), vec![Some(Loop), None]);
        assert_eq!(of(&p, &k, "omp_private"), vec![Some(Loop), None]);
    }
}
