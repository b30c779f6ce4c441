//! Sparse evaluation graphs (`seg_edge`), checked against the block graph
//! they summarize: every block where a variable's facts can change (it
//! references the variable, or control enters it over a back edge or an
//! exit of a loop that does) sends its own token, every other block passes
//! the tokens it gets, and into each node of the variable's graph every
//! block edge must bring exactly the one token its `seg_edge` row names
//! (none when no token gets there). On programs with loops, IFs and jumps
//! of every kind.

mod common;
use common::*;

use std::collections::{BTreeMap, BTreeSet};

use kaiseki_facts::FactBase;

/// Checks every variable's graph; returns the number of rows.
fn check(f: &FactBase) -> usize {
    let mut succs: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
    for e in &f.block_edge {
        succs.entry(e.from).or_default().push(e.to);
    }
    let block_of: BTreeMap<i64, i64> = f.block_stmt.iter().map(|b| (b.stmt, b.block)).collect();
    let leads: BTreeMap<i64, i64> = f
        .block_stmt
        .iter()
        .filter(|b| b.index == 0)
        .map(|b| (b.stmt, b.block))
        .collect();
    let storage: BTreeMap<i64, &str> = f
        .storage_ref
        .iter()
        .map(|s| (s.r#ref, s.object.as_str()))
        .collect();
    // The blocks that reference each variable (as the rules name it).
    let mut touching: BTreeMap<&str, BTreeSet<i64>> = BTreeMap::new();
    let refs = f
        .def
        .iter()
        .map(|d| (d.r#ref, d.stmt, d.var.as_str()))
        .chain(f.r#use.iter().map(|u| (u.r#ref, u.stmt, u.var.as_str())));
    for (r, stmt, var) in refs {
        let var = storage.get(&r).copied().unwrap_or(var);
        touching.entry(var).or_default().insert(block_of[&stmt]);
    }
    // Loops as blocks: those whose first statement is in the body (and a
    // DO WHILE's header), and the block of the loop's end.
    let mut inside: BTreeMap<i64, BTreeSet<i64>> = BTreeMap::new();
    for l in f.r#loop.iter().filter(|l| l.kind == "do_while") {
        inside.entry(l.r#loop).or_default().insert(leads[&l.r#loop]);
    }
    for s in &f.loop_stmt {
        if let Some(&b) = leads.get(&s.stmt) {
            inside.entry(s.r#loop).or_default().insert(b);
        }
    }
    let end_of: BTreeMap<i64, i64> = f
        .loop_end
        .iter()
        .map(|e| (e.r#loop, block_of[&e.stmt]))
        .collect();
    let mut sources: BTreeMap<&str, BTreeSet<i64>> = touching.clone();
    for (l, blocks) in &inside {
        let targets: Vec<i64> = blocks
            .iter()
            .flat_map(|b| succs.get(b).into_iter().flatten().map(move |&s| (*b, s)))
            .filter(|&(b, s)| !blocks.contains(&s) || end_of.get(l) == Some(&b))
            .map(|(_, s)| s)
            .collect();
        for (var, touched) in &touching {
            if !touched.is_disjoint(blocks) {
                sources.get_mut(var).unwrap().extend(&targets);
            }
        }
    }
    let mut rows: BTreeMap<&str, BTreeMap<(i64, i64), Vec<i64>>> = BTreeMap::new();
    for e in &f.seg_edge {
        rows.entry(e.var.as_str())
            .or_default()
            .entry((e.via, e.to))
            .or_default()
            .push(e.from);
    }
    let none = BTreeMap::new();
    for (var, sources) in &sources {
        let rows = rows.get(var).unwrap_or(&none);
        // The graph's nodes send their own token too (merge blocks).
        let nodes: BTreeSet<i64> = sources
            .iter()
            .copied()
            .chain(rows.keys().map(|k| k.1))
            .chain(rows.values().flatten().copied())
            .collect();
        let mut out: BTreeMap<i64, BTreeSet<i64>> =
            nodes.iter().map(|&n| (n, BTreeSet::from([n]))).collect();
        let mut work: Vec<i64> = nodes.iter().copied().collect();
        while let Some(b) = work.pop() {
            let tokens = out[&b].clone();
            for &s in succs.get(&b).into_iter().flatten() {
                if nodes.contains(&s) {
                    continue;
                }
                let o = out.entry(s).or_default();
                let before = o.len();
                o.extend(&tokens);
                if o.len() != before {
                    work.push(s);
                }
            }
        }
        for (&b, ss) in &succs {
            for &s in ss.iter().filter(|s| nodes.contains(s)) {
                let want: Vec<i64> = out.get(&b).into_iter().flatten().copied().collect();
                let have = rows.get(&(b, s)).cloned().unwrap_or_default();
                assert_eq!(have, want, "{var}: edge {b} -> {s}");
            }
        }
        for &(via, to) in rows.keys() {
            assert!(nodes.contains(&to) && succs[&via].contains(&to));
        }
    }
    f.seg_edge.len()
}

#[test]
fn graphs_of_loops_ifs_and_jumps_bring_each_node_its_one_source() {
    let f = facts(
        "t.f",
        "      PROGRAM T
      INTEGER I, J, K, N
      REAL A(10), X, Y
      N = 10
      X = 1.0
      DO 10 I = 1, N
        A(I) = X
        IF (A(I) .GT. 2.0) THEN
          Y = A(I)
        ELSE
          Y = 0.0
        END IF
        DO J = 1, I
          X = X + Y
        END DO
   10 CONTINUE
      IF (X .GT. 5.0) GOTO 20
      K = 3
      GOTO (30, 40), K
   30 Y = 1.0
   40 Y = Y + 2.0
      DO WHILE (Y .LT. 100.0)
        Y = Y * 2.0
        IF (Y .GT. 50.0) GOTO 20
      END DO
      IF (Y) 50, 60, 50
   50 X = 0.0
   60 X = X + 1.0
   20 PRINT *, X, Y
      STOP
      Y = 7.0
      END
",
    );
    assert!(check(&f) >= 5, "{} rows", f.seg_edge.len());
}

#[test]
fn graphs_of_the_benchmark_programs_keep_their_invariants() {
    let (program, _) = kaiseki_frontend::parse_source(
        "mixed.f",
        &kaiseki_frontend::synth::synthetic_program(1500, 4),
    );
    let (f, _) = kaiseki_frontend::lower(&program);
    assert!(check(&f) > 100);
    for corpus in ["livermore.f", "jacobi.f"] {
        let path = format!("{}/tests/corpus/{corpus}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).expect("corpus file");
        let (program, _) = kaiseki_frontend::parse_source(&path, &text);
        let (f, _) = kaiseki_frontend::lower(&program);
        assert!(check(&f) > 0, "{corpus}");
    }
}

#[test]
fn a_variable_referenced_twice_has_a_small_graph() {
    // 2,000 blocks in a row (each IF makes a join) that reference X; Y is
    // referenced before them and after: its graph is the two blocks that
    // reference it, the last one entered over its two edges.
    let mut text = String::from("      PROGRAM T\n      REAL X, Y\n      X = 0.0\n      Y = 1.0\n");
    for _ in 0..1000 {
        text.push_str("      IF (X .GT. 1.0) X = X - 1.0\n      X = X + 0.5\n");
    }
    text.push_str("      PRINT *, X, Y\n      END\n");
    let f = facts("t.f", &text);
    check(&f);
    let y = f.seg_edge.iter().filter(|e| e.var == "Y").count();
    assert_eq!(
        y,
        2,
        "{:?}",
        f.seg_edge
            .iter()
            .filter(|e| e.var == "Y")
            .collect::<Vec<_>>()
    );
    assert!(
        f.seg_edge.len() < 4 * 2000 + 10,
        "{} rows",
        f.seg_edge.len()
    );
}

#[test]
fn leaving_a_do_while_is_a_node_of_the_variables_it_references() {
    // The block after the loop has one predecessor (the header), so no
    // merge puts it in X's graph; leaving the loop changes the carrier of
    // X's facts all the same.
    let f = facts(
        "w.f",
        "      PROGRAM W
      REAL X, Y
      X = 0.0
      Y = 0.0
      DO WHILE (X .LT. 10.0)
        X = X + 1.0
      END DO
      IF (Y .GT. 1.0) Y = 3.0
      PRINT *, X, Y
      END
",
    );
    check(&f);
    let after = at_line(&f, "logical_if", 8);
    assert!(
        f.seg_edge.iter().any(|e| e.var == "X" && e.to == after),
        "{:?}",
        f.seg_edge
    );
}
