//! What a call touches without naming it: a use of the caller's COMMON
//! members that overlap the bytes the callee (or what it calls) may read,
//! and a possible definition of those that overlap what it may write,
//! whatever names and shapes the callee gives the block; all of them when
//! the callee is not a unit of the program or has an opaque statement.

mod common;
use common::*;
use kaiseki_facts::FactBase;

/// The variables the call on `line` reads and those it defines, names it
/// spells itself included.
fn touched_at(f: &FactBase, line: i64) -> (Vec<String>, Vec<String>) {
    let stmt = f
        .stmt
        .iter()
        .find(|s| s.line == line && s.kind == "call")
        .expect("a call on the line")
        .stmt;
    let of = |kind: &str| {
        let mut v: Vec<String> = refs(f, stmt)
            .into_iter()
            .filter(|(_, k, _)| *k == kind)
            .map(|(_, _, v)| v)
            .collect();
        v.sort();
        v.dedup();
        v
    };
    (of("use"), of("def"))
}

fn used_at(f: &FactBase, line: i64) -> Vec<String> {
    touched_at(f, line).0
}

fn defined_at(f: &FactBase, line: i64) -> Vec<String> {
    touched_at(f, line).1
}

const PROGRAM: &str = "      PROGRAM P
      COMMON /A/ X, Y
      COMMON /B/ U(10)
      COMMON /C/ W
      CALL ONLYA
      CALL VIAB
      CALL LIB(W)
      CALL OPAQ
      END
      SUBROUTINE ONLYA
      COMMON /A/ S(2)
      S(1) = S(2)
      END
      SUBROUTINE VIAB
      COMMON /C/ T
      T = F(1.0)
      END
      REAL FUNCTION F(Z)
      COMMON /B/ V(5), V2(5)
      F = Z + V2(1)
      END
      SUBROUTINE OPAQ
      COMMON /A/ Q(2)
      COMMON /B/ R(10)
      ASSIGN 10 TO I
   10 CONTINUE
      END
";

#[test]
fn a_call_touches_the_blocks_its_callee_names_whatever_their_layout() {
    let (f, _) = lower_src("t.f", PROGRAM);
    // ONLYA names /A/ as one array S: S(2) is read, S(1) written, and an
    // element stands for its array, so the call reads and writes X and Y.
    assert_eq!(
        touched_at(&f, 5),
        (vec!["X".into(), "Y".into()], vec!["X".into(), "Y".into()])
    );
}

#[test]
fn blocks_reach_the_caller_through_the_callees_calls() {
    let (f, _) = lower_src("t.f", PROGRAM);
    // VIAB writes /C/ and calls F, which reads /B/.
    assert_eq!(used_at(&f, 6), ["U"]);
    assert_eq!(defined_at(&f, 6), ["W"]);
}

#[test]
fn an_unknown_or_opaque_callee_touches_every_block() {
    let (f, _) = lower_src("t.f", PROGRAM);
    let all: Vec<String> = ["U", "W", "X", "Y"].map(String::from).to_vec();
    // LIB is not a unit of the program; W is also its argument.
    assert_eq!(touched_at(&f, 7), (all.clone(), all.clone()));
    // OPAQ has a statement the analyses do not model (it might call anything).
    assert_eq!(touched_at(&f, 8), (all.clone(), all));
}

#[test]
fn a_timer_that_calls_intrinsic_subroutines_touches_only_its_blocks() {
    let (f, diags) = lower_src(
        "t.f",
        "      PROGRAM P
      COMMON /A/ X
      COMMON /T/ T0
      CALL TICK
      END
      SUBROUTINE TICK
      COMMON /T/ T0
      CALL CPU_TIME(T0)
      END
",
    );
    assert!(diags.is_empty(), "{diags:?}");
    // CPU_TIME is no procedure of unknown effects: TICK writes T0 only.
    assert_eq!(touched_at(&f, 4), (vec![], vec!["T0".to_string()]));
}

