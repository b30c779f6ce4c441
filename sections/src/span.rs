//! The working form of one dimension: `{x | lo <= x <= hi, x ≡ anchor (mod
//! step)}`, with `step = 0` meaning `x = anchor`.
//!
//! A Fortran triplet `f:b:s` is `{f <= x <= b, x ≡ f (mod s)}` for `s > 0`
//! and `{b <= x <= f, x ≡ f (mod -s)}` for `s < 0`, so bounds and lattice are
//! kept apart here: intersection is then a max, a min and the Chinese
//! remainder theorem, and the loop expansion of `a*k+b` is exact whatever the
//! signs. A span goes back to a triplet when its anchor is its lowest or
//! highest element up to a known constant ([`Span::to_triplet`]).

use crate::affine::{gcd, Affine};
use crate::assumptions::Assumptions;
use crate::dim::Triplet;
use crate::Approx;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Span {
    pub lo: Affine,
    pub hi: Affine,
    pub anchor: Affine,
    pub step: i64,
}

/// The lattice of two operands together (intersection).
pub(crate) enum Meet {
    Lattice(Affine, i64),
    /// No integer is on both lattices.
    Disjoint,
    /// The anchors' difference is not known modulo the steps.
    Unknown,
}

impl Span {
    pub fn of_triplet(t: &Triplet) -> Span {
        let (first, bound, stride) = (t.first().clone(), t.bound().clone(), t.stride());
        let (lo, hi) = if stride > 0 {
            (first.clone(), bound)
        } else {
            (bound, first.clone())
        };
        Span {
            lo,
            hi,
            anchor: first,
            step: stride.abs(),
        }
    }

    /// `{x}`.
    #[cfg(test)]
    pub fn point(x: Affine) -> Span {
        Span {
            lo: x.clone(),
            hi: x.clone(),
            anchor: x,
            step: 0,
        }
    }

    /// The same set with the anchor moved to an aligned bound and the bounds
    /// tightened to elements where known; `None` when provably empty.
    pub fn normalize(mut self, ctx: &Assumptions) -> Option<Span> {
        if self.step == 1 {
            self.anchor = self.lo.clone();
        }
        if self.step == 0 {
            for (bound, below) in [(&mut self.lo, true), (&mut self.hi, false)] {
                let inside = if below {
                    ctx.le(bound, &self.anchor)
                } else {
                    ctx.le(&self.anchor, bound)
                };
                match inside {
                    Some(false) => return None,
                    Some(true) => *bound = self.anchor.clone(),
                    None => {}
                }
            }
            return Some(self);
        }
        if let Some(r) = self.anchor.sub(&self.lo).and_then(|d| d.residue(self.step)) {
            if let Some(lo) = self.lo.add_constant(r) {
                self.lo = lo;
                self.anchor = self.lo.clone();
            }
        } else if let Some(r) = self.hi.sub(&self.anchor).and_then(|d| d.residue(self.step)) {
            if let Some(hi) = self.hi.add_constant(-r) {
                self.hi = hi;
                self.anchor = self.hi.clone();
            }
        }
        match self.hi.sub(&self.lo).and_then(|d| d.as_constant()) {
            Some(d) if d < 0 => return None,
            Some(d) => {
                let r = d % self.step;
                if self.anchor == self.lo {
                    self.hi = self.hi.add_constant(-r).unwrap_or(self.hi);
                } else if self.anchor == self.hi {
                    self.lo = self.lo.add_constant(r).unwrap_or(self.lo);
                }
                if self.lo == self.hi && (self.anchor == self.lo || self.anchor == self.hi) {
                    self.anchor = self.lo.clone();
                    self.step = 0;
                }
            }
            None if ctx.lt(&self.hi, &self.lo) == Some(true) => return None,
            None => {}
        }
        Some(self)
    }

    /// `lo` is an element whenever the span is not empty.
    pub fn lo_aligned(&self) -> bool {
        match self.step {
            0 => self.lo == self.anchor,
            1 => true,
            m => self.anchor.sub(&self.lo).and_then(|d| d.residue(m)) == Some(0),
        }
    }

