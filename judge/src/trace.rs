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
}
