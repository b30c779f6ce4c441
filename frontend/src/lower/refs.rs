//! References to variables (`def`, `use`, `must_def`, `ref_pos`,
//! `array_ref`, `whole_array_ref`, `subscript`, `subscript_nonaffine`,
//! `subscript_use`) and calls (`call`).
//!
//! Inside a statement references are numbered in evaluation order: all
//! uses first, left to right (an array element before its subscripts,
//! then the subscripts of the assigned element), then the definitions;
//! the items of a READ list one after the other (each item's uses, then
//! its definition), as they are read.
//! PARAMETER constants, intrinsic and procedure names are not references,
//! nor are implied-DO variables inside their own lists (see [`super::io`]).
//!
//! - An intrinsic reads its arguments, except those the table of
//!   [`crate::intrinsics`] says it writes (`CALL GETARG(1, S)` defines S;
//!   one it overwrites entirely, `CALL CPU_TIME(T)`, as a `must_def`).
//!   It touches no COMMON variable (a CALL of one, MVBITS aside, is still
//!   a `call` fact: what it does besides its arguments no loop may reorder). A wrong number of
//!   arguments is an error.
//! - An actual argument of a CALL or of a non-intrinsic function that is a
//!   variable, an array element or a whole array is passed by reference: a
//!   use and a (may) definition at the same place; other arguments are
//!   evaluated (uses).
//! - An array section (`A(1:N)`, in an argument or anywhere else) is
//!   lowered as a reference to the whole array (`whole_array_ref`), plus
//!   the uses in its bounds: sound, since the section is part of it.
//! - A definition is a `must_def` when it overwrites the whole variable:
//!   an assignment or READ of a scalar or a whole array, and the DO
//!   variable (see [`super::io`] for when a READ is certain); never an
//!   element, an argument, a substring, a name that shares storage with
//!   another (see [`super::storage`]) or a Cray pointee (which may be any
//!   storage).

use kaiseki_facts::{
    ArrayRef, Call, ContainedCall, Def, ElementActual, ElementMustDef, ElementRef, FixedElement,
    HiddenRef, MustDef, MustUse, RefPos, Subscript, SubscriptNonaffine, SubscriptUse,
    SubscriptValue, Use, WholeArrayRef,
};

use super::affine::{Form, Term};
use super::arguments::{Footprint, Slot};
use super::fixed::element_term;
use super::storage::{common_places, equivalence_classes, InBlock};
use super::{Extent, Hidden, Reach, UnitLowerer};
use crate::ast::{Expr, ExprKind, Pos, IMPLIED_DO};
use crate::fold;
use crate::intrinsics::{Effect, Intrinsic};
use crate::symbols::{ApplyClass, NameClass};
use rustc_hash::FxHashSet;
use std::collections::{BTreeMap, BTreeSet};

/// How a reference touches its variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Access {
    Use,
    /// May write (part of) the variable.
    Def,
    /// Certainly overwrites all of it (when it shares storage with no other name).
    MustDef,
}

enum Shape<'e> {
    Scalar,
    Element(&'e [Expr]),
    /// The whole array or a part of it: the section as written (no
    /// subscripts: the bare name), `None` for an element of an implied DO.
    Whole(Option<&'e [Expr]>),
}

struct Ref<'e> {
    var: &'e str,
    pos: Pos,
    shape: Shape<'e>,
    /// A definition that certainly overwrites what it names: a `must_def`,
    /// or for an element an `element_must_def`; a use that the procedure
    /// it is passed to surely reads: a `must_use`.
    certain: bool,
    /// A use read for a subscript (or a section bound) of an array reference.
    subscript: bool,
    /// An element passed to a dummy that may be an array (`element_actual`).
    sequence: bool,
    /// The elements from it on (or from the array's first, for a whole
    /// array) that the procedure it is passed to may touch this way, as
    /// offsets (see [`Footprint`]).
    footprint: Option<(i64, i64)>,
    /// The procedure surely writes all of `footprint` (a definition).
    sure: bool,
}

