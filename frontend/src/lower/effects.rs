//! What a call may touch: the bytes of the COMMON blocks the called
//! procedure may read, and those it may write, in its own statements or
//! through the procedures it calls in turn. A call is then a use of the
//! caller's members that overlap what the callee may read, and a possible
//! definition of those that overlap what it may write (see
//! `refs::hidden_refs`), not of all its COMMON variables: a timer or a
//! report routine called between two loops does not tie them together,
//! and a routine that resets one array does not write the others of its
//! block.
//!
//! Places are bytes in the block, so two units may lay a block out
//! differently (other names, shapes, splits): the bytes are the storage
//! they share (see [`super::storage::common_places`]). Where a unit's
//! layout cannot be told (a size that is not constant, CHARACTER, a member
//! gfortran would pad), its names stand for the whole block.
//!
//! A procedure that is not a unit of the program (an external library
//! routine, a dummy procedure) may touch anything: unknown. So may a unit
//! with an opaque statement (it might call anything) or one that calls an
//! unknown procedure. The exception: a GNU runtime routine declared
//! EXTERNAL (`EXTERNAL DTIME` in a timer; see
//! [`crate::intrinsics::runtime_routine`]) that no unit defines is the
//! library's, which touches no COMMON block (an assumption docs/storage.md
//! states, and the lowering warns of).
//!
//! Reads and writes are told apart by where a name stands: an assignment's
//! left side, a DO or implied-DO variable, a READ item, IOSTAT= and the
//! like, an internal file WRITE writes, and an actual argument of a call
//! (which the callee may write) are writes; everything else reads. A
//! name written anywhere in the unit is written by every call of it (a
//! possible definition: it kills nothing).

use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::{BTreeMap, BTreeSet};

use super::arguments::{hull, sure_union, Footprint, Pass, Slot, Slots, UnitAccess};
use super::storage::{common_places, strides, InBlock, Layout};
use crate::ast::{
    BinOp, DeclKind, Expr, ExprKind, ForallIndex, IoControl, IoItem, Pos, Program, Stmt, StmtKind,
    TypeSpec, UnOp, Unit,
};
use crate::fold;
use crate::intrinsics::{runtime_routine, Effect, Form, Intrinsic};
use crate::symbols::{base_name, ApplyClass, Symbols};

/// Byte ranges `[lo, hi)` of one COMMON block, sorted and merged; `None`
/// for the whole block.
type Span = Option<Vec<(i64, i64)>>;

/// Parts of COMMON blocks, by block name (`//` for blank COMMON).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Regions(BTreeMap<String, Span>);

impl Regions {
    /// Adds `range` of `block` (`None`: all of it).
    fn add(&mut self, block: &str, range: Option<(i64, i64)>) {
        let span = self.0.entry(block.to_string()).or_insert(Some(Vec::new()));
        match (span.as_mut(), range) {
            (Some(ranges), Some(r)) => {
                ranges.push(r);
                merge(ranges);
            }
            _ => *span = None,
        }
    }

    fn extend(&mut self, other: &Regions) {
        for (block, span) in &other.0 {
            match span {
                None => self.add(block, None),
                Some(ranges) => ranges.iter().for_each(|&r| self.add(block, Some(r))),
            }
        }
    }

    /// Whether these regions overlap `range` of `block` (`None`: anywhere in it).
    pub fn touches(&self, block: &str, range: Option<(i64, i64)>) -> bool {
        match (self.0.get(block), range) {
            (None, _) => false,
            (Some(None), _) | (Some(Some(_)), None) => true,
            (Some(Some(ranges)), Some((lo, hi))) => ranges.iter().any(|&(a, b)| a < hi && lo < b),
        }
    }
}

/// Sorts and merges overlapping or adjacent ranges.
fn merge(ranges: &mut Vec<(i64, i64)>) {
    ranges.sort_unstable();
    let mut out: Vec<(i64, i64)> = Vec::with_capacity(ranges.len());
    for &(lo, hi) in ranges.iter() {
        match out.last_mut() {
            Some(last) if lo <= last.1 => last.1 = last.1.max(hi),
            _ => out.push((lo, hi)),
        }
    }
    *ranges = out;
}

/// What a call of one unit may read and write.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Touch {
    pub reads: Regions,
    pub writes: Regions,
}

impl Touch {
    fn extend(&mut self, other: &Touch) {
        self.reads.extend(&other.reads);
        self.writes.extend(&other.writes);
    }

