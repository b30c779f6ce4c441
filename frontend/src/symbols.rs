//! Per-unit name resolution: what each name of a program unit is.
//!
//! Fortran decides a name's meaning from the declarations of its unit:
//! a type statement or the IMPLICIT rules (default: `I`-`N` integer, the
//! rest real; none under IMPLICIT NONE) give its type, DIMENSION or a
//! declarator with bounds makes it an array, PARAMETER a named constant.
//! `NAME(args)` is an array element when `NAME` is an array, otherwise a
//! call: of an intrinsic when `NAME` is one (and not declared EXTERNAL nor
//! a unit of the program), else of an external function or a statement
//! function defined at the top of the body.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::ast::{
    DeclKind, DimSpec, Entity, Expr, ExprKind, Pos, Stmt, StmtKind, TypeSpec, Unit, UnitKind,
};
use crate::fold::{self, Const, Env};
use crate::hpf_library::LibraryUse;
use crate::intrinsics::{self, Form, Intrinsic};

/// What a bare name in an expression stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameClass {
    /// A PARAMETER: folded, never a reference.
    Constant,
    /// A procedure passed as an argument (EXTERNAL or INTRINSIC declared).
    Procedure,
    /// A whole array.
    Array,
    /// A scalar variable.
    Scalar,
}

/// What `NAME(args)` stands for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ApplyClass {
    Element,
    /// `C(1:3)` on a CHARACTER scalar.
    Substring,
    Intrinsic(&'static Intrinsic),
    /// An external function: a call.
    Function,
    /// A statement function of the unit: evaluated in place.
    StatementFunction,
}

/// `F(X, Y) = body`, defined at the top of the unit's body.
pub struct StmtFunction<'a> {
    pub dummies: Vec<String>,
    pub body: &'a Expr,
    /// Where the definition stands (it is numbered as a declaration).
    pub pos: Pos,
}

/// The names of one program unit and what they are.
pub struct Symbols<'a> {
    pub unit: &'a Unit,
    implicit: [Option<TypeSpec>; 26],
    pub implicit_none: bool,
    types: FxHashMap<String, TypeSpec>,
    /// Element sizes that type statements and IMPLICIT state (see [`Symbols::elem_bytes`]).
    bytes: FxHashMap<String, Option<i64>>,
    implicit_bytes: [Option<i64>; 26],
    dims: FxHashMap<String, &'a [DimSpec]>,
    params: FxHashMap<String, Const>,
    /// Variables that keep their initial value (see [`crate::constants`]).
    kept: FxHashMap<String, Const>,
    /// PARAMETER names in declaration order, for `param` facts.
    pub param_order: Vec<String>,
    externals: FxHashSet<String>,
    declared_intrinsics: FxHashSet<String>,
    stmt_functions: FxHashMap<String, StmtFunction<'a>>,
    /// Cray pointees: they may be any storage.
    pointees: FxHashSet<String>,
    /// Names of all units of the program: they hide intrinsics of the same name.
    program_units: &'a FxHashSet<&'a str>,
    /// `USE HPF_LIBRARY` statements: their functions are intrinsics.
    hpf_library: Vec<LibraryUse<'a>>,
}

/// A problem found while resolving names: where, and what.
pub type Problem = (Pos, String);

