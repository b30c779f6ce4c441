//! Fixed form ignores blanks outside character and Hollerith constants:
//! inside dotted operators and logical constants, names and numbers, and
//! between a keyword and what follows it (`DO10I=1,N`). The facts of such
//! statements are those of the same statements written with blanks.

mod common;
use common::*;

fn conds(f: &kaiseki_facts::FactBase) -> Vec<String> {
    f.cond.iter().map(|c| c.text.clone()).collect()
}

#[test]
fn blanks_inside_dotted_operators_and_logical_constants() {
    let f = facts(
        "t.f",
        "      PROGRAM T
      REAL X(10)
      LOGICAL L
      X(1) = 2.0
      IF (X(1) . EQ . 2.0) Y = 1.0
      IF (X(1) .eq . 2.0 . AND. .TRUE .) Y = 2.0
      L = . NOT . (Y .G T. 1.0) .OR.. FALSE.
      END
",
    );
    assert_eq!(conds(&f), ["X(1).EQ.2.0", "X(1).EQ.2.0.AND..TRUE."]);
    // The reference to X in the first IF is where X stands.
    let s = at_line(&f, "logical_if", 5);
    let r = refs(&f, s)[0].0;
    let pos = f.ref_pos.iter().find(|p| p.r#ref == r).unwrap();
    assert_eq!((pos.line, pos.col), (5, 11));
    let s = at_line(&f, "assign", 7);
    let names: Vec<String> = refs(&f, s).into_iter().map(|(_, _, n)| n).collect();
    assert_eq!(names, ["Y", "L"]);
}

#[test]
fn keywords_that_run_into_names_are_split_off() {
    let f = facts(
        "t.f",
        "      PROGRAMRUN
      IMPLICITDOUBLEPRECISION(A-H,O-Z)
      INTEGERI,N,J2
      REAL*8D1,D2X
      CHARACTER*8NAME
      DIMENSIONA(10),B(10)
      COMMON/BLK/A
      PARAMETER(N=10)
      DATAB/10*0.0/
      D O 1 0 I = 1 , N
        A ( I ) = B ( I ) * 2 . 0 D 0
   10 CONTINUE
      DO20J2=1,N
        X MAX = A(J2)
   20 CONTINUE
      DO 30, I = 1, N
   30 CONTINUE
      IF(X MAX.GT.0.0)CALLSUB(A,N)
   40 DO50WHILE(I.LT.N)
        I = I + 1
   50 CONTINUE
      DO10I=1.5
      D1 = DSQRT(D O10I)
      GOTO60
   60 PRINT100,D1
  100 FORMAT(1X, F10.3)
      STOP1
      END
      REALFUNCTIONF(X)
      F = X
      RETURN
      END
      CHARACTER*8FUNCTIONG(X)
      G = 'A'
      ENDFUNCTIONG
      SUBROUTINESUB(A,N)
      DOUBLEPRECISION A(N)
      END
",
    );
    let units: Vec<(&str, &str)> = f
        .unit
        .iter()
        .map(|u| (u.unit.as_str(), u.kind.as_str()))
        .collect();
    assert_eq!(
        units,
        [
            ("F", "function"),
            ("G", "function"),
            ("RUN", "program"),
            ("SUB", "subroutine")
        ]
    );
    let loops: Vec<(String, String, i64)> = f
        .r#loop
        .iter()
        .map(|l| (l.kind.clone(), l.var.clone(), l.line))
        .collect();
    assert_eq!(
        loops,
        [
            ("do".into(), "I".into(), 10),
            ("do".into(), "J2".into(), 13),
            ("do".into(), "I".into(), 16),
            ("do_while".into(), "".into(), 19),
        ]
    );
    let bounds: Vec<(String, String)> = f
        .loop_bounds
        .iter()
        .map(|b| (b.lower.clone(), b.upper.clone()))
        .collect();
    assert_eq!(bounds[0], ("1".into(), "10".into()));
    let names: Vec<(&str, &str)> = f
        .var
        .iter()
        .filter(|v| v.unit == "RUN")
        .map(|v| (v.var.as_str(), v.r#type.as_str()))
        .collect();
    assert_eq!(
        names,
        [
            ("A", "double"),
            ("B", "double"),
            ("D1", "double"),
            ("D2X", "double"),
            ("DO10I", "double"),
            ("I", "integer"),
            ("J2", "integer"),
            ("NAME", "character"),
            ("XMAX", "double"),
        ]
    );
    let callees: Vec<&str> = f.call.iter().map(|c| c.callee.as_str()).collect();
    assert_eq!(callees, ["SUB"]);
    // `DO10I=1.5` assigns DO10I; GOTO60 goes to label 60; STOP1 stops.
    let assign = at_line(&f, "assign", 22);
    assert_eq!(refs(&f, assign)[0].2, "DO10I");
    let goto = at_line(&f, "goto", 24);
    assert_eq!(succs(&f, goto), [at_line(&f, "print", 25)]);
    at_line(&f, "stop", 27);
    at_line(&f, "format", 26);
}

#[test]
fn free_form_keeps_its_blanks() {
    let (_, diags) = kaiseki_frontend::parse_source(
        "t.f90",
        "program t\n  real :: x\n  if (x . eq . 2.0) x = 1.0\nend program t\n",
    );
    let errors: Vec<(u32, u32)> = diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| (d.line, d.col))
        .collect();
    assert_eq!(errors, [(3, 9)]);
}

#[test]
fn hollerith_constants_keep_their_blanks_and_comment_characters() {
    let (program, diags) = kaiseki_frontend::parse_source(
        "t.f",
        "      PROGRAM T
      CALL SUB(11HHELLO! ; 'X, 1H )
      END
",
    );
    assert!(diags.is_empty(), "{diags:?}");
    let kaiseki_frontend::ast::StmtKind::Call { args, .. } = &program.units[0].body[0].kind else {
        panic!("a CALL");
    };
    let texts: Vec<String> = args
        .iter()
        .map(|a| match &a.kind {
            kaiseki_frontend::ast::ExprKind::Str(s) => s.clone(),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(texts, ["HELLO! ; 'X", " "]);
}
