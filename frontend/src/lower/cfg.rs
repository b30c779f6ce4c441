//! Statements and the control flow graph (`stmt`, `stmt_label`, `cfg_edge`,
//! `cfg_entry`, `cfg_exit`).
//!
//! Every executable statement is a CFG node, including the nodes that only
//! structure control: `do`/`do_while` headers, `enddo` (the END DO, or a
//! synthetic node right after the terminal statement of a labelled DO, on
//! its line with col 0; for loops sharing a terminal the innermost loop's
//! first), `if`, `elseif`, `else`, `endif`, the test of a logical IF (its
//! inner statement is the next node, on the same line) and the unit's
//! `end`. Declarations and FORMAT get `stmt` rows but are not nodes.
//!
//! Edges: fallthrough in sequence; a DO header goes to the first body
//! statement and past the loop (zero trips); its `enddo` goes back to the
//! first body statement and past the loop; a DO WHILE header tests (to the
//! body and past the loop), its `enddo` goes back to the header. An `if` or
//! `elseif` goes to the first statement of its arm (the `endif` when the
//! arm is empty) and to the next `elseif`/`else`/`endif`; the last statement
//! of every arm goes to the `endif`. GOTOs go to the labelled statement (a
//! label on END DO, a terminal statement, END IF or END names that node);
//! a computed GOTO also falls through, and so does a READ or WRITE that
//! may jump (END=, ERR=, EOR=); RETURN goes to the unit's `end`;
//! STOP and `end` have no successor. An `exit` goes where its loop goes on
//! (as the loop's header and `enddo` do), a `cycle` to its loop's `enddo`.
//! SELECT CASE: `select` (reading the selector) goes to the first `case`,
//! each `case` to its body and to the next `case` (the last one to the
//! `case_default`, or the `endselect` when there is none), every body's
//! end to the `endselect`.

use crate::ast::{
    CaseArm, CaseValue, ElsePart, Expr, ExprKind, ForallIndex, IfArm, LoopEnd, Pos, Stmt, StmtKind,
};
use crate::intrinsics::Form;
use kaiseki_facts::{Call, CfgEntry, CfgExit, Cond, Opaque, Stmt as StmtFact, StmtFile, StmtLabel};

use super::domain::Known;
use super::guards::Test;
use super::refs::StmtRefs;
use super::{Hidden, Reach, UnitLowerer};

/// The lowered form of a statement or sequence for wiring the CFG: where
/// control enters, and the nodes that fall through to whatever comes next.
pub(super) struct Frag {
    pub entry: Option<i64>,
    pub exits: Vec<i64>,
}

impl<'a> UnitLowerer<'_, '_, 'a> {
    /// Numbers a statement: its `stmt` row, label and `loop_stmt` rows, and
    /// its `stmt_file` row when it was read from another file than its
    /// unit's (an INCLUDE).
    pub(super) fn number(
        &mut self,
        pos: Pos,
        label: Option<u32>,
        kind: &str,
        executable: bool,
    ) -> i64 {
        let id = self.g.next_stmt;
        self.g.next_stmt += 1;
        self.g.facts.stmt.push(StmtFact {
            stmt: id,
            unit: self.name.clone(),
            line: pos.line as i64,
            col: pos.col as i64,
            kind: kind.to_string(),
        });
        if pos.file != self.unit.name.pos.file {
            let file = self.g.path(pos);
            self.g.facts.stmt_file.push(StmtFile { stmt: id, file });
        }
        if let Some(l) = label {
            self.g.facts.stmt_label.push(StmtLabel {
                stmt: id,
                label: l as i64,
            });
            if self.labels.insert(l, (id, executable)).is_some() {
                self.error(pos, format!("label {l} is defined more than once"));
            }
        }
        self.in_loops(id);
        self.mark_guarded(id);
        if executable {
            self.exec.push(id);
        }
        id
    }

    pub(super) fn edge(&mut self, from: i64, to: i64) {
        self.edges.push((from, to));
    }

