//! Fortran 90 scoping, resolved on the tree once every file is parsed:
//! what USE association and host association make visible in a unit is
//! written into the unit as the FORTRAN 77 declarations that mean the same
//! to the analyses, so that symbols, lowering, the rules and the judge's
//! interpreter need to know nothing of modules.
//!
//! - A module variable is storage every unit that sees it shares: in each
//!   such unit (the module, its procedures, the units that USE it) it is
//!   declared with its type and shape and as the only member of a COMMON
//!   block of its own, `/MODULE%NAME/`. Calls then touch it as they touch
//!   COMMON storage (see `lower::effects`), through the procedures' bodies.
//! - A module PARAMETER is declared as a PARAMETER of the unit with its
//!   folded value, so it folds into bounds and subscripts like a local one.
//! - A module procedure is a unit of the program; a generic interface is a
//!   procedure name standing for all of its specific procedures
//!   ([`Program::generics`]): a call may call any of them, unless its
//!   arguments decide which (`generic.rs`), when it names that one.
//! - Host association of an internal procedure with its host's variables
//!   (not in COMMON or a module) is lambda lifting: the variables it uses
//!   become extra dummy arguments, passed by every call from the host and
//!   from the other internal procedures; so a call touches them as it
//!   touches its arguments.
//! - A USE of a module none of the files defines is one warning naming it;
//!   the names it may bring (its ONLY list, or, without one, every name the
//!   unit leaves undeclared) are storage of an unknown COMMON block
//!   `/MODULE%?/`, and a reference to one that looks like a call is a call to
//!   an unknown procedure, which may touch anything.
//! - The intrinsic modules (ISO_FORTRAN_ENV, ISO_C_BINDING, IEEE_ARITHMETIC,
//!   OMP_LIB, MPI) are known by their named constants; their procedures are
//!   library routines.

use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::BTreeMap;

mod allocated;
mod generic;
mod host;
mod intrinsic_modules;
mod walk;

use crate::ast::{
    Decl, DeclKind, DimSpec, Entity, Expr, ExprKind, Name, Pos, Program, Stmt, StmtKind, TypeSpec,
    Unit, UnitKind,
};
use crate::fold::{fold_int, Const};
use crate::source::Reporter;
use crate::symbols::Symbols;
pub use allocated::shape_allocated;
use intrinsic_modules::{intrinsic_module, library_item};
use walk::{declared_names, plain_names, referenced_names};

/// What a name visible in a unit stands for.
#[derive(Clone, Debug)]
pub(super) enum Item {
    /// A module variable: storage of its own COMMON block.
    Var {
        ty: TypeSpec,
        bytes: Option<i64>,
        dims: Vec<DimSpec>,
        block: String,
        /// A POINTER (see [`opaque_pointer_references`]).
        pointer: bool,
    },
    /// A module object of a derived type: storage of its own COMMON block,
    /// declared as in the module.
    Derived {
        type_name: Name,
        attrs: Vec<String>,
        dims: Vec<DimSpec>,
        block: String,
    },
    /// A named constant, folded.
    Param {
        ty: TypeSpec,
        bytes: Option<i64>,
        value: Const,
    },
    /// A procedure (module procedure, generic name).
    Proc,
    /// A function of an intrinsic module's library (`OMP_GET_WTIME`), of this type.
    Function(TypeSpec),
    /// A name an unknown module may bring: storage of `/MODULE%?/`.
    Unknown(String),
}

/// The names visible in a unit by association, by local name.
pub(super) type Scope = BTreeMap<String, Item>;

/// Resolves USE and host association in every unit of `program` (see the
/// module documentation); problems are reported to `rep`.
pub fn resolve(program: &mut Program, rep: &mut Reporter) {
    let mut modules: FxHashMap<String, usize> = FxHashMap::default();
    for (i, u) in program.units.iter().enumerate() {
        if u.kind == UnitKind::Module {
            if let Some(&first) = modules.get(&u.name.text) {
                let first_line = program.units[first].name.pos.line;
                rep.error(
                    u.name.pos,
                    format!(
                        "MODULE {} is defined twice (first at line {first_line})",
                        u.name.text
                    ),
                );
            } else {
                modules.insert(u.name.text.clone(), i);
            }
        }
    }
    for u in &program.units {
        for d in &u.decls {
            if let DeclKind::Interface {
                generic: Some(g),
                procedures,
                ..
            } = &d.kind
            {
                let specifics = program.generics.entry(g.text.clone()).or_default();
                specifics.extend(procedures.iter().map(|p| p.text.clone()));
            }
        }
    }
    let pointer_types = types_with_pointers(program);
    let mut r = Resolver {
        pointer_types: &pointer_types,
        modules,
        full: vec![None; program.units.len()],
        public: vec![None; program.units.len()],
        busy: vec![false; program.units.len()],
        warned: FxHashSet::default(),
        rep,
    };
    for i in 0..program.units.len() {
        r.scope_of(program, i);
    }
    generic::resolve_generic_calls(program);
    host::lift_host_variables(program, &pointer_types);
    for unit in &mut program.units {
        opaque_pointer_references(unit, &pointer_types);
    }
}

