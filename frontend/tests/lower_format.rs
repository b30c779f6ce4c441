//! Statements that real programs contain and that change no variable:
//! FORMAT (in every shape of its edit descriptors) and NAMELIST lower to
//! plain statements with no references and no warning, never to opaque
//! statements (which would read and write every variable of the unit).

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
