//! Integer affine expressions over numbered variables, with checked arithmetic.
//!
//! Every solver below works on [`Linear`] values `coeffs · x + constant`.
//! Arithmetic is checked: an overflow stops the computation with
//! [`Overflow`], which callers turn into "unknown" (never into "independent").

/// An `i64` operation overflowed; the question it served stays undecided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overflow;

/// Results are kept in `-i64::MAX ..= i64::MAX` (`i64::MIN` counts as an
/// overflow), so that negating a result or taking a gcd never overflows.
fn in_range(x: Option<i64>) -> Result<i64, Overflow> {
    x.filter(|&x| x != i64::MIN).ok_or(Overflow)
}

pub(crate) fn add(a: i64, b: i64) -> Result<i64, Overflow> {
    in_range(a.checked_add(b))
}

pub(crate) fn sub(a: i64, b: i64) -> Result<i64, Overflow> {
    in_range(a.checked_sub(b))
}

pub(crate) fn mul(a: i64, b: i64) -> Result<i64, Overflow> {
    in_range(a.checked_mul(b))
}

/// Greatest common divisor of absolute values (`gcd(0, 0) = 0`).
pub(crate) fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    i64::try_from(a).unwrap_or(i64::MAX)
}

/// `floor(a / b)` for `b > 0`.
pub(crate) fn floor_div(a: i64, b: i64) -> i64 {
    a.div_euclid(b)
}

/// `ceil(a / b)` for `b > 0`.
pub(crate) fn ceil_div(a: i64, b: i64) -> i64 {
    -(-a).div_euclid(b)
}

/// `coeffs · x + constant`; variables missing from `coeffs` have coefficient 0.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Linear {
    pub coeffs: Vec<i64>,
    pub constant: i64,
}

impl Linear {
    pub fn zero(nvars: usize) -> Self {
        Linear {
            coeffs: vec![0; nvars],
            constant: 0,
        }
    }

    pub fn constant(nvars: usize, constant: i64) -> Self {
        Linear {
            coeffs: vec![0; nvars],
            constant,
        }
    }

    /// The single variable `x_var` (over `nvars` variables).
    pub fn var(nvars: usize, var: usize) -> Self {
        let mut l = Linear::zero(nvars);
        l.coeffs[var] = 1;
        l
    }

    pub fn coeff(&self, var: usize) -> i64 {
        self.coeffs.get(var).copied().unwrap_or(0)
    }

    pub fn is_constant(&self) -> bool {
        self.coeffs.iter().all(|&c| c == 0)
    }

    /// `a * self + b * other`.
    pub fn combine(&self, a: i64, other: &Linear, b: i64) -> Result<Linear, Overflow> {
        let n = self.coeffs.len().max(other.coeffs.len());
        let coeffs = (0..n)
            .map(|i| add(mul(a, self.coeff(i))?, mul(b, other.coeff(i))?))
            .collect::<Result<_, _>>()?;
        Ok(Linear {
            coeffs,
            constant: add(mul(a, self.constant)?, mul(b, other.constant)?)?,
        })
    }

    pub fn minus(&self, other: &Linear) -> Result<Linear, Overflow> {
        self.combine(1, other, -1)
    }

    pub fn plus_constant(&self, c: i64) -> Result<Linear, Overflow> {
        Ok(Linear {
            coeffs: self.coeffs.clone(),
            constant: add(self.constant, c)?,
        })
    }

    pub fn negated(&self) -> Result<Linear, Overflow> {
        self.combine(-1, &Linear::zero(0), 0)
    }

    pub fn eval(&self, x: &[i64]) -> Result<i64, Overflow> {
        self.coeffs
            .iter()
            .zip(x)
            .try_fold(self.constant, |acc, (&c, &v)| add(acc, mul(c, v)?))
    }

    /// The gcd of the coefficients (0 when the expression is constant).
    pub fn content(&self) -> i64 {
        self.coeffs.iter().fold(0, |g, &c| gcd(g, c))
    }

    /// Rewrite over the parameters `t` of `x = map.particular + Σ t_j map.generators[j]`.
    pub fn substitute(&self, map: &Parametric) -> Result<Linear, Overflow> {
        let dot = |v: &[i64]| {
            self.coeffs
                .iter()
                .zip(v)
                .try_fold(0i64, |acc, (&c, &x)| add(acc, mul(c, x)?))
        };
        Ok(Linear {
            coeffs: map
                .generators
                .iter()
                .map(|g| dot(g))
                .collect::<Result<_, _>>()?,
            constant: add(self.constant, dot(&map.particular)?)?,
        })
    }
}

/// The integer points `x = particular + Σ_j t_j generators[j]`, `t ∈ Z^k`: the
/// general solution of a Diophantine system (section 5 of Ishida & Kanada),
/// also used to change variables inside the feasibility test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parametric {
    pub particular: Vec<i64>,
    /// Each generator has one entry per original variable.
    pub generators: Vec<Vec<i64>>,
}

impl Parametric {
    /// `x = t` over `n` variables: the general solution of no equation.
    pub fn identity(n: usize) -> Self {
        Parametric {
            particular: vec![0; n],
            generators: (0..n)
                .map(|j| (0..n).map(|i| i64::from(i == j)).collect())
                .collect(),
        }
    }

    /// The point for parameter values `t`.
    pub fn point(&self, t: &[i64]) -> Result<Vec<i64>, Overflow> {
        let mut x = self.particular.clone();
        for (g, &tj) in self.generators.iter().zip(t) {
            for (xi, &gi) in x.iter_mut().zip(g) {
                *xi = add(*xi, mul(gi, tj)?)?;
            }
        }
        Ok(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_divisions_follow_the_mathematical_definition() {
        assert_eq!(floor_div(-7, 2), -4);
        assert_eq!(ceil_div(-7, 2), -3);
        assert_eq!(floor_div(7, 2), 3);
        assert_eq!(ceil_div(7, 2), 4);
        assert_eq!(gcd(-12, 18), 6);
        assert_eq!(gcd(0, 0), 0);
    }

    #[test]
    fn substitution_composes_with_evaluation() {
        // l = 2x0 - x1 + 3 with x0 = 1 + t0, x1 = 2 t0 - t1.
        let l = Linear {
            coeffs: vec![2, -1],
            constant: 3,
        };
        let map = Parametric {
            particular: vec![1, 0],
            generators: vec![vec![1, 2], vec![0, -1]],
        };
        let lt = l.substitute(&map).unwrap();
        for t in [[0, 0], [3, -2], [-5, 7]] {
            let x = map.point(&t).unwrap();
            assert_eq!(lt.eval(&t).unwrap(), l.eval(&x).unwrap());
        }
    }

    #[test]
    fn overflow_is_reported_not_wrapped() {
        assert_eq!(add(i64::MAX, 1), Err(Overflow));
        assert_eq!(sub(-i64::MAX, 1), Err(Overflow));
        let l = Linear {
            coeffs: vec![i64::MAX],
            constant: 0,
        };
        assert_eq!(l.combine(2, &Linear::zero(1), 0), Err(Overflow));
    }
}
