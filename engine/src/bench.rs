//! The engine benchmark: the interpreter against the Ascent-compiled code
//! on the same programs and facts. Not a timed test; run it by hand:
//! `cargo test --release -p kaiseki-engine bench_ -- --ignored --nocapture`.
//! It prints, per program, the time of the evaluation alone and of the
//! whole run (with binding the inputs and building the output tables,
//! which is the same code for both engines).

use crate::compare::diff_tables;
use crate::compiled::fixtures;
use crate::interp;
use crate::run::{execute, Select};
use crate::testing::{fixture, registry, TestFacts};
use std::cell::Cell;
use std::time::{Duration, Instant};

/// A small deterministic generator (no dependency, same facts every run).
struct Lcg(u64);
impl Lcg {
    fn below(&mut self, n: u64) -> i64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n) as i64
    }
}

/// 1,000 clusters of 50 nodes with 100 random edges each: 100,000 edges.
fn clustered_graph() -> TestFacts {
    let mut rng = Lcg(1);
    let mut f = TestFacts::default();
    for c in 0..1000 {
        for _ in 0..100 {
            let (a, b) = (rng.below(50), rng.below(50));
            f.cfg_edge.push((c * 50 + a, c * 50 + b));
        }
    }
    f
}

/// A 25,000-statement program over 30 variables: a straight line with
/// loops back and forward branches, one definition and two uses per
/// statement (about 100,000 facts).
fn dataflow_program() -> TestFacts {
    let mut rng = Lcg(2);
    let mut f = TestFacts::default();
    let n = 25_000;
    for s in 0..n {
        if s + 1 < n {
            f.cfg_edge.push((s, s + 1));
        }
        match rng.below(10) {
            0 => f.cfg_edge.push((s, (s - rng.below(50)).max(0))),
            1 => f.cfg_edge.push((s, (s + rng.below(20)).min(n - 1))),
            _ => {}
        }
        let var = |rng: &mut Lcg| format!("V{}", rng.below(30));
        f.def.push((3 * s, s, var(&mut rng)));
        f.r#use.push((3 * s + 1, s, var(&mut rng)));
        f.r#use.push((3 * s + 2, s, var(&mut rng)));
    }
    f
}

fn time<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let start = Instant::now();
    let out = f();
    (out, start.elapsed())
}

fn compare(name: &str, facts: &TestFacts) {
    let registry = registry();
    let program = fixture(name);
    let compiled = fixtures::ALL.iter().find(|(n, _)| *n == name).unwrap().1;
    let evaluation = Cell::new(Duration::ZERO);
    let timed = |f: &dyn Fn() -> Vec<crate::rows::Rows>| {
        let (rows, t) = time(f);
        evaluation.set(t);
        rows
    };
    let (interpreted, ti) = time(|| {
        execute(
            &program.signature(),
            facts,
            &registry,
            Select::All,
            |inputs, calls, wanted| {
                timed(&|| interp::evaluate(program.ir(), inputs.clone(), calls, wanted, &[]))
            },
        )
        .unwrap()
    });
    let ei = evaluation.get();
    let evaluate = compiled.evaluate.unwrap();
    let (compiled, tc) = time(|| {
        execute(
            &compiled.signature(),
            facts,
            &registry,
            Select::All,
            |inputs, calls, wanted| timed(&|| evaluate(&inputs, calls, wanted)),
        )
        .unwrap()
    });
    let ec = evaluation.get();
    assert!(diff_tables(&interpreted, &compiled).is_empty());
    let rows: usize = interpreted.iter().map(|t| t.rows.len()).sum();
    let s = |d: Duration| d.as_secs_f64();
    println!(
        "{name}: {rows} rows; evaluation: interpreted {:.2} s, compiled {:.2} s, ratio {:.2}; \
         whole run: {:.2} s, {:.2} s, ratio {:.2}",
        s(ei),
        s(ec),
        s(ei) / s(ec),
        s(ti),
        s(tc),
        s(ti) / s(tc)
    );
}

#[test]
#[ignore]
fn bench_interpreter_vs_compiled() {
    compare("closure", &clustered_graph());
    compare("reaching", &dataflow_program());
}
