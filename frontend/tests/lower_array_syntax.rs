//! Array syntax: the triplets of sections and whole arrays
//! (`section_dim`) and the assignments computable element by element
//! (`array_assign`).

mod common;
use common::*;

const PROGRAM: &str = "program t
  integer, parameter :: n = 8
  real :: a(n), b(0:n, n), s
  integer :: k(n), i, j
  real :: c(*)
  character(len=4) :: w(n)
  a = 0.0
  a(2:n-1:2) = b(1:n-2:2, j) * 2 + abs(a(1:n-2:2))
  b(:, 1) = sqrt(a) + s
  k(1:n) = mod(k(1:n) * 3, 5) + i
  s = maxval(abs(a(2:n) - b(1, 2:n)))
  i = sum(k)
  s = sum(a(1:n), 1)
  a(1:n) = b(1:n, 1:n)
  a(1:n) = f(a)
  a(1:n) = a(k)
  w(1:2) = 'ab'
  a(1:4) = c(1:4)
  a(i) = 1.0
end program t
";

fn triplets(f: &kaiseki_facts::FactBase, r: i64) -> Vec<String> {
    let mut rows: Vec<_> = f.section_dim.iter().filter(|d| d.r#ref == r).collect();
    rows.sort_by_key(|d| d.dim);
    rows.iter()
        .map(|d| format!("{}:{}:{}", d.lower, d.upper, d.step))
        .collect()
}

#[test]
fn sections_and_whole_arrays_have_their_triplets() {
    let f = facts("t.f90", PROGRAM);
    let at = |line| {
        let s = at_line(&f, "assign", line);
        refs(&f, s)
            .iter()
            .map(|(r, k, n)| format!("{k} {n} {}", triplets(&f, *r).join(", ")))
            .collect::<Vec<_>>()
    };
    // Bounds are folded text, as everywhere in the facts.
    assert_eq!(at(7), ["def A 1:8:1"]);
    assert_eq!(
        at(8),
        ["use B 1:6:2, J:J:", "use J ", "use A 1:6:2", "def A 2:7:2"]
    );
    assert_eq!(at(9), ["use A 1:8:1", "use S ", "def B 0:8:1, 1:1:"]);
    // An assumed-size array's omitted bound is not known: no rows; its
    // written section has them.
    assert_eq!(at(18), ["use C 1:4:1", "def A 1:4:1"]);
    // An element is no section.
    assert_eq!(at(19), ["use I ", "def A "]);
}

#[test]
fn elemental_assignments_and_reductions_are_array_assigns() {
    let f = facts("t.f90", PROGRAM);
    let mut rows: Vec<(i64, String, i64)> = f
        .array_assign
        .iter()
        .map(|a| {
            let line = f.stmt.iter().find(|s| s.stmt == a.stmt).map(|s| s.line);
            (line.unwrap_or(0), a.reduce.clone(), a.integer)
        })
        .collect();
    rows.sort();
    let row = |l: i64, r: &str, i: i64| (l, r.to_string(), i);
    assert_eq!(
        rows,
        [
            row(7, "", 0),
            row(8, "", 0),
            row(9, "", 0),
            row(10, "", 1),
            row(11, "MAXVAL", 0),
            row(12, "SUM", 1),
            row(18, "", 0),
        ],
        "not: a reduction with DIM (13), sections that do not conform (14), \
         a function (15), a vector subscript (16), CHARACTER (17), an element (19)"
    );
}

/// LOGICAL sections are elemental too: operators, comparisons and
/// constants; a LOGICAL reduction is not one of the three taken.
#[test]
fn logical_assignments_are_array_assigns() {
    let f = facts(
        "l.f90",
        "program l
  integer, parameter :: n = 8
  logical :: m(n), p(n), q
  real :: a(n)
  m = .false.
  m(2:n) = p(1:n-1) .neqv. .not. m(2:n)
  p = a > 0.0 .and. m
  q = any(m)
end program l
",
    );
    let mut lines: Vec<i64> = f
        .array_assign
        .iter()
        .filter_map(|a| f.stmt.iter().find(|s| s.stmt == a.stmt).map(|s| s.line))
        .collect();
    lines.sort();
    assert_eq!(lines, [5, 6, 7]);
    assert!(f.array_assign.iter().all(|a| a.integer == 0));
}
