//! Random programs on storage association: EQUIVALENCE classes of 1-D and
//! 2-D arrays and scalars at offsets (some sets chained, some of three
//! names) in the main program, and a COMMON block laid out differently in
//! the main program (which may extend it past its end by EQUIVALENCE) and
//! in one or two subroutines (which may overlay it), called inside and
//! outside loops. Loops and IFs read and write the names with affine
//! subscripts that stay in bounds through every name.
//!
//! Printed values are defined: every cell is initialized before the first
//! read, and each region of storage holds one type (the COMMON block is a
//! sequence of typed segments, DOUBLE PRECISION first so that no unit needs
//! alignment padding; every name of a segment or class has its type), so a
//! cell is only ever read through the type it was written with.

use super::affine::{Affine, Range, LOOP_VARS};
use super::emit::{Emitter, Form};
use super::{Generated, Rng};

const BLOCK: &str = "BLK";
/// Indices of the DO variables and the dummy in [`LOOP_VARS`].
const I: usize = 0;
const J: usize = 1;
const K: usize = 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Elem {
    Int,
    Real,
    Double,
}

impl Elem {
    fn declaration(self) -> &'static str {
        match self {
            Elem::Int => "INTEGER",
            Elem::Real => "REAL",
            Elem::Double => "DOUBLE PRECISION",
        }
    }

    /// Numeric storage units per element.
    fn cells(self) -> i64 {
        match self {
            Elem::Double => 2,
            Elem::Int | Elem::Real => 1,
        }
    }

    fn literal(self, c: i64) -> String {
        match self {
            Elem::Int => c.to_string(),
            Elem::Real => format!("{c}.0"),
            Elem::Double => format!("{c}.0D0"),
        }
    }

    /// An integer expression as a value of this type.
    fn of_int(self, e: &str) -> String {
        match self {
            Elem::Int => e.to_string(),
            Elem::Real => format!("REAL({e})"),
            Elem::Double => format!("DBLE({e})"),
        }
    }
}

/// A declared name: its type, bounds, and where its element 0 starts, in
/// cells of its storage (0: the COMMON block; others: a class of the main
/// program's own).
#[derive(Clone, Debug)]
struct Var {
    name: String,
    elem: Elem,
    /// (lower, upper) per dimension; empty for a scalar.
    dims: Vec<(i64, i64)>,
    area: usize,
    start: i64,
}

impl Var {
    fn len(&self) -> i64 {
        self.dims.iter().map(|(l, h)| h - l + 1).product()
    }

    fn end(&self) -> i64 {
        self.start + self.len() * self.elem.cells()
    }

    fn declarator(&self) -> String {
        if self.dims.is_empty() {
            return self.name.clone();
        }
        let dims: Vec<String> = self
            .dims
            .iter()
            .map(|&(l, h)| {
                if l == 1 {
                    h.to_string()
                } else {
                    format!("{l}:{h}")
                }
            })
            .collect();
        format!("{}({})", self.name, dims.join(","))
    }

    /// The element of 0-based column-major index `k`, as written in an
    /// EQUIVALENCE (an array's name alone is its first element).
    fn element(&self, k: i64, bare: bool) -> String {
        if self.dims.is_empty() || (k == 0 && bare) {
            return self.name.clone();
        }
        let mut rest = k;
        let subs: Vec<String> = self
            .dims
            .iter()
            .map(|&(l, h)| {
                let extent = h - l + 1;
                let s = l + rest % extent;
                rest /= extent;
                s.to_string()
            })
            .collect();
        format!("{}({})", self.name, subs.join(","))
    }
}

/// The names of one unit: COMMON members (the first `members`, in order)
/// and names placed by EQUIVALENCE sets of (name, element index).
#[derive(Default)]
struct Layout {
    vars: Vec<Var>,
    members: usize,
    sets: Vec<Vec<(usize, i64)>>,
    next_name: usize,
}

/// One typed segment of the COMMON block: first cell and element count.
#[derive(Clone, Copy)]
struct Segment {
    elem: Elem,
    first: i64,
    len: i64,
}

