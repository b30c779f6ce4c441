//! Parser tests through the public API: statement kinds, tree shapes of
//! loops and IF blocks, HPF directives, precedence, error recovery and the
//! positions diagnostics point at.

use kaiseki_frontend::ast::*;
use kaiseki_frontend::{parse_source, Diagnostic};

fn parse_clean(path: &str, src: &str) -> Program {
    let (p, d) = parse_source(path, src);
    let shown: Vec<String> = d.iter().map(|x| x.to_string()).collect();
    assert!(
        shown.is_empty(),
        "unexpected diagnostics:\n{}",
        shown.join("\n")
    );
    p
}

/// Free-form program with `body` as the executable part.
fn free(body: &str) -> Program {
    parse_clean("t.f90", &format!("program t\n{body}\nend program t\n"))
}

fn body(p: &Program) -> &[Stmt] {
    &p.units[0].body
}

/// A compact rendering of an expression, fully parenthesised.
fn show(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Int(v) => v.to_string(),
        ExprKind::Real(s) => s.clone(),
        ExprKind::Logical(b) => if *b { ".T." } else { ".F." }.into(),
        ExprKind::Str(s) => format!("'{s}'"),
        ExprKind::Var(v) => v.clone(),
        ExprKind::Apply { name, args } => {
            let a: Vec<String> = args.iter().map(show).collect();
            format!("{name}({})", a.join(","))
        }
        ExprKind::Range {
            lower,
            upper,
            stride,
        } => {
            let o = |x: &Option<Box<Expr>>| x.as_deref().map(show).unwrap_or_default();
            match stride {
                Some(_) => format!("{}:{}:{}", o(lower), o(upper), o(stride)),
                None => format!("{}:{}", o(lower), o(upper)),
            }
        }
        ExprKind::Unary(op, x) => format!("({op:?} {})", show(x)),
        ExprKind::Binary(op, a, b) => format!("({} {op:?} {})", show(a), show(b)),
    }
}

fn assign_rhs(src: &str) -> String {
    let p = free(&format!("x = {src}"));
    match &body(&p)[0].kind {
        StmtKind::Assign { rhs, .. } => show(rhs),
        k => panic!("{k:?}"),
    }
}

/// The shape of a statement list: kinds and nesting, e.g. `Do[Assign,Do[Assign]]`.
fn shape(stmts: &[Stmt]) -> String {
    let parts: Vec<String> = stmts
        .iter()
        .map(|s| match &s.kind {
            StmtKind::Do { body, end, .. } => {
                let e = match end {
                    LoopEnd::Label(l) => format!("@{l}"),
                    LoopEnd::EndDo { .. } => String::new(),
                };
                format!("Do{e}[{}]", shape(body))
            }
            StmtKind::DoWhile { body, .. } => format!("While[{}]", shape(body)),
            StmtKind::If {
                arms, else_part, ..
            } => {
                let mut s: Vec<String> = arms.iter().map(|a| shape(&a.body)).collect();
                if let Some(e) = else_part {
                    s.push(format!("else {}", shape(&e.body)));
                }
                format!("If[{}]", s.join(" | "))
            }
            StmtKind::Assign { .. } => "A".into(),
            StmtKind::Continue => "C".into(),
            StmtKind::LogicalIf { .. } => "LIf".into(),
            StmtKind::Opaque { .. } => "Opaque".into(),
            StmtKind::Select { cases, .. } => {
                let s: Vec<String> = cases
                    .iter()
                    .map(|c| match c.values {
                        Some(_) => shape(&c.body),
                        None => format!("default {}", shape(&c.body)),
                    })
                    .collect();
                format!("Select[{}]", s.join(" | "))
            }
            StmtKind::Exit { construct: None } => "Exit".into(),
            StmtKind::Exit { construct: Some(n) } => format!("Exit {n}"),
            StmtKind::Cycle { construct: None } => "Cycle".into(),
            StmtKind::Cycle { construct: Some(n) } => format!("Cycle {n}"),
            k => format!("{k:?}")
                .split([' ', '(', '{'])
                .next()
                .unwrap()
                .to_string(),
        })
        .collect();
    parts.join(",")
}

fn errors(d: &[Diagnostic]) -> Vec<&Diagnostic> {
    d.iter().filter(|x| x.is_error()).collect()
}

// ------------------------------------------------------------------ precedence

#[test]
fn power_binds_tighter_than_unary_minus_and_is_right_associative() {
    assert_eq!(assign_rhs("-2**2"), "(Neg (2 Pow 2))");
    assert_eq!(assign_rhs("2**3**2"), "(2 Pow (3 Pow 2))");
    assert_eq!(assign_rhs("-a*b"), "(Neg (A Mul B))");
    assert_eq!(assign_rhs("a - b - c"), "((A Sub B) Sub C)");
    assert_eq!(assign_rhs("a / b * c"), "((A Div B) Mul C)");
    assert_eq!(assign_rhs("a + b * c ** 2"), "(A Add (B Mul (C Pow 2)))");
    assert_eq!(assign_rhs("a * -b"), "(A Mul (Neg B))");
    assert_eq!(assign_rhs("x ** -1"), "(X Pow (Neg 1))");
    assert_eq!(assign_rhs("(a + b) * c"), "((A Add B) Mul C)");
}

#[test]
fn logical_and_relational_precedence() {
    assert_eq!(
        assign_rhs("a .lt. b .and. .not. c .or. d == e"),
        "(((A Lt B) And (Not C)) Or (D Eq E))"
    );
    assert_eq!(assign_rhs("a .eqv. b .neqv. c"), "((A Eqv B) Neqv C)");
    assert_eq!(assign_rhs("a /= b"), "(A Ne B)");
    assert_eq!(assign_rhs("a <= b + 1"), "(A Le (B Add 1))");
    assert_eq!(assign_rhs("s // 'x' // t"), "((S Concat 'x') Concat T)");
    assert_eq!(assign_rhs(".true. .and. .false."), "(.T. And .F.)");
}

#[test]
fn literals_calls_sections_and_complex_constants() {
    assert_eq!(
        assign_rhs("1.0 + 1.E5 + 2.5D0 + .5"),
        "(((1.0 Add 1.E5) Add 2.5D0) Add .5)"
    );
    assert_eq!(assign_rhs("max(a, b(i, j))"), "MAX(A,B(I,J))");
    assert_eq!(
        assign_rhs("sum(a(1:n:2)) + sum(b(:, j))"),
        "(SUM(A(1:N:2)) Add SUM(B(:,J)))"
    );
    assert_eq!(assign_rhs("(1.0, 2.0)"), "CMPLX(1.0,2.0)");
    assert_eq!(assign_rhs("'it''s'"), "'it's'");
    assert_eq!(assign_rhs("f()"), "F()");
}

// ------------------------------------------------------------------ statements

