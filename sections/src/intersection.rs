//! Intersection: dimension by dimension, the larger lower bound, the smaller
//! upper bound and the common lattice. Exact when the bounds compare and the
//! lattices' anchors differ by a known constant; otherwise may keeps one
//! operand's bound or lattice (larger), must gives nothing.

use crate::assumptions::Assumptions;
use crate::section::{assemble, prepare, Axis, Prepared, Section};
use crate::span::{meet, Meet, Span};
use crate::{Approx, Approximation};

/// `a ∩ b`.
pub fn intersection(a: &Section, b: &Section, mode: Approx, ctx: &Assumptions) -> Approximation {
    let (x, y) = match (prepare(a, mode, ctx), prepare(b, mode, ctx)) {
        (Prepared::Empty, _) | (_, Prepared::Empty) => return Approximation::exact(Section::Empty),
        (Prepared::Whole, _) => return Approximation::exact(b.clone()),
        (_, Prepared::Whole) => return Approximation::exact(a.clone()),
        (Prepared::Axes(x), Prepared::Axes(y)) => (x, y),
    };
    if x.len() != y.len() {
        return Approximation::giving_up(mode);
    }
    let mut axes = Vec::with_capacity(x.len());
    let mut exact = true;
    for (p, q) in x.into_iter().zip(y) {
        axes.push(match (p, q) {
            (Axis::Span(s), Axis::Span(t)) => {
                let (span, e) = meet_spans(&s, &t, mode, ctx);
                exact &= e;
                match span {
                    Some(span) => Axis::Span(span),
                    None => {
                        return Approximation {
                            section: Section::Empty,
                            exact,
                        }
                    }
                }
            }
            (Axis::Span(s), _) | (_, Axis::Span(s)) => Axis::Span(s),
            (Axis::Unknown, _) | (_, Axis::Unknown) => Axis::Unknown,
            (Axis::All, Axis::All) => Axis::All,
        });
    }
    let (section, e) = assemble(axes, mode, ctx);
    Approximation {
        section,
        exact: exact && e,
    }
}

/// `a ∩ b` for one dimension (`None`: empty) and whether it is exact.
pub(crate) fn meet_spans(
    a: &Span,
    b: &Span,
    mode: Approx,
    ctx: &Assumptions,
) -> (Option<Span>, bool) {
    let mut exact = true;
    let (anchor, step) = match meet(&a.anchor, a.step, &b.anchor, b.step) {
        Meet::Lattice(anchor, step) => (anchor, step),
        Meet::Disjoint => return (None, true),
        Meet::Unknown if mode == Approx::Must => return (None, false),
        Meet::Unknown => {
            exact = false;
            // Either lattice holds the common one; keep the finer.
            let finer = if a.step == 0 || (b.step != 0 && a.step >= b.step) {
                a
            } else {
                b
            };
            (finer.anchor.clone(), finer.step)
        }
    };
    let mut bound = |pick: Option<&crate::Affine>, fallback: &crate::Affine| match pick {
        Some(x) => Some(x.clone()),
        None if mode == Approx::May => {
            exact = false;
            Some(fallback.clone())
        }
        None => None,
    };
    let lo = bound(ctx.max_of(&a.lo, &b.lo), &a.lo);
    let hi = bound(ctx.min_of(&a.hi, &b.hi), &a.hi);
    let (Some(lo), Some(hi)) = (lo, hi) else {
        return (None, false);
    };
    let span = Span {
        lo,
        hi,
        anchor,
        step,
    };
    (span.normalize(ctx), exact)
}
