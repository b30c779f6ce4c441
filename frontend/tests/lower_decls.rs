//! Lowering of declarations: types (explicit, implicit, IMPLICIT NONE),
//! arrays, PARAMETERs, COMMON, EQUIVALENCE, SAVE, DATA, EXTERNAL.

mod common;
use common::*;

fn var_rows(f: &kaiseki_facts::FactBase) -> Vec<(String, String, i64)> {
    f.var
        .iter()
        .map(|v| (v.var.clone(), v.r#type.clone(), v.rank))
        .collect()
}

#[test]
fn implicit_types_and_declared_types() {
    let f = facts(
        "t.f",
        "      SUBROUTINE S(X, N)
      IMPLICIT DOUBLE PRECISION (D)
      INTEGER Q(0:N, 5)
      LOGICAL FLAG
      FLAG = .TRUE.
      K = N
      D1 = X
      Q(0, 1) = K
      END
",
    );
    let expect = [
        ("D1", "double", 0),
        ("FLAG", "logical", 0),
        ("K", "integer", 0),
        ("N", "integer", 0),
        ("Q", "integer", 2),
        ("X", "real", 0),
    ];
    let expect: Vec<(String, String, i64)> = expect
        .iter()
        .map(|&(a, b, c)| (a.into(), b.into(), c))
        .collect();
    assert_eq!(var_rows(&f), expect);
    let dims: Vec<(i64, &str, &str)> = f
        .array_dim
        .iter()
        .map(|d| (d.dim, d.lower.as_str(), d.upper.as_str()))
        .collect();
    assert_eq!(dims, [(1, "0", "N"), (2, "1", "5")]);
    let args: Vec<(i64, &str)> = f
        .dummy_arg
        .iter()
        .map(|a| (a.pos, a.var.as_str()))
        .collect();
    assert_eq!(args, [(1, "X"), (2, "N")]);
    let u = &f.unit[0];
    assert_eq!(
        (u.unit.as_str(), u.kind.as_str(), u.file.as_str(), u.line),
        ("S", "subroutine", "t.f", 1)
    );
}

#[test]
fn implicit_none_makes_undeclared_names_errors() {
    let (f, diags) = lower_src(
        "t.f90",
        "program t
  implicit none
  integer :: i
  i = 1
  x = i
end program t
",
    );
    assert_eq!(
        errors(&diags),
        vec!["`X` has no type (IMPLICIT NONE is in effect)".to_string()]
    );
    let d = diags.iter().find(|d| d.is_error()).expect("error");
    assert_eq!((d.line, d.col), (5, 3));
    assert_eq!(f.var.len(), 2, "lowering goes on");
}

#[test]
fn parameters_fold_in_order_and_non_constants_are_errors() {
    let (f, diags) = lower_src(
        "t.f",
        "      PROGRAM T
      INTEGER N, M, K
      REAL PI, H
      PARAMETER (N = 100, M = 2*N, PI = 3.5, H = PI/2)
      PARAMETER (K = N/3 + MOD(7, 4))
      READ *, I
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
        [
            ("H", "1.75"),
            ("K", "36"),
            ("M", "200"),
            ("N", "100"),
            ("PI", "3.5")
        ]
    );
    assert!(errors(&diags).is_empty());
    assert!(
        !f.var.iter().any(|v| v.var == "N"),
        "a PARAMETER is not a variable"
    );

    let (_, diags) = lower_src(
        "t.f",
        "      PROGRAM T
      INTEGER N, J
      PARAMETER (N = J + 1)
      END
",
    );
    assert_eq!(
        errors(&diags),
        vec!["PARAMETER `N` is not a constant expression".to_string()]
    );
}

#[test]
fn common_equivalence_save_data_external() {
    let f = facts(
        "t.f",
        "      SUBROUTINE S(P)
      REAL A(10), B, C, P, W
      INTEGER I
      COMMON /BLK/ A, B
      COMMON C
      COMMON /BLK/ I
      EQUIVALENCE (B, W)
      EXTERNAL G
      INTRINSIC SQRT
      DATA W /1.0/
      SAVE
      CALL G(SQRT)
      END
",
    );
    let common: Vec<(&str, &str, i64)> = f
        .common
        .iter()
        .map(|c| (c.block.as_str(), c.var.as_str(), c.pos))
        .collect();
    assert_eq!(
        common,
        [
            ("//", "C", 1),
            ("BLK", "A", 1),
            ("BLK", "B", 2),
            ("BLK", "I", 3)
        ]
    );
    let eq: Vec<(i64, &str)> = f
        .equivalence
        .iter()
        .map(|e| (e.group, e.var.as_str()))
        .collect();
    assert_eq!(eq, [(1, "B"), (1, "W")]);
    let ext: Vec<(&str, &str)> = f
        .external
        .iter()
        .map(|e| (e.name.as_str(), e.kind.as_str()))
        .collect();
    assert_eq!(ext, [("G", "external"), ("SQRT", "intrinsic")]);
    let data: Vec<&str> = f.data_init.iter().map(|d| d.var.as_str()).collect();
    assert_eq!(data, ["W"]);
    // an empty SAVE saves every local variable: not dummies, not COMMON members
    let saved: Vec<&str> = f.saved.iter().map(|s| s.var.as_str()).collect();
    assert_eq!(saved, ["W"]);
    // G and SQRT are procedures, not variables; the call passes no variable
    // but G may read and write every COMMON variable: a use and a
    // may-definition of each, where G stands
    let uses: Vec<(String, i64, i64)> = f
        .r#use
        .iter()
        .map(|u| {
            let p = f.ref_pos.iter().find(|p| p.r#ref == u.r#ref).unwrap();
            (u.var.clone(), p.line, p.col)
        })
        .collect();
    let defs: Vec<String> = f.def.iter().map(|d| d.var.clone()).collect();
    let expected: Vec<(String, i64, i64)> = ["A", "B", "C", "I"]
        .iter()
        .map(|v| (v.to_string(), 12, 12))
        .collect();
    assert_eq!(uses, expected);
    assert_eq!(defs, ["A", "B", "C", "I"]);
    assert!(
        f.must_def.is_empty(),
        "a call's hidden definitions are may-definitions"
    );
    assert_eq!(
        f.whole_array_ref.len(),
        2,
        "A is an array: its use and definition"
    );
    let vars: Vec<&str> = f.var.iter().map(|v| v.var.as_str()).collect();
    assert_eq!(vars, ["A", "B", "C", "I", "P", "W"]);
}

#[test]
fn function_result_is_a_variable_of_the_function() {
    let f = facts(
        "f.f90",
        "real function twice(x)
  real :: x
  twice = 2.0 * x
end function twice
",
    );
    let vars: Vec<(&str, &str)> = f
        .var
        .iter()
        .map(|v| (v.var.as_str(), v.r#type.as_str()))
        .collect();
    assert_eq!(vars, [("TWICE", "real"), ("X", "real")]);
    assert_eq!(f.unit[0].kind, "function");
}

#[test]
fn a_name_used_as_scalar_and_as_function_is_an_error() {
    let (_, diags) = lower_src(
        "t.f",
        "      PROGRAM T
      X = 1.0
      Y = X(2)
      END
",
    );
    assert_eq!(
        errors(&diags),
        vec![
            "`X` is used both as a variable and as a function (it is not declared as an array)"
                .to_string()
        ]
    );
}

#[test]
fn wrong_number_of_subscripts_is_an_error() {
    let (_, diags) = lower_src(
        "t.f",
        "      PROGRAM T
      REAL A(10, 10)
      A(1) = 0.0
      END
",
    );
    assert_eq!(
        errors(&diags),
        vec!["`A` has rank 2 but is referenced with 1 subscript(s)".to_string()]
    );
}

#[test]
fn initialized_declarations_are_data_and_saved() {
    let f = facts(
        "t.f90",
        "subroutine s()
  integer :: k = 5, m
  m = k
end subroutine s
",
    );
    let data: Vec<&str> = f.data_init.iter().map(|d| d.var.as_str()).collect();
    assert_eq!(data, ["K"]);
    let saved: Vec<&str> = f.saved.iter().map(|d| d.var.as_str()).collect();
    assert_eq!(saved, ["K"]);
}
