//! Micro benchmark: dependence vectors of 20,000 reference pairs in depth-3
//! nests with 2-dimensional subscripts, under one second in a release build.
//! Run with `cargo test --release -p kaiseki-affine --lib benchmark -- --ignored --nocapture`.
//!
//! The pairs mix the subscript shapes of loop code, a fifth of each kind:
//! stencils (`A(I+1, J-1)` vs `A(I, J)`), permutations (`A(I, J)` vs
//! `A(J, I)`), coupled or scaled subscripts (`A(I+J, 2*K+1)`), triangular
//! nests with a symbolic bound (`DO J = I, N`), and adversarial pairs with
//! random coefficients -3..3 on every loop (the costliest: about six
//! direction vectors each). Each kind's time is printed.

use super::*;
use std::time::{Duration, Instant};

/// A small linear congruential generator: the benchmark needs no quality, only repeatability.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }

    fn between(&mut self, lo: i64, hi: i64) -> i64 {
        let span = u64::try_from(hi - lo + 1).unwrap_or(1);
        lo + i64::try_from(self.below(span)).unwrap_or(0)
    }

    fn pick(&mut self, n: usize) -> usize {
        usize::try_from(self.below(u64::try_from(n).unwrap_or(1))).unwrap_or(0)
    }
}

const KINDS: [&str; 5] = [
    "stencil",
    "permutation",
    "coupled",
    "triangular",
    "adversarial",
];

fn unit(g: usize, offset: i64) -> NormalForm {
    let mut coeffs = vec![0; 3];
    coeffs[g] = 1;
    NormalForm::new(offset, &coeffs)
}

/// One subscript pair of the given kind: (U's, V's) forms for one dimension.
fn forms(rng: &mut Lcg, kind: usize, dim: usize) -> (NormalForm, NormalForm) {
    match kind {
        // A(I+a, J+b) vs A(I+c, J+d), on loops (dim) or (dim+1).
        0 | 3 => {
            let g = dim + rng.pick(2);
            (unit(g, rng.between(-2, 2)), unit(g, rng.between(-2, 2)))
        }
        // A(I, J) vs A(J, I) and other loop permutations.
        1 => (
            unit(rng.pick(3), rng.between(-1, 1)),
            unit(rng.pick(3), rng.between(-1, 1)),
        ),
        // A(I+J, ...), A(2*K+1, ...): a loop sum or a scaled loop.
        2 => {
            let pick = |rng: &mut Lcg| {
                let mut f = unit(rng.pick(3), rng.between(-2, 2));
                let g = rng.pick(3);
                f.coeffs[g] += rng.between(1, 2);
                f
            };
            (pick(rng), pick(rng))
        }
        _ => {
            let random = |rng: &mut Lcg| {
                let coeffs: Vec<i64> = (0..3).map(|_| rng.between(-3, 3)).collect();
                NormalForm::new(rng.between(-2, 2), &coeffs)
            };
            (random(rng), random(rng))
        }
    }
}

fn random_pair(rng: &mut Lcg, kind: usize) -> (RefInfo, RefInfo) {
    let loops: Vec<LoopBound> = (0..3)
        .map(|g| {
            if kind == 3 {
                // DO I = 1, N / DO J = I, N / DO K = 1, N.
                let mut span = NormalForm::new(-1, &[]).with_symbol("N", 1);
                if g == 1 {
                    span.coeffs = vec![-1];
                    span.constant = 0;
                }
                LoopBound::Span { scale: 1, span }
            } else {
                LoopBound::trip(rng.between(10, 100))
            }
        })
        .collect();
    let (u0, v0) = forms(rng, kind, 0);
    let (u1, v1) = forms(rng, kind, 1);
    let reference = |a: NormalForm, b: NormalForm| RefInfo {
        subscripts: vec![Subscript::Affine(a), Subscript::Affine(b)],
        loops: loops.clone(),
        guards: Vec::new(),
    };
    (reference(u0, u1), reference(v0, v1))
}

#[test]
#[ignore = "timing: run in release"]
fn twenty_thousand_pairs_in_under_a_second() {
    let mut rng = Lcg(2026);
    let pairs: Vec<_> = (0..20_000)
        .map(|i| {
            let kind = i % KINDS.len();
            (kind, random_pair(&mut rng, kind))
        })
        .collect();
    let symbols = SymbolRanges::from([("N".to_string(), SymbolRange::at_least(1))]);
    let mut per_kind = [(Duration::ZERO, 0usize); KINDS.len()];
    let start = Instant::now();
    for (kind, (u, v)) in &pairs {
        let t = Instant::now();
        let pair = Pair::new(u, v, 3, &symbols).expect("well-formed pair");
        per_kind[*kind].1 += pair.dependence_vectors().len();
        per_kind[*kind].0 += t.elapsed();
    }
    let elapsed = start.elapsed();
    for (name, (time, vectors)) in KINDS.iter().zip(per_kind) {
        println!("{name:>12}: {time:?}, {vectors} vectors");
    }
    println!("20,000 pairs in {elapsed:?}");
    if !cfg!(debug_assertions) {
        assert!(elapsed < Duration::from_secs(1), "took {elapsed:?}");
    }
}
