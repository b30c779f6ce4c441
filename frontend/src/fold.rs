//! Constant folding and the folded Fortran text of expressions.
//!
//! Facts carry expressions as text (`loop_bounds`, `cond`, `array_dim`,
//! `subscript_nonaffine`) with named constants replaced by their values,
//! so that `DO I = 1, IMAX` reads `1`, `64` and rules never need the
//! PARAMETER table. Named constants are the PARAMETERs and the variables
//! that keep their initial value ([`crate::constants`]). Folding follows Fortran: integer division truncates
//! toward zero, mixed integer/real arithmetic is real, and anything that
//! overflows or divides by zero is simply not a constant.

use crate::ast::{BinOp, Expr, ExprKind, UnOp, ARRAY_CONSTRUCTOR, IMPLIED_DO};
use crate::intrinsics::{Intrinsic, ResultType, Ty};

/// The value of a constant expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Const {
    Int(i64),
    Real(f64),
    Logical(bool),
    Str(String),
}

/// What folding needs to know about names: the named constants, and
/// which intrinsic function `NAME(args)` calls, if any (an array `MAX(10)`
/// must not fold).
pub trait Env {
    fn constant(&self, name: &str) -> Option<&Const>;
    fn intrinsic(&self, name: &str) -> Option<&'static Intrinsic>;
}

/// A plain table of constants, in which no name is an intrinsic (tests, HPF
/// dummies), with any hasher.
impl<S: std::hash::BuildHasher> Env for std::collections::HashMap<String, Const, S> {
    fn constant(&self, name: &str) -> Option<&Const> {
        self.get(name)
    }
    fn intrinsic(&self, _name: &str) -> Option<&'static Intrinsic> {
        None
    }
}

impl Const {
    /// Fortran source text of the value (`64`, `2.5`, `1E30`, `.TRUE.`, `'AB'`).
    pub fn text(&self) -> String {
        match self {
            Const::Int(n) => n.to_string(),
            Const::Real(v) => real_text(*v),
            Const::Logical(true) => ".TRUE.".into(),
            Const::Logical(false) => ".FALSE.".into(),
            Const::Str(s) => format!("'{}'", s.replace('\'', "''")),
        }
    }

    fn as_real(&self) -> Option<f64> {
        match self {
            Const::Int(n) => Some(*n as f64),
            Const::Real(v) => Some(*v),
            _ => None,
        }
    }
}

fn real_text(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.1}")
    } else {
        format!("{v:?}").to_uppercase()
    }
}

/// The integer value of `e`, when it is an integer constant expression.
pub fn fold_int(e: &Expr, env: &dyn Env) -> Option<i64> {
    match fold(e, env)? {
        Const::Int(n) => Some(n),
        _ => None,
    }
}

/// The value of `e` when it is a constant expression (literals, named constants,
/// operators and the elementary numeric intrinsics).
pub fn fold(e: &Expr, env: &dyn Env) -> Option<Const> {
    match &e.kind {
        ExprKind::Int(n) => Some(Const::Int(*n)),
        ExprKind::Real(s) => real_literal(s).map(Const::Real),
        ExprKind::Logical(b) => Some(Const::Logical(*b)),
        ExprKind::Str(s) => Some(Const::Str(s.clone())),
        ExprKind::Var(name) => env.constant(name).cloned(),
        ExprKind::Apply { name, args }
            if env.intrinsic(name).is_some()
                && matches!(
                    name.as_str(),
                    "KIND" | "SELECTED_REAL_KIND" | "SELECTED_INT_KIND"
                ) =>
        {
            kind_intrinsic(name, args, env).map(Const::Int)
        }
        ExprKind::Apply { name, args } if env.intrinsic(name).is_some() => {
            let row = env.intrinsic(name)?;
            let vals = args
                .iter()
                .map(|a| fold(a, env))
                .collect::<Option<Vec<_>>>()?;
            of_result_type(intrinsic(name, &vals)?, row.result)
        }
        ExprKind::Apply { .. } | ExprKind::Range { .. } => None,
        ExprKind::Unary(op, x) => unary(*op, fold(x, env)?),
        ExprKind::Binary(op, l, r) => binary(*op, fold(l, env)?, fold(r, env)?),
    }
}

