//! Programs of several units sharing arrays by Fortran 90 scoping (free
//! form): the affine references of [`super::affine_nest`] over the arrays
//! A and B and the scalars S and T, in loop nests of the main program and
//! of 2-4 subroutines, called inside and outside the main program's loops.
//!
//! - [`module_program`]: A, B, S, T, N and L are variables of a MODULE
//!   (A and B with constant bounds from its PARAMETERs, S, T and L with
//!   initial values); the subroutines are module procedures (its CONTAINS)
//!   or external subroutines that USE it, now and then with ONLY and a
//!   rename (`XA => A`). The module's INTEGER array NB holds N and L
//!   (the main program sets it), and half of the subroutines read
//!   `NB(1)` and `NB(2)` where the others read N and L: elements of an
//!   array the subroutine never changes, terms of its bounds and
//!   subscripts (`fixed_element`).
//! - [`host_program`]: they are the main program's variables, and the
//!   subroutines are its internal procedures (host association): some
//!   run a nest of their own (their DO variables declared locally), others
//!   read the host's DO variables where they are called in a loop.
//! - [`allocatable_program`]: either shape with A and/or B allocatable
//!   (module or local arrays), allocated before the nests with constant
//!   bounds or with symbolic ones (`MAX(N + 1, 7)`), and now and then
//!   deallocated after the checksums are printed.
//!
//! A subroutine called in a loop at depth d either runs a nest (over N,
//! whatever the caller's iteration) or has the caller's DO variables
//! (module shape: as its dummies `I`, `J`; host shape: by host
//! association) in its subscripts. Every array is declared (allocated)
//! with the bounds its references reach, and gets a value before any read.

use super::affine::{offset_text, AffineGen, Range, ARRAYS, LOOP_VARS, OFFSET};
use super::emit::{Emitter, Form};
use super::{Generated, Rng};

/// Where the shared variables live.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    Module,
    Host,
}

/// A statement, or a DO loop with its body.
enum Node {
    Line(String),
    Do { header: String, body: Vec<Node> },
}

/// A subroutine: its name, dummies, and body.
struct Proc {
    name: String,
    dummies: Vec<&'static str>,
    /// Declares I, J, K locally (it runs a nest).
    locals: bool,
    body: Vec<Node>,
    /// Module shape: an external subroutine (else a module procedure).
    external: bool,
    /// Whether it runs a nest (callable anywhere) or reads the caller's DO
    /// variables.
    nest: bool,
}

struct Gen {
    g: AffineGen,
    shape: Shape,
    n: Range,
    procs: Vec<Proc>,
}

const MODULE: &str = "SHARED";
/// The module's variables (and the host's shared ones).
const SHARED: [&str; 7] = ["A", "B", "S", "T", "N", "L", "NB"];

/// Module variables shared by the main program and subroutines (see the
/// module documentation).
pub fn module_program(seed: u64) -> Generated {
    program(seed, Shape::Module, false)
}

/// Internal procedures using the host's arrays and scalars.
pub fn host_program(seed: u64) -> Generated {
    program(seed, Shape::Host, false)
}

/// [`module_program`] or [`host_program`] (by the seed) with allocatable arrays.
pub fn allocatable_program(seed: u64) -> Generated {
    let shape = if Rng::new(seed ^ 0xA110C).chance(50) {
        Shape::Host
    } else {
        Shape::Module
    };
    program(seed, shape, true)
}

