//! Union. Exact when one operand holds the other, or when they differ in one
//! dimension whose two sets join into one triplet: both provably non-empty,
//! on one lattice, overlapping or adjacent (`1:N` and `N+1` when `N >= 0`,
//! `1` and `3` as `1:3:2`). Otherwise may takes the hull of each dimension
//! (bounds that do not compare give `?`), must the larger operand.

use crate::assumptions::Assumptions;
use crate::intersection::meet_spans;
use crate::section::{assemble, count, prepare, settle, Axis, Prepared, Section};
use crate::span::{join, Span};
use crate::subset::axis_subset;
use crate::{Answer, Approx, Approximation};

/// `a ∪ b`.
pub fn union(a: &Section, b: &Section, mode: Approx, ctx: &Assumptions) -> Approximation {
    let (x, y) = match (prepare(a, mode, ctx), prepare(b, mode, ctx)) {
        (Prepared::Empty, q) => {
            let (section, exact) = settle(q, mode, ctx);
            return Approximation { section, exact };
        }
        (p, Prepared::Empty) => {
            let (section, exact) = settle(p, mode, ctx);
            return Approximation { section, exact };
        }
        (Prepared::Whole, _) | (_, Prepared::Whole) => {
            return Approximation::exact(Section::Unknown)
        }
        (Prepared::Axes(x), Prepared::Axes(y)) => (x, y),
    };
    if x.len() != y.len() {
        return match mode {
            Approx::May => Approximation::inexact(Section::Unknown),
            Approx::Must => Approximation::inexact(larger(x, y, ctx)),
        };
    }
    let covers = |p: &[Axis], q: &[Axis]| {
        p.iter()
            .zip(q)
            .all(|(s, t)| axis_subset(s, t, ctx) == Answer::Yes)
    };
    if covers(&x, &y) {
        return Approximation::exact(assemble(y, mode, ctx).0);
    }
    if covers(&y, &x) {
        return Approximation::exact(assemble(x, mode, ctx).0);
    }
    let differing: Vec<usize> = (0..x.len())
        .filter(|&i| {
            axis_subset(&x[i], &y[i], ctx) != Answer::Yes
                || axis_subset(&y[i], &x[i], ctx) != Answer::Yes
        })
        .collect();
    if let [j] = differing[..] {
        if let (Axis::Span(_), Axis::Span(_)) = (&x[j], &y[j]) {
            if let (joined, true) = hull(&x[j], &y[j], ctx) {
                let mut axes = x;
                axes[j] = joined;
                let (section, exact) = assemble(axes, mode, ctx);
                return Approximation { section, exact };
            }
        }
    }
    match mode {
        Approx::Must => Approximation::inexact(larger(x, y, ctx)),
        Approx::May => {
            // A product of hulls is the union only when one dimension differs.
            let mut exact = differing.len() == 1;
            let axes = (0..x.len())
                .map(|i| {
                    if !differing.contains(&i) {
                        return x[i].clone();
                    }
                    let (axis, e) = hull(&x[i], &y[i], ctx);
                    exact &= e;
                    axis
                })
                .collect();
            let (section, e) = assemble(axes, mode, ctx);
            Approximation {
                section,
                exact: exact && e,
            }
        }
    }
}

/// The operand with more elements (the first when that is not known).
fn larger(x: Vec<Axis>, y: Vec<Axis>, ctx: &Assumptions) -> Section {
    let pick = match (count(&x), count(&y)) {
        (Some(n), Some(m)) if m > n => y,
        _ => x,
    };
    assemble(pick, Approx::Must, ctx).0
}

/// One span holding exactly `a ∪ b`, when there is one and it is provable.
pub(crate) fn exact_union(a: &Span, b: &Span, ctx: &Assumptions) -> Option<Span> {
    if !a.nonempty(ctx) || !b.nonempty(ctx) {
        return None;
    }
    let step = match (a.step, b.step) {
        (0, 0) => {
            let d = b.anchor.sub(&a.anchor)?.as_constant()?;
            if d == 0 {
                return Some(a.clone());
            }
            d.abs()
        }
        (0, m) | (m, 0) => m,
        (m, n) if m == n => m,
        _ => return None,
    };
    let on = |s: &Span| s.anchor.sub(&a.anchor)?.residue(step);
    if step > 0 && (a.step == 0 || b.step == 0) {
        // The point must sit on the other operand's lattice.
        let (point, other) = if a.step == 0 { (a, b) } else { (b, a) };
        if point.anchor.sub(&other.anchor)?.residue(step)? != 0 {
            return None;
        }
    } else if on(b)? != 0 {
        return None;
    }
    let as_lattice = |s: &Span| Span { step, ..s.clone() };
    let (a, b) = (as_lattice(a), as_lattice(b));
    // An element-bound (aligned) on either side of the gap allows a full step.
    let gap = |hi: &Span, lo: &Span| {
        if hi.hi_aligned() || lo.lo_aligned() {
            step
        } else {
            1
        }
    };
    // q's first element is at most one step past p's last one.
    let touches = |p: &Span, q: &Span| {
        let reach = p.hi.add_constant(gap(p, q))?;
        ctx.le(&q.lo, &reach)?.then_some(())
    };
    touches(&a, &b)?;
    touches(&b, &a)?;
    Some(Span {
        lo: ctx.min_of(&a.lo, &b.lo)?.clone(),
        hi: ctx.max_of(&a.hi, &b.hi)?.clone(),
        anchor: a.anchor.clone(),
        step,
    })
}

/// The smallest axis holding both (may), and whether it is exactly `a ∪ b`.
fn hull(a: &Axis, b: &Axis, ctx: &Assumptions) -> (Axis, bool) {
    let (s, t) = match (a, b) {
        (Axis::Span(s), Axis::Span(t)) => (s, t),
        (Axis::Unknown, _) | (_, Axis::Unknown) => return (Axis::Unknown, true),
        _ => return (Axis::All, true),
    };
    if let Some(u) = exact_union(s, t, ctx) {
        return (Axis::Span(u), true);
    }
    let (Some(lo), Some(hi)) = (ctx.min_of(&s.lo, &t.lo), ctx.max_of(&s.hi, &t.hi)) else {
        return (Axis::Unknown, false);
    };
    let (anchor, step) = join(&s.anchor, s.step, &t.anchor, t.step);
    let h = Span {
        lo: lo.clone(),
        hi: hi.clone(),
        anchor,
        step,
    };
    // Constant sets: exact when the hull counts no element more.
    let exact = (|| {
        let h = h.clone().normalize(ctx)?;
        let common = match meet_spans(s, t, Approx::Must, ctx) {
            (Some(c), true) => c.count()?,
            (None, true) => 0,
            _ => return None,
        };
        Some(h.count()? == s.count()? + t.count()? - common)
    })();
    (Axis::Span(h), exact == Some(true))
}
