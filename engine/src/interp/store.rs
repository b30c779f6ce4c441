//! One relation in the interpreter: an append-only array of fixed-width
//! `i64` rows, a hash set of them for deduplication, and hash indices on
//! column subsets.
//!
//! Rows are only ever appended, so semi-naive evaluation needs no copies:
//! the rows before `stable` have been seen by every rule, the rows from
//! `stable` on are the delta of the current iteration, and a range of row
//! ids selects either. An index maps a key to the newest row with that key
//! and chains each row to the previous one with the same key (`next`), so
//! keeping it current costs one step per appended row, and a lookup walks
//! the chain newest-first, stopping as soon as the rows are older than the
//! wanted range.

use hashbrown::HashTable;

const NONE: u32 = u32::MAX;

/// A folded multiply: cheap and well mixed in both halves (hashbrown uses
/// the high bits to filter and the low bits to place).
fn mix(a: u64, b: u64) -> u64 {
    let p = (a as u128).wrapping_mul(b as u128);
    (p as u64) ^ ((p >> 64) as u64)
}

pub fn hash_values(values: impl Iterator<Item = i64>) -> u64 {
    values.fold(0x243f_6a88_85a3_08d3, |h, v| {
        mix(h ^ v as u64, 0x9e37_79b9_7f4a_7c15)
    })
}

/// Which rows of a relation a literal reads in one evaluation step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Range {
    All,
    /// The rows new in the previous iteration.
    Delta,
    /// The rows before the delta.
    Old,
}

pub struct Index {
    cols: Vec<usize>,
    /// (key hash, newest row with the key)
    heads: HashTable<(u64, u32)>,
    next: Vec<u32>,
}

pub struct Store {
    arity: usize,
    data: Vec<i64>,
    len: u32,
    set: HashTable<(u64, u32)>,
    indices: Vec<Index>,
    /// Per column: (rows when counted, effective distinct values then).
    distinct: Vec<Option<(u32, f64)>>,
    /// Rows `[stable, len)` are the delta.
    pub stable: u32,
}

impl Store {
    pub fn new(arity: usize) -> Store {
        Store {
            arity,
            data: Vec::new(),
            len: 0,
            set: HashTable::new(),
            indices: Vec::new(),
            distinct: vec![None; arity],
            stable: 0,
        }
    }

    pub fn arity(&self) -> usize {
        self.arity
    }

    pub fn len(&self) -> u32 {
        self.len
    }

    pub fn row(&self, r: u32) -> &[i64] {
        let start = r as usize * self.arity;
        &self.data[start..start + self.arity]
    }

    /// Row ids `[lo, hi)` of a range.
    pub fn bounds(&self, range: Range) -> (u32, u32) {
        match range {
            Range::All => (0, self.len),
            Range::Delta => (self.stable, self.len),
            Range::Old => (0, self.stable),
        }
    }

    /// Appends `row` unless present; true when it was new.
    pub fn insert(&mut self, row: &[i64]) -> bool {
        let hash = hash_values(row.iter().copied());
        let (data, arity, len) = (&self.data, self.arity, self.len);
        let same = |&(h, r): &(u64, u32)| {
            h == hash && &data[r as usize * arity..(r as usize + 1) * arity] == row
        };
        match self.set.entry(hash, same, |e| e.0) {
            hashbrown::hash_table::Entry::Occupied(_) => false,
            hashbrown::hash_table::Entry::Vacant(slot) => {
                slot.insert((hash, len));
                self.data.extend_from_slice(row);
                self.len += 1;
                true
            }
        }
    }

    /// The row id of `row`, if present.
    pub fn find(&self, row: impl Fn(usize) -> i64) -> Option<u32> {
        let hash = hash_values((0..self.arity).map(&row));
        self.set
            .find(hash, |&(h, r)| {
                h == hash
                    && (0..self.arity).all(|c| self.data[r as usize * self.arity + c] == row(c))
            })
            .map(|e| e.1)
    }

    /// The effective number of distinct values in column `col`: N² over
    /// the sum of each value's count squared. It is the distinct count when
    /// the values are equally frequent and less when a few dominate (a loop
    /// variable among a unit's references), where the plain count would
    /// promise a join a small fan-out that the keys it meets do not have.
    /// Counted again when the relation has doubled since the last count.
    fn distinct_values(&mut self, col: usize) -> f64 {
        match self.distinct[col] {
            Some((at, n)) if self.len < 2 * at.max(8) => n,
            _ => {
                let mut counts: HashTable<(i64, u64)> = HashTable::new();
                for r in 0..self.len {
                    let v = self.data[r as usize * self.arity + col];
                    let h = hash_values(std::iter::once(v));
                    match counts.find_mut(h, |x| x.0 == v) {
                        Some(entry) => entry.1 += 1,
                        None => {
                            counts.insert_unique(h, (v, 1), |x| hash_values(std::iter::once(x.0)));
                        }
                    }
                }
                let squares: f64 = counts.iter().map(|&(_, c)| (c as f64) * (c as f64)).sum();
                let n = if squares > 0.0 {
                    (self.len as f64) * (self.len as f64) / squares
                } else {
                    0.0
                };
                self.distinct[col] = Some((self.len, n));
                n
            }
        }
    }