impl<'a> Symbols<'a> {
    /// Resolves the declarations of `unit`; PARAMETER values are folded in
    /// declaration order (a PARAMETER may use earlier ones) and converted
    /// to the constant's type. Non-constant PARAMETERs are reported. Then
    /// the variables that keep their initial value are found.
    pub fn build(
        unit: &'a Unit,
        program_units: &'a FxHashSet<&'a str>,
    ) -> (Symbols<'a>, Vec<Problem>) {
        let mut s = Symbols {
            unit,
            implicit: default_implicit(),
            implicit_none: false,
            types: FxHashMap::default(),
            bytes: FxHashMap::default(),
            implicit_bytes: std::array::from_fn(|i| {
                default_bytes(&default_type((b'A' + i as u8) as char))
            }),
            dims: FxHashMap::default(),
            params: FxHashMap::default(),
            kept: FxHashMap::default(),
            param_order: Vec::new(),
            externals: FxHashSet::default(),
            declared_intrinsics: FxHashSet::default(),
            stmt_functions: FxHashMap::default(),
            pointees: FxHashSet::default(),
            program_units,
            hpf_library: Vec::new(),
        };
        if let (UnitKind::Function, Some(ty)) = (unit.kind, &unit.result_type) {
            s.types.insert(unit.name.text.clone(), ty.clone());
        }
        let mut parameters: Vec<(&'a crate::ast::Name, &'a Expr)> = Vec::new();
        for d in &unit.decls {
            match &d.kind {
                DeclKind::Type {
                    ty,
                    bytes,
                    parameter,
                    entities,
                } => {
                    for e in entities {
                        s.types.insert(e.name.text.clone(), ty.clone());
                        s.bytes.insert(e.name.text.clone(), *bytes);
                        s.add_dims(e);
                        if let (true, Some(init)) = (*parameter, &e.init) {
                            parameters.push((&e.name, init));
                        }
                    }
                }
                DeclKind::Dimension(es) | DeclKind::Common { entities: es, .. } => {
                    es.iter().for_each(|e| s.add_dims(e))
                }
                DeclKind::Parameter(list) => parameters.extend(list.iter().map(|(n, e)| (n, e))),
                DeclKind::External(ns) => s.externals.extend(ns.iter().map(|n| n.text.clone())),
                DeclKind::Intrinsic(ns) => s
                    .declared_intrinsics
                    .extend(ns.iter().map(|n| n.text.clone())),
                DeclKind::ImplicitNone => {
                    s.implicit_none = true;
                    s.implicit = [const { None }; 26];
                }
                DeclKind::Implicit(rules) => {
                    for (ty, bytes, ranges) in rules {
                        for &(a, b) in ranges {
                            for c in a.to_ascii_uppercase()..=b.to_ascii_uppercase() {
                                if let Some(i) = letter_index(c) {
                                    s.implicit[i] = Some(ty.clone());
                                    s.implicit_bytes[i] = *bytes;
                                }
                            }
                        }
                    }
                }
                // A pointee may be any storage: never a definition that kills.
                DeclKind::CrayPointer(pairs) => {
                    for (_, pointee) in pairs {
                        s.add_dims(pointee);
                        s.pointees.insert(pointee.name.text.clone());
                    }
                }
                DeclKind::UseHpfLibrary { only, names } => {
                    s.hpf_library.push(LibraryUse { only: *only, names })
                }
                DeclKind::Equivalence(_)
                | DeclKind::Use { .. }
                | DeclKind::Access { .. }
                | DeclKind::Pointer(_)
                | DeclKind::Interface { .. }
                | DeclKind::Intent { .. }
                | DeclKind::Data(_)
                | DeclKind::Save(_)
                | DeclKind::Namelist(_)
                | DeclKind::Hpf(_)
                // Flattened by `derived` before this runs.
                | DeclKind::TypeDef { .. }
                | DeclKind::Derived { .. } => {}
            }
        }
        for st in &unit.body {
            match s.stmt_function_shape(st) {
                Some((name, dummies, body)) => {
                    s.stmt_functions.insert(
                        name,
                        StmtFunction {
                            dummies,
                            body,
                            pos: st.pos,
                        },
                    );
                }
                None => break,
            }
        }
        // With RESULT(r), the function's type is its result variable's.
        if let (UnitKind::Function, None, Some(r)) = (unit.kind, &unit.result_type, &unit.result) {
            if let Some(ty) = s.types.get(&r.text).cloned() {
                s.types.insert(unit.name.text.clone(), ty);
            }
        }
        let mut problems = Vec::new();
        for (name, expr) in parameters {
            match fold::fold(expr, &s) {
                Some(c) => {
                    let c = convert(c, &s.type_of(&name.text));
                    if s.params.insert(name.text.clone(), c).is_none() {
                        s.param_order.push(name.text.clone());
                    }
                }
                // A complex constant has no folded value (see `fold`), nor
                // does a real one made of the numeric inquiry functions
                // (EPSILON, HUGE, RADIX, ...), nor a constant array (an
                // array constructor): it stays a named constant whose value
                // is not known; no bound or subscript needs it.
                None if s.dims.contains_key(&name.text)
                    || matches!(
                        s.type_of(&name.text),
                        TypeSpec::Complex | TypeSpec::Real | TypeSpec::Double
                    ) => {}
                None => problems.push((
                    expr.pos,
                    format!("PARAMETER `{}` is not a constant expression", name.text),
                )),
            }
        }
        s.kept = crate::constants::kept_values(&s);
        (s, problems)
    }