impl Segment {
    fn end(&self) -> i64 {
        self.first + self.len * self.elem.cells()
    }
}

struct StorageGen {
    rng: Rng,
    segments: Vec<Segment>,
    /// Range of the DO variables I, J and of the dummy K.
    ranges: [Range; 3],
    subs: usize,
}

/// A program on EQUIVALENCE and COMMON storage association.
pub fn storage_program(seed: u64) -> Generated {
    let mut rng = Rng::new(seed);
    let form = Form::either(&mut rng);
    let ni = rng.range(3, 6);
    let nj = rng.range(2, 3);
    let subs = rng.range(1, 2) as usize;
    let mut g = StorageGen {
        rng,
        segments: Vec::new(),
        ranges: [
            Range { lo: 1, hi: ni },
            Range { lo: 1, hi: nj },
            Range { lo: 1, hi: ni },
        ],
        subs,
    };
    g.plan_segments();
    let main = g.main_layout();
    let sub_layouts: Vec<Layout> = (0..subs).map(|s| g.sub_layout(s)).collect();

    let mut e = Emitter::new(form);
    e.comment(&format!(
        "generated by kaiseki-judge storage_program({seed})"
    ));
    e.stmt("PROGRAM STORE");
    e.stmt("INTEGER I, J");
    declare(&mut e, &main);
    for v in &main.vars {
        initialize(&mut e, v);
    }
    g.main_body(&mut e, &main);
    let items: Vec<String> = main
        .vars
        .iter()
        .map(|v| {
            if v.dims.is_empty() {
                v.name.clone()
            } else {
                format!("SUM({})", v.name)
            }
        })
        .collect();
    for chunk in items.chunks(6) {
        e.stmt(&format!("PRINT *, {}", chunk.join(", ")));
    }
    e.stmt("END");
    for (s, layout) in sub_layouts.iter().enumerate() {
        g.subroutine(&mut e, s, layout);
    }
    let ext = if form == Form::Fixed { "f" } else { "f90" };
    Generated {
        file_name: format!("gen_storage_{seed}.{ext}"),
        source: e.finish(),
        inputs: vec![Vec::new()],
    }
}

fn sub_name(s: usize) -> String {
    format!("SUB{}", s + 1)
}

/// Type statements, the COMMON statement and the EQUIVALENCE sets.
fn declare(e: &mut Emitter, layout: &Layout) {
    for elem in [Elem::Int, Elem::Real, Elem::Double] {
        let names: Vec<String> = layout
            .vars
            .iter()
            .filter(|v| v.elem == elem)
            .map(Var::declarator)
            .collect();
        if !names.is_empty() {
            e.stmt(&format!("{} {}", elem.declaration(), names.join(", ")));
        }
    }
    let members: Vec<&str> = layout.vars[..layout.members]
        .iter()
        .map(|v| v.name.as_str())
        .collect();
    e.stmt(&format!("COMMON /{BLOCK}/ {}", members.join(", ")));
    if layout.sets.is_empty() {
        return;
    }
    let sets: Vec<String> = layout
        .sets
        .iter()
        .enumerate()
        .map(|(n, set)| {
            let items: Vec<String> = set
                .iter()
                .map(|&(v, k)| layout.vars[v].element(k, n % 2 == 1))
                .collect();
            format!("({})", items.join(", "))
        })
        .collect();
    e.stmt(&format!("EQUIVALENCE {}", sets.join(", ")));
}

/// Gives every element of `v` a small value of its type.
fn initialize(e: &mut Emitter, v: &Var) {
    match v.dims.as_slice() {
        [] => {
            let value = v.elem.literal(v.start.rem_euclid(7) + 1);
            e.stmt(&format!("{} = {value}", v.name));
        }
        [(l, h)] => {
            e.open_do(&format!("I = {l}, {h}"), false);
            let c = v.start.rem_euclid(5) + 3;
            let value = v.elem.of_int(&format!("MOD(3*I + {c}, 13)"));
            e.stmt(&format!("{}(I) = {value}", v.name));
            e.close_do();
        }
        dims => {
            let (l1, h1) = dims[0];
            let (l2, h2) = dims[1];
            e.open_do(&format!("J = {l2}, {h2}"), false);
            e.open_do(&format!("I = {l1}, {h1}"), false);
            let value = v.elem.of_int("MOD(2*I + 5*J, 11)");
            e.stmt(&format!("{}(I,J) = {value}", v.name));
            e.close_do();
            e.close_do();
        }
    }
}

