//! The estimate of section 5 and the search of section 6: for an unroll
//! vector k,
//! - Cp(k) = C + Σ c_i (k_i - 1), the cycles the dependences need;
//! - Ch(k) = (N Π k_i - Σ n_i (k_i - 1) Π_{j≠i} k_j) p / m, the cycles
//!   the operations need on the machine;
//! - S(k) = Ch(k) ≥ Cp(k), saturation;
//! - P(k) = Π k_i / max(Cp(k), Ch(k)), original iterations per cycle.
//!
//! The paper writes S as Ch > Cp; with ">" the search passes Table 2's
//! kernel 21 answer (3,2,2), where Ch = Cp = 11, and kernel 4's (3,2), so
//! saturation here starts where the machine bound reaches the path bound.

use super::machine::Machine;

/// A step must raise P by more than this share. The paper's search stops
/// only at saturation or at the cache; a nest whose dependences grow the
/// path as fast as the operations (a one-loop recurrence) never
/// saturates, and P creeps toward its limit: the search stops when a step
/// gains less than 1% (`no-gain`).
pub const MIN_GAIN: f64 = 0.01;

/// The per-nest parameters of section 5.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// N: operations of one original iteration.
    pub ops: f64,
    /// C: cycles of the longest path of one original iteration.
    pub cycles: f64,
    /// c_i per loop, outermost first.
    pub growth: Vec<f64>,
    /// n_i per loop.
    pub removed: Vec<f64>,
}

/// Why the search stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    Saturated,
    /// The next step would overflow the instruction cache.
    Cache,
    /// No loop can grow (trip counts) or no step raises P.
    NoGain,
}

impl Stop {
    pub fn name(self) -> &'static str {
        match self {
            Stop::Saturated => "saturated",
            Stop::Cache => "cache",
            Stop::NoGain => "no-gain",
        }
    }
}

impl Model {
    pub fn cp(&self, k: &[i64]) -> f64 {
        self.cycles
            + self
                .growth
                .iter()
                .zip(k)
                .map(|(c, &k)| c * (k - 1) as f64)
                .sum::<f64>()
    }

    /// Operations of the body unrolled by k.
    pub fn unrolled_ops(&self, k: &[i64]) -> f64 {
        let all: f64 = k.iter().map(|&k| k as f64).product();
        let saved: f64 = self
            .removed
            .iter()
            .zip(k)
            .map(|(n, &ki)| n * (ki - 1) as f64 * all / ki as f64)
            .sum();
        self.ops * all - saved
    }

    pub fn ch(&self, k: &[i64], m: &Machine) -> f64 {
        self.unrolled_ops(k) * m.issue_cycles as f64 / m.issue as f64
    }

    pub fn saturated(&self, k: &[i64], m: &Machine) -> bool {
        self.ch(k, m) >= self.cp(k)
    }

    pub fn perf(&self, k: &[i64], m: &Machine) -> f64 {
        let all: f64 = k.iter().map(|&k| k as f64).product();
        all / self.cp(k).max(self.ch(k, m))
    }

    /// Section 6: from k = (1, ..., 1), while not saturated, add one to
    /// the k_i that gives the largest P, never past `caps` (a loop's trip
    /// count; 0: unknown) nor the instruction cache; stop when no step
    /// raises P by more than [`MIN_GAIN`]. Of steps with equal P, the one
    /// that makes the smaller body (the paper wants the fewest
    /// instructions), then the loop with more iterations (fewer left for
    /// the remainder loop; unknown counts as the most), then the
    /// outermost: Table 2's kernel 4 (3,2) and kernel 18 (1,2) meet ties
    /// at k = (1,1) that these decide.
    pub fn search(&self, caps: &[i64], m: &Machine) -> (Vec<i64>, Stop) {
        let (mut path, stop) = self.search_path(caps, m);
        (path.pop().unwrap_or_default(), stop)
    }

    /// [`Model::search`] with every vector it passes, (1, ..., 1) first,
    /// the answer last (what `--png` draws).
    pub fn search_path(&self, caps: &[i64], m: &Machine) -> (Vec<Vec<i64>>, Stop) {
        let mut k = vec![1; self.growth.len()];
        let mut path = vec![k.clone()];
        let trips = |i: usize| match caps.get(i) {
            Some(&c) if c > 0 => c,
            _ => i64::MAX,
        };
        loop {
            if self.saturated(&k, m) {
                return (path, Stop::Saturated);
            }
            let here = self.perf(&k, m);
            let mut best: Option<(usize, f64, f64)> = None;
            for i in 0..k.len() {
                if k[i] >= trips(i) {
                    continue;
                }
                k[i] += 1;
                let (p, ops) = (self.perf(&k, m), self.unrolled_ops(&k));
                k[i] -= 1;
                if p <= here * (1.0 + MIN_GAIN) {
                    continue;
                }
                let better = match best {
                    None => true,
                    Some((j, bp, bops)) => {
                        p > bp + EQUAL
                            || ((p - bp).abs() <= EQUAL
                                && (ops < bops - EQUAL
                                    || ((ops - bops).abs() <= EQUAL && trips(i) > trips(j))))
                    }
                };
                if better {
                    best = Some((i, p, ops));
                }
            }
            let Some((i, _, _)) = best else {
                return (path, Stop::NoGain);
            };
            k[i] += 1;
            if self.unrolled_ops(&k) * m.bytes_per_op() > m.icache_bytes as f64 {
                return (path, Stop::Cache);
            }
            path.push(k.clone());
        }
    }
}

/// Estimates closer than this are equal.
const EQUAL: f64 = 1e-9;
