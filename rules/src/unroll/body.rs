//! The loop body as operations (seed 004, section 3): one original
//! iteration of the innermost body, statement after statement, as a DAG of
//! loads, floating-point and integer operations and stores, with the
//! optimizations a compiler makes inside one body. Modelling choices the
//! paper leaves open (tested in `tests.rs`, checked on its figures):
//! - one load per distinct element read (same array, equal subscripts)
//!   until a store to the array may change it; a value stored and read
//!   again later in the body comes from the register (scalar replacement
//!   inside the body); a store overwritten later in the body, with no load
//!   of the array between, is dropped;
//! - scalars are registers: a scalar the body does not assign is an input
//!   ready at cycle 0, one it assigns is the DAG node of its value;
//!   constants are immediates; the DO loops' own bookkeeping is not in the
//!   body (nor are address computations);
//! - a chain of additions and subtractions (through scalars that are used
//!   once) is evaluated as a balanced tree of its terms in source order,
//!   the left half the larger (tree-height reduction): Livermore kernel
//!   23's C = 15 and c = 12 in both directions (fig. 13) need it;
//! - the length of a body is the cycle its last operation issues, plus 1
//!   (kernel 21's C = 7: load 2, multiply 2, add 2, store issued).

use super::machine::Machine;
use kaiseki_affine::symbolic::LoopForm;
use std::collections::HashMap;

/// What a reference of the body is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RefKind {
    /// A scalar and the loops along which its value may change (when the
    /// body does not assign it).
    Scalar(String, Vec<i64>),
    /// Array and subscripts (normal forms; `None`: not affine).
    Element(String, Vec<Option<LoopForm>>),
}

impl RefKind {
    /// `NAME@;loop;loop` (a scalar and the loops it varies along) or
    /// `NAME|nf|nf` (`?` for a subscript without normal form).
    pub fn parse(s: &str) -> RefKind {
        if let Some((name, loops)) = s.split_once('@') {
            let loops = loops.split(';').filter_map(|l| l.parse().ok()).collect();
            return RefKind::Scalar(name.to_string(), loops);
        }
        let mut parts = s.split('|');
        let name = parts.next().unwrap_or("").to_string();
        let dims: Vec<Option<LoopForm>> = parts.map(|p| p.parse().ok()).collect();
        if dims.is_empty() {
            RefKind::Scalar(name, Vec::new())
        } else {
            RefKind::Element(name, dims)
        }
    }

    fn array(&self) -> Option<&str> {
        match self {
            RefKind::Element(a, _) => Some(a),
            RefKind::Scalar(..) => None,
        }
    }

