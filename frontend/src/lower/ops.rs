//! `assign_tree(stmt, target, tree)`: the right-hand side of an assignment
//! as the operations a machine executes (loads are the use references at
//! the leaves, the store is the target). The unrolling estimate of Koseki,
//! Komatsu & Fukazawa (seed 004) counts and schedules these operations
//! (`rules/dl/unroll.dl`); nothing else reads them.

use rustc_hash::FxHashMap;

use kaiseki_facts::AssignTree;

use super::UnitLowerer;
use crate::ast::{BinOp, Expr, ExprKind, Pos, TypeSpec, UnOp};
use crate::intrinsics::ResultType;
use crate::symbols::{ApplyClass, NameClass};

impl<'a> UnitLowerer<'_, '_, 'a> {
    /// The tree of `lhs = rhs`, whose references got ids from `first` on
    /// (uses, then the definition, which is the last).
    pub(super) fn assign_tree(&mut self, stmt: i64, first: i64, rhs: &'a Expr) {
        let ids: FxHashMap<(u32, u32), i64> = self
            .g
            .facts
            .ref_pos
            .iter()
            .rev()
            .take_while(|p| p.r#ref >= first)
            .map(|p| ((p.line as u32, p.col as u32), p.r#ref))
            .collect();
        let target = self.g.next_ref - 1;
        if target < first {
            return;
        }
        let tree = self.op_tree(rhs, &ids).0;
        self.g
            .facts
            .assign_tree
            .push(AssignTree { stmt, target, tree });
    }

    /// The spelling of `e` and whether its value is floating point.
    fn op_tree(&self, e: &Expr, ids: &FxHashMap<(u32, u32), i64>) -> (String, bool) {
        let leaf = |pos: Pos, name: &str| match ids.get(&(pos.line, pos.col)) {
            Some(id) => (format!("r{id}"), is_float(&self.syms.type_of(name))),
            None => ("?".to_string(), true),
        };
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Logical(_) => ("k".to_string(), false),
            ExprKind::Real(_) => ("k".to_string(), true),
            ExprKind::Str(_) | ExprKind::Range { .. } => ("?".to_string(), false),
            ExprKind::Var(name) => match self.syms.classify_name(name) {
                NameClass::Constant => ("k".to_string(), is_float(&self.syms.type_of(name))),
                NameClass::Scalar => leaf(e.pos, name),
                _ => ("?".to_string(), true),
            },
            ExprKind::Apply { name, args } => match self.syms.classify_apply(name, args) {
                ApplyClass::Element => leaf(e.pos, name),
                ApplyClass::Intrinsic(row) => {
                    let parts: Vec<(String, bool)> =
                        args.iter().map(|a| self.op_tree(a, ids)).collect();
                    let float = match row.result {
                        ResultType::Of(t) => is_float(&t.spec()),
                        ResultType::Argument(i) => parts.get(i).is_some_and(|p| p.1),
                        ResultType::None => false,
                    };
                    (node(row.name, float, &parts), float)
                }
                _ => ("?".to_string(), true),
            },
            ExprKind::Unary(UnOp::Plus, x) => self.op_tree(x, ids),
            ExprKind::Unary(UnOp::Neg, x) => {
                let part = self.op_tree(x, ids);
                let float = part.1;
                (node("neg", float, &[part]), float)
            }
            ExprKind::Binary(op, a, b) => {
                let name = match op {
                    BinOp::Add => "add",
                    BinOp::Sub => "sub",
                    BinOp::Mul => "mul",
                    BinOp::Div => "div",
                    BinOp::Pow => "pow",
                    _ => return ("?".to_string(), false),
                };
                let parts = [self.op_tree(a, ids), self.op_tree(b, ids)];
                let float = parts[0].1 || parts[1].1;
                (node(name, float, &parts), float)
            }
            ExprKind::Unary(UnOp::Not, _) => ("?".to_string(), false),
        }
    }
}

/// `(name.class operand ...)`; an integer operand of a floating operation
/// is converted first (`(cvt.f r3)`), as the machine does.
fn node(name: &str, float: bool, parts: &[(String, bool)]) -> String {
    let class = if float { "f" } else { "i" };
    let mut s = format!("({name}.{class}");
    for (text, part_float) in parts {
        s.push(' ');
        if float && !part_float && text != "k" {
            s.push_str(&format!("(cvt.f {text})"));
        } else {
            s.push_str(text);
        }
    }
    s.push(')');
    s
}

fn is_float(t: &TypeSpec) -> bool {
    matches!(t, TypeSpec::Real | TypeSpec::Double | TypeSpec::Complex)
}
