//! Normal forms of subscripts and loop bounds over standard induction
//! variables (section 2 of Ishida & Kanada).
//!
//! Every DO loop `g` gets a standard induction variable `I_g = 0, 1, ...,
//! trip_g - 1` counting its iterations. A subscript in normal form is
//! `J = C0 + Σ_g C_g I_g` over the loops enclosing the reference (outermost
//! first), plus loop-invariant symbols (`N`, `K`, ...) with integer
//! coefficients. A DO variable itself is `lower + step * I_g`: the step is
//! absorbed into the coefficient, so negative and non-unit steps need nothing
//! special.

use std::collections::BTreeMap;
use std::fmt;

/// `J = constant + Σ_g coeffs[g] * I_g + Σ_s symbols[s] * s`.
///
/// `coeffs[g]` is the coefficient of the standard induction variable of the
/// `g`-th enclosing loop (outermost first); missing entries are 0. Symbols are
/// integers that keep one value wherever the two compared references execute.
/// Equality is that of the expressions (zero terms do not count).
#[derive(Clone, Debug, Default)]
pub struct NormalForm {
    pub constant: i64,
    pub coeffs: Vec<i64>,
    pub symbols: BTreeMap<String, i64>,
}

impl NormalForm {
    /// `constant + Σ coeffs[g] I_g`, without symbols.
    pub fn new(constant: i64, coeffs: &[i64]) -> Self {
        NormalForm {
            constant,
            coeffs: coeffs.to_vec(),
            symbols: BTreeMap::new(),
        }
    }

    /// Adds `coeff * name` to the form.
    pub fn with_symbol(mut self, name: &str, coeff: i64) -> Self {
        *self.symbols.entry(name.to_string()).or_insert(0) += coeff;
        self
    }

    pub fn coeff(&self, g: usize) -> i64 {
        self.coeffs.get(g).copied().unwrap_or(0)
    }

    /// The number of enclosing loops the form really uses (its last non-zero coefficient + 1).
    pub fn loop_depth(&self) -> usize {
        self.coeffs
            .iter()
            .rposition(|&c| c != 0)
            .map_or(0, |g| g + 1)
    }

    /// The symbols with a non-zero coefficient.
    pub fn used_symbols(&self) -> impl Iterator<Item = (&String, i64)> {
        self.symbols
            .iter()
            .filter(|(_, &c)| c != 0)
            .map(|(s, &c)| (s, c))
    }

    /// Same symbol terms (ignoring zero coefficients).
    pub fn same_symbols(&self, other: &NormalForm) -> bool {
        self.used_symbols().eq(other.used_symbols())
    }

    /// `self + coeff * other`, `None` on overflow. With `other` the normal
    /// form of a DO variable (from [`normalize_do`]), this rewrites a
    /// subscript's term `coeff * DOVAR` over standard induction variables.
    pub fn plus_scaled(&self, coeff: i64, other: &NormalForm) -> Option<NormalForm> {
        self.combine(1, other, coeff)
    }

    /// `a * self + b * other`, `None` on overflow.
    fn combine(&self, a: i64, other: &NormalForm, b: i64) -> Option<NormalForm> {
        let term = |x: i64, y: i64| a.checked_mul(x)?.checked_add(b.checked_mul(y)?);
        let n = self.coeffs.len().max(other.coeffs.len());
        let mut symbols = BTreeMap::new();
        for name in self.symbols.keys().chain(other.symbols.keys()) {
            let x = self.symbols.get(name).copied().unwrap_or(0);
            let y = other.symbols.get(name).copied().unwrap_or(0);
            symbols.insert(name.clone(), term(x, y)?);
        }
        Some(NormalForm {
            constant: term(self.constant, other.constant)?,
            coeffs: (0..n)
                .map(|g| term(self.coeff(g), other.coeff(g)))
                .collect::<Option<_>>()?,
            symbols,
        })
    }
}

