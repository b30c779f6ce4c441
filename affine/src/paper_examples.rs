//! The worked examples of Ishida & Kanada (figs. 3-5), with the verdicts of
//! /work/shared/examples/EXPECTED.md, built from the normal forms the paper
//! gives (the frontend's normalization is tested elsewhere).
//! Each example is checked twice: with the programs' constant N (20 in
//! ishida_fig3.f, 30 in ishida_fig4.f) and with N a symbol.

use super::normal_form::normalize_do;
use super::*;

fn form(constant: i64, coeffs: &[i64]) -> Subscript {
    Subscript::Affine(NormalForm::new(constant, coeffs))
}

fn reference(subscripts: Vec<Subscript>, loops: &[LoopBound]) -> RefInfo {
    RefInfo {
        subscripts,
        loops: loops.to_vec(),
        guards: Vec::new(),
    }
}

/// `DO var = 1, N` as a bound: N constant, or the symbol N (>= 1 or free).
fn one_to_n(n: Option<i64>) -> LoopBound {
    match n {
        Some(n) => LoopBound::trip(n),
        None => LoopBound::Span {
            scale: 1,
            span: NormalForm::new(-1, &[]).with_symbol("N", 1),
        },
    }
}

fn no_symbols() -> SymbolRanges {
    SymbolRanges::new()
}

const BOTH_NS: [Option<i64>; 2] = [Some(20), None];

#[test]
fn fig3_loop10_u1_v1_exactly_coincide_one_iteration_later() {
    for n in BOTH_NS {
        // U1 = A(I) = 1 + Ig1, V1 = A(I-1) = Ig1.
        let u1 = reference(vec![form(1, &[1])], &[one_to_n(n)]);
        let v1 = reference(vec![form(0, &[1])], &[one_to_n(n)]);
        let pair = Pair::new(&u1, &v1, 1, &no_symbols()).unwrap();
        assert_eq!(
            pair.coincidence(0, 1, Property::ExactCoincidence),
            Ok(Verdict::Holds(Rule::Coefficient1))
        );
        assert_eq!(
            pair.coincidence(0, 0, Property::PossibleCoincidence),
            Ok(Verdict::DoesNotHold(Rule::Coefficient2_1 { dim: 0 }))
        );
        assert_eq!(
            pair.coincidence(0, 2, Property::PossibleCoincidenceOrMore),
            Ok(Verdict::DoesNotHold(Rule::Coefficient3_2 { dim: 0 }))
        );
        // One flow dependence of distance 1; certain when N is known (20 >= 2).
        assert_eq!(
            pair.dependence_vectors(),
            vec![DepVector {
                directions: vec![Dir::Lt],
                distances: vec![Some(1)],
                exact: n.is_some(),
            }]
        );
    }
}

#[test]
fn fig3_loop20_u2_v2_possibly_coincide_in_the_same_iteration_only() {
    for n in BOTH_NS {
        // U2 = A(I) = 1 + Ig2 in loop 20; V2 = A(I+J-1) = 1 + Ig2 + Ij in loops 20, J.
        let u2 = reference(vec![form(1, &[1])], &[one_to_n(n)]);
        let v2 = reference(vec![form(1, &[1, 1])], &[one_to_n(n), one_to_n(n)]);
        let pair = Pair::new(&u2, &v2, 1, &no_symbols()).unwrap();
        // Rule (1) fails (V's inner coefficient is 1); the exact test finds J = 2.
        assert_eq!(
            pair.coincidence(0, 0, Property::ExactCoincidence),
            Ok(Verdict::DoesNotHold(Rule::Exact))
        );
        assert_eq!(
            pair.coincidence(0, 0, Property::PossibleCoincidence),
            Ok(Verdict::Holds(Rule::Exact))
        );
        // They meet only when J = 1: not every instance of V2, so not exact.
        assert_eq!(
            pair.dependence_vectors(),
            vec![DepVector {
                directions: vec![Dir::Eq],
                distances: vec![Some(0)],
                exact: false,
            }]
        );
        // V2 then U2: V reads A(I+J-1) before U writes it, J-1 iterations later.
        let back = Pair::new(&v2, &u2, 1, &no_symbols()).unwrap();
        let vectors = back.dependence_vectors();
        assert_eq!(vectors.len(), 2);
        assert!(vectors
            .iter()
            .any(|v| v.directions == [Dir::Lt] && v.distances == [None]));
        assert!(vectors.iter().any(|v| v.is_loop_independent()));
    }
}

