//! Intrinsic procedures: the Fortran 77/90 table and the GNU extensions
//! old benchmarks call, what they read and write, their number of
//! arguments, and their result types in folding.

mod common;
use common::*;

fn v(rows: &[(i64, &'static str, &str)]) -> Vec<(i64, &'static str, String)> {
    rows.iter()
        .map(|&(r, k, n)| (r, k, n.to_string()))
        .collect()
}

/// (kind, var) of a statement's references, in id order.
fn kinds_vars(f: &kaiseki_facts::FactBase, stmt: i64) -> Vec<(&'static str, String)> {
    refs(f, stmt).into_iter().map(|(_, k, n)| (k, n)).collect()
}

fn is_must(f: &kaiseki_facts::FactBase, r: i64) -> bool {
    f.must_def.iter().any(|m| m.r#ref == r)
}

#[test]
fn gnu_and_f90_functions_are_intrinsics_that_read_their_arguments() {
    let f = facts(
        "t.f",
        "      PROGRAM T
      IMPLICIT NONE
      INTEGER N, I, J, K
      DOUBLE PRECISION D, E
      DOUBLE COMPLEX Z
      REAL R
      COMMON /C/ K
      N = IARGC()
      Z = DCMPLX(D, E)
      Z = DCONJG(Z)
      D = DIMAG(Z) + DFLOAT(N)
      J = IBITS(I, 2, 3) + ISHFT(I, -1) + IAND(I, J)
     &  + IOR(I, 1) + IEOR(I, J)
      J = LOC(D) + SIZEOF(E) + IRAND(0)
      R = RAND(0) + SECOND()
      END
",
    );
    assert_eq!(f.r#use.iter().filter(|u| u.var == "D").count(), 2);
    assert!(f.call.is_empty(), "no intrinsic is a call: {:?}", f.call);
    let s = at_line(&f, "assign", 9);
    assert_eq!(
        kinds_vars(&f, s),
        [
            ("use", "D".into()),
            ("use", "E".into()),
            ("def", "Z".into())
        ]
    );
    let s = at_line(&f, "assign", 12);
    let uses: Vec<String> = kinds_vars(&f, s)
        .into_iter()
        .filter(|(k, _)| *k == "use")
        .map(|(_, n)| n)
        .collect();
    assert_eq!(uses, ["I", "I", "I", "J", "I", "I", "J"]);
    // A call would read and write the COMMON variable K; an intrinsic does not.
    assert!(!f.r#use.iter().any(|u| u.var == "K"));
}

#[test]
fn intrinsic_subroutines_define_the_arguments_they_write() {
    let f = facts(
        "t.f",
        "      PROGRAM T
      CHARACTER*32 ARG
      INTEGER C, R, SEED, FROM, TO
      REAL TM, A(10), ET(2), E
      COMMON /BLK/ SEED
      CALL GETARG(1, ARG)
      CALL CPU_TIME(TM)
      CALL SYSTEM_CLOCK(C, R)
      CALL RANDOM_NUMBER(A)
      CALL SRAND(SEED)
      CALL MVBITS(FROM, 0, 4, TO, 2)
      CALL FLUSH(6)
      E = ETIME(ET)
      CALL DATE_AND_TIME()
      END
",
    );
    // A call fact (what they do besides their arguments no loop may
    // reorder), MVBITS aside.
    let callees: Vec<&str> = f.call.iter().map(|c| c.callee.as_str()).collect();
    assert_eq!(
        callees,
        [
            "GETARG",
            "CPU_TIME",
            "SYSTEM_CLOCK",
            "RANDOM_NUMBER",
            "SRAND",
            "FLUSH",
            "DATE_AND_TIME"
        ]
    );
    let getarg = at_line(&f, "call", 6);
    let r = refs(&f, getarg);
    assert_eq!(r, v(&[(r[0].0, "def", "ARG")]));
    assert!(is_must(&f, r[0].0), "GETARG overwrites its second argument");
    let cpu = refs(&f, at_line(&f, "call", 7));
    assert_eq!(cpu, v(&[(cpu[0].0, "def", "TM")]));
    assert!(is_must(&f, cpu[0].0));
    let clock = kinds_vars(&f, at_line(&f, "call", 8));
    assert_eq!(clock, [("def", "C".into()), ("def", "R".into())]);
    let random = refs(&f, at_line(&f, "call", 9));
    assert_eq!(random, v(&[(random[0].0, "def", "A")]));
    assert!(is_must(&f, random[0].0), "the whole array is overwritten");
    // SRAND reads its seed, and being no call, leaves the COMMON alone.
    assert_eq!(
        kinds_vars(&f, at_line(&f, "call", 10)),
        [("use", "SEED".into())]
    );
    // MVBITS reads FROM and updates TO (a may-definition).
    let mv = refs(&f, at_line(&f, "call", 11));
    let names: Vec<(&str, &str)> = mv.iter().map(|(_, k, n)| (*k, n.as_str())).collect();
    assert_eq!(names, [("use", "FROM"), ("use", "TO"), ("def", "TO")]);
    assert!(!is_must(&f, mv[2].0));
    assert!(refs(&f, at_line(&f, "call", 12)).is_empty());
    // ETIME sets two elements of its argument: a definition that may not
    // cover it all, and no use.
    let et = refs(&f, at_line(&f, "assign", 13));
    let names: Vec<(&str, &str)> = et.iter().map(|(_, k, n)| (*k, n.as_str())).collect();
    assert_eq!(names, [("def", "ET"), ("def", "E")]);
    assert!(!is_must(&f, et[0].0));
}

#[test]
fn a_name_is_an_intrinsic_only_in_the_form_it_has() {
    // ABS is no intrinsic subroutine and CPU_TIME no intrinsic function:
    // both are external procedures here, as for gfortran.
    let f = facts(
        "t.f",
        "      PROGRAM T
      REAL X, TM
      CALL ABS(X)
      X = CPU_TIME(TM)
      END
",
    );
    let callees: Vec<&str> = f.call.iter().map(|c| c.callee.as_str()).collect();
    assert_eq!(callees, ["ABS", "CPU_TIME"]);
}

#[test]
fn a_wrong_number_of_arguments_is_an_error_at_the_name() {
    let (_, diags) = lower_src(
        "t.f",
        "      PROGRAM T
      CHARACTER*8 S
      I = MOD(3)
      X = MAX(1.0)
      CALL GETARG(1)
      N = IARGC(1)
      END
",
    );
    let at: Vec<(u32, u32, String)> = diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| (d.line, d.col, d.message.clone()))
        .collect();
    assert_eq!(
        at,
        [
            (3, 11, "intrinsic `MOD` takes 2 arguments, not 1".into()),
            (
                4,
                11,
                "intrinsic `MAX` takes at least 2 arguments, not 1".into()
            ),
            (5, 12, "intrinsic `GETARG` takes 2 arguments, not 1".into()),
            (6, 11, "intrinsic `IARGC` takes no arguments, not 1".into()),
        ]
    );
}

#[test]
fn an_unknown_function_under_implicit_none_stays_an_error() {
    let (_, diags) = lower_src(
        "t.f90",
        "program t
  implicit none
  double precision :: x
  integer :: i
  i = 2
  x = dble(i) + dfloat(i) + notintrinsic(i)
end program t
",
    );
    assert_eq!(
        errors(&diags),
        ["function `NOTINTRINSIC` has no type (IMPLICIT NONE is in effect)"]
    );
}

#[test]
fn a_type_statement_types_the_intrinsic_without_making_a_variable() {
    let f = facts(
        "t.f",
        "      PROGRAM T
      INTEGER IARGC, N
      DOUBLE PRECISION DSQRT, X
      N = IARGC()
      X = DSQRT(2.0D0)
      END
",
    );
    let vars: Vec<&str> = f.var.iter().map(|v| v.var.as_str()).collect();
    assert_eq!(vars, ["N", "X"]);
    assert!(f.call.is_empty());
}

#[test]
fn results_have_the_intrinsics_types_when_folded() {
    let f = facts(
        "t.f",
        "      PROGRAM T
      INTEGER N, M, MASK
      DOUBLE PRECISION H
      REAL A(300)
      PARAMETER (N = 3, H = DFLOAT(N) / 2, M = INT(7.9) / 2)
      PARAMETER (MASK = IOR(ISHFT(IAND(255, 15), 4), 3))
      A(IEOR(MASK, 1)) = 0.0
      END
",
    );
    let params: Vec<(&str, &str)> = f
        .param
        .iter()
        .map(|p| (p.name.as_str(), p.value.as_str()))
        .collect();
    assert_eq!(
        params,
        [("H", "1.5"), ("M", "3"), ("MASK", "243"), ("N", "3")]
    );
    let s = at_line(&f, "assign", 7);
    let def = refs(&f, s)[0].0;
    assert_eq!(subscripts(&f, def), vec![Some((242, vec![], vec![]))]);
}

#[test]
fn an_intrinsic_declaration_of_an_unknown_name_is_an_error() {
    let (_, diags) = lower_src(
        "t.f",
        "      PROGRAM T
      INTRINSIC SQRT, NOSUCHFN
      END
",
    );
    let e: Vec<(u32, u32, String)> = diags
        .iter()
        .map(|d| (d.line, d.col, d.message.clone()))
        .collect();
    assert_eq!(
        e,
        [(
            2,
            23,
            "`NOSUCHFN` is declared INTRINSIC but is not an intrinsic procedure".into()
        )]
    );
}
