//! The relations of one run, held for re-deriving rows: every table the
//! engine returned, indexed on demand by the columns a literal binds, and
//! a search for the body instances of a rule that hold in them. The search
//! evaluates each literal as the engines do (`LitKind::binds` order,
//! `kaiseki_engine::ops` arithmetic, the same functor registry), but over
//! finished relations: nothing is derived here, only looked up.

use kaiseki_engine::dl::ast::{AggKind, ArithOp, CmpOp};
use kaiseki_engine::dl::ir::{Const, LitKind, Program, RelId, Rule, Term};
use kaiseki_engine::{ops, FunctorContext, FunctorRegistry};
use kaiseki_facts::{FactBase, Table, Value};
use rustc_hash::{FxHashMap, FxHashSet};
use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

/// A variable's value in one rule instance (`None`: not bound yet).
pub type Env = Vec<Option<Value>>;

/// What each body literal matched, in body order: the row of an atom, the
/// value computed by an operation, a functor call or an aggregate.
pub type Matched = Vec<Option<Vec<Value>>>;

/// Which rows a body atom may read: given the literal's index in the
/// rule's body, its relation and the row.
pub type Allow<'f> = dyn Fn(usize, RelId, &[Value]) -> bool + 'f;

/// The rows (by position) of each key of some columns.
type Index = FxHashMap<Vec<Value>, Vec<usize>>;

/// One relation's rows with hash indexes on the column sets looked up.
#[derive(Default)]
struct Rel {
    rows: Vec<Vec<Value>>,
    /// The rows as a set, for a literal that binds every column; built on
    /// first use as the indexes are: a proof looks up a few relations,
    /// and a copy of every row of every relation held (a LAPACK routine's
    /// millions of dependence rows, for `kaiseki report`) was as large
    /// again as the rows.
    set: OnceCell<FxHashSet<Vec<Value>>>,
    index: RefCell<FxHashMap<Vec<usize>, Rc<Index>>>,
}

impl Rel {
    fn new(rows: Vec<Vec<Value>>) -> Rel {
        Rel {
            rows,
            set: OnceCell::new(),
            index: RefCell::default(),
        }
    }

    fn contains(&self, row: &[Value]) -> bool {
        self.set
            .get_or_init(|| self.rows.iter().cloned().collect())
            .contains(row)
    }

    /// The index of the rows by columns `cols` (not empty), built on
    /// first use.
    fn index(&self, cols: &[usize]) -> Rc<Index> {
        let mut index = self.index.borrow_mut();
        index
            .entry(cols.to_vec())
            .or_insert_with(|| {
                let mut m = Index::default();
                for (i, r) in self.rows.iter().enumerate() {
                    m.entry(cols.iter().map(|c| r[*c].clone()).collect())
                        .or_default()
                        .push(i);
                }
                Rc::new(m)
            })
            .clone()
    }
}

/// How far a failed search got: the most literals (in evaluation order)
/// that held on one branch, with that branch's bindings and matches.
#[derive(Clone, Debug, Default)]
pub struct Reach {
    pub held: usize,
    /// The body literal that failed next (`None`: the body held).
    pub failed: Option<usize>,
    pub env: Env,
    pub matched: Matched,
}

/// The relations of a run and the program that derived them.
pub struct Relations<'a> {
    pub ir: &'a Program,
    rels: Vec<Rel>,
    loaded: Vec<bool>,
    registry: &'a FunctorRegistry<FactBase>,
    ctx: FunctorContext<'a, FactBase>,
}

