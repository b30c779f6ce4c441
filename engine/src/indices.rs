//! The indices of the compiled rules' relations: two Ascent
//! data-structure providers, `#[ds(::kaiseki_engine::indices::derived)]`
//! for the relations a part of the compiled program derives and
//! `#[ds(::kaiseki_engine::indices::read_only)]` for those it only reads.
//!
//! Both keep the rows of a key in a [`CompactIndex`]: most keys of the
//! indices Ascent builds have one row, and Ascent's own index gives
//! every key a vector of four rows on the heap, one more allocation per
//! key and one more cache miss per lookup.
//!
//! Ascent also gives every relation a hash index on all its columns, to
//! drop duplicates when a rule derives a row; it fills it for a relation
//! whose rows come in from the earlier parts too, though no rule of the
//! part derives one. Under `read_only` that index is built only if a rule
//! asks for a row by all its columns (a negation, say), on first use.
//! Filling the indices of the parts' inputs took 0.50 s of the 3 s `deps`
//! run of the 53,000-line uniform unit, 0.35 s without these.

use ascent::internal::{
    RelFullIndexType, RelIndexMerge, RelIndexRead, RelIndexReadAll, RelIndexWrite, ToRelIndex,
};
use rustc_hash::FxBuildHasher;
use smallvec::SmallVec;
use std::cell::OnceCell;
use std::hash::Hash;

/// The rows of one key: the first kept in place, more on the heap.
type Rows<V> = SmallVec<[V; 1]>;

/// An index on some columns of a relation: for each value of those
/// columns, the other columns of its rows (what Ascent's own index keeps,
/// without a heap vector for a key of one row).
#[derive(Clone)]
pub struct CompactIndex<K, V>(hashbrown::HashMap<K, Rows<V>, FxBuildHasher>);

impl<K, V> Default for CompactIndex<K, V> {
    fn default() -> Self {
        CompactIndex(hashbrown::HashMap::default())
    }
}

/// `ToRelIndex` for an index type of this module: Ascent reads it as
/// `$read` gives it (the index itself, or the one it builds) and writes
/// it itself.
macro_rules! to_rel_index {
    ($ty:ident, $index:ty, |$this:ident| $read:expr) => {
        impl<K: Clone + Eq + Hash, V: Clone, R> ToRelIndex<R> for $ty<K, V> {
            type RelIndex<'a>
                = &'a $index
            where
                Self: 'a,
                R: 'a;

            fn to_rel_index<'a>(&'a self, _rel: &'a R) -> Self::RelIndex<'a> {
                let $this = self;
                $read
            }

            type RelIndexWrite<'a>
                = &'a mut Self
            where
                Self: 'a,
                R: 'a;

            fn to_rel_index_write<'a>(&'a mut self, _rel: &'a mut R) -> Self::RelIndexWrite<'a> {
                self
            }
        }
    };
}

to_rel_index!(CompactIndex, CompactIndex<K, V>, |index| index);

impl<K: Eq + Hash, V> RelIndexWrite for CompactIndex<K, V> {
    type Key = K;
    type Value = V;

    fn index_insert(&mut self, key: K, value: V) {
        self.0.entry(key).or_default().push(value);
    }
}

impl<K: Eq + Hash, V> RelIndexMerge for CompactIndex<K, V> {
    fn move_index_contents(from: &mut Self, to: &mut Self) {
        // Move the smaller map's keys into the bigger one.
        if from.0.len() > to.0.len() {
            std::mem::swap(from, to);
        }
        for (key, mut rows) in from.0.drain() {
            match to.0.entry(key) {
                hashbrown::hash_map::Entry::Occupied(slot) => {
                    let kept = slot.into_mut();
                    if rows.len() > kept.len() {
                        std::mem::swap(&mut rows, kept);
                    }
                    kept.extend(rows);
                }
                hashbrown::hash_map::Entry::Vacant(slot) => {
                    slot.insert(rows);
                }
            }
        }
    }
}

impl<'a, K: Eq + Hash + 'a, V: Clone + 'a> RelIndexRead<'a> for CompactIndex<K, V> {
    type Key = K;
    type Value = &'a V;
    type IteratorType = std::slice::Iter<'a, V>;

    fn index_get(&'a self, key: &K) -> Option<Self::IteratorType> {
        self.0.get(key).map(|rows| rows.iter())
    }

    fn len_estimate(&'a self) -> usize {
        self.0.len()
    }

    fn is_empty(&'a self) -> bool {
        self.0.is_empty()
    }
}

/// The rows of one key as [`RelIndexReadAll`] gives them.
type KeyRows<'a, K, V> = (&'a K, std::slice::Iter<'a, V>);

impl<'a, K: Eq + Hash + 'a, V: Clone + 'a> RelIndexReadAll<'a> for CompactIndex<K, V> {
    type Key = &'a K;
    type Value = &'a V;
    type ValueIteratorType = std::slice::Iter<'a, V>;
    type AllIteratorType = std::iter::Map<
        hashbrown::hash_map::Iter<'a, K, Rows<V>>,
        fn((&'a K, &'a Rows<V>)) -> KeyRows<'a, K, V>,
    >;

    fn iter_all(&'a self) -> Self::AllIteratorType {
        self.0.iter().map(|(key, rows)| (key, rows.iter()))
    }
}