fn program(seed: u64, shape: Shape, allocatable: bool) -> Generated {
    let mut rng = Rng::new(seed);
    let lo = rng.range(0, 3);
    let (nmin, nmax) = (lo, lo + rng.range(1, 4));
    let offset = rng.range(0, 2);
    let n_parts = rng.range(2, 3);
    let mut g = AffineGen::new(rng);
    g.vars[OFFSET] = Range::point(offset);
    let mut gen = Gen {
        g,
        shape,
        n: Range { lo: nmin, hi: nmax },
        procs: Vec::new(),
    };
    let mut main: Vec<Node> = Vec::new();
    for _ in 0..n_parts {
        if gen.g.rng.chance(40) {
            main.push(gen.outside_call());
        }
        main.push(gen.nest(true));
    }
    while gen.procs.len() < 2 {
        let call = gen.outside_call();
        main.push(call);
    }
    // What the arrays are.
    let bounds = gen.g.bounds();
    let mut allocs: Vec<bool> = ARRAYS
        .iter()
        .map(|_| allocatable && gen.g.rng.chance(70))
        .collect();
    if allocatable && !allocs.contains(&true) {
        allocs[0] = true;
    }
    let params: Vec<String> = ARRAYS
        .iter()
        .zip(&bounds)
        .flat_map(|(a, dims)| {
            dims.iter().enumerate().flat_map(move |(d, r)| {
                [
                    format!("L{a}{} = {}", d + 1, r.lo),
                    format!("H{a}{} = {}", d + 1, r.hi),
                ]
            })
        })
        .collect();
    let array_decls: Vec<String> = ARRAYS
        .iter()
        .zip(&bounds)
        .zip(&allocs)
        .map(|((a, dims), &alloc)| {
            if alloc {
                let colons = vec![":"; dims.len()].join(", ");
                format!("REAL, ALLOCATABLE :: {a}({colons})")
            } else {
                let b: Vec<String> = (1..=dims.len())
                    .map(|d| format!("L{a}{d}:H{a}{d}"))
                    .collect();
                format!("REAL :: {a}({})", b.join(", "))
            }
        })
        .collect();
    let allocate: Vec<String> = ARRAYS
        .iter()
        .zip(&bounds)
        .zip(&allocs)
        .filter(|(_, &alloc)| alloc)
        .map(|((a, dims), _)| {
            let b: Vec<String> = dims
                .iter()
                .enumerate()
                .map(|(d, r)| {
                    let d = d + 1;
                    match gen.g.rng.range(0, 2) {
                        0 => format!("L{a}{d}:H{a}{d}"),
                        1 => {
                            // At least the highest subscript, whatever N.
                            let c = gen.g.rng.range(-1, 2);
                            format!("L{a}{d}:MAX({}, {})", offset_text("N", c), r.hi)
                        }
                        _ => format!("{}:{}", r.lo, r.hi),
                    }
                })
                .collect();
            format!("ALLOCATE({a}({}))", b.join(", "))
        })
        .collect();

    let mut e = Emitter::new(Form::Free);
    let what = match (shape, allocatable) {
        (_, true) => "allocatable_program",
        (Shape::Module, false) => "module_program",
        (Shape::Host, false) => "host_program",
    };
    e.comment(&format!("generated by kaiseki-judge {what}({seed})"));
    // Which subroutines of the module shape read NB's elements for N and L
    // (a stream of its own: the programs of a seed are otherwise what
    // they were).
    let mut pick = Rng::new(seed ^ 0xE1E);
    let elements: Vec<bool> = gen
        .procs
        .iter()
        .map(|_| shape == Shape::Module && pick.chance(50))
        .collect();
    if shape == Shape::Module {
        e.stmt(&format!("MODULE {MODULE}"));
        e.indent();
        e.stmt(&format!("INTEGER, PARAMETER :: {}", params.join(", ")));
        for d in &array_decls {
            e.stmt(d);
        }
        e.stmt("REAL :: S = 0.0, T = 1.0");
        e.stmt(&format!("INTEGER :: N, L = {offset}"));
        e.stmt("INTEGER :: NB(2)");
        let inside: Vec<(&Proc, bool)> = gen
            .procs
            .iter()
            .zip(elements.iter().copied())
            .filter(|(p, _)| !p.external)
            .collect();
        if !inside.is_empty() {
            e.dedent();
            e.stmt("CONTAINS");
            e.indent();
            for (p, elements) in inside {
                emit_proc(&mut e, p, elements, None);
            }
        }
        e.dedent();
        e.stmt(&format!("END MODULE {MODULE}"));
    }
    e.stmt("PROGRAM MAIN");
    e.indent();
    match shape {
        Shape::Module => {
            e.stmt(&format!("USE {MODULE}"));
            e.stmt("INTEGER :: I, J, K");
        }
        Shape::Host => {
            e.stmt(&format!("INTEGER, PARAMETER :: {}", params.join(", ")));
            for d in &array_decls {
                e.stmt(d);
            }
            e.stmt("REAL :: S, T");
            e.stmt("INTEGER :: N, L, I, J, K");
        }
    }
    e.stmt("READ (*,*) N");
    if shape == Shape::Module {
        e.stmt("NB(1) = N");
        e.stmt("NB(2) = L");
    }
    if shape == Shape::Host {
        e.stmt(&format!("L = {offset}"));
        e.stmt("S = 0.0");
        e.stmt("T = 1.0");
    }
    for a in &allocate {
        e.stmt(a);
    }
    gen.g.init_arrays(&mut e);
    for node in &main {
        emit_node(&mut e, node);
    }
    e.stmt("PRINT *, SUM(A), SUM(B), S, T, N, L");
    let allocated: Vec<&str> = ARRAYS
        .iter()
        .zip(&allocs)
        .filter(|(_, &alloc)| alloc)
        .map(|(a, _)| *a)
        .collect();
    if !allocated.is_empty() && gen.g.rng.chance(50) {
        e.stmt(&format!("DEALLOCATE({})", allocated.join(", ")));
    }
    if shape == Shape::Host && !gen.procs.is_empty() {
        e.dedent();
        e.stmt("CONTAINS");
        e.indent();
        for p in &gen.procs {
            emit_proc(&mut e, p, false, None);
        }
    }
    e.dedent();
    e.stmt("END PROGRAM MAIN");
    if shape == Shape::Module {
        let mut rng = Rng::new(seed ^ 0x05E);
        for (p, &elements) in gen.procs.iter().zip(&elements).filter(|(p, _)| p.external) {
            let using = use_statement(&mut rng, &body_text(p, elements));
            emit_proc(&mut e, p, elements, Some(using));
        }
    }

    Generated {
        file_name: format!("gen_{what}_{seed}.f90"),
        source: e.finish(),
        inputs: (nmin..=nmax).map(|n| vec![n.to_string()]).collect(),
    }
}