    /// Whether the element certainly stays the same along `loop`.
    pub fn invariant_along(&self, r#loop: i64) -> bool {
        match self {
            RefKind::Scalar(_, varying) => !varying.contains(&r#loop),
            RefKind::Element(_, dims) => dims
                .iter()
                .all(|d| d.as_ref().is_some_and(|f| !f.loops.contains_key(&r#loop))),
        }
    }

    /// Whether two element references certainly touch different elements
    /// in one iteration: some subscript differs by a nonzero constant.
    fn surely_apart(&self, other: &RefKind) -> bool {
        let (RefKind::Element(a, x), RefKind::Element(b, y)) = (self, other) else {
            return false;
        };
        a == b
            && x.iter().zip(y).any(|(u, v)| match (u, v) {
                (Some(u), Some(v)) => {
                    u.loops == v.loops && u.symbols == v.symbols && u.constant != v.constant
                }
                _ => false,
            })
    }
}

/// An operation of the body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// A scalar in a register (no operation): one the body reads before
    /// it assigns it (last iteration's value), or one whose value changes
    /// along some loop (a DO variable).
    Carried,
    Load,
    Store,
    Fp,
    Int,
}

#[derive(Clone, Debug)]
pub struct Node {
    pub op: Op,
    pub args: Vec<usize>,
    /// For loads and stores: the reference (the first that needed it).
    pub r#ref: Option<i64>,
    pub live: bool,
}

/// One iteration of the body as a DAG, nodes in issue order.
#[derive(Debug, Default)]
pub struct Body {
    pub nodes: Vec<Node>,
    /// Use reference -> the node that gives its value (a load, or the
    /// value a store of the same element stored earlier in the body).
    pub value_of: HashMap<i64, usize>,
    /// Store reference -> its store node.
    pub store_of: HashMap<i64, usize>,
    /// References whose value the model does not know (`?` leaves).
    pub unknown: bool,
    /// Scalars the body assigns.
    pub assigned: Vec<String>,
}

/// A value being built: a node, or a sum of signed terms not yet laid out.
#[derive(Clone, Debug)]
enum Val {
    Node(usize),
    Input,
    Sum(bool, Vec<(bool, Val)>),
}

impl Body {
    /// The body of statements `target=tree` (in order) over the references
    /// `refs`.
    pub fn build(stmts: &[(i64, &str)], refs: &HashMap<i64, RefKind>) -> Body {
        let mut b = Builder {
            body: Body::default(),
            refs,
            scalars: HashMap::new(),
            elements: Vec::new(),
            pending: Vec::new(),
            uses: HashMap::new(),
        };
        b.body.assigned = stmts
            .iter()
            .filter_map(|(t, _)| match refs.get(t) {
                Some(RefKind::Scalar(name, _)) => Some(name.clone()),
                _ => None,
            })
            .collect();
        let trees: Vec<(i64, Tree)> = stmts
            .iter()
            .map(|(t, text)| (*t, Tree::parse(text)))
            .collect();
        for (_, tree) in &trees {
            tree.count_scalar_uses(refs, &mut b.uses);
        }
        for (target, tree) in &trees {
            let v = b.value(tree);
            b.assign(*target, v);
        }
        b.carry_out();
        b.body
    }

    /// N: the operations one iteration executes.
    pub fn ops(&self) -> usize {
        self.nodes.iter().filter(|n| n.live).count()
    }

    pub fn latency(&self, m: &Machine, n: usize) -> i64 {
        match self.nodes[n].op {
            Op::Carried => 0,
            Op::Load => m.latency_load,
            Op::Store => m.latency_store,
            Op::Fp => m.latency_fp,
            Op::Int => m.latency_int,
        }
    }

    /// The cycle each node issues at, as early as its operands allow;
    /// `ready` overrides when a node's own result is available (a value
    /// forwarded from an earlier copy).
    pub fn schedule(&self, m: &Machine, ready: &HashMap<usize, i64>) -> Vec<i64> {
        let mut start = vec![0; self.nodes.len()];
        for i in 0..self.nodes.len() {
            start[i] = self.nodes[i]
                .args
                .iter()
                .map(|&a| self.available(m, ready, &start, a))
                .max()
                .unwrap_or(0);
        }
        start
    }

    /// When the result of node `a` can be used.
    pub fn available(
        &self,
        m: &Machine,
        ready: &HashMap<usize, i64>,
        start: &[i64],
        a: usize,
    ) -> i64 {
        ready
            .get(&a)
            .copied()
            .unwrap_or(start[a] + self.latency(m, a))
    }

    /// The cycles of one iteration: the last issue plus one.
    pub fn length(&self, m: &Machine, ready: &HashMap<usize, i64>) -> i64 {
        let start = self.schedule(m, ready);
        (0..self.nodes.len())
            .filter(|&i| self.nodes[i].live)
            .map(|i| start[i] + 1)
            .max()
            .unwrap_or(0)
    }
}

struct Builder<'r> {
    body: Body,
    refs: &'r HashMap<i64, RefKind>,
    /// Scalar -> its value in the body so far.
    scalars: HashMap<String, Val>,
    /// Elements whose value is in a register: (reference kind, node).
    elements: Vec<(RefKind, usize)>,
    /// Stores not yet followed by a load of their array.
    pending: Vec<(RefKind, usize)>,
    /// Scalar -> how many times the body reads it.
    uses: HashMap<String, usize>,
}

impl Builder<'_> {
    fn push(&mut self, op: Op, args: Vec<usize>, r#ref: Option<i64>) -> usize {
        self.body.nodes.push(Node {
            op,
            args,
            r#ref,
            live: true,
        });
        self.body.nodes.len() - 1
    }

    fn value(&mut self, t: &Tree) -> Val {
        match t {
            Tree::Const => Val::Input,
            Tree::Unknown => {
                self.body.unknown = true;
                Val::Input
            }
            Tree::Ref(r) => self.read(*r),
            Tree::Op(name, float, args) if (name == "add" || name == "sub") && args.len() == 2 => {
                let a = self.value(&args[0]);
                let b = self.value(&args[1]);
                let mut terms = Vec::new();
                for (neg, v) in [(false, a), (name == "sub", b)] {
                    match v {
                        Val::Sum(f, ts) if f == *float => {
                            terms.extend(ts.into_iter().map(|(n, t)| (n ^ neg, t)))
                        }
                        v => terms.push((neg, v)),
                    }
                }
                Val::Sum(*float, terms)
            }
            Tree::Op(_, float, args) => {
                let args: Vec<usize> = args
                    .iter()
                    .filter_map(|a| {
                        let v = self.value(a);
                        self.node(v)
                    })
                    .collect();
                let op = if *float { Op::Fp } else { Op::Int };
                Val::Node(self.push(op, args, None))
            }
        }
    }

    /// Lays out a value: a sum as a balanced tree of its terms.
    fn node(&mut self, v: Val) -> Option<usize> {
        match v {
            Val::Node(n) => Some(n),
            Val::Input => None,
            Val::Sum(float, terms) => {
                let (n, neg) = self.tree(float, terms)?;
                let op = if float { Op::Fp } else { Op::Int };
                Some(if neg { self.push(op, vec![n], None) } else { n })
            }
        }
    }

    /// A balanced tree of signed terms: the node and whether it holds the
    /// negated sum.
    fn tree(&mut self, float: bool, mut terms: Vec<(bool, Val)>) -> Option<(usize, bool)> {
        if terms.len() == 1 {
            let (neg, v) = terms.pop()?;
            return Some((self.node(v)?, neg));
        }
        let right = terms.split_off(terms.len().div_ceil(2));
        let op = if float { Op::Fp } else { Op::Int };
        match (self.tree(float, terms), self.tree(float, right)) {
            (Some((a, na)), Some((b, nb))) => {
                let n = if na == nb || !na {
                    self.push(op, vec![a, b], None)
                } else {
                    self.push(op, vec![b, a], None)
                };
                Some((n, na && nb))
            }
            (Some(x), None) | (None, Some(x)) => Some(x),
            (None, None) => None,
        }
    }

    /// Lays out the last value of each floating-point scalar the body
    /// reads before it assigns it: the next iteration needs it. An integer
    /// one (`LW = LW + 1`) steps an address, which is not in the model.
    fn carry_out(&mut self) {
        let carried: Vec<String> = self
            .body
            .nodes
            .iter()
            .filter(|n| n.op == Op::Carried)
            .filter_map(|n| match n.r#ref.and_then(|r| self.refs.get(&r)) {
                Some(RefKind::Scalar(name, _)) if self.body.assigned.contains(name) => {
                    Some(name.clone())
                }
                _ => None,
            })
            .collect();
        for name in carried {
            if let Some(v @ Val::Sum(true, _)) = self.scalars.get(&name).cloned() {
                let n = self.node(v).map_or(Val::Input, Val::Node);
                self.scalars.insert(name, n);
            }
        }
    }

