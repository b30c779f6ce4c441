//! Affine forms `c + Σ a_s * s` over named symbols (DO variables, loop
//! invariants) with integer coefficients.
//!
//! Symbols are names: a DO variable `I`, an invariant `N`, or any name the
//! caller gives a standard induction variable (`i5`) or a value defined at a
//! reference (`N#12`), so the form can stand for the rules' loop-keyed and
//! position-keyed normal forms alike. Every operation is checked: `None` on
//! overflow, which callers widen (may) or drop (must).

use std::collections::BTreeMap;
use std::fmt;

/// `constant + Σ terms[s] * s`; no term has coefficient 0, so equal forms are
/// equal values of this type.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Affine {
    constant: i64,
    terms: BTreeMap<String, i64>,
}

impl Affine {
    pub fn constant(c: i64) -> Self {
        Affine {
            constant: c,
            terms: BTreeMap::new(),
        }
    }

    /// The symbol itself, `1 * name`.
    pub fn symbol(name: &str) -> Self {
        Affine::term(name, 1)
    }

    /// `coeff * name`.
    pub fn term(name: &str, coeff: i64) -> Self {
        let mut terms = BTreeMap::new();
        if coeff != 0 {
            terms.insert(name.to_string(), coeff);
        }
        Affine { constant: 0, terms }
    }

    /// `constant + Σ coeff * name`; `None` on overflow.
    pub fn from_terms<'a>(
        constant: i64,
        terms: impl IntoIterator<Item = (&'a str, i64)>,
    ) -> Option<Self> {
        terms
            .into_iter()
            .try_fold(Affine::constant(constant), |acc, (s, c)| {
                acc.add(&Affine::term(s, c))
            })
    }

    pub fn constant_part(&self) -> i64 {
        self.constant
    }

    /// The coefficient of `name` (0 when absent).
    pub fn coeff(&self, name: &str) -> i64 {
        self.terms.get(name).copied().unwrap_or(0)
    }

    /// The symbol terms, by name, never 0.
    pub fn terms(&self) -> impl Iterator<Item = (&str, i64)> {
        self.terms.iter().map(|(s, &c)| (s.as_str(), c))
    }

    /// The value when the form has no symbol.
    pub fn as_constant(&self) -> Option<i64> {
        self.terms.is_empty().then_some(self.constant)
    }

    pub fn mentions(&self, name: &str) -> bool {
        self.terms.contains_key(name)
    }

    /// `self + k * other`, `None` on overflow.
    pub fn add_scaled(&self, k: i64, other: &Affine) -> Option<Affine> {
        let mut sum = self.clone();
        sum.constant = sum.constant.checked_add(k.checked_mul(other.constant)?)?;
        for (s, &c) in &other.terms {
            let v = sum.coeff(s).checked_add(k.checked_mul(c)?)?;
            if v == 0 {
                sum.terms.remove(s);
            } else {
                sum.terms.insert(s.clone(), v);
            }
        }
        Some(sum)
    }

    pub fn add(&self, other: &Affine) -> Option<Affine> {
        self.add_scaled(1, other)
    }

    pub fn sub(&self, other: &Affine) -> Option<Affine> {
        self.add_scaled(-1, other)
    }

    pub fn add_constant(&self, c: i64) -> Option<Affine> {
        let mut sum = self.clone();
        sum.constant = sum.constant.checked_add(c)?;
        Some(sum)
    }

    pub fn scale(&self, k: i64) -> Option<Affine> {
        Affine::constant(0).add_scaled(k, self)
    }

    /// `self` with `value` in place of `name`.
    pub fn substitute(&self, name: &str, value: &Affine) -> Option<Affine> {
        let c = self.coeff(name);
        let mut rest = self.clone();
        rest.terms.remove(name);
        rest.add_scaled(c, value)
    }

    /// The gcd of the symbol coefficients (0 for a constant): the form is
    /// `constant` modulo any divisor of it, whatever the symbols are.
    pub fn content(&self) -> i64 {
        self.terms.values().fold(0, |g, &c| gcd(g, c))
    }

