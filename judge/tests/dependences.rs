//! Real dependences computed from traces of small programs, checked
//! exactly: kinds, ends, common loops and distances.

use kaiseki_judge::{dependences, project, run_source, Config, DepKind, Dependence, Mode};
use std::collections::BTreeSet;

fn deps(path: &str, text: &str, input: &[&str]) -> BTreeSet<Dependence> {
    let run = run_source(path, text, input, &Config::default()).unwrap_or_else(|e| panic!("{e}"));
    dependences(&run.trace)
}

/// (kind, src line:col, dst line:col, loop lines, distance) of one variable.
type Row = (DepKind, (u32, u32), (u32, u32), Vec<u32>, Vec<i64>);

fn rows(deps: &BTreeSet<Dependence>, var: &str) -> BTreeSet<Row> {
    deps.iter()
        .filter(|d| d.var == var && !d.src.at_loop_end && !d.dst.at_loop_end)
        .map(|d| {
            (
                d.kind,
                (d.src.pos.line, d.src.pos.col),
                (d.dst.pos.line, d.dst.pos.col),
                d.loops.iter().map(|p| p.line).collect(),
                d.distance.clone(),
            )
        })
        .collect()
}

fn row(kind: DepKind, src: (u32, u32), dst: (u32, u32), loops: &[u32], distance: &[i64]) -> Row {
    (kind, src, dst, loops.to_vec(), distance.to_vec())
}

#[test]
fn recurrence_is_one_flow_dependence_of_distance_one() {
    let src = "program p
  integer :: n, i
  real :: a(10)
  n = 5
  do i = 2, n
    a(i) = a(i-1)
  end do
end program
";
    let d = deps("p.f90", src, &[]);
    let want = BTreeSet::from([row(DepKind::Flow, (6, 5), (6, 12), &[5], &[1])]);
    assert_eq!(rows(&d, "A"), want);
    // The increment at the loop end writes I; the next iteration reads it.
    let from_enddo = d.iter().any(|x| {
        x.kind == DepKind::Flow
            && x.var == "I"
            && x.src.at_loop_end
            && (x.src.pos.line, x.src.pos.col) == (5, 6)
            && (x.dst.pos.line, x.dst.pos.col) == (6, 7)
            && x.distance == [1]
    });
    assert!(from_enddo, "{d:#?}");
    assert!(d.iter().all(|x| x.src.unit == "P" && x.dst.unit == "P"));
}

/// (var, source unit, sink unit, source line:col, sink line:col)
type CrossUnit<'a> = (String, &'a str, &'a str, (u32, u32), (u32, u32));

#[test]
fn dependences_through_common_and_dummies_cross_units() {
    let src = "      PROGRAM M
      COMMON /C/ N
      REAL A(3)
      N = 3
      CALL S(A)
      PRINT *, A(2)
      END
      SUBROUTINE S(X)
      COMMON /C/ K
      REAL X(3)
      DO 10 I = 1, K
   10 X(I) = I
      END
";
    let d = deps("m.f", src, &[]);
    let cross: BTreeSet<CrossUnit> = d
        .iter()
        .filter(|x| x.src.unit != x.dst.unit)
        .map(|x| {
            (
                x.var.clone(),
                x.src.unit.as_str(),
                x.dst.unit.as_str(),
                (x.src.pos.line, x.src.pos.col),
                (x.dst.pos.line, x.dst.pos.col),
            )
        })
        .collect();
    let want = BTreeSet::from([
        ("N".to_string(), "M", "S", (4, 7), (11, 20)),
        ("X".to_string(), "S", "M", (12, 7), (6, 16)),
    ]);
    assert_eq!(cross, want);
}

#[test]
fn reversed_recurrence_is_one_anti_dependence() {
    let src = "program p
  integer :: i
  real :: a(10)
  do i = 1, 5
    a(i) = a(i+1)
  end do
end program
";
    let want = BTreeSet::from([row(DepKind::Anti, (5, 12), (5, 5), &[4], &[1])]);
    assert_eq!(rows(&deps("p.f90", src, &[]), "A"), want);
}