    fn read(&mut self, r: i64) -> Val {
        match self.refs.get(&r) {
            None => Val::Input,
            Some(RefKind::Scalar(name, varying)) => match self.scalars.get(name) {
                Some(v) => v.clone(),
                None if self.body.assigned.contains(name) || !varying.is_empty() => {
                    let n = self.push(Op::Carried, vec![], Some(r));
                    self.body.nodes[n].live = false;
                    let v = Val::Node(n);
                    self.scalars.insert(name.clone(), v.clone());
                    v
                }
                None => Val::Input,
            },
            Some(kind) => {
                if let Some((_, n)) = self.elements.iter().find(|(k, _)| k == kind) {
                    let n = *n;
                    self.body.value_of.insert(r, n);
                    return Val::Node(n);
                }
                // A load of the array: pending stores to it stay.
                let array = kind.array().map(str::to_string);
                self.pending
                    .retain(|(k, _)| k.array().map(str::to_string) != array);
                let n = self.push(Op::Load, vec![], Some(r));
                self.elements.push((kind.clone(), n));
                self.body.value_of.insert(r, n);
                Val::Node(n)
            }
        }
    }

    fn assign(&mut self, target: i64, v: Val) {
        match self.refs.get(&target) {
            Some(RefKind::Scalar(name, _)) => {
                // A scalar read more than once is laid out once.
                let v = if self.uses.get(name).copied().unwrap_or(0) > 1 {
                    self.node(v).map_or(Val::Input, Val::Node)
                } else {
                    v
                };
                self.scalars.insert(name.clone(), v);
            }
            Some(kind) => {
                let kind = kind.clone();
                let value = self.node(v);
                // A store may change any element of the array it does
                // not surely miss.
                self.elements
                    .retain(|(k, _)| k.array() != kind.array() || k.surely_apart(&kind));
                if let Some(i) = self.pending.iter().position(|(k, _)| *k == kind) {
                    let (_, old) = self.pending.remove(i);
                    self.body.nodes[old].live = false;
                }
                let n = self.push(Op::Store, value.into_iter().collect(), Some(target));
                self.body.store_of.insert(target, n);
                if let Some(v) = value {
                    self.elements.push((kind.clone(), v));
                }
                self.pending.push((kind, n));
            }
            None => {}
        }
    }
}

