//! Seeded generators of random Fortran programs that gfortran compiles and
//! the judge runs: the same seed always gives the same text. Every value a
//! generated program computes is an integer or an integer-valued real kept
//! small with MOD, so REAL (single precision in gfortran) and the judge's
//! f64 print the same numbers, and no integer overflows.

mod affine;
mod arguments;
mod boundary;
mod bounds;
mod derived;
mod emit;
mod hpf;
mod modules;
mod nests;
mod parallel;
mod rewrites;
mod scalar;
mod sections;
mod storage;
mod transform;

pub use affine::{affine_nest, affine_nest_in_time_loop};
pub use arguments::argument_program;
pub use boundary::boundary_program;
pub use bounds::bounds_program;
pub use derived::{derived_nest, derived_parallel_loops};
pub use hpf::hpf_program;
pub use modules::{allocatable_program, host_program, module_program};
pub use nests::{control_nests, exact_nests, reread_nests, shared_nests};
pub use parallel::{parallel_control_loops, parallel_loops};
pub use rewrites::rewrite_nests;
pub use scalar::scalar_program;
pub use sections::section_program;
pub use storage::storage_program;
pub use transform::transform_loops;

/// A generated program and the inputs to run it on.
#[derive(Clone, Debug)]
pub struct Generated {
    /// `.f` for fixed form, `.f90` for free form.
    pub file_name: String,
    pub source: String,
    /// One list of READ values per run; the runs together take both arms
    /// of the input-dependent branches. A program without READ has one empty list.
    pub inputs: Vec<Vec<String>>,
}

/// splitmix64: tiny, fast, and good enough to pick program shapes.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `lo..=hi` (`lo` when the range is empty).
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        if hi <= lo {
            return lo;
        }
        lo + (self.next_u64() % (hi - lo + 1) as u64) as i64
    }

    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.range(0, items.len() as i64 - 1) as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rng_is_deterministic_and_stays_in_range() {
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
            let x = a.range(-3, 3);
            assert!((-3..=3).contains(&x));
            b.range(-3, 3);
        }
        assert_ne!(Rng::new(1).next_u64(), Rng::new(2).next_u64());
        assert_eq!(Rng::new(0).range(5, 5), 5);
    }
}
