//! The dependence system of two references U and V: the integer variables and
//! constraints every test below reasons about.
//!
//! Variables: U's standard induction variables `I_1..I_a`, V's own copies
//! `I'_1..I'_b` (the paper renames V's variables of the loops it varies
//! independently; here V always has its own, and the tests add `I'_h = I_h`
//! for the loops that must be at the same iteration), then the symbols.
//! Constraints:
//! - one equation per dimension whose two subscripts are affine: `U_d - V_d = 0`;
//! - the domain: each loop's bounds for both references, their guards (the
//!   constraints of the IFs around them, and the ranges of the counters
//!   their subscripts read), and the symbols' ranges.
//!
//! A symbol scoped to a loop (`M@g`: M's value in one execution of the
//! references' loop `g`, which does not write M) is two variables, U's and
//! V's, equal (a link) only when the loops outside `g` are at the same
//! iteration: then both run in the same execution of `g`.
//!
//! The first `common` loops enclose both references and must have the same
//! bounds in both.

use super::feasibility::Budget;
use super::linear::Linear;
use super::normal_form::{LoopBound, NormalForm, RefInfo, Subscript, SubscriptError, SymbolRanges};

/// Operations one question (a coincidence, or all dependence vectors of a pair)
/// may spend in the exact test by default: Polly's cap for isl.
pub const EXACT_TEST_BUDGET: u64 = 500_000;

/// Two references prepared for comparison: U executes first (a `U then V` pair).
#[derive(Clone, Debug)]
pub struct Pair<'a> {
    pub(crate) u: &'a RefInfo,
    pub(crate) v: &'a RefInfo,
    pub(crate) common: usize,
    nvars: usize,
    /// Per dimension, `U_d - V_d` over the variables, `None` when either is not affine.
    pub(crate) differences: Vec<Option<Linear>>,
    /// Loop bounds of both references and symbol ranges (`>= 0` each).
    pub(crate) domain: Vec<Linear>,
    /// The domain is the real iteration space: no loop bound is unknown.
    pub(crate) exact_domain: bool,
    /// A feasible point of the whole system is a real dependence: the domain
    /// is exact, every subscript affine and every symbol has one known value.
    pub(crate) closed: bool,
    /// The value of each symbol (the variables after both references'
    /// loops) when its range has one.
    symbol_values: Vec<Option<i64>>,
    /// `M_u - M_v` of each scoped symbol, with its loop's depth.
    links: Vec<(usize, Linear)>,
    /// Operations per question for the exact test.
    budget: u64,
}

