//! Array syntax: `section_dim(ref, dim, lower, upper, step)`, the
//! triplets of a reference to a section or a whole array, and
//! `array_assign(stmt, reduce, integer)`, the assignments in array syntax
//! that can be computed element by element (`A(2:N-1) = B(1:N-2) * 2`,
//! `L(2:N) = L(1:N-1) .NEQV. A(2:N) > 0`, `E = MAXVAL(ABS(B - A))`). They
//! describe the statement's form only: which of them run owner-computes,
//! and what they fetch, is for the rules to say (`rules/dl/comm.dl`,
//! `spmd_array`).

use kaiseki_facts::{ArrayAssign, SectionDim, SectionForm};

use super::affine::Form;

use super::UnitLowerer;
use crate::ast::{BinOp, Expr, ExprKind, TypeSpec, UnOp};
use crate::fold::{self, Const};
use crate::intrinsics::{ResultType, Ty};
use crate::symbols::{ApplyClass, NameClass};

/// The elemental numeric intrinsics taken (whether a value is INTEGER
/// comes from the intrinsics table's result type).
const ELEMENTAL: &[&str] = &[
    "ABS", "IABS", "MAX", "MAX0", "MIN", "MIN0", "MOD", "MODULO", "SIGN", "ISIGN", "DIM", "IDIM",
    "SQRT", "EXP", "LOG", "LOG10", "SIN", "COS", "TAN", "ASIN", "ACOS", "ATAN", "ATAN2", "SINH",
    "COSH", "TANH", "REAL", "FLOAT", "DBLE", "SNGL", "INT", "IFIX", "IDINT", "NINT", "AINT",
    "ANINT", "FLOOR", "CEILING", "DABS", "DSQRT", "DEXP", "DLOG", "DSIN", "DCOS", "AMAX1", "AMIN1",
    "DMAX1", "DMIN1", "AMOD", "DMOD", "DSIGN",
];

/// The reductions of `array_assign`.
const REDUCTIONS: &[&str] = &["MAXVAL", "MINVAL", "SUM"];

/// What an elemental expression is made of.
#[derive(Clone, Copy)]
struct Elemental {
    /// The number of section dimensions of its sections (0: none).
    rank: usize,
    /// It names an array or a section (not only elements and scalars).
    arrays: bool,
    integer: bool,
}

impl Elemental {
    fn scalar(integer: bool) -> Elemental {
        Elemental {
            rank: 0,
            arrays: false,
            integer,
        }
    }

    /// Both operands of one expression: sections must conform.
    fn and(self, other: Elemental) -> Option<Elemental> {
        if self.arrays && other.arrays && self.rank != other.rank {
            return None;
        }
        Some(Elemental {
            rank: self.rank.max(other.rank),
            arrays: self.arrays || other.arrays,
            integer: self.integer && other.integer,
        })
    }
}

impl<'a> UnitLowerer<'_, '_, 'a> {
    /// `section_dim` rows of reference `id` to array `name` written with
    /// subscripts `args` (none: the bare name).
    pub(super) fn section_dims(&mut self, id: i64, name: &str, args: &[Expr]) {
        let Some(rows) = self.triplets(name, args) else {
            return;
        };
        for (d, (lower, upper, step)) in rows.into_iter().enumerate() {
            self.g.facts.section_dim.push(SectionDim {
                r#ref: id,
                dim: d as i64 + 1,
                lower,
                upper,
                step,
            });
        }
    }

    /// `section_form` rows of reference `id` to array `name(args)` (no
    /// args: the bare name), when every bound is affine.
    pub(super) fn section_forms(&mut self, id: i64, name: &str, args: &[Expr]) {
        if let Some(rows) = self.triplet_forms(name, args) {
            self.emit_section_forms(id, rows);
        }
    }

    /// The `section_form` rows of reference `id`, one triplet per dimension.
    pub(super) fn emit_section_forms(&mut self, id: i64, rows: Vec<(Form, Form, i64)>) {
        for (d, (lower, upper, step)) in rows.into_iter().enumerate() {
            let lower = self.emit_form(&lower);
            let upper = self.emit_form(&upper);
            self.g.facts.section_form.push(SectionForm {
                r#ref: id,
                dim: d as i64 + 1,
                lower,
                upper,
                step,
            });
        }
    }

