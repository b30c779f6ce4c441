//! The shape ALLOCATE gives: an allocatable array (deferred shape, `A(:,
//! :)`) that every ALLOCATE of the program gives the same constant bounds
//! has them, in every unit that sees it, as if declared `A(5, 0:IMAXP)`
//! (`Unit::allocated`, which symbols read; the declarations stay as
//! written). NPB 3.4 allocates its field arrays once,
//! `ALLOCATE (RHS(5, 0:IMAXP, 0:JMAXP, 0:KMAX-1))`; knowing that the first
//! dimension holds 5 elements, `CALL BINVRHS(LHS(1,1,BB,I), RHS(1,I,J,K))`
//! touches `RHS(1:5, I, J, K)` and not the array from that element on
//! (see `lower::footprint`), and the subscript tests may use the bounds.
//!
//! An array is one object across units by its storage: a module variable
//! by its COMMON block `/MODULE%NAME/` (see the module doc), a local one
//! by its unit and name. Nothing is given a shape when an ALLOCATE names a
//! dummy argument (the actual may be any array of the caller, or a host's
//! variable an internal procedure was given as a dummy) or the program
//! calls MOVE_ALLOC; an array some ALLOCATE gives bounds that do not fold
//! to constants, or other bounds than another, keeps its deferred shape.
//! A procedure the files do not give is assumed not to ALLOCATE the
//! program's module arrays (a C routine cannot). The arrays of a unit
//! with internal procedures get no shape: they reach those procedures as
//! dummies declared `(:)` that index them with the host's bounds.

use rustc_hash::{FxHashMap, FxHashSet};

use super::walk::for_each_stmt_mut;
use crate::ast::{DeclKind, DimSpec, Expr, ExprKind, Pos, Program, StmtKind, Unit};
use crate::fold;
use crate::symbols::Symbols;

/// One array of the program: a module variable's block, or a unit's
/// local array.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
enum Key {
    Module(String),
    Local(usize, String),
}

/// Constant bounds (lower, upper) per dimension; `None` once two
/// ALLOCATEs disagree or one's bounds are not constants.
type Shape = Option<Vec<(i64, i64)>>;

/// Records, in every unit, the shape of each array whose ALLOCATEs all
/// agree (see the module doc) as [`Unit::allocated`].
pub fn shape_allocated(program: &mut Program) {
    let Some(shapes) = allocated_shapes(program) else {
        return;
    };
    for (i, unit) in program.units.iter_mut().enumerate() {
        for (name, key) in keys(i, unit) {
            if let Some(Some(bounds)) = shapes.get(&key) {
                let pos = unit.name.pos;
                let dims = bounds
                    .iter()
                    .map(|&(lo, hi)| DimSpec {
                        lower: Some(int(lo, pos)),
                        upper: Some(int(hi, pos)),
                    })
                    .collect();
                unit.allocated.insert(name, dims);
            }
        }
    }
}

/// The shape each allocated array gets, `None` when nothing may be told
/// (an ALLOCATE of a dummy, MOVE_ALLOC).
fn allocated_shapes(program: &mut Program) -> Option<FxHashMap<Key, Shape>> {
    // The ALLOCATE objects of each unit, and whether anything forbids.
    let mut objects: Vec<(usize, Expr)> = Vec::new();
    let mut forbidden = false;
    for (i, unit) in program.units.iter_mut().enumerate() {
        for s in &mut unit.body {
            for_each_stmt_mut(s, &mut |s| match &s.kind {
                StmtKind::Allocate {
                    deallocate: false,
                    objects: objs,
                    ..
                } => objects.extend(objs.iter().map(|o| (i, o.clone()))),
                StmtKind::Call { name, .. } if name.text == "MOVE_ALLOC" => forbidden = true,
                _ => {}
            });
        }
    }
    if forbidden {
        return None;
    }
    let names: FxHashSet<&str> = program.units.iter().map(|u| u.name.text.as_str()).collect();
    let mut shapes: FxHashMap<Key, Shape> = FxHashMap::default();
    let mut built: FxHashMap<usize, (Symbols, FxHashMap<String, Key>)> = FxHashMap::default();
    for (i, object) in &objects {
        let unit = &program.units[*i];
        let (syms, keys) = built.entry(*i).or_insert_with(|| {
            let (syms, _) = Symbols::build(unit, &names);
            (syms, keys(*i, unit))
        });
        let (name, subs) = match &object.kind {
            ExprKind::Apply { name, args } => (name, args.as_slice()),
            ExprKind::Var(name) => (name, &[][..]),
            _ => continue,
        };
        if unit.args.iter().any(|a| a.text == *name) {
            return None;
        }
        let Some(key) = keys.get(name) else {
            continue;
        };
        let bounds = subs
            .iter()
            .map(|s| bounds_of(s, syms))
            .collect::<Option<Vec<_>>>()
            .filter(|b| !b.is_empty());
        let shape = shapes.entry(key.clone()).or_insert_with(|| bounds.clone());
        if *shape != bounds {
            *shape = None;
        }
    }
    Some(shapes)
}

