//! Derived types, flattened: every object of a derived type becomes one
//! ordinary variable per leaf component, so that symbols, lowering, the
//! rules and the judge's interpreter see only scalars and arrays.
//!
//! - The leaf `X` of object `P` is the variable `P%X`; nested, `A%B%C`.
//!   Its dims are the component's dims followed by the object's (and, for
//!   nested components, by each enclosing component's, innermost first):
//!   `P(I)%X(J)` is element `(J, I)` of `P%X`, `A%B(K)%C(J)` is
//!   `A%B%C(J, K)`. A part written without subscripts that has dims is
//!   taken whole (`:`), so `P%X(J)` with `P(10)` is `P%X(J, :)`.
//!   Components are storage of their own: `M%X(I)` and `M%Y(I)` never
//!   depend on each other, and subscripts are analyzed exactly.
//! - Declarations: `TYPE(T) :: P(10)` becomes one declaration per leaf
//!   with the component's type; DIMENSION, COMMON, SAVE and NAMELIST lists
//!   name the leaves instead of the object; a dummy argument of derived type
//!   becomes its leaves, in order, and every CALL or function reference
//!   passing a whole object (or a sub-object, or an element of an array of
//!   structures) passes its leaves in the same order.
//! - `Q = P` (whole objects of one type) is one assignment per leaf;
//!   an object in an I/O list is its leaves in order (for an array of
//!   structures the order of transfer is leaf by leaf, not element by
//!   element: the same storage read or written).
//! - What cannot be flattened soundly (a structure constructor, a function
//!   returning a derived type, type-bound procedures `P%PROC()`, a type
//!   not defined in the given files, an object of a type with EXTENDS)
//!   makes its statement opaque with a warning: opaque statements read and
//!   write everything, which is sound.
//!
//! Type definitions are looked up by name in one table of the whole
//! program, built from the TypeDefs of every unit whatever its kind (a
//! MODULE's too), so a unit finds a type defined elsewhere. Two units
//! defining the same type name would clash: the first definition wins
//! (a warning says so).
//!
//! A component reference names an object that the unit declares or, when
//! it declares none of that name, the one object of that name some other
//! unit (a module, a host) declares; the leaves are declared only in the
//! declaring unit, so making them visible elsewhere is USE's and host
//! association's business (by the names `P%...`).
//!
//! An object of a type with POINTER components never gets here with a
//! reference: `crate::scopes` made every statement that references one
//! opaque (the pointer may reach any TARGET), as it does for POINTERs.

use crate::ast::{
    DeclKind, DimSpec, Entity, Expr, ExprKind, ForallIndex, IfArm, IoItem, Name, Pos, Program,
    Stmt, StmtKind, TypeSpec, Unit, COMPONENT_REF,
};
use crate::source::Reporter;
use rustc_hash::FxHashMap;

/// A leaf of a type: a component of intrinsic type, by its path.
#[derive(Clone, Debug)]
struct Leaf {
    /// Component names from the type down (`["B", "C"]` for `%B%C`).
    path: Vec<String>,
    ty: TypeSpec,
    bytes: Option<i64>,
    /// The leaf component's dims, then each enclosing component's.
    dims: Vec<DimSpec>,
}

#[derive(Clone, Debug)]
enum CompKind {
    Leaf { ty: TypeSpec, bytes: Option<i64> },
    Nested(String),
}

#[derive(Clone, Debug)]
struct Comp {
    name: String,
    kind: CompKind,
    dims: Vec<DimSpec>,
}

#[derive(Clone, Debug)]
struct TypeDef {
    comps: Vec<Comp>,
    unsupported: Option<String>,
}

impl TypeDef {
    /// The definition as text, to compare two of one name.
    fn signature(&self) -> String {
        let mut out = format!("{:?}", self.unsupported);
        for c in &self.comps {
            out.push_str(&format!(" {} {:?} (", c.name, c.kind));
            for d in &c.dims {
                let text = |e: &Option<Expr>| {
                    e.as_ref()
                        .map_or("*".to_string(), crate::fold::text_as_written)
                };
                out.push_str(&format!("{}:{},", text(&d.lower), text(&d.upper)));
            }
            out.push(')');
        }
        out
    }
}

/// Every type of the program by name, with its leaves (or why it has
/// none that can be used).
struct Types {
    defs: FxHashMap<String, TypeDef>,
    leaves: FxHashMap<String, Result<Vec<Leaf>, String>>,
}

/// Deeper nesting of types is refused (and recursion with it).
const MAX_TYPE_DEPTH: usize = 32;

/// The TypeDefs of a unit: name, where, definition.
fn type_defs(unit: &Unit) -> impl Iterator<Item = (&Name, TypeDef)> {
    unit.decls.iter().filter_map(|d| match &d.kind {
        DeclKind::TypeDef {
            name,
            components,
            unsupported,
        } => Some((name, type_def(components, unsupported))),
        _ => None,
    })
}

impl Types {
    /// The program's table: every unit's TypeDefs by name, the first of
    /// a name where two differ (a warning says so: the table is by name,
    /// not by scope, so two modules defining one name differently clash;
    /// a unit that defines the type itself uses its own, see
    /// [`Types::for_unit`]).
    fn new(program: &Program, rep: &mut Reporter) -> Types {
        let mut defs: FxHashMap<String, TypeDef> = FxHashMap::default();
        for unit in &program.units {
            for (name, def) in type_defs(unit) {
                match defs.get(&name.text) {
                    Some(first) if first.signature() != def.signature() => {
                        rep.warning(
                            name.pos,
                            format!(
                                "derived type {} is defined differently elsewhere; units that do not define it use the first definition",
                                name.text
                            ),
                        );
                    }
                    Some(_) => {}
                    None => {
                        defs.insert(name.text.clone(), def);
                    }
                }
            }
        }
        Types::with(defs)
    }

    /// The table a unit sees: its own TypeDefs before the program's (a
    /// sequence type defined again in each unit, as F77-style codes do);
    /// `None` when they change nothing.
    fn for_unit(&self, unit: &Unit) -> Option<Types> {
        let own: Vec<(&Name, TypeDef)> = type_defs(unit)
            .filter(|(n, d)| {
                self.defs
                    .get(&n.text)
                    .is_none_or(|g| g.signature() != d.signature())
            })
            .collect();
        if own.is_empty() {
            return None;
        }
        let mut defs = self.defs.clone();
        defs.extend(own.into_iter().map(|(n, d)| (n.text.clone(), d)));
        Some(Types::with(defs))
    }

