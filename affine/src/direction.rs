//! The direction of a dependence in one common loop: the vocabulary of
//! dependence vectors ([`crate::vectors`]) and of the known points that
//! answer their questions first (`samples`).

/// The direction of one common loop: V's iteration compared to U's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// V runs in a later iteration (`I_g < I'_g`).
    Lt,
    /// Same iteration.
    Eq,
    /// V runs in an earlier iteration (only after an outer `<`).
    Gt,
    /// Any (the test could not refine).
    Star,
}

impl Dir {
    /// The direction of the distance `I'_g - I_g`.
    pub(crate) fn of(distance: i64) -> Dir {
        match distance {
            d if d > 0 => Dir::Lt,
            0 => Dir::Eq,
            _ => Dir::Gt,
        }
    }

    /// Does the distance `I'_g - I_g` have this direction?
    pub fn holds(self, distance: i64) -> bool {
        self == Dir::Star || Dir::of(distance) == self
    }
}