/// A right-hand side as `assign_tree` spells it.
#[derive(Clone, Debug, PartialEq)]
pub enum Tree {
    Const,
    Unknown,
    Ref(i64),
    /// Operation name, floating point, operands.
    Op(String, bool, Vec<Tree>),
}

impl Tree {
    pub fn parse(s: &str) -> Tree {
        let tokens: Vec<String> = s
            .replace('(', " ( ")
            .replace(')', " ) ")
            .split_whitespace()
            .map(str::to_string)
            .collect();
        let mut pos = 0;
        Tree::read(&tokens, &mut pos)
    }

    fn read(tokens: &[String], pos: &mut usize) -> Tree {
        let Some(tok) = tokens.get(*pos) else {
            return Tree::Unknown;
        };
        *pos += 1;
        if tok != "(" {
            return match tok.strip_prefix('r').and_then(|n| n.parse().ok()) {
                Some(r) => Tree::Ref(r),
                None if tok == "k" => Tree::Const,
                None => Tree::Unknown,
            };
        }
        let head = tokens.get(*pos).cloned().unwrap_or_default();
        *pos += 1;
        let (name, class) = head.rsplit_once('.').unwrap_or((&head, "f"));
        let mut args = Vec::new();
        while tokens.get(*pos).is_some_and(|t| t != ")") {
            args.push(Tree::read(tokens, pos));
        }
        *pos += 1;
        Tree::Op(name.to_string(), class == "f", args)
    }

    fn count_scalar_uses(&self, refs: &HashMap<i64, RefKind>, uses: &mut HashMap<String, usize>) {
        match self {
            Tree::Ref(r) => {
                if let Some(RefKind::Scalar(name, _)) = refs.get(r) {
                    *uses.entry(name.clone()).or_default() += 1;
                }
            }
            Tree::Op(_, _, args) => args.iter().for_each(|a| a.count_scalar_uses(refs, uses)),
            _ => {}
        }
    }
}
