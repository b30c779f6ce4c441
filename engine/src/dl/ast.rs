//! The syntax tree of rule files, as written (before checking and lowering).

use super::diag::Pos;

/// The two column types (Soufflé's `number` and `symbol`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Number,
    Symbol,
}

impl Type {
    pub fn name(self) -> &'static str {
        match self {
            Type::Number => "number",
            Type::Symbol => "symbol",
        }
    }
}

#[derive(Clone, Debug)]
pub enum Item {
    /// `.decl name(col: type, ...)`
    Decl(Decl),
    /// `.input a, b` / `.output a` (IO options are accepted and ignored).
    Io {
        output: bool,
        names: Vec<(String, Pos)>,
    },
    /// `.functor name(arg: type, ...): type`
    Functor(FunctorDecl),
    /// A rule or a fact (`body` empty): `h1(..), h2(..) :- body.`
    Rule(Rule),
}

#[derive(Clone, Debug)]
pub struct Decl {
    pub name: String,
    pub pos: Pos,
    pub columns: Vec<(String, Type)>,
}

#[derive(Clone, Debug)]
pub struct FunctorDecl {
    pub name: String,
    pub pos: Pos,
    pub args: Vec<Type>,
    pub result: Type,
}

#[derive(Clone, Debug)]
pub struct Rule {
    pub heads: Vec<Atom>,
    /// A disjunction of conjunctions; a fact has one empty conjunction.
    pub body: Disjunction,
}

pub type Disjunction = Vec<Vec<Literal>>;

#[derive(Clone, Debug)]
pub struct Atom {
    pub name: String,
    pub pos: Pos,
    pub args: Vec<Expr>,
}

#[derive(Clone, Debug)]
pub enum Literal {
    Atom(Atom),
    Negated(Atom),
    Compare {
        op: CmpOp,
        lhs: Expr,
        rhs: Expr,
        pos: Pos,
    },
    /// A parenthesized disjunction.
    Group(Disjunction),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl CmpOp {
    pub fn spelling(self) -> &'static str {
        match self {
            CmpOp::Eq => "=",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }

    /// Applied to two numbers (ordering) or two interned symbols (`=`/`!=` only).
    pub fn holds(self, a: i64, b: i64) -> bool {
        match self {
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArithOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

impl ArithOp {
    pub fn spelling(self) -> &'static str {
        match self {
            ArithOp::Add => "+",
            ArithOp::Sub => "-",
            ArithOp::Mul => "*",
            ArithOp::Div => "/",
            ArithOp::Rem => "%",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AggKind {
    Count,
    Sum,
    Min,
    Max,
}

impl AggKind {
    pub fn name(self) -> &'static str {
        match self {
            AggKind::Count => "count",
            AggKind::Sum => "sum",
            AggKind::Min => "min",
            AggKind::Max => "max",
        }
    }
}

#[derive(Clone, Debug)]
pub enum Expr {
    Var(String, Pos),
    Wildcard(Pos),
    Number(i64, Pos),
    Str(String, Pos),
    Neg(Box<Expr>, Pos),
    Binary(ArithOp, Box<Expr>, Box<Expr>, Pos),
    /// `@name(args)`, or an intrinsic spelled without `@` (`cat`, `to_number`, `to_string`).
    Call(String, Vec<Expr>, Pos),
    /// `count : { body }`, `sum X : { body }`, ...
    Aggregate(Box<Aggregate>),
}

#[derive(Clone, Debug)]
pub struct Aggregate {
    pub kind: AggKind,
    pub target: Option<Expr>,
    pub body: Disjunction,
    pub pos: Pos,
}

impl Expr {
    pub fn pos(&self) -> Pos {
        match self {
            Expr::Var(_, p)
            | Expr::Wildcard(p)
            | Expr::Number(_, p)
            | Expr::Str(_, p)
            | Expr::Neg(_, p)
            | Expr::Binary(_, _, _, p)
            | Expr::Call(_, _, p) => *p,
            Expr::Aggregate(a) => a.pos,
        }
    }
}
