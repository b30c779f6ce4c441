//! Storage association (`storage`, `storage_ref`, `storage_address`): which
//! names of a unit share storage, where each one starts in the storage
//! object they share, and which element of it a reference touches.
//!
//! EQUIVALENCE makes names share storage, and so does a COMMON block that
//! an EQUIVALENCE extends over its other members: a name equivalenced to
//! a member overlaps the members its extent covers. COMMON blocks laid out
//! differently in two units meet only at calls: every analysis is local to
//! a unit, and a call touches the caller's members over the bytes of the
//! block the callee touches (see [`common_places`], `super::effects`).
//!
//! Places are in bytes, as gfortran lays storage out (INTEGER, REAL and
//! LOGICAL 4 bytes, DOUBLE PRECISION and COMPLEX 8, the sizes kinds state),
//! arrays in column-major order. A name whose place cannot be told (a
//! CHARACTER, a kind or a bound that is not a literal constant, a
//! subscript in an EQUIVALENCE that is not constant) still shares the
//! object: its references are compared with the others as "possible".

use rustc_hash::FxHashMap;
use std::collections::BTreeMap;

use kaiseki_facts::{Storage, StorageAddress, StorageRef};

use super::affine::Form;
use super::UnitLowerer;
use crate::ast::{DeclKind, DimSpec, Expr, ExprKind, Pos, Unit};
use crate::fold;
use crate::symbols::{base_name, Symbols};

/// Where a name that shares storage lives.
#[derive(Clone, Debug)]
pub(super) struct Place {
    pub object: String,
    /// Bytes from the start of the object; `None` when unknown.
    pub offset: Option<i64>,
    /// Bytes of every element of the object when all its names have
    /// elements of that size at offsets that are multiples of it: then
    /// references compare by element number, else they are not compared.
    pub uniform: Option<i64>,
}

/// The names of a unit that share storage with another name.
#[derive(Default)]
pub(super) struct Layout {
    places: FxHashMap<String, Place>,
}

impl Layout {
    pub fn place(&self, name: &str) -> Option<&Place> {
        self.places.get(name)
    }

    /// The key that tells references to the same storage apart from the
    /// others: the object for a name that shares storage, else the name.
    pub fn storage_of<'n>(&'n self, name: &'n str) -> &'n str {
        self.places.get(name).map_or(name, |p| p.object.as_str())
    }

    /// Lays out the storage of `unit`; inconsistent EQUIVALENCEs are the problems.
    pub fn build(unit: &Unit, syms: &Symbols) -> (Layout, Vec<(Pos, String)>) {
        let mut b = Builder {
            syms,
            index: FxHashMap::default(),
            names: Vec::new(),
            parent: Vec::new(),
            problems: Vec::new(),
        };
        for d in &unit.decls {
            if let DeclKind::Equivalence(groups) = &d.kind {
                for group in groups {
                    b.equivalence(group);
                }
            }
        }
        if b.names.is_empty() {
            return (Layout::default(), Vec::new());
        }
        let mut blocks: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for d in &unit.decls {
            if let DeclKind::Common { block, entities } = &d.kind {
                let members = blocks.entry(block.as_str()).or_default();
                members.extend(entities.iter().map(|e| e.name.text.as_str()));
            }
        }
        for members in blocks.values() {
            b.common(members);
        }
        let problems = std::mem::take(&mut b.problems);
        (b.layout(), problems)
    }
}

/// Where a name lies in a COMMON block.
#[derive(Clone, Debug)]
pub(super) struct InBlock {
    /// The block, `//` for blank COMMON.
    pub block: String,
    /// Bytes `[lo, hi)` from its start; `None` when unknown.
    pub bytes: Option<(i64, i64)>,
}