    /// The affine triplet of every dimension of `name(args)` (a subscript:
    /// its form twice, step 0). A bound the section omits is the declared
    /// one only when that is a constant: a declared `N` is N's value on
    /// entry, which a name in this statement's forms need not be.
    fn triplet_forms(&self, name: &str, args: &[Expr]) -> Option<Vec<(Form, Form, i64)>> {
        let dims = self.syms.dims(name);
        if !args.is_empty() && args.len() != dims.len() {
            return None;
        }
        let declared = |bound: Option<&Expr>, default: Option<i64>| -> Option<Form> {
            let c = match bound {
                Some(e) => self.affine(e)?.as_constant()?,
                None => default?,
            };
            Some(Form::constant(c))
        };
        let mut rows = Vec::new();
        for (d, spec) in dims.iter().enumerate() {
            let declared_lower = || declared(spec.lower.as_ref(), Some(1));
            let declared_upper = || declared(spec.upper.as_ref(), None);
            rows.push(match args.get(d).map(|a| &a.kind) {
                None => (declared_lower()?, declared_upper()?, 1),
                Some(ExprKind::Range {
                    lower,
                    upper,
                    stride,
                }) => {
                    let lower = match lower {
                        Some(e) => self.affine(e)?,
                        None => declared_lower()?,
                    };
                    let upper = match upper {
                        Some(e) => self.affine(e)?,
                        None => declared_upper()?,
                    };
                    let step = match stride {
                        Some(e) => self.affine(e)?.as_constant()?,
                        None => 1,
                    };
                    (step != 0).then_some((lower, upper, step))?
                }
                Some(_) => {
                    let f = self.affine(&args[d])?;
                    (f.clone(), f, 0)
                }
            });
        }
        Some(rows)
    }

    /// The triplet of every dimension of `name(args)`; `None` when a bound
    /// needed is not declared.
    fn triplets(&self, name: &str, args: &[Expr]) -> Option<Vec<(String, String, String)>> {
        let dims = self.syms.dims(name);
        if !args.is_empty() && args.len() != dims.len() {
            return None;
        }
        let text = |e: &Expr| fold::text(e, self.syms);
        let mut rows = Vec::new();
        for (d, spec) in dims.iter().enumerate() {
            let declared_lower = || spec.lower.as_ref().map_or_else(|| "1".to_string(), text);
            let declared_upper = || spec.upper.as_ref().map(text);
            match args.get(d).map(|a| &a.kind) {
                None => rows.push((declared_lower(), declared_upper()?, "1".to_string())),
                Some(ExprKind::Range {
                    lower,
                    upper,
                    stride,
                }) => rows.push((
                    lower.as_deref().map_or_else(declared_lower, text),
                    match upper {
                        Some(u) => text(u),
                        None => declared_upper()?,
                    },
                    stride.as_deref().map_or_else(|| "1".to_string(), text),
                )),
                Some(_) => {
                    let value = text(&args[d]);
                    rows.push((value.clone(), value, String::new()));
                }
            }
        }
        Some(rows)
    }

    /// `array_assign` of the assignment `stmt`: `lhs = rhs`.
    pub(super) fn array_assign(&mut self, stmt: i64, lhs: &Expr, rhs: &Expr) {
        let (reduce, expr) = match &rhs.kind {
            ExprKind::Apply { name, args }
                if REDUCTIONS.contains(&name.as_str())
                    && args.len() == 1
                    && matches!(
                        self.syms.classify_apply(name, args),
                        ApplyClass::Intrinsic(_)
                    ) =>
            {
                (name.as_str(), &args[0])
            }
            _ => ("", rhs),
        };
        let Some(e) = self.elemental(expr) else {
            return;
        };
        let fits = if reduce.is_empty() {
            self.elemental(lhs)
                .is_some_and(|l| l.arrays && (!e.arrays || e.rank == l.rank))
        } else {
            e.arrays
                && matches!(&lhs.kind, ExprKind::Var(n)
                    if self.syms.classify_name(n) == NameClass::Scalar && self.numeric(n).is_some())
        };
        if fits {
            self.g.facts.array_assign.push(ArrayAssign {
                stmt,
                reduce: reduce.to_string(),
                integer: i64::from(e.integer),
            });
        }
    }

    /// `Some(integer)` for an INTEGER, REAL or DOUBLE PRECISION name.
    fn numeric(&self, name: &str) -> Option<bool> {
        match self.syms.type_of(name) {
            TypeSpec::Integer => Some(true),
            TypeSpec::Real | TypeSpec::Double => Some(false),
            _ => None,
        }
    }