#[test]
fn each_executable_statement_kind() {
    let p = free(
        "  read (*,*) n, m\n  read *, k\n  read (5, 100) a\n  write (*,*) n\n  write (6, 100) n, a\n\
         print *, n\n  print 100, n\n  print *\n100 format (1x, i5, f10.3, 'text!')\n\
         call s(a, n)\n  call t\n  goto 10\n  go to 10\n  go to (10, 20), n\n  if (n) 10, 20, 30\n\
         10 continue\n20 continue\n30 if (n > 0) return\n  stop\n  stop 1\n",
    );
    let kinds: Vec<String> = body(&p)
        .iter()
        .map(|s| {
            format!("{:?}", s.kind)
                .split([' ', '(', '{'])
                .next()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "Read",
            "Read",
            "Read",
            "Write",
            "Write",
            "Print",
            "Print",
            "Print",
            "Format",
            "Call",
            "Call",
            "Goto",
            "Goto",
            "ComputedGoto",
            "ArithIf",
            "Continue",
            "Continue",
            "LogicalIf",
            "Stop",
            "Stop"
        ]
    );
    let b = body(&p);
    assert!(matches!(&b[0].kind, StmtKind::Read { items, .. } if items.len() == 2));
    assert!(matches!(&b[4].kind, StmtKind::Write { items, .. } if items.len() == 2));
    assert!(matches!(&b[7].kind, StmtKind::Print { items, .. } if items.is_empty()));
    assert_eq!(b[8].label, Some(100));
    assert!(
        matches!(&b[9].kind, StmtKind::Call { name, args } if name.text == "S" && args.len() == 2)
    );
    assert!(matches!(&b[13].kind, StmtKind::ComputedGoto { labels, .. } if labels == &[10, 20]));
    assert!(matches!(
        &b[14].kind,
        StmtKind::ArithIf {
            neg: 10,
            zero: 20,
            pos: 30,
            ..
        }
    ));
    match &b[17].kind {
        StmtKind::LogicalIf { stmt, .. } => {
            assert!(matches!(stmt.kind, StmtKind::Return));
            assert_eq!(stmt.pos.col, 15);
        }
        k => panic!("{k:?}"),
    }
}

#[test]
fn assignments_to_names_that_are_keywords() {
    let p =
        free("  data = 1\n  if (data > 0) do = 2\n  real(1) = 3.0\n  index(2) = do\n  end = data");
    let shown: Vec<String> = body(&p)
        .iter()
        .map(|s| match &s.kind {
            StmtKind::Assign { lhs, rhs } => format!("{} = {}", show(lhs), show(rhs)),
            StmtKind::LogicalIf { stmt, .. } => match &stmt.kind {
                StmtKind::Assign { lhs, rhs } => format!("if {} = {}", show(lhs), show(rhs)),
                k => panic!("{k:?}"),
            },
            k => panic!("{k:?}"),
        })
        .collect();
    assert_eq!(
        shown,
        [
            "DATA = 1",
            "if DO = 2",
            "REAL(1) = 3.0",
            "INDEX(2) = DO",
            "END = DATA"
        ]
    );
}

/// Statements of `p`'s units rendered compactly: each unit's kind and
/// name, then assignments as `lhs = rhs` and the rest by their shape.
fn units_and_assignments(p: &Program) -> Vec<String> {
    fn stmts(out: &mut Vec<String>, body: &[Stmt]) {
        for s in body {
            match &s.kind {
                StmtKind::Assign { lhs, rhs } => out.push(format!("{} = {}", show(lhs), show(rhs))),
                StmtKind::If {
                    arms, else_part, ..
                } => {
                    for a in arms {
                        out.push(format!("if {}", show(&a.cond)));
                        stmts(out, &a.body);
                    }
                    if let Some(e) = else_part {
                        out.push("else".into());
                        stmts(out, &e.body);
                    }
                    out.push("end if".into());
                }
                StmtKind::LogicalIf { cond, stmt } => {
                    out.push(format!("if {} then:", show(cond)));
                    stmts(out, std::slice::from_ref(stmt));
                }
                _ => out.push(shape(std::slice::from_ref(s))),
            }
        }
    }
    let mut out = Vec::new();
    for u in &p.units {
        out.push(format!("{:?} {}", u.kind, u.name.text));
        stmts(&mut out, &u.body);
    }
    out
}

/// Fortran reserves no words: a unit or variable named like a compound
/// keyword written as one word (`ELSEIF`, `ENDIF`, `GOTO`, `ENDDO`) is a
/// name wherever it is not the statement's keyword, in both forms.
#[test]
fn names_spelled_like_compound_keywords() {
    let free_src = "program elseif\n\
         integer elseif, endif, goto, enddo(2)\n\
         elseif = 1\n\
         endif = elseif + 1\n\
         enddo(2) = goto\n\
         if (elseif > endif) then\n\
         goto = 1\n\
         else if (endif > 0) then\n\
         goto = 2\n\
         else\n\
         goto = 3\n\
         end if\n\
         if (goto > 0) goto 10\n\
         10 call enddo(elseif)\n\
         end program elseif\n\
         subroutine enddo(x)\n\
         x = 0\n\
         end subroutine enddo\n";
    let fixed_src = free_src
        .lines()
        .map(|l| match l.strip_prefix("10 ") {
            Some(rest) => format!("   10 {rest}\n"),
            None => format!("      {l}\n"),
        })
        .collect::<String>();
    let expected = [
        "Program ELSEIF",
        "ELSEIF = 1",
        "ENDIF = (ELSEIF Add 1)",
        "ENDDO(2) = GOTO",
        "if (ELSEIF Gt ENDIF)",
        "GOTO = 1",
        "if (ENDIF Gt 0)",
        "GOTO = 2",
        "else",
        "GOTO = 3",
        "end if",
        "if (GOTO Gt 0) then:",
        "Goto",
        "Call",
        "Subroutine ENDDO",
        "X = 0",
    ];
    for (path, src) in [("e.f90", free_src.to_string()), ("e.f", fixed_src)] {
        let p = parse_clean(path, &src);
        assert_eq!(units_and_assignments(&p), expected, "{path}");
    }
}

/// The bytes of an element that type statements and IMPLICIT give: the
/// storage layout of EQUIVALENCE needs them.
#[test]
fn element_sizes_of_type_statements() {
    let p = parse_clean(
        "z.f",
        "      SUBROUTINE S
      IMPLICIT COMPLEX*16 (Z), REAL*8 (D)
      INTEGER A
      INTEGER*2 B
      INTEGER(8) C
      REAL*16 E
      DOUBLE COMPLEX F
      COMPLEX*8 G
      COMPLEX(8) H
      LOGICAL*1 L
      CHARACTER*8 CH
      INTEGER(KIND=IK) K
      DOUBLE PRECISION DP
      END
",
    );
    let sizes: Vec<(String, Option<i64>)> = p.units[0]
        .decls
        .iter()
        .flat_map(|d| match &d.kind {
            DeclKind::Type {
                bytes, entities, ..
            } => entities
                .iter()
                .map(|e| (e.name.text.clone(), *bytes))
                .collect(),
            DeclKind::Implicit(specs) => specs
                .iter()
                .map(|(_, bytes, r)| (format!("{}-", r[0].0), *bytes))
                .collect(),
            _ => Vec::new(),
        })
        .collect();
    let want: Vec<(String, Option<i64>)> = [
        ("Z-", Some(16)),
        ("D-", Some(8)),
        ("A", Some(4)),
        ("B", Some(2)),
        ("C", Some(8)),
        ("E", Some(16)),
        ("F", Some(16)),
        ("G", Some(8)),
        ("H", Some(16)),
        ("L", Some(1)),
        ("CH", None),
        ("K", None),
        ("DP", Some(8)),
    ]
    .iter()
    .map(|&(n, b)| (n.to_string(), b))
    .collect();
    assert_eq!(sizes, want);
}