/// The derived types with a POINTER component, directly or in a component
/// of such a type (by name, over every unit: two types of one name count
/// as one). An object of one may reach what its pointer points at, so it
/// is taken as a POINTER itself (see [`opaque_pointer_references`]).
fn types_with_pointers(program: &Program) -> FxHashSet<String> {
    let defs: Vec<(&str, &[DeclKind])> = program
        .units
        .iter()
        .flat_map(|u| &u.decls)
        .filter_map(|d| match &d.kind {
            DeclKind::TypeDef {
                name, components, ..
            } => Some((name.text.as_str(), components.as_slice())),
            _ => None,
        })
        .collect();
    let mut out: FxHashSet<String> = FxHashSet::default();
    loop {
        let before = out.len();
        for (name, components) in &defs {
            let reaches = components.iter().any(|c| match c {
                DeclKind::Pointer(_) => true,
                DeclKind::Derived {
                    type_name, attrs, ..
                } => attrs.iter().any(|a| a == "POINTER") || out.contains(&type_name.text),
                _ => false,
            });
            if reaches {
                out.insert(name.to_string());
            }
        }
        if out.len() == before {
            return out;
        }
    }
}

/// The unit's POINTERs: the names of its POINTER declarations, its
/// objects of a derived type declared POINTER, and its objects of the
/// `pointer_types` (which have POINTER components).
pub(super) fn pointer_names(unit: &Unit, pointer_types: &FxHashSet<String>) -> FxHashSet<String> {
    let mut out = FxHashSet::default();
    for d in &unit.decls {
        match &d.kind {
            DeclKind::Pointer(names) => out.extend(names.iter().map(|n| n.text.clone())),
            DeclKind::Derived {
                type_name,
                entities,
                attrs,
            } if attrs.iter().any(|a| a == "POINTER")
                || pointer_types.contains(&type_name.text) =>
            {
                out.extend(entities.iter().map(|e| e.name.text.clone()))
            }
            _ => {}
        }
    }
    out
}

/// A POINTER may point at any TARGET (or another pointer's target) of its
/// type and rank, which the analyses do not follow: every statement that
/// references one becomes an opaque statement (it may read and write
/// anything), so the loops around it are `unknown` and the calls of the
/// unit may touch anything. Sound before precise. A block whose own
/// header (DO bounds, IF condition, SELECT selector) references one is
/// opaque as a whole.
fn opaque_pointer_references(unit: &mut Unit, pointer_types: &FxHashSet<String>) {
    let pointers = pointer_names(unit, pointer_types);
    if pointers.is_empty() {
        return;
    }
    opaque_in(&mut unit.body, &pointers);
}

fn opaque_in(stmts: &mut [Stmt], pointers: &FxHashSet<String>) {
    for s in stmts {
        let Some(name) = walk::pointer_in(s, pointers) else {
            continue;
        };
        match &mut s.kind {
            StmtKind::Do { body, .. } | StmtKind::DoWhile { body, .. } => opaque_in(body, pointers),
            StmtKind::If {
                arms, else_part, ..
            } => {
                for a in arms {
                    opaque_in(&mut a.body, pointers);
                }
                if let Some(e) = else_part {
                    opaque_in(&mut e.body, pointers);
                }
            }
            StmtKind::Select { cases, .. } => {
                for c in cases {
                    opaque_in(&mut c.body, pointers);
                }
            }
            _ => {}
        }
        // What is left references it in the statement itself (or its header).
        if walk::pointer_in(s, pointers).is_some() {
            s.kind = StmtKind::Opaque {
                reason: format!("a reference to POINTER {name}"),
            };
        }
    }
}