/// The kind numbers gfortran gives: `KIND` of a literal, and the kinds
/// `SELECTED_REAL_KIND(P, R)` and `SELECTED_INT_KIND(R)` choose (-1: none).
fn kind_intrinsic(name: &str, args: &[Expr], env: &dyn Env) -> Option<i64> {
    let ints = || -> Option<Vec<i64>> { args.iter().map(|a| fold_int(a, env)).collect() };
    match name {
        "KIND" => match &args.first()?.kind {
            ExprKind::Real(s) if s.contains(['D', 'd']) => Some(8),
            ExprKind::Real(_) | ExprKind::Int(_) | ExprKind::Logical(_) => Some(4),
            ExprKind::Str(_) => Some(1),
            _ => None,
        },
        "SELECTED_REAL_KIND" => {
            let v = ints()?;
            let (p, r) = (
                v.first().copied().unwrap_or(0),
                v.get(1).copied().unwrap_or(0),
            );
            // (precision, exponent range, kind), gfortran's real kinds.
            let kinds = [(6, 37, 4), (15, 307, 8), (18, 4931, 10), (33, 4931, 16)];
            let k = kinds.iter().find(|(pp, rr, _)| p <= *pp && r <= *rr);
            Some(k.map_or(-1, |k| k.2))
        }
        _ => {
            let r = *ints()?.first()?;
            let kinds = [(2, 1), (4, 2), (9, 4), (18, 8), (38, 16)];
            Some(
                kinds
                    .iter()
                    .find(|(most, _)| r <= *most)
                    .map_or(-1, |k| k.1),
            )
        }
    }
}

fn real_literal(s: &str) -> Option<f64> {
    // A kind suffix (`1.5_DP`, `2.0_8`) does not change the value folded.
    let s = s.split('_').next().unwrap_or(s);
    s.to_ascii_uppercase().replace(['D', 'Q'], "E").parse().ok()
}

fn unary(op: UnOp, x: Const) -> Option<Const> {
    match (op, x) {
        (UnOp::Neg, Const::Int(n)) => n.checked_neg().map(Const::Int),
        (UnOp::Neg, Const::Real(v)) => Some(Const::Real(-v)),
        (UnOp::Plus, c @ (Const::Int(_) | Const::Real(_))) => Some(c),
        (UnOp::Not, Const::Logical(b)) => Some(Const::Logical(!b)),
        _ => None,
    }
}

fn binary(op: BinOp, l: Const, r: Const) -> Option<Const> {
    use BinOp::*;
    match (op, &l, &r) {
        (Add | Sub | Mul | Div | Pow, Const::Int(a), Const::Int(b)) => int_arith(op, *a, *b),
        (Add | Sub | Mul | Div | Pow, _, _) => {
            let (a, b) = (l.as_real()?, r.as_real()?);
            let v = match op {
                Add => a + b,
                Sub => a - b,
                Mul => a * b,
                Div if b == 0.0 => return None,
                Div => a / b,
                _ => match r {
                    Const::Int(n) => a.powi(i32::try_from(n).ok()?),
                    _ => a.powf(b),
                },
            };
            v.is_finite().then_some(Const::Real(v))
        }
        (Concat, Const::Str(a), Const::Str(b)) => Some(Const::Str(format!("{a}{b}"))),
        (Eq | Ne | Lt | Le | Gt | Ge, _, _) => {
            let ord = match (&l, &r) {
                (Const::Int(a), Const::Int(b)) => a.partial_cmp(b),
                (Const::Str(a), Const::Str(b)) => a.partial_cmp(b),
                _ => l.as_real()?.partial_cmp(&r.as_real()?),
            }?;
            use std::cmp::Ordering::*;
            let v = match op {
                Eq => ord == Equal,
                Ne => ord != Equal,
                Lt => ord == Less,
                Le => ord != Greater,
                Gt => ord == Greater,
                _ => ord != Less,
            };
            Some(Const::Logical(v))
        }
        (And | Or | Eqv | Neqv, Const::Logical(a), Const::Logical(b)) => {
            Some(Const::Logical(match op {
                And => *a && *b,
                Or => *a || *b,
                Eqv => a == b,
                _ => a != b,
            }))
        }
        _ => None,
    }
}

