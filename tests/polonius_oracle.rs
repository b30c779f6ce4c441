//! An independent check of reaching definitions: polonius-engine's borrow
//! checker, fed one loan per definition, computes which definitions reach
//! which uses, and that must be exactly our `flow` relation.
//!
//! The encoding (see ../shared/RESEARCH.md): each statement has two points,
//! `start` (where its uses read) and `mid` (where its definitions write),
//! joined start -> mid, and mid -> start along every CFG edge some run may
//! take (a loop of constant trip count never skips its body, nor goes round
//! again after one iteration). One
//! universal origin is live everywhere, so a loan lives as long as it is
//! not killed. A definition is a loan issued at the mid point of its
//! statement; every other certain definition of the variable kills it at
//! its own mid point (one written earlier in the same statement does not:
//! it is overwritten by this one); each use invalidates every loan of its
//! variable at the start of its statement. An invalidated live loan is an
//! error of polonius: a definition reaching a use. Uses come before the
//! definitions of their statement, so `X = X + 1` makes no self-dependence
//! outside loops.

mod common;

use common::{example_files, generated, lower_file, lower_source, scaled};
use kaiseki_facts::{FactBase, Value};
use polonius_engine::{Algorithm, AllFacts, FactTypes, Output};
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Id(usize);

impl From<usize> for Id {
    fn from(n: usize) -> Id {
        Id(n)
    }
}

impl From<Id> for usize {
    fn from(id: Id) -> usize {
        id.0
    }
}

impl polonius_engine::Atom for Id {
    fn index(self) -> usize {
        self.0
    }
}

#[derive(Clone, Copy, Debug)]
struct Types;

impl FactTypes for Types {
    type Origin = Id;
    type Loan = Id;
    type Point = Id;
    type Variable = Id;
    type Path = Id;
}

/// (definition ref, statement of the use, variable): a definition reaching
/// a statement that uses its variable.
type Reach = BTreeSet<(i64, i64, String)>;

