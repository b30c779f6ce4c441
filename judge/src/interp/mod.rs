//! The interpreter: runs an [`ast::Program`] on given input, capturing what
//! it prints and, when asked, the trace of every memory access.
//!
//! Control flow follows the structured tree; a GOTO travels up the blocks
//! until one holds the labelled statement (or the IF construct whose END IF
//! carries the label), and a jump to a DO loop's end label from inside the
//! loop ends the iteration. Jumps into a block from outside are refused.
//!
//! Memory is cells, numeric storage units (an element of 8 bytes takes
//! two): COMMON blocks and EQUIVALENCE classes lay names out in them
//! (`association`), so names sharing storage access the same cells.
//!
//! Fortran 90 scoping comes rewritten by the frontend: a module variable
//! is the only member of a COMMON block of its own (laid out, with its
//! initial value, before the main program runs: `init_modules`), a host
//! variable an internal procedure uses is an extra dummy. An array
//! declared with deferred bounds only (`A(:)`) is allocatable: its
//! storage has no cell until ALLOCATE gives it the bounds evaluated there
//! (`shapes`, shared by every unit naming the storage), and a
//! deferred-shape dummy bound to a whole allocatable array has its bounds.

mod association;
mod eval;
mod intrinsics;
mod io;
mod memory;
mod reorder;
mod value;

use crate::trace::{Access, ArgOrigin, CallSite, CommonNames, Iteration, Loc, Mode};
use kaiseki_frontend::ast::{self, LoopEnd, Pos, Stmt, StmtKind, Unit, UnitKind};
use memory::{Binding, Dim, Memory, UnitInfo};
pub use reorder::{Clauses, Order, RedOp, Reduction, Reorder, Step};
use std::collections::{HashMap, HashSet, VecDeque};
use std::fmt;
use std::rc::Rc;
pub use value::{Ty, Value};

/// How much to run and what to record.
#[derive(Clone, Debug)]
pub struct Config {
    /// Statements executed plus loop iterations before the run is stopped
    /// with "step limit exceeded" (a generated program must not hang a test).
    pub step_limit: u64,
    /// Record the trace (off for runs that only compare printed output).
    pub trace: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            step_limit: 10_000_000,
            trace: true,
        }
    }
}

/// What one run produced.
#[derive(Debug)]
pub struct Run {
    /// Everything PRINT and WRITE wrote, one line per statement.
    pub output: String,
    /// Every access in execution order (empty when tracing was off).
    pub trace: Vec<Access>,
    /// The names each unit gives to COMMON storage (for [`crate::project`]).
    pub common: CommonNames,
    pub steps: u64,
}

/// Why a run stopped early: where, and what went wrong.
#[derive(Clone, Debug, PartialEq)]
pub struct RunError {
    pub pos: Pos,
    pub message: String,
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.pos.line, self.pos.col, self.message)
    }
}

impl std::error::Error for RunError {}

/// Runs the main program of `program`. READ takes its values from `input`,
/// one value per cell, in order (see [`io`]).
pub fn run<S: AsRef<str>>(
    program: &ast::Program,
    input: &[S],
    config: &Config,
) -> Result<Run, RunError> {
    run_with(program, input, config, None)
}

/// Runs the main program of `program` with the iterations of the loop
/// `plan` names run in another order, as a parallel loop with the
/// plan's clauses (see [`Reorder`]); nothing is traced.
pub fn run_reordered<S: AsRef<str>>(
    program: &ast::Program,
    input: &[S],
    config: &Config,
    plan: &Reorder,
) -> Result<Run, RunError> {
    let config = Config {
        trace: false,
        ..config.clone()
    };
    run_with(program, input, &config, Some(plan.clone()))
}

fn run_with<S: AsRef<str>>(
    program: &ast::Program,
    input: &[S],
    config: &Config,
    reorder: Option<Reorder>,
) -> Result<Run, RunError> {
    let main = program
        .units
        .iter()
        .position(|u| u.kind == UnitKind::Program)
        .ok_or_else(|| RunError {
            pos: Pos::default(),
            message: "no main program".into(),
        })?;
    let mut it = Interp::new(program, input, config);
    it.reorder = reorder;
    let started = it
        .init_modules()
        .and_then(|()| it.invoke(main, Vec::new(), program.units[main].name.pos));
    match started {
        Ok(_) | Err(Halt::Stop) => Ok(Run {
            output: it.output,
            trace: it.trace.unwrap_or_default(),
            common: it.common_names,
            steps: it.steps,
        }),
        Err(Halt::Error(e)) => Err(e),
    }
}

/// Why execution unwinds: a STOP (a normal end) or an error.
enum Halt {
    Stop,
    Error(RunError),
}

type Exec<T> = Result<T, Halt>;

/// Attaches a source position to the plain-text errors of values and memory.
trait At<T> {
    fn at(self, pos: Pos) -> Exec<T>;
}

impl<T> At<T> for Result<T, String> {
    fn at(self, pos: Pos) -> Exec<T> {
        self.map_err(|message| Halt::Error(RunError { pos, message }))
    }
}

fn fail<T>(pos: Pos, message: impl Into<String>) -> Exec<T> {
    Err(Halt::Error(RunError {
        pos,
        message: message.into(),
    }))
}

