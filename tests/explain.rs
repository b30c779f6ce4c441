//! `kaiseki explain`: every step of every proof tree is an instance of the
//! rule it names whose body holds in the relations the engine computed
//! (atoms present, negated atoms absent, comparisons, arithmetic, functor
//! calls and aggregates re-evaluated here), and every tree ends in input
//! facts. Checked on the examples and generated programs, over the
//! relations of both engines; then the command itself on an example.

mod common;

use common::{
    example_files, generated, kaiseki, kaiseki_ok, lower_file, lower_source, rules_dir, scaled,
};
use kaiseki_codegen::explain::{How, Premise, Proof, Prover, Relations};
use kaiseki_engine::dl::ast::{AggKind, ArithOp, CmpOp};
use kaiseki_engine::dl::ir::{Const, LitKind, Program, RelId, Rule, Term};
use kaiseki_engine::{FunctorContext, FunctorRegistry, RuleProgram};
use kaiseki_facts::{FactBase, Table, Value};
use kaiseki_rules::{builtin_program, check_rules, functors, load_rules};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// The relations of a run as sets, by relation id: what the checker holds
/// the trees to.
struct Held<'a> {
    ir: &'a Program,
    sets: Vec<HashSet<Vec<Value>>>,
    registry: FunctorRegistry<FactBase>,
    ctx: FunctorContext<'a, FactBase>,
}

