//! Expressions: the value of an expression (a scalar, or the elements of an
//! array expression in column-major order), and the cells that an
//! assignment, a READ item or an actual argument designates.

use super::memory::{check_size, Binding};
use super::value::{self, parse_real, Value};
use super::{fail, At, Cells, Exec, Frame, Interp};
use crate::trace::ArgOrigin;
use kaiseki_frontend::ast::{Expr, ExprKind, Pos, UnitKind};
use std::rc::Rc;

/// The value of an expression: F90 array expressions are evaluated whole.
pub(super) enum Val {
    Scalar(Value),
    Array(Vec<Value>),
}

impl Val {
    pub(super) fn into_values(self) -> Vec<Value> {
        match self {
            Val::Scalar(v) => vec![v],
            Val::Array(vs) => vs,
        }
    }
}

/// Cells designated by a variable reference, each an offset in `binding`.
pub(super) struct Place {
    pub binding: Binding,
    pub indices: Vec<usize>,
    /// Where the name stands (the position every access is recorded at).
    pub pos: Pos,
    /// A whole array or a section, as opposed to one scalar or element.
    pub many: bool,
}

/// An actual argument: cells of the caller, or the value of an expression.
pub(super) enum Actual {
    Cells(Cells),
    Temp(Vec<Value>),
}

