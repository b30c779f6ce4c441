//! READ, WRITE and PRINT: their `io` rows, references and jumps.
//!
//! - The unit: an INTEGER expression (an external unit number) is read;
//!   a CHARACTER variable, element or substring is an internal file, which
//!   READ reads and WRITE defines. The WRITE certainly overwrites a whole
//!   CHARACTER scalar (its one record is blank-filled, F90 9.2.2.2) unless
//!   the statement may stop early; an element, a substring or an array
//!   (whose records it may not all write) possibly.
//! - The format, REC= and ADVANCE= are read; IOSTAT= is always defined
//!   (F90 9.4.1.5), SIZE= possibly.
//! - END=, ERR= and EOR= are CFG edges to their labels besides the
//!   fallthrough; with them or IOSTAT= a statement may stop part way, so
//!   no item it defines is a certain definition.
//! - The items are transferred in order (F90 9.4.4): READ defines each
//!   after the uses in its subscripts, so `READ *, N, (A(I), I = 1, N)`
//!   reads N before the bounds use it.
//! - An implied DO reads its bounds, defines its variable (certainly at
//!   the top level of a statement that cannot stop early, even for zero
//!   trips, as a DO does), then its items, which it may repeat or skip:
//!   they are never certain definitions. Inside it the implied-DO
//!   variables are no references (their values come from the statement
//!   itself), and an element whose subscripts use them stands for the
//!   elements the loop runs over: it is lowered as the whole array, plus
//!   the other uses in its subscripts.
//!
//! References are numbered: the control list's uses, the items, then the
//! internal file WRITE defines and IOSTAT=, SIZE=.

use kaiseki_facts::Io;

use super::cfg::Frag;
use super::refs::{Access, StmtRefs};
use super::UnitLowerer;
use crate::ast::{Expr, ExprKind, IoControl, IoItem, Stmt, TypeSpec};
use crate::symbols::{ApplyClass, NameClass};

impl<'a> UnitLowerer<'_, '_, 'a> {
    pub(super) fn io(
        &mut self,
        s: &'a Stmt,
        kind: &str,
        control: &'a IoControl,
        items: &'a [IoItem],
    ) -> Frag {
        let id = self.number(s.pos, s.label, kind, true);
        self.g.facts.io.push(Io {
            stmt: id,
            kind: kind.to_string(),
        });
        let read = kind == "read";
        let certain = !control.may_stop_early();
        let written_file = control
            .unit
            .as_ref()
            .filter(|u| !read && self.is_internal_file(u));
        let mut r = StmtRefs::default();
        if written_file.is_none() {
            control.unit.iter().for_each(|u| self.read(&mut r, u));
        }
        for e in control.format.iter().chain(&control.values) {
            self.read(&mut r, e);
        }
        self.emit_refs(id, r);
        for item in items {
            self.io_item(id, item, read, certain);
        }
        let mut r = StmtRefs::default();
        if let Some(file) = written_file {
            let whole_scalar = matches!(&file.kind, ExprKind::Var(n) if self.syms.classify_name(n) == NameClass::Scalar);
            self.write(&mut r, file, certain && whole_scalar);
        }
        if let Some(v) = &control.iostat {
            self.write(&mut r, v, true);
        }
        if let Some(v) = &control.size {
            self.write(&mut r, v, false);
        }
        self.emit_refs(id, r);
        self.gotos.extend(control.jumps().map(|l| (id, l, s.pos)));
        Frag {
            entry: Some(id),
            exits: vec![id],
        }
    }

    /// OPEN, CLOSE, INQUIRE, REWIND, BACKSPACE, ENDFILE: an `io` row of
    /// kind `what`; the unit (an external one) and the values are read,
    /// IOSTAT= is defined, the variables an INQUIRE sets possibly (an
    /// INQUIRE about a unit that is not connected leaves some undefined);
    /// ERR= is a jump.
    pub(super) fn file(
        &mut self,
        s: &'a Stmt,
        what: &str,
        control: &'a IoControl,
        outputs: &'a [Expr],
    ) -> Frag {
        let id = self.number(s.pos, s.label, what, true);
        self.g.facts.io.push(Io {
            stmt: id,
            kind: what.to_string(),
        });
        let mut r = StmtRefs::default();
        for e in control.unit.iter().chain(&control.values) {
            self.read(&mut r, e);
        }
        self.emit_refs(id, r);
        let mut r = StmtRefs::default();
        for v in outputs {
            self.write(&mut r, v, false);
        }
        if let Some(v) = &control.iostat {
            self.write(&mut r, v, true);
        }
        self.emit_refs(id, r);
        self.gotos.extend(control.jumps().map(|l| (id, l, s.pos)));
        Frag {
            entry: Some(id),
            exits: vec![id],
        }
    }

    /// One item: its references as one group, or an implied DO's groups
    /// (bounds, variable, items). `certain`: a READ item here is certainly
    /// transferred.
    fn io_item(&mut self, stmt: i64, item: &'a IoItem, read: bool, certain: bool) {
        let mut r = StmtRefs::default();
        match item {
            IoItem::Expr(e) if read => self.write(&mut r, e, certain),
            IoItem::Expr(e) => self.read(&mut r, e),
            IoItem::ImpliedDo(d) => {
                for e in [&d.lower, &d.upper].into_iter().chain(&d.step) {
                    self.read(&mut r, e);
                }
                self.emit_refs(stmt, r);
                r = StmtRefs::default();
                let access = if certain {
                    Access::MustDef
                } else {
                    Access::Def
                };
                self.name_ref(&mut r, &d.var.text, d.var.pos, access);
                self.emit_refs(stmt, r);
                self.implied.push(&d.var.text);
                for inner in &d.items {
                    self.io_item(stmt, inner, read, false);
                }
                self.implied.pop();
                return;
            }
        }
        self.emit_refs(stmt, r);
    }

    /// A CHARACTER variable, element or substring as a unit.
    fn is_internal_file(&self, unit: &Expr) -> bool {
        let variable = match &unit.kind {
            ExprKind::Var(n) => matches!(
                self.syms.classify_name(n),
                NameClass::Scalar | NameClass::Array
            )
            .then_some(n),
            ExprKind::Apply { name, args } => matches!(
                self.syms.classify_apply(name, args),
                ApplyClass::Element | ApplyClass::Substring
            )
            .then_some(name),
            _ => None,
        };
        variable.is_some_and(|n| self.syms.type_of(n) == TypeSpec::Character)
    }
}
