//! Storage association end to end: names that share storage (EQUIVALENCE,
//! and the COMMON members an EQUIVALENCE overlaps) depend on each other in
//! `kaiseki deps`, with exact distances where their addresses in the
//! shared object are affine in the same loops, `possible` otherwise.

mod common;

use common::{deps_csv, scratch_dir, Dep};
use std::path::PathBuf;

fn write(name: &str, text: &str) -> PathBuf {
    let path = scratch_dir(&format!("storage_{name}")).join(format!("{name}.f"));
    std::fs::write(&path, text).expect("write the test program");
    path
}

/// The rows of these variables as `kind var src->dst distance direction
/// carrier certainty`, positions as `line:col`.
fn rows(deps: &[Dep], var: &[&str]) -> Vec<String> {
    let cell = |d: &Option<i64>| d.map_or("*".to_string(), |n| n.to_string());
    deps.iter()
        .filter(|d| var.contains(&d.var.as_str()))
        .map(|d| {
            format!(
                "{} {} {}:{}->{}:{} [{}] {} {} {}",
                d.kind,
                d.var,
                d.src.0,
                d.src.1,
                d.dst.0,
                d.dst.1,
                d.distance.iter().map(cell).collect::<Vec<_>>().join(";"),
                d.direction.iter().collect::<String>(),
                d.carrier,
                d.certainty
            )
        })
        .collect()
}

fn has(rows: &[String], row: &str) -> bool {
    rows.iter().any(|r| r == row)
}

/// The example: Y(I+1) is X(I+1), ARR(I+8) is X(I+4).
#[test]
fn equivalenced_arrays_get_exact_distances_through_their_offsets() {
    let path = write(
        "offsets",
        "      PROGRAM EQ
      REAL X(100), Y(100), ARR(200)
      EQUIVALENCE (X(1), Y(1)), (X(1), ARR(5))
      DO 10 I = 1, 99
        X(I) = Y(I+1) + ARR(I+8)
   10 CONTINUE
      END
",
    );
    let got = rows(&deps_csv(&path), &["X", "Y", "ARR"]);
    assert!(has(&got, "anti Y 5:16->5:9 [1] < 4 exact"), "{got:#?}");
    assert!(has(&got, "anti ARR 5:25->5:9 [4] < 4 exact"), "{got:#?}");
    // X(I) never meets an earlier or later X(I') but its own element.
    assert!(!got.iter().any(|r| r.starts_with("output")), "{got:#?}");
}

/// Elements of different sizes overlap without a common element number:
/// the rows are possible, never missing.
#[test]
fn different_element_sizes_give_possible_rows() {
    let path = write(
        "sizes",
        "      PROGRAM SZ
      DOUBLE PRECISION D(50)
      REAL R(100)
      EQUIVALENCE (D(1), R(1))
      DO 10 I = 1, 50
        D(I) = R(I) + 1.0
   10 CONTINUE
      PRINT *, D(1)
      END
",
    );
    let got = rows(&deps_csv(&path), &["D", "R"]);
    assert!(has(&got, "anti R 6:16->6:9 [0] = 0 possible"), "{got:#?}");
    assert!(has(&got, "anti R 6:16->6:9 [*] < 5 possible"), "{got:#?}");
}

/// A scalar stored through one name reaches the element read through the
/// other, and does not kill the earlier store of the whole object. The
/// subscript test compares the three element numbers: the store through S
/// certainly overwrites ARR(2) and is certainly read, while ARR(2) = 1.0
/// may still reach the read (S kills nothing), only possibly.
#[test]
fn scalars_and_elements_of_one_object_reach_each_other() {
    let path = write(
        "scalar",
        "      PROGRAM SC
      REAL ARR(4), S
      EQUIVALENCE (S, ARR(2))
      ARR(2) = 1.0
      S = 2.0
      PRINT *, ARR(2), ARR(3)
      END
",
    );
    let got = rows(&deps_csv(&path), &["ARR", "S"]);
    assert!(has(&got, "flow S 5:7->6:16 []  0 exact"), "{got:#?}");
    assert!(has(&got, "output ARR 4:7->5:7 []  0 exact"), "{got:#?}");
    assert!(has(&got, "flow ARR 4:7->6:16 []  0 possible"), "{got:#?}");
}

/// An EQUIVALENCE that extends a COMMON block makes the members it covers
/// share storage with it: here Z(I+2) is Q(I) in the loop.
#[test]
fn common_members_overlapped_by_an_equivalence_depend() {
    let path = write(
        "common",
        "      SUBROUTINE CM
      COMMON /B/ A(10), Q(10)
      REAL Z(12)
      EQUIVALENCE (A(9), Z(1))
      DO 10 I = 1, 8
        Q(I) = Z(I+3) * 2.0
   10 CONTINUE
      END
",
    );
    let got = rows(&deps_csv(&path), &["Q", "Z"]);
    assert!(has(&got, "anti Z 6:16->6:9 [1] < 5 exact"), "{got:#?}");
}