    fn with(defs: FxHashMap<String, TypeDef>) -> Types {
        let mut types = Types {
            defs,
            leaves: FxHashMap::default(),
        };
        let names: Vec<String> = types.defs.keys().cloned().collect();
        for n in names {
            let l = types.leaves_of(&n, 0);
            types.leaves.insert(n, l);
        }
        types
    }

    fn leaves_of(&self, name: &str, depth: usize) -> Result<Vec<Leaf>, String> {
        if depth > MAX_TYPE_DEPTH {
            return Err(format!("type {name} contains itself (or nests too deep)"));
        }
        let def = self
            .defs
            .get(name)
            .ok_or_else(|| format!("derived type {name} is not defined in the given files"))?;
        if let Some(why) = &def.unsupported {
            return Err(format!("objects of {why} ({name}) are not modelled"));
        }
        let mut out = Vec::new();
        for c in &def.comps {
            match &c.kind {
                CompKind::Leaf { ty, bytes } => out.push(Leaf {
                    path: vec![c.name.clone()],
                    ty: ty.clone(),
                    bytes: *bytes,
                    dims: c.dims.clone(),
                }),
                CompKind::Nested(t) => {
                    for mut l in self.leaves_of(t, depth + 1)? {
                        l.path.insert(0, c.name.clone());
                        l.dims.extend(c.dims.iter().cloned());
                        out.push(l);
                    }
                }
            }
        }
        Ok(out)
    }

    fn leaves(&self, name: &str) -> Result<&[Leaf], String> {
        match self.leaves.get(name) {
            Some(Ok(l)) => Ok(l),
            Some(Err(e)) => Err(e.clone()),
            None => Err(format!(
                "derived type {name} is not defined in the given files"
            )),
        }
    }
}

fn type_def(components: &[DeclKind], unsupported: &Option<String>) -> TypeDef {
    let mut comps = Vec::new();
    for c in components {
        match c {
            DeclKind::Type {
                ty,
                bytes,
                entities,
                ..
            } => comps.extend(entities.iter().map(|e| Comp {
                name: e.name.text.clone(),
                kind: CompKind::Leaf {
                    ty: ty.clone(),
                    bytes: *bytes,
                },
                dims: e.dims.clone(),
            })),
            DeclKind::Derived {
                type_name,
                entities,
                ..
            } => comps.extend(entities.iter().map(|e| Comp {
                name: e.name.text.clone(),
                kind: CompKind::Nested(type_name.text.clone()),
                dims: e.dims.clone(),
            })),
            _ => {}
        }
    }
    TypeDef {
        comps,
        unsupported: unsupported.clone(),
    }
}

/// An object of a derived type: its type and its own dims.
#[derive(Clone, Debug)]
pub(crate) struct Obj {
    pub(crate) type_name: String,
    pub(crate) dims: Vec<DimSpec>,
}

/// The objects a unit declares, by name.
pub(crate) fn objects_of(unit: &Unit) -> FxHashMap<String, Obj> {
    let mut out: FxHashMap<String, Obj> = FxHashMap::default();
    for d in &unit.decls {
        if let DeclKind::Derived {
            type_name,
            entities,
            ..
        } = &d.kind
        {
            for e in entities {
                out.insert(
                    e.name.text.clone(),
                    Obj {
                        type_name: type_name.text.clone(),
                        dims: e.dims.clone(),
                    },
                );
            }
        }
    }
    // Dims given apart: `DIMENSION P(10)`, `COMMON /C/ P(10)`.
    for d in &unit.decls {
        let entities = match &d.kind {
            DeclKind::Dimension(es) | DeclKind::Common { entities: es, .. } => es,
            _ => continue,
        };
        for e in entities {
            if let Some(o) = out.get_mut(&e.name.text) {
                if o.dims.is_empty() && !e.dims.is_empty() {
                    o.dims = e.dims.clone();
                }
            }
        }
    }
    out
}

/// Flattens every derived-type object of `program` (see the module's
/// documentation). Runs once, after all files are parsed and before
/// anything else looks at the units.
pub fn flatten(program: &mut Program, rep: &mut Reporter) {
    let any = program.units.iter().any(|u| {
        u.decls
            .iter()
            .any(|d| matches!(d.kind, DeclKind::TypeDef { .. } | DeclKind::Derived { .. }))
    });
    if !any && !program.units.iter().any(has_component_ref) {
        return;
    }
    let types = Types::new(program, rep);
    // Objects every unit declares, for the references of units that do
    // not declare them (module variables, the host's): `None` where two
    // units declare objects of one name with different types.
    let mut everywhere: FxHashMap<String, Option<Obj>> = FxHashMap::default();
    for unit in &program.units {
        for (n, o) in objects_of(unit) {
            everywhere
                .entry(n)
                .and_modify(|seen| {
                    if seen
                        .as_ref()
                        .is_some_and(|s| s.type_name != o.type_name || s.dims.len() != o.dims.len())
                    {
                        *seen = None;
                    }
                })
                .or_insert(Some(o));
        }
    }
    for unit in &mut program.units {
        let objects = objects_of(unit);
        let own = types.for_unit(unit);
        let mut cx = Cx {
            types: own.as_ref().unwrap_or(&types),
            objects,
            everywhere: &everywhere,
            bad: FxHashMap::default(),
            arrays: Default::default(),
            rep,
        };
        cx.unit(unit);
    }
}

fn has_component_ref(unit: &Unit) -> bool {
    fn in_stmts(stmts: &[Stmt]) -> bool {
        stmts.iter().any(|s| {
            let mut found = false;
            stmt_exprs(s, &mut |e| {
                found |= e.any_name(&mut |n, _| n == COMPONENT_REF);
            });
            found
                || match &s.kind {
                    StmtKind::Do { body, .. } | StmtKind::DoWhile { body, .. } => in_stmts(body),
                    StmtKind::If {
                        arms, else_part, ..
                    } => {
                        arms.iter().any(|a| in_stmts(&a.body))
                            || else_part.as_ref().is_some_and(|e| in_stmts(&e.body))
                    }
                    StmtKind::LogicalIf { stmt, .. } => in_stmts(std::slice::from_ref(stmt)),
                    StmtKind::Select { cases, .. } => cases.iter().any(|c| in_stmts(&c.body)),
                    _ => false,
                }
        })
    }
    in_stmts(&unit.body)
        || unit.decls.iter().any(|d| {
            let mut found = false;
            decl_exprs(&d.kind, &mut |e| {
                found |= e.any_name(&mut |n, _| n == COMPONENT_REF);
            });
            found
        })
}

