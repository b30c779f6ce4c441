//! Every operation against brute force: small sections (bounds within 12,
//! strides 1 to 3, one or two dimensions, constant or symbolic bounds),
//! enumerated for every value of the symbols `N`, `M` in -5..=5 that the
//! assumptions allow. May-results must hold the true set, must-results lie
//! in it, exact results equal it; `Yes`/`No` answers must be true.

use kaiseki_sections::enumerate::{elements, Elements};
use kaiseki_sections::{
    difference, difference_pieces, intersection, is_empty, is_subset, is_subset_within, iterations,
    parse_section, union, Affine, Answer, Approx, Approximation, Assumptions, Dim, Loop, Section,
    Triplet,
};
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

/// `:` and the may reading of `?`: wider than every bound the generators make.
const EXTENT: (i64, i64) = (-40, 40);

type Env = BTreeMap<String, i64>;
type Set = BTreeSet<Vec<i64>>;

fn envs(ctx: &Assumptions) -> Vec<Env> {
    let mut out = Vec::new();
    for n in -5..=5 {
        for m in -5..=5 {
            let env = Env::from([("N".to_string(), n), ("M".to_string(), m)]);
            if ctx.hold(&env) {
                out.push(env);
            }
        }
    }
    out
}

/// The elements, `?` read as `reading`; a whole unknown section is every
/// tuple of the extent.
fn set(s: &Section, env: &Env, reading: Approx, rank: usize) -> Set {
    match elements(s, env, EXTENT, reading).expect("every symbol has a value") {
        Elements::Set(x) => x,
        Elements::Everything => (0..rank)
            .fold(vec![vec![]], |acc: Vec<Vec<i64>>, _| {
                acc.into_iter()
                    .flat_map(|t| {
                        (EXTENT.0..=EXTENT.1).map(move |v| {
                            let mut t = t.clone();
                            t.push(v);
                            t
                        })
                    })
                    .collect()
            })
            .into_iter()
            .collect(),
    }
}

fn has_unknown(s: &Section) -> bool {
    match s {
        Section::Unknown => true,
        Section::Empty => false,
        Section::Dims(d) => d.contains(&Dim::Unknown),
    }
}

/// A result against the true set in one environment.
fn judge(what: &str, r: &Approximation, truth: &Set, mode: Approx, env: &Env, rank: usize) {
    if mode == Approx::Must {
        assert!(
            !has_unknown(&r.section),
            "{what}: a must-result with `?`: {r:?}"
        );
    }
    let got = set(&r.section, env, Approx::May, rank);
    let shown = r.section.named("A");
    match mode {
        Approx::May => assert!(
            got.is_superset(truth),
            "{what}: may {shown} misses elements at {env:?}"
        ),
        Approx::Must => assert!(
            got.is_subset(truth),
            "{what}: must {shown} has extra elements at {env:?}"
        ),
    }
    if r.exact {
        assert_eq!(&got, truth, "{what}: {shown} claimed exact at {env:?}");
    }
}

fn bound() -> impl Strategy<Value = Affine> {
    let n = Affine::symbol("N");
    let m = Affine::symbol("M");
    prop_oneof![
        4 => (-12i64..=12).prop_map(Affine::constant),
        2 => (-4i64..=4).prop_map(move |c| n.add_constant(c).unwrap()),
        1 => (-4i64..=4, prop::sample::select(vec![-1i64, 2])).prop_map(|(c, a)| {
            Affine::term("N", a).add_constant(c).unwrap()
        }),
        1 => (-4i64..=4).prop_map(move |c| m.add_constant(c).unwrap()),
    ]
}

fn stride() -> impl Strategy<Value = i64> {
    prop::sample::select(vec![1i64, 1, 2, 3, -1, -2, -3])
}

/// `None`: an empty triplet.
fn dim() -> impl Strategy<Value = Option<Dim>> {
    prop_oneof![
        6 => (bound(), bound(), stride())
            .prop_map(|(f, b, s)| Triplet::new(f, b, s).map(Dim::Triplet)),
        3 => bound().prop_map(|x| Some(Dim::point(x))),
        1 => Just(Some(Dim::All)),
        1 => Just(Some(Dim::Unknown)),
    ]
}