/// Where each name that lives in a COMMON block of `unit` lies in it: the
/// block (`//` for blank COMMON) and the bytes `[lo, hi)` from its start,
/// as gfortran lays it out without padding; `None` for the bytes when they
/// cannot be told. Members are laid out one after the other; a name that
/// an EQUIVALENCE puts in the block lies where its offset from a member
/// puts it. When a member is not aligned to its element size (up to 8
/// bytes), gfortran pads the block and other units may not agree on the
/// places: then no name of the block has one.
pub(super) fn common_places(
    unit: &Unit,
    syms: &Symbols,
    layout: &Layout,
) -> FxHashMap<String, InBlock> {
    let mut blocks: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for d in &unit.decls {
        if let DeclKind::Common { block, entities } = &d.kind {
            let name = if block.is_empty() {
                "//"
            } else {
                block.as_str()
            };
            let members = blocks.entry(name.to_string()).or_default();
            members.extend(entities.iter().map(|e| e.name.text.as_str()));
        }
    }
    let size = |name: &str| -> Option<i64> {
        let count = syms.dims(name).iter().try_fold(1i64, |n, d| {
            let (lo, hi) = bounds(d, syms)?;
            n.checked_mul((hi - lo + 1).max(0))
        })?;
        syms.elem_bytes(name)?.checked_mul(count)
    };
    let mut out: FxHashMap<String, InBlock> = FxHashMap::default();
    // Per storage object that holds a member: the block and where the
    // object's offset 0 lies in it (`None`: unknown).
    let mut objects: FxHashMap<&str, (&str, Option<i64>)> = FxHashMap::default();
    for (block, members) in &blocks {
        let mut at = Some(0i64);
        let mut spans = Vec::with_capacity(members.len());
        let mut padded = false;
        for m in members {
            let n = size(m);
            let align = syms.elem_bytes(m).map(|b| b.clamp(1, 8));
            padded |= at.zip(align).is_some_and(|(a, b)| a % b != 0);
            spans.push(at.zip(n).map(|(a, n)| (a, a + n)));
            at = at.zip(n).and_then(|(a, n)| a.checked_add(n));
        }
        for (m, span) in members.iter().zip(spans) {
            let span = span.filter(|_| !padded);
            if let Some(p) = layout.place(m) {
                let start = span.zip(p.offset).map(|((lo, _), o)| lo - o);
                let entry = objects.entry(p.object.as_str()).or_insert((block, start));
                if entry.1 != start {
                    entry.1 = None;
                }
            }
            let place = InBlock {
                block: block.clone(),
                bytes: span,
            };
            out.insert(m.to_string(), place);
        }
    }
    for (name, p) in &layout.places {
        let Some(&(block, base)) = objects.get(p.object.as_str()) else {
            continue;
        };
        if out.contains_key(name) {
            continue;
        }
        let lo = base.zip(p.offset).map(|(b, o)| b + o);
        let span = lo.zip(size(name)).map(|(lo, n)| (lo, lo + n));
        let place = InBlock {
            block: block.to_string(),
            bytes: span,
        };
        out.insert(name.clone(), place);
    }
    out
}

/// The classes the unit's EQUIVALENCE statements make, by name: each name
/// with the smallest index of a name it is equivalenced to, directly or
/// in a chain (names that share storage only because a class overlaps
/// COMMON members are in different classes).
pub(super) fn equivalence_classes(unit: &Unit) -> FxHashMap<&str, usize> {
    let mut names: Vec<&str> = Vec::new();
    let mut index: FxHashMap<&str, usize> = FxHashMap::default();
    let mut parent: Vec<usize> = Vec::new();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for d in &unit.decls {
        let DeclKind::Equivalence(groups) = &d.kind else {
            continue;
        };
        for group in groups {
            let mut first = None;
            for n in group.iter().filter_map(base_name) {
                let i = *index.entry(n).or_insert_with(|| {
                    names.push(n);
                    parent.push(parent.len());
                    parent.len() - 1
                });
                let Some(f) = first else {
                    first = Some(i);
                    continue;
                };
                let (a, b) = (root(&mut parent, f), root(&mut parent, i));
                parent[a.max(b)] = a.min(b);
            }
        }
    }
    names
        .iter()
        .enumerate()
        .map(|(i, n)| (*n, root(&mut parent, i)))
        .collect()
}

/// A weighted union-find over names: each name's start relative to its
/// parent's (`None`: unknown).
struct Builder<'s, 'a> {
    syms: &'s Symbols<'a>,
    index: FxHashMap<String, usize>,
    names: Vec<String>,
    parent: Vec<(usize, Option<i64>)>,
    problems: Vec<(Pos, String)>,
}

impl Builder<'_, '_> {
    fn id(&mut self, name: &str) -> usize {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        let i = self.names.len();
        self.index.insert(name.to_string(), i);
        self.names.push(name.to_string());
        self.parent.push((i, Some(0)));
        i
    }

    /// The root of `i` and the start of `i` relative to it.
    fn find(&mut self, i: usize) -> (usize, Option<i64>) {
        let (p, d) = self.parent[i];
        if p == i {
            return (i, Some(0));
        }
        let (root, dp) = self.find(p);
        let delta = d.zip(dp).and_then(|(a, b)| a.checked_add(b));
        self.parent[i] = (root, delta);
        (root, delta)
    }

