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

// ------------------------------------------------------------ every form

/// Parses and lowers `text` as `kaiseki check` does, which must find no
/// error; the warnings (parse, then lowering) as (line, message).
fn checked(path: &str, text: &str) -> (kaiseki_facts::FactBase, Vec<(u32, String)>) {
    let (program, mut diags) = kaiseki_frontend::parse_source(path, text);
    let (f, lower_diags) = kaiseki_frontend::lower(&program);
    diags.extend(lower_diags);
    let errors: Vec<String> = diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.to_string())
        .collect();
    assert!(errors.is_empty(), "errors:\n{}", errors.join("\n"));
    let warnings = diags.iter().map(|d| (d.line, d.message.clone())).collect();
    (f, warnings)
}

fn no_warnings(w: &[(u32, String)]) {
    assert!(w.is_empty(), "{w:?}");
}

type DistRow = (String, i64, String, i64, String);

fn distribute(f: &kaiseki_facts::FactBase) -> Vec<DistRow> {
    f.hpf_distribute
        .iter()
        .map(|d| {
            (
                d.template.clone(),
                d.dim,
                d.format.clone(),
                d.k,
                d.onto.clone(),
            )
        })
        .collect()
}

fn dist(t: &str, dim: i64, format: &str, k: i64, onto: &str) -> DistRow {
    (t.into(), dim, format.into(), k, onto.into())
}

fn processors(f: &kaiseki_facts::FactBase) -> Vec<(String, i64, i64)> {
    f.hpf_processors
        .iter()
        .map(|p| (p.name.clone(), p.dim, p.extent))
        .collect()
}

fn templates(f: &kaiseki_facts::FactBase) -> Vec<(String, i64, i64, i64)> {
    f.hpf_template
        .iter()
        .map(|t| (t.name.clone(), t.dim, t.lower, t.upper))
        .collect()
}

fn p(name: &str, dim: i64, extent: i64) -> (String, i64, i64) {
    (name.into(), dim, extent)
}

fn t(name: &str, dim: i64, lower: i64, upper: i64) -> (String, i64, i64, i64) {
    (name.into(), dim, lower, upper)
}