/// How a statement or block hands over control.
enum Flow {
    Next,
    /// A jump not yet resolved, with where the jump stands.
    Goto(u32, Pos),
    Return,
    /// EXIT or CYCLE of the loop of that construct name (the innermost
    /// one when `None`), on its way out to that loop.
    Exit(Option<String>),
    Cycle(Option<String>),
}

/// Whether an EXIT or CYCLE naming `target` (or none) is for the loop of
/// construct name `construct`.
fn jump_is_for(target: &Option<String>, construct: Option<&str>) -> bool {
    target.is_none() || target.as_deref() == construct
}

/// The names visible in one activation of a unit.
struct Frame {
    unit: usize,
    consts: HashMap<String, Value>,
    vars: HashMap<String, Binding>,
}

/// Cells passed to a dummy argument (by reference), and which actual
/// argument of the caller they are (none for a temporary).
#[derive(Clone)]
struct Cells {
    storage: usize,
    offset: usize,
    through: Option<Rc<ArgOrigin>>,
}

struct Interp<'p> {
    program: &'p ast::Program,
    infos: Vec<UnitInfo>,
    unit_names: Vec<Rc<str>>,
    units_by_name: HashMap<String, usize>,
    mem: Memory,
    commons: HashMap<String, usize>,
    /// Local variables of each unit, allocated at its first call and kept
    /// (SAVE semantics, like gfortran for most locals).
    statics: Vec<HashMap<String, Binding>>,
    allocated: Vec<bool>,
    input: VecDeque<String>,
    /// A READ met the end of `input` (see [`io`]).
    input_ended: bool,
    output: String,
    trace: Option<Vec<Access>>,
    /// Set while evaluating declarations (dimension bounds of dummies):
    /// those reads are not statements of the program.
    paused: bool,
    active_units: Vec<usize>,
    loops: Vec<Iteration>,
    loops_rc: Option<Rc<[Iteration]>>,
    callers: Vec<CallSite>,
    callers_rc: Option<Rc<[CallSite]>>,
    /// Cells whose accesses are not recorded: the variables of the
    /// implied DOs running (see [`io`]).
    silent: Vec<Loc>,
    /// While an I/O statement runs: the accesses it recorded (place, cell,
    /// mode), which it does not record again.
    io_seen: Option<HashSet<(Pos, Loc, Mode)>>,
    /// Numbers dynamic loop instances and calls.
    next_instance: u64,
    common_names: CommonNames,
    steps: u64,
    step_limit: u64,
    /// The loop to run as a parallel loop, if any.
    reorder: Option<Reorder>,
    /// Cells of private copies not yet defined: reading one is an error.
    undefined: std::collections::HashSet<Loc>,
    /// Entries of the reordered loop so far (each is shuffled anew).
    reorder_entries: u64,
    /// The storage of every allocatable array (a local's own, a module
    /// variable's COMMON block) and its bounds while allocated.
    shapes: HashMap<usize, Option<Rc<[Dim]>>>,
}

impl<'p> Interp<'p> {
    fn new<S: AsRef<str>>(program: &'p ast::Program, input: &[S], config: &Config) -> Self {
        let mut units_by_name = HashMap::new();
        for (i, u) in program.units.iter().enumerate() {
            units_by_name.entry(u.name.text.clone()).or_insert(i);
        }
        Interp {
            program,
            infos: program.units.iter().map(UnitInfo::new).collect(),
            unit_names: program
                .units
                .iter()
                .map(|u| u.name.text.as_str().into())
                .collect(),
            units_by_name,
            mem: Memory::default(),
            commons: HashMap::new(),
            statics: vec![HashMap::new(); program.units.len()],
            allocated: vec![false; program.units.len()],
            input_ended: false,
            input: input
                .iter()
                .map(|s| s.as_ref().trim().to_string())
                .collect(),
            output: String::new(),
            trace: config.trace.then(Vec::new),
            paused: false,
            active_units: Vec::new(),
            loops: Vec::new(),
            loops_rc: None,
            callers: Vec::new(),
            callers_rc: None,
            silent: Vec::new(),
            io_seen: None,
            next_instance: 0,
            common_names: CommonNames::default(),
            steps: 0,
            step_limit: config.step_limit,
            reorder: None,
            undefined: std::collections::HashSet::new(),
            reorder_entries: 0,
            shapes: HashMap::new(),
        }
    }

    fn tick(&mut self, pos: Pos) -> Exec<()> {
        self.steps += 1;
        if self.steps > self.step_limit {
            return fail(pos, "step limit exceeded");
        }
        Ok(())
    }

    // ---- units and calls -------------------------------------------------

    /// Lays out the storage of every MODULE before the main program runs,
    /// as it is before any statement executes: its variables' COMMON blocks
    /// (see `kaiseki_frontend::scopes`) with their initial values
    /// (`INTEGER :: N = 5`). Nothing of this is traced.
    fn init_modules(&mut self) -> Exec<()> {
        let program = self.program;
        for (u, unit) in program.units.iter().enumerate() {
            if unit.kind == UnitKind::Module {
                self.enter(u, unit, &[])?;
            }
        }
        Ok(())
    }