    fn connect(&mut self, froms: &[i64], to: i64) {
        for &f in froms {
            self.edge(f, to);
        }
    }

    /// Lowers the body and the END of the unit.
    pub(super) fn lower_body(&mut self) {
        let unit = self.unit;
        let body = self.seq(&unit.body);
        self.flush_decls(None);
        let end = self.number(unit.end, unit.end_label, "end", true);
        self.connect(&body.exits, end);
        let entry = body.entry.unwrap_or(end);
        let name = self.name.clone();
        self.g.facts.cfg_entry.push(CfgEntry {
            unit: name.clone(),
            stmt: entry,
        });
        self.g.facts.cfg_exit.push(CfgExit {
            unit: name,
            stmt: end,
        });
        for r in std::mem::take(&mut self.returns) {
            self.edge(r, end);
        }
        self.resolve_gotos();
        self.opaque_edges(end);
    }

    fn resolve_gotos(&mut self) {
        for (from, label, pos) in std::mem::take(&mut self.gotos) {
            match self.labels.get(&label) {
                Some(&(to, true)) => self.edge(from, to),
                Some(&(_, false)) => self.error(
                    pos,
                    format!("label {label} is not on an executable statement"),
                ),
                None => self.error(pos, format!("no statement has label {label}")),
            }
        }
    }

    /// Lowers a statement sequence, wiring each statement's exits to the next.
    pub(super) fn seq(&mut self, stmts: &'a [Stmt]) -> Frag {
        let mut frag = Frag {
            entry: None,
            exits: Vec::new(),
        };
        self.forget_values();
        for s in stmts {
            let calls = self.g.facts.call.len();
            if s.label.is_some() {
                self.forget_values();
            }
            let lowered = self.stmt(s);
            self.after_statement(s, self.g.facts.call.len() - calls);
            if let Some(f) = lowered {
                if let Some(entry) = f.entry {
                    let exits = std::mem::take(&mut frag.exits);
                    self.connect(&exits, entry);
                    frag.entry.get_or_insert(entry);
                }
                frag.exits = f.exits;
            }
        }
        frag
    }

