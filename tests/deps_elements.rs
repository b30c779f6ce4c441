//! Constant elements of an array (`A(3)`, `B(K, 2)` with K a PARAMETER):
//! each element's accesses are linked one to the next, as the minimal
//! dependences of Kanada & Ishida link a scalar's, not every access of the
//! array to every later one. On straight-line code over constant elements
//! the rows of `kaiseki deps` are exactly the dependences the judge sees
//! in a run (nothing missed, nothing extra), and a unit that reads one
//! array all over it costs in proportion to its references (the candidate
//! pairs were the square of the reads: 2,000 reads took 7 GB).

mod common;

use common::{deps_csv, query_rows, source_file};
use kaiseki_judge::{dependences, project, run_source, Config};
use std::collections::BTreeSet;

/// A straight-line unit of `n` statements reading and writing constant
/// elements of A(8) and B(3, 3) (set first) and the scalars X and Y, then printing
/// everything (the whole arrays: a sink for every element's last access).
fn straight_line(seed: u64, n: usize) -> String {
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = |m: u64| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) % m + 1
    };
    let mut src = String::from(
        "      PROGRAM ELEMS\n      INTEGER K\n      PARAMETER (K = 2)\n      REAL A(8), B(3, 3), X, Y\n      X = 0.5\n      Y = 0.25\n",
    );
    for a in 1..=8 {
        src.push_str(&format!("      A({a}) = {a}.5\n"));
    }
    for i in 1..=3 {
        for j in 1..=3 {
            src.push_str(&format!("      B({i}, {j}) = {i}.{j}\n"));
        }
    }
    for _ in 0..n {
        let (a, c) = (next(8), next(9));
        let (i, j) = (next(3), next(3));
        let b = if next(2) == 1 {
            format!("B({i}, K)")
        } else {
            format!("B({i}, {j})")
        };
        let stmt = match next(6) {
            1 => format!("A({a}) = X + {c}.0"),
            2 => format!("X = A({a}) + {b}"),
            3 => format!("{b} = A({a}) * 0.5"),
            4 => format!("Y = X + A({a}) - {b}"),
            5 => format!("A({a}) = A({a}) + Y"),
            _ => format!("{b} = {b} + A({a})"),
        };
        src.push_str(&format!("      {stmt}\n"));
    }
    src.push_str("      PRINT *, X, Y, A, B\n      END\n");
    src
}

#[test]
fn constant_elements_give_exactly_the_dependences_of_a_run() {
    for seed in 1..=6 {
        let source = straight_line(seed, 60);
        let file = source_file(&format!("deps_elements_{seed}"), "elems.f", &source);
        let key = |kind: &str, var: &str, src: (u32, u32), dst: (u32, u32)| {
            (kind.to_string(), var.to_string(), src, dst)
        };
        let rows: BTreeSet<_> = deps_csv(&file)
            .iter()
            .filter(|r| r.var == "A" || r.var == "B")
            .map(|r| key(&r.kind, &r.var, r.src, r.dst))
            .collect();
        let run = run_source("elems.f", &source, &[] as &[&str], &Config::default())
            .expect("the judge runs the program");
        let real: BTreeSet<_> = dependences(&run.trace)
            .iter()
            .filter(|d| d.var == "A" || d.var == "B")
            .map(|d| {
                let (s, t) = (d.src.pos, d.dst.pos);
                key(d.kind.as_str(), &d.var, (s.line, s.col), (t.line, t.col))
            })
            .collect();
        let missed: Vec<_> = real.difference(&rows).collect();
        let extra: Vec<_> = rows.difference(&real).collect();
        assert!(
            missed.is_empty() && extra.is_empty(),
            "seed {seed}: missed {missed:?}\nextra {extra:?}\n{source}"
        );
        assert!(real.len() > 100, "seed {seed}: {} dependences", real.len());
    }
}

