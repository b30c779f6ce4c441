//! `lower_diagnostics` (what `kaiseki check` runs) leaves out the facts no
//! diagnostic comes from: it must give exactly the diagnostics of a full
//! `lower`, in the same order, and the same number of statements.

use kaiseki_frontend::{lower, lower_diagnostics, parse_source, synth};

fn same_as_lower(path: &str, text: &str) -> usize {
    let (program, _) = parse_source(path, text);
    let (facts, diags) = lower(&program);
    let (statements, check_diags) = lower_diagnostics(&program);
    assert_eq!(statements, facts.stmt.len(), "{path}: statements");
    assert_eq!(check_diags, diags, "{path}: diagnostics");
    diags.len()
}

/// Lowering's errors and warnings of every kind it has: labels, jumps,
/// assignments to what is no variable, subscripts, intrinsic arguments, a
/// runtime routine, HPF.
const PROBLEMS: &str = "\
      PROGRAM P
      PARAMETER (K = 3)
      REAL A(10), B(10, 10)
      EXTERNAL DTIME
!HPF$ DISTRIBUTE Q(BLOCK)
   10 CONTINUE
   10 CONTINUE
      GOTO 99
      GOTO 20
   20 FORMAT (I5)
      K = 1
      SQRT(A(1)) = 2.0
      A(1, 2) = B(3)
      X = MOD(1)
      CALL DTIME(T)
      CALL S(A, K)
      DO 30 I = 1, 10
        A(I) = A(I) + 1.0
   30 CONTINUE
      END
      SUBROUTINE S(V, M)
      REAL V(*)
      V(M) = 0.0
      END
";

#[test]
fn lowerings_problems_are_the_same() {
    let n = same_as_lower("problems.f", PROBLEMS);
    assert!(n >= 8, "{n} diagnostics: the program lost its problems");
}

#[test]
fn the_corpus_and_a_synthetic_program_are_the_same() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus");
    for entry in std::fs::read_dir(dir).expect("tests/corpus") {
        let path = entry.expect("entry").path();
        let text = std::fs::read_to_string(&path).expect("source");
        same_as_lower(&path.to_string_lossy(), &text);
    }
    same_as_lower("big.f", &synth::synthetic_program(5_000, 7));
}