    /// `self mod m` in `0..m` when it is the same for every value of the
    /// symbols (`m` divides every coefficient); `m > 0`.
    pub fn residue(&self, m: i64) -> Option<i64> {
        (self.content() % m == 0).then(|| self.constant.rem_euclid(m))
    }

    /// The value under `env`; `None` when a symbol has no value or on overflow.
    pub fn eval(&self, env: &BTreeMap<String, i64>) -> Option<i64> {
        self.terms.iter().try_fold(self.constant, |acc, (s, &c)| {
            acc.checked_add(c.checked_mul(*env.get(s)?)?)
        })
    }
}

/// `floor(a / b)` for `b != 0` (`div_euclid` rounds up for negative `b`).
pub fn floor_div(a: i64, b: i64) -> i64 {
    if b > 0 {
        a.div_euclid(b)
    } else {
        (-a).div_euclid(-b)
    }
}

/// Non-negative gcd; `gcd(0, x) = |x|`.
pub fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a as i64
}

/// Fortran text: `2*N+1`, `I-1`, `-J`, `0`; terms by name, then the constant.
impl fmt::Display for Affine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (s, &c) in &self.terms {
            let sign = match (c < 0, first) {
                (true, _) => "-",
                (false, true) => "",
                (false, false) => "+",
            };
            match c.unsigned_abs() {
                1 => write!(f, "{sign}{s}")?,
                a => write!(f, "{sign}{a}*{s}")?,
            }
            first = false;
        }
        match (self.constant, first) {
            (c, true) => write!(f, "{c}"),
            (0, false) => Ok(()),
            (c, false) if c < 0 => write!(f, "-{}", c.unsigned_abs()),
            (c, false) => write!(f, "+{c}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, i64)]) -> BTreeMap<String, i64> {
        pairs.iter().map(|&(s, v)| (s.to_string(), v)).collect()
    }

    #[test]
    fn arithmetic_drops_zero_terms() {
        let i = Affine::symbol("I");
        let f = i.scale(2).unwrap().add_constant(1).unwrap();
        assert_eq!(f.to_string(), "2*I+1");
        let g = f.add_scaled(-2, &i).unwrap();
        assert_eq!(g, Affine::constant(1));
        assert_eq!(g.as_constant(), Some(1));
        assert!(!g.mentions("I"));
    }

    #[test]
    fn substitution_and_evaluation() {
        let f = Affine::from_terms(-1, [("I", 3), ("N", 1)]).unwrap();
        let g = f.substitute("I", &Affine::symbol("N")).unwrap();
        assert_eq!(g.to_string(), "4*N-1");
        assert_eq!(f.eval(&env(&[("I", 2), ("N", 5)])), Some(10));
        assert_eq!(f.eval(&env(&[("I", 2)])), None);
    }

    #[test]
    fn display_is_fortran() {
        let f = Affine::from_terms(0, [("J", -1), ("I", 1)]).unwrap();
        assert_eq!(f.to_string(), "I-J");
        assert_eq!(Affine::term("K", -3).to_string(), "-3*K");
        assert_eq!(Affine::constant(-4).to_string(), "-4");
    }

    #[test]
    fn residue_needs_every_coefficient_divisible() {
        let f = Affine::from_terms(5, [("N", 4), ("M", 6)]).unwrap();
        assert_eq!(f.content(), 2);
        assert_eq!(f.residue(2), Some(1));
        assert_eq!(f.residue(4), None);
        assert_eq!(Affine::constant(-3).residue(4), Some(1));
    }

    #[test]
    fn floor_division_rounds_down() {
        assert_eq!(floor_div(1, -3), -1);
        assert_eq!(floor_div(-7, 2), -4);
        assert_eq!(floor_div(6, -3), -2);
    }

    #[test]
    fn overflow_is_none() {
        let big = Affine::constant(i64::MAX);
        assert_eq!(big.add_constant(1), None);
        assert_eq!(Affine::symbol("N").scale(i64::MIN).unwrap().scale(-1), None);
    }
}