    /// Records start(a) = start(b) + d; false when that contradicts what is known.
    fn join(&mut self, a: usize, b: usize, d: Option<i64>) -> bool {
        let ((ra, da), (rb, db)) = (self.find(a), self.find(b));
        let rel = |x: Option<i64>, y: Option<i64>, z: Option<i64>| -> Option<i64> {
            x?.checked_add(y?)?.checked_sub(z?)
        };
        if ra == rb {
            return match (da, rel(db, d, Some(0))) {
                (Some(x), Some(y)) => x == y,
                _ => true,
            };
        }
        self.parent[ra] = (rb, rel(db, d, da));
        true
    }

    fn size(&self, name: &str) -> Option<i64> {
        let count = self.syms.dims(name).iter().try_fold(1i64, |n, d| {
            let (lo, hi) = bounds(d, self.syms)?;
            n.checked_mul((hi - lo + 1).max(0))
        })?;
        self.syms.elem_bytes(name)?.checked_mul(count)
    }

    /// The bytes from the start of its name to the element `e` names.
    fn item_offset(&self, e: &Expr) -> Option<i64> {
        match &e.kind {
            ExprKind::Var(_) => Some(0),
            ExprKind::Apply { name, args } => {
                let subs: Option<Vec<i64>> =
                    args.iter().map(|a| fold::fold_int(a, self.syms)).collect();
                let index = element_index(self.syms.dims(name), &subs?, self.syms)?;
                index.checked_mul(self.syms.elem_bytes(name)?)
            }
            _ => None,
        }
    }

    fn equivalence(&mut self, group: &[Expr]) {
        let Some(first) = group.first() else { return };
        let Some(n0) = base_name(first) else { return };
        let (a, off_a) = (self.id(n0), self.item_offset(first));
        for e in &group[1..] {
            let Some(n) = base_name(e) else { continue };
            let b = self.id(n);
            let d = off_a
                .zip(self.item_offset(e))
                .and_then(|(x, y)| x.checked_sub(y));
            if !self.join(b, a, d) {
                self.problems.push((
                    e.pos,
                    format!("EQUIVALENCE of `{n}` contradicts an earlier one: the names cannot all be placed"),
                ));
            }
        }
    }

