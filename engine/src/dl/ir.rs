//! The checked program that both engines run: relations, and rules whose
//! bodies are flat lists of simple literals (atoms, negations, comparisons
//! of terms, one arithmetic operation, one functor call, one aggregate).
//! Lowering produces it from the syntax tree (disjunctions split into
//! rules, expressions cut into temporaries, aggregate bodies moved into
//! auxiliary relations), so the interpreter and the Ascent translation
//! handle only these few shapes, and handle them the same way.

use super::ast::{AggKind, ArithOp, CmpOp, Type};
use super::diag::Pos;

pub type RelId = usize;
pub type VarId = usize;

#[derive(Clone, Debug)]
pub struct Program {
    /// Declared relations in declaration order, then the auxiliary relations.
    pub relations: Vec<Relation>,
    pub functors: Vec<FunctorSig>,
    /// The symbol constants of the rules; constant `i` is interned as `i`
    /// (both engines intern these first, in this order).
    pub symbols: Vec<String>,
    pub rules: Vec<Rule>,
    /// Evaluation order: each stratum depends only on earlier ones.
    pub strata: Vec<Stratum>,
}

#[derive(Clone, Debug)]
pub struct Relation {
    pub name: String,
    pub columns: Vec<(String, Type)>,
    pub input: bool,
    pub output: bool,
    pub pos: Pos,
    /// An auxiliary relation holding the tuples of one aggregate's body.
    pub aggregate_body: bool,
}

impl Relation {
    pub fn arity(&self) -> usize {
        self.columns.len()
    }
}

#[derive(Clone, Debug)]
pub struct FunctorSig {
    pub name: String,
    pub args: Vec<Type>,
    pub result: Type,
    /// Its `.functor` declaration, or the first call of an intrinsic.
    pub pos: Pos,
}

impl FunctorSig {
    /// `name(number, symbol): symbol`
    pub fn signature(&self) -> String {
        let args: Vec<&str> = self.args.iter().map(|t| t.name()).collect();
        format!("{}({}): {}", self.name, args.join(", "), self.result.name())
    }
}

#[derive(Clone, Debug)]
pub struct Rule {
    pub head: RelId,
    pub head_args: Vec<Term>,
    pub body: Vec<Literal>,
    pub vars: Vec<Var>,
    pub pos: Pos,
}

#[derive(Clone, Debug)]
pub struct Var {
    pub name: String,
    /// Known after type checking.
    pub ty: Option<Type>,
    /// A temporary made by lowering (never named in error messages).
    pub temp: bool,
    /// A temporary standing for an expression argument of a body atom
    /// (`cfg_edge(X - 1, E)`): its `=` binds it when the expression is
    /// known first, so the atom looks the value up by index instead of
    /// scanning the relation; else the atom binds it and `=` filters.
    pub arg: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Const {
    Number(i64),
    /// An index into [`Program::symbols`].
    Symbol(u32),
}

impl Const {
    /// The value in a row: numbers as themselves, symbols as their interned id.
    pub fn value(self) -> i64 {
        match self {
            Const::Number(n) => n,
            Const::Symbol(s) => s as i64,
        }
    }