impl Held<'_> {
    fn value(&self, t: &Term, env: &[Option<Value>]) -> Option<Value> {
        match t {
            Term::Var(v, _) => env[*v].clone(),
            Term::Const(Const::Number(n), _) => Some(Value::Number(*n)),
            Term::Const(Const::Symbol(s), _) => {
                Some(Value::Symbol(self.ir.symbols[*s as usize].clone()))
            }
            Term::Any(_) => None,
        }
    }

    /// Whether `row` is what `args` say under `env` (`_`: anything).
    fn fits(&self, args: &[Term], env: &[Option<Value>], row: &[Value]) -> bool {
        args.len() == row.len()
            && args.iter().zip(row).all(|(t, x)| match t {
                Term::Any(_) => true,
                t => self.value(t, env).as_ref() == Some(x),
            })
    }

    /// The rows of an aggregate's auxiliary relation: its rules' bodies
    /// are positive atoms here, joined by brute force.
    fn aux_rows(&self, rel: RelId) -> Vec<Vec<Value>> {
        let mut out = Vec::new();
        for rule in self.ir.rules.iter().filter(|r| r.head == rel) {
            let env = vec![None; rule.vars.len()];
            self.join(rule, 0, env, &mut out);
        }
        out
    }

    fn join(&self, rule: &Rule, at: usize, env: Vec<Option<Value>>, out: &mut Vec<Vec<Value>>) {
        let Some(lit) = rule.body.get(at) else {
            out.push(
                rule.head_args
                    .iter()
                    .map(|t| self.value(t, &env).expect("head bound"))
                    .collect(),
            );
            return;
        };
        let LitKind::Atom { rel, args } = &lit.kind else {
            panic!(
                "an aggregate body the checker does not join: {:?}",
                lit.kind
            );
        };
        for row in &self.sets[*rel] {
            let mut e = env.clone();
            let ok = args.iter().zip(row).all(|(t, x)| match t {
                Term::Any(_) => true,
                Term::Var(v, _) => match &e[*v] {
                    Some(y) => y == x,
                    None => {
                        e[*v] = Some(x.clone());
                        true
                    }
                },
                t => self.value(t, &e).as_ref() == Some(x),
            });
            if ok {
                self.join(rule, at + 1, e, out);
            }
        }
    }

    fn number(v: &Value) -> i64 {
        match v {
            Value::Number(n) => *n,
            Value::Symbol(s) => panic!("a symbol in arithmetic: {s}"),
        }
    }

    /// Checks one tree (each shared node once); panics with the step that fails.
    fn check(&self, proof: &Rc<Proof>, seen: &mut HashSet<*const Proof>) {
        if !seen.insert(Rc::as_ptr(proof)) {
            return;
        }
        let rel = &self.ir.relations[proof.rel];
        let at = format!("{}{:?}", rel.name, proof.row);
        assert!(
            self.sets[proof.rel].contains(&proof.row),
            "{at}: not a row of the run"
        );
        let (rule, env, premises) = match &proof.how {
            How::Input => {
                assert!(rel.input, "{at}: a leaf that is not an input fact");
                return;
            }
            How::Rule {
                rule,
                env,
                premises,
            } => (&self.ir.rules[*rule], env, premises),
            other => panic!("{at}: the tree does not end in input facts: {other:?}"),
        };
        assert_eq!(
            rule.head, proof.rel,
            "{at}: the rule derives another relation"
        );
        assert!(
            self.fits(&rule.head_args, env, &proof.row),
            "{at}: not the rule's head under {env:?}"
        );
        assert_eq!(
            rule.body.len(),
            premises.len(),
            "{at}: one premise per literal"
        );
        for (lit, premise) in rule.body.iter().zip(premises) {
            // Made only on failure: the Debug text of a premise holds its
            // whole subtree, which shares rows and so unfolds exponentially.
            let what = || {
                let premise = match premise {
                    Premise::Atom(child) => {
                        format!("{}{:?}", self.ir.relations[child.rel].name, child.row)
                    }
                    other => format!("{other:?}"),
                };
                format!("{at}: {:?} / {premise}", lit.kind)
            };
            match (&lit.kind, premise) {
                (LitKind::Atom { rel, args }, Premise::Atom(child)) => {
                    assert!(
                        child.rel == *rel && self.fits(args, env, &child.row),
                        "{}",
                        what()
                    );
                    self.check(child, seen);
                }
                (LitKind::Not { rel, args }, Premise::Absent { .. }) => {
                    let found = self.sets[*rel].iter().find(|row| self.fits(args, env, row));
                    assert!(found.is_none(), "{}: {found:?} holds", what());
                }
                (LitKind::Compare { op, lhs, rhs }, Premise::Compare { lhs: a, rhs: b, .. }) => {
                    let (x, y) = (
                        self.value(lhs, env).expect("bound"),
                        self.value(rhs, env).expect("bound"),
                    );
                    assert!(x == *a && y == *b, "{}", what());
                    let holds = match op {
                        CmpOp::Eq => x == y,
                        CmpOp::Ne => x != y,
                        op => op.holds(Self::number(&x), Self::number(&y)),
                    };
                    assert!(holds, "{}", what());
                }
                (LitKind::Arith { dst, op, lhs, rhs }, Premise::Arith { result, .. }) => {
                    let (x, y) = (
                        Self::number(&self.value(lhs, env).expect("bound")),
                        Self::number(&self.value(rhs, env).expect("bound")),
                    );
                    let want = match op {
                        ArithOp::Add => Some(x.wrapping_add(y)),
                        ArithOp::Sub => Some(x.wrapping_sub(y)),
                        ArithOp::Mul => Some(x.wrapping_mul(y)),
                        ArithOp::Div => x.checked_div(y),
                        ArithOp::Rem => x.checked_rem(y),
                    };
                    assert!(
                        want.map(Value::Number).as_ref() == Some(result)
                            && env[*dst].as_ref() == Some(result),
                        "{}",
                        what()
                    );
                }
                (LitKind::Call { dst, functor, args }, Premise::Call { result, .. }) => {
                    let args: Vec<Value> = args
                        .iter()
                        .map(|t| self.value(t, env).expect("bound"))
                        .collect();
                    let spec = self
                        .registry
                        .get(&self.ir.functors[*functor].name)
                        .expect("registered");
                    assert!(
                        (spec.f)(&self.ctx, &args).contains(result),
                        "{}: not a value of the call",
                        what()
                    );
                    assert_eq!(env[*dst].as_ref(), Some(result), "{}", what());
                }
                (
                    LitKind::Aggregate {
                        dst,
                        kind,
                        rel,
                        args,
                        target,
                    },
                    Premise::Aggregate { result, .. },
                ) => {
                    let values: Vec<i64> = self
                        .aux_rows(*rel)
                        .iter()
                        .filter(|row| self.fits(args, env, row))
                        .map(|row| target.map_or(0, |t| Self::number(&row[t])))
                        .collect();
                    let want = match kind {
                        AggKind::Count => Some(values.len() as i64),
                        AggKind::Sum => Some(values.iter().fold(0i64, |s, v| s.wrapping_add(*v))),
                        AggKind::Min => values.iter().min().copied(),
                        AggKind::Max => values.iter().max().copied(),
                    };
                    assert!(
                        want.map(Value::Number).as_ref() == Some(result)
                            && env[*dst].as_ref() == Some(result),
                        "{}",
                        what()
                    );
                }
                _ => panic!("{}: the premise is not of the literal's kind", what()),
            }
        }
    }
}

