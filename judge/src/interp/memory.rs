//! Where variables live: storage areas of cells, the binding of a name to a
//! place in one (with its declared bounds), and what a unit's declarations
//! say about each name.

use super::value::{Ty, Value};
use crate::trace::ArgOrigin;
use kaiseki_frontend::ast::{
    DataSet, DeclKind, DimSpec, Expr, ExprKind, Name, StmtKind, TypeSpec, Unit, UnitKind,
};
use kaiseki_frontend::data::scalar_values;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// One declared dimension; `upper` is `None` for an assumed size `*`.
#[derive(Clone, Debug, PartialEq)]
pub struct Dim {
    pub lower: i64,
    pub upper: Option<i64>,
}

/// A name bound to cells: `offset` is the first cell of element 0 (or of
/// the scalar); each element takes `width` cells.
#[derive(Clone, Debug)]
pub struct Binding {
    pub name: Rc<str>,
    pub storage: usize,
    pub offset: usize,
    pub ty: Ty,
    pub width: usize,
    /// Empty for a scalar.
    pub dims: Rc<[Dim]>,
    /// For a dummy argument: the actual argument it is bound to.
    pub through: Option<Rc<ArgOrigin>>,
    /// An allocatable array (or a deferred-shape dummy bound to one): its
    /// storage and bounds are those of the last ALLOCATE of the storage
    /// (`Interp::shapes`), zero-sized while it is not allocated.
    pub deferred: bool,
}

impl Binding {
    pub fn is_array(&self) -> bool {
        !self.dims.is_empty()
    }

    /// Number of elements the declaration gives, `None` for assumed size
    /// (saturating: absurd bounds give a size that allocation refuses).
    pub fn len(&self) -> Option<usize> {
        self.dims.iter().try_fold(1usize, |n, d| {
            let extent = d.upper?.checked_sub(d.lower).and_then(|x| x.checked_add(1));
            let extent = extent.map_or(usize::MAX, |x| usize::try_from(x).unwrap_or(0));
            Some(n.saturating_mul(extent))
        })
    }

    /// Cells the declaration occupies, `None` for assumed size.
    pub fn cells(&self) -> Option<usize> {
        self.len().map(|n| n.saturating_mul(self.width))
    }

    /// The first cell of the element with 0-based index `index`
    /// (saturating: an assumed-size subscript past any storage then finds
    /// no cell).
    pub fn cell(&self, index: usize) -> usize {
        self.offset.saturating_add(index.saturating_mul(self.width))
    }

    /// Column-major 0-based offset of an element, checking every bound.
    pub fn linear(&self, subs: &[i64]) -> Result<usize, String> {
        if subs.len() != self.dims.len() {
            return Err(format!(
                "{} has rank {}, subscripted with {} subscripts",
                self.name,
                self.dims.len(),
                subs.len()
            ));
        }
        let mut index: i64 = 0;
        let mut stride: i64 = 1;
        for (k, (s, d)) in subs.iter().zip(self.dims.iter()).enumerate() {
            let out = *s < d.lower || d.upper.is_some_and(|u| *s > u);
            if out {
                let upper = d.upper.map_or("*".to_string(), |u| u.to_string());
                return Err(format!(
                    "subscript {} of {} is {s}, out of bounds {}:{upper}",
                    k + 1,
                    self.name,
                    d.lower
                ));
            }
            index = s
                .checked_sub(d.lower)
                .and_then(|x| x.checked_mul(stride))
                .and_then(|x| x.checked_add(index))
                .ok_or("subscript overflow")?;
            if let Some(u) = d.upper {
                stride = u
                    .checked_sub(d.lower)
                    .and_then(|x| x.checked_add(1))
                    .and_then(|x| x.checked_mul(stride))
                    .ok_or("array too large")?;
            }
        }
        usize::try_from(index).map_err(|_| "negative subscript offset".into())
    }
}

/// The bounds of an allocatable array of rank `rank` that is not allocated:
/// no element, so every subscript is out of bounds.
pub fn unallocated(rank: usize) -> Rc<[Dim]> {
    vec![
        Dim {
            lower: 1,
            upper: Some(0),
        };
        rank
    ]
    .into()
}

