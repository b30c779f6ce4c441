//! Lowering: the syntax tree ([`crate::ast::Program`]) -> the fact base
//! ([`kaiseki_facts::FactBase`]) that the rules read.
//!
//! One walk over every unit in program order numbers the statements (one
//! counter over all units, source order, from 1), references and affine
//! forms (one counter each), and emits the facts of each statement as it
//! goes; what needs the whole unit (GOTO targets, basic blocks, `var`
//! rows) is finished at the unit's END. Each module lowers one family of
//! relations:
//!
//! - [`cfg`]: statements, labels, CFG edges, entries and exits;
//! - [`blocks`]: basic blocks and `ref_next` inside them;
//! - [`seg`]: each variable's sparse evaluation graph, over which dataflow
//!   goes from one block that can change its facts to the next;
//! - [`loops`]: DO and DO WHILE loops, bounds, trip counts;
//! - [`refs`]: `def`/`use`, array references and subscripts, calls;
//! - [`io`]: READ, WRITE and PRINT;
//! - [`effects`]: the COMMON blocks a call may touch;
//! - [`affine`]: affine forms of subscripts, bounds and assignments;
//! - [`fixed`]: elements of COMMON and module arrays nothing in the unit
//!   changes, terms of affine forms;
//! - [`values`]: the affine values integer scalars hold in a straight run;
//! - [`reductions`]: the statement shapes reductions are made of;
//! - [`decls`]: declarations (`var`, `array_dim`, `param`, `common`, ...);
//! - [`storage`]: storage association (`storage`, `storage_ref`, `storage_address`);
//! - [`hpf`]: HPF directives.
//!
//! An EXTRINSIC(HPF_LOCAL) unit (or any other local model) is parsed but
//! not lowered: its body is not the global program the analyses model.
//!
//! Lowering never fails: problems become diagnostics (errors for invalid
//! programs, warnings for valid ones it cannot model) and the rest of the
//! program is still lowered.

mod affine;
mod arguments;
mod array_syntax;
mod blocks;
mod cfg;
mod decls;
mod domain;
mod effects;
mod fixed;
mod footprint;
mod guards;
mod hpf;
mod io;
mod loops;
mod ops;
mod reductions;
mod refs;
mod seg;
mod storage;
mod values;

use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::BTreeMap;

use kaiseki_facts::FactBase;

use crate::ast::{Expr, Pos, Program, Unit, UnitKind};
use crate::diagnostics::{Diagnostic, Severity};
use crate::symbols::Symbols;
pub use effects::CallEffects;

/// Lowers every unit of `program` to facts (normalized: sorted, deduplicated).
pub fn lower(program: &Program) -> (FactBase, Vec<Diagnostic>) {
    let (facts, diags, _) = lower_units(
        program,
        &CallEffects::of(program),
        |_| true,
        NextIds::default(),
    );
    (facts, diags.into_iter().map(|(_, d)| d).collect())
}

/// The diagnostics of lowering `program` (the same as [`lower`]'s, in the
/// same order) and the number of its statements, for `kaiseki check`: no
/// diagnostic comes from the rows of the references a statement names, the
/// facts of its assignment (affine forms, operation trees, reduction
/// shapes, array assignments), nor from a unit's basic blocks, sparse
/// evaluation graphs or element references, so they are not built (on a
/// large program, nearly half of the lowering), nor are the facts put in
/// order.
pub fn lower_diagnostics(program: &Program) -> (usize, Vec<Diagnostic>) {
    let mut g = Global::new(program, NextIds::default(), Extent::Diagnostics);
    g.lower_units(&CallEffects::of(program), |_| true);
    (
        g.facts.stmt.len(),
        g.diags.into_iter().map(|(_, d)| d).collect(),
    )
}

/// The next id of each counter: statements (loops and blocks are
/// statement ids), references and affine forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NextIds {
    pub stmt: i64,
    pub r#ref: i64,
    pub form: i64,
}

