//! The sections of the papers' examples: Li & Harada (seed 000) Examples 4
//! and 5, the spec's loop expansion (seed 001, Case 3), and the forms the
//! issues name.

use kaiseki_sections::{
    difference, difference_pieces, intersection, is_subset, iterations, parse_section, union,
    Affine, Answer, Approx, Approximation, Assumptions, Loop, Section,
};

fn s(text: &str) -> Section {
    parse_section(text).unwrap().1
}

fn a(text: &str) -> Affine {
    text.parse().unwrap()
}

fn shown(r: &Approximation) -> (String, bool) {
    shown_as("A", r)
}

fn shown_as(array: &str, r: &Approximation) -> (String, bool) {
    (r.section.named(array).to_string(), r.exact)
}

/// `iterations` of a section's text, printed with its array's name.
fn over(
    section: &str,
    var: &str,
    lo: &str,
    hi: &str,
    step: i64,
    mode: Approx,
    ctx: &Assumptions,
) -> (String, bool) {
    let (array, s) = parse_section(section).unwrap();
    let l = Loop::new(var, a(lo), a(hi), step);
    shown_as(&array, &iterations(&s, &l, mode, ctx))
}

#[test]
fn expansion_of_subscripts() {
    let none = Assumptions::none();
    for mode in [Approx::May, Approx::Must] {
        assert_eq!(
            over("A(I)", "I", "1", "N", 1, mode, &none),
            ("A(1:N)".into(), true)
        );
        assert_eq!(
            over("A(2*I)", "I", "1", "N", 1, mode, &none),
            ("A(2:2*N:2)".into(), true)
        );
        assert_eq!(
            over("A(I, J)", "J", "L", "H", 1, mode, &none),
            ("A(I, L:H)".into(), true)
        );
        assert_eq!(
            over("A(-2*I)", "I", "1", "N", 1, mode, &none),
            ("A(-2*N:-2:2)".into(), true)
        );
        assert_eq!(
            over("A(I+1)", "I", "N", "1", -1, mode, &none),
            ("A(2:N+1)".into(), true)
        );
    }
}

#[test]
fn expansion_of_a_section_that_does_not_move() {
    let none = Assumptions::none();
    let runs = Assumptions::none().with_range("N", Some(1), None);
    assert_eq!(
        over("A(5)", "I", "1", "N", 1, Approx::May, &none),
        ("A(5)".into(), false)
    );
    assert_eq!(
        over("A(5)", "I", "1", "N", 1, Approx::Must, &none),
        ("A()".into(), false)
    );
    assert_eq!(
        over("A(5)", "I", "1", "N", 1, Approx::Must, &runs),
        ("A(5)".into(), true)
    );
    assert_eq!(
        over("A(5)", "I", "3", "2", 1, Approx::May, &none),
        ("A()".into(), true)
    );
}

#[test]
fn expansion_of_moving_bounds() {
    let none = Assumptions::none();
    let runs = Assumptions::none().with_range("N", Some(1), None);
    // Triangular: A(1:K) over K = 1..N is A(1:N) when the loop runs.
    assert_eq!(
        over("A(1:K)", "K", "1", "N", 1, Approx::Must, &runs),
        ("A(1:N)".into(), true)
    );
    assert_eq!(
        over("A(K:N)", "K", "1", "N", 1, Approx::Must, &runs),
        ("A(1:N)".into(), true)
    );
    // Whether it runs is unknown: may is the hull, must is nothing.
    assert_eq!(
        over("A(K:K+1)", "K", "1", "N", 1, Approx::May, &none),
        ("A(1:N+1)".into(), false)
    );
    assert_eq!(
        over("A(K:K+1)", "K", "1", "N", 1, Approx::Must, &none),
        ("A()".into(), false)
    );
    // The diagonal: may expands each dimension, must keeps the first iteration.
    assert_eq!(
        over("A(K, K)", "K", "1", "N", 1, Approx::May, &runs),
        ("A(1:N, 1:N)".into(), false)
    );
    assert_eq!(
        over("A(K, K)", "K", "1", "N", 1, Approx::Must, &runs),
        ("A(1, 1)".into(), false)
    );
}

/// Table 2, elimination step 2: Gen_s1 of loop L1 over I = 2..100.
#[test]
fn li_harada_example_4() {
    let none = Assumptions::none();
    let out6 = over("A(1:100, I)", "I", "2", "100", 1, Approx::Must, &none);
    assert_eq!(out6, ("A(1:100, 2:100)".into(), true));
    let killed = over("A(100, I-1)", "I", "2", "100", 1, Approx::May, &none);
    assert_eq!(killed, ("A(100, 1:99)".into(), true));
    let (gen, kill) = (s("A(1:100, 2:100)"), s("A(100, 1:99)"));
    let (pieces, exact) = difference_pieces(&gen, &kill, Approx::Must, &none);
    let texts: Vec<String> = pieces.iter().map(|p| p.named("A").to_string()).collect();
    assert_eq!(texts, ["A(1:99, 2:100)", "A(100, 100)"]);
    assert!(exact);
    // As one section: must keeps the larger piece, may the hull.
    let must = difference(&gen, &kill, Approx::Must, &none);
    assert_eq!(shown(&must), ("A(1:99, 2:100)".into(), false));
    let may = difference(&gen, &kill, Approx::May, &none);
    assert_eq!(shown(&may), ("A(1:100, 2:100)".into(), false));
}