    /// Lowers one statement; `None` for a non-executable one.
    fn stmt(&mut self, s: &'a Stmt) -> Option<Frag> {
        self.flush_decls(Some(s.pos));
        let single = |id: i64, falls: bool| Frag {
            entry: Some(id),
            exits: if falls { vec![id] } else { Vec::new() },
        };
        let frag = match &s.kind {
            StmtKind::Assign { .. } if self.syms.is_stmt_function_def(s) => {
                self.number(s.pos, s.label, "decl", false);
                return None;
            }
            StmtKind::Assign { lhs, rhs } => {
                let id = self.number(s.pos, s.label, "assign", true);
                // A scalar or a whole array: what one statement kills.
                if matches!(lhs.kind, ExprKind::Var(_)) {
                    self.note_certain(id);
                }
                self.assignment(id, lhs, rhs);
                single(id, true)
            }
            StmtKind::Do {
                var,
                lower,
                upper,
                step,
                body,
                end,
                independent,
                construct,
            } => self.do_loop(
                s,
                var,
                [lower, upper],
                step.as_ref(),
                body,
                end,
                independent.as_ref(),
                construct.as_ref(),
            ),
            StmtKind::DoWhile {
                cond,
                body,
                end,
                construct,
            } => self.do_while(s, cond, body, end, construct.as_ref()),
            StmtKind::Select {
                selector,
                cases,
                end,
                end_label,
                ..
            } => self.select(s, selector, cases, *end, *end_label),
            StmtKind::Where {
                indices,
                mask,
                lhs,
                rhs,
            } => {
                // Reads the FORALL bounds, the mask and the right side; may
                // write (part of) the left side, so earlier values of it
                // may live on. An element whose subscripts use a FORALL
                // index is the whole array, as in an implied DO.
                let kind = if indices.is_empty() {
                    "where"
                } else {
                    "forall"
                };
                let id = self.number(s.pos, s.label, kind, true);
                let mut r = StmtRefs::default();
                for b in indices.iter().flat_map(ForallIndex::bounds) {
                    self.read(&mut r, b);
                }
                let around = self.implied.len();
                self.implied
                    .extend(indices.iter().map(|i| i.var.text.as_str()));
                self.read(&mut r, mask);
                self.read(&mut r, rhs);
                self.write(&mut r, lhs, false);
                self.implied.truncate(around);
                self.emit_refs(id, r);
                single(id, true)
            }
            StmtKind::Exit { construct } => {
                let id = self.number(s.pos, s.label, "exit", true);
                self.loop_jump(id, construct.as_ref(), true);
                single(id, false)
            }
            StmtKind::Cycle { construct } => {
                let id = self.number(s.pos, s.label, "cycle", true);
                self.loop_jump(id, construct.as_ref(), false);
                single(id, false)
            }
            StmtKind::If {
                arms,
                else_part,
                end,
                end_label,
            } => self.block_if(s, arms, else_part.as_ref(), *end, *end_label),
            StmtKind::LogicalIf { cond, stmt } => {
                let id = self.number(s.pos, s.label, "logical_if", true);
                self.condition(id, cond);
                let test = self.minmax_test(id, cond);
                let outer_guard = std::mem::replace(&mut self.guard, test);
                let mut exits = vec![id];
                let mut then = None;
                let decided = self.decided(cond);
                let mut guards = Vec::new();
                self.constraints(cond, false, &mut guards);
                self.known.push(Known {
                    cond,
                    holds: true,
                    depth: self.loops.len(),
                });
                let spans = self.domain_box(&mut guards);
                let first_then = self.g.next_stmt;
                let inner = self.stmt(stmt);
                self.known.pop();
                self.guard_arm(id, first_then, &guards, &spans);
                if let Some(inner) = inner {
                    if let Some(e) = inner.entry {
                        self.edge(id, e);
                        match decided {
                            Some(false) => self.never(id, e),
                            // The edge past the statement is wired by the
                            // caller: marked in `finish_blocks`.
                            Some(true) => {
                                self.always_then.insert(id, e);
                            }
                            None => {}
                        }
                    }
                    then = inner.entry;
                    exits.extend(inner.exits);
                }
                self.tests.push(Test {
                    stmt: id,
                    cond,
                    then,
                });
                self.guard = outer_guard;
                Frag {
                    entry: Some(id),
                    exits,
                }
            }
            StmtKind::Goto(label) => {
                let id = self.number(s.pos, s.label, "goto", true);
                self.gotos.push((id, *label, s.pos));
                single(id, false)
            }
            StmtKind::ComputedGoto { labels, index } => {
                let id = self.number(s.pos, s.label, "computed_goto", true);
                self.condition(id, index);
                self.gotos.extend(labels.iter().map(|&l| (id, l, s.pos)));
                single(id, true)
            }
            StmtKind::ArithIf {
                expr,
                neg,
                zero,
                pos,
            } => {
                let id = self.number(s.pos, s.label, "arith_if", true);
                self.condition(id, expr);
                self.gotos
                    .extend([*neg, *zero, *pos].map(|l| (id, l, s.pos)));
                single(id, false)
            }
            StmtKind::Continue => single(self.number(s.pos, s.label, "continue", true), true),
            StmtKind::Call { name, args } => {
                let id = self.number(s.pos, s.label, "call", true);
                let mut r = StmtRefs::default();
                match self.syms.intrinsic(&name.text, Form::Subroutine) {
                    Some(row) => {
                        self.intrinsic_args(&mut r, row, name.pos, args);
                        // What it does besides its arguments (a random
                        // sequence, the clock, ending the run) no loop
                        // may reorder: a call, never a contained one.
                        if row.name != "MVBITS" {
                            self.g.facts.call.push(Call {
                                stmt: id,
                                callee: row.name.to_string(),
                            });
                        }
                    }
                    None => {
                        r.calls.push((name.text.clone(), name.pos));
                        self.actuals(&mut r, &name.text, args);
                    }
                }
                self.emit_refs(id, r);
                single(id, true)
            }
            StmtKind::Return => {
                let id = self.number(s.pos, s.label, "return", true);
                self.exit(id);
                self.returns.push(id);
                single(id, false)
            }
            StmtKind::Stop => {
                let id = self.number(s.pos, s.label, "stop", true);
                self.exit(id);
                single(id, false)
            }
            StmtKind::Read { control, items } => self.io(s, "read", control, items),
            StmtKind::Write { control, items } => self.io(s, "write", control, items),
            StmtKind::Print { control, items } => self.io(s, "print", control, items),
            StmtKind::File {
                what,
                control,
                outputs,
            } => self.file(s, what, control, outputs),
            StmtKind::Format => {
                self.number(s.pos, s.label, "format", false);
                return None;
            }
            StmtKind::Allocate {
                deallocate,
                objects,
                stat,
                source,
            } => {
                let what = if *deallocate {
                    "deallocate"
                } else {
                    "allocate"
                };
                let id = self.number(s.pos, s.label, what, true);
                let mut r = StmtRefs::default();
                for e in objects
                    .iter()
                    .flat_map(Expr::allocated_bounds)
                    .chain(source)
                {
                    self.read(&mut r, e);
                }
                self.emit_refs(id, r);
                let mut r = StmtRefs::default();
                for v in stat {
                    self.write(&mut r, v, true);
                }
                self.emit_refs(id, r);
                single(id, true)
            }
            StmtKind::Opaque { reason } => {
                let id = self.number(s.pos, s.label, "opaque", true);
                self.g.facts.opaque.push(Opaque {
                    stmt: id,
                    reason: reason.clone(),
                });
                self.hidden.push(Hidden {
                    stmt: id,
                    pos: s.pos,
                    reach: Reach::Everything,
                });
                let around = self.loops.iter().map(|f| f.id).collect();
                self.opaque.push((id, around));
                single(id, true)
            }
        };
        Some(frag)
    }

