//! Host association of internal procedures, as lambda lifting (see the
//! parent module).

use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::{BTreeMap, BTreeSet};

use super::walk::{
    decl_exprs, declared_names, for_each_expr_mut, for_each_stmt_mut, referenced_names,
};
use super::{entity, host_index, literal};
use crate::ast::{
    Decl, DeclKind, Entity, Expr, ExprKind, Name, Pos, Program, Stmt, StmtKind, UnitKind,
};
use crate::fold::Const;
use crate::symbols::Symbols;

/// Lambda lifting of host association (see the module documentation):
/// each internal procedure gets the host variables it (or an internal
/// procedure it calls) uses as extra dummies, and every call passes them.
pub(super) fn lift_host_variables(program: &mut Program, pointer_types: &FxHashSet<String>) {
    let units = &program.units;
    // Internal procedures (hosts that are not modules), by host index.
    let mut by_host: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (i, u) in units.iter().enumerate() {
        if let Some(h) = &u.host {
            if let Some(hi) = host_index(program, i, h) {
                if units[hi].kind != UnitKind::Module {
                    by_host.entry(hi).or_default().push(i);
                }
            }
        }
    }
    for (host, inner) in by_host {
        lift_one_host(program, host, &inner, pointer_types);
    }
}

/// What lifting gives each internal procedure of one host: the host
/// variables appended to its dummies, and the declarations they (and the
/// host constants their bounds use) take.
struct Lifting {
    lifted: FxHashMap<String, Vec<String>>,
    decls: Vec<(usize, Vec<Decl>)>,
}

fn lift_one_host(
    program: &mut Program,
    host: usize,
    inner: &[usize],
    pointer_types: &FxHashSet<String>,
) {
    let plan = plan_lifting(program, host, inner, pointer_types);
    for (i, decls) in plan.decls {
        let u = &mut program.units[i];
        let pos = u.name.pos;
        if let Some(vars) = plan.lifted.get(&u.name.text) {
            u.args.extend(vars.iter().map(|v| Name {
                text: v.clone(),
                pos,
            }));
        }
        // First: the unit's own constants may be made of the host's.
        u.decls.splice(0..0, decls);
    }
    let lifted = plan.lifted;

    // Every call of a lifted procedure in the host and its internal
    // procedures passes the variables.
    for i in std::iter::once(host).chain(inner.iter().copied()) {
        let u = &mut program.units[i];
        let own = declared_names(u);
        let lifted: FxHashMap<&str, &Vec<String>> = lifted
            .iter()
            .filter(|(n, _)| !own.contains(n.as_str()) || **n == u.name.text)
            .map(|(n, v)| (n.as_str(), v))
            .collect();
        for s in &mut u.body {
            pass_lifted(s, &lifted);
        }
    }
}