/// The references and calls of one statement, collected in evaluation
/// order before they get ids.
#[derive(Default)]
pub(super) struct StmtRefs<'e> {
    uses: Vec<Ref<'e>>,
    defs: Vec<Ref<'e>>,
    /// Callees and where their names stand.
    pub calls: Vec<(String, Pos)>,
    /// How many array references' subscripts are being read.
    in_subscript: usize,
    /// The element being read is an actual argument whose dummy may be an array.
    sequence: bool,
    /// The scalar being read is an actual argument the procedure surely
    /// reads and never writes ([`Slot::must_use`]).
    must_use: bool,
    /// What the procedure the element or array being read is passed to
    /// may touch of it.
    footprint: Option<Footprint>,
}

impl<'a> UnitLowerer<'_, '_, 'a> {
    fn push(
        &mut self,
        r: &mut StmtRefs<'a>,
        var: &'a str,
        pos: Pos,
        shape: Shape<'a>,
        access: Access,
    ) {
        if !self.var_uses.contains_key(var) {
            self.var_uses.insert(var.to_string(), pos);
        }
        let rf = Ref {
            var,
            pos,
            certain: match access {
                Access::MustDef => self.storage.place(var).is_none() && !self.syms.is_pointee(var),
                Access::Use => r.must_use && r.in_subscript == 0 && matches!(shape, Shape::Scalar),
                Access::Def => false,
            },
            shape,
            subscript: access == Access::Use && r.in_subscript > 0,
            sequence: r.sequence && r.in_subscript == 0,
            footprint: r
                .footprint
                .filter(|_| r.in_subscript == 0)
                .and_then(|x| match access {
                    Access::Use => x.reads,
                    Access::Def | Access::MustDef => x.writes,
                }),
            sure: access != Access::Use
                && r.in_subscript == 0
                && r.footprint.is_some_and(|x| {
                    matches!((x.writes, x.must), (Some((a, b)), Some((c, d))) if c <= a && b <= d)
                }),
        };
        match access {
            Access::Use => r.uses.push(rf),
            Access::Def | Access::MustDef => r.defs.push(rf),
        }
    }

    /// A bare name: a scalar, a whole array, or nothing (constant, procedure).
    pub(super) fn name_ref(
        &mut self,
        r: &mut StmtRefs<'a>,
        name: &'a str,
        pos: Pos,
        access: Access,
    ) {
        if self.implied.contains(&name) {
            return;
        }
        let class = self.syms.classify_name(name);
        match class {
            NameClass::Constant | NameClass::Procedure => {
                if access != Access::Use {
                    self.error(
                        pos,
                        format!("`{name}` is not a variable and cannot be assigned"),
                    );
                }
            }
            NameClass::Array => self.push(r, name, pos, Shape::Whole(Some(&[])), access),
            NameClass::Scalar => self.push(r, name, pos, Shape::Scalar, access),
        }
    }

