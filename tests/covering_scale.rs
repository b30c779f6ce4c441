//! Pairs of array references in different nests are killed by a write
//! that covers the sink's element between them (`killed`). When no edge
//! jumps over such a write, the nearest one decides, in one row per
//! reference; only writes an edge jumps over are tried pair by pair
//! (`killer`). Trying every write for every pair was the cube of the nests
//! that write a shared array: 200 blocks of the shape below (1,600 lines)
//! took 12 s and 4.3 GB, 2.2 million `killer` rows at 100 blocks. A write
//! that covers every element the source touched, complete before the
//! sink, kills the pair too (`first_source_cover_end`).

mod common;
use common::*;

/// `blocks` blocks over two aligned arrays, as `bench/run.sh hpf` writes
/// them: a shifted copy into B, a read of B, a logical IF, a copy back into
/// A; with `guarded`, each copy back only when X > 0 (an edge jumps over it).
fn program(blocks: usize, guarded: bool) -> String {
    let mut s = String::from(
        "      PROGRAM BIG\n      INTEGER N\n      PARAMETER (N = 100)\n      REAL A(N), B(N), X\n      INTEGER I\n      X = 0\n      DO I = 1, N\n        A(I) = I\n        B(I) = 0.0\n      END DO\n",
    );
    for j in 0..blocks {
        let k = j % 100 + 1;
        s += &format!("      DO I = 2, N\n        B(I) = A(I-1) + {j}\n      END DO\n      X = X + B({k})\n      IF (A({k}) .GT. 50.0) X = X - 1.0\n");
        if guarded {
            s += "      IF (X .GT. 0.0) THEN\n";
        }
        s += "      DO I = 1, N\n        A(I) = B(I) * 0.5\n      END DO\n";
        if guarded {
            s += "      END IF\n";
        }
    }
    s + "      PRINT *, X\n      END\n"
}

/// The rows of `deps --format csv` that contain `what` (`,flow,B,`).
fn rows_with(file: &std::path::Path, what: &str) -> usize {
    let path = file.to_str().expect("utf-8 path");
    kaiseki_ok(["deps", path, "--format", "csv"])
        .lines()
        .filter(|l| l.contains(what))
        .count()
}

#[test]
fn writes_no_edge_jumps_over_kill_without_a_row_per_pair() {
    let (mut killed, mut flows) = (Vec::new(), Vec::new());
    for blocks in [20, 40] {
        let file = source_file(
            "covering_scale",
            &format!("big{blocks}.f"),
            &program(blocks, false),
        );
        assert_eq!(query_rows(&file, "killer(K, R1, R2, W)"), 0);
        killed.push(query_rows(&file, "killed(K, R1, R2)"));
        flows.push(rows_with(&file, ",flow,B,"));
    }
    // Each block's copy into B is overwritten by the next block's before
    // any later read: a read of B depends on the latest copy and the first
    // loop (B(1)), not on every earlier copy (the square of the blocks).
    assert!(flows[1] <= 2 * flows[0] + 2, "{flows:?}");
    // The pairs grow with the square of the blocks; so do the pairs killed.
    assert!(killed[0] > 1000, "{killed:?}");
    let growth = killed[1] as f64 / killed[0] as f64;
    assert!((3.0..5.0).contains(&growth), "{killed:?}");
}

/// A write an edge jumps over kills only the pairs whose runs cannot take
/// that edge: none here (X > 0 may fail at any block), so the guarded
/// shape kills only what its unguarded writes into B kill, and the
/// interpreted rules agree with the compiled ones on both shapes.
#[test]
fn writes_an_edge_jumps_over_are_tried_pair_by_pair() {
    let plain = source_file("covering_plain", "plain.f", &program(10, false));
    let guarded = source_file("covering_guarded", "guarded.f", &program(10, true));
    assert!(query_rows(&guarded, "killer(K, R1, R2, W)") > 0);
    assert!(query_rows(&guarded, "killed(K, R1, R2)") < query_rows(&plain, "killed(K, R1, R2)"));
    for file in [&plain, &guarded] {
        let path = file.to_str().expect("utf-8 path");
        let rules = rules_dir();
        let rules = rules.to_str().expect("utf-8 path");
        assert_eq!(
            kaiseki_ok(["deps", path, "--all", "--format", "csv"]),
            kaiseki_ok(["deps", path, "--all", "--format", "csv", "--rules", rules]),
        );
    }
}

/// A pair a covering write kills is no minimal dependence but still a
/// general (Kuck) one, as for scalars: `--all` shows the output dependence
/// of the first copy on the third with `minimal` false.
#[test]
fn a_killed_pair_is_a_general_dependence() {
    let text = "      PROGRAM O\n      INTEGER I\n      REAL A(4), X\n      DO I = 1, 4\n        A(I) = 1.0\n      END DO\n      DO I = 1, 4\n        A(I) = 2.0\n      END DO\n      DO I = 1, 4\n        A(I) = 3.0\n      END DO\n      X = A(2)\n      PRINT *, X\n      END\n";
    let file = source_file("covering_general", "o.f", text);
    let path = file.to_str().expect("utf-8 path");
    let rows = |extra: &[&str]| -> Vec<String> {
        let mut args = vec!["deps", path, "--format", "csv"];
        args.extend_from_slice(extra);
        kaiseki_ok(args)
            .lines()
            .filter(|l| l.starts_with("O,output,A,5,"))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(rows(&[]), ["O,output,A,5,9,8,9,,,,0,possible,true"]);
    assert_eq!(
        rows(&["--all"]),
        [
            "O,output,A,5,9,8,9,,,,0,possible,true",
            "O,output,A,5,9,11,9,,,,0,possible,false"
        ]
    );
}