/// Integer arithmetic with Fortran semantics: `/` truncates toward zero,
/// `N**(-k)` is `0` unless `|N| = 1`.
pub fn int_arith(op: BinOp, a: i64, b: i64) -> Option<Const> {
    let v = match op {
        BinOp::Add => a.checked_add(b)?,
        BinOp::Sub => a.checked_sub(b)?,
        BinOp::Mul => a.checked_mul(b)?,
        BinOp::Div => a.checked_div(b)?,
        BinOp::Pow if b >= 0 => a.checked_pow(u32::try_from(b).ok()?)?,
        BinOp::Pow => match a {
            0 => return None,
            1 => 1,
            -1 if b % 2 == 0 => 1,
            -1 => -1,
            _ => 0,
        },
        _ => return None,
    };
    Some(Const::Int(v))
}

/// The value of an elementary intrinsic that may appear in PARAMETER
/// expressions, before [`of_result_type`]: the conversions (`DBLE`,
/// `INT`, ...) give their argument as it is.
fn intrinsic(name: &str, args: &[Const]) -> Option<Const> {
    let ints: Option<Vec<i64>> = args
        .iter()
        .map(|a| match a {
            Const::Int(n) => Some(*n),
            _ => None,
        })
        .collect();
    let reals: Option<Vec<f64>> = args.iter().map(Const::as_real).collect();
    match (name, ints.as_deref(), reals) {
        (
            "INT" | "IFIX" | "IDINT" | "INT2" | "INT8" | "LONG" | "SHORT" | "REAL" | "FLOAT"
            | "SNGL" | "DBLE" | "DFLOAT",
            _,
            Some(v),
        ) if v.len() == 1 || v.len() == 2 => Some(args[0].clone()),
        ("MAX" | "MAX0" | "AMAX0", Some(v), _) => v.iter().copied().max().map(Const::Int),
        ("MIN" | "MIN0" | "AMIN0", Some(v), _) => v.iter().copied().min().map(Const::Int),
        ("MAX" | "AMAX1" | "DMAX1" | "MAX1", _, Some(v)) if !v.is_empty() => {
            Some(Const::Real(v.into_iter().fold(f64::MIN, f64::max)))
        }
        ("MIN" | "AMIN1" | "DMIN1" | "MIN1", _, Some(v)) if !v.is_empty() => {
            Some(Const::Real(v.into_iter().fold(f64::MAX, f64::min)))
        }
        ("MOD", Some(&[a, b]), _) => a.checked_rem(b).map(Const::Int),
        // The remainder with the sign of the divisor.
        ("MODULO", Some(&[a, b]), _) => a
            .checked_rem(b)
            .map(|r| {
                if r != 0 && (r < 0) != (b < 0) {
                    r + b
                } else {
                    r
                }
            })
            .map(Const::Int),
        ("ABS" | "IABS", Some(&[a]), _) => a.checked_abs().map(Const::Int),
        ("ABS", _, Some(v)) if v.len() == 1 => Some(Const::Real(v[0].abs())),
        ("NINT", _, Some(v)) if v.len() == 1 && v[0].abs() < 9.0e18 => {
            Some(Const::Int(v[0].round() as i64))
        }
        ("IAND" | "AND", Some(&[a, b]), _) => Some(Const::Int(a & b)),
        ("IOR" | "OR", Some(&[a, b]), _) => Some(Const::Int(a | b)),
        ("IEOR" | "XOR", Some(&[a, b]), _) => Some(Const::Int(a ^ b)),
        ("ISHFT", Some(&[a, shift]), _) => ishft(a, shift).map(Const::Int),
        _ => None,
    }
}

/// `ISHFT` of a non-negative value whose result does not depend on the
/// integer's kind: bits shifted out at the left would, so such a shift
/// does not fold.
fn ishft(a: i64, shift: i64) -> Option<i64> {
    if a < 0 || shift.abs() > 62 {
        return None;
    }
    if shift < 0 {
        return Some(a >> -shift);
    }
    let v = i128::from(a) << shift;
    (v <= i128::from(i32::MAX)).then_some(v as i64)
}

/// `c` as a value of the function's result type: `DBLE(3)/2` is 1.5, not 1.
fn of_result_type(c: Const, result: ResultType) -> Option<Const> {
    Some(match (result, c) {
        (ResultType::Of(Ty::Integer), Const::Real(v)) if v.abs() < 9.0e18 => {
            Const::Int(v.trunc() as i64)
        }
        (ResultType::Of(Ty::Integer), Const::Real(_)) => return None,
        (ResultType::Of(Ty::Real | Ty::Double), Const::Int(n)) => Const::Real(n as f64),
        (_, c) => c,
    })
}

