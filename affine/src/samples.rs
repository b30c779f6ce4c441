//! Known points of a pair's dependence system, so that the direction search
//! ([`super::vectors`]) asks the exact test only what no known point answers.
//!
//! A feasible question's witness is kept, and so is every point of a short
//! walk from it: unit moves of one parameter of the system's general
//! solution that stay inside the domain (and inside the `=` loops' frame the
//! question was asked in). The walk keeps the domain's values and the
//! distances up to date by adding a column, so a move costs a few additions.
//! A sample is a real dependence of U then V (it satisfies the subscript
//! equations and the bounds), so whatever it shows is proven.

use super::direction::Dir;
use super::linear::{Linear, Parametric};

/// The samples of one search, grouped by the signs of their distances
/// (`<`, `=`, `>` per common loop): each group keeps its first point and the
/// range of each loop's distance. Every question the search asks of samples
/// is about directions and distances, so the groups answer them all, in
/// time that does not grow with the number of samples.
pub(super) struct Samples {
    nparams: usize,
    nloops: usize,
    /// Per group: its sign pattern, a base-3 number (see [`pattern`]).
    patterns: Vec<u64>,
    /// Per group: a point over the search's parameters (`nparams` each).
    points: Vec<i64>,
    /// Per group: the least and the greatest distance of each loop (`nloops` each).
    least: Vec<i64>,
    greatest: Vec<i64>,
    /// The walk's pseudo-random state: a fixed start, so answers repeat.
    seed: u64,
}

/// The part of the system a walk moves in: a frame's domain, distances and
/// links (scoped symbols' equations where the loops outside their depth are
/// at distance 0) over its parameters, and the map from them to the
/// search's parameters.
pub(super) struct Space<'a> {
    pub domain: &'a [Linear],
    pub distances: &'a [Linear],
    pub links: &'a [(usize, Linear)],
    pub map: &'a Parametric,
}

/// The sign pattern of `distances` as a number (one base-3 digit per loop;
/// `None` beyond 40 loops, where it would not fit).
fn pattern(distances: &[i64]) -> Option<u64> {
    distances.iter().try_fold(0u64, |key, &d| {
        let digit = match Dir::of(d) {
            Dir::Lt => 0,
            Dir::Eq => 1,
            _ => 2,
        };
        key.checked_mul(3)?.checked_add(digit)
    })
}

/// The directions of a sign pattern of `nloops` loops.
fn directions(pattern: u64, nloops: usize) -> impl Iterator<Item = Dir> {
    (0..nloops)
        .rev()
        .map(move |g| match (pattern / 3u64.pow(g as u32)) % 3 {
            0 => Dir::Lt,
            1 => Dir::Eq,
            _ => Dir::Gt,
        })
}

/// Does a pattern have these directions on the outermost loops?
fn has(pattern: u64, nloops: usize, wanted: &[Dir]) -> bool {
    directions(pattern, nloops)
        .zip(wanted)
        .all(|(d, &w)| w == Dir::Star || d == w)
}

impl Samples {
    pub fn new(nparams: usize, nloops: usize) -> Self {
        Samples {
            nparams,
            nloops,
            patterns: Vec::new(),
            points: Vec::new(),
            least: Vec::new(),
            greatest: Vec::new(),
            seed: 1,
        }
    }

    /// The groups whose directions start with `prefix`.
    fn matching<'s>(&'s self, prefix: &'s [Dir]) -> impl Iterator<Item = usize> + 's {
        (0..self.patterns.len()).filter(move |&k| has(self.patterns[k], self.nloops, prefix))
    }

    /// Keep `from` (a point of `space`, over its parameters) and the points
    /// of a walk of `steps` moves from it.
    pub fn walk(&mut self, space: &Space, from: &[i64], steps: usize) {
        let eval = |ls: &[Linear]| {
            ls.iter()
                .map(|l| l.eval(from))
                .collect::<Result<Vec<_>, _>>()
        };
        let (Ok(mut values), Ok(mut distances)) = (eval(space.domain), eval(space.distances))
        else {
            return;
        };
        if values.iter().any(|&v| v < 0) {
            return;
        }
        let mut at = from.to_vec();
        self.keep(space, &at, &distances);
        let (mut next_values, mut next_distances) = (values.clone(), distances.clone());
        for _ in 0..if at.is_empty() { 0 } else { steps } {
            let (i, step) = self.next_move(at.len());
            let next = at[i].checked_add(step).filter(|_| {
                shift(&mut next_values, &values, space.domain, i, step, true)
                    && shift(
                        &mut next_distances,
                        &distances,
                        space.distances,
                        i,
                        step,
                        false,
                    )
            });
            if let Some(next) = next {
                at[i] = next;
                std::mem::swap(&mut values, &mut next_values);
                std::mem::swap(&mut distances, &mut next_distances);
                self.keep(space, &at, &distances);
            }
        }
    }