    /// `hi` is an element whenever the span is not empty.
    pub fn hi_aligned(&self) -> bool {
        match self.step {
            0 => self.hi == self.anchor,
            1 => true,
            m => self.hi.sub(&self.anchor).and_then(|d| d.residue(m)) == Some(0),
        }
    }

    /// Provably not empty.
    pub fn nonempty(&self, ctx: &Assumptions) -> bool {
        match self.step {
            0 => {
                ctx.le(&self.lo, &self.anchor) == Some(true)
                    && ctx.le(&self.anchor, &self.hi) == Some(true)
            }
            _ => {
                (self.lo_aligned() || self.hi_aligned()) && ctx.le(&self.lo, &self.hi) == Some(true)
            }
        }
    }

    /// Provably at least two elements.
    pub fn several(&self, ctx: &Assumptions) -> bool {
        self.step > 0
            && (self.lo_aligned() || self.hi_aligned())
            && self
                .lo
                .add_constant(self.step)
                .is_some_and(|second| ctx.le(&second, &self.hi) == Some(true))
    }

    /// The number of elements when it is a constant.
    pub fn count(&self) -> Option<i64> {
        if self.step == 0 {
            return (self.lo == self.anchor && self.hi == self.anchor).then_some(1);
        }
        let d = self.hi.sub(&self.lo)?.as_constant()?;
        (self.lo_aligned() && d >= 0).then(|| d / self.step + 1)
    }

    /// `self` with `value` for `name` in bounds and anchor.
    pub fn substitute(&self, name: &str, value: &Affine) -> Option<Span> {
        Some(Span {
            lo: self.lo.substitute(name, value)?,
            hi: self.hi.substitute(name, value)?,
            anchor: self.anchor.substitute(name, value)?,
            step: self.step,
        })
    }

    pub fn mentions(&self, name: &str) -> bool {
        self.lo.mentions(name) || self.hi.mentions(name) || self.anchor.mentions(name)
    }

    /// The triplet of the same set (`None`: empty) and whether it is exact.
    /// A span whose anchor is known modulo its step relative to neither
    /// bound is widened to a coarser lattice (may) or dropped (must).
    pub fn to_triplet(&self, mode: Approx, ctx: &Assumptions) -> (Option<Triplet>, bool) {
        let exact = |first: &Affine, bound: &Affine, stride: i64| {
            (
                Some(Triplet::canonical(first.clone(), bound.clone(), stride)),
                true,
            )
        };
        match self.step {
            0 if self.lo == self.anchor && self.hi == self.anchor => {
                return exact(&self.anchor, &self.anchor, 1)
            }
            0 => {
                return match mode {
                    Approx::May => (Some(Triplet::point(self.anchor.clone())), false),
                    Approx::Must => (None, false),
                }
            }
            1 => return exact(&self.lo, &self.hi, 1),
            m if self.anchor == self.lo => return exact(&self.lo, &self.hi, m),
            m if self.anchor == self.hi => return exact(&self.hi, &self.lo, -m),
            _ => {}
        }
        if mode == Approx::Must {
            return (None, false);
        }
        let widened = self.anchor.sub(&self.lo).and_then(|d| {
            let g = gcd(self.step, d.content()).max(1);
            let first = self.lo.add_constant(d.residue(g)?)?;
            Span {
                lo: first.clone(),
                hi: self.hi.clone(),
                anchor: first,
                step: g,
            }
            .normalize(ctx)
        });
        match widened {
            Some(s) => (s.to_triplet(mode, ctx).0, false),
            None => (
                Some(Triplet::canonical(self.lo.clone(), self.hi.clone(), 1)),
                false,
            ),
        }
    }
}