fn item_exprs(list: &[IoItem], f: &mut impl FnMut(&Expr)) {
    for i in list {
        match i {
            IoItem::Expr(e) => f(e),
            IoItem::ImpliedDo(d) => {
                item_exprs(&d.items, f);
                f(&d.lower);
                f(&d.upper);
                if let Some(s) = &d.step {
                    f(s);
                }
            }
        }
    }
}

/// The expressions of a statement itself (not of the statements it holds).
fn stmt_exprs(s: &Stmt, f: &mut impl FnMut(&Expr)) {
    match &s.kind {
        StmtKind::Assign { lhs, rhs } => {
            f(lhs);
            f(rhs);
        }
        StmtKind::Do {
            lower, upper, step, ..
        } => {
            f(lower);
            f(upper);
            if let Some(s) = step {
                f(s);
            }
        }
        StmtKind::DoWhile { cond, .. } | StmtKind::LogicalIf { cond, .. } => f(cond),
        StmtKind::If { arms, .. } => arms.iter().for_each(|a| f(&a.cond)),
        StmtKind::ComputedGoto { index, .. } => f(index),
        StmtKind::ArithIf { expr, .. } => f(expr),
        StmtKind::Call { args, .. } => args.iter().for_each(f),
        StmtKind::Read { control, items: i }
        | StmtKind::Write { control, items: i }
        | StmtKind::Print { control, items: i } => {
            control.exprs().for_each(&mut *f);
            item_exprs(i, f);
        }
        StmtKind::File {
            control, outputs, ..
        } => {
            control.exprs().for_each(&mut *f);
            outputs.iter().for_each(f);
        }
        StmtKind::Select { selector, .. } => f(selector),
        StmtKind::Where {
            indices,
            mask,
            lhs,
            rhs,
        } => {
            indices
                .iter()
                .flat_map(ForallIndex::bounds)
                .for_each(&mut *f);
            [mask, lhs, rhs].into_iter().for_each(f)
        }
        StmtKind::Allocate {
            objects,
            stat,
            source,
            ..
        } => objects.iter().chain(stat).chain(source).for_each(f),
        StmtKind::Goto(_)
        | StmtKind::Exit { .. }
        | StmtKind::Cycle { .. }
        | StmtKind::Continue
        | StmtKind::Return
        | StmtKind::Stop
        | StmtKind::Format
        | StmtKind::Opaque { .. } => {}
    }
}

/// The expressions of a declaration: bounds, initial values, DATA
/// objects, EQUIVALENCE sets.
fn decl_exprs(d: &DeclKind, f: &mut impl FnMut(&Expr)) {
    let entity = |e: &Entity, f: &mut dyn FnMut(&Expr)| {
        for d in &e.dims {
            d.lower.iter().chain(&d.upper).for_each(&mut *f);
        }
        e.init.iter().for_each(f);
    };
    match d {
        DeclKind::Type { entities, .. }
        | DeclKind::Dimension(entities)
        | DeclKind::Common { entities, .. }
        | DeclKind::Derived { entities, .. } => entities.iter().for_each(|e| entity(e, f)),
        DeclKind::Parameter(ps) => ps.iter().for_each(|(_, e)| f(e)),
        DeclKind::Equivalence(sets) => sets.iter().flatten().for_each(f),
        DeclKind::Data(sets) => {
            for s in sets {
                s.objects.iter().flat_map(|o| o.exprs()).for_each(&mut *f);
            }
        }
        _ => {}
    }
}

/// The mutable counterpart of [`decl_exprs`].
fn decl_exprs_mut(d: &mut DeclKind, f: &mut impl FnMut(&mut Expr)) {
    let entity = |e: &mut Entity, f: &mut dyn FnMut(&mut Expr)| {
        for d in &mut e.dims {
            d.lower.iter_mut().chain(&mut d.upper).for_each(&mut *f);
        }
        e.init.iter_mut().for_each(f);
    };
    match d {
        DeclKind::Type { entities, .. }
        | DeclKind::Dimension(entities)
        | DeclKind::Common { entities, .. }
        | DeclKind::Derived { entities, .. } => entities.iter_mut().for_each(|e| entity(e, f)),
        DeclKind::Parameter(ps) => ps.iter_mut().for_each(|(_, e)| f(e)),
        DeclKind::Equivalence(sets) => sets.iter_mut().flatten().for_each(f),
        DeclKind::Data(sets) => {
            for s in sets {
                for o in &mut s.objects {
                    match o {
                        crate::ast::DataObject::Item(e) => f(e),
                        crate::ast::DataObject::ImpliedDo(es) => es.iter_mut().for_each(&mut *f),
                    }
                }
            }
        }
        _ => {}
    }
}

/// What a designator denotes once resolved: the flattened name so far,
/// the subscripts (the last part's first, `None` for a part written
/// without subscripts that has dims: taken whole) and the leaf or the
/// type of the sub-object it reaches.
struct Designated {
    name: String,
    pos: Pos,
    subs: Vec<Sub>,
    target: Target,
}

#[derive(Clone)]
enum Sub {
    Given(Expr),
    /// A dimension taken whole, with its first index when the
    /// declaration gives it (not for `:` or `*`).
    Whole(Pos, Option<Expr>),
}

/// The subscripts that take each of `dims` whole.
fn whole(dims: &[DimSpec], pos: Pos) -> impl Iterator<Item = Sub> + '_ {
    dims.iter().map(move |d| {
        let first = match (&d.lower, &d.upper) {
            (Some(l), _) => Some(l.clone()),
            (None, Some(_)) => Some(Expr {
                pos,
                kind: ExprKind::Int(1),
            }),
            (None, None) => None,
        };
        Sub::Whole(pos, first)
    })
}

enum Target {
    Leaf,
    Struct(String),
}

impl Designated {
    /// The reference to the leaf reached by following `leaf` from here.
    /// `argument`: for an actual argument, a section whose whole
    /// dimensions all come before its subscripted ones (an element of an
    /// array of structures: `P%V(:, I)`) is passed as its first element
    /// (`P%V(1, I)`), the same storage by sequence association.
    fn leaf_expr(&self, leaf: Option<&Leaf>, argument: bool) -> Expr {
        let mut name = self.name.clone();
        let mut subs = Vec::new();
        if let Some(l) = leaf {
            for p in &l.path {
                name.push('%');
                name.push_str(p);
            }
            subs.extend(whole(&l.dims, self.pos));
        }
        subs.extend(self.subs.iter().cloned());
        let wholes = subs
            .iter()
            .take_while(|s| matches!(s, Sub::Whole(_, Some(_))))
            .count();
        let leading = subs[wholes..].iter().all(|s| matches!(s, Sub::Given(_)));
        if argument && wholes > 0 && wholes < subs.len() && leading {
            for s in &mut subs[..wholes] {
                if let Sub::Whole(_, Some(first)) = s {
                    *s = Sub::Given(first.clone());
                }
            }
        }
        let kind = if subs.iter().all(|s| matches!(s, Sub::Whole(..))) {
            ExprKind::Var(name)
        } else {
            let args = subs
                .into_iter()
                .map(|s| match s {
                    Sub::Given(e) => e,
                    Sub::Whole(pos, _) => Expr {
                        pos,
                        kind: ExprKind::Range {
                            lower: None,
                            upper: None,
                            stride: None,
                        },
                    },
                })
                .collect();
            ExprKind::Apply { name, args }
        };
        Expr {
            pos: self.pos,
            kind,
        }
    }
}