    /// Whether a unit whose COMMON members lie at `places` names all this
    /// writes, so that a call's references to its members show it: every
    /// written byte lies in one of them (a member whose bytes are unknown
    /// stands for its whole block). Reads need not be named: what the unit
    /// does not name, only other calls could write, and their writes must
    /// be named; a byte written by one and read by another is then one of
    /// the unit's members, which both calls' references name.
    pub(super) fn seen_by<'p>(&self, places: impl Iterator<Item = &'p InBlock> + Clone) -> bool {
        self.writes.0.iter().all(|(block, span)| {
            let mine: Vec<Option<(i64, i64)>> = places
                .clone()
                .filter(|p| p.block == *block)
                .map(|p| p.bytes)
                .collect();
            if mine.iter().any(Option::is_none) {
                return true;
            }
            let mut mine: Vec<(i64, i64)> = mine.into_iter().flatten().collect();
            merge(&mut mine);
            span.as_ref().is_some_and(|ranges| {
                ranges
                    .iter()
                    .all(|&(lo, hi)| mine.iter().any(|&(a, b)| a <= lo && hi <= b))
            })
        })
    }
}

/// What a call of each unit of the program may touch, and what it may do
/// to each of its arguments.
#[derive(Debug, Default)]
pub struct CallEffects {
    /// Per unit name; `None` when unknown.
    touch: FxHashMap<String, Option<Touch>>,
    slots: Slots,
    /// The units (and generic names) whose calls are self-contained (see
    /// [`CallEffects::self_contained`]).
    contained: FxHashSet<String>,
}

impl CallEffects {
    /// What a call of `callee` may read and write; `None` when that is
    /// unknown (anything).
    pub fn touch(&self, callee: &str) -> Option<&Touch> {
        static NOTHING: Touch = Touch {
            reads: Regions(BTreeMap::new()),
            writes: Regions(BTreeMap::new()),
        };
        match self.touch.get(callee) {
            Some(touch) => touch.as_ref(),
            None if runtime_routine(callee) => Some(&NOTHING),
            None => None,
        }
    }

    /// What a call of `callee` may do to its actual argument at place
    /// `index`, given by `keyword` when it is a keyword argument (see
    /// [`super::arguments`]).
    pub fn slot(&self, callee: &str, index: usize, keyword: Option<&str>) -> Slot {
        self.slots.slot(callee, index, keyword)
    }

    /// Whether a call of `callee` does nothing its references do not show:
    /// every procedure it may run is a unit of the program whose effects
    /// are known, with no I/O, STOP, call of an intrinsic subroutine or a
    /// runtime routine, and no variable that keeps its value between calls
    /// (SAVE, DATA, an initializer). Its iterations can then run in any
    /// order when their references allow it.
    pub fn self_contained(&self, callee: &str) -> bool {
        self.contained.contains(callee)
    }

    /// Whether `callee` is taken to be a GNU runtime routine: no unit of
    /// the program defines it.
    pub fn is_runtime_routine(&self, callee: &str) -> bool {
        !self.touch.contains_key(callee) && runtime_routine(callee)
    }

    /// The effects of every unit of `program`: each unit's own, then its
    /// callees' until nothing changes.
    pub fn of(program: &Program) -> CallEffects {
        let names: FxHashSet<&str> = program.procedure_names();
        let units: Vec<Direct> = program
            .units
            .iter()
            .map(|u| Direct::of(u, &names))
            .collect();
        let access: Vec<UnitAccess> = units
            .iter()
            .map(|d| UnitAccess {
                unit: d.unit,
                unknown: d.opaque,
                reads: &d.reads,
                writes: &d.writes,
                sure_reads: &d.sure_reads,
                arrays: &d.arrays,
                footprints: &d.footprints,
                passes: &d.passes,
            })
            .collect();
        let slots = Slots::of(program, &access);
        // A generic name calls one of its specific procedures.
        let generics = program.generics.iter().map(|(g, specifics)| {
            let callees: BTreeSet<String> = specifics.iter().cloned().collect();
            (g.as_str(), (Some(Touch::default()), callees))
        });
        let direct: Vec<(&str, Own)> = units
            .iter()
            .map(|d| {
                let own = (!d.unknown).then(|| d.touch(&slots));
                (d.unit.name.text.as_str(), (own, d.callees.clone()))
            })
            .chain(generics)
            .collect();
        let mut touch: FxHashMap<String, Option<Touch>> = FxHashMap::default();
        for (name, (own, _)) in &direct {
            touch.insert(name.to_string(), own.clone());
        }
        loop {
            let mut changed = false;
            for (name, (_, callees)) in &direct {
                let mut acc = touch[*name].clone();
                for callee in callees {
                    acc = match (acc, touch.get(callee)) {
                        (Some(mut a), Some(Some(b))) => {
                            a.extend(b);
                            Some(a)
                        }
                        _ => None,
                    };
                }
                if acc != touch[*name] {
                    touch.insert(name.to_string(), acc);
                    changed = true;
                }
            }
            if !changed {
                let contained = contained(&units, &program.generics, &touch);
                return CallEffects {
                    touch,
                    slots,
                    contained,
                };
            }
        }
    }
}