#[test]
fn fig3_loop30_u3_v3_never_coincide_zero_or_more_iterations_later() {
    for n in BOTH_NS {
        // U3 = A(I) = 1 + Ig3; V3 = A(I+J) = 2 + Ig3 + Ij.
        let u3 = reference(vec![form(1, &[1])], &[one_to_n(n)]);
        let v3 = reference(vec![form(2, &[1, 1])], &[one_to_n(n), one_to_n(n)]);
        let pair = Pair::new(&u3, &v3, 1, &no_symbols()).unwrap();
        assert_eq!(
            pair.coincidence(0, 0, Property::PossibleCoincidenceOrMore),
            Ok(Verdict::DoesNotHold(Rule::Coefficient3_2 { dim: 0 }))
        );
        assert_eq!(pair.dependence_vectors(), vec![]);
        // The other way round the anti dependence exists, carried by loop 30.
        let back = Pair::new(&v3, &u3, 1, &no_symbols()).unwrap();
        let vectors = back.dependence_vectors();
        assert_eq!(vectors.len(), 1);
        assert_eq!(vectors[0].directions, [Dir::Lt]);
    }
}

/// Fig. 4 built through [`normalize_do`] from the DO statements
/// `DO 10 K = 1, N`, `DO 20 I = K+1, N`, `DO 30 J = K+1, N`.
fn fig4(n: Option<i64>) -> (RefInfo, RefInfo) {
    let upper = match n {
        Some(n) => NormalForm::new(n, &[]),
        None => NormalForm::new(0, &[]).with_symbol("N", 1),
    };
    let (k, k_loop) =
        normalize_do(Some(&NormalForm::new(1, &[])), Some(&upper), Some(1), 0).unwrap();
    let Subscript::Affine(k_form) = k.clone() else {
        panic!("K is affine")
    };
    let k_plus_1 = NormalForm {
        constant: k_form.constant + 1,
        ..k_form
    };
    let (i, i_loop) = normalize_do(Some(&k_plus_1), Some(&upper), Some(1), 1).unwrap();
    let (j, j_loop) = normalize_do(Some(&k_plus_1), Some(&upper), Some(1), 2).unwrap();
    // The paper's forms, with J's inner loop numbered 3rd in V's nest.
    assert_eq!(k, form(1, &[1]));
    assert_eq!(i, form(2, &[1, 1]));
    assert_eq!(j, form(2, &[1, 0, 1]));
    let u = reference(vec![k.clone(), i], &[k_loop.clone(), i_loop.clone()]);
    let v = reference(vec![j, k], &[k_loop, i_loop, j_loop]);
    (u, v)
}

