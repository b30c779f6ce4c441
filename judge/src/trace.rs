//! The trace of one run: every read and write of a scalar or an array
//! element, in execution order, with where it happened in the source and in
//! which iteration of each DO loop then executing.

use kaiseki_frontend::ast::Pos;
use std::collections::HashMap;
use std::rc::Rc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mode {
    Read,
    Write,
}

/// A memory cell, one numeric storage unit: a storage area (a variable or
/// EQUIVALENCE class of its own, a COMMON block, a temporary for an
/// expression argument) and a cell offset in it. Two names that share
/// storage (a dummy and its actual argument, COMMON members of two units,
/// names in one EQUIVALENCE class) access the same `Loc`; an element of
/// two cells (DOUBLE PRECISION) is accessed as both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Loc {
    pub storage: usize,
    pub offset: usize,
}

/// One DO (or DO WHILE) loop executing at the time of an access.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Iteration {
    /// Where the DO statement stands (its line is the loop's name in reports).
    pub do_pos: Pos,
    /// Which dynamic instance (entry) of the loop this is, unique in a run.
    pub instance: u64,
    /// 0-based iteration number in that instance.
    pub iter: u64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Access {
    /// Where the variable's name stands in the source.
    pub pos: Pos,
    /// The program unit executing the access.
    pub unit: Rc<str>,
    /// The name the access goes through (a dummy's name inside a callee).
    pub var: Rc<str>,
    pub mode: Mode,
    /// 0-based column-major index of the element in the array as the name
    /// declares it; 0 for scalars.
    pub index: usize,
    pub loc: Loc,
    /// The DO loops executing, outermost first (across calls).
    pub loops: Rc<[Iteration]>,
    /// True for the read and the write of the DO variable at a loop's
    /// increment, which belong to the loop's end (the synthetic enddo of the
    /// facts); `pos` is then the DO variable's name in the DO statement.
    pub at_loop_end: bool,
    /// The calls being executed, outermost first; empty in the main program.
    pub callers: Rc<[CallSite]>,
    /// For an access through a dummy argument: the actual argument it is
    /// bound to (and, through that, to the callers' actual arguments).
    pub through: Option<Rc<ArgOrigin>>,
    /// The value read or written, when it is an integer (what symbolic
    /// bounds and subscripts are evaluated with).
    pub value: Option<i64>,
}

/// A call executing at the time of an access.
#[derive(Clone, Debug, PartialEq)]
pub struct CallSite {
    /// The calling unit.
    pub unit: Rc<str>,
    /// Where the called name stands in the caller.
    pub pos: Pos,
    /// How many loops were executing at the call.
    pub loops: usize,
    /// Which dynamic call this is, unique in a run.
    pub instance: u64,
}

/// The actual argument a dummy is bound to: a variable or array element
/// of the calling unit, where its name stands in the call.
#[derive(Clone, Debug, PartialEq)]
pub struct ArgOrigin {
    pub unit: Rc<str>,
    pub pos: Pos,
    pub var: Rc<str>,
    /// The first cell of the caller's variable (its element 0) in the storage.
    pub base: usize,
    /// Cells per element of the caller's variable.
    pub element_cells: usize,
    /// The caller's own binding, when the actual is itself a dummy.
    pub outer: Option<Rc<ArgOrigin>>,
}

/// A COMMON member of a unit and cells it stands for: its own, or those
/// of a name EQUIVALENCE associates with it.
#[derive(Clone, Debug, PartialEq)]
pub struct SharedName {
    pub var: Rc<str>,
    pub storage: usize,
    /// The first cell of the member's element 0, and cells per element.
    pub start: usize,
    pub element_cells: usize,
    /// The cells it stands for.
    pub covers: std::ops::Range<usize>,
}

/// Per unit, its COMMON members in declaration order, then the names
/// EQUIVALENCE puts in COMMON, each stood for by the first member of its
/// class. The analyses model a call as using and defining the caller's
/// COMMON variables, so a callee's access to a cell of a block the caller
/// declares is, seen from the caller, an access at the call through the
/// member covering the cell, or the member associated with the name that
/// does (past the block's members, where EQUIVALENCE extends it).
#[derive(Clone, Debug, Default)]
pub struct CommonNames(HashMap<Rc<str>, Vec<SharedName>>);