#[test]
fn independent_index_lists_new_and_on_home() {
    let (f, w) = checked(
        "i.f",
        "      PROGRAM I
      REAL A(10, 10), X
CHPF$ INDEPENDENT(J, I), NEW(X)
      DO J = 1, 10
      DO I = 1, 10
      X = J
      A(I, J) = X
      ENDDO
      ENDDO
!HPF$ INDEPENDENT NEW(X)
      DO I = 1, 10
      X = I
      ENDDO
*HPF$ INDEPENDENT, ON HOME(A(I, 1))
      DO I = 1, 10
      A(I, 1) = 0
      ENDDO
      END
",
    );
    assert_eq!(
        w,
        [(
            14,
            "the ON HOME clause of INDEPENDENT is not modelled; ignored".to_string()
        )]
    );
    let ind: Vec<i64> = f.hpf_independent.iter().map(|h| h.r#loop).collect();
    assert_eq!(
        ind,
        [
            loop_at(&f, 4),
            loop_at(&f, 5),
            loop_at(&f, 11),
            loop_at(&f, 15)
        ]
    );
    let new: Vec<(i64, &str)> = f
        .hpf_new
        .iter()
        .map(|n| (n.r#loop, n.var.as_str()))
        .collect();
    assert_eq!(
        new,
        [
            (loop_at(&f, 4), "X"),
            (loop_at(&f, 5), "X"),
            (loop_at(&f, 11), "X")
        ]
    );
}

#[test]
fn align_several_alignees_and_attribute_forms() {
    let (f, w) = checked(
        "a.f90",
        "program a
  integer, parameter :: n = 10
  real :: a(n), b(n), c(n, n), d(n, n), s(n), u(4, 4, n), rhs(4, 4, n), e(n, n)
!HPF$ TEMPLATE T(n), T2(n, n), G(n), SCALAR
!HPF$ ALIGN A(I), B(I) WITH T(I)
!HPF$ ALIGN X WITH SCALAR
!HPF$ ALIGN WITH T(I) :: S(I)
!HPF$ ALIGN (I, J) WITH T2(J, I) :: C, D
!HPF$ ALIGN (*, *, :) WITH G :: U, RHS
!HPF$ ALIGN E WITH *T2
end program a
",
    );
    no_warnings(&w);
    assert_eq!(
        align(&f),
        vec![
            row("A", 1, "T", 1, "axis", 1, 0),
            row("B", 1, "T", 1, "axis", 1, 0),
            row("C", 1, "T2", 2, "axis", 1, 0),
            row("C", 2, "T2", 1, "axis", 1, 0),
            row("D", 1, "T2", 2, "axis", 1, 0),
            row("D", 2, "T2", 1, "axis", 1, 0),
            row("E", 1, "T2", 1, "axis", 1, 0),
            row("E", 2, "T2", 2, "axis", 1, 0),
            row("RHS", 1, "G", 0, "collapsed", 0, 0),
            row("RHS", 2, "G", 0, "collapsed", 0, 0),
            row("RHS", 3, "G", 1, "axis", 1, 0),
            row("S", 1, "T", 1, "axis", 1, 0),
            row("U", 1, "G", 0, "collapsed", 0, 0),
            row("U", 2, "G", 0, "collapsed", 0, 0),
            row("U", 3, "G", 1, "axis", 1, 0),
        ]
    );
}

#[test]
fn align_with_triplets_and_with_arrays() {
    let (f, w) = checked(
        "t.f90",
        "program t
  integer, parameter :: n = 8
  real :: a(0:n-1, n), b(n, n), c(n), x(6, n), phi(n), q(n)
!HPF$ TEMPLATE T(0:2*n, 0:n)
!HPF$ ALIGN B(:, :) WITH A(:, :)
!HPF$ ALIGN C(:) WITH T(1:n, *)
!HPF$ ALIGN Q(:) WITH T(2::2, 0)
!HPF$ ALIGN (:) WITH X(*, :) :: PHI
!HPF$ DISTRIBUTE X(*, BLOCK)
end program t
",
    );
    no_warnings(&w);
    assert_eq!(
        align(&f),
        vec![
            // B(i, j) with A(i-1, j): A's first dimension starts at 0.
            row("B", 1, "A", 1, "axis", 1, -1),
            row("B", 2, "A", 2, "axis", 1, 0),
            row("C", 0, "T", 2, "replicated", 0, 0),
            row("C", 1, "T", 1, "axis", 1, 0),
            row("PHI", 0, "X", 1, "replicated", 0, 0),
            row("PHI", 1, "X", 2, "axis", 1, 0),
            // Q(i) with T(2 + 2*(i-1)).
            row("Q", 0, "T", 2, "constant", 0, 0),
            row("Q", 1, "T", 1, "axis", 2, 0),
        ]
    );
    assert_eq!(
        distribute(&f),
        [dist("X", 1, "*", 0, ""), dist("X", 2, "block", 0, "")]
    );
}

#[test]
fn distribute_forms() {
    let (f, w) = checked(
        "d.f",
        "      SUBROUTINE D(A, B, C, E)
      REAL A(100), B(100), C(100), E(100, 100), G(100)
CHPF$ PROCESSORS P(4), Q(2, 2)
CHPF$ TEMPLATE T(100, 100), T2(100)
CHPF$ DISTRIBUTE A * (BLOCK)
CHPF$ DISTRIBUTE T(BLOCK, CYCLIC(3)) ONTO Q
CHPF$ DISTRIBUTE (CYCLIC) ONTO P :: B, C
CHPF$ DISTRIBUTE E *(BLOCK, *) ONTO *Q
CHPF$ DISTRIBUTE T2 ONTO P
CHPF$ DISTRIBUTE G
CHPF$ DISTRIBUTE *(BLOCK) :: G
      END
",
    );
    let transcriptive = "DISTRIBUTE without a format (the compiler's choice, or `*`: the actual argument's) is not modelled; ignored".to_string();
    assert_eq!(w, [(9, transcriptive.clone()), (10, transcriptive)]);
    assert_eq!(
        distribute(&f),
        [
            dist("A", 1, "block", 0, ""),
            dist("B", 1, "cyclic", 1, "P"),
            dist("C", 1, "cyclic", 1, "P"),
            dist("E", 1, "block", 0, "Q"),
            dist("E", 2, "*", 0, "Q"),
            dist("G", 1, "block", 0, ""),
            dist("T", 1, "block", 0, "Q"),
            dist("T", 2, "cyclic", 3, "Q"),
        ]
    );
}

/// A DISTRIBUTE directive with several distributees, each with its own
/// formats and ONTO, gives the facts of one directive per distributee.
#[test]
fn distribute_lists_are_separate_directives() {
    let unit = |directives: &str| {
        format!(
            "program d\n  real a(100), b(100, 100), c(100)\n\
             !hpf$ processors p(4), q(2, 2)\n{directives}\nend program d\n"
        )
    };
    let (listed, w) = checked(
        "l.f90",
        &unit("!hpf$ distribute a(block), b(cyclic(2), block) onto q, c(cyclic) onto p"),
    );
    no_warnings(&w);
    let (separate, w) = checked(
        "s.f90",
        &unit(
            "!hpf$ distribute a(block)\n\
             !hpf$ distribute b(cyclic(2), block) onto q\n\
             !hpf$ distribute c(cyclic) onto p",
        ),
    );
    no_warnings(&w);
    assert_eq!(
        distribute(&listed),
        [
            dist("A", 1, "block", 0, ""),
            dist("B", 1, "cyclic", 2, "Q"),
            dist("B", 2, "block", 0, "Q"),
            dist("C", 1, "cyclic", 1, "P"),
        ]
    );
    assert_eq!(distribute(&listed), distribute(&separate));
}

#[test]
fn processors_and_templates_in_all_forms() {
    let (f, w) = checked(
        "p.f90",
        "subroutine p(n)
  integer :: n
!HPF$ PROCESSORS P1(4), P2(0:1, 3), SCALAR
!HPF$ PROCESSORS :: P3(2)
!HPF$ PROCESSORS, DIMENSION(2, 2) :: P4, P5
!HPF$ PROCESSORS PN(NUMBER_OF_PROCESSORS()), PS(PROCESSORS_SHAPE())
!HPF$ TEMPLATE T1(10), T2(0:9, 5)
!HPF$ TEMPLATE :: T3(4)
!HPF$ TEMPLATE, DIMENSION(-1:1) :: T4, T5
!HPF$ TEMPLATE, DISTRIBUTE(BLOCK) ONTO P1 :: T6(100)
!HPF$ TEMPLATE TN(n, 3)
end subroutine p
",
    );
    assert_eq!(
        w,
        [(
            11,
            "the bounds of dimension 1 of template `TN` are not constants; it has no hpf_template row"
                .to_string()
        )]
    );
    assert_eq!(
        processors(&f),
        [
            p("P1", 1, 4),
            p("P2", 1, 2),
            p("P2", 2, 3),
            p("P3", 1, 2),
            p("P4", 1, 2),
            p("P4", 2, 2),
            p("P5", 1, 2),
            p("P5", 2, 2),
            p("PN", 1, 0),
            p("PS", 1, 0),
        ]
    );
    assert_eq!(
        templates(&f),
        [
            t("T1", 1, 1, 10),
            t("T2", 1, 0, 9),
            t("T2", 2, 1, 5),
            t("T3", 1, 1, 4),
            t("T4", 1, -1, 1),
            t("T5", 1, -1, 1),
            t("T6", 1, 1, 100),
            t("TN", 2, 1, 3),
        ]
    );
    assert_eq!(distribute(&f), [dist("T6", 1, "block", 0, "P1")]);
}

#[test]
fn remapped_arrays_and_templates_have_no_static_mapping() {
    let (f, w) = checked(
        "r.f",
        "      PROGRAM R
      REAL A(10), B(10), C(10), D(10)
CHPF$ TEMPLATE T(10), U(10)
CHPF$ DYNAMIC B, U
CHPF$ ALIGN A(I) WITH T(I)
CHPF$ ALIGN B(I) WITH T(I)
CHPF$ ALIGN C(I) WITH U(I)
CHPF$ DISTRIBUTE T(BLOCK)
CHPF$ DISTRIBUTE U(BLOCK)
      A(1) = 0
CHPF$ REALIGN A(I) WITH T(11-I)
CHPF$ REDISTRIBUTE T(CYCLIC)
CHPF$ INHERIT C
CHPF$ REALIGN WITH T(*) :: A(*)
CHPF$ REDISTRIBUTE (BLOCK) ONTO *P :: T
CHPF$ DYNAMIC, ALIGN WITH T :: D
      END
",
    );
    let lines: Vec<u32> = w.iter().map(|x| x.0).collect();
    assert_eq!(lines, [13, 4, 11, 12, 14, 15, 16]);
    assert_eq!(
        w[0].1,
        "INHERIT is not modelled: the dummy's mapping is its actual argument's; ignored"
    );
    assert_eq!(
        w[1].1,
        "DYNAMIC is not modelled: the mapping of `B`, `U` may change while the unit runs, so none is lowered"
    );
    // C keeps its alignment with U: only U's distribution changes.
    assert_eq!(align(&f), vec![row("C", 1, "U", 1, "axis", 1, 0)]);
    assert!(f.hpf_distribute.is_empty());
    assert_eq!(templates(&f), [t("T", 1, 1, 10), t("U", 1, 1, 10)]);
}

#[test]
fn extrinsic_local_units_are_parsed_but_not_lowered() {
    let (f, w) = checked(
        "e.f",
        "      PROGRAM MAIN
      REAL X(10), Y
      INTERFACE
        PURE EXTRINSIC (HPF_LOCAL)
     &    SUBROUTINE LOC(A)
          REAL, INTENT(INOUT) :: A(:)
        END SUBROUTINE
      END INTERFACE
      CALL LOC(X)
      Y = F(X)
      CALL SER(X)
      END
      EXTRINSIC(HPF_LOCAL) SUBROUTINE LOC(A)
      REAL A(:)
!HPF$ DISTRIBUTE (BLOCK) :: A
      A = 1
      END SUBROUTINE LOC
      PURE EXTRINSIC(F77_LOCAL) REAL FUNCTION F(A)
      REAL A(*)
      F = A(1)
      END
      EXTRINSIC(LANGUAGE='HPF', MODEL='LOCAL') SUBROUTINE L2
      END
      EXTRINSIC(HPF_SERIAL) SUBROUTINE SER(A)
      REAL A(10)
      A(1) = 2
      END
",
    );
    let expected = [
        (13, "EXTRINSIC(HPF_LOCAL) procedure `LOC` is not analyzed: its body works on each processor's part of the arrays; calls to it are calls to an unknown procedure"),
        (18, "EXTRINSIC(F77_LOCAL) procedure `F` is not analyzed: its body works on each processor's part of the arrays; calls to it are calls to an unknown procedure"),
        (22, "EXTRINSIC(LANGUAGE='HPF', MODEL='LOCAL') procedure `L2` is not analyzed: its body works on each processor's part of the arrays; calls to it are calls to an unknown procedure"),
    ];
    let got: Vec<(u32, &str)> = w.iter().map(|(l, m)| (*l, m.as_str())).collect();
    assert_eq!(got, expected);
    let units: Vec<&str> = f.unit.iter().map(|u| u.unit.as_str()).collect();
    assert_eq!(units, ["MAIN", "SER"]);
    let calls: Vec<&str> = f.call.iter().map(|c| c.callee.as_str()).collect();
    assert_eq!(calls, ["LOC", "F", "SER"]);
    assert!(f.hpf_distribute.is_empty());
}

#[test]
fn hpf_library_functions_are_intrinsics_where_used() {
    let (f, w) = checked(
        "l.f90",
        "subroutine s(v, idx, n)
  use hpf_library
  implicit none
  integer :: n, idx(n)
  real :: v(n), r(n)
  r = sum_scatter(v, r, idx)
  n = ilen(n) + number_of_processors()
end subroutine s
subroutine t(v)
  use hpf_library, only: grade_up
  integer :: v(10), g(10, 1)
  g = grade_up(v)
  k = ilen(3)
end subroutine t
subroutine u
  use hpf_library, lz => leadz
  k = lz(3) + leadz(4)
end subroutine u
",
    );
    no_warnings(&w);
    let calls: Vec<&str> = f.call.iter().map(|c| c.callee.as_str()).collect();
    assert_eq!(calls, ["ILEN", "LEADZ"]);
    let decls = f.stmt.iter().filter(|s| s.kind == "decl").count();
    assert!(decls >= 3, "USE HPF_LIBRARY is a declaration");
    assert!(!f.stmt.iter().any(|s| s.kind == "opaque"));
}

#[test]
fn bad_hpf_directives_are_errors_at_their_place() {
    let (p, d) = kaiseki_frontend::parse_source(
        "b.f90",
        "program b
  real :: a(10)
!HPF$ TEMPLATE T(10)
!HPF$ ALIGN A(I+1) WITH T(I)
!HPF$ TEMPLATE T2(*)
!HPF$ DISTRIBUTE (BLOCK) :: A(3)
!HPF$ DIMENSION(4) :: A
!HPF$ INDEPENDENT, NEW(A(1))
  do i = 1, 10
    a(i) = 0
  end do
end program b
",
    );
    let shown: Vec<String> = d.iter().map(|x| x.to_string()).collect();
    assert_eq!(
        shown,
        [
            "b.f90:4:15: error: an align source subscript is an align dummy, `:` or `*`\n  !HPF$ ALIGN A(I+1) WITH T(I)\n                ^",
            "b.f90:5:19: error: the shape of a processor arrangement or template needs its upper bounds\n  !HPF$ TEMPLATE T2(*)\n                    ^",
            "b.f90:6:31: error: subscripts here need PROCESSORS, TEMPLATE or an ALIGN without a source list\n  !HPF$ DISTRIBUTE (BLOCK) :: A(3)\n                                ^",
            "b.f90:7:7: error: DIMENSION in an HPF directive needs PROCESSORS or TEMPLATE\n  !HPF$ DIMENSION(4) :: A\n        ^",
            "b.f90:8:20: error: NEW names variables\n  !HPF$ INDEPENDENT, NEW(A(1))\n                     ^",
        ]
    );
    // What was valid is still there: the template and the loop.
    let (f, _) = kaiseki_frontend::lower(&p);
    assert_eq!(templates(&f), [t("T", 1, 1, 10)]);
    assert_eq!(f.r#loop.len(), 1);
}
