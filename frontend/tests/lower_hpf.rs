//! Lowering of HPF directives (Li & Harada's examples and the other forms).

mod common;
use common::*;

type AlignRow = (String, i64, String, i64, String, i64, i64);

fn align(f: &kaiseki_facts::FactBase) -> Vec<AlignRow> {
    f.hpf_align
        .iter()
        .map(|a| {
            (
                a.array.clone(),
                a.array_dim,
                a.template.clone(),
                a.template_dim,
                a.kind.clone(),
                a.coeff,
                a.offset,
            )
        })
        .collect()
}

fn row(a: &str, ad: i64, t: &str, td: i64, k: &str, c: i64, o: i64) -> AlignRow {
    (a.into(), ad, t.into(), td, k.into(), c, o)
}

#[test]
fn li_harada_s20_reversed_alignment() {
    let f = example_facts("li_harada_s20.f90");
    assert_eq!(
        align(&f),
        vec![
            row("A", 1, "T", 1, "axis", -1, 101),
            row("C", 1, "T", 1, "axis", 1, 0),
            row("E", 1, "T", 1, "axis", 1, 0),
        ]
    );
    let t: Vec<(&str, i64, i64, i64)> = f
        .hpf_template
        .iter()
        .map(|t| (t.name.as_str(), t.dim, t.lower, t.upper))
        .collect();
    assert_eq!(t, [("T", 1, 1, 100)]);
    let d: Vec<(&str, i64, &str, i64, &str)> = f
        .hpf_distribute
        .iter()
        .map(|d| {
            (
                d.template.as_str(),
                d.dim,
                d.format.as_str(),
                d.k,
                d.onto.as_str(),
            )
        })
        .collect();
    assert_eq!(d, [("T", 1, "block", 0, "")]);
}

#[test]
fn li_harada_fig1_constant_alignment_of_vectors() {
    let f = example_facts("li_harada_fig1.f90");
    let rows = align(&f);
    assert!(rows.contains(&row("A", 1, "VPROCS", 1, "axis", 1, 0)));
    assert!(rows.contains(&row("B", 2, "VPROCS", 2, "axis", 1, 0)));
    for v in ["C", "D", "E"] {
        assert!(rows.contains(&row(v, 1, "VPROCS", 1, "axis", 1, 0)));
        assert!(rows.contains(&row(v, 0, "VPROCS", 2, "constant", 0, 1)));
    }
    assert_eq!(rows.len(), 4 + 6);
    let d: Vec<(i64, &str)> = f
        .hpf_distribute
        .iter()
        .map(|d| (d.dim, d.format.as_str()))
        .collect();
    assert_eq!(d, [(1, "block"), (2, "block")]);
}

#[test]
fn replication_collapse_cyclic_and_processors() {
    let (f, diags) = lower_src(
        "t.f90",
        "program t
  integer, parameter :: n = 64
  real :: a(n, n), b(n), c(n)
!HPF$ PROCESSORS P(4, 2)
!HPF$ TEMPLATE T(0:n-1, n)
!HPF$ ALIGN A(I, *) WITH T(2*I+1, *)
!HPF$ ALIGN (I) WITH T(I, *) :: B
!HPF$ ALIGN (I) WITH T(I*I, 1) :: C
!HPF$ DISTRIBUTE T(CYCLIC(4), BLOCK) ONTO P
  a(1, 1) = 0.0
end program t
",
    );
    let p: Vec<(i64, i64)> = f.hpf_processors.iter().map(|p| (p.dim, p.extent)).collect();
    assert_eq!(p, [(1, 4), (2, 2)]);
    let t: Vec<(i64, i64, i64)> = f
        .hpf_template
        .iter()
        .map(|t| (t.dim, t.lower, t.upper))
        .collect();
    assert_eq!(t, [(1, 0, 63), (2, 1, 64)]);
    assert_eq!(
        align(&f),
        vec![
            row("A", 0, "T", 2, "replicated", 0, 0),
            row("A", 1, "T", 1, "axis", 2, 1),
            row("A", 2, "T", 0, "collapsed", 0, 0),
            row("B", 0, "T", 2, "replicated", 0, 0),
            row("B", 1, "T", 1, "axis", 1, 0),
        ]
    );
    let warnings: Vec<&str> = diags
        .iter()
        .filter(|d| !d.is_error())
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        warnings,
        ["ALIGN of `C` is not modelled: the target subscript is not affine in the align dummies"]
    );
    let d: Vec<(i64, &str, i64, &str)> = f
        .hpf_distribute
        .iter()
        .map(|d| (d.dim, d.format.as_str(), d.k, d.onto.as_str()))
        .collect();
    assert_eq!(d, [(1, "cyclic", 4, "P"), (2, "block", 0, "P")]);
}