impl<'a> Pair<'a> {
    /// Prepare U (`u`) and V (`v`), which share their `common` outermost loops.
    pub fn new(
        u: &'a RefInfo,
        v: &'a RefInfo,
        common: usize,
        symbols: &SymbolRanges,
    ) -> Result<Self, SubscriptError> {
        if u.subscripts.len() != v.subscripts.len() {
            return Err(SubscriptError::RankMismatch {
                u: u.subscripts.len(),
                v: v.subscripts.len(),
            });
        }
        let (a, b) = (u.loops.len(), v.loops.len());
        if common > a || common > b {
            return Err(SubscriptError::TooManyCommonLoops {
                common,
                u_depth: a,
                v_depth: b,
            });
        }
        if let Some(h) = (0..common).find(|&h| u.loops[h] != v.loops[h]) {
            return Err(SubscriptError::CommonBoundsDiffer { loop_index: h });
        }
        let names = symbol_vars(u, v);
        let nvars = a + b + names.len();
        let layout = Layout {
            nvars,
            names: &names,
            u_loops: a,
            first_symbol: a + b,
        };

        let mut differences = Vec::with_capacity(u.subscripts.len());
        for (su, sv) in u.subscripts.iter().zip(&v.subscripts) {
            differences.push(match (su, sv) {
                (Subscript::Affine(fu), Subscript::Affine(fv)) => {
                    let lu = layout.linear(fu, Side::U, a, a)?;
                    let lv = layout.linear(fv, Side::V, b, b)?;
                    lu.minus(&lv).ok()
                }
                _ => None,
            });
        }

        // Symbol ranges first, then each loop after the loops outside it.
        let mut domain = Vec::new();
        let mut values = Vec::with_capacity(names.len());
        for (i, var) in names.iter().enumerate() {
            let range = symbols.get(var.name).copied().unwrap_or_default();
            let var = Linear::var(nvars, layout.first_symbol + i);
            if let Some(lower) = range.lower {
                domain.push(Linear {
                    constant: -lower,
                    ..var.clone()
                });
            }
            if let Some(upper) = range.upper {
                domain.push(Linear {
                    constant: upper,
                    coeffs: var.coeffs.iter().map(|c| -c).collect(),
                });
            }
            values.push(range.lower.filter(|_| range.lower == range.upper));
        }
        let mut exact_domain = true;
        for (loops, side) in [(&u.loops, Side::U), (&v.loops, Side::V)] {
            let offset = layout.offset(side);
            for (g, bound) in loops.iter().enumerate() {
                domain.push(Linear::var(nvars, offset + g));
                match bound {
                    LoopBound::Span { scale, span } => {
                        if *scale <= 0 {
                            return Err(SubscriptError::NonPositiveScale { loop_index: g });
                        }
                        let mut upper = layout.linear(span, side, g, g)?;
                        upper.coeffs[offset + g] = -*scale;
                        domain.push(upper);
                    }
                    LoopBound::Unknown => exact_domain = false,
                }
            }
        }
        // The guards of the IFs around each reference: part of its domain.
        // One over a loop outside the reference's is left out (sound).
        for (r, side) in [(u, Side::U), (v, Side::V)] {
            for guard in &r.guards {
                let Ok(l) = layout.linear(&guard.form, side, r.loops.len(), r.loops.len()) else {
                    continue;
                };
                if guard.eq {
                    if let Ok(n) = l.negated() {
                        domain.push(n);
                    }
                }
                domain.push(l);
            }
        }
        let mut links = Vec::new();
        for (i, var) in names.iter().enumerate() {
            if let (Some(Side::U), Some(depth)) = (var.side, scope(var.name)) {
                let twin = SymbolVar {
                    side: Some(Side::V),
                    ..*var
                };
                if let (true, Ok(j)) = (depth < common, names.binary_search(&twin)) {
                    let mut link = Linear::zero(nvars);
                    link.coeffs[layout.first_symbol + i] = 1;
                    link.coeffs[layout.first_symbol + j] = -1;
                    links.push((depth, link));
                }
            }
        }
        let fixed_symbols = values.iter().all(Option::is_some);
        let closed = exact_domain && fixed_symbols && differences.iter().all(Option::is_some);
        Ok(Pair {
            u,
            v,
            common,
            nvars,
            differences,
            domain,
            exact_domain,
            closed,
            symbol_values: values,
            links,
            budget: EXACT_TEST_BUDGET,
        })
    }

    /// Let each question spend at most `operations` in the exact test (beyond
    /// it, the answer is "unknown": a possible dependence).
    pub fn with_budget(mut self, operations: u64) -> Self {
        self.budget = operations;
        self
    }

    pub(crate) fn nvars(&self) -> usize {
        self.nvars
    }

    /// The variable `I_g` of U.
    pub(crate) fn u_var(&self, g: usize) -> usize {
        g
    }

    /// The variable `I'_g` of V.
    pub(crate) fn v_var(&self, g: usize) -> usize {
        self.u.loops.len() + g
    }

    /// `I'_g - I_g`: how many iterations of common loop `g` V runs after U.
    pub(crate) fn distance(&self, g: usize) -> Linear {
        let mut d = Linear::zero(self.nvars);
        d.coeffs[self.v_var(g)] = 1;
        d.coeffs[self.u_var(g)] = -1;
        d
    }

    /// The subscript equations of the dimensions where both subscripts are affine.
    pub(crate) fn equations(&self) -> Vec<Linear> {
        self.differences.iter().flatten().cloned().collect()
    }

    /// `I'_h = I_h` for the common loops outside `g` (and the links that
    /// makes hold), and `I'_g - I_g = shift` when `shift` is given.
    pub(crate) fn same_outer_iterations(&self, g: usize, shift: Option<i64>) -> Vec<Linear> {
        let mut eqs: Vec<Linear> = (0..g).map(|h| self.distance(h)).collect();
        eqs.extend(self.links_within(g));
        if let Some(n) = shift {
            eqs.push(Linear {
                constant: -n,
                ..self.distance(g)
            });
        }
        eqs
    }