impl Gen {
    /// A nest of depth 1-3 over N; in the main program (`main`), with
    /// calls in its body now and then.
    fn nest(&mut self, main: bool) -> Node {
        let g = &mut self.g;
        let depth = g.rng.range(1, if main { 3 } else { 2 }) as usize;
        g.depth = depth;
        let headers: Vec<String> = (0..depth).map(|l| g.loop_header(l, self.n)).collect();
        // (level, after the inner loop, statement)
        let mut placed: Vec<(usize, bool, Node)> = Vec::new();
        for _ in 0..self.g.rng.range(1, 3) {
            let level = self.g.rng.range(1, depth as i64) as usize;
            let after = level < depth && self.g.rng.chance(40);
            self.g.depth = depth;
            self.g.extra = vec![OFFSET];
            let text = self.statement(level);
            placed.push((level, after, Node::Line(text)));
        }
        if main && self.procs.len() < 4 && self.g.rng.chance(75) {
            let level = self.g.rng.range(1, depth as i64) as usize;
            let after = level < depth && self.g.rng.chance(40);
            let call = self.call_at(level);
            placed.push((level, after, Node::Line(call)));
        }
        build(&headers, &mut placed, 1)
    }

    /// An assignment at loop `level`, under a logical IF on a DO variable
    /// now and then.
    fn statement(&mut self, level: usize) -> String {
        let g = &mut self.g;
        let text = g.assignment(level);
        if level > 0 && g.rng.chance(20) {
            let k = g.rng.range(0, level as i64 - 1) as usize;
            let mid = (g.vars[k].lo + g.vars[k].hi).div_euclid(2);
            let mid = if mid < 0 {
                format!("({mid})")
            } else {
                mid.to_string()
            };
            format!("IF ({} .GT. {mid}) {text}", LOOP_VARS[k])
        } else {
            text
        }
    }

