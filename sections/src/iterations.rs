//! Loop expansion: the elements a section touches over all iterations of a
//! DO loop (Li & Harada's `iterations(S, k, low:high:step)`, the spec's
//! Case 3 union over `i`).
//!
//! A subscript `a*k+b` becomes `a*low+b : a*high+b : a*step`, exactly, for
//! any signs and whether the loop runs or not (a Fortran triplet counts the
//! same iterations as the DO loop). A dimension whose bounds move with `k`
//! (`A(1:K)` over `K`) becomes the hull of its intervals, exact when the
//! loop runs, steps by 1, every interval is non-empty and each meets the
//! next. A section that does not use `k` is itself when the loop runs. When
//! several dimensions use `k` (`A(K, K)`), may expands each on its own (a
//! product holding the diagonal), must keeps the first iteration.

use crate::affine::{floor_div, gcd, Affine};
use crate::assumptions::Assumptions;
use crate::section::{assemble, prepare, Axis, Prepared, Section};
use crate::span::Span;
use crate::{Answer, Approx, Approximation};

/// `DO var = lo, hi, step`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loop {
    pub var: String,
    pub lo: Affine,
    pub hi: Affine,
    pub step: i64,
}

impl Loop {
    /// # Panics
    /// When `step` is 0.
    pub fn new(var: &str, lo: Affine, hi: Affine, step: i64) -> Loop {
        assert_ne!(step, 0, "a DO loop's step is never 0");
        Loop {
            var: var.to_string(),
            lo,
            hi,
            step,
        }
    }

    /// Whether it runs at least once.
    pub fn runs(&self, ctx: &Assumptions) -> Answer {
        let (from, to) = if self.step > 0 {
            (&self.lo, &self.hi)
        } else {
            (&self.hi, &self.lo)
        };
        match ctx.le(from, to) {
            Some(true) => Answer::Yes,
            Some(false) => Answer::No,
            None => Answer::Unknown,
        }
    }

    /// The number of iterations when it is a constant.
    fn trips(&self) -> Option<i64> {
        let d = self.hi.sub(&self.lo)?.as_constant()?;
        Some((floor_div(d, self.step) + 1).max(0))
    }

    /// The least and greatest values `var` can take (the bound, not the last iteration).
    fn range(&self) -> (&Affine, &Affine) {
        if self.step > 0 {
            (&self.lo, &self.hi)
        } else {
            (&self.hi, &self.lo)
        }
    }
}

/// The union of `s` over the iterations of `l`. The result never uses
/// `l.var`; `l.lo` and `l.hi` must not use it either (else: nothing known).
pub fn iterations(s: &Section, l: &Loop, mode: Approx, ctx: &Assumptions) -> Approximation {
    if l.lo.mentions(&l.var) || l.hi.mentions(&l.var) {
        return Approximation::giving_up(mode);
    }
    let ctx = &ctx.without(&l.var);
    let runs = l.runs(ctx);
    if runs == Answer::No {
        return Approximation::exact(Section::Empty);
    }
    let axes = match prepare(s, mode, ctx) {
        Prepared::Empty => return Approximation::exact(Section::Empty),
        Prepared::Whole => {
            return Approximation {
                section: Section::Unknown,
                exact: runs == Answer::Yes,
            }
        }
        Prepared::Axes(axes) => axes,
    };
    let moving: Vec<usize> = (0..axes.len())
        .filter(|&i| matches!(&axes[i], Axis::Span(s) if s.mentions(&l.var)))
        .collect();
    if moving.is_empty() || l.trips() == Some(1) {
        return match (runs, mode) {
            (Answer::Yes, _) | (_, Approx::May) => {
                let (section, exact) = first_iteration(axes, l, mode, ctx);
                Approximation {
                    section,
                    exact: exact && runs == Answer::Yes,
                }
            }
            _ => Approximation::inexact(Section::Empty),
        };
    }
    if moving.len() > 1 && mode == Approx::Must {
        return must_fallback(axes, l, runs, ctx);
    }
    let mut exact = moving.len() == 1;
    let mut expanded = axes.clone();
    for &j in &moving {
        let Axis::Span(span) = &axes[j] else {
            unreachable!("moving axes are spans")
        };
        match expand(span, l, runs, ctx) {
            Some((e, is_exact)) if is_exact || mode == Approx::May => {
                exact &= is_exact;
                expanded[j] = Axis::Span(e);
            }
            Some(_) => return must_fallback(axes, l, runs, ctx),
            None if mode == Approx::May => {
                exact = false;
                expanded[j] = Axis::Unknown;
            }
            None => return must_fallback(axes, l, runs, ctx),
        }
    }
    let (section, e) = assemble(expanded, mode, ctx);
    Approximation {
        section,
        exact: exact && e,
    }
}