impl CommonNames {
    pub fn add(&mut self, unit: Rc<str>, name: SharedName) {
        self.0.entry(unit).or_default().push(name);
    }

    /// The member of `unit` that stands for `loc` (see [`CommonNames`]) and
    /// the index of the cell's element counted from the member's element 0
    /// (out of its bounds for a cell it stands for but does not cover).
    pub fn name_of(&self, unit: &str, loc: Loc) -> Option<(&SharedName, usize)> {
        let n = self
            .0
            .get(unit)?
            .iter()
            .find(|n| n.storage == loc.storage && n.covers.contains(&loc.offset))?;
        let element =
            (loc.offset as i64 - n.start as i64).div_euclid(n.element_cells.max(1) as i64);
        Some((n, usize::try_from(element).unwrap_or(0)))
    }
}

impl Access {
    /// Where `unit` stands in the chain of units executing this access
    /// (each call's caller, then the unit making the access): 0 for the
    /// main program, `callers.len()` for the unit itself.
    fn level_of(&self, unit: &str) -> Option<usize> {
        if &*self.unit == unit {
            return Some(self.callers.len());
        }
        self.callers.iter().position(|c| &*c.unit == unit)
    }

    /// This access as the activation of `unit` executing it sees it, when
    /// the unit itself makes it; else when a callee makes it through a
    /// chain of dummy arguments starting at an actual argument of `unit`
    /// (there, the facts' use and may-definition at the call), or through
    /// a cell `unit` names in COMMON (at the called name). Loops and calls
    /// outside the activation are left out.
    fn seen_from(&self, unit: &str, level: usize, common: &CommonNames) -> Option<Access> {
        let outer_loops = level.checked_sub(1).map_or(0, |k| self.callers[k].loops);
        let Some(call) = self.callers.get(level) else {
            return Some(Access {
                loops: self.loops.get(outer_loops..).unwrap_or_default().into(),
                callers: Rc::from([]),
                ..self.clone()
            });
        };
        let mut origin = self.through.as_ref();
        while let Some(o) = origin.filter(|o| &*o.unit != unit) {
            origin = o.outer.as_ref();
        }
        let (pos, var, index, through) = match origin {
            Some(o) => (
                o.pos,
                o.var.clone(),
                self.loc.offset.saturating_sub(o.base) / o.element_cells.max(1),
                o.outer.clone(),
            ),
            None => {
                let (name, index) = common.name_of(unit, self.loc)?;
                (call.pos, name.var.clone(), index, None)
            }
        };
        Some(Access {
            pos,
            unit: call.unit.clone(),
            var,
            mode: self.mode,
            index,
            loc: self.loc,
            loops: self
                .loops
                .get(outer_loops..call.loops)
                .unwrap_or_default()
                .into(),
            at_loop_end: false,
            callers: Rc::from([]),
            value: self.value,
            through,
        })
    }
}

/// The trace as `unit` sees it (`Access::seen_from`), one trace per
/// activation of the unit: what to compute the real dependences of that
/// unit's analysis from, which sees neither its callers' loops nor one
/// activation reaching the next. A call is one statement: of its accesses
/// to one cell, the first and the first write are kept (the statement's
/// use before its definition); the others happen inside it.
pub fn project(trace: &[Access], common: &CommonNames, unit: &str) -> Vec<Vec<Access>> {
    let mut activations: Vec<Vec<Access>> = Vec::new();
    let mut activation = None;
    let mut call: Option<(u64, HashMap<Loc, bool>)> = None;
    for a in trace {
        let Some(level) = a.level_of(unit) else {
            continue;
        };
        let entry = level.checked_sub(1).map(|k| a.callers[k].instance);
        if activation != Some(entry) {
            activation = Some(entry);
            activations.push(Vec::new());
        }
        let Some(seen) = a.seen_from(unit, level, common) else {
            continue;
        };
        if let Some(site) = a.callers.get(level) {
            if call.as_ref().is_none_or(|(i, _)| *i != site.instance) {
                call = Some((site.instance, HashMap::new()));
            }
            let Some((_, cells)) = call.as_mut() else {
                continue;
            };
            let written = a.mode == Mode::Write;
            match cells.get(&a.loc) {
                Some(true) => continue,
                Some(false) if !written => continue,
                _ => cells.insert(a.loc, written),
            };
        }
        if let Some(current) = activations.last_mut() {
            current.push(seen);
        }
    }
    activations
}