    /// The uses of evaluating `e`.
    pub(super) fn read(&mut self, r: &mut StmtRefs<'a>, e: &'a Expr) {
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Real(_) | ExprKind::Logical(_) | ExprKind::Str(_) => {}
            ExprKind::Var(name) => self.name_ref(r, name, e.pos, Access::Use),
            ExprKind::Apply { name, args } if name == IMPLIED_DO => self.implied_do(r, args),
            ExprKind::Apply { name, args } => match self.syms.classify_apply(name, args) {
                ApplyClass::Element => self.element(r, e.pos, name, args, &[Access::Use]),
                ApplyClass::Substring => {
                    self.name_ref(r, name, e.pos, Access::Use);
                    args.iter().for_each(|a| self.read(r, a));
                }
                ApplyClass::Intrinsic(row) => self.intrinsic_args(r, row, e.pos, args),
                ApplyClass::Function => {
                    self.fn_uses.entry(name.clone()).or_insert(e.pos);
                    r.calls.push((name.clone(), e.pos));
                    self.actuals(r, name, args);
                }
                ApplyClass::StatementFunction => {
                    args.iter().for_each(|a| self.read(r, a));
                    self.stmt_function_uses(r, name, e.pos, 0);
                }
            },
            ExprKind::Range {
                lower,
                upper,
                stride,
            } => {
                for part in [lower, upper, stride].into_iter().flatten() {
                    self.read(r, part);
                }
            }
            ExprKind::Unary(_, x) => self.read(r, x),
            ExprKind::Binary(_, a, b) => {
                self.read(r, a);
                self.read(r, b);
            }
        }
    }

    /// The uses of an implied DO of an array constructor (see
    /// [`IMPLIED_DO`]): its bounds, then its items, where an element whose
    /// subscripts use the variable is the whole array. The variable is the
    /// implied DO's own: no reference to the unit's variable of that name.
    fn implied_do(&mut self, r: &mut StmtRefs<'a>, args: &'a [Expr]) {
        let (ExprKind::Var(var), Some(bounds), Some(items)) =
            (&args[0].kind, args.get(1..4), args.get(4..))
        else {
            unreachable!("the parser builds implied DOs as `[var, lower, upper, step, items..]`")
        };
        bounds.iter().for_each(|b| self.read(r, b));
        self.implied.push(var);
        items.iter().for_each(|i| self.read(r, i));
        self.implied.pop();
    }

    /// The references of assigning to `e` (an assignment's left side or a
    /// READ item): the uses in its subscripts, then its definition.
    pub(super) fn write(&mut self, r: &mut StmtRefs<'a>, e: &'a Expr, whole: bool) {
        let must = if whole { Access::MustDef } else { Access::Def };
        match &e.kind {
            ExprKind::Var(name) => self.name_ref(r, name, e.pos, must),
            ExprKind::Apply { name, args } => match self.syms.classify_apply(name, args) {
                ApplyClass::Element => self.element(r, e.pos, name, args, &[must]),
                ApplyClass::Substring => {
                    args.iter().for_each(|a| self.read(r, a));
                    self.name_ref(r, name, e.pos, Access::Def);
                }
                ApplyClass::Intrinsic(_) | ApplyClass::Function | ApplyClass::StatementFunction => {
                    self.error(
                        e.pos,
                        format!("`{name}` is not an array and cannot be assigned"),
                    );
                    args.iter().for_each(|a| self.read(r, a));
                }
            },
            _ => {
                self.error(e.pos, "this expression cannot be assigned".to_string());
                self.read(r, e);
            }
        }
    }

    /// The actual arguments of a call of procedure `callee`: each passed
    /// by reference as the procedure may use it (see [`super::arguments`]).
    pub(super) fn actuals(&mut self, r: &mut StmtRefs<'a>, callee: &str, args: &'a [Expr]) {
        for (index, a) in args.iter().enumerate() {
            let keyword = self.unit.keywords.get(&a.pos).map(String::as_str);
            let slot = self.effects.slot(callee, index, keyword);
            self.arg(r, a, slot);
        }
    }

    /// An actual argument: variables, elements and whole arrays are passed
    /// by reference (a use where `slot` reads, a definition where it
    /// writes), other expressions evaluated.
    pub(super) fn arg(&mut self, r: &mut StmtRefs<'a>, e: &'a Expr, slot: Slot) {
        let accesses: &[Access] = match (slot.reads, slot.writes) {
            (true, true) => &[Access::Use, Access::Def],
            (false, true) => &[Access::Def],
            (true, false) => &[Access::Use],
            (false, false) => &[],
        };
        match &e.kind {
            ExprKind::Var(name) => {
                // A constant or a procedure passed along is no reference.
                if matches!(
                    self.syms.classify_name(name),
                    NameClass::Scalar | NameClass::Array
                ) {
                    r.footprint = self.footprint_of(name, slot);
                    r.must_use = slot.must_use();
                    // A whole array the procedure surely writes all of is
                    // overwritten, as by an assignment to its name.
                    let whole = r.footprint.is_some_and(|f| self.writes_whole(name, f));
                    for &a in accesses {
                        let a = if a == Access::Def && whole {
                            Access::MustDef
                        } else {
                            a
                        };
                        self.name_ref(r, name, e.pos, a);
                    }
                    r.footprint = None;
                    r.must_use = false;
                }
            }
            ExprKind::Apply { name, args }
                if self.syms.classify_apply(name, args) == ApplyClass::Element =>
            {
                r.sequence = slot.array;
                r.footprint = self.footprint_of(name, slot);
                self.element(r, e.pos, name, args, accesses);
                r.sequence = false;
                r.footprint = None;
            }
            ExprKind::Apply { name, args }
                if self.syms.classify_apply(name, args) == ApplyClass::Substring =>
            {
                if slot.reads {
                    self.name_ref(r, name, e.pos, Access::Use);
                }
                args.iter().for_each(|a| self.read(r, a));
                if slot.writes {
                    self.name_ref(r, name, e.pos, Access::Def);
                }
            }
            _ => self.read(r, e),
        }
    }

    /// The references of calling intrinsic `row` (whose name stands at
    /// `pos`) with `args`, by what it does to each.
    pub(super) fn intrinsic_args(
        &mut self,
        r: &mut StmtRefs<'a>,
        row: &'static Intrinsic,
        pos: Pos,
        args: &'a [Expr],
    ) {
        if !row.takes(args.len()) {
            self.error(
                pos,
                format!(
                    "intrinsic `{}` takes {}, not {}",
                    row.name,
                    row.arity_text(),
                    args.len()
                ),
            );
        }
        self.fn_uses.entry(row.name.to_string()).or_insert(pos);
        for (i, a) in args.iter().enumerate() {
            match row.effect(i) {
                Effect::Read => self.read(r, a),
                Effect::Write => self.write(r, a, true),
                Effect::MayWrite => self.write(r, a, false),
                Effect::Update => self.arg(r, a, Slot::ANY),
            }
        }
    }

    /// What evaluating statement function `name` reads besides its
    /// arguments: the unit's variables in its body, as uses at the call
    /// (`pos`); array elements there are whole-array uses, since their
    /// subscripts are in the dummies.
    fn stmt_function_uses(&mut self, r: &mut StmtRefs<'a>, name: &'a str, pos: Pos, depth: usize) {
        let syms = self.syms;
        let Some(f) = syms.stmt_function(name) else {
            return;
        };
        // A definition cannot refer to itself; the bound only stops bad input.
        if depth > 16 {
            return;
        }
        let mut stack: Vec<&'a Expr> = vec![f.body];
        while let Some(e) = stack.pop() {
            match &e.kind {
                ExprKind::Var(v) if !f.dummies.contains(v) => self.name_ref(r, v, pos, Access::Use),
                ExprKind::Apply { name: callee, args } => {
                    match syms.classify_apply(callee, args) {
                        ApplyClass::Element | ApplyClass::Substring => {
                            self.name_ref(r, callee, pos, Access::Use)
                        }
                        ApplyClass::StatementFunction => {
                            self.stmt_function_uses(r, callee, pos, depth + 1)
                        }
                        ApplyClass::Function => {
                            self.fn_uses.entry(callee.clone()).or_insert(pos);
                            r.calls.push((callee.clone(), pos));
                        }
                        ApplyClass::Intrinsic(_) => {}
                    }
                    stack.extend(args.iter().rev());
                }
                ExprKind::Range {
                    lower,
                    upper,
                    stride,
                } => stack.extend([stride, upper, lower].into_iter().flatten().map(|b| &**b)),
                ExprKind::Unary(_, x) => stack.push(x),
                ExprKind::Binary(_, a, b) => stack.extend([&**b, &**a]),
                _ => {}
            }
        }
    }

    /// `A(subscripts)`: one reference per access, then the subscripts' uses.
    /// A section (some subscript is `lo:hi`), or an element of an implied
    /// DO whose subscripts use its variables, references the whole array.
    fn element(
        &mut self,
        r: &mut StmtRefs<'a>,
        pos: Pos,
        name: &'a str,
        args: &'a [Expr],
        accesses: &[Access],
    ) {
        let range = args
            .iter()
            .any(|a| matches!(a.kind, ExprKind::Range { .. }));
        let section = range || args.iter().any(|a| mentions(a, &self.implied));
        let rank = self.syms.rank(name);
        if !range && rank != args.len() {
            self.error(
                pos,
                format!(
                    "`{name}` has rank {rank} but is referenced with {} subscript(s)",
                    args.len()
                ),
            );
        }
        let mut accesses = accesses.iter().copied();
        if let Some(first) = accesses.next() {
            let shape = if range {
                Shape::Whole(Some(args))
            } else if section {
                Shape::Whole(None)
            } else {
                Shape::Element(args)
            };
            self.push(r, name, pos, shape, first);
        }
        r.in_subscript += 1;
        args.iter().for_each(|a| self.read(r, a));
        r.in_subscript -= 1;
        for access in accesses {
            let shape = if range {
                Shape::Whole(Some(args))
            } else if section {
                Shape::Whole(None)
            } else {
                Shape::Element(args)
            };
            self.push(r, name, pos, shape, access);
        }
    }

    /// Gives the collected references ids (uses, then definitions) and
    /// emits their facts; a call's references are hidden ones, added at
    /// the END (see [`Self::hidden_refs`]).
    pub(super) fn emit_refs(&mut self, stmt: i64, r: StmtRefs<'a>) {
        let StmtRefs {
            uses, defs, calls, ..
        } = r;
        // No diagnostic comes from the references' rows (see
        // [`super::lower_diagnostics`]), only from a call's hidden ones.
        if self.g.extent == Extent::Facts {
            self.ref_rows(stmt, uses, defs, calls.is_empty());
        }
        if let Some(&(_, pos)) = calls.first() {
            let callees = calls.iter().map(|(c, _)| c.clone()).collect();
            self.hidden.push(Hidden {
                stmt,
                pos,
                reach: Reach::Calls(callees),
            });
        }
        for (callee, _) in calls {
            self.g.facts.call.push(Call { stmt, callee });
        }
    }

    /// The facts of a statement's references, numbered in turn; an
    /// element's may make it an `element_ref` unless the statement calls.
    fn ref_rows(&mut self, stmt: i64, uses: Vec<Ref<'a>>, defs: Vec<Ref<'a>>, no_calls: bool) {
        let n = uses.len();
        for (i, rf) in uses.into_iter().chain(defs).enumerate() {
            let id = self.g.next_ref;
            self.g.next_ref += 1;
            let var = rf.var;
            let facts = &mut self.g.facts;
            if i < n {
                facts.r#use.push(Use {
                    r#ref: id,
                    stmt,
                    var: var.to_string(),
                });
                if rf.subscript {
                    facts.subscript_use.push(SubscriptUse { r#ref: id });
                }
                if rf.certain {
                    facts.must_use.push(MustUse { r#ref: id });
                }
            } else {
                facts.def.push(Def {
                    r#ref: id,
                    stmt,
                    var: var.to_string(),
                });
                // A section assigned is only part of the array.
                let whole = match rf.shape {
                    Shape::Scalar => true,
                    Shape::Whole(Some(args)) => args.is_empty(),
                    Shape::Whole(None) | Shape::Element(_) => false,
                };
                if rf.certain && whole {
                    facts.must_def.push(MustDef { r#ref: id });
                }
            }
            facts.ref_pos.push(RefPos {
                r#ref: id,
                line: rf.pos.line as i64,
                col: rf.pos.col as i64,
            });
            match rf.shape {
                Shape::Scalar => self.storage_ref(id, var, Some(&[])),
                Shape::Whole(section) => {
                    facts.whole_array_ref.push(WholeArrayRef {
                        r#ref: id,
                        array: var.to_string(),
                    });
                    if let Some(args) = section {
                        self.section_dims(id, var, args);
                        match rf.footprint {
                            Some(span) if args.is_empty() => {
                                self.footprint_forms(id, var, &[], span, rf.sure)
                            }
                            _ => self.section_forms(id, var, args),
                        }
                    }
                    self.storage_ref(id, var, None);
                }
                Shape::Element(subs) => {
                    facts.array_ref.push(ArrayRef {
                        r#ref: id,
                        array: var.to_string(),
                        rank: subs.len() as i64,
                    });
                    if rf.sequence {
                        facts.element_actual.push(ElementActual { r#ref: id });
                    }
                    let forms = self.subscripts(id, subs);
                    if let Some(at) = self.fixed_subscripts(var, subs).filter(|_| i < n) {
                        self.g.facts.fixed_element.push(FixedElement {
                            r#ref: id,
                            element: element_term(var, &at),
                        });
                    }
                    if let Some(span) = rf.footprint.filter(|_| rf.sequence) {
                        self.footprint_forms(id, var, subs, span, rf.sure);
                    }
                    if let Some(forms) = forms.filter(|_| no_calls) {
                        self.element_candidates.push(ElementCandidate {
                            r#ref: id,
                            array: var.to_string(),
                            forms,
                            certain: i >= n && rf.certain,
                        });
                    }
                    self.storage_ref(id, var, Some(subs));
                }
            }
            self.stmt_refs
                .entry(stmt)
                .or_default()
                .push((id, var.to_string()));
        }
    }

    /// The references a statement makes without naming them, at `pos`: a
    /// called procedure may read the unit's COMMON members that overlap
    /// what it (or what it calls) may read, and write those that overlap
    /// what it may write (see [`super::effects`]); all of them when that is
    /// unknown. An opaque statement may read and write any variable of the
    /// unit. They are a use and a may-definition at `pos` (the callee's
    /// name), even of a variable the statement names elsewhere: `CALL
    /// S(A(K))` uses K in the subscript before S reads and writes the K of
    /// its COMMON. Run once the unit's `var` rows exist.
    pub(super) fn hidden_refs(&mut self) {
        if self.hidden.is_empty() {
            return;
        }
        let all: Vec<(String, bool)> = self
            .g
            .facts
            .var
            .iter()
            .filter(|v| v.unit == self.name)
            .map(|v| (v.var.clone(), v.rank > 0))
            .collect();
        // The COMMON members and the names EQUIVALENCEd into the blocks,
        // which may reach past the members' bytes: such a name is stood for
        // by the first member of its EQUIVALENCE class (a whole reference
        // to it is one to their storage object).
        let places = common_places(self.unit, self.syms, &self.storage);
        let members: Vec<&str> = self
            .commons
            .values()
            .flatten()
            .map(String::as_str)
            .collect();
        let classes = equivalence_classes(self.unit);
        let stand_in = |name: &'_ str| -> String {
            let class = classes.get(name);
            let first = members
                .iter()
                .find(|m| **m == name || class.is_some_and(|c| classes.get(**m) == Some(c)));
            first.map_or(name, |m| *m).to_string()
        };
        let places: Vec<(String, &InBlock)> =
            places.iter().map(|(n, p)| (stand_in(n), p)).collect();
        // (statement, index in `all`, definition?) of each reference.
        let mut plan: Vec<(usize, usize, bool)> = Vec::new();
        // The runtime routines taken to be the library's, where first called.
        let mut runtime: BTreeMap<&str, Pos> = BTreeMap::new();
        // The calls whose hidden references show all they touch.
        let mut contained: Vec<(i64, String)> = Vec::new();
        for (i, h) in self.hidden.iter().enumerate() {
            // What the statement may read and write.
            let mut reached: [BTreeSet<&str>; 2] = Default::default();
            match &h.reach {
                Reach::Everything => {
                    for set in &mut reached {
                        set.extend(all.iter().map(|(v, _)| v.as_str()));
                    }
                }
                Reach::Calls(callees) => {
                    for callee in callees {
                        if self.effects.is_runtime_routine(callee) {
                            runtime.entry(callee).or_insert(h.pos);
                        }
                        let touch = self.effects.touch(callee);
                        if self.effects.self_contained(callee)
                            && touch.is_some_and(|t| t.seen_by(places.iter().map(|p| p.1)))
                        {
                            contained.push((h.stmt, callee.clone()));
                        }
                        for (m, p) in &places {
                            let [reads, writes] = &mut reached;
                            if touch.is_none_or(|t| t.reads.touches(&p.block, p.bytes)) {
                                reads.insert(m);
                            }
                            if touch.is_none_or(|t| t.writes.touches(&p.block, p.bytes)) {
                                writes.insert(m);
                            }
                        }
                    }
                }
            }
            for def in [false, true] {
                let set = &reached[usize::from(def)];
                for (v, (var, _)) in all.iter().enumerate() {
                    if set.contains(var.as_str()) {
                        plan.push((i, v, def));
                    }
                }
            }
        }
        let runtime: Vec<(String, Pos)> = runtime
            .into_iter()
            .map(|(name, pos)| (name.to_string(), pos))
            .collect();
        for (name, pos) in runtime {
            self.warning(
                pos,
                format!(
                    "{name} is EXTERNAL and no unit of the program: taken to be the GNU runtime \
                     routine, which touches its arguments and no COMMON block (define {name} \
                     in the program to have its own effects analyzed)"
                ),
            );
        }
        for (stmt, callee) in contained {
            self.g
                .facts
                .contained_call
                .push(ContainedCall { stmt, callee });
        }
        let hidden = std::mem::take(&mut self.hidden);
        for (i, v, def) in plan {
            let (var, array) = &all[v];
            self.hidden_ref(hidden[i].stmt, var, *array, hidden[i].pos, def);
        }
    }

    fn hidden_ref(&mut self, stmt: i64, var: &str, array: bool, pos: Pos, def: bool) {
        let id = self.g.next_ref;
        self.g.next_ref += 1;
        let facts = &mut self.g.facts;
        facts.hidden_ref.push(HiddenRef { r#ref: id });
        let var_s = var.to_string();
        if def {
            facts.def.push(Def {
                r#ref: id,
                stmt,
                var: var_s.clone(),
            });
        } else {
            facts.r#use.push(Use {
                r#ref: id,
                stmt,
                var: var_s.clone(),
            });
        }
        facts.ref_pos.push(RefPos {
            r#ref: id,
            line: pos.line as i64,
            col: pos.col as i64,
        });
        if array {
            facts.whole_array_ref.push(WholeArrayRef {
                r#ref: id,
                array: var_s.clone(),
            });
        }
        self.storage_ref(id, var, None);
        self.stmt_refs.entry(stmt).or_default().push((id, var_s));
    }

    /// The `element_ref` rows of the unit, once its definitions are known:
    /// an element of a name that shares storage with no other name, each
    /// subscript a constant or an affine form of INTEGER scalars the unit
    /// never defines (one value all through it). Its dataflow facts are the
    /// element's (`A(K+1)`); two elements whose subscripts differ only in
    /// their constants (one `class`, `K;` here) never meet.
    pub(super) fn element_refs(&mut self) {
        let defined: FxHashSet<String> = self.g.facts.def[self.first_def_row..]
            .iter()
            .map(|d| self.storage.storage_of(&d.var).to_string())
            .collect();
        let invariant = |f: &Form| {
            f.terms.keys().all(|t| match t {
                Term::Loop(_) => false,
                Term::Var(v) => {
                    !defined.contains(self.storage.storage_of(v))
                        && self.storage.place(v).is_none()
                        && !self.syms.is_pointee(v)
                }
            })
        };
        let candidates: Vec<ElementCandidate> = std::mem::take(&mut self.element_candidates)
            .into_iter()
            .filter(|c| {
                self.storage.place(&c.array).is_none()
                    && !self.syms.is_pointee(&c.array)
                    && c.forms.iter().all(invariant)
            })
            .collect();
        for c in candidates {
            let dims: Vec<String> = c.forms.iter().map(form_text).collect();
            let element = format!("{}({})", c.array, dims.join(","));
            let class: String = c.forms.iter().map(|f| terms_text(f) + ";").collect();
            let facts = &mut self.g.facts;
            facts.element_ref.push(ElementRef {
                r#ref: c.r#ref,
                element: element.clone(),
                class: class.clone(),
            });
            if c.certain {
                facts
                    .element_must_def
                    .push(ElementMustDef { r#ref: c.r#ref });
            }
            self.element_of.insert(c.r#ref, (element, class));
        }
    }

    /// The `subscript` rows of element reference `r`; its subscripts'
    /// affine forms when all have one.
    fn subscripts(&mut self, r: i64, subs: &[Expr]) -> Option<Vec<Form>> {
        let mut forms = Some(Vec::new());
        for (d, e) in subs.iter().enumerate() {
            let dim = d as i64 + 1;
            let form = self.affine(e);
            forms = forms.and_then(|mut fs| {
                fs.push(form.clone()?);
                Some(fs)
            });
            match form {
                Some(f) => {
                    let valued = self.affine_valued(e).filter(|v| *v != f);
                    let form = self.emit_form(&f);
                    self.g.facts.subscript.push(Subscript {
                        r#ref: r,
                        dim,
                        form,
                    });
                    if let Some(v) = valued {
                        let form = self.emit_form(&v);
                        self.g.facts.subscript_value.push(SubscriptValue {
                            r#ref: r,
                            dim,
                            form,
                        });
                    }
                }
                None => {
                    let text = fold::text(e, self.syms);
                    self.g.facts.subscript_nonaffine.push(SubscriptNonaffine {
                        r#ref: r,
                        dim,
                        text,
                    });
                }
            }
        }
        forms
    }
}

/// An element reference whose subscripts are affine, in a statement that
/// calls nothing: an `element_ref` if its terms are invariant in the unit.
pub(super) struct ElementCandidate {
    r#ref: i64,
    array: String,
    forms: Vec<Form>,
    certain: bool,
}

/// `K+1`, `2*K-I`, `5`: a subscript's form as element names show it.
fn form_text(f: &Form) -> String {
    let mut text = terms_text(f);
    if f.constant != 0 || text.is_empty() {
        if f.constant >= 0 && !text.is_empty() {
            text.push('+');
        }
        text.push_str(&f.constant.to_string());
    }
    text
}

/// The terms of a form without its constant: what a class of elements shares.
fn terms_text(f: &Form) -> String {
    let mut text = String::new();
    for (t, c) in &f.terms {
        let name = match t {
            Term::Var(v) => v.as_str(),
            Term::Loop(_) => "?",
        };
        match *c {
            1 if text.is_empty() => {}
            1 => text.push('+'),
            -1 => text.push('-'),
            c if c > 0 && !text.is_empty() => text.push_str(&format!("+{c}*")),
            c => text.push_str(&format!("{c}*")),
        }
        text.push_str(name);
    }
    text
}

/// Whether `e` reads one of `names` as a bare name.
fn mentions(e: &Expr, names: &[&str]) -> bool {
    e.any_name(&mut |n, applied| !applied && names.contains(&n))
}

impl<'a> UnitLowerer<'_, '_, 'a> {
    /// `lhs = rhs`: the uses of the right side, the subscripts of the left,
    /// the definition; `assign_affine` when an INTEGER scalar gets an affine value.
    pub(super) fn assignment(&mut self, stmt: i64, lhs: &'a Expr, rhs: &'a Expr) {
        let mut r = StmtRefs::default();
        self.read(&mut r, rhs);
        self.write(&mut r, lhs, true);
        let first = self.g.next_ref;
        self.emit_refs(stmt, r);
        // The rest is facts no diagnostic comes from (see
        // [`super::lower_diagnostics`]).
        if self.g.extent != Extent::Facts {
            return;
        }
        self.assign_tree(stmt, first, rhs);
        self.reduction_shapes(stmt, lhs, rhs);
        self.array_assign(stmt, lhs, rhs);
        let ExprKind::Var(name) = &lhs.kind else {
            return;
        };
        if self.syms.classify_name(name) != NameClass::Scalar || !self.syms.is_integer_scalar(name)
        {
            return;
        }
        if let Some(f) = self.affine(rhs) {
            let form = self.emit_form(&f);
            self.g
                .facts
                .assign_affine
                .push(kaiseki_facts::AssignAffine { stmt, form });
        }
    }
}