impl Interp<'_> {
    pub(super) fn eval_scalar(&mut self, fr: &mut Frame, e: &Expr) -> Exec<Value> {
        match self.eval(fr, e)? {
            Val::Scalar(v) => Ok(v),
            Val::Array(_) => fail(e.pos, "array expression where a scalar is needed"),
        }
    }

    pub(super) fn eval(&mut self, fr: &mut Frame, e: &Expr) -> Exec<Val> {
        match &e.kind {
            ExprKind::Int(i) => Ok(Val::Scalar(Value::Int(*i))),
            ExprKind::Real(text) => parse_real(text)
                .at(e.pos)
                .map(|x| Val::Scalar(Value::Real(x))),
            ExprKind::Logical(b) => Ok(Val::Scalar(Value::Logical(*b))),
            ExprKind::Str(s) => Ok(Val::Scalar(Value::Char(s.clone()))),
            ExprKind::Var(name) => match fr.consts.get(name) {
                Some(v) => Ok(Val::Scalar(v.clone())),
                None => {
                    let place = self.place(fr, e)?;
                    self.load_place(&place)
                }
            },
            ExprKind::Apply { name, args } => {
                if fr.vars.get(name).is_some_and(Binding::is_array) {
                    let mark = self.trace_len();
                    let place = self.place(fr, e)?;
                    let elements = self.trace_len();
                    let v = self.load_place(&place)?;
                    self.elements_before_subscripts(mark, elements);
                    Ok(v)
                } else if let Some((dummies, body)) =
                    self.infos[fr.unit].stmt_functions.get(name).cloned()
                {
                    self.stmt_function(fr, name, &dummies, &body, args, e.pos)
                } else if let Some(u) = self.unit_named(name, UnitKind::Function) {
                    let callee = self.call(fr, u, args, e.pos)?;
                    let Some(b) = callee.vars.get(name.as_str()) else {
                        return fail(e.pos, format!("function {name} has no result variable"));
                    };
                    let v = self
                        .mem
                        .get(b.storage, b.offset, b.width)
                        .at(e.pos)?
                        .view(b.ty)
                        .at(e.pos)?;
                    Ok(Val::Scalar(v))
                } else {
                    self.intrinsic(fr, name, args, e.pos)
                }
            }
            ExprKind::Range { .. } => fail(e.pos, "a section range outside a subscript"),
            ExprKind::Unary(op, x) => {
                let v = self.eval(fr, x)?;
                map_val(v, |v| value::unary(*op, v.clone())).at(e.pos)
            }
            ExprKind::Binary(op, a, b) => {
                let a = self.eval(fr, a)?;
                let b = self.eval(fr, b)?;
                zip_vals(&[a, b], |vs| value::binary(*op, &vs[0], &vs[1])).at(e.pos)
            }
        }
    }

    /// Evaluates a statement function in place: the dummies are values
    /// (shadowing variables of the same name, never memory), the other
    /// names of the body are read where the body stands.
    fn stmt_function(
        &mut self,
        fr: &mut Frame,
        name: &str,
        dummies: &[String],
        body: &Expr,
        args: &[Expr],
        pos: Pos,
    ) -> Exec<Val> {
        if args.len() != dummies.len() {
            return fail(pos, format!("{name} takes {} arguments", dummies.len()));
        }
        let mut values = Vec::with_capacity(args.len());
        for a in args {
            values.push(self.eval_scalar(fr, a)?);
        }
        let saved: Vec<Option<Value>> = dummies
            .iter()
            .zip(values)
            .map(|(d, v)| fr.consts.insert(d.clone(), v))
            .collect();
        let result = self.eval_scalar(fr, body);
        for (d, old) in dummies.iter().zip(saved) {
            match old {
                Some(v) => fr.consts.insert(d.clone(), v),
                None => fr.consts.remove(d),
            };
        }
        let ty = self.infos[fr.unit].type_of(name);
        let v = result?;
        Ok(Val::Scalar(v.convert(ty).at(pos)?))
    }

    fn load_place(&mut self, place: &Place) -> Exec<Val> {
        let mut values = Vec::with_capacity(place.indices.len());
        for &i in &place.indices {
            values.push(self.load(&place.binding, i, place.pos, false)?);
        }
        match (place.many, values.pop()) {
            (false, Some(v)) => Ok(Val::Scalar(v)),
            (_, last) => {
                values.extend(last);
                Ok(Val::Array(values))
            }
        }
    }

    /// The cells a variable reference designates; subscripts are evaluated
    /// (and their reads recorded) here, once.
    pub(super) fn place(&mut self, fr: &mut Frame, e: &Expr) -> Exec<Place> {
        match &e.kind {
            ExprKind::Var(name) => {
                if fr.consts.contains_key(name) {
                    return fail(e.pos, format!("{name} is a constant"));
                }
                let b = self.var(fr, name).clone();
                let (indices, many) = if b.is_array() {
                    let Some(n) = b.len() else {
                        return fail(e.pos, format!("whole assumed-size array {name}"));
                    };
                    ((0..check_size(n).at(e.pos)?).collect(), true)
                } else {
                    (vec![0], false)
                };
                Ok(Place {
                    binding: b,
                    indices,
                    pos: e.pos,
                    many,
                })
            }
            ExprKind::Apply { name, args } => {
                let Some(b) = fr.vars.get(name).filter(|b| b.is_array()).cloned() else {
                    return fail(e.pos, format!("{name} is not an array"));
                };
                let mut lists = Vec::with_capacity(args.len());
                let mut many = false;
                let mut total = 1usize;
                for (k, a) in args.iter().enumerate() {
                    if let ExprKind::Range {
                        lower,
                        upper,
                        stride,
                    } = &a.kind
                    {
                        many = true;
                        let dim = b.dims.get(k);
                        let lo = match lower {
                            Some(x) => self.eval_scalar(fr, x)?.as_int().at(x.pos)?,
                            None => dim.map_or(1, |d| d.lower),
                        };
                        let hi = match upper {
                            Some(x) => self.eval_scalar(fr, x)?.as_int().at(x.pos)?,
                            None => match dim.and_then(|d| d.upper) {
                                Some(u) => u,
                                None => return fail(
                                    a.pos,
                                    "section of an assumed-size dimension without an upper bound",
                                ),
                            },
                        };
                        let st = match stride {
                            Some(x) => self.eval_scalar(fr, x)?.as_int().at(x.pos)?,
                            None => 1,
                        };
                        if st == 0 {
                            return fail(a.pos, "section stride is zero");
                        }
                        let n = hi
                            .checked_sub(lo)
                            .and_then(|d| d.checked_add(st))
                            .map_or(i64::MAX, |d| d / st);
                        let n = check_size(usize::try_from(n).unwrap_or(0)).at(a.pos)?;
                        total = check_size(total.saturating_mul(n)).at(a.pos)?;
                        lists.push((0..n as i64).map(|j| lo + j * st).collect::<Vec<_>>());
                    } else {
                        lists.push(vec![self.eval_scalar(fr, a)?.as_int().at(a.pos)?]);
                    }
                }
                let mut indices = Vec::new();
                for subs in column_major(&lists) {
                    indices.push(b.linear(&subs).at(e.pos)?);
                }
                Ok(Place {
                    binding: b,
                    indices,
                    pos: e.pos,
                    many,
                })
            }
            _ => fail(e.pos, "not a variable"),
        }
    }

    /// Stores a value into a place; an array value must conform.
    pub(super) fn assign(&mut self, place: &Place, v: Val) -> Exec<()> {
        match v {
            Val::Scalar(v) => {
                for &i in &place.indices {
                    self.store(&place.binding, i, &v, place.pos, false)?;
                }
            }
            Val::Array(vs) => {
                if !place.many || vs.len() != place.indices.len() {
                    return fail(
                        place.pos,
                        "array value does not conform to the assigned variable",
                    );
                }
                for (&i, v) in place.indices.iter().zip(&vs) {
                    self.store(&place.binding, i, v, place.pos, false)?;
                }
            }
        }
        Ok(())
    }

    /// What a dummy argument gets: the cells of a variable or array element
    /// (sequence association), else a temporary holding the value.
    pub(super) fn actual(&mut self, fr: &mut Frame, e: &Expr) -> Exec<Actual> {
        let is_var = match &e.kind {
            ExprKind::Var(name) => !fr.consts.contains_key(name),
            ExprKind::Apply { name, .. } => fr.vars.get(name).is_some_and(Binding::is_array),
            _ => false,
        };
        if !is_var {
            return Ok(Actual::Temp(self.eval(fr, e)?.into_values()));
        }
        let place = self.place(fr, e)?;
        if place.many && matches!(e.kind, ExprKind::Apply { .. }) {
            return fail(
                e.pos,
                "an array section as actual argument is not supported by the judge",
            );
        }
        let first = place.indices.first().copied().unwrap_or(0);
        let origin = ArgOrigin {
            unit: self.current_unit(),
            pos: place.pos,
            var: place.binding.name.clone(),
            base: place.binding.offset,
            element_cells: place.binding.width,
            outer: place.binding.through.clone(),
        };
        Ok(Actual::Cells(Cells {
            storage: place.binding.storage,
            offset: place.binding.cell(first),
            through: Some(Rc::new(origin)),
        }))
    }
}

