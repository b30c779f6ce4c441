//! An independent check of reaching definitions: polonius-engine's borrow
//! checker, fed one loan per definition, computes which definitions reach
//! which uses, and that must be our `flow` relation: over the paths the
//! invariant tests allow (`class_test`: each statement copied per state of
//! the tests' outcomes known so far), all of it; over all paths, nothing
//! more (see `assert_same_reach`).
//!
//! The encoding (see ../shared/RESEARCH.md): each statement has two points,
//! `start` (where its uses read) and `mid` (where its definitions write),
//! joined start -> mid, and mid -> start along every CFG edge some run may
//! take (through a point of its own on the exit of a loop that rewrites an
//! array whole, or of an outermost loop that certainly defines a variable
//! in some iteration, where the loans of its definitions outside the loop
//! are killed) (a loop of constant trip count never skips its body, nor goes round
//! again after one iteration). One
//! universal origin is live everywhere, so a loan lives as long as it is
//! not killed. A definition is a loan issued at the mid point of its
//! statement; every other certain definition of the variable kills it at
//! its own mid point (one written earlier in the same statement does not:
//! it is overwritten by this one), and so does every other certain
//! definition of the same element (`element_ref`, `A(3)`, `A(K+1)`) for a
//! definition of one; each use invalidates every loan of its variable at
//! the start of its statement, but a use of one element not the loans of
//! another element of its class (`A(K)` may be `A(3)`, not `A(K+1)`). An invalidated live loan is an
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