#[test]
fn declarations_f77_and_f90() {
    let p = parse_clean(
        "d.f90",
        "subroutine s(a, n)\n\
         implicit none\n\
         integer n, i, j\n\
         real a(0:100), b(-60:60), c(*), d(n)\n\
         double precision x\n\
         real*8 y\n\
         character*8 name, t*4\n\
         character(len=*) :: u\n\
         logical flag\n\
         complex z\n\
         dimension e(10, 20)\n\
         parameter (m = 10, pi = 3.14159)\n\
         common /blk/ p, q(10) /two/ r, // s2\n\
         common w\n\
         equivalence (p, w), (q(1), r)\n\
         data x, y /1.0d0, 2.0d0/, (e(i,1), i = 1, 10) /10*0.0/\n\
         save\n\
         save i, /blk/\n\
         external f\n\
         intrinsic sqrt\n\
         real, dimension(10), save :: v, w2(5)\n\
         integer, parameter :: k = 4, l = k * 2\n\
         real :: init = 1.5\n\
         implicit double precision (a-h, o-z), integer (i-n)\n\
         end\n",
    );
    let u = &p.units[0];
    assert_eq!(u.kind, UnitKind::Subroutine);
    assert_eq!(
        u.args.iter().map(|a| a.text.as_str()).collect::<Vec<_>>(),
        ["A", "N"]
    );
    let kinds: Vec<String> = u
        .decls
        .iter()
        .map(|d| {
            format!("{:?}", d.kind)
                .split([' ', '(', '{'])
                .next()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "ImplicitNone",
            "Type",
            "Type",
            "Type",
            "Type",
            "Type",
            "Type",
            "Type",
            "Type",
            "Dimension",
            "Parameter",
            "Common",
            "Common",
            "Common",
            "Common",
            "Equivalence",
            "Data",
            "Save",
            "Save",
            "External",
            "Intrinsic",
            "Type",
            "Save",
            "Type",
            "Type",
            "Implicit"
        ]
    );
    let ty = |i: usize| match &u.decls[i].kind {
        DeclKind::Type {
            ty,
            entities,
            parameter,
            ..
        } => (ty.clone(), entities.clone(), *parameter),
        k => panic!("{k:?}"),
    };
    let (t, es, _) = ty(2);
    assert_eq!(t, TypeSpec::Real);
    let dims: Vec<String> = es[0]
        .dims
        .iter()
        .map(|d| {
            format!(
                "{:?}:{:?}",
                d.lower.as_ref().map(show),
                d.upper.as_ref().map(show)
            )
        })
        .collect();
    assert_eq!(dims, ["Some(\"0\"):Some(\"100\")"]);
    assert!(matches!(&es[1].dims[0].lower, Some(e) if show(e) == "(Neg 60)"));
    assert!(es[2].dims[0].upper.is_none(), "c(*) has no upper bound");
    assert_eq!(ty(3).0, TypeSpec::Double);
    assert_eq!(ty(4).0, TypeSpec::Double, "REAL*8 is double precision");
    assert_eq!(ty(5).0, TypeSpec::Character);
    let blocks: Vec<(String, Vec<String>)> = u
        .decls
        .iter()
        .filter_map(|d| match &d.kind {
            DeclKind::Common { block, entities } => Some((
                block.clone(),
                entities.iter().map(|e| e.name.text.clone()).collect(),
            )),
            _ => None,
        })
        .collect();
    assert_eq!(
        blocks,
        [
            ("BLK".into(), vec!["P".into(), "Q".into()]),
            ("TWO".into(), vec!["R".into()]),
            ("".into(), vec!["S2".into()]),
            ("".into(), vec!["W".into()])
        ]
    );
    match &u.decls[16].kind {
        DeclKind::Data(sets) => {
            // `x, y /1.0d0, 2.0d0/`, then `(e(i,1), i = 1, 10) /10*0.0/`.
            let sets: Vec<(Vec<Vec<String>>, Vec<String>)> = sets
                .iter()
                .map(|s| {
                    let objects = s
                        .objects
                        .iter()
                        .map(|o| o.exprs().iter().map(show).collect());
                    let values = s.values.as_ref().expect("values modelled").iter().map(|v| {
                        let r = v.repeat.as_ref().map_or(String::new(), |r| show(r) + "*");
                        r + &v.value.as_ref().map_or("?".into(), show)
                    });
                    (objects.collect(), values.collect())
                })
                .collect();
            let strings = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
            assert_eq!(
                sets,
                [
                    (
                        vec![strings(&["X"]), strings(&["Y"])],
                        strings(&["1.0d0", "2.0d0"])
                    ),
                    (vec![strings(&["E"])], strings(&["10*0.0"]))
                ]
            );
        }
        k => panic!("{k:?}"),
    }
    let (_, es, _) = ty(21);
    assert_eq!(es[0].dims.len(), 1, "DIMENSION(10) applies to V");
    assert!(matches!(&es[1].dims[0].upper, Some(e) if show(e) == "5"));
    assert!(matches!(&u.decls[22].kind, DeclKind::Save(n) if n.len() == 2));
    let (_, es, parameter) = ty(23);
    assert!(parameter);
    assert_eq!(es[1].init.as_ref().map(show).as_deref(), Some("(K Mul 2)"));
    match &u.decls[25].kind {
        DeclKind::Implicit(specs) => {
            assert_eq!(
                specs[0],
                (TypeSpec::Double, Some(8), vec![('A', 'H'), ('O', 'Z')])
            );
            assert_eq!(specs[1], (TypeSpec::Integer, Some(4), vec![('I', 'N')]));
        }
        k => panic!("{k:?}"),
    }
}

#[test]
fn program_units_and_implicit_main() {
    let p = parse_clean(
        "u.f",
        "      X = 1\n      END\n      REAL FUNCTION F(A, B)\n      F = A + B\n      RETURN\n      END FUNCTION F\n\
         \x20     BLOCK DATA INIT\n      COMMON /C/ Z\n      DATA Z /1.0/\n      END\n\
         \x20     SUBROUTINE S\n      END SUBROUTINE\n      PROGRAM P\n   99 END PROGRAM P\n",
    );
    let units: Vec<(UnitKind, &str)> = p
        .units
        .iter()
        .map(|u| (u.kind, u.name.text.as_str()))
        .collect();
    assert_eq!(
        units,
        [
            (UnitKind::Program, "MAIN"),
            (UnitKind::Function, "F"),
            (UnitKind::BlockData, "INIT"),
            (UnitKind::Subroutine, "S"),
            (UnitKind::Program, "P")
        ]
    );
    assert_eq!(p.units[1].result_type, Some(TypeSpec::Real));
    assert_eq!(p.units[4].end_label, Some(99));
    assert_eq!(p.units[4].end.line, 14);
}

// ------------------------------------------------------------------ structure

