//! Random affine loop nests: depth 1-3, steps 1, 2 and -1, constant,
//! symbolic (N, read or assigned) and triangular bounds, 1-4 statements on
//! arrays of rank 1-2 subscripted by affine functions of the DO variables
//! (coefficients -3..3, some coupled). Each array is declared with the
//! bounds its subscripts can reach, so no access is ever out of bounds.

use super::emit::{Emitter, Form};
use super::{Generated, Rng};

pub(super) const LOOP_VARS: [&str; 3] = ["I", "J", "K"];
/// The variables an [`Affine`] subscript may use: the DO variables, then
/// the induction variable and the scalar offset of [`super::shared_nests`].
pub(super) const VARS: [&str; 5] = ["I", "J", "K", "M", "L"];
pub(super) const IV: usize = 3;
pub(super) const OFFSET: usize = 4;
pub(super) const ARRAYS: [&str; 2] = ["A", "B"];

/// A closed integer interval.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Range {
    pub lo: i64,
    pub hi: i64,
}

impl Range {
    pub fn point(c: i64) -> Range {
        Range { lo: c, hi: c }
    }

    /// The values between `a` and `b`, whichever is larger.
    pub fn between(a: i64, b: i64) -> Range {
        Range {
            lo: a.min(b),
            hi: a.max(b),
        }
    }

    fn shift(self, c: i64) -> Range {
        Range {
            lo: self.lo + c,
            hi: self.hi + c,
        }
    }

    fn scale(self, k: i64) -> Range {
        let (a, b) = (self.lo * k, self.hi * k);
        Range {
            lo: a.min(b),
            hi: a.max(b),
        }
    }

    fn add(self, o: Range) -> Range {
        Range {
            lo: self.lo + o.lo,
            hi: self.hi + o.hi,
        }
    }

    fn join(self, o: Range) -> Range {
        Range {
            lo: self.lo.min(o.lo),
            hi: self.hi.max(o.hi),
        }
    }
}

/// A loop bound: text and the values it can take.
struct Bound {
    text: String,
    range: Range,
}

/// An affine subscript `const + sum coef * var` (vars index [`VARS`]).
#[derive(Clone)]
pub(super) struct Affine {
    pub constant: i64,
    pub coefs: Vec<(usize, i64)>,
}

impl Affine {
    pub fn text(&self) -> String {
        let mut s = String::new();
        for &(v, c) in &self.coefs {
            let name = VARS[v];
            let term = match c.abs() {
                1 => name.to_string(),
                a => format!("{a}*{name}"),
            };
            match (s.is_empty(), c < 0) {
                (true, true) => s = format!("-{term}"),
                (true, false) => s = term,
                (false, true) => s = format!("{s} - {term}"),
                (false, false) => s = format!("{s} + {term}"),
            }
        }
        match (s.is_empty(), self.constant) {
            (true, c) => c.to_string(),
            (false, 0) => s,
            (false, c) if c < 0 => format!("{s} - {}", -c),
            (false, c) => format!("{s} + {c}"),
        }
    }

    /// The values it takes when each variable ranges over `vars`.
    pub fn range(&self, vars: &[Range]) -> Range {
        self.coefs
            .iter()
            .fold(Range::point(self.constant), |r, &(v, c)| {
                r.add(vars[v].scale(c))
            })
    }
}

/// Array references and statements over [`ARRAYS`], recording the
/// subscript ranges each array must be declared with.
pub(super) struct AffineGen {
    pub rng: Rng,
    /// The DO variables of loops 1..=depth are in scope.
    pub depth: usize,
    ranks: Vec<usize>,
    /// Values each variable of [`VARS`] can take where the statements being
    /// generated stand.
    pub vars: [Range; VARS.len()],
    /// The variables past the DO variables that subscripts may use there.
    pub extra: Vec<usize>,
    /// Per array and dimension, the subscript values of all references.
    extents: Vec<Vec<Option<Range>>>,
    /// References come back now and then (see [`AffineGen::reference`]).
    pub reread: bool,
    /// The latest references made, by array and subscripts.
    recent: Vec<(usize, Vec<Affine>)>,
}

/// A statement of the nest, placed in the body of loop `level` (1-based),
/// before or after the inner loop.
struct Placed {
    level: usize,
    after: bool,
    text: String,
}

/// A random affine loop nest with the arrays it needs and a checksum print.
pub fn affine_nest(seed: u64) -> Generated {
    nest_program(seed, false)
}