/// The lattice `x ≡ a1 (mod m1)` and `x ≡ a2 (mod m2)` (Chinese remainder
/// theorem; modulus 0 is the single point).
pub(crate) fn meet(a1: &Affine, m1: i64, a2: &Affine, m2: i64) -> Meet {
    if m1 == 1 {
        return Meet::Lattice(a2.clone(), m2);
    }
    if m2 == 1 {
        return Meet::Lattice(a1.clone(), m1);
    }
    let Some(d) = a2.sub(a1) else {
        return Meet::Unknown;
    };
    let g = gcd(m1, m2);
    if g == 0 {
        return match d.as_constant() {
            Some(0) => Meet::Lattice(a1.clone(), 0),
            Some(_) => Meet::Disjoint,
            None => Meet::Unknown,
        };
    }
    match d.residue(g) {
        None => return Meet::Unknown,
        Some(r) if r != 0 => return Meet::Disjoint,
        Some(_) => {}
    }
    if m1 == 0 {
        return Meet::Lattice(a1.clone(), 0);
    }
    if m2 == 0 {
        return Meet::Lattice(a2.clone(), 0);
    }
    // a1 + m1*t ≡ a2 (mod m2)  <=>  (m1/g) t ≡ d/g (mod m2/g).
    let (p, q) = (m1 / g, m2 / g);
    let inv = inverse(p, q);
    let solved = (|| {
        let d_over_g = Affine::from_terms(
            d.constant_part() / g,
            d.terms().map(|(s, c)| (s, c / g)).collect::<Vec<_>>(),
        )?;
        let t = d_over_g.scale(inv)?;
        a1.add_scaled(m1, &t)
    })();
    match (solved, m1.checked_mul(q)) {
        (Some(anchor), Some(lcm)) => Meet::Lattice(anchor, lcm),
        _ => Meet::Unknown,
    }
}

/// The coarsest lattice holding both (`x ≡ a1 (mod g)`), for hulls.
pub(crate) fn join(a1: &Affine, m1: i64, a2: &Affine, m2: i64) -> (Affine, i64) {
    let g = match a2.sub(a1) {
        Some(d) => gcd(gcd(m1, m2), gcd(d.content(), d.constant_part())),
        None => 1,
    };
    (a1.clone(), g)
}

/// `p^-1 mod q` for coprime `p`, `q >= 1`.
fn inverse(p: i64, q: i64) -> i64 {
    let (mut r0, mut r1) = (p.rem_euclid(q) as i128, q as i128);
    let (mut s0, mut s1) = (1i128, 0i128);
    while r1 != 0 {
        let k = r0 / r1;
        (r0, r1) = (r1, r0 - k * r1);
        (s0, s1) = (s1, s0 - k * s1);
    }
    s0.rem_euclid(q as i128) as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(v: i64) -> Affine {
        Affine::constant(v)
    }

    #[test]
    fn normalize_aligns_and_tightens() {
        let none = Assumptions::none();
        let s = Span {
            lo: c(0),
            hi: c(10),
            anchor: c(1),
            step: 3,
        }
        .normalize(&none)
        .unwrap();
        assert_eq!((s.lo, s.hi, s.anchor, s.step), (c(1), c(10), c(1), 3));
        let p = Span {
            lo: c(2),
            hi: c(4),
            anchor: c(1),
            step: 3,
        }
        .normalize(&none)
        .unwrap();
        assert_eq!(p, Span::point(c(4)));
        let e = Span {
            lo: c(2),
            hi: c(3),
            anchor: c(1),
            step: 3,
        };
        assert_eq!(e.normalize(&none), None);
    }

    #[test]
    fn meet_solves_congruences() {
        match meet(&c(1), 4, &c(3), 6) {
            Meet::Lattice(a, m) => {
                assert_eq!(m, 12);
                let a = a.as_constant().unwrap();
                assert_eq!((a.rem_euclid(4), a.rem_euclid(6)), (1, 3));
            }
            _ => panic!("1 mod 4 and 3 mod 6 meet at 9 mod 12"),
        }
        assert!(matches!(meet(&c(0), 4, &c(1), 6), Meet::Disjoint));
        let n = Affine::symbol("N");
        assert!(matches!(meet(&c(0), 2, &n, 2), Meet::Unknown));
        assert!(matches!(
            meet(&c(0), 2, &n.scale(2).unwrap(), 2),
            Meet::Lattice(_, 2)
        ));
    }

    #[test]
    fn inverse_is_modular() {
        for q in 1..20 {
            for p in 1..20 {
                if gcd(p, q) == 1 {
                    assert_eq!((p * inverse(p, q)).rem_euclid(q), 1 % q);
                }
            }
        }
    }
}