fn section(rank: usize) -> impl Strategy<Value = Section> {
    prop::collection::vec(dim(), rank).prop_map(|dims| {
        dims.into_iter()
            .collect::<Option<Vec<_>>>()
            .map_or(Section::Empty, Section::Dims)
    })
}

fn pair() -> impl Strategy<Value = (Section, Section, usize)> {
    (1usize..=2).prop_flat_map(|r| (section(r), section(r), Just(r)))
}

fn assumptions() -> impl Strategy<Value = Assumptions> {
    prop_oneof![
        2 => Just(Assumptions::none()),
        1 => Just(Assumptions::none().with_range("N", Some(0), None)),
        1 => Just(Assumptions::none().with_range("N", Some(1), Some(5)).with_range("M", None, Some(2))),
    ]
}

fn modes() -> [Approx; 2] {
    [Approx::May, Approx::Must]
}

fn opposite(mode: Approx) -> Approx {
    match mode {
        Approx::May => Approx::Must,
        Approx::Must => Approx::May,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(768))]

    #[test]
    fn intersection_is_bracketed((a, b, rank) in pair(), ctx in assumptions()) {
        for mode in modes() {
            let r = intersection(&a, &b, mode, &ctx);
            for env in envs(&ctx) {
                let truth = &set(&a, &env, mode, rank) & &set(&b, &env, mode, rank);
                judge(&format!("{} ∩ {}", a.named("A"), b.named("A")), &r, &truth, mode, &env, rank);
            }
        }
    }

    #[test]
    fn union_is_bracketed((a, b, rank) in pair(), ctx in assumptions()) {
        for mode in modes() {
            let r = union(&a, &b, mode, &ctx);
            for env in envs(&ctx) {
                let truth = &set(&a, &env, mode, rank) | &set(&b, &env, mode, rank);
                judge(&format!("{} ∪ {}", a.named("A"), b.named("A")), &r, &truth, mode, &env, rank);
            }
        }
    }

    #[test]
    fn difference_is_bracketed((a, b, rank) in pair(), ctx in assumptions()) {
        for mode in modes() {
            let r = difference(&a, &b, mode, &ctx);
            let (pieces, exact) = difference_pieces(&a, &b, mode, &ctx);
            let what = format!("{} − {}", a.named("A"), b.named("A"));
            for env in envs(&ctx) {
                let truth = &set(&a, &env, mode, rank) - &set(&b, &env, opposite(mode), rank);
                judge(&what, &r, &truth, mode, &env, rank);
                let mut all = Set::new();
                for p in &pieces {
                    let piece = set(p, &env, Approx::May, rank);
                    if mode == Approx::Must {
                        prop_assert!(piece.is_subset(&truth), "{what}: piece {}", p.named("A"));
                    }
                    all.extend(piece);
                }
                match mode {
                    Approx::May => prop_assert!(all.is_superset(&truth), "{what}: pieces miss"),
                    Approx::Must => prop_assert!(all.is_subset(&truth)),
                }
                if exact {
                    prop_assert_eq!(&all, &truth, "{}: pieces claimed exact", what);
                }
            }
        }
    }

    #[test]
    fn subset_answers_are_true((a, b, rank) in pair(), ctx in assumptions()) {
        let answer = is_subset(&a, &b, &ctx);
        for env in envs(&ctx) {
            // Yes for every reading of `?`; No for none.
            let (big_a, small_a) = (set(&a, &env, Approx::May, rank), set(&a, &env, Approx::Must, rank));
            let (big_b, small_b) = (set(&b, &env, Approx::May, rank), set(&b, &env, Approx::Must, rank));
            match answer {
                Answer::Yes => prop_assert!(big_a.is_subset(&small_b), "{} ⊆ {} at {:?}", a.named("A"), b.named("A"), env),
                Answer::No => prop_assert!(!small_a.is_subset(&big_b), "{} ⊄ {} at {:?}", a.named("A"), b.named("A"), env),
                Answer::Unknown => {}
            }
        }
    }

    #[test]
    fn subset_within_declared_bounds_is_true((a, b, rank) in pair(), ctx in assumptions(), lo in -6i64..=2, len in 0i64..=10) {
        let declared = vec![Some((lo, lo + len)); rank];
        if is_subset_within(&a, &b, &declared, &ctx) == Answer::Yes {
            for env in envs(&ctx) {
                let inside = |t: &Vec<i64>| t.iter().all(|&v| lo <= v && v <= lo + len);
                let big_a: Set = set(&a, &env, Approx::May, rank).into_iter().filter(inside).collect();
                let small_b = set(&b, &env, Approx::Must, rank);
                prop_assert!(big_a.is_subset(&small_b), "{} ⊆ {} within {}:{} at {:?}", a.named("A"), b.named("A"), lo, lo + len, env);
            }
        }
    }

    #[test]
    fn emptiness_answers_are_true((a, _, rank) in pair(), ctx in assumptions()) {
        let answer = is_empty(&a, &ctx);
        for env in envs(&ctx) {
            match answer {
                Answer::Yes => prop_assert!(set(&a, &env, Approx::May, rank).is_empty()),
                Answer::No => prop_assert!(!set(&a, &env, Approx::Must, rank).is_empty()),
                Answer::Unknown => {}
            }
        }
    }

    #[test]
    fn a_section_is_a_subset_of_itself((a, _, _) in pair(), ctx in assumptions()) {
        if !has_unknown(&a) {
            prop_assert_eq!(is_subset(&a, &a, &ctx), Answer::Yes, "{}", a.named("A"));
        }
    }

    #[test]
    fn triplets_keep_their_elements(f in bound(), b in bound(), s in stride()) {
        let t = Triplet::new(f.clone(), b.clone(), s);
        for env in envs(&Assumptions::none()) {
            let (fv, bv) = (f.eval(&env).unwrap(), b.eval(&env).unwrap());
            let mut want = vec![];
            let mut x = fv;
            while (s > 0 && x <= bv) || (s < 0 && x >= bv) {
                want.push(x);
                x += s;
            }
            let got = t.as_ref().map(|t| kaiseki_sections::enumerate::indices(t, &env).unwrap());
            let mut got = got.unwrap_or_default();
            got.sort();
            want.sort();
            prop_assert_eq!(got, want, "{}:{}:{}", f, b, s);
        }
    }

    #[test]
    fn text_round_trips((a, _, _) in pair()) {
        let text = a.named("A").to_string();
        let (name, back) = parse_section(&text).unwrap();
        prop_assert_eq!(name, "A");
        prop_assert_eq!(back, a, "{}", text);
    }
}

