//! What a call may do to each of its actual arguments: read it, write it,
//! or both. A variable, element or substring passed by reference is a use
//! at the call when the procedure may read its dummy, and a (may)
//! definition when it may write it; a dummy it never touches makes neither
//! (see `refs::arg`). Without this every actual would be both, so
//! `A(I) = F(B(I))` would write B in every iteration.
//!
//! Where the answer comes from:
//! - a unit of the program: its body. A dummy is read where a statement
//!   or a declaration's bound reads it and written where a statement
//!   writes it (an assignment, a READ, a DO variable, ALLOCATE, ...);
//!   passed on to another procedure, it is what that procedure does at
//!   that place, until nothing changes (recursion included); internal
//!   procedures get the host variables they use as dummies (see
//!   `crate::scopes`), so a host's dummy one of them writes is passed to
//!   it. A unit with an opaque statement may do anything to every dummy;
//! - a procedure no unit defines: the INTENT its interface body declares
//!   (IN: only read; OUT: only written, since its value on entry is
//!   undefined; INOUT or none: both). An interface body with a dummy of
//!   derived type says nothing, since a call passes such an object as its
//!   components (see `crate::derived`);
//! - a generic name: the join over its specific procedures;
//! - anything else (an external procedure without an interface, a dummy
//!   procedure): both, at every place.
//!
//! Several units or interface bodies of one name (internal procedures of
//! different hosts) join too. A keyword argument is matched by its
//! keyword; one that names no dummy, or a place past the dummies, is both.

use rustc_hash::FxHashMap;
use std::collections::BTreeMap;

use crate::ast::{DeclKind, Intent, Program, Unit};

/// What a procedure may do with the actual argument at one place of its
/// list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Slot {
    pub reads: bool,
    pub writes: bool,
    /// The dummy may be an array (or be passed on as one): given an
    /// element, the procedure may reach the elements from it on (sequence
    /// association), not that element only.
    pub array: bool,
    /// Which of those elements, when the body tells .
    pub footprint: Option<Footprint>,
    /// Every run of the procedure reads the dummy: a read it makes
    /// before any statement that may jump, or a call it makes there that
    /// surely reads it in turn (see `effects::Walk::reaching`).
    pub sure_read: bool,
}

impl Slot {
    /// May read and write: what nothing is known about.
    pub const ANY: Slot = Slot {
        reads: true,
        writes: true,
        array: true,
        footprint: None,
        sure_read: false,
    };

    fn touches(self) -> bool {
        self.reads || self.writes
    }

    /// The actual is surely read by the call and never written: a scalar
    /// dummy (not an array an element would stand for the rest of) that
    /// every run reads and none writes (`must_use`).
    pub fn must_use(self) -> bool {
        self.sure_read && !self.writes && !self.array
    }

    /// What either of two procedures (or places) may do: surely read
    /// only where both surely read.
    fn join(self, other: Slot) -> Slot {
        let sure_read = self.sure_read && other.sure_read;
        self.combine(other, sure_read, Footprint::join)
    }

    /// What a procedure does that does `self` and, at a call it makes,
    /// `other` (`certain`: a call every run of it makes, whose sure writes
    /// are then its own; `reached`: a call every run makes before any
    /// statement that may jump, whose sure reads are then its own).
    fn also(self, other: Slot, certain: bool, reached: bool) -> Slot {
        let sure_read = self.sure_read || (reached && other.sure_read);
        self.combine(other, sure_read, |a, b| a.also(b, certain))
    }

    fn combine(
        self,
        other: Slot,
        sure_read: bool,
        footprints: impl Fn(Footprint, Footprint) -> Option<Footprint>,
    ) -> Slot {
        let footprint = match (self.touches(), other.touches()) {
            (false, _) => other.footprint,
            (_, false) => self.footprint,
            _ => self
                .footprint
                .zip(other.footprint)
                .and_then(|(a, b)| footprints(a, b)),
        };
        Slot {
            reads: self.reads || other.reads,
            writes: self.writes || other.writes,
            array: self.array || other.array,
            footprint,
            sure_read,
        }
    }

    /// What the procedure does from an element `offset` elements (a range
    /// of them) past the first of a dummy of `bytes`-byte elements: its
    /// footprint moved there, unknown when either is.
    fn shifted(self, offset: Option<(i64, i64)>, bytes: Option<i64>) -> Slot {
        let footprint = self
            .footprint
            .zip(offset)
            .filter(|(r, _)| Some(r.bytes) == bytes)
            .and_then(|(r, by)| r.shifted(by));
        Slot { footprint, ..self }
    }

    /// An interface body's dummy, whose shape is not kept: may be an array.
    fn of_intent(intent: Option<Intent>) -> Slot {
        let (reads, writes) = match intent {
            Some(Intent::In) => (true, false),
            Some(Intent::Out) => (false, true),
            Some(Intent::InOut) | None => (true, true),
        };
        Slot {
            reads,
            writes,
            array: true,
            footprint: None,
            sure_read: false,
        }
    }
}