/// Reaching definitions computed by polonius, over the paths some run may
/// take: with `tests`, a path that takes both branches of invariant tests
/// of one class (`class_test`) is not one.
fn polonius_reach(facts: &FactBase, tests: bool) -> Reach {
    let graph = Product::of(facts, tests);
    let origin = Id(0);
    let mut all = AllFacts::<Types> {
        universal_region: vec![origin],
        ..AllFacts::default()
    };
    let (start, mid) = (|n: usize| Id(2 * n), |n: usize| Id(2 * n + 1));
    for n in 0..graph.nodes.len() {
        all.cfg_edge.push((start(n), mid(n)));
    }
    // A point of its own on each exit of a loop that rewrites an array
    // whole, where the loans of the array's definitions outside the loop
    // are killed (see `rewrite_exits`).
    let exits = rewrite_exits(facts);
    let mut extra = 2 * graph.nodes.len();
    for &(from, to) in &graph.edges {
        let (source, target) = (graph.nodes[from].0, graph.nodes[to].0);
        let kills: Vec<&(i64, String, BTreeSet<i64>)> = exits
            .iter()
            .filter(|(end, _, body)| *end == source && !body.contains(&target))
            .collect();
        if kills.is_empty() {
            all.cfg_edge.push((mid(from), start(to)));
            continue;
        }
        let point = Id(extra);
        extra += 1;
        all.cfg_edge.push((mid(from), point));
        all.cfg_edge.push((point, start(to)));
        for (loan, d) in facts.def.iter().enumerate() {
            if kills
                .iter()
                .any(|(_, a, body)| d.var == *a && !body.contains(&d.stmt))
            {
                all.loan_killed_at.push((Id(loan), point));
            }
        }
    }
    let must: BTreeSet<i64> = facts.must_def.iter().map(|m| m.r#ref).collect();
    let element: BTreeMap<i64, (&str, &str)> = facts
        .element_ref
        .iter()
        .map(|e| (e.r#ref, (e.element.as_str(), e.class.as_str())))
        .collect();
    let must_element: BTreeSet<i64> = facts.element_must_def.iter().map(|m| m.r#ref).collect();
    // Two elements of one class meet only when they are the same one.
    let may_meet = |a: i64, b: i64| match (element.get(&a), element.get(&b)) {
        (Some(x), Some(y)) => x == y || x.1 != y.1,
        _ => true,
    };
    for (loan, d) in facts.def.iter().enumerate() {
        for &n in graph.copies(d.stmt) {
            all.loan_issued_at.push((origin, Id(loan), mid(n)));
        }
        for k in &facts.def {
            let earlier_in_same = k.stmt == d.stmt && k.r#ref < d.r#ref;
            let overwrites = must.contains(&k.r#ref)
                || (must_element.contains(&k.r#ref)
                    && element.get(&k.r#ref) == element.get(&d.r#ref));
            if k.var == d.var && k.r#ref != d.r#ref && overwrites && !earlier_in_same {
                for &n in graph.copies(k.stmt) {
                    all.loan_killed_at.push((Id(loan), mid(n)));
                }
            }
        }
        for u in facts
            .r#use
            .iter()
            .filter(|u| u.var == d.var && may_meet(u.r#ref, d.r#ref))
        {
            for &n in graph.copies(u.stmt) {
                all.loan_invalidated_at.push((start(n), Id(loan)));
            }
        }
    }
    let output = Output::compute(&all, Algorithm::Naive, false);
    let mut reach = Reach::new();
    for (point, loans) in &output.errors {
        assert_eq!(point.0 % 2, 0, "errors only at start points");
        let stmt = graph.nodes[point.0 / 2].0;
        for loan in loans {
            let d = &facts.def[loan.0];
            reach.insert((d.r#ref, stmt, d.var.clone()));
        }
    }
    reach
}

/// The loops that rewrite an array whole, as our rules find them
/// (`rewrite(w, loop, array)`, rules/dl/kills.dl), and the outermost DO
/// loops that certainly define a variable in some iteration, as the
/// lowering finds them (`runs_during(stmt, loop)` of a statement with a
/// certain definition): (the loop's end statement, the variable, the
/// loop's body statements). Which loops rewrite or define is our rules'
/// and lowering's answer, held to real runs by `tests/deps_bruteforce.rs`;
/// what the kill on their exits does to reaching definitions is the
/// oracle's.
fn rewrite_exits(facts: &FactBase) -> Vec<(i64, String, BTreeSet<i64>)> {
    let tables = kaiseki_rules::run_compiled(facts).expect("the compiled rules run");
    let rewrite = tables
        .iter()
        .find(|t| t.name == "rewrite")
        .expect("a rewrite relation");
    let mut loops: BTreeSet<(i64, String)> = BTreeSet::new();
    for row in &rewrite.rows {
        let (Value::Number(l), Value::Symbol(a)) = (&row[1], &row[2]) else {
            panic!("rewrite(w: number, loop: number, array: symbol): {row:?}");
        };
        loops.insert((*l, a.clone()));
    }
    let must: BTreeSet<i64> = facts.must_def.iter().map(|m| m.r#ref).collect();
    for r in &facts.runs_during {
        let outermost = facts
            .r#loop
            .iter()
            .any(|l| l.r#loop == r.r#loop && l.kind == "do" && l.depth == 1);
        for d in facts.def.iter().filter(|d| d.stmt == r.stmt) {
            if outermost && must.contains(&d.r#ref) {
                loops.insert((r.r#loop, d.var.clone()));
            }
        }
    }
    loops
        .into_iter()
        .map(|(l, a)| {
            let end = facts
                .loop_end
                .iter()
                .find(|e| e.r#loop == l)
                .expect("a loop end")
                .stmt;
            let body = facts
                .loop_stmt
                .iter()
                .filter(|s| s.r#loop == l)
                .map(|s| s.stmt)
                .collect();
            (end, a, body)
        })
        .collect()
}

/// The statements, each copied once per state of knowledge of the
/// invariant tests' outcomes it can be reached in (every class unknown,
/// true or false), and the taken edges between the copies. Without tests,
/// one copy of each statement.
struct Product {
    /// (statement, state) of each node.
    nodes: Vec<(i64, Vec<u8>)>,
    edges: Vec<(usize, usize)>,
    copies: BTreeMap<i64, Vec<usize>>,
}

impl Product {
    fn of(facts: &FactBase, tests: bool) -> Product {
        let classes: Vec<i64> = match tests {
            true => facts
                .class_test
                .iter()
                .map(|t| t.class)
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect(),
            false => Vec::new(),
        };
        // The class and the outcome (1 true, 2 false) of each edge out of a test.
        let mut branch: BTreeMap<(i64, i64), (usize, u8)> = BTreeMap::new();
        for t in facts.class_test.iter().filter(|_| tests) {
            let k = classes.binary_search(&t.class).expect("a class");
            for e in facts.cfg_edge.iter().filter(|e| e.from == t.stmt) {
                branch.insert((e.from, e.to), (k, if e.to == t.then { 1 } else { 2 }));
            }
        }
        let mut succs: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
        for (from, to) in taken_edges(facts) {
            succs.entry(from).or_default().push(to);
        }
        // Code only edges no run takes lead to is dead: no path starts there.
        let entered: BTreeSet<i64> = facts.cfg_edge.iter().map(|e| e.to).collect();
        let mut g = Product {
            nodes: Vec::new(),
            edges: Vec::new(),
            copies: BTreeMap::new(),
        };
        let mut number: BTreeMap<(i64, Vec<u8>), usize> = BTreeMap::new();
        let mut work = Vec::new();
        let mut node = |g: &mut Product, work: &mut Vec<usize>, key: (i64, Vec<u8>)| {
            *number.entry(key.clone()).or_insert_with(|| {
                g.copies.entry(key.0).or_default().push(g.nodes.len());
                g.nodes.push(key);
                work.push(g.nodes.len() - 1);
                g.nodes.len() - 1
            })
        };
        // From every statement no edge enters (entries, code after a STOP).
        for s in facts.stmt.iter().filter(|s| !entered.contains(&s.stmt)) {
            node(&mut g, &mut work, (s.stmt, vec![0; classes.len()]));
        }
        while let Some(n) = work.pop() {
            let (stmt, state) = g.nodes[n].clone();
            for &to in succs.get(&stmt).into_iter().flatten() {
                let mut next = state.clone();
                if let Some(&(k, outcome)) = branch.get(&(stmt, to)) {
                    if next[k] != 0 && next[k] != outcome {
                        continue;
                    }
                    next[k] = outcome;
                }
                let m = node(&mut g, &mut work, (to, next));
                g.edges.push((n, m));
            }
        }
        g
    }

    fn copies(&self, stmt: i64) -> &[usize] {
        self.copies.get(&stmt).map_or(&[], Vec::as_slice)
    }
}

/// The CFG edges some run may take: a DO loop whose trip count is a known
/// constant (`loop_trip`) enters its body only when that count is not 0,
/// leaves past it from the DO statement only when it is, and goes round
/// again from its end only when it is 2 or more (or never, when its end
/// runs in its first iteration only: `iteration_last` 0, a loop whose
/// bounds give at most one iteration wherever it is reached); one that always runs
/// (`loop_runs`) never leaves past it from the DO statement; an IF branch
/// the iteration domain rules out (`never_edge`) is not taken.
fn taken_edges(facts: &FactBase) -> Vec<(i64, i64)> {
    let never: BTreeSet<(i64, i64)> = facts.never_edge.iter().map(|e| (e.from, e.to)).collect();
    let runs: BTreeSet<i64> = facts.loop_runs.iter().map(|r| r.r#loop).collect();
    let once: BTreeSet<(i64, i64)> = facts
        .iteration_last
        .iter()
        .filter(|l| l.iteration == 0)
        .map(|l| (l.r#loop, l.stmt))
        .collect();
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
                .is_none_or(|&t| body.contains(&(from, to)) == (t != 0))
                && (!runs.contains(&from) || body.contains(&(from, to)));
            let taken_from_end = loop_of_end.get(&from).is_none_or(|&l| {
                !body.contains(&(l, to))
                    || (trip.get(&l).is_none_or(|&t| t >= 2) && !once.contains(&(l, from)))
            });
            taken_from_do && taken_from_end && !never.contains(&(from, to))
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

/// Our flow against polonius: every pair polonius finds over the paths
/// the invariant tests allow is ours (sound), and every pair of ours it
/// finds over all the paths (nothing invented). Pairs ours has beyond the
/// first (a fact knows only the last arm of an invariant test its path
/// entered, polonius all the outcomes so far) are counted: (pairs, those).
fn assert_same_reach(name: &str, facts: &FactBase) -> (usize, usize) {
    assert_uses_before_definitions(name, facts);
    let (ours, theirs) = (our_reach(facts), polonius_reach(facts, true));
    let missed: Vec<_> = theirs
        .difference(&ours)
        .filter(|p| !iteration_exempt(facts, p))
        .collect();
    assert!(
        missed.is_empty(),
        "{name}: (def ref, use stmt, var) only in polonius: {missed:?}"
    );
    let coarse: Vec<_> = ours.difference(&theirs).collect();
    if !coarse.is_empty() {
        let all_paths = polonius_reach(facts, false);
        let invented: Vec<_> = coarse.iter().filter(|p| !all_paths.contains(p)).collect();
        assert!(
            invented.is_empty(),
            "{name}: (def ref, use stmt, var) only in our flow, even over all paths: {invented:?}"
        );
    }
    (ours.len(), coarse.len())
}

/// A pair the oracle cannot judge: the use runs only in iterations of a
/// loop around the definition no later than the first one the definition
/// runs in (`iteration_last`, `iteration_first`: the body of a triangular
/// loop that runs in the first outer iteration only, a statement under
/// `IF (I .EQ. 1)`), so a path from the definition through that loop's
/// back edge is one no run takes, and the dataflow drops what is carried
/// there (`carried_never_to`, `carried_never`); or the definition is the
/// DO statement's initial value of a loop whose first iteration the use
/// never runs in (`iteration_first`). The oracle knows paths,
/// not iterations; the runs of `tests/deps_bruteforce.rs` hold those rows
/// to real accesses.
fn iteration_exempt(facts: &FactBase, (d, use_stmt, _): &(i64, i64, String)) -> bool {
    let Some(def_stmt) = facts.def.iter().find(|x| x.r#ref == *d).map(|x| x.stmt) else {
        return false;
    };
    // The loop's body, or its end (where the DO variable is incremented).
    let in_loop = |l: i64, s: i64| {
        facts.loop_stmt.iter().any(|x| x.r#loop == l && x.stmt == s)
            || facts.loop_end.iter().any(|x| x.r#loop == l && x.stmt == s)
    };
    // The DO statement's initial value reaches only the first iteration,
    // which the use never runs in (`initial_index_never`).
    let from_do = facts
        .iteration_first
        .iter()
        .any(|first| first.stmt == *use_stmt && first.r#loop == def_stmt && first.iteration > 0);
    from_do
        || facts.iteration_last.iter().any(|last| {
            last.stmt == *use_stmt
                && in_loop(last.r#loop, def_stmt)
                && (last.iteration == 0
                    || facts.iteration_first.iter().any(|first| {
                        first.stmt == def_stmt
                            && first.r#loop == last.r#loop
                            && last.iteration <= first.iteration
                    }))
        })
}

#[test]
fn reaching_definitions_match_polonius_on_the_examples() {
    for path in example_files() {
        let (n, coarse) = assert_same_reach(&path.display().to_string(), &lower_file(&path));
        assert!(n > 5, "{}: {n} definition-use pairs", path.display());
        assert_eq!(coarse, 0, "{}", path.display());
    }
}

/// On random programs with nested IFs on the same inputs, a few pairs are
/// ours only (a definition under two invariant tests reaching the other
/// branch of the outer one): under 1% of the pairs.
#[test]
fn reaching_definitions_match_polonius_on_generated_programs() {
    let n = scaled(50);
    let (mut pairs, mut coarse) = (0, 0);
    for g in generated(n, n) {
        let (p, c) = assert_same_reach(&g.file_name, &lower_source(&g.file_name, &g.source));
        pairs += p;
        coarse += c;
    }
    assert!(pairs > 2 * 20 * n as usize, "{pairs} definition-use pairs");
    assert!(coarse * 100 < pairs, "{coarse} of {pairs} pairs only ours");
    eprintln!("{coarse} of {pairs} definition-use pairs only in our flow");
}

/// The oracle itself: on a loop that increments X, the definition in the
/// loop reaches its own use (through the back edge) and the one after the
/// loop; the definition before the loop reaches the loop's use only, since
/// the loop runs three times (and past it too, when its bound is N).
#[test]
fn the_oracle_sees_loops_and_kills() {
    let x_reach = |upper: &str| {
        let source = format!("      PROGRAM P\n      X = 0\n      DO 10 I = 1, {upper}\n   10 X = X + 1\n      Y = X\n      X = 5\n      PRINT *, X, Y, N\n      END\n");
        reaching_lines(&lower_source("p.f", &source), "X", true)
    };
    let want = |pairs: &[(i64, i64)]| pairs.iter().map(|&(d, u)| (Some(d), Some(u))).collect();
    assert_eq!(x_reach("3"), want(&[(2, 4), (4, 4), (4, 5), (6, 7)]));
    assert_eq!(
        x_reach("N"),
        want(&[(2, 4), (2, 5), (4, 4), (4, 5), (6, 7)])
    );
}

/// Two IFs on K, read once: no run takes the THEN branch of one and the
/// ELSE branch of the other, so T = 1.0 (line 3) never reaches line 10,
/// which runs only after T = 2.0. The oracle with the tests and our flow
/// agree; without the tests the oracle keeps that path. Once K changes
/// between the IFs, the path is real and the row comes back.
#[test]
fn the_oracle_and_our_flow_drop_paths_through_both_branches_of_one_test() {
    let source = |between: &str| {
        format!("      PROGRAM P\n      READ *, K\n      T = 1.0\n      IF (K .GT. 0) THEN\n        T = 2.0\n      ELSE\n        S = 1.0\n      END IF\n{between}      IF (K .GT. 0) THEN\n        PRINT *, T\n      ELSE\n        PRINT *, S\n      END IF\n      END\n")
    };
    let pairs =
        |v: &[(i64, i64)]| -> BTreeSet<_> { v.iter().map(|&(d, u)| (Some(d), Some(u))).collect() };
    let facts = lower_source("p.f", &source(""));
    assert_eq!(facts.class_test.len(), 2, "{:?}", facts.class_test);
    assert_eq!(reaching_lines(&facts, "T", true), pairs(&[(5, 10)]));
    assert_eq!(
        reaching_lines(&facts, "T", false),
        pairs(&[(3, 10), (5, 10)])
    );
    assert_eq!(reaching_lines(&facts, "S", true), pairs(&[(7, 12)]));
    assert_eq!(assert_same_reach("p.f", &facts).1, 0);
    let changed = lower_source("p.f", &source("      K = K - 1\n"));
    assert!(changed.class_test.is_empty());
    assert_eq!(
        reaching_lines(&changed, "T", true),
        pairs(&[(3, 11), (5, 11)])
    );
    assert_eq!(assert_same_reach("p.f", &changed).1, 0);
}

/// (line of the definition, line of the use) of each definition of `var`
/// that polonius says reaches a use (over the paths invariant tests allow,
/// with `tests`).
fn reaching_lines(
    facts: &FactBase,
    var: &str,
    tests: bool,
) -> BTreeSet<(Option<i64>, Option<i64>)> {
    let reach = polonius_reach(facts, tests);
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