/// Reaching definitions computed by polonius.
fn polonius_reach(facts: &FactBase) -> Reach {
    let index: BTreeMap<i64, usize> = facts
        .stmt
        .iter()
        .enumerate()
        .map(|(i, s)| (s.stmt, i))
        .collect();
    let start = |s: i64| Id(2 * index[&s]);
    let mid = |s: i64| Id(2 * index[&s] + 1);
    let origin = Id(0);
    let mut all = AllFacts::<Types> {
        universal_region: vec![origin],
        ..AllFacts::default()
    };
    for s in &facts.stmt {
        all.cfg_edge.push((start(s.stmt), mid(s.stmt)));
    }
    for (from, to) in taken_edges(facts) {
        all.cfg_edge.push((mid(from), start(to)));
    }
    let must: BTreeSet<i64> = facts.must_def.iter().map(|m| m.r#ref).collect();
    for (loan, d) in facts.def.iter().enumerate() {
        all.loan_issued_at.push((origin, Id(loan), mid(d.stmt)));
        for k in &facts.def {
            let earlier_in_same = k.stmt == d.stmt && k.r#ref < d.r#ref;
            if k.var == d.var && k.r#ref != d.r#ref && must.contains(&k.r#ref) && !earlier_in_same {
                all.loan_killed_at.push((Id(loan), mid(k.stmt)));
            }
        }
        for u in facts.r#use.iter().filter(|u| u.var == d.var) {
            all.loan_invalidated_at.push((start(u.stmt), Id(loan)));
        }
    }
    let output = Output::compute(&all, Algorithm::Naive, false);
    let mut reach = Reach::new();
    for (point, loans) in &output.errors {
        assert_eq!(point.0 % 2, 0, "errors only at start points");
        let stmt = facts.stmt[point.0 / 2].stmt;
        for loan in loans {
            let d = &facts.def[loan.0];
            reach.insert((d.r#ref, stmt, d.var.clone()));
        }
    }
    reach
}

/// The CFG edges some run may take: a DO loop whose trip count is a known
/// constant (`loop_trip`) enters its body only when that count is not 0,
/// leaves past it from the DO statement only when it is, and goes round
/// again from its end only when it is 2 or more.
fn taken_edges(facts: &FactBase) -> Vec<(i64, i64)> {
    let trip: BTreeMap<i64, i64> = facts.loop_trip.iter().map(|t| (t.r#loop, t.trip)).collect();
    let loop_of_end: BTreeMap<i64, i64> =
        facts.loop_end.iter().map(|e| (e.stmt, e.r#loop)).collect();
    let body: BTreeSet<(i64, i64)> = facts.loop_stmt.iter().map(|l| (l.r#loop, l.stmt)).collect();
    facts
        .cfg_edge
        .iter()
        .map(|e| (e.from, e.to))
        .filter(|&(from, to)| {
            let taken_from_do = trip
                .get(&from)
                .is_none_or(|&t| body.contains(&(from, to)) == (t != 0));
            let taken_from_end = loop_of_end
                .get(&from)
                .is_none_or(|&l| !body.contains(&(l, to)) || trip.get(&l).is_none_or(|&t| t >= 2));
            taken_from_do && taken_from_end
        })
        .collect()
}

/// Our `flow(d, u, carrier)`, as (d, statement of u, variable).
fn our_reach(facts: &FactBase) -> Reach {
    let tables = kaiseki_rules::run_compiled(facts).expect("the compiled rules run");
    let flow = tables
        .iter()
        .find(|t| t.name == "flow")
        .expect("a flow relation");
    let use_of: BTreeMap<i64, (i64, &str)> = facts
        .r#use
        .iter()
        .map(|u| (u.r#ref, (u.stmt, u.var.as_str())))
        .collect();
    flow.rows
        .iter()
        .map(|row| {
            let (Value::Number(d), Value::Number(u)) = (&row[0], &row[1]) else {
                panic!("flow(d: number, u: number, _): {row:?}");
            };
            let (stmt, var) = use_of[u];
            (*d, stmt, var.to_string())
        })
        .collect()
}

/// The oracle's model holds: in every statement the uses come before the
/// definitions (reference ids are in evaluation order).
fn assert_uses_before_definitions(name: &str, facts: &FactBase) {
    let mut last_use: BTreeMap<i64, i64> = BTreeMap::new();
    for u in &facts.r#use {
        let e = last_use.entry(u.stmt).or_insert(u.r#ref);
        *e = (*e).max(u.r#ref);
    }
    for d in &facts.def {
        if let Some(&u) = last_use.get(&d.stmt) {
            assert!(
                u < d.r#ref,
                "{name}: use {u} after definition {} in statement {}",
                d.r#ref,
                d.stmt
            );
        }
    }
}

fn assert_same_reach(name: &str, facts: &FactBase) -> usize {
    assert_uses_before_definitions(name, facts);
    let (ours, theirs) = (our_reach(facts), polonius_reach(facts));
    let only_ours: Vec<_> = ours.difference(&theirs).collect();
    let only_theirs: Vec<_> = theirs.difference(&ours).collect();
    assert!(
        only_ours.is_empty() && only_theirs.is_empty(),
        "{name}: (def ref, use stmt, var) only in our flow: {only_ours:?}; only in polonius: {only_theirs:?}"
    );
    ours.len()
}

#[test]
fn reaching_definitions_match_polonius_on_the_examples() {
    for path in example_files() {
        let n = assert_same_reach(&path.display().to_string(), &lower_file(&path));
        assert!(n > 5, "{}: {n} definition-use pairs", path.display());
    }
}

#[test]
fn reaching_definitions_match_polonius_on_generated_programs() {
    let n = scaled(50);
    let mut pairs = 0;
    for g in generated(n, n) {
        pairs += assert_same_reach(&g.file_name, &lower_source(&g.file_name, &g.source));
    }
    assert!(pairs > 2 * 20 * n as usize, "{pairs} definition-use pairs");
}

/// The oracle itself: on a loop that increments X, the definition in the
/// loop reaches its own use (through the back edge) and the one after the
/// loop; the definition before the loop reaches the loop's use only, since
/// the loop runs three times (and past it too, when its bound is N).
#[test]
fn the_oracle_sees_loops_and_kills() {
    let x_reach = |upper: &str| {
        let source = format!("      PROGRAM P\n      X = 0\n      DO 10 I = 1, {upper}\n   10 X = X + 1\n      Y = X\n      X = 5\n      PRINT *, X, Y, N\n      END\n");
        reaching_lines(&lower_source("p.f", &source), "X")
    };
    let want = |pairs: &[(i64, i64)]| pairs.iter().map(|&(d, u)| (Some(d), Some(u))).collect();
    assert_eq!(x_reach("3"), want(&[(2, 4), (4, 4), (4, 5), (6, 7)]));
    assert_eq!(
        x_reach("N"),
        want(&[(2, 4), (2, 5), (4, 4), (4, 5), (6, 7)])
    );
}

/// (line of the definition, line of the use) of each definition of `var`
/// that polonius says reaches a use.
fn reaching_lines(facts: &FactBase, var: &str) -> BTreeSet<(Option<i64>, Option<i64>)> {
    let reach = polonius_reach(facts);
    let line_of = |stmt: i64| facts.stmt.iter().find(|s| s.stmt == stmt).map(|s| s.line);
    let def_line = |d: i64| {
        facts
            .def
            .iter()
            .find(|x| x.r#ref == d)
            .and_then(|x| line_of(x.stmt))
    };
    reach
        .iter()
        .filter(|(_, _, v)| v == var)
        .map(|(d, s, _)| (def_line(*d), line_of(*s)))
        .collect()
}