impl<'a> Relations<'a> {
    /// Holds the input relations of `facts` and the derived `tables` (by
    /// name), then computes the auxiliary relations of aggregates whose
    /// bodies read only what is held. Relations not given are not held.
    pub fn new(
        ir: &'a Program,
        facts: &'a FactBase,
        tables: Vec<Table>,
        registry: &'a FunctorRegistry<FactBase>,
    ) -> Relations<'a> {
        let by_name: HashMap<&str, RelId> = ir
            .relations
            .iter()
            .enumerate()
            .map(|(i, r)| (r.name.as_str(), i))
            .collect();
        let mut rels: Vec<Rel> = ir.relations.iter().map(|_| Rel::default()).collect();
        let mut loaded = vec![false; ir.relations.len()];
        for table in facts.tables().into_iter().chain(tables) {
            if let Some(&r) = by_name.get(table.name.as_str()) {
                rels[r] = Rel::new(table.rows);
                loaded[r] = true;
            }
        }
        let mut me = Relations {
            ir,
            rels,
            loaded,
            registry,
            ctx: FunctorContext::new(facts),
        };
        for stratum in &ir.strata {
            for &r in &stratum.relations {
                if !ir.relations[r].aggregate_body {
                    continue;
                }
                let rules: Vec<&Rule> = ir.rules.iter().filter(|rule| rule.head == r).collect();
                let readable = rules.iter().all(|rule| {
                    rule.body
                        .iter()
                        .filter_map(|l| l.kind.reads())
                        .all(|(read, _)| me.loaded[read])
                });
                if !readable {
                    continue;
                }
                let mut rows = Vec::new();
                for rule in rules {
                    me.instances(
                        rule,
                        vec![None; rule.vars.len()],
                        &|_, _, _| true,
                        &mut |env, _| {
                            rows.push(me.head(rule, env));
                            false
                        },
                    );
                }
                rows.sort();
                rows.dedup();
                me.rels[r] = Rel::new(rows);
                me.loaded[r] = true;
            }
        }
        me
    }

    /// Whether relation `rel` is held (given, or computed from what is).
    pub fn is_loaded(&self, rel: RelId) -> bool {
        self.loaded[rel]
    }

    pub fn rows(&self, rel: RelId) -> &[Vec<Value>] {
        &self.rels[rel].rows
    }

    pub fn contains(&self, rel: RelId, row: &[Value]) -> bool {
        self.rels[rel].contains(row)
    }

    /// The rows of `rel` that match `args` (`None`: any value).
    pub fn matching(&self, rel: RelId, args: &[Option<Value>]) -> Vec<&[Value]> {
        let rel = &self.rels[rel];
        let cols: Vec<usize> = (0..args.len()).filter(|c| args[*c].is_some()).collect();
        if cols.is_empty() {
            return rel.rows.iter().map(Vec::as_slice).collect();
        }
        let key: Vec<Value> = args.iter().flatten().cloned().collect();
        rel.index(&cols)
            .get(&key)
            .map(|ids| ids.iter().map(|i| rel.rows[*i].as_slice()).collect())
            .unwrap_or_default()
    }

    /// Whether a row of `rel` matches `args` (`None`: any value).
    pub fn any_matching(&self, rel: RelId, args: &[Option<Value>]) -> bool {
        if args.iter().all(Option::is_some) {
            let row: Vec<Value> = args.iter().flatten().cloned().collect();
            return self.contains(rel, &row);
        }
        !self.matching(rel, args).is_empty()
    }

    /// The value of a constant of the program.
    pub fn constant(&self, c: Const) -> Value {
        match c {
            Const::Number(n) => Value::Number(n),
            Const::Symbol(s) => Value::Symbol(self.ir.symbols[s as usize].clone()),
        }
    }

    /// Whether `v` is the constant `c` (without making its value).
    pub fn is_constant(&self, c: Const, v: &Value) -> bool {
        match (c, v) {
            (Const::Number(n), Value::Number(m)) => n == *m,
            (Const::Symbol(i), Value::Symbol(s)) => self.ir.symbols[i as usize] == *s,
            _ => false,
        }
    }

    /// The value of `t` under `env` (`None`: `_` or unbound).
    pub fn value(&self, t: &Term, env: &Env) -> Option<Value> {
        match t {
            Term::Var(v, _) => env[*v].clone(),
            Term::Const(c, _) => Some(self.constant(*c)),
            Term::Any(_) => None,
        }
    }

    /// The head of `rule` under `env` (every head variable is bound).
    pub fn head(&self, rule: &Rule, env: &Env) -> Vec<Value> {
        rule.head_args
            .iter()
            .map(|t| self.value(t, env).unwrap_or(Value::Number(0)))
            .collect()
    }

    /// The bindings under which `rule`'s head is `row`, if it can be.
    pub fn unify_head(&self, rule: &Rule, row: &[Option<Value>]) -> Option<Env> {
        let mut env = vec![None; rule.vars.len()];
        unify(self, &rule.head_args, row, &mut env).then_some(env)
    }

    /// The bindings under which body atom `lit` of `rule` reads `row`.
    pub fn bind_atom(&self, rule: &Rule, lit: usize, row: &[Option<Value>]) -> Option<Env> {
        let LitKind::Atom { args, .. } = &rule.body[lit].kind else {
            return None;
        };
        let mut env = vec![None; rule.vars.len()];
        unify(self, args, row, &mut env).then_some(env)
    }

    /// Calls `found` with each instance of `rule`'s body that holds,
    /// starting from `env`, until it returns true; atoms read only rows
    /// that `allow` accepts (given the literal's index in the body, its
    /// relation and the row). Returns how far the search got.
    pub fn instances(
        &self,
        rule: &Rule,
        env: Env,
        allow: &Allow,
        found: &mut dyn FnMut(&Env, &Matched) -> bool,
    ) -> Reach {
        let bound: Vec<bool> = env.iter().map(Option::is_some).collect();
        let (order, _) = rule.order_from(bound);
        let mut search = Search {
            relations: self,
            rule,
            order: &order,
            allow,
            found,
            reach: Reach::default(),
        };
        let mut env = env;
        let mut matched = vec![None; rule.body.len()];
        search.reach.failed = order.first().copied();
        search.reach.env = env.clone();
        search.reach.matched = matched.clone();
        search.step(0, &mut env, &mut matched);
        search.reach
    }

    /// The values a functor call returns.
    pub fn call(&self, functor: usize, args: &[Value]) -> Vec<Value> {
        let name = &self.ir.functors[functor].name;
        self.registry
            .get(name)
            .map(|spec| (spec.f)(&self.ctx, args))
            .unwrap_or_default()
    }

    /// The aggregate `kind` of column `target` over the rows of `rel`
    /// matching `args`; `None` when min or max has nothing to take.
    pub fn aggregate(
        &self,
        kind: AggKind,
        rel: RelId,
        args: &[Option<Value>],
        target: Option<usize>,
    ) -> Option<i64> {
        let rows = self.matching(rel, args);
        let values = rows
            .iter()
            .map(|r| target.map_or(0, |t| number(&r[t])))
            .collect::<Vec<i64>>();
        let one = |vs: Vec<i64>| vs.into_iter().next();
        match kind {
            AggKind::Count => one(ops::count(values.iter().map(|_| ())).collect()),
            AggKind::Sum => one(ops::sum(values.iter().map(|v| (v,))).collect()),
            AggKind::Min => one(ops::min(values.iter().map(|v| (v,))).collect()),
            AggKind::Max => one(ops::max(values.iter().map(|v| (v,))).collect()),
        }
    }
}

