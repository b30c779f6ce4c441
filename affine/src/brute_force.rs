//! Dependence vectors against enumeration of every pair of iterations, on
//! random small nests: soundness (every real dependence covered), `exact`
//! vectors real, and precision (no vector that never happens) whenever the
//! analysis sees the real loop bounds.

use super::*;
use proptest::prelude::*;
use std::collections::BTreeSet;

/// Raw random choices for one loop.
#[derive(Clone, Debug)]
struct LoopSpec {
    /// 0-4: constant trip; 5-6: triangular on an outer loop; 7: bound hidden from the analysis.
    kind: u8,
    trip: i64,
    outer_coeff: i64,
    outer_pick: usize,
    scale: i64,
    symbol_coeff: i64,
}

#[derive(Clone, Debug)]
struct SubscriptSpec {
    unknown: bool,
    constant: i64,
    coeffs: [i64; 3],
    symbol_coeff: i64,
}

#[derive(Clone, Debug)]
struct Case {
    common: usize,
    u: RefInfo,
    v: RefInfo,
    /// The loop bounds the program really has (the analysis may see `Unknown`).
    u_real: Vec<LoopBound>,
    v_real: Vec<LoopBound>,
    symbols: SymbolRanges,
    /// Values of the symbol K to enumerate (one value when there is no K).
    k_values: Vec<i64>,
    hidden: bool,
}

fn loop_spec() -> impl Strategy<Value = LoopSpec> {
    (0u8..8, 1i64..=6, -1i64..=1, 0usize..3, 1i64..=2, 0i64..=1).prop_map(
        |(kind, trip, outer_coeff, outer_pick, scale, symbol_coeff)| LoopSpec {
            kind,
            trip,
            outer_coeff,
            outer_pick,
            scale,
            symbol_coeff,
        },
    )
}

fn subscript_spec() -> impl Strategy<Value = SubscriptSpec> {
    (
        prop::bool::weighted(0.1),
        -3i64..=3,
        prop::array::uniform3(-3i64..=3),
        -2i64..=2,
    )
        .prop_map(|(unknown, constant, coeffs, symbol_coeff)| SubscriptSpec {
            unknown,
            constant,
            coeffs,
            symbol_coeff,
        })
}

/// A random pair of references sharing at least `min_common` loops.
fn case(min_common: usize) -> impl Strategy<Value = Case> {
    (
        min_common..=2,
        0usize..=2,
        0usize..=2,
        prop::collection::vec(loop_spec(), 7),
        1usize..=2,
        prop::collection::vec(subscript_spec(), 4),
        prop::option::of((0i64..=2, 0i64..=2)),
    )
        .prop_map(|(common, u_extra, v_extra, loops, dims, subs, symbol)| {
            let a = (common + u_extra).clamp(1, 3);
            let b = (common + v_extra).clamp(1, 3);
            let with_k = symbol.is_some();
            // Common loops from specs 0..common, U's own from the next, V's after.
            let build = |depth: usize, first_own: usize| {
                let mut analysed = Vec::new();
                let mut real = Vec::new();
                for g in 0..depth {
                    let spec = &loops[if g < common {
                        g
                    } else {
                        first_own + g - common
                    }];
                    let (seen, truth) = bound(spec, g, with_k);
                    analysed.push(seen);
                    real.push(truth);
                }
                (analysed, real)
            };
            let (u_loops, u_real) = build(a, common);
            let (v_loops, v_real) = build(b, common + 2);
            let subscripts = |specs: &[SubscriptSpec], depth: usize| -> Vec<Subscript> {
                specs
                    .iter()
                    .take(dims)
                    .map(|s| {
                        if s.unknown {
                            return Subscript::Unknown;
                        }
                        let mut f = NormalForm::new(s.constant, &s.coeffs[..depth]);
                        if with_k {
                            f = f.with_symbol("K", s.symbol_coeff);
                        }
                        Subscript::Affine(f)
                    })
                    .collect()
            };
            let hidden =
                u_loops.contains(&LoopBound::Unknown) || v_loops.contains(&LoopBound::Unknown);
            let (symbols, k_values) = match symbol {
                Some((lo, width)) => (
                    SymbolRanges::from([(
                        "K".to_string(),
                        SymbolRange {
                            lower: Some(lo),
                            upper: Some(lo + width),
                        },
                    )]),
                    (lo..=lo + width).collect(),
                ),
                None => (SymbolRanges::new(), vec![0]),
            };
            Case {
                common,
                u: RefInfo {
                    subscripts: subscripts(&subs[..2], a),
                    loops: u_loops,
                    guards: Vec::new(),
                },
                v: RefInfo {
                    subscripts: subscripts(&subs[2..], b),
                    loops: v_loops,
                    guards: Vec::new(),
                },
                u_real,
                v_real,
                symbols,
                k_values,
                hidden,
            }
        })
}

