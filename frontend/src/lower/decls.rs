//! Declarations (`unit`, `dummy_arg`, `var`, `array_dim`, `param`,
//! `common`, `equivalence`, `saved`, `data_init`, `external`) and their
//! `decl` statements.
//!
//! Declarations are numbered among the statements in source order: before
//! each statement, the declarations that stand before it in the unit's file
//! are numbered first (those from another file, i.e. INCLUDEd, come first).
//! `var` rows are written at the END, for every name the unit declares or
//! references as a variable (PARAMETERs, procedures and names only called
//! are not variables; a FUNCTION's own name is its result variable).

use std::collections::BTreeMap;

use kaiseki_facts::{
    ArrayDim, Common, DataInit, DummyArg, Equivalence, External, Param, Saved, Unit as UnitFact,
    Var,
};

use super::UnitLowerer;
use crate::ast::{DataObject, Decl, DeclKind, Pos, Unit, UnitKind};
use crate::fold;
use crate::intrinsics::{self, Form};
use crate::symbols::{base_name, type_name};

/// Where a declaration stands for numbering: its place in the unit's file.
pub(super) fn decl_key(unit: &Unit, d: &Decl) -> (u32, u32) {
    if d.pos.file == unit.name.pos.file {
        (d.pos.line, d.pos.col)
    } else {
        (0, 0)
    }
}

impl<'a> UnitLowerer<'_, '_, 'a> {
    pub(super) fn unit_header(&mut self) {
        let unit = self.unit;
        let kind = match unit.kind {
            UnitKind::Program => "program",
            UnitKind::Subroutine => "subroutine",
            UnitKind::Function => "function",
            UnitKind::BlockData => "block_data",
            UnitKind::Module => "module",
        };
        let file = self.g.path(unit.name.pos);
        self.g.facts.unit.push(UnitFact {
            unit: self.name.clone(),
            kind: kind.to_string(),
            file,
            line: unit.name.pos.line as i64,
        });
        for (i, a) in unit.args.iter().enumerate() {
            self.g.facts.dummy_arg.push(DummyArg {
                unit: self.name.clone(),
                pos: i as i64 + 1,
                var: a.text.clone(),
            });
            self.declared_vars.entry(a.text.clone()).or_insert(a.pos);
        }
        if unit.kind == UnitKind::Function {
            self.declared_vars
                .entry(self.name.clone())
                .or_insert(unit.name.pos);
        }
    }

    /// Numbers and lowers the declarations that stand before `pos` (all
    /// remaining ones when `pos` is `None`).
    pub(super) fn flush_decls(&mut self, pos: Option<Pos>) {
        let file = self.unit.name.pos.file;
        while let Some(&d) = self.pending_decls.front() {
            let before = match pos {
                None => true,
                Some(p) => p.file == file && decl_key(self.unit, d) < (p.line, p.col),
            };
            if !before {
                break;
            }
            self.pending_decls.pop_front();
            self.decl(d);
        }
    }

    fn decl(&mut self, d: &'a Decl) {
        self.number(d.pos, None, "decl", false);
        let unit = self.name.clone();
        match &d.kind {
            DeclKind::Type {
                parameter,
                entities,
                ..
            } => {
                for e in entities {
                    if *parameter {
                        continue;
                    }
                    self.declared_vars
                        .entry(e.name.text.clone())
                        .or_insert(e.name.pos);
                    if e.init.is_some() {
                        self.initialized(&e.name.text);
                    }
                }
            }
            DeclKind::Dimension(es) => {
                for e in es {
                    self.declared_vars
                        .entry(e.name.text.clone())
                        .or_insert(e.name.pos);
                }
            }
            DeclKind::CrayPointer(pairs) => {
                for (pointer, pointee) in pairs {
                    for n in [pointer, &pointee.name] {
                        self.declared_vars.entry(n.text.clone()).or_insert(n.pos);
                    }
                }
            }
            DeclKind::Namelist(names) => {
                for n in names {
                    self.declared_vars.entry(n.text.clone()).or_insert(n.pos);
                }
            }
            DeclKind::Common { block, entities } => {
                let block = if block.is_empty() {
                    "//".to_string()
                } else {
                    block.clone()
                };
                for e in entities {
                    self.declared_vars
                        .entry(e.name.text.clone())
                        .or_insert(e.name.pos);
                    let members = self.commons.entry(block.clone()).or_default();
                    members.push(e.name.text.clone());
                    let pos = members.len() as i64;
                    self.g.facts.common.push(Common {
                        unit: unit.clone(),
                        block: block.clone(),
                        var: e.name.text.clone(),
                        pos,
                    });
                }
            }
            DeclKind::Equivalence(groups) => {
                for group in groups {
                    self.equivalence_groups += 1;
                    for e in group {
                        if let Some(var) = base_name(e) {
                            self.declared_vars.entry(var.to_string()).or_insert(e.pos);
                            self.g.facts.equivalence.push(Equivalence {
                                unit: unit.clone(),
                                group: self.equivalence_groups,
                                var: var.to_string(),
                            });
                        }
                    }
                }
            }
            DeclKind::Data(sets) => {
                let objects = sets.iter().flat_map(|s| &s.objects);
                for e in objects.flat_map(DataObject::exprs) {
                    if let Some(var) = base_name(e) {
                        self.declared_vars.entry(var.to_string()).or_insert(e.pos);
                        self.initialized(var);
                    }
                }
            }
            DeclKind::Save(names) if names.is_empty() => self.save_all = true,
            DeclKind::Save(names) => self.saves.extend(names.iter().map(|n| n.text.clone())),
            DeclKind::External(names) | DeclKind::Intrinsic(names) => {
                let kind = if matches!(d.kind, DeclKind::External(_)) {
                    "external"
                } else {
                    "intrinsic"
                };
                for n in names {
                    let known = [Form::Function, Form::Subroutine]
                        .iter()
                        .any(|&f| intrinsics::lookup(&n.text, f).is_some());
                    if kind == "intrinsic" && !known {
                        self.error(
                            n.pos,
                            format!(
                                "`{}` is declared INTRINSIC but is not an intrinsic procedure",
                                n.text
                            ),
                        );
                    }
                    self.g.facts.external.push(External {
                        unit: unit.clone(),
                        name: n.text.clone(),
                        kind: kind.to_string(),
                    });
                }
            }
            DeclKind::Hpf(h) => self.hpf(d.pos, h),
            DeclKind::Parameter(_)
            | DeclKind::ImplicitNone
            | DeclKind::Implicit(_)
            | DeclKind::UseHpfLibrary { .. }
            | DeclKind::Use { .. }
            | DeclKind::Access { .. }
            | DeclKind::Pointer(_)
            | DeclKind::Interface { .. }
            | DeclKind::Intent { .. }
            | DeclKind::TypeDef { .. }
            | DeclKind::Derived { .. } => {}
        }
    }