#[test]
fn shared_do_terminal_nests_inner_loops() {
    let p = parse_clean(
        "s.f",
        "      DO 20 I = 1, N\n        A(I) = B(I)\n        DO 20 J = 1, N\n   20 C(J) = A(I+J-1)\n\
         \x20     DO 5 I = 1, 50\n      DO 5 J = 1, 50\n    5 A(I,J) = 0.0\n      DO 10, K = 1, N, 2\n   10 CONTINUE\n      END\n",
    );
    assert_eq!(shape(body(&p)), "Do@20[A,Do@20[A]],Do@5[Do@5[A]],Do@10[C]");
    match &body(&p)[2].kind {
        StmtKind::Do { step, var, .. } => {
            assert_eq!(var.text, "K");
            assert_eq!(step.as_ref().map(show).as_deref(), Some("2"));
        }
        k => panic!("{k:?}"),
    }
    // The terminal statement keeps its label, as the last statement of the innermost loop.
    match &body(&p)[0].kind {
        StmtKind::Do { body: outer, .. } => match &outer[1].kind {
            StmtKind::Do { body: inner, .. } => assert_eq!(inner[0].label, Some(20)),
            k => panic!("{k:?}"),
        },
        k => panic!("{k:?}"),
    }
}

#[test]
fn block_if_else_if_else_and_do_forms() {
    let p = free(
        "  if (a > 0) then\n    x = 1\n  else if (a < 0) then\n    x = 2\n    y = 3\n  elseif (b) then\n\
         else\n    do i = 1, n\n      z = i\n    enddo\n  end if\n  do while (x < 10)\n    x = x + 1\n  end do\n\
         if (q) then\n  endif\n  do\n  end do",
    );
    assert_eq!(
        shape(body(&p)),
        "If[A | A,A |  | else Do[A]],While[A],If[],While[]"
    );
    match &body(&p)[0].kind {
        StmtKind::If {
            arms,
            else_part,
            end,
            ..
        } => {
            assert_eq!(arms.len(), 3);
            assert_eq!(arms[1].pos.line, 4);
            assert_eq!(else_part.as_ref().unwrap().pos.line, 8);
            assert_eq!(end.line, 12);
        }
        k => panic!("{k:?}"),
    }
}

#[test]
fn labelled_end_do_and_end_if_and_labelled_do_while() {
    let p = free(
        "  do 10 i = 1, n\n    x = i\n10 end do\n  do 20 while (x > 0)\n    x = x - 1\n20 continue\n\
         if (x > 0) then\n    x = 0\n30 end if\n  goto 30",
    );
    assert_eq!(shape(body(&p)), "Do[A],While[A,C],If[A],Goto");
    match &body(&p)[0].kind {
        StmtKind::Do {
            end: LoopEnd::EndDo { label, .. },
            ..
        } => assert_eq!(*label, Some(10)),
        k => panic!("{k:?}"),
    }
    assert!(matches!(
        &body(&p)[2].kind,
        StmtKind::If {
            end_label: Some(30),
            ..
        }
    ));
}

/// Each loop of a body, depth first: its variable and, when INDEPENDENT, its NEW variables.
fn independents(stmts: &[Stmt]) -> Vec<(String, Option<Vec<String>>)> {
    let mut out = Vec::new();
    for s in stmts {
        if let StmtKind::Do {
            var,
            independent,
            body,
            ..
        } = &s.kind
        {
            let new = independent
                .as_ref()
                .map(|i| i.new.iter().map(|n| n.text.clone()).collect());
            out.push((var.text.clone(), new));
            out.extend(independents(body));
        }
    }
    out
}

fn ind(var: &str, new: Option<&[&str]>) -> (String, Option<Vec<String>>) {
    (
        var.to_string(),
        new.map(|n| n.iter().map(|s| s.to_string()).collect()),
    )
}

#[test]
fn independent_marks_the_next_do() {
    let p = free("!HPF$ INDEPENDENT\n  do i = 1, n\n    a(i) = i\n  end do\n!hpf$ independent, new(j)\n  do 10 i = 1, n\n10 b(i) = i\n  do i = 1, n\n  end do");
    assert_eq!(
        independents(body(&p)),
        [ind("I", Some(&[])), ind("I", Some(&["J"])), ind("I", None)]
    );
}

#[test]
fn independent_clauses_with_and_without_commas() {
    let p = free(
        "!HPF$ INDEPENDENT NEW(X, Y)\n  do i = 1, n\n  end do\n\
         !HPF$ INDEPENDENT, NEW(X), NEW(Z)\n  do i = 1, n\n  end do",
    );
    assert_eq!(
        independents(body(&p)),
        [ind("I", Some(&["X", "Y"])), ind("I", Some(&["X", "Z"]))]
    );
}

#[test]
fn independent_index_list_marks_the_directly_nested_loops() {
    let p = parse_clean(
        "n.f",
        "      PROGRAM N\nCHPF$ INDEPENDENT(J, I), NEW(T)\n      DO J = 1, 9\n      DO I = 1, 9\n      DO K = 1, 9\n\
         \x20     ENDDO\n      ENDDO\n      ENDDO\nCHPF$ INDEPENDENT (K)\n      DO K = 1, 2\n      DO I = 1, 2\n      ENDDO\n      ENDDO\n      END\n",
    );
    assert_eq!(
        independents(body(&p)),
        [
            ind("J", Some(&["T"])),
            ind("I", Some(&["T"])),
            ind("K", None),
            ind("K", Some(&[])),
            ind("I", None),
        ]
    );
}

#[test]
fn independent_index_list_without_its_loops_is_a_warning() {
    let (p, d) = parse_source(
        "w.f90",
        "!HPF$ INDEPENDENT (I, J)\ndo i = 1, 2\n  x = 1\nend do\n!HPF$ INDEPENDENT (K)\ndo i = 1, 2\nend do\nend\n",
    );
    let shown: Vec<(u32, &str)> = d.iter().map(|x| (x.line, x.message.as_str())).collect();
    assert_eq!(
        shown,
        [
            (
                1,
                "INDEPENDENT names J, but no DO loop of J follows directly; ignored for J"
            ),
            (
                5,
                "INDEPENDENT names K, but no DO loop of K follows directly; ignored for K"
            ),
        ]
    );
    assert!(d.iter().all(|x| !x.is_error()));
    assert_eq!(
        independents(body(&p)),
        [ind("I", Some(&[])), ind("I", None)]
    );
}

#[test]
fn independent_on_home_is_kept_and_reduction_drops_it() {
    let (p, d) = parse_source(
        "o.f90",
        "!HPF$ INDEPENDENT, ON HOME(A(I)), NEW(X)\ndo i = 1, 2\nend do\n\
         !HPF$ INDEPENDENT, REDUCTION(S)\ndo i = 1, 2\nend do\nend\n",
    );
    let shown: Vec<(u32, u32, &str)> = d
        .iter()
        .map(|x| (x.line, x.col, x.message.as_str()))
        .collect();
    assert_eq!(
        shown,
        [
            (
                1,
                20,
                "the ON HOME clause of INDEPENDENT is not modelled; ignored"
            ),
            (
                4,
                7,
                "INDEPENDENT with a REDUCTION clause is not modelled; ignored"
            ),
        ]
    );
    assert_eq!(
        independents(body(&p)),
        [ind("I", Some(&["X"])), ind("I", None)]
    );
}

