//! Difference. `a − b` is cut into pieces, one per dimension `j`:
//! `(a1∩b1) × … × (aj − bj) × a(j+1) × …` (the first dimension where an
//! element of `a` leaves `b`), and `aj − bj` is what lies below and above
//! `bj`'s bounds on `aj`'s lattice. Exact when every bound compares and
//! `bj`'s lattice holds `aj`'s. Otherwise may keeps `aj` (larger), must
//! subtracts `bj`'s interval hull (more). Li & Harada's Example 4,
//! `A(1:100, 2:100) − A(100, 1:99)`, is the pieces `A(1:99, 2:100)` and
//! `A(100, 100)`.
//!
//! The subtrahend is read in the other mode: a may-difference subtracts what
//! `b` must hold (`?` in `b` removes nothing), a must-difference what it may
//! hold (`?` removes the whole dimension).

use crate::assumptions::Assumptions;
use crate::intersection::meet_spans;
use crate::section::{assemble, prepare, settle, Axis, Prepared, Section};
use crate::span::{meet, Meet, Span};
use crate::union::union;
use crate::{Approx, Approximation};

/// `a − b` as one section: the pieces' union in `mode`.
pub fn difference(a: &Section, b: &Section, mode: Approx, ctx: &Assumptions) -> Approximation {
    let (pieces, exact) = difference_pieces(a, b, mode, ctx);
    let mut pieces = pieces.into_iter();
    let Some(first) = pieces.next() else {
        return Approximation {
            section: Section::Empty,
            exact,
        };
    };
    pieces.fold(
        Approximation {
            section: first,
            exact,
        },
        |acc, p| {
            let u = union(&acc.section, &p, mode, ctx);
            Approximation {
                section: u.section,
                exact: acc.exact && u.exact,
            }
        },
    )
}

/// `a − b` as non-empty-looking pieces whose union approximates it in
/// `mode`, and whether that union is exact.
pub fn difference_pieces(
    a: &Section,
    b: &Section,
    mode: Approx,
    ctx: &Assumptions,
) -> (Vec<Section>, bool) {
    let other = match mode {
        Approx::May => Approx::Must,
        Approx::Must => Approx::May,
    };
    let (x, y) = match (prepare(a, mode, ctx), prepare(b, other, ctx)) {
        (Prepared::Empty, _) | (_, Prepared::Whole) => return (vec![], true),
        (p, Prepared::Empty) => {
            let (s, exact) = settle(p, mode, ctx);
            return (vec![s], exact);
        }
        (Prepared::Whole, _) => return widened(Section::Unknown, mode),
        (Prepared::Axes(x), Prepared::Axes(y)) if x.len() != y.len() => {
            return widened(assemble(x, mode, ctx).0, mode)
        }
        (Prepared::Axes(x), Prepared::Axes(y)) => (x, y),
    };
    let mut pieces = Vec::new();
    let mut exact = true;
    let mut inside: Vec<Axis> = Vec::with_capacity(x.len());
    for j in 0..x.len() {
        let (parts, e) = axis_difference(&x[j], &y[j], mode, ctx);
        exact &= e;
        for part in parts {
            let axes: Vec<Axis> = inside
                .iter()
                .cloned()
                .chain([part])
                .chain(x[j + 1..].iter().cloned())
                .collect();
            let (piece, e) = assemble(axes, mode, ctx);
            exact &= e;
            if piece != Section::Empty {
                pieces.push(piece);
            }
        }
        if j + 1 == x.len() {
            break;
        }
        let (common, e) = axis_meet(&x[j], &y[j], mode, ctx);
        exact &= e;
        match common {
            Some(axis) => inside.push(axis),
            None => break,
        }
    }
    (pieces, exact)
}

/// What cannot be described: all of `a` (may) or nothing (must).
fn widened(a: Section, mode: Approx) -> (Vec<Section>, bool) {
    match mode {
        Approx::May => (vec![a], false),
        Approx::Must => (vec![], false),
    }
}