/// The self-contained units and generic names (see
/// [`CallEffects::self_contained`]): those whose own statements qualify,
/// less those that call one that does not, until nothing changes.
fn contained(
    units: &[Direct],
    generics: &BTreeMap<String, Vec<String>>,
    touch: &FxHashMap<String, Option<Touch>>,
) -> FxHashSet<String> {
    let mut names: FxHashSet<String> = units
        .iter()
        .filter(|d| d.closed && touch.get(&d.unit.name.text).is_some_and(Option::is_some))
        .map(|d| d.unit.name.text.clone())
        .collect();
    // Two units of one name (internal procedures of two hosts) are one.
    for d in units.iter().filter(|d| !d.closed) {
        names.remove(&d.unit.name.text);
    }
    let calls: Vec<(&str, Vec<&str>)> = units
        .iter()
        .map(|d| {
            let callees = d.callees.iter().map(String::as_str).collect();
            (d.unit.name.text.as_str(), callees)
        })
        .chain(
            generics
                .iter()
                .map(|(g, specifics)| (g.as_str(), specifics.iter().map(String::as_str).collect())),
        )
        .collect();
    names.extend(
        generics
            .keys()
            .filter(|g| !specifics_empty(generics, g))
            .cloned(),
    );
    loop {
        let before = names.len();
        for (name, callees) in &calls {
            if callees.iter().any(|c| !names.contains(*c)) {
                names.remove(*name);
            }
        }
        if names.len() == before {
            return names;
        }
    }
}

fn specifics_empty(generics: &BTreeMap<String, Vec<String>>, g: &str) -> bool {
    generics.get(g).is_none_or(Vec::is_empty)
}

/// What a unit (or generic name) touches itself, `None` when unknown,
/// and the units it calls.
type Own = (Option<Touch>, BTreeSet<String>);

/// What one unit touches itself.
struct Direct<'u> {
    unit: &'u Unit,
    /// Names it reads and writes, not counting those it passes to procedures.
    reads: BTreeSet<String>,
    writes: BTreeSet<String>,
    /// Names every run of it reads (see [`Walk::reaching`]).
    sure_reads: BTreeSet<String>,
    /// Its dummies declared as arrays.
    arrays: BTreeSet<String>,
    /// What it reaches of its array dummies itself (see [`Footprint`]).
    footprints: FxHashMap<String, Option<Footprint>>,
    /// Names it passes to procedures, for them to read or write.
    passes: Vec<Pass>,
    /// Where its COMMON members lie.
    places: FxHashMap<String, InBlock>,
    /// Procedures it calls that are units of the program.
    callees: BTreeSet<String>,
    /// It calls a procedure that is not a unit of the program, or has an
    /// opaque statement.
    unknown: bool,
    /// It has an opaque statement.
    opaque: bool,
    /// Its own statements and variables keep a call self-contained (see
    /// [`CallEffects::self_contained`]).
    closed: bool,
}