/// The all-columns index of a relation no rule of the part derives: the
/// (row, value) pairs as they come, hashed on first read.
pub struct LazyFullIndex<K, V> {
    pending: Vec<(K, V)>,
    built: OnceCell<RelFullIndexType<K, V>>,
}

impl<K, V> Default for LazyFullIndex<K, V> {
    fn default() -> Self {
        LazyFullIndex {
            pending: Vec::new(),
            built: OnceCell::new(),
        }
    }
}

impl<K: Clone + Eq + Hash, V: Clone> LazyFullIndex<K, V> {
    fn index(&self) -> &RelFullIndexType<K, V> {
        self.built
            .get_or_init(|| self.pending.iter().cloned().collect())
    }
}

to_rel_index!(LazyFullIndex, RelFullIndexType<K, V>, |lazy| lazy.index());

impl<K, V> RelIndexWrite for LazyFullIndex<K, V> {
    type Key = K;
    type Value = V;

    fn index_insert(&mut self, key: K, value: V) {
        // A row after the index was built: build it again when next read.
        self.built.take();
        self.pending.push((key, value));
    }
}

impl<K, V> RelIndexMerge for LazyFullIndex<K, V> {
    fn move_index_contents(from: &mut Self, to: &mut Self) {
        from.built.take();
        to.built.take();
        to.pending.append(&mut from.pending);
    }
}

// The macros of both providers but the all-columns index: a relation's
// rows in a `Vec`, its indices [`CompactIndex`]. The generated code that
// expands them is in another crate, so they are exported (at the crate
// root, under names of their own) and named again in the providers.

#[doc(hidden)]
#[macro_export]
macro_rules! __indices_rel_codegen {
    ($($tt:tt)*) => {};
}

#[doc(hidden)]
#[macro_export]
macro_rules! __indices_rel {
    ($($tt:tt)*) => { ::ascent::rel::rel!($($tt)*) };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __indices_rel_ind_common {
    ($($tt:tt)*) => { ::ascent::rel::rel_ind_common!($($tt)*) };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __indices_rel_ind {
    ($name: ident, $field_types: ty, $indices: expr, ser, (), $ind: expr, $key: ty, $val: ty) => {
        $crate::indices::CompactIndex<$key, $val>
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __indices_derived_rel_full_ind {
    ($($tt:tt)*) => { ::ascent::rel::rel_full_ind!($($tt)*) };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __indices_read_only_rel_full_ind {
    ($name: ident, $field_types: ty, $indices: expr, ser, (), $key: ty, $val: ty) => {
        $crate::indices::LazyFullIndex<$key, $val>
    };
}

/// The provider for a relation the part derives: Ascent's all-columns index.
pub mod derived {
    pub use crate::__indices_derived_rel_full_ind as rel_full_ind;
    pub use crate::{
        __indices_rel as rel, __indices_rel_codegen as rel_codegen, __indices_rel_ind as rel_ind,
        __indices_rel_ind_common as rel_ind_common,
    };
}

/// The provider for a relation the part only reads: [`LazyFullIndex`].
pub mod read_only {
    pub use crate::__indices_read_only_rel_full_ind as rel_full_ind;
    pub use crate::{
        __indices_rel as rel, __indices_rel_codegen as rel_codegen, __indices_rel_ind as rel_ind,
        __indices_rel_ind_common as rel_ind_common,
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_compact_index_keeps_every_row_of_a_key_through_merges() {
        let rows = |index: &CompactIndex<(i64,), (i64, i64)>, key| -> Vec<(i64, i64)> {
            let mut rows: Vec<_> = index
                .index_get(&(key,))
                .into_iter()
                .flatten()
                .copied()
                .collect();
            rows.sort_unstable();
            rows
        };
        let mut total = CompactIndex::default();
        total.index_insert((1,), (10, 11));
        let mut delta = CompactIndex::default();
        for value in 0..5 {
            delta.index_insert((1,), (value, value));
            delta.index_insert((2 + value,), (value, 0));
        }
        assert_eq!(rows(&delta, 1).len(), 5, "a key of many rows");
        // The delta is the bigger map: the two swap before the move.
        RelIndexMerge::move_index_contents(&mut delta, &mut total);
        assert!(RelIndexRead::is_empty(&delta));
        assert_eq!(RelIndexRead::len_estimate(&total), 6);
        assert_eq!(
            rows(&total, 1),
            vec![(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (10, 11)]
        );
        assert_eq!(rows(&total, 6), vec![(4, 0)]);
        assert!(total.index_get(&(7,)).is_none());
        let all: usize = total.iter_all().map(|(_, rows)| rows.count()).sum();
        assert_eq!(all, 11);
    }

    #[test]
    fn the_index_is_built_when_read_and_again_after_new_rows() {
        let mut index = LazyFullIndex::<(i64, i64), usize>::default();
        index.index_insert((1, 2), 0);
        assert!(index.built.get().is_none(), "no index before a read");
        assert_eq!(index.index().get(&(1, 2)), Some(&0));
        index.index_insert((3, 4), 1);
        assert_eq!(index.index().get(&(3, 4)), Some(&1));
        let mut other = LazyFullIndex::default();
        other.index_insert((5, 6), 2);
        RelIndexMerge::move_index_contents(&mut other, &mut index);
        assert_eq!(index.index().len(), 3);
        assert!(other.index().is_empty());
    }
}