#[test]
fn outer_carried_dependence_has_distance_one_zero() {
    let src = "program p
  integer :: i, j
  real :: b(4, 3)
  do i = 2, 4
    do j = 1, 3
      b(i, j) = b(i-1, j) + 1.0
    end do
  end do
end program
";
    let want = BTreeSet::from([row(DepKind::Flow, (6, 7), (6, 17), &[4, 5], &[1, 0])]);
    assert_eq!(rows(&deps("p.f90", src, &[]), "B"), want);
}

#[test]
fn sum_reduction_has_carried_flow_and_output_and_an_anti_in_the_iteration() {
    let src = "program r
  real :: a(5), s
  integer :: i
  s = 0.0
  do i = 1, 5
    a(i) = i
  end do
  do i = 1, 5
    s = s + a(i)
  end do
end program
";
    let d = deps("r.f90", src, &[]);
    let want_s = BTreeSet::from([
        row(DepKind::Flow, (4, 3), (9, 9), &[], &[]),
        row(DepKind::Output, (4, 3), (9, 5), &[], &[]),
        row(DepKind::Flow, (9, 5), (9, 9), &[8], &[1]),
        row(DepKind::Anti, (9, 9), (9, 5), &[8], &[0]),
        row(DepKind::Output, (9, 5), (9, 5), &[8], &[1]),
    ]);
    assert_eq!(rows(&d, "S"), want_s);
    let want_a = BTreeSet::from([row(DepKind::Flow, (6, 5), (9, 13), &[], &[])]);
    assert_eq!(rows(&d, "A"), want_a);
}

#[test]
fn kanada_example_minimal_output_anti_and_input_dependences() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/examples/kanada_deps.f"
    );
    let text = std::fs::read_to_string(path).expect("kanada_deps.f");
    let mut all = deps(path, &text, &["1"]);
    all.extend(deps(path, &text, &["0"]));
    let x = rows(&all, "X");
    let has = |k: DepKind, s: (u32, u32), t: (u32, u32)| {
        x.iter().any(|r| r.0 == k && r.1 == s && r.2 == t)
    };
    let (d1, d2, d3) = ((11, 7), (13, 7), (20, 7));
    assert!(has(DepKind::Output, d1, d2) && has(DepKind::Output, d2, d3));
    assert!(!has(DepKind::Output, d1, d3), "no minimal output d1 -> d3");
    assert!(has(DepKind::Anti, (12, 11), d2) && !has(DepKind::Anti, (12, 11), d3));
    let (u_then, u_else) = ((16, 13), (18, 13));
    assert!(has(DepKind::Input, (14, 11), u_then) && has(DepKind::Input, (14, 11), u_else));
    assert!(!has(DepKind::Input, u_then, u_else) && !has(DepKind::Input, u_else, u_then));
}