    /// Pulls into each class the members of the COMMON block that its
    /// names overlap (all of them when an extent is unknown).
    fn common(&mut self, members: &[&str]) {
        let mut starts: Vec<Option<i64>> = Vec::new();
        let mut at = Some(0i64);
        for m in members {
            starts.push(at);
            at = at.zip(self.size(m)).and_then(|(a, s)| a.checked_add(s));
        }
        loop {
            let mut changed = false;
            for (i, m) in members.iter().enumerate() {
                let Some(&mi) = self.index.get(*m) else {
                    continue;
                };
                let Some(extent) = self.class_extent(mi, starts[i]) else {
                    continue;
                };
                for (j, other) in members.iter().enumerate() {
                    let oi = self.id(other);
                    if self.find(oi).0 == self.find(mi).0 {
                        continue;
                    }
                    let span = starts[j].zip(self.size(other));
                    let overlaps = match (extent, span) {
                        (Some((lo, hi)), Some((s, n))) => s < hi && lo < s + n,
                        _ => true,
                    };
                    if overlaps {
                        let d = starts[j].zip(starts[i]).map(|(s, t)| s - t);
                        self.join(oi, mi, d);
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
    }

    /// The bytes the class of `mi` covers in its COMMON block when `mi`
    /// starts at `start`; `Some(None)` when that cannot be told; `None`
    /// when the class is `mi` alone (it overlaps no other member).
    fn class_extent(&mut self, mi: usize, start: Option<i64>) -> Option<Option<(i64, i64)>> {
        let (root, dm) = self.find(mi);
        let class: Vec<usize> = (0..self.names.len())
            .filter(|&k| self.find(k).0 == root)
            .collect();
        if class.len() < 2 {
            return None;
        }
        let mut extent: Option<(i64, i64)> = None;
        for k in class {
            let (_, dk) = self.find(k);
            let name = self.names[k].clone();
            let lo = start.zip(dk).zip(dm).map(|((s, a), b)| s + a - b);
            let Some((lo, n)) = lo.zip(self.size(&name)) else {
                return Some(None);
            };
            extent = Some(extent.map_or((lo, lo + n), |(a, b)| (a.min(lo), b.max(lo + n))));
        }
        Some(extent)
    }

    fn layout(mut self) -> Layout {
        let mut classes: BTreeMap<usize, Vec<(usize, Option<i64>)>> = BTreeMap::new();
        for k in 0..self.names.len() {
            let (root, d) = self.find(k);
            classes.entry(root).or_default().push((k, d));
        }
        let mut places = FxHashMap::default();
        for members in classes.into_values().filter(|m| m.len() > 1) {
            let placed = members.iter().all(|(_, d)| d.is_some());
            let base = members.iter().filter_map(|(_, d)| *d).min().unwrap_or(0);
            let mut order: Vec<(Option<i64>, &str)> = members
                .iter()
                .map(|&(k, d)| {
                    (
                        d.filter(|_| placed).map(|d| d - base),
                        self.names[k].as_str(),
                    )
                })
                .collect();
            order.sort();
            let object = order.iter().map(|(_, n)| *n).collect::<Vec<_>>().join("=");
            let sizes: Vec<Option<i64>> =
                order.iter().map(|(_, n)| self.syms.elem_bytes(n)).collect();
            let uniform = sizes.first().copied().flatten().filter(|&u| {
                u > 0
                    && sizes.iter().all(|s| *s == Some(u))
                    && order.iter().all(|(o, _)| o.is_some_and(|o| o % u == 0))
            });
            for (offset, name) in order {
                let place = Place {
                    object: object.clone(),
                    offset,
                    uniform,
                };
                places.insert(name.to_string(), place);
            }
        }
        Layout { places }
    }
}

/// The constant lower and upper bounds of a dimension.
fn bounds(d: &DimSpec, syms: &Symbols) -> Option<(i64, i64)> {
    let lo = d
        .lower
        .as_ref()
        .map_or(Some(1), |e| fold::fold_int(e, syms))?;
    let hi = fold::fold_int(d.upper.as_ref()?, syms)?;
    Some((lo, hi))
}

/// Per dimension, the lower bound and the elements one step of its
/// subscript skips (column-major; the last extent may be unknown).
pub(super) fn strides(dims: &[DimSpec], syms: &Symbols) -> Option<Vec<(i64, i64)>> {
    let mut out = Vec::with_capacity(dims.len());
    let mut stride = 1i64;
    for (k, d) in dims.iter().enumerate() {
        let lo = d
            .lower
            .as_ref()
            .map_or(Some(1), |e| fold::fold_int(e, syms))?;
        out.push((lo, stride));
        if k + 1 < dims.len() {
            let (_, hi) = bounds(d, syms)?;
            stride = stride.checked_mul(hi - lo + 1)?;
        }
    }
    Some(out)
}

/// The column-major element number (from 0) of constant subscripts.
fn element_index(dims: &[DimSpec], subs: &[i64], syms: &Symbols) -> Option<i64> {
    if dims.len() != subs.len() {
        return None;
    }
    strides(dims, syms)?
        .iter()
        .zip(subs)
        .try_fold(0i64, |n, (&(lo, stride), s)| {
            n.checked_add(s.checked_sub(lo)?.checked_mul(stride)?)
        })
}

impl<'a> UnitLowerer<'_, '_, 'a> {
    /// The `storage` rows of the unit.
    pub(super) fn storage_rows(&mut self) {
        let mut rows: Vec<(&String, &Place)> = self.storage.places.iter().collect();
        rows.sort_by_key(|(n, _)| n.as_str());
        for (var, p) in rows {
            self.g.facts.storage.push(Storage {
                unit: self.name.clone(),
                var: var.clone(),
                object: p.object.clone(),
                offset: p.offset.unwrap_or(-1),
            });
        }
    }

    /// `storage_ref` (and `storage_address` for an element or a scalar
    /// whose place is known) of reference `id` to `var`; `subs` are the
    /// subscripts of an element, `None` for the whole variable.
    pub(super) fn storage_ref(&mut self, id: i64, var: &str, subs: Option<&'a [Expr]>) {
        let Some(place) = self.storage.place(var).cloned() else {
            return;
        };
        self.g.facts.storage_ref.push(StorageRef {
            r#ref: id,
            object: place.object.clone(),
        });
        let whole_array = subs.is_none() && self.syms.rank(var) > 0;
        let (Some(u), Some(offset), false) = (place.uniform, place.offset, whole_array) else {
            return;
        };
        if let Some(form) = self.address(var, subs.unwrap_or(&[]), offset / u) {
            let form = self.emit_form(&form);
            self.g
                .facts
                .storage_address
                .push(StorageAddress { r#ref: id, form });
        }
    }

    /// The element number in the object: `first` (where `var` starts) plus
    /// the column-major element number of the subscripts.
    fn address(&self, var: &str, subs: &[Expr], first: i64) -> Option<Form> {
        let dims = self.syms.dims(var);
        if dims.len() != subs.len() {
            return None;
        }
        let strides = strides(dims, self.syms)?;
        strides
            .iter()
            .zip(subs)
            .try_fold(Form::constant(first), |form, (&(lo, stride), s)| {
                let term = self.affine(s)?.add(Form::constant(-lo))?.scale(stride)?;
                form.add(term)
            })
    }
}