struct Resolver<'r> {
    /// The derived types with POINTER components ([`types_with_pointers`]).
    pointer_types: &'r FxHashSet<String>,
    modules: FxHashMap<String, usize>,
    /// Every name visible in each unit by association (modules: their own
    /// names too), once resolved.
    full: Vec<Option<Scope>>,
    /// What each module gives a unit that USEs it.
    public: Vec<Option<Scope>>,
    /// Units being resolved (a cycle of USEs).
    busy: Vec<bool>,
    /// Unknown modules already reported.
    warned: FxHashSet<String>,
    rep: &'r mut Reporter,
}

impl Resolver<'_> {
    /// Resolves unit `i` (after the modules it uses and its host) and
    /// writes what it sees into its declarations.
    fn scope_of(&mut self, program: &mut Program, i: usize) {
        if self.full[i].is_some() || self.busy[i] {
            return;
        }
        self.busy[i] = true;
        let mut scope = Scope::new();
        // What the host sees (a module: everything of its own).
        if let Some(h) = program.units[i].host.clone() {
            if let Some(hi) = host_index(program, i, &h) {
                self.scope_of(program, hi);
                scope.extend(self.full[hi].clone().unwrap_or_default());
            }
        }
        // Unknown and intrinsic modules used without ONLY: the names the
        // unit leaves undeclared may be theirs.
        let mut opened: Vec<String> = Vec::new();
        let uses: Vec<Decl> = program.units[i]
            .decls
            .iter()
            .filter(|d| matches!(d.kind, DeclKind::Use { .. }))
            .cloned()
            .collect();
        for d in uses {
            let DeclKind::Use {
                module,
                only,
                names,
            } = d.kind
            else {
                continue;
            };
            let pos = d.pos;
            let given = match self.modules.get(&module.text).copied() {
                Some(m) if m == i => {
                    self.rep.error(module.pos, "a MODULE cannot USE itself");
                    continue;
                }
                Some(m) => {
                    if self.busy[m] {
                        self.rep.error(
                            module.pos,
                            format!("MODULE {} uses itself through other modules", module.text),
                        );
                        continue;
                    }
                    self.scope_of(program, m);
                    self.public[m].clone().unwrap_or_default()
                }
                None => match intrinsic_module(&module.text) {
                    Some(mut given) => {
                        for (_, remote) in &names {
                            if !given.contains_key(remote) {
                                let item = fallback(&module.text, remote)
                                    .unwrap_or(Item::Unknown(module.text.clone()));
                                given.insert(remote.clone(), item);
                            }
                        }
                        if !only {
                            opened.push(module.text.clone());
                        }
                        given
                    }
                    None => {
                        if self.warned.insert(module.text.clone()) {
                            self.rep.warning(
                                pos,
                                format!(
                                    "module {} is not among the given files: the names it brings are unknown storage and procedures that may touch anything",
                                    module.text
                                ),
                            );
                        }
                        let unknown = Item::Unknown(module.text.clone());
                        if !only {
                            opened.push(module.text.clone());
                        }
                        names
                            .iter()
                            .map(|(_, remote)| (remote.clone(), unknown.clone()))
                            .collect()
                    }
                },
            };
            associate(&mut scope, &given, only, &names, &module, self.rep);
        }
        if program.units[i].kind == UnitKind::Module {
            let procedures = program_procedures_of(i, program);
            self.module_names(i, &mut program.units[i], &mut scope, procedures);
        }
        let unit = &mut program.units[i];
        inject(unit, &scope, &opened);
        self.full[i] = Some(scope);
        self.busy[i] = false;
    }

    /// A module's own variables, constants and procedures join its scope;
    /// those it makes public (with the names it uses) are what USE gives.
    fn module_names(
        &mut self,
        index: usize,
        unit: &mut Unit,
        scope: &mut Scope,
        procedures: Vec<String>,
    ) {
        let module = unit.name.text.clone();
        // The used names first, so that the module's bounds fold with them.
        inject(unit, scope, &[]);
        let units = FxHashSet::default();
        let (syms, _) = Symbols::build(unit, &units);
        let mut own = Scope::new();
        let mut storage: Vec<(String, Vec<DimSpec>)> = Vec::new();
        let pointers = pointer_names(unit, self.pointer_types);
        let fold_dims = |dims: &[DimSpec]| -> Vec<DimSpec> {
            dims.iter()
                .map(|d| DimSpec {
                    lower: d.lower.as_ref().map(|b| folded(b, &syms)),
                    upper: d.upper.as_ref().map(|b| folded(b, &syms)),
                })
                .collect()
        };
        for d in &unit.decls {
            let entities = match &d.kind {
                DeclKind::Type { entities, .. } | DeclKind::Dimension(entities) => entities,
                // Objects of a derived type: flattened in every unit that
                // sees them (see `crate::derived`), alike.
                DeclKind::Derived {
                    type_name,
                    entities,
                    attrs,
                } => {
                    for e in entities {
                        let name = &e.name.text;
                        let block = format!("{module}%{name}");
                        storage.push((name.clone(), Vec::new()));
                        let item = Item::Derived {
                            type_name: type_name.clone(),
                            attrs: attrs.clone(),
                            dims: fold_dims(&e.dims),
                            block,
                        };
                        own.insert(name.clone(), item);
                    }
                    continue;
                }
                _ => continue,
            };
            for e in entities {
                let name = &e.name.text;
                if scope.contains_key(name) || own.contains_key(name) {
                    continue;
                }
                if let Some(value) = syms.param(name) {
                    own.insert(
                        name.clone(),
                        Item::Param {
                            ty: syms.type_of(name),
                            bytes: syms.elem_bytes(name),
                            value: value.clone(),
                        },
                    );
                    continue;
                }
                let dims = fold_dims(syms.dims(name));
                let block = format!("{module}%{name}");
                storage.push((name.clone(), dims.clone()));
                own.insert(
                    name.clone(),
                    Item::Var {
                        ty: syms.type_of(name),
                        bytes: syms.elem_bytes(name),
                        dims,
                        block,
                        pointer: pointers.contains(name.as_str()),
                    },
                );
            }
        }
        for p in procedures {
            own.insert(p, Item::Proc);
        }
        for d in &unit.decls {
            if let DeclKind::Interface {
                generic: Some(g), ..
            } = &d.kind
            {
                own.insert(g.text.clone(), Item::Proc);
            }
        }
        // The module's variables are its COMMON blocks' only members.
        let pos = unit.name.pos;
        for (name, _) in &storage {
            unit.decls.push(Decl {
                pos,
                kind: DeclKind::Common {
                    block: format!("{module}%{name}"),
                    entities: vec![entity(name, pos, Vec::new())],
                },
            });
        }
        let (default_public, public, private) = access_of(unit);
        let visible = |name: &str| {
            if public.contains(name) {
                true
            } else if private.contains(name) {
                false
            } else {
                default_public
            }
        };
        let mut public_scope = Scope::new();
        for (name, item) in scope.iter().chain(&own) {
            if visible(name) {
                public_scope.insert(name.clone(), item.clone());
            }
        }
        scope.extend(own);
        self.public[index] = Some(public_scope);
    }
}