/// /D/ is 8 bytes of I1 I2 in the caller, one REAL R, then an INTEGER K in
/// the callees; /E/ is three members in both layouts, the last unnamed.
const MEMBERS: &str = "      PROGRAM M
      COMMON /D/ I1, I2
      COMMON /E/ A(4), B, C
      CALL SETK
      CALL READR
      CALL MID
      CALL ALL
      END
      SUBROUTINE SETK
      COMMON /D/ R, K
      K = 3
      END
      SUBROUTINE READR
      COMMON /D/ R
      PRINT *, R
      END
      SUBROUTINE MID
      COMMON /E/ Z(4), Y
      Y = Z(1)
      END
      SUBROUTINE ALL
      CALL SETK
      CALL READR
      END
";

#[test]
fn a_call_touches_the_members_over_the_bytes_its_callee_reads_or_writes() {
    let (f, diags) = lower_src("m.f", MEMBERS);
    assert!(diags.is_empty(), "{diags:?}");
    // K is the second 4 bytes of /D/: I2 is written, I1 untouched.
    assert_eq!(touched_at(&f, 4), (vec![], vec!["I2".to_string()]));
    // R is the first: I1 is read, nothing written.
    assert_eq!(touched_at(&f, 5), (vec!["I1".to_string()], vec![]));
    // Z is A (an element stands for its array), Y is B (bytes 16 to 20):
    // A read, B written, C untouched.
    assert_eq!(
        touched_at(&f, 6),
        (vec!["A".to_string()], vec!["B".to_string()])
    );
    // Through the calls of ALL: both.
    assert_eq!(
        touched_at(&f, 7),
        (vec!["I1".to_string()], vec!["I2".to_string()])
    );
}

#[test]
fn a_name_equivalenced_into_a_block_is_where_its_offset_puts_it() {
    let (f, diags) = lower_src(
        "q.f",
        "      PROGRAM Q
      COMMON /D/ I1, I2, I3
      CALL EQ
      END
      SUBROUTINE EQ
      COMMON /D/ J(2)
      EQUIVALENCE (J(2), L)
      L = 1
      END
",
    );
    assert!(diags.is_empty(), "{diags:?}");
    // L is J(2): the second member, named only through the EQUIVALENCE.
    assert_eq!(touched_at(&f, 3), (vec![], vec!["I2".to_string()]));
}

#[test]
fn a_block_gfortran_would_pad_is_touched_whole() {
    let (f, diags) = lower_src(
        "d.f",
        "      PROGRAM D
      COMMON /P/ I1, I2, I3, I4
      CALL PADDED
      CALL PLAIN
      END
      SUBROUTINE PADDED
      DOUBLE PRECISION D
      COMMON /P/ K, D
      D = 1.0D0
      END
      SUBROUTINE PLAIN
      DOUBLE PRECISION D
      COMMON /P/ K, L, D
      D = 1.0D0
      END
",
    );
    assert!(diags.is_empty(), "{diags:?}");
    // D after one INTEGER is not 8-aligned: gfortran pads, and where D lies
    // is not what the other unit's layout says. The whole block, then.
    let all: Vec<String> = ["I1", "I2", "I3", "I4"].map(String::from).to_vec();
    assert_eq!(defined_at(&f, 3), all);
    // Aligned, D is bytes 8 to 16: I3 and I4.
    assert_eq!(defined_at(&f, 4), ["I3", "I4"]);
}

#[test]
fn a_call_defines_a_member_it_also_names_in_a_subscript() {
    let (f, diags) = lower_src(
        "s.f",
        "      PROGRAM S
      COMMON /K/ K
      REAL A(10)
      K = 1
      CALL BUMP(A(K))
      END
      SUBROUTINE BUMP(X)
      COMMON /K/ K
      K = K + 1
      X = 0.0
      END
",
    );
    assert!(diags.is_empty(), "{diags:?}");
    // The subscript's use of K is no definition: the call's is added.
    // (BUMP only writes X: A is defined, not used.)
    assert_eq!(
        touched_at(&f, 5),
        (
            vec!["K".to_string()],
            vec!["A".to_string(), "K".to_string()]
        )
    );
}

