//! Real processors (Li & Harada 6.2, equation 12): under a cyclic(k)
//! distribution over p real processors, virtual processor v of a template
//! dimension whose first index is `lower` lives on real processor
//! ((v - lower) mod p*k) div k. BLOCK is cyclic(ceil(n/p)) over a
//! dimension of n indices, CYCLIC is cyclic(1).

use crate::affine::Affine;

/// How one template dimension is spread over its real processors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Distribution {
    lower: i64,
    k: i64,
    p: i64,
}

impl Distribution {
    /// cyclic(k) over `p` processors; `None` unless both are positive.
    pub fn cyclic(lower: i64, k: i64, p: i64) -> Option<Distribution> {
        (k > 0 && p > 0).then_some(Distribution { lower, k, p })
    }

    /// BLOCK over `p` processors of the indices `lower..=upper`.
    pub fn block(lower: i64, upper: i64, p: i64) -> Option<Distribution> {
        let n = upper.checked_sub(lower)?.checked_add(1)?;
        if n <= 0 || p <= 0 {
            return None;
        }
        Distribution::cyclic(lower, (n + p - 1) / p, p)
    }

    /// Equation 12: the real processor (0-based) of virtual processor `v`.
    pub fn real(&self, v: i64) -> i64 {
        let period = self.p * self.k;
        (v - self.lower).rem_euclid(period) / self.k
    }

    /// Whether virtual processors `a` and `b`, affine forms over the same
    /// variables, lie on one real processor whatever values the variables
    /// take: one processor in all, two constants on the same one, or `a`
    /// and `b` a multiple of a whole period (p*k) apart. Nothing else is
    /// claimed (`false`: not proven).
    pub fn same_real(&self, a: &Affine, b: &Affine) -> bool {
        if self.p == 1 {
            return true;
        }
        if let (Some(x), Some(y)) = (a.as_constant(), b.as_constant()) {
            return self.real(x) == self.real(y);
        }
        a.sub(b)
            .and_then(|d| d.as_constant())
            .is_some_and(|c| c.rem_euclid(self.p * self.k) == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::Distribution;
    use crate::Affine;

    /// Figure 4 of the paper: VPROCS(0:44) cyclic(5) over 3 processors,
    /// A(0:14) mapped by F(i) = 3i: the elements on each processor.
    #[test]
    fn figure_4_elements_per_real_processor() {
        let d = Distribution::cyclic(0, 5, 3).expect("valid");
        let on = |m: i64| -> Vec<i64> { (0..15).filter(|i| d.real(3 * i) == m).collect() };
        assert_eq!(on(0), [0, 1, 5, 6, 10, 11]);
        assert_eq!(on(1), [2, 3, 7, 8, 12, 13]);
        assert_eq!(on(2), [4, 9, 14]);
    }

    #[test]
    fn block_is_cyclic_of_the_block_size() {
        let d = Distribution::block(1, 100, 4).expect("valid");
        assert_eq!([1, 25, 26, 100].map(|v| d.real(v)), [0, 0, 1, 3]);
        let d = Distribution::block(1, 10, 3).expect("valid");
        assert_eq!(
            (1..=10).map(|v| d.real(v)).collect::<Vec<_>>(),
            [0, 0, 0, 0, 1, 1, 1, 1, 2, 2]
        );
        assert!(Distribution::block(5, 4, 2).is_none());
    }

    #[test]
    fn same_real_processor_whatever_the_variables() {
        let i = Affine::symbol("I");
        let plus = |c: i64| i.add_constant(c).expect("no overflow");
        let cyclic = Distribution::cyclic(1, 1, 4).expect("valid");
        assert!(cyclic.same_real(&plus(4), &i));
        assert!(cyclic.same_real(&plus(-8), &i));
        assert!(!cyclic.same_real(&plus(1), &i));
        let block = Distribution::block(1, 100, 4).expect("valid");
        assert!(block.same_real(&Affine::constant(1), &Affine::constant(25)));
        assert!(!block.same_real(&Affine::constant(25), &Affine::constant(26)));
        // I and I+1 share a block for most I, not for all.
        assert!(!block.same_real(&plus(1), &i));
        let one = Distribution::block(1, 100, 1).expect("valid");
        assert!(one.same_real(&plus(1), &i));
        // Checked against equation 12 for every I of a range.
        for c in -9..=9 {
            let claimed = cyclic.same_real(&plus(c), &i);
            let all = (1..=40).all(|v| cyclic.real(v + c) == cyclic.real(v));
            assert_eq!(claimed, all, "c = {c}");
        }
    }
}
