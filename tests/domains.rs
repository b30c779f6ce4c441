//! Code no run reaches, decided from the iteration domain (issue 35): a
//! DO loop whose bounds give no iteration for any value of the DO
//! variables around it (`loop_trip` 0), and an IF branch whose condition,
//! affine in those DO variables (comparisons, `.AND.`, `.OR.`, `.NOT.`,
//! MOD and MODULO with Fortran's sign rules), has one value over the
//! whole domain (`never_edge`). References there take part in no
//! dependence; everything a run can do keeps its rows.

mod common;

use common::{deps_csv, deps_csv_every_row, lower_source, source_file, Dep};

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

/// A condition is decided over the points where it is evaluated: the DO
/// variables' values (the step's included), where the conditions of the
/// IFs around it hold and the earlier arms' do not. A loop whose bounds
/// vary with an outer DO variable but always give one count has that
/// trip count.
#[test]
fn conditions_are_decided_where_the_ifs_around_hold() {
    // I is 4 only (step 2): MOD(I - 3, 3) is 1. In DO I = 1, 2 the first
    // arm takes I = 1, so the ELSE IF is tested at I = 2 only, where
    // I .LE. 1 is false; inside IF (I .EQ. 2), I .EQ. 1 never holds. J
    // runs from 3 down to I = 3: once.
    let source = "      PROGRAM D
      S = 0.0
      DO 10 I = 4, 5, 2
        IF (MOD(I - 3, 3) .NE. 1) S = S + 1.0
   10 CONTINUE
      DO 20 I = 1, 2
        IF (I .LT. 2) THEN
          U = S
        ELSE IF (I .LE. 1) THEN
          S = 2.0
        END IF
        IF (I .EQ. 2) THEN
          IF (I .EQ. 1) S = 3.0
        END IF
   20 CONTINUE
      DO 30 I = 3, 4, 2
        DO 40 J = 3, I, -1
          S = S + 4.0
   40   CONTINUE
   30 CONTINUE
      PRINT *, S, U
      END
";
    let facts = lower_source("d.f", source);
    let trips: Vec<(i64, i64)> = facts.loop_trip.iter().map(|t| (t.r#loop, t.trip)).collect();
    assert_eq!(
        trips.iter().filter(|(_, t)| *t == 1).count(),
        3,
        "{trips:?}"
    );
    let deps = deps_of("d.f", source);
    let s = rows(&deps, "S");
    for line in [4, 10, 13] {
        assert!(!touches(&s, line), "line {line} never runs: {s:?}");
    }
    // Both loops around S = S + 4.0 run once: it carries nothing.
    assert!(
        !deps.iter().any(|r| r.src.0 == 18 && r.carrier != 0),
        "{deps:?}"
    );
    assert!(s.contains(&("flow".into(), 2, 8)), "{s:?}");
}

/// An IF around a loop tests the value its variable had before the loop,
/// not the loop's: `IF (I .EQ. 5)` decides nothing inside `DO I = 1, 3`.
#[test]
fn a_condition_on_a_variable_a_loop_inside_redefines_is_not_known_there() {
    let source = "      PROGRAM C
      S = 0.0
      I = 5
      IF (I .EQ. 5) THEN
        DO 10 I = 1, 3
          IF (I .EQ. 2) S = S + 1.0
   10   CONTINUE
      END IF
      PRINT *, S
      END
";
    let s = rows(&deps_of("c.f", source), "S");
    assert!(s.contains(&("flow".into(), 2, 6)), "{s:?}");
    assert!(s.contains(&("flow".into(), 6, 9)), "{s:?}");
}

/// The DO statement's initial value reaches the uses of the first
/// iteration only, and a dependence carried by a loop ends in a later
/// iteration than its source: uses the IFs around keep out of the first
/// iteration (`iteration_first`) get no flow from the initial value, a
/// statement that runs in the first iteration only (`iteration_last` 0)
/// ends no carried dependence, nor one that runs in one iteration only
/// from itself. The upper bound need not be known.
#[test]
fn iterations_the_ifs_around_exclude_or_keep() {
    let source = "      PROGRAM F
      REAL A(20)
      READ *, N
      S = 0.0
      DO 10 I = 1, 5
        IF (I .GT. 1) A(I) = 1.0
        IF (I .EQ. 1) S = S + A(I + 5)
        IF ((I .EQ. 3) .OR. (2*I .EQ. 6)) S = S + 2.0
   10 CONTINUE
      DO 20 J = 2, N
        IF (MOD(J, 2) .EQ. 1) A(J) = 2.0
   20 CONTINUE
      PRINT *, S, SUM(A)
      END
";
    let facts = lower_source("f.f", source);
    let firsts: Vec<i64> = facts.iteration_first.iter().map(|f| f.iteration).collect();
    let lasts: Vec<i64> = facts.iteration_last.iter().map(|f| f.iteration).collect();
    assert!(firsts.contains(&1) && firsts.contains(&2), "{firsts:?}");
    assert!(lasts.contains(&0) && lasts.contains(&2), "{lasts:?}");
    let path = source_file("domains_f.f", "f.f", source);
    let all = deps_csv_every_row(&path);
    let i: Vec<&Dep> = all.iter().filter(|r| r.var == "I").collect();
    let from_do = |dst: (u32, u32), carried: bool| {
        i.iter().any(|r| {
            r.kind == "flow" && r.src.0 == 5 && r.dst == dst && (r.carrier != 0) == carried
        })
    };
    // The conditions read I in every iteration.
    assert!(from_do((6, 13), false) && from_do((6, 13), true), "{i:?}");
    // A(I) for I > 1: from the increment only.
    assert!(!from_do((6, 25), false) && from_do((6, 25), true), "{i:?}");
    // A(I + 5) for I = 1: from the initial value only.
    assert!(from_do((7, 33), false) && !from_do((7, 33), true), "{i:?}");
    // S = S + ... at I = 1 only, and at I = 3 only: nothing carried ends
    // there but the one from I = 1 to I = 3.
    let s = rows(&deps_of("f.f", source), "S");
    assert!(s.contains(&("flow".into(), 4, 7)), "{s:?}");
    let carried = |src: u32, dst: u32| {
        all.iter()
            .any(|r| r.var == "S" && r.src.0 == src && r.dst.0 == dst && r.carrier != 0)
    };
    assert!(!carried(7, 7) && !carried(8, 7) && !carried(8, 8), "{s:?}");
    assert!(carried(7, 8), "{s:?}");
    // J = 2 is even: A(J) = 2.0 never runs in the first iteration.
    let j = |carrier: u32| {
        all.iter().any(|r| {
            r.var == "J"
                && r.kind == "flow"
                && r.src.0 == 10
                && r.dst == (11, 33)
                && r.carrier == carrier
        })
    };
    assert!(!j(0) && j(10), "{all:?}");
}

/// A bound that is not known leaves the other end of the DO variable's
/// range: in `DO I = 1, N`, I >= 1, so `DO J = 0, I, -1` never runs (and
/// in `DO I = N, 2, -1`, I >= 2: `DO K = 1, I, -1` never runs).
#[test]
fn one_known_end_of_a_range_decides_loops_that_never_run() {
    let source = "      PROGRAM H
      READ *, N
      S = 0.0
      DO 10 I = 1, N
        DO 20 J = 0, I, -1
          S = S + 1.0
   20   CONTINUE
   10 CONTINUE
      DO 30 I = N, 2, -1
        DO 40 K = 1, I, -1
          S = S + 2.0
   40   CONTINUE
        DO 50 K = 1, I
          T = S
   50   CONTINUE
   30 CONTINUE
      PRINT *, S, T
      END
";
    let facts = lower_source("h.f", source);
    let trips: Vec<i64> = facts.loop_trip.iter().map(|t| t.trip).collect();
    assert_eq!(trips, [0, 0], "{trips:?}");
    let s = rows(&deps_of("h.f", source), "S");
    assert!(!touches(&s, 6) && !touches(&s, 11), "{s:?}");
    assert!(s.contains(&("flow".into(), 3, 14)), "{s:?}");
}

/// Where a bound is not known, the conditions around a test give the end
/// it lacks: in `DO I = 3, N`, the ELSE IF after `IF (I .GT. 5)` is tested
/// at I = 3..5 only, where `I .EQ. 6` never holds.
#[test]
fn the_conditions_around_give_the_end_a_bound_lacks() {
    let source = "      PROGRAM E
      READ *, N
      S = 0.0
      DO 10 I = 3, N
        IF (I .GT. 5) THEN
          T = 1.0
        ELSE IF (I .EQ. 6) THEN
          S = S + 1.0
        END IF
   10 CONTINUE
      PRINT *, S, T
      END
";
    let s = rows(&deps_of("e.f", source), "S");
    assert!(!touches(&s, 8), "{s:?}");
    assert!(s.contains(&("flow".into(), 3, 11)), "{s:?}");
}

#[test]
fn a_logical_if_whose_condition_always_holds_never_skips_its_statement() {
    // L keeps its value 1: -L .EQ. -1 always holds, so M = M - 1 runs in
    // every iteration and M = 2 never reaches A(J - M).
    let source = "      PROGRAM Z
      INTEGER N, I, L, M
      REAL A(-20:20)
      READ (*,*) N
      L = 1
      M = 2
      DO 10 I = 1, 3
        IF (-L .EQ. (-1)) M = M - 1
        A(I - M) = 1.0
   10 CONTINUE
      PRINT *, A, M
      END
";
    let facts = lower_source("always_if.f", source);
    assert_eq!(facts.never_edge.len(), 1, "{:?}", facts.never_edge);
    let m = rows(&deps_of("always_if.f", source), "M");
    assert!(!m.contains(&("flow".into(), 6, 9)), "{m:?}");
    assert!(m.contains(&("flow".into(), 8, 9)), "{m:?}");
    // An IF that only sometimes holds keeps both paths.
    let sometimes = source.replace("-L .EQ. (-1)", "I .GT. 2");
    let m = rows(&deps_of("sometimes_if.f", &sometimes), "M");
    assert!(m.contains(&("flow".into(), 6, 9)), "{m:?}");
}

#[test]
fn conditions_are_decided_from_ranges_a_bound_leaves_open() {
    // K runs from 2 up to N + 1 (unknown): 2*J + 2*K >= 12 > 11 wherever
    // the IF is reached, so the ELSE arm never runs; J + K .GT. 7 is not
    // decided (J + K may be 6).
    let source = "      PROGRAM Z
      INTEGER N, J, K
      REAL A(100), S, T
      READ (*,*) N
      S = 0.0
      T = 0.0
      DO 10 J = 4, 10
        DO 20 K = 2, N + 1
          IF (2*J + 2*K .GT. 11) THEN
            A(J) = 1.0
          ELSE
            S = S + 1.0
          END IF
          IF (J + K .GT. 7) T = T + 1.0
   20   CONTINUE
   10 CONTINUE
      PRINT *, S, T, A
      END
";
    let rows_all = deps_of("open_range.f", source);
    let s = rows(&rows_all, "S");
    assert!(!touches(&s, 12), "S = S + 1.0 never runs: {s:?}");
    let t = rows(&rows_all, "T");
    assert!(t.contains(&("flow".into(), 6, 17)), "{t:?}");
    assert!(touches(&t, 14), "{t:?}");
}

/// A triangular loop empty in all but its outer loop's first iterations
/// (issue 35: `DO I = 4, 6` / `DO J = 5, I + 1, -1` runs only for I = 4):
/// its body runs in those iterations only (`iteration_last` of the outer
/// loop), so nothing the outer loop carries ends there; and an IF inside
/// it is tested only where it runs (`IF (I .EQ. 5)` never holds there).
/// The same loop counting up keeps its carried rows.
#[test]
fn a_triangular_loop_runs_only_in_the_outer_iterations_its_bounds_allow() {
    let source = "      PROGRAM W
      REAL A(20)
      READ *, N
      S = 0.0
      T = 0.0
      DO 10 I = 4, 6
        DO 20 J = 5, I + 1, -1
          S = S + A(J)
          IF (I .EQ. 5) T = T + 1.0
   20   CONTINUE
   10 CONTINUE
      DO 30 I = 3, N + 1
        DO 40 J = I + 1, 4
          A(J) = A(J) + S
   40   CONTINUE
   30 CONTINUE
      DO 50 I = 1, 3
        DO 60 J = I + 1, 4
          T = T + A(J)
   60   CONTINUE
   50 CONTINUE
      PRINT *, S, T, A
      END
";
    let facts = lower_source("w.f", source);
    // J's body on line 8 runs in the first iteration of the I loop only.
    let line_of = |stmt: i64| facts.stmt.iter().find(|s| s.stmt == stmt).map(|s| s.line);
    let lasts: Vec<(Option<i64>, i64)> = facts
        .iteration_last
        .iter()
        .map(|l| (line_of(l.stmt), l.iteration))
        .collect();
    assert!(lasts.contains(&(Some(8), 0)), "{lasts:?}");
    let all = deps_csv_every_row(&source_file("domains_w.f", "w.f", source));
    let carried_by = |var: &str, src: u32, dst: u32, carrier: u32| {
        all.iter()
            .any(|r| r.var == var && r.src.0 == src && r.dst.0 == dst && r.carrier == carrier)
    };
    // S = S + A(J) runs once (I = 4, J = 5): it carries nothing by I.
    assert!(!carried_by("S", 8, 8, 6), "{all:?}");
    // The J loop of I = 3..N+1 runs only for I = 3 (J from I + 1 = 4
    // to 4): nothing the I loop carries ends in it.
    assert!(!carried_by("A", 14, 14, 12), "{all:?}");
    // IF (I .EQ. 5) is never true where J runs: T = T + 1.0 is dead.
    let t = rows(&all, "T");
    assert!(!touches(&t, 9), "{t:?}");
    // DO J = I + 1, 4 inside DO I = 1, 3 runs in every I iteration: its
    // sum of T is still carried by the I loop.
    assert!(carried_by("T", 19, 19, 17), "{all:?}");
}