/// One unit's flattening.
struct Cx<'a> {
    types: &'a Types,
    objects: FxHashMap<String, Obj>,
    everywhere: &'a FxHashMap<String, Option<Obj>>,
    /// Objects that cannot be flattened, and why: every statement using
    /// one is opaque.
    bad: FxHashMap<String, String>,
    /// The names the unit declares with dimensions: `NAME(...)` is one of
    /// their elements, not a call.
    arrays: rustc_hash::FxHashSet<String>,
    rep: &'a mut Reporter,
}

/// A part of a designator: its name and subscripts, if written.
fn part_of(e: &Expr) -> Option<(&str, Option<&[Expr]>)> {
    match &e.kind {
        ExprKind::Var(n) => Some((n, None)),
        ExprKind::Apply { name, args } if name != COMPONENT_REF => Some((name, Some(args))),
        _ => None,
    }
}

fn subs_of(
    args: Option<&[Expr]>,
    dims: &[DimSpec],
    pos: Pos,
    what: &str,
) -> Result<Vec<Sub>, String> {
    let rank = dims.len();
    match args {
        None => Ok(whole(dims, pos).collect()),
        Some(a) if a.len() == rank => Ok(a.iter().cloned().map(Sub::Given).collect()),
        Some(_) if rank == 0 => Err(format!(
            "{what} is a scalar: a substring or a type-bound procedure call"
        )),
        Some(a) => Err(format!(
            "{what} has {rank} dimensions but {} subscripts",
            a.len()
        )),
    }
}

impl Cx<'_> {
    /// The object `name` a component reference starts from.
    fn object(&self, name: &str, local_only: bool) -> Option<Obj> {
        match self.objects.get(name) {
            Some(o) => Some(o.clone()),
            None if local_only => None,
            None => self.everywhere.get(name).cloned().flatten(),
        }
    }

    /// Resolves the parts of a designator (one part: a whole object or an
    /// element of an array of structures); `Ok(None)` when a designator of
    /// one part is not a derived-type object.
    fn resolve(&self, parts: &[Expr], pos: Pos) -> Result<Option<Designated>, String> {
        let component = parts.len() > 1;
        let Some((first, args)) = parts.first().and_then(part_of) else {
            return Err("a component of an expression that is not a variable".into());
        };
        let Some(obj) = self.object(first, !component) else {
            if component {
                return Err(format!("`{first}` is not a derived-type object"));
            }
            return Ok(None);
        };
        let mut per_part = vec![subs_of(args, &obj.dims, pos, first)?];
        let mut name = first.to_string();
        let mut ty = obj.type_name.clone();
        let mut leaf = false;
        for p in &parts[1..] {
            let Some((pname, args)) = part_of(p) else {
                return Err("a malformed component reference".into());
            };
            if leaf {
                return Err(format!("`{name}` has no components"));
            }
            let def =
                self.types.defs.get(&ty).ok_or_else(|| {
                    format!("derived type {ty} is not defined in the given files")
                })?;
            if let Some(why) = &def.unsupported {
                return Err(format!("objects of {why} ({ty}) are not modelled"));
            }
            let Some(c) = def.comps.iter().find(|c| c.name == pname) else {
                return Err(format!("type {ty} has no component {pname}"));
            };
            name.push('%');
            name.push_str(pname);
            per_part.push(subs_of(args, &c.dims, pos, &name)?);
            match &c.kind {
                CompKind::Leaf { .. } => leaf = true,
                CompKind::Nested(t) => ty = t.clone(),
            }
        }
        // The last part's subscripts first.
        let subs = per_part.into_iter().rev().flatten().collect();
        Ok(Some(Designated {
            name,
            pos,
            subs,
            target: if leaf {
                Target::Leaf
            } else {
                Target::Struct(ty)
            },
        }))
    }
}

/// `IF (.TRUE.) THEN stmts END IF`: several statements standing where one
/// stood (a labelled one, or the statement of a logical IF).
fn block_of(label: Option<u32>, pos: Pos, cond: Option<Expr>, body: Vec<Stmt>) -> Stmt {
    let cond = cond.unwrap_or(Expr {
        pos,
        kind: ExprKind::Logical(true),
    });
    Stmt {
        label,
        pos,
        kind: StmtKind::If {
            arms: vec![IfArm {
                cond,
                pos,
                label: None,
                body,
            }],
            else_part: None,
            end: pos,
            end_label: None,
        },
    }
}

fn is_intrinsic(name: &str, form: crate::intrinsics::Form) -> bool {
    crate::intrinsics::lookup(name, form).is_some()
}

