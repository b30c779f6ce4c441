//! What a call may touch: the COMMON blocks the called procedure names, in
//! its own statements or through the procedures it calls in turn. A call
//! is then a use and a possible definition of the caller's members of
//! those blocks only (see `refs::hidden_refs`), not of all its COMMON
//! variables: a timer or a report routine called between two loops does
//! not tie them together. Blocks, not members, because two units may lay a
//! block out differently: the block is the storage they share.
//!
//! A procedure that is not a unit of the program (an external library
//! routine, a dummy procedure) may touch anything: unknown. So may a unit
//! with an opaque statement (it might call anything) or one that calls an
//! unknown procedure.

use std::collections::{BTreeSet, HashMap};

use crate::ast::{DeclKind, Expr, ExprKind, IoItem, Program, Stmt, StmtKind, Unit};
use crate::intrinsics::Form;
use crate::symbols::{ApplyClass, Symbols};

/// The COMMON blocks a call of each unit of the program may touch.
#[derive(Debug, Default)]
pub struct CallEffects {
    /// Per unit name: the blocks; `None` when unknown.
    blocks: HashMap<String, Option<BTreeSet<String>>>,
}

impl CallEffects {
    /// The blocks a call of `callee` may read or write; `None` when that is
    /// unknown (any block).
    pub fn blocks(&self, callee: &str) -> Option<&BTreeSet<String>> {
        self.blocks.get(callee)?.as_ref()
    }

    /// The effects of every unit of `program`: each unit's own blocks, then
    /// its callees' until nothing changes.
    pub fn of(program: &Program) -> CallEffects {
        let names: std::collections::HashSet<&str> =
            program.units.iter().map(|u| u.name.text.as_str()).collect();
        let direct: Vec<Direct> = program
            .units
            .iter()
            .map(|u| Direct::of(u, &names))
            .collect();
        let mut blocks: HashMap<String, Option<BTreeSet<String>>> = HashMap::new();
        for (u, d) in program.units.iter().zip(&direct) {
            let own = (!d.unknown).then(|| d.blocks.clone());
            blocks.insert(u.name.text.clone(), own);
        }
        loop {
            let mut changed = false;
            for (u, d) in program.units.iter().zip(&direct) {
                let mut acc = blocks[&u.name.text].clone();
                for callee in &d.callees {
                    acc = match (acc, blocks.get(callee)) {
                        (Some(mut a), Some(Some(b))) => {
                            a.extend(b.iter().cloned());
                            Some(a)
                        }
                        _ => None,
                    };
                }
                if acc != blocks[&u.name.text] {
                    blocks.insert(u.name.text.clone(), acc);
                    changed = true;
                }
            }
            if !changed {
                return CallEffects { blocks };
            }
        }
    }
}

/// What one unit names itself.
struct Direct {
    blocks: BTreeSet<String>,
    /// Procedures it calls that are units of the program.
    callees: BTreeSet<String>,
    /// It calls a procedure that is not a unit of the program, or has an
    /// opaque statement.
    unknown: bool,
}

impl Direct {
    fn of(unit: &Unit, units: &std::collections::HashSet<&str>) -> Direct {
        let (syms, _) = Symbols::build(unit, units);
        let mut member_of: HashMap<&str, &str> = HashMap::new();
        for d in &unit.decls {
            if let DeclKind::Common { block, entities } = &d.kind {
                for e in entities {
                    member_of.insert(e.name.text.as_str(), block.as_str());
                }
            }
        }
        let mut walk = Walk {
            syms: &syms,
            units,
            names: BTreeSet::new(),
            callees: BTreeSet::new(),
            unknown: false,
        };
        for s in &unit.body {
            walk.stmt(s);
        }
        let blocks = walk
            .names
            .iter()
            .filter_map(|n| member_of.get(n.as_str()).map(|b| block_name(b)))
            .collect();
        Direct {
            blocks,
            callees: walk.callees,
            unknown: walk.unknown,
        }
    }
}