#[test]
fn a_gnu_runtime_routine_declared_external_touches_no_common_block() {
    let (f, diags) = lower_src(
        "t.f",
        "      PROGRAM P
      COMMON /A/ X
      COMMON /T/ T0
      CALL TICK
      CALL TOCK
      END
      SUBROUTINE TICK
      COMMON /T/ T0
      REAL TA(2)
      EXTERNAL DTIME
      T0 = DTIME(TA)
      END
      SUBROUTINE TOCK
      REAL TA(2)
      EXTERNAL MYTIME
      T = MYTIME(TA)
      END
",
    );
    // DTIME is the library's: TICK writes T0 only; the warning says so.
    assert_eq!(touched_at(&f, 4), (vec![], vec!["T0".to_string()]));
    let warned: Vec<String> = diags.iter().map(|d| d.to_string()).collect();
    assert_eq!(warned.len(), 1, "{warned:?}");
    assert!(
        warned[0].contains("t.f:11:") && warned[0].contains("DTIME is EXTERNAL"),
        "{warned:?}"
    );
    // MYTIME is no runtime routine: unknown, so TOCK touches every block.
    let all: Vec<String> = ["T0", "X"].map(String::from).to_vec();
    assert_eq!(touched_at(&f, 5), (all.clone(), all));
}

/// The uses and definitions of `var` at the call on `line` (`use`, `def`).
fn arg_refs_at(f: &FactBase, line: i64, var: &str) -> Vec<&'static str> {
    let (uses, defs) = touched_at(f, line);
    let mut v = Vec::new();
    if uses.iter().any(|u| u == var) {
        v.push("use");
    }
    if defs.iter().any(|d| d == var) {
        v.push("def");
    }
    v
}

const ARGUMENTS: &str = "program p
  real :: a(10), b(10), c, d, e
  integer :: n
  n = 10
  call rw(a, b, c, d, n)
  call pass(a, b)
  call ext(a, b)
  c = f(d) + g(e)
  print *, a, b, c, d, e
end program p

subroutine rw(x, y, s, t, m)
  integer :: m
  real :: x(m), y(m), s, t
  y(1) = x(2)
  s = 0.0
end subroutine

subroutine pass(u, v)
  real :: u(*), v(*)
  call rw(v, u, s, t, 3)
end subroutine

real function f(x)
  real :: x
  f = 2.0 * x
end function

real function g(x)
  real :: x
  read *, x
  g = 1.0
end function
";

#[test]
fn an_actual_is_used_where_the_callee_reads_it_and_defined_where_it_writes_it() {
    let f = facts("p.f90", ARGUMENTS);
    // RW reads X and its bound M, writes Y and S, never touches T.
    assert_eq!(arg_refs_at(&f, 5, "A"), ["use"]);
    assert_eq!(arg_refs_at(&f, 5, "B"), ["def"]);
    assert_eq!(arg_refs_at(&f, 5, "C"), ["def"]);
    assert_eq!(arg_refs_at(&f, 5, "D"), Vec::<&str>::new());
    assert_eq!(arg_refs_at(&f, 5, "N"), ["use"]);
    // PASS hands its dummies on to RW the other way round.
    assert_eq!(arg_refs_at(&f, 6, "A"), ["def"]);
    assert_eq!(arg_refs_at(&f, 6, "B"), ["use"]);
    // EXT is no unit and has no interface: anything.
    assert_eq!(arg_refs_at(&f, 7, "A"), ["use", "def"]);
    // Function references: F reads X; G's READ writes it.
    let stmt = at_line(&f, "assign", 8);
    let r: Vec<String> = refs(&f, stmt)
        .iter()
        .map(|(_, k, n)| format!("{k} {n}"))
        .collect();
    assert!(r.contains(&"use D".to_string()), "{r:?}");
    assert!(!r.contains(&"def D".to_string()), "{r:?}");
    assert!(r.contains(&"def E".to_string()), "{r:?}");
}