    /// The entity's dims; for an array of deferred shape, the bounds its
    /// ALLOCATEs give it when known (`Unit::allocated`).
    fn add_dims(&mut self, e: &'a Entity) {
        if !e.dims.is_empty() {
            let dims = match self.unit.allocated.get(&e.name.text) {
                Some(shape) if shape.len() == e.dims.len() => shape,
                _ => &e.dims,
            };
            self.dims.insert(e.name.text.clone(), dims);
        }
    }

    /// `F(X, Y) = expr` whose `F` is not an array has the shape of a
    /// statement function definition: its name, dummies and body.
    fn stmt_function_shape(&self, st: &'a Stmt) -> Option<(String, Vec<String>, &'a Expr)> {
        let StmtKind::Assign { lhs, rhs } = &st.kind else {
            return None;
        };
        let ExprKind::Apply { name, args } = &lhs.kind else {
            return None;
        };
        let dummies = args
            .iter()
            .map(|a| match &a.kind {
                ExprKind::Var(d) => Some(d.clone()),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()?;
        (!self.is_array(name)).then(|| (name.clone(), dummies, rhs))
    }

    /// Whether `st` is one of the statement function definitions that open the body.
    pub fn is_stmt_function_def(&self, st: &Stmt) -> bool {
        match &st.kind {
            StmtKind::Assign { lhs, .. } => match &lhs.kind {
                ExprKind::Apply { name, .. } => self
                    .stmt_functions
                    .get(name)
                    .is_some_and(|f| f.pos == st.pos),
                _ => false,
            },
            _ => false,
        }
    }

    pub fn stmt_function(&self, name: &str) -> Option<&StmtFunction<'a>> {
        self.stmt_functions.get(name)
    }

    /// The declared type, or the implicit one; under IMPLICIT NONE an
    /// undeclared name gets the default rule (its use is reported apart).
    pub fn type_of(&self, name: &str) -> TypeSpec {
        if let Some(t) = self.types.get(name) {
            return t.clone();
        }
        let first = name.chars().next().unwrap_or('A');
        letter_index(first)
            .and_then(|i| self.implicit[i].clone())
            .unwrap_or_else(|| default_type(first))
    }

    /// Bytes of one element (of the scalar), as gfortran lays it out:
    /// `None` when the declarations do not tell (CHARACTER, a kind that is
    /// not a literal).
    pub fn elem_bytes(&self, name: &str) -> Option<i64> {
        if let Some(b) = self.bytes.get(name) {
            return *b;
        }
        if let Some(t) = self.types.get(name) {
            return default_bytes(t);
        }
        let first = name.chars().next().unwrap_or('A');
        match letter_index(first) {
            Some(i) if self.implicit[i].is_some() => self.implicit_bytes[i],
            _ => default_bytes(&default_type(first)),
        }
    }

    /// Whether the name has a type other than by the default rule under IMPLICIT NONE.
    pub fn has_type(&self, name: &str) -> bool {
        self.types.contains_key(name)
            || name
                .chars()
                .next()
                .and_then(letter_index)
                .is_some_and(|i| self.implicit[i].is_some())
    }

    pub fn is_array(&self, name: &str) -> bool {
        self.dims.contains_key(name)
    }

    pub fn dims(&self, name: &str) -> &'a [DimSpec] {
        self.dims.get(name).copied().unwrap_or(&[])
    }

    pub fn rank(&self, name: &str) -> usize {
        self.dims(name).len()
    }

    pub fn param(&self, name: &str) -> Option<&Const> {
        self.params.get(name)
    }

    /// A Cray pointee, which may be any storage.
    pub fn is_pointee(&self, name: &str) -> bool {
        self.pointees.contains(name)
    }

    pub fn is_external(&self, name: &str) -> bool {
        self.externals.contains(name)
    }

    pub fn is_declared_intrinsic(&self, name: &str) -> bool {
        self.declared_intrinsics.contains(name)
    }

    /// A scalar of type INTEGER (not a PARAMETER): may appear in affine forms.
    pub fn is_integer_scalar(&self, name: &str) -> bool {
        !self.params.contains_key(name)
            && !self.is_array(name)
            && self.type_of(name) == TypeSpec::Integer
    }

