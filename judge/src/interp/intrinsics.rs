//! Intrinsic functions: inquiries (SIZE, LBOUND, UBOUND, which read no
//! element), reductions over array expressions (SUM, MAXVAL, ...), and the
//! elemental numeric functions of Fortran 77 with their specific names.

use super::eval::{zip_vals, Val};
use super::value::{real_to_int, Value};
use super::{fail, At, Exec, Frame, Interp};
use kaiseki_frontend::ast::{Expr, ExprKind, Pos};

impl Interp<'_> {
    pub(super) fn intrinsic(
        &mut self,
        fr: &mut Frame,
        name: &str,
        args: &[Expr],
        pos: Pos,
    ) -> Exec<Val> {
        if matches!(name, "SIZE" | "LBOUND" | "UBOUND") {
            return self.inquiry(fr, name, args, pos);
        }
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            vals.push(self.eval(fr, a)?);
        }
        if let Some(r) = reduction(name, &vals) {
            return r.map(Val::Scalar).at(pos);
        }
        if elemental(name, &[]).is_none() {
            return fail(pos, format!("unknown function {name}"));
        }
        zip_vals(&vals, |vs| {
            elemental(name, vs).unwrap_or_else(|| Err(format!("unknown function {name}")))
        })
        .at(pos)
    }

    fn inquiry(&mut self, fr: &mut Frame, name: &str, args: &[Expr], pos: Pos) -> Exec<Val> {
        let b = match args.first().map(|a| &a.kind) {
            Some(ExprKind::Var(v)) => fr.vars.get(v).filter(|b| b.is_array()).cloned(),
            _ => None,
        };
        let Some(b) = b else {
            return fail(pos, format!("{name} needs a whole array argument"));
        };
        let dim = match args.get(1) {
            Some(d) => Some(self.eval_scalar(fr, d)?.as_int().at(d.pos)?),
            None => None,
        };
        let pick = |k: i64| {
            b.dims
                .get((k - 1).max(0) as usize)
                .filter(|_| k >= 1)
                .cloned()
        };
        let value = match (name, dim) {
            ("SIZE", None) => b.len().map(|n| n as i64),
            ("SIZE", Some(k)) => pick(k).and_then(|d| {
                d.upper
                    .and_then(|u| u.checked_sub(d.lower)?.checked_add(1))
                    .map(|n| n.max(0))
            }),
            ("LBOUND", Some(k)) => pick(k).map(|d| d.lower),
            ("UBOUND", Some(k)) => pick(k).and_then(|d| d.upper),
            ("LBOUND", None) => {
                return Ok(Val::Array(
                    b.dims.iter().map(|d| Value::Int(d.lower)).collect(),
                ))
            }
            _ => None,
        };
        match value {
            Some(v) => Ok(Val::Scalar(Value::Int(v))),
            None => fail(pos, format!("{name} of this argument is not supported")),
        }
    }
}

/// SUM, PRODUCT, MAXVAL, MINVAL, DOT_PRODUCT, COUNT, ANY, ALL; `None` when
/// `name` is not a reduction.
fn reduction(name: &str, vals: &[Val]) -> Option<Result<Value, String>> {
    let arrays: Vec<&Vec<Value>> = vals
        .iter()
        .filter_map(|v| match v {
            Val::Array(xs) => Some(xs),
            Val::Scalar(_) => None,
        })
        .collect();
    let one = || match (vals.len(), arrays.first()) {
        (1, Some(xs)) => Ok(*xs),
        _ => Err(format!(
            "{name} takes one array argument here (no DIM or MASK)"
        )),
    };
    let fold = |init: Value,
                op: fn(&Value, &Value) -> Result<Value, String>|
     -> Result<Value, String> { one()?.iter().try_fold(init, |acc, x| op(&acc, x)) };
    let all_int = || one().map(|xs| xs.iter().all(|x| matches!(x, Value::Int(_))));
    let zero = |r: bool| if r { Value::Int(0) } else { Value::Real(0.0) };
    Some(match name {
        "SUM" => all_int().and_then(|i| fold(zero(i), add)),
        "PRODUCT" => {
            all_int().and_then(|i| fold(if i { Value::Int(1) } else { Value::Real(1.0) }, mul))
        }
        "MAXVAL" | "MINVAL" => one().and_then(|xs| {
            let mut it = xs.iter();
            let first = it
                .next()
                .cloned()
                .ok_or(format!("{name} of an empty array"))?;
            let f = if name == "MAXVAL" { "MAX" } else { "MIN" };
            it.try_fold(first, |acc, x| extreme(f, &[acc, x.clone()]))
        }),
        "DOT_PRODUCT" => match (vals, arrays.as_slice()) {
            ([_, _], [a, b]) if a.len() == b.len() => a.iter().zip(b.iter()).try_fold(
                zero(a.iter().chain(b.iter()).all(|x| matches!(x, Value::Int(_)))),
                |acc, (x, y)| add(&acc, &mul(x, y)?),
            ),
            _ => Err("DOT_PRODUCT takes two conforming arrays".into()),
        },
        "COUNT" | "ANY" | "ALL" => one().and_then(|xs| {
            let bits: Vec<bool> = xs.iter().map(Value::as_logical).collect::<Result<_, _>>()?;
            Ok(match name {
                "COUNT" => Value::Int(bits.iter().filter(|b| **b).count() as i64),
                "ANY" => Value::Logical(bits.iter().any(|b| *b)),
                _ => Value::Logical(bits.iter().all(|b| *b)),
            })
        }),
        _ => return None,
    })
}

