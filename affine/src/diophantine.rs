//! Systems of linear Diophantine equations: their general integer solution.
//!
//! Section 5 of Ishida & Kanada solves "the subscripts are equal" as an integer
//! system first, without the loop bounds, and writes every solution as a
//! linear combination of auxiliary variables `t` (fig. 5:
//! `Ig1 = 3t1 - 2t2 - 1, Ig2 = -2t1 + 1, Ig3' = t2`).
//!
//! Method: unimodular column operations bring the coefficient matrix `A` to a
//! column echelon form `H = A U` (a Hermite normal form without the final
//! reduction). `A x = b` becomes `H y = b` with `x = U y`; forward substitution
//! fixes the first `rank` entries of `y` (or shows that no integer solution
//! exists), the others are the free parameters, and the matching columns of
//! `U` generate every solution.

use super::linear::{add, mul, sub, Linear, Overflow, Parametric};

/// The general solution of `eq(x) = 0` for every `eq` in `eqs` (over `nvars`
/// integer variables): `Ok(None)` when there is no integer solution.
pub fn solve(eqs: &[Linear], nvars: usize) -> Result<Option<Parametric>, Overflow> {
    // Rows of H (the coefficients), right-hand sides b, and U as columns.
    let mut h: Vec<Vec<i64>> = eqs
        .iter()
        .map(|e| (0..nvars).map(|j| e.coeff(j)).collect())
        .collect();
    let b: Vec<i64> = eqs
        .iter()
        .map(|e| e.constant.checked_neg().ok_or(Overflow))
        .collect::<Result<_, _>>()?;
    let mut u: Vec<Vec<i64>> = (0..nvars)
        .map(|j| (0..nvars).map(|i| i64::from(i == j)).collect())
        .collect();

    // Column echelon form; `pivot_of_row[r]` is the pivot column of row r, if any.
    let mut rank = 0;
    let mut pivot_of_row = vec![None; h.len()];
    for r in 0..h.len() {
        while rank < nvars {
            // The smallest non-zero entry of row r among the free columns goes to `rank`.
            let Some(c) = (rank..nvars)
                .filter(|&c| h[r][c] != 0)
                .min_by_key(|&c| h[r][c].unsigned_abs())
            else {
                break;
            };
            swap_columns(&mut h, &mut u, rank, c);
            let mut reduced = true;
            for c2 in rank + 1..nvars {
                let q = h[r][c2] / h[r][rank];
                if q != 0 {
                    subtract_column(&mut h, &mut u, c2, rank, q)?;
                }
                reduced &= h[r][c2] == 0;
            }
            if reduced {
                pivot_of_row[r] = Some(rank);
                rank += 1;
                break;
            }
        }
    }

    // Forward substitution for y_0 .. y_{rank-1}.
    let mut y = vec![0i64; rank];
    for (r, row) in h.iter().enumerate() {
        let known = pivot_of_row[r].unwrap_or(rank);
        let mut rest = b[r];
        for (j, &yj) in y.iter().enumerate().take(known) {
            rest = sub(rest, mul(row[j], yj)?)?;
        }
        match pivot_of_row[r] {
            Some(p) => {
                if rest % row[p] != 0 {
                    return Ok(None);
                }
                y[p] = rest / row[p];
            }
            None if rest != 0 => return Ok(None),
            None => {}
        }
    }

    let mut particular = vec![0i64; nvars];
    for (col, &yj) in u.iter().zip(&y) {
        for (xi, &ui) in particular.iter_mut().zip(col) {
            *xi = add(*xi, mul(ui, yj)?)?;
        }
    }
    Ok(Some(Parametric {
        particular,
        generators: u.split_off(rank),
    }))
}

fn swap_columns(h: &mut [Vec<i64>], u: &mut [Vec<i64>], a: usize, b: usize) {
    for row in h.iter_mut() {
        row.swap(a, b);
    }
    u.swap(a, b);
}