impl StorageGen {
    /// The COMMON block: DOUBLE PRECISION elements (sometimes), then one or
    /// two segments of INTEGER or REAL.
    fn plan_segments(&mut self) {
        let mut elems = Vec::new();
        if self.rng.chance(40) {
            elems.push(Elem::Double);
        }
        let single = *self.rng.pick(&[Elem::Real, Elem::Real, Elem::Int]);
        elems.push(single);
        if self.rng.chance(40) {
            elems.push(if single == Elem::Int {
                Elem::Real
            } else {
                Elem::Int
            });
        }
        let mut first = 0;
        for elem in elems {
            let len = if elem == Elem::Double {
                self.rng.range(2, 5)
            } else {
                self.rng.range(5, 14)
            };
            self.segments.push(Segment { elem, first, len });
            first += len * elem.cells();
        }
    }

    /// The main program's names: COMMON members covering the block (all of
    /// it, or all but a tail that an EQUIVALENCEd array extends it by), an
    /// overlay now and then, and one or two classes of its own.
    fn main_layout(&mut self) -> Layout {
        let mut l = Layout::default();
        let segments = self.segments.clone();
        let last = segments.len() - 1;
        let tail = segments[last].len;
        let extend = tail >= 3 && self.rng.chance(60);
        for (n, seg) in segments.iter().enumerate() {
            let len = if n == last && extend {
                self.rng.range(1, tail - 2)
            } else {
                seg.len
            };
            self.split(&mut l, "M", *seg, len);
        }
        l.members = l.vars.len();
        if extend {
            // From an element of the members on to the end of the block.
            let seg = segments[last];
            let covered = l.vars[l.members - 1].end();
            let w = seg.elem.cells();
            let from = self.rng.range(seg.first / w, covered / w - 1) * w;
            let len = (seg.end() - from) / w;
            let dims = self.shape(len);
            let z = self.add(&mut l, "M", seg.elem, dims, 0, from);
            self.link_to_members(&mut l, z);
        }
        if self.rng.chance(40) {
            self.overlay(&mut l, "M");
        }
        for area in 1..=self.rng.range(1, 2) as usize {
            self.class(&mut l, area);
        }
        l
    }

    fn sub_layout(&mut self, s: usize) -> Layout {
        let prefix = ["P", "Q"][s];
        let mut l = Layout::default();
        for seg in self.segments.clone() {
            self.split(&mut l, prefix, seg, seg.len);
        }
        l.members = l.vars.len();
        if self.rng.chance(50) {
            self.overlay(&mut l, prefix);
        }
        l
    }

    /// Members for the first `len` elements of `seg`: one to three names.
    fn split(&mut self, l: &mut Layout, prefix: &str, seg: Segment, len: i64) {
        let parts = self.rng.range(1, len.min(3));
        let mut cuts: Vec<i64> = Vec::new();
        while (cuts.len() as i64) < parts - 1 {
            let c = self.rng.range(1, len - 1);
            if !cuts.contains(&c) {
                cuts.push(c);
            }
        }
        cuts.sort_unstable();
        cuts.push(len);
        let mut at = 0;
        for cut in cuts {
            let dims = self.shape(cut - at);
            let start = seg.first + at * seg.elem.cells();
            self.add(l, prefix, seg.elem, dims, 0, start);
            at = cut;
        }
    }

    /// Bounds for `len` elements: a scalar, a 2-D array, or a 1-D array
    /// whose lower bound is not always 1.
    fn shape(&mut self, len: i64) -> Vec<(i64, i64)> {
        if len == 1 && self.rng.chance(80) {
            return Vec::new();
        }
        let rows: Vec<i64> = (2..=len / 2).filter(|r| len % r == 0).collect();
        if !rows.is_empty() && self.rng.chance(35) {
            let r = *self.rng.pick(&rows);
            return vec![(1, r), (1, len / r)];
        }
        let lower = *self.rng.pick(&[1, 1, 1, 0, -1, 2]);
        vec![(lower, lower + len - 1)]
    }