/// Proves up to three rows (first, middle, last) of every derived
/// relation of a run and checks every tree; returns the steps checked.
fn check_run(name: &str, program: &RuleProgram, facts: &FactBase, tables: Vec<Table>) -> usize {
    let ir = program.ir();
    let registry = functors::standard();
    let relations = Relations::new(ir, facts, tables.clone(), &registry);
    let mut sets: Vec<HashSet<Vec<Value>>> = vec![HashSet::new(); ir.relations.len()];
    let index: HashMap<&str, RelId> = ir
        .relations
        .iter()
        .enumerate()
        .map(|(i, r)| (r.name.as_str(), i))
        .collect();
    for t in facts.tables().into_iter().chain(tables) {
        if let Some(&r) = index.get(t.name.as_str()) {
            sets[r] = t.rows.into_iter().collect();
        }
    }
    let held = Held {
        ir,
        sets,
        registry: functors::standard(),
        ctx: FunctorContext::new(facts),
    };
    let prover = Prover::new(&relations);
    let mut seen = HashSet::new();
    for (rel, r) in ir.relations.iter().enumerate() {
        if r.input || r.aggregate_body {
            continue;
        }
        let rows = relations.rows(rel);
        let picks: HashSet<usize> = [0, rows.len() / 2, rows.len().saturating_sub(1)]
            .into_iter()
            .filter(|i| *i < rows.len())
            .collect();
        for i in picks {
            let proof = prover.prove(rel, &rows[i], usize::MAX);
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                held.check(&proof, &mut seen)
            }))
            .unwrap_or_else(|e| {
                std::panic::resume_unwind(Box::new(format!(
                    "{name}: {}",
                    e.downcast_ref::<String>().cloned().unwrap_or_default()
                )))
            });
        }
    }
    seen.len()
}

/// Both engines' relations on `facts` (the analyses on request included).
fn check_both(name: &str, facts: &FactBase) -> usize {
    let mut facts = facts.clone();
    for what in ["parallel", "coincidence", "comm"] {
        facts
            .request
            .push(kaiseki_facts::Request { what: what.into() });
    }
    let builtin = check_rules(&builtin_program().sources()).expect("built-in rules");
    let compiled = kaiseki_rules::run_compiled(&facts).expect("compiled run");
    let interpreted_rules = load_rules(&rules_dir()).expect("rules/dl");
    let interpreted =
        kaiseki_rules::run_interpreted(&interpreted_rules, &facts).expect("interpreted run");
    check_run(&format!("{name} (compiled)"), &builtin, &facts, compiled)
        + check_run(
            &format!("{name} (--rules)"),
            &interpreted_rules,
            &facts,
            interpreted,
        )
}

#[test]
fn proof_trees_hold_on_the_examples() {
    let local = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/kanada_deps.f");
    let mut steps = 0;
    for path in example_files().into_iter().chain([local]) {
        steps += check_both(&path.display().to_string(), &lower_file(&path));
    }
    assert!(steps > 1000, "only {steps} steps checked");
}

#[test]
fn proof_trees_hold_on_generated_programs() {
    for g in generated(scaled(12), scaled(12)) {
        let facts = lower_source(&g.file_name, &g.source);
        let steps = check_both(&format!("{}:\n{}", g.file_name, g.source), &facts);
        assert!(steps > 0, "{}: nothing checked", g.file_name);
    }
}

fn example() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/examples/kanada_deps.f").to_string()
}

#[test]
fn explain_prints_the_tree_down_to_the_source() {
    let out = kaiseki_ok(["explain", &example(), "flow(X@11:7, X@12:11, _)"]);
    let first = out.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("flow(X@11:7, X@12:11, 0)  by dependence.dl:"),
        "{out}"
    );
    assert!(out.contains("kanada_deps.f:12:11: Y = X + 1.0"), "{out}");
    assert!(out.contains("kanada_deps.f:11:7: X = 1.0"), "{out}");
    // The interpreted rules give the same tree.
    let rules = rules_dir();
    let interpreted = kaiseki_ok([
        "explain",
        &example(),
        "flow(X@11:7, X@12:11, _)",
        "--rules",
        rules.to_str().unwrap(),
    ]);
    assert_eq!(out, interpreted);
    let dot = kaiseki_ok(["explain", &example(), "flow(11:7, U, _)", "--dot"]);
    assert!(
        dot.starts_with("digraph explain {") && dot.contains("->"),
        "{dot}"
    );
    let cut = kaiseki_ok([
        "explain",
        &example(),
        "flow(X@11:7, X@12:11, _)",
        "--depth",
        "1",
    ]);
    assert!(cut.contains("... (deeper than --depth 1)"), "{cut}");
}

