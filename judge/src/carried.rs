//! What a run shows about one DO loop, read off its trace per memory cell:
//! the dependences the loop carries (flow, anti or output between two
//! different iterations of one execution of the loop), and the values the
//! loop leaves to be read after it (a flow from inside an execution of
//! the loop to an access outside it), and whether each came from the
//! loop's sequentially last iteration.

use crate::deps::DepKind;
use crate::trace::{Access, Loc, Mode};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// What the trace shows about the loop at one line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoopObservation {
    /// Did the loop run at all (some access happened inside it)?
    pub executed: bool,
    /// The most iterations one execution of the loop ran.
    pub max_trip: u64,
    /// Per variable (the name the source access goes through; for an access
    /// through a dummy, the name the loop's unit passed), the kinds
    /// of the dependences the loop carries on it, with one example each:
    /// (source line, sink line).
    pub carried: BTreeMap<String, BTreeMap<DepKind, (u32, u32)>>,
    /// Variables whose value set inside the loop is read after it.
    pub live_out: BTreeSet<String>,
    /// Of those, the ones where such a value was set by an iteration other
    /// than the last.
    pub live_out_not_last: BTreeSet<String>,
}

impl LoopObservation {
    /// Adds what another run (or another unit's view) showed.
    pub fn merge(&mut self, other: LoopObservation) {
        self.executed |= other.executed;
        self.max_trip = self.max_trip.max(other.max_trip);
        for (v, kinds) in other.carried {
            let mine = self.carried.entry(v).or_default();
            for (k, e) in kinds {
                mine.entry(k).or_insert(e);
            }
        }
        self.live_out.extend(other.live_out);
        self.live_out_not_last.extend(other.live_out_not_last);
    }
}

/// Where an access stands relative to the loop: (instance, iteration),
/// or `None` outside every execution of it.
fn inside(a: &Access, line: u32) -> Option<(u64, u64)> {
    a.loops
        .iter()
        .find(|it| it.do_pos.line == line)
        .map(|it| (it.instance, it.iter))
}

/// Observes the loop whose DO statement stands at `line` in `trace`.
/// `automatic` names the (unit, variable) pairs that are a procedure's
/// own variables without SAVE: each call has its own (gfortran makes them
/// so with -fopenmp, and they are undefined on entry), so their cells in
/// two calls are two cells, whatever the interpreter reuses.
pub fn observe(
    trace: &[Access],
    line: u32,
    automatic: &BTreeSet<(String, String)>,
) -> LoopObservation {
    let mut obs = LoopObservation::default();
    // The last iteration of each execution (the DO variable's increment
    // is traced in every iteration, so none goes unseen).
    let mut last_iter: HashMap<u64, u64> = HashMap::new();
    for a in trace {
        if let Some((inst, it)) = inside(a, line) {
            let m = last_iter.entry(inst).or_default();
            *m = (*m).max(it);
        }
    }
    obs.executed = !last_iter.is_empty();
    obs.max_trip = last_iter.values().map(|l| l + 1).max().unwrap_or(0);
    #[derive(Default)]
    struct Cell {
        last_write: Option<usize>,
        reads: Vec<usize>,
    }
    // A cell, and for an automatic variable the call it belongs to.
    let mut cells: HashMap<(Loc, Option<u64>), Cell> = HashMap::new();
    // The unit of the loop, by the accesses of its DO statement: a callee's
    // access through a dummy is named as that unit passed it.
    let unit = trace
        .iter()
        .find(|a| a.pos.line == line && inside(a, line).is_some())
        .map(|a| a.unit.clone());
    let name = |a: &Access| -> String {
        let mut origin = a
            .through
            .as_deref()
            .filter(|_| Some(&a.unit) != unit.as_ref());
        while let Some(o) = origin {
            if Some(&o.unit) == unit.as_ref() {
                return o.var.to_string();
            }
            origin = o.outer.as_deref();
        }
        a.var.to_string()
    };
    let mut note = |kind: DepKind, src: &Access, dst: &Access| {
        let (s, d) = (inside(src, line), inside(dst, line));
        match (s, d) {
            (Some((i, a)), Some((j, b))) if i == j && a != b => {
                obs.carried
                    .entry(name(src))
                    .or_default()
                    .entry(kind)
                    .or_insert((src.pos.line, dst.pos.line));
            }
            (Some((i, a)), d) if kind == DepKind::Flow && d.is_none_or(|(j, _)| j != i) => {
                obs.live_out.insert(src.var.to_string());
                if last_iter.get(&i) != Some(&a) {
                    obs.live_out_not_last.insert(src.var.to_string());
                }
            }
            _ => {}
        }
    };
    for (i, a) in trace.iter().enumerate() {
        let call = a.callers.last().filter(|_| {
            automatic.contains(&(a.unit.to_string(), a.var.to_string())) && a.through.is_none()
        });
        let cell = cells.entry((a.loc, call.map(|c| c.instance))).or_default();
        match a.mode {
            Mode::Read => {
                if let Some(w) = cell.last_write {
                    note(DepKind::Flow, &trace[w], a);
                }
                cell.reads.push(i);
            }
            Mode::Write => {
                for r in cell.reads.drain(..) {
                    note(DepKind::Anti, &trace[r], a);
                }
                if let Some(w) = cell.last_write {
                    note(DepKind::Output, &trace[w], a);
                }
                cell.last_write = Some(i);
            }
        }
    }
    obs
}
