//! Lowering of large synthetic programs: invariants that must hold on any
//! input, and the timing of parse + lower on 100,000 lines:
//! `cargo test --release -p kaiseki-frontend --test lower_synthetic -- --ignored --nocapture`.

mod common;

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use kaiseki_facts::FactBase;
use kaiseki_frontend::synth::synthetic_program;

/// Every executable statement is in exactly one block, blocks are runs of
/// consecutive statements (declarations come before the body here), edges
/// join executable statements, and every loop contains its end, which has
/// a back edge into the loop.
fn check_invariants(f: &FactBase) {
    let exec: HashSet<i64> = f
        .stmt
        .iter()
        .filter(|s| s.kind != "decl" && s.kind != "format")
        .map(|s| s.stmt)
        .collect();
    let mut in_block: HashMap<i64, (i64, i64)> = HashMap::new();
    for b in &f.block_stmt {
        assert!(
            in_block.insert(b.stmt, (b.block, b.index)).is_none(),
            "stmt {} in two blocks",
            b.stmt
        );
    }
    assert_eq!(in_block.keys().copied().collect::<HashSet<_>>(), exec);
    for (&s, &(block, index)) in &in_block {
        assert_eq!(
            block + index,
            s,
            "blocks are runs of consecutive executable statements here"
        );
    }
    for e in &f.cfg_edge {
        assert!(exec.contains(&e.from) && exec.contains(&e.to));
    }
    let mut succs: HashMap<i64, Vec<i64>> = HashMap::new();
    for e in &f.cfg_edge {
        succs.entry(e.from).or_default().push(e.to);
    }
    let ends: HashMap<i64, i64> = f.loop_end.iter().map(|e| (e.r#loop, e.stmt)).collect();
    let body: HashSet<(i64, i64)> = f.loop_stmt.iter().map(|s| (s.r#loop, s.stmt)).collect();
    for l in &f.r#loop {
        let end = ends[&l.r#loop];
        assert!(
            body.contains(&(l.r#loop, end)),
            "loop {} contains its enddo",
            l.r#loop
        );
        let back = succs[&end].iter().any(|t| (l.r#loop..=end).contains(t));
        assert!(back, "loop {} has a back edge", l.r#loop);
    }
}

#[test]
fn synthetic_programs_lower_cleanly() {
    for seed in 0..4 {
        let text = synthetic_program(3000, seed);
        let f = common::facts("synth.f", &text);
        check_invariants(&f);
        assert!(f.r#loop.iter().any(|l| l.depth >= 4), "deep nests");
        assert!(!f.hpf_align.is_empty() && !f.common.is_empty() && !f.param.is_empty());
        assert!(f.stmt.iter().any(|s| s.kind == "goto"));
    }
}

/// CPU time of this thread (Linux), to time on a shared, loaded machine.
fn thread_cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

#[test]
#[ignore = "timing; run in release with --ignored --nocapture"]
fn parse_and_lower_100k_lines() {
    let text = synthetic_program(100_000, 1);
    let (c0, t0) = (thread_cpu_seconds(), Instant::now());
    let (program, parse_diags) = kaiseki_frontend::parse_source("synth.f", &text);
    let (c1, t1) = (thread_cpu_seconds(), Instant::now());
    let (facts, lower_diags) = kaiseki_frontend::lower(&program);
    let (c2, t2) = (thread_cpu_seconds(), Instant::now());
    assert!(parse_diags
        .iter()
        .chain(&lower_diags)
        .all(|d| !d.is_error()));
    let rows: usize = facts.tables().iter().map(|t| t.rows.len()).sum();
    let cpu = |a: Option<f64>, b: Option<f64>| a.zip(b).map_or(f64::NAN, |(a, b)| b - a);
    eprintln!(
        "{} lines, {} units, {} statements, {} facts: parse {:.3} s ({:.3} s CPU), lower {:.3} s ({:.3} s CPU)",
        text.lines().count(),
        program.units.len(),
        facts.stmt.len(),
        rows,
        (t1 - t0).as_secs_f64(),
        cpu(c0, c1),
        (t2 - t1).as_secs_f64(),
        cpu(c1, c2),
    );
    check_invariants(&facts);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// Lowering never panics, whatever the parser recovered from: programs
    /// with random lines deleted (unclosed loops and IFs, missing labels,
    /// lost declarations) still lower, and their edges join statements.
    #[test]
    fn damaged_programs_still_lower(seed in 0u64..1000, cuts in proptest::collection::vec(0usize..400, 1..12)) {
        let text = synthetic_program(400, seed);
        let mut lines: Vec<&str> = text.lines().collect();
        for c in cuts {
            if !lines.is_empty() {
                let i = c % lines.len();
                lines.remove(i);
            }
        }
        let (program, _) = kaiseki_frontend::parse_source("cut.f", &lines.join("\n"));
        let (f, _) = kaiseki_frontend::lower(&program);
        let ids: HashSet<i64> = f.stmt.iter().map(|s| s.stmt).collect();
        for e in &f.cfg_edge {
            proptest::prop_assert!(ids.contains(&e.from) && ids.contains(&e.to));
        }
        let in_blocks: HashSet<i64> = f.block_stmt.iter().map(|b| b.stmt).collect();
        for s in &f.stmt {
            let exec = s.kind != "decl" && s.kind != "format";
            proptest::prop_assert_eq!(exec, in_blocks.contains(&s.stmt));
        }
    }
}
