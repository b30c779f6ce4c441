//! Proof trees: a row re-derived from the relations of a run, down to
//! input facts. Each step is one instance of one rule whose body holds in
//! the relations. A relation read by its own stratum could prove a row
//! with itself (`reach(a) :- reach(a)` holds in any fixpoint), so rows of
//! a recursive stratum are ranked by the round of a naive re-evaluation
//! of that stratum in which they first appear, and a step may use only
//! rows of that stratum of a lower rank: every proof is well founded.

use super::relations::{Env, Matched, Relations};
use kaiseki_engine::dl::ast::{AggKind, ArithOp, CmpOp};
use kaiseki_engine::dl::ir::{LitKind, RelId};
use kaiseki_facts::Value;
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// Why a row holds.
#[derive(Debug)]
pub struct Proof {
    pub rel: RelId,
    pub row: Vec<Value>,
    pub how: How,
}

#[derive(Debug)]
pub enum How {
    /// An input fact.
    Input,
    /// An instance of rule `rule` (an index of `Program::rules`): the
    /// variables' values and, for each body literal in body order, what held.
    Rule {
        rule: usize,
        env: Env,
        premises: Vec<Premise>,
    },
    /// Not expanded: the depth limit.
    Cut,
    /// The run derived the row but no rule instance re-derives it from
    /// the other rows (an engine and this search disagree: a bug).
    Missing,
}

/// What one body literal contributed to a step.
#[derive(Debug)]
pub enum Premise {
    Atom(Rc<Proof>),
    /// A negated atom with no matching row (`None`: `_`).
    Absent {
        rel: RelId,
        args: Vec<Option<Value>>,
    },
    Compare {
        op: CmpOp,
        lhs: Value,
        rhs: Value,
    },
    Arith {
        op: ArithOp,
        lhs: Value,
        rhs: Value,
        result: Value,
    },
    Call {
        functor: usize,
        args: Vec<Value>,
        result: Value,
    },
    Aggregate {
        kind: AggKind,
        rel: RelId,
        args: Vec<Option<Value>>,
        target: Option<usize>,
        result: Value,
    },
}

type Ranks = Vec<FxHashMap<Vec<Value>, u32>>;

/// A row of a relation.
type RowKey = (RelId, Vec<Value>);
/// The rule chosen for a row, its variables' values and the rows it matched.
type Step = (usize, Env, Matched);
/// A row's proof and the depth it was cut at (`None`: not cut).
type Proved = (Rc<Proof>, Option<usize>);

/// Builds proofs over the relations of one run, remembering the step
/// chosen for each row and the ranks of each recursive stratum.
pub struct Prover<'r, 'a> {
    pub relations: &'r Relations<'a>,
    stratum_of: Vec<usize>,
    ranks: RefCell<HashMap<usize, Rc<Ranks>>>,
    steps: RefCell<HashMap<RowKey, Option<Step>>>,
    /// Each row's proof, with the depth it was cut at (`None`: not cut,
    /// the same at any depth).
    proofs: RefCell<HashMap<RowKey, Proved>>,
}

impl<'r, 'a> Prover<'r, 'a> {
    pub fn new(relations: &'r Relations<'a>) -> Prover<'r, 'a> {
        let ir = relations.ir;
        let mut stratum_of = vec![usize::MAX; ir.relations.len()];
        for (s, stratum) in ir.strata.iter().enumerate() {
            for &r in &stratum.relations {
                stratum_of[r] = s;
            }
        }
        Prover {
            relations,
            stratum_of,
            ranks: RefCell::default(),
            steps: RefCell::default(),
            proofs: RefCell::default(),
        }
    }

    /// The proof of `row` of `rel`, expanded `depth` steps deep.
    pub fn prove(&self, rel: RelId, row: &[Value], depth: usize) -> Rc<Proof> {
        self.proof(rel, row, depth).0
    }

    /// [`Prover::prove`], with the depth the proof was cut at.
    fn proof(&self, rel: RelId, row: &[Value], depth: usize) -> (Rc<Proof>, Option<usize>) {
        let key = (rel, row.to_vec());
        if let Some((p, cut)) = self.proofs.borrow().get(&key) {
            if cut.is_none_or(|d| d == depth) {
                return (p.clone(), *cut);
            }
        }
        let (how, cut) = if self.relations.ir.relations[rel].input {
            (How::Input, None)
        } else if depth == 0 {
            (How::Cut, Some(depth))
        } else {
            match self.step(rel, row) {
                None => (How::Missing, None),
                Some((rule, env, matched)) => {
                    let (premises, cut) = self.premises(rule, &env, &matched, depth - 1);
                    let how = How::Rule {
                        rule,
                        env,
                        premises,
                    };
                    (how, cut.then_some(depth))
                }
            }
        };
        let proof = Rc::new(Proof {
            rel,
            row: row.to_vec(),
            how,
        });
        self.proofs.borrow_mut().insert(key, (proof.clone(), cut));
        (proof, cut)
    }

