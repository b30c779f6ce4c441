//! Scalar replacement in a straight-line block of assignments: the jammed
//! body that unroll-and-jam writes, where the copies of one statement read
//! the same elements (`B(J+1)` of one copy is `B(J)` of the next) and
//! store what a later copy reads (`PX(I,J)` along K).
//!
//! - An element read more than once is loaded once into a temporary.
//! - An element stored and read again later comes from the temporary the
//!   store was computed into.
//! - A store that a later store to the same element overwrites, with no
//!   read of that array from memory in between that may touch it, is
//!   dropped (its value lives on in its temporary if it is read).
//!
//! Elements are compared by their affine subscripts: two references are
//! the same element when every subscript is the same affine form, and
//! provably different when some subscript differs by a nonzero constant;
//! anything else may alias, and a store to it forgets the values held.
//! An assignment to a scalar forgets the elements whose subscripts use
//! it; an array section (`A(1:N)`) is an element whose subscripts are
//! unknown. A block that calls a function or a statement function, uses
//! a whole array (`SUM(A)`), or touches two names that may share storage
//! (EQUIVALENCE, and through it COMMON), a Cray pointee or a CHARACTER
//! array is left as it is.

use kaiseki_frontend::ast::{BinOp, DeclKind, Expr, ExprKind, TypeSpec, UnOp};
use kaiseki_frontend::fold::Const;
use kaiseki_frontend::symbols::{base_name, ApplyClass, Symbols};
use std::collections::{BTreeMap, HashMap, HashSet};

/// `lhs = rhs`.
pub type Assignment = (Expr, Expr);

/// An affine subscript: the coefficient of each name and a constant.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Affine {
    terms: BTreeMap<String, i64>,
    constant: i64,
}

impl Affine {
    fn scaled(mut self, by: i64) -> Affine {
        self.terms.values_mut().for_each(|c| *c *= by);
        self.constant *= by;
        self
    }

    fn plus(mut self, other: Affine) -> Affine {
        for (n, c) in other.terms {
            *self.terms.entry(n).or_insert(0) += c;
        }
        self.terms.retain(|_, c| *c != 0);
        self.constant += other.constant;
        self
    }

    fn number(n: i64) -> Affine {
        Affine {
            terms: BTreeMap::new(),
            constant: n,
        }
    }
}