/// The index of unit `i`'s host named `host`: the nearest unit before it
/// with that name.
pub(super) fn host_index(program: &Program, i: usize, host: &str) -> Option<usize> {
    (0..i).rev().find(|&j| program.units[j].name.text == host)
}

/// The procedures a module contains.
fn program_procedures_of(module: usize, program: &Program) -> Vec<String> {
    let name = &program.units[module].name.text;
    program.units[module + 1..]
        .iter()
        .take_while(|u| u.kind != UnitKind::Module)
        .filter(|u| u.host.as_deref() == Some(name))
        .map(|u| u.name.text.clone())
        .collect()
}

/// Adds what a USE gives to `scope`: everything (with renames), or the
/// ONLY list.
fn associate(
    scope: &mut Scope,
    given: &Scope,
    only: bool,
    names: &[(Name, String)],
    module: &Name,
    rep: &mut Reporter,
) {
    let renamed: FxHashSet<&str> = names.iter().map(|(_, r)| r.as_str()).collect();
    if !only {
        for (name, item) in given {
            if !renamed.contains(name.as_str()) {
                scope.insert(name.clone(), item.clone());
            }
        }
    }
    for (local, remote) in names {
        match given.get(remote) {
            Some(item) => {
                scope.insert(local.text.clone(), item.clone());
            }
            None => rep.error(
                local.pos,
                format!("module {} has no public entity `{remote}`", module.text),
            ),
        }
    }
}

/// The module's default accessibility and the names it makes public and private.
fn access_of(unit: &Unit) -> (bool, FxHashSet<String>, FxHashSet<String>) {
    let mut default_public = true;
    let (mut public, mut private) = (FxHashSet::default(), FxHashSet::default());
    for d in &unit.decls {
        if let DeclKind::Access { public: p, names } = &d.kind {
            if names.is_empty() {
                default_public = *p;
            }
            let set = if *p { &mut public } else { &mut private };
            set.extend(names.iter().map(|n| n.text.clone()));
        }
    }
    (default_public, public, private)
}