/// A declared type: the values it holds and the cells (numeric storage
/// units of 4 bytes, Fortran 77, 17.1.1) of one element, `None` when the
/// declaration does not give a whole number of them (CHARACTER, INTEGER*2,
/// a kind that is not a literal).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Typed {
    pub ty: Ty,
    pub width: Option<usize>,
}

impl Typed {
    fn new(spec: &TypeSpec, bytes: Option<i64>) -> Result<Typed, String> {
        Ok(Typed {
            ty: Ty::from_spec(spec)?,
            width: bytes
                .filter(|b| *b > 0 && b % 4 == 0)
                .and_then(|b| usize::try_from(b / 4).ok()),
        })
    }

    fn default_of(ty: Ty) -> Typed {
        Typed { ty, width: Some(1) }
    }
}

/// What the declarations of one unit say, gathered once per unit.
#[derive(Debug, Default)]
pub struct UnitInfo {
    /// Explicitly declared types.
    pub types: HashMap<String, Typed>,
    pub dims: HashMap<String, Vec<DimSpec>>,
    /// PARAMETER constants in declaration order (later ones may use earlier).
    pub params: Vec<(String, Expr)>,
    /// Initial values of non-constant entities (`INTEGER :: N = 10`).
    pub inits: Vec<(String, Expr)>,
    /// COMMON blocks: block name and its members in order.
    pub commons: Vec<(String, Vec<Name>)>,
    /// EQUIVALENCE sets: the items of each associate one cell.
    pub equivalences: Vec<Vec<Expr>>,
    /// The type of each initial letter A..Z under the IMPLICIT rules.
    implicit: Vec<Typed>,
    /// Statement functions `F(X, Y) = expr`: dummies and body.
    pub stmt_functions: HashMap<String, (Vec<String>, Expr)>,
    /// How many statements at the top of the body define statement functions.
    pub stmt_function_defs: usize,
    /// Set by a declaration the judge cannot execute faithfully.
    pub unsupported: Option<String>,
    /// Names declared with deferred bounds only (`A(:)`, `B(:, :)`):
    /// allocatable arrays (the frontend keeps no ALLOCATABLE attribute;
    /// a dummy `A(*)` reads the same, and is told apart by its actual).
    pub deferred: HashSet<String>,
}

