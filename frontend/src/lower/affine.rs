//! Affine forms (`affine`, `affine_loop`, `affine_var`): an integer
//! expression as `constant + sum coeff x term`.
//!
//! A term is the DO variable of an enclosing DO loop (the innermost one
//! with that variable, named by its loop id), another INTEGER scalar
//! (named by the variable), or a fixed element (`GRID_POINTS(1)`, named
//! `GRID_POINTS$1`, see [`super::fixed`]); `subscript_value` forms put in
//! the values scalars are known to hold ([`super::values`]). Named
//! constants (PARAMETERs and variables that keep their initial value,
//! `DATA K /5/`) and constant subexpressions fold
//! into the constant; a product is affine when one factor is constant
//! (`2*(I+1)` is `2*I + 2`); division is affine only between constants
//! (Fortran truncation); anything else — a product of two variables,
//! function calls, other array elements, REAL variables — is not affine.

use std::collections::BTreeMap;

use kaiseki_facts::{Affine, AffineLoop, AffineVar};

use super::fixed::element_term;
use super::UnitLowerer;
use crate::ast::{BinOp, Expr, ExprKind, UnOp};
use crate::fold::{self, Env};
use crate::symbols::NameClass;

/// `constant + sum coeff x term`, without zero coefficients.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Linear<K: Ord> {
    pub constant: i64,
    pub terms: BTreeMap<K, i64>,
}

/// A term of a statement's affine form.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Term {
    /// The DO variable of loop `id`.
    Loop(i64),
    Var(String),
}

pub(crate) type Form = Linear<Term>;

impl<K: Ord + Clone> Linear<K> {
    pub fn constant(c: i64) -> Self {
        Linear {
            constant: c,
            terms: BTreeMap::new(),
        }
    }

    pub(super) fn term(k: K) -> Self {
        Linear {
            constant: 0,
            terms: BTreeMap::from([(k, 1)]),
        }
    }

    pub(super) fn scale(mut self, k: i64) -> Option<Self> {
        self.constant = self.constant.checked_mul(k)?;
        for c in self.terms.values_mut() {
            *c = c.checked_mul(k)?;
        }
        self.terms.retain(|_, c| *c != 0);
        Some(self)
    }

    pub(super) fn add(mut self, other: Self) -> Option<Self> {
        self.constant = self.constant.checked_add(other.constant)?;
        for (k, c) in other.terms {
            let e = self.terms.entry(k).or_insert(0);
            *e = e.checked_add(c)?;
        }
        self.terms.retain(|_, c| *c != 0);
        Some(self)
    }

    pub(super) fn as_constant(&self) -> Option<i64> {
        self.terms.is_empty().then_some(self.constant)
    }
}

/// The affine form of `e`, where `term` says which names are terms (and
/// which term); `None` when `e` is not affine.
pub(crate) fn linear<K: Ord + Clone>(
    e: &Expr,
    env: &dyn Env,
    term: &dyn Fn(&str) -> Option<K>,
) -> Option<Linear<K>> {
    linear_of(e, env, &|leaf: &Expr| match &leaf.kind {
        ExprKind::Var(n) => term(n).map(Linear::term),
        _ => None,
    })
}

/// [`linear`] where `value` gives the form each leaf (a name, `NAME(args)`)
/// stands for.
fn linear_of<K: Ord + Clone>(
    e: &Expr,
    env: &dyn Env,
    value: &dyn Fn(&Expr) -> Option<Linear<K>>,
) -> Option<Linear<K>> {
    if let Some(n) = fold::fold_int(e, env) {
        return Some(Linear::constant(n));
    }
    match &e.kind {
        ExprKind::Var(_) | ExprKind::Apply { .. } => value(e),
        ExprKind::Unary(UnOp::Neg, x) => linear_of(x, env, value)?.scale(-1),
        ExprKind::Unary(UnOp::Plus, x) => linear_of(x, env, value),
        ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul), a, b) => {
            let a = linear_of(a, env, value)?;
            let b = linear_of(b, env, value)?;
            match op {
                BinOp::Add => a.add(b),
                BinOp::Sub => a.add(b.scale(-1)?),
                _ => match (a.as_constant(), b.as_constant()) {
                    (Some(k), _) => b.scale(k),
                    (_, Some(k)) => a.scale(k),
                    _ => None,
                },
            }
        }
        _ => None,
    }
}

