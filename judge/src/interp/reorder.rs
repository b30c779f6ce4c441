//! One DO loop run as a parallel loop would run it: its iterations in
//! another order (reversed, or shuffled), each with its own copies of the
//! variables a parallelizer makes private, as if every iteration ran on a
//! thread of its own.
//!
//! - The loop's DO variable takes the iteration's value; private variables
//!   (those of the plan, and the DO variables of the loops inside, which
//!   OpenMP makes private) start undefined, firstprivate ones with the
//!   value before the loop, induction variables with their closed form
//!   `v0 + inc * r` or `v0 * factor ** r` (r = 0, 1, ... the iteration's
//!   rank in sequential order), reduction variables with the operator's identity and the
//!   variables recording where a min/max was found undefined.
//! - A read of an undefined variable stops the run with an error.
//! - After the loop, reductions are combined (in the order the iterations
//!   ran; a min/max with location in sequential order, the first of equal
//!   values kept), last-private variables hold what the sequentially last
//!   iteration left in them, and every other private variable (the DO
//!   variable included) is undefined.

use super::value::{self, Ty, Value};
use super::{fail, At, Exec, Flow, Frame, Interp};
use crate::gen::Rng;
use crate::trace::Loc;
use kaiseki_frontend::ast::{BinOp, Pos, Stmt, StmtKind};
use std::collections::BTreeSet;

/// The order iterations run in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    Reverse,
    /// A random permutation from this seed (another one for each entry).
    Shuffle(u64),
}

/// A reduction operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum RedOp {
    Add,
    Mul,
    Max,
    Min,
}

impl RedOp {
    /// `+`, `*`, `max`, `min` (also `maxloc`, `minloc`).
    pub fn parse(op: &str) -> Option<RedOp> {
        match op {
            "+" => Some(RedOp::Add),
            "*" => Some(RedOp::Mul),
            "max" | "maxloc" => Some(RedOp::Max),
            "min" | "minloc" => Some(RedOp::Min),
            _ => None,
        }
    }

    fn identity(self, ty: Ty) -> Value {
        match (self, ty) {
            (RedOp::Add, Ty::Int) => Value::Int(0),
            (RedOp::Mul, Ty::Int) => Value::Int(1),
            (RedOp::Max, Ty::Int) => Value::Int(i64::MIN),
            (RedOp::Min, Ty::Int) => Value::Int(i64::MAX),
            (RedOp::Add, _) => Value::Real(0.0),
            (RedOp::Mul, _) => Value::Real(1.0),
            (RedOp::Max, _) => Value::Real(f64::NEG_INFINITY),
            (RedOp::Min, _) => Value::Real(f64::INFINITY),
        }
    }

    fn combine(self, a: &Value, b: &Value) -> Result<Value, String> {
        match self {
            RedOp::Add => value::binary(BinOp::Add, a, b),
            RedOp::Mul => value::binary(BinOp::Mul, a, b),
            RedOp::Max | RedOp::Min => Ok(if self.better(b, a)? { b } else { a }.clone()),
        }
    }

    /// `a` is strictly better than `b` for a max or min.
    fn better(self, a: &Value, b: &Value) -> Result<bool, String> {
        let (x, y) = (a.as_real()?, b.as_real()?);
        Ok(match (self, a, b) {
            (RedOp::Max, Value::Int(i), Value::Int(j)) => i > j,
            (RedOp::Min, Value::Int(i), Value::Int(j)) => i < j,
            (RedOp::Max, ..) => x > y,
            _ => x < y,
        })
    }
}

/// A reduction clause: the operator, the variable, and for a min/max with
/// location the variables recording where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reduction {
    pub op: RedOp,
    pub var: String,
    pub locs: Vec<String>,
}

/// What a parallelizer claims one loop needs, as the reordered run applies it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Clauses {
    /// A copy per iteration, undefined at its start.
    pub private: Vec<String>,
    /// A copy per iteration, starting with the value before the loop.
    pub firstprivate: Vec<String>,
    /// After the loop, the value the sequentially last iteration left.
    pub lastprivate: Vec<String>,
    pub reductions: Vec<Reduction>,
    /// (variable, its update per iteration).
    pub inductions: Vec<(String, Step)>,
}

