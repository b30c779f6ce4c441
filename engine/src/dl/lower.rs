//! From the syntax tree to the flat rules of [`super::ir`]: resolves
//! relation and functor names, checks arities, splits disjunctions and
//! multi-head rules into plain rules, cuts expressions into temporaries and
//! moves each aggregate's body into an auxiliary relation (so aggregates,
//! like negation, read a relation of a lower stratum).
//!
//! Aggregate scope: a variable of an aggregate's body is shared with the
//! clause directly around the aggregate when it also occurs there outside
//! any aggregate; then it groups the aggregate (it must be bound outside).
//! Every other variable is local and must be bound by an atom of the body.

use super::ast::{self, ArithOp, CmpOp, Expr, Item, Type};
use super::diag::{Diagnostic, Pos, Sources};
use super::ir::*;
use std::collections::{HashMap, HashSet};

/// The signatures of the intrinsic functors (no `.functor` needed).
pub fn intrinsic(name: &str, pos: Pos) -> Option<FunctorSig> {
    let (args, result) = match name {
        "cat" => (vec![Type::Symbol, Type::Symbol], Type::Symbol),
        "to_number" => (vec![Type::Symbol], Type::Number),
        "to_string" => (vec![Type::Number], Type::Symbol),
        "range" => (vec![Type::Number, Type::Number], Type::Number),
        _ => return None,
    };
    Some(FunctorSig {
        name: name.to_string(),
        args,
        result,
        pos,
    })
}

struct Lowerer<'a> {
    sources: &'a Sources,
    relations: Vec<Relation>,
    rel_index: HashMap<String, RelId>,
    functors: Vec<FunctorSig>,
    functor_index: HashMap<String, usize>,
    symbols: Vec<String>,
    symbol_index: HashMap<String, u32>,
    rules: Vec<Rule>,
    diags: Vec<Diagnostic>,
}

/// The rule being built: its variables and body literals.
#[derive(Default)]
struct Builder {
    vars: Vec<Var>,
    var_index: HashMap<String, VarId>,
    body: Vec<Literal>,
    /// In an aggregate body, `_` in an atom becomes a variable so that the
    /// auxiliary relation keeps every matching combination of tuples.
    wildcards_as_vars: bool,
}

impl Builder {
    fn var(&mut self, name: &str) -> VarId {
        if let Some(v) = self.var_index.get(name) {
            return *v;
        }
        let v = self.vars.len();
        self.vars.push(Var {
            name: name.to_string(),
            ty: None,
            temp: false,
            arg: false,
        });
        self.var_index.insert(name.to_string(), v);
        v
    }

    fn temp(&mut self) -> VarId {
        let v = self.vars.len();
        self.vars.push(Var {
            name: format!("_t{v}"),
            ty: None,
            temp: true,
            arg: false,
        });
        v
    }

    /// A temporary for an expression argument of a body atom ([`Var::arg`]).
    fn arg_temp(&mut self) -> VarId {
        let v = self.temp();
        self.vars[v].arg = true;
        v
    }

    fn push(&mut self, kind: LitKind, pos: Pos, context: Context) {
        self.body.push(Literal { kind, pos, context });
    }
}

/// The variable names of literals and expressions, not looking inside aggregates.
fn names_outside_aggregates(exprs: &[&Expr], lits: &[&ast::Literal], out: &mut HashSet<String>) {
    fn expr(e: &Expr, out: &mut HashSet<String>) {
        match e {
            Expr::Var(n, _) => {
                out.insert(n.clone());
            }
            Expr::Neg(a, _) => expr(a, out),
            Expr::Binary(_, a, b, _) => {
                expr(a, out);
                expr(b, out);
            }
            Expr::Call(_, args, _) => args.iter().for_each(|a| expr(a, out)),
            Expr::Wildcard(_) | Expr::Number(..) | Expr::Str(..) | Expr::Aggregate(_) => {}
        }
    }
    exprs.iter().for_each(|e| expr(e, out));
    for lit in lits {
        match lit {
            ast::Literal::Atom(a) | ast::Literal::Negated(a) => {
                a.args.iter().for_each(|e| expr(e, out))
            }
            ast::Literal::Compare { lhs, rhs, .. } => {
                expr(lhs, out);
                expr(rhs, out);
            }
            ast::Literal::Group(d) => {
                for conj in d {
                    let lits: Vec<&ast::Literal> = conj.iter().collect();
                    names_outside_aggregates(&[], &lits, out);
                }
            }
        }
    }
}