/// Equation 11 runs the expansion to `j - step`: symbolic upper bounds.
#[test]
fn li_harada_example_5() {
    let ctx = Assumptions::none().with_range("J", Some(3), None);
    let out = over("A(1:100, I)", "I", "2", "J-1", 1, Approx::Must, &ctx);
    assert_eq!(out, ("A(1:100, 2:J-1)".into(), true));
    let kill = over("A(100, I-1)", "I", "2", "J-1", 1, Approx::May, &ctx);
    assert_eq!(kill, ("A(100, 1:J-2)".into(), true));
    let (pieces, exact) = difference_pieces(
        &s("A(1:100, 2:J-1)"),
        &s("A(100, 1:J-2)"),
        Approx::Must,
        &ctx,
    );
    let texts: Vec<String> = pieces.iter().map(|p| p.named("A").to_string()).collect();
    assert_eq!(texts, ["A(1:99, 2:J-1)", "A(100, J-1)"]);
    assert!(exact);
}

/// Section 6.1: a read is completely redundant when its section is in IN.
#[test]
fn li_harada_redundancy_is_a_subset_test() {
    let none = Assumptions::none();
    assert_eq!(
        is_subset(&s("A(1, I)"), &s("A(1:100, I)"), &none),
        Answer::Yes
    );
    assert_eq!(
        is_subset(&s("A(1:100, 100)"), &s("A(100, 30:50)"), &none),
        Answer::No
    );
    assert_eq!(
        is_subset(&s("A(1, I)"), &s("A(1:100, J)"), &none),
        Answer::Unknown
    );
    assert_eq!(
        is_subset(&s("A(?, I)"), &s("A(1:100, I)"), &none),
        Answer::Unknown
    );
}

/// Case 3 of the spec: EUSE of `x(i) = x(i) + a(i)` over the loop is
/// `∪_i (EUSE(i) − ∪_{j<i} DDEF(j))`.
#[test]
fn spec_exposed_uses_over_a_loop() {
    let inside = Assumptions::none().with_range("I", Some(1), None);
    let before = over("X(J)", "J", "1", "I-1", 1, Approx::May, &inside);
    assert_eq!(before, ("X(1:I-1)".into(), true));
    let exposed = difference(&s("X(I)"), &s("X(1:I-1)"), Approx::May, &inside);
    assert_eq!(shown_as("X", &exposed), ("X(I)".into(), true));
    let euse = over(
        "X(I)",
        "I",
        "1",
        "N-1",
        1,
        Approx::May,
        &Assumptions::none(),
    );
    assert_eq!(euse, ("X(1:N-1)".into(), true));
}

#[test]
fn symbolic_unions_need_comparable_bounds() {
    let none = Assumptions::none();
    let nonneg = Assumptions::none().with_range("N", Some(1), None);
    let (x, y) = (s("A(1:N)"), s("A(N+1)"));
    assert_eq!(
        shown(&union(&x, &y, Approx::Must, &nonneg)),
        ("A(1:N+1)".into(), true)
    );
    // 1 and N+1 do not compare: the hull has no affine lower bound.
    assert_eq!(
        shown(&union(&x, &y, Approx::May, &none)),
        ("A(?)".into(), false)
    );
    assert_eq!(
        shown(&union(&x, &y, Approx::Must, &none)),
        ("A(1:N)".into(), false)
    );
    assert_eq!(
        shown(&union(&s("A(1)"), &s("A(3)"), Approx::Must, &none)),
        ("A(1:3:2)".into(), true)
    );
    assert_eq!(
        shown(&union(&s("A(1:9:2)"), &s("A(2:10:2)"), Approx::Must, &none)),
        ("A(1:10)".into(), true)
    );
}

#[test]
fn intersections_solve_strides() {
    let none = Assumptions::none();
    let r = intersection(&s("A(1:100:4)"), &s("A(3:100:6)"), Approx::Must, &none);
    assert_eq!(shown(&r), ("A(9:93:12)".into(), true));
    let r = intersection(&s("A(1:N:2)"), &s("A(2:N:2)"), Approx::Must, &none);
    assert_eq!(shown(&r), ("A()".into(), true));
    let r = intersection(&s("A(1:N:2)"), &s("A(M:N:2)"), Approx::May, &none);
    assert!(!r.exact);
}