    /// What the elemental expression `e` is made of; `None` when it
    /// might not be elemental.
    fn elemental(&self, e: &Expr) -> Option<Elemental> {
        match &e.kind {
            ExprKind::Int(_) => Some(Elemental::scalar(true)),
            ExprKind::Real(_) => Some(Elemental::scalar(false)),
            ExprKind::Var(n) => match self.syms.classify_name(n) {
                NameClass::Constant => match self.syms.param(n)? {
                    Const::Int(_) => Some(Elemental::scalar(true)),
                    Const::Real(_) => Some(Elemental::scalar(false)),
                    _ => None,
                },
                NameClass::Scalar => self.element_type(n).map(Elemental::scalar),
                NameClass::Array => {
                    self.triplets(n, &[])?;
                    Some(Elemental {
                        rank: self.syms.rank(n),
                        arrays: true,
                        integer: self.element_type(n)?,
                    })
                }
                _ => None,
            },
            ExprKind::Apply { name, args } => match self.syms.classify_apply(name, args) {
                ApplyClass::Element => {
                    let integer = self.element_type(name)?;
                    if !args.iter().all(|a| self.subscript(a)) {
                        return None;
                    }
                    let rank = args
                        .iter()
                        .filter(|a| matches!(a.kind, ExprKind::Range { .. }))
                        .count();
                    if rank > 0 {
                        self.triplets(name, args)?;
                    }
                    Some(Elemental {
                        rank,
                        arrays: rank > 0,
                        integer,
                    })
                }
                ApplyClass::Intrinsic(f) if ELEMENTAL.contains(&name.as_str()) => {
                    let parts = args
                        .iter()
                        .map(|a| self.elemental(a))
                        .collect::<Option<Vec<_>>>()?;
                    let mut acc = Elemental::scalar(true);
                    for p in &parts {
                        acc = acc.and(*p)?;
                    }
                    acc.integer = match f.result {
                        ResultType::Of(t) => t == Ty::Integer,
                        ResultType::Argument(k) => parts.get(k).is_some_and(|p| p.integer),
                        ResultType::None => return None,
                    };
                    Some(acc)
                }
                _ => None,
            },
            ExprKind::Logical(_) => Some(Elemental::scalar(false)),
            ExprKind::Unary(UnOp::Neg | UnOp::Plus, x) => self.elemental(x),
            ExprKind::Binary(
                BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Pow,
                a,
                b,
            ) => self.elemental(a)?.and(self.elemental(b)?),
            // A LOGICAL value: never a SUM's.
            ExprKind::Unary(UnOp::Not, x) => Some(Elemental {
                integer: false,
                ..self.elemental(x)?
            }),
            ExprKind::Binary(
                BinOp::Eq
                | BinOp::Ne
                | BinOp::Lt
                | BinOp::Le
                | BinOp::Gt
                | BinOp::Ge
                | BinOp::And
                | BinOp::Or
                | BinOp::Eqv
                | BinOp::Neqv,
                a,
                b,
            ) => Some(Elemental {
                integer: false,
                ..self.elemental(a)?.and(self.elemental(b)?)?
            }),
            _ => None,
        }
    }

    /// [`Self::numeric`], and `Some(false)` for a LOGICAL name: the
    /// types an elemental expression may read.
    fn element_type(&self, name: &str) -> Option<bool> {
        match self.syms.type_of(name) {
            TypeSpec::Logical => Some(false),
            _ => self.numeric(name),
        }
    }

    /// Whether `e` is a subscript or a triplet of INTEGER scalars:
    /// literals, scalars, elements, arithmetic, MOD, MIN, MAX, ABS.
    fn subscript(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Range {
                lower,
                upper,
                stride,
            } => [lower, upper, stride]
                .into_iter()
                .flatten()
                .all(|b| self.subscript(b)),
            ExprKind::Int(_) => true,
            ExprKind::Var(n) => match self.syms.classify_name(n) {
                NameClass::Constant => matches!(self.syms.param(n), Some(Const::Int(_))),
                NameClass::Scalar => self.syms.is_integer_scalar(n),
                _ => false,
            },
            ExprKind::Apply { name, args } => {
                let scalar = match self.syms.classify_apply(name, args) {
                    ApplyClass::Element => self.numeric(name) == Some(true),
                    ApplyClass::Intrinsic(_) => {
                        matches!(name.as_str(), "MOD" | "MIN" | "MAX" | "ABS")
                    }
                    _ => false,
                };
                scalar
                    && args
                        .iter()
                        .all(|a| !matches!(a.kind, ExprKind::Range { .. }) && self.subscript(a))
            }
            ExprKind::Unary(UnOp::Neg | UnOp::Plus, x) => self.subscript(x),
            ExprKind::Binary(BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div, a, b) => {
                self.subscript(a) && self.subscript(b)
            }
            _ => false,
        }
    }
}