#[test]
fn projection_puts_callee_accesses_at_the_actual_arguments() {
    let src = "      PROGRAM M
      REAL A(5)
      DO 10 I = 1, 5
   10 A(I) = 0.0
      DO 20 I = 2, 5
   20 CALL ADD1(A(I), A(I-1))
      PRINT *, A(5)
      END
      SUBROUTINE ADD1(X, Y)
      X = Y + 1.0
      END
";
    let run = run_source("m.f", src, &[] as &[&str], &Config::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let seen = project(&run.trace, &run.common, "M");
    assert_eq!(seen.len(), 1, "one activation of the main program");
    assert!(seen[0]
        .iter()
        .all(|a| &*a.unit == "M" && a.callers.is_empty()));
    let d = dependences(&seen[0]);
    let want = BTreeSet::from([
        row(DepKind::Flow, (6, 17), (6, 23), &[5], &[1]),
        row(DepKind::Flow, (4, 7), (6, 23), &[], &[]),
        row(DepKind::Flow, (6, 17), (7, 16), &[], &[]),
        row(DepKind::Output, (4, 7), (6, 17), &[], &[]),
    ]);
    assert_eq!(rows(&d, "A"), want);
    // Seen from the callee, each call is an activation of its own: X of
    // one call reaching Y of the next is no dependence of ADD1's body.
    let callee = project(&run.trace, &run.common, "ADD1");
    assert_eq!(callee.len(), 4);
    assert!(callee.iter().all(|t| dependences(t).is_empty()));
}

#[test]
fn activations_of_a_callee_leave_out_the_callers_loops() {
    let src = "      PROGRAM M
      REAL A(6)
      DO 10 I = 1, 2
   10 CALL SHIFT(A)
      END
      SUBROUTINE SHIFT(X)
      REAL X(6)
      DO 20 J = 2, 6
   20 X(J) = X(J-1)
      END
";
    let run = run_source("m.f", src, &[] as &[&str], &Config::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let seen = project(&run.trace, &run.common, "SHIFT");
    assert_eq!(seen.len(), 2);
    for activation in &seen {
        let want = BTreeSet::from([row(DepKind::Flow, (9, 7), (9, 14), &[8], &[1])]);
        assert_eq!(rows(&dependences(activation), "X"), want);
    }
}

/// A call is one statement of the caller: what the callee does to a cell
/// in between its first access and its first write stays inside.
#[test]
fn a_call_uses_before_it_defines() {
    let src = "      PROGRAM M
      COMMON /C/ S
      S = 1.0
      CALL TWICE
      PRINT *, S
      END
      SUBROUTINE TWICE
      COMMON /C/ T
      T = T + 1.0
      T = T * 2.0
      END
";
    let run = run_source("m.f", src, &[] as &[&str], &Config::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let seen = project(&run.trace, &run.common, "M");
    let at_call: Vec<(Mode, &str)> = seen[0]
        .iter()
        .filter(|a| a.pos.line == 4)
        .map(|a| (a.mode, &*a.var))
        .collect();
    assert_eq!(at_call, vec![(Mode::Read, "S"), (Mode::Write, "S")]);
    let want = BTreeSet::from([
        row(DepKind::Flow, (3, 7), (4, 12), &[], &[]),
        row(DepKind::Output, (3, 7), (4, 12), &[], &[]),
        row(DepKind::Anti, (4, 12), (4, 12), &[], &[]),
        row(DepKind::Flow, (4, 12), (5, 16), &[], &[]),
    ]);
    assert_eq!(rows(&dependences(&seen[0]), "S"), want);
}

/// A callee's access to COMMON is seen at the call under the caller's
/// member covering the cell; past the members (an EQUIVALENCE extending
/// the block), under the member the extending name is associated with.
#[test]
fn common_cells_are_seen_at_the_call_under_the_callers_members() {
    let src = "      PROGRAM M
      REAL A(2), B, Z(3)
      COMMON /C/ A, B
      EQUIVALENCE (B, Z(1))
      CALL SET
      PRINT *, A(2), Z(3)
      END
      SUBROUTINE SET
      REAL P(5)
      COMMON /C/ P
      P(2) = 1.0
      P(5) = 2.0
      END
";
    let run = run_source("m.f", src, &[] as &[&str], &Config::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let seen = project(&run.trace, &run.common, "M");
    let at_call: Vec<(&str, usize)> = seen[0]
        .iter()
        .filter(|a| a.pos.line == 5)
        .map(|a| (&*a.var, a.index))
        .collect();
    assert_eq!(at_call, vec![("A", 1), ("B", 2)]);
    let d = dependences(&seen[0]);
    let a = BTreeSet::from([row(DepKind::Flow, (5, 12), (6, 16), &[], &[])]);
    let b = BTreeSet::from([row(DepKind::Flow, (5, 12), (6, 22), &[], &[])]);
    assert_eq!((rows(&d, "A"), rows(&d, "B")), (a, b));
}