/// `x ∩ y` for one dimension (`None`: empty).
fn axis_meet(x: &Axis, y: &Axis, mode: Approx, ctx: &Assumptions) -> (Option<Axis>, bool) {
    match (x, y) {
        (Axis::Span(s), Axis::Span(t)) => {
            let (m, e) = meet_spans(s, t, mode, ctx);
            (m.map(Axis::Span), e)
        }
        (Axis::Span(_), _) => (Some(x.clone()), true),
        (_, Axis::Span(_)) => (Some(y.clone()), true),
        _ => (Some(x.clone()), true),
    }
}

/// `x − y` for one dimension, as at most two parts.
fn axis_difference(x: &Axis, y: &Axis, mode: Approx, ctx: &Assumptions) -> (Vec<Axis>, bool) {
    match (x, y) {
        (_, Axis::All | Axis::Unknown) => (vec![], true),
        (Axis::Span(s), Axis::Span(t)) => {
            let (parts, e) = span_difference(s, t, mode, ctx);
            (parts.into_iter().map(Axis::Span).collect(), e)
        }
        (_, Axis::Span(_)) => match mode {
            Approx::May => (vec![x.clone()], false),
            Approx::Must => (vec![], false),
        },
    }
}

/// `a − b` for normalized spans: below and above `b` on `a`'s lattice.
pub(crate) fn span_difference(
    a: &Span,
    b: &Span,
    mode: Approx,
    ctx: &Assumptions,
) -> (Vec<Span>, bool) {
    let covers_lattice = match b.step {
        1 => true,
        // A point is its bounds: everything between them is in it.
        0 => (b.lo == b.anchor && b.hi == b.anchor) || (a.step == 0 && a.anchor == b.anchor),
        m => a.step % m == 0 && a.anchor.sub(&b.anchor).and_then(|d| d.residue(m)) == Some(0),
    };
    if !covers_lattice {
        if let Meet::Disjoint = meet(&a.anchor, a.step, &b.anchor, b.step) {
            return (vec![a.clone()], true);
        }
        return match mode {
            Approx::May => (vec![a.clone()], false),
            Approx::Must => {
                // b's interval hull holds b: removing it removes more.
                let hull = Span {
                    lo: b.lo.clone(),
                    hi: b.hi.clone(),
                    anchor: b.lo.clone(),
                    step: 1,
                };
                (span_difference(a, &hull, mode, ctx).0, false)
            }
        };
    }
    let mut exact = true;
    let mut parts = Vec::with_capacity(2);
    // Below b: [a.lo, min(a.hi, b.lo - 1)]; above: [max(a.lo, b.hi + 1), a.hi].
    let below =
        b.lo.add_constant(-1)
            .map(|edge| (ctx.min_of(&a.hi, &edge).cloned(), true));
    let above =
        b.hi.add_constant(1)
            .map(|edge| (ctx.max_of(&a.lo, &edge).cloned(), false));
    for (side, is_below) in [(below, true), (above, false)] {
        let bound = match side {
            Some((Some(bound), is_below)) => Some((bound, is_below)),
            _ if empty_either_way(a, b, is_below, ctx) => continue,
            _ => {
                exact = false;
                None
            }
        };
        let part = match (bound, mode) {
            (Some((hi, true)), _) => Span { hi, ..a.clone() },
            (Some((lo, false)), _) => Span { lo, ..a.clone() },
            (None, Approx::May) => {
                // A bound that does not compare: keep all of a (once).
                parts.clear();
                parts.push(a.clone());
                return (parts, false);
            }
            (None, Approx::Must) => continue,
        };
        if let Some(part) = part.normalize(ctx) {
            parts.push(part);
        }
    }
    (parts, exact)
}

/// Whether the part of `a` below `b` (`is_below`) or above it is empty
/// even where `min(a.hi, b.lo - 1)` (or `max(a.lo, b.hi + 1)`) does not
/// compare: the part lies within `a` and on that side of `b`, so it is
/// empty when either of the two spans that hold it is (`A(1:N) − A(1:N)`:
/// `1:0` below, `N+1:N` above, whatever N).
fn empty_either_way(a: &Span, b: &Span, is_below: bool, ctx: &Assumptions) -> bool {
    let side = if is_below {
        b.lo.add_constant(-1).map(|hi| Span { hi, ..a.clone() })
    } else {
        b.hi.add_constant(1).map(|lo| Span { lo, ..a.clone() })
    };
    a.clone().normalize(ctx).is_none() || side.is_some_and(|s| s.normalize(ctx).is_none())
}