/// The number a value holds (symbols never reach arithmetic: the checker
/// of the rule language rejects that).
pub fn number(v: &Value) -> i64 {
    match v {
        Value::Number(n) => *n,
        Value::Symbol(_) => 0,
    }
}

/// `a op b`; `None` for a division or remainder with no result.
pub fn arith(op: ArithOp, a: i64, b: i64) -> Option<i64> {
    match op {
        ArithOp::Add => Some(ops::add(a, b)),
        ArithOp::Sub => Some(ops::sub(a, b)),
        ArithOp::Mul => Some(ops::mul(a, b)),
        ArithOp::Div => ops::div(a, b),
        ArithOp::Rem => ops::rem(a, b),
    }
}

/// Whether `a op b` holds (symbols compare only for (in)equality).
pub fn compare(op: CmpOp, a: &Value, b: &Value) -> bool {
    match op {
        CmpOp::Eq => a == b,
        CmpOp::Ne => a != b,
        _ => op.holds(number(a), number(b)),
    }
}

/// Whether `row` matches `args` (`None` in `row`: anything), binding the
/// unbound variables in `env`; `env` is left changed only on success.
fn unify(relations: &Relations, args: &[Term], row: &[Option<Value>], env: &mut Env) -> bool {
    let mut new = env.clone();
    for (t, x) in args.iter().zip(row) {
        let Some(x) = x else { continue };
        match t {
            Term::Any(_) => {}
            Term::Const(c, _) => {
                if relations.constant(*c) != *x {
                    return false;
                }
            }
            Term::Var(v, _) => match &new[*v] {
                Some(y) if y != x => return false,
                Some(_) => {}
                None => new[*v] = Some(x.clone()),
            },
        }
    }
    *env = new;
    true
}

struct Search<'s, 'a> {
    relations: &'s Relations<'a>,
    rule: &'s Rule,
    order: &'s [usize],
    allow: &'s Allow<'s>,
    found: &'s mut dyn FnMut(&Env, &Matched) -> bool,
    reach: Reach,
}