/// All subscript tuples of a section, first subscript varying fastest
/// (an odometer over the per-dimension lists, which keep their order).
fn column_major(lists: &[Vec<i64>]) -> Vec<Vec<i64>> {
    let mut out = Vec::new();
    if lists.iter().any(Vec::is_empty) {
        return out;
    }
    let mut digits = vec![0usize; lists.len()];
    loop {
        out.push(digits.iter().zip(lists).map(|(&d, l)| l[d]).collect());
        let mut k = 0;
        loop {
            let Some(list) = lists.get(k) else {
                return out;
            };
            digits[k] += 1;
            if digits[k] < list.len() {
                break;
            }
            digits[k] = 0;
            k += 1;
        }
    }
}

pub(super) fn map_val(v: Val, f: impl Fn(&Value) -> Result<Value, String>) -> Result<Val, String> {
    match v {
        Val::Scalar(x) => f(&x).map(Val::Scalar),
        Val::Array(xs) => xs.iter().map(f).collect::<Result<_, _>>().map(Val::Array),
    }
}

/// Applies an elemental operation: scalars broadcast, arrays must conform.
pub(super) fn zip_vals(
    args: &[Val],
    f: impl Fn(&[Value]) -> Result<Value, String>,
) -> Result<Val, String> {
    let len = args.iter().find_map(|a| match a {
        Val::Array(xs) => Some(xs.len()),
        Val::Scalar(_) => None,
    });
    let element = |k: usize| -> Result<Value, String> {
        let vs: Vec<Value> = args
            .iter()
            .map(|a| match a {
                Val::Scalar(x) => Ok(x.clone()),
                Val::Array(xs) => xs
                    .get(k)
                    .cloned()
                    .ok_or_else(|| "array operands do not conform".to_string()),
            })
            .collect::<Result<_, _>>()?;
        f(&vs)
    };
    match len {
        None => element(0).map(Val::Scalar),
        Some(n) => {
            if args
                .iter()
                .any(|a| matches!(a, Val::Array(xs) if xs.len() != n))
            {
                return Err("array operands do not conform".into());
            }
            (0..n)
                .map(element)
                .collect::<Result<_, _>>()
                .map(Val::Array)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::column_major;

    #[test]
    fn sections_enumerate_first_subscript_fastest() {
        let got = column_major(&[vec![2, 1], vec![5], vec![7, 8]]);
        assert_eq!(
            got,
            vec![vec![2, 5, 7], vec![1, 5, 7], vec![2, 5, 8], vec![1, 5, 8]]
        );
        assert!(column_major(&[vec![1], vec![]]).is_empty());
    }
}