impl Cx<'_> {
    fn unit(&mut self, unit: &mut Unit) {
        // Bounds and values of declarations first: an object's dims may
        // hold component references (`TYPE(T) :: P(Q%N)`).
        let mut decls = std::mem::take(&mut unit.decls);
        for d in &mut decls {
            let pos = d.pos;
            let mut failed = Vec::new();
            decl_exprs_mut(&mut d.kind, &mut |e| {
                if let Err(why) = self.expr(e) {
                    failed.push(why);
                    join_all(e);
                }
            });
            for why in failed {
                self.rep
                    .warning(pos, format!("{why}; taken as a variable of its own"));
            }
        }
        unit.decls = decls;
        self.objects = objects_of(unit);
        let mut bad: FxHashMap<String, String> = FxHashMap::default();
        let mut leaves: FxHashMap<String, Vec<(String, Leaf)>> = FxHashMap::default();
        for (n, o) in &self.objects {
            match self.types.leaves(&o.type_name) {
                Ok(ls) => {
                    let named = ls
                        .iter()
                        .map(|l| {
                            let mut l = l.clone();
                            l.dims.extend(o.dims.iter().cloned());
                            (format!("{n}%{}", l.path.join("%")), l)
                        })
                        .collect();
                    leaves.insert(n.clone(), named);
                }
                Err(why) => {
                    bad.insert(n.clone(), why);
                }
            }
        }
        let names_of = |n: &Name| -> Vec<Name> {
            match leaves.get(&n.text) {
                Some(ls) => ls
                    .iter()
                    .map(|(text, _)| Name {
                        text: text.clone(),
                        pos: n.pos,
                    })
                    .collect(),
                None => vec![n.clone()],
            }
        };
        let mut out = Vec::with_capacity(unit.decls.len());
        for mut d in std::mem::take(&mut unit.decls) {
            match &mut d.kind {
                DeclKind::Derived {
                    entities, attrs, ..
                } => {
                    if attrs.iter().any(|a| a == "PARAMETER") {
                        self.rep.warning(
                            d.pos,
                            "a derived-type PARAMETER is not modelled: its components are taken as variables without a value",
                        );
                    }
                    for e in entities.iter() {
                        if let Some(why) = bad.get(&e.name.text) {
                            self.rep.warning(
                                e.name.pos,
                                format!(
                                    "{why}: the statements that use {} are not modelled",
                                    e.name.text
                                ),
                            );
                            continue;
                        }
                        if e.init.is_some() {
                            self.rep.warning(
                                e.name.pos,
                                format!(
                                    "the initial value of {} is not modelled; ignored",
                                    e.name.text
                                ),
                            );
                        }
                        for (text, l) in leaves.get(&e.name.text).into_iter().flatten() {
                            out.push(crate::ast::Decl {
                                pos: d.pos,
                                kind: DeclKind::Type {
                                    ty: l.ty.clone(),
                                    bytes: l.bytes,
                                    parameter: false,
                                    entities: vec![Entity {
                                        name: Name {
                                            text: text.clone(),
                                            pos: e.name.pos,
                                        },
                                        dims: l.dims.clone(),
                                        init: None,
                                    }],
                                },
                            });
                        }
                    }
                    continue;
                }
                DeclKind::Dimension(es) => {
                    es.retain(|e| !self.objects.contains_key(&e.name.text));
                    if es.is_empty() {
                        continue;
                    }
                }
                DeclKind::Common { entities, .. } => {
                    let mut new = Vec::with_capacity(entities.len());
                    for e in entities.drain(..) {
                        match leaves.get(&e.name.text) {
                            Some(ls) => new.extend(ls.iter().map(|(text, _)| Entity {
                                name: Name {
                                    text: text.clone(),
                                    pos: e.name.pos,
                                },
                                dims: Vec::new(),
                                init: None,
                            })),
                            None => new.push(e),
                        }
                    }
                    *entities = new;
                }
                DeclKind::Save(names) | DeclKind::Namelist(names) => {
                    *names = names.iter().flat_map(&names_of).collect();
                }
                _ => {}
            }
            out.push(d);
        }
        unit.decls = out;
        unit.args = unit.args.iter().flat_map(&names_of).collect();
        self.bad = bad;
        self.arrays = unit
            .decls
            .iter()
            .flat_map(|d| match &d.kind {
                DeclKind::Type { entities, .. }
                | DeclKind::Dimension(entities)
                | DeclKind::Common { entities, .. } => entities.as_slice(),
                _ => &[],
            })
            .filter(|e| !e.dims.is_empty())
            .map(|e| e.name.text.clone())
            .collect();
        let mut body = std::mem::take(&mut unit.body);
        self.body(&mut body);
        unit.body = body;
    }

    fn body(&mut self, body: &mut Vec<Stmt>) {
        for s in std::mem::take(body) {
            self.stmt(s, body);
        }
    }

    fn stmt(&mut self, mut s: Stmt, out: &mut Vec<Stmt>) {
        match &mut s.kind {
            StmtKind::Do { body, .. } | StmtKind::DoWhile { body, .. } => self.body(body),
            StmtKind::If {
                arms, else_part, ..
            } => {
                for a in arms {
                    self.body(&mut a.body);
                }
                if let Some(e) = else_part {
                    self.body(&mut e.body);
                }
            }
            StmtKind::Select { cases, .. } => {
                for c in cases {
                    self.body(&mut c.body);
                }
            }
            _ => {}
        }
        match self.rewrite(&mut s) {
            Ok(None) => out.push(s),
            Ok(Some(many)) if s.label.is_none() => out.extend(many),
            Ok(Some(many)) => out.push(block_of(s.label, s.pos, None, many)),
            Err(why) => {
                self.rep
                    .warning(s.pos, format!("{why}; the statement is not modelled"));
                s.kind = StmtKind::Opaque { reason: why };
                out.push(s);
            }
        }
    }

    /// Rewrites one statement in place, or gives the statements it
    /// becomes (a whole-object assignment).
    fn rewrite(&mut self, s: &mut Stmt) -> Result<Option<Vec<Stmt>>, String> {
        let pos = s.pos;
        match &mut s.kind {
            StmtKind::Assign { lhs, rhs } => {
                let structure =
                    |d: Option<Designated>| d.filter(|d| matches!(d.target, Target::Struct(_)));
                if let Some(ld) = structure(self.designate(lhs)?) {
                    let Some(rd) = structure(self.designate(rhs)?) else {
                        return Err(match &rhs.kind {
                            ExprKind::Apply { name, .. } if self.types.defs.contains_key(name) => {
                                "a structure constructor".to_string()
                            }
                            _ => "a derived-type value that is not a variable (a function result?)"
                                .to_string(),
                        });
                    };
                    let (Target::Struct(lt), Target::Struct(rt)) = (&ld.target, &rd.target) else {
                        return Err("a malformed whole-object assignment".into());
                    };
                    if lt != rt {
                        return Err(format!(
                            "assignment of a {rt} to a {lt} (a defined assignment?)"
                        ));
                    }
                    let leaves = self.types.leaves(lt)?;
                    // An array of structures given one structure conforms
                    // only if no leaf is an array (`Q%V(:, :) = P%V(:)`
                    // does not).
                    let wholes = |d: &Designated| {
                        d.subs
                            .iter()
                            .filter(|s| matches!(s, Sub::Whole(..)))
                            .count()
                    };
                    let (lw, rw) = (wholes(&ld), wholes(&rd));
                    if lw != rw && !(rw == 0 && leaves.iter().all(|l| l.dims.is_empty())) {
                        return Err("assignment of structures of different shapes".into());
                    }
                    let many = leaves
                        .iter()
                        .map(|l| Stmt {
                            label: None,
                            pos,
                            kind: StmtKind::Assign {
                                lhs: ld.leaf_expr(Some(l), false),
                                rhs: rd.leaf_expr(Some(l), false),
                            },
                        })
                        .collect();
                    return Ok(Some(many));
                }
                self.expr(lhs)?;
                self.expr(rhs)?;
            }
            StmtKind::Call { name, args } => {
                let intrinsic = is_intrinsic(&name.text, crate::intrinsics::Form::Subroutine);
                self.args(args, intrinsic)?;
            }
            StmtKind::LogicalIf { cond, stmt } => {
                self.expr(cond)?;
                if let Some(many) = self.rewrite(stmt)? {
                    let cond = cond.clone();
                    *s = block_of(s.label, pos, Some(cond), many);
                }
            }
            StmtKind::Do {
                lower, upper, step, ..
            } => {
                self.expr(lower)?;
                self.expr(upper)?;
                if let Some(st) = step {
                    self.expr(st)?;
                }
            }
            StmtKind::DoWhile { cond, .. } => self.expr(cond)?,
            StmtKind::If { arms, .. } => {
                for a in arms {
                    self.expr(&mut a.cond)?;
                }
            }
            StmtKind::ComputedGoto { index, .. } => self.expr(index)?,
            StmtKind::ArithIf { expr, .. } => self.expr(expr)?,
            StmtKind::Read { control, items }
            | StmtKind::Write { control, items }
            | StmtKind::Print { control, items } => {
                self.control(control)?;
                self.items(items)?;
            }
            StmtKind::File {
                control, outputs, ..
            } => {
                self.control(control)?;
                for e in outputs {
                    self.expr(e)?;
                }
            }
            StmtKind::Select {
                selector, cases, ..
            } => {
                self.expr(selector)?;
                for c in cases {
                    for v in c.values.iter_mut().flatten() {
                        match v {
                            crate::ast::CaseValue::Single(e) => self.expr(e)?,
                            crate::ast::CaseValue::Range(lo, hi) => {
                                for e in lo.iter_mut().chain(hi) {
                                    self.expr(e)?;
                                }
                            }
                        }
                    }
                }
            }
            StmtKind::Where {
                indices,
                mask,
                lhs,
                rhs,
            } => {
                for b in indices.iter_mut().flat_map(ForallIndex::bounds_mut) {
                    self.expr(b)?;
                }
                self.expr(mask)?;
                self.expr(lhs)?;
                self.expr(rhs)?;
            }
            StmtKind::Allocate {
                objects,
                stat,
                source,
                ..
            } => {
                for e in objects.iter_mut().chain(stat).chain(source) {
                    self.expr(e)?;
                }
            }
            StmtKind::Goto(_)
            | StmtKind::Exit { .. }
            | StmtKind::Cycle { .. }
            | StmtKind::Continue
            | StmtKind::Return
            | StmtKind::Stop
            | StmtKind::Format
            | StmtKind::Opaque { .. } => {}
        }
        Ok(None)
    }

    fn control(&self, c: &mut crate::ast::IoControl) -> Result<(), String> {
        let vars = [&mut c.iostat, &mut c.size].into_iter().flatten();
        for e in c
            .unit
            .iter_mut()
            .chain(&mut c.format)
            .chain(&mut c.values)
            .chain(vars)
        {
            self.expr(e)?;
        }
        Ok(())
    }

    /// An I/O list: an object stands for its leaves in order.
    fn items(&self, items: &mut Vec<IoItem>) -> Result<(), String> {
        let mut out = Vec::with_capacity(items.len());
        for item in items.drain(..) {
            match item {
                IoItem::Expr(mut e) => match self.structure(&e)? {
                    Some((_, leaves)) => out.extend(leaves.into_iter().map(IoItem::Expr)),
                    None => {
                        self.expr(&mut e)?;
                        out.push(IoItem::Expr(e));
                    }
                },
                IoItem::ImpliedDo(mut d) => {
                    self.items(&mut d.items)?;
                    self.expr(&mut d.lower)?;
                    self.expr(&mut d.upper)?;
                    if let Some(st) = &mut d.step {
                        self.expr(st)?;
                    }
                    out.push(IoItem::ImpliedDo(d));
                }
            }
        }
        *items = out;
        Ok(())
    }

    /// An argument list: a whole object (an element of an array of
    /// structures, a sub-object) passes its leaves in order.
    fn args(&self, args: &mut Vec<Expr>, intrinsic: bool) -> Result<(), String> {
        let mut out = Vec::with_capacity(args.len());
        for mut a in args.drain(..) {
            match self.designate(&a)? {
                Some(d) => match &d.target {
                    Target::Struct(_) if intrinsic => {
                        return Err("a derived-type object passed to an intrinsic procedure".into())
                    }
                    Target::Struct(t) => {
                        let leaves = self.types.leaves(t)?;
                        out.extend(leaves.iter().map(|l| d.leaf_expr(Some(l), !intrinsic)));
                    }
                    Target::Leaf => out.push(d.leaf_expr(None, !intrinsic)),
                },
                None => {
                    self.expr(&mut a)?;
                    out.push(a);
                }
            }
        }
        *args = out;
        Ok(())
    }

    /// When `e` denotes a whole structure (an object, an element of an
    /// array of structures, a sub-object), its type and the references to
    /// its leaves in order.
    fn structure(&self, e: &Expr) -> Result<Option<(String, Vec<Expr>)>, String> {
        let Some(d) = self.designate(e)? else {
            return Ok(None);
        };
        match &d.target {
            Target::Leaf => Ok(None),
            Target::Struct(t) => {
                let leaves = self.types.leaves(t)?;
                Ok(Some((
                    t.clone(),
                    leaves.iter().map(|l| d.leaf_expr(Some(l), false)).collect(),
                )))
            }
        }
    }

    /// What `e` designates when it is a component reference or names a
    /// derived-type object (whole, or an element of an array of
    /// structures); its subscripts rewritten.
    fn designate(&self, e: &Expr) -> Result<Option<Designated>, String> {
        let mut parts: Vec<Expr> = match &e.kind {
            ExprKind::Apply { name, args } if name == COMPONENT_REF => args.clone(),
            ExprKind::Var(n) | ExprKind::Apply { name: n, .. } => {
                if let Some(why) = self.bad.get(n) {
                    return Err(why.clone());
                }
                if !self.objects.contains_key(n) {
                    return Ok(None);
                }
                vec![e.clone()]
            }
            _ => return Ok(None),
        };
        if let Some(why) = parts
            .first()
            .and_then(part_of)
            .and_then(|(n, _)| self.bad.get(n))
        {
            return Err(why.clone());
        }
        for p in &mut parts {
            if let ExprKind::Apply { args, .. } = &mut p.kind {
                for s in args {
                    self.expr(s)?;
                }
            }
        }
        self.resolve(&parts, e.pos)
    }

    /// Rewrites the component references of an expression into references
    /// to leaves; a whole object here (not an argument, not an I/O item,
    /// not a side of a whole-object assignment) cannot be flattened.
    fn expr(&self, e: &mut Expr) -> Result<(), String> {
        match &mut e.kind {
            ExprKind::Apply { name, args } if name == COMPONENT_REF => {
                let pos = e.pos;
                let mut parts = args.clone();
                if let Some(why) = parts
                    .first()
                    .and_then(part_of)
                    .and_then(|(n, _)| self.bad.get(n))
                {
                    return Err(why.clone());
                }
                for p in &mut parts {
                    if let ExprKind::Apply { args, .. } = &mut p.kind {
                        for s in args {
                            self.expr(s)?;
                        }
                    }
                }
                let Some(d) = self.resolve(&parts, pos)? else {
                    return Err("a malformed component reference".into());
                };
                match d.target {
                    Target::Leaf => *e = d.leaf_expr(None, false),
                    Target::Struct(_) => {
                        return Err(format!(
                            "the derived-type object {} used as a value",
                            d.name
                        ))
                    }
                }
            }
            ExprKind::Var(n) => {
                if let Some(why) = self.bad.get(n.as_str()) {
                    return Err(why.clone());
                }
                if self.objects.contains_key(n.as_str()) {
                    return Err(format!("the derived-type object {n} used as a value"));
                }
            }
            ExprKind::Apply { name, args } => {
                if let Some(why) = self.bad.get(name.as_str()) {
                    return Err(why.clone());
                }
                if self.objects.contains_key(name.as_str()) {
                    return Err(format!(
                        "an element of the array of structures {name} used as a value"
                    ));
                }
                // Subscripts of an array, like an intrinsic's arguments,
                // keep their sections (a vector subscript) and take no
                // whole object.
                let intrinsic = is_intrinsic(name, crate::intrinsics::Form::Function)
                    || self.arrays.contains(name.as_str());
                self.args(args, intrinsic)?;
            }
            ExprKind::Range {
                lower,
                upper,
                stride,
            } => {
                for x in [lower, upper, stride].into_iter().flatten() {
                    self.expr(x)?;
                }
            }
            ExprKind::Unary(_, x) => self.expr(x)?,
            ExprKind::Binary(_, a, b) => {
                self.expr(a)?;
                self.expr(b)?;
            }
            ExprKind::Int(_) | ExprKind::Real(_) | ExprKind::Logical(_) | ExprKind::Str(_) => {}
        }
        Ok(())
    }
}