/// The bound the analysis sees and the real one, for loop `g`.
fn bound(spec: &LoopSpec, g: usize, with_k: bool) -> (LoopBound, LoopBound) {
    let constant = LoopBound::Span {
        scale: spec.scale,
        span: NormalForm::new(spec.trip - 1, &[]),
    };
    match spec.kind {
        5 | 6 if g > 0 => {
            let mut coeffs = vec![0; g];
            coeffs[spec.outer_pick % g] = spec.outer_coeff;
            let mut span = NormalForm::new(spec.trip - 1, &coeffs);
            if with_k {
                span = span.with_symbol("K", spec.symbol_coeff);
            }
            let b = LoopBound::Span {
                scale: spec.scale,
                span,
            };
            (b.clone(), b)
        }
        7 => (LoopBound::Unknown, constant),
        _ => (constant.clone(), constant),
    }
}

fn eval(f: &NormalForm, iters: &[i64], k: i64) -> i64 {
    let loops: i64 = iters.iter().enumerate().map(|(g, &i)| f.coeff(g) * i).sum();
    f.constant + loops + f.symbols.get("K").copied().unwrap_or(0) * k
}

/// Every iteration vector of a nest with these (real) bounds.
fn iterations(loops: &[LoopBound], k: i64) -> Vec<Vec<i64>> {
    let mut out = vec![vec![]];
    for bound in loops {
        let LoopBound::Span { scale, span } = bound else {
            unreachable!("real bounds are known")
        };
        out = out
            .into_iter()
            .flat_map(|prefix: Vec<i64>| {
                let limit = eval(span, &prefix, k);
                (0..)
                    .take_while(move |&i| scale * i <= limit)
                    .map(move |i| {
                        let mut p = prefix.clone();
                        p.push(i);
                        p
                    })
            })
            .collect();
    }
    out
}

/// The distance vectors (over the common loops) of all real U-then-V dependences.
fn real_dependences(case: &Case) -> BTreeSet<Vec<i64>> {
    let mut found = BTreeSet::new();
    for &k in &case.k_values {
        let us = iterations(&case.u_real, k);
        let vs = iterations(&case.v_real, k);
        for i in &us {
            for j in &vs {
                let c = case.common;
                if i[..c] > j[..c] {
                    continue;
                }
                let same =
                    case.u
                        .subscripts
                        .iter()
                        .zip(&case.v.subscripts)
                        .all(|pair| match pair {
                            (Subscript::Affine(fu), Subscript::Affine(fv)) => {
                                eval(fu, i, k) == eval(fv, j, k)
                            }
                            _ => true,
                        });
                if same {
                    found.insert((0..c).map(|h| j[h] - i[h]).collect());
                }
            }
        }
    }
    found
}

