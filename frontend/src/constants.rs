//! Variables that keep their initial value: an INTEGER scalar that DATA or
//! an F90 initialization (`INTEGER :: K = 5`) gives a value, and that
//! nothing changes afterwards, folds like a PARAMETER (its uses stay
//! references: it is still a variable).
//!
//! Nothing changes it when the unit never defines it (assignment, READ, DO
//! variable, actual argument of a call, which the callee may write) and no
//! other name or unit can reach it: not in COMMON, not EQUIVALENCEd, not a
//! dummy argument nor the function's result, in a unit without opaque
//! statements (they may write anything) and without CONTAINS (internal
//! procedures share the host's variables). Initial values take effect
//! before the unit first runs, so where the DATA statement stands does
//! not matter.
//!
//! So does an INTEGER scalar with no initial value whose one definition is
//! `N = 6` at the top of the body, where every statement before it is an
//! assignment, READ, WRITE, PRINT or CONTINUE that does not name it: every
//! read of N follows that assignment (main programs set sizes this way).

use rustc_hash::{FxHashMap, FxHashSet};

use crate::ast::{DeclKind, Expr, ExprKind, ForallIndex, IoItem, Stmt, StmtKind, TypeSpec};
use crate::data::scalar_values;
use crate::fold::{self, Const};
use crate::symbols::{base_name, convert, ApplyClass, Symbols};

