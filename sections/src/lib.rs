//! Regular array sections with affine bounds, and their algebra: the sets
//! that region analysis (MOD, USE, DDEF, EUSE, LIVE) and Li & Harada's
//! section access descriptors are made of.
//!
//! A [`Section`] is a product of one set per dimension; each is a Fortran
//! triplet `first:bound:stride` whose bounds are [`Affine`] forms over DO
//! variables and loop invariants (a single element `a*k+b` is a triplet of
//! one), the whole extent `:`, or an unknown subscript `?`.
//!
//! Sets of elements that a triplet product cannot describe are approximated,
//! and the caller says which way ([`Approx`]): a **may** result contains the
//! true set (widened: hulls, coarser strides, `?`), a **must** result is
//! contained in it (narrowed: one operand, one piece, nothing). Every
//! operation says whether its result is exact. Comparisons of symbolic
//! bounds use [`Assumptions`] (ranges of symbols); with none, two bounds
//! compare when they differ by a constant (`N` and `N+1`), and a result that
//! would depend on an incomparable pair is widened or narrowed instead.
//!
//! The meaning of every type is [`enumerate::elements`], and the tests check
//! each operation against it on small sections.

pub mod affine;
pub mod assumptions;
pub mod difference;
pub mod dim;
pub mod enumerate;
pub mod intersection;
pub mod iterations;
pub mod region;
pub mod sad;
pub mod section;
mod span;
pub mod subset;
pub mod text;
pub mod union;
pub mod vpmap;

pub use affine::Affine;
pub use assumptions::Assumptions;
pub use difference::{difference, difference_pieces};
pub use dim::{Dim, Triplet};
pub use intersection::intersection;
pub use iterations::{iterations, Loop};
pub use region::{Region, Summary};
pub use section::Section;
pub use subset::{is_empty, is_subset, is_subset_within};
pub use text::{parse_section, ParseError};
pub use union::union;

/// Which way a result that cannot be represented is approximated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Approx {
    /// A superset of the true set (what may be accessed).
    May,
    /// A subset of the true set (what is accessed for certain).
    Must,
}

/// A result and whether it is the true set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Approximation {
    pub section: Section,
    pub exact: bool,
}

impl Approximation {
    pub(crate) fn exact(section: Section) -> Self {
        Approximation {
            section,
            exact: true,
        }
    }

    pub(crate) fn inexact(section: Section) -> Self {
        Approximation {
            section,
            exact: false,
        }
    }

    /// The widest (may) or narrowest (must) answer: any element or nothing.
    pub(crate) fn giving_up(mode: Approx) -> Self {
        Approximation::inexact(match mode {
            Approx::May => Section::Unknown,
            Approx::Must => Section::Empty,
        })
    }
}

/// The answer to a question about sets that may not be decidable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Answer {
    Yes,
    No,
    Unknown,
}