/// The vectors a `*` direction stands for: each `*` replaced by `<`, `=` and `>`.
fn expansions(v: &DepVector) -> Vec<DepVector> {
    let mut out = vec![v.clone()];
    for g in 0..v.directions.len() {
        if v.directions[g] == Dir::Star {
            out = out
                .into_iter()
                .flat_map(|e| {
                    [Dir::Lt, Dir::Eq, Dir::Gt].map(|dir| {
                        let mut e = e.clone();
                        e.directions[g] = dir;
                        e
                    })
                })
                .collect();
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn vectors_are_sound_exact_and_precise(case in case(0)) {
        let pair = Pair::new(&case.u, &case.v, case.common, &case.symbols).unwrap();
        check_vectors(&case, &pair.dependence_vectors())?;
        // Both ways: U then V as above, and V then U as the swapped pair's.
        let (forward, backward) = pair.dependence_vectors_both_ways();
        check_vectors(&case, &forward)?;
        let swapped = Case {
            u: case.v.clone(),
            v: case.u.clone(),
            u_real: case.v_real.clone(),
            v_real: case.u_real.clone(),
            symbols: case.symbols.clone(),
            k_values: case.k_values.clone(),
            ..case
        };
        check_vectors(&swapped, &backward)?;
    }
}

/// Every real dependence of U then V is covered by a vector; exact vectors
/// happen; with the bounds visible, every vector happens.
fn check_vectors(case: &Case, vectors: &[DepVector]) -> Result<(), TestCaseError> {
    let real = real_dependences(case);
    for d in &real {
        prop_assert!(
            vectors.iter().any(|v| v.covers(d)),
            "real dependence {:?} not covered by {:?}",
            d,
            vectors
        );
    }
    for v in vectors {
        let happens = real.iter().any(|d| v.covers(d));
        if v.exact {
            prop_assert!(happens, "exact vector {:?} never happens", v);
        }
        // Precision: with the real bounds visible, the test is exact; a
        // `*` only summarizes directions that all happen.
        if !case.hidden {
            for e in expansions(v) {
                prop_assert!(
                    real.iter().any(|d| e.covers(d)),
                    "{:?} of vector {:?} never happens; real: {:?}",
                    e.directions,
                    v,
                    real
                );
            }
        }
    }
    if case.hidden {
        prop_assert!(vectors.iter().all(|v| !v.exact));
    }
    Ok(())
}

const PROPERTIES: [Property; 3] = [
    Property::ExactCoincidence,
    Property::PossibleCoincidence,
    Property::PossibleCoincidenceOrMore,
];

/// What enumeration says about loop `g` and `n`: (some pair meets exactly `n`
/// iterations later, some pair meets `n` or more later, some pair `n` later
/// may touch different elements).
fn real_coincidences(case: &Case, g: usize, n: i64) -> (bool, bool, bool) {
    let (mut meets, mut meets_later, mut differs) = (false, false, false);
    for &k in &case.k_values {
        let us = iterations(&case.u_real, k);
        let vs = iterations(&case.v_real, k);
        for i in &us {
            for j in vs.iter().filter(|j| j[..g] == i[..g]) {
                let (mut same, mut different) = (true, false);
                for pair in case.u.subscripts.iter().zip(&case.v.subscripts) {
                    match pair {
                        (Subscript::Affine(fu), Subscript::Affine(fv)) => {
                            let equal = eval(fu, i, k) == eval(fv, j, k);
                            same &= equal;
                            different |= !equal;
                        }
                        // A non-affine subscript may take any value.
                        _ => different = true,
                    }
                }
                let d = j[g] - i[g];
                meets |= d == n && same;
                meets_later |= d >= n && same;
                differs |= d == n && different;
            }
        }
    }
    (meets, meets_later, differs)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn coincidence_verdicts_agree_with_enumeration(
        case in case(1),
        g_pick in 0usize..3,
        n in 0i64..=3,
        which in 0usize..3,
    ) {
        let g = g_pick % case.common;
        let property = PROPERTIES[which];
        let pair = Pair::new(&case.u, &case.v, case.common, &case.symbols).unwrap();
        let verdict = pair.coincidence(g, n, property).unwrap();
        let (meets, meets_later, differs) = real_coincidences(&case, g, n);
        let affine = case.u.subscripts.iter().chain(&case.v.subscripts)
            .all(|s| matches!(s, Subscript::Affine(_)));
        let context = format!("{property:?} g={g} n={n}: {verdict:?}, real {meets}/{meets_later}/{differs}");
        match (property, verdict) {
            (Property::PossibleCoincidence, Verdict::DoesNotHold(_)) => prop_assert!(!meets, "{}", context),
            (Property::PossibleCoincidenceOrMore, Verdict::DoesNotHold(_)) => prop_assert!(!meets_later, "{}", context),
            (Property::ExactCoincidence, Verdict::Holds(_)) => prop_assert!(!differs, "{}", context),
            // Positive answers about existence are exact when the bounds are seen.
            (Property::PossibleCoincidence, Verdict::Holds(_)) => prop_assert!(case.hidden || meets, "{}", context),
            (Property::PossibleCoincidenceOrMore, Verdict::Holds(_)) => prop_assert!(case.hidden || meets_later, "{}", context),
            (Property::ExactCoincidence, Verdict::DoesNotHold(_)) => prop_assert!(differs, "{}", context),
            (_, Verdict::Unknown) => prop_assert!(
                case.hidden || (property == Property::ExactCoincidence && !affine),
                "{}", context
            ),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// With the exact test cut short anywhere, answers get vaguer, never wrong.
    #[test]
    fn starved_searches_stay_sound(case in case(1), budget in 0u64..300, n in 0i64..=2) {
        let pair = Pair::new(&case.u, &case.v, case.common, &case.symbols).unwrap().with_budget(budget);
        let real = real_dependences(&case);
        let vectors = pair.dependence_vectors();
        for d in &real {
            prop_assert!(vectors.iter().any(|v| v.covers(d)), "{:?} not covered by {:?}", d, vectors);
        }
        let (meets, meets_later, differs) = real_coincidences(&case, 0, n);
        for property in PROPERTIES {
            let verdict = pair.coincidence(0, n, property).unwrap();
            match (property, verdict) {
                (Property::PossibleCoincidence, Verdict::DoesNotHold(_)) => prop_assert!(!meets),
                (Property::PossibleCoincidenceOrMore, Verdict::DoesNotHold(_)) => prop_assert!(!meets_later),
                (Property::ExactCoincidence, Verdict::Holds(_)) => prop_assert!(!differs),
                _ => {}
            }
        }
    }
}