/// A bound folded to its value where it is constant.
fn folded(e: &Expr, syms: &Symbols) -> Expr {
    match fold_int(e, syms) {
        Some(v) => Expr {
            pos: e.pos,
            kind: ExprKind::Int(v),
        },
        None => e.clone(),
    }
}

pub(super) fn entity(name: &str, pos: Pos, dims: Vec<DimSpec>) -> Entity {
    Entity {
        name: Name {
            text: name.to_string(),
            pos,
        },
        dims,
        init: None,
    }
}

pub(super) fn literal(c: &Const, pos: Pos) -> Expr {
    let kind = match c {
        Const::Int(v) if *v < 0 => {
            let abs = Expr {
                pos,
                kind: ExprKind::Int(v.unsigned_abs() as i64),
            };
            ExprKind::Unary(crate::ast::UnOp::Neg, Box::new(abs))
        }
        Const::Int(v) => ExprKind::Int(*v),
        Const::Real(_) => ExprKind::Real(c.text()),
        Const::Logical(b) => ExprKind::Logical(*b),
        Const::Str(s) => ExprKind::Str(s.clone()),
    };
    Expr { pos, kind }
}

/// Declares in `unit` the names of `scope` it references and does not
/// declare itself; with `opened` (modules used without ONLY that no file
/// defines, or intrinsic ones), also the other names it leaves undeclared
/// that may be theirs.
fn inject(unit: &mut Unit, scope: &Scope, opened: &[String]) {
    if scope.is_empty() && opened.is_empty() {
        return;
    }
    let declared = declared_names(unit);
    let referenced = referenced_names(unit);
    // What an unknown module may bring is storage; a name applied to
    // arguments or called is a procedure (or an array) of unknown effect.
    let plain = plain_names(unit);
    let pos = unit.name.pos;
    let mut decls = Vec::new();
    for name in &referenced {
        if declared.contains(name.as_str()) {
            continue;
        }
        let item = match scope.get(name) {
            Some(item) => item.clone(),
            None => match opened.iter().find_map(|m| fallback(m, name)) {
                Some(item) => item,
                None => continue,
            },
        };
        if matches!(item, Item::Unknown(_)) && !plain.contains(name) {
            continue;
        }
        match item {
            Item::Var {
                ty,
                bytes,
                dims,
                block,
                pointer,
            } => {
                decls.push(DeclKind::Type {
                    ty,
                    bytes,
                    parameter: false,
                    entities: vec![entity(name, pos, dims)],
                });
                if pointer {
                    decls.push(DeclKind::Pointer(vec![entity(name, pos, Vec::new()).name]));
                }
                decls.push(DeclKind::Common {
                    block,
                    entities: vec![entity(name, pos, Vec::new())],
                });
            }
            Item::Param { ty, bytes, value } => decls.push(DeclKind::Type {
                ty,
                bytes,
                parameter: true,
                entities: vec![Entity {
                    init: Some(literal(&value, pos)),
                    ..entity(name, pos, Vec::new())
                }],
            }),
            Item::Derived {
                type_name,
                attrs,
                dims,
                block,
            } => {
                decls.push(DeclKind::Derived {
                    type_name,
                    entities: vec![entity(name, pos, dims)],
                    attrs,
                });
                decls.push(DeclKind::Common {
                    block,
                    entities: vec![entity(name, pos, Vec::new())],
                });
            }
            Item::Proc => {}
            Item::Function(ty) => {
                decls.push(DeclKind::Type {
                    ty,
                    bytes: None,
                    parameter: false,
                    entities: vec![entity(name, pos, Vec::new())],
                });
                decls.push(DeclKind::External(vec![entity(name, pos, Vec::new()).name]));
            }
            Item::Unknown(m) => {
                let first = name.chars().next().unwrap_or('A');
                let ty = if ('I'..='N').contains(&first) {
                    TypeSpec::Integer
                } else {
                    TypeSpec::Real
                };
                decls.push(DeclKind::Type {
                    ty,
                    bytes: None,
                    parameter: false,
                    entities: vec![entity(name, pos, Vec::new())],
                });
                decls.push(DeclKind::Common {
                    block: format!("{m}%?"),
                    entities: vec![entity(name, pos, Vec::new())],
                });
            }
        }
    }
    // After the USE statements, before the unit's own declarations (whose
    // bounds may use the constants).
    let at = unit
        .decls
        .iter()
        .rposition(|d| matches!(d.kind, DeclKind::Use { .. }))
        .map_or(0, |p| p + 1);
    let new: Vec<Decl> = decls.into_iter().map(|kind| Decl { pos, kind }).collect();
    unit.decls.splice(at..at, new);
}