impl Default for NextIds {
    /// The first ids of a program.
    fn default() -> Self {
        NextIds {
            stmt: 1,
            r#ref: 1,
            form: 1,
        }
    }
}

/// Lowers the units of `program` whose index `keep` accepts, numbering
/// from `first`; returns the diagnostics, each with the index of its unit
/// (groups lowered in another order can put them back in program order),
/// and the ids that come next. The others still
/// count as procedures (a reference to one is a call, not an array
/// element). Every analysis is local to a unit, so groups of units can be
/// analyzed apart; `effects` (of the whole program) say what their calls
/// may touch. Groups lowered in program order, each from the ids the
/// previous one returned, are numbered as the whole program is.
pub fn lower_units(
    program: &Program,
    effects: &CallEffects,
    keep: impl Fn(usize) -> bool,
    first: NextIds,
) -> (FactBase, Vec<(usize, Diagnostic)>, NextIds) {
    let mut g = Global::new(program, first, Extent::Facts);
    g.lower_units(effects, keep);
    seg::sort_seg_edges(&mut g.facts.seg_edge);
    g.facts.normalize();
    let next = NextIds {
        stmt: g.next_stmt,
        r#ref: g.next_ref,
        form: g.next_form,
    };
    (g.facts, g.diags, next)
}

/// What a lowering builds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Extent {
    /// Every fact.
    Facts,
    /// What the diagnostics and the statements need (see
    /// [`lower_diagnostics`]).
    Diagnostics,
}

/// What lives across units: the facts, the diagnostics and the id counters.
struct Global<'p> {
    program: &'p Program,
    extent: Extent,
    facts: FactBase,
    /// Each with the index of its unit.
    diags: Vec<(usize, Diagnostic)>,
    /// The index of the unit being lowered.
    unit: usize,
    next_stmt: i64,
    next_ref: i64,
    next_form: i64,
}

impl<'p> Global<'p> {
    fn new(program: &'p Program, first: NextIds, extent: Extent) -> Self {
        Global {
            program,
            extent,
            facts: FactBase::default(),
            diags: Vec::new(),
            unit: 0,
            next_stmt: first.stmt,
            next_ref: first.r#ref,
            next_form: first.form,
        }
    }

    /// Lowers the units of the program whose index `keep` accepts (see
    /// [`lower_units`]).
    fn lower_units(&mut self, effects: &CallEffects, keep: impl Fn(usize) -> bool) {
        let program = self.program;
        let unit_names: FxHashSet<&str> = program.procedure_names();
        for (index, unit) in program.units.iter().enumerate().filter(|(i, _)| keep(*i)) {
            self.unit = index;
            if let Some(model) = &unit.extrinsic_local {
                self.report(
                    Severity::Warning,
                    unit.name.pos,
                    format!(
                        "EXTRINSIC({model}) procedure `{}` is not analyzed: its body works on each processor's part of the arrays; calls to it are calls to an unknown procedure",
                        unit.name.text
                    ),
                );
                continue;
            }
            let (syms, problems) = Symbols::build(unit, &unit_names);
            for (pos, msg) in problems {
                self.report(Severity::Error, pos, msg);
            }
            // A module's variables and constants are lowered in the units
            // that see them (see `crate::scopes`); it has no statements.
            if unit.kind == UnitKind::Module {
                continue;
            }
            UnitLowerer::new(self, unit, &syms, effects).run();
        }
    }

    fn report(&mut self, severity: Severity, pos: Pos, message: String) {
        let file = self.program.files.get(pos.file);
        let source_line =
            file.and_then(|f| f.lines.get((pos.line as usize).checked_sub(1)?).cloned());
        let diag = Diagnostic {
            severity,
            path: file.map(|f| f.path.clone()).unwrap_or_default(),
            line: pos.line,
            col: pos.col,
            message,
            source_line,
        };
        self.diags.push((self.unit, diag));
    }

    fn path(&self, pos: Pos) -> String {
        self.program
            .files
            .get(pos.file)
            .map(|f| f.path.clone())
            .unwrap_or_default()
    }
}

