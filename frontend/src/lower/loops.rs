//! DO and DO WHILE loops (`loop`, `loop_parent`, `loop_stmt`, `loop_end`,
//! `loop_bounds`, `loop_bound`, `loop_trip`, `loop_runs`, `hpf_independent`, `hpf_new`) and their
//! CFG nodes (see [`super::cfg`] for the edges).
//!
//! A DO statement uses its bound expressions and then defines its variable;
//! the `enddo` node increments it (a use, then a definition, both placed at
//! the variable's name in the DO statement). Bounds are folded text and,
//! when affine, forms over the loops that enclose the DO statement (not the
//! loop itself). The trip count of a constant step and bounds that are
//! constants or a constant apart follows Fortran:
//! `max(0, (upper - lower + step) / step)` with truncating division. A
//! loop also runs at least once (`loop_runs`) when its bounds, affine in
//! the DO variables of constant-bounded loops around it, give an iteration
//! for every value those take (interval arithmetic on upper - lower), and
//! runs no iteration (`loop_trip` 0) when they give none for any value.

use kaiseki_facts::{
    HpfIndependent, HpfNew, IterationLast, Loop, LoopBound, LoopBounds, LoopEnd as LoopEndFact,
    LoopParent, LoopRuns, LoopStmt, LoopTrip,
};

use super::affine::{Form, Term};
use super::cfg::Frag;
use super::refs::{Access, StmtRefs};
use super::{LoopFrame, Range, UnitLowerer};
use crate::ast::{Expr, Independent, LoopEnd, Name, Pos, Stmt};
use crate::fold;

