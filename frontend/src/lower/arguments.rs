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
}

impl Slot {
    /// May read and write: what nothing is known about.
    pub const ANY: Slot = Slot {
        reads: true,
        writes: true,
        array: true,
    };

    fn join(self, other: Slot) -> Slot {
        Slot {
            reads: self.reads || other.reads,
            writes: self.writes || other.writes,
            array: self.array || other.array,
        }
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
        }
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
}

/// What one unit's statements do to names, as far as its body tells.
pub(super) struct UnitAccess<'u> {
    pub unit: &'u Unit,
    /// It may do anything to its dummies (see the module's doc).
    pub unknown: bool,
    /// Names it reads and writes itself, not through the calls it passes them to.
    pub reads: &'u std::collections::BTreeSet<String>,
    pub writes: &'u std::collections::BTreeSet<String>,
    /// Its dummies declared as arrays.
    pub arrays: &'u std::collections::BTreeSet<String>,
    pub passes: &'u [Pass],
}

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
        // What passing a dummy on does, until nothing changes: slots only grow.
        loop {
            let mut changed = false;
            for (u, &place) in units.iter().zip(&places) {
                for p in u.passes {
                    let passed = slots.slot(&p.callee, p.index, p.keyword.as_deref());
                    let list = &mut slots.procs.get_mut(&u.unit.name.text).expect("listed")[place];
                    if let Some((_, slot)) = list.iter_mut().find(|(n, _)| *n == p.name) {
                        let joined = slot.join(passed);
                        changed |= joined != *slot;
                        *slot = joined;
                    }
                }
            }
            if !changed {
                return slots;
            }
        }
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
            .fold(Slot::default(), Slot::join)
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
            .fold(Slot::default(), Slot::join)
    }
}