/// The least and greatest values of a DO variable or form, each when
/// known.
type Range = (Option<i64>, Option<i64>);

/// A loop enclosing the statement being lowered.
struct LoopFrame {
    id: i64,
    /// The DO variable (`None` for DO WHILE).
    var: Option<String>,
    /// The least and greatest values the DO variable takes in the body,
    /// each when its bounds give it (see [`loops`]).
    range: Range,
    /// The bounds and the constant step of a DO loop, for the points of
    /// its iteration domain (see [`domain`]).
    bounds: Option<(Expr, Expr, i64)>,
    /// The construct name (`OUTER: DO ...`).
    construct: Option<String>,
    /// The EXIT statements that leave this loop (they go where the loop
    /// goes on) and the CYCLE statements that go to its end, wired when
    /// the loop's end is numbered.
    exits: Vec<i64>,
    cycles: Vec<i64>,
}

/// The state of lowering one unit.
/// A statement with references it does not spell (see [`refs::hidden_refs`]).
struct Hidden {
    stmt: i64,
    pos: Pos,
    reach: Reach,
}

/// The variables a statement may touch without naming them.
enum Reach {
    /// Every variable of the unit (an opaque statement).
    Everything,
    /// What these procedures may touch (see [`effects`]): the unit's
    /// members of COMMON blocks.
    Calls(Vec<String>),
}

struct UnitLowerer<'g, 'p, 'a> {
    g: &'g mut Global<'p>,
    unit: &'a Unit,
    syms: &'a Symbols<'a>,
    effects: &'a CallEffects,
    name: String,
    /// Declarations not yet numbered, in source order (see [`decls`]).
    pending_decls: std::collections::VecDeque<&'a crate::ast::Decl>,
    loops: Vec<LoopFrame>,
    /// Executable statements in id order.
    exec: Vec<i64>,
    edges: Vec<(i64, i64)>,
    /// Logical IFs whose condition always holds, with the first statement
    /// of their THEN part: every other edge out of them is one no run
    /// takes (`never_edge`, added once the edges are all known).
    always_then: FxHashMap<i64, i64>,
    /// The affine values integer scalars hold at the statement being
    /// lowered (see [`values`]).
    values: FxHashMap<String, affine::Form>,
    /// The arrays whose elements at constant subscripts are terms of
    /// affine forms (see [`fixed`]).
    fixed: FxHashSet<String>,
    /// DO loops whose bounds give at most one iteration for every value
    /// of the DO variables around, though not always the same count: they
    /// carry nothing (`iteration_last` 0 for their statements).
    at_most_one_trip: FxHashSet<i64>,
    /// By DO loop still open, the statements that run in some iteration
    /// of every run of it and in its last one (see
    /// [`UnitLowerer::note_certain`]).
    certain: FxHashMap<i64, Vec<(i64, bool, bool)>>,
    /// Label -> (statement, executable?).
    labels: FxHashMap<u32, (i64, bool)>,
    /// Branches to labels, resolved at the END: (from, label, where).
    gotos: Vec<(i64, u32, Pos)>,
    returns: Vec<i64>,
    /// References of each statement in id order: (ref, var).
    stmt_refs: FxHashMap<i64, Vec<(i64, String)>>,
    /// The element each `element_ref` touches (`A(5)`) and its class, by reference.
    element_of: FxHashMap<i64, (String, String)>,
    /// Element references that may be `element_ref`s (see `element_refs`).
    element_candidates: Vec<refs::ElementCandidate>,
    /// Statements that may touch variables they do not name: a call (the
    /// unit's COMMON variables) and an opaque statement (every variable).
    hidden: Vec<Hidden>,
    /// Opaque statements, whose possible jumps are wired at the END.
    opaque: Vec<(i64, Vec<i64>)>,
    /// First place each name was referenced as a variable / called as a function.
    var_uses: BTreeMap<String, Pos>,
    fn_uses: BTreeMap<String, Pos>,
    /// Names declared as variables (type statements, COMMON, DIMENSION, ...).
    declared_vars: BTreeMap<String, Pos>,
    /// Names given in SAVE statements; `save_all` for an empty SAVE.
    saves: Vec<String>,
    save_all: bool,
    /// COMMON block -> members in order.
    commons: BTreeMap<String, Vec<String>>,
    equivalence_groups: i64,
    /// The names that share storage and where.
    storage: storage::Layout,
    /// The unit's templates and remapped names (see [`hpf`]).
    hpf_maps: hpf::Mappings,
    /// The min/max test whose THEN part is being lowered (see [`reductions`]).
    guard: Option<i64>,
    /// Where the unit's `loop`, `loop_stmt` and `loop_end` rows start in
    /// the facts (see [`seg`]).
    first_loop_rows: [usize; 3],
    /// Where the unit's `def` rows start (see [`guards`]).
    first_def_row: usize,
    /// The branch tests met so far (see [`guards`]).
    tests: Vec<guards::Test<'a>>,
    /// The variables of the implied DOs around the I/O item being lowered
    /// (see [`io`]).
    implied: Vec<&'a str>,
    /// The conditions that hold where the statement being lowered runs
    /// (see [`domain`]).
    known: Vec<domain::Known<'a>>,
}