impl<'a> UnitLowerer<'_, '_, 'a> {
    /// `loop_stmt` rows of a new statement: it is inside every open loop.
    pub(super) fn in_loops(&mut self, stmt: i64) {
        for f in &self.loops {
            self.g.facts.loop_stmt.push(LoopStmt { r#loop: f.id, stmt });
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn do_loop(
        &mut self,
        s: &'a Stmt,
        var: &'a Name,
        [lower, upper]: [&'a Expr; 2],
        step: Option<&'a Expr>,
        body: &'a [Stmt],
        end: &'a LoopEnd,
        independent: Option<&Independent>,
        construct: Option<&String>,
    ) -> Frag {
        let id = self.number(s.pos, s.label, "do", true);
        self.note_certain(id);
        let mut r = StmtRefs::default();
        for e in [Some(lower), Some(upper), step].into_iter().flatten() {
            self.read(&mut r, e);
        }
        self.name_ref(&mut r, &var.text, var.pos, Access::MustDef);
        self.emit_refs(id, r);
        self.loop_header(id, "do", &var.text, s.pos);
        let range = self
            .bounds(id, lower, upper, step, s.pos)
            .unwrap_or((None, None));
        if let Some(ind) = independent {
            self.g
                .facts
                .hpf_independent
                .push(HpfIndependent { r#loop: id });
            for v in &ind.new {
                self.g.facts.hpf_new.push(HpfNew {
                    r#loop: id,
                    var: v.text.clone(),
                });
            }
        }
        // The outer iterations the body can run in (a triangular loop's).
        let running = step
            .map_or(Some(1), |e| fold::fold_int(e, self.syms))
            .filter(|&st| st != 0)
            .map_or_else(Vec::new, |st| self.running_iterations(lower, upper, st));
        self.loops.push(LoopFrame {
            id,
            var: Some(var.text.clone()),
            range,
            bounds: step
                .map_or(Some(1), |e| fold::fold_int(e, self.syms))
                .filter(|&st| st != 0)
                .map(|st| (lower.clone(), upper.clone(), st)),
            construct: construct.cloned(),
            exits: Vec::new(),
            cycles: Vec::new(),
        });
        let inner = self.seq(body);
        let end_id = self.end_node(end, body, s.pos);
        let mut r = StmtRefs::default();
        self.name_ref(&mut r, &var.text, var.pos, Access::Use);
        self.name_ref(&mut r, &var.text, var.pos, Access::MustDef);
        self.emit_refs(end_id, r);
        let frame = self.loops.pop().expect("the loop's frame");
        self.g.facts.loop_end.push(LoopEndFact {
            r#loop: id,
            stmt: end_id,
        });
        self.certain_rows(id, end_id);
        if self.at_most_one_trip.contains(&id) {
            // Every statement of the body, and the increment at the end,
            // runs in the first iteration only.
            for stmt in id + 1..=end_id {
                self.g.facts.iteration_last.push(IterationLast {
                    stmt,
                    r#loop: id,
                    iteration: 0,
                });
            }
        }
        // The body and the increment at the end run only in those outer
        // iterations (the DO statement itself in every one).
        self.iteration_rows(id + 1..end_id + 1, &running);
        let first = inner.entry.unwrap_or(end_id);
        self.edge(id, first);
        for x in inner.exits {
            self.edge(x, end_id);
        }
        self.edge(end_id, first);
        for c in frame.cycles {
            self.edge(c, end_id);
        }
        let mut exits = vec![id, end_id];
        exits.extend(frame.exits);
        Frag {
            entry: Some(id),
            exits,
        }
    }

    pub(super) fn do_while(
        &mut self,
        s: &'a Stmt,
        cond: &'a Expr,
        body: &'a [Stmt],
        end: &'a LoopEnd,
        construct: Option<&String>,
    ) -> Frag {
        let id = self.number(s.pos, s.label, "do_while", true);
        self.condition(id, cond);
        self.loop_header(id, "do_while", "", s.pos);
        self.loops.push(LoopFrame {
            id,
            var: None,
            range: (None, None),
            bounds: None,
            construct: construct.cloned(),
            exits: Vec::new(),
            cycles: Vec::new(),
        });
        let inner = self.seq(body);
        let end_id = self.end_node(end, body, s.pos);
        let frame = self.loops.pop().expect("the loop's frame");
        self.g.facts.loop_end.push(LoopEndFact {
            r#loop: id,
            stmt: end_id,
        });
        self.edge(id, inner.entry.unwrap_or(end_id));
        for x in inner.exits {
            self.edge(x, end_id);
        }
        self.edge(end_id, id);
        for c in frame.cycles {
            self.edge(c, end_id);
        }
        let mut exits = vec![id];
        exits.extend(frame.exits);
        Frag {
            entry: Some(id),
            exits,
        }
    }

    /// The `enddo` node: the END DO statement, or the synthetic one after
    /// the terminal statement of a labelled DO.
    fn end_node(&mut self, end: &LoopEnd, body: &[Stmt], do_pos: Pos) -> i64 {
        match end {
            LoopEnd::EndDo { pos, label } => {
                self.flush_decls(Some(*pos));
                self.number(*pos, *label, "enddo", true)
            }
            LoopEnd::Label(_) => {
                let pos = Self::terminal_line(body, do_pos);
                self.number(pos, None, "enddo", true)
            }
        }
    }

    fn loop_header(&mut self, id: i64, kind: &str, var: &str, pos: Pos) {
        self.g.facts.r#loop.push(Loop {
            r#loop: id,
            unit: self.name.clone(),
            kind: kind.to_string(),
            var: var.to_string(),
            line: pos.line as i64,
            depth: self.loops.len() as i64 + 1,
        });
        if let Some(parent) = self.loops.last() {
            self.g.facts.loop_parent.push(LoopParent {
                r#loop: id,
                parent: parent.id,
            });
        }
    }

    /// The loop's bound rows, `loop_trip` and `loop_runs`; returns the
    /// least and greatest values of the DO variable in the body, each
    /// when the bounds give it (`DO I = 1, N` only the least).
    fn bounds(
        &mut self,
        id: i64,
        lower: &Expr,
        upper: &Expr,
        step: Option<&Expr>,
        pos: Pos,
    ) -> Option<Range> {
        let syms = self.syms;
        self.g.facts.loop_bounds.push(LoopBounds {
            r#loop: id,
            lower: fold::text(lower, syms),
            upper: fold::text(upper, syms),
            step: step.map_or_else(|| "1".to_string(), |e| fold::text(e, syms)),
        });
        let mut forms = Vec::new();
        for (which, e) in [
            ("lower", Some(lower)),
            ("upper", Some(upper)),
            ("step", step),
        ] {
            let form = match e {
                Some(e) => self.affine(e),
                None => Some(Form::constant(1)),
            };
            if let Some(f) = &form {
                let form = self.emit_form(f);
                self.g.facts.loop_bound.push(LoopBound {
                    r#loop: id,
                    which: which.to_string(),
                    form,
                });
            }
            forms.push(form);
        }
        let st = step.map_or(Some(1), |e| fold::fold_int(e, syms));
        if st == Some(0) {
            self.error(
                step.map_or(pos, |e| e.pos),
                "DO loop step is zero".to_string(),
            );
            return None;
        }
        // Constant bounds, or bounds a constant apart (`DO J = I, I + 1`:
        // both are evaluated when the loop starts).
        let span = match (fold::fold_int(lower, syms), fold::fold_int(upper, syms)) {
            (Some(l), Some(u)) => u.checked_sub(l),
            _ => match (&forms[0], &forms[1]) {
                (Some(l), Some(u)) => l
                    .clone()
                    .scale(-1)
                    .and_then(|l| u.clone().add(l))
                    .and_then(|d| d.as_constant()),
                _ => None,
            },
        };
        let trip = span.zip(st).and_then(|(span, st)| trip_count(0, span, st));
        if let Some(trip) = trip {
            self.g.facts.loop_trip.push(LoopTrip { r#loop: id, trip });
        }
        // Over the values of the enclosing DO variables: the bounds' ranges,
        // and whether upper - lower always has the step's sign (or is 0).
        let st = st?;
        let range = |f: &Option<Form>| f.as_ref().map_or((None, None), |f| self.interval(f));
        let (lo, up) = (range(&forms[0]), range(&forms[1]));
        let gap = match (&forms[0], &forms[1]) {
            (Some(l), Some(u)) => l.clone().scale(-1).and_then(|l| u.clone().add(l)),
            _ => None,
        };
        let (gap_min, gap_max) = gap.as_ref().map_or((None, None), |g| self.interval(g));
        // At most one iteration wherever the loop is reached, though not
        // always the same count (`DO J = 3, I + 1, -1` inside `DO I = 2,
        // 5`: once for I = 2, never after): the loop carries nothing.
        let far = if st > 0 { gap_max } else { gap_min };
        if far
            .and_then(|f| trip_count(0, f, st))
            .is_some_and(|n| n <= 1)
        {
            self.at_most_one_trip.insert(id);
        }
        let runs = (st > 0 && gap_min.is_some_and(|m| m >= 0))
            || (st < 0 && gap_max.is_some_and(|m| m <= 0));
        // Bounds a varying distance apart that give one trip count for
        // every value the DO variables around take (the count grows with
        // the distance, so its ends decide): `DO J = 1, I + 1, -1` inside
        // `DO I = 1, 5` never runs, `DO J = 3, I, -1` where I is 3 runs
        // once. One end may do: past it the count is 0 (`DO J = 0, I, -1`
        // inside `DO I = 1, N`).
        let trip = trip.or_else(|| {
            let (near, far) = if st > 0 {
                (gap_min, gap_max)
            } else {
                (gap_max, gap_min)
            };
            let n = trip_count(0, far?, st)?;
            let same = n == 0 || trip_count(0, near?, st)? == n;
            if same {
                self.g.facts.loop_trip.push(LoopTrip {
                    r#loop: id,
                    trip: n,
                });
            }
            same.then_some(n)
        });
        if runs || trip.is_some_and(|t| t >= 1) {
            self.g.facts.loop_runs.push(LoopRuns { r#loop: id });
        }
        // Constant bounds: the last value the step reaches, not the upper
        // bound (`DO I = 4, 5, 2` takes 4 only).
        if let ((Some(l), Some(l2)), (Some(u), Some(u2)), Some(t)) =
            (lo, up, trip.filter(|&t| t >= 1))
        {
            if l == l2 && u == u2 {
                let last = l.checked_add(st.checked_mul(t - 1)?)?;
                return Some((Some(l.min(last)), Some(l.max(last))));
            }
        }
        Some(if st > 0 { (lo.0, up.1) } else { (up.0, lo.1) })
    }

    /// The least and greatest values of `f` over the ranges of the DO
    /// variables of the loops around, each when known (neither if `f` has
    /// another term).
    fn interval(&self, f: &Form) -> Range {
        let (mut min, mut max) = (Some(f.constant), Some(f.constant));
        for (term, &c) in &f.terms {
            let Term::Loop(l) = term else {
                return (None, None);
            };
            let Some(frame) = self.loops.iter().rev().find(|fr| fr.id == *l) else {
                return (None, None);
            };
            let (a, b) = frame.range;
            let (least, greatest) = if c >= 0 { (a, b) } else { (b, a) };
            let term = |x: Option<i64>| x.and_then(|x| c.checked_mul(x));
            min = min.zip(term(least)).and_then(|(m, x)| m.checked_add(x));
            max = max.zip(term(greatest)).and_then(|(m, x)| m.checked_add(x));
        }
        (min, max)
    }
}

/// Fortran's iteration count `max(0, (u - l + s) / s)`; `None` on overflow or a zero step.
pub(super) fn trip_count(l: i64, u: i64, s: i64) -> Option<i64> {
    let n = u.checked_sub(l)?.checked_add(s)?.checked_div(s)?;
    Some(n.max(0))
}

#[cfg(test)]
mod tests {
    use super::trip_count;

    #[test]
    fn trip_counts_follow_fortran() {
        assert_eq!(trip_count(1, 64, 1), Some(64));
        assert_eq!(trip_count(1, 10, 3), Some(4));
        assert_eq!(trip_count(10, 1, -1), Some(10));
        assert_eq!(trip_count(10, 1, 1), Some(0));
        assert_eq!(trip_count(1, 1, 0), None);
    }
}