/// Blank COMMON is `//`, as in the `common` facts.
fn block_name(block: &str) -> String {
    if block.is_empty() {
        "//".to_string()
    } else {
        block.to_string()
    }
}

/// Collects the names a unit's statements mention and the procedures they call.
struct Walk<'w, 'a> {
    syms: &'w Symbols<'a>,
    units: &'w std::collections::HashSet<&'w str>,
    names: BTreeSet<String>,
    callees: BTreeSet<String>,
    unknown: bool,
}

impl Walk<'_, '_> {
    fn call(&mut self, name: &str) {
        if self.units.contains(name) {
            self.callees.insert(name.to_string());
        } else {
            self.unknown = true;
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Assign { lhs, rhs } => {
                self.expr(lhs);
                self.expr(rhs);
            }
            StmtKind::Do {
                var,
                lower,
                upper,
                step,
                body,
                ..
            } => {
                self.names.insert(var.text.clone());
                for e in [lower, upper].into_iter().chain(step) {
                    self.expr(e);
                }
                body.iter().for_each(|s| self.stmt(s));
            }
            StmtKind::DoWhile { cond, body, .. } => {
                self.expr(cond);
                body.iter().for_each(|s| self.stmt(s));
            }
            StmtKind::If {
                arms, else_part, ..
            } => {
                for arm in arms {
                    self.expr(&arm.cond);
                    arm.body.iter().for_each(|s| self.stmt(s));
                }
                for s in else_part.iter().flat_map(|e| &e.body) {
                    self.stmt(s);
                }
            }
            StmtKind::LogicalIf { cond, stmt } => {
                self.expr(cond);
                self.stmt(stmt);
            }
            StmtKind::ComputedGoto { index: e, .. } | StmtKind::ArithIf { expr: e, .. } => {
                self.expr(e)
            }
            StmtKind::Call { name, args } => {
                // An intrinsic subroutine (CPU_TIME, GETARG) touches no COMMON.
                if self.syms.intrinsic(&name.text, Form::Subroutine).is_none() {
                    self.call(&name.text);
                }
                args.iter().for_each(|e| self.expr(e));
            }
            StmtKind::Read { control, items }
            | StmtKind::Write { control, items }
            | StmtKind::Print { control, items } => {
                control.exprs().for_each(|e| self.expr(e));
                items.iter().for_each(|i| self.io_item(i));
            }
            StmtKind::Opaque { .. } => self.unknown = true,
            StmtKind::Goto(_)
            | StmtKind::Continue
            | StmtKind::Return
            | StmtKind::Stop
            | StmtKind::Format => {}
        }
    }

    fn io_item(&mut self, item: &IoItem) {
        match item {
            IoItem::Expr(e) => self.expr(e),
            IoItem::ImpliedDo(d) => {
                self.names.insert(d.var.text.clone());
                for e in [&d.lower, &d.upper].into_iter().chain(&d.step) {
                    self.expr(e);
                }
                d.items.iter().for_each(|i| self.io_item(i));
            }
        }
    }

    fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Var(n) => {
                self.names.insert(n.clone());
            }
            ExprKind::Apply { name, args } => {
                match self.syms.classify_apply(name, args) {
                    ApplyClass::Function => self.call(name),
                    ApplyClass::Intrinsic(_) => {}
                    _ => {
                        self.names.insert(name.clone());
                    }
                }
                args.iter().for_each(|a| self.expr(a));
            }
            ExprKind::Range {
                lower,
                upper,
                stride,
            } => {
                for x in [lower, upper, stride].into_iter().flatten() {
                    self.expr(x);
                }
            }
            ExprKind::Unary(_, x) => self.expr(x),
            ExprKind::Binary(_, a, b) => {
                self.expr(a);
                self.expr(b);
            }
            ExprKind::Int(_) | ExprKind::Real(_) | ExprKind::Logical(_) | ExprKind::Str(_) => {}
        }
    }
}
