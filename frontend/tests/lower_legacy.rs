//! Statements of old programs that must not become opaque statements
//! (which would read and write every variable of the unit): FORMAT (in
//! every shape of its edit descriptors) and NAMELIST change no variable
//! and lower with no references and no warning; Cray POINTER declares its
//! pointees.

mod common;
use common::*;

fn assert_inert(f: &kaiseki_facts::FactBase, kind: &str, lines: &[i64]) {
    for &line in lines {
        let s = at_line(f, kind, line);
        assert!(refs(f, s).is_empty(), "{kind} on line {line}");
    }
    assert!(f.opaque.is_empty(), "{:?}", f.opaque);
}

#[test]
fn format_statements_fixed_form() {
    let f = facts(
        "t.f",
        "      PROGRAM T
      INTEGER N
      REAL X(10)
      N = 3
      WRITE(6,100) N
  100 FORMAT(//, 1X, 'T', I5)
  101 FORMAT(5HHELLO, 3(1X,I5), F10.3, E12.4E2, $)
  102 FORMAT(1X, I5, :, 2X, 4HIT'S, 1H!, 'A;B')
  103 FORMAT(/)
  104 FORMAT (1P, 3E15.7, 2X, A10, T20, TR5, BN, SP, G12.4)
      X(N) = 1.0
      END
",
    );
    assert_inert(&f, "format", &[6, 7, 8, 9, 10]);
    // N flows from line 4 to the WRITE and to X(N), past the FORMATs.
    let assign = at_line(&f, "assign", 4);
    let write = at_line(&f, "write", 5);
    assert_eq!(succs(&f, assign), [write]);
    assert_eq!(succs(&f, write), [at_line(&f, "assign", 11)]);
}

#[test]
fn format_statements_free_form() {
    let f = facts(
        "t.f90",
        "program t
  integer :: n
  n = 3
  write (6, 100) n
100 format(//, 1x, 'T', i5)
101 format (5HHELLO, 3(1x,i5), f10.3, e12.4e2, $)
  print 101, n
end program t
",
    );
    assert_inert(&f, "format", &[5, 6]);
}

#[test]
fn namelist_declares_its_variables() {
    let f = facts(
        "t.f",
        "      SUBROUTINE S(N)
      INTEGER N
      REAL B(10), C
      NAMELIST /NL/ N, B /NL2/ C, D
      B(N) = 1.0
      END
",
    );
    assert_inert(&f, "decl", &[4]);
    let vars: Vec<&str> = f.var.iter().map(|v| v.var.as_str()).collect();
    assert_eq!(vars, ["B", "C", "D", "N"]);
}

#[test]
fn cray_pointees_are_arrays_that_may_alias() {
    let src = "      SUBROUTINE S(N)
      INTEGER N, MX
      POINTER (IQMAX, MAX(1)), (QW, W(N, 2))
      MX = MAX0(MX, MAX(N))
      W(1, 2) = 1.0
      END
";
    let (program, diags) = kaiseki_frontend::parse_source("t.f", src);
    let shown: Vec<(u32, String)> = diags.iter().map(|d| (d.line, d.message.clone())).collect();
    assert_eq!(shown.len(), 1, "{shown:?}");
    assert!(!diags[0].is_error() && shown[0].0 == 3, "{shown:?}");
    assert!(shown[0].1.starts_with("Cray pointers are not modelled"));
    let (f, diags) = kaiseki_frontend::lower(&program);
    assert!(diags.is_empty(), "{diags:?}");
    let dims: Vec<(&str, i64)> = f.var.iter().map(|v| (v.var.as_str(), v.rank)).collect();
    assert_eq!(
        dims,
        [
            ("IQMAX", 0),
            ("MAX", 1),
            ("MX", 0),
            ("N", 0),
            ("QW", 0),
            ("W", 2)
        ]
    );
    // MAX(N) is an element of the pointee MAX, not the intrinsic.
    let s = at_line(&f, "assign", 4);
    let names: Vec<String> = refs(&f, s).into_iter().map(|(_, _, n)| n).collect();
    assert_eq!(names, ["MX", "MAX", "N", "MX"]);
    // A pointee's element is never a definition that kills.
    let w = refs(&f, at_line(&f, "assign", 5))[0].0;
    assert!(!f.must_def.iter().any(|m| m.r#ref == w));
}