/// How an induction variable changes per iteration: at the start of
/// iteration r it holds `v0 + inc * r` (`Add(inc)`) or `v0 * factor ** r`
/// (`Times(factor)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Add(i64),
    Times(i64),
}

impl Step {
    /// The value at the start of iteration `r` from `v0`.
    fn at(self, v0: &Value, r: usize) -> Result<Value, String> {
        let r = i64::try_from(r).map_err(|e| e.to_string())?;
        match self {
            Step::Add(inc) => {
                let step = value::binary(BinOp::Mul, &Value::Int(inc), &Value::Int(r))?;
                value::binary(BinOp::Add, v0, &step)
            }
            Step::Times(factor) => {
                let power = value::binary(BinOp::Pow, &Value::Int(factor), &Value::Int(r))?;
                value::binary(BinOp::Mul, v0, &power)
            }
        }
    }
}

/// Which loop to reorder, how, and with what clauses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reorder {
    /// The line of the DO statement.
    pub line: u32,
    pub order: Order,
    pub clauses: Clauses,
}

/// The variables of one entry of the reordered loop, bound in the frame.
struct Vars {
    do_var: Place,
    private: Vec<Place>,
    first: Vec<(Place, Value)>,
    last: Vec<Place>,
    reductions: Vec<RedVars>,
    inductions: Vec<(Place, Value, Step)>,
}

/// A reduction clause, its variable, the variable's value before the
/// loop, and the location variables with theirs.
type RedVars = (Reduction, Place, Value, Vec<(Place, Value)>);

/// A scalar variable's cell, its type and its name.
#[derive(Clone)]
struct Place {
    name: String,
    loc: Loc,
    width: usize,
    ty: Ty,
}

/// What one iteration left in a reduction: its partial value and, for a
/// min/max with location, the locations.
type Partial = (Value, Vec<Value>);

