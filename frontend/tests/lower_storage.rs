//! Lowering of storage association: the `storage` layout of EQUIVALENCE
//! sets and the COMMON members they overlap, and the `storage_ref` /
//! `storage_address` of references to names that share storage.

mod common;
use common::*;
use kaiseki_facts::FactBase;

/// (var, object, offset) rows of the `storage` relation.
fn layout(f: &FactBase) -> Vec<(String, String, i64)> {
    f.storage
        .iter()
        .map(|s| (s.var.clone(), s.object.clone(), s.offset))
        .collect()
}

fn rows(expect: &[(&str, &str, i64)]) -> Vec<(String, String, i64)> {
    expect
        .iter()
        .map(|&(v, o, n)| (v.to_string(), o.to_string(), n))
        .collect()
}

/// The reference to `var` at `line:col`.
fn ref_at(f: &FactBase, line: i64, col: i64) -> i64 {
    f.ref_pos
        .iter()
        .find(|p| p.line == line && p.col == col)
        .unwrap_or_else(|| panic!("no reference at {line}:{col}"))
        .r#ref
}

/// The element number a reference touches in its storage object.
fn address(f: &FactBase, r: i64) -> Option<FormRows> {
    f.storage_address
        .iter()
        .find(|a| a.r#ref == r)
        .map(|a| form(f, a.form))
}

fn object_of(f: &FactBase, r: i64) -> Option<String> {
    f.storage_ref
        .iter()
        .find(|s| s.r#ref == r)
        .map(|s| s.object.clone())
}

#[test]
fn equivalence_offsets_place_names_in_one_object() {
    let f = facts(
        "t.f",
        "      PROGRAM EQ
      REAL X(100), Y(100), ARR(200)
      EQUIVALENCE (X(1), Y(1)), (X(1), ARR(5))
      DO 10 I = 1, 99
        X(I) = Y(I+1) + ARR(I+8)
   10 CONTINUE
      END
",
    );
    let obj = "ARR=X=Y";
    assert_eq!(
        layout(&f),
        rows(&[("ARR", obj, 0), ("X", obj, 16), ("Y", obj, 16)])
    );
    let l = loop_at(&f, 4);
    // X(I) is element 4 + (I - 1), Y(I+1) 4 + I, ARR(I+8) I + 7.
    for (col, constant) in [(9, 3), (16, 4), (25, 7)] {
        let r = ref_at(&f, 5, col);
        assert_eq!(object_of(&f, r).as_deref(), Some(obj));
        assert_eq!(address(&f, r), Some((constant, vec![(l, 1)], vec![])));
    }
}

#[test]
fn chains_scalars_and_column_major_arrays() {
    let f = facts(
        "t.f",
        "      SUBROUTINE S
      REAL A(10), B(10), C(4), M(4,5), V(20), S1, ARR(8)
      EQUIVALENCE (A, B), (B(3), C)
      EQUIVALENCE (M(2,1), V(1))
      EQUIVALENCE (S1, ARR(2))
      M(I, J) = V(K) + S1
      END
",
    );
    assert_eq!(
        layout(&f),
        rows(&[
            ("A", "A=B=C", 0),
            ("ARR", "ARR=S1", 0),
            ("B", "A=B=C", 0),
            ("C", "A=B=C", 8),
            ("M", "M=V", 0),
            ("S1", "ARR=S1", 4),
            ("V", "M=V", 4),
        ])
    );
    // M(I, J): (I - 1) + 4 (J - 1); V(K): 1 + (K - 1); S1: element 1 of ARR=S1.
    let (i, j, k) = ("I".to_string(), "J".to_string(), "K".to_string());
    assert_eq!(
        address(&f, ref_at(&f, 6, 7)),
        Some((-5, vec![], vec![(i, 1), (j, 4)]))
    );
    assert_eq!(
        address(&f, ref_at(&f, 6, 17)),
        Some((0, vec![], vec![(k, 1)]))
    );
    assert_eq!(address(&f, ref_at(&f, 6, 24)), Some((1, vec![], vec![])));
}

#[test]
fn elements_of_different_sizes_share_storage_without_addresses() {
    let f = facts(
        "t.f",
        "      PROGRAM P
      DOUBLE PRECISION D(5)
      REAL R(10)
      INTEGER*8 K8(5)
      INTEGER I4(10)
      EQUIVALENCE (D(1), R(2)), (K8(2), I4(1))
      D(1) = R(3)
      END
",
    );
    assert_eq!(
        layout(&f),
        rows(&[
            ("D", "R=D", 4),
            ("I4", "K8=I4", 8),
            ("K8", "K8=I4", 0),
            ("R", "R=D", 0),
        ])
    );
    let (d, r) = (ref_at(&f, 7, 7), ref_at(&f, 7, 14));
    assert_eq!(object_of(&f, d).as_deref(), Some("R=D"));
    assert_eq!(object_of(&f, r).as_deref(), Some("R=D"));
    assert_eq!((address(&f, d), address(&f, r)), (None, None));
}

#[test]
fn equivalence_extends_over_the_common_members_it_overlaps() {
    let f = facts(
        "t.f",
        "      SUBROUTINE S
      COMMON /B/ A(10), P, Q(5)
      COMMON /C/ W(3)
      REAL Z(4), SHORT(2)
      COMMON /D/ E(10), F
      EQUIVALENCE (A(9), Z(1)), (E(9), SHORT(1))
      P = 1.0
      F = 2.0
      END
",
    );
    // Z covers A(9), A(10), P and Q(1); SHORT only E(9), E(10): F and W share nothing.
    assert_eq!(
        layout(&f),
        rows(&[
            ("A", "A=Z=P=Q", 0),
            ("E", "E=SHORT", 0),
            ("P", "A=Z=P=Q", 40),
            ("Q", "A=Z=P=Q", 44),
            ("SHORT", "E=SHORT", 32),
            ("Z", "A=Z=P=Q", 32),
        ])
    );
    let p = ref_at(&f, 7, 7);
    let fr = ref_at(&f, 8, 7);
    let must: Vec<i64> = f.must_def.iter().map(|m| m.r#ref).collect();
    assert!(
        !must.contains(&p),
        "P shares storage with Z: not a certain definition"
    );
    assert!(must.contains(&fr), "F shares storage with nothing");
}

#[test]
fn unknown_places_still_share_storage() {
    let f = facts(
        "t.f",
        "      SUBROUTINE S(K)
      REAL A(10), B(10)
      CHARACTER*8 C
      INTEGER I2(2)
      EQUIVALENCE (A(K), B(1)), (C, I2)
      A(1) = B(2)
      END
",
    );
    assert_eq!(
        layout(&f),
        rows(&[
            ("A", "A=B", -1),
            ("B", "A=B", -1),
            ("C", "C=I2", 0),
            ("I2", "C=I2", 0),
        ])
    );
    let (a, b) = (ref_at(&f, 6, 7), ref_at(&f, 6, 14));
    assert_eq!(object_of(&f, a).as_deref(), Some("A=B"));
    assert_eq!((address(&f, a), address(&f, b)), (None, None));
}

#[test]
fn references_to_one_object_chain_in_a_block() {
    let f = facts(
        "t.f",
        "      PROGRAM P
      REAL X(10), Y(10)
      EQUIVALENCE (X(2), Y(1))
      X(3) = 1.0
      Z = Y(2)
      END
",
    );
    let (x, y) = (ref_at(&f, 4, 7), ref_at(&f, 5, 11));
    assert!(
        f.ref_next.iter().any(|n| n.r#ref == x && n.next == y),
        "the store through X is followed by the load through Y in the block"
    );
}

#[test]
fn contradictory_equivalences_are_errors() {
    let (_, diags) = lower_src(
        "t.f",
        "      PROGRAM P
      REAL A(10), B(10)
      EQUIVALENCE (A(1), B(1)), (A(2), B(1))
      END
",
    );
    assert_eq!(
        errors(&diags),
        vec!["EQUIVALENCE of `B` contradicts an earlier one: the names cannot all be placed"]
    );
}
