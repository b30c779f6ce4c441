//! The interpreter on small programs parsed from source: Fortran semantics
//! (trip counts, integer division, labels, calls by reference, COMMON and
//! EQUIVALENCE by storage cells) and the exact trace of every access.

use kaiseki_judge::{run_source, Access, Config, Mode};

fn run(path: &str, text: &str, input: &[&str]) -> kaiseki_judge::Run {
    run_source(path, text, input, &Config::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn printed(path: &str, text: &str, input: &[&str]) -> Vec<String> {
    run(path, text, input)
        .output
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// (line, col, var, R/W, index, iteration numbers, at_loop_end)
fn summary(a: &Access) -> (u32, u32, String, char, usize, Vec<u64>, bool) {
    (
        a.pos.line,
        a.pos.col,
        a.var.to_string(),
        if a.mode == Mode::Read { 'R' } else { 'W' },
        a.index,
        a.loops.iter().map(|l| l.iter).collect(),
        a.at_loop_end,
    )
}

fn t(
    line: u32,
    col: u32,
    var: &str,
    m: char,
    index: usize,
    it: &[u64],
    end: bool,
) -> (u32, u32, String, char, usize, Vec<u64>, bool) {
    (line, col, var.to_string(), m, index, it.to_vec(), end)
}

#[test]
fn trace_of_straight_line_code_is_exact() {
    let src = "      PROGRAM T\n      X = 1.0\n      Y = X + 2.0\n      X = Y * X\n      END\n";
    let r = run("t.f", src, &[]);
    let got: Vec<_> = r.trace.iter().map(summary).collect();
    assert_eq!(
        got,
        vec![
            t(2, 7, "X", 'W', 0, &[], false),
            t(3, 11, "X", 'R', 0, &[], false),
            t(3, 7, "Y", 'W', 0, &[], false),
            t(4, 11, "Y", 'R', 0, &[], false),
            t(4, 15, "X", 'R', 0, &[], false),
            t(4, 7, "X", 'W', 0, &[], false),
        ]
    );
    assert!(r
        .trace
        .iter()
        .all(|a| &*a.unit == "T" && a.callers.is_empty()));
}

#[test]
fn do_loop_trace_has_entry_body_and_increments_at_the_loop_end() {
    let src = "program p\n  s = 0\n  do i = 1, 2\n    s = s + i\n  end do\nend program\n";
    let r = run("p.f90", src, &[]);
    let got: Vec<_> = r.trace.iter().map(summary).collect();
    let body = |k: u64| {
        vec![
            t(4, 9, "S", 'R', 0, &[k], false),
            t(4, 13, "I", 'R', 0, &[k], false),
            t(4, 5, "S", 'W', 0, &[k], false),
            t(3, 6, "I", 'R', 0, &[k], true),
            t(3, 6, "I", 'W', 0, &[k], true),
        ]
    };
    let mut want = vec![
        t(2, 3, "S", 'W', 0, &[], false),
        t(3, 6, "I", 'W', 0, &[], false),
    ];
    want.extend(body(0));
    want.extend(body(1));
    assert_eq!(got, want);
    let loop_line: Vec<u32> = r.trace[2].loops.iter().map(|l| l.do_pos.line).collect();
    assert_eq!(loop_line, vec![3]);
}

#[test]
fn trip_count_is_fixed_at_entry_and_the_variable_keeps_its_last_increment() {
    let src = "program p
  integer :: i, j, n, k
  n = 3
  k = 0
  do i = 1, n
    n = n + 10
    k = k + 1
  end do
  do j = 10, 1, -4
    k = k + 100
  end do
  print *, i, j, n, k
  do i = 5, 1
    k = -1
  end do
  print *, i, k
  do i = 1, 10, 3
  end do
  print *, i
end program
";
    assert_eq!(
        printed("p.f90", src, &[]),
        ["4", "-2", "33", "303", "5", "303", "13"]
    );
}

#[test]
fn integer_arithmetic_truncates_and_reals_promote() {
    let src = "program p
  integer :: i
  real :: x
  i = -7 / 2
  x = 7 / 2
  print *, i, x, mod(-7, 2), 2**10, 2**(-1), 7 / 2.0, nint(2.5), int(-2.7)
end program
";
    let got = printed("p.f90", src, &[]);
    let nums: Vec<f64> = got.iter().map(|s| s.parse().unwrap()).collect();
    assert_eq!(nums, vec![-3.0, 3.0, -1.0, 1024.0, 0.0, 3.5, 3.0, -2.0]);
}

#[test]
fn arrays_use_declared_bounds_and_out_of_bounds_is_an_error() {
    let src = "program p
  integer, parameter :: lo = -1
  real :: a(lo:1, 0:2)
  a(1, 2) = 5.0
  a(-1, 0) = 1.0
  print *, a(1, 2) + a(-1, 0), sum(a), size(a)
  a(2, 0) = 1.0
end program
";
    let err = run_source("p.f90", src, &[] as &[&str], &Config::default()).unwrap_err();
    assert!(err.contains("out of bounds"), "{err}");
    assert!(
        err.contains(":7:"),
        "the error points at the statement line: {err}"
    );
    let ok = src.replace("  a(2, 0) = 1.0\n", "");
    let r = run("p.f90", &ok, &[]);
    let nums: Vec<f64> = r
        .output
        .split_whitespace()
        .map(|s| s.parse().unwrap())
        .collect();
    assert_eq!(nums, vec![6.0, 6.0, 9.0]);
    // a(1,2) is element (1 - -1) + 3*2 = 8 in column-major order from (-1, 0).
    assert!(r
        .trace
        .iter()
        .any(|a| &*a.var == "A" && a.mode == Mode::Write && a.index == 8));
    assert!(r
        .trace
        .iter()
        .any(|a| &*a.var == "A" && a.mode == Mode::Write && a.index == 0));
}

#[test]
fn labels_gotos_and_arithmetic_if_follow_the_structured_tree() {
    let src = "      PROGRAM G
      INTEGER I, K, M
      K = 0
      DO 10 I = 1, 6
        IF (MOD(I, 2) .EQ. 0) GO TO 10
        K = K + I
   10 CONTINUE
      M = 2
      GO TO (20, 30), M
   20 K = K + 1000
   30 IF (K - 9) 40, 50, 40
   40 K = -K
      GO TO 60
   50 K = K + 1
   60 IF (K .GT. 0) THEN
        K = K * 2
        IF (K .GT. 5) GO TO 70
        K = 0
   70 END IF
      PRINT *, K, I
      END
";
    assert_eq!(printed("g.f", src, &[]), ["20", "7"]);
}

#[test]
fn goto_to_an_end_do_label_ends_the_iteration() {
    let src = "program p
  integer :: i, k
  k = 0
  do 20 i = 1, 5
    if (i == 3) goto 20
    k = k + i
20 end do
  print *, k
end program
";
    assert_eq!(printed("p.f90", src, &[]), ["12"]);
}

#[test]
fn calls_pass_by_reference_and_common_is_shared_by_position() {
    let src = "      PROGRAM C
      INTEGER N
      REAL A(5), S
      COMMON /BLK/ S, N
      N = 5
      DO 10 I = 1, 5
   10 A(I) = I
      CALL TWICE(A, N)
      CALL TWICE(A(4), 2)
      CALL ACC
      PRINT *, S, A(1), A(5), F(3.0)
      END
      SUBROUTINE TWICE(X, M)
      REAL X(*)
      DO 10 J = 1, M
   10 X(J) = 2 * X(J)
      END
      SUBROUTINE ACC
      COMMON /BLK/ T, K
      T = 0.0
      DO 10 J = 1, K
   10 T = T + J
      RETURN
      END
      REAL FUNCTION F(Y)
      F = Y * Y
      END
";
    let r = run("c.f", src, &[]);
    let nums: Vec<f64> = r
        .output
        .split_whitespace()
        .map(|s| s.parse().unwrap())
        .collect();
    assert_eq!(nums, vec![15.0, 2.0, 20.0, 9.0]);
    // Inside TWICE, X(J) of the second call is A(3+J): same cells as A(4), A(5).
    let first = r
        .trace
        .iter()
        .find(|a| &*a.var == "A" && a.index == 3 && a.mode == Mode::Write)
        .unwrap()
        .loc;
    let via_dummy = r
        .trace
        .iter()
        .filter(|a| &*a.var == "X" && a.loc == first)
        .count();
    assert_eq!(
        via_dummy, 4,
        "read and write of X(4) in the first call, of X(1) in the second"
    );
    let in_callee = r.trace.iter().find(|a| &*a.unit == "ACC").unwrap();
    assert_eq!(in_callee.callers.len(), 1);
    assert_eq!(in_callee.callers[0].pos.line, 10);
}

#[test]
fn read_takes_input_values_in_order() {
    let src = "program p\n  integer :: n\n  real :: x\n  read (*,*) n, x\n  print *, n * 2, x\nend program\n";
    assert_eq!(printed("p.f90", src, &["21", "2.5"]), ["42", "2.50000000"]);
    let err = run_source("p.f90", src, &["1"], &Config::default()).unwrap_err();
    assert!(err.contains("end of the input"), "{err}");
}

#[test]
fn endless_loops_stop_at_the_step_limit() {
    let src = "      PROGRAM L\n   10 X = X + 1\n      GO TO 10\n      END\n";
    let cfg = Config {
        step_limit: 1000,
        trace: false,
    };
    let err = run_source("l.f", src, &[] as &[&str], &cfg).unwrap_err();
    assert!(err.contains("step limit exceeded"), "{err}");
}

#[test]
fn statement_functions_are_evaluated_in_place() {
    let src = "      PROGRAM S\n      SQ(Z) = Z * Z + W\n      W = 1.0\n      PRINT *, SQ(3.0)\n      END\n";
    let r = run("s.f", src, &[]);
    assert_eq!(
        r.output.split_whitespace().collect::<Vec<_>>(),
        ["10.0000000"]
    );
    // W is read where the body stands; the dummy Z is a value, not memory.
    let reads: Vec<_> = r
        .trace
        .iter()
        .filter(|a| a.mode == Mode::Read)
        .map(summary)
        .collect();
    assert_eq!(reads, vec![t(2, 23, "W", 'R', 0, &[], false)]);
}

#[test]
fn whole_arrays_and_sections_are_accessed_element_by_element() {
    let src = "program p
  real :: a(4), b(4)
  a = 1.0
  b(2:4) = a(1:3) + 1.0
  b(1) = 0.0
  print *, b
end program
";
    let r = run("p.f90", src, &[]);
    assert_eq!(r.output.split_whitespace().count(), 4);
    let writes_a = r
        .trace
        .iter()
        .filter(|a| &*a.var == "A" && a.mode == Mode::Write)
        .count();
    let reads_a: Vec<usize> = r
        .trace
        .iter()
        .filter(|a| &*a.var == "A" && a.mode == Mode::Read)
        .map(|a| a.index)
        .collect();
    let reads_b = r
        .trace
        .iter()
        .filter(|a| &*a.var == "B" && a.mode == Mode::Read)
        .count();
    assert_eq!((writes_a, reads_a, reads_b), (4, vec![0, 1, 2], 4));
}

#[test]
fn accesses_of_one_statement_follow_the_facts_numbering() {
    // Uses left to right (an element before its subscripts), then the
    // assigned element's subscripts, then the write.
    let src = "program p\n  integer :: i, j\n  real :: a(3), b(3)\n  i = 1\n  j = 2\n  a(i) = b(j) + i\nend program\n";
    let r = run("p.f90", src, &[]);
    let got: Vec<_> = r.trace.iter().skip(2).map(summary).collect();
    assert_eq!(
        got,
        vec![
            t(6, 10, "B", 'R', 1, &[], false),
            t(6, 12, "J", 'R', 0, &[], false),
            t(6, 17, "I", 'R', 0, &[], false),
            t(6, 5, "I", 'R', 0, &[], false),
            t(6, 3, "A", 'W', 0, &[], false),
        ]
    );
}

/// The cells (storage, offset) the writes of each name touched, in order.
fn written_cells(r: &kaiseki_judge::Run, var: &str) -> Vec<(usize, usize)> {
    r.trace
        .iter()
        .filter(|a| &*a.var == var && a.mode == Mode::Write)
        .map(|a| (a.loc.storage, a.loc.offset))
        .collect()
}

#[test]
fn equivalenced_names_access_the_same_cells() {
    let src = "      PROGRAM E
      REAL X(2), Y(4), M(2,2)
      EQUIVALENCE (X(1), Y(3)), (M(2,1), Y(1))
      Y(3) = 1.0
      X(1) = 2.0
      M(1,2) = 3.0
      PRINT *, Y(3), Y(2)
      END
";
    let r = run("e.f", src, &[]);
    assert_eq!(
        r.output.split_whitespace().collect::<Vec<_>>(),
        ["2.00000000", "3.00000000"]
    );
    assert_eq!(written_cells(&r, "Y"), written_cells(&r, "X"));
    // M(1,2) is the third element of M in column order: Y(2).
    let m = written_cells(&r, "M")[0];
    assert_eq!(m.1 + 1, written_cells(&r, "Y")[0].1);
}

#[test]
fn a_double_precision_element_is_two_cells() {
    let src = "      PROGRAM D
      DOUBLE PRECISION D(2)
      REAL R(4)
      EQUIVALENCE (D(1), R(1))
      D(2) = 1.0D0
      R(4) = 2.0
      END
";
    let r = run("d.f", src, &[]);
    let d = written_cells(&r, "D");
    // A DOUBLE PRECISION array of its own has room for its elements too.
    let own = "      PROGRAM D\n      DOUBLE PRECISION D(3)\n      D(3) = 1.0D0\n      PRINT *, D(3)\n      END\n";
    assert_eq!(printed("d.f", own, &[]), ["1.00000000"]);
    assert_eq!(d.len(), 2, "one access per cell of D(2)");
    assert_eq!((d[0].1, d[1].1), (2, 3));
    assert!(r
        .trace
        .iter()
        .filter(|a| &*a.var == "D")
        .all(|a| a.index == 1));
    assert_eq!(written_cells(&r, "R"), vec![d[1]]);
}

#[test]
fn common_blocks_count_cells_across_layouts() {
    // /B/ is D(1) D(1) D(2) D(2) A(1) ... in the main program and
    // E E X(1) ... X(5) Y(1) in SUB: X(5) is A(3), Y(1) is A(4).
    let src = "      PROGRAM C
      REAL A(9)
      DOUBLE PRECISION D(2)
      COMMON /B/ D, A
      A(3) = 5.0
      CALL SUB
      PRINT *, A(4)
      END
      SUBROUTINE SUB
      DOUBLE PRECISION E
      REAL X(5), Y(2)
      COMMON /B/ E, X, Y
      Y(1) = X(5) + 1.0
      END
";
    let r = run("c.f", src, &[]);
    assert_eq!(
        r.output.split_whitespace().collect::<Vec<_>>(),
        ["6.00000000"]
    );
    let y = written_cells(&r, "Y");
    assert_eq!(y.len(), 1);
    assert_eq!(y[0].1, 7);
}

/// DATA on arrays, implied-DO lists and COMMON members (BLOCK DATA) is
/// not run: the judge refuses the unit rather than run it uninitialized.
#[test]
fn data_the_judge_does_not_run_is_refused() {
    for data in [
        "DATA A /3*1.0/",
        "DATA (A(I), I = 1, 3) /3*1.0/",
        "DATA A(1), K /1.0, 2/",
        "DATA K, M /NR*2/",
        "DATA C /1.0/",
    ] {
        let src = format!(
            "      PROGRAM U\n      PARAMETER (NR = 2)\n      REAL A(3)\n      COMMON /B/ C\n      {data}\n      PRINT *, A(1)\n      END\n"
        );
        let e = run_source("u.f", &src, &[] as &[&str], &Config::default()).err();
        assert!(
            e.is_some_and(|e| e.contains("DATA other than scalars")),
            "{data}"
        );
    }
}

#[test]
fn implied_do_lists_run_as_loops_and_are_one_event_in_the_trace() {
    let src = "program p
  integer :: k, n, a(4)
  n = 3
  read (*,*) (a(k), k = 1, n)
  write (*,*) (a(k), k = n, 1, -1), k, (n, k = 1, 2)
end program
";
    let r = run("p.f90", src, &["10", "20", "30"]);
    assert_eq!(
        r.output.split_whitespace().collect::<Vec<_>>(),
        ["30", "20", "10", "0", "3", "3"]
    );
    let line = |l: u32| -> Vec<_> {
        r.trace
            .iter()
            .filter(|a| a.pos.line == l)
            .map(summary)
            .collect()
    };
    // K is written once per implied DO and never read inside it; N, read
    // twice by the last list, once.
    assert_eq!(
        line(4),
        [
            t(4, 28, "N", 'R', 0, &[], false),
            t(4, 21, "K", 'W', 0, &[], false),
            t(4, 15, "A", 'W', 0, &[], false),
            t(4, 15, "A", 'W', 1, &[], false),
            t(4, 15, "A", 'W', 2, &[], false),
        ]
    );
    assert_eq!(
        line(5),
        [
            t(5, 26, "N", 'R', 0, &[], false),
            t(5, 22, "K", 'W', 0, &[], false),
            t(5, 16, "A", 'R', 2, &[], false),
            t(5, 16, "A", 'R', 1, &[], false),
            t(5, 16, "A", 'R', 0, &[], false),
            t(5, 37, "K", 'R', 0, &[], false),
            t(5, 44, "K", 'W', 0, &[], false),
            t(5, 41, "N", 'R', 0, &[], false),
        ]
    );
}

#[test]
fn internal_files_iostat_end_and_err() {
    let src = "program p
  character*20 :: line
  integer :: n, m, ios
  n = 42
  write (line, *) n, 7
  read (line, *) m
  print *, m + 1, line
  read (*, *, iostat=ios) n
  print *, ios, n
  read (*, *, end=9, err=9) n
  print *, 'not here'
9 print *, 'end', n
end program
";
    assert_eq!(
        printed("p.f90", src, &[]),
        ["43", "42", "7", "-1", "42", "end", "42"]
    );
    assert_eq!(
        printed("p.f90", src, &["x", "y"]),
        ["43", "42", "7", "1", "42", "end", "42"]
    );
    assert_eq!(
        printed("p.f90", src, &["5", "6"]),
        ["43", "42", "7", "0", "5", "not", "here", "end", "6"]
    );
    let r = run("p.f90", src, &[]);
    let line_io: Vec<_> = r
        .trace
        .iter()
        .filter(|a| &*a.var == "LINE")
        .map(summary)
        .collect();
    assert_eq!(
        line_io,
        [
            t(5, 10, "LINE", 'W', 0, &[], false),
            t(6, 9, "LINE", 'R', 0, &[], false),
            t(7, 19, "LINE", 'R', 0, &[], false),
        ]
    );
    let err = run_source(
        "p.f90",
        "program p\n  read (*,*) n\nend program\n",
        &["x"],
        &Config::default(),
    )
    .unwrap_err();
    assert!(err.contains("not a valid"), "{err}");
}
