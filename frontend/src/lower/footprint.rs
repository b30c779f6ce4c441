//! The section of an actual argument a call may touch: the procedure's
//! footprint on its dummy (offsets from the element passed, see
//! [`Footprint`]) laid over the actual array's dimensions, as the
//! `section_form` rows of the call's reference. `CALL BINV(LHS(1,1,2,I),
//! R(1,I,J,K))` with `LHS(5,5,3,0:N)` and a dummy `X(5,5)` touches
//! `LHS(1:5, 1:5, 2, I)` and a dummy `Y(5)` `R(1:5, I, J, K)`: in a loop
//! over K the calls touch other elements in every iteration.
//!
//! Offsets run through the actual's elements in column-major order, so a
//! footprint that stays inside the first dimension from the element passed
//! is a range of it (the other subscripts as passed); one that spills over
//! takes that dimension whole and goes on in the next with the offsets
//! divided by its extent (the set is then larger than what is touched,
//! never smaller). A subscript that is not a constant may sit anywhere in
//! its dimension, so only an offset of 0 stays on it. The last dimension
//! takes what is left, whatever its extent: sequence association cannot
//! leave the array.

use super::affine::Form;
use super::arguments::{Footprint, Slot};
use super::UnitLowerer;
use crate::ast::Expr;
use crate::fold;
use kaiseki_facts::SectionMustDef;

impl<'a> UnitLowerer<'_, '_, 'a> {
    /// What the procedure of `slot` touches of actual `name` (an element of
    /// it or the whole array): its footprint, when its elements are of the
    /// actual's size.
    pub(super) fn footprint_of(&self, name: &str, slot: Slot) -> Option<Footprint> {
        slot.footprint
            .filter(|f| slot.array && Some(f.bytes) == self.syms.elem_bytes(name))
    }

    /// Whether footprint `f` surely writes every element of array `name`
    /// (of constant bounds) passed whole.
    pub(super) fn writes_whole(&self, name: &str, f: Footprint) -> bool {
        let count = self.syms.dims(name).iter().try_fold(1i64, |n, d| {
            let lo = d
                .lower
                .as_ref()
                .map_or(Some(1), |e| fold::fold_int(e, self.syms))?;
            let hi = fold::fold_int(d.upper.as_ref()?, self.syms)?;
            n.checked_mul((hi - lo + 1).max(0))
        });
        matches!((count, f.must), (Some(n), Some((lo, hi))) if n > 0 && lo <= 0 && hi >= n - 1)
    }

    /// `section_form` rows of reference `id`: the elements of array `name`
    /// from `name(subs)` (no subs: its first element) at offsets `span`.
    /// None when the array's bounds or the subscripts are not known well
    /// enough (the reference then stands for the array from there on).
    /// `sure`: the procedure surely writes every element of `span`; the
    /// reference is a `section_must_def` when its section is those elements
    /// exactly.
    pub(super) fn footprint_forms(
        &mut self,
        id: i64,
        name: &str,
        subs: &[Expr],
        span: (i64, i64),
        sure: bool,
    ) {
        if let Some(rows) = self.footprint_section(name, subs, span) {
            if sure && exact(&rows, span) {
                self.g
                    .facts
                    .section_must_def
                    .push(SectionMustDef { r#ref: id });
            }
            self.emit_section_forms(id, rows);
        }
    }

    /// The triplets of [`Self::footprint_forms`].
    fn footprint_section(
        &self,
        name: &str,
        subs: &[Expr],
        (mut lo, mut hi): (i64, i64),
    ) -> Option<Vec<(Form, Form, i64)>> {
        let dims = self.syms.dims(name);
        if dims.is_empty() || !(subs.is_empty() || subs.len() == dims.len()) || lo < 0 || hi < lo {
            return None;
        }
        let lower = |d: usize| -> Option<i64> {
            dims[d]
                .lower
                .as_ref()
                .map_or(Some(1), |e| fold::fold_int(e, self.syms))
        };
        let starts: Vec<Form> = if subs.is_empty() {
            (0..dims.len())
                .map(|d| lower(d).map(Form::constant))
                .collect::<Option<_>>()?
        } else {
            subs.iter().map(|e| self.affine(e)).collect::<Option<_>>()?
        };
        let shifted = |f: &Form, by: i64| f.clone().add(Form::constant(by));
        let mut rows = Vec::with_capacity(dims.len());
        for (d, start) in starts.iter().enumerate() {
            let last = d + 1 == dims.len();
            let lb = lower(d)?;
            // Where the element passed sits in this dimension, from 0.
            let (pmin, pmax, ext) = if last {
                (0, 0, i64::MAX)
            } else {
                let ub = fold::fold_int(dims[d].upper.as_ref()?, self.syms)?;
                let ext = ub - lb + 1;
                if ext <= 0 {
                    return None;
                }
                match start.as_constant() {
                    Some(c) => (c - lb, c - lb, ext),
                    None => (0, ext - 1, ext),
                }
            };
            if last || pmax.checked_add(hi)? < ext {
                let step = i64::from(hi > lo);
                rows.push((shifted(start, lo)?, shifted(start, hi)?, step));
                rows.extend(starts[d + 1..].iter().map(|f| (f.clone(), f.clone(), 0)));
                return Some(rows);
            }
            let ub = lb + ext - 1;
            rows.push((Form::constant(lb), Form::constant(ub), 1));
            lo = (pmin + lo) / ext;
            hi = (pmax + hi) / ext;
        }
        None
    }
}

/// Whether the section of `rows` holds no element but the `hi - lo + 1`
/// of `span` (it holds them all, see `footprint_section`): its triplets
/// count that many elements, whatever their symbols.
fn exact(rows: &[(Form, Form, i64)], (lo, hi): (i64, i64)) -> bool {
    let count = rows.iter().try_fold(1i64, |n, (lower, upper, step)| {
        let width = upper.clone().add(lower.clone().scale(-1)?)?.as_constant()?;
        let step = (*step).max(1);
        (width >= 0 && width % step == 0)
            .then(|| n.checked_mul(width / step + 1))
            .flatten()
    });
    count == Some(hi - lo + 1)
}