impl PartialEq for NormalForm {
    fn eq(&self, other: &Self) -> bool {
        let n = self.coeffs.len().max(other.coeffs.len());
        self.constant == other.constant
            && (0..n).all(|g| self.coeff(g) == other.coeff(g))
            && self.same_symbols(other)
    }
}

impl Eq for NormalForm {}

/// An order consistent with equality (zero terms do not count): constant,
/// then coefficients, then symbol terms.
impl Ord for NormalForm {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        let n = self.coeffs.len().max(other.coeffs.len());
        self.constant
            .cmp(&other.constant)
            .then_with(|| {
                (0..n)
                    .map(|g| self.coeff(g))
                    .cmp((0..n).map(|g| other.coeff(g)))
            })
            .then_with(|| self.used_symbols().cmp(other.used_symbols()))
    }
}

impl PartialOrd for NormalForm {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// One subscript of an array reference.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Subscript {
    Affine(NormalForm),
    /// Not affine in the standard induction variables (`A(IDX(I))`, `A(I*J)`):
    /// it may take any value.
    Unknown,
}

/// The iteration space of one loop: `0 <= I_g` and `scale * I_g <= span`.
///
/// With `scale` 1 the loop runs `span + 1` iterations (none when `span < 0`).
/// A DO loop with step `s` and bounds `L`, `U` has `scale = |s|` and
/// `span = U - L` (`L - U` when `s < 0`): the constraint is exact even when
/// `span` is not a multiple of `|s|`, which a trip count `floor(...)` would not be.
/// `span` may use the standard induction variables of outer loops (triangular
/// loops) and symbols.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum LoopBound {
    Span {
        scale: i64,
        span: NormalForm,
    },
    /// Only `I_g >= 0` is known.
    Unknown,
}

impl LoopBound {
    /// A loop of `trip` iterations.
    pub fn trip(trip: i64) -> Self {
        LoopBound::Span {
            scale: 1,
            span: NormalForm::new(trip.saturating_sub(1), &[]),
        }
    }

    /// The number of iterations when it is a constant.
    pub fn known_trip(&self) -> Option<i64> {
        match self {
            LoopBound::Span { scale, span }
                if *scale > 0 && span.loop_depth() == 0 && span.used_symbols().next().is_none() =>
            {
                Some(if span.constant < 0 {
                    0
                } else {
                    span.constant / scale + 1
                })
            }
            _ => None,
        }
    }
}

/// What is known about a loop-invariant symbol's value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SymbolRange {
    pub lower: Option<i64>,
    pub upper: Option<i64>,
}

impl SymbolRange {
    pub fn exactly(value: i64) -> Self {
        SymbolRange {
            lower: Some(value),
            upper: Some(value),
        }
    }

    pub fn at_least(lower: i64) -> Self {
        SymbolRange {
            lower: Some(lower),
            upper: None,
        }
    }
}

/// Ranges of the symbols; a symbol absent from the map can be any integer.
pub type SymbolRanges = BTreeMap<String, SymbolRange>;

/// An array reference: its subscripts and the bounds of its enclosing loops
/// (outermost first). Ordered by what the reference is, not by how its
/// loops are numbered.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct RefInfo {
    pub subscripts: Vec<Subscript>,
    pub loops: Vec<LoopBound>,
    /// Conditions every instance of the reference satisfies (the affine
    /// comparisons of the IFs around it): part of its iteration domain.
    pub guards: Vec<Guard>,
}

/// `form >= 0`, or `form = 0` when `eq`: a constraint of the IF conditions
/// around a reference, or of the range of a counter its subscripts read
/// (`M@g` between its value on entry to the counter's loop and what the
/// iterations so far can add), over the standard induction variables of
/// its loops and symbols.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Guard {
    pub form: NormalForm,
    pub eq: bool,
}

