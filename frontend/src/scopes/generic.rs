//! Generic calls resolved to their specific procedure where the arguments
//! decide it, as a compiler resolves them: by the type, kind and rank of
//! each actual argument against each specific's dummies. A call that names
//! one specific is rewritten to name it (its effects are then that
//! procedure's alone); where a type, kind or rank is unknown (an
//! expression whose type this pass does not work out, a kind that is not a
//! literal, a specific known only by name), every specific it may be stays
//! a candidate, and with two or more the call keeps the generic name, which
//! stands for all of them (sound before precise).

use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::BTreeMap;

use crate::ast::{Expr, ExprKind, Program, StmtKind, TypeSpec, Unit, UnitKind};
use crate::derived::{objects_of, Obj};
use crate::symbols::{ApplyClass, Symbols};

use super::walk::{for_each_expr_mut, for_each_stmt_mut};

/// What the resolution compares of an argument; `None` is unknown and
/// matches anything.
#[derive(Clone, Debug, Default, PartialEq)]
struct Key {
    ty: Option<Ty>,
    rank: Option<usize>,
}

/// A type with its kind (bytes of one element, `None` when unknown).
#[derive(Clone, Debug, PartialEq)]
enum Ty {
    Intrinsic(TypeSpec, Option<i64>),
    Derived(String),
}

impl Ty {
    /// DOUBLE PRECISION is REAL of 8 bytes; a CHARACTER's length is not its kind.
    fn of(ty: TypeSpec, bytes: Option<i64>) -> Ty {
        match ty {
            TypeSpec::Double => Ty::Intrinsic(TypeSpec::Real, Some(8)),
            TypeSpec::Character => Ty::Intrinsic(TypeSpec::Character, None),
            t => Ty::Intrinsic(t, bytes),
        }
    }

    fn matches(&self, other: &Ty) -> bool {
        match (self, other) {
            (Ty::Intrinsic(a, ka), Ty::Intrinsic(b, kb)) => {
                a == b && (ka.is_none() || kb.is_none() || ka == kb)
            }
            (Ty::Derived(a), Ty::Derived(b)) => a == b,
            _ => false,
        }
    }
}

impl Key {
    fn matches(&self, other: &Key) -> bool {
        let ty = match (&self.ty, &other.ty) {
            (Some(a), Some(b)) => a.matches(b),
            _ => true,
        };
        let rank = match (self.rank, other.rank) {
            (Some(a), Some(b)) => a == b,
            _ => true,
        };
        ty && rank
    }
}

/// The names and keys of a unit's variables, read from its declarations.
struct Typing<'a> {
    symbols: Symbols<'a>,
    /// Objects of a derived type (their types and dims).
    derived: FxHashMap<String, Obj>,
}

impl<'a> Typing<'a> {
    fn of(unit: &'a Unit, names: &'a FxHashSet<&'a str>) -> Typing<'a> {
        let (symbols, _) = Symbols::build(unit, names);
        Typing {
            symbols,
            derived: objects_of(unit),
        }
    }

    /// The key of a variable (a dummy, or a whole actual).
    fn name(&self, name: &str) -> Key {
        if let Some(obj) = self.derived.get(name) {
            return Key {
                ty: Some(Ty::Derived(obj.type_name.clone())),
                rank: Some(obj.dims.len()),
            };
        }
        Key {
            ty: Some(Ty::of(
                self.symbols.type_of(name),
                self.symbols.elem_bytes(name),
            )),
            rank: Some(self.symbols.rank(name)),
        }
    }

    /// The key of an actual argument: a variable, an element or section of
    /// an array, a literal, a parenthesized or negated one; anything else is
    /// unknown.
    fn actual(&self, e: &Expr) -> Key {
        match &e.kind {
            ExprKind::Int(_) => Key {
                ty: Some(Ty::Intrinsic(TypeSpec::Integer, None)),
                rank: Some(0),
            },
            ExprKind::Real(text) => Key {
                ty: Some(real_literal(text)),
                rank: Some(0),
            },
            ExprKind::Logical(_) => Key {
                ty: Some(Ty::Intrinsic(TypeSpec::Logical, None)),
                rank: Some(0),
            },
            ExprKind::Str(_) => Key {
                ty: Some(Ty::Intrinsic(TypeSpec::Character, None)),
                rank: Some(0),
            },
            ExprKind::Var(n) if self.symbols.param(n).is_none() => self.name(n),
            ExprKind::Apply { name, args }
                if self.symbols.classify_apply(name, args) == ApplyClass::Element
                    && !self.derived.contains_key(name) =>
            {
                let sections = args
                    .iter()
                    .filter(|a| matches!(a.kind, ExprKind::Range { .. }))
                    .count();
                Key {
                    rank: Some(sections),
                    ..self.name(name)
                }
            }
            ExprKind::Unary(_, inner) => Key {
                ty: self.actual(inner).ty,
                rank: self.actual(inner).rank,
            },
            _ => Key::default(),
        }
    }
}

/// `2.5D0` is DOUBLE PRECISION, `1.0_8` REAL of 8 bytes, `1.0_dp` REAL of
/// a kind this pass does not fold, `1.0` default REAL.
fn real_literal(text: &str) -> Ty {
    if let Some((_, kind)) = text.split_once('_') {
        return Ty::Intrinsic(TypeSpec::Real, kind.parse().ok());
    }
    if text.contains(['D', 'd']) {
        Ty::of(TypeSpec::Double, None)
    } else {
        Ty::Intrinsic(TypeSpec::Real, Some(4))
    }
}

/// A specific procedure's dummies in order, each with its key (all unknown
/// for a procedure no unit of the program defines).
type Dummies = Vec<(String, Key)>;

/// Rewrites every call of a generic name whose arguments leave one of its
/// specific procedures to name that procedure (see the module documentation).
pub(super) fn resolve_generic_calls(program: &mut Program) {
    if program.generics.is_empty() {
        return;
    }
    let owned: Vec<String> = program
        .procedure_names()
        .into_iter()
        .map(String::from)
        .collect();
    let names: FxHashSet<&str> = owned.iter().map(String::as_str).collect();
    let specifics = specific_dummies(program, &names);
    for i in 0..program.units.len() {
        let mut body = std::mem::take(&mut program.units[i].body);
        let mut r = Resolver {
            generics: &program.generics,
            specifics: &specifics,
            unit: &program.units[i],
            names: &names,
            typing: None,
        };
        for s in &mut body {
            for_each_stmt_mut(s, &mut |s| {
                if let StmtKind::Call { name, args } = &mut s.kind {
                    if let Some(specific) = r.specific(&name.text, args) {
                        name.text = specific;
                    }
                }
            });
            for_each_expr_mut(s, &mut |e| r.rename_applications(e));
        }
        program.units[i].body = body;
    }
}

/// The resolution in one unit (whose body is taken out of it meanwhile:
/// the declarations give the keys).
struct Resolver<'a> {
    generics: &'a BTreeMap<String, Vec<String>>,
    specifics: &'a FxHashMap<String, Dummies>,
    unit: &'a Unit,
    names: &'a FxHashSet<&'a str>,
    /// Built at the unit's first call of a generic name.
    typing: Option<Typing<'a>>,
}