fn plan_lifting(
    program: &Program,
    host: usize,
    inner: &[usize],
    pointer_types: &FxHashSet<String>,
) -> Lifting {
    let names: FxHashSet<&str> = program.procedure_names();
    let h = &program.units[host];
    let (hsyms, _) = Symbols::build(h, &names);
    let host_declared = declared_names(h);
    let mut host_vars = host_declared.clone();
    host_vars.extend(referenced_names(h));
    // A host variable: a name of the host's that is no procedure and no
    // constant (module variables the internal procedure sees are declared
    // in it already, see `scope_of`; host COMMON variables are passed too).
    let is_host_var = |n: &str| {
        host_vars.contains(n)
            && !names.contains(n)
            && !program.generics.contains_key(n)
            && hsyms.param(n).is_none()
            && n != h.name.text
            && !(hsyms
                .intrinsic(n, crate::intrinsics::Form::Function)
                .is_some()
                && !hsyms.is_array(n)
                && !host_declared.contains(n))
    };
    let inner_names: Vec<String> = inner
        .iter()
        .map(|&i| program.units[i].name.text.clone())
        .collect();
    // Each internal procedure's own uses of host variables, and its calls.
    let mut uses: Vec<BTreeSet<String>> = Vec::new();
    let mut calls: Vec<BTreeSet<usize>> = Vec::new();
    for &i in inner {
        let u = &program.units[i];
        let own = declared_names(u);
        let refs = referenced_names(u);
        uses.push(
            refs.iter()
                .filter(|n| !own.contains(n.as_str()) && is_host_var(n))
                .cloned()
                .collect(),
        );
        calls.push(
            inner_names
                .iter()
                .enumerate()
                .filter(|(_, n)| refs.contains(*n))
                .map(|(k, _)| k)
                .collect(),
        );
    }
    // Bounds of the lifted arrays name host variables too; and what a
    // procedure calls, it passes on.
    loop {
        let mut changed = false;
        for k in 0..inner.len() {
            let mut add: BTreeSet<String> = BTreeSet::new();
            for v in &uses[k] {
                for d in hsyms.dims(v) {
                    for b in d.lower.iter().chain(&d.upper) {
                        b.any_name(&mut |n, _| {
                            if is_host_var(n) {
                                add.insert(n.to_string());
                            }
                            false
                        });
                    }
                }
            }
            for &c in &calls[k] {
                add.extend(uses[c].iter().cloned());
            }
            let before = uses[k].len();
            uses[k].extend(add);
            changed |= uses[k].len() != before;
        }
        if !changed {
            break;
        }
    }
    let lifted: FxHashMap<String, Vec<String>> = inner_names
        .iter()
        .zip(&uses)
        .filter(|(_, u)| !u.is_empty())
        .map(|(n, u)| (n.clone(), u.iter().cloned().collect()))
        .collect();
    // The declarations the lifted dummies take from the host.
    // A derived-type object is declared as in the host (flattened later,
    // alike in both).
    let derived: FxHashMap<&str, (&Name, &Vec<String>, &Entity)> = h
        .decls
        .iter()
        .filter_map(|d| match &d.kind {
            DeclKind::Derived {
                type_name,
                entities,
                attrs,
            } => Some(
                entities
                    .iter()
                    .map(move |e| (e.name.text.as_str(), (type_name, attrs, e))),
            ),
            _ => None,
        })
        .flatten()
        .collect();
    let host_pointers = super::pointer_names(h, pointer_types);
    let decl_of = |v: &str, pos: Pos| -> Decl {
        let kind = match derived.get(v) {
            Some((type_name, attrs, e)) => DeclKind::Derived {
                type_name: (*type_name).clone(),
                entities: vec![entity(v, pos, e.dims.clone())],
                attrs: attrs.to_vec(),
            },
            None => DeclKind::Type {
                ty: hsyms.type_of(v),
                bytes: hsyms.elem_bytes(v),
                parameter: false,
                entities: vec![entity(v, pos, hsyms.dims(v).to_vec())],
            },
        };
        Decl { pos, kind }
    };
    let mut new_decls: Vec<(usize, Vec<Decl>)> = Vec::new();
    for (k, &i) in inner.iter().enumerate() {
        let pos = program.units[i].name.pos;
        let mut decls: Vec<Decl> = uses[k].iter().map(|v| decl_of(v, pos)).collect();
        let lifted_pointers: Vec<Name> = uses[k]
            .iter()
            .filter(|v| host_pointers.contains(v.as_str()))
            .map(|v| entity(v, pos, Vec::new()).name)
            .collect();
        if !lifted_pointers.is_empty() {
            decls.push(Decl {
                pos,
                kind: DeclKind::Pointer(lifted_pointers),
            });
        }
        new_decls.push((i, decls));
    }
    let params: Vec<(String, Const)> = hsyms
        .param_order
        .iter()
        .filter_map(|p| hsyms.param(p).map(|c| (p.clone(), c.clone())))
        .collect();
    let mut decls = Vec::new();
    for (i, mut own_decls) in new_decls {
        let u = &program.units[i];
        let pos = u.name.pos;
        let own = declared_names(u);
        // Host constants the unit or its lifted bounds use.
        let mut needed = referenced_in_decls(&own_decls);
        needed.extend(referenced_names(u));
        for (p, c) in &params {
            if needed.contains(p) && !own.contains(p) {
                own_decls.insert(
                    0,
                    Decl {
                        pos,
                        kind: DeclKind::Type {
                            ty: hsyms.type_of(p),
                            bytes: hsyms.elem_bytes(p),
                            parameter: true,
                            entities: vec![Entity {
                                init: Some(literal(c, pos)),
                                ..entity(p, pos, Vec::new())
                            }],
                        },
                    },
                );
            }
        }
        decls.push((i, own_decls));
    }
    Lifting { lifted, decls }
}

fn referenced_in_decls(decls: &[Decl]) -> FxHashSet<String> {
    let mut out = FxHashSet::default();
    for d in decls {
        decl_exprs(&d.kind, &mut |e: &Expr| {
            e.any_name(&mut |n, _| {
                out.insert(n.to_string());
                false
            });
        });
    }
    out
}

/// Appends the lifted variables to every call of a lifted procedure in `s`.
fn pass_lifted(s: &mut Stmt, lifted: &FxHashMap<&str, &Vec<String>>) {
    // Calls anywhere in the statement: in a loop's body, under an IF.
    for_each_stmt_mut(s, &mut |s| {
        let pos = s.pos;
        if let StmtKind::Call { name, args } = &mut s.kind {
            if let Some(vars) = lifted.get(name.text.as_str()) {
                args.extend(vars.iter().map(|v| Expr {
                    pos,
                    kind: ExprKind::Var(v.clone()),
                }));
            }
        }
    });
    for_each_expr_mut(s, &mut |e| lift_in_expr(e, lifted));
}

fn lift_in_expr(e: &mut Expr, lifted: &FxHashMap<&str, &Vec<String>>) {
    e.for_each_apply_mut(&mut |pos, name, args| {
        if let Some(vars) = lifted.get(name.as_str()) {
            args.extend(vars.iter().map(|v| Expr {
                pos,
                kind: ExprKind::Var(v.clone()),
            }));
        }
    });
}