    /// A DATA-initialized variable keeps its value between calls.
    fn initialized(&mut self, var: &str) {
        let unit = self.name.clone();
        self.g.facts.data_init.push(DataInit {
            unit: unit.clone(),
            var: var.to_string(),
        });
        self.g.facts.saved.push(Saved {
            unit,
            var: var.to_string(),
        });
    }

    /// The unit-wide rows: PARAMETERs, variables and their dimensions,
    /// SAVE, and the naming errors that need the whole unit.
    pub(super) fn finish_decls(&mut self) {
        let syms = self.syms;
        let unit = self.name.clone();
        for name in &syms.param_order {
            if let Some(c) = syms.param(name) {
                self.g.facts.param.push(Param {
                    unit: unit.clone(),
                    name: name.clone(),
                    value: c.text(),
                });
            }
        }
        let mut vars: BTreeMap<String, Pos> = self.declared_vars.clone();
        for (n, p) in &self.var_uses {
            vars.insert(n.clone(), *p);
        }
        vars.retain(|n, _| {
            syms.param(n).is_none()
                && !syms.is_external(n)
                && !syms.is_declared_intrinsic(n)
                && (self.var_uses.contains_key(n) || !self.fn_uses.contains_key(n))
        });
        for (name, &pos) in &vars {
            if syms.implicit_none && !syms.has_type(name) {
                self.error(
                    pos,
                    format!("`{name}` has no type (IMPLICIT NONE is in effect)"),
                );
            }
            if let Some(&fpos) = self.fn_uses.get(name) {
                let at = pos.max(fpos);
                self.error(
                    at,
                    format!("`{name}` is used both as a variable and as a function (it is not declared as an array)"),
                );
            }
            let dims = syms.dims(name);
            self.g.facts.var.push(Var {
                unit: unit.clone(),
                var: name.clone(),
                r#type: type_name(&syms.type_of(name)).to_string(),
                rank: dims.len() as i64,
            });
            for (i, d) in dims.iter().enumerate() {
                self.g.facts.array_dim.push(ArrayDim {
                    unit: unit.clone(),
                    array: name.clone(),
                    dim: i as i64 + 1,
                    lower: d
                        .lower
                        .as_ref()
                        .map_or_else(|| "1".to_string(), |e| fold::text(e, syms)),
                    upper: d
                        .upper
                        .as_ref()
                        .map_or_else(|| "*".to_string(), |e| fold::text(e, syms)),
                });
            }
        }
        for (name, &pos) in &self.fn_uses.clone() {
            let typed_elsewhere = syms.intrinsic(name, Form::Function).is_some()
                || syms.intrinsic(name, Form::Subroutine).is_some()
                || self.g.program.units.iter().any(|u| u.name.text == *name)
                || self.g.program.generics.contains_key(name)
                // `PROCEDURE(IFACE) :: F`: typed by its interface.
                || syms.is_external(name);
            if syms.implicit_none
                && !syms.has_type(name)
                && !typed_elsewhere
                && !vars.contains_key(name)
            {
                self.error(
                    pos,
                    format!("function `{name}` has no type (IMPLICIT NONE is in effect)"),
                );
            }
        }
        let mut saved: Vec<String> = Vec::new();
        for s in &self.saves {
            match s.strip_prefix('/').map(|b| b.trim_end_matches('/')) {
                Some(block) => {
                    let block = if block.is_empty() { "//" } else { block };
                    saved.extend(self.commons.get(block).into_iter().flatten().cloned());
                }
                None => saved.push(s.clone()),
            }
        }
        if self.save_all {
            let in_common: rustc_hash::FxHashSet<&String> =
                self.commons.values().flatten().collect();
            saved.extend(
                vars.keys()
                    .filter(|v| {
                        !in_common.contains(v) && !self.unit.args.iter().any(|a| &a.text == *v)
                    })
                    .cloned(),
            );
        }
        for var in saved {
            self.g.facts.saved.push(Saved {
                unit: unit.clone(),
                var,
            });
        }
    }
}