    pub fn ty(self) -> Type {
        match self {
            Const::Number(_) => Type::Number,
            Const::Symbol(_) => Type::Symbol,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Term {
    Var(VarId, Pos),
    Const(Const, Pos),
    /// `_`: only in the arguments of body atoms, negations and aggregates.
    Any(Pos),
}

impl Term {
    pub fn pos(self) -> Pos {
        match self {
            Term::Var(_, p) | Term::Const(_, p) | Term::Any(p) => p,
        }
    }

    pub fn var(self) -> Option<VarId> {
        match self {
            Term::Var(v, _) => Some(v),
            _ => None,
        }
    }
}

/// Where a literal came from, to say where an unbound variable stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Context {
    Atom,
    Negation,
    Comparison,
    Head,
    FunctorArg,
    AtomArg,
    Aggregate,
}

#[derive(Clone, Debug)]
pub struct Literal {
    pub kind: LitKind,
    pub pos: Pos,
    pub context: Context,
}

#[derive(Clone, Debug)]
pub enum LitKind {
    Atom {
        rel: RelId,
        args: Vec<Term>,
    },
    Not {
        rel: RelId,
        args: Vec<Term>,
    },
    /// `=` binds a side that is a lone unbound variable; otherwise a filter.
    Compare {
        op: CmpOp,
        lhs: Term,
        rhs: Term,
    },
    /// `dst = lhs op rhs` (unary minus is `0 - x`); no binding when the
    /// operation is undefined (division by zero).
    Arith {
        dst: VarId,
        op: ArithOp,
        lhs: Term,
        rhs: Term,
    },
    /// `dst` takes each value the functor returns (none, one or several).
    Call {
        dst: VarId,
        functor: usize,
        args: Vec<Term>,
    },
    /// `dst = kind` over the tuples of the auxiliary relation `rel` that
    /// match `args` (the variables shared with the rule, `_` elsewhere);
    /// the aggregated value is column `target`.
    Aggregate {
        dst: VarId,
        kind: AggKind,
        rel: RelId,
        args: Vec<Term>,
        target: Option<usize>,
    },
}

/// A set of mutually recursive relations and the rules that derive them.
#[derive(Clone, Debug)]
pub struct Stratum {
    pub relations: Vec<RelId>,
    pub rules: Vec<usize>,
    /// Some rule reads a relation of this stratum: needs a fixpoint loop.
    pub recursive: bool,
}

impl LitKind {
    /// The variables this literal binds when evaluated with `bound` known,
    /// or `None` when it cannot be evaluated yet. Both engines order
    /// literals with this, so they agree on what binds and what filters.
    /// `=` never binds a temporary but an atom's argument: the others
    /// have their own binder (the operation that computes them).
    pub fn binds(&self, bound: &[bool], vars: &[Var]) -> Option<Vec<VarId>> {
        let bindable = |t: &Term| t.var().filter(|v| !vars[*v].temp || vars[*v].arg);
        let is_bound = |t: &Term| match t {
            Term::Var(v, _) => bound[*v],
            Term::Const(..) | Term::Any(_) => true,
        };
        let all_bound = |ts: &[Term]| ts.iter().all(is_bound);
        match self {
            LitKind::Atom { args, .. } => {
                let mut new: Vec<VarId> = args
                    .iter()
                    .filter_map(|t| t.var())
                    .filter(|v| !bound[*v])
                    .collect();
                new.sort_unstable();
                new.dedup();
                Some(new)
            }
            LitKind::Not { args, .. } => all_bound(args).then(Vec::new),
            LitKind::Compare { op, lhs, rhs } => match (is_bound(lhs), is_bound(rhs)) {
                (true, true) => Some(Vec::new()),
                (false, true) if *op == CmpOp::Eq => bindable(lhs).map(|v| vec![v]),
                (true, false) if *op == CmpOp::Eq => bindable(rhs).map(|v| vec![v]),
                _ => None,
            },
            LitKind::Arith { dst, lhs, rhs, .. } => {
                (is_bound(lhs) && is_bound(rhs)).then(|| vec![*dst])
            }
            LitKind::Call { dst, args, .. } => all_bound(args).then(|| vec![*dst]),
            LitKind::Aggregate { dst, args, .. } => all_bound(args).then(|| vec![*dst]),
        }
    }

    /// The relation read, with whether the dependency is monotone (a positive atom).
    pub fn reads(&self) -> Option<(RelId, bool)> {
        match self {
            LitKind::Atom { rel, .. } => Some((*rel, true)),
            LitKind::Not { rel, .. } | LitKind::Aggregate { rel, .. } => Some((*rel, false)),
            _ => None,
        }
    }

    /// Every term the literal reads or binds.
    pub fn terms(&self) -> Vec<Term> {
        match self {
            LitKind::Atom { args, .. }
            | LitKind::Not { args, .. }
            | LitKind::Aggregate { args, .. }
            | LitKind::Call { args, .. } => args.clone(),
            LitKind::Compare { lhs, rhs, .. } | LitKind::Arith { lhs, rhs, .. } => {
                vec![*lhs, *rhs]
            }
        }
    }
}

impl Rule {
    /// An evaluation order in which every literal's inputs are bound: body
    /// atoms in the order written, every other literal as soon as it can
    /// run. Returns the order and the literals that can never run.
    pub fn source_order(&self) -> (Vec<usize>, Vec<usize>) {
        self.order_from(vec![false; self.vars.len()])
    }

    /// [`Rule::source_order`] starting with the variables of `bound` known.
    pub fn order_from(&self, mut bound: Vec<bool>) -> (Vec<usize>, Vec<usize>) {
        let mut placed = vec![false; self.body.len()];
        let mut order = Vec::new();
        loop {
            let ready = (0..self.body.len()).find_map(|i| {
                let lit = &self.body[i].kind;
                if placed[i] || matches!(lit, LitKind::Atom { .. }) {
                    return None;
                }
                lit.binds(&bound, &self.vars).map(|b| (i, b))
            });
            let next = ready.or_else(|| {
                (0..self.body.len()).find_map(|i| {
                    let lit = &self.body[i].kind;
                    (!placed[i] && matches!(lit, LitKind::Atom { .. }))
                        .then(|| (i, lit.binds(&bound, &self.vars).unwrap_or_default()))
                })
            });
            let Some((i, binds)) = next else { break };
            placed[i] = true;
            order.push(i);
            for v in binds {
                bound[v] = true;
            }
        }
        let unplaced = (0..self.body.len()).filter(|i| !placed[*i]).collect();
        (order, unplaced)
    }
}