/// A loop over `K`: bounds constant or `N`-relative, any step.
fn a_loop() -> impl Strategy<Value = Loop> {
    let edge = prop_oneof![
        3 => (-6i64..=6).prop_map(Affine::constant),
        1 => (-3i64..=3).prop_map(|c| Affine::symbol("N").add_constant(c).unwrap()),
    ];
    (
        edge.clone(),
        edge,
        prop::sample::select(vec![1i64, 1, 2, 3, -1, -2]),
    )
        .prop_map(|(lo, hi, step)| Loop::new("K", lo, hi, step))
}

/// Bounds in `K` too: `a*K+c`, `a*K+N+c`, constants.
fn loop_bound() -> impl Strategy<Value = Affine> {
    prop_oneof![
        2 => (-6i64..=6).prop_map(Affine::constant),
        3 => (prop::sample::select(vec![-2i64, -1, 1, 2, 3]), -6i64..=6)
            .prop_map(|(a, c)| Affine::term("K", a).add_constant(c).unwrap()),
        1 => (-3i64..=3).prop_map(|c| Affine::from_terms(c, [("K", 1), ("N", 1)]).unwrap()),
    ]
}

fn loop_dim() -> impl Strategy<Value = Option<Dim>> {
    prop_oneof![
        4 => loop_bound().prop_map(|x| Some(Dim::point(x))),
        3 => (loop_bound(), loop_bound(), prop::sample::select(vec![1i64, 1, 2, -1]))
            .prop_map(|(f, b, s)| Triplet::new(f, b, s).map(Dim::Triplet)),
        1 => Just(Some(Dim::All)),
    ]
}

