//! WHERE and FORALL: each assignment of a construct is a masked
//! assignment under the mask of its block (ELSEWHERE blocks under the
//! negation of the masks before), so it reads the masks and may write its
//! left side; a FORALL index is the statement's own.

mod common;
use common::*;

const PROGRAM: &str = "program w
  real :: a(6), b(6), c(6), d(6)
  read *, a
  where (a > 0.0)
    b = a
  elsewhere (c > 1.0)
    b = -1.0
    where (d > 0.0) d = 1.0
  elsewhere
    b = 0.0
  end where
  print *, b, d
end program w
";

#[test]
fn each_assignment_is_masked_by_its_block_and_the_blocks_before() {
    let (f, diags) = lower_src("w.f90", PROGRAM);
    assert_eq!(errors(&diags), Vec::<String>::new());
    assert!(diags.is_empty(), "{diags:?}");
    let k: Vec<String> = kinds(&f).into_iter().map(|(_, k)| k).collect();
    assert_eq!(
        k,
        ["decl", "read", "where", "where", "where", "where", "print", "end"]
    );
    let at = |line| {
        refs(&f, at_line(&f, "where", line))
            .iter()
            .map(|(_, k, n)| format!("{k} {n}"))
            .collect::<Vec<_>>()
    };
    assert_eq!(at(5), ["use A", "use A", "def B"]);
    assert_eq!(at(7), ["use A", "use C", "def B"]);
    // A WHERE statement inside: its mask joined to the block's.
    assert_eq!(at(8), ["use A", "use C", "use D", "def D"]);
    assert_eq!(at(10), ["use A", "use C", "def B"]);
}

#[test]
fn a_masked_assignment_never_overwrites_for_certain() {
    let f = facts("w.f90", PROGRAM);
    for line in [5, 7, 10] {
        let s = at_line(&f, "where", line);
        let def = refs(&f, s)
            .into_iter()
            .find(|(_, k, _)| *k == "def")
            .unwrap();
        assert!(!f.must_def.iter().any(|m| m.r#ref == def.0), "line {line}");
    }
}

#[test]
fn misplaced_elsewhere_and_statements_are_reported() {
    let (_, diags) = kaiseki_frontend::parse_source(
        "w.f90",
        "program w
  real :: a(6)
  elsewhere
  where (a > 0.0)
    a = 1.0
    print *, a
  elsewhere
    a = 2.0
  elsewhere (a < 0.0)
    a = 3.0
  end where
  end where
end program w
",
    );
    let mut lines: Vec<(u32, String)> = diags.iter().map(|d| (d.line, d.message.clone())).collect();
    lines.sort();
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert_eq!(lines[0].0, 3);
    assert!(lines[0].1.starts_with("ELSEWHERE without a matching WHERE"));
    assert_eq!(lines[1].0, 6);
    assert!(lines[1].1.contains("holds only assignments"));
    assert_eq!(lines[2].0, 9);
    assert_eq!(
        lines[3],
        (12, "END WHERE without a matching WHERE".to_string())
    );
}

const FORALL: &str = "program f
  real :: a(6, 6), b(6, 6)
  integer :: i, j
  i = 100
  forall (i = 1:6, j = 1:6:2, a(i, j) > 0.0) b(i, j) = a(j, i)
  forall (j = 2:6)
    a(j, 1) = b(j - 1, 1)
    where (b(j, :) > 1.0) b(j, :) = 1.0
  end forall
  print *, i, a, b
end program f
";

#[test]
fn forall_reads_its_bounds_and_its_indices_are_its_own() {
    let (f, diags) = lower_src("f.f90", FORALL);
    assert!(diags.is_empty(), "{diags:?}");
    let k: Vec<String> = kinds(&f).into_iter().map(|(_, k)| k).collect();
    assert_eq!(
        k,
        ["decl", "decl", "assign", "forall", "forall", "forall", "print", "end"]
    );
    let at = |line| {
        refs(&f, at_line(&f, "forall", line))
            .iter()
            .map(|(_, k, n)| format!("{k} {n}"))
            .collect::<Vec<_>>()
    };
    // No reference to the unit's I or J: the indices are the statement's.
    assert_eq!(at(5), ["use A", "use A", "def B"]);
    assert_eq!(at(7), ["use B", "def A"]);
    // A WHERE inside a FORALL construct: both masks, the FORALL index.
    assert_eq!(at(8), ["use B", "def B"]);
    // Every element whose subscripts use an index is the whole array.
    for line in [5, 7, 8] {
        let s = at_line(&f, "forall", line);
        for (r, _, _) in refs(&f, s) {
            assert!(
                f.whole_array_ref.iter().any(|w| w.r#ref == r),
                "line {line}"
            );
        }
    }
}