impl Interp<'_> {
    /// The reordered DO loop (see the module's documentation); `values`
    /// are the DO variable's values in sequential order, and the value it
    /// has after the sequential loop.
    pub(super) fn exec_do_reordered(
        &mut self,
        fr: &mut Frame,
        do_pos: Pos,
        var: &str,
        (values, after): (Vec<Value>, Value),
        body: &[Stmt],
        (end_label, construct): (Option<u32>, Option<&str>),
    ) -> Exec<Flow> {
        let Some(plan) = self.reorder.clone() else {
            return fail(do_pos, "no loop to reorder");
        };
        let vars = self.bind_clauses(fr, var, body, &plan.clauses, do_pos)?;
        let order = self.permutation(values.len(), plan.order);
        let trip = values.len();
        let mut partials: Vec<Vec<Option<Partial>>> = vec![vec![None; trip]; vars.reductions.len()];
        let mut ran = Vec::with_capacity(trip);
        let mut last_values: Vec<Option<Value>> = vec![None; vars.last.len()];
        self.enter_loop(do_pos);
        let result = (|| {
            for &k in &order {
                self.set_iteration(k as u64);
                self.start_iteration(&vars, &values[k], k, do_pos)?;
                match self.exec_block(fr, body)? {
                    Flow::Next => {}
                    Flow::Goto(l, _) if Some(l) == end_label => {}
                    Flow::Cycle(n) if n.is_none() || n.as_deref() == construct => {}
                    _ => return fail(do_pos, "control leaves a loop run in parallel"),
                }
                for (r, (_, place, _, locs)) in vars.reductions.iter().enumerate() {
                    let v = self.peek(place).at(do_pos)?;
                    let l = locs
                        .iter()
                        .map(|(p, _)| self.peek(p))
                        .collect::<Result<_, _>>()
                        .at(do_pos)?;
                    partials[r][k] = Some((v, l));
                }
                if k + 1 == trip {
                    for (slot, p) in last_values.iter_mut().zip(&vars.last) {
                        *slot = (!self.undefined.contains(&p.loc))
                            .then(|| self.peek(p))
                            .transpose()
                            .at(do_pos)?;
                    }
                }
                ran.push(k);
            }
            Ok(())
        })();
        self.exit_loop();
        result?;
        self.finish_loop(&vars, &partials, &ran, last_values, trip, do_pos)?;
        // A last value of the DO variable is the one the sequential loop
        // leaves (one step past the last iteration's), as OpenMP gives it.
        if trip > 0 && vars.last.iter().any(|p| p.name == vars.do_var.name) {
            self.poke(&vars.do_var, &after).at(do_pos)?;
        }
        Ok(Flow::Next)
    }

    fn place_of(&mut self, fr: &mut Frame, name: &str, pos: Pos) -> Exec<Place> {
        let b = self.var(fr, name).clone();
        if b.is_array() {
            return fail(pos, format!("{name}: only scalars are privatized here"));
        }
        Ok(Place {
            name: name.to_string(),
            loc: Loc {
                storage: b.storage,
                offset: b.cell(0),
            },
            width: b.width,
            ty: b.ty,
        })
    }

    /// The places of a private, first- or last-private variable: a scalar's
    /// one, or every element of an array (each its own copy, as OpenMP
    /// copies a whole array in and out).
    fn places_of(&mut self, fr: &mut Frame, name: &str, pos: Pos) -> Exec<Vec<Place>> {
        let b = self.var(fr, name).clone();
        if !b.is_array() {
            return Ok(vec![self.place_of(fr, name, pos)?]);
        }
        let Some(n) = b.len().filter(|&n| n <= 1 << 20) else {
            return fail(
                pos,
                format!("{name}: an array of unknown size is privatized"),
            );
        };
        Ok((0..n)
            .map(|i| Place {
                name: name.to_string(),
                loc: Loc {
                    storage: b.storage,
                    offset: b.cell(i),
                },
                width: b.width,
                ty: b.ty,
            })
            .collect())
    }

    fn bind_clauses(
        &mut self,
        fr: &mut Frame,
        var: &str,
        body: &[Stmt],
        c: &Clauses,
        pos: Pos,
    ) -> Exec<Vars> {
        let firsts: BTreeSet<&str> = c.firstprivate.iter().map(String::as_str).collect();
        let mut private: BTreeSet<String> = c.private.iter().cloned().collect();
        private.extend(c.lastprivate.iter().cloned());
        let mut inner = BTreeSet::new();
        inner_do_vars(body, &mut inner);
        private.extend(inner);
        for (v, _) in &c.inductions {
            private.remove(v);
        }
        private.remove(var);
        let mut vars = Vars {
            do_var: self.place_of(fr, var, pos)?,
            private: Vec::new(),
            first: Vec::new(),
            last: Vec::new(),
            reductions: Vec::new(),
            inductions: Vec::new(),
        };
        // A FIRSTPRIVATE copy starts from the variable's value; an element
        // undefined before the loop is undefined in every copy.
        for name in &private {
            for p in self.places_of(fr, name, pos)? {
                if firsts.contains(name.as_str()) && !self.undefined.contains(&p.loc) {
                    let v = self.peek(&p).at(pos)?;
                    vars.first.push((p, v));
                } else {
                    vars.private.push(p);
                }
            }
        }
        for name in &c.firstprivate {
            if !private.contains(name) && name != var {
                for p in self.places_of(fr, name, pos)? {
                    if self.undefined.contains(&p.loc) {
                        vars.private.push(p);
                    } else {
                        let v = self.peek(&p).at(pos)?;
                        vars.first.push((p, v));
                    }
                }
            }
        }
        for name in &c.lastprivate {
            vars.last.extend(self.places_of(fr, name, pos)?);
        }
        for red in &c.reductions {
            let p = self.place_of(fr, &red.var, pos)?;
            let entry = self.peek(&p).at(pos)?;
            let mut locs = Vec::new();
            for l in &red.locs {
                let p = self.place_of(fr, l, pos)?;
                let v = self.peek(&p).at(pos)?;
                locs.push((p, v));
            }
            vars.reductions.push((red.clone(), p, entry, locs));
        }
        for (name, step) in &c.inductions {
            let p = self.place_of(fr, name, pos)?;
            let v0 = self.peek(&p).at(pos)?;
            vars.inductions.push((p, v0, *step));
        }
        Ok(vars)
    }

    /// Iteration k's fresh copies.
    fn start_iteration(&mut self, vars: &Vars, value: &Value, k: usize, pos: Pos) -> Exec<()> {
        self.poke(&vars.do_var, value).at(pos)?;
        for p in &vars.private {
            self.undefine(p);
        }
        for (p, v) in &vars.first {
            self.poke(p, v).at(pos)?;
        }
        for (red, p, _, locs) in &vars.reductions {
            self.poke(p, &red.op.identity(p.ty)).at(pos)?;
            for (l, _) in locs {
                self.undefine(l);
            }
        }
        for (p, v0, step) in &vars.inductions {
            let v = step.at(v0, k).at(pos)?;
            self.poke(p, &v).at(pos)?;
        }
        Ok(())
    }

    /// After the last iteration: reductions combined, last values set, the
    /// other private copies gone.
    fn finish_loop(
        &mut self,
        vars: &Vars,
        partials: &[Vec<Option<Partial>>],
        ran: &[usize],
        last_values: Vec<Option<Value>>,
        trip: usize,
        pos: Pos,
    ) -> Exec<()> {
        let last: BTreeSet<&str> = vars.last.iter().map(|p| p.name.as_str()).collect();
        let gone = std::iter::once(&vars.do_var)
            .chain(&vars.private)
            .chain(vars.first.iter().map(|(p, _)| p))
            .chain(vars.inductions.iter().map(|(p, ..)| p));
        let gone: Vec<Place> = gone
            .filter(|p| !last.contains(p.name.as_str()))
            .cloned()
            .collect();
        for p in &gone {
            self.undefine(p);
        }
        if trip > 0 {
            for (p, v) in vars.last.iter().zip(last_values) {
                match v {
                    Some(v) => self.poke(p, &v).at(pos)?,
                    None => self.undefine(p),
                }
            }
        }
        for ((red, p, entry, locs), parts) in vars.reductions.iter().zip(partials) {
            if locs.is_empty() {
                let mut acc = entry.clone();
                for &k in ran {
                    if let Some((v, _)) = &parts[k] {
                        acc = red.op.combine(&acc, v).at(pos)?;
                    }
                }
                self.poke(p, &acc).at(pos)?;
                continue;
            }
            // With locations: in sequential order, the first of equal values.
            let mut best = entry.clone();
            let mut at: Vec<Value> = locs.iter().map(|(_, v)| v.clone()).collect();
            for (v, l) in parts.iter().flatten() {
                if red.op.better(v, &best).at(pos)? {
                    best = v.clone();
                    at.clone_from(l);
                }
            }
            self.poke(p, &best).at(pos)?;
            for ((place, _), v) in locs.iter().zip(&at) {
                self.poke(place, v).at(pos)?;
            }
        }
        Ok(())
    }

    fn permutation(&mut self, n: usize, order: Order) -> Vec<usize> {
        let mut ks: Vec<usize> = (0..n).collect();
        match order {
            Order::Reverse => ks.reverse(),
            Order::Shuffle(seed) => {
                self.reorder_entries += 1;
                let mut rng = Rng::new(seed ^ self.reorder_entries.wrapping_mul(0x9E37));
                for i in (1..n).rev() {
                    ks.swap(i, rng.range(0, i as i64) as usize);
                }
            }
        }
        ks
    }

    /// A variable's value, read without a trace and even when undefined
    /// (what a private copy holds, or garbage).
    fn peek(&self, p: &Place) -> Result<Value, String> {
        self.mem
            .get(p.loc.storage, p.loc.offset, p.width)?
            .view(p.ty)
    }

    fn poke(&mut self, p: &Place, v: &Value) -> Result<(), String> {
        self.undefined.remove(&p.loc);
        self.mem
            .set(p.loc.storage, p.loc.offset, p.width, v.convert(p.ty)?)
    }

    fn undefine(&mut self, p: &Place) {
        self.undefined.insert(p.loc);
    }
}

/// The DO variables of the loops inside `body`.
fn inner_do_vars(body: &[Stmt], out: &mut BTreeSet<String>) {
    for s in body {
        match &s.kind {
            StmtKind::Do { var, body, .. } => {
                out.insert(var.text.clone());
                inner_do_vars(body, out);
            }
            StmtKind::DoWhile { body, .. } => inner_do_vars(body, out),
            StmtKind::If {
                arms, else_part, ..
            } => {
                for a in arms {
                    inner_do_vars(&a.body, out);
                }
                if let Some(e) = else_part {
                    inner_do_vars(&e.body, out);
                }
            }
            StmtKind::Select { cases, .. } => {
                for c in cases {
                    inner_do_vars(&c.body, out);
                }
            }
            StmtKind::LogicalIf { stmt, .. } => inner_do_vars(std::slice::from_ref(stmt), out),
            _ => {}
        }
    }
}
