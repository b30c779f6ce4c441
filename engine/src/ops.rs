//! The arithmetic and the aggregates of the rule language, shared by the
//! interpreter and the Ascent-compiled code so the two cannot disagree.
//! Arithmetic wraps on overflow; division and remainder by zero (and the
//! one overflowing division, `i64::MIN / -1`) have no result.

pub fn add(a: i64, b: i64) -> i64 {
    a.wrapping_add(b)
}

pub fn sub(a: i64, b: i64) -> i64 {
    a.wrapping_sub(b)
}

pub fn mul(a: i64, b: i64) -> i64 {
    a.wrapping_mul(b)
}

pub fn div(a: i64, b: i64) -> Option<i64> {
    a.checked_div(b)
}

pub fn rem(a: i64, b: i64) -> Option<i64> {
    a.checked_rem(b)
}

// Aggregators in the shape Ascent's `agg` clause calls: an iterator over
// the matching tuples (of the aggregated column), yielding the result.

/// The number of matching tuples (0 when none).
pub fn count(tuples: impl Iterator<Item = ()>) -> impl Iterator<Item = i64> {
    std::iter::once(tuples.count() as i64)
}

/// The wrapping sum (0 when none).
pub fn sum<'a>(tuples: impl Iterator<Item = (&'a i64,)>) -> impl Iterator<Item = i64> {
    std::iter::once(tuples.fold(0i64, |s, (v,)| s.wrapping_add(*v)))
}

/// The least value; no result when none.
pub fn min<'a>(tuples: impl Iterator<Item = (&'a i64,)>) -> impl Iterator<Item = i64> {
    tuples.map(|(v,)| *v).min().into_iter()
}

/// The greatest value; no result when none.
pub fn max<'a>(tuples: impl Iterator<Item = (&'a i64,)>) -> impl Iterator<Item = i64> {
    tuples.map(|(v,)| *v).max().into_iter()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_wraps_and_division_by_zero_has_no_result() {
        assert_eq!(add(i64::MAX, 1), i64::MIN);
        assert_eq!(div(7, -2), Some(-3));
        assert_eq!(rem(-7, 2), Some(-1));
        assert_eq!(div(1, 0), None);
        assert_eq!(rem(1, 0), None);
        assert_eq!(div(i64::MIN, -1), None);
    }

    #[test]
    fn aggregates_of_nothing() {
        let none: [i64; 0] = [];
        assert_eq!(count(std::iter::empty()).collect::<Vec<_>>(), vec![0]);
        assert_eq!(sum(none.iter().map(|v| (v,))).collect::<Vec<_>>(), vec![0]);
        assert_eq!(min(none.iter().map(|v| (v,))).count(), 0);
        assert_eq!(
            max([3, 9, 4].iter().map(|v| (v,))).collect::<Vec<_>>(),
            vec![9]
        );
    }
}