/// `s` at `var = lo`: in every result when the loop runs.
fn first_iteration(axes: Vec<Axis>, l: &Loop, mode: Approx, ctx: &Assumptions) -> (Section, bool) {
    let mut out = Vec::with_capacity(axes.len());
    for a in axes {
        out.push(match a {
            Axis::Span(s) => match s.substitute(&l.var, &l.lo) {
                Some(s) => Axis::Span(s),
                None => return (Approximation::giving_up(mode).section, false),
            },
            other => other,
        });
    }
    assemble(out, mode, ctx)
}

fn must_fallback(axes: Vec<Axis>, l: &Loop, runs: Answer, ctx: &Assumptions) -> Approximation {
    if runs != Answer::Yes {
        return Approximation::inexact(Section::Empty);
    }
    Approximation::inexact(first_iteration(axes, l, Approx::Must, ctx).0)
}

/// One dimension over the loop: the hull of its values (a superset), and
/// whether it is exact. `None` when the hull's bounds do not compare.
fn expand(span: &Span, l: &Loop, runs: Answer, ctx: &Assumptions) -> Option<(Span, bool)> {
    let at = |e: &Affine, k: &Affine| e.substitute(&l.var, k);
    let (kmin, kmax) = l.range();
    if span.step == 0 && span.lo == span.anchor && span.hi == span.anchor {
        // a*k+b: from a*lo+b by a*step, below or above it.
        let a = span.anchor.coeff(&l.var);
        let first = at(&span.anchor, &l.lo)?;
        let other = at(&span.anchor, &l.hi)?;
        let stride = a.checked_mul(l.step)?;
        let (lo, hi) = if stride > 0 {
            (first.clone(), other)
        } else {
            (other, first.clone())
        };
        let step = stride.checked_abs()?;
        return Some((
            Span {
                lo,
                hi,
                anchor: first,
                step,
            },
            true,
        ));
    }
    let lowest = at(
        &span.lo,
        if span.lo.coeff(&l.var) >= 0 {
            kmin
        } else {
            kmax
        },
    )?;
    let highest = at(
        &span.hi,
        if span.hi.coeff(&l.var) >= 0 {
            kmax
        } else {
            kmin
        },
    )?;
    let shift = span.anchor.coeff(&l.var).checked_mul(l.step)?;
    let step = gcd(span.step, shift);
    let hull = Span {
        lo: lowest,
        hi: highest,
        anchor: at(&span.anchor, &l.lo)?,
        step,
    };
    let exact = step == 1 && span.step == 1 && runs == Answer::Yes && l.step.abs() == 1 && {
        // Every interval non-empty, and each meets the next (linear in k:
        // checked at both ends).
        let le_at = |x: &Affine, y: &Affine, k: &Affine| ctx.le(&at(x, k)?, &at(y, k)?);
        let next = Affine::symbol(&l.var).add_constant(1)?;
        let lo_next = at(&span.lo, &next)?;
        let hi_next = at(&span.hi, &next)?;
        let lo1 = span.lo.add_constant(-1)?;
        let hi1 = span.hi.add_constant(1)?;
        let before_max = kmax.add_constant(-1)?;
        [kmin, kmax]
            .iter()
            .all(|k| le_at(&span.lo, &span.hi, k) == Some(true))
            && [kmin, &before_max].iter().all(|k| {
                le_at(&lo_next, &hi1, k) == Some(true) && le_at(&lo1, &hi_next, k) == Some(true)
            })
    };
    Some((hull, exact))
}
