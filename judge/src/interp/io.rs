//! READ, WRITE and PRINT. Values are list-directed whatever the format:
//! READ takes one value per cell from the run's input, or from the fields
//! of an internal file (blank or comma separated); WRITE and PRINT make one
//! line, appended to the output or stored into an internal file (a
//! CHARACTER scalar or element, or the first record of a CHARACTER array).
//!
//! The trace follows the statement as the facts read it: the control
//! list's values, the items in order, then the internal file written and
//! IOSTAT=. Two rules make one execution of the statement one event, as a
//! statement-level analysis sees it:
//! - an implied-DO variable is recorded once, when it gets its first
//!   value; inside its own list its reads and increments are not recorded;
//! - an access that repeats one of the same execution (same place in the
//!   source, cell and mode), as an implied DO repeats its items, is not
//!   recorded again.
//!
//! Two places of one implied-DO list that meet the same cell in different
//! iterations (`(B(K), B(K+1), K = 1, N)`) are recorded as they happen,
//! an order no statement-level analysis can give: test programs avoid them.
//!
//! END= is taken when the input runs out, ERR= when a value does not
//! parse or the input already ran out (the file is then past its endfile
//! record, as gfortran has it); IOSTAT= is then -1 or 1 (else 0) and
//! execution goes on after the statement. EOR= is never taken (the input has no records); SIZE= is
//! refused.

use super::eval::Val;
use super::value::{self, Ty, Value};
use super::{fail, parse_input, trip_count, At, Exec, Flow, Frame, Interp};
use crate::trace::Loc;
use kaiseki_frontend::ast::{BinOp, Expr, ExprKind, ImpliedDo, IoControl, IoItem, Pos, Stmt};
use std::collections::{HashSet, VecDeque};

/// Where READ takes its values.
enum Source {
    Input,
    /// The fields of an internal file.
    Fields(VecDeque<String>),
}

/// Why a READ stopped early: the input ran out, or a value did not parse
/// (the message); where the item stands.
enum Fault {
    End(Pos),
    Bad(Pos, String),
}