    /// Runs unit `u` with its dummies bound to `args`; returns its frame so
    /// a FUNCTION's result can be read from it.
    fn invoke(&mut self, u: usize, args: Vec<Cells>, call_pos: Pos) -> Exec<Frame> {
        let program = self.program;
        let unit = &program.units[u];
        if self.active_units.contains(&u) {
            return fail(call_pos, format!("recursive call of {}", unit.name.text));
        }
        if args.len() != unit.args.len() {
            return fail(
                call_pos,
                format!(
                    "{} takes {} arguments, called with {}",
                    unit.name.text,
                    unit.args.len(),
                    args.len()
                ),
            );
        }
        self.active_units.push(u);
        let body = &unit.body[self.infos[u].stmt_function_defs..];
        let result = self.enter(u, unit, &args).and_then(|mut fr| {
            match self.exec_block(&mut fr, body)? {
                Flow::Goto(l, _) if unit.end_label == Some(l) => Ok(fr),
                Flow::Goto(l, from) => fail(
                    from,
                    format!("GO TO {l}: no such label reachable from here (jumps into blocks are not supported)"),
                ),
                Flow::Next | Flow::Return => Ok(fr),
                Flow::Exit(_) | Flow::Cycle(_) => fail(call_pos, "EXIT or CYCLE outside its loop"),
            }
        });
        self.active_units.pop();
        result
    }

    /// Builds the frame of a call: constants, dummies, COMMON members, locals.
    fn enter(&mut self, u: usize, unit: &Unit, args: &[Cells]) -> Exec<Frame> {
        let info = &self.infos[u];
        if let Some(why) = &info.unsupported {
            return fail(unit.name.pos, why.clone());
        }
        let mut fr = Frame {
            unit: u,
            consts: HashMap::new(),
            vars: HashMap::new(),
        };
        let was_paused = std::mem::replace(&mut self.paused, true);
        let result = self.bind_all(&mut fr, unit, args);
        self.paused = was_paused;
        result.map(|()| fr)
    }

    fn bind_all(&mut self, fr: &mut Frame, unit: &Unit, args: &[Cells]) -> Exec<()> {
        let u = fr.unit;
        let params = self.infos[u].params.clone();
        for (name, e) in &params {
            let v = self.eval_scalar(fr, e)?;
            let v = v.convert(self.infos[u].type_of(name)).at(e.pos)?;
            fr.consts.insert(name.clone(), v);
        }
        // Scalars first, so that adjustable bounds (A(N)) can read them.
        for (d, cells) in unit.args.iter().zip(args) {
            let b = self.binding(u, &d.text, cells.clone(), Rc::from([]));
            fr.vars.insert(d.text.clone(), b);
        }
        // COMMON (which adjustable bounds may read) before the dummies'
        // bounds, locals after them.
        let first = !std::mem::replace(&mut self.allocated[u], true);
        if first {
            self.associate(fr, unit.name.pos)?;
        }
        for (name, b) in &self.statics[u] {
            fr.vars.entry(name.clone()).or_insert_with(|| b.clone());
        }
        for d in &unit.args {
            let dims = self.dims_of(fr, &d.text)?;
            let deferred = self.infos[u].deferred.contains(&d.text);
            if let Some(b) = fr.vars.get_mut(&d.text) {
                b.dims = dims;
                // A deferred-shape dummy bound to a whole allocatable array
                // (a host's array passed to its internal procedure, see
                // `kaiseki_frontend::scopes`) has its bounds.
                b.deferred = deferred && b.offset == 0 && self.shapes.contains_key(&b.storage);
            }
        }
        if first {
            self.alloc_statics(fr, unit)?;
        }
        self.refresh_shapes(fr);
        Ok(())
    }

    /// Gives the allocatable arrays of a frame the bounds their storage
    /// has now (after an ALLOCATE here or in a call).
    fn refresh_shapes(&self, fr: &mut Frame) {
        if self.shapes.is_empty() {
            return;
        }
        for b in fr.vars.values_mut() {
            if b.deferred {
                b.dims = self.shape_of(b.storage, b.dims.len());
            }
        }
    }

    fn shape_of(&self, storage: usize, rank: usize) -> Rc<[Dim]> {
        match self.shapes.get(&storage) {
            Some(Some(dims)) => dims.clone(),
            _ => memory::unallocated(rank),
        }
    }