impl<'u> Direct<'u> {
    fn of(unit: &'u Unit, units: &FxHashSet<&str>) -> Direct<'u> {
        let (syms, _) = Symbols::build(unit, units);
        let (layout, _) = Layout::build(unit, &syms);
        let places = common_places(unit, &syms, &layout);
        let mut walk = Walk {
            syms: &syms,
            units,
            keywords: &unit.keywords,
            reads: BTreeSet::new(),
            writes: BTreeSet::new(),
            sure_reads: BTreeSet::new(),
            dummies: unit
                .args
                .iter()
                .filter(|a| syms.rank(&a.text) > 0)
                .map(|a| a.text.clone())
                .collect(),
            loops: Vec::new(),
            doubt: 0,
            jumps: jumps(&unit.body),
            jumped: false,
            surely: false,
            footprints: FxHashMap::default(),
            passes: Vec::new(),
            callees: BTreeSet::new(),
            unknown: false,
            opaque: false,
            outside: false,
            ending: false,
        };
        // Bounds in declarations are read on entry.
        for d in &unit.decls {
            let entities = match &d.kind {
                DeclKind::Type { entities, .. }
                | DeclKind::Dimension(entities)
                | DeclKind::Common { entities, .. }
                | DeclKind::Derived { entities, .. } => entities,
                _ => continue,
            };
            for dim in entities.iter().flat_map(|e| &e.dims) {
                dim.lower
                    .iter()
                    .chain(&dim.upper)
                    .for_each(|b| walk.read(b));
            }
        }
        for s in &unit.body {
            walk.stmt(s);
        }
        let arrays = unit
            .args
            .iter()
            .filter(|a| syms.rank(&a.text) > 0)
            .map(|a| a.text.clone())
            .collect();
        let closed = !walk.unknown && !walk.outside && !keeps_values(unit);
        Direct {
            unit,
            reads: walk.reads,
            writes: walk.writes,
            sure_reads: walk.sure_reads,
            arrays,
            footprints: walk.footprints,
            passes: walk.passes,
            places,
            callees: walk.callees,
            unknown: walk.unknown,
            opaque: walk.opaque,
            closed,
        }
    }

    /// The parts of COMMON blocks it reads and writes, with what the
    /// procedures it passes names to do to them.
    fn touch(&self, slots: &Slots) -> Touch {
        let mut reads: BTreeSet<&str> = self.reads.iter().map(String::as_str).collect();
        let mut writes: BTreeSet<&str> = self.writes.iter().map(String::as_str).collect();
        for p in &self.passes {
            let slot = slots.slot(&p.callee, p.index, p.keyword.as_deref());
            if slot.reads {
                reads.insert(&p.name);
            }
            if slot.writes {
                writes.insert(&p.name);
            }
        }
        let mut touch = Touch::default();
        for (names, regions) in [(&reads, &mut touch.reads), (&writes, &mut touch.writes)] {
            for n in names {
                if let Some(p) = self.places.get(*n) {
                    regions.add(&p.block, p.bytes);
                }
            }
        }
        touch
    }
}

/// Whether some variable of `unit` keeps its value between calls: SAVE,
/// DATA, or an initializer in a type declaration (which implies SAVE).
fn keeps_values(unit: &Unit) -> bool {
    unit.decls.iter().any(|d| match &d.kind {
        DeclKind::Save(_) | DeclKind::Data(_) => true,
        DeclKind::Type {
            parameter: false,
            entities,
            ..
        }
        | DeclKind::Derived { entities, .. } => entities.iter().any(|e| e.init.is_some()),
        _ => false,
    })
}

/// Collects the names a unit's statements read and write, and the
/// procedures they call.
struct Walk<'w, 'a> {
    syms: &'w Symbols<'a>,
    units: &'w FxHashSet<&'w str>,
    keywords: &'w FxHashMap<Pos, String>,
    reads: BTreeSet<String>,
    writes: BTreeSet<String>,
    /// The names read where [`Walk::reaching`] holds.
    sure_reads: BTreeSet<String>,
    /// The unit's array dummies, and what it reaches of each (see [`Footprint`]).
    dummies: FxHashSet<String>,
    footprints: FxHashMap<String, Option<Footprint>>,
    /// The DO (and implied-DO) variables of the loops around, innermost
    /// last, each with the range of its values when constant bounds give it.
    loops: Vec<Bound>,
    /// How many constructs around the statement may skip it (an IF, a
    /// loop that may run no iteration, ...), and whether the unit jumps
    /// (a GO TO, an early RETURN, ...): see [`Walk::sure`].
    doubt: usize,
    jumps: bool,
    /// A statement that may jump has been walked (see [`Walk::reaching`]).
    jumped: bool,
    /// The expression being walked is evaluated whenever its statement
    /// runs (see [`Walk::reaching`]).
    surely: bool,
    passes: Vec<Pass>,
    callees: BTreeSet<String>,
    unknown: bool,
    opaque: bool,
    /// It does I/O, STOPs, or calls an intrinsic subroutine or a runtime
    /// routine: what its calls do reaches outside the program's variables.
    outside: bool,
    /// The statements walked end the run: a branch whose last statement
    /// is STOP (see [`Walk::branch`]).
    ending: bool,
}

/// A DO variable of a loop around and the range of its values.
type Bound = (String, Option<(i64, i64)>);

/// Adds `name` to `set`, allocating only when it is new: a unit reads
/// the same names again and again.
fn note(set: &mut BTreeSet<String>, name: &str) {
    if !set.contains(name) {
        set.insert(name.to_string());
    }
}

impl Walk<'_, '_> {
    fn call(&mut self, name: &str) {
        if self.units.contains(name) {
            self.callees.insert(name.to_string());
        } else if runtime_routine(name) {
            self.outside = true;
        } else {
            self.unknown = true;
        }
    }