/// Every component reference left in `e` as one variable named by its
/// parts (`P%X`): for declarations, which cannot be made opaque.
fn join_all(e: &mut Expr) {
    match &mut e.kind {
        ExprKind::Apply { name, args } if name == COMPONENT_REF => {
            let names: Vec<&str> = args
                .iter()
                .filter_map(|p| part_of(p).map(|p| p.0))
                .collect();
            e.kind = ExprKind::Var(names.join("%"));
        }
        ExprKind::Apply { args, .. } => args.iter_mut().for_each(join_all),
        ExprKind::Range {
            lower,
            upper,
            stride,
        } => [lower, upper, stride]
            .into_iter()
            .flatten()
            .for_each(|x| join_all(x)),
        ExprKind::Unary(_, x) => join_all(x),
        ExprKind::Binary(_, a, b) => {
            join_all(a);
            join_all(b);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use crate::ast::{DeclKind, Expr, ExprKind, Stmt, StmtKind, Unit};
    use crate::Diagnostic;

    fn parse(src: &str) -> (Vec<Unit>, Vec<Diagnostic>) {
        let (p, d) = crate::parse_source("t.f90", src);
        (p.units, d)
    }

    /// An expression as Fortran-like text.
    fn text(e: &Expr) -> String {
        match &e.kind {
            ExprKind::Var(n) => n.clone(),
            ExprKind::Int(v) => v.to_string(),
            ExprKind::Real(r) => r.clone(),
            ExprKind::Apply { name, args } => format!(
                "{name}({})",
                args.iter().map(text).collect::<Vec<_>>().join(",")
            ),
            ExprKind::Range { lower, upper, .. } => format!(
                "{}:{}",
                lower.as_deref().map(text).unwrap_or_default(),
                upper.as_deref().map(text).unwrap_or_default()
            ),
            ExprKind::Binary(op, a, b) => format!("{}{op:?}{}", text(a), text(b)),
            other => format!("{other:?}"),
        }
    }

    fn stmts(body: &[Stmt], out: &mut Vec<String>) {
        for s in body {
            match &s.kind {
                StmtKind::Assign { lhs, rhs } => out.push(format!("{}={}", text(lhs), text(rhs))),
                StmtKind::Do { body, upper, .. } => {
                    out.push(format!("DO ..{}", text(upper)));
                    stmts(body, out);
                }
                StmtKind::If { arms, .. } => {
                    out.push(format!("IF {}", text(&arms[0].cond)));
                    stmts(&arms[0].body, out);
                }
                StmtKind::Call { name, args } => out.push(format!(
                    "CALL {}({})",
                    name.text,
                    args.iter().map(text).collect::<Vec<_>>().join(",")
                )),
                StmtKind::Opaque { reason } => out.push(format!("OPAQUE {reason}")),
                StmtKind::Print { items, .. } => out.push(format!(
                    "PRINT {}",
                    items
                        .iter()
                        .map(|i| match i {
                            crate::ast::IoItem::Expr(e) => text(e),
                            _ => "(do)".into(),
                        })
                        .collect::<Vec<_>>()
                        .join(",")
                )),
                other => out.push(format!("{other:?}")),
            }
        }
    }

    fn body(u: &Unit) -> Vec<String> {
        let mut out = Vec::new();
        stmts(&u.body, &mut out);
        out
    }

    /// The unit's declared variables: name, dims count.
    fn declared(u: &Unit) -> Vec<(String, usize)> {
        u.decls
            .iter()
            .filter_map(|d| match &d.kind {
                DeclKind::Type { entities, .. } => Some(entities),
                _ => None,
            })
            .flatten()
            .map(|e| (e.name.text.clone(), e.dims.len()))
            .collect()
    }

    const POINT: &str = "
  type point
    sequence
    real :: x, y
    integer :: tag(3) = 0
  end type point
  type :: box
    type(point) :: corner(2)
    real, allocatable :: w(:)
    real, allocatable :: v(:)
  end type
";

    #[test]
    fn objects_become_one_variable_per_leaf() {
        let src = format!(
            "program t\n{POINT}  type(point) :: p, q(10)\n  type(box) :: b\n  integer :: i, j\n  do i = 2, 10\n    q(i)%x = q(i-1)%x + p%y\n    q(i)%tag(j) = b%corner(j)%tag(i)\n  end do\n  b%w(i) = 1.0\nend\n"
        );
        let (units, diags) = parse(&src);
        assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
        let u = &units[0];
        let d = declared(u);
        for want in [
            ("P%X", 0),
            ("P%Y", 0),
            ("P%TAG", 1),
            ("Q%X", 1),
            ("Q%TAG", 2),
            ("B%CORNER%X", 1),
            ("B%CORNER%TAG", 2),
            ("B%W", 1),
            ("B%V", 1),
        ] {
            assert!(
                d.contains(&(want.0.to_string(), want.1)),
                "{want:?} in {d:?}"
            );
        }
        assert_eq!(
            body(u),
            [
                "DO ..10",
                "Q%X(I)=Q%X(ISub1)AddP%Y",
                "Q%TAG(J,I)=B%CORNER%TAG(I,J)",
                "B%W(I)=1.0"
            ]
        );
    }

    #[test]
    fn whole_objects_are_their_leaves() {
        let src = format!(
            "subroutine s(p, n)\n{POINT}  type(point) :: p(n), q\n  integer :: n, i\n  real :: arr(10)\n  q = p(1)\n  if (q%x > 0) p(2) = q\n  call use(p(i), q%tag)\n  print *, q\n  do i = 1, p(1)%tag(2)\n  end do\n  q%tag = int(arr(p(i)%tag))\nend\n"
        );
        let (units, diags) = parse(&src);
        assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
        let u = &units[0];
        let args: Vec<&str> = u.args.iter().map(|a| a.text.as_str()).collect();
        assert_eq!(args, ["P%X", "P%Y", "P%TAG", "N"]);
        assert_eq!(
            body(u),
            [
                "Q%X=P%X(1)",
                "Q%Y=P%Y(1)",
                "Q%TAG=P%TAG(:,1)",
                "IF Q%XGt0",
                "P%X(2)=Q%X",
                "P%Y(2)=Q%Y",
                "P%TAG(:,2)=Q%TAG",
                "CALL USE(P%X(I),P%Y(I),P%TAG(1,I),Q%TAG)",
                "PRINT Q%X,Q%Y,Q%TAG",
                "DO ..P%TAG(2,1)",
                // A vector subscript stays a section.
                "Q%TAG=INT(ARR(P%TAG(:,I)))",
            ]
        );
    }

    #[test]
    fn what_cannot_be_flattened_is_opaque_with_a_warning() {
        let src = format!(
            "program t\n{POINT}  type(point) :: p, arr(4)\n  type(mystery) :: m\n  p = point(1.0, 2.0, 0)\n  m%a = 1\n  call p%move(1.0)\n  x = p\n  y = p%x + 1\n  arr = p\nend\n"
        );
        let (units, diags) = parse(&src);
        assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
        let b = body(&units[0]);
        assert_eq!(b.len(), 6, "{b:?}");
        assert!(b[0].starts_with("OPAQUE a structure constructor"), "{b:?}");
        assert!(
            b[1].starts_with("OPAQUE derived type MYSTERY is not defined"),
            "{b:?}"
        );
        assert!(
            b[2].starts_with("OPAQUE call of a type-bound procedure"),
            "{b:?}"
        );
        assert!(
            b[3].starts_with("OPAQUE the derived-type object P used as a value"),
            "{b:?}"
        );
        assert_eq!(b[4], "Y=P%XAdd1");
        assert!(
            b[5].starts_with("OPAQUE assignment of structures of different shapes"),
            "{b:?}"
        );
        let warned = |w: &str| diags.iter().any(|d| d.message.contains(w));
        assert!(warned(
            "a structure constructor; the statement is not modelled"
        ));
        assert!(warned(
            "derived type MYSTERY is not defined in the given files"
        ));
    }

    #[test]
    fn components_in_declarations() {
        let src = format!(
            "subroutine s(m)\n{POINT}  type(point) :: m\n  real :: a(m%tag(1)), c\n  data c, m%x /1.0, 2.0/\n  a(1) = c\nend\n"
        );
        let (units, diags) = parse(&src);
        assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
        let u = &units[0];
        let bound = u.decls.iter().find_map(|d| match &d.kind {
            DeclKind::Type { entities, .. } if entities[0].name.text == "A" => {
                entities[0].dims[0].upper.as_ref().map(text)
            }
            _ => None,
        });
        assert_eq!(bound.as_deref(), Some("M%TAG(1)"));
        let data: Vec<String> = u
            .decls
            .iter()
            .filter_map(|d| match &d.kind {
                DeclKind::Data(sets) => Some(sets),
                _ => None,
            })
            .flatten()
            .flat_map(|s| s.objects.iter().flat_map(|o| o.exprs()).map(text))
            .collect();
        assert_eq!(data, ["C", "M%X"]);
    }

    #[test]
    fn type_statements_in_their_forms() {
        let src = "module m\nend module\nprogram t\n  type, public :: a\n    private\n    integer :: k\n  end type a\n  type b\n    type(a) :: inner\n  contains\n    procedure :: f\n  end type\n  class(b), allocatable :: x\n  type(a), dimension(5), save :: y\n  common /c/ z\n  type(a) z\n  x%inner%k = y(2)%k + z%k\nend\n";
        let (units, diags) = parse(src);
        assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
        let u = units.iter().find(|u| u.name.text == "T").expect("T");
        let d = declared(u);
        assert!(d.contains(&("X%INNER%K".into(), 0)), "{d:?}");
        assert!(d.contains(&("Y%K".into(), 1)), "{d:?}");
        assert_eq!(body(u), ["X%INNER%K=Y%K(2)AddZ%K"]);
        let common: Vec<&str> = u
            .decls
            .iter()
            .filter_map(|d| match &d.kind {
                DeclKind::Common { entities, .. } => Some(entities),
                _ => None,
            })
            .flatten()
            .map(|e| e.name.text.as_str())
            .collect();
        assert_eq!(common, ["Z%K"]);
        let saved = u
            .decls
            .iter()
            .any(|d| matches!(&d.kind, DeclKind::Save(ns) if ns.iter().any(|n| n.text == "Y%K")));
        assert!(saved);
    }
}