/// The elements of an array dummy a procedure may read and write: offsets
/// (in elements, from 0) from the element its actual argument passes (the
/// first of the array for a whole array), the hull of those its references
/// can reach given the ranges of its DO loops; `None` where it reads (or
/// writes) none. A call then touches a section of the actual, not all of
/// it from the element on (`CALL MATVEC(A(1,1,I), X(1,I))` in a loop over I).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Footprint {
    pub reads: Option<(i64, i64)>,
    pub writes: Option<(i64, i64)>,
    /// A range of offsets every run of the procedure writes (by assignments
    /// it surely makes, or calls that surely make them, see
    /// `effects::Walk::sure_write`): one range, the larger when two do not
    /// meet; inside `writes`.
    pub must: Option<(i64, i64)>,
    /// Bytes of one element: offsets count the dummy's elements, which
    /// an actual of another type does not share.
    pub bytes: i64,
}

impl Footprint {
    /// Either footprint: written surely only where both write surely.
    fn join(self, other: Footprint) -> Option<Footprint> {
        (self.bytes == other.bytes).then(|| Footprint {
            reads: hull(self.reads, other.reads),
            writes: hull(self.writes, other.writes),
            must: self.must.zip(other.must).and_then(|((a, b), (c, d))| {
                let (lo, hi) = (a.max(c), b.min(d));
                (lo <= hi).then_some((lo, hi))
            }),
            bytes: self.bytes,
        })
    }

    /// Both footprints, `other` written surely when `certain`.
    fn also(self, other: Footprint, certain: bool) -> Option<Footprint> {
        let must = if certain { other.must } else { None };
        self.join(other).map(|f| Footprint {
            must: sure_union(self.must, must),
            ..f
        })
    }

    /// Every offset moved by `by`, `None` on overflow.
    fn shifted(self, (a, b): (i64, i64)) -> Option<Footprint> {
        let shift = |r: Option<(i64, i64)>| -> Option<Option<(i64, i64)>> {
            match r {
                None => Some(None),
                Some((lo, hi)) => Some(Some((lo.checked_add(a)?, hi.checked_add(b)?))),
            }
        };
        // Surely written: what it writes from every offset of the range.
        let must = self
            .must
            .and_then(|(lo, hi)| Some((lo.checked_add(b)?, hi.checked_add(a)?)))
            .filter(|(lo, hi)| lo <= hi);
        Some(Footprint {
            reads: shift(self.reads)?,
            writes: shift(self.writes)?,
            must,
            bytes: self.bytes,
        })
    }
}

/// Two ranges surely written as one: their hull when they meet or touch,
/// else the larger (each alone is sure).
pub(super) fn sure_union(a: Option<(i64, i64)>, b: Option<(i64, i64)>) -> Option<(i64, i64)> {
    match (a, b) {
        (None, x) | (x, None) => x,
        (Some((a0, a1)), Some((b0, b1)))
            if a0 <= b1.saturating_add(1) && b0 <= a1.saturating_add(1) =>
        {
            Some((a0.min(b0), a1.max(b1)))
        }
        (Some(x), Some(y)) => Some(if x.1 - x.0 >= y.1 - y.0 { x } else { y }),
    }
}

/// The smallest range holding both (`None`: empty).
pub(super) fn hull(a: Option<(i64, i64)>, b: Option<(i64, i64)>) -> Option<(i64, i64)> {
    match (a, b) {
        (None, x) | (x, None) => x,
        (Some((a0, a1)), Some((b0, b1))) => Some((a0.min(b0), a1.max(b1))),
    }
}

/// A name a unit passes to a procedure: `name` (a variable, or an element
/// or substring of it) at place `index` of a call of `callee`, given by
/// `keyword` when it is a keyword argument.
#[derive(Clone, Debug)]
pub(super) struct Pass {
    pub name: String,
    pub callee: String,
    pub index: usize,
    pub keyword: Option<String>,
    /// How many elements past the first of `name` the passed one is (a
    /// range of them), when that can be told; and the bytes of one.
    pub offset: Option<(i64, i64)>,
    pub bytes: Option<i64>,
    /// Every run of the unit makes the call (see `effects::Walk::sure`).
    pub certain: bool,
    /// Every run of the unit makes the call before any statement that may
    /// jump (see `effects::Walk::reaching`).
    pub reached: bool,
}

/// What one unit's statements do to names, as far as its body tells.
pub(super) struct UnitAccess<'u> {
    pub unit: &'u Unit,
    /// It may do anything to its dummies (see the module's doc).
    pub unknown: bool,
    /// Names it reads and writes itself, not through the calls it passes them to.
    pub reads: &'u std::collections::BTreeSet<String>,
    pub writes: &'u std::collections::BTreeSet<String>,
    /// Names every run of it reads itself (see [`Slot::sure_read`]).
    pub sure_reads: &'u std::collections::BTreeSet<String>,
    /// Its dummies declared as arrays.
    pub arrays: &'u std::collections::BTreeSet<String>,
    /// What it reaches of each array dummy it reads or writes itself
    /// (`None`: unknown).
    pub footprints: &'u FxHashMap<String, Option<Footprint>>,
    pub passes: &'u [Pass],
}