/// A DO loop `DO var = lower, upper, step` at position `g` (0 = outermost)
/// in normal form: the DO variable `lower + step * I_g` and the loop's bound.
/// `lower` and `upper` are normal forms over the outer loops and symbols
/// (`None` when not affine); `step` is `None` when not a known constant.
pub fn normalize_do(
    lower: Option<&NormalForm>,
    upper: Option<&NormalForm>,
    step: Option<i64>,
    g: usize,
) -> Result<(Subscript, LoopBound), SubscriptError> {
    for form in lower.iter().chain(upper.iter()) {
        if form.loop_depth() > g {
            return Err(SubscriptError::UsesInnerLoop { loop_index: g });
        }
    }
    let (Some(lower), Some(step)) = (lower, step.filter(|&s| s != 0)) else {
        return Ok((Subscript::Unknown, LoopBound::Unknown));
    };
    let mut step_term = NormalForm::new(0, &[]);
    step_term.coeffs.resize(g + 1, 0);
    step_term.coeffs[g] = 1;
    let variable = lower
        .combine(1, &step_term, step)
        .map_or(Subscript::Unknown, Subscript::Affine);
    let bound = upper
        .and_then(|upper| {
            let (a, b) = if step > 0 { (1, -1) } else { (-1, 1) };
            Some(LoopBound::Span {
                scale: step.checked_abs()?,
                span: upper.combine(a, lower, b)?,
            })
        })
        .unwrap_or(LoopBound::Unknown);
    Ok((variable, bound))
}

/// Malformed input to the subscript analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SubscriptError {
    /// The two references have different numbers of subscripts.
    RankMismatch { u: usize, v: usize },
    /// More common loops than one of the references has enclosing loops.
    TooManyCommonLoops {
        common: usize,
        u_depth: usize,
        v_depth: usize,
    },
    /// The references disagree on the bound of a loop they share.
    CommonBoundsDiffer { loop_index: usize },
    /// A subscript or bound uses a loop that does not enclose it (or, for a
    /// bound, that is not outside its own loop).
    UsesInnerLoop { loop_index: usize },
    /// A loop bound's `scale` is not positive.
    NonPositiveScale { loop_index: usize },
    /// A coincidence question about a loop that is not common to both references.
    NotCommonLoop { loop_index: usize, common: usize },
    /// A coincidence question with a negative iteration count `n`.
    NegativeCount { n: i64 },
}

impl fmt::Display for SubscriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SubscriptError::RankMismatch { u, v } => {
                write!(f, "references have {u} and {v} subscripts")
            }
            SubscriptError::TooManyCommonLoops {
                common,
                u_depth,
                v_depth,
            } => write!(
                f,
                "{common} common loops, but the references are in {u_depth} and {v_depth} loops"
            ),
            SubscriptError::CommonBoundsDiffer { loop_index } => {
                write!(
                    f,
                    "common loop {loop_index} has different bounds in the two references"
                )
            }
            SubscriptError::UsesInnerLoop { loop_index } => {
                write!(
                    f,
                    "a form at loop {loop_index} uses a loop that does not enclose it"
                )
            }
            SubscriptError::NonPositiveScale { loop_index } => {
                write!(f, "loop {loop_index} has a non-positive step scale")
            }
            SubscriptError::NotCommonLoop { loop_index, common } => {
                write!(
                    f,
                    "loop {loop_index} is not one of the {common} common loops"
                )
            }
            SubscriptError::NegativeCount { n } => {
                write!(f, "iteration count {n} is negative")
            }
        }
    }
}