    /// ALLOCATE (`deallocate` false) or DEALLOCATE of one object: the
    /// array's storage gets (or loses) the cells of the bounds given, read
    /// here; the elements are undefined (zero here) after ALLOCATE.
    fn allocate(&mut self, fr: &mut Frame, object: &ast::Expr, deallocate: bool) -> Exec<()> {
        let (name, bounds) = match &object.kind {
            ast::ExprKind::Var(n) if deallocate => (n, &[][..]),
            ast::ExprKind::Apply { name, args } if !deallocate => (name, args.as_slice()),
            _ => return fail(object.pos, "ALLOCATE object the judge does not run"),
        };
        let Some(b) = fr.vars.get(name).filter(|b| b.deferred).cloned() else {
            return fail(
                object.pos,
                format!("{name} is not an allocatable array (deferred bounds)"),
            );
        };
        let allocated = matches!(self.shapes.get(&b.storage), Some(Some(_)));
        if deallocate {
            if !allocated {
                return fail(object.pos, format!("DEALLOCATE of {name}, not allocated"));
            }
            self.shapes.insert(b.storage, None);
            self.mem.areas[b.storage] = Vec::new();
            return Ok(());
        }
        if allocated {
            return fail(object.pos, format!("ALLOCATE of {name}, already allocated"));
        }
        if bounds.len() != b.dims.len() {
            return fail(
                object.pos,
                format!(
                    "{name} has rank {}, allocated with {}",
                    b.dims.len(),
                    bounds.len()
                ),
            );
        }
        let mut dims = Vec::with_capacity(bounds.len());
        for e in bounds {
            let (lower, upper) = match &e.kind {
                ast::ExprKind::Range {
                    lower,
                    upper: Some(upper),
                    stride: None,
                } => (lower.as_deref(), upper.as_ref()),
                ast::ExprKind::Range { .. } => {
                    return fail(e.pos, "an ALLOCATE bound must be lower:upper")
                }
                _ => (None, e),
            };
            let lower = match lower {
                Some(x) => self.eval_scalar(fr, x)?.as_int().at(x.pos)?,
                None => 1,
            };
            let upper = self.eval_scalar(fr, upper)?.as_int().at(upper.pos)?;
            dims.push(Dim {
                lower,
                upper: Some(upper.max(lower - 1)),
            });
        }
        let sized = Binding {
            dims: dims.into(),
            ..b.clone()
        };
        let cells = sized
            .cells()
            .ok_or("no size")
            .map_err(String::from)
            .and_then(memory::check_size)
            .at(object.pos)?;
        self.mem.areas[b.storage] = vec![b.ty.zero(); cells];
        self.shapes.insert(b.storage, Some(sized.dims));
        Ok(())
    }

    /// Allocates the locals of a unit at its first call (declared names and
    /// a FUNCTION's result variable), with their initial values.
    fn alloc_statics(&mut self, fr: &mut Frame, unit: &Unit) -> Exec<()> {
        let u = fr.unit;
        let info = &self.infos[u];
        let mut names: Vec<String> = info.types.keys().chain(info.dims.keys()).cloned().collect();
        if unit.kind == UnitKind::Function {
            names.push(unit.name.text.clone());
        }
        names.sort();
        names.dedup();
        let inits = info.inits.clone();
        for name in names {
            if fr.vars.contains_key(&name) || fr.consts.contains_key(&name) {
                continue;
            }
            if self.infos[u].deferred.contains(&name) {
                // An allocatable array: storage of its own, no cell yet.
                let rank = self.infos[u].dims[&name].len();
                let storage = self.mem.alloc(Vec::new());
                self.shapes.insert(storage, None);
                let cells = Cells {
                    storage,
                    offset: 0,
                    through: None,
                };
                let b = Binding {
                    deferred: true,
                    ..self.binding(u, &name, cells, memory::unallocated(rank))
                };
                self.statics[u].insert(name.clone(), b.clone());
                fr.vars.insert(name, b);
                continue;
            }
            let dims = self.dims_of(fr, &name)?;
            let ty = self.infos[u].type_of(&name);
            let probe = self.binding(
                u,
                &name,
                Cells {
                    storage: 0,
                    offset: 0,
                    through: None,
                },
                dims,
            );
            let cells = probe
                .cells()
                .ok_or_else(|| format!("local array {name} has assumed size"))
                .at(unit.name.pos)?;
            let storage = self.mem.alloc_filled(cells, ty.zero()).at(unit.name.pos)?;
            let b = Binding { storage, ..probe };
            self.statics[u].insert(name.clone(), b.clone());
            fr.vars.insert(name, b);
        }
        for (name, e) in &inits {
            let v = self.eval(fr, e)?;
            let place = self.place(
                fr,
                &ast::Expr {
                    pos: e.pos,
                    kind: ast::ExprKind::Var(name.clone()),
                },
            )?;
            self.assign(&place, v)?;
        }
        Ok(())
    }

    fn binding(&self, u: usize, name: &str, cells: Cells, dims: Rc<[Dim]>) -> Binding {
        Binding {
            name: name.into(),
            storage: cells.storage,
            offset: cells.offset,
            ty: self.infos[u].type_of(name),
            width: self.infos[u].width_of(name),
            dims,
            through: cells.through,
            deferred: false,
        }
    }

    /// Evaluates the declared bounds of a name (empty for a scalar).
    fn dims_of(&mut self, fr: &mut Frame, name: &str) -> Exec<Rc<[Dim]>> {
        let Some(specs) = self.infos[fr.unit].dims.get(name).cloned() else {
            return Ok(Rc::from([]));
        };
        let mut dims = Vec::with_capacity(specs.len());
        for s in &specs {
            let lower = match &s.lower {
                Some(e) => self.eval_scalar(fr, e)?.as_int().at(e.pos)?,
                None => 1,
            };
            let upper = match &s.upper {
                Some(e) => Some(self.eval_scalar(fr, e)?.as_int().at(e.pos)?),
                None => None,
            };
            dims.push(Dim { lower, upper });
        }
        Ok(dims.into())
    }