    /// The expected number of rows matching one key on the columns `key`:
    /// the size over the effective distinct values of each key column (as
    /// if the columns were independent), at least one when the relation is
    /// not empty.
    pub fn fan_out(&mut self, key: &[usize]) -> f64 {
        if self.len == 0 {
            return 0.0;
        }
        let mut rows = self.len as f64;
        for &c in key {
            rows /= self.distinct_values(c).max(1.0);
        }
        rows.max(1.0)
    }

    /// The id of the index on `cols` (made on first request).
    pub fn index_on(&mut self, cols: &[usize]) -> usize {
        if let Some(i) = self.indices.iter().position(|ix| ix.cols == cols) {
            return i;
        }
        self.indices.push(Index {
            cols: cols.to_vec(),
            heads: HashTable::new(),
            next: Vec::new(),
        });
        self.indices.len() - 1
    }

    /// Brings every index up to date with the appended rows.
    pub fn update_indices(&mut self) {
        let (data, arity, len) = (&self.data, self.arity, self.len);
        for ix in &mut self.indices {
            for r in ix.next.len() as u32..len {
                let row = &data[r as usize * arity..(r as usize + 1) * arity];
                let hash = hash_values(ix.cols.iter().map(|&c| row[c]));
                let same_key = |&(h, head): &(u64, u32)| {
                    h == hash && {
                        let other = head as usize * arity;
                        ix.cols.iter().all(|&c| data[other + c] == row[c])
                    }
                };
                match ix.heads.find_mut(hash, same_key) {
                    Some(entry) => {
                        ix.next.push(entry.1);
                        entry.1 = r;
                    }
                    None => {
                        ix.next.push(NONE);
                        ix.heads.insert_unique(hash, (hash, r), |e| e.0);
                    }
                }
            }
        }
    }

    /// The rows of `range` whose columns of index `index` equal `key`
    /// (`key(i)` is the value for the index's `i`-th column), newest first.
    pub fn lookup(&self, index: usize, range: Range, key: impl Fn(usize) -> i64) -> Chain<'_> {
        let ix = &self.indices[index];
        let (lo, hi) = self.bounds(range);
        let hash = hash_values((0..ix.cols.len()).map(&key));
        let head = ix
            .heads
            .find(hash, |&(h, head)| {
                h == hash && {
                    let row = head as usize * self.arity;
                    ix.cols
                        .iter()
                        .enumerate()
                        .all(|(i, &c)| self.data[row + c] == key(i))
                }
            })
            .map_or(NONE, |e| e.1);
        let mut at = head;
        while at != NONE && at >= hi {
            at = ix.next[at as usize];
        }
        Chain {
            next: &ix.next,
            at,
            lo,
        }
    }
}

/// Row ids of one key in one range, newest first.
pub struct Chain<'a> {
    next: &'a [u32],
    at: u32,
    lo: u32,
}

impl Iterator for Chain<'_> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        if self.at == NONE || self.at < self.lo {
            return None;
        }
        let r = self.at;
        self.at = self.next[r as usize];
        Some(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_deduplicates() {
        let mut s = Store::new(2);
        assert!(s.insert(&[1, 2]));
        assert!(!s.insert(&[1, 2]));
        assert!(s.insert(&[2, 1]));
        assert_eq!(s.len(), 2);
        assert_eq!(s.find(|c| [2, 1][c]), Some(1));
        assert_eq!(s.find(|c| [3, 1][c]), None);
    }

    #[test]
    fn fan_out_divides_by_effective_distinct_key_values() {
        let mut s = Store::new(2);
        for (a, b) in [(1, 1), (1, 2), (2, 3), (2, 4)] {
            s.insert(&[a, b]);
        }
        assert_eq!(s.fan_out(&[]), 4.0);
        assert_eq!(s.fan_out(&[0]), 2.0);
        assert_eq!(s.fan_out(&[1]), 1.0);
        assert_eq!(Store::new(1).fan_out(&[0]), 0.0);
        // Skewed: a key met in three rows of four is expected to match more
        // than the 2 rows a plain distinct count (2 values) would promise.
        let mut skewed = Store::new(2);
        for (a, b) in [(7, 1), (7, 2), (7, 3), (8, 4)] {
            skewed.insert(&[a, b]);
        }
        assert_eq!(skewed.fan_out(&[0]), 2.5);
    }

    #[test]
    fn lookups_see_only_their_range() {
        let mut s = Store::new(2);
        let ix = s.index_on(&[0]);
        for row in [[1, 10], [2, 20], [1, 11]] {
            s.insert(&row);
        }
        s.stable = 2;
        s.insert(&[1, 12]);
        s.update_indices();
        let got = |range| -> Vec<i64> { s.lookup(ix, range, |_| 1).map(|r| s.row(r)[1]).collect() };
        assert_eq!(got(Range::All), vec![12, 11, 10]);
        assert_eq!(got(Range::Delta), vec![12, 11]);
        assert_eq!(got(Range::Old), vec![10]);
        assert_eq!(s.lookup(ix, Range::All, |_| 3).count(), 0);
    }
}