/// The unit's variables that keep their initial value, with that value.
/// `syms` must not hold any yet: values fold with the PARAMETERs only.
pub(crate) fn kept_values(syms: &Symbols) -> FxHashMap<String, Const> {
    let unit = syms.unit;
    if unit.contains {
        return FxHashMap::default();
    }
    // The scalars set once at the top, which nothing else in the body defines.
    let first = first_assignments(&unit.body);
    if !has_candidates(syms, &first) {
        return FxHashMap::default();
    }
    let at: FxHashSet<usize> = first.iter().map(|&(_, i, _)| i).collect();
    // What may change after the initialization: what the body defines,
    // the dummies, the function's result, COMMON members. One walk over
    // the body gives what its statements define, apart for those set at
    // the top (`changeable` for now) and the others: a pass per candidate
    // made lowering quadratic on long units of assignments, and a walk
    // over the whole body then another over the other statements took
    // twice the time.
    let mut changeable: FxHashSet<&str> = FxHashSet::default();
    let mut elsewhere = FxHashSet::default();
    for (i, st) in unit.body.iter().enumerate() {
        let out = if at.contains(&i) {
            &mut changeable
        } else {
            &mut elsewhere
        };
        if !may_define(std::slice::from_ref(st), syms, out) {
            return FxHashMap::default();
        }
    }
    let set_first: Vec<(&str, &Expr)> = first
        .into_iter()
        .filter(|(name, _, _)| !elsewhere.contains(name))
        .map(|(name, _, rhs)| (name, rhs))
        .collect();
    changeable.extend(elsewhere);
    changeable.retain(|n| !set_first.iter().any(|(m, _)| m == n));
    changeable.extend(unit.args.iter().map(|a| a.text.as_str()));
    changeable.insert(&unit.name.text);
    // How often each name is initialized, and the value when it is known
    // (a second initialization is an error: no value then).
    let mut inits: FxHashMap<&str, (usize, Option<&Expr>)> = FxHashMap::default();
    let count = |e: &Expr| fold::fold_int(e, syms);
    for d in &unit.decls {
        match &d.kind {
            DeclKind::Type {
                parameter: false,
                entities,
                ..
            } => {
                for e in entities {
                    if let Some(v) = &e.init {
                        let entry = inits.entry(&e.name.text).or_default();
                        *entry = (entry.0 + 1, Some(v));
                    }
                }
            }
            DeclKind::Data(sets) => {
                for set in sets {
                    let objects = set.objects.iter().flat_map(|o| o.exprs());
                    for name in objects.filter_map(base_name) {
                        inits.entry(name).or_default().0 += 1;
                    }
                    let is_array = |n: &str| syms.is_array(n);
                    for (name, v) in scalar_values(set, &is_array, &count).unwrap_or_default() {
                        inits.entry(name).or_default().1 = Some(v);
                    }
                }
            }
            DeclKind::Common { entities, .. } => {
                changeable.extend(entities.iter().map(|e| e.name.text.as_str()))
            }
            DeclKind::Equivalence(groups) => {
                changeable.extend(groups.iter().flatten().filter_map(base_name))
            }
            _ => {}
        }
    }
    for (name, rhs) in set_first {
        // Initialized too: two values, none kept.
        let entry = inits.entry(name).or_default();
        *entry = (entry.0 + 1, Some(rhs));
    }
    inits
        .into_iter()
        .filter(|(name, _)| !changeable.contains(name) && syms.is_integer_scalar(name))
        .filter_map(|(name, init)| match init {
            (1, Some(v)) => match convert(fold::fold(v, syms)?, &TypeSpec::Integer) {
                c @ Const::Int(_) => Some((name.to_string(), c)),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// Whether some INTEGER scalar has an initial value or is set at the top
/// (`first`): only these can keep a value, and without one the body need
/// not be walked (most units: the walk was a twentieth of `check`).
fn has_candidates(syms: &Symbols, first: &[(&str, usize, &Expr)]) -> bool {
    let integer = |name: &str| syms.is_integer_scalar(name);
    first.iter().any(|&(name, _, _)| integer(name))
        || syms.unit.decls.iter().any(|d| match &d.kind {
            DeclKind::Type {
                parameter: false,
                entities,
                ..
            } => entities
                .iter()
                .any(|e| e.init.is_some() && integer(&e.name.text)),
            DeclKind::Data(sets) => sets
                .iter()
                .flat_map(|set| &set.objects)
                .flat_map(|o| o.exprs())
                .filter_map(base_name)
                .any(integer),
            _ => false,
        })
}

/// Adds to `out` the names `stmts` may define; `false` when one of them is
/// opaque (it may define anything).
fn may_define<'a>(stmts: &'a [Stmt], syms: &Symbols, out: &mut FxHashSet<&'a str>) -> bool {
    for st in stmts {
        let exprs: Vec<&Expr> = match &st.kind {
            StmtKind::Allocate {
                objects,
                stat,
                source,
                ..
            } => {
                out.extend(stat.iter().filter_map(base_name));
                let bounds = objects.iter().flat_map(Expr::allocated_bounds);
                bounds.chain(stat).chain(source).collect()
            }
            StmtKind::Assign { lhs, rhs } => {
                out.extend(base_name(lhs));
                vec![lhs, rhs]
            }
            StmtKind::Do {
                var,
                lower,
                upper,
                step,
                body,
                ..
            } => {
                out.insert(&var.text);
                if !may_define(body, syms, out) {
                    return false;
                }
                [lower, upper].into_iter().chain(step).collect()
            }
            StmtKind::DoWhile { cond, body, .. } => {
                if !may_define(body, syms, out) {
                    return false;
                }
                vec![cond]
            }
            StmtKind::If {
                arms, else_part, ..
            } => {
                let bodies = arms
                    .iter()
                    .map(|a| &a.body)
                    .chain(else_part.iter().map(|e| &e.body));
                for body in bodies {
                    if !may_define(body, syms, out) {
                        return false;
                    }
                }
                arms.iter().map(|a| &a.cond).collect()
            }
            StmtKind::Select {
                selector, cases, ..
            } => {
                for case in cases {
                    if !may_define(&case.body, syms, out) {
                        return false;
                    }
                }
                vec![selector]
            }
            StmtKind::Where {
                indices,
                mask,
                lhs,
                rhs,
            } => {
                out.extend(base_name(lhs));
                let bounds = indices.iter().flat_map(ForallIndex::bounds);
                bounds.chain([mask, lhs, rhs]).collect()
            }
            StmtKind::LogicalIf { cond, stmt } => {
                if !may_define(std::slice::from_ref(stmt), syms, out) {
                    return false;
                }
                vec![cond]
            }
            StmtKind::ComputedGoto { index: e, .. } | StmtKind::ArithIf { expr: e, .. } => vec![e],
            StmtKind::Call { args, .. } => {
                out.extend(args.iter().filter_map(base_name));
                args.iter().collect()
            }
            StmtKind::Read { control, items }
            | StmtKind::Write { control, items }
            | StmtKind::Print { control, items } => {
                let read = matches!(st.kind, StmtKind::Read { .. });
                // IOSTAT=, SIZE=, an internal file WRITE writes (a CHARACTER
                // unit: never one of these INTEGER scalars, but harmless).
                let set = [&control.iostat, &control.size, &control.unit];
                out.extend(set.into_iter().flatten().filter_map(base_name));
                let mut exprs: Vec<&Expr> = control.exprs().collect();
                io_items(items, read, &mut exprs, out);
                exprs
            }
            StmtKind::File {
                control, outputs, ..
            } => {
                let set = outputs.iter().chain(&control.iostat);
                out.extend(set.filter_map(base_name));
                control.exprs().chain(outputs).collect()
            }
            StmtKind::Opaque { .. } => return false,
            StmtKind::Goto(_)
            | StmtKind::Exit { .. }
            | StmtKind::Cycle { .. }
            | StmtKind::Continue
            | StmtKind::Return
            | StmtKind::Stop
            | StmtKind::Format => vec![],
        };
        for e in exprs {
            function_args(e, syms, out);
        }
    }
    true
}

/// Adds the expressions of an I/O list to `exprs`, and to `out` what it
/// defines: its implied-DO variables, and its items when it is read.
fn io_items<'a>(
    items: &'a [IoItem],
    read: bool,
    exprs: &mut Vec<&'a Expr>,
    out: &mut FxHashSet<&'a str>,
) {
    for item in items {
        match item {
            IoItem::Expr(e) => {
                if read {
                    out.extend(base_name(e));
                }
                exprs.push(e);
            }
            IoItem::ImpliedDo(d) => {
                out.insert(&d.var.text);
                exprs.extend([&d.lower, &d.upper].into_iter().chain(&d.step));
                io_items(&d.items, read, exprs, out);
            }
        }
    }
}

/// Adds to `out` the variables `e` passes to functions (by reference).
fn function_args<'a>(e: &'a Expr, syms: &Symbols, out: &mut FxHashSet<&'a str>) {
    match &e.kind {
        ExprKind::Apply { name, args } => {
            if syms.classify_apply(name, args) == ApplyClass::Function {
                out.extend(args.iter().filter_map(base_name));
            }
            args.iter().for_each(|a| function_args(a, syms, out));
        }
        ExprKind::Range {
            lower,
            upper,
            stride,
        } => [lower, upper, stride]
            .into_iter()
            .flatten()
            .for_each(|b| function_args(b, syms, out)),
        ExprKind::Unary(_, x) => function_args(x, syms, out),
        ExprKind::Binary(_, a, b) => {
            function_args(a, syms, out);
            function_args(b, syms, out);
        }
        ExprKind::Int(_)
        | ExprKind::Real(_)
        | ExprKind::Logical(_)
        | ExprKind::Str(_)
        | ExprKind::Var(_) => {}
    }
}

/// The scalars `N = expr` sets among the body's first statements (before
/// any that is not an assignment, READ, WRITE, PRINT or CONTINUE), where
/// no statement before names them: the name, the assignment's index, expr.
fn first_assignments(body: &[Stmt]) -> Vec<(&str, usize, &Expr)> {
    let mut out = Vec::new();
    let mut named: Vec<&Expr> = Vec::new();
    for (i, st) in body.iter().enumerate() {
        match &st.kind {
            StmtKind::Assign { lhs, rhs } => {
                if let ExprKind::Var(n) = &lhs.kind {
                    if !named.iter().any(|e| e.any_name(&mut |m, _| m == n)) {
                        out.push((n.as_str(), i, rhs));
                    }
                }
                named.extend([lhs, rhs]);
            }
            StmtKind::Read { control, items }
            | StmtKind::Write { control, items }
            | StmtKind::Print { control, items } => {
                named.extend(control.exprs());
                io_items(items, false, &mut named, &mut FxHashSet::default());
            }
            StmtKind::Continue => {}
            _ => break,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fold::Env;

    /// The kept values of `names` in the first unit of `source` (`-` for none).
    fn kept(path: &str, source: &str, names: &[&str]) -> Vec<String> {
        let (program, diags) = crate::parse_source(path, source);
        assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
        let units: FxHashSet<&str> = program.units.iter().map(|u| u.name.text.as_str()).collect();
        let (syms, problems) = Symbols::build(&program.units[0], &units);
        assert!(problems.is_empty(), "{problems:?}");
        names
            .iter()
            .map(|n| syms.constant(n).map_or("-".into(), Const::text))
            .collect()
    }

    /// `K` and `J` get values by DATA; `body` may change K.
    fn k_and_j(body: &str) -> Vec<String> {
        let source = format!(
            "      SUBROUTINE S(D)\n      INTEGER K, J, D, IA(3)\n      REAL X\n      DATA K /5/, J /6/\n{body}      END\n"
        );
        kept("s.f", &source, &["K", "J"])
    }

    #[test]
    fn data_and_initializations_give_constants() {
        let source = "      PROGRAM P
      PARAMETER (NR = 2, NV = 2*NR+1)
      INTEGER K, J, L, M, N
      DATA K, J /NR*NV/
      DATA L /-3/, M /7.9/
      INTEGER :: N2 = NV - 1
      PRINT *, K + J + L + M + N2
      END
";
        assert_eq!(
            kept("p.f", source, &["K", "J", "L", "M", "N2"]),
            ["5", "5", "-3", "7", "4"]
        );
        let source = "program p\ninteger :: k = 5, j\nreal :: x = 1.0\nj = k\nprint *, j, x\nend program p\n";
        assert_eq!(kept("p.f90", source, &["K", "J", "X"]), ["5", "-", "-"]);
    }

    #[test]
    fn any_definition_of_the_variable_keeps_it_a_variable() {
        assert_eq!(k_and_j(""), ["5", "6"]);
        for body in [
            "      K = K + 1\n",
            "      IF (X .GT. 0.0) K = 1\n",
            "      READ *, K\n",
            "      DO 10 K = 1, 3\n   10 CONTINUE\n",
            "      CALL T(K)\n",
            "      X = F(1.0, K)\n",
            "      IF (J .GT. 0) THEN\n      PRINT *, G(K)\n      END IF\n",
            // I/O: an implied-DO variable, an item read inside an implied
            // DO, IOSTAT= and SIZE=.
            "      PRINT *, (IA(K), K = 1, 3)\n",
            "      WRITE (*, *) ((IA(I), I = 1, K), K = 1, 2)\n",
            "      READ (*, *) (K, I = 1, 2)\n",
            "      READ (*, *, IOSTAT=K) X\n",
            "      READ (*, '(A)', ADVANCE='NO', SIZE=K) X\n",
            "      READ (*, *) D, (IA(I), I = 1, K), (X, K, I = 1, 2)\n",
        ] {
            assert_eq!(k_and_j(body), ["-", "6"], "{body}");
        }
        // An element passed along, a statement function's argument and an
        // intrinsic's are no definition of K.
        let body = "      SQ(I) = I * I\n      CALL T(IA(K))\n      X = SQ(K) + MAX(K, J)\n";
        assert_eq!(k_and_j(body), ["5", "6"]);
        // Written, in an implied DO's bounds or a subscript read: kept.
        let body = "      WRITE (*, *) K, (IA(I), I = 1, K), IA(K)\n      READ (*, *) IA(K)\n";
        assert_eq!(k_and_j(body), ["5", "6"]);
    }

    #[test]
    fn what_other_names_or_units_reach_is_no_constant() {
        let source = "      SUBROUTINE S(K)
      INTEGER K, J, L, M, IB(2)
      COMMON /C/ J
      EQUIVALENCE (L, IB(1))
      DATA K /1/, J /2/, L /3/, M /4/, M /5/
      END
";
        assert_eq!(
            kept("s.f", source, &["K", "J", "L", "M"]),
            ["-", "-", "-", "-"]
        );
        // An opaque statement may write anything.
        assert_eq!(
            k_and_j("      ASSIGN 10 TO D\n   10 CONTINUE\n"),
            ["-", "-"]
        );
        // Internal procedures share the host's variables.
        let source = "program p\ninteger :: k = 5\ncall t\nprint *, k\ncontains\nsubroutine t\nk = 6\nend subroutine t\nend program p\n";
        assert_eq!(kept("p.f90", source, &["K"]), ["-"]);
    }

    #[test]
    fn a_first_assignment_of_a_constant_is_kept() {
        let source = "      PROGRAM P
      INTEGER N, M, K, L, J, IA(10)
      READ *, Q
      N = 6
      M = 2 * N
      K = 3
      PRINT *, L
      L = 4
      J = 5
      DO 10 I = 1, N
   10 IA(I) = M + K + L
      J = 7
      END
";
        // L is read before its assignment, J assigned twice; M's value
        // folds with PARAMETERs only.
        assert_eq!(
            kept("p.f", source, &["N", "M", "K", "L", "J"]),
            ["6", "-", "3", "-", "-"]
        );
        // After a loop or an IF, or defined elsewhere too: a variable.
        let source = "      PROGRAM P
      INTEGER N, M, K
      IF (Q .GT. 0) Q = 1
      N = 6
      END
";
        assert_eq!(kept("p.f", source, &["N"]), ["-"]);
        let source = "      PROGRAM P
      INTEGER N, M
      N = 6
      M = 1
      CALL T(M)
      READ *, N
      END
";
        assert_eq!(kept("p.f", source, &["N", "M"]), ["-", "-"]);
        // A dummy argument or a COMMON member may change unseen.
        let source = "      SUBROUTINE S(N)
      COMMON /C/ M
      N = 6
      M = 2
      CALL T
      END
";
        assert_eq!(kept("s.f", source, &["N", "M"]), ["-", "-"]);
    }
}