#[test]
fn a_wrong_pattern_is_a_usage_error() {
    for (pattern, message) in [
        ("nope(A)", "<pattern>:1:1: error: no relation `nope`"),
        (
            "flow(A, B)",
            "<pattern>:1:1: error: `flow` has 3 columns but 2 arguments are given",
        ),
        (
            "flow(X@99:7, U, _)",
            "<pattern>:1:6: error: no reference there",
        ),
        (
            "flow(A, B, C D)",
            "<pattern>:1:12: error: cannot read `C D`",
        ),
    ] {
        let out = kaiseki(["explain", &example(), pattern]);
        assert_eq!(out.code, Some(2), "{pattern}: {out:?}");
        assert!(out.stderr.starts_with(message), "{pattern}: {}", out.stderr);
        assert!(out.stderr.contains('^'), "{}", out.stderr);
    }
}

#[test]
fn why_not_names_the_literal_that_fails() {
    // X = 1.0 at 11:7 is redefined at 13:7 before X is read at 14:11.
    let out = kaiseki_ok([
        "explain",
        &example(),
        "flow(X@11:7, X@14:11, _)",
        "--why-not",
    ]);
    assert!(
        out.starts_with("flow(X@11:7, X@14:11, _) is not derived:"),
        "{out}"
    );
    assert!(out.lines().count() >= 3, "one line per rule of flow: {out}");
    let derived = kaiseki_ok([
        "explain",
        &example(),
        "flow(X@11:7, X@12:11, _)",
        "--why-not",
    ]);
    assert!(derived.contains("is derived (1 rows match)"), "{derived}");
}

#[test]
fn a_query_body_is_explained_answer_by_answer() {
    // The body `query` takes: each answer proved through it, the body's
    // atoms its premises.
    let body = "flow(D, U, _), def(D, _, \"X\")";
    let out = kaiseki_ok(["explain", &example(), body, "--width", "1"]);
    let mut lines = out.lines();
    assert_eq!(
        lines.next(),
        Some("query(X@11:7, X@12:11)  by <query>:2"),
        "{out}"
    );
    assert!(
        lines
            .next()
            .is_some_and(|l| l.starts_with("├─ flow(X@11:7, X@12:11, 0)  by dependence.dl:")),
        "{out}"
    );
    assert!(
        out.contains("└─ def(X@11:7, 11:7, \"X\")  input  ") && out.contains("... 4 more rows"),
        "{out}"
    );
    // Negations and comparisons too: the flows of N, which nothing redefines.
    let others = "!def(D, _, \"X\"), !def(D, _, \"Y\"), !def(D, _, \"Z\"), !def(D, _, \"W\")";
    let negated = kaiseki_ok([
        "explain",
        &example(),
        &format!("flow(D, U, C), C < 1, {others}"),
    ]);
    assert!(
        negated.starts_with("query(N@10:18, N@15:11, 0)  by <query>:2"),
        "{negated}"
    );
    assert!(
        negated.contains("├─ 0 < 1\n├─ no def(N@10:18, _, \"X\")"),
        "{negated}"
    );
    // --why-not: the literal that fails, with the bindings it had.
    let why = kaiseki_ok([
        "explain",
        &example(),
        "flow(D, U, _), def(D, _, \"NOPE\")",
        "--why-not",
    ]);
    assert!(
        why.starts_with("query(_, _) is not derived:\n  by <query>:2: no def("),
        "{why}"
    );
}

#[test]
fn a_wrong_body_is_reported_where_it_is_wrong() {
    for (body, message) in [
        (
            "flow(D, U, _), def(D, _)",
            "<query>:1:16: error: `def` has 3 columns but 2 arguments are given",
        ),
        ("flow(D, U, _), nope(D)", "<query>:1:16: error: "),
    ] {
        let out = kaiseki(["explain", &example(), body]);
        assert_eq!(out.code, Some(2), "{body}: {out:?}");
        assert!(out.stderr.starts_with(message), "{body}: {}", out.stderr);
        assert!(!out.stderr.contains("cannot read"), "{}", out.stderr);
    }
}
