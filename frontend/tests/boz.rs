//! Binary, octal and hexadecimal (BOZ) constants in the forms gfortran
//! accepts: `B'101'`, `O'17'`, `Z'FF'`, `X'FF'` and `'FF'X`, `'17'O`, in DATA
//! statements and expressions, as the integers they stand for (gfortran
//! 10 and later wants them as arguments in expressions, `INT(Z'FF')`;
//! kaiseki also reads `Z'FF' + 1` as older compilers did).

mod common;
use common::*;

#[test]
fn boz_constants_in_data_and_expressions_fixed_form() {
    let f = facts(
        "t.f",
        "      PROGRAM T
      INTEGER L, M, K, MASK, A(300)
      PARAMETER (MASK = Z'F0')
      DATA L /Z'FF'/, M /'17'O/
      DATA K / B'101' /
      L = Z 'FF'
      M = IAND(L, O'17') + INT(X'10') + INT('A'X)
      A(INT(B'101') + 1) = MASK
      END
",
    );
    let init: Vec<&str> = f.data_init.iter().map(|d| d.var.as_str()).collect();
    assert_eq!(init, ["K", "L", "M"]);
    let params: Vec<(&str, &str)> = f
        .param
        .iter()
        .map(|p| (p.name.as_str(), p.value.as_str()))
        .collect();
    assert_eq!(params, [("MASK", "240")]);
    // `L = Z'FF'` gives L the affine value 255.
    let s = at_line(&f, "assign", 6);
    let id = f
        .assign_affine
        .iter()
        .find(|a| a.stmt == s)
        .expect("an affine assignment")
        .form;
    assert_eq!(form(&f, id), (255, vec![], vec![]));
    // M's right side: IAND(L, 15) + 16 + 10 is not affine (IAND), but reads L.
    let s = at_line(&f, "assign", 7);
    assert_eq!(refs(&f, s).iter().filter(|r| r.1 == "use").count(), 1);
    let s = at_line(&f, "assign", 8);
    let def = refs(&f, s)[0].0;
    assert_eq!(subscripts(&f, def), vec![Some((6, vec![], vec![]))]);
}

#[test]
fn boz_constants_free_form_and_a_bad_digit() {
    let f = facts(
        "t.f90",
        "program t
  integer :: l
  l = int(b\"1111\") + int(o\"7\")
end program t
",
    );
    let s = at_line(&f, "assign", 3);
    let id = f.assign_affine.iter().find(|a| a.stmt == s).unwrap().form;
    assert_eq!(form(&f, id), (22, vec![], vec![]));
    let (_, diags) = lower_src("t.f90", "program t\n  l = z'ff' + 1\nend program t\n");
    assert!(diags.is_empty(), "{diags:?}");
    let (_, diags) =
        kaiseki_frontend::parse_source("t.f90", "program t\n  l = b'102'\nend program t\n");
    let e: Vec<(u32, u32, &str)> = diags
        .iter()
        .map(|d| (d.line, d.col, d.message.as_str()))
        .collect();
    assert_eq!(
        e,
        [(
            2,
            7,
            "`2` is not a digit of this binary, octal or hexadecimal constant"
        )]
    );
}
