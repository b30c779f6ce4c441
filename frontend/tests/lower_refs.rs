//! Lowering of references: evaluation order inside a statement, array
//! references, whole arrays, calls and I/O.

mod common;
use common::*;

fn v(rows: &[(i64, &'static str, &str)]) -> Vec<(i64, &'static str, String)> {
    rows.iter()
        .map(|&(r, k, n)| (r, k, n.to_string()))
        .collect()
}

#[test]
fn x_equals_x_plus_one_uses_before_it_defines() {
    let f = facts(
        "t.f",
        "      PROGRAM T
      X = 0.0
      X = X + 1
      END
",
    );
    assert_eq!(refs(&f, 2), v(&[(2, "use", "X"), (3, "def", "X")]));
    let pos: Vec<(i64, i64, i64)> = f.ref_pos.iter().map(|p| (p.r#ref, p.line, p.col)).collect();
    assert_eq!(pos, vec![(1, 2, 7), (2, 3, 11), (3, 3, 7)]);
    let must: Vec<i64> = f.must_def.iter().map(|m| m.r#ref).collect();
    assert_eq!(must, vec![1, 3]);
    let next: Vec<(i64, i64)> = f.ref_next.iter().map(|n| (n.r#ref, n.next)).collect();
    assert_eq!(next, vec![(1, 2), (2, 3)]);
}

#[test]
fn right_side_then_left_subscripts_then_the_element_definition() {
    let f = facts(
        "t.f90",
        "program t
  real :: a(10), b(10), x
  integer :: i, j
  read *, i
  read *, j
  x = 3.0
  a(i) = b(j) + x
end program t
",
    );
    let s = at_line(&f, "assign", 7);
    let r = refs(&f, s);
    let names: Vec<(&str, &str)> = r.iter().map(|(_, k, n)| (*k, n.as_str())).collect();
    assert_eq!(
        names,
        [
            ("use", "B"),
            ("use", "J"),
            ("use", "X"),
            ("use", "I"),
            ("def", "A")
        ]
    );
    let (b, a) = (r[0].0, r[4].0);
    assert_eq!(
        subscripts(&f, b),
        vec![Some((0, vec![], vec![("J".to_string(), 1)]))]
    );
    assert_eq!(
        subscripts(&f, a),
        vec![Some((0, vec![], vec![("I".to_string(), 1)]))]
    );
    assert!(
        !f.must_def.iter().any(|m| m.r#ref == a),
        "an element is a may-definition"
    );
}

#[test]
fn call_arguments_are_passed_by_reference() {
    let f = facts(
        "t.f90",
        "program t
  real :: a(10), x, y
  integer :: i
  i = 1
  x = 1.0
  y = 2.0
  call s(x, a(i), 2*y, a)
end program t
",
    );
    let s = nth(&f, "call", 0);
    let r = refs(&f, s);
    let names: Vec<(&str, &str)> = r.iter().map(|(_, k, n)| (*k, n.as_str())).collect();
    assert_eq!(
        names,
        [
            ("use", "X"),
            ("use", "A"),
            ("use", "I"),
            ("use", "Y"),
            ("use", "A"),
            ("def", "X"),
            ("def", "A"),
            ("def", "A")
        ]
    );
    let whole: Vec<i64> = f.whole_array_ref.iter().map(|w| w.r#ref).collect();
    assert_eq!(whole, vec![r[4].0, r[7].0]);
    let elems: Vec<i64> = f.array_ref.iter().map(|a| a.r#ref).collect();
    assert_eq!(elems, vec![r[1].0, r[6].0]);
    assert_eq!(f.call.len(), 1);
    assert_eq!((f.call[0].stmt, f.call[0].callee.as_str()), (s, "S"));
    assert!(f.must_def.iter().all(|m| !r.iter().any(|x| x.0 == m.r#ref)));
}

#[test]
fn intrinsics_only_read_and_external_functions_are_calls() {
    let f = facts(
        "t.f90",
        "program t
  real :: x(10), xmax, y, f
  integer :: i
  i = 3
  xmax = max(xmax, x(i)) + sum(x)
  y = f(xmax)
end program t
",
    );
    let s = at_line(&f, "assign", 5);
    let names: Vec<(&str, String)> = refs(&f, s).into_iter().map(|(_, k, n)| (k, n)).collect();
    assert_eq!(
        names,
        [
            ("use", "XMAX".into()),
            ("use", "X".into()),
            ("use", "I".into()),
            ("use", "X".into()),
            ("def", "XMAX".into())
        ]
    );
    assert_eq!(f.whole_array_ref.len(), 1, "SUM(X) reads the whole array");
    let s2 = at_line(&f, "assign", 6);
    let names: Vec<(&str, String)> = refs(&f, s2).into_iter().map(|(_, k, n)| (k, n)).collect();
    assert_eq!(
        names,
        [
            ("use", "XMAX".into()),
            ("def", "XMAX".into()),
            ("def", "Y".into())
        ]
    );
    let calls: Vec<(i64, &str)> = f.call.iter().map(|c| (c.stmt, c.callee.as_str())).collect();
    assert_eq!(calls, vec![(s2, "F")]);
    assert!(
        !f.var.iter().any(|v| v.var == "F"),
        "a function is not a variable"
    );
}

#[test]
fn array_sections_reference_the_whole_array() {
    let f = facts(
        "t.f90",
        "program t
  real :: a(100)
  integer :: n
  n = 10
  call s(a(1:n))
end program t
",
    );
    let s = nth(&f, "call", 0);
    let names: Vec<(&str, String)> = refs(&f, s).into_iter().map(|(_, k, n)| (k, n)).collect();
    assert_eq!(
        names,
        [
            ("use", "A".into()),
            ("use", "N".into()),
            ("def", "A".into())
        ]
    );
    assert_eq!(f.whole_array_ref.len(), 2);
    assert!(f.array_ref.is_empty());
}

#[test]
fn do_variable_is_defined_by_the_do_and_incremented_by_the_enddo() {
    let f = facts(
        "t.f90",
        "program t
  integer :: i, n
  n = 5
  do i = 1, n
  end do
end program t
",
    );
    let (d, e) = (nth(&f, "do", 0), nth(&f, "enddo", 0));
    assert_eq!(refs(&f, d), v(&[(2, "use", "N"), (3, "def", "I")]));
    assert_eq!(refs(&f, e), v(&[(4, "use", "I"), (5, "def", "I")]));
    let pos: Vec<(i64, i64, i64)> = f
        .ref_pos
        .iter()
        .filter(|p| p.r#ref >= 3)
        .map(|p| (p.r#ref, p.line, p.col))
        .collect();
    assert_eq!(pos, vec![(3, 4, 6), (4, 4, 6), (5, 4, 6)]);
    let must: Vec<i64> = f.must_def.iter().map(|m| m.r#ref).collect();
    assert_eq!(must, vec![1, 3, 5]);
}

#[test]
fn read_items_are_definitions_and_print_items_uses() {
    let f = facts(
        "t.f90",
        "program t
  integer :: n
  real :: a(10)
  read (*,*) n
  print *, n, a
end program t
",
    );
    let (r, p) = (nth(&f, "read", 0), nth(&f, "print", 0));
    assert_eq!(refs(&f, r), v(&[(1, "def", "N")]));
    assert_eq!(refs(&f, p), v(&[(2, "use", "N"), (3, "use", "A")]));
    let io: Vec<(i64, &str)> = f.io.iter().map(|i| (i.stmt, i.kind.as_str())).collect();
    assert_eq!(io, vec![(r, "read"), (p, "print")]);
    assert_eq!(f.must_def.len(), 1);
}

#[test]
fn parameters_are_folded_not_referenced() {
    let f = facts(
        "t.f",
        "      PROGRAM T
      INTEGER N, I
      PARAMETER (N = 8)
      REAL A(N)
      I = N + 1
      A(N-1) = 0.0
      END
",
    );
    assert!(!f.r#use.iter().any(|u| u.var == "N"));
    let s = at_line(&f, "assign", 6);
    let a = refs(&f, s)[0].0;
    assert_eq!(subscripts(&f, a), vec![Some((7, vec![], vec![]))]);
    let aa: Vec<(i64, i64)> = f
        .assign_affine
        .iter()
        .map(|a| (a.stmt, form(&f, a.form).0))
        .collect();
    assert_eq!(aa, vec![(at_line(&f, "assign", 5), 9)]);
}

#[test]
fn statement_functions_read_what_their_body_reads() {
    let f = facts(
        "t.f",
        "      PROGRAM T
      REAL C, X, Y
      F(Z) = Z + C
      C = 2.0
      X = 1.0
      Y = F(X)
      END
",
    );
    assert_eq!(f.stmt[1].kind, "decl", "the definition is not executable");
    let s = at_line(&f, "assign", 6);
    let names: Vec<(&str, String)> = refs(&f, s).into_iter().map(|(_, k, n)| (k, n)).collect();
    assert_eq!(
        names,
        [
            ("use", "X".into()),
            ("use", "C".into()),
            ("def", "Y".into())
        ]
    );
    assert!(f.call.is_empty());
}