impl Interp<'_> {
    pub(super) fn exec_io(
        &mut self,
        fr: &mut Frame,
        s: &Stmt,
        control: &IoControl,
        items: &[IoItem],
        read: bool,
    ) -> Exec<Flow> {
        if let Some(e) = &control.size {
            return fail(e.pos, "SIZE= is not supported by the judge");
        }
        let outer = self.io_seen.replace(HashSet::new());
        let result = if read {
            self.read_stmt(fr, s, control, items)
        } else {
            self.write_stmt(fr, control, items)
        };
        self.io_seen = outer;
        result
    }

    fn write_stmt(&mut self, fr: &mut Frame, control: &IoControl, items: &[IoItem]) -> Exec<Flow> {
        let file = control
            .unit
            .as_ref()
            .filter(|u| self.is_internal_file(fr, u));
        if file.is_none() {
            self.eval_all(fr, control.unit.iter())?;
        }
        self.eval_all(fr, control.format.iter().chain(&control.values))?;
        let mut line = String::new();
        for item in items {
            self.write_item(fr, item, &mut line)?;
        }
        match file {
            Some(u) => {
                let place = self.place(fr, u)?;
                if let Some(&first) = place.indices.first() {
                    let v = Value::Char(line);
                    self.store(&place.binding, first, &v, place.pos, false)?;
                }
            }
            None => {
                line.push('\n');
                self.output.push_str(&line);
            }
        }
        self.set_iostat(fr, control, 0)?;
        Ok(Flow::Next)
    }

    fn write_item(&mut self, fr: &mut Frame, item: &IoItem, line: &mut String) -> Exec<()> {
        match item {
            IoItem::Expr(e) => {
                for v in self.eval(fr, e)?.into_values() {
                    line.push(' ');
                    line.push_str(&v.to_string());
                }
                Ok(())
            }
            IoItem::ImpliedDo(d) => self
                .implied_do(fr, d, &mut |this: &mut Self, fr: &mut Frame| {
                    for inner in &d.items {
                        this.write_item(fr, inner, line)?;
                    }
                    Ok(None)
                })
                .map(|_: Option<()>| ()),
        }
    }

    fn read_stmt(
        &mut self,
        fr: &mut Frame,
        s: &Stmt,
        control: &IoControl,
        items: &[IoItem],
    ) -> Exec<Flow> {
        let mut source = Source::Input;
        if let Some(u) = &control.unit {
            let internal = self.is_internal_file(fr, u);
            let v = self.eval(fr, u)?;
            if internal {
                let text: Vec<String> = v.into_values().iter().map(Value::to_string).collect();
                let fields = text.iter().flat_map(|t| t.split([' ', ',']));
                source =
                    Source::Fields(fields.filter(|f| !f.is_empty()).map(String::from).collect());
            }
        }
        self.eval_all(fr, control.format.iter().chain(&control.values))?;
        let mut fault = None;
        for item in items {
            fault = self.read_item(fr, item, &mut source)?;
            if fault.is_some() {
                break;
            }
        }
        let (code, label) = match fault {
            None => (0, None),
            Some(Fault::End(_)) if control.iostat.is_some() || control.end.is_some() => {
                (-1, control.end)
            }
            Some(Fault::Bad(..)) if control.iostat.is_some() || control.err.is_some() => {
                (1, control.err)
            }
            Some(Fault::End(pos)) => return fail(pos, "READ past the end of the input"),
            Some(Fault::Bad(pos, message)) => return fail(pos, message),
        };
        self.set_iostat(fr, control, code)?;
        Ok(match label {
            Some(l) => Flow::Goto(l, s.pos),
            None => Flow::Next,
        })
    }

    /// Reads one item; `Some` when the READ must stop.
    fn read_item(
        &mut self,
        fr: &mut Frame,
        item: &IoItem,
        source: &mut Source,
    ) -> Exec<Option<Fault>> {
        match item {
            IoItem::Expr(e) => {
                let place = self.place(fr, e)?;
                for &index in &place.indices {
                    let field = match source {
                        Source::Input if self.input_ended => {
                            let why = "READ after the end of the input".to_string();
                            return Ok(Some(Fault::Bad(e.pos, why)));
                        }
                        Source::Input => self.input.pop_front(),
                        Source::Fields(f) => f.pop_front(),
                    };
                    let Some(text) = field else {
                        self.input_ended |= matches!(source, Source::Input);
                        return Ok(Some(Fault::End(e.pos)));
                    };
                    match parse_input(&text, place.binding.ty) {
                        Ok(v) => self.store(&place.binding, index, &v, place.pos, false)?,
                        Err(message) => return Ok(Some(Fault::Bad(e.pos, message))),
                    }
                }
                Ok(None)
            }
            IoItem::ImpliedDo(d) => {
                self.implied_do(fr, d, &mut |this: &mut Self, fr: &mut Frame| {
                    for inner in &d.items {
                        if let Some(f) = this.read_item(fr, inner, source)? {
                            return Ok(Some(f));
                        }
                    }
                    Ok(None)
                })
            }
        }
    }

    /// Runs `body` once per value of the implied DO's variable, as a DO
    /// loop would (bounds read once, the trip count fixed then, the
    /// variable incremented after each iteration); stops when `body`
    /// returns `Some`.
    fn implied_do<T>(
        &mut self,
        fr: &mut Frame,
        d: &ImpliedDo,
        body: &mut dyn FnMut(&mut Self, &mut Frame) -> Exec<Option<T>>,
    ) -> Exec<Option<T>> {
        let lower = self.eval_scalar(fr, &d.lower)?;
        let upper = self.eval_scalar(fr, &d.upper)?;
        let step = match &d.step {
            Some(e) => self.eval_scalar(fr, e)?,
            None => Value::Int(1),
        };
        let pos = d.var.pos;
        let b = self.var(fr, &d.var.text).clone();
        if b.is_array() {
            return fail(
                pos,
                format!("implied-DO variable {} is an array", d.var.text),
            );
        }
        let [lower, upper, step] = [lower, upper, step].map(|v| v.convert(b.ty));
        let (lower, upper, step) = (lower.at(pos)?, upper.at(pos)?, step.at(pos)?);
        let trip = trip_count(&lower, &upper, &step).at(pos)?;
        self.store(&b, 0, &lower, pos, false)?;
        self.silent.push(Loc {
            storage: b.storage,
            offset: b.offset,
        });
        let mut result = Ok(None);
        let mut v = lower;
        for _ in 0..trip {
            result = self.tick(pos).and_then(|()| body(self, fr));
            if !matches!(result, Ok(None)) {
                break;
            }
            let next = value::binary(BinOp::Add, &v, &step).at(pos);
            match next.and_then(|n| self.store(&b, 0, &n, pos, false).map(|()| n)) {
                Ok(n) => v = n,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        self.silent.pop();
        result
    }

    fn set_iostat(&mut self, fr: &mut Frame, control: &IoControl, code: i64) -> Exec<()> {
        if let Some(e) = &control.iostat {
            let place = self.place(fr, e)?;
            self.assign(&place, Val::Scalar(Value::Int(code)))?;
        }
        Ok(())
    }

    fn eval_all<'e>(&mut self, fr: &mut Frame, es: impl Iterator<Item = &'e Expr>) -> Exec<()> {
        for e in es {
            self.eval(fr, e)?;
        }
        Ok(())
    }

    /// A CHARACTER variable or array element as a unit.
    fn is_internal_file(&self, fr: &Frame, unit: &Expr) -> bool {
        let name = match &unit.kind {
            ExprKind::Var(n) | ExprKind::Apply { name: n, .. } => n,
            _ => return false,
        };
        fr.vars.get(name).is_some_and(|b| b.ty == Ty::Char)
    }
}