impl Search<'_, '_> {
    /// Evaluates literal `order[at]` and the rest; true: stop.
    fn step(&mut self, at: usize, env: &mut Env, matched: &mut Matched) -> bool {
        if at > self.reach.held {
            self.reach = Reach {
                held: at,
                failed: self.order.get(at).copied(),
                env: env.clone(),
                matched: matched.clone(),
            };
        }
        let Some(&lit) = self.order.get(at) else {
            return (self.found)(env, matched);
        };
        let (r, rule) = (self.relations, self.rule);
        // The variables unbound here, unbound again after each branch
        // (cheaper than saving the values: symbols are strings).
        let free: Vec<usize> = (0..env.len()).filter(|v| env[*v].is_none()).collect();
        let restore = |env: &mut Env| free.iter().for_each(|v| env[*v] = None);
        let go_on = |me: &mut Self, env: &mut Env, matched: &mut Matched, m: Vec<Value>| {
            matched[lit] = Some(m);
            let stop = me.step(at + 1, env, matched);
            matched[lit] = None;
            restore(env);
            stop
        };
        match &rule.body[lit].kind {
            LitKind::Atom { rel, args } => {
                let key: Vec<Option<Value>> = args.iter().map(|t| r.value(t, env)).collect();
                for row in r.matching(*rel, &key) {
                    if !(self.allow)(lit, *rel, row) {
                        continue;
                    }
                    if bind_row(r, args, row, env) && go_on(self, env, matched, row.to_vec()) {
                        return true;
                    }
                    restore(env);
                }
                false
            }
            LitKind::Not { rel, args } => {
                let key: Vec<Option<Value>> = args.iter().map(|t| r.value(t, env)).collect();
                !r.any_matching(*rel, &key) && go_on(self, env, matched, Vec::new())
            }
            LitKind::Compare { op, lhs, rhs } => match (r.value(lhs, env), r.value(rhs, env)) {
                (Some(a), Some(b)) => compare(*op, &a, &b) && go_on(self, env, matched, Vec::new()),
                (None, Some(v)) | (Some(v), None) => {
                    let var = lhs.var().filter(|x| env[*x].is_none()).or(rhs.var());
                    match var {
                        Some(x) => {
                            env[x] = Some(v);
                            go_on(self, env, matched, Vec::new())
                        }
                        None => false,
                    }
                }
                (None, None) => false,
            },
            LitKind::Arith { dst, op, lhs, rhs } => {
                let (Some(a), Some(b)) = (r.value(lhs, env), r.value(rhs, env)) else {
                    return false;
                };
                let Some(v) = arith(*op, number(&a), number(&b)) else {
                    return false;
                };
                bind(env, *dst, Value::Number(v))
                    && go_on(self, env, matched, vec![Value::Number(v)])
            }
            LitKind::Call { dst, functor, args } => {
                let Some(args) = args
                    .iter()
                    .map(|t| r.value(t, env))
                    .collect::<Option<Vec<_>>>()
                else {
                    return false;
                };
                for v in r.call(*functor, &args) {
                    if bind(env, *dst, v.clone()) && go_on(self, env, matched, vec![v]) {
                        return true;
                    }
                    restore(env);
                }
                false
            }
            LitKind::Aggregate {
                dst,
                kind,
                rel,
                args,
                target,
            } => {
                let key: Vec<Option<Value>> = args.iter().map(|t| r.value(t, env)).collect();
                match r.aggregate(*kind, *rel, &key, *target) {
                    Some(v) => {
                        let v = Value::Number(v);
                        bind(env, *dst, v.clone()) && go_on(self, env, matched, vec![v])
                    }
                    None => false,
                }
            }
        }
    }
}

/// Whether `row` matches `args`, binding the unbound variables in `env`
/// (on failure some may be left bound: the caller unbinds them).
fn bind_row(relations: &Relations, args: &[Term], row: &[Value], env: &mut Env) -> bool {
    args.iter().zip(row).all(|(t, x)| match t {
        Term::Any(_) => true,
        Term::Const(c, _) => relations.is_constant(*c, x),
        Term::Var(v, _) => match &env[*v] {
            Some(y) => y == x,
            None => {
                env[*v] = Some(x.clone());
                true
            }
        },
    })
}

/// Binds `var` to `v`, or checks it already holds `v`.
fn bind(env: &mut Env, var: usize, v: Value) -> bool {
    match &env[var] {
        Some(x) => *x == v,
        None => {
            env[var] = Some(v);
            true
        }
    }
}
