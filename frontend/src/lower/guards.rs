//! Invariant tests (`class_test`): IFs on a condition that cannot change
//! once it has been tested, so every test of it in one execution of the
//! unit takes the same branch. Their arms become guards (`block_guard`, the
//! `guard` column of `seg_edge`) with which the dataflow rules drop the
//! paths no run takes: the true branch of one such IF, then the false
//! branch of the next (`IF (P .GT. 0) ... ELSE ...` twice, with P read
//! once at the top, as legacy codes test a mode flag).
//!
//! A condition qualifies when it is the same text over scalars and
//! constants (no function, no array element: those may change or have
//! effects), and every definition of its variables' storage (calls' and
//! aliases' included) comes before the first test and outside the loops
//! around the tests, in a unit whose only backward jumps are DO loops'
//! back edges: then nothing can redefine them between two tests.

use rustc_hash::{FxHashMap, FxHashSet};

use kaiseki_facts::ClassTest;

use crate::ast::{Expr, ExprKind};

use super::UnitLowerer;

/// At most this many classes per unit, the most tested first: each class
/// may double a variable's dataflow facts where its arms join.
const MAX_CLASSES: usize = 8;

/// A class of tests: its (test, first statement of the true branch) in
/// source order, and the storage objects its condition reads.
type Class = (Vec<(i64, i64)>, Vec<String>);

/// A branch statement and its condition, recorded while lowering.
pub(super) struct Test<'a> {
    pub stmt: i64,
    pub cond: &'a Expr,
    /// The first statement of the true branch (None: an empty THEN part).
    pub then: Option<i64>,
}

impl UnitLowerer<'_, '_, '_> {
    /// Finds the unit's invariant tests, writes their `class_test` rows,
    /// and returns the guard of each statement-level edge leaving one:
    /// `+C` into its true branch, `-C` elsewhere (C: the class's first test).
    pub(super) fn invariant_tests(&mut self, edges: &[(i64, i64)]) -> FxHashMap<(i64, i64), i64> {
        let mut guards = FxHashMap::default();
        let [_, first_stmt, first_end] = self.first_loop_rows;
        let facts = &self.g.facts;
        let loop_ends: FxHashSet<i64> =
            facts.loop_end[first_end..].iter().map(|e| e.stmt).collect();
        if self.tests.is_empty()
            || edges
                .iter()
                .any(|&(a, b)| b <= a && !loop_ends.contains(&a))
        {
            return guards;
        }
        // The candidate classes: condition text -> (tests, storage objects read).
        let mut classes: FxHashMap<String, Class> = FxHashMap::default();
        for t in &self.tests {
            let (Some(then), Some(vars)) = (t.then, self.plain_vars(t.cond)) else {
                continue;
            };
            let text = crate::fold::text(t.cond, self.syms);
            let class = classes.entry(text).or_insert_with(|| (Vec::new(), vars));
            class.0.push((t.stmt, then));
        }
        if classes.is_empty() {
            return guards;
        }
        let mut defs: FxHashMap<&str, Vec<i64>> = FxHashMap::default();
        for d in &facts.def[self.first_def_row..] {
            defs.entry(self.storage.storage_of(&d.var))
                .or_default()
                .push(d.stmt);
        }
        let mut loops_of: FxHashMap<i64, Vec<i64>> = FxHashMap::default();
        for row in &facts.loop_stmt[first_stmt..] {
            loops_of.entry(row.stmt).or_default().push(row.r#loop);
        }
        let no_loops = Vec::new();
        let loops = |s: &i64| loops_of.get(s).unwrap_or(&no_loops);
        let mut kept: Vec<Vec<(i64, i64)>> = classes
            .into_values()
            .filter(|(tests, vars)| {
                let first = tests[0].0;
                let around: FxHashSet<i64> =
                    tests.iter().flat_map(|(t, _)| loops(t)).copied().collect();
                vars.iter()
                    .flat_map(|v| defs.get(v.as_str()).into_iter().flatten())
                    .all(|s| *s < first && !loops(s).iter().any(|l| around.contains(l)))
            })
            .map(|(tests, _)| tests)
            .collect();
        kept.sort_by_key(|tests| (std::cmp::Reverse(tests.len()), tests[0].0));
        kept.truncate(MAX_CLASSES);
        for tests in kept {
            let class = tests[0].0;
            for (test, then) in tests {
                self.g.facts.class_test.push(ClassTest {
                    stmt: test,
                    class,
                    then,
                });
                guards.insert((test, then), class);
                let from = edges.partition_point(|&(a, _)| a < test);
                for &(_, to) in edges[from..].iter().take_while(|(a, _)| *a == test) {
                    if to != then {
                        guards.insert((test, to), -class);
                    }
                }
            }
        }
        guards
    }

    /// The storage objects a condition reads, if it reads only scalar
    /// variables and constants.
    fn plain_vars(&self, e: &Expr) -> Option<Vec<String>> {
        let mut vars = Vec::new();
        let mut work = vec![e];
        while let Some(e) = work.pop() {
            match &e.kind {
                ExprKind::Int(_) | ExprKind::Real(_) | ExprKind::Logical(_) | ExprKind::Str(_) => {}
                ExprKind::Var(name) if self.syms.param(name).is_some() => {}
                ExprKind::Var(name) if !self.syms.is_array(name) && !self.syms.is_pointee(name) => {
                    vars.push(self.storage.storage_of(name).to_string())
                }
                ExprKind::Unary(_, a) => work.push(a),
                ExprKind::Binary(_, a, b) => work.extend([&**a, &**b]),
                _ => return None,
            }
        }
        Some(vars)
    }
}