#[test]
fn independent_not_before_a_do_is_a_warning() {
    let (p, d) = parse_source("w.f90", "!HPF$ INDEPENDENT\nx = 1\nend\n");
    assert_eq!(p.units[0].body.len(), 1);
    assert_eq!(d.len(), 1);
    assert!(!d[0].is_error());
    assert_eq!(d[0].line, 1);
}

// ------------------------------------------------------------------ HPF

fn hpf(decls: &[Decl]) -> Vec<&HpfDirective> {
    decls
        .iter()
        .filter_map(|d| match &d.kind {
            DeclKind::Hpf(h) => Some(h),
            _ => None,
        })
        .collect()
}

fn names(ns: &[Name]) -> Vec<&str> {
    ns.iter().map(|n| n.text.as_str()).collect()
}

/// The alignees of an ALIGN and each one's source list, rendered.
fn alignees(h: &HpfDirective) -> Vec<(String, Option<String>)> {
    let HpfDirective::Align { alignees, .. } = h else {
        panic!("{h:?}")
    };
    alignees
        .iter()
        .map(|a| {
            let source = a.source.as_ref().map(|s| {
                s.iter()
                    .map(|x| match x {
                        AlignSource::Dummy(n) => n.text.clone(),
                        AlignSource::Star => "*".into(),
                        AlignSource::Colon => ":".into(),
                    })
                    .collect::<Vec<_>>()
                    .join(",")
            });
            (a.name.text.clone(), source)
        })
        .collect()
}

/// The target of an ALIGN and its subscripts, rendered.
fn align_target(h: &HpfDirective) -> (String, Option<Vec<String>>) {
    let HpfDirective::Align { target, .. } = h else {
        panic!("{h:?}")
    };
    let subs = target.subscripts.as_ref().map(|s| {
        s.iter()
            .map(|t| match t {
                AlignTarget::Star => "*".to_string(),
                AlignTarget::Expr(e) => show(e),
            })
            .collect()
    });
    (target.target.text.clone(), subs)
}

fn src(a: &str, s: Option<&str>) -> (String, Option<String>) {
    (a.to_string(), s.map(str::to_string))
}

#[test]
fn every_hpf_directive_form() {
    let p = parse_clean(
        "h.f",
        "      PROGRAM H\n      REAL A(100,100), B(100), C(100)\n\
         !HPF$ PROCESSORS P(4,4)\nCHPF$ TEMPLATE T(100,100), T1(0:99)\n*HPF$ ALIGN A(I,J) WITH T(I,J)\n\
         !HPF$ ALIGN (I) WITH T1(I-1) :: B, C\n!HPF$ ALIGN B(I) WITH T1(2*I+1)\n!HPF$ ALIGN C(*) WITH T(*, 1)\n\
         !HPF$ ALIGN A(:, J) WITH T(1, J)\n\
         !HPF$ DISTRIBUTE T(BLOCK, CYCLIC) ONTO P\n!HPF$ DISTRIBUTE T1(CYCLIC(3))\n\
         !HPF$ DISTRIBUTE (BLOCK(25), *) ONTO P :: T, T1\n!HPF$ PROCESSORS Q\n      END\n",
    );
    let h = hpf(&p.units[0].decls);
    assert_eq!(h.len(), 12);
    match h[0] {
        HpfDirective::Processors { name, dims } => {
            assert_eq!(name.text, "P");
            let uppers: Vec<String> = dims
                .iter()
                .map(|d| show(d.upper.as_ref().unwrap()))
                .collect();
            assert_eq!(uppers, ["4", "4"]);
        }
        d => panic!("{d:?}"),
    }
    match h[2] {
        HpfDirective::Template { name, dims } => {
            assert_eq!(name.text, "T1");
            assert_eq!(dims[0].lower.as_ref().map(show).as_deref(), Some("0"));
        }
        d => panic!("{d:?}"),
    }
    assert_eq!(alignees(h[4]), [src("B", Some("I")), src("C", Some("I"))]);
    assert_eq!(
        align_target(h[4]),
        ("T1".into(), Some(vec!["(I Sub 1)".into()]))
    );
    assert_eq!(align_target(h[5]).1.unwrap(), ["((2 Mul I) Add 1)"]);
    assert_eq!(alignees(h[6]), [src("C", Some("*"))]);
    assert_eq!(align_target(h[6]).1.unwrap(), ["*", "1"]);
    assert_eq!(alignees(h[7]), [src("A", Some(":,J"))]);
    match h[8] {
        HpfDirective::Distribute {
            distributees,
            formats,
            onto,
        } => {
            assert_eq!(names(distributees), ["T"]);
            assert!(matches!(
                formats.as_deref(),
                Some([DistFormat::Block(None), DistFormat::Cyclic(None)])
            ));
            assert_eq!(onto.as_ref().unwrap().text, "P");
        }
        d => panic!("{d:?}"),
    }
    assert!(
        matches!(h[9], HpfDirective::Distribute { formats: Some(f), .. } if matches!(&f[0], DistFormat::Cyclic(Some(e)) if show(e) == "3"))
    );
    match h[10] {
        HpfDirective::Distribute {
            distributees,
            formats,
            onto,
        } => {
            assert_eq!(names(distributees), ["T", "T1"]);
            assert!(matches!(
                formats.as_deref(),
                Some([DistFormat::Block(Some(_)), DistFormat::Star])
            ));
            assert!(onto.is_some());
        }
        d => panic!("{d:?}"),
    }
    assert!(matches!(h[11], HpfDirective::Processors { dims, .. } if dims.is_empty()));
}

#[test]
fn hpf_directive_continued_over_lines() {
    let p = parse_clean(
        "c.f90",
        "program c\nreal a(10)\n!HPF$ TEMPLATE T(10)\n!HPF$ ALIGN (I) WITH &\n!HPF$& T(I) :: A\nend\n",
    );
    assert_eq!(hpf(&p.units[0].decls).len(), 2);
}

#[test]
fn unknown_and_meaningless_hpf_directives_are_warnings() {
    let (p, d) = parse_source(
        "u.f",
        "      PROGRAM U\n!HPF$ PREFETCH A\nCHPF$ SEQUENCE\n*HPF$ NO SEQUENCE :: B\n!HPF$ END ON\n      X = 1\n      END\n",
    );
    let shown: Vec<(u32, u32, bool, &str)> = d
        .iter()
        .map(|x| (x.line, x.col, x.is_error(), x.message.as_str()))
        .collect();
    assert_eq!(
        shown,
        [
            (2, 7, false, "unknown HPF directive PREFETCH; ignored"),
            (3, 7, false, "HPF directive SEQUENCE is not modelled: it only says which objects may be storage associated; ignored"),
            (4, 7, false, "HPF directive NO SEQUENCE is not modelled: it only says which objects are mapped; ignored"),
            (5, 7, false, "HPF directive END ON is not modelled: it only says where computations run; ignored"),
        ]
    );
    assert_eq!(p.units[0].body.len(), 1);
}

// ------------------------------------------------------------------ I/O

/// The control list and the items of the I/O statement `stmt`.
fn io(stmt: &str) -> (IoControl, Vec<IoItem>) {
    let p = free(stmt);
    match &body(&p)[0].kind {
        StmtKind::Read { control, items }
        | StmtKind::Write { control, items }
        | StmtKind::Print { control, items } => (control.clone(), items.clone()),
        k => panic!("{k:?}"),
    }
}