#[test]
fn an_opaque_statement_makes_every_dummy_read_and_written_and_internal_procedures_pass_theirs_on() {
    let f = facts(
        "p.f90",
        "program p
  real :: a, b
  call op(a)
  call host(b)
  print *, a, b
end program p
subroutine op(x)
  real :: x
  print *, x
  !$omp barrier
  namelist /nl/ x
  read (5, nml=nl)
end subroutine
subroutine host(x)
  real :: x
  print *, x
  call inner
contains
  subroutine inner
    x = 1.0
  end subroutine
end subroutine
",
    );
    assert_eq!(arg_refs_at(&f, 3, "A"), ["use", "def"]);
    assert_eq!(arg_refs_at(&f, 4, "B"), ["use", "def"]);
}

const INTENTS: &str = "program p
  interface
    subroutine ext(x, y, z)
      real, intent(in) :: x
      real, intent(out) :: y
      real :: z
    end subroutine
    subroutine obj(q, r)
      use types
      type(t), intent(in) :: q
      real, intent(in) :: r
    end subroutine
  end interface
  interface gen
    subroutine s1(x)
      real, intent(in) :: x
    end subroutine
    subroutine s2(x, k)
      real, intent(out) :: x
      integer, intent (in out) :: k
    end subroutine
  end interface
  real :: a, b, c
  integer :: k
  call ext(a, b, c)
  call ext(a, z=c, y=b)
  call ext(y=a, x=b, z=c)
  call obj(a, b)
  call gen(a)
  call ext(a, b, c, k)
  print *, a, b, c, k
end program p
";

#[test]
fn the_intent_of_an_interface_body_narrows_what_a_call_does_to_its_actuals() {
    let (f, diags) = lower_src("p.f90", INTENTS);
    assert_eq!(errors(&diags), Vec::<String>::new());
    assert_eq!(arg_refs_at(&f, 25, "A"), ["use"]);
    assert_eq!(arg_refs_at(&f, 25, "B"), ["def"]);
    assert_eq!(arg_refs_at(&f, 25, "C"), ["use", "def"]);
    // Keyword arguments bind by name, wherever they stand.
    assert_eq!(arg_refs_at(&f, 26, "B"), ["def"]);
    assert_eq!(arg_refs_at(&f, 26, "C"), ["use", "def"]);
    assert_eq!(arg_refs_at(&f, 27, "A"), ["def"]);
    assert_eq!(arg_refs_at(&f, 27, "B"), ["use"]);
    // A dummy of derived type: the call passes its components, so the
    // places no longer match and the body says nothing.
    assert_eq!(arg_refs_at(&f, 28, "B"), ["use", "def"]);
    // A generic name: what any of its specifics may do.
    assert_eq!(arg_refs_at(&f, 29, "A"), ["use", "def"]);
    // A place past the dummies: anything.
    assert_eq!(arg_refs_at(&f, 30, "K"), ["use", "def"]);
}