/// Binding strength of an operator level, for minimal parentheses.
const EQV: u8 = 1;
const OR: u8 = 2;
const AND: u8 = 3;
const NOT: u8 = 4;
const REL: u8 = 5;
const CONCAT: u8 = 6;
const ADD: u8 = 7;
const MUL: u8 = 8;
const POW: u8 = 9;
const PRIMARY: u8 = 10;

/// The Fortran text of `e`, upper case and without blanks (`2*N-1`,
/// `N.GT.0`, `A(I+1)`), with every constant subexpression replaced by its
/// value (named constants folded). Literals keep their spelling (`1.0E30`).
pub fn text(e: &Expr, env: &dyn Env) -> String {
    let mut out = String::new();
    write(e, Some(env), &mut out);
    out
}

/// The Fortran text of `e` as written, without folding anything: code
/// generation must compute what the source computes (`1.0/3.0` folded in
/// double precision is not the single-precision quotient).
pub fn text_as_written(e: &Expr) -> String {
    let mut out = String::new();
    write(e, None, &mut out);
    out
}

/// The text of a constant (when `env` is given) or of the node itself, and
/// its binding strength.
fn write(e: &Expr, env: Option<&dyn Env>, out: &mut String) -> u8 {
    let literal = matches!(
        e.kind,
        ExprKind::Real(_) | ExprKind::Str(_) | ExprKind::Logical(_)
    );
    if let (false, Some(env)) = (literal, env) {
        if let Some(c) = fold(e, env) {
            let t = c.text();
            let prec = if t.starts_with('-') { ADD } else { PRIMARY };
            out.push_str(&t);
            return prec;
        }
    }
    match &e.kind {
        ExprKind::Int(n) => {
            out.push_str(&n.to_string());
            if *n < 0 {
                ADD
            } else {
                PRIMARY
            }
        }
        ExprKind::Real(s) => {
            out.push_str(&s.to_ascii_uppercase());
            PRIMARY
        }
        ExprKind::Logical(b) => {
            out.push_str(&Const::Logical(*b).text());
            PRIMARY
        }
        ExprKind::Str(s) => {
            out.push_str(&Const::Str(s.clone()).text());
            PRIMARY
        }
        ExprKind::Var(name) => {
            out.push_str(name);
            PRIMARY
        }
        ExprKind::Apply { name, args } => {
            // An implied DO is written items first: `(B(I),I=1,N,1)`.
            let (open, args, close) = match name.as_str() {
                ARRAY_CONSTRUCTOR => ("(/", &args[..], "/)"),
                IMPLIED_DO => {
                    out.push('(');
                    for item in &args[4..] {
                        write(item, env, out);
                        out.push(',');
                    }
                    write(&args[0], env, out);
                    out.push('=');
                    ("", &args[1..4], ")")
                }
                _ => {
                    out.push_str(name);
                    ("(", &args[..], ")")
                }
            };
            out.push_str(open);
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(a, env, out);
            }
            out.push_str(close);
            PRIMARY
        }
        ExprKind::Range {
            lower,
            upper,
            stride,
        } => {
            if let Some(l) = lower {
                write(l, env, out);
            }
            out.push(':');
            if let Some(u) = upper {
                write(u, env, out);
            }
            if let Some(s) = stride {
                out.push(':');
                write(s, env, out);
            }
            PRIMARY
        }
        ExprKind::Unary(op, x) => {
            let (sym, prec) = match op {
                UnOp::Neg => ("-", ADD),
                UnOp::Plus => ("+", ADD),
                UnOp::Not => (".NOT.", NOT),
            };
            out.push_str(sym);
            // `-(A+B)`, but `-A*B` and `-A**2` need none.
            operand(x, env, out, prec + 1);
            prec
        }
        ExprKind::Binary(op, l, r) => {
            let (sym, prec) = binop(*op);
            // `**` groups to the right, all others to the left.
            let (lmin, rmin) = if *op == BinOp::Pow {
                (prec + 1, prec)
            } else {
                (prec, prec + 1)
            };
            operand(l, env, out, lmin);
            out.push_str(sym);
            operand(r, env, out, rmin);
            prec
        }
    }
}