/// Rounds of passing dummies on after which a footprint that still grows is
/// given up.
const WIDEN_AFTER: usize = 20;

/// The dummies of one procedure, in order, each with its slot.
type Dummies = Vec<(String, Slot)>;

/// The slots of every procedure of the program.
#[derive(Debug, Default)]
pub struct Slots {
    /// By name: one list per unit or interface body of that name.
    procs: FxHashMap<String, Vec<Dummies>>,
    generics: BTreeMap<String, Vec<String>>,
}

impl Slots {
    /// The slots of the units (from `units`, one per unit of `program`),
    /// of the interface bodies of procedures no unit defines, and of the
    /// generic names.
    pub(super) fn of(program: &Program, units: &[UnitAccess]) -> Slots {
        let mut slots = Slots {
            procs: FxHashMap::default(),
            generics: program.generics.clone(),
        };
        for u in &program.units {
            for d in &u.decls {
                let DeclKind::Interface { bodies, .. } = &d.kind else {
                    continue;
                };
                for b in bodies {
                    if program.units.iter().any(|u| u.name.text == b.name) {
                        continue;
                    }
                    let dummies = b
                        .dummies
                        .iter()
                        .map(|(n, i)| (n.clone(), Slot::of_intent(*i)))
                        .collect();
                    slots.procs.entry(b.name.clone()).or_default().push(dummies);
                }
            }
        }
        // Each unit's own list sits at this place of its name's lists.
        let mut places = Vec::with_capacity(units.len());
        for u in units {
            let own = |name: &str| Slot {
                reads: u.reads.contains(name),
                writes: u.writes.contains(name),
                array: u.arrays.contains(name),
                footprint: u.footprints.get(name).copied().flatten(),
                sure_read: u.sure_reads.contains(name),
            };
            let dummies: Dummies = u
                .unit
                .args
                .iter()
                .map(|a| {
                    let slot = if u.unknown { Slot::ANY } else { own(&a.text) };
                    (a.text.clone(), slot)
                })
                .collect();
            let lists = slots.procs.entry(u.unit.name.text.clone()).or_default();
            places.push(lists.len());
            lists.push(dummies);
        }
        // What passing a dummy on does, until nothing changes: slots only
        // grow (a sure read too, from none: a procedure that passes its
        // dummy only to itself is not sure to read it). A footprint still growing after many rounds (a procedure
        // passing its dummy to itself further on) becomes unknown.
        for round in 0.. {
            let mut changed = false;
            for (u, &place) in units.iter().zip(&places) {
                for p in u.passes {
                    let passed = slots
                        .slot(&p.callee, p.index, p.keyword.as_deref())
                        .shifted(p.offset, p.bytes);
                    let list = &mut slots.procs.get_mut(&u.unit.name.text).expect("listed")[place];
                    if let Some((_, slot)) = list.iter_mut().find(|(n, _)| *n == p.name) {
                        let mut joined = slot.also(passed, p.certain, p.reached);
                        if round > WIDEN_AFTER && joined.footprint != slot.footprint {
                            joined.footprint = None;
                        }
                        changed |= joined != *slot;
                        *slot = joined;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        slots
    }

    /// What a call of `callee` may do to its actual argument at place
    /// `index` (0-based), given by `keyword` when it is a keyword argument.
    pub fn slot(&self, callee: &str, index: usize, keyword: Option<&str>) -> Slot {
        let Some(specifics) = self.generics.get(callee) else {
            return self.specific(callee, index, keyword);
        };
        // A generic name may also name one of its specifics, or a unit.
        let mut names: Vec<&str> = specifics.iter().map(String::as_str).collect();
        if self.procs.contains_key(callee) {
            names.push(callee);
        }
        names.sort_unstable();
        names.dedup();
        if names.is_empty() {
            return Slot::ANY;
        }
        names
            .iter()
            .map(|s| self.specific(s, index, keyword))
            .reduce(Slot::join)
            .unwrap_or(Slot::ANY)
    }

    /// [`Slots::slot`] of a procedure that is not a generic name.
    fn specific(&self, callee: &str, index: usize, keyword: Option<&str>) -> Slot {
        let Some(lists) = self.procs.get(callee) else {
            return Slot::ANY;
        };
        lists
            .iter()
            .map(|dummies| {
                let found = match keyword {
                    Some(k) => dummies.iter().find(|(n, _)| n == k),
                    None => dummies.get(index),
                };
                found.map_or(Slot::ANY, |(_, s)| *s)
            })
            .reduce(Slot::join)
            .unwrap_or(Slot::ANY)
    }
}