/// Items rendered: expressions as [`show`], implied DOs as
/// `[items; VAR=lower,upper,step]`.
fn show_items(items: &[IoItem]) -> String {
    let shown: Vec<String> = items
        .iter()
        .map(|i| match i {
            IoItem::Expr(e) => show(e),
            IoItem::ImpliedDo(d) => format!(
                "[{}; {}={},{},{}]",
                show_items(&d.items),
                d.var.text,
                show(&d.lower),
                show(&d.upper),
                d.step.as_ref().map(show).unwrap_or_default()
            ),
        })
        .collect();
    shown.join(" ")
}

#[test]
fn io_control_lists_keep_unit_format_specifiers_and_labels() {
    let (c, items) = io("read (iu, 100, iostat=ios, end=90, err=91) n");
    assert_eq!(c.unit.as_ref().map(show).as_deref(), Some("IU"));
    assert_eq!(c.format.as_ref().map(show).as_deref(), Some("100"));
    assert_eq!(c.iostat.as_ref().map(show).as_deref(), Some("IOS"));
    assert_eq!((c.end, c.err, c.eor), (Some(90), Some(91), None));
    assert_eq!(c.jumps().collect::<Vec<_>>(), [90, 91]);
    assert!(c.may_stop_early());
    assert_eq!(show_items(&items), "N");
    let (c, _) = io("write (fmt='(i5)', unit=line(k)) n");
    assert_eq!(c.unit.as_ref().map(show).as_deref(), Some("LINE(K)"));
    assert_eq!(c.format.as_ref().map(show).as_deref(), Some("'(i5)'"));
    assert!(!c.may_stop_early());
    let (c, _) = io("read (5, *, rec=k+1, advance='no', size=m, eor=7) x");
    assert!(c.format.is_none());
    let values: Vec<String> = c.values.iter().map(show).collect();
    assert_eq!(values, ["(K Add 1)", "'no'"]);
    assert_eq!(
        (c.size.as_ref().map(show).as_deref(), c.eor),
        (Some("M"), Some(7))
    );
    let (c, _) = io("print fmtvar, x");
    assert_eq!(c.format.as_ref().map(show).as_deref(), Some("FMTVAR"));
    assert!(c.unit.is_none());
    let (c, _) = io("read '(a)', s");
    assert_eq!(c.format.as_ref().map(show).as_deref(), Some("'(a)'"));
}

#[test]
fn implied_do_lists_nest_and_are_told_from_complex_constants() {
    let (_, items) = io("write (iou, 7012) (map2(k), flops2(k), rt2(k), k = i1, i2)");
    assert_eq!(show_items(&items), "[MAP2(K) FLOPS2(K) RT2(K); K=I1,I2,]");
    let (_, items) = io("read (5,*) n, ((a(i,j), j=1,n), i=1,m)");
    assert_eq!(show_items(&items), "N [[A(I,J); J=1,N,]; I=1,M,]");
    let (_, items) = io("print *, (1.0, 2.0), (x), (b(k), (1, k), k=1,n,2)");
    assert_eq!(
        show_items(&items),
        "CMPLX(1.0,2.0) X [B(K) CMPLX(1,K); K=1,N,2]"
    );
    // After a logical IF, and the DO variable's position.
    let p = free("if (l) write (*,*) (c(k), k=1,3)");
    let StmtKind::LogicalIf { stmt, .. } = &body(&p)[0].kind else {
        panic!("logical IF")
    };
    let StmtKind::Write { items, .. } = &stmt.kind else {
        panic!("{:?}", stmt.kind)
    };
    let IoItem::ImpliedDo(d) = &items[0] else {
        panic!("implied DO")
    };
    assert_eq!((d.var.pos.line, d.var.pos.col), (2, 27));
}

#[test]
fn bad_io_control_lists_are_errors_at_the_specifier() {
    let (_, d) = parse_source(
        "io.f90",
        "program io\n  read (5, *, end=x) n\n  read (5, *, err=0) n\n  write (6, *, 7) x\n  write (6, *, unit=7) x\n  read (5, rec=*) x\n  x = 1\nend\n",
    );
    let shown: Vec<(u32, u32, &str)> = d
        .iter()
        .map(|x| (x.line, x.col, x.message.as_str()))
        .collect();
    assert_eq!(
        shown,
        [
            (2, 15, "READ: END= needs a label"),
            (3, 15, "`0` is not a statement label (1 to 99999)"),
            (
                4,
                16,
                "WRITE: only the unit and then the format may be given without a keyword"
            ),
            (5, 16, "WRITE: UNIT= is given twice"),
            (6, 12, "READ: `*` is not a value for REC="),
        ]
    );
    assert!(d.iter().all(Diagnostic::is_error));
}

// ------------------------------------------------------------------ unmodelled

#[test]
fn procedure_bodies_in_an_interface_block_do_not_end_the_unit() {
    let (p, d) = parse_source(
        "i.f90",
        "subroutine s(f)
  interface
    subroutine g(x)
      real x
    end subroutine g
    extrinsic(hpf_local) real function f(y)
      interface
        subroutine h
        end
      end interface
      real y
    end function
  end interface
  call g(1.0)
end subroutine s
",
    );
    // The block is a declaration naming its procedures, the nested one
    // inside F's body is skipped with it.
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(p.units.len(), 1);
    let kinds: Vec<&StmtKind> = p.units[0].body.iter().map(|s| &s.kind).collect();
    assert!(matches!(kinds[..], [StmtKind::Call { .. }]));
    let named: Vec<Vec<&str>> = p.units[0]
        .decls
        .iter()
        .filter_map(|d| match &d.kind {
            DeclKind::Interface { procedures, .. } => {
                Some(procedures.iter().map(|n| n.text.as_str()).collect())
            }
            _ => None,
        })
        .collect();
    assert_eq!(named, [["G", "F"]]);
}

#[test]
fn unmodelled_statements_are_opaque_with_warnings() {
    let (p, d) = parse_source(
        "o.f90",
        "program o\n  flush (1)\n  select case (n)\n  case (1)\n    x = 1\n  case default\n    x = 2\n  end select\n\
         forall (i = 1:n) a(i) = 0\n  backspace 5\n  read (5, nml=grp)\n  rewind 5\n  x = 1\nend\n",
    );
    assert!(errors(&d).is_empty(), "{d:?}");
    // SELECT CASE and FORALL are modelled (a construct of its own, a
    // masked assignment).
    assert_eq!(
        shape(&p.units[0].body),
        "Opaque,Select[A | default A],Where,Opaque,Opaque,Opaque,A"
    );
    assert_eq!(d.len(), 4, "one warning per opaque statement: {d:?}");
    assert!(d[2].message.contains("READ with NML="), "{}", d[2]);
}

// ------------------------------------------------------------------ errors

#[test]
fn a_bad_statement_stays_opaque_and_the_rest_parses() {
    let (p, d) = parse_source(
        "e.f",
        "      SUBROUTINE ONE\n      X = (1 + 2\n      Y = 2\n      END\n      SUBROUTINE TWO\n      Z = 3\n      END\n",
    );
    let errs = errors(&d);
    assert_eq!(errs.len(), 1, "{d:?}");
    assert_eq!((errs[0].line, errs[0].col), (2, 17));
    assert!(errs[0].message.contains("end of statement"), "{}", errs[0]);
    assert_eq!(errs[0].source_line.as_deref(), Some("      X = (1 + 2"));
    assert_eq!(p.units.len(), 2);
    // The executable statement it could not read stays, opaque: a loop
    // around it must not be judged as if it were not there.
    assert_eq!(shape(&p.units[0].body), "Opaque,A");
    assert_eq!(shape(&p.units[1].body), "A");
}