    /// Walks the statements of a branch (an IF's arm). One that ends in
    /// STOP is an error report: a run that takes it prints and ends, so
    /// its WRITE, PRINT and STOP keep no call of the unit from being
    /// contained (a parallel loop calling it does what the loop run in
    /// order does, up to a report printed more than once, on every run
    /// that does not stop there).
    fn branch(&mut self, body: &[Stmt]) {
        let ending = self.ending;
        self.ending |= matches!(body.last().map(|s| &s.kind), Some(StmtKind::Stop));
        self.doubtful(true, |w| body.iter().for_each(|s| w.stmt(s)));
        self.ending = ending;
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            // `F(X) = body`: evaluated where F is referenced, so what the
            // body reads is read by the unit.
            StmtKind::Assign { rhs, .. } if self.syms.is_stmt_function_def(s) => self.read(rhs),
            StmtKind::Assign { lhs, rhs } => {
                self.write(lhs);
                self.surely(|w| w.read(rhs));
                self.sure_write(lhs);
            }
            StmtKind::Do {
                var,
                lower,
                upper,
                step,
                body,
                ..
            } => {
                note(&mut self.writes, &var.text);
                note(&mut self.reads, &var.text);
                for e in [lower, upper].into_iter().chain(step) {
                    self.surely(|w| w.read(e));
                }
                self.enter(&var.text, lower, upper);
                // Surely run, and over the values `loops` gives: constant
                // bounds, at least one iteration, step 1.
                let runs = step.is_none()
                    && matches!(
                        (self.interval(lower), self.interval(upper)),
                        (Some((a, b)), Some((c, d))) if a == b && c == d && a <= c
                    );
                self.doubtful(!runs, |w| body.iter().for_each(|s| w.stmt(s)));
                self.loops.pop();
            }
            StmtKind::DoWhile { cond, body, .. } => {
                self.surely(|w| w.read(cond));
                self.doubtful(true, |w| body.iter().for_each(|s| w.stmt(s)));
            }
            StmtKind::If {
                arms, else_part, ..
            } => {
                // An ELSE IF's condition is evaluated only when the
                // conditions before it fail.
                for (i, arm) in arms.iter().enumerate() {
                    if i == 0 {
                        self.surely(|w| w.read(&arm.cond));
                    } else {
                        self.read(&arm.cond);
                    }
                    self.branch(&arm.body);
                }
                if let Some(e) = else_part {
                    self.branch(&e.body);
                }
            }
            StmtKind::Select {
                selector, cases, ..
            } => {
                self.surely(|w| w.read(selector));
                for s in cases.iter().flat_map(|c| &c.body) {
                    self.doubtful(true, |w| w.stmt(s));
                }
            }
            StmtKind::LogicalIf { cond, stmt } => {
                self.surely(|w| w.read(cond));
                self.branch(std::slice::from_ref(stmt));
            }
            StmtKind::Where {
                indices,
                mask,
                lhs,
                rhs,
            } => {
                indices
                    .iter()
                    .flat_map(ForallIndex::bounds)
                    .for_each(|b| self.read(b));
                self.read(mask);
                self.write(lhs);
                self.read(rhs);
            }
            StmtKind::ComputedGoto { index: e, .. } | StmtKind::ArithIf { expr: e, .. } => {
                self.surely(|w| w.read(e))
            }
            StmtKind::Call { name, args } => {
                match self.syms.intrinsic(&name.text, Form::Subroutine) {
                    // An intrinsic subroutine (CPU_TIME, GETARG) touches no
                    // COMMON but what it is given.
                    Some(row) => {
                        self.outside = true;
                        self.intrinsic_args(row, args)
                    }
                    None => {
                        self.call(&name.text);
                        self.surely(|w| w.actuals(&name.text, args));
                    }
                }
            }
            StmtKind::Read { control, items } => {
                self.outside = true;
                self.control(control, false);
                items.iter().for_each(|i| self.io_item(i, true));
            }
            StmtKind::Write { control, items } | StmtKind::Print { control, items } => {
                self.outside |= !self.ending;
                self.control(control, true);
                items.iter().for_each(|i| self.io_item(i, false));
            }
            StmtKind::File {
                control, outputs, ..
            } => {
                self.outside = true;
                self.control(control, false);
                outputs.iter().for_each(|e| self.write(e));
            }
            StmtKind::Opaque { .. } => {
                self.unknown = true;
                self.opaque = true;
            }
            StmtKind::Allocate {
                objects,
                stat,
                source,
                ..
            } => {
                // (De)allocating changes the object.
                objects.iter().filter_map(base_name).for_each(|n| {
                    self.touch(n, true, None);
                });
                objects
                    .iter()
                    .flat_map(Expr::allocated_bounds)
                    .for_each(|e| self.read(e));
                stat.iter().for_each(|e| self.write(e));
                source.iter().for_each(|e| self.read(e));
            }
            StmtKind::Stop => self.outside |= !self.ending,
            StmtKind::Goto(_)
            | StmtKind::Exit { .. }
            | StmtKind::Cycle { .. }
            | StmtKind::Continue
            | StmtKind::Return
            | StmtKind::Format => {}
        }
        self.jumped |= jumping(s);
    }

    /// An I/O control list; `write`: of a WRITE or PRINT, whose CHARACTER
    /// unit (an internal file) it writes.
    fn control(&mut self, c: &IoControl, write: bool) {
        if let Some(u) = &c.unit {
            let file = base_name(u).is_some_and(|n| self.syms.type_of(n) == TypeSpec::Character);
            if write && file {
                self.arg(u, None);
            } else {
                self.read(u);
            }
        }
        c.format.iter().chain(&c.values).for_each(|e| self.read(e));
        for v in [&c.iostat, &c.size].into_iter().flatten() {
            self.write(v);
        }
    }