    fn add(
        &mut self,
        l: &mut Layout,
        prefix: &str,
        elem: Elem,
        dims: Vec<(i64, i64)>,
        area: usize,
        start: i64,
    ) -> usize {
        l.next_name += 1;
        l.vars.push(Var {
            name: format!("{prefix}{}", l.next_name),
            elem,
            dims,
            area,
            start,
        });
        l.vars.len() - 1
    }

    /// An EQUIVALENCE set putting `v` on a COMMON member it overlaps.
    fn link_to_members(&mut self, l: &mut Layout, v: usize) {
        let overlapping: Vec<usize> = (0..l.members)
            .filter(|&m| shared_elements(&l.vars[m], &l.vars[v]).is_some())
            .collect();
        let m = *self.rng.pick(&overlapping);
        let (km, kv) = self.shared(&l.vars[m], &l.vars[v]);
        l.sets.push(vec![(m, km), (v, kv)]);
    }

    /// A random element both names cover: its index in each.
    fn shared(&mut self, a: &Var, b: &Var) -> (i64, i64) {
        let (from, to) = shared_elements(a, b).unwrap_or((a.start, a.start + 1));
        let w = a.elem.cells();
        let cell = from + self.rng.range(0, (to - from) / w - 1) * w;
        ((cell - a.start) / w, (cell - b.start) / w)
    }

    /// A name inside one segment of the block, on the members there.
    fn overlay(&mut self, l: &mut Layout, prefix: &str) {
        let covered = l.vars[..l.members].iter().map(Var::end).max().unwrap_or(0);
        let full: Vec<Segment> = self
            .segments
            .iter()
            .copied()
            .filter(|s| s.end() <= covered)
            .collect();
        if full.is_empty() {
            return;
        }
        let seg = *self.rng.pick(&full);
        let len = self.rng.range(1, seg.len);
        let at = self.rng.range(0, seg.len - len);
        let dims = self.shape(len);
        let start = seg.first + at * seg.elem.cells();
        let v = self.add(l, prefix, seg.elem, dims, 0, start);
        self.link_to_members(l, v);
    }

    /// A class of the main program's own: two or three names of one type,
    /// each on an earlier one at a random offset, sometimes three in a set.
    fn class(&mut self, l: &mut Layout, area: usize) {
        let elem = *self
            .rng
            .pick(&[Elem::Int, Elem::Real, Elem::Real, Elem::Double]);
        let w = elem.cells();
        let len = self.rng.range(3, 8);
        let dims = self.shape(len);
        let first = self.add(l, "L", elem, dims, area, 0);
        let mut members = vec![first];
        for _ in 0..self.rng.range(1, 2) {
            let anchor = *self.rng.pick(&members);
            let a = l.vars[anchor].clone();
            let len = self.rng.range(1, 8);
            let at = self.rng.range(-(len - 1), a.len() - 1);
            let dims = self.shape(len);
            let v = self.add(l, "L", elem, dims, area, a.start + at * w);
            let (ka, kv) = self.shared(&a, &l.vars[v]);
            let mut set = vec![(anchor, ka), (v, kv)];
            if self.rng.chance(30) {
                let cell = a.start + ka * w;
                let len = self.rng.range(1, 5);
                let before = self.rng.range(0, len - 1);
                let dims = self.shape(len);
                let third = self.add(l, "L", elem, dims, area, cell - before * w);
                set.push((third, before));
                members.push(third);
            }
            l.sets.push(set);
            members.push(v);
        }
    }