    /// The binding of a name, creating an implicitly typed local scalar for
    /// a name never declared.
    fn var<'f>(&mut self, fr: &'f mut Frame, name: &str) -> &'f Binding {
        if !fr.vars.contains_key(name) {
            let ty = self.infos[fr.unit].type_of(name);
            let width = self.infos[fr.unit].width_of(name);
            let storage = self.mem.alloc(vec![ty.zero(); width]);
            let b = Binding {
                name: name.into(),
                storage,
                offset: 0,
                ty,
                width,
                dims: Rc::from([]),
                through: None,
                deferred: false,
            };
            self.statics[fr.unit].insert(name.to_string(), b.clone());
            fr.vars.insert(name.to_string(), b);
        }
        &fr.vars[name]
    }

    fn unit_named(&self, name: &str, kind: UnitKind) -> Option<usize> {
        self.units_by_name
            .get(name)
            .copied()
            .filter(|u| self.program.units[*u].kind == kind)
    }

    /// Calls a SUBROUTINE or FUNCTION with actual arguments passed by
    /// reference; expression arguments get a temporary of their own, laid
    /// out in the cells of the dummy's type.
    fn call(&mut self, fr: &mut Frame, u: usize, args: &[ast::Expr], pos: Pos) -> Exec<Frame> {
        let mut cells = Vec::with_capacity(args.len());
        let mut temps = Vec::new();
        let dummies = &self.program.units[u].args;
        for (k, a) in args.iter().enumerate() {
            match self.actual(fr, a)? {
                eval::Actual::Cells(c) => cells.push(c),
                eval::Actual::Temp(values) => {
                    let width = dummies
                        .get(k)
                        .map_or(1, |d| self.infos[u].width_of(&d.text));
                    let values = values
                        .into_iter()
                        .flat_map(|v| std::iter::repeat_n(v, width))
                        .collect();
                    let storage = self.mem.alloc(values);
                    temps.push(storage);
                    cells.push(Cells {
                        storage,
                        offset: 0,
                        through: None,
                    });
                }
            }
        }
        self.callers.push(CallSite {
            unit: self.current_unit(),
            pos,
            loops: self.loops.len(),
            instance: self.next_instance,
        });
        self.next_instance += 1;
        self.callers_rc = None;
        let result = self.invoke(u, cells, pos);
        self.callers.pop();
        self.callers_rc = None;
        self.refresh_shapes(fr);
        for t in temps {
            // Keep the id (never reused, so traces stay unambiguous), free the cells.
            self.mem.areas[t] = Vec::new();
        }
        result
    }

    // ---- trace -----------------------------------------------------------

    fn current_unit(&self) -> Rc<str> {
        self.unit_names[*self.active_units.last().unwrap_or(&0)].clone()
    }

    /// Records an access of element `index` of `b`: one per cell it covers.
    fn record(
        &mut self,
        b: &Binding,
        (index, value): (usize, &Value),
        mode: Mode,
        pos: Pos,
        at_loop_end: bool,
    ) {
        // The element's first cell stands for it in `silent` and `io_seen`.
        let loc = Loc {
            storage: b.storage,
            offset: b.cell(index),
        };
        if self.paused || self.trace.is_none() || self.silent.contains(&loc) {
            return;
        }
        if let Some(seen) = &mut self.io_seen {
            if !seen.insert((pos, loc, mode)) {
                return;
            }
        }
        let loops = self
            .loops_rc
            .get_or_insert_with(|| self.loops.as_slice().into())
            .clone();
        let callers = self
            .callers_rc
            .get_or_insert_with(|| self.callers.as_slice().into())
            .clone();
        let unit = self.current_unit();
        let Some(t) = &mut self.trace else {
            return;
        };
        let first = b.cell(index);
        for offset in first..first + b.width {
            t.push(Access {
                pos,
                unit: unit.clone(),
                var: b.name.clone(),
                mode,
                index,
                loc: Loc {
                    storage: b.storage,
                    offset,
                },
                loops: loops.clone(),
                at_loop_end,
                callers: callers.clone(),
                through: b.through.clone(),
                value: match value {
                    Value::Int(i) => Some(*i),
                    _ => None,
                },
            });
        }
    }

    /// Moves the accesses recorded since `elements` (the elements of an
    /// array reference) before the subscript reads recorded between `mark`
    /// and `elements`, the order in which the facts number references ("an
    /// array element before its subscripts").
    fn elements_before_subscripts(&mut self, mark: usize, elements: usize) {
        if let Some(segment) = self.trace.as_mut().and_then(|t| t.get_mut(mark..)) {
            let n = segment.len().saturating_sub(elements - mark);
            segment.rotate_right(n);
        }
    }

    fn trace_len(&self) -> usize {
        self.trace.as_ref().map_or(0, Vec::len)
    }

    fn load(&mut self, b: &Binding, index: usize, pos: Pos, at_loop_end: bool) -> Exec<Value> {
        if !self.undefined.is_empty() {
            let loc = Loc {
                storage: b.storage,
                offset: b.cell(index),
            };
            if self.undefined.contains(&loc) {
                return fail(
                    pos,
                    format!("{} is read while undefined (a private copy)", b.name),
                );
            }
        }
        let v = self
            .mem
            .get(b.storage, b.cell(index), b.width)
            .at(pos)?
            .view(b.ty)
            .at(pos)?;
        self.record(b, (index, &v), Mode::Read, pos, at_loop_end);
        Ok(v)
    }

    fn store(
        &mut self,
        b: &Binding,
        index: usize,
        v: &Value,
        pos: Pos,
        at_loop_end: bool,
    ) -> Exec<()> {
        let v = v.convert(b.ty).at(pos)?;
        self.mem
            .set(b.storage, b.cell(index), b.width, v.clone())
            .at(pos)?;
        if !self.undefined.is_empty() {
            self.undefined.remove(&Loc {
                storage: b.storage,
                offset: b.cell(index),
            });
        }
        self.record(b, (index, &v), Mode::Write, pos, at_loop_end);
        Ok(())
    }

    // ---- statements --------------------------------------------------------

    fn exec_block(&mut self, fr: &mut Frame, stmts: &[Stmt]) -> Exec<Flow> {
        let mut i = 0;
        while let Some(s) = stmts.get(i) {
            match self.exec_stmt(fr, s)? {
                Flow::Next => i += 1,
                Flow::Goto(label, from) => match find_label(stmts, label) {
                    Some(j) => i = j,
                    None => return Ok(Flow::Goto(label, from)),
                },
                f @ (Flow::Return | Flow::Exit(_) | Flow::Cycle(_)) => return Ok(f),
            }
        }
        Ok(Flow::Next)
    }

    fn exec_stmt(&mut self, fr: &mut Frame, s: &Stmt) -> Exec<Flow> {
        self.tick(s.pos)?;
        match &s.kind {
            StmtKind::Assign { lhs, rhs } => {
                // The right side's reads, then the assigned element's
                // subscripts, then the write: the order the facts number
                // references in (Fortran leaves it unspecified).
                let v = self.eval(fr, rhs)?;
                let place = self.place(fr, lhs)?;
                self.assign(&place, v)?;
            }
            StmtKind::Do {
                var,
                lower,
                upper,
                step,
                body,
                end,
                construct,
                ..
            } => {
                return self.exec_do(
                    fr,
                    s.pos,
                    var,
                    [lower, upper],
                    step.as_ref(),
                    body,
                    (end, construct.as_deref()),
                )
            }
            StmtKind::DoWhile {
                cond,
                body,
                end,
                construct,
            } => return self.exec_do_while(fr, s.pos, cond, body, (end, construct.as_deref())),
            StmtKind::Select {
                selector, cases, ..
            } => {
                let v = self.eval_scalar(fr, selector)?;
                let mut default = None;
                for case in cases {
                    let Some(values) = &case.values else {
                        default = Some(&case.body);
                        continue;
                    };
                    for cv in values {
                        if self.case_matches(fr, &v, cv, case.pos)? {
                            return self.exec_block(fr, &case.body);
                        }
                    }
                }
                if let Some(body) = default {
                    return self.exec_block(fr, body);
                }
            }
            StmtKind::Where { indices, .. } if !indices.is_empty() => {
                return fail(s.pos, "FORALL is not supported");
            }
            StmtKind::Where { mask, lhs, rhs, .. } => {
                // The mask, then the right side (whole: every element of
                // it is read), then the elements whose mask is true.
                let m = self.eval(fr, mask)?;
                let v = self.eval(fr, rhs)?;
                let place = self.place(fr, lhs)?;
                let n = place.indices.len();
                let spread = |v: eval::Val, what: &str| -> Exec<Vec<Value>> {
                    match v {
                        eval::Val::Scalar(x) => Ok(vec![x; n]),
                        eval::Val::Array(xs) if xs.len() == n => Ok(xs),
                        eval::Val::Array(_) => {
                            fail(s.pos, format!("WHERE: the {what} does not conform"))
                        }
                    }
                };
                let (ms, vs) = (spread(m, "mask")?, spread(v, "right side")?);
                for ((&i, m), v) in place.indices.iter().zip(&ms).zip(&vs) {
                    if m.as_logical().at(mask.pos)? {
                        self.store(&place.binding, i, v, place.pos, false)?;
                    }
                }
            }
            StmtKind::Exit { construct } => return Ok(Flow::Exit(construct.clone())),
            StmtKind::Cycle { construct } => return Ok(Flow::Cycle(construct.clone())),
            StmtKind::If {
                arms, else_part, ..
            } => {
                for arm in arms {
                    if self
                        .eval_scalar(fr, &arm.cond)?
                        .as_logical()
                        .at(arm.cond.pos)?
                    {
                        return self.exec_block(fr, &arm.body);
                    }
                }
                if let Some(e) = else_part {
                    return self.exec_block(fr, &e.body);
                }
            }
            StmtKind::LogicalIf { cond, stmt } => {
                if self.eval_scalar(fr, cond)?.as_logical().at(cond.pos)? {
                    return self.exec_stmt(fr, stmt);
                }
            }
            StmtKind::Goto(l) => return Ok(Flow::Goto(*l, s.pos)),
            StmtKind::ComputedGoto { labels, index } => {
                let k = self.eval_scalar(fr, index)?.as_int().at(index.pos)?;
                if let Some(l) = usize::try_from(k - 1).ok().and_then(|k| labels.get(k)) {
                    return Ok(Flow::Goto(*l, s.pos));
                }
            }
            StmtKind::ArithIf {
                expr,
                neg,
                zero,
                pos,
            } => {
                let x = self.eval_scalar(fr, expr)?.as_real().at(expr.pos)?;
                let l = if x < 0.0 {
                    neg
                } else if x == 0.0 {
                    zero
                } else {
                    pos
                };
                return Ok(Flow::Goto(*l, s.pos));
            }
            StmtKind::Continue | StmtKind::Format => {}
            StmtKind::Call { name, args } => {
                let Some(u) = self.unit_named(&name.text, UnitKind::Subroutine) else {
                    return fail(
                        name.pos,
                        format!("no subroutine {} in the program", name.text),
                    );
                };
                self.call(fr, u, args, name.pos)?;
            }
            StmtKind::Return => return Ok(Flow::Return),
            StmtKind::Stop => return Err(Halt::Stop),
            StmtKind::Read { control, items } => return self.exec_io(fr, s, control, items, true),
            StmtKind::Write { control, items } | StmtKind::Print { control, items } => {
                return self.exec_io(fr, s, control, items, false)
            }
            StmtKind::File { what, .. } => {
                return fail(
                    s.pos,
                    format!(
                        "statement not supported by the judge: {}",
                        what.to_uppercase()
                    ),
                )
            }
            StmtKind::Opaque { reason } => {
                return fail(
                    s.pos,
                    format!("statement not supported by the judge: {reason}"),
                )
            }
            StmtKind::Allocate {
                deallocate,
                objects,
                stat,
                source,
            } => {
                if !source.is_empty() {
                    return fail(s.pos, "SOURCE= and MOLD= are not supported by the judge");
                }
                for o in objects {
                    self.allocate(fr, o, *deallocate)?;
                }
                self.refresh_shapes(fr);
                // STAT= is 0 (success); ERRMSG= keeps its value.
                for v in stat {
                    let place = self.place(fr, v)?;
                    if place.binding.ty == Ty::Int {
                        self.assign(&place, eval::Val::Scalar(Value::Int(0)))?;
                    }
                }
            }
        }
        Ok(Flow::Next)
    }

    /// A counted DO: bounds read and the variable written once at entry,
    /// trip = max(0, (u - l + s) / s) fixed then; each iteration ends with
    /// the increment (a read and a write of the variable at the loop end).
    #[allow(clippy::too_many_arguments)]
    fn exec_do(
        &mut self,
        fr: &mut Frame,
        do_pos: Pos,
        var: &ast::Name,
        bounds: [&ast::Expr; 2],
        step: Option<&ast::Expr>,
        body: &[Stmt],
        (end, construct): (&LoopEnd, Option<&str>),
    ) -> Exec<Flow> {
        let lower = self.eval_scalar(fr, bounds[0])?;
        let upper = self.eval_scalar(fr, bounds[1])?;
        let step = match step {
            Some(e) => self.eval_scalar(fr, e)?,
            None => Value::Int(1),
        };
        let b = self.var(fr, &var.text).clone();
        if b.is_array() {
            return fail(var.pos, format!("DO variable {} is an array", var.text));
        }
        let [lower, upper, step] = [lower, upper, step].map(|v| v.convert(b.ty));
        let (lower, upper, step) = (lower.at(var.pos)?, upper.at(var.pos)?, step.at(var.pos)?);
        let trip = trip_count(&lower, &upper, &step).at(do_pos)?;
        self.store(&b, 0, &lower, var.pos, false)?;
        let end_label = loop_end_label(end);
        if self.reorder.as_ref().is_some_and(|r| r.line == do_pos.line) {
            let mut values = Vec::with_capacity(trip as usize);
            let mut v = lower;
            for _ in 0..trip {
                let next = value::binary(ast::BinOp::Add, &v, &step).at(var.pos)?;
                values.push(std::mem::replace(&mut v, next));
            }
            return self.exec_do_reordered(
                fr,
                do_pos,
                &var.text,
                (values, v),
                body,
                (end_label, construct),
            );
        }
        self.enter_loop(do_pos);
        let mut flow = Flow::Next;
        for k in 0..trip {
            self.set_iteration(k);
            match self.exec_block(fr, body) {
                Ok(Flow::Next) => {}
                Ok(Flow::Goto(l, _)) if Some(l) == end_label => {}
                Ok(Flow::Cycle(n)) if jump_is_for(&n, construct) => {}
                // Left at once: no increment.
                Ok(Flow::Exit(n)) if jump_is_for(&n, construct) => break,
                Ok(other) => {
                    flow = other;
                    break;
                }
                Err(e) => {
                    self.exit_loop();
                    return Err(e);
                }
            }
            let step_result = self
                .load(&b, 0, var.pos, true)
                .and_then(|v| value::binary(ast::BinOp::Add, &v, &step).at(var.pos))
                .and_then(|next| self.store(&b, 0, &next, var.pos, true))
                .and_then(|()| self.tick(do_pos));
            if let Err(e) = step_result {
                self.exit_loop();
                return Err(e);
            }
        }
        self.exit_loop();
        Ok(flow)
    }

    fn exec_do_while(
        &mut self,
        fr: &mut Frame,
        do_pos: Pos,
        cond: &ast::Expr,
        body: &[Stmt],
        (end, construct): (&LoopEnd, Option<&str>),
    ) -> Exec<Flow> {
        let end_label = loop_end_label(end);
        self.enter_loop(do_pos);
        let mut k = 0;
        let result = loop {
            self.set_iteration(k);
            k += 1;
            let go = self
                .tick(do_pos)
                .and_then(|()| self.eval_scalar(fr, cond))
                .and_then(|v| v.as_logical().at(cond.pos));
            match go {
                Ok(true) => {}
                Ok(false) => break Ok(Flow::Next),
                Err(e) => break Err(e),
            }
            match self.exec_block(fr, body) {
                Ok(Flow::Next) => {}
                Ok(Flow::Goto(l, _)) if Some(l) == end_label => {}
                Ok(Flow::Cycle(n)) if jump_is_for(&n, construct) => {}
                Ok(Flow::Exit(n)) if jump_is_for(&n, construct) => break Ok(Flow::Next),
                other => break other,
            }
        };
        self.exit_loop();
        result
    }

    /// Whether a CASE value or range holds the selector's value `v`
    /// (integer, character or logical).
    fn case_matches(
        &mut self,
        fr: &mut Frame,
        v: &Value,
        cv: &ast::CaseValue,
        pos: Pos,
    ) -> Exec<bool> {
        let test = |op: ast::BinOp, a: &Value, b: &Value| -> Result<bool, String> {
            match (a, b) {
                (Value::Logical(x), Value::Logical(y)) => Ok(x == y),
                _ => value::binary(op, a, b)?.as_logical(),
            }
        };
        Ok(match cv {
            ast::CaseValue::Single(e) => {
                let c = self.eval_scalar(fr, e)?;
                test(ast::BinOp::Eq, v, &c).at(pos)?
            }
            ast::CaseValue::Range(lo, hi) => {
                if let Some(e) = lo {
                    let c = self.eval_scalar(fr, e)?;
                    if !test(ast::BinOp::Le, &c, v).at(pos)? {
                        return Ok(false);
                    }
                }
                if let Some(e) = hi {
                    let c = self.eval_scalar(fr, e)?;
                    if !test(ast::BinOp::Le, v, &c).at(pos)? {
                        return Ok(false);
                    }
                }
                true
            }
        })
    }

    fn enter_loop(&mut self, do_pos: Pos) {
        self.loops.push(Iteration {
            do_pos,
            instance: self.next_instance,
            iter: 0,
        });
        self.next_instance += 1;
        self.loops_rc = None;
    }

    fn set_iteration(&mut self, k: u64) {
        if let Some(top) = self.loops.last_mut() {
            top.iter = k;
        }
        self.loops_rc = None;
    }

    fn exit_loop(&mut self) {
        self.loops.pop();
        self.loops_rc = None;
    }
}

