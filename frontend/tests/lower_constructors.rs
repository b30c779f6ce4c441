//! Array constructors, `(/ ... /)` and `[ ... ]`: expressions that read
//! their items; an implied DO's variable is its own, and an element whose
//! subscripts use it is the whole array.

mod common;
use common::*;

const PROGRAM: &str = "program t
  integer, parameter :: n = 8
  integer, parameter :: idx(3) = (/ 1, 2, 3 /)
  integer :: i, j, k
  real :: a(n), b(n), c(n, n), s
  integer :: order(4) = [ (k, k = 1, 4) ]
  a = (/ (real(i), i = 1, n) /)
  a(1:2) = [ b(1), s ]
  c(:, j) = (/ ((b(i) * k, i = 1, j), k = 1, 2) /)
  s = sum((/ a(idx(2)), b(j + 1) /))
  a(1:4) = order
end program t
";

#[test]
fn constructors_read_their_items_and_write_nothing_else() {
    let (f, diags) = lower_src("t.f90", PROGRAM);
    assert_eq!(errors(&diags), Vec::<String>::new());
    assert!(
        diags.iter().all(|d| !d.message.contains("constructor")),
        "{diags:?}"
    );
    let at = |line| {
        let s = at_line(&f, "assign", line);
        refs(&f, s)
            .iter()
            .map(|(_, k, n)| format!("{k} {n}"))
            .collect::<Vec<_>>()
    };
    // The implied DO's I is not the unit's I: no use of it.
    assert_eq!(at(7), ["def A"]);
    assert_eq!(at(8), ["use B", "use S", "def A"]);
    // Nested implied DOs: the bound J of the inner one is read, B whole;
    // then the subscript J of the left side.
    assert_eq!(at(9), ["use J", "use B", "use J", "def C"]);
    assert_eq!(at(10), ["use A", "use IDX", "use B", "use J", "def S"]);
}

#[test]
fn an_element_of_an_implied_do_is_the_whole_array() {
    let f = facts("t.f90", PROGRAM);
    let s = at_line(&f, "assign", 9);
    let b = refs(&f, s)
        .into_iter()
        .find(|(_, _, n)| n == "B")
        .expect("B is read");
    assert!(f.whole_array_ref.iter().any(|w| w.r#ref == b.0));
    assert!(!f.array_ref.iter().any(|w| w.r#ref == b.0));
}

#[test]
fn an_initialized_array_is_initialized_data() {
    let f = facts("t.f90", PROGRAM);
    let inits: Vec<&str> = f.data_init.iter().map(|d| d.var.as_str()).collect();
    assert_eq!(inits, ["ORDER"]);
}

#[test]
fn constructors_are_written_back_as_written() {
    let (program, _) = kaiseki_frontend::parse_source(
        "t.f90",
        "program t\n  real :: a(4), b(4)\n  a = [ (b(i) * 2, i = 1, 4, 1) ]\n  a = (/ 1.0, b(2), 3.0, 4.0 /)\nend program t\n",
    );
    let texts: Vec<String> = program.units[0]
        .body
        .iter()
        .filter_map(|s| match &s.kind {
            kaiseki_frontend::ast::StmtKind::Assign { rhs, .. } => {
                Some(kaiseki_frontend::fold::text_as_written(rhs))
            }
            _ => None,
        })
        .collect();
    assert_eq!(texts, ["(/(B(I)*2,I=1,4,1)/)", "(/1.0,B(2),3.0,4.0/)"]);
}