/// One unit reading A(50) all over it: `IF (A(k) .GT. c) GOTO 900` and
/// `X = A(k) + c`, `reads` of each; (references, candidate array pairs,
/// facts at block entries).
fn read_all_over(reads: usize) -> (usize, usize, usize) {
    let mut src = String::from("      SUBROUTINE G(A, X, Y)\n      REAL A(50), X, Y\n");
    for i in 0..2 * reads {
        let k = (i * 37 + i / 7) % 50 + 1;
        let c = i % 9 + 1;
        if i % 2 == 0 {
            src.push_str(&format!("      IF (A({k}) .GT. {c}.0) GOTO 900\n"));
        } else {
            src.push_str(&format!("      X = A({k}) + {c}.0\n"));
        }
    }
    src.push_str("  900 Y = X\n      END\n");
    let file = source_file(&format!("deps_elements_reads_{reads}"), "reads.f", &src);
    let rows = |pattern: &str| query_rows(&file, pattern);
    (
        rows("access(R, S, V)"),
        rows("array_pair(K, S, D)"),
        rows("dataflow_in(P, B, V, R, T, H, G)"),
    )
}

#[test]
fn reading_one_array_all_over_a_unit_costs_its_references() {
    let (refs, pairs, facts) = read_all_over(1000);
    let (refs2, pairs2, facts2) = read_all_over(2000);
    println!(
        "{refs} references: {pairs} candidate pairs, {facts} facts; twice the reads: {pairs2}, {facts2}"
    );
    assert!(
        refs >= 3000 && refs2 >= 2 * refs - 10,
        "{refs}, {refs2} references"
    );
    for (what, n, n2) in [("pairs", pairs, pairs2), ("facts", facts, facts2)] {
        assert!(n < 4 * refs, "{n} {what} for {refs} references");
        assert!(
            (n2 as f64) < 2.2 * n as f64,
            "twice the reads: {n} -> {n2} {what}"
        );
    }
}

/// `A(I) = 1` in a loop, then `A(5) = 0`, then `X = A(5)`: the loop's
/// values of A(5) are overwritten before the read. The dataflow kills the
/// element's own facts at `A(5) = 0`, not the loop's (they are the
/// array's): the subscript rules' covering write does, when it runs.
#[test]
fn a_constant_element_write_overwrites_what_a_loop_wrote_there() {
    let file = source_file(
        "deps_elements_cover",
        "cover.f",
        "      SUBROUTINE C(A, N, X)\n      REAL A(10), X\n      INTEGER N\n      DO 10 I = 1, N\n        A(I) = 1.0\n   10 CONTINUE\n      A(5) = 0.0\n      X = A(5)\n      END\n",
    );
    let rows: Vec<String> = deps_csv(&file)
        .iter()
        .filter(|r| r.var == "A")
        .map(|r| format!("{} {}->{}", r.kind, r.src.0, r.dst.0))
        .collect();
    assert_eq!(rows, ["output 5->7", "flow 7->8"]);
    // In a loop that may run no iteration, `A(5) = 0` may not run.
    let file = source_file(
        "deps_elements_cover_zero_trip",
        "cover.f",
        "      SUBROUTINE C(A, N, X)\n      REAL A(10), X\n      INTEGER N\n      DO 10 I = 1, N\n        A(I) = 1.0\n   10 CONTINUE\n      DO 20 J = 1, N\n        A(5) = 0.0\n   20 CONTINUE\n      X = A(5)\n      END\n",
    );
    let flows: Vec<(u32, u32)> = deps_csv(&file)
        .iter()
        .filter(|r| r.var == "A" && r.kind == "flow")
        .map(|r| (r.src.0, r.dst.0))
        .collect();
    assert_eq!(flows, [(5, 10), (8, 10)]);
}