/// Expands parenthesized disjunctions: a list of plain conjunctions.
fn dnf(d: &ast::Disjunction) -> Vec<Vec<&ast::Literal>> {
    let mut out = Vec::new();
    for conj in d {
        let mut partial: Vec<Vec<&ast::Literal>> = vec![Vec::new()];
        for lit in conj {
            match lit {
                ast::Literal::Group(g) => {
                    let alts = dnf(g);
                    partial = partial
                        .iter()
                        .flat_map(|p| {
                            alts.iter()
                                .map(move |a| p.iter().chain(a).copied().collect())
                        })
                        .collect();
                }
                other => partial.iter_mut().for_each(|p| p.push(other)),
            }
        }
        out.extend(partial);
    }
    out
}

impl Lowerer<'_> {
    fn error(&mut self, pos: Pos, message: impl Into<String>) {
        self.diags.push(Diagnostic::new(pos, message));
    }

    fn where_is(&self, pos: Pos) -> String {
        let file = self
            .sources
            .files
            .get(pos.file as usize)
            .map(|f| f.0.as_str())
            .unwrap_or("?");
        format!("{file}:{}:{}", pos.line, pos.col)
    }

    fn declare(&mut self, d: &ast::Decl) {
        if let Some(&r) = self.rel_index.get(&d.name) {
            let first = self.where_is(self.relations[r].pos);
            return self.error(
                d.pos,
                format!("relation `{}` is declared twice (first at {first})", d.name),
            );
        }
        self.rel_index.insert(d.name.clone(), self.relations.len());
        self.relations.push(Relation {
            name: d.name.clone(),
            columns: d.columns.clone(),
            input: false,
            output: false,
            pos: d.pos,
            aggregate_body: false,
        });
    }

    fn declare_functor(&mut self, f: &ast::FunctorDecl) {
        let sig = FunctorSig {
            name: f.name.clone(),
            args: f.args.clone(),
            result: f.result,
            pos: f.pos,
        };
        if self.functor_index.contains_key(&f.name) {
            return self.error(f.pos, format!("functor `{}` is declared twice", f.name));
        }
        if let Some(i) = intrinsic(&f.name, f.pos).filter(|i| i.signature() != sig.signature()) {
            return self.error(
                f.pos,
                format!(
                    "`.functor {}` differs from the intrinsic `{}`",
                    sig.signature(),
                    i.signature()
                ),
            );
        }
        self.functor_index
            .insert(f.name.clone(), self.functors.len());
        self.functors.push(sig);
    }

    fn relation(&mut self, name: &str, pos: Pos, arity: Option<usize>) -> Option<RelId> {
        let Some(&r) = self.rel_index.get(name) else {
            self.error(pos, format!("unknown relation `{name}`"));
            return None;
        };
        let declared = self.relations[r].arity();
        match arity {
            Some(n) if n != declared => {
                self.error(
                    pos,
                    format!("`{name}` has {declared} columns but {n} arguments are given"),
                );
                None
            }
            _ => Some(r),
        }
    }

    fn functor(&mut self, name: &str, pos: Pos, nargs: usize) -> Option<usize> {
        let f = match self.functor_index.get(name) {
            Some(&f) => f,
            None => {
                let Some(sig) = intrinsic(name, pos) else {
                    self.error(
                        pos,
                        format!(
                            "unknown functor `@{name}` (declare it: `.functor {name}(a: number): symbol`)"
                        ),
                    );
                    return None;
                };
                self.functor_index
                    .insert(name.to_string(), self.functors.len());
                self.functors.push(sig);
                self.functors.len() - 1
            }
        };
        let want = self.functors[f].args.len();
        if want != nargs {
            self.error(
                pos,
                format!("functor `{name}` takes {want} arguments but {nargs} are given"),
            );
            return None;
        }
        Some(f)
    }

    fn symbol(&mut self, s: &str) -> Const {
        let next = self.symbols.len() as u32;
        let id = *self.symbol_index.entry(s.to_string()).or_insert(next);
        if id == next {
            self.symbols.push(s.to_string());
        }
        Const::Symbol(id)
    }

    /// Lowers an expression to a term, adding literals for its operations.
    fn flatten(
        &mut self,
        e: &Expr,
        ctx: Context,
        b: &mut Builder,
        shared: &HashSet<String>,
    ) -> Term {
        match e {
            Expr::Var(n, p) => Term::Var(b.var(n), *p),
            Expr::Number(n, p) => Term::Const(Const::Number(*n), *p),
            Expr::Str(s, p) => Term::Const(self.symbol(s), *p),
            Expr::Wildcard(p) => {
                self.error(*p, "`_` can only be an argument of a body atom");
                Term::Any(*p)
            }
            Expr::Neg(a, p) => {
                let zero = Term::Const(Const::Number(0), *p);
                let a = self.flatten(a, ctx, b, shared);
                self.arith(ArithOp::Sub, zero, a, *p, ctx, b)
            }
            Expr::Binary(op, l, r, p) => {
                let l = self.flatten(l, ctx, b, shared);
                let r = self.flatten(r, ctx, b, shared);
                self.arith(*op, l, r, *p, ctx, b)
            }
            Expr::Call(name, args, p) => {
                let f = self.functor(name, *p, args.len());
                let args: Vec<Term> = args
                    .iter()
                    .map(|a| self.flatten(a, Context::FunctorArg, b, shared))
                    .collect();
                let dst = b.temp();
                if let Some(functor) = f {
                    b.push(
                        LitKind::Call { dst, functor, args },
                        *p,
                        Context::FunctorArg,
                    );
                }
                Term::Var(dst, *p)
            }
            Expr::Aggregate(a) => self.aggregate(a, b, shared),
        }
    }

    fn arith(
        &mut self,
        op: ArithOp,
        lhs: Term,
        rhs: Term,
        pos: Pos,
        ctx: Context,
        b: &mut Builder,
    ) -> Term {
        let dst = b.temp();
        b.push(LitKind::Arith { dst, op, lhs, rhs }, pos, ctx);
        Term::Var(dst, pos)
    }

    /// An argument of a body atom: a variable, a constant or `_`; any other
    /// expression becomes a fresh variable equal to it.
    fn atom_arg(
        &mut self,
        e: &Expr,
        ctx: Context,
        b: &mut Builder,
        shared: &HashSet<String>,
    ) -> Term {
        match e {
            Expr::Wildcard(p) if b.wildcards_as_vars && ctx == Context::Atom => {
                Term::Var(b.temp(), *p)
            }
            Expr::Wildcard(p) => Term::Any(*p),
            Expr::Var(..) | Expr::Number(..) | Expr::Str(..) => self.flatten(e, ctx, b, shared),
            _ if ctx == Context::Atom => {
                let p = e.pos();
                let fresh = b.arg_temp();
                let value = self.flatten(e, Context::AtomArg, b, shared);
                b.push(
                    LitKind::Compare {
                        op: CmpOp::Eq,
                        lhs: Term::Var(fresh, p),
                        rhs: value,
                    },
                    p,
                    Context::AtomArg,
                );
                Term::Var(fresh, p)
            }
            _ => self.flatten(e, ctx, b, shared),
        }
    }

    fn literal(&mut self, lit: &ast::Literal, b: &mut Builder, shared: &HashSet<String>) {
        match lit {
            ast::Literal::Atom(a) | ast::Literal::Negated(a) => {
                let positive = matches!(lit, ast::Literal::Atom(_));
                let ctx = if positive {
                    Context::Atom
                } else {
                    Context::Negation
                };
                let rel = self.relation(&a.name, a.pos, Some(a.args.len()));
                let args: Vec<Term> = a
                    .args
                    .iter()
                    .map(|e| self.atom_arg(e, ctx, b, shared))
                    .collect();
                if let Some(rel) = rel {
                    let kind = if positive {
                        LitKind::Atom { rel, args }
                    } else {
                        LitKind::Not { rel, args }
                    };
                    b.push(kind, a.pos, ctx);
                }
            }
            ast::Literal::Compare { op, lhs, rhs, pos } => {
                let lhs = self.flatten(lhs, Context::Comparison, b, shared);
                let rhs = self.flatten(rhs, Context::Comparison, b, shared);
                b.push(
                    LitKind::Compare { op: *op, lhs, rhs },
                    *pos,
                    Context::Comparison,
                );
            }
            // Expanded into separate rules by `dnf` before lowering.
            ast::Literal::Group(_) => {}
        }
    }

    /// Moves the aggregate's body into an auxiliary relation
    /// `(shared variables..., target, other variables...)` and returns the
    /// temporary holding the aggregate's value.
    fn aggregate(
        &mut self,
        a: &ast::Aggregate,
        outer: &mut Builder,
        shared: &HashSet<String>,
    ) -> Term {
        let dst = outer.temp();
        let mut conjs = dnf(&a.body);
        if conjs.len() != 1 {
            self.error(a.pos, "a disjunction inside an aggregate is not supported");
            return Term::Var(dst, a.pos);
        }
        let conj = conjs.remove(0);
        let mut inner_shared = HashSet::new();
        let target_exprs: Vec<&Expr> = a.target.iter().collect();
        names_outside_aggregates(&target_exprs, &conj, &mut inner_shared);
        let mut b = Builder {
            wildcards_as_vars: true,
            ..Builder::default()
        };
        for lit in &conj {
            self.literal(lit, &mut b, &inner_shared);
        }
        let target = a
            .target
            .as_ref()
            .map(|t| self.flatten(t, Context::Aggregate, &mut b, &inner_shared));
        let group: Vec<String> = b
            .vars
            .iter()
            .filter(|v| !v.temp && shared.contains(&v.name) && inner_shared.contains(&v.name))
            .map(|v| v.name.clone())
            .collect();
        let mut head_args: Vec<Term> = group
            .iter()
            .map(|n| Term::Var(b.var_index[n], a.pos))
            .collect();
        head_args.extend(target);
        let in_head: HashSet<VarId> = head_args.iter().filter_map(|t| t.var()).collect();
        head_args.extend(
            (0..b.vars.len())
                .filter(|v| !in_head.contains(v))
                .map(|v| Term::Var(v, a.pos)),
        );
        let rel = self.relations.len();
        self.relations.push(Relation {
            name: format!("@agg{rel}"),
            columns: head_args
                .iter()
                .map(|t| match t {
                    Term::Var(v, _) => (b.vars[*v].name.clone(), Type::Number),
                    _ => ("value".to_string(), Type::Number),
                })
                .collect(),
            input: false,
            output: false,
            pos: a.pos,
            aggregate_body: true,
        });
        let mut args: Vec<Term> = group
            .iter()
            .map(|n| Term::Var(outer.var(n), a.pos))
            .collect();
        let width = head_args.len();
        args.resize(width, Term::Any(a.pos));
        self.rules.push(Rule {
            head: rel,
            head_args,
            body: b.body,
            vars: b.vars,
            pos: a.pos,
        });
        let target = a.target.as_ref().map(|_| group.len());
        outer.push(
            LitKind::Aggregate {
                dst,
                kind: a.kind,
                rel,
                args,
                target,
            },
            a.pos,
            Context::Aggregate,
        );
        Term::Var(dst, a.pos)
    }

    fn rule(&mut self, r: &ast::Rule) {
        for head in &r.heads {
            let head_rel = self.relation(&head.name, head.pos, Some(head.args.len()));
            for conj in dnf(&r.body) {
                // A rule with an error is dropped, so that the checks after
                // lowering do not report its consequences.
                let errors_before = self.diags.len();
                let mut shared = HashSet::new();
                let head_exprs: Vec<&Expr> = head.args.iter().collect();
                names_outside_aggregates(&head_exprs, &conj, &mut shared);
                let mut b = Builder::default();
                for lit in &conj {
                    self.literal(lit, &mut b, &shared);
                }
                let head_args: Vec<Term> = head
                    .args
                    .iter()
                    .map(|e| match e {
                        Expr::Wildcard(p) => {
                            self.error(*p, "`_` cannot stand in a head");
                            Term::Any(*p)
                        }
                        e => self.flatten(e, Context::Head, &mut b, &shared),
                    })
                    .collect();
                if let (Some(head), true) = (head_rel, self.diags.len() == errors_before) {
                    self.rules.push(Rule {
                        head,
                        head_args,
                        body: b.body,
                        vars: b.vars,
                        pos: r.heads[0].pos,
                    });
                }
            }
        }
    }
}