impl std::error::Error for SubscriptError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ishida_fig4_triangular_loops_normalize_to_the_papers_forms() {
        // DO 10 K = 1, N / DO 20 I = K+1, N / DO 30 J = K+1, N.
        let one = NormalForm::new(1, &[]);
        let n = NormalForm::new(0, &[]).with_symbol("N", 1);
        let (k, k_bound) = normalize_do(Some(&one), Some(&n), Some(1), 0).unwrap();
        let Subscript::Affine(k) = k else {
            panic!("K is affine")
        };
        assert_eq!(k, NormalForm::new(1, &[1]));
        assert_eq!(
            k_bound,
            LoopBound::Span {
                scale: 1,
                span: NormalForm::new(-1, &[0]).with_symbol("N", 1)
            }
        );
        let k_plus_1 = NormalForm::new(2, &[1]);
        let (i, i_bound) = normalize_do(Some(&k_plus_1), Some(&n), Some(1), 1).unwrap();
        // I = 2 + Ig1 + Ig2, and Ig2 <= N - 2 - Ig1.
        assert_eq!(i, Subscript::Affine(NormalForm::new(2, &[1, 1])));
        assert_eq!(
            i_bound,
            LoopBound::Span {
                scale: 1,
                span: NormalForm::new(-2, &[-1]).with_symbol("N", 1)
            }
        );
    }

    #[test]
    fn ishida_fig3_subscript_over_do_variables_becomes_the_normal_form() {
        // DO 20 I = 1, N / DO 20 J = 1, N: A(I+J-1) = 1 + Ig + Ij.
        let one = NormalForm::new(1, &[]);
        let n = NormalForm::new(0, &[]).with_symbol("N", 1);
        let (Subscript::Affine(i), _) = normalize_do(Some(&one), Some(&n), Some(1), 0).unwrap()
        else {
            panic!("I is affine")
        };
        let (Subscript::Affine(j), _) = normalize_do(Some(&one), Some(&n), Some(1), 1).unwrap()
        else {
            panic!("J is affine")
        };
        let subscript = NormalForm::new(-1, &[])
            .plus_scaled(1, &i)
            .and_then(|f| f.plus_scaled(1, &j))
            .unwrap();
        assert_eq!(subscript, NormalForm::new(1, &[1, 1]));
        assert_eq!(NormalForm::new(i64::MAX, &[]).plus_scaled(1, &one), None);
    }

    #[test]
    fn negative_and_non_unit_steps_are_absorbed() {
        // DO I = N, 1, -1: I = N - Ig, N - Ig >= 1.
        let n = NormalForm::new(0, &[]).with_symbol("N", 1);
        let one = NormalForm::new(1, &[]);
        let (i, bound) = normalize_do(Some(&n), Some(&one), Some(-1), 0).unwrap();
        assert_eq!(
            i,
            Subscript::Affine(NormalForm::new(0, &[-1]).with_symbol("N", 1))
        );
        assert_eq!(
            bound,
            LoopBound::Span {
                scale: 1,
                span: NormalForm::new(-1, &[]).with_symbol("N", 1)
            }
        );
        // DO I = 1, 10, 3: 1, 4, 7, 10 -> 4 iterations; DO I = 10, 1, -4: 10, 6, 2 -> 3.
        let ten = NormalForm::new(10, &[]);
        let (_, b) = normalize_do(Some(&one), Some(&ten), Some(3), 0).unwrap();
        assert_eq!(b.known_trip(), Some(4));
        let (i, b) = normalize_do(Some(&ten), Some(&one), Some(-4), 0).unwrap();
        assert_eq!(b.known_trip(), Some(3));
        assert_eq!(i, Subscript::Affine(NormalForm::new(10, &[-4])));
        // Empty loop.
        let (_, b) = normalize_do(Some(&ten), Some(&one), Some(1), 0).unwrap();
        assert_eq!(b.known_trip(), Some(0));
    }

    #[test]
    fn unknown_pieces_stay_unknown_and_bad_forms_are_errors() {
        let one = NormalForm::new(1, &[]);
        assert_eq!(
            normalize_do(Some(&one), None, Some(1), 0).unwrap().1,
            LoopBound::Unknown
        );
        assert_eq!(
            normalize_do(Some(&one), Some(&one), None, 0).unwrap(),
            (Subscript::Unknown, LoopBound::Unknown)
        );
        assert_eq!(
            normalize_do(Some(&NormalForm::new(0, &[0, 1])), Some(&one), Some(1), 1),
            Err(SubscriptError::UsesInnerLoop { loop_index: 1 })
        );
    }
}