/// Elements named by a scalar the unit never defines (`A(K)`, `A(K+1)`,
/// K an argument) are followed like constant ones: `A(K)` and `A(K+1)`
/// never meet, `A(K)` and `A(4)` may. Every dependence of runs with K = 3
/// (where A(K+1) is A(4)) and K = 6 is reported, and no row joins two
/// elements of one class.
#[test]
fn elements_named_by_an_unchanged_scalar_are_followed_too() {
    let mut body = String::new();
    let mut state = 12345u64;
    let mut next = |m: u64| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) % m
    };
    let elements = ["A(K)", "A(K+1)", "A(K-1)", "A(4)", "A(2)"];
    for _ in 0..60 {
        let (a, b) = (elements[next(5) as usize], elements[next(5) as usize]);
        let line = match next(3) {
            0 => format!("      {a} = X + {b}\n"),
            1 => format!("      X = {a} * 0.5 + {b}\n"),
            _ => format!("      {a} = {a} + 1.0\n"),
        };
        body.push_str(&line);
    }
    let source = format!(
        "      PROGRAM P\n      REAL A(10), X\n      INTEGER I\n      DO 10 I = 1, 10\n        A(I) = I\n   10 CONTINUE\n      X = 0.5\n      CALL G(A, 3, X)\n      CALL G(A, 6, X)\n      PRINT *, A, X\n      END\n      SUBROUTINE G(A, K, X)\n      REAL A(10), X\n      INTEGER K\n{body}      END\n"
    );
    let rows = deps_csv(&source_file("deps_elements_symbolic", "sym.f", &source));
    let in_g: Vec<_> = rows
        .iter()
        .filter(|r| r.unit == "G" && r.var == "A")
        .collect();
    let text_at = |(line, col): (u32, u32)| -> String {
        let l = source.lines().nth(line as usize - 1).expect("a line");
        let rest = &l[col as usize - 1..];
        rest[..rest.find(')').expect("a subscript") + 1].to_string()
    };
    for r in &in_g {
        let (s, d) = (text_at(r.src), text_at(r.dst));
        let class = |e: &str| e.contains('K');
        assert!(
            s == d || class(&s) != class(&d),
            "{s} and {d} never meet: {r:?}"
        );
    }
    let run = run_source("sym.f", &source, &[] as &[&str], &Config::default())
        .expect("the judge runs the program");
    let reported: BTreeSet<_> = in_g
        .iter()
        .map(|r| (r.kind.clone(), r.src, r.dst))
        .collect();
    let mut real = 0;
    for activation in project(&run.trace, &run.common, "G") {
        for d in dependences(&activation).iter().filter(|d| d.var == "A") {
            let (s, t) = (d.src.pos, d.dst.pos);
            let key = (
                d.kind.as_str().to_string(),
                (s.line, s.col),
                (t.line, t.col),
            );
            assert!(reported.contains(&key), "missed {key:?}\n{source}");
            real += 1;
        }
    }
    assert!(real > 50, "{real} dependences");
}

/// `WORK(P)` read in four statements of one iteration of a loop inside
/// the P loop (one under an IF) and passed to an unknown procedure: each
/// read is linked to the next reads of its element only (past the IF, both
/// the one under it and the one after), the last to the first of the next
/// Q iteration (`read_key`, rules/dl/access.dl), where every read was
/// linked to every other in both directions; the call may read any element
/// from `WORK(P)` on, or none, and blocks nothing.
#[test]
fn reads_of_one_element_by_affine_subscripts_link_each_to_the_next() {
    let path = source_file(
        "deps_elements_rereads",
        "rereads.f",
        "      SUBROUTINE T(N, WORK, X)
      INTEGER N, P, Q
      DOUBLE PRECISION WORK(N), X, Y
      DO 10 P = 1, N
        DO 20 Q = 1, N
          X = WORK(P) + WORK(Q)
          Y = WORK(P)
          IF (Y .GE. 1.0) X = X + WORK(P)
          CALL F(WORK(P))
          Y = Y + WORK(P)
   20   CONTINUE
   10 CONTINUE
      END
",
    );
    let rows = deps_csv(&path);
    // The WORK(P) of each line.
    let reads = [(6, 15), (7, 15), (8, 35), (9, 18), (10, 19)];
    let between = |lines: &[u32]| -> BTreeSet<(u32, u32, u32)> {
        rows.iter()
            .filter(|r| r.kind == "input" && reads.contains(&r.src) && reads.contains(&r.dst))
            .filter(|r| lines.contains(&r.src.0) && lines.contains(&r.dst.0))
            .map(|r| (r.src.0, r.dst.0, r.carrier))
            .collect()
    };
    assert_eq!(
        between(&[6, 7, 8, 10]),
        BTreeSet::from([(6, 7, 0), (7, 8, 0), (7, 10, 0), (8, 10, 0), (10, 6, 5)]),
        "{rows:#?}"
    );
    let call = between(&[7, 8, 9, 10]);
    for link in [(7, 9, 0), (8, 9, 0), (9, 10, 0)] {
        assert!(call.contains(&link), "{link:?} in {call:?}");
    }
}