/// The arrays of deferred shape `unit` declares, by the key of their
/// storage; dummies (assumed shape looks alike) are none.
fn keys(i: usize, unit: &Unit) -> FxHashMap<String, Key> {
    let mut blocks: FxHashMap<&str, &str> = FxHashMap::default();
    for d in &unit.decls {
        if let DeclKind::Common { block, entities } = &d.kind {
            for e in entities {
                blocks.insert(&e.name.text, block);
            }
        }
    }
    let pointers: FxHashSet<&str> = unit
        .decls
        .iter()
        .filter_map(|d| match &d.kind {
            DeclKind::Pointer(names) => Some(names.iter().map(|n| n.text.as_str())),
            _ => None,
        })
        .flatten()
        .collect();
    let mut keys = FxHashMap::default();
    for d in &unit.decls {
        let (DeclKind::Type { entities, .. } | DeclKind::Dimension(entities)) = &d.kind else {
            continue;
        };
        for e in entities.iter().filter(|e| deferred(&e.dims)) {
            let name = &e.name.text;
            if unit.args.iter().any(|a| a.text == *name) || pointers.contains(name.as_str()) {
                continue;
            }
            let key = match blocks.get(name.as_str()) {
                Some(b) if b.contains('%') && !b.ends_with("%?") => Key::Module(b.to_string()),
                Some(_) => continue,
                // A host's array reaches its internal procedures as a
                // dummy declared `(:)`, whose indices there are the
                // host's: no shape, so no offset is counted from a lower
                // bound of 1 (see `lower::footprint`).
                None if unit.contains => continue,
                None => Key::Local(i, name.clone()),
            };
            keys.insert(name.clone(), key);
        }
    }
    keys
}

/// Every dimension `:` (or `*`, which only a dummy may have).
fn deferred(dims: &[DimSpec]) -> bool {
    !dims.is_empty() && dims.iter().all(|d| d.lower.is_none() && d.upper.is_none())
}

/// `L:U` or `U` of an ALLOCATE, folded.
fn bounds_of(sub: &Expr, syms: &Symbols) -> Option<(i64, i64)> {
    match &sub.kind {
        ExprKind::Range {
            lower,
            upper: Some(u),
            stride: None,
        } => {
            let lo = lower
                .as_ref()
                .map_or(Some(1), |l| fold::fold_int(l, syms))?;
            Some((lo, fold::fold_int(u, syms)?))
        }
        ExprKind::Range { .. } => None,
        _ => Some((1, fold::fold_int(sub, syms)?)),
    }
}

fn int(v: i64, pos: Pos) -> Expr {
    super::literal(&fold::Const::Int(v), pos)
}

#[cfg(test)]
mod tests {
    use crate::symbols::Symbols;

    /// The constant bounds `unit` declares `name` with, `None` for a
    /// deferred dimension.
    fn bounds(src: &str, unit: &str, name: &str) -> Vec<Option<(i64, i64)>> {
        let (p, diags) = crate::parse_source("t.f90", src);
        assert!(diags.is_empty(), "{diags:?}");
        let names = p.procedure_names();
        let u = p.units.iter().find(|u| u.name.text == unit).expect("unit");
        let (syms, _) = Symbols::build(u, &names);
        syms.dims(name)
            .iter()
            .map(|d| {
                let lo = d
                    .lower
                    .as_ref()
                    .and_then(|e| crate::fold::fold_int(e, &syms));
                let hi = d
                    .upper
                    .as_ref()
                    .and_then(|e| crate::fold::fold_int(e, &syms));
                lo.zip(hi)
            })
            .collect()
    }

    const FIELDS: &str = "module fields
  integer, parameter :: n = 12
  double precision, allocatable :: rhs(:, :), w(:), v(:)
end module fields
subroutine setup
  use fields
  allocate (rhs(5, 0:n), w(n))
  allocate (v(n))
end subroutine setup
subroutine again(m)
  use fields
  integer :: m
  double precision, allocatable :: t(:)
  allocate (w(n), v(m), t(2 * n))
end subroutine again
subroutine user
  use fields, only: r => rhs, v
  r(1, 1) = v(1)
end subroutine user
";

    #[test]
    fn arrays_every_allocate_gives_one_shape_have_it_everywhere() {
        for unit in ["FIELDS", "SETUP", "USER"] {
            let name = if unit == "USER" { "R" } else { "RHS" };
            assert_eq!(
                bounds(FIELDS, unit, name),
                [Some((1, 5)), Some((0, 12))],
                "{unit}"
            );
        }
        // W: twice the same bounds; T: a local array.
        assert_eq!(bounds(FIELDS, "AGAIN", "W"), [Some((1, 12))]);
        assert_eq!(bounds(FIELDS, "AGAIN", "T"), [Some((1, 24))]);
        // V(M) is not a constant shape: V keeps `:` in every unit.
        assert_eq!(bounds(FIELDS, "USER", "V"), [None]);
        assert_eq!(bounds(FIELDS, "SETUP", "V"), [None]);
    }

    #[test]
    fn a_hosts_arrays_keep_their_deferred_shape() {
        let src = "program main\n  real, allocatable :: b(:)\n  allocate (b(-3:4))\n  call q\ncontains\n  subroutine q\n    b(1) = 0.0\n  end subroutine q\nend program main\n";
        assert_eq!(bounds(src, "MAIN", "B"), [None]);
    }

    #[test]
    fn an_allocate_of_a_dummy_or_move_alloc_shapes_nothing() {
        let dummy = format!(
            "{FIELDS}subroutine grow(x)\n  double precision, allocatable :: x(:)\n  allocate (x(3))\nend subroutine grow\n"
        );
        assert_eq!(bounds(&dummy, "SETUP", "RHS"), [None, None]);
        let moved = format!(
            "{FIELDS}subroutine swap\n  use fields\n  double precision, allocatable :: y(:)\n  call move_alloc(y, w)\nend subroutine swap\n"
        );
        assert_eq!(bounds(&moved, "SETUP", "RHS"), [None, None]);
    }
}