fn affine(e: &Expr, syms: &Symbols) -> Option<Affine> {
    match &e.kind {
        ExprKind::Int(n) => Some(Affine::number(*n)),
        ExprKind::Var(n) => match syms.param(n) {
            Some(Const::Int(v)) => Some(Affine::number(*v)),
            Some(_) => None,
            None if syms.is_integer_scalar(n) => Some(Affine {
                terms: BTreeMap::from([(n.clone(), 1)]),
                constant: 0,
            }),
            None => None,
        },
        ExprKind::Unary(UnOp::Neg, x) => Some(affine(x, syms)?.scaled(-1)),
        ExprKind::Unary(UnOp::Plus, x) => affine(x, syms),
        ExprKind::Binary(BinOp::Add, a, b) => Some(affine(a, syms)?.plus(affine(b, syms)?)),
        ExprKind::Binary(BinOp::Sub, a, b) => {
            Some(affine(a, syms)?.plus(affine(b, syms)?.scaled(-1)))
        }
        ExprKind::Binary(BinOp::Mul, a, b) => {
            let (a, b) = (affine(a, syms)?, affine(b, syms)?);
            match (a.terms.is_empty(), b.terms.is_empty()) {
                (true, _) => Some(b.scaled(a.constant)),
                (_, true) => Some(a.scaled(b.constant)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// An element whose subscripts are all affine.
type Key = (String, Vec<Affine>);

/// Whether two elements of one array may be the same storage.
fn may_alias(a: &[Affine], b: &[Affine]) -> bool {
    !a.iter()
        .zip(b)
        .any(|(x, y)| x.terms == y.terms && x.constant != y.constant)
}

/// The type statement that declares a temporary for an element of
/// `array` (`INTEGER*2` where the element has 2 bytes), or none.
pub(crate) fn declared_type(array: &str, syms: &Symbols) -> Option<String> {
    let (word, default) = match syms.type_of(array) {
        TypeSpec::Integer => ("INTEGER", 4),
        TypeSpec::Real => ("REAL", 4),
        TypeSpec::Double => ("DOUBLE PRECISION", 8),
        TypeSpec::Complex => ("COMPLEX", 8),
        TypeSpec::Logical => ("LOGICAL", 4),
        TypeSpec::Character => return None,
    };
    match syms.elem_bytes(array)? {
        b if b == default => Some(word.to_string()),
        b if word == "DOUBLE PRECISION" => Some(format!("REAL*{b}")),
        b => Some(format!("{word}*{b}")),
    }
}

/// Rebuilds `e` bottom-up, handing every array element (its subscripts
/// already rebuilt) to `element` in the order Fortran reads them.
fn rewrite(e: &Expr, syms: &Symbols, element: &mut dyn FnMut(&Expr, Expr) -> Expr) -> Expr {
    let mut go = |x: &Expr| rewrite(x, syms, element);
    let kind = match &e.kind {
        ExprKind::Apply { name, args } => {
            let rebuilt = Expr {
                pos: e.pos,
                kind: ExprKind::Apply {
                    name: name.clone(),
                    args: args.iter().map(&mut go).collect(),
                },
            };
            return if syms.classify_apply(name, args) == ApplyClass::Element {
                element(e, rebuilt)
            } else {
                rebuilt
            };
        }
        ExprKind::Unary(op, x) => ExprKind::Unary(*op, Box::new(go(x))),
        ExprKind::Binary(op, a, b) => {
            let a = go(a);
            ExprKind::Binary(*op, Box::new(a), Box::new(go(b)))
        }
        _ => e.kind.clone(),
    };
    Expr { pos: e.pos, kind }
}

/// Names that may share storage: EQUIVALENCE sets joined (transitively),
/// with every member of a COMMON block that one of them is in (an
/// equivalenced array may extend over the block's other members). Each
/// name maps to its class.
fn storage_classes(syms: &Symbols) -> HashMap<String, usize> {
    let mut class: HashMap<String, usize> = HashMap::new();
    let mut next = 0;
    let mut join = |names: Vec<&str>, class: &mut HashMap<String, usize>| {
        let old: HashSet<usize> = names
            .iter()
            .filter_map(|n| class.get(*n).copied())
            .collect();
        let id = next;
        next += 1;
        for c in class.values_mut().filter(|c| old.contains(c)) {
            *c = id;
        }
        for n in names {
            class.insert(n.to_string(), id);
        }
    };
    for d in &syms.unit.decls {
        if let DeclKind::Equivalence(sets) = &d.kind {
            for set in sets {
                join(set.iter().filter_map(base_name).collect(), &mut class);
            }
        }
    }
    for d in &syms.unit.decls {
        if let DeclKind::Common { entities, .. } = &d.kind {
            if entities.iter().any(|e| class.contains_key(&e.name.text)) {
                join(
                    entities.iter().map(|e| e.name.text.as_str()).collect(),
                    &mut class,
                );
            }
        }
    }
    class
}

/// Whether the block is one scalar replacement may touch (see the module):
/// among others, no two names it uses may share storage.
fn replaceable(block: &[Assignment], syms: &Symbols) -> bool {
    let classes = storage_classes(syms);
    let mut seen: HashMap<usize, String> = HashMap::new();
    let mut ok = true;
    let mut check = |e: &Expr| {
        e.any_name(&mut |n, applied| {
            if let Some(&c) = classes.get(n) {
                ok &= *seen.entry(c).or_insert_with(|| n.to_string()) == n;
            }
            ok &= !syms.is_pointee(n);
            // An element of a type a temporary can hold, an intrinsic, a
            // scalar; not a whole array, a function, a substring.
            ok &= match (applied, syms.classify_apply(n, &[])) {
                (true, ApplyClass::Element) => declared_type(n, syms).is_some(),
                (true, ApplyClass::Intrinsic(_)) => true,
                (true, _) => false,
                (false, _) => !syms.is_array(n),
            };
            false
        });
    };
    for (lhs, rhs) in block {
        check(lhs);
        check(rhs);
    }
    ok
}

/// The values one element holds in the block: loaded, or stored by a
/// statement; how often it is read after that.
struct Value {
    array: String,
    stored_by: Option<usize>,
    reads: usize,
}

/// What the first pass found: the value of every element reference (in
/// reading order, stores included), the values, and the dead stores.
#[derive(Default)]
struct Flow {
    refs: Vec<Option<usize>>,
    values: Vec<Value>,
    dead: HashSet<usize>,
    /// Values held now, and stores not yet read from memory.
    held: HashMap<Key, usize>,
    pending: HashMap<Key, usize>,
}

impl Flow {
    fn key(e: &Expr, syms: &Symbols) -> (String, Option<Vec<Affine>>) {
        let ExprKind::Apply { name, args } = &e.kind else {
            unreachable!("elements are applications")
        };
        let subs = args.iter().map(|a| affine(a, syms)).collect();
        (name.clone(), subs)
    }

    fn read(&mut self, e: &Expr, syms: &Symbols) {
        let (array, subs) = Self::key(e, syms);
        let hit = subs
            .as_ref()
            .and_then(|s| self.held.get(&(array.clone(), s.clone())).copied());
        if let Some(v) = hit {
            self.values[v].reads += 1;
            self.refs.push(Some(v));
            return;
        }
        // A read of memory: the stores it may see are not dead.
        self.pending
            .retain(|(a, s), _| *a != array || subs.as_ref().is_some_and(|x| !may_alias(x, s)));
        let Some(subs) = subs else {
            self.refs.push(None);
            return;
        };
        self.values.push(Value {
            array: array.clone(),
            stored_by: None,
            reads: 1,
        });
        self.held.insert((array, subs), self.values.len() - 1);
        self.refs.push(Some(self.values.len() - 1));
    }

    fn store(&mut self, e: &Expr, stmt: usize, syms: &Symbols) {
        let (array, subs) = Self::key(e, syms);
        self.held
            .retain(|(a, s), _| *a != array || subs.as_ref().is_some_and(|x| !may_alias(x, s)));
        let Some(subs) = subs else {
            self.refs.push(None);
            return;
        };
        let key = (array.clone(), subs);
        if let Some(earlier) = self.pending.insert(key.clone(), stmt) {
            self.dead.insert(earlier);
        }
        self.values.push(Value {
            array,
            stored_by: Some(stmt),
            reads: 0,
        });
        self.held.insert(key, self.values.len() - 1);
        self.refs.push(Some(self.values.len() - 1));
    }

    /// A scalar assigned: the elements whose subscripts use it are others now.
    fn assigned(&mut self, name: &str) {
        let uses = |s: &Vec<Affine>| s.iter().any(|a| a.terms.contains_key(name));
        self.held.retain(|(_, s), _| !uses(s));
        self.pending.retain(|(_, s), _| !uses(s));
    }
}

/// `block` with scalar replacement; `temp(type)` names a fresh temporary
/// of that type statement (`REAL`, `REAL*8`, ...), once per temporary.
pub fn replace(
    block: &[Assignment],
    syms: &Symbols,
    temp: &mut dyn FnMut(&str) -> String,
) -> Vec<Assignment> {
    if !replaceable(block, syms) {
        return block.to_vec();
    }
    let mut flow = Flow::default();
    for (n, (lhs, rhs)) in block.iter().enumerate() {
        rewrite(rhs, syms, &mut |e, rebuilt| {
            flow.read(e, syms);
            rebuilt
        });
        match &lhs.kind {
            ExprKind::Apply { args, .. } => {
                for a in args {
                    rewrite(a, syms, &mut |e, rebuilt| {
                        flow.read(e, syms);
                        rebuilt
                    });
                }
                flow.store(lhs, n, syms);
            }
            ExprKind::Var(name) => flow.assigned(name),
            _ => {}
        }
    }
    // A temporary for a value read twice, or stored and read again.
    let names: Vec<Option<Expr>> = flow
        .values
        .iter()
        .map(|v| {
            (v.reads >= 2 || (v.stored_by.is_some() && v.reads >= 1)).then(|| {
                let ty = declared_type(&v.array, syms).unwrap_or_default();
                var(temp(&ty))
            })
        })
        .collect();
    let mut loaded = vec![false; names.len()];
    let mut refs = flow.refs.iter();
    let mut out = Vec::new();
    for (n, (lhs, rhs)) in block.iter().enumerate() {
        let mut loads = Vec::new();
        let mut element = |_: &Expr, rebuilt: Expr| {
            let held = refs.next().copied().flatten();
            match held.and_then(|v| Some((v, names[v].clone()?))) {
                Some((v, t)) => {
                    if !loaded[v] && flow.values[v].stored_by.is_none() {
                        loads.push((t.clone(), rebuilt));
                    }
                    loaded[v] = true;
                    t
                }
                None => rebuilt,
            }
        };
        let rhs = rewrite(rhs, syms, &mut element);
        let lhs = match &lhs.kind {
            ExprKind::Apply { name, args } => Expr {
                pos: lhs.pos,
                kind: ExprKind::Apply {
                    name: name.clone(),
                    args: args
                        .iter()
                        .map(|a| rewrite(a, syms, &mut element))
                        .collect(),
                },
            },
            _ => {
                out.extend(loads);
                out.push((lhs.clone(), rhs));
                continue;
            }
        };
        let stored = refs
            .next()
            .copied()
            .flatten()
            .and_then(|v| names[v].clone());
        out.extend(loads);
        let dead = flow.dead.contains(&n);
        match stored {
            Some(t) => {
                out.push((t.clone(), rhs));
                if !dead {
                    out.push((lhs, t));
                }
            }
            None if !dead => out.push((lhs, rhs)),
            None => {}
        }
    }
    out
}

fn var(name: String) -> Expr {
    Expr {
        pos: Default::default(),
        kind: ExprKind::Var(name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kaiseki_frontend::ast::StmtKind;
    use kaiseki_frontend::fold::text_as_written;
    use kaiseki_frontend::parse_source;

    /// The body of the one DO loop of `decls` + `body` after scalar
    /// replacement, one `lhs = rhs` a line, and the temporaries' types.
    fn replaced(decls: &str, body: &str) -> (String, Vec<String>) {
        let mut src = String::from("      SUBROUTINE S(A, B, C, D, X, Y, Z, I, J, M, N)\n");
        for l in decls
            .lines()
            .chain(["      DO 10 I = 1, N"])
            .chain(body.lines())
        {
            src.push_str(&format!("      {}\n", l.trim()));
        }
        src.push_str("   10 CONTINUE\n      END\n");
        let (program, diags) = parse_source("t.f", &src);
        assert!(diags.is_empty(), "{diags:?}\n{src}");
        let unit = &program.units[0];
        let names = rustc_hash::FxHashSet::default();
        let (syms, _) = Symbols::build(unit, &names);
        let StmtKind::Do { body, .. } = &unit.body[0].kind else {
            panic!("no loop")
        };
        let block: Vec<Assignment> = body
            .iter()
            .filter_map(|s| match &s.kind {
                StmtKind::Assign { lhs, rhs } => Some((lhs.clone(), rhs.clone())),
                _ => None,
            })
            .collect();
        let mut types = Vec::new();
        let out = replace(&block, &syms, &mut |ty| {
            types.push(ty.to_string());
            format!("T{}", types.len())
        });
        let text = out
            .iter()
            .map(|(l, r)| format!("{} = {}\n", text_as_written(l), text_as_written(r)))
            .collect();
        (text, types)
    }

    const REALS: &str = "REAL A(100), B(100), C(100), D(100,100)";

    #[test]
    fn an_element_read_twice_is_loaded_once() {
        let (text, types) = replaced(REALS, "B(I) = A(I) + A(I+1)\nC(I) = A(I+1)*2.0");
        assert_eq!(text, "T1 = A(I+1)\nB(I) = A(I)+T1\nC(I) = T1*2.0\n");
        assert_eq!(types, ["REAL"]);
    }

    #[test]
    fn a_stored_element_read_again_comes_from_its_temporary() {
        let (text, _) = replaced(REALS, "D(I,J) = X + 1.0\nB(I) = D(I,J) * D(I,J)");
        assert_eq!(text, "T1 = X+1.0\nD(I,J) = T1\nB(I) = T1*T1\n");
    }

    #[test]
    fn a_store_that_may_alias_forgets_and_one_that_cannot_keeps() {
        // A(J) may be A(I): A(I) is loaded again.
        let (text, _) = replaced(REALS, "X = A(I)\nA(J) = 1.0\nY = A(I)");
        assert_eq!(text, "X = A(I)\nA(J) = 1.0\nY = A(I)\n");
        // A(I+1) is not A(I).
        let (text, _) = replaced(REALS, "X = A(I)\nA(I+1) = 1.0\nY = A(I)");
        assert_eq!(text, "T1 = A(I)\nX = T1\nA(I+1) = 1.0\nY = T1\n");
        // D(I,J) and D(I+1,J-M) differ in their first subscript.
        let (text, _) = replaced(REALS, "X = D(I,J)\nD(I+1,J-M) = 1.0\nY = D(I,J)");
        assert!(text.starts_with("T1 = D(I,J)\n"), "{text}");
    }

    #[test]
    fn overwritten_stores_are_dropped_unless_read_from_memory_first() {
        let (text, _) = replaced(REALS, "A(I) = X\nA(I) = Y");
        assert_eq!(text, "A(I) = Y\n");
        let (text, _) = replaced(REALS, "A(I) = X\nZ = A(J)\nA(I) = Y");
        assert_eq!(text, "A(I) = X\nZ = A(J)\nA(I) = Y\n");
        // Read through its temporary: the first store's value is used, not kept.
        let (text, _) = replaced(REALS, "A(I) = X\nZ = A(I)\nA(I) = Y");
        assert_eq!(text, "T1 = X\nZ = T1\nA(I) = Y\n");
    }

    #[test]
    fn a_scalar_assigned_in_the_block_changes_the_elements_it_subscripts() {
        let (text, _) = replaced(REALS, "X = A(M)\nM = M + 1\nY = A(M)");
        assert_eq!(text, "X = A(M)\nM = M+1\nY = A(M)\n");
    }

    #[test]
    fn calls_equivalence_and_whole_arrays_leave_the_block_alone() {
        let block = "B(I) = A(I) + F(A(I))";
        assert_eq!(replaced(REALS, block).0, "B(I) = A(I)+F(A(I))\n");
        // A and E share storage, E and F, F and G, and G's COMMON block
        // holds P: a block using two of them is left alone; one using only
        // A is not.
        let eq = format!(
            "{REALS}\nREAL E(100), F(10), G(10)\nCOMMON /K/ P(100), G\nEQUIVALENCE (A(1), E(1)), (E(5), F(1))\nEQUIVALENCE (F(2), G(1))"
        );
        assert_eq!(replaced(&eq, "E(I) = A(I) + A(I)").0, "E(I) = A(I)+A(I)\n");
        assert_eq!(replaced(&eq, "P(I) = A(I) + A(I)").0, "P(I) = A(I)+A(I)\n");
        assert!(replaced(&eq, "B(I) = A(I) + A(I)")
            .0
            .starts_with("T1 = A(I)"));
        // SUM(A) reads every element: the first store must stay.
        let block = "A(I) = X\nY = SUM(A)\nA(I) = Z";
        assert_eq!(replaced(REALS, block).0, "A(I) = X\nY = SUM(A)\nA(I) = Z\n");
        // A section is an element anywhere in A: A(I) is loaded again.
        let block = "X = A(I)\nA(1:N) = 0.0\nY = A(I)";
        assert_eq!(
            replaced(REALS, block).0,
            "X = A(I)\nA(1:N) = 0.0\nY = A(I)\n"
        );
        // An intrinsic is no call.
        assert!(replaced(REALS, "B(I) = A(I) + ABS(A(I))")
            .0
            .starts_with("T1 = A(I)"));
    }

    #[test]
    fn temporaries_have_the_element_type() {
        let decls = "REAL*8 A(100)\nDOUBLE PRECISION B(100)\nINTEGER C(100)";
        let (_, types) = replaced(decls, "X = A(I) + A(I)\nY = B(I) + B(I)\nM = C(I) + C(I)");
        // REAL*8 is DOUBLE PRECISION.
        assert_eq!(types, ["DOUBLE PRECISION", "DOUBLE PRECISION", "INTEGER"]);
        let (_, types) = replaced(
            "INTEGER*2 C(100)\nCOMPLEX*16 A(100)",
            "M = C(I) + C(I)\nX = A(I) * A(I)",
        );
        assert_eq!(types, ["INTEGER*2", "COMPLEX*16"]);
    }
}