impl<'g, 'p, 'a> UnitLowerer<'g, 'p, 'a> {
    fn new(
        g: &'g mut Global<'p>,
        unit: &'a Unit,
        syms: &'a Symbols<'a>,
        effects: &'a CallEffects,
    ) -> Self {
        let mut pending: Vec<&crate::ast::Decl> = unit.decls.iter().collect();
        pending.sort_by_key(|d| decls::decl_key(unit, d));
        let (storage, problems) = storage::Layout::build(unit, syms);
        for (pos, msg) in problems {
            g.report(Severity::Error, pos, msg);
        }
        let first_loop_rows = [
            g.facts.r#loop.len(),
            g.facts.loop_stmt.len(),
            g.facts.loop_end.len(),
        ];
        let first_def_row = g.facts.def.len();
        UnitLowerer {
            g,
            unit,
            syms,
            effects,
            name: unit.name.text.clone(),
            pending_decls: pending.into(),
            loops: Vec::new(),
            exec: Vec::new(),
            edges: Vec::new(),
            always_then: FxHashMap::default(),
            values: FxHashMap::default(),
            fixed: FxHashSet::default(),
            at_most_one_trip: FxHashSet::default(),
            certain: FxHashMap::default(),
            labels: FxHashMap::default(),
            gotos: Vec::new(),
            returns: Vec::new(),
            stmt_refs: FxHashMap::default(),
            element_of: FxHashMap::default(),
            element_candidates: Vec::new(),
            hidden: Vec::new(),
            opaque: Vec::new(),
            var_uses: BTreeMap::new(),
            fn_uses: BTreeMap::new(),
            declared_vars: BTreeMap::new(),
            saves: Vec::new(),
            save_all: false,
            commons: BTreeMap::new(),
            equivalence_groups: 0,
            storage,
            hpf_maps: hpf::Mappings::of(unit, syms),
            guard: None,
            first_loop_rows,
            first_def_row,
            tests: Vec::new(),
            implied: Vec::new(),
            known: Vec::new(),
        }
    }

    fn run(mut self) {
        self.fixed = self.fixed_arrays();
        self.unit_header();
        self.lower_body();
        self.finish_decls();
        self.storage_rows();
        self.hidden_refs();
        if self.g.extent == Extent::Facts {
            self.element_refs();
            self.finish_blocks();
        }
    }

    fn error(&mut self, pos: Pos, message: String) {
        self.g.report(Severity::Error, pos, message);
    }

    fn warning(&mut self, pos: Pos, message: String) {
        self.g.report(Severity::Warning, pos, message);
    }
}

#[cfg(test)]
mod tests;