    /// An opaque statement may jump (CYCLE, EXIT, an assigned GOTO, an
    /// alternate RETURN): it may also go to the `enddo` of every loop around
    /// it (past which the loop exits), to every labelled statement and to
    /// the unit's `end`.
    fn opaque_edges(&mut self, end: i64) {
        let labelled: Vec<i64> = self
            .labels
            .values()
            .filter(|(_, exec)| *exec)
            .map(|(s, _)| *s)
            .collect();
        if self.opaque.is_empty() {
            return;
        }
        let ends: rustc_hash::FxHashMap<i64, i64> = self
            .g
            .facts
            .loop_end
            .iter()
            .map(|e| (e.r#loop, e.stmt))
            .collect();
        for (id, around) in std::mem::take(&mut self.opaque) {
            let mut targets: Vec<i64> =
                around.iter().filter_map(|l| ends.get(l).copied()).collect();
            targets.extend(&labelled);
            targets.push(end);
            for t in targets {
                self.edge(id, t);
            }
        }
    }

    /// An EXIT (`exit`) or CYCLE of the loop named `construct`, or of the
    /// innermost loop: wired when that loop's end is numbered. (Structuring
    /// made one without such a loop opaque; should one get here, it goes
    /// to the unit's end.)
    fn loop_jump(&mut self, id: i64, construct: Option<&String>, exit: bool) {
        let frame = self
            .loops
            .iter_mut()
            .rev()
            .find(|f| construct.is_none() || f.construct.as_ref() == construct);
        match frame {
            Some(f) if exit => f.exits.push(id),
            Some(f) => f.cycles.push(id),
            None => self.returns.push(id),
        }
    }

    /// SELECT CASE: the `select` node reads the selector once; each CASE
    /// is a `case` node testing it, in a chain as ELSE IFs are (in the
    /// order written; at most one matches), whose last one goes to the
    /// CASE DEFAULT (a `case_default` node, numbered after the CASEs with
    /// its body) or to the `endselect`.
    fn select(
        &mut self,
        s: &'a Stmt,
        selector: &'a Expr,
        cases: &'a [CaseArm],
        end: Pos,
        end_label: Option<u32>,
    ) -> Frag {
        let sel = self.number(s.pos, s.label, "select", true);
        let mut r = StmtRefs::default();
        self.read(&mut r, selector);
        self.emit_refs(sel, r);
        // The SELECT is guarded by an outer test; its parts are not.
        let outer_guard = self.guard.take();
        let mut prev = sel;
        let mut default = None;
        let mut to_end = Vec::new();
        // CASE DEFAULT is numbered after the other CASEs wherever it is
        // written: every edge but a loop's back edge goes to a higher id
        // (the dataflow's sparse graphs rely on it).
        let ordered = cases
            .iter()
            .filter(|c| c.values.is_some())
            .chain(cases.iter().filter(|c| c.values.is_none()));
        for case in ordered {
            self.flush_decls(Some(case.pos));
            let node = match &case.values {
                Some(values) => {
                    let node = self.number(case.pos, case.label, "case", true);
                    let mut r = StmtRefs::default();
                    for v in values {
                        match v {
                            CaseValue::Single(e) => self.read(&mut r, e),
                            CaseValue::Range(lo, hi) => {
                                for e in lo.iter().chain(hi) {
                                    self.read(&mut r, e);
                                }
                            }
                        }
                    }
                    self.emit_refs(node, r);
                    self.edge(prev, node);
                    prev = node;
                    node
                }
                None => {
                    let node = self.number(case.pos, case.label, "case_default", true);
                    default = Some(node);
                    node
                }
            };
            let body = self.seq(&case.body);
            match body.entry {
                Some(e) => self.edge(node, e),
                None => to_end.push(node),
            }
            to_end.extend(body.exits);
        }
        self.flush_decls(Some(end));
        self.guard = outer_guard;
        let endselect = self.number(end, end_label, "endselect", true);
        match default {
            Some(d) => self.edge(prev, d),
            None => to_end.push(prev),
        }
        self.connect(&to_end, endselect);
        Frag {
            entry: Some(sel),
            exits: vec![endselect],
        }
    }

    fn exit(&mut self, id: i64) {
        let unit = self.name.clone();
        self.g.facts.cfg_exit.push(CfgExit { unit, stmt: id });
    }

    /// The uses of a branch condition and its `cond` row.
    pub(super) fn condition(&mut self, id: i64, e: &'a Expr) {
        let mut r = StmtRefs::default();
        self.read(&mut r, e);
        self.emit_refs(id, r);
        let text = crate::fold::text(e, self.syms);
        self.g.facts.cond.push(Cond { stmt: id, text });
    }

    fn block_if(
        &mut self,
        s: &'a Stmt,
        arms: &'a [IfArm],
        else_part: Option<&'a ElsePart>,
        end: Pos,
        end_label: Option<u32>,
    ) -> Frag {
        // Nodes whose edge to the next arm test / else / endif is pending,
        // and nodes that go to the endif.
        let mut to_next: Option<i64> = None;
        let mut to_endif: Vec<i64> = Vec::new();
        let mut first = None;
        // Only an IF with one part can be a min/max test (see `reductions`).
        let one_part = arms.len() == 1 && else_part.is_none();
        let mut outer_guard = None;
        // The pending edge to the next arm is one no run takes (the test
        // before it always holds).
        let mut next_dead = false;
        // What the arms so far not taken imply, and the last test.
        let mut earlier = Vec::new();
        let mut guard_test = 0;
        // The conditions known around the IF; each arm adds its own.
        let known_around = self.known.len();
        for (i, arm) in arms.iter().enumerate() {
            let test = if i == 0 {
                self.number(s.pos, s.label.or(arm.label), "if", true)
            } else {
                self.flush_decls(Some(arm.pos));
                self.number(arm.pos, arm.label, "elseif", true)
            };
            self.condition(test, &arm.cond);
            if i > 0 {
                // An ELSE IF test runs only where the earlier arms'
                // conditions did not hold: its references get their box
                // and iterations too.
                let mut around = earlier.clone();
                let spans = self.domain_box(&mut around);
                self.guard_arm(guard_test, test, &around, &spans);
            }
            if i == 0 {
                // The IF is guarded by an outer test; its parts are not.
                outer_guard = self.guard.take();
                if one_part {
                    self.guard = self.minmax_test(test, &arm.cond);
                }
            }
            first.get_or_insert(test);
            if let Some(prev) = to_next.replace(test) {
                self.edge(prev, test);
                if next_dead {
                    self.never(prev, test);
                }
            }
            // Decided where no earlier arm's condition held.
            let decided = self.decided(&arm.cond);
            // The arm runs when its condition holds and no earlier one did.
            let mut guards = earlier.clone();
            self.constraints(&arm.cond, false, &mut guards);
            self.constraints(&arm.cond, true, &mut earlier);
            let depth = self.loops.len();
            self.known.push(Known {
                cond: &arm.cond,
                holds: true,
                depth,
            });
            let spans = self.domain_box(&mut guards);
            let first_then = self.g.next_stmt;
            let body = self.seq(&arm.body);
            self.guard_arm(test, first_then, &guards, &spans);
            // The arms after it run where it did not hold.
            self.known.last_mut().expect("the arm's condition").holds = false;
            guard_test = test;
            next_dead = false;
            match body.entry {
                Some(e) => {
                    self.edge(test, e);
                    if decided == Some(false) {
                        self.never(test, e);
                    }
                    next_dead = decided == Some(true);
                }
                None => to_endif.push(test),
            }
            self.tests.push(Test {
                stmt: test,
                cond: &arm.cond,
                then: body.entry,
            });
            to_endif.extend(body.exits);
        }
        if let Some(ep) = else_part {
            self.flush_decls(Some(ep.pos));
            let node = self.number(ep.pos, ep.label, "else", true);
            first.get_or_insert(node);
            if let Some(prev) = to_next.replace(node) {
                self.edge(prev, node);
                if next_dead {
                    self.never(prev, node);
                }
            }
            // The else node itself always enters its body (never "next").
            to_next = None;
            let first_else = self.g.next_stmt;
            let spans = self.domain_box(&mut earlier);
            let body = self.seq(&ep.body);
            self.guard_arm(guard_test, first_else, &earlier, &spans);
            match body.entry {
                Some(e) => self.edge(node, e),
                None => to_endif.push(node),
            }
            to_endif.extend(body.exits);
        }
        self.known.truncate(known_around);
        self.flush_decls(Some(end));
        self.guard = outer_guard;
        let endif = self.number(end, end_label, "endif", true);
        if let (Some(prev), true) = (to_next, next_dead) {
            // Wired by `connect` below.
            self.never(prev, endif);
        }
        to_endif.extend(to_next);
        self.connect(&to_endif, endif);
        Frag {
            entry: Some(first.unwrap_or(endif)),
            exits: vec![endif],
        }
    }

    /// The synthetic `enddo` of a labelled DO stands on the line of the
    /// terminal statement (the last one of the innermost loop's body).
    pub(super) fn terminal_line(body: &[Stmt], fallback: Pos) -> Pos {
        let mut pos = fallback;
        let mut body = body;
        while let Some(last) = body.last() {
            pos = last.pos;
            match &last.kind {
                StmtKind::Do {
                    body: inner,
                    end: LoopEnd::Label(_),
                    ..
                } => body = inner,
                StmtKind::DoWhile {
                    body: inner,
                    end: LoopEnd::Label(_),
                    ..
                } => body = inner,
                _ => break,
            }
        }
        Pos { col: 0, ..pos }
    }
}