#[test]
fn a_call_is_contained_when_its_callees_do_nothing_its_references_do_not_show() {
    let f = facts(
        "p.f90",
        "program p
  real :: a(10), b(10), t
  common /c/ t
  call scal(a(1), t)
  call vec(a(2))
  call keep(a(3))
  call talk(a(4))
  call glob(b(1))
  call uset(b(2))
  call rd(b(3))
  print *, a, b
end program p
subroutine rd(y)
  real :: y, u
  common /d/ u
  y = u
end subroutine
subroutine uset(y)
  real :: y, t
  common /c/ t
  y = t
end subroutine
subroutine scal(x, y)
  real :: x, y
  y = x
end subroutine
subroutine vec(v)
  real :: v(2)
  v(2) = v(1)
end subroutine
subroutine keep(x)
  real :: x
  integer, save :: n
  n = n + 1
  x = n
end subroutine
subroutine talk(x)
  real :: x
  print *, x
end subroutine
subroutine glob(x)
  real :: x, u
  common /d/ u
  u = x
end subroutine
",
    );
    let call_at = |line: i64| at_line(&f, "call", line);
    let contained: Vec<i64> = f.contained_call.iter().map(|c| c.stmt).collect();
    assert!(contained.contains(&call_at(4)), "SCAL");
    assert!(contained.contains(&call_at(5)), "VEC");
    assert!(!contained.contains(&call_at(6)), "KEEP saves N");
    assert!(!contained.contains(&call_at(7)), "TALK prints");
    assert!(
        !contained.contains(&call_at(8)),
        "GLOB writes /D/, which P does not declare"
    );
    // An element for an array dummy reaches further; for a scalar one, not.
    let element_refs = |line: i64| -> Vec<i64> {
        refs(&f, call_at(line))
            .iter()
            .filter(|(_, _, v)| v == "A")
            .map(|(r, _, _)| *r)
            .collect()
    };
    let actual = |r: &i64| f.element_actual.iter().any(|e| e.r#ref == *r);
    assert!(!element_refs(4).iter().any(actual));
    assert!(element_refs(5).iter().all(actual));
    // The call's reference to T through /C/ is hidden, and shows it all.
    let hidden = |line: i64| -> Vec<String> {
        refs(&f, call_at(line))
            .into_iter()
            .filter(|(r, _, _)| f.hidden_ref.iter().any(|h| h.r#ref == *r))
            .map(|(_, k, v)| format!("{k} {v}"))
            .collect()
    };
    assert_eq!(hidden(9), ["use T"]);
    assert!(contained.contains(&call_at(9)), "USET");
    assert_eq!(hidden(8), Vec::<String>::new(), "P names nothing of /D/");
}

/// The variables of the `must_use` references of the statement of
/// `kind` on `line`.
fn must_use_at(f: &FactBase, kind: &str, line: i64) -> Vec<String> {
    let stmt = at_line(f, kind, line);
    refs(f, stmt)
        .into_iter()
        .filter(|(r, k, _)| *k == "use" && f.must_use.iter().any(|m| m.r#ref == *r))
        .map(|(_, _, v)| v)
        .collect()
}

const SURE_READS: &str = "program p
  real :: a(10), s, t, u, v
  integer :: n
  n = 10
  call axpy(n, s, a)
  call first(t)
  call maybe(t, n)
  call rw(u)
  u = h(v) + v
  u = h(t)
  call ext(s)
  print *, a, s, t, u, v
end program p

subroutine axpy(m, x, y)
  integer :: m
  real :: x, y(*)
  if (m .le. 0) return
  y(1) = y(1) + x
end subroutine

subroutine reads(z)
  real :: z, w
  w = z
end subroutine

subroutine first(x)
  real :: x
  call reads(x)
end subroutine

subroutine maybe(x, k)
  real :: x
  integer :: k
  if (k .gt. 0) call reads(x)
end subroutine

subroutine rw(x)
  real :: x
  x = x + 1.0
end subroutine

real function h(x)
  real :: x
  h = 2.0 * x
end function
";

#[test]
fn a_scalar_every_run_of_the_callee_reads_and_none_writes_is_a_must_use() {
    let f = facts("p.f90", SURE_READS);
    // AXPY reads M before its early RETURN, X only after it; Y is an array.
    assert_eq!(must_use_at(&f, "call", 5), ["N"]);
    // FIRST hands X to READS in a call every run makes; MAYBE under an IF
    // (but reads K in its condition).
    assert_eq!(must_use_at(&f, "call", 6), ["T"]);
    assert_eq!(must_use_at(&f, "call", 7), ["N"]);
    // RW writes its dummy too.
    assert!(must_use_at(&f, "call", 8).is_empty());
    // A function reference: H reads its dummy on every run (the read of
    // V beside it is a plain use, not a must_use).
    assert_eq!(must_use_at(&f, "assign", 9), ["V"]);
    assert_eq!(must_use_at(&f, "assign", 10), ["T"]);
    // EXT is no unit of the program: anything.
    assert!(must_use_at(&f, "call", 11).is_empty());
}
