//! Subset and emptiness tests. `Yes` and `No` are proofs for every value of
//! the symbols the assumptions allow; anything else is `Unknown`. A `No`
//! needs a witness: the first or last element of a provably non-empty
//! operand lying outside the other, or off its lattice.

use crate::affine::Affine;
use crate::assumptions::Assumptions;
use crate::dim::Dim;
use crate::section::{Axis, Section};
use crate::span::Span;
use crate::Answer;

/// Whether every element of `a` is in `b`. Unknown parts (`?`) are unknown
/// sets here: only the whole extent `:` surely holds them.
pub fn is_subset(a: &Section, b: &Section, ctx: &Assumptions) -> Answer {
    let emptiness = is_empty(a, ctx);
    if emptiness == Answer::Yes {
        return Answer::Yes;
    }
    if is_empty(b, ctx) == Answer::Yes {
        return if emptiness == Answer::No {
            Answer::No
        } else {
            Answer::Unknown
        };
    }
    let (x, y) = match (a, b) {
        (Section::Dims(x), Section::Dims(y)) if x.len() == y.len() => (x, y),
        _ => return Answer::Unknown,
    };
    let mut answer = Answer::Yes;
    for (p, q) in x.iter().zip(y) {
        let here = match (p, q) {
            (_, Dim::All) => Answer::Yes,
            (Dim::Triplet(s), Dim::Triplet(t)) => {
                let Some(t) = Span::of_triplet(t).normalize(ctx) else {
                    // `b` is empty and `a` is not known to be.
                    answer = Answer::Unknown;
                    continue;
                };
                match Span::of_triplet(s).normalize(ctx) {
                    Some(s) => span_subset(&s, &t, ctx),
                    None => return Answer::Yes,
                }
            }
            _ => Answer::Unknown,
        };
        match here {
            Answer::Yes => {}
            Answer::No if emptiness == Answer::No => return Answer::No,
            _ => answer = Answer::Unknown,
        }
    }
    answer
}

/// Whether every element of `a` that lies inside the declared bounds of its
/// array (`declared`, per dimension when constant) is in `b`. The sections of
/// a valid program's references never leave their array, so a side of a
/// dimension of `b` at or past the declared bound holds whatever `a` reaches
/// on that side: `A(2:5, IST:NX)` lies in `A(1:5, 1:NX)` when the second
/// dimension is declared `1:ISIZ1`, whatever IST is. Only `Yes` is a proof.
pub fn is_subset_within(
    a: &Section,
    b: &Section,
    declared: &[Option<(i64, i64)>],
    ctx: &Assumptions,
) -> Answer {
    let whole = is_subset(a, b, ctx);
    if whole == Answer::Yes || is_empty(a, ctx) == Answer::Yes {
        return Answer::Yes;
    }
    let (Section::Dims(x), Section::Dims(y)) = (a, b) else {
        return Answer::Unknown;
    };
    if x.len() != y.len() || declared.len() != x.len() {
        return Answer::Unknown;
    }
    let within = |j: usize, p: &Dim, q: &Dim| -> bool {
        let (Dim::Triplet(s), Dim::Triplet(t)) = (p, q) else {
            return matches!(q, Dim::All);
        };
        let (Some(s), Some(t)) = (
            Span::of_triplet(s).normalize(ctx),
            Span::of_triplet(t).normalize(ctx),
        ) else {
            return false;
        };
        if span_subset(&s, &t, ctx) == Answer::Yes {
            return true;
        }
        let Some((lo, hi)) = declared[j] else {
            return false;
        };
        let reaches = |bound: &Affine, limit: i64, below: bool| {
            let limit = Affine::constant(limit);
            if below {
                ctx.le(bound, &limit) == Some(true)
            } else {
                ctx.le(&limit, bound) == Some(true)
            }
        };
        t.step == 1
            && (ctx.le(&t.lo, &s.lo) == Some(true) || reaches(&t.lo, lo, true))
            && (ctx.le(&s.hi, &t.hi) == Some(true) || reaches(&t.hi, hi, false))
    };
    let all = x
        .iter()
        .zip(y)
        .enumerate()
        .all(|(j, (p, q))| within(j, p, q));
    if all {
        Answer::Yes
    } else {
        Answer::Unknown
    }
}

/// Whether `s` has no element.
pub fn is_empty(s: &Section, ctx: &Assumptions) -> Answer {
    let dims = match s {
        Section::Empty => return Answer::Yes,
        Section::Unknown => return Answer::Unknown,
        Section::Dims(d) => d,
    };
    let mut answer = Answer::No;
    for d in dims {
        match d {
            Dim::Triplet(t) => match Span::of_triplet(t).normalize(ctx) {
                None => return Answer::Yes,
                Some(span) if span.nonempty(ctx) => {}
                Some(_) => answer = Answer::Unknown,
            },
            Dim::All | Dim::Unknown => answer = Answer::Unknown,
        }
    }
    answer
}

/// [`span_subset`] for axes in one mode, where `?` and `:` are the extent.
pub(crate) fn axis_subset(a: &Axis, b: &Axis, ctx: &Assumptions) -> Answer {
    match (a, b) {
        (_, Axis::All | Axis::Unknown) => Answer::Yes,
        (Axis::Span(s), Axis::Span(t)) => span_subset(s, t, ctx),
        _ => Answer::Unknown,
    }
}

/// `a ⊆ b` for normalized spans; `No` only when `a` is provably non-empty.
pub(crate) fn span_subset(a: &Span, b: &Span, ctx: &Assumptions) -> Answer {
    let lattice_within = match b.step {
        1 => true,
        0 => a.step == 0 && a.anchor.sub(&b.anchor).and_then(|d| d.as_constant()) == Some(0),
        m => a.step % m == 0 && a.anchor.sub(&b.anchor).and_then(|d| d.residue(m)) == Some(0),
    };
    if lattice_within && ctx.le(&b.lo, &a.lo) == Some(true) && ctx.le(&a.hi, &b.hi) == Some(true) {
        return Answer::Yes;
    }
    if !a.nonempty(ctx) {
        return Answer::Unknown;
    }
    let known_elements = [
        (a.lo_aligned() || a.step == 0).then_some(&a.lo),
        (a.hi_aligned() || a.step == 0).then_some(&a.hi),
    ];
    for e in known_elements.into_iter().flatten() {
        let off_lattice = match b.step {
            1 => false,
            0 => e
                .sub(&b.anchor)
                .and_then(|d| d.as_constant())
                .is_some_and(|d| d != 0),
            m => e
                .sub(&b.anchor)
                .and_then(|d| d.residue(m))
                .is_some_and(|r| r != 0),
        };
        if off_lattice || ctx.lt(e, &b.lo) == Some(true) || ctx.lt(&b.hi, e) == Some(true) {
            return Answer::No;
        }
    }
    // Two consecutive elements of `a` cannot both sit on a lattice whose step does not divide a's.
    if a.several(ctx) && (b.step == 0 || (b.step > 1 && a.step % b.step != 0)) {
        return Answer::No;
    }
    Answer::Unknown
}
