//! Induction scalars in closed form through loop nests (issue 35): `M =
//! M + c` in an inner loop of constant trip count adds c times that count
//! per iteration of the loop around, so a subscript through M is affine in
//! the standard induction variables of the whole nest; an increment under
//! an IF the iteration domain decides is unconditional or dead; and a
//! value from before a loop whose every iteration redefines the variable
//! reaches only the first iteration.

mod common;

use common::{deps_csv, source_file, Dep};

fn deps_of(name: &str, source: &str) -> Vec<Dep> {
    deps_csv(&source_file(
        &format!("induction_nests_{name}"),
        name,
        source,
    ))
}

/// The rows of `kind` on `var` as (src line, dst line, carrier, distance).
fn edges(rows: &[Dep], kind: &str, var: &str) -> Vec<(u32, u32, u32, Vec<Option<i64>>)> {
    let mut v: Vec<_> = rows
        .iter()
        .filter(|r| r.kind == kind && r.var == var)
        .map(|r| (r.src.0, r.dst.0, r.carrier, r.distance.clone()))
        .collect();
    v.sort();
    v
}

#[test]
fn an_increment_in_an_inner_loop_of_constant_trip_gives_a_closed_form() {
    // M is 1 + 12*I1 + 3*I2 + 3 at A(M) in the J loop: writes at 4, 7,
    // 10, 13, then 13 at line 6 in the next I iteration; the reads A(M - 1)
    // are 0 mod 3, never written.
    let source = "PROGRAM X
INTEGER I, J, M
REAL A(-100:100)
M = 1
DO I = 1, 3
  A(M) = 2.0
  DO J = 1, 4
    M = M + 3
    A(M) = A(M - 1) + 1.0
  END DO
  A(M + 1) = 3.0
END DO
PRINT *, A, M
END
";
    let rows = deps_of("nest.f90", source);
    assert_eq!(
        edges(&rows, "output", "A"),
        [(9, 6, 5, vec![Some(1)])],
        "A(M) of the J loop is overwritten only by A(M) of the next I iteration"
    );
    assert!(edges(&rows, "anti", "A").is_empty(), "{rows:?}");
    assert_eq!(edges(&rows, "flow", "A").len(), 3, "only into the PRINT");
    // A trip count that varies (DO J = 1, I) gives no closed form: the
    // rows stay.
    let varying = source.replace("DO J = 1, 4", "DO J = 1, I");
    let rows = deps_of("varying.f90", &varying);
    assert!(!edges(&rows, "anti", "A").is_empty(), "{rows:?}");
}

#[test]
fn increments_under_decided_ifs_are_unconditional_or_dead() {
    // I .GE. 1 always holds: M = M + 2 each iteration, A(M) a new element.
    let always = "PROGRAM X
INTEGER I, M
REAL A(-100:100)
M = 0
DO I = 1, 5
  IF (I .GE. 1) M = M + 2
  A(M) = A(M + 1) + 1.0
END DO
PRINT *, A, M
END
";
    let rows = deps_of("always.f90", always);
    assert!(edges(&rows, "output", "A").is_empty(), "{rows:?}");
    assert!(edges(&rows, "anti", "A").is_empty(), "{rows:?}");
    // I .GT. 5 never holds: M keeps 0, A(M) is one element, overwritten
    // by the loop's next iterations.
    let never = always.replace("I .GE. 1", "I .GT. 5");
    let rows = deps_of("never.f90", &never);
    assert_eq!(
        edges(&rows, "output", "A"),
        [(7, 7, 5, vec![None])],
        "{rows:?}"
    );
    // Sometimes: no closed form, the rows stay.
    let sometimes = always.replace("I .GE. 1", "I .GT. 2");
    let rows = deps_of("sometimes.f90", &sometimes);
    assert!(!edges(&rows, "output", "A").is_empty(), "{rows:?}");
}

#[test]
fn a_value_from_before_a_loop_that_always_redefines_reaches_only_its_first_iteration() {
    // S = S * 2.0 runs in every iteration; the IF's arm only from the
    // second on: S = 0.0 never reaches it.
    let source = "PROGRAM X
INTEGER I
REAL S, T
S = 0.0
T = 1.0
DO I = 1, 3
  IF (I .GT. 1) THEN
    S = S + T
  END IF
  S = S * 2.0
END DO
PRINT *, S
END
";
    let rows = deps_of("stale.f90", source);
    let flows = edges(&rows, "flow", "S");
    assert!(!flows.iter().any(|e| e.0 == 4 && e.1 == 8), "{flows:?}");
    assert!(flows.iter().any(|e| e.0 == 4 && e.1 == 10), "{flows:?}");
    assert!(flows.iter().any(|e| e.0 == 10 && e.1 == 8), "{flows:?}");
    // When the redefinition is itself under an IF on data, the value may
    // survive.
    let guarded = source
        .replace("T = 1.0", "READ *, T")
        .replace("  S = S * 2.0", "  IF (T .GT. 0.5) S = S * 2.0");
    let flows = edges(&deps_of("kept.f90", &guarded), "flow", "S");
    assert!(flows.iter().any(|e| e.0 == 4 && e.1 == 8), "{flows:?}");
}