/// The nest of [`affine_nest`]`(seed)` run 3 times in an outer loop `DO
/// KT` that prints the checksums after each step: each step starts from
/// what the one before left, and the PRINT keeps the outer loop out of any
/// band, so the nest inside is one of its own (a time loop's stencil).
pub fn affine_nest_in_time_loop(seed: u64) -> Generated {
    nest_program(seed, true)
}

fn nest_program(seed: u64, time_loop: bool) -> Generated {
    let mut rng = Rng::new(seed);
    let form = Form::either(&mut rng);
    let depth = rng.range(1, 3) as usize;
    let read_n = rng.chance(60);
    let (nmin, nmax) = if read_n {
        let lo = rng.range(0, 3);
        (lo, lo + rng.range(2, 6))
    } else {
        let c = rng.range(3, 8);
        (c, c)
    };
    let mut g = AffineGen::new(rng);
    g.depth = depth;
    let n = Range { lo: nmin, hi: nmax };
    let headers: Vec<String> = (0..depth).map(|level| g.loop_header(level, n)).collect();
    let n_stmts = g.rng.range(1, 4);
    let stmts: Vec<Placed> = (0..n_stmts).map(|_| g.statement()).collect();

    let mut e = Emitter::new(form);
    e.comment(&format!("generated by kaiseki-judge affine_nest({seed})"));
    e.stmt("PROGRAM NEST");
    e.stmt(if time_loop {
        "INTEGER N, I, J, K, KT"
    } else {
        "INTEGER N, I, J, K"
    });
    e.stmt(&format!("REAL {}, S, T", g.declarations()));
    if read_n {
        e.stmt("READ (*,*) N");
    } else {
        e.stmt(&format!("N = {nmin}"));
    }
    e.stmt("I = 0");
    e.stmt("J = 0");
    e.stmt("K = 0");
    e.stmt("S = 0.0");
    e.stmt("T = 1.0");
    g.init_arrays(&mut e);
    let labelled = g.rng.chance(50);
    if time_loop {
        e.open_do("KT = 1, 3", labelled);
        emit_nest(&mut e, &headers, &stmts, 1, labelled);
        e.stmt("PRINT *, KT, SUM(A), SUM(B), S, T");
        e.close_do();
    } else {
        emit_nest(&mut e, &headers, &stmts, 1, labelled);
    }
    e.stmt("PRINT *, SUM(A), SUM(B), S, T, N, I, J, K");
    e.stmt("END");

    let inputs = if read_n {
        vec![
            vec![nmax.to_string()],
            vec![g.rng.range(nmin, nmax).to_string()],
        ]
    } else {
        vec![Vec::new()]
    };
    let ext = if form == Form::Fixed { "f" } else { "f90" };
    Generated {
        file_name: format!(
            "gen_{}_{seed}.{ext}",
            if time_loop { "time" } else { "nest" }
        ),
        source: e.finish(),
        inputs,
    }
}

/// Every element gets a small integer value, so sums are exact.
fn init_array(e: &mut Emitter, name: &str, dims: &[Option<Range>]) {
    let r: Vec<Range> = dims.iter().map(|d| d.unwrap_or(Range::point(1))).collect();
    match r.as_slice() {
        [d1] => {
            e.open_do(&format!("I = {}, {}", d1.lo, d1.hi), false);
            e.stmt(&format!("{name}(I) = REAL(MOD(7*I + 3, 11))"));
            e.close_do();
        }
        [d1, d2] => {
            e.open_do(&format!("J = {}, {}", d2.lo, d2.hi), false);
            e.open_do(&format!("I = {}, {}", d1.lo, d1.hi), false);
            e.stmt(&format!("{name}(I,J) = REAL(MOD(3*I + 5*J, 13))"));
            e.close_do();
            e.close_do();
        }
        _ => {}
    }
}

fn emit_nest(e: &mut Emitter, headers: &[String], stmts: &[Placed], level: usize, labelled: bool) {
    let Some(header) = headers.get(level - 1) else {
        return;
    };
    e.open_do(header, labelled);
    for s in stmts.iter().filter(|s| s.level == level && !s.after) {
        e.stmt(&s.text);
    }
    emit_nest(e, headers, stmts, level + 1, labelled);
    for s in stmts.iter().filter(|s| s.level == level && s.after) {
        e.stmt(&s.text);
    }
    e.close_do();
}