impl UnitLowerer<'_, '_, '_> {
    /// The affine form of `e` in the statement being lowered (its loops).
    pub(super) fn affine(&self, e: &Expr) -> Option<Form> {
        self.affine_with(e, false)
    }

    /// [`Self::affine`] with the values scalars are known to hold there
    /// ([`super::values`]) in place of the scalars.
    pub(super) fn affine_valued(&self, e: &Expr) -> Option<Form> {
        self.affine_with(e, true)
    }

    fn affine_with(&self, e: &Expr, valued: bool) -> Option<Form> {
        let syms = self.syms;
        let value = |leaf: &Expr| -> Option<Form> {
            let name = match &leaf.kind {
                ExprKind::Var(name) => name,
                ExprKind::Apply { name, args } => return self.fixed_element(name, args),
                _ => return None,
            };
            if syms.classify_name(name) != NameClass::Scalar || !syms.is_integer_scalar(name) {
                return None;
            }
            let enclosing = self
                .loops
                .iter()
                .rev()
                .find(|f| f.var.as_deref() == Some(name));
            Some(match enclosing {
                Some(f) => Linear::term(Term::Loop(f.id)),
                None => self
                    .value_of(name)
                    .filter(|_| valued)
                    .cloned()
                    .unwrap_or_else(|| Linear::term(Term::Var(name.to_string()))),
            })
        };
        linear_of(e, syms, &value)
    }

    /// The term `NAME(args)` stands for when it is a fixed element.
    fn fixed_element(&self, name: &str, args: &[Expr]) -> Option<Form> {
        let subscripts = self.fixed_subscripts(name, args)?;
        Some(Linear::term(Term::Var(element_term(name, &subscripts))))
    }

    /// The subscripts of `NAME(args)` when it is an element of a fixed
    /// array at constant subscripts, none negative (see [`super::fixed`]).
    pub(super) fn fixed_subscripts(&self, name: &str, args: &[Expr]) -> Option<Vec<i64>> {
        if !self.fixed.contains(name) || args.len() != self.syms.rank(name) {
            return None;
        }
        args.iter()
            .map(|a| fold::fold_int(a, self.syms).filter(|s| *s >= 0))
            .collect()
    }

    /// Gives `f` a form id and emits its rows.
    pub(super) fn emit_form(&mut self, f: &Form) -> i64 {
        let form = self.g.next_form;
        self.g.next_form += 1;
        let facts = &mut self.g.facts;
        facts.affine.push(Affine {
            form,
            constant: f.constant,
        });
        for (t, &coeff) in &f.terms {
            match t {
                Term::Loop(l) => facts.affine_loop.push(AffineLoop {
                    form,
                    r#loop: *l,
                    coeff,
                }),
                Term::Var(v) => facts.affine_var.push(AffineVar {
                    form,
                    var: v.clone(),
                    coeff,
                }),
            }
        }
        form
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fold::tests::{bin, int, neg, var};
    use crate::fold::Const;
    use rustc_hash::FxHashMap;

    fn form(e: &Expr) -> Option<Linear<String>> {
        let params = FxHashMap::from_iter([("N".to_string(), Const::Int(10))]);
        linear(e, &params, &|n: &str| (n != "X").then(|| n.to_string()))
    }

    #[test]
    fn products_with_a_constant_factor_are_affine() {
        // 2*(I+1) - N = 2*I - 8
        let e = bin(
            BinOp::Sub,
            bin(BinOp::Mul, int(2), bin(BinOp::Add, var("I"), int(1))),
            var("N"),
        );
        let f = form(&e).unwrap();
        assert_eq!(f.constant, -8);
        assert_eq!(f.terms, BTreeMap::from([("I".to_string(), 2)]));
    }

    #[test]
    fn cancelling_terms_vanish_and_nonlinear_is_rejected() {
        let e = bin(BinOp::Add, var("I"), neg(var("I")));
        assert_eq!(form(&e).unwrap().terms.len(), 0);
        assert_eq!(form(&bin(BinOp::Mul, var("I"), var("J"))), None);
        assert_eq!(form(&bin(BinOp::Div, var("I"), int(2))), None);
        assert_eq!(form(&bin(BinOp::Add, var("X"), int(2))), None);
        assert_eq!(form(&bin(BinOp::Div, int(7), int(2))).unwrap().constant, 3);
    }
}