/// Writes `e`, in parentheses when it binds less tightly than `min`.
fn operand(e: &Expr, env: Option<&dyn Env>, out: &mut String, min: u8) {
    let start = out.len();
    if write(e, env, out) < min {
        out.insert(start, '(');
        out.push(')');
    }
}

fn binop(op: BinOp) -> (&'static str, u8) {
    match op {
        BinOp::Add => ("+", ADD),
        BinOp::Sub => ("-", ADD),
        BinOp::Mul => ("*", MUL),
        BinOp::Div => ("/", MUL),
        BinOp::Pow => ("**", POW),
        BinOp::Concat => ("//", CONCAT),
        BinOp::Eq => (".EQ.", REL),
        BinOp::Ne => (".NE.", REL),
        BinOp::Lt => (".LT.", REL),
        BinOp::Le => (".LE.", REL),
        BinOp::Gt => (".GT.", REL),
        BinOp::Ge => (".GE.", REL),
        BinOp::And => (".AND.", AND),
        BinOp::Or => (".OR.", OR),
        BinOp::Eqv => (".EQV.", EQV),
        BinOp::Neqv => (".NEQV.", EQV),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::ast::Pos;

    pub fn ex(kind: ExprKind) -> Expr {
        Expr {
            pos: Pos::default(),
            kind,
        }
    }
    pub fn int(n: i64) -> Expr {
        ex(ExprKind::Int(n))
    }
    pub fn var(n: &str) -> Expr {
        ex(ExprKind::Var(n.into()))
    }
    pub fn bin(op: BinOp, l: Expr, r: Expr) -> Expr {
        ex(ExprKind::Binary(op, Box::new(l), Box::new(r)))
    }
    pub fn neg(x: Expr) -> Expr {
        ex(ExprKind::Unary(UnOp::Neg, Box::new(x)))
    }

    fn params() -> std::collections::HashMap<String, Const> {
        std::collections::HashMap::from([("N".to_string(), Const::Int(100))])
    }

    #[test]
    fn folds_parameters_and_truncating_division() {
        let m = bin(BinOp::Mul, int(2), var("N"));
        assert_eq!(fold(&m, &params()), Some(Const::Int(200)));
        let d = bin(BinOp::Div, neg(int(7)), int(2));
        assert_eq!(fold(&d, &params()), Some(Const::Int(-3)));
        assert_eq!(fold(&bin(BinOp::Div, int(1), int(0)), &params()), None);
        let p = bin(BinOp::Pow, int(2), neg(int(1)));
        assert_eq!(fold(&p, &params()), Some(Const::Int(0)));
        let r = bin(BinOp::Add, int(1), ex(ExprKind::Real("2.5D0".into())));
        assert_eq!(fold(&r, &params()), Some(Const::Real(3.5)));
    }

    #[test]
    fn text_folds_constants_and_parenthesizes_minimally() {
        let e = bin(BinOp::Sub, bin(BinOp::Mul, int(2), var("M")), var("N"));
        assert_eq!(text(&e, &params()), "2*M-100");
        let e = bin(BinOp::Mul, int(2), bin(BinOp::Add, var("I"), int(1)));
        assert_eq!(text(&e, &params()), "2*(I+1)");
        let e = bin(BinOp::Sub, var("I"), bin(BinOp::Sub, var("J"), var("K")));
        assert_eq!(text(&e, &params()), "I-(J-K)");
        let e = bin(BinOp::Add, var("I"), neg(var("J")));
        assert_eq!(text(&e, &params()), "I+(-J)");
        let e = bin(BinOp::Gt, var("X"), ex(ExprKind::Real("0.0".into())));
        assert_eq!(text(&e, &params()), "X.GT.0.0");
        let e = bin(BinOp::Pow, bin(BinOp::Pow, var("A"), var("B")), var("C"));
        assert_eq!(text(&e, &params()), "(A**B)**C");
    }

    #[test]
    fn real_values_print_as_fortran_reals() {
        assert_eq!(Const::Real(2.0).text(), "2.0");
        assert_eq!(Const::Real(0.5).text(), "0.5");
        assert_eq!(Const::Real(1e30).text(), "1E30");
    }
}