/// What an undeclared `name` is when `module` (used without ONLY) may
/// bring it: an intrinsic module's library function, or storage of an
/// unknown module unless it is an intrinsic procedure's name.
fn fallback(module: &str, name: &str) -> Option<Item> {
    use crate::intrinsics::{lookup, Form};
    if intrinsic_module(module).is_some() {
        return library_item(module, name);
    }
    let intrinsic =
        lookup(name, Form::Function).is_some() || lookup(name, Form::Subroutine).is_some();
    (!intrinsic).then(|| Item::Unknown(module.to_string()))
}

#[cfg(test)]
mod tests {
    use crate::ast::{DeclKind, Program, StmtKind, Unit};

    fn parsed(src: &str) -> Program {
        let (p, diags) = crate::parse_source("t.f90", src);
        let errors: Vec<String> = diags
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.message.clone())
            .collect();
        assert!(errors.is_empty(), "{errors:?}");
        p
    }

    fn unit<'p>(p: &'p Program, name: &str) -> &'p Unit {
        p.units.iter().find(|u| u.name.text == name).expect(name)
    }

    /// (block, member) of every COMMON declaration of a unit.
    fn commons(u: &Unit) -> Vec<(String, String)> {
        u.decls
            .iter()
            .filter_map(|d| match &d.kind {
                DeclKind::Common { block, entities } => {
                    Some((block.clone(), entities[0].name.text.clone()))
                }
                _ => None,
            })
            .collect()
    }

    const MODULES: &str = "module consts
  integer, parameter :: dp = selected_real_kind(15, 307), n = 10
end module consts
module grid
  use consts, only: dp, n
  private
  public :: u, nx, init
  real(dp), allocatable :: u(:, :)
  real(dp) :: w(n)
  integer :: nx = n
contains
  subroutine init()
    allocate(u(nx, nx))
    w(1:n) = 1.0
  end subroutine init
end module grid
program main
  use grid, only: u, init, size_x => nx
  use consts
  integer :: i
  real(dp) :: s
  call init()
  s = 0
  do i = 1, size_x
    s = s + u(i, 2) * m_unused
  end do
  print *, s, n
contains
  subroutine show(k)
    integer :: k
    print *, u(k, k), s, i
  end subroutine show