impl UnitInfo {
    pub fn new(unit: &Unit) -> UnitInfo {
        let mut info = UnitInfo {
            implicit: ('A'..='Z')
                .map(|c| {
                    Typed::default_of(if ('I'..='N').contains(&c) {
                        Ty::Int
                    } else {
                        Ty::Real
                    })
                })
                .collect(),
            ..UnitInfo::default()
        };
        if let (UnitKind::Function, Some(t)) = (unit.kind, &unit.result_type) {
            let bytes = if *t == TypeSpec::Double { 8 } else { 4 };
            info.set_type(&unit.name.text, t, Some(bytes));
        }
        let mut data: Vec<&DataSet> = Vec::new();
        for decl in &unit.decls {
            match &decl.kind {
                DeclKind::Type {
                    ty,
                    bytes,
                    parameter,
                    entities,
                } => {
                    for e in entities {
                        info.set_type(&e.name.text, ty, *bytes);
                        info.set_dims(&e.name.text, &e.dims);
                        match (&e.init, parameter) {
                            (Some(v), true) => info.params.push((e.name.text.clone(), v.clone())),
                            (Some(v), false) => info.inits.push((e.name.text.clone(), v.clone())),
                            (None, _) => {}
                        }
                    }
                }
                DeclKind::Dimension(entities) => {
                    for e in entities {
                        info.set_dims(&e.name.text, &e.dims);
                    }
                }
                DeclKind::Parameter(list) => {
                    for (n, v) in list {
                        info.params.push((n.text.clone(), v.clone()));
                    }
                }
                DeclKind::Common { block, entities } => {
                    for e in entities {
                        info.set_dims(&e.name.text, &e.dims);
                    }
                    let names = entities.iter().map(|e| e.name.clone());
                    match info.commons.iter_mut().find(|(b, _)| b == block) {
                        Some((_, members)) => members.extend(names),
                        None => info.commons.push((block.clone(), names.collect())),
                    }
                }
                DeclKind::Implicit(rules) => {
                    for (t, bytes, ranges) in rules {
                        for &(a, b) in ranges {
                            for c in a.to_ascii_uppercase()..=b.to_ascii_uppercase() {
                                if let (Some(slot), Ok(t)) = (
                                    info.implicit.get_mut((c as u8).wrapping_sub(b'A') as usize),
                                    Typed::new(t, *bytes),
                                ) {
                                    *slot = t;
                                }
                            }
                        }
                    }
                }
                DeclKind::Equivalence(sets) => info.equivalences.extend(sets.iter().cloned()),
                DeclKind::CrayPointer(_) => {
                    info.unsupported = Some("Cray pointers are not supported by the judge".into())
                }
                DeclKind::Data(sets) => data.extend(sets),
                DeclKind::Save(_)
                | DeclKind::External(_)
                | DeclKind::Intrinsic(_)
                | DeclKind::Namelist(_)
                | DeclKind::ImplicitNone
                | DeclKind::Hpf(_)
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
        info.data_inits(&data);
        info.find_stmt_functions(unit);
        info
    }

    /// DATA sets of scalars, with literal repeat counts, become initial
    /// values; the judge does not run the rest (arrays, implied-DO lists,
    /// COMMON members, which only BLOCK DATA may initialize).
    fn data_inits(&mut self, sets: &[&DataSet]) {
        let literal = |e: &Expr| match e.kind {
            ExprKind::Int(n) => Some(n),
            _ => None,
        };
        for set in sets {
            let is_array = |n: &str| self.dims.contains_key(n);
            let pairs = scalar_values(set, &is_array, &literal)
                .filter(|p| p.len() == set.objects.len())
                .filter(|p| !p.iter().any(|(n, _)| self.in_common(n)));
            match pairs {
                Some(p) => self
                    .inits
                    .extend(p.into_iter().map(|(n, v)| (n.to_string(), v.clone()))),
                None => {
                    self.unsupported = Some(
                        "DATA other than scalars with values is not supported by the judge".into(),
                    )
                }
            }
        }
    }

    fn in_common(&self, name: &str) -> bool {
        self.commons
            .iter()
            .any(|(_, m)| m.iter().any(|x| x.text == name))
    }

    /// `F(X, Y) = expr` opening the body, with `F` not an array, defines a
    /// statement function (Fortran 77, 15.4).
    fn find_stmt_functions(&mut self, unit: &Unit) {
        for st in &unit.body {
            let StmtKind::Assign { lhs, rhs } = &st.kind else {
                break;
            };
            let ExprKind::Apply { name, args } = &lhs.kind else {
                break;
            };
            let dummies: Option<Vec<String>> = args
                .iter()
                .map(|a| match &a.kind {
                    ExprKind::Var(d) => Some(d.clone()),
                    _ => None,
                })
                .collect();
            match dummies {
                Some(d) if !self.dims.contains_key(name) => {
                    self.stmt_functions.insert(name.clone(), (d, rhs.clone()));
                    self.stmt_function_defs += 1;
                }
                _ => break,
            }
        }
    }

    fn set_type(&mut self, name: &str, spec: &TypeSpec, bytes: Option<i64>) {
        match Typed::new(spec, bytes) {
            Ok(t) => {
                self.types.insert(name.to_string(), t);
            }
            Err(e) => self.unsupported = Some(e),
        }
    }

    fn set_dims(&mut self, name: &str, dims: &[DimSpec]) {
        if !dims.is_empty() {
            self.dims.insert(name.to_string(), dims.to_vec());
            if dims.iter().all(|d| d.lower.is_none() && d.upper.is_none()) {
                self.deferred.insert(name.to_string());
            } else {
                self.deferred.remove(name);
            }
        }
    }

    /// The declared type, else the implicit one of the initial letter.
    pub fn typed(&self, name: &str) -> Typed {
        if let Some(t) = self.types.get(name) {
            return *t;
        }
        let first = name.bytes().next().unwrap_or(b'A').to_ascii_uppercase();
        self.implicit
            .get(first.wrapping_sub(b'A') as usize)
            .copied()
            .unwrap_or(Typed::default_of(Ty::Real))
    }

    pub fn type_of(&self, name: &str) -> Ty {
        self.typed(name).ty
    }

    /// Cells of one element; 1 when the type does not say, which is
    /// right for a name sharing storage with no other (storage
    /// association refuses such names).
    pub fn width_of(&self, name: &str) -> usize {
        self.typed(name).width.unwrap_or(1)
    }
}

/// The most cells one array, section or COMMON block may have: a bad
/// declaration must give an error, not exhaust memory.
pub const MAX_CELLS: usize = 1 << 24;

pub fn check_size(n: usize) -> Result<usize, String> {
    if n > MAX_CELLS {
        Err(format!(
            "{n} elements: too large for the judge (at most {MAX_CELLS})"
        ))
    } else {
        Ok(n)
    }
}

const BEYOND: &str = "access beyond the end of the actual argument's storage";

/// All storage areas of a run.
#[derive(Debug, Default)]
pub struct Memory {
    pub areas: Vec<Vec<Value>>,
}

impl Memory {
    pub fn alloc(&mut self, cells: Vec<Value>) -> usize {
        self.areas.push(cells);
        self.areas.len() - 1
    }

    /// A new area of `len` cells holding `fill`.
    pub fn alloc_filled(&mut self, len: usize, fill: Value) -> Result<usize, String> {
        Ok(self.alloc(vec![fill; check_size(len)?]))
    }

    /// Grows an area (a COMMON block seen with more members) to `len` cells.
    pub fn grow(&mut self, storage: usize, len: usize, fill: Value) -> Result<(), String> {
        let area = self.areas.get_mut(storage).ok_or("no such storage")?;
        if area.len() < check_size(len)? {
            area.resize(len, fill);
        }
        Ok(())
    }

    /// The value of the element whose `cells` cells start at `offset` (an
    /// element's value is kept in each of its cells).
    pub fn get(&self, storage: usize, offset: usize, cells: usize) -> Result<&Value, String> {
        self.areas
            .get(storage)
            .and_then(|a| a.get(offset..offset.checked_add(cells)?))
            .and_then(<[Value]>::first)
            .ok_or_else(|| BEYOND.into())
    }

    pub fn set(
        &mut self,
        storage: usize,
        offset: usize,
        cells: usize,
        v: Value,
    ) -> Result<(), String> {
        let element = self
            .areas
            .get_mut(storage)
            .and_then(|a| a.get_mut(offset..offset.checked_add(cells)?))
            .filter(|e| !e.is_empty())
            .ok_or(BEYOND)?;
        element.fill(v);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn array(dims: Vec<Dim>) -> Binding {
        Binding {
            name: "A".into(),
            storage: 0,
            offset: 0,
            ty: Ty::Real,
            width: 1,
            dims: dims.into(),
            through: None,
            deferred: false,
        }
    }

    #[test]
    fn linear_index_is_column_major_from_declared_lower_bounds() {
        let a = array(vec![
            Dim {
                lower: 0,
                upper: Some(2),
            },
            Dim {
                lower: -1,
                upper: Some(1),
            },
        ]);
        assert_eq!(a.linear(&[0, -1]), Ok(0));
        assert_eq!(a.linear(&[1, -1]), Ok(1));
        assert_eq!(a.linear(&[0, 0]), Ok(3));
        assert_eq!(a.linear(&[2, 1]), Ok(8));
        assert_eq!(a.len(), Some(9));
        assert!(a.linear(&[3, 0]).unwrap_err().contains("out of bounds"));
        assert!(a.linear(&[1]).is_err());
    }

    #[test]
    fn assumed_size_last_dimension_has_no_upper_check() {
        let a = array(vec![Dim {
            lower: 1,
            upper: None,
        }]);
        assert_eq!(a.linear(&[100]), Ok(99));
        assert_eq!(a.len(), None);
        assert!(a.linear(&[0]).is_err());
    }
}
