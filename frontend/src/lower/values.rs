//! Forward substitution of integer scalars (`values`): in a straight run of
//! statements, `I1 = 2*J1 - D1` gives I1 the affine form `2*J1 - D1` until
//! something may change it, and a subscript there that reads I1 gets a
//! `subscript_value` row with that form put in: `X1(I1-1)` is
//! `X1(2*J1-D1-1)` for the regions (MG's `rprj3`, whose X1 each iteration
//! then writes before it reads). (The dependence tests find such values
//! through the dataflow themselves, `rules/dl/induction.dl`, which needs
//! each term of a form read by its statement.)
//!
//! A value holds from its assignment to the end of the statement list it
//! is in, unless before that: the scalar or a variable of its form is
//! assigned again, a statement has a label (a jump may arrive with other
//! values), a statement calls a procedure or a function (it may change
//! them), or a statement is anything but an assignment, CONTINUE or FORMAT
//! (a loop, an IF, I/O, ...): then every value is forgotten. Each new
//! statement list (a loop's body, an IF's arm) starts with none. Only
//! scalars that share storage with no other name have values, and only
//! forms over such scalars and DO variables are kept: nothing else can
//! change them unseen.

use crate::ast::{Expr, ExprKind, Stmt, StmtKind};

use super::affine::{Form, Term};
use super::UnitLowerer;

impl UnitLowerer<'_, '_, '_> {
    /// The value substituted for `name` where it is read, if any.
    pub(super) fn value_of(&self, name: &str) -> Option<&Form> {
        self.values.get(name)
    }

    /// Forgets every value: the start of a statement list.
    pub(super) fn forget_values(&mut self) {
        self.values.clear();
    }

    /// Updates the values after lowering statement `s`, which made
    /// `calls` calls of procedures or functions.
    pub(super) fn after_statement(&mut self, s: &Stmt, calls: usize) {
        if calls > 0 {
            self.values.clear();
            return;
        }
        match &s.kind {
            StmtKind::Assign { .. } if self.syms.is_stmt_function_def(s) => {}
            StmtKind::Assign { lhs, rhs } => {
                if let ExprKind::Var(v) = &lhs.kind {
                    self.assigned(v, rhs);
                }
            }
            StmtKind::Continue | StmtKind::Format => {}
            _ => self.values.clear(),
        }
    }

    /// `v = rhs`: v's value is rhs's form (over the values before).
    fn assigned(&mut self, v: &str, rhs: &Expr) {
        let form = self.affine(rhs);
        self.values
            .retain(|k, f| k != v && !f.terms.contains_key(&Term::Var(v.to_string())));
        let own = |name: &str| self.storage.place(name).is_none() && !self.syms.is_pointee(name);
        let Some(form) = form else {
            return;
        };
        let kept = self.syms.is_integer_scalar(v)
            && own(v)
            && form.terms.keys().all(|t| match t {
                Term::Loop(_) => true,
                Term::Var(w) => w != v && own(w),
            });
        if kept {
            self.values.insert(v.to_string(), form);
        }
    }
}
