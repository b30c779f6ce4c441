//! Fixed elements (`fixed_element`): an element, at constant subscripts,
//! of a COMMON or module INTEGER array that nothing the unit runs may
//! change, so that it holds one value all through a call of the unit and
//! can be a term of affine forms like an INTEGER scalar the unit never
//! defines. BT's `DO I = 0, GRID_POINTS(1) - 1` then has the bound
//! `GRID_POINTS(1) - 1`, and the work arrays its iterations write whole
//! (`BUF(0:GRID_POINTS(1)-1, 1:5)`) cover what they read.
//!
//! An array is fixed in a unit when it is a member of a COMMON block (a
//! module variable is one of its own block, see `crate::scopes`) at known
//! bytes, and what a call of the unit may write (its own statements, what
//! it passes to procedures that may write their dummies, and what the
//! procedures it calls may write in turn; [`super::effects`]) does not
//! reach those bytes. A unit whose effects are unknown (an opaque
//! statement, a call of a procedure the program does not define) fixes
//! nothing. Another name of the same storage (EQUIVALENCE) writes the same
//! bytes, so it is counted. Local arrays are left out: a unit's own
//! constant arrays fold as PARAMETERs.

use rustc_hash::FxHashSet;

use crate::ast::TypeSpec;

use super::storage::common_places;
use super::UnitLowerer;

/// How a fixed element is spelled as a term (`affine_var`) and in its
/// `fixed_element` row: `GRID_POINTS$1` for `GRID_POINTS(1)`, `A$1$2`
/// for `A(1,2)`. `$` is no character of a name, and the spelling passes
/// through the text encodings of normal forms and sections as a name does.
pub(super) fn element_term(array: &str, subscripts: &[i64]) -> String {
    subscripts
        .iter()
        .fold(array.to_string(), |t, s| format!("{t}${s}"))
}

impl UnitLowerer<'_, '_, '_> {
    /// The INTEGER arrays of the unit that nothing it runs may change.
    pub(super) fn fixed_arrays(&self) -> FxHashSet<String> {
        let Some(touch) = self.effects.touch(&self.name) else {
            return FxHashSet::default();
        };
        common_places(self.unit, self.syms, &self.storage)
            .into_iter()
            .filter(|(name, place)| {
                place.bytes.is_some()
                    && self.syms.is_array(name)
                    && self.syms.type_of(name) == TypeSpec::Integer
                    && !self.syms.is_pointee(name)
                    && !touch.writes.touches(&place.block, place.bytes)
            })
            .map(|(name, _)| name)
            .collect()
    }
}
