//! Code no run reaches, decided from the iteration domain (issue 35): a
//! DO loop whose bounds give no iteration for any value of the DO
//! variables around it (`loop_trip` 0), and an IF branch whose condition,
//! affine in those DO variables (comparisons, `.AND.`, `.OR.`, `.NOT.`,
//! MOD and MODULO with Fortran's sign rules), has one value over the
//! whole domain (`never_edge`). References there take part in no
//! dependence; everything a run can do keeps its rows.

mod common;

use common::{deps_csv, lower_source, source_file, Dep};

fn deps_of(name: &str, source: &str) -> Vec<Dep> {
    deps_csv(&source_file(&format!("domains_{name}"), name, source))
}

/// The rows on `var` as (kind, src line, dst line).
fn rows(rows: &[Dep], var: &str) -> Vec<(String, u32, u32)> {
    let mut v: Vec<_> = rows
        .iter()
        .filter(|r| r.var == var)
        .map(|r| (r.kind.clone(), r.src.0, r.dst.0))
        .collect();
    v.sort();
    v.dedup();
    v
}

fn touches(rows: &[(String, u32, u32)], line: u32) -> bool {
    rows.iter().any(|(_, s, d)| *s == line || *d == line)
}

#[test]
fn a_triangular_loop_with_a_negative_step_that_never_runs_is_dead() {
    // J runs from 1 down to I + 1 >= 2: never.
    let source = "      PROGRAM Z
      S = 0.0
      DO 10 I = 1, 2
        DO 20 J = 1, I + 1, -1
          S = S + 1.0
   20   CONTINUE
        DO 30 K = 4, I + 1, -1
          T = S
   30   CONTINUE
   10 CONTINUE
      PRINT *, S, T
      END
";
    let facts = lower_source("z.f", source);
    let mut trips: Vec<i64> = facts.loop_trip.iter().map(|t| t.trip).collect();
    trips.sort();
    assert_eq!(trips, [0, 2], "I runs twice, J never, K's count varies");
    let s = rows(&deps_of("z.f", source), "S");
    assert!(!touches(&s, 5), "S = S + 1.0 never runs: {s:?}");
    assert!(s.contains(&("flow".into(), 2, 8)), "{s:?}");
    assert!(s.contains(&("flow".into(), 2, 11)), "{s:?}");
}

#[test]
fn if_branches_no_iteration_takes_are_dead() {
    // I is -1 or 0: I > 4 never; MOD(I - 1, 3) is -2 or -1 (the sign of
    // its first argument), never 1; MODULO(I - 1, 3) is 1 or 2, always >= 1.
    let source = "      PROGRAM G
      S = 0.0
      U = 0.0
      DO 10 I = -1, 0
        IF (I .GT. 4) S = S + 1.0
        IF (MOD(I - 1, 3) .EQ. 1) S = 2.0
        IF (MODULO(I - 1, 3) .GE. 1) THEN
          U = 1.0
        ELSE
          U = 2.0
        END IF
        IF (.NOT. (I .LE. 0) .OR. (I .GT. 0 .AND. I .LT. 9)) U = 3.0
        T = S + U
   10 CONTINUE
      PRINT *, S, T
      END
";
    let deps = deps_of("g.f", source);
    let s = rows(&deps, "S");
    assert!(!touches(&s, 5) && !touches(&s, 6), "{s:?}");
    assert!(s.contains(&("flow".into(), 2, 13)), "{s:?}");
    let u = rows(&deps, "U");
    assert!(!touches(&u, 10) && !touches(&u, 12), "{u:?}");
    assert!(u.contains(&("flow".into(), 8, 13)), "{u:?}");
    assert!(!u.contains(&("flow".into(), 3, 13)), "{u:?}");
}

#[test]
fn conditions_the_domain_does_not_decide_keep_their_rows() {
    // MOD(I, 2) is -1 for I = -3 (Fortran's MOD takes the sign of I); K
    // changes in the loop; A(I) is data; J's range is unknown (N read).
    let source = "      PROGRAM K
      REAL A(-3:9)
      READ *, N
      S = 0.0
      K = 0
      DO 10 I = -3, -1
        A(I) = 1.0
        IF (MOD(I, 2) .EQ. -1) S = S + 1.0
        K = K + 1
        IF (K .GT. 2) S = S + 2.0
        IF (A(I) .GT. 0.0) S = S + 3.0
        DO 20 J = 1, N
          IF (J .GT. 4) S = S + 4.0
   20   CONTINUE
   10 CONTINUE
      PRINT *, S
      END
";
    let s = rows(&deps_of("k.f", source), "S");
    for line in [8, 10, 11, 13] {
        assert!(s.contains(&("flow".into(), line, 16)), "line {line}: {s:?}");
    }
}

/// The comparisons of IF conditions on DO variables narrow the iteration
/// domain of the array references under them (`guard_form`): a pair whose
/// guards never hold together, or never at the distance a dependence
/// needs, has no row; ELSE arms get the negation of the conditions before.
#[test]
fn guards_on_do_variables_narrow_the_pairs_of_array_references() {
    let source = "      PROGRAM P
      REAL A(20), B(20)
      DO 5 I = 1, 20
        A(I) = 0.0
        B(I) = 0.0
    5 CONTINUE
      DO 10 I = 1, 10
        IF (I .GE. 6) THEN
          A(I) = 1.0
        ELSE
          X = A(I - 1)
        END IF
        IF (I .EQ. 2) B(I) = B(I - 1) + 1.0
        IF (I .GT. 3 .AND. I .LT. 8) Y = B(I + 2)
   10 CONTINUE
      PRINT *, X, Y, SUM(A), SUM(B)
      END
";
    let facts = lower_source("p.f", source);
    let relations: Vec<&str> = facts
        .guard_form
        .iter()
        .map(|g| g.relation.as_str())
        .collect();
    assert!(relations.contains(&"eq") && relations.contains(&"ge"));
    let deps = deps_of("p.f", source);
    let a = rows(&deps, "A");
    // A(I) for I >= 6 and, in the ELSE arm, A(I - 1) for I <= 5: the
    // read never sees the write (without the guards: a flow at distance 1).
    let between = |rows: &[(String, u32, u32)], x: u32, y: u32| {
        rows.iter()
            .any(|(_, s, d)| (*s, *d) == (x, y) || (*s, *d) == (y, x))
    };
    assert!(!between(&a, 9, 11), "{a:?}");
    assert!(a.contains(&("flow".into(), 4, 11)), "{a:?}");
    let b = rows(&deps, "B");
    // B(2) = B(1) + 1 once: no carried dependence of line 13 on itself;
    // B(I + 2) for I = 4..7 reads B(6..9), never B(2) (without the
    // guards: an anti dependence at distance 2).
    assert!(!b.iter().any(|(_, s, d)| *s == 13 && *d == 13), "{b:?}");
    assert!(!between(&b, 13, 14), "{b:?}");
    // The reads before the loop still reach.
    assert!(b.contains(&("flow".into(), 5, 13)), "{b:?}");
}