    fn io_item(&mut self, item: &IoItem, read: bool) {
        match item {
            IoItem::Expr(e) if read => self.write(e),
            IoItem::Expr(e) => self.read(e),
            IoItem::ImpliedDo(d) => {
                note(&mut self.writes, &d.var.text);
                note(&mut self.reads, &d.var.text);
                for e in [&d.lower, &d.upper].into_iter().chain(&d.step) {
                    self.read(e);
                }
                self.enter(&d.var.text, &d.lower, &d.upper);
                d.items.iter().for_each(|i| self.io_item(i, read));
                self.loops.pop();
            }
        }
    }

    /// Assigning to `e`: its name is written, its subscripts read.
    fn write(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Var(n) => {
                self.touch(n, true, self.whole(n));
            }
            ExprKind::Apply { name, args } => {
                // (Not an element or a substring: an error the lowering
                // reports.)
                self.touch(name, true, self.element(name, args));
                args.iter().for_each(|a| self.read(a));
            }
            _ => self.read(e),
        }
    }

    /// The actual arguments of a call of procedure `callee`.
    fn actuals(&mut self, callee: &str, args: &[Expr]) {
        for (index, a) in args.iter().enumerate() {
            let keyword = self.keywords.get(&a.pos).cloned();
            self.arg(a, Some((callee, index, keyword)));
        }
    }

    /// An actual argument: a variable, element or substring is passed to
    /// the procedure of `call` (callee, place, keyword), which may read and
    /// write it (without a procedure, both); other expressions are evaluated.
    fn arg(&mut self, e: &Expr, call: Option<(&str, usize, Option<String>)>) {
        let (name, offset) = match &e.kind {
            ExprKind::Var(n) => (n, Some((0, 0))),
            ExprKind::Apply { name, args }
                if matches!(
                    self.syms.classify_apply(name, args),
                    ApplyClass::Element | ApplyClass::Substring
                ) =>
            {
                args.iter().for_each(|a| self.read(a));
                (name, self.element(name, args))
            }
            _ => return self.read(e),
        };
        match call {
            Some((callee, index, keyword)) => self.passes.push(Pass {
                name: name.clone(),
                callee: callee.to_string(),
                index,
                keyword,
                offset,
                bytes: self.syms.elem_bytes(name),
                certain: self.sure(),
                reached: self.reaching(),
            }),
            None => {
                let span = match &e.kind {
                    ExprKind::Var(n) => self.whole(n),
                    _ => offset,
                };
                self.touch(name, false, span);
                self.touch(name, true, span);
            }
        }
    }

    /// An intrinsic's arguments: not surely read (an inquiry function,
    /// `PRESENT(X)`, `KIND(X)`, reads no value).
    fn intrinsic_args(&mut self, row: &Intrinsic, args: &[Expr]) {
        let surely = std::mem::replace(&mut self.surely, false);
        for (i, a) in args.iter().enumerate() {
            match row.effect(i) {
                Effect::Read => self.read(a),
                Effect::Write | Effect::MayWrite => self.write(a),
                Effect::Update => self.arg(a, None),
            }
        }
        self.surely = surely;
    }

    fn read(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Var(n) => {
                self.touch(n, false, self.whole(n));
            }
            ExprKind::Apply { name, args } => match self.syms.classify_apply(name, args) {
                ApplyClass::Function => {
                    self.call(name);
                    self.actuals(name, args);
                }
                ApplyClass::Intrinsic(row) => self.intrinsic_args(row, args),
                // Its body is read at its definition (see `stmt`).
                ApplyClass::StatementFunction => args.iter().for_each(|a| self.read(a)),
                ApplyClass::Element | ApplyClass::Substring => {
                    self.touch(name, false, self.element(name, args));
                    args.iter().for_each(|a| self.read(a));
                }
            },
            ExprKind::Range {
                lower,
                upper,
                stride,
            } => {
                for x in [lower, upper, stride].into_iter().flatten() {
                    self.read(x);
                }
            }
            ExprKind::Unary(_, x) => self.read(x),
            ExprKind::Binary(_, a, b) => {
                self.read(a);
                self.read(b);
            }
            ExprKind::Int(_) | ExprKind::Real(_) | ExprKind::Logical(_) | ExprKind::Str(_) => {}
        }
    }
}

/// What a unit surely writes of its array dummies (`Footprint::must`):
/// the elements assignments write that every run of the unit makes (no
/// jump in the unit, no construct around that may skip them, loops around
/// of constant bounds), and those the calls it surely makes surely write.
impl Walk<'_, '_> {
    /// Every run of the unit runs the statement being walked.
    fn sure(&self) -> bool {
        !self.jumps && self.doubt == 0
    }