    /// Every instance of each reference meets the other `distances`
    /// iterations away (Ishida & Kanada's exact coincidence, section 3):
    /// with `I'_g = I_g + d_g` on the common loops, every subscript
    /// difference is zero whatever the other loops are (each symbol with
    /// its one value). Only
    /// then is a dependence exact: `A(I)` against `A(I+J-1)` in an inner J
    /// loop meets at distance 0 only when J = 1.
    pub(crate) fn coincide_everywhere(&self, distances: &[Option<i64>]) -> bool {
        // Under a guard, an instance may have no partner at that distance.
        if !self.u.guards.is_empty() || !self.v.guards.is_empty() {
            return false;
        }
        self.differences.iter().all(|diff| {
            let Some(mut diff) = diff.clone() else {
                return false;
            };
            for (g, d) in distances.iter().enumerate() {
                let Some(d) = d else { return false };
                let k = std::mem::take(&mut diff.coeffs[self.v_var(g)]);
                diff.coeffs[self.u_var(g)] += k;
                diff.constant += k * d;
            }
            let first_symbol = self.nvars - self.symbol_values.len();
            for (i, value) in self.symbol_values.iter().enumerate() {
                let Some(value) = value else { return false };
                diff.constant += std::mem::take(&mut diff.coeffs[first_symbol + i]) * value;
            }
            diff.constant == 0 && diff.coeffs.iter().all(|&c| c == 0)
        })
    }

    /// The links of the symbols scoped to common loops `..=g`: they hold
    /// whenever the loops outside `g` are at the same iteration.
    pub(crate) fn links_within(&self, g: usize) -> impl Iterator<Item = Linear> + '_ {
        self.links
            .iter()
            .filter(move |(depth, _)| *depth <= g)
            .map(|(_, link)| link.clone())
    }

    /// Every link with its loop's depth.
    pub(crate) fn links(&self) -> &[(usize, Linear)] {
        &self.links
    }

    pub(crate) fn budget(&self) -> Budget {
        Budget::new(self.budget)
    }
}

/// The depth of a scoped symbol's loop (`M@g`).
fn scope(name: &str) -> Option<usize> {
    name.split_once('@')?.1.parse().ok()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Side {
    U,
    V,
}

/// A symbol's variable: shared (`side` None), or one side's of a scoped symbol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct SymbolVar<'r> {
    name: &'r str,
    side: Option<Side>,
}

/// The variables of all symbols used by either reference (its subscripts,
/// loop bounds and guards), sorted. A guard may name a symbol its
/// subscripts do not (a counter's range from its value on entry to the
/// unit, `M@g - M >= 0`): without a variable of its own the term would be
/// dropped, a different constraint.
fn symbol_vars<'r>(u: &'r RefInfo, v: &'r RefInfo) -> Vec<SymbolVar<'r>> {
    let mut names = std::collections::BTreeSet::new();
    for (r, side) in [(u, Side::U), (v, Side::V)] {
        let forms = r
            .subscripts
            .iter()
            .filter_map(|s| match s {
                Subscript::Affine(f) => Some(f),
                Subscript::Unknown => None,
            })
            .chain(r.loops.iter().filter_map(|b| match b {
                LoopBound::Span { span, .. } => Some(span),
                LoopBound::Unknown => None,
            }))
            .chain(r.guards.iter().map(|g| &g.form));
        for f in forms {
            names.extend(f.used_symbols().map(|(s, _)| SymbolVar {
                name: s.as_str(),
                side: scope(s).map(|_| side),
            }));
        }
    }
    names.into_iter().collect()
}

struct Layout<'n> {
    nvars: usize,
    names: &'n [SymbolVar<'n>],
    u_loops: usize,
    first_symbol: usize,
}

impl Layout<'_> {
    /// The variable of `side`'s loop 0.
    fn offset(&self, side: Side) -> usize {
        match side {
            Side::U => 0,
            Side::V => self.u_loops,
        }
    }

    /// `form` of `side` as a [`Linear`], its loop `g` being that side's
    /// variable; it may use only the first `allowed` loops (`at` names the
    /// loop for errors).
    fn linear(
        &self,
        form: &NormalForm,
        side: Side,
        allowed: usize,
        at: usize,
    ) -> Result<Linear, SubscriptError> {
        let offset = self.offset(side);
        if form.loop_depth() > allowed {
            return Err(SubscriptError::UsesInnerLoop { loop_index: at });
        }
        let mut l = Linear::constant(self.nvars, form.constant);
        for (g, &c) in form.coeffs.iter().enumerate().take(allowed) {
            l.coeffs[offset + g] = c;
        }
        for (name, c) in form.used_symbols() {
            let var = SymbolVar {
                name,
                side: scope(name).map(|_| side),
            };
            if let Ok(i) = self.names.binary_search(&var) {
                l.coeffs[self.first_symbol + i] = c;
            }
        }
        Ok(l)
    }
}