    /// A call in the body of loop `level` of a main-program nest: of a
    /// subroutine running a nest (new or already called), or of a new one
    /// whose subscripts use the DO variables of loops `1..=level`.
    fn call_at(&mut self, level: usize) -> String {
        let nests: Vec<usize> = (0..self.procs.len())
            .filter(|&k| self.procs[k].nest)
            .collect();
        if self.g.rng.chance(40) {
            if !nests.is_empty() && self.g.rng.chance(50) {
                let k = *self.g.rng.pick(&nests);
                return format!("CALL {}", self.procs[k].name);
            }
            return self.new_nest_proc();
        }
        let name = format!("Q{}", self.procs.len() + 1);
        let count = self.g.rng.range(1, 2);
        let saved = (self.g.depth, self.g.extra.clone());
        self.g.depth = level;
        self.g.extra = vec![OFFSET];
        let body = (0..count)
            .map(|_| Node::Line(self.statement(level)))
            .collect();
        (self.g.depth, self.g.extra) = saved;
        let vars: Vec<&'static str> = LOOP_VARS[..level].to_vec();
        let (dummies, call) = match self.shape {
            Shape::Module => (vars.clone(), format!("CALL {name}({})", vars.join(", "))),
            Shape::Host => (Vec::new(), format!("CALL {name}")),
        };
        let external = self.shape == Shape::Module && self.g.rng.chance(50);
        self.procs.push(Proc {
            name,
            dummies,
            locals: false,
            body,
            external,
            nest: false,
        });
        call
    }

    /// A call outside loops: of a subroutine running a nest, or of a new
    /// one whose statements use no DO variable.
    fn outside_call(&mut self) -> Node {
        let nests: Vec<usize> = (0..self.procs.len())
            .filter(|&k| self.procs[k].nest)
            .collect();
        if !nests.is_empty() && self.g.rng.chance(40) {
            let k = *self.g.rng.pick(&nests);
            return Node::Line(format!("CALL {}", self.procs[k].name));
        }
        if self.g.rng.chance(70) {
            return Node::Line(self.new_nest_proc());
        }
        let name = format!("Q{}", self.procs.len() + 1);
        self.g.depth = 0;
        self.g.extra = vec![OFFSET];
        let body = vec![Node::Line(self.statement(0))];
        let external = self.shape == Shape::Module && self.g.rng.chance(50);
        self.procs.push(Proc {
            name: name.clone(),
            dummies: Vec::new(),
            locals: false,
            body,
            external,
            nest: false,
        });
        Node::Line(format!("CALL {name}"))
    }

    /// A new subroutine running a nest of its own (the DO variables of the
    /// loops around the call are kept as they were); returns its call.
    fn new_nest_proc(&mut self) -> String {
        let saved = (self.g.vars, self.g.depth, self.g.extra.clone());
        let name = format!("Q{}", self.procs.len() + 1);
        let body = vec![self.nest(false)];
        (self.g.vars, self.g.depth, self.g.extra) = saved;
        let external = self.shape == Shape::Module && self.g.rng.chance(50);
        self.procs.push(Proc {
            name: name.clone(),
            dummies: Vec::new(),
            locals: true,
            body,
            external,
            nest: true,
        });
        format!("CALL {name}")
    }
}

/// Loop `level` of a nest and what is placed in it.
fn build(headers: &[String], placed: &mut Vec<(usize, bool, Node)>, level: usize) -> Node {
    let mut body = take(placed, level, false);
    if level < headers.len() {
        body.push(build(headers, placed, level + 1));
    }
    body.extend(take(placed, level, true));
    Node::Do {
        header: headers[level - 1].clone(),
        body,
    }
}

/// The statements placed at loop `level`, before or after its inner loop.
fn take(placed: &mut Vec<(usize, bool, Node)>, level: usize, after: bool) -> Vec<Node> {
    let mut out = Vec::new();
    let mut k = 0;
    while k < placed.len() {
        if placed[k].0 == level && placed[k].1 == after {
            out.push(placed.remove(k).2);
        } else {
            k += 1;
        }
    }
    out
}

fn emit_node(e: &mut Emitter, node: &Node) {
    match node {
        Node::Line(text) => e.stmt(text),
        Node::Do { header, body } => {
            e.open_do(header, false);
            for n in body {
                emit_node(e, n);
            }
            e.close_do();
        }
    }
}

/// The statements of a subroutine's body, reading `NB(1)` and `NB(2)`
/// for N and L when `elements`.
fn body_text(p: &Proc, elements: bool) -> String {
    let mut body = Emitter::new(Form::Free);
    for n in &p.body {
        emit_node(&mut body, n);
    }
    let text = body.finish();
    if !elements {
        return text;
    }
    text.lines()
        .map(|l| rename(&rename(l, "N", "NB(1)"), "L", "NB(2)") + "\n")
        .collect()
}