impl AffineGen {
    /// Ranks 1 or 2 for each of [`ARRAYS`], drawn from `rng`.
    pub fn new(mut rng: Rng) -> AffineGen {
        let ranks: Vec<usize> = ARRAYS.iter().map(|_| rng.range(1, 2) as usize).collect();
        AffineGen {
            rng,
            depth: 0,
            extents: ranks.iter().map(|r| vec![None; *r]).collect(),
            ranks,
            vars: [Range::point(0); VARS.len()],
            extra: Vec::new(),
            reread: false,
            recent: Vec::new(),
        }
    }

    /// `A(lo:hi), B(lo:hi,lo:hi)`: the arrays with the bounds their
    /// references reach.
    pub fn declarations(&self) -> String {
        let decls: Vec<String> = ARRAYS
            .iter()
            .zip(&self.extents)
            .map(|(a, dims)| {
                let bounds: Vec<String> = dims
                    .iter()
                    .map(|d| {
                        let r = d.unwrap_or(Range::point(1));
                        format!("{}:{}", r.lo, r.hi)
                    })
                    .collect();
                format!("{a}({})", bounds.join(","))
            })
            .collect();
        decls.join(", ")
    }

    /// Per array of [`ARRAYS`], the bounds of each dimension its
    /// references reach (`1:1` for a dimension none reaches).
    pub fn bounds(&self) -> Vec<Vec<Range>> {
        self.extents
            .iter()
            .map(|dims| dims.iter().map(|d| d.unwrap_or(Range::point(1))).collect())
            .collect()
    }

    /// Loops giving every element of every array a value.
    pub fn init_arrays(&self, e: &mut Emitter) {
        for (a, dims) in ARRAYS.iter().zip(&self.extents) {
            init_array(e, a, dims);
        }
    }

    /// The DO header of loop `level` (0-based) inside loops `0..level`; its
    /// variable's values become `vars[level]`.
    pub fn loop_header(&mut self, level: usize, n: Range) -> String {
        let var = LOOP_VARS[level];
        let outer = level.checked_sub(1);
        let low = match outer {
            Some(o) if self.rng.chance(25) => {
                let c = self.rng.range(0, 1);
                Bound {
                    text: offset_text(LOOP_VARS[o], c),
                    range: self.vars[o].shift(c),
                }
            }
            _ => {
                let c = self.rng.range(1, 3);
                Bound {
                    text: c.to_string(),
                    range: Range::point(c),
                }
            }
        };
        let high = match self.rng.range(0, 2) {
            0 => {
                let c = self.rng.range(-1, 1);
                Bound {
                    text: offset_text("N", c),
                    range: n.shift(c),
                }
            }
            1 if outer.is_some() => {
                let o = level - 1;
                let c = self.rng.range(0, 2);
                Bound {
                    text: offset_text(LOOP_VARS[o], c),
                    range: self.vars[o].shift(c),
                }
            }
            _ => {
                let c = low.range.hi + self.rng.range(0, 6);
                Bound {
                    text: c.to_string(),
                    range: Range::point(c),
                }
            }
        };
        self.vars[level] = Range {
            lo: low.range.lo,
            hi: high.range.hi.max(low.range.lo),
        };
        match self.rng.range(0, 9) {
            0 | 1 => format!("{var} = {}, {}, 2", low.text, high.text),
            2 | 3 => format!("{var} = {}, {}, -1", high.text, low.text),
            _ => format!("{var} = {}, {}", low.text, high.text),
        }
    }

    fn statement(&mut self) -> Placed {
        let level = self.rng.range(1, self.depth as i64) as usize;
        let after = level < self.depth && self.rng.chance(40);
        let text = self.assignment(level);
        Placed { level, after, text }
    }

    /// An assignment in the body of loop `level` (0: outside loops): to S
    /// or T from an element, or to an element from elements, S or T and a
    /// DO variable.
    pub fn assignment(&mut self, level: usize) -> String {
        match self.rng.range(0, 9) {
            0 | 1 => format!("S = MOD(S + {}, 997.0)", self.reference(level)),
            2 => format!("T = {}", self.reference(level)),
            _ => {
                let lhs = self.reference(level);
                let mut terms = vec![self.reference(level)];
                if self.rng.chance(50) {
                    terms.push(self.reference(level));
                }
                if self.rng.chance(30) {
                    terms.push(self.rng.pick(&["S", "T"]).to_string());
                }
                if level > 0 && self.rng.chance(30) {
                    terms.push(format!(
                        "REAL({})",
                        LOOP_VARS[self.rng.range(0, level as i64 - 1) as usize]
                    ));
                }
                let c = self.rng.range(1, 5);
                format!("{lhs} = MOD({} + {c}.0, 997.0)", terms.join(" + "))
            }
        }
    }