    /// Add the point `at` of `space`, with these distances, to its group.
    fn keep(&mut self, space: &Space, at: &[i64], distances: &[i64]) {
        let linked = |(p, link): &(usize, Linear)| {
            distances[..*p].iter().any(|&d| d != 0) || link.eval(at) == Ok(0)
        };
        let Some(key) = pattern(distances).filter(|_| space.links.iter().all(linked)) else {
            return;
        };
        let n = self.nloops;
        if let Some(k) = self.patterns.iter().position(|&p| p == key) {
            let range = k * n..(k + 1) * n;
            for ((lo, hi), &d) in self.least[range.clone()]
                .iter_mut()
                .zip(&mut self.greatest[range])
                .zip(distances)
            {
                *lo = (*lo).min(d);
                *hi = (*hi).max(d);
            }
            return;
        }
        let start = self.points.len();
        self.points.extend_from_slice(&space.map.particular);
        for (g, &t) in space.map.generators.iter().zip(at) {
            for (x, &c) in self.points[start..].iter_mut().zip(g) {
                match c.checked_mul(t).and_then(|ct| x.checked_add(ct)) {
                    Some(v) => *x = v,
                    None => return self.points.truncate(start),
                }
            }
        }
        self.patterns.push(key);
        self.least.extend_from_slice(distances);
        self.greatest.extend_from_slice(distances);
    }

    /// A parameter and a direction (+1 or -1), from a linear congruential generator.
    fn next_move(&mut self, nparams: usize) -> (usize, i64) {
        self.seed = self
            .seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let r = self.seed >> 33;
        let i = usize::try_from(r >> 1).unwrap_or(0) % nparams;
        (i, if r & 1 == 0 { 1 } else { -1 })
    }

    /// A sample with these directions on the outermost loops.
    pub fn find(&self, directions: &[Dir]) -> Option<&[i64]> {
        self.matching(directions)
            .next()
            .map(|k| &self.points[k * self.nparams..(k + 1) * self.nparams])
    }

    /// Is there a sample with these directions and a distance other than `d` on loop `g`?
    pub fn other_distance(&self, directions: &[Dir], g: usize, d: i64) -> bool {
        let n = self.nloops;
        self.matching(directions)
            .any(|k| self.least[k * n + g] != d || self.greatest[k * n + g] != d)
    }

    /// Does every way to extend `prefix` by one of `rest[h]` per further
    /// loop have a sample? (`false` beyond 81 ways: not worth counting.)
    pub fn cover(&self, prefix: &[Dir], rest: &[&[Dir]]) -> bool {
        let ways: usize = rest.iter().map(|r| r.len()).product();
        if ways > 81 {
            return false;
        }
        let mut seen = [false; 81];
        let mut count = 0;
        for k in self.matching(prefix) {
            let index = directions(self.patterns[k], self.nloops)
                .skip(prefix.len())
                .zip(rest)
                .try_fold(0, |index, (d, dirs)| {
                    let k = dirs.iter().position(|&dir| dir == d)?;
                    Some(index * dirs.len() + k)
                });
            if let Some(index) = index.filter(|&i| !seen[i]) {
                seen[index] = true;
                count += 1;
                if count == ways {
                    return true;
                }
            }
        }
        false
    }
}

/// `out = from + step * (coefficient i of each of ls)`; false on overflow,
/// or when `nonnegative` and a value is negative (the move leaves the domain).
fn shift(
    out: &mut [i64],
    from: &[i64],
    ls: &[Linear],
    i: usize,
    step: i64,
    nonnegative: bool,
) -> bool {
    out.iter_mut().zip(from).zip(ls).all(|((o, &v), l)| {
        match l.coeff(i).checked_mul(step).and_then(|c| v.checked_add(c)) {
            Some(x) if x >= 0 || !nonnegative => {
                *o = x;
                true
            }
            _ => false,
        }
    })
}