    /// Two to four phases after the initialization: loop nests over I (and
    /// J) with assignments, IFs and calls, and statements and calls outside
    /// loops; every subroutine is called inside a loop and outside.
    fn main_body(&mut self, e: &mut Emitter, l: &Layout) {
        let phases = self.rng.range(2, 4) as usize;
        let in_loop: Vec<usize> = (0..self.subs)
            .map(|_| self.rng.range(0, phases as i64 - 1) as usize)
            .collect();
        for p in 0..phases {
            let calls: Vec<usize> = (0..self.subs).filter(|s| in_loop[*s] == p).collect();
            if !calls.is_empty() || self.rng.chance(60) {
                self.main_nest(e, l, &calls);
            } else {
                self.statement(e, l, &[], None);
            }
        }
        for s in 0..self.subs {
            let arg = self.rng.range(1, self.ranges[I].hi);
            e.stmt(&format!("CALL {}({arg})", sub_name(s)));
            if self.rng.chance(50) {
                self.statement(e, l, &[], None);
            }
        }
    }

    /// A DO nest over I (and sometimes J inside) with one to three
    /// statements and a call of each of `calls` among them.
    fn main_nest(&mut self, e: &mut Emitter, l: &Layout, calls: &[usize]) {
        let labelled = self.rng.chance(50);
        let ni = self.ranges[I].hi;
        let header = match self.rng.range(0, 4) {
            0 => format!("I = {ni}, 1, -1"),
            1 => format!("I = 1, {ni}, 2"),
            _ => format!("I = 1, {ni}"),
        };
        e.open_do(&header, labelled);
        let inner = self.rng.chance(35);
        let n = self.rng.range(1, 3) as usize + calls.len();
        let mut forced: Vec<Option<usize>> = vec![None; n];
        for &s in calls {
            let free: Vec<usize> = (0..n).filter(|k| forced[*k].is_none()).collect();
            forced[*self.rng.pick(&free)] = Some(s);
        }
        if inner {
            e.open_do(&format!("J = 1, {}", self.ranges[J].hi), labelled);
        }
        let active: &[usize] = if inner { &[I, J] } else { &[I] };
        for call in forced {
            self.statement(e, l, active, call);
        }
        if inner {
            e.close_do();
        }
        e.close_do();
    }

    /// An assignment, an IF on a value or a DO variable, or a call
    /// (`call` forces one) passing an active DO variable or a constant.
    fn statement(&mut self, e: &mut Emitter, l: &Layout, active: &[usize], call: Option<usize>) {
        let roll = self.rng.range(0, 99);
        if call.is_some() || roll >= 80 {
            let s = call.unwrap_or_else(|| self.rng.range(0, self.subs as i64 - 1) as usize);
            let arg = match active {
                [] => self.rng.range(1, self.ranges[I].hi).to_string(),
                vars => LOOP_VARS[*self.rng.pick(vars)].to_string(),
            };
            e.stmt(&format!("CALL {}({arg})", sub_name(s)));
        } else if roll >= 60 {
            self.if_block(e, l, active);
        } else {
            let text = self.assignment(l, active);
            e.stmt(&text);
        }
    }

    fn if_block(&mut self, e: &mut Emitter, l: &Layout, active: &[usize]) {
        let cond = match active {
            [v, ..] if self.rng.chance(40) => format!("MOD({}, 2) .EQ. 0", LOOP_VARS[*v]),
            _ => {
                let v = self.rng.range(0, l.vars.len() as i64 - 1) as usize;
                let var = &l.vars[v];
                let r = self.reference(var, active);
                format!("{r} .GT. {}", var.elem.literal(self.rng.range(3, 40)))
            }
        };
        e.stmt(&format!("IF ({cond}) THEN"));
        e.indent();
        let then = self.assignment(l, active);
        e.stmt(&then);
        e.dedent();
        if self.rng.chance(60) {
            e.stmt("ELSE");
            e.indent();
            let other = self.assignment(l, active);
            e.stmt(&other);
            e.dedent();
        }
        e.stmt("END IF");
    }