    pub fn classify_name(&self, name: &str) -> NameClass {
        if self.params.contains_key(name) {
            NameClass::Constant
        } else if self.is_array(name) {
            NameClass::Array
        } else if self.externals.contains(name) || self.declared_intrinsics.contains(name) {
            NameClass::Procedure
        } else {
            NameClass::Scalar
        }
    }

    pub fn classify_apply(&self, name: &str, args: &[Expr]) -> ApplyClass {
        if self.is_array(name) {
            ApplyClass::Element
        } else if self.type_of(name) == TypeSpec::Character
            && !self.stmt_functions.contains_key(name)
            && args.len() == 1
            && matches!(args[0].kind, ExprKind::Range { .. })
        {
            ApplyClass::Substring
        } else if self.stmt_functions.contains_key(name) {
            ApplyClass::StatementFunction
        } else if let Some(row) = self.intrinsic(name, Form::Function) {
            ApplyClass::Intrinsic(row)
        } else {
            ApplyClass::Function
        }
    }

    /// The intrinsic of this form that `name` stands for (an HPF_LIBRARY
    /// function where the unit USEs it), unless the unit made the name
    /// into something else (EXTERNAL, an array, a statement function, a
    /// dummy argument, a unit of the program). A type statement does not:
    /// `INTEGER IARGC` types the intrinsic.
    pub fn intrinsic(&self, name: &str, form: Form) -> Option<&'static Intrinsic> {
        let hidden = self.externals.contains(name)
            || self.dims.contains_key(name)
            || self.stmt_functions.contains_key(name)
            || self.program_units.contains(name)
            || self.unit.args.iter().any(|a| a.text == name);
        if hidden {
            return None;
        }
        intrinsics::lookup(name, form).or_else(|| match form {
            Form::Function => self.hpf_library.iter().find_map(|u| u.function(name)),
            Form::Subroutine => None,
        })
    }
}

/// PARAMETERs and the variables that keep their initial value fold.
impl Env for Symbols<'_> {
    fn constant(&self, name: &str) -> Option<&Const> {
        self.params.get(name).or_else(|| self.kept.get(name))
    }

    fn intrinsic(&self, name: &str) -> Option<&'static Intrinsic> {
        Symbols::intrinsic(self, name, Form::Function)
    }
}

/// The variable an EQUIVALENCE or DATA object names (`A` of `A(3)`).
pub fn base_name(e: &Expr) -> Option<&str> {
    match &e.kind {
        ExprKind::Var(n) | ExprKind::Apply { name: n, .. } => Some(n),
        _ => None,
    }
}

fn letter_index(c: char) -> Option<usize> {
    c.is_ascii_uppercase().then(|| (c as u8 - b'A') as usize)
}

fn default_type(first: char) -> TypeSpec {
    if ('I'..='N').contains(&first) {
        TypeSpec::Integer
    } else {
        TypeSpec::Real
    }
}

/// The bytes of an element of the type with no kind selector.
fn default_bytes(t: &TypeSpec) -> Option<i64> {
    match t {
        TypeSpec::Integer | TypeSpec::Real | TypeSpec::Logical => Some(4),
        TypeSpec::Double | TypeSpec::Complex => Some(8),
        TypeSpec::Character => None,
    }
}

fn default_implicit() -> [Option<TypeSpec>; 26] {
    std::array::from_fn(|i| Some(default_type((b'A' + i as u8) as char)))
}

/// The value a PARAMETER takes in its declared type (`INTEGER N; PARAMETER (N = 2.7)` is 2).
pub(crate) fn convert(c: Const, ty: &TypeSpec) -> Const {
    match (ty, c) {
        (TypeSpec::Integer, Const::Real(v)) if v.abs() < 9.0e18 => Const::Int(v.trunc() as i64),
        (TypeSpec::Real | TypeSpec::Double, Const::Int(n)) => Const::Real(n as f64),
        (_, c) => c,
    }
}

/// The type keyword used in `var` facts.
pub fn type_name(t: &TypeSpec) -> &'static str {
    match t {
        TypeSpec::Integer => "integer",
        TypeSpec::Real => "real",
        TypeSpec::Double => "double",
        TypeSpec::Complex => "complex",
        TypeSpec::Logical => "logical",
        TypeSpec::Character => "character",
    }
}