    /// The premises of a step, with whether one of them was cut.
    fn premises(
        &self,
        rule: usize,
        env: &Env,
        matched: &Matched,
        depth: usize,
    ) -> (Vec<Premise>, bool) {
        let mut cut = false;
        let r = self.relations;
        let rule = &r.ir.rules[rule];
        let value = |t| r.value(t, env).unwrap_or(Value::Number(0));
        let result = |i: usize| {
            matched[i]
                .as_ref()
                .and_then(|m| m.first().cloned())
                .unwrap_or(Value::Number(0))
        };
        let premises = rule
            .body
            .iter()
            .enumerate()
            .map(|(i, lit)| match &lit.kind {
                LitKind::Atom { rel, .. } => {
                    let row = matched[i].clone().unwrap_or_default();
                    let (proof, below) = self.proof(*rel, &row, depth);
                    cut |= below.is_some();
                    Premise::Atom(proof)
                }
                LitKind::Not { rel, args } => Premise::Absent {
                    rel: *rel,
                    args: args.iter().map(|t| r.value(t, env)).collect(),
                },
                LitKind::Compare { op, lhs, rhs } => Premise::Compare {
                    op: *op,
                    lhs: value(lhs),
                    rhs: value(rhs),
                },
                LitKind::Arith { op, lhs, rhs, .. } => Premise::Arith {
                    op: *op,
                    lhs: value(lhs),
                    rhs: value(rhs),
                    result: result(i),
                },
                LitKind::Call { functor, args, .. } => Premise::Call {
                    functor: *functor,
                    args: args.iter().map(value).collect(),
                    result: result(i),
                },
                LitKind::Aggregate {
                    kind,
                    rel,
                    args,
                    target,
                    ..
                } => Premise::Aggregate {
                    kind: *kind,
                    rel: *rel,
                    args: args.iter().map(|t| r.value(t, env)).collect(),
                    target: *target,
                    result: result(i),
                },
            })
            .collect();
        (premises, cut)
    }

    /// The first rule instance (in rule order) that derives `row` from
    /// rows of lower rank.
    fn step(&self, rel: RelId, row: &[Value]) -> Option<(usize, Env, Matched)> {
        let key = (rel, row.to_vec());
        if let Some(s) = self.steps.borrow().get(&key) {
            return s.clone();
        }
        let r = self.relations;
        let s = self.stratum_of[rel];
        let ranks = r.ir.strata[s].recursive.then(|| self.ranks(s));
        let rank = ranks.as_ref().map(|k| k[rel].get(row).copied());
        let cells: Vec<Option<Value>> = row.iter().cloned().map(Some).collect();
        let mut chosen = None;
        if rank != Some(None) {
            let below = rank.flatten().unwrap_or(0);
            let allow = |_: usize, read: RelId, read_row: &[Value]| match &ranks {
                Some(k) if self.stratum_of[read] == s => {
                    k[read].get(read_row).is_some_and(|x| *x < below)
                }
                _ => true,
            };
            for (i, rule) in r.ir.rules.iter().enumerate() {
                if rule.head != rel {
                    continue;
                }
                let Some(env) = r.unify_head(rule, &cells) else {
                    continue;
                };
                r.instances(rule, env, &allow, &mut |env, matched| {
                    chosen = Some((i, env.clone(), matched.clone()));
                    true
                });
                if chosen.is_some() {
                    break;
                }
            }
        }
        self.steps.borrow_mut().insert(key, chosen.clone());
        chosen
    }

    /// The rank of every row of recursive stratum `s`: the round of a
    /// naive re-evaluation (over the held relations of earlier strata) in
    /// which the row is first derived. Computed semi-naively, which derives
    /// the same new rows in each round: round k joins, for each atom of
    /// the stratum in a rule's body, the rows of round k - 1 there with
    /// rows of earlier rounds at the atoms before it and of rounds up to
    /// k - 1 at those after it.
    fn ranks(&self, s: usize) -> Rc<Ranks> {
        if let Some(k) = self.ranks.borrow().get(&s) {
            return k.clone();
        }
        let r = self.relations;
        let stratum = &r.ir.strata[s];
        let mut ranks: Ranks = vec![FxHashMap::default(); r.ir.relations.len()];
        let inside = |rel: RelId| self.stratum_of[rel] == s;
        // Round 0: the rules that read nothing of the stratum.
        let mut delta: Vec<(RelId, Vec<Value>)> = Vec::new();
        for &i in &stratum.rules {
            let rule = &r.ir.rules[i];
            let reads_inside = rule
                .body
                .iter()
                .any(|l| l.kind.reads().is_some_and(|(rel, _)| inside(rel)));
            if reads_inside {
                continue;
            }
            r.instances(
                rule,
                vec![None; rule.vars.len()],
                &|_, _, _| true,
                &mut |env, _| {
                    delta.push((rule.head, r.head(rule, env)));
                    false
                },
            );
        }
        for round in 0u32.. {
            delta.retain(|(rel, row)| match ranks[*rel].entry(row.clone()) {
                std::collections::hash_map::Entry::Occupied(_) => false,
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(round);
                    true
                }
            });
            if delta.is_empty() {
                break;
            }
            let mut new = Vec::new();
            for &i in &stratum.rules {
                let rule = &r.ir.rules[i];
                for (p, lit) in rule.body.iter().enumerate() {
                    let LitKind::Atom { rel, .. } = lit.kind else {
                        continue;
                    };
                    if !inside(rel) {
                        continue;
                    }
                    let allow = |at: usize, read: RelId, row: &[Value]| {
                        if !inside(read) {
                            return true;
                        }
                        ranks[read].get(row).is_some_and(|&k| match at.cmp(&p) {
                            std::cmp::Ordering::Less => k < round,
                            std::cmp::Ordering::Equal => k == round,
                            std::cmp::Ordering::Greater => true,
                        })
                    };
                    for (_, row) in delta.iter().filter(|(d, _)| *d == rel) {
                        let cells: Vec<Option<Value>> = row.iter().cloned().map(Some).collect();
                        let Some(env) = r.bind_atom(rule, p, &cells) else {
                            continue;
                        };
                        r.instances(rule, env, &allow, &mut |env, _| {
                            let head = r.head(rule, env);
                            if !ranks[rule.head].contains_key(&head) {
                                new.push((rule.head, head));
                            }
                            false
                        });
                    }
                }
            }
            delta = new;
        }
        let ranks = Rc::new(ranks);
        self.ranks.borrow_mut().insert(s, ranks.clone());
        ranks
    }
}