    /// Every run of the unit evaluates the expression being walked: it
    /// is evaluated whenever its statement runs (`surely`), under no
    /// construct that may skip it, and no statement before it may jump
    /// (a RETURN, a GO TO past it, a STOP: statements are walked in their
    /// order, so those walked so far are the ones a run may have left
    /// from). What a unit reads there it surely reads (`Slot::sure_read`),
    /// though it may jump later on (DAXPY's `IF (N .LE. 0) RETURN`).
    fn reaching(&self) -> bool {
        self.surely && self.doubt == 0 && !self.jumped
    }

    /// Walks what `walk` walks as an expression evaluated whenever its
    /// statement runs (see [`Walk::reaching`]).
    fn surely(&mut self, walk: impl FnOnce(&mut Self)) {
        let surely = std::mem::replace(&mut self.surely, true);
        walk(self);
        self.surely = surely;
    }

    /// Walks what `walk` walks, under a construct that may skip it when
    /// `skips`.
    fn doubtful(&mut self, skips: bool, walk: impl FnOnce(&mut Self)) {
        self.doubt += usize::from(skips);
        walk(self);
        self.doubt -= usize::from(skips);
    }

    /// The assignment to `lhs` that is being walked writes it surely:
    /// its elements join the dummy's sure range when they are one range.
    fn sure_write(&mut self, lhs: &Expr) {
        if !self.sure() {
            return;
        }
        let (name, span) = match &lhs.kind {
            ExprKind::Var(n) => (n, self.whole(n)),
            ExprKind::Apply { name, args } => (name, self.dense(name, args)),
            _ => return,
        };
        if let (Some(span), Some(Some(f))) = (span, self.footprints.get_mut(name.as_str())) {
            f.must = sure_union(f.must, Some(span));
        }
    }

    /// The offsets element `name(args)` takes over the iterations of the
    /// loops around, when they are all of one range: each iteration's
    /// offset counted (loops of constant bounds, at most `MAX_POINTS`
    /// iterations).
    fn dense(&self, name: &str, args: &[Expr]) -> Option<(i64, i64)> {
        const MAX_POINTS: i64 = 1 << 12;
        let ranges: Vec<(i64, i64)> = self.loops.iter().map(|(_, r)| *r).collect::<Option<_>>()?;
        let points = ranges
            .iter()
            .try_fold(1i64, |n, (a, b)| n.checked_mul(b - a + 1))
            .filter(|&n| n <= MAX_POINTS)?;
        let mut at: Vec<Bound> = self.loops.iter().map(|(v, r)| (v.clone(), *r)).collect();
        let mut offsets = Vec::with_capacity(points as usize);
        for mut k in 0..points {
            for ((_, r), (a, b)) in at.iter_mut().zip(&ranges) {
                let v = a + k % (b - a + 1);
                k /= b - a + 1;
                *r = Some((v, v));
            }
            offsets.push(self.element_in(&at, name, args)?.0);
        }
        offsets.sort_unstable();
        offsets.dedup();
        let (lo, hi) = (*offsets.first()?, *offsets.last()?);
        (hi - lo + 1 == offsets.len() as i64).then_some((lo, hi))
    }
}

/// Whether statements may jump: a GO TO, an arithmetic IF, EXIT, CYCLE,
/// STOP or a RETURN but the last statement (what the unit surely does is
/// then not told).
fn jumps(body: &[Stmt]) -> bool {
    let last_return = matches!(body.last().map(|s| &s.kind), Some(StmtKind::Return));
    let n = body.len() - usize::from(last_return);
    body[..n].iter().any(jumping)
}

fn jumping(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Goto(_)
        | StmtKind::ComputedGoto { .. }
        | StmtKind::ArithIf { .. }
        | StmtKind::Exit { .. }
        | StmtKind::Cycle { .. }
        | StmtKind::Stop
        | StmtKind::Return => true,
        StmtKind::Do { body, .. } | StmtKind::DoWhile { body, .. } => body.iter().any(jumping),
        StmtKind::If {
            arms, else_part, ..
        } => arms
            .iter()
            .flat_map(|a| &a.body)
            .chain(else_part.iter().flat_map(|e| &e.body))
            .any(jumping),
        StmtKind::Select { cases, .. } => cases.iter().flat_map(|c| &c.body).any(jumping),
        StmtKind::LogicalIf { stmt, .. } => jumping(stmt),
        _ => false,
    }
}