/// Column `target -= q * column source`, in both H and U.
fn subtract_column(
    h: &mut [Vec<i64>],
    u: &mut [Vec<i64>],
    target: usize,
    source: usize,
    q: i64,
) -> Result<(), Overflow> {
    for row in h.iter_mut() {
        row[target] = sub(row[target], mul(q, row[source])?)?;
    }
    let src = u[source].clone();
    for (t, s) in u[target].iter_mut().zip(src) {
        *t = sub(*t, mul(q, s)?)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn no_equation_leaves_every_variable_free() {
        for n in 0..5 {
            assert_eq!(solve(&[], n), Ok(Some(Parametric::identity(n))));
        }
    }

    fn eq(coeffs: &[i64], constant: i64) -> Linear {
        Linear {
            coeffs: coeffs.to_vec(),
            constant,
        }
    }

    /// Is `d` an integer combination of the (linearly independent) `gens`?
    /// Exact rational elimination on `[gens | d]`.
    fn in_span(gens: &[Vec<i64>], d: &[i64]) -> bool {
        let k = gens.len();
        let mut rows: Vec<Vec<i128>> = (0..d.len())
            .map(|i| {
                let mut r: Vec<i128> = gens.iter().map(|g| i128::from(g[i])).collect();
                r.push(i128::from(d[i]));
                r
            })
            .collect();
        let mut pivots = Vec::new();
        let mut next = 0;
        for col in 0..k {
            let Some(p) = (next..rows.len()).find(|&r| rows[r][col] != 0) else {
                continue;
            };
            rows.swap(next, p);
            let pivot_row = rows[next].clone();
            for (r, row) in rows.iter_mut().enumerate() {
                if r != next && row[col] != 0 {
                    let (a, b) = (pivot_row[col], row[col]);
                    for (x, &p) in row.iter_mut().zip(&pivot_row) {
                        *x = *x * a - p * b;
                    }
                }
            }
            pivots.push((next, col));
            next += 1;
        }
        assert_eq!(pivots.len(), k, "generators must be independent");
        // Remaining rows must read 0 = 0; each pivot row gives t_col = rhs / a.
        rows[next..].iter().all(|r| r[k] == 0)
            && pivots.iter().all(|&(r, c)| rows[r][k] % rows[r][c] == 0)
    }

    #[test]
    fn ishida_fig5_equation_has_the_papers_general_solution() {
        // 2 Ig1 + 3 Ig2 + 4 Ig3' - 1 = 0.
        let sol = solve(&[eq(&[2, 3, 4], -1)], 3).unwrap().unwrap();
        assert_eq!(sol.generators.len(), 2);
        // The paper's family: Ig1 = 3t1 - 2t2 - 1, Ig2 = -2t1 + 1, Ig3' = t2.
        let papers = Parametric {
            particular: vec![-1, 1, 0],
            generators: vec![vec![3, -2, 0], vec![-2, 0, 1]],
        };
        // Same set of points: each family's particular point and generators lie in the other.
        for (a, b) in [(&sol, &papers), (&papers, &sol)] {
            let d: Vec<i64> = (0..3).map(|i| a.particular[i] - b.particular[i]).collect();
            assert!(in_span(&b.generators, &d));
            for g in &a.generators {
                assert!(in_span(&b.generators, g));
            }
        }
        // Ig2 is odd in every solution (the paper's step from (3) and (6) to (8)).
        let ig2 = Linear::var(3, 1).substitute(&sol).unwrap();
        assert_eq!(ig2.content(), 2);
        assert_eq!(ig2.constant.rem_euclid(2), 1);
    }

    #[test]
    fn inconsistent_and_non_integral_systems_have_no_solution() {
        assert_eq!(solve(&[eq(&[2, 4], -1)], 2).unwrap(), None);
        assert_eq!(solve(&[eq(&[1, 1], -1), eq(&[1, 1], -2)], 2).unwrap(), None);
        assert_eq!(solve(&[eq(&[0, 0], 3)], 2).unwrap(), None);
    }

    #[test]
    fn dependent_rows_and_empty_systems_keep_all_freedom() {
        let sol = solve(&[eq(&[1, -1, 0], 2), eq(&[2, -2, 0], 4)], 3)
            .unwrap()
            .unwrap();
        assert_eq!(sol.generators.len(), 2);
        let sol = solve(&[], 2).unwrap().unwrap();
        assert_eq!(sol.generators.len(), 2);
    }

    proptest! {
        #[test]
        fn general_solution_is_exactly_the_solution_set(
            rows in prop::collection::vec(
                (prop::collection::vec(-4i64..=4, 3), -6i64..=6), 1..=2),
        ) {
            let eqs: Vec<Linear> = rows.iter().map(|(c, k)| eq(c, *k)).collect();
            let sol = solve(&eqs, 3).unwrap();
            // Brute force over a box.
            let r = -8i64..=8;
            let mut box_solutions = Vec::new();
            for x0 in r.clone() { for x1 in r.clone() { for x2 in r.clone() {
                let x = [x0, x1, x2];
                if eqs.iter().all(|e| e.eval(&x).unwrap() == 0) {
                    box_solutions.push(x);
                }
            }}}
            match sol {
                None => prop_assert!(box_solutions.is_empty()),
                Some(sol) => {
                    // Every generator solves the homogeneous system, the particular point the system.
                    prop_assert!(eqs.iter().all(|e| e.eval(&sol.particular).unwrap() == 0));
                    for g in &sol.generators {
                        prop_assert!(eqs.iter().all(|e| eq(&e.coeffs, 0).eval(g).unwrap() == 0));
                    }
                    // Every point of the family solves it.
                    for t in [[1, 0, 0], [0, -1, 0], [2, 3, -1], [-3, 1, 2]] {
                        let x = sol.point(&t[..sol.generators.len()]).unwrap();
                        prop_assert!(eqs.iter().all(|e| e.eval(&x).unwrap() == 0));
                    }
                    // Every solution in the box belongs to the family.
                    for x in box_solutions {
                        let d: Vec<i64> = (0..3).map(|i| x[i] - sol.particular[i]).collect();
                        prop_assert!(in_span(&sol.generators, &d), "{:?} not in {:?}", x, sol);
                    }
                }
            }
        }
    }
}
