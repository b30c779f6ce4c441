//! The trace of one run: every read and write of a scalar or an array
//! element, in execution order, with where it happened in the source and in
//! which iteration of each DO loop then executing.

use kaiseki_frontend::ast::Pos;
use std::rc::Rc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mode {
    Read,
    Write,
}

/// A memory cell: a storage area (a variable of its own, a COMMON block, a
/// temporary for an expression argument) and an element offset in it.
/// Two names that share storage (a dummy and its actual argument, COMMON
/// members of two units) access the same `Loc`.
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
    /// 0-based column-major offset of the element in the array as the name
    /// declares it; 0 for scalars.
    pub index: usize,
    pub loc: Loc,
    /// The DO loops executing, outermost first (across calls).
    pub loops: Rc<[Iteration]>,
    /// True for the read and the write of the DO variable at a loop's
    /// increment, which belong to the loop's end (the synthetic enddo of the
    /// facts); `pos` is then the DO variable's name in the DO statement.
    pub at_loop_end: bool,
    /// Positions of the calls being executed (the called name), outermost
    /// first; empty in the main program.
    pub callers: Rc<[Pos]>,
    /// For an access through a dummy argument: the actual argument it is
    /// bound to (and, through that, to the callers' actual arguments).
    pub through: Option<Rc<ArgOrigin>>,
}

/// The actual argument a dummy is bound to: a variable or array element
/// of the calling unit, where its name stands in the call.
#[derive(Clone, Debug, PartialEq)]
pub struct ArgOrigin {
    pub unit: Rc<str>,
    pub pos: Pos,
    pub var: Rc<str>,
    /// Offset of the caller's variable (its element 0) in the storage.
    pub base: usize,
    /// How many loops and calls were executing at the call.
    pub loops: usize,
    pub callers: usize,
    /// The caller's own binding, when the actual is itself a dummy.
    pub outer: Option<Rc<ArgOrigin>>,
}

impl Access {
    /// This access as unit `unit` sees it: unchanged when `unit` executes
    /// it; when a callee makes it through a chain of dummy arguments that
    /// starts at an actual argument of `unit`, that actual argument (the
    /// facts' use and may-definition at the call). `None` otherwise:
    /// callee locals and COMMON members are not projected.
    pub fn seen_from(&self, unit: &str) -> Option<Access> {
        if &*self.unit == unit {
            return Some(self.clone());
        }
        let mut origin = self.through.as_ref();
        while let Some(o) = origin {
            if &*o.unit == unit {
                return Some(Access {
                    pos: o.pos,
                    unit: o.unit.clone(),
                    var: o.var.clone(),
                    mode: self.mode,
                    index: self.loc.offset.saturating_sub(o.base),
                    loc: self.loc,
                    loops: self.loops.get(..o.loops).unwrap_or(&self.loops).into(),
                    at_loop_end: false,
                    callers: self
                        .callers
                        .get(..o.callers)
                        .unwrap_or(&self.callers)
                        .into(),
                    through: o.outer.clone(),
                });
            }
            origin = o.outer.as_ref();
        }
        None
    }
}

/// The trace as one unit sees it (see [`Access::seen_from`]): what to
/// compute real dependences from when checking that unit's analysis.
pub fn project(trace: &[Access], unit: &str) -> Vec<Access> {
    trace.iter().filter_map(|a| a.seen_from(unit)).collect()
}