/// What a unit reaches of its array dummies (see [`Footprint`]).
impl Walk<'_, '_> {
    /// `name` is read (`write`: written) at the elements `span` gives as
    /// offsets from its first (`None`: which is not known).
    fn touch(&mut self, name: &str, write: bool, span: Option<(i64, i64)>) {
        if !write && self.reaching() {
            note(&mut self.sure_reads, name);
        }
        note(
            if write {
                &mut self.writes
            } else {
                &mut self.reads
            },
            name,
        );
        if !self.dummies.contains(name) {
            return;
        }
        let bytes = self.syms.elem_bytes(name);
        let entry = self.footprints.entry(name.to_string()).or_insert_with(|| {
            bytes.map(|bytes| Footprint {
                reads: None,
                writes: None,
                must: None,
                bytes,
            })
        });
        match (entry.as_mut(), span) {
            (Some(r), Some(span)) if write => r.writes = hull(r.writes, Some(span)),
            (Some(r), Some(span)) => r.reads = hull(r.reads, Some(span)),
            _ => *entry = None,
        }
    }

    /// Entering the body of a loop over `var` from `lower` to `upper`.
    fn enter(&mut self, var: &str, lower: &Expr, upper: &Expr) {
        let range = self
            .interval(lower)
            .zip(self.interval(upper))
            .map(|((a, b), (c, d))| (a.min(c), b.max(d)));
        self.loops.push((var.to_string(), range));
    }

    /// The offsets of the elements of array `name` its subscripts `args`
    /// (sections too) can name.
    fn element(&self, name: &str, args: &[Expr]) -> Option<(i64, i64)> {
        self.element_in(&self.loops, name, args)
    }

    /// [`Walk::element`] with the DO variables' ranges of `loops`.
    fn element_in(&self, loops: &[Bound], name: &str, args: &[Expr]) -> Option<(i64, i64)> {
        let dims = self.syms.dims(name);
        if dims.len() != args.len() || !self.dummies.contains(name) {
            return None;
        }
        let mut offset = (0i64, 0i64);
        for ((lo, stride), a) in strides(dims, self.syms)?.into_iter().zip(args) {
            let (x, y) = self.interval_in(loops, a)?;
            let (x, y) = (x.checked_sub(lo)?, y.checked_sub(lo)?);
            let (p, q) = (x.checked_mul(stride)?, y.checked_mul(stride)?);
            offset = (
                offset.0.checked_add(p.min(q))?,
                offset.1.checked_add(p.max(q))?,
            );
        }
        Some(offset)
    }

    /// The offsets of all the elements of array `name`, when its bounds
    /// are constants.
    fn whole(&self, name: &str) -> Option<(i64, i64)> {
        if !self.dummies.contains(name) {
            return None;
        }
        let mut count = 1i64;
        for d in self.syms.dims(name) {
            let lo = d
                .lower
                .as_ref()
                .map_or(Some(1), |e| fold::fold_int(e, self.syms))?;
            let hi = fold::fold_int(d.upper.as_ref()?, self.syms)?;
            count = count.checked_mul((hi - lo + 1).max(0))?;
        }
        (count > 0).then_some((0, count - 1))
    }

    /// The values an integer expression can take: constants, the DO
    /// variables of the loops around with constant bounds, and `+ - *` of
    /// them; a section's triplet, the values from its lower to its upper
    /// bound.
    fn interval(&self, e: &Expr) -> Option<(i64, i64)> {
        self.interval_in(&self.loops, e)
    }

    /// [`Walk::interval`] with the DO variables' ranges of `loops`.
    fn interval_in(&self, loops: &[Bound], e: &Expr) -> Option<(i64, i64)> {
        let interval = |e| self.interval_in(loops, e);
        match &e.kind {
            ExprKind::Var(n) => match loops.iter().rev().find(|(v, _)| v == n) {
                Some((_, range)) => *range,
                None => fold::fold_int(e, self.syms).map(|c| (c, c)),
            },
            ExprKind::Int(_) => fold::fold_int(e, self.syms).map(|c| (c, c)),
            ExprKind::Unary(UnOp::Neg, x) => {
                let (a, b) = interval(x)?;
                Some((b.checked_neg()?, a.checked_neg()?))
            }
            ExprKind::Unary(UnOp::Plus, x) => interval(x),
            ExprKind::Binary(op, x, y) => {
                let ((a, b), (c, d)) = (interval(x)?, interval(y)?);
                match op {
                    BinOp::Add => Some((a.checked_add(c)?, b.checked_add(d)?)),
                    BinOp::Sub => Some((a.checked_sub(d)?, b.checked_sub(c)?)),
                    BinOp::Mul => {
                        let p = [
                            a.checked_mul(c)?,
                            a.checked_mul(d)?,
                            b.checked_mul(c)?,
                            b.checked_mul(d)?,
                        ];
                        Some((*p.iter().min()?, *p.iter().max()?))
                    }
                    _ => None,
                }
            }
            ExprKind::Range {
                lower: Some(l),
                upper: Some(u),
                ..
            } => {
                let ((a, b), (c, d)) = (interval(l)?, interval(u)?);
                Some((a.min(c), b.max(d)))
            }
            _ => None,
        }
    }
}
