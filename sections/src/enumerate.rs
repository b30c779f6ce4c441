//! The meaning of sections, by brute force: the index tuples a section
//! holds once every symbol has a value. The tests hold each operation to it.

use crate::affine::floor_div;
use crate::dim::{Dim, Triplet};
use crate::section::Section;
use crate::Approx;
use std::collections::{BTreeMap, BTreeSet};

/// The elements of a section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Elements {
    /// Any element of the array ([`Section::Unknown`] read as may).
    Everything,
    Set(BTreeSet<Vec<i64>>),
}

/// The elements of `s` under `env`; `:` is `extent` in every dimension and
/// `?` is `extent` when `unknown` is may, nothing when it is must. `None`
/// when a symbol has no value, on overflow, or past a million indices in a
/// dimension.
pub fn elements(
    s: &Section,
    env: &BTreeMap<String, i64>,
    extent: (i64, i64),
    unknown: Approx,
) -> Option<Elements> {
    let dims = match s {
        Section::Empty => return Some(Elements::Set(BTreeSet::new())),
        Section::Unknown => {
            return Some(match unknown {
                Approx::May => Elements::Everything,
                Approx::Must => Elements::Set(BTreeSet::new()),
            })
        }
        Section::Dims(d) => d,
    };
    let mut tuples = vec![vec![]];
    for d in dims {
        let values = match d {
            Dim::Triplet(t) => indices(t, env)?,
            Dim::All => (extent.0..=extent.1).collect(),
            Dim::Unknown if unknown == Approx::May => (extent.0..=extent.1).collect(),
            Dim::Unknown => vec![],
        };
        tuples = tuples
            .into_iter()
            .flat_map(|t: Vec<i64>| {
                values.iter().map(move |&v| {
                    let mut t = t.clone();
                    t.push(v);
                    t
                })
            })
            .collect();
    }
    Some(Elements::Set(tuples.into_iter().collect()))
}

/// `first, first+stride, ...` while not past `bound`, as Fortran counts.
pub fn indices(t: &Triplet, env: &BTreeMap<String, i64>) -> Option<Vec<i64>> {
    let (f, b, s) = (t.first().eval(env)?, t.bound().eval(env)?, t.stride());
    let count = (floor_div(b.checked_sub(f)?, s) + 1).max(0);
    if count > 1_000_000 {
        return None;
    }
    (0..count)
        .map(|k| f.checked_add(k.checked_mul(s)?))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::affine::Affine;

    #[test]
    fn fortran_counting() {
        let env = BTreeMap::from([("N".to_string(), 7)]);
        let n = Affine::symbol("N");
        let t = Triplet::new(n.clone(), Affine::constant(1), -3).unwrap();
        assert_eq!(indices(&t, &env), Some(vec![7, 4, 1]));
        let s = Section::new(vec![Dim::Triplet(t), Dim::All, Dim::Unknown]);
        let Some(Elements::Set(may)) = elements(&s, &env, (0, 1), Approx::May) else {
            panic!("a set")
        };
        assert_eq!(may.len(), 12);
        let must = elements(&s, &env, (0, 1), Approx::Must);
        assert_eq!(must, Some(Elements::Set(BTreeSet::new())));
    }
}