    /// An array reference whose subscripts use the DO variables of the
    /// loops enclosing `level` (and [`AffineGen::extra`]); records the
    /// subscript ranges it reaches.
    ///
    /// With `reread`, now and then one of the latest references made
    /// comes back where the variables of its subscripts are in scope (the
    /// DO variables of the loops around, the offset L): `A(I)` read again
    /// in the same iteration, in a later one, or in another nest.
    pub(super) fn reference(&mut self, level: usize) -> String {
        if self.reread && self.rng.chance(40) {
            let fits: Vec<(usize, Vec<Affine>)> = self
                .recent
                .iter()
                .filter(|(_, subs)| {
                    subs.iter()
                        .flat_map(|f| &f.coefs)
                        .all(|&(v, _)| v < level || v == OFFSET)
                })
                .cloned()
                .collect();
            if !fits.is_empty() {
                let (a, subs) = self.rng.pick(&fits).clone();
                return self.record(a, subs);
            }
        }
        let a = self.rng.range(0, ARRAYS.len() as i64 - 1) as usize;
        let rank = self.ranks[a];
        let coupled = level > 0 && rank == 2 && self.rng.chance(30);
        let shared = self.rng.range(0, level as i64 - 1) as usize;
        let mut subs = Vec::with_capacity(rank);
        for _ in 0..rank {
            let f = if coupled {
                Affine {
                    constant: self.rng.range(-2, 2),
                    coefs: vec![(shared, *self.rng.pick(&[1, 1, 2, -1]))],
                }
            } else {
                self.affine(level)
            };
            subs.push(f);
        }
        if self.reread {
            self.recent.push((a, subs.clone()));
            if self.recent.len() > 6 {
                self.recent.remove(0);
            }
        }
        self.record(a, subs)
    }

    /// The reference to array `a` by `subs`, whose subscript values here
    /// its dimensions' extents take in.
    fn record(&mut self, a: usize, subs: Vec<Affine>) -> String {
        let mut texts = Vec::with_capacity(subs.len());
        for (d, f) in subs.iter().enumerate() {
            let r = f.range(&self.vars);
            let slot = &mut self.extents[a][d];
            *slot = Some(slot.map_or(r, |old| old.join(r)));
            texts.push(f.text());
        }
        format!("{}({})", ARRAYS[a], texts.join(","))
    }

    fn affine(&mut self, level: usize) -> Affine {
        let mut f = if level > 0 && self.rng.chance(50) {
            let v = self.rng.range(0, level as i64 - 1) as usize;
            let c = if self.rng.chance(85) { 1 } else { -1 };
            Affine {
                constant: self.rng.range(-2, 2),
                coefs: vec![(v, c)],
            }
        } else {
            let coefs = (0..level)
                .map(|v| (v, *self.rng.pick(&[-3, -2, -1, 0, 0, 0, 1, 1, 2, 3])))
                .filter(|(_, c)| *c != 0)
                .collect();
            Affine {
                constant: self.rng.range(-3, 3),
                coefs,
            }
        };
        if !self.extra.is_empty() && self.rng.chance(40) {
            let extra = self.extra.clone();
            let v = *self.rng.pick(&extra);
            f.coefs.push((v, *self.rng.pick(&[1, 1, -1, 2])));
        }
        f
    }
}

pub(super) fn offset_text(name: &str, c: i64) -> String {
    match c {
        0 => name.to_string(),
        c if c < 0 => format!("{name} - {}", -c),
        c => format!("{name} + {c}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn affine_text_and_range() {
        let f = Affine {
            constant: -1,
            coefs: vec![(0, 2), (1, -1)],
        };
        assert_eq!(f.text(), "2*I - J - 1");
        let vars = [Range { lo: 1, hi: 4 }, Range { lo: 0, hi: 3 }];
        assert_eq!(f.range(&vars), Range { lo: -2, hi: 7 });
        assert_eq!(
            Affine {
                constant: 3,
                coefs: vec![]
            }
            .text(),
            "3"
        );
        assert_eq!(
            Affine {
                constant: 0,
                coefs: vec![(2, -1)]
            }
            .text(),
            "-K"
        );
    }
}
