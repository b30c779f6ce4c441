//! Run-time values and the arithmetic of Fortran on them: integers are i64
//! (overflow is an error, not a wrap, so a test never compares garbage),
//! REAL and DOUBLE PRECISION are both f64, mixed operands promote to real.
//! How many storage cells an element takes is the declaration's business
//! (its bytes), not the value's.

use kaiseki_frontend::ast::{BinOp, TypeSpec, UnOp};
use std::fmt;

/// The type of a variable as the interpreter stores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    Int,
    Real,
    Logical,
    Char,
}

impl Ty {
    pub fn from_spec(spec: &TypeSpec) -> Result<Ty, String> {
        match spec {
            TypeSpec::Integer => Ok(Ty::Int),
            TypeSpec::Real | TypeSpec::Double => Ok(Ty::Real),
            TypeSpec::Logical => Ok(Ty::Logical),
            TypeSpec::Character => Ok(Ty::Char),
            TypeSpec::Complex => Err("COMPLEX is not supported by the judge".into()),
        }
    }

    /// The value of a variable nobody has assigned yet.
    pub fn zero(self) -> Value {
        match self {
            Ty::Int => Value::Int(0),
            Ty::Real => Value::Real(0.0),
            Ty::Logical => Value::Logical(false),
            Ty::Char => Value::Char(String::new()),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Int(i64),
    Real(f64),
    Logical(bool),
    Char(String),
}

impl Value {
    /// Converts for an assignment or a by-reference view of another type.
    pub fn convert(&self, ty: Ty) -> Result<Value, String> {
        match (self, ty) {
            (Value::Int(i), Ty::Int) => Ok(Value::Int(*i)),
            (Value::Int(i), Ty::Real) => Ok(Value::Real(*i as f64)),
            (Value::Real(x), Ty::Real) => Ok(Value::Real(*x)),
            (Value::Real(x), Ty::Int) => real_to_int(x.trunc()).map(Value::Int),
            (Value::Logical(b), Ty::Logical) => Ok(Value::Logical(*b)),
            (Value::Char(s), Ty::Char) => Ok(Value::Char(s.clone())),
            (v, t) => Err(format!("cannot convert {v} to {t:?}")),
        }
    }

    /// The value a cell holding `self` shows through a name of type `ty`:
    /// the assignment conversion when there is one, else a deterministic
    /// stand-in for what Fortran leaves processor dependent (a logical
    /// read as a number, a real too large for an integer). Only characters
    /// and numbers do not mix.
    pub fn view(&self, ty: Ty) -> Result<Value, String> {
        match (self, ty) {
            (Value::Real(x), Ty::Int) => Ok(Value::Int(*x as i64)),
            (Value::Logical(b), Ty::Int) => Ok(Value::Int(i64::from(*b))),
            (Value::Logical(b), Ty::Real) => Ok(Value::Real(f64::from(u8::from(*b)))),
            (Value::Int(i), Ty::Logical) => Ok(Value::Logical(*i != 0)),
            (Value::Real(x), Ty::Logical) => Ok(Value::Logical(*x != 0.0)),
            (v, t) => v.convert(t),
        }
    }

    pub fn as_int(&self) -> Result<i64, String> {
        match self {
            Value::Int(i) => Ok(*i),
            v => Err(format!("integer expected, found {v}")),
        }
    }

    pub fn as_real(&self) -> Result<f64, String> {
        match self {
            Value::Int(i) => Ok(*i as f64),
            Value::Real(x) => Ok(*x),
            v => Err(format!("number expected, found {v}")),
        }
    }

    pub fn as_logical(&self) -> Result<bool, String> {
        match self {
            Value::Logical(b) => Ok(*b),
            v => Err(format!("logical expected, found {v}")),
        }
    }
}

/// Truncated real to integer, refusing what does not fit.
pub fn real_to_int(x: f64) -> Result<i64, String> {
    if x.is_finite() && x.abs() < 9.0e18 {
        Ok(x as i64)
    } else {
        Err(format!("real {x} does not fit an integer"))
    }
}

/// Parses a real literal as written (`1.0E30`, `2.5D0`, `1.`).
pub fn parse_real(text: &str) -> Result<f64, String> {
    let t = text.trim().replace(['D', 'd'], "E");
    t.parse::<f64>()
        .map_err(|_| format!("bad real literal {text:?}"))
}

pub fn unary(op: UnOp, v: Value) -> Result<Value, String> {
    match (op, v) {
        (UnOp::Plus, v @ (Value::Int(_) | Value::Real(_))) => Ok(v),
        (UnOp::Neg, Value::Int(i)) => i.checked_neg().map(Value::Int).ok_or_else(overflow),
        (UnOp::Neg, Value::Real(x)) => Ok(Value::Real(-x)),
        (UnOp::Not, Value::Logical(b)) => Ok(Value::Logical(!b)),
        (op, v) => Err(format!("operator {op:?} does not apply to {v}")),
    }
}

fn overflow() -> String {
    "integer overflow".into()
}

pub fn binary(op: BinOp, a: &Value, b: &Value) -> Result<Value, String> {
    use BinOp::*;
    match op {
        Add | Sub | Mul | Div | Pow => arith(op, a, b),
        Eq | Ne | Lt | Le | Gt | Ge => compare(op, a, b).map(Value::Logical),
        And | Or | Eqv | Neqv => {
            let (x, y) = (a.as_logical()?, b.as_logical()?);
            Ok(Value::Logical(match op {
                And => x && y,
                Or => x || y,
                Eqv => x == y,
                _ => x != y,
            }))
        }
        Concat => match (a, b) {
            (Value::Char(x), Value::Char(y)) => Ok(Value::Char(format!("{x}{y}"))),
            _ => Err(format!("// needs characters, found {a} and {b}")),
        },
    }
}

fn arith(op: BinOp, a: &Value, b: &Value) -> Result<Value, String> {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => int_arith(op, *x, *y).map(Value::Int),
        (Value::Real(x), Value::Int(y)) if op == BinOp::Pow => {
            Ok(Value::Real(match i32::try_from(*y) {
                Ok(n) => x.powi(n),
                Err(_) => x.powf(*y as f64),
            }))
        }
        _ => {
            let (x, y) = (a.as_real()?, b.as_real()?);
            Ok(Value::Real(match op {
                BinOp::Add => x + y,
                BinOp::Sub => x - y,
                BinOp::Mul => x * y,
                BinOp::Div => x / y,
                _ => x.powf(y),
            }))
        }
    }
}

/// Integer arithmetic of Fortran: division truncates toward zero, a
/// negative power of an integer other than +-1 is 0.
fn int_arith(op: BinOp, x: i64, y: i64) -> Result<i64, String> {
    match op {
        BinOp::Add => x.checked_add(y).ok_or_else(overflow),
        BinOp::Sub => x.checked_sub(y).ok_or_else(overflow),
        BinOp::Mul => x.checked_mul(y).ok_or_else(overflow),
        BinOp::Div if y == 0 => Err("integer division by zero".into()),
        BinOp::Div => x.checked_div(y).ok_or_else(overflow),
        _ => int_pow(x, y),
    }
}

fn int_pow(x: i64, y: i64) -> Result<i64, String> {
    if y >= 0 {
        let e = u32::try_from(y).map_err(|_| overflow())?;
        return x.checked_pow(e).ok_or_else(overflow);
    }
    match x {
        0 => Err("zero raised to a negative power".into()),
        1 => Ok(1),
        -1 => Ok(if y % 2 == 0 { 1 } else { -1 }),
        _ => Ok(0),
    }
}

fn compare(op: BinOp, a: &Value, b: &Value) -> Result<bool, String> {
    use std::cmp::Ordering;
    let ord = match (a, b) {
        (Value::Int(x), Value::Int(y)) => x.cmp(y),
        (Value::Char(x), Value::Char(y)) => x.trim_end().cmp(y.trim_end()),
        (Value::Logical(x), Value::Logical(y)) if matches!(op, BinOp::Eq | BinOp::Ne) => x.cmp(y),
        _ => {
            let (x, y) = (a.as_real()?, b.as_real()?);
            x.partial_cmp(&y).unwrap_or(Ordering::Less)
        }
    };
    Ok(match op {
        BinOp::Eq => ord == Ordering::Equal,
        BinOp::Ne => ord != Ordering::Equal,
        BinOp::Lt => ord == Ordering::Less,
        BinOp::Le => ord != Ordering::Greater,
        BinOp::Gt => ord == Ordering::Greater,
        _ => ord != Ordering::Less,
    })
}

/// List-directed output, close to gfortran's: integers right-aligned in
/// 12 columns, reals with 9 significant digits, logicals as T/F.
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(i) => write!(f, "{i:>12}"),
            Value::Real(x) => write!(f, "{:>16}", format_real(*x)),
            Value::Logical(b) => write!(f, " {}", if *b { "T" } else { "F" }),
            Value::Char(s) => write!(f, "{s}"),
        }
    }
}

