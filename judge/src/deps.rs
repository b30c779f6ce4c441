//! The real dependences of one run, read off its trace per memory cell:
//!
//! - flow:   a write, then a read with no write in between;
//! - anti:   a read, then the first later write;
//! - output: a write, then the next write;
//! - input:  a read, then the next read with no write in between.
//!
//! These are the direct (minimal) dynamic dependences; every one of them is
//! a dependence a sound static analysis must report (as a row covering its
//! source, sink and distance). The two ends may go through different names
//! that share the cell (EQUIVALENCE, COMMON laid out differently).

use crate::trace::{Access, Iteration, Loc, Mode};
use kaiseki_frontend::ast::Pos;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::fmt;
use std::rc::Rc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DepKind {
    Flow,
    Anti,
    Output,
    Input,
}

impl DepKind {
    /// The word used in the CSV `kind` column.
    pub fn as_str(self) -> &'static str {
        match self {
            DepKind::Flow => "flow",
            DepKind::Anti => "anti",
            DepKind::Output => "output",
            DepKind::Input => "input",
        }
    }
}

/// One end of a dependence: the unit executing it, the position of the
/// variable's name, and whether the access is the DO variable's increment
/// at a loop's end.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct End {
    pub unit: String,
    pub pos: Pos,
    pub at_loop_end: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Dependence {
    pub kind: DepKind,
    /// The name the source access goes through.
    pub var: String,
    /// The name the sink access goes through (`var` unless they share storage).
    pub sink_var: String,
    pub src: End,
    pub dst: End,
    /// The DO loops enclosing both ends (DO statement positions, outermost
    /// first): the common loops of both iteration vectors, matched by
    /// position, starting in one dynamic instance of the outermost.
    pub loops: Vec<Pos>,
    /// Per loop of `loops`: sink iteration minus source iteration.
    pub distance: Vec<i64>,
}

impl fmt::Display for Dependence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let end = |e: &End| {
            format!(
                "{}:{}{}",
                e.pos.line,
                e.pos.col,
                if e.at_loop_end { "(enddo)" } else { "" }
            )
        };
        let loops: Vec<String> = self.loops.iter().map(|p| p.line.to_string()).collect();
        let dist: Vec<String> = self.distance.iter().map(i64::to_string).collect();
        let var = if self.var == self.sink_var {
            self.var.clone()
        } else {
            format!("{}->{}", self.var, self.sink_var)
        };
        write!(
            f,
            "{} {} {} -> {} loops [{}] distance ({})",
            self.kind.as_str(),
            var,
            end(&self.src),
            end(&self.dst),
            loops.join(","),
            dist.join(",")
        )
    }
}

/// What is known about one cell while scanning the trace.
#[derive(Default)]
struct CellState {
    last_write: Option<usize>,
    /// Reads since the last write (each gets an anti dependence to the next write).
    reads_since_write: Vec<usize>,
    /// The last read since the last write (source of the next input dependence).
    last_read: Option<usize>,
}

type KeyEnd = (Rc<str>, Pos, bool);
type Key = (DepKind, [Rc<str>; 2], KeyEnd, KeyEnd, Vec<Pos>, Vec<i64>);

/// All real dependences of a trace, deduplicated.
pub fn dependences(trace: &[Access]) -> BTreeSet<Dependence> {
    let mut cells: HashMap<Loc, CellState> = HashMap::new();
    let mut found: HashSet<Key> = HashSet::new();
    let mut add = |kind: DepKind, src: usize, dst: usize| {
        let (a, b) = (&trace[src], &trace[dst]);
        let (loops, distance) = common_loops(&a.loops, &b.loops);
        let end = |x: &Access| (x.unit.clone(), x.pos, x.at_loop_end);
        let vars = [a.var.clone(), b.var.clone()];
        found.insert((kind, vars, end(a), end(b), loops, distance));
    };
    for (i, access) in trace.iter().enumerate() {
        let cell = cells.entry(access.loc).or_default();
        match access.mode {
            Mode::Read => {
                if let Some(w) = cell.last_write {
                    add(DepKind::Flow, w, i);
                }
                if let Some(r) = cell.last_read {
                    add(DepKind::Input, r, i);
                }
                cell.last_read = Some(i);
                cell.reads_since_write.push(i);
            }
            Mode::Write => {
                for r in cell.reads_since_write.drain(..) {
                    add(DepKind::Anti, r, i);
                }
                if let Some(w) = cell.last_write {
                    add(DepKind::Output, w, i);
                }
                cell.last_write = Some(i);
                cell.last_read = None;
            }
        }
    }
    found
        .into_iter()
        .map(
            |(kind, [var, sink_var], src, dst, loops, distance)| Dependence {
                kind,
                var: var.to_string(),
                sink_var: sink_var.to_string(),
                src: end(src),
                dst: end(dst),
                loops,
                distance,
            },
        )
        .collect()
}

fn end((unit, pos, at_loop_end): KeyEnd) -> End {
    End {
        unit: unit.to_string(),
        pos,
        at_loop_end,
    }
}

/// The loops enclosing both accesses and the iteration distance in each.
/// Levels are matched by DO position; while all outer levels are in the
/// same iteration, a level must also be the same dynamic instance (a loop
/// entered anew is not common); once an outer level differs in iteration,
/// inner levels are necessarily other instances and are compared by
/// iteration number, which gives the usual distance vectors like (1, 0).
pub fn common_loops(src: &[Iteration], dst: &[Iteration]) -> (Vec<Pos>, Vec<i64>) {
    let mut loops = Vec::new();
    let mut distance = Vec::new();
    let mut same_so_far = true;
    for (a, b) in src.iter().zip(dst) {
        if a.do_pos != b.do_pos || (same_so_far && a.instance != b.instance) {
            break;
        }
        loops.push(a.do_pos);
        distance.push(b.iter as i64 - a.iter as i64);
        same_so_far &= a.iter == b.iter;
    }
    (loops, distance)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn it(line: u32, instance: u64, iter: u64) -> Iteration {
        Iteration {
            do_pos: Pos {
                file: 0,
                line,
                col: 7,
            },
            instance,
            iter,
        }
    }

    #[test]
    fn outer_distance_continues_into_inner_loops_of_other_instances() {
        let (loops, d) = common_loops(&[it(1, 0, 2), it(2, 5, 3)], &[it(1, 0, 3), it(2, 9, 3)]);
        assert_eq!(loops.iter().map(|p| p.line).collect::<Vec<_>>(), vec![1, 2]);
        assert_eq!(d, vec![1, 0]);
    }

    #[test]
    fn a_loop_entered_anew_in_the_same_outer_iteration_is_not_common() {
        let (loops, d) = common_loops(&[it(1, 0, 2), it(2, 5, 3)], &[it(1, 0, 2), it(2, 6, 0)]);
        assert_eq!(loops.len(), 1);
        assert_eq!(d, vec![0]);
        let (loops, _) = common_loops(&[it(1, 0, 2)], &[it(1, 1, 2)]);
        assert!(loops.is_empty());
    }
}