#[test]
fn error_position_is_the_offending_token() {
    let (_, d) = parse_source(
        "p.f90",
        "program p\n  x = 1 +* 2\n  y = 'abc\n  z = 1 @ 2\nend\n",
    );
    let pos: Vec<(u32, u32)> = d.iter().map(|x| (x.line, x.col)).collect();
    assert_eq!(pos, [(2, 10), (3, 7), (4, 9)]);
    assert!(d[0].message.starts_with("unexpected `*`"), "{}", d[0]);
    assert!(d[1].message.contains("unterminated"), "{}", d[1]);
    assert!(d[2].message.contains('@'), "{}", d[2]);
    let text = d[0].to_string();
    assert!(
        text.starts_with("p.f90:2:10: error: unexpected `*`"),
        "{text}"
    );
    assert!(text.ends_with("\n    x = 1 +* 2\n           ^"), "{text}");
}

#[test]
fn error_position_on_a_continuation_line() {
    let (_, d) = parse_source(
        "c.f",
        "      X = 1 +\n     &    2 +\n     &    )\n      END\n",
    );
    assert_eq!(errors(&d).len(), 1, "{d:?}");
    assert_eq!((d[0].line, d[0].col), (3, 11));
}

#[test]
fn structure_errors_are_reported_and_repaired() {
    let (p, d) = parse_source(
        "s.f90",
        "program s\n  end do\n  do i = 1, n\n    if (x) then\n      y = 1\n  end do\n  else\n  do 10 j = 1, n\n    z = 1\nend\n",
    );
    let msgs: Vec<String> = errors(&d)
        .iter()
        .map(|x| format!("{}: {}", x.line, x.message))
        .collect();
    assert_eq!(msgs.len(), 4, "{msgs:?}");
    assert!(
        msgs[0].starts_with("2: END DO without a matching DO"),
        "{msgs:?}"
    );
    assert!(
        msgs[1].starts_with("6: END DO closes the IF block at line 4"),
        "{msgs:?}"
    );
    assert!(msgs[2].starts_with("7: ELSE without"), "{msgs:?}");
    assert!(
        msgs[3].starts_with("10: the DO loop at line 8 (ending at label 10) never reaches"),
        "{msgs:?}"
    );
    assert_eq!(shape(&p.units[0].body), "Do[If[A]],Do[A]");
}

#[test]
fn missing_end_at_end_of_file() {
    let (p, d) = parse_source(
        "m.f90",
        "program m\n  x = 1\n  if (x > 0) then\n    y = 2\n",
    );
    let msgs: Vec<&str> = d.iter().map(|x| x.message.as_str()).collect();
    assert_eq!(
        msgs,
        [
            "the IF block at line 3 has no END IF",
            "PROGRAM M has no END statement"
        ]
    );
    assert_eq!(d[1].line, 4);
    assert_eq!(shape(&p.units[0].body), "A,If[A]");
}

#[test]
fn label_errors() {
    let (_, d) = parse_source("l.f90", "program l\n  goto 123456\n  goto 0\nend\n");
    assert_eq!(errors(&d).len(), 2);
    assert!(d[0].message.contains("not a statement label"), "{}", d[0]);
    assert_eq!((d[0].line, d[0].col), (2, 8));
}

// ------------------------------------------------------------------ bad input