fn add(a: &Value, b: &Value) -> Result<Value, String> {
    super::value::binary(kaiseki_frontend::ast::BinOp::Add, a, b)
}

fn mul(a: &Value, b: &Value) -> Result<Value, String> {
    super::value::binary(kaiseki_frontend::ast::BinOp::Mul, a, b)
}

/// MAX or MIN of numbers: integer when all are integers, else real.
fn extreme(name: &str, vs: &[Value]) -> Result<Value, String> {
    if vs.is_empty() {
        return Err(format!("{name} needs arguments"));
    }
    if vs.iter().all(|v| matches!(v, Value::Int(_))) {
        let xs = vs
            .iter()
            .map(Value::as_int)
            .collect::<Result<Vec<_>, _>>()?;
        let r = if name == "MAX" {
            xs.iter().max()
        } else {
            xs.iter().min()
        };
        return Ok(Value::Int(r.copied().unwrap_or(0)));
    }
    let xs = vs
        .iter()
        .map(Value::as_real)
        .collect::<Result<Vec<_>, _>>()?;
    let r = xs
        .iter()
        .copied()
        .reduce(|a, b| if (name == "MAX") == (b > a) { b } else { a });
    Ok(Value::Real(r.unwrap_or(0.0)))
}

/// The elemental intrinsics on scalar arguments; `None` for an unknown name
/// (asked with no arguments to test whether a name is known).
fn elemental(name: &str, vs: &[Value]) -> Option<Result<Value, String>> {
    let real = |k: usize| -> Result<f64, String> {
        vs.get(k)
            .ok_or(format!("{name}: missing argument"))?
            .as_real()
    };
    let int = |x: f64| real_to_int(x).map(Value::Int);
    let unary = |f: fn(f64) -> f64| real(0).map(|x| Value::Real(f(x)));
    let all_int = !vs.is_empty() && vs.iter().all(|v| matches!(v, Value::Int(_)));
    Some(match name {
        "ABS" | "IABS" | "DABS" => match vs.first() {
            Some(Value::Int(i)) => i
                .checked_abs()
                .map(Value::Int)
                .ok_or("integer overflow".into()),
            _ => unary(f64::abs),
        },
        "MAX" | "MIN" => extreme(name, vs),
        "MAX0" | "MIN0" | "AMAX1" | "AMIN1" | "DMAX1" | "DMIN1" | "AMAX0" | "AMIN0" | "MAX1"
        | "MIN1" => {
            let generic = if name.contains("MAX") { "MAX" } else { "MIN" };
            extreme(generic, vs).and_then(|v| match name {
                "MAX0" | "MIN0" | "MAX1" | "MIN1" => v.convert(super::Ty::Int),
                _ => v.convert(super::Ty::Real),
            })
        }
        "MOD" | "AMOD" | "DMOD" => {
            if all_int {
                match (vs[0].as_int(), vs.get(1).map(Value::as_int)) {
                    (Ok(_), Some(Ok(0))) => Err("MOD by zero".into()),
                    (Ok(a), Some(Ok(p))) => a
                        .checked_rem(p)
                        .map(Value::Int)
                        .ok_or("integer overflow".into()),
                    _ => Err("MOD needs two arguments".into()),
                }
            } else {
                real(0).and_then(|a| Ok(Value::Real(a % real(1)?)))
            }
        }
        "MODULO" => {
            if all_int {
                match (vs[0].as_int(), vs.get(1).map(Value::as_int)) {
                    (Ok(_), Some(Ok(0))) => Err("MODULO by zero".into()),
                    (Ok(a), Some(Ok(p))) => match a.checked_rem(p) {
                        Some(r) if r != 0 && (r < 0) != (p < 0) => Ok(Value::Int(r + p)),
                        Some(r) => Ok(Value::Int(r)),
                        None => Err("integer overflow".into()),
                    },
                    _ => Err("MODULO needs two arguments".into()),
                }
            } else {
                real(0).and_then(|a| {
                    let p = real(1)?;
                    Ok(Value::Real(a - (a / p).floor() * p))
                })
            }
        }
        "SIGN" | "ISIGN" | "DSIGN" => {
            if all_int {
                match (vs[0].as_int(), vs.get(1).map(Value::as_int)) {
                    (Ok(a), Some(Ok(b))) => a
                        .checked_abs()
                        .map(|m| Value::Int(if b >= 0 { m } else { -m }))
                        .ok_or("integer overflow".into()),
                    _ => Err("SIGN needs two arguments".into()),
                }
            } else {
                real(0).and_then(|a| {
                    Ok(Value::Real(if real(1)? >= 0.0 {
                        a.abs()
                    } else {
                        -a.abs()
                    }))
                })
            }
        }
        "DIM" | "IDIM" => {
            if all_int {
                match (vs[0].as_int(), vs.get(1).map(Value::as_int)) {
                    (Ok(a), Some(Ok(b))) => a
                        .checked_sub(b)
                        .map(|d| Value::Int(d.max(0)))
                        .ok_or("integer overflow".into()),
                    _ => Err("DIM needs two arguments".into()),
                }
            } else {
                real(0).and_then(|a| Ok(Value::Real((a - real(1)?).max(0.0))))
            }
        }
        "SQRT" | "DSQRT" => unary(f64::sqrt),
        "EXP" | "DEXP" => unary(f64::exp),
        "LOG" | "ALOG" | "DLOG" => unary(f64::ln),
        "LOG10" | "ALOG10" | "DLOG10" => unary(f64::log10),
        "SIN" | "DSIN" => unary(f64::sin),
        "COS" | "DCOS" => unary(f64::cos),
        "TAN" | "DTAN" => unary(f64::tan),
        "ASIN" | "DASIN" => unary(f64::asin),
        "ACOS" | "DACOS" => unary(f64::acos),
        "ATAN" | "DATAN" => unary(f64::atan),
        "SINH" => unary(f64::sinh),
        "COSH" => unary(f64::cosh),
        "TANH" => unary(f64::tanh),
        "ATAN2" | "DATAN2" => real(0).and_then(|y| Ok(Value::Real(y.atan2(real(1)?)))),
        "AINT" | "DINT" => unary(f64::trunc),
        "ANINT" | "DNINT" => unary(f64::round),
        "REAL" | "FLOAT" | "SNGL" | "DBLE" | "DFLOAT" => unary(|x| x),
        "INT" | "IFIX" | "IDINT" => match vs.first() {
            Some(Value::Int(i)) => Ok(Value::Int(*i)),
            _ => real(0).and_then(|x| int(x.trunc())),
        },
        "NINT" | "IDNINT" => real(0).and_then(|x| int(x.round())),
        "FLOOR" => real(0).and_then(|x| int(x.floor())),
        "CEILING" => real(0).and_then(|x| int(x.ceil())),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(name: &str, vs: &[Value]) -> Result<Value, String> {
        elemental(name, vs).expect("known intrinsic")
    }

    #[test]
    fn numeric_intrinsics_keep_fortran_types_and_rounding() {
        use Value::{Int as I, Real as R};
        assert_eq!(call("MOD", &[I(-7), I(3)]), Ok(I(-1)));
        assert_eq!(call("MODULO", &[I(-7), I(3)]), Ok(I(2)));
        assert_eq!(call("MODULO", &[I(7), I(-3)]), Ok(I(-2)));
        assert_eq!(call("MOD", &[R(7.5), R(2.0)]), Ok(R(1.5)));
        assert_eq!(call("MAX", &[I(1), I(5), I(3)]), Ok(I(5)));
        assert_eq!(call("MAX", &[I(1), R(0.5)]), Ok(R(1.0)));
        assert_eq!(call("AMAX1", &[R(1.0), R(-2.0)]), Ok(R(1.0)));
        assert_eq!(call("MIN0", &[I(4), I(-2)]), Ok(I(-2)));
        assert_eq!(call("NINT", &[R(2.5)]), Ok(I(3)));
        assert_eq!(call("NINT", &[R(-2.5)]), Ok(I(-3)));
        assert_eq!(call("INT", &[R(-2.7)]), Ok(I(-2)));
        assert_eq!(call("SIGN", &[I(3), I(-1)]), Ok(I(-3)));
        assert_eq!(call("REAL", &[I(3)]), Ok(R(3.0)));
        assert_eq!(call("ABS", &[I(-3)]), Ok(I(3)));
        assert!(call("MOD", &[I(1), I(0)]).is_err());
        assert!(elemental("NOSUCH", &[]).is_none());
    }

    #[test]
    fn reductions_fold_in_order_and_keep_integer_type() {
        use Value::{Int as I, Real as R};
        let a = Val::Array(vec![I(1), I(2), I(3)]);
        assert_eq!(reduction("SUM", &[a]), Some(Ok(I(6))));
        let b = Val::Array(vec![R(1.0), R(-2.0)]);
        assert_eq!(reduction("MINVAL", &[b]), Some(Ok(R(-2.0))));
        assert!(matches!(
            reduction("SUM", &[Val::Scalar(I(1))]),
            Some(Err(_))
        ));
        assert!(reduction("SQRT", &[]).is_none());
    }
}
