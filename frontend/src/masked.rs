//! WHERE and FORALL constructs as the masked assignments they perform.
//!
//! ```text
//! WHERE (M1)          ->  WHERE (M1) A = B
//!   A = B                 WHERE (.NOT.(M1) .AND. M2) C = D
//! ELSEWHERE (M2)          WHERE (.NOT.(M1) .AND. .NOT.(M2)) E = F
//!   C = D
//! ELSEWHERE
//!   E = F
//! END WHERE
//!
//! FORALL (I = 1:N, M(I))  ->  FORALL (I = 1:N, M(I)) A(I) = B(I)
//!   A(I) = B(I)               FORALL (I = 1:N, M(I)) C(I) = A(I+1)
//!   C(I) = A(I+1)
//! END FORALL
//! ```
//!
//! Each assignment becomes a masked assignment ([`StmtKind::Where`])
//! under the indices and the mask of its block; a masked assignment inside
//! joins its own (indices appended, masks joined with `.AND.`), and a
//! nested construct, closed first, is already such assignments. Both
//! constructs run their assignments one after the other, each over all its
//! elements, as the statements do. The analyses need only what each one
//! reads and may write: reading the masks again at every assignment (the
//! constructs evaluate them once) only adds uses, never hides one.

use crate::ast::{BinOp, Expr, ExprKind, ForallIndex, Pos, Stmt, StmtKind, UnOp};

/// One block of a WHERE construct: its mask (`None` for a final
/// ELSEWHERE without one) and its statements.
pub struct WhereArm {
    pub mask: Option<Expr>,
    pub body: Vec<Stmt>,
}

/// What a construct becomes: its statements, and the positions of the
/// statements it may not hold (each became opaque).
pub type Masked = (Vec<Stmt>, Vec<Pos>);

/// The statements a WHERE construct stands for. Labels on the WHERE and
/// END WHERE lines stay as CONTINUE statements.
pub fn where_construct(
    start: (Option<u32>, Pos),
    arms: Vec<WhereArm>,
    end: (Option<u32>, Pos),
) -> Masked {
    let mut out: Masked = (labelled(start).into_iter().collect(), Vec::new());
    // The conjunction of the negated masks of the blocks before.
    let mut none_before: Option<Expr> = None;
    for arm in arms {
        let mask = match arm.mask {
            Some(m) => {
                let not_m = not(m.clone());
                let mask = and(none_before.clone(), m);
                none_before = Some(and(none_before, not_m));
                mask
            }
            None => none_before.clone().expect("the first block has a mask"),
        };
        under(arm.body, &[], &mask, &mut out);
    }
    out.0.extend(labelled(end));
    out
}

/// The statements a FORALL construct stands for (`mask`: `.TRUE.` when
/// the header has none).
pub fn forall_construct(
    start: (Option<u32>, Pos),
    indices: &[ForallIndex],
    mask: &Expr,
    body: Vec<Stmt>,
    end: (Option<u32>, Pos),
) -> Masked {
    let mut out: Masked = (labelled(start).into_iter().collect(), Vec::new());
    under(body, indices, mask, &mut out);
    out.0.extend(labelled(end));
    out
}

/// The statements of `body` under `indices` and `mask`, appended to `out`.
fn under(body: Vec<Stmt>, indices: &[ForallIndex], mask: &Expr, out: &mut Masked) {
    for s in body {
        let kind = match s.kind {
            StmtKind::Assign { lhs, rhs } => StmtKind::Where {
                indices: indices.to_vec(),
                mask: mask.clone(),
                lhs,
                rhs,
            },
            StmtKind::Where {
                indices: inner,
                mask: inner_mask,
                lhs,
                rhs,
            } => StmtKind::Where {
                indices: indices.iter().cloned().chain(inner).collect(),
                mask: and(Some(mask.clone()), inner_mask),
                lhs,
                rhs,
            },
            StmtKind::Continue => StmtKind::Continue,
            _ => {
                out.1.push(s.pos);
                StmtKind::Opaque {
                    reason: "a statement a WHERE or FORALL construct may not hold".into(),
                }
            }
        };
        out.0.push(Stmt { kind, ..s });
    }
}

/// A CONTINUE keeping the label of a construct's first or last line.
fn labelled((label, pos): (Option<u32>, Pos)) -> Option<Stmt> {
    label.map(|l| Stmt {
        label: Some(l),
        pos,
        kind: StmtKind::Continue,
    })
}

fn not(e: Expr) -> Expr {
    Expr {
        pos: e.pos,
        kind: ExprKind::Unary(UnOp::Not, Box::new(e)),
    }
}

/// `a .AND. b`, or `b` alone.
fn and(a: Option<Expr>, b: Expr) -> Expr {
    match a {
        None => b,
        Some(a) => Expr {
            pos: a.pos,
            kind: ExprKind::Binary(BinOp::And, Box::new(a), Box::new(b)),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fold::text_as_written;

    fn var(n: &str) -> Expr {
        Expr {
            pos: Pos::default(),
            kind: ExprKind::Var(n.into()),
        }
    }

    fn assign(l: &str, r: &str) -> Stmt {
        Stmt {
            label: None,
            pos: Pos::default(),
            kind: StmtKind::Assign {
                lhs: var(l),
                rhs: var(r),
            },
        }
    }

    fn masks(stmts: &[Stmt]) -> Vec<String> {
        stmts
            .iter()
            .map(|s| match &s.kind {
                StmtKind::Where { mask, lhs, .. } => {
                    format!("{} {}", text_as_written(mask), text_as_written(lhs))
                }
                StmtKind::Continue => "CONTINUE".into(),
                _ => "OPAQUE".into(),
            })
            .collect()
    }

    #[test]
    fn each_block_gets_its_mask_and_the_negation_of_those_before() {
        let arms = vec![
            WhereArm {
                mask: Some(var("M1")),
                body: vec![assign("A", "B")],
            },
            WhereArm {
                mask: Some(var("M2")),
                body: vec![assign("C", "D")],
            },
            WhereArm {
                mask: None,
                body: vec![assign("E", "F"), assign("G", "H")],
            },
        ];
        let p = Pos::default();
        let (stmts, refused) = where_construct((Some(10), p), arms, (None, p));
        assert!(refused.is_empty());
        assert_eq!(
            masks(&stmts),
            [
                "CONTINUE",
                "M1 A",
                ".NOT.M1.AND.M2 C",
                ".NOT.M1.AND..NOT.M2 E",
                ".NOT.M1.AND..NOT.M2 G",
            ]
        );
    }

    #[test]
    fn a_where_statement_inside_joins_its_mask_and_other_statements_are_refused() {
        let inner = Stmt {
            label: None,
            pos: Pos::default(),
            kind: StmtKind::Where {
                indices: Vec::new(),
                mask: var("M2"),
                lhs: var("A"),
                rhs: var("B"),
            },
        };
        let call = Stmt {
            label: None,
            pos: Pos {
                line: 7,
                col: 3,
                ..Pos::default()
            },
            kind: StmtKind::Continue,
        };
        let stop = Stmt {
            kind: StmtKind::Stop,
            ..call.clone()
        };
        let arms = vec![WhereArm {
            mask: Some(var("M1")),
            body: vec![inner, stop],
        }];
        let p = Pos::default();
        let (stmts, refused) = where_construct((None, p), arms, (None, p));
        assert_eq!(masks(&stmts), ["M1.AND.M2 A", "OPAQUE"]);
        assert_eq!(refused.len(), 1);
        assert_eq!(refused[0].line, 7);
    }
}