    /// `lhs = MOD(sum of references + constant, 97)`, all of the left
    /// side's type, mostly names of its own storage (where the aliasing is).
    fn assignment(&mut self, l: &Layout, active: &[usize]) -> String {
        let v = self.rng.range(0, l.vars.len() as i64 - 1) as usize;
        let lhs = &l.vars[v];
        let same_type: Vec<&Var> = l.vars.iter().filter(|w| w.elem == lhs.elem).collect();
        let same_area: Vec<&Var> = same_type
            .iter()
            .copied()
            .filter(|w| w.area == lhs.area)
            .collect();
        let mut terms = Vec::new();
        for _ in 0..self.rng.range(1, 2) {
            let pool = if self.rng.chance(75) {
                &same_area
            } else {
                &same_type
            };
            let w = *self.rng.pick(pool);
            terms.push(self.reference(w, active));
        }
        if let (true, [first, ..]) = (self.rng.chance(30), active) {
            terms.push(lhs.elem.of_int(LOOP_VARS[*first]));
        }
        let c = lhs.elem.literal(self.rng.range(1, 9));
        let text = format!(
            "{} = MOD({} + {c}, {})",
            self.reference(lhs, active),
            terms.join(" + "),
            lhs.elem.literal(97)
        );
        text
    }

    /// A reference to `v` whose subscripts are affine in the active
    /// variables when they fit the bounds for all their values, else
    /// constants.
    fn reference(&mut self, v: &Var, active: &[usize]) -> String {
        if v.dims.is_empty() {
            return v.name.clone();
        }
        let subs: Vec<String> = v
            .dims
            .iter()
            .map(|&(lo, hi)| self.subscript(lo, hi, active))
            .collect();
        format!("{}({})", v.name, subs.join(","))
    }

    fn subscript(&mut self, lo: i64, hi: i64, active: &[usize]) -> String {
        if !active.is_empty() && self.rng.chance(85) {
            let var = *self.rng.pick(active);
            let coef = *self.rng.pick(&[1, 1, 1, -1, 2]);
            let r = Affine {
                constant: 0,
                coefs: vec![(var, coef)],
            }
            .range(&self.ranges);
            if lo - r.lo <= hi - r.hi {
                return Affine {
                    constant: self.rng.range(lo - r.lo, hi - r.hi),
                    coefs: vec![(var, coef)],
                }
                .text();
            }
        }
        self.rng.range(lo, hi).to_string()
    }

    /// `SUBROUTINE SUBn(K)`: its layout of the block, statements on K, a
    /// loop over J, and (the second one, sometimes) a call of the first.
    fn subroutine(&mut self, e: &mut Emitter, s: usize, l: &Layout) {
        e.stmt(&format!("SUBROUTINE {}(K)", sub_name(s)));
        e.stmt("INTEGER K, J");
        declare(e, l);
        for _ in 0..self.rng.range(1, 2) {
            self.statement_in_sub(e, l, &[K]);
        }
        if self.rng.chance(60) {
            e.open_do(
                &format!("J = 1, {}", self.ranges[J].hi),
                self.rng.chance(50),
            );
            for _ in 0..self.rng.range(1, 2) {
                self.statement_in_sub(e, l, &[K, J]);
            }
            e.close_do();
        }
        if s == 1 && self.rng.chance(50) {
            e.stmt(&format!("CALL {}(K)", sub_name(0)));
        }
        e.stmt("END");
    }

    fn statement_in_sub(&mut self, e: &mut Emitter, l: &Layout, active: &[usize]) {
        if self.rng.chance(25) {
            self.if_block(e, l, active);
        } else {
            let text = self.assignment(l, active);
            e.stmt(&text);
        }
    }
}

/// The cells both names cover, when they share storage: [from, to).
fn shared_elements(a: &Var, b: &Var) -> Option<(i64, i64)> {
    let (from, to) = (a.start.max(b.start), a.end().min(b.end()));
    (a.area == b.area && from < to).then_some((from, to))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elements_are_written_in_column_order() {
        let m = Var {
            name: "M".into(),
            elem: Elem::Real,
            dims: vec![(1, 3), (0, 1)],
            area: 1,
            start: 0,
        };
        assert_eq!(m.element(0, false), "M(1,0)");
        assert_eq!(m.element(0, true), "M");
        assert_eq!(m.element(4, false), "M(2,1)");
        assert_eq!(m.declarator(), "M(3,0:1)");
        assert_eq!(m.end(), 6);
    }
}