fn loop_section() -> impl Strategy<Value = (Section, usize)> {
    (1usize..=2).prop_flat_map(|r| {
        (prop::collection::vec(loop_dim(), r), Just(r)).prop_map(|(dims, r)| {
            let s = dims
                .into_iter()
                .collect::<Option<Vec<_>>>()
                .map_or(Section::Empty, Section::Dims);
            (s, r)
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn iterations_is_the_union_over_the_loop((s, rank) in loop_section(), l in a_loop(), ctx in assumptions()) {
        for mode in modes() {
            let r = iterations(&s, &l, mode, &ctx);
            prop_assert!(!r.section.mentions("K"), "{}", r.section.named("A"));
            let what = format!("iterations({}, K = {}, {}, {})", s.named("A"), l.lo, l.hi, l.step);
            for env in envs(&ctx) {
                let (lo, hi) = (l.lo.eval(&env).unwrap(), l.hi.eval(&env).unwrap());
                let mut truth = Set::new();
                let mut k = lo;
                while (l.step > 0 && k <= hi) || (l.step < 0 && k >= hi) {
                    let mut at = env.clone();
                    at.insert("K".to_string(), k);
                    truth.extend(set(&s, &at, mode, rank));
                    k += l.step;
                }
                judge(&what, &r, &truth, mode, &env, rank);
            }
        }
    }
}

/// Constant one-dimensional triplets (the shapes where completeness holds).
fn constant_dim() -> impl Strategy<Value = Section> {
    prop_oneof![
        3 => (-12i64..=12, -12i64..=12, stride()).prop_map(|(f, b, s)| {
            Section::triplets([(Affine::constant(f), Affine::constant(b), s)])
        }),
        1 => (-12i64..=12).prop_map(|x| Section::element([Affine::constant(x)])),
    ]
}

/// Whether a set of integers is one triplet.
fn progression(set: &Set) -> bool {
    let v: Vec<i64> = set.iter().map(|t| t[0]).collect();
    v.windows(2).all(|w| w[1] - w[0] == v[1] - v[0])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    /// With constant bounds every question is decided and a union is exact
    /// exactly when it is one triplet.
    #[test]
    fn constant_sections_are_decided(a in constant_dim(), b in constant_dim()) {
        let ctx = Assumptions::none();
        let env = Env::new();
        let truth = &set(&a, &env, Approx::May, 1) | &set(&b, &env, Approx::May, 1);
        for mode in modes() {
            prop_assert!(intersection(&a, &b, mode, &ctx).exact);
            let u = union(&a, &b, mode, &ctx);
            prop_assert_eq!(u.exact, progression(&truth), "{} ∪ {}", a.named("A"), b.named("A"));
        }
        prop_assert_ne!(is_subset(&a, &b, &ctx), Answer::Unknown, "{} ⊆ {}", a.named("A"), b.named("A"));
        prop_assert_ne!(is_empty(&a, &ctx), Answer::Unknown);
    }

    /// `a*K+b` over any loop is exact, whatever the signs and the bounds.
    #[test]
    fn a_subscript_expands_exactly(a in prop::sample::select(vec![-3i64, -2, -1, 1, 2, 3]), b in -6i64..=6, l in a_loop(), ctx in assumptions()) {
        let s = Section::element([Affine::term("K", a).add_constant(b).unwrap()]);
        for mode in modes() {
            let r = iterations(&s, &l, mode, &ctx);
            prop_assert!(r.exact, "iterations({}, K = {}, {}, {}) = {}", s.named("A"), l.lo, l.hi, l.step, r.section.named("A"));
        }
    }
}

/// LU's FLUX: the second write loop `I = IST, NX` stays inside the first's
/// `1:NX` only because FLUX's second dimension is declared from 1.
#[test]
fn declared_bounds_decide_a_symbolic_lower_bound() {
    let a = parse_section("A(2:5, IST:NX)").unwrap().1;
    let b = parse_section("A(1:5, 1:NX)").unwrap().1;
    let ctx = Assumptions::none();
    assert_ne!(is_subset(&a, &b, &ctx), Answer::Yes);
    let declared = [Some((1, 5)), Some((1, 33))];
    assert_eq!(is_subset_within(&a, &b, &declared, &ctx), Answer::Yes);
    let unbounded = [Some((1, 5)), None];
    assert_ne!(is_subset_within(&a, &b, &unbounded, &ctx), Answer::Yes);
    let wider = parse_section("A(2:5, IST:NX+1)").unwrap().1;
    assert_ne!(is_subset_within(&wider, &b, &declared, &ctx), Answer::Yes);
}