#[test]
fn fig4_rule_3_2_separates_the_triangles() {
    for n in [Some(30), None] {
        let (u, v) = fig4(n);
        let u_then_v = Pair::new(&u, &v, 2, &no_symbols()).unwrap();
        let v_then_u = Pair::new(&v, &u, 2, &no_symbols()).unwrap();
        for g in [0, 1] {
            assert_eq!(
                u_then_v.coincidence(g, 0, Property::PossibleCoincidenceOrMore),
                Ok(Verdict::DoesNotHold(Rule::Coefficient3_2 { dim: 0 }))
            );
        }
        assert_eq!(
            v_then_u.coincidence(0, 1, Property::PossibleCoincidenceOrMore),
            Ok(Verdict::DoesNotHold(Rule::Coefficient3_2 { dim: 1 }))
        );
        // For g2 the rules are tried dimension by dimension, and (3-1) on the
        // first dimension decides before the paper's (3-2) on the second:
        // with Ig1 shared, V's J = 2 + Ig1 + Ig3 exceeds U's K = 1 + Ig1.
        // Both are proofs; (3-2) alone on the second dimension also decides:
        assert_eq!(
            v_then_u.coincidence(1, 1, Property::PossibleCoincidenceOrMore),
            Ok(Verdict::DoesNotHold(Rule::Coefficient3_1 { dim: 0 }))
        );
        let second = |r: &RefInfo| reference(vec![r.subscripts[1].clone()], &r.loops);
        let (u2, v2) = (second(&u), second(&v));
        assert_eq!(
            Pair::new(&v2, &u2, 2, &no_symbols()).unwrap().coincidence(
                1,
                1,
                Property::PossibleCoincidenceOrMore
            ),
            Ok(Verdict::DoesNotHold(Rule::Coefficient3_2 { dim: 0 }))
        );
        // A(K,I) (I > K) and A(J,K) (J > K) never meet at all.
        assert_eq!(u_then_v.dependence_vectors(), vec![]);
        assert_eq!(v_then_u.dependence_vectors(), vec![]);
    }
}

#[test]
fn fig5_needs_the_diophantine_method() {
    // U = A(I+3J-5) = -1 + Ig1 + 3 Ig2 in loops 10, 20;
    // V = A(-I-4K+5) = -Ig1 - 4 Ig3 in loops 10, 30; all trips 10.
    let u = reference(
        vec![form(-1, &[1, 3])],
        &[LoopBound::trip(10), LoopBound::trip(10)],
    );
    let v = reference(
        vec![form(0, &[-1, -4])],
        &[LoopBound::trip(10), LoopBound::trip(10)],
    );
    let pair = Pair::new(&u, &v, 1, &no_symbols()).unwrap();
    // The coefficient rules come first; Diophantine decides, so they could not.
    assert_eq!(
        pair.coincidence(0, 0, Property::PossibleCoincidence),
        Ok(Verdict::DoesNotHold(Rule::Diophantine))
    );
    // Beyond the paper: they do meet one iteration later (I=1,J=1 and I=2,K=1 both give A(-1)).
    assert_eq!(
        pair.coincidence(0, 1, Property::PossibleCoincidence),
        Ok(Verdict::Holds(Rule::Exact))
    );
    // Only some iterations of the inner loops meet: a real, not an exact, dependence.
    assert_eq!(
        pair.dependence_vectors(),
        vec![DepVector {
            directions: vec![Dir::Lt],
            distances: vec![Some(1)],
            exact: false,
        }]
    );
}

#[test]
fn bad_questions_are_errors_not_panics() {
    let u = reference(vec![form(0, &[1])], &[LoopBound::trip(4)]);
    let v = reference(vec![form(0, &[1]), form(0, &[])], &[LoopBound::trip(4)]);
    assert!(matches!(
        Pair::new(&u, &v, 1, &no_symbols()),
        Err(SubscriptError::RankMismatch { .. })
    ));
    assert!(matches!(
        Pair::new(&u, &u, 2, &no_symbols()),
        Err(SubscriptError::TooManyCommonLoops { .. })
    ));
    let w = reference(vec![form(0, &[1])], &[LoopBound::trip(5)]);
    assert!(matches!(
        Pair::new(&u, &w, 1, &no_symbols()),
        Err(SubscriptError::CommonBoundsDiffer { loop_index: 0 })
    ));
    let deep = reference(vec![form(0, &[1, 1])], &[LoopBound::trip(4)]);
    assert!(matches!(
        Pair::new(&deep, &u, 1, &no_symbols()),
        Err(SubscriptError::UsesInnerLoop { .. })
    ));
    let pair = Pair::new(&u, &u, 1, &no_symbols()).unwrap();
    assert!(pair
        .coincidence(1, 0, Property::PossibleCoincidence)
        .is_err());
    assert!(pair
        .coincidence(0, -1, Property::PossibleCoincidence)
        .is_err());
}
