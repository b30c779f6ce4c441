//! Array sections: a product of dimension sets, nothing, or any element.

use crate::affine::Affine;
use crate::assumptions::Assumptions;
use crate::dim::{Dim, Triplet};
use crate::span::Span;
use crate::Approx;

/// A set of elements of one array (the array's name is the caller's).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Section {
    /// No element.
    Empty,
    /// Elements not described at all (not even the rank): may-operations
    /// take it as the whole array, must-operations as nothing.
    Unknown,
    /// The product of one set per dimension (`Dims(vec![])`: a scalar).
    Dims(Vec<Dim>),
}

impl Section {
    /// The product of `dims`.
    pub fn new(dims: Vec<Dim>) -> Section {
        Section::Dims(dims)
    }

    /// The element `A(s1, s2, ...)`.
    pub fn element(subscripts: impl IntoIterator<Item = Affine>) -> Section {
        Section::Dims(subscripts.into_iter().map(Dim::point).collect())
    }

    /// The product of triplets, `Empty` when one is empty whatever the
    /// symbols are.
    pub fn triplets(dims: impl IntoIterator<Item = (Affine, Affine, i64)>) -> Section {
        dims.into_iter()
            .map(|(f, b, s)| Triplet::new(f, b, s).map(Dim::Triplet))
            .collect::<Option<Vec<_>>>()
            .map_or(Section::Empty, Section::Dims)
    }

    pub fn rank(&self) -> Option<usize> {
        match self {
            Section::Dims(d) => Some(d.len()),
            _ => None,
        }
    }

    pub fn dims(&self) -> Option<&[Dim]> {
        match self {
            Section::Dims(d) => Some(d),
            _ => None,
        }
    }

    /// The section with `from` replaced by `to` in every bound.
    pub fn substitute(&self, from: &str, to: &Affine) -> Option<Section> {
        let Some(dims) = self.dims() else {
            return Some(self.clone());
        };
        let dims = dims
            .iter()
            .map(|d| match d {
                Dim::Triplet(t) => Triplet::new(
                    t.first().substitute(from, to)?,
                    t.bound().substitute(from, to)?,
                    t.stride(),
                )
                .map(Dim::Triplet),
                other => Some(other.clone()),
            })
            .collect::<Option<Vec<_>>>();
        Some(dims.map_or(Section::Empty, Section::Dims))
    }

    /// Whether a bound or subscript uses `name`.
    pub fn mentions(&self, name: &str) -> bool {
        self.dims()
            .is_some_and(|d| d.iter().any(|x| x.mentions(name)))
    }
}

/// One dimension as the operations see it in one mode.
#[derive(Clone, Debug)]
pub(crate) enum Axis {
    All,
    /// Only in may mode (must mode drops sections with an unknown axis).
    Unknown,
    Span(Span),
}

/// A section as the operations see it in one mode.
pub(crate) enum Prepared {
    Empty,
    /// Any element (may mode only).
    Whole,
    Axes(Vec<Axis>),
}

/// The section's meaning in `mode` under `ctx`: spans normalized (a
/// provably empty one empties the section), unknown parts widened to the
/// whole extent (may) or dropped (must).
pub(crate) fn prepare(s: &Section, mode: Approx, ctx: &Assumptions) -> Prepared {
    match s {
        Section::Empty => Prepared::Empty,
        Section::Unknown => match mode {
            Approx::May => Prepared::Whole,
            Approx::Must => Prepared::Empty,
        },
        Section::Dims(dims) => {
            let mut axes = Vec::with_capacity(dims.len());
            for d in dims {
                axes.push(match d {
                    Dim::All => Axis::All,
                    Dim::Unknown if mode == Approx::Must => return Prepared::Empty,
                    Dim::Unknown => Axis::Unknown,
                    Dim::Triplet(t) => match Span::of_triplet(t).normalize(ctx) {
                        Some(span) => Axis::Span(span),
                        None => return Prepared::Empty,
                    },
                });
            }
            Prepared::Axes(axes)
        }
    }
}

/// The section of `axes` in `mode`, and whether it is exact.
pub(crate) fn assemble(axes: Vec<Axis>, mode: Approx, ctx: &Assumptions) -> (Section, bool) {
    let mut dims = Vec::with_capacity(axes.len());
    let mut exact = true;
    for a in axes {
        dims.push(match a {
            Axis::All => Dim::All,
            Axis::Unknown => Dim::Unknown,
            Axis::Span(span) => {
                let Some(span) = span.normalize(ctx) else {
                    return (Section::Empty, exact);
                };
                let (t, e) = span.to_triplet(mode, ctx);
                exact &= e;
                match t {
                    Some(t) => Dim::Triplet(t),
                    None => return (Section::Empty, exact),
                }
            }
        });
    }
    (Section::Dims(dims), exact)
}

/// The number of elements when it is a constant.
pub(crate) fn count(axes: &[Axis]) -> Option<i64> {
    axes.iter().try_fold(1i64, |n, a| match a {
        Axis::Span(s) => n.checked_mul(s.count()?),
        _ => None,
    })
}

/// A prepared section as a section again.
pub(crate) fn settle(p: Prepared, mode: Approx, ctx: &Assumptions) -> (Section, bool) {
    match p {
        Prepared::Empty => (Section::Empty, true),
        Prepared::Whole => (Section::Unknown, true),
        Prepared::Axes(axes) => assemble(axes, mode, ctx),
    }
}
