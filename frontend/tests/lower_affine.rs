//! Affine forms of subscripts and integer assignments (Ishida & Kanada's
//! examples).

mod common;
use common::*;

/// The forms of the subscripts of the reference to `array` in the statement on `line`.
fn subs_at(f: &kaiseki_facts::FactBase, line: i64, array: &str) -> Vec<Option<FormRows>> {
    let s = f
        .stmt
        .iter()
        .find(|s| s.line == line && s.kind == "assign")
        .expect("assign")
        .stmt;
    let r = refs(f, s)
        .into_iter()
        .find(|(_, _, v)| v == array)
        .expect("ref")
        .0;
    subscripts(f, r)
}

fn vars(v: &[(&str, i64)]) -> Vec<(String, i64)> {
    v.iter().map(|&(n, c)| (n.to_string(), c)).collect()
}

#[test]
fn ishida_fig1_subscripts_in_induction_variables() {
    let f = example_facts("ishida_fig1.f");
    assert_eq!(
        subs_at(&f, 9, "A"),
        vec![Some((0, vec![], vars(&[("J", 1)])))]
    );
    assert_eq!(
        subs_at(&f, 14, "A"),
        vec![Some((0, vec![], vars(&[("M", 1)])))]
    );
    assert_eq!(
        subs_at(&f, 16, "A"),
        vec![Some((0, vec![], vars(&[("I", 3), ("J", 1)])))]
    );
}

/// `M = 2*J` right before `A(M) = 2.0`: the subscript is M as written,
/// and `2*J` with M's value put in (`subscript_value`); `I = I + 1` before
/// `A(3*I+J)` names I on both sides, so it keeps no value.
#[test]
fn values_of_the_same_straight_run_are_put_in_subscripts() {
    let f = example_facts("ishida_fig1.f");
    let s = f
        .stmt
        .iter()
        .find(|s| s.line == 14 && s.kind == "assign")
        .expect("assign")
        .stmt;
    let r = refs(&f, s)
        .into_iter()
        .find(|(_, _, v)| v == "A")
        .expect("ref")
        .0;
    let valued: Vec<FormRows> = f
        .subscript_value
        .iter()
        .filter(|v| v.r#ref == r)
        .map(|v| form(&f, v.form))
        .collect();
    assert_eq!(valued, vec![(0, vec![], vars(&[("J", 2)]))]);
    let lines: Vec<i64> = f
        .subscript_value
        .iter()
        .filter_map(|v| {
            let stmt = f
                .def
                .iter()
                .map(|d| (d.r#ref, d.stmt))
                .chain(f.r#use.iter().map(|u| (u.r#ref, u.stmt)))
                .find(|(r, _)| *r == v.r#ref)?
                .1;
            f.stmt.iter().find(|s| s.stmt == stmt).map(|s| s.line)
        })
        .collect();
    assert_eq!(lines, vec![14], "only A(M) reads a value");
}

#[test]
fn ishida_fig1_integer_assignments_are_affine() {
    let f = example_facts("ishida_fig1.f");
    let mut got: Vec<(i64, FormRows)> = f
        .assign_affine
        .iter()
        .map(|a| {
            let line = f.stmt.iter().find(|s| s.stmt == a.stmt).expect("stmt").line;
            (line, form(&f, a.form))
        })
        .collect();
    got.sort();
    assert_eq!(
        got,
        vec![
            (6, (10, vec![], vec![])),
            (7, (0, vec![], vec![])),
            (10, (1, vec![], vars(&[("J", 1)]))),
            (11, (0, vec![], vars(&[("J", 1)]))),
            (13, (0, vec![], vars(&[("J", 2)]))),
            (15, (1, vec![], vars(&[("I", 1)]))),
            (18, (3, vec![], vars(&[("J", 1)]))),
        ]
    );
}

#[test]
fn ishida_fig5_subscripts_in_loop_variables() {
    let f = example_facts("ishida_fig5.f");
    let (g1, g2, g3) = (loop_at(&f, 11), loop_at(&f, 12), loop_at(&f, 14));
    assert_eq!(
        subs_at(&f, 13, "A"),
        vec![Some((-5, vec![(g1, 1), (g2, 3)], vec![]))]
    );
    assert_eq!(
        subs_at(&f, 15, "A"),
        vec![Some((5, vec![(g1, -1), (g3, -4)], vec![]))]
    );
}

#[test]
fn non_affine_subscripts_keep_their_text() {
    let f = facts(
        "t.f90",
        "program t
  integer :: i, j, idx(10)
  real :: a(100), x
  do i = 1, 10
    do j = 1, 10
      a(i*j) = a(idx(i)) + a(int(x)) + a((i+1)/2)
    end do
  end do
end program t
",
    );
    let mut texts: Vec<&str> = f
        .subscript_nonaffine
        .iter()
        .map(|s| s.text.as_str())
        .collect();
    texts.sort();
    assert_eq!(texts, ["(I+1)/2", "I*J", "IDX(I)", "INT(X)"]);
    // IDX(I)'s own subscript is affine.
    assert_eq!(f.subscript.len(), 1);
}

#[test]
fn products_distribute_over_loop_and_scalar_terms() {
    let f = facts(
        "t.f90",
        "program t
  integer :: i, k
  real :: a(100)
  read *, k
  do i = 1, 10
    a(2*(i+k)) = 0.0
  end do
end program t
",
    );
    let l = loop_at(&f, 5);
    assert_eq!(
        subs_at(&f, 6, "A"),
        vec![Some((0, vec![(l, 2)], vars(&[("K", 2)])))]
    );
}
