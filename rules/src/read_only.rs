//! An Ascent data-structure provider (`#[ds(crate::read_only)]`) for the
//! relations a part of the compiled program only reads.
//!
//! Ascent gives every relation a hash index on all its columns, to drop
//! duplicates when a rule derives a row; it fills it for a relation whose
//! rows come in from the earlier parts too, though no rule of the part
//! derives one. Here that index is built only if a rule asks for a row
//! by all its columns (a negation, say), on first use. Filling the
//! indices of the parts' inputs took 0.50 s of the 3 s `deps` run of the
//! 53,000-line uniform unit, 0.35 s without these. The other indices are
//! Ascent's own.

use ascent::internal::{RelFullIndexType, RelIndexMerge, RelIndexWrite, ToRelIndex};
use std::cell::OnceCell;
use std::hash::Hash;

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

impl<K: Clone + Eq + Hash, V: Clone, R> ToRelIndex<R> for LazyFullIndex<K, V> {
    type RelIndex<'a>
        = &'a RelFullIndexType<K, V>
    where
        Self: 'a,
        R: 'a;

    fn to_rel_index<'a>(&'a self, _rel: &'a R) -> Self::RelIndex<'a> {
        self.index()
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

/// The macros Ascent expands for a relation under this provider: the
/// all-columns index is [`LazyFullIndex`], the rest is Ascent's default.
macro_rules! rel_codegen {
    ($($tt:tt)*) => {};
}
pub(crate) use rel_codegen;

macro_rules! rel {
    ($($tt:tt)*) => { ::ascent::rel::rel!($($tt)*) };
}
pub(crate) use rel;

macro_rules! rel_ind_common {
    ($($tt:tt)*) => { ::ascent::rel::rel_ind_common!($($tt)*) };
}
pub(crate) use rel_ind_common;

macro_rules! rel_ind {
    ($($tt:tt)*) => { ::ascent::rel::rel_ind!($($tt)*) };
}
pub(crate) use rel_ind;

macro_rules! rel_full_ind {
    ($name: ident, $field_types: ty, $indices: expr, ser, (), $key: ty, $val: ty) => {
        $crate::read_only::LazyFullIndex<$key, $val>
    };
}
pub(crate) use rel_full_ind;

#[cfg(test)]
mod tests {
    use super::*;

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