end program main
";

    #[test]
    fn module_variables_are_common_blocks_of_their_own() {
        let p = parsed(MODULES);
        assert_eq!(
            commons(unit(&p, "INIT")),
            [
                ("GRID%NX".to_string(), "NX".to_string()),
                ("GRID%U".into(), "U".into()),
                ("GRID%W".into(), "W".into())
            ]
        );
        // Renamed, and only what the unit references.
        assert_eq!(
            commons(unit(&p, "MAIN")),
            [
                ("GRID%NX".to_string(), "SIZE_X".to_string()),
                ("GRID%U".into(), "U".into())
            ]
        );
    }

    #[test]
    fn module_constants_fold_in_the_units_that_use_them() {
        let p = parsed(MODULES);
        let names = p.procedure_names();
        let (syms, problems) = crate::symbols::Symbols::build(unit(&p, "MAIN"), &names);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(syms.param("N"), Some(&crate::fold::Const::Int(10)));
        let (syms, _) = crate::symbols::Symbols::build(unit(&p, "CONSTS"), &names);
        assert_eq!(syms.param("DP"), Some(&crate::fold::Const::Int(8)));
        // W(N) in the module procedure has the folded bound.
        let (syms, _) = crate::symbols::Symbols::build(unit(&p, "INIT"), &names);
        assert_eq!(syms.rank("W"), 1);
        assert_eq!(syms.rank("U"), 2);
    }

    #[test]
    fn internal_procedures_get_host_variables_as_dummies() {
        let p = parsed(MODULES);
        let show = unit(&p, "SHOW");
        let args: Vec<&str> = show.args.iter().map(|a| a.text.as_str()).collect();
        // U is module storage; S and I are the host's.
        assert_eq!(args, ["K", "I", "S"]);
    }

    /// Every call of an internal procedure passes the lifted variables,
    /// also a call in a loop's body or under an IF (once only passed by
    /// calls at the top of the host's body: the calls in loops touched
    /// nothing of the host's, and dependences through them were lost).
    #[test]
    fn calls_in_loops_and_ifs_pass_the_lifted_variables() {
        let p = parsed(
            "program p
  real :: a(10)
  integer :: i
  do i = 1, 10
    call set()
    if (i > 5) call set()
    if (i > 7) then
      call set()
    end if
  end do
  call set()
contains
  subroutine set()
    a(i) = 1.0
  end subroutine set
end program p
",
        );
        let mut calls = Vec::new();
        fn collect(stmts: &[crate::ast::Stmt], out: &mut Vec<usize>) {
            use crate::ast::StmtKind;
            for s in stmts {
                match &s.kind {
                    StmtKind::Call { args, .. } => out.push(args.len()),
                    StmtKind::Do { body, .. } => collect(body, out),
                    StmtKind::LogicalIf { stmt, .. } => collect(std::slice::from_ref(stmt), out),
                    StmtKind::If { arms, .. } => arms.iter().for_each(|a| collect(&a.body, out)),
                    _ => {}
                }
            }
        }
        collect(&unit(&p, "P").body, &mut calls);
        assert_eq!(calls, [2, 2, 2, 2]);
    }

    #[test]
    fn private_names_are_not_given() {
        let (_, diags) = crate::parse_source(
            "t.f90",
            "module m
  private
  public :: a
  real :: a, b
end module m
program p
  use m, only: b
end program p
",
        );
        assert!(
            diags
                .iter()
                .any(|d| d.message.contains("no public entity `B`")),
            "{diags:?}"
        );
    }

    #[test]
    fn unknown_modules_are_one_warning() {
        let (p, diags) = crate::parse_source(
            "t.f90",
            "program p
  use missing
  implicit none
  x = y + 1
end program p
",
        );
        let warnings: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].contains("MISSING"));
        let blocks: Vec<String> = commons(&p.units[0]).into_iter().map(|(b, _)| b).collect();
        assert_eq!(blocks, ["MISSING%?", "MISSING%?"]);
    }

    #[test]
    fn generic_interfaces_name_their_specifics() {
        let p = parsed(
            "module m
  interface swap
    module procedure swap_r, swap_i
  end interface
contains
  subroutine swap_r(a, b)
    real :: a, b
  end subroutine
  subroutine swap_i(a, b)
    integer :: a, b
  end subroutine
end module m
",
        );
        assert_eq!(p.generics["SWAP"], ["SWAP_R", "SWAP_I"]);
        assert!(p.procedure_names().contains("SWAP"));
    }

    /// The callee each CALL and function reference of unit `name` names, in order.
    fn callees(p: &Program, name: &str) -> Vec<String> {
        let mut out = Vec::new();
        for s in &unit(p, name).body {
            super::walk::stmt_exprs(s, &mut |e| {
                e.any_name(&mut |n, applied| {
                    if applied && n.starts_with('G') {
                        out.push(n.to_string());
                    }
                    false
                });
            });
        }
        out
    }

    #[test]
    fn generic_calls_name_the_specific_their_arguments_decide() {
        let p = parsed(
            "module m
  integer, parameter :: dp = kind(1.0d0)
  interface g
    module procedure g_i, g_d, g_d1
  end interface
  interface gf
    module procedure gf_r, gf_i
  end interface
contains
  subroutine g_i(v)
    integer :: v
  end subroutine
  subroutine g_d(v)
    real(dp) :: v
  end subroutine
  subroutine g_d1(v, n)
    integer :: n
    real(dp) :: v(n)
  end subroutine
  real function gf_r(x, scale)
    real :: x, scale
    gf_r = x * scale
  end function
  integer function gf_i(k, scale)
    integer :: k, scale
    gf_i = k * scale
  end function
end module m
program p
  use m
  implicit none
  integer :: k
  real(dp) :: a(10), x
  real :: r
  call g(k)
  call g(x)
  call g(a, 10)
  call g(a(3))
  call g(a(2:5), 4)
  call g(-k)
  r = gf(r, 2.0) + gf(scale=3, k=k)
  r = gf(r + k, k + 2)
  call g(k + 1)
end program p
",
        );
        assert_eq!(
            callees(&p, "P"),
            // `r + k` and `k + 1` are of types this pass does not work
            // out: every specific may be called.
            ["G_I", "G_D", "G_D1", "G_D", "G_D1", "G_I", "GF_R", "GF_I", "GF", "G"]
        );
    }

    #[test]
    fn module_and_host_objects_of_derived_type_are_flattened_alike() {
        let p = parsed(
            "module mesh_mod
  type mesh_t
    real :: x(10), y(10)
  end type mesh_t
  type(mesh_t) :: mesh
end module mesh_mod
program p
  use mesh_mod
  type(mesh_t) :: local
  integer :: i
  do i = 1, 10
    mesh%x(i) = mesh%y(i)
  end do
  call inner()
contains
  subroutine inner()
    local%x(1) = mesh%x(2)
  end subroutine inner
end program p
",
        );
        let blocks: Vec<(String, String)> = commons(unit(&p, "P"));
        assert!(
            blocks.contains(&("MESH_MOD%MESH".into(), "MESH%X".into())),
            "{blocks:?}"
        );
        let inner = unit(&p, "INNER");
        let args: Vec<&str> = inner.args.iter().map(|a| a.text.as_str()).collect();
        assert_eq!(args, ["LOCAL%X", "LOCAL%Y"]);
        assert!(commons(inner).contains(&("MESH_MOD%MESH".into(), "MESH%X".into())));
    }

    #[test]
    fn generic_functions_and_procedure_dummies_are_procedures() {
        let p = parsed(
            "module isnan_mod
  interface la_isnan
    module procedure sisnan
  end interface
contains
  logical function sisnan(x)
    real :: x
    sisnan = x /= x
  end function sisnan
end module isnan_mod
subroutine s(x, select)
  use isnan_mod
  implicit none
  interface
    logical function iface(w)
      real :: w
    end function iface
  end interface
  procedure(iface) :: select
  procedure(iface), pointer :: chosen => null()
  real :: x
  real, parameter :: tiny_x = epsilon(0.0) * 0.5
  if (la_isnan(x) .or. select(x)) x = tiny_x
end subroutine s
",
        );
        let (_, diags) = crate::lower(&p);
        assert!(diags.is_empty(), "{diags:?}");
    }

    #[test]
    fn statements_that_reference_a_pointer_are_opaque() {
        let p = parsed(
            "module m
  real, target :: t(100)
  real, pointer :: q(:)
end module m
program p
  use m
  real, pointer :: r(:)
  integer :: i
  q => t
  do i = 1, 99
    q(i) = t(i + 1)
  end do
  do i = 1, 99
    t(i) = 1.0
  end do
  call inner()
contains
  subroutine inner()
    r(1) = 0.0
  end subroutine inner
end program p
",
        );
        let main = unit(&p, "P");
        let kinds: Vec<String> = main
            .body
            .iter()
            .map(|s| match &s.kind {
                StmtKind::Do { body, .. } => format!("do {:?}", body[0].kind),
                k => format!("{k:?}"),
            })
            .collect();
        assert!(kinds[0].contains("Opaque"), "{kinds:?}");
        assert!(kinds[1].contains("a reference to POINTER Q"), "{kinds:?}");
        assert!(kinds[2].starts_with("do Assign"), "{kinds:?}");
        let inner = unit(&p, "INNER");
        assert!(matches!(inner.body[0].kind, StmtKind::Opaque { .. }));
    }

    #[test]
    fn objects_of_types_with_pointer_components_are_pointers() {
        let p = parsed(
            "module m
  type box
    real, pointer :: v(:)
  end type box
  type shelf
    type(box) :: boxes(3)
  end type shelf
  type plain
    real :: w(8)
  end type plain
end module m
program p
  use m
  type(box) :: b
  type(shelf) :: s
  type(plain) :: c
  real, target :: a(8)
  integer :: i
  do i = 2, 8
    b%v(i) = a(i - 1)
    s%boxes(1)%v(i) = 0.0
    c%w(i) = a(i)
  end do
end program p
",
        );
        let main = unit(&p, "P");
        let StmtKind::Do { body, .. } = &main.body[0].kind else {
            panic!("{:?}", main.body[0].kind)
        };
        let reasons: Vec<String> = body
            .iter()
            .map(|s| match &s.kind {
                StmtKind::Opaque { reason } => reason.clone(),
                k => format!("{k:?}").chars().take(6).collect(),
            })
            .collect();
        assert_eq!(
            reasons,
            [
                "a reference to POINTER B",
                "a reference to POINTER S",
                "Assign"
            ]
        );
    }
}