#[test]
fn bad_files_are_clear_errors() {
    let dir = std::env::temp_dir().join(format!("kaiseki-parse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let empty = dir.join("empty.f");
    std::fs::write(&empty, "").unwrap();
    let binary = dir.join("bin.f90");
    std::fs::write(&binary, b"\x7fELF\0\0\x01").unwrap();
    let latin1 = dir.join("latin.f90");
    std::fs::write(&latin1, b"x = 1 ! caf\xe9\n").unwrap();
    let missing = dir.join("missing.f");
    let (p, d) = kaiseki_frontend::parse_files(
        &[&empty, &binary, &latin1, &missing, &dir],
        &Default::default(),
    );
    assert!(p.units.is_empty());
    let msgs: Vec<String> = d.iter().map(|x| x.to_string()).collect();
    assert_eq!(msgs.len(), 5, "{msgs:?}");
    assert!(msgs[0].contains("empty file"), "{msgs:?}");
    assert!(msgs[1].contains("binary"), "{msgs:?}");
    assert!(msgs[2].contains("UTF-8"), "{msgs:?}");
    assert!(msgs[3].contains("cannot read"), "{msgs:?}");
    assert!(msgs[4].contains("directory"), "{msgs:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn include_is_resolved_next_to_the_including_file() {
    let dir = std::env::temp_dir().join(format!("kaiseki-include-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("common.inc"),
        "      COMMON /C/ X, Y\n      INCLUDE 'self.inc'\n",
    )
    .unwrap();
    std::fs::write(dir.join("self.inc"), "      INCLUDE 'self.inc'\n").unwrap();
    let main = dir.join("main.f");
    std::fs::write(&main, "      PROGRAM I\n      INCLUDE 'common.inc'\n      include \"nope.inc\"\n      X = 1\n      END\n").unwrap();
    let (p, d) = kaiseki_frontend::parse_files(&[&main], &Default::default());
    assert_eq!(p.files.len(), 3);
    assert!(p.files[1].path.ends_with("common.inc"));
    assert!(matches!(&p.units[0].decls[0].kind, DeclKind::Common { block, .. } if block == "C"));
    assert_eq!(p.units[0].decls[0].pos.file, 1);
    let msgs: Vec<String> = d.iter().map(|x| x.to_string()).collect();
    assert_eq!(msgs.len(), 2, "{msgs:?}");
    assert!(
        msgs[0].contains("self.inc:1:7: error: INCLUDE cycle"),
        "{msgs:?}"
    );
    assert!(
        msgs[1].contains("main.f:3:7: error: cannot find INCLUDE file 'nope.inc'"),
        "{msgs:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_ten_megabyte_line_is_handled_quickly() {
    let start = std::time::Instant::now();
    let line = "x = 1 + ".repeat(10 * 1024 * 1024 / 8);
    let (_, d) = parse_source("big.f90", &format!("program b\n{line}1\nend\n"));
    assert!(
        errors(&d).iter().any(|x| x.message.contains("too long")),
        "{d:?}"
    );
    let (_, d) = parse_source(
        "big.f",
        &format!("      PROGRAM B\n      {line}1\n      END\n"),
    );
    assert!(!errors(&d).is_empty(), "column 72 cuts the statement");
    let stmts = "x = 1; ".repeat(1024 * 1024);
    let (p, d) = parse_source("many.f90", &format!("program m\n{stmts}\nend\n"));
    assert!(d.is_empty());
    assert_eq!(p.units[0].body.len(), 1024 * 1024);
    assert!(start.elapsed().as_secs() < 60, "{:?}", start.elapsed());
}

#[test]
fn deep_nesting_is_refused_not_overflowed() {
    let open = "(".repeat(5000);
    let close = ")".repeat(5000);
    let (_, d) = parse_source("deep.f90", &format!("program d\nx = {open}1{close}\nend\n"));
    assert!(d[0].message.contains("too complex"), "{}", d[0]);
    let dos = "do i = 1, n\n".repeat(1000);
    let (_, d) = parse_source("nest.f90", &format!("program n\n{dos}end\n"));
    assert!(
        d.iter().any(|x| x.message.contains("nested more than")),
        "{:?}",
        &d[..1]
    );
}

#[test]
fn modules_and_internal_procedures_become_units() {
    let (p, d) = parse_source(
        "m.f90",
        "module m\n  integer :: q\ncontains\n  subroutine z()\n  end subroutine z\nend module m\n\
         program t\n  call s(1.0)\ncontains\n  subroutine s(y)\n    real, intent(in) :: y\n    print *, y\n  end subroutine s\nend program t\n",
    );
    assert!(d.is_empty(), "{d:?}");
    let units: Vec<(&str, Option<&str>)> = p
        .units
        .iter()
        .map(|u| (u.name.text.as_str(), u.host.as_deref()))
        .collect();
    assert_eq!(
        units,
        [("M", None), ("Z", Some("M")), ("T", None), ("S", Some("T"))]
    );
    assert_eq!(p.units[0].kind, UnitKind::Module);
    assert_eq!(p.units[2].end.line, 14);
    assert_eq!(shape(&p.units[3].body), "Print");
}

// ------------------------------------------------------------------ control

#[test]
fn exit_cycle_and_named_loops() {
    let (p, d) = parse_source(
        "c.f90",
        "program c\n  outer: do i = 1, n\n    inner: do j = 1, n\n      if (j > i) cycle outer\n\
         \x20     if (a(j) < 0) exit\n      exit inner\n    end do inner\n    do while (x > 0)\n\
         \x20     cycle\n    end do\n    if (i > 3) exit outer\n  end do outer\nend\n",
    );
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(
        shape(&p.units[0].body),
        "Do[Do[LIf,LIf,Exit INNER],While[Cycle],LIf]"
    );
    let StmtKind::Do {
        construct, body, ..
    } = &p.units[0].body[0].kind
    else {
        panic!()
    };
    assert_eq!(construct.as_deref(), Some("OUTER"));
    let StmtKind::Do { construct, .. } = &body[0].kind else {
        panic!()
    };
    assert_eq!(construct.as_deref(), Some("INNER"));
}

#[test]
fn exit_or_cycle_without_its_loop_is_an_error_and_opaque() {
    let (p, d) = parse_source(
        "e.f90",
        "program e\n  exit\n  a: do i = 1, 2\n    cycle b\n  end do a\nend\n",
    );
    let errs = errors(&d);
    assert_eq!(errs.len(), 2, "{d:?}");
    assert_eq!((errs[0].line, errs[0].col), (2, 3));
    assert!(
        errs[0].message.contains("EXIT outside a DO loop"),
        "{}",
        errs[0]
    );
    assert_eq!((errs[1].line, errs[1].col), (4, 5));
    assert!(
        errs[1].message.contains("no DO loop named B"),
        "{}",
        errs[1]
    );
    assert_eq!(shape(&p.units[0].body), "Opaque,Do[Opaque]");
}

#[test]
fn select_case_with_ranges_default_and_names() {
    let (p, d) = parse_source(
        "s.f90",
        "program s\n  character c\n  sel: select case (mod(i, 4))\n  case (1, 3:5, :0, 7:) sel\n    x = 1\n\
         \x20 case default\n    x = 2\n  case (2)\n  end select sel\n  select case (c)\n  case ('a':'f')\n\
         \x20   y = 1\n  end select\n  select case (l)\n  case (.true.)\n    y = 2\n  end select\nend\n",
    );
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(
        shape(&p.units[0].body),
        "Select[A | default A | ],Select[A],Select[A]"
    );
    let StmtKind::Select {
        cases, construct, ..
    } = &p.units[0].body[0].kind
    else {
        panic!()
    };
    assert_eq!(construct.as_deref(), Some("SEL"));
    let values = cases[0].values.as_ref().unwrap();
    assert_eq!(values.len(), 4);
    assert!(matches!(values[1], CaseValue::Range(Some(_), Some(_))));
    assert!(matches!(values[2], CaseValue::Range(None, Some(_))));
    assert!(matches!(values[3], CaseValue::Range(Some(_), None)));
}

#[test]
fn fixed_form_select_case_and_exit() {
    let (p, d) = parse_source(
        "f.f",
        "      PROGRAM F\n      DO 10 I = 1, 5\n      SELECTCASE (I)\n      CASE (1)\n      X = 1\n\
         \x20     CASE DEFAULT\n      IF (I .GT. 3) EXIT\n      ENDSELECT\n   10 CONTINUE\n      END\n",
    );
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(shape(&p.units[0].body), "Do@10[Select[A | default LIf],C]");
}

#[test]
fn an_unreadable_declaration_before_the_executable_part_is_dropped() {
    let (p, d) = parse_source(
        "u.f90",
        "subroutine u(n)\n  integer n(\n  real x\n  do i = 1, n\n    x = = 1\n  end do\n  real y(\nend\n",
    );
    assert_eq!(errors(&d).len(), 3, "{d:?}");
    // The declaration before any executable statement is dropped; the
    // assignment in the loop, and the declaration after the executable
    // part started, stay as opaque statements.
    assert_eq!(shape(&p.units[0].body), "Do[Opaque],Opaque");
    let StmtKind::Do { body, .. } = &p.units[0].body[0].kind else {
        panic!()
    };
    assert!(
        matches!(&body[0].kind, StmtKind::Opaque { reason } if reason.contains("could not read"))
    );
}

#[test]
fn where_statements_and_constructs_are_masked_assignments() {
    let (p, d) = parse_source(
        "w.f90",
        "program w\n  real a(10), b(10)\n  where (a > 0) b = a\n  where (b(2:9) < 4.0) a(1:8) = b(3:10)\n\
         \x20 where (a > 1)\n    a = 1\n  elsewhere\n    a = 2\n  end where\nend\n",
    );
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(shape(&p.units[0].body), "Where,Where,Where,Where");
    assert!(matches!(
        &p.units[0].body[1].kind,
        StmtKind::Where { lhs, .. } if matches!(&lhs.kind, ExprKind::Apply { name, .. } if name == "A")
    ));
}

#[test]
fn end_do_names_must_match_their_loops() {
    let (p, d) = parse_source(
        "n.f90",
        "program n\n  a: do i = 1, 2\n  end do b\n  c: do i = 1, 2\n  end do\n  do i = 1, 2\n  end do d\nend\n",
    );
    let errs: Vec<(u32, u32, &str)> = errors(&d)
        .iter()
        .map(|e| (e.line, e.col, e.message.as_str()))
        .collect();
    assert_eq!(
        errs,
        [
            (3, 10, "END DO B: the DO loop it ends is named A"),
            (5, 3, "END DO of the DO loop named C must name it"),
            (7, 10, "END DO D: the DO loop it ends has no name"),
        ]
    );
    assert_eq!(shape(&p.units[0].body), "Do[],Do[],Do[]");
}
