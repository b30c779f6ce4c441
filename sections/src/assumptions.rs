//! What is known about the symbols where sections are compared: a range per
//! symbol (`N >= 1`), nothing about the others.
//!
//! They may also hold the declared bounds of arrays (`A(5, 0:162)`): a
//! valid program touches no element outside them, so a may-set minus a
//! must-set can drop what lies in the must-set within those bounds (see
//! [`crate::Region::minus`]).
//!
//! Two affine forms compare when their difference has a sign on the whole
//! box of ranges (interval arithmetic). With no assumption this is the
//! "same symbols, constant difference" test: `N+1` vs `N` compares, `N` vs
//! `M` does not. Every result of the algebra holds in every environment that
//! satisfies the assumptions.

use crate::affine::Affine;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Per array, the declared bounds of each dimension when both are constants.
pub type Declared = BTreeMap<String, Vec<Option<(i64, i64)>>>;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Assumptions {
    ranges: BTreeMap<String, (Option<i64>, Option<i64>)>,
    declared: Option<Arc<Declared>>,
}

impl Assumptions {
    pub fn none() -> Self {
        Assumptions::default()
    }

    /// Adds `lower <= name <= upper` (either side may be open).
    pub fn with_range(mut self, name: &str, lower: Option<i64>, upper: Option<i64>) -> Self {
        self.ranges.insert(name.to_string(), (lower, upper));
        self
    }

    /// With the declared bounds of the arrays of `declared`.
    pub fn with_declared(mut self, declared: Arc<Declared>) -> Self {
        self.declared = Some(declared);
        self
    }

    /// The declared bounds of array `name`, when known.
    pub fn declared(&self, name: &str) -> Option<&[Option<(i64, i64)>]> {
        self.declared.as_ref()?.get(name).map(Vec::as_slice)
    }

    /// The same assumptions about every symbol but `name` (a DO variable
    /// that a loop expansion binds).
    pub fn without(&self, name: &str) -> Self {
        let mut rest = self.clone();
        rest.ranges.remove(name);
        rest
    }

    /// Whether `env` satisfies the assumptions (a missing symbol does not).
    pub fn hold(&self, env: &BTreeMap<String, i64>) -> bool {
        self.ranges.iter().all(|(s, &(lo, hi))| {
            env.get(s)
                .is_some_and(|&v| lo.is_none_or(|l| l <= v) && hi.is_none_or(|h| v <= h))
        })
    }

    /// The least value of `e`, when it has one.
    pub fn min(&self, e: &Affine) -> Option<i64> {
        self.extreme(e, false)
    }

    /// The greatest value of `e`, when it has one.
    pub fn max(&self, e: &Affine) -> Option<i64> {
        self.extreme(e, true)
    }

    fn extreme(&self, e: &Affine, greatest: bool) -> Option<i64> {
        e.terms().try_fold(e.constant_part(), |acc, (s, c)| {
            let &(lo, hi) = self.ranges.get(s)?;
            let v = if (c > 0) == greatest { hi? } else { lo? };
            acc.checked_add(c.checked_mul(v)?)
        })
    }

    /// `Some(true)` when `a <= b` everywhere, `Some(false)` when `a > b`
    /// everywhere, `None` when it depends on the symbols.
    pub fn le(&self, a: &Affine, b: &Affine) -> Option<bool> {
        let d = b.sub(a)?;
        if self.min(&d).is_some_and(|m| m >= 0) {
            Some(true)
        } else if self.max(&d).is_some_and(|m| m < 0) {
            Some(false)
        } else {
            None
        }
    }

    /// `a < b`, as [`Assumptions::le`].
    pub fn lt(&self, a: &Affine, b: &Affine) -> Option<bool> {
        self.le(&a.add_constant(1)?, b)
    }

    /// The larger of the two where it is the same one everywhere.
    pub fn max_of<'a>(&self, a: &'a Affine, b: &'a Affine) -> Option<&'a Affine> {
        self.le(a, b).map(|le| if le { b } else { a })
    }

    /// The smaller of the two where it is the same one everywhere.
    pub fn min_of<'a>(&self, a: &'a Affine, b: &'a Affine) -> Option<&'a Affine> {
        self.le(a, b).map(|le| if le { a } else { b })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constant_differences_compare_without_assumptions() {
        let none = Assumptions::none();
        let n = Affine::symbol("N");
        let n1 = n.add_constant(1).unwrap();
        assert_eq!(none.le(&n, &n1), Some(true));
        assert_eq!(none.lt(&n1, &n), Some(false));
        assert_eq!(none.le(&n, &Affine::symbol("M")), None);
        assert_eq!(none.le(&Affine::constant(1), &n), None);
    }

    #[test]
    fn ranges_decide_more() {
        let ctx = Assumptions::none().with_range("N", Some(1), None);
        let n = Affine::symbol("N");
        assert_eq!(ctx.le(&Affine::constant(1), &n), Some(true));
        assert_eq!(ctx.lt(&Affine::constant(1), &n), None);
        assert_eq!(
            ctx.le(&n.scale(2).unwrap(), &Affine::constant(0)),
            Some(false)
        );
        assert_eq!(ctx.max(&n), None);
        let env = BTreeMap::from([("N".to_string(), 0)]);
        assert!(!ctx.hold(&env));
        assert!(ctx.without("N").hold(&env));
    }
}