/// The statement a jump to `label` resumes at within one block: the
/// labelled statement itself, or the one after an IF construct whose END
/// IF carries the label.
fn find_label(stmts: &[Stmt], label: u32) -> Option<usize> {
    stmts
        .iter()
        .position(|s| s.label == Some(label))
        .or_else(|| {
            stmts
                .iter()
                .position(|s| match &s.kind {
                    StmtKind::If { end_label, .. } | StmtKind::Select { end_label, .. } => {
                        *end_label == Some(label)
                    }
                    _ => false,
                })
                .map(|j| j + 1)
        })
}

fn loop_end_label(end: &LoopEnd) -> Option<u32> {
    match end {
        LoopEnd::EndDo { label, .. } => *label,
        LoopEnd::Label(l) => Some(*l),
    }
}

/// Fortran's iteration count, computed once at loop entry.
fn trip_count(lower: &Value, upper: &Value, step: &Value) -> Result<u64, String> {
    let n = match (lower, upper, step) {
        (Value::Int(l), Value::Int(u), Value::Int(s)) => {
            if *s == 0 {
                return Err("DO step is zero".into());
            }
            u.checked_sub(*l)
                .and_then(|d| d.checked_add(*s))
                .map(|d| d / s)
                .ok_or("DO trip count overflows")?
        }
        _ => {
            let (l, u, s) = (lower.as_real()?, upper.as_real()?, step.as_real()?);
            if s == 0.0 {
                return Err("DO step is zero".into());
            }
            value::real_to_int(((u - l + s) / s).trunc())?
        }
    };
    Ok(n.max(0) as u64)
}

/// One list-directed input value for a variable of type `ty`.
fn parse_input(text: &str, ty: Ty) -> Result<Value, String> {
    let bad = || format!("input {text:?} is not a valid {ty:?} value");
    match ty {
        Ty::Int => text.parse().map(Value::Int).map_err(|_| bad()),
        Ty::Real => value::parse_real(text).map(Value::Real).map_err(|_| bad()),
        Ty::Logical => match text.trim_start_matches('.').chars().next() {
            Some('T' | 't') => Ok(Value::Logical(true)),
            Some('F' | 'f') => Ok(Value::Logical(false)),
            _ => Err(bad()),
        },
        Ty::Char => Ok(Value::Char(text.trim_matches(['\'', '"']).to_string())),
    }
}
