//! Lowering of loops: nesting, bodies, bounds, trip counts.

mod common;
use common::*;

#[test]
fn koseki_parameters_fold_into_bounds_and_trip_counts() {
    let f = example_facts("koseki_fig1.f");
    assert_eq!(f.r#loop.len(), 5);
    for l in &f.r#loop {
        let b = f
            .loop_bounds
            .iter()
            .find(|b| b.r#loop == l.r#loop)
            .expect("bounds");
        assert_eq!(
            (b.lower.as_str(), b.upper.as_str(), b.step.as_str()),
            ("1", "64", "1")
        );
        let t = f
            .loop_trip
            .iter()
            .find(|t| t.r#loop == l.r#loop)
            .expect("trip");
        assert_eq!(t.trip, 64);
    }
    let (i, j) = (loop_at(&f, 16), loop_at(&f, 17));
    let parents: Vec<(i64, i64)> = f.loop_parent.iter().map(|p| (p.r#loop, p.parent)).collect();
    assert!(parents.contains(&(j, i)));
    let depth = |l: i64| f.r#loop.iter().find(|x| x.r#loop == l).map(|x| x.depth);
    assert_eq!((depth(i), depth(j)), (Some(1), Some(2)));
    let params: Vec<(&str, &str)> = f
        .param
        .iter()
        .map(|p| (p.name.as_str(), p.value.as_str()))
        .collect();
    assert_eq!(params, [("IMAX", "64"), ("JMAX", "64")]);
}

#[test]
fn ishida_fig3_loops_sharing_terminal_20() {
    let f = example_facts("ishida_fig3.f");
    let (l20, l20j) = (loop_at(&f, 16), loop_at(&f, 18));
    let body = |l: i64| -> Vec<(i64, String)> {
        f.loop_stmt
            .iter()
            .filter(|s| s.r#loop == l)
            .map(|s| {
                let st = f.stmt.iter().find(|x| x.stmt == s.stmt).expect("stmt");
                (st.line, st.kind.clone())
            })
            .collect()
    };
    assert_eq!(
        body(l20),
        vec![
            (17, "assign".into()),
            (18, "do".into()),
            (19, "assign".into()),
            (19, "enddo".into()),
            (19, "enddo".into())
        ]
    );
    assert_eq!(
        body(l20j),
        vec![(19, "assign".into()), (19, "enddo".into())]
    );
    let end = |l: i64| f.loop_end.iter().find(|e| e.r#loop == l).expect("end").stmt;
    assert_eq!(
        end(l20),
        end(l20j) + 1,
        "the inner loop's enddo comes first"
    );
    // zero trips of the inner loop skip to the outer loop's enddo
    assert_eq!(succs(&f, l20j), vec![l20j + 1, end(l20)]);
    assert_eq!(succs(&f, end(l20j)), vec![l20j + 1, end(l20)]);
    assert_eq!(succs(&f, end(l20)), vec![l20 + 1, end(l20) + 1]);
}

#[test]
fn bounds_in_outer_loop_variables_are_affine_forms() {
    let f = example_facts("ishida_fig4.f");
    let (k, i) = (loop_at(&f, 13), loop_at(&f, 14));
    let b = f
        .loop_bounds
        .iter()
        .find(|b| b.r#loop == i)
        .expect("bounds");
    assert_eq!((b.lower.as_str(), b.upper.as_str()), ("K+1", "30"));
    let bound = |which: &str| {
        let fid = f
            .loop_bound
            .iter()
            .find(|b| b.r#loop == i && b.which == which)
            .expect("form")
            .form;
        form(&f, fid)
    };
    assert_eq!(bound("lower"), (1, vec![(k, 1)], vec![]));
    // N = 30 first in the program: a constant.
    assert_eq!(bound("upper"), (30, vec![], vec![]));
    assert_eq!(bound("step"), (1, vec![], vec![]));
    assert!(!f.loop_trip.iter().any(|t| t.r#loop == i));
}

#[test]
fn negative_steps_and_zero_step() {
    let (f, diags) = lower_src(
        "t.f90",
        "program t
  integer :: i
  do i = 10, 1, -3
  end do
  do i = 1, 5, 0
  end do
end program t
",
    );
    let trips: Vec<i64> = f.loop_trip.iter().map(|t| t.trip).collect();
    assert_eq!(trips, vec![4]);
    assert_eq!(errors(&diags), vec!["DO loop step is zero".to_string()]);
    assert_eq!(f.loop_bounds[0].step, "-3");
}

#[test]
fn bounds_a_constant_apart_give_a_trip_count() {
    let (f, diags) = lower_src(
        "t.f90",
        "program t
  integer :: i, j, n
  read *, n
  do i = 1, n
    do j = i, i + 1
    end do
    do j = i + 1, i
    end do
    do j = n - i, n + 3 - i, 2
    end do
    do j = i, n
    end do
  end do
end program t
",
    );
    assert!(diags.is_empty(), "{diags:?}");
    let trip = |line: i64| {
        let l = loop_at(&f, line);
        f.loop_trip.iter().find(|t| t.r#loop == l).map(|t| t.trip)
    };
    // Both bounds are evaluated when the loop starts: their difference is
    // what counts, whatever I and N are.
    assert_eq!(trip(5), Some(2));
    assert_eq!(trip(7), Some(0));
    assert_eq!(trip(9), Some(2));
    assert_eq!(trip(4), None);
    assert_eq!(trip(11), None);
}

#[test]
fn independent_marks_its_loop() {
    let f = facts(
        "t.f90",
        "program t
  integer :: i
  real :: a(10)
!HPF$ INDEPENDENT
  do i = 1, 10
    a(i) = 0.0
  end do
  do i = 1, 10
    a(i) = 1.0
  end do
end program t
",
    );
    let ind: Vec<i64> = f.hpf_independent.iter().map(|h| h.r#loop).collect();
    assert_eq!(ind, vec![loop_at(&f, 5)]);
}

/// A loop runs at least once (`loop_runs`) when its trip count is a
/// constant of 1 or more, or when its bounds give an iteration for every
/// value the DO variables of the constant-bounded loops around it take.
#[test]
fn loops_that_always_run_once_entered() {
    let (f, diags) = lower_src(
        "t.f90",
        "program t
  integer :: i, j, k, n
  read *, n
  do i = 2, 5, 2
    do j = 9, i + 1, -1
      do k = j, 9
      end do
    end do
    do j = 4, i + 1, -1
    end do
    do j = i, n
    end do
    do j = 1, 0
    end do
  end do
  do i = 1, n
    do j = i, i + 3
    end do
  end do
end program t
",
    );
    assert!(diags.is_empty(), "{diags:?}");
    let runs = |line: i64| {
        let l = loop_at(&f, line);
        f.loop_runs.iter().any(|r| r.r#loop == l)
    };
    // I takes 2 and 4 (at most 5): J = 9 down to I + 1 always runs, and
    // K = J, 9 for J up to 9 too; J = 4 down to I + 1 not for I = 4 (it
    // does for I = 2: once is not always).
    assert!(runs(4) && runs(5) && runs(6));
    assert!(!runs(9));
    assert!(!runs(11), "N is unknown");
    assert!(!runs(13), "no iteration");
    // The range of I is unknown (N), but J = I, I + 3 is a constant apart.
    assert!(!runs(16));
    assert!(runs(17));
}

/// A statement runs in some iteration of every run of a loop that reaches
/// its end (`runs_during`), and in its last iteration (`runs_last`), as the
/// points of the iteration domain decide: inner loops that run in some
/// outer iterations only, IFs on the DO variables; a condition on data, or
/// a jump in the loop, decides nothing.
#[test]
fn statements_certain_to_run_in_some_or_the_last_iteration() {
    let (f, diags) = lower_src(
        "t.f90",
        "program t
  integer :: i, j, k, n, p
  real :: s, t
  read *, n, p
  do i = 3, 7, 2
    do j = 4, i + 1, -1
      k = 1
    end do
    if (i .gt. 5) s = 1.0
    if (i .eq. 4) t = 1.0
    if (p .gt. 0) t = 2.0
  end do
  do i = 1, n
    if (i .ge. 1) s = 2.0
    if (i .gt. 3) t = 3.0
  end do
  do i = 1, 6
    if (i .gt. 3) s = 3.0
    if (i .eq. 2) exit
  end do
end program t
",
    );
    assert!(diags.is_empty(), "{diags:?}");
    let rows = |line: i64| {
        let s = at_line(&f, "assign", line);
        let during: Vec<i64> = f
            .runs_during
            .iter()
            .filter(|r| r.stmt == s)
            .map(|r| r.r#loop)
            .collect();
        let last: Vec<i64> = f
            .runs_last
            .iter()
            .filter(|r| r.stmt == s)
            .map(|r| r.r#loop)
            .collect();
        (during, last)
    };
    let (i1, i2) = (loop_at(&f, 5), loop_at(&f, 13));
    // J runs for I = 3 only: K = 1 then, not in the last iteration (I = 7).
    assert_eq!(rows(7), (vec![i1], vec![]));
    assert_eq!(rows(9), (vec![i1], vec![i1]));
    // I is never 4; P is data.
    assert_eq!(rows(10), (vec![], vec![]));
    assert_eq!(rows(11), (vec![], vec![]));
    // N unknown: the first iteration (I = 1) runs S = 2.0, the last one is
    // not known.
    assert_eq!(rows(14), (vec![i2], vec![]));
    assert_eq!(rows(15), (vec![], vec![]));
    // The loop may leave early.
    assert_eq!(rows(18), (vec![], vec![]));
}
