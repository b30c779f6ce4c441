//! Chunks of basic blocks: every `chunk` row is checked against the block
//! graph it was made from (one entry, one exit target, the exits that are
//! reachable inside it), and `chunk_parent` / `block_chunk` against the
//! ranges, on programs with loops, IFs and jumps of every kind.

mod common;
use common::*;

use std::collections::{BTreeMap, BTreeSet};

use kaiseki_facts::FactBase;

/// The blocks of each unit in id order, with their edges.
struct Graph {
    blocks: Vec<i64>,
    unit_of: BTreeMap<i64, String>,
    succs: BTreeMap<i64, Vec<i64>>,
    preds: BTreeMap<i64, Vec<i64>>,
}

fn graph(f: &FactBase) -> Graph {
    let unit_of_stmt: BTreeMap<i64, String> =
        f.stmt.iter().map(|s| (s.stmt, s.unit.clone())).collect();
    let blocks: BTreeSet<i64> = f.block_stmt.iter().map(|b| b.block).collect();
    let mut g = Graph {
        blocks: blocks.iter().copied().collect(),
        unit_of: blocks
            .iter()
            .map(|&b| (b, unit_of_stmt[&b].clone()))
            .collect(),
        succs: BTreeMap::new(),
        preds: BTreeMap::new(),
    };
    for e in &f.block_edge {
        g.succs.entry(e.from).or_default().push(e.to);
        g.preds.entry(e.to).or_default().push(e.from);
    }
    g
}

/// The blocks of `entry..=last` (one unit's, in id order).
fn members(g: &Graph, entry: i64, last: i64) -> BTreeSet<i64> {
    g.blocks
        .iter()
        .copied()
        .filter(|&b| b >= entry && b <= last && g.unit_of[&b] == g.unit_of[&entry])
        .collect()
}

fn check(f: &FactBase) -> usize {
    let g = graph(f);
    let mut ranges = BTreeMap::new();
    for c in &f.chunk {
        assert!(c.chunk < 0, "chunk ids are negative");
        assert!(c.entry < c.last, "a chunk has two blocks or more");
        assert_eq!(g.unit_of[&c.entry], g.unit_of[&c.last]);
        let inside = members(&g, c.entry, c.last);
        let none = Vec::new();
        for &b in &inside {
            for &p in g.preds.get(&b).unwrap_or(&none) {
                if b == c.entry {
                    assert!(
                        !inside.contains(&p),
                        "edge {p} -> entry {b} from inside {c:?}"
                    );
                } else {
                    assert!(
                        inside.contains(&p),
                        "edge {p} -> {b} enters {c:?} past its entry"
                    );
                }
            }
        }
        let targets: BTreeSet<i64> = inside
            .iter()
            .flat_map(|b| g.succs.get(b).unwrap_or(&none))
            .copied()
            .filter(|s| !inside.contains(s))
            .collect();
        assert_eq!(targets.len(), 1, "{c:?} leaves for {targets:?}");
        // The exits whose source is reachable from the entry inside.
        let mut seen = BTreeSet::from([c.entry]);
        let mut work = vec![c.entry];
        let mut exits = BTreeSet::new();
        while let Some(b) = work.pop() {
            for &s in g.succs.get(&b).unwrap_or(&none) {
                if !inside.contains(&s) {
                    exits.insert((b, s));
                } else if seen.insert(s) {
                    work.push(s);
                }
            }
        }
        let rows: BTreeSet<(i64, i64)> = f
            .chunk_exit
            .iter()
            .filter(|e| e.chunk == c.chunk)
            .map(|e| (e.from, e.to))
            .collect();
        assert_eq!(rows, exits, "exits of {c:?}");
        ranges.insert(c.chunk, (c.entry, c.last, inside.len()));
    }
    // Chunks are ranges of one unit's blocks: containment is of intervals.
    let within = |(e1, l1, _): (i64, i64, usize), (e2, l2, _): (i64, i64, usize)| {
        g.unit_of[&e1] == g.unit_of[&e2] && e2 <= e1 && l1 <= l2
    };
    let smallest = |pred: &dyn Fn((i64, i64, usize)) -> bool, not: i64| {
        ranges
            .iter()
            .filter(|(&c, &r)| c != not && pred(r))
            .min_by_key(|(_, r)| r.2)
            .map(|(&c, _)| c)
    };
    for (&c, &r) in &ranges {
        let parent = smallest(&|o| o.2 > r.2 && within(r, o), c);
        let row = f
            .chunk_parent
            .iter()
            .find(|p| p.chunk == c)
            .map(|p| p.parent);
        assert_eq!(row, parent, "parent of {c}");
        for (&o, &other) in &ranges {
            let apart = g.unit_of[&r.0] != g.unit_of[&other.0] || r.1 < other.0 || other.1 < r.0;
            assert!(
                o == c || within(r, other) || within(other, r) || apart,
                "chunks {c} and {o} overlap without nesting"
            );
        }
    }
    for &b in &g.blocks {
        let row = f.block_chunk.iter().find(|p| p.block == b).map(|p| p.chunk);
        let expected = smallest(&|o| within((b, b, 1), o), 0);
        assert_eq!(row, expected, "chunk of block {b}");
    }
    f.chunk.len()
}

#[test]
fn chunks_of_loops_ifs_and_jumps_have_one_entry_and_one_exit() {
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
    assert!(check(&f) >= 5, "{} chunks", f.chunk.len());
}

#[test]
fn chunks_of_the_benchmark_programs_keep_their_invariants() {
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
fn a_long_sequence_gives_a_shallow_tree() {
    // 2,000 blocks in a row (each IF makes a join): every block is at most
    // about log2(2000) + a few chunks deep.
    let mut text = String::from("      PROGRAM T\n      REAL X\n      X = 0.0\n");
    for _ in 0..1000 {
        text.push_str("      IF (X .GT. 1.0) X = X - 1.0\n      X = X + 0.5\n");
    }
    text.push_str("      PRINT *, X\n      END\n");
    let f = facts("t.f", &text);
    check(&f);
    let parent: BTreeMap<i64, i64> = f.chunk_parent.iter().map(|p| (p.chunk, p.parent)).collect();
    let depth = |mut c: i64| {
        let mut d = 1;
        while let Some(&p) = parent.get(&c) {
            c = p;
            d += 1;
        }
        d
    };
    let deepest = f.block_chunk.iter().map(|b| depth(b.chunk)).max().unwrap();
    assert!(deepest <= 16, "chunk tree {deepest} deep");
}
