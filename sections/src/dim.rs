//! One dimension of a section: a Fortran triplet with affine bounds (a
//! single element `a*k+b` is the triplet `a*k+b:a*k+b`), the whole extent
//! `:`, or an unknown subscript `?` (Li & Harada's φ).

use crate::affine::Affine;
use crate::assumptions::Assumptions;
use crate::span::Span;

/// `first:bound:stride` as in Fortran: `first, first+stride, ...` while not
/// past `bound`, so a negative stride counts down.
///
/// Kept canonical (see [`Triplet::new`]): the stride is positive unless the
/// distance between the bounds is unknown and the stride is below -1 (the
/// expansion of `-2*I` over `I = 1, N`), the bound is the last element when
/// the distance is known, and a single element has stride 1.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Triplet {
    first: Affine,
    bound: Affine,
    stride: i64,
}

impl Triplet {
    /// The canonical triplet of `first:bound:stride`; `None` when it is empty
    /// whatever the symbols are.
    ///
    /// # Panics
    /// When `stride` is 0 (not a Fortran triplet).
    pub fn new(first: Affine, bound: Affine, stride: i64) -> Option<Triplet> {
        assert_ne!(stride, 0, "a triplet's stride is never 0");
        let raw = Triplet {
            first,
            bound,
            stride,
        };
        let span = Span::of_triplet(&raw).normalize(&Assumptions::none())?;
        span.to_triplet(crate::Approx::Must, &Assumptions::none()).0
    }

    /// The single element `x`.
    pub fn point(x: Affine) -> Triplet {
        Triplet {
            first: x.clone(),
            bound: x,
            stride: 1,
        }
    }

    /// Built from a normalized span: already canonical.
    pub(crate) fn canonical(first: Affine, bound: Affine, stride: i64) -> Triplet {
        if first == bound {
            return Triplet::point(first);
        }
        Triplet {
            first,
            bound,
            stride,
        }
    }

    pub fn first(&self) -> &Affine {
        &self.first
    }

    pub fn bound(&self) -> &Affine {
        &self.bound
    }

    pub fn stride(&self) -> i64 {
        self.stride
    }

    /// The single element, when the triplet is one.
    pub fn as_point(&self) -> Option<&Affine> {
        (self.first == self.bound).then_some(&self.first)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Dim {
    Triplet(Triplet),
    /// `:`, every index of the dimension's extent (which the algebra does
    /// not know: every other dimension set is assumed inside it).
    All,
    /// `?`, a subscript that is not affine: some unknown indices of the
    /// extent. May-operations take it as [`Dim::All`], must-operations as
    /// nothing.
    Unknown,
}

impl Dim {
    /// The single index `x`.
    pub fn point(x: Affine) -> Dim {
        Dim::Triplet(Triplet::point(x))
    }

    pub fn constant(v: i64) -> Dim {
        Dim::point(Affine::constant(v))
    }

    pub fn mentions(&self, name: &str) -> bool {
        match self {
            Dim::Triplet(t) => t.first.mentions(name) || t.bound.mentions(name),
            Dim::All | Dim::Unknown => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(v: i64) -> Affine {
        Affine::constant(v)
    }

    #[test]
    fn constant_triplets_are_canonical() {
        let t = Triplet::new(c(1), c(10), 3).unwrap();
        assert_eq!((t.first(), t.bound(), t.stride()), (&c(1), &c(10), 3));
        let down = Triplet::new(c(10), c(1), -3).unwrap();
        assert_eq!(
            (down.first(), down.bound(), down.stride()),
            (&c(1), &c(10), 3)
        );
        let one = Triplet::new(c(4), c(5), 2).unwrap();
        assert_eq!(one.as_point(), Some(&c(4)));
        assert_eq!(Triplet::new(c(5), c(4), 1), None);
    }

    #[test]
    fn symbolic_triplets_keep_what_is_unknown() {
        let n = Affine::symbol("N");
        let t = Triplet::new(c(1), n.clone(), 2).unwrap();
        assert_eq!((t.first(), t.bound(), t.stride()), (&c(1), &n, 2));
        let down1 = Triplet::new(n.clone(), c(1), -1).unwrap();
        assert_eq!((down1.first(), down1.stride()), (&c(1), 1));
        let down2 = Triplet::new(n.clone(), c(1), -2).unwrap();
        assert_eq!((down2.first(), down2.stride()), (&n, -2));
        let tight = Triplet::new(n.clone(), n.add_constant(7).unwrap(), 3).unwrap();
        assert_eq!(tight.bound(), &n.add_constant(6).unwrap());
    }

    #[test]
    #[should_panic(expected = "never 0")]
    fn zero_stride_is_refused() {
        Triplet::new(c(1), c(2), 0);
    }
}