/// Lowers the parsed files of one program (declarations first, so a rule may
/// use a relation declared in a later file). Strata are left empty.
pub fn lower(files: &[Vec<Item>], sources: &Sources) -> (Program, Vec<Diagnostic>) {
    let mut l = Lowerer {
        sources,
        relations: Vec::new(),
        rel_index: HashMap::new(),
        functors: Vec::new(),
        functor_index: HashMap::new(),
        symbols: Vec::new(),
        symbol_index: HashMap::new(),
        rules: Vec::new(),
        diags: Vec::new(),
    };
    let items = || files.iter().flatten();
    for item in items() {
        match item {
            Item::Decl(d) => l.declare(d),
            Item::Functor(f) => l.declare_functor(f),
            _ => {}
        }
    }
    for item in items() {
        if let Item::Io { output, names } = item {
            for (name, pos) in names {
                if let Some(r) = l.relation(name, *pos, None) {
                    let rel = &mut l.relations[r];
                    if *output {
                        rel.output = true;
                    } else {
                        rel.input = true;
                    }
                }
            }
        }
    }
    for item in items() {
        if let Item::Rule(r) = item {
            l.rule(r);
        }
    }
    (
        Program {
            relations: l.relations,
            functors: l.functors,
            symbols: l.symbols,
            rules: l.rules,
            strata: Vec::new(),
        },
        l.diags,
    )
}