/// A subroutine (see [`body_text`] for `elements`); an external one gets
/// its USE statement (`using`) and the renamed names it gives.
fn emit_proc(
    e: &mut Emitter,
    p: &Proc,
    elements: bool,
    using: Option<(String, Vec<(String, String)>)>,
) {
    let args = if p.dummies.is_empty() {
        String::new()
    } else {
        format!("({})", p.dummies.join(", "))
    };
    e.stmt(&format!("SUBROUTINE {}{args}", p.name));
    e.indent();
    let renames = match using {
        Some((line, renames)) => {
            e.stmt(&line);
            renames
        }
        None => Vec::new(),
    };
    if !p.dummies.is_empty() {
        e.stmt(&format!("INTEGER :: {}", p.dummies.join(", ")));
    }
    if p.locals {
        e.stmt("INTEGER :: I, J, K");
    }
    for line in body_text(p, elements).lines() {
        let mut l = line.to_string();
        for (from, to) in &renames {
            l = rename(&l, from, to);
        }
        e.stmt(&l);
    }
    e.dedent();
    e.stmt(&format!("END SUBROUTINE {}", p.name));
}

/// The USE statement of an external subroutine whose body is `text`: the
/// whole module, or ONLY the shared names it uses; an array renamed now
/// and then.
fn use_statement(rng: &mut Rng, text: &str) -> (String, Vec<(String, String)>) {
    let used: Vec<&str> = SHARED
        .iter()
        .copied()
        .filter(|v| words(text).any(|w| w == *v))
        .collect();
    let mut renames = Vec::new();
    let arrays: Vec<&str> = used
        .iter()
        .copied()
        .filter(|v| ARRAYS.contains(v))
        .collect();
    if !arrays.is_empty() && rng.chance(40) {
        let a = *rng.pick(&arrays);
        renames.push((a.to_string(), format!("X{a}")));
    }
    let item = |v: &str| match renames.iter().find(|(from, _)| from == v) {
        Some((from, to)) => format!("{to} => {from}"),
        None => v.to_string(),
    };
    let line = if rng.chance(60) && !used.is_empty() {
        let items: Vec<String> = used.iter().map(|v| item(v)).collect();
        format!("USE {MODULE}, ONLY: {}", items.join(", "))
    } else if let Some((from, to)) = renames.first() {
        format!("USE {MODULE}, {to} => {from}")
    } else {
        format!("USE {MODULE}")
    };
    (line, renames)
}

/// The names of a line of generated code (no string constants there).
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.starts_with(|c: char| c.is_ascii_alphabetic()))
}

/// `line` with the name `from` (a whole word) written `to`.
fn rename(line: &str, from: &str, to: &str) -> String {
    let mut out = String::new();
    let mut word = String::new();
    for c in line.chars().chain(std::iter::once('\n')) {
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
            continue;
        }
        let is_name = word.starts_with(|c: char| c.is_ascii_alphabetic());
        out.push_str(if is_name && word == from { to } else { &word });
        word.clear();
        out.push(c);
    }
    out.pop();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rename_changes_whole_names_only() {
        assert_eq!(
            rename("A(I) = MOD(A(2) + AB + 2.0, 997.0)", "A", "XA"),
            "XA(I) = MOD(XA(2) + AB + 2.0, 997.0)"
        );
    }

    #[test]
    fn programs_have_the_units_they_promise() {
        for seed in 0..20 {
            let m = module_program(seed);
            assert!(m.source.contains("MODULE SHARED"), "{}", m.source);
            assert!(
                m.source.matches("SUBROUTINE Q").count() >= 4,
                "{}",
                m.source
            );
            let h = host_program(seed);
            assert!(h.source.contains("CONTAINS"), "{}", h.source);
            let a = allocatable_program(seed);
            assert!(a.source.contains("ALLOCATE("), "{}", a.source);
        }
        // Subroutines read NB's elements (beyond its declaration and the main
        // program's two assignments) in some programs, N in others.
        let reads = |seed| module_program(seed).source.matches("NB(").count() > 3;
        assert!((0..20).any(reads));
        assert!(!(0..20).all(reads));
    }
}