fn format_real(x: f64) -> String {
    let a = x.abs();
    if a == 0.0 || (0.1..1.0e9).contains(&a) {
        let digits_before = if a < 1.0 {
            0
        } else {
            a.log10().floor() as i32 + 1
        };
        format!("{:.*}", (9 - digits_before).max(0) as usize, x)
    } else if x.is_finite() {
        format!("{x:.8E}")
    } else {
        format!("{x}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn i(v: i64) -> Value {
        Value::Int(v)
    }

    #[test]
    fn integer_division_truncates_toward_zero() {
        assert_eq!(binary(BinOp::Div, &i(-7), &i(2)), Ok(i(-3)));
        assert_eq!(binary(BinOp::Div, &i(7), &i(-2)), Ok(i(-3)));
        assert!(binary(BinOp::Div, &i(1), &i(0)).is_err());
    }

    #[test]
    fn integer_powers_follow_fortran() {
        assert_eq!(binary(BinOp::Pow, &i(3), &i(4)), Ok(i(81)));
        assert_eq!(binary(BinOp::Pow, &i(2), &i(-1)), Ok(i(0)));
        assert_eq!(binary(BinOp::Pow, &i(-1), &i(-3)), Ok(i(-1)));
        assert!(binary(BinOp::Pow, &i(10), &i(40)).is_err());
    }

    #[test]
    fn mixed_operands_promote_to_real() {
        assert_eq!(
            binary(BinOp::Div, &i(7), &Value::Real(2.0)),
            Ok(Value::Real(3.5))
        );
        assert_eq!(
            binary(BinOp::Lt, &i(1), &Value::Real(1.5)),
            Ok(Value::Logical(true))
        );
    }

    #[test]
    fn conversion_truncates_reals() {
        assert_eq!(Value::Real(-2.7).convert(Ty::Int), Ok(i(-2)));
        assert!(Value::Real(f64::NAN).convert(Ty::Int).is_err());
        assert!(Value::Logical(true).convert(Ty::Int).is_err());
    }

    #[test]
    fn another_type_views_a_cell_deterministically() {
        assert_eq!(Value::Logical(true).view(Ty::Int), Ok(i(1)));
        assert_eq!(Value::Real(1.0e30).view(Ty::Int), Ok(i(i64::MAX)));
        assert_eq!(Value::Int(0).view(Ty::Logical), Ok(Value::Logical(false)));
        assert_eq!(Value::Int(2).view(Ty::Real), Ok(Value::Real(2.0)));
        assert!(Value::Char("A".into()).view(Ty::Int).is_err());
    }

    #[test]
    fn reals_print_like_list_directed_output() {
        assert_eq!(format_real(1.0), "1.00000000");
        assert_eq!(format_real(123.456), "123.456000");
        assert_eq!(format_real(-1.0e30), "-1.00000000E30");
        assert_eq!(parse_real("2.5D0"), Ok(2.5));
    }
}
