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
    // The pairs of B grow with the square of the blocks (a copy into B
    // leaves B(1) alone: no whole rewrite, no kill in the dataflow); so do
    // the pairs killed. (A's copies back rewrite A whole: its pairs stay
    // between neighbouring blocks.)
    assert!(killed[0] > 1000, "{killed:?}");
    let growth = killed[1] as f64 / killed[0] as f64;
    assert!((3.0..5.0).contains(&growth), "{killed:?}");
}

/// A write an edge jumps over kills only the pairs whose runs cannot take
/// that edge: none here (X > 0 may fail at any block), so the guarded
/// shape kills only what its unguarded writes into B kill, and keeps 7x
/// the rows of A; the copies into A that always run rewrite A whole and
/// kill in the dataflow (rules/dl/kills.dl), so the plain shape's pairs
/// of A never reach `killed`. The interpreted rules agree with the
/// compiled ones on both shapes.
#[test]
fn writes_an_edge_jumps_over_are_tried_pair_by_pair() {
    let plain = source_file("covering_plain", "plain.f", &program(10, false));
    let guarded = source_file("covering_guarded", "guarded.f", &program(10, true));
    assert!(query_rows(&guarded, "killer(K, R1, R2, W)") > 0);
    assert!(query_rows(&guarded, "killed(K, R1, R2)") <= query_rows(&plain, "killed(K, R1, R2)"));
    assert!(rows_with(&guarded, ",A,") > 5 * rows_with(&plain, ",A,"));
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

/// One unit of `nests` nests rewriting three shared arrays (`synth
/// sweeps`), written to a file.
fn sweeps_file(nests: usize) -> std::path::PathBuf {
    let text = kaiseki_ok(["synth", "sweeps", "--size", &nests.to_string()]);
    source_file("covering_sweeps", &format!("sweeps{nests}.f"), &text)
}

/// The rows of each of `relations` in [`sweeps_file`].
fn sweeps(nests: usize, relations: &[&str]) -> Vec<usize> {
    let file = sweeps_file(nests);
    relations.iter().map(|r| query_rows(&file, r)).collect()
}

/// Every relation `analyze --stats` counts (each rule's, intermediate ones
/// included), by name, on [`sweeps_file`].
fn sweeps_stats(nests: usize) -> std::collections::BTreeMap<String, usize> {
    let file = sweeps_file(nests);
    let out = scratch_dir(&format!("covering_sweeps_out{nests}"));
    let args = [
        "analyze".as_ref(),
        file.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
        "--stats".as_ref(),
    ];
    let outcome = kaiseki(args);
    assert_eq!(outcome.code, Some(0), "{}", outcome.stderr);
    outcome
        .stderr
        .lines()
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            let (name, rows) = (words.next()?, words.next()?.parse().ok()?);
            words.next().is_none().then(|| (name.to_string(), rows))
        })
        .collect()
}

/// Issue 36: a nest that rewrites a whole array kills the facts of the
/// references before it in the dataflow (`rewrite_exit`, rules/dl/kills.dl),
/// so a reference pairs with those of the few nests since its array was
/// last rewritten, not with every earlier one: the pairs the subscript
/// tests see (`array_pair`), the writes asked whether they cover a sink
/// (`cover_candidate`) and the facts at block entries grow with the nests.
/// Without the kills the pairs and candidates grew 3.6x-4x here (the
/// square: every reference of a unit against every later one).
#[test]
fn whole_rewrites_keep_the_pairs_linear_in_the_nests() {
    let relations = [
        "rewrite(W, L, A)",
        "array_pair(K, R1, R2)",
        "cover_candidate(W, R)",
        "dataflow_in(P, B, V, R, T, H, G)",
    ];
    let (small, large) = (sweeps(24, &relations), sweeps(48, &relations));
    assert_eq!((small[0], large[0]), (24, 48), "one rewrite per nest");
    for (k, name) in relations.iter().enumerate().skip(1) {
        let growth = large[k] as f64 / small[k].max(1) as f64;
        println!("{name}: {} then {} ({growth:.2}x)", small[k], large[k]);
        assert!(small[k] > 0, "{name}: no rows");
        assert!(
            growth < 2.2,
            "{name}: twice the nests give {growth:.2}x the rows"
        );
    }
}

/// No relation of any analysis (the dependence graph's, the subscript
/// tests', the parallelization's, the regions', ...) is the product of two
/// references' counts on the sweeps: twice the nests give at most 2.2x
/// the rows of each (measured: 2.04x at most). Before array kills, 15
/// grew 2.9x-4.5x on a unit of this shape (`killed` 4.5x, `cover_candidate`
/// 4.0x, `array_pair` 3.9x, `dataflow_in` and `found` 3.6x, `vector` 3.0x).
#[test]
fn no_relation_of_the_sweeps_grows_with_the_square() {
    let (small, large) = (sweeps_stats(24), sweeps_stats(48));
    assert!(small.len() > 100, "{} relations counted", small.len());
    let mut faster = Vec::new();
    for (name, &rows) in &small {
        let twice = large.get(name).copied().unwrap_or(0);
        if rows >= 200 && twice as f64 > 2.2 * rows as f64 {
            faster.push(format!("{name}: {rows} then {twice}"));
        }
    }
    assert!(faster.is_empty(), "grow faster than the nests: {faster:?}");
    assert!(small["array_pair"] >= 200, "{}", small["array_pair"]);
}
