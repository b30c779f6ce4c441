//! Lowering of small hand-built trees (the parser has its own tests; the
//! end-to-end tests on source text are in `frontend/tests/lower_*.rs`).

use super::lower;
use crate::ast::*;
use crate::fold::tests::{bin, int, var};
use kaiseki_facts::FactBase;

fn at(line: u32, col: u32) -> Pos {
    Pos { file: 0, line, col }
}

fn name(text: &str, line: u32, col: u32) -> Name {
    Name {
        text: text.into(),
        pos: at(line, col),
    }
}

fn stmt(line: u32, label: Option<u32>, kind: StmtKind) -> Stmt {
    Stmt {
        label,
        pos: at(line, 7),
        kind,
    }
}

fn apply(array: &str, args: Vec<Expr>) -> Expr {
    crate::fold::tests::ex(ExprKind::Apply {
        name: array.into(),
        args,
    })
}

fn labelled_do(line: u32, v: &str, label: u32, body: Vec<Stmt>) -> Stmt {
    stmt(
        line,
        None,
        StmtKind::Do {
            var: name(v, line, 16),
            lower: int(1),
            upper: var("N"),
            step: None,
            body,
            end: LoopEnd::Label(label),
            independent: None,
            construct: None,
        },
    )
}

fn program(decls: Vec<Decl>, body: Vec<Stmt>, end_line: u32) -> Program {
    Program {
        files: vec![SourceFile {
            path: "t.f".into(),
            lines: vec![],
        }],
        units: vec![Unit {
            kind: UnitKind::Program,
            name: name("T", 1, 15),
            args: vec![],
            result_type: None,
            result: None,
            decls,
            body,
            end: at(end_line, 7),
            end_label: None,
            contains: false,
            host: None,
            keywords: Default::default(),
            extrinsic_local: None,
            allocated: Default::default(),
        }],
        generics: Default::default(),
    }
}

fn real_arrays(line: u32, names: &[&str]) -> Decl {
    Decl {
        pos: at(line, 7),
        kind: DeclKind::Type {
            ty: TypeSpec::Real,
            bytes: Some(4),
            parameter: false,
            entities: names
                .iter()
                .map(|n| Entity {
                    name: name(n, line, 12),
                    dims: vec![DimSpec {
                        lower: None,
                        upper: Some(int(100)),
                    }],
                    init: None,
                })
                .collect(),
        },
    }
}

/// ishida_fig3's loop 20: `DO 20 I` and `DO 20 J` share the terminal `20`.
fn shared_terminal() -> FactBase {
    let assign = |line, label, lhs, rhs| stmt(line, label, StmtKind::Assign { lhs, rhs });
    let body = vec![labelled_do(
        3,
        "I",
        20,
        vec![
            assign(
                4,
                None,
                apply("A", vec![var("I")]),
                apply("B", vec![var("I")]),
            ),
            labelled_do(
                5,
                "J",
                20,
                vec![assign(
                    6,
                    Some(20),
                    apply("C", vec![var("J")]),
                    apply(
                        "A",
                        vec![bin(BinOp::Sub, bin(BinOp::Add, var("I"), var("J")), int(1))],
                    ),
                )],
            ),
        ],
    )];
    let (facts, diags) = lower(&program(vec![real_arrays(2, &["A", "B", "C"])], body, 7));
    assert!(diags.is_empty(), "{diags:?}");
    facts
}

#[test]
fn shared_terminal_gets_innermost_enddo_first() {
    let f = shared_terminal();
    let kinds: Vec<(i64, i64, i64, &str)> = f
        .stmt
        .iter()
        .map(|s| (s.stmt, s.line, s.col, s.kind.as_str()))
        .collect();
    assert_eq!(
        kinds,
        vec![
            (1, 2, 7, "decl"),
            (2, 3, 7, "do"),
            (3, 4, 7, "assign"),
            (4, 5, 7, "do"),
            (5, 6, 7, "assign"),
            (6, 6, 0, "enddo"),
            (7, 6, 0, "enddo"),
            (8, 7, 7, "end"),
        ]
    );
    let edges: Vec<(i64, i64)> = f.cfg_edge.iter().map(|e| (e.from, e.to)).collect();
    assert_eq!(
        edges,
        // The inner DO's zero-trip edge skips to the outer loop's enddo.
        vec![
            (2, 3),
            (2, 8),
            (3, 4),
            (4, 5),
            (4, 7),
            (5, 6),
            (6, 5),
            (6, 7),
            (7, 3),
            (7, 8)
        ]
    );
    let ends: Vec<(i64, i64)> = f.loop_end.iter().map(|e| (e.r#loop, e.stmt)).collect();
    assert_eq!(ends, vec![(2, 7), (4, 6)]);
    let inner: Vec<i64> = f
        .loop_stmt
        .iter()
        .filter(|s| s.r#loop == 4)
        .map(|s| s.stmt)
        .collect();
    assert_eq!(inner, vec![5, 6]);
    let outer: Vec<i64> = f
        .loop_stmt
        .iter()
        .filter(|s| s.r#loop == 2)
        .map(|s| s.stmt)
        .collect();
    assert_eq!(outer, vec![3, 4, 5, 6, 7]);
}

#[test]
fn blocks_split_at_branches_and_joins() {
    let f = shared_terminal();
    let blocks: Vec<(i64, i64, i64)> = f
        .block_stmt
        .iter()
        .map(|b| (b.block, b.stmt, b.index))
        .collect();
    assert_eq!(
        blocks,
        vec![
            (2, 2, 0),
            (3, 3, 0),
            (3, 4, 1),
            (5, 5, 0),
            (5, 6, 1),
            (7, 7, 0),
            (8, 8, 0)
        ]
    );
    let edges: Vec<(i64, i64)> = f.block_edge.iter().map(|e| (e.from, e.to)).collect();
    assert_eq!(
        edges,
        vec![
            (2, 3),
            (2, 8),
            (3, 5),
            (3, 7),
            (5, 5),
            (5, 7),
            (7, 3),
            (7, 8)
        ]
    );
}

#[test]
fn subscript_of_two_loop_variables_is_affine_in_both_loops() {
    let f = shared_terminal();
    // A(I+J-1) in statement 5: the use of A is the second reference of the statement.
    let a_use = f
        .r#use
        .iter()
        .find(|u| u.stmt == 5 && u.var == "A")
        .expect("use of A")
        .r#ref;
    let form = f
        .subscript
        .iter()
        .find(|s| s.r#ref == a_use)
        .expect("affine")
        .form;
    assert_eq!(
        f.affine.iter().find(|a| a.form == form).map(|a| a.constant),
        Some(-1)
    );
    let terms: Vec<(i64, i64)> = f
        .affine_loop
        .iter()
        .filter(|t| t.form == form)
        .map(|t| (t.r#loop, t.coeff))
        .collect();
    assert_eq!(terms, vec![(2, 1), (4, 1)]);
    // N is an integer scalar that is not a loop variable: the upper bound's form.
    assert!(f.affine_var.iter().any(|v| v.var == "N" && v.coeff == 1));
}