impl Resolver<'_> {
    /// The one specific procedure a call of `callee` with `args` may call,
    /// when `callee` is a generic name.
    fn specific(&mut self, callee: &str, args: &[Expr]) -> Option<String> {
        let candidates = self.generics.get(callee)?;
        let (unit, names) = (self.unit, self.names);
        let typing = self.typing.get_or_insert_with(|| Typing::of(unit, names));
        if typing.symbols.is_array(callee) {
            return None;
        }
        let actuals: Vec<(Option<&str>, Key)> = args
            .iter()
            .map(|a| {
                let keyword = unit.keywords.get(&a.pos).map(String::as_str);
                (keyword, typing.actual(a))
            })
            .collect();
        let mut fitting = candidates.iter().filter(|s| {
            self.specifics
                .get(s.as_str())
                .is_none_or(|dummies| fits(dummies, &actuals))
        });
        match (fitting.next(), fitting.next()) {
            (Some(one), None) => Some(one.clone()),
            _ => None,
        }
    }

    fn rename_applications(&mut self, e: &mut Expr) {
        e.for_each_apply_mut(&mut |_, name, args| {
            if let Some(specific) = self.specific(name, args) {
                *name = specific;
            }
        });
    }
}

/// The dummies of every specific procedure of a generic name, by name; a
/// name two units share (internal procedures of two hosts) is left out,
/// and so unknown.
fn specific_dummies(program: &Program, names: &FxHashSet<&str>) -> FxHashMap<String, Dummies> {
    let wanted: FxHashSet<&str> = program
        .generics
        .values()
        .flatten()
        .map(String::as_str)
        .collect();
    let mut count: FxHashMap<&str, usize> = FxHashMap::default();
    for u in &program.units {
        *count.entry(u.name.text.as_str()).or_default() += 1;
    }
    program
        .units
        .iter()
        .filter(|u| matches!(u.kind, UnitKind::Subroutine | UnitKind::Function))
        .filter(|u| wanted.contains(u.name.text.as_str()) && count[u.name.text.as_str()] == 1)
        .map(|u| {
            let typing = Typing::of(u, names);
            let dummies = u
                .args
                .iter()
                .map(|a| (a.text.clone(), typing.name(&a.text)))
                .collect();
            (u.name.text.clone(), dummies)
        })
        .collect()
}

/// Whether the actuals (keyword, key) may be passed to these dummies: no
/// more of them than dummies, keywords naming dummies, each key matching
/// its dummy's. (OPTIONAL dummies are not known: fewer actuals fit.)
fn fits(dummies: &Dummies, actuals: &[(Option<&str>, Key)]) -> bool {
    actuals.len() <= dummies.len()
        && actuals.iter().enumerate().all(|(i, (keyword, key))| {
            let dummy = match keyword {
                Some(k) => dummies.iter().find(|(n, _)| n == k),
                None => dummies.get(i),
            };
            dummy.is_some_and(|(_, d)| d.matches(key))
        })
}
