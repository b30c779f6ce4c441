//! Direction and distance vectors over all common loops, by hierarchical
//! refinement of the exact test.
//!
//! First the cheap bounds test (`ranges`): subscript ranges that
//! never overlap need no other question.
//!
//! The subscript equations are solved once in general form (the GCD test:
//! no integer solution, no dependence); the domain and each common loop's
//! distance `I'_g - I_g` are rewritten over the solution's parameters. Then,
//! from the outermost common loop in, each direction `<`, `=`, `>` is kept
//! only if the system with it is feasible. A loop whose distance is the same
//! in every solution gets its direction without a question, and so does a
//! direction that the parent's witness point already has. The `=` directions
//! are solved once per set of `=` loops (a `Frame`). Only vectors where U
//! runs first are built: the first non-`=` direction is `<`; or, asked for
//! both ways, also those starting with `>`, which are V then U's, so that
//! the two orders of a pair share the questions about `=`.
//!
//! A leaf's distance on a loop is given when it is the same in every solution
//! there: constant in the general solution, or proven by two more questions
//! (no solution with a larger, none with a smaller distance) after a look at
//! the witness's neighbours has not already found another distance.
//!
//! Questions that a known point answers are not asked (`samples`):
//! a node is feasible when a sample has its directions, a leaf's distance is
//! not single when two samples in it differ, and after a `<` (or `>`) a node whose
//! every further direction has a sample is one vector with `*` there (the
//! same dependences as its leaves, in one row). Only "infeasible" and
//! "single distance" always need the exact test.
//!
//! A pair with a loop bound the analysis does not know (`MIN(IGL+KBL-1,
//! N)`, an element of an index array: the domain is more iterations than
//! run) is searched coarsely: the directions of the loops inside the
//! carrier are not refined, each carrier gives one vector, `*` on every
//! loop inside it that has no fixed distance. Sound, since every dependence
//! of a carrier's subtree has the carrier's prefix; what is lost is which
//! inner directions a domain that large leaves out, while refining them
//! costs up to `3^k` vectors for `k` inner loops: in LAPACK's dgesvj (a
//! nest of five loops, the inner two bounded by `MIN`) 93 rows for one
//! pair of references and most of the time of `deps`. With every bound
//! known the search refines every loop (a subscript that is not affine is
//! any value of its dimension, which the refinement is exact about).
//!
//! The all-`=` vector (same iteration of every common loop) is returned when
//! U and V may meet in one iteration: whether U runs before V there is a
//! matter of their order in the loop body, which the caller knows. For V
//! then U, call with the references swapped and keep the all-`=` vector of
//! only the pair whose first reference comes first in the body. A reference
//! compared with itself meets itself there: that all-`=` vector is no
//! dependence.

use super::diophantine;
use super::direction::Dir;
use super::feasibility::{feasible_parts, Budget, Feasibility};
use super::linear::{Linear, Parametric};
use super::pair::Pair;
use super::samples::{Samples, Space};
use std::collections::BTreeMap;
use std::rc::Rc;

/// A set of dependences of U then V.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DepVector {
    /// One per common loop, outermost first.
    pub directions: Vec<Dir>,
    /// `I'_g - I_g` when every dependence of this vector has the same one.
    pub distances: Vec<Option<i64>>,
    /// Some dependence of this vector certainly happens (when both references
    /// execute in every iteration): the system is fully known and has an
    /// integer point. Otherwise the vector is only possible.
    pub exact: bool,
}

impl DepVector {
    /// The same dependences seen from the other reference: `<` and `>`
    /// swapped, distances negated.
    fn reversed(&self) -> DepVector {
        DepVector {
            directions: self
                .directions
                .iter()
                .map(|&d| match d {
                    Dir::Lt => Dir::Gt,
                    Dir::Gt => Dir::Lt,
                    other => other,
                })
                .collect(),
            distances: self
                .distances
                .iter()
                .map(|d| d.and_then(i64::checked_neg))
                .collect(),
            exact: self.exact,
        }
    }

    /// Same iteration of every common loop: the body order decides.
    pub fn is_loop_independent(&self) -> bool {
        self.directions.iter().all(|&d| d == Dir::Eq)
    }

    /// Does this vector include the dependence with these distances `I'_g - I_g`?
    pub fn covers(&self, distances: &[i64]) -> bool {
        distances.len() == self.directions.len()
            && self
                .directions
                .iter()
                .zip(&self.distances)
                .zip(distances)
                .all(|((&dir, &known), &d)| dir.holds(d) && known.is_none_or(|k| k == d))
    }
}

impl Pair<'_> {
    /// Every possible dependence of U then V, as direction vectors over the
    /// common loops. Sound: every pair of iterations where U and V touch the
    /// same element with U's iteration of the common loops not after V's is
    /// covered by some returned vector.
    pub fn dependence_vectors(&self) -> Vec<DepVector> {
        self.search(false)
    }

    /// The dependence vectors of U then V and those of V then U (as
    /// [`Pair::dependence_vectors`] of the swapped pair gives them), from one
    /// search: the two share its questions about `=` directions.
    pub fn dependence_vectors_both_ways(&self) -> (Vec<DepVector>, Vec<DepVector>) {
        let (mut forward, mut backward) = (Vec::new(), Vec::new());
        for vector in self.search(true) {
            match vector.directions.iter().find(|&&d| d != Dir::Eq) {
                Some(Dir::Lt) => forward.push(vector),
                Some(Dir::Gt) => backward.push(vector.reversed()),
                // Same iteration, or undecided: both ways.
                _ => {
                    backward.push(vector.reversed());
                    forward.push(vector);
                }
            }
        }
        (forward, backward)
    }

    /// The vectors of U then V; with `both_ways`, also those of V then U
    /// (with `>` where V's are `<`).
    fn search(&self, both_ways: bool) -> Vec<DepVector> {
        let anything = || {
            vec![DepVector {
                directions: vec![Dir::Star; self.common],
                distances: vec![None; self.common],
                exact: false,
            }]
        };
        if self.never_meet_by_ranges() {
            return Vec::new();
        }
        // The links of symbols scoped to the outermost loop always hold.
        let mut eqs = self.equations();
        eqs.extend(self.links_within(0));
        let solution = match diophantine::solve(&eqs, self.nvars()) {
            Ok(Some(solution)) => solution,
            Ok(None) => return Vec::new(),
            Err(_) => return anything(),
        };
        let over_t = |ls: &[Linear]| {
            ls.iter()
                .map(|l| l.substitute(&solution))
                .collect::<Result<Vec<_>, _>>()
        };
        let (depths, links): (Vec<usize>, Vec<Linear>) =
            self.links().iter().filter(|(p, _)| *p > 0).cloned().unzip();
        let (Ok(domain), Ok(distances), Ok(links)) = (
            over_t(&self.domain),
            over_t(
                &(0..self.common)
                    .map(|g| self.distance(g))
                    .collect::<Vec<_>>(),
            ),
            over_t(&links),
        ) else {
            return anything();
        };
        let nparams = solution.generators.len();
        if self.common == 0 {
            // No loop to refine (references in different nests, or outside
            // loops, the shape most pairs of a unit have): one question, the
            // one the search below would ask first (its frame of no `=` loop
            // changes no variable).
            return match feasible_parts(nparams, &[], &[&domain], &mut self.budget()) {
                Feasibility::Feasible(_) => vec![DepVector {
                    directions: Vec::new(),
                    distances: Vec::new(),
                    exact: self.closed && self.coincide_everywhere(&[]),
                }],
                Feasibility::Infeasible => Vec::new(),
                Feasibility::Unknown => anything(),
            };
        }
        let mut search = Search {
            nparams,
            domain,
            distances,
            links: depths.into_iter().zip(links).collect(),
            closed: self.closed,
            budget: self.budget(),
            frames: BTreeMap::new(),
            found: Vec::new(),
            samples: Samples::new(nparams, self.common),
            both_ways,
            coarse: !self.exact_domain,
        };
        let mut node = Node::default();
        match search.ask(&node, None) {
            Feasibility::Infeasible => {}
            Feasibility::Unknown => return anything(),
            Feasibility::Feasible(w) => search.refine(&mut node, &w),
        }
        let mut found = search.found;
        for v in found.iter_mut().filter(|v| v.exact) {
            v.exact = self.coincide_everywhere(&v.distances);
        }
        found
    }
}

/// The directions chosen so far; `constrained` lists the loops whose
/// direction is a constraint (the others have a fixed distance), `equal`
/// those of them constrained to `=`, which select the node's [`Frame`].
#[derive(Default)]
struct Node {
    directions: Vec<Dir>,
    constrained: Vec<usize>,
    equal: Vec<usize>,
}

impl Node {
    fn push(&mut self, g: usize, dir: Dir) {
        self.directions.push(dir);
        self.constrained.push(g);
        if dir == Dir::Eq {
            self.equal.push(g);
        }
    }

    fn pop(&mut self) {
        if self.directions.pop() == Some(Dir::Eq) {
            self.equal.pop();
        }
        self.constrained.pop();
    }
}

/// The system with some distances fixed to 0, solved once and shared by
/// every node with the same `=` loops: the general solution of those
/// equations (its parameters to the search's parameters), and the domain and
/// distances rewritten over its parameters.
struct Frame {
    map: Parametric,
    domain: Vec<Linear>,
    distances: Vec<Linear>,
    links: Vec<(usize, Linear)>,
}

/// The refinement's state. Points (witnesses) are over the parameters of the
/// general solution of the subscript equations.
struct Search {
    nparams: usize,
    domain: Vec<Linear>,
    distances: Vec<Linear>,
    /// The links of symbols scoped to inner common loops ([`Pair`]), with
    /// their loop's depth: equations where the loops outside it are `=`.
    links: Vec<(usize, Linear)>,
    closed: bool,
    budget: Budget,
    frames: BTreeMap<Vec<usize>, Option<Rc<Frame>>>,
    found: Vec<DepVector>,
    samples: Samples,
    /// Search the vectors of V then U too (a first non-`=` direction `>`).
    both_ways: bool,
    /// Stop at the carrier: one vector per carrier, `*` inside it (a
    /// bound is unknown, see the module's doc).
    coarse: bool,
}

/// Moves of the walk from the first witness, and from each later one. A
/// long first walk pays: its samples answer questions and let more nodes
/// be summarized (the nests benchmark: 150 -> 600 moves, 8% less time in
/// the search and 10% fewer rows). A coarse search (see the module's doc)
/// asks a few questions per carrier and summarizes nothing by samples: its
/// walks are all short (dgesvj with the routines it calls: the long walk
/// was a third of the time of `deps`).
const FIRST_WALK: usize = 600;
const WALK: usize = 30;

impl Search {
    /// The frame of these `=` loops (`None`: their distances cannot all be 0).
    fn frame(&mut self, equal: &[usize]) -> Option<Rc<Frame>> {
        if let Some(frame) = self.frames.get(equal) {
            return frame.clone();
        }
        let same = |h: usize| equal.contains(&h) || self.fixed(h).is_some_and(|(_, d)| d == 0);
        let mut eqs: Vec<Linear> = equal.iter().map(|&g| self.distances[g].clone()).collect();
        eqs.extend(
            self.links
                .iter()
                .filter(|(p, _)| (0..*p).all(same))
                .map(|(_, link)| link.clone()),
        );
        if eqs.is_empty() {
            // No equation: the variables stay the search's own.
            let frame = Some(Rc::new(Frame {
                map: Parametric::identity(self.nparams),
                domain: self.domain.clone(),
                distances: self.distances.clone(),
                links: self.links.clone(),
            }));
            self.frames.insert(equal.to_vec(), frame.clone());
            return frame;
        }
        let frame = diophantine::solve(&eqs, self.nparams)
            .ok()
            .flatten()
            .and_then(|map| {
                let over = |ls: &[Linear]| {
                    ls.iter()
                        .map(|l| l.substitute(&map))
                        .collect::<Result<Vec<_>, _>>()
                        .ok()
                };
                let links = self
                    .links
                    .iter()
                    .map(|(p, l)| Some((*p, l.substitute(&map).ok()?)));
                Some(Rc::new(Frame {
                    domain: over(&self.domain)?,
                    distances: over(&self.distances)?,
                    links: links.collect::<Option<_>>()?,
                    map,
                }))
            });
        self.frames.insert(equal.to_vec(), frame.clone());
        frame
    }

    /// Is the node's system, with `extra >= 0` (over the search's
    /// parameters), feasible? The witness is over the search's parameters.
    fn ask(&mut self, node: &Node, extra: Option<Linear>) -> Feasibility {
        let Some(frame) = self.frame(&node.equal) else {
            return Feasibility::Infeasible;
        };
        let mut ineqs = Vec::with_capacity(node.constrained.len() + 1);
        for &g in &node.constrained {
            if let Some(c) = sign_constraint(&frame.distances[g], node.directions[g]) {
                ineqs.push(c);
            }
        }
        if let Some(extra) = extra {
            match extra.substitute(&frame.map) {
                Ok(e) => ineqs.push(e),
                Err(_) => return Feasibility::Unknown,
            }
        }
        let first = ineqs.is_empty() && node.equal.is_empty();
        let answer = feasible_parts(
            frame.map.generators.len(),
            &[],
            &[&frame.domain, &ineqs],
            &mut self.budget,
        );
        match answer {
            Feasibility::Feasible(w) => {
                // Samples answer questions about directions: a pair without
                // common loops asks none after this one.
                if !self.distances.is_empty() {
                    let space = Space {
                        domain: &frame.domain,
                        distances: &frame.distances,
                        links: &frame.links,
                        map: &frame.map,
                    };
                    self.samples.walk(
                        &space,
                        &w,
                        if first && !self.coarse {
                            FIRST_WALK
                        } else {
                            WALK
                        },
                    );
                }
                frame
                    .map
                    .point(&w)
                    .map_or(Feasibility::Unknown, Feasibility::Feasible)
            }
            other => other,
        }
    }

    /// `node` is feasible, with `witness`; refine its next loop.
    fn refine(&mut self, node: &mut Node, witness: &[i64]) {
        let g = node.directions.len();
        if g == self.distances.len() {
            let vector = self.leaf(node, witness);
            self.found.push(vector);
            return;
        }
        let after_lt = node.directions.contains(&Dir::Lt);
        let ordered = after_lt || (self.both_ways && node.directions.contains(&Dir::Gt));
        if ordered && (self.coarse || self.sampled_below(g, &node.directions)) {
            let vector = self.summary(node, witness);
            self.found.push(vector);
            return;
        }
        if let Some((dir, _)) = self.fixed(g) {
            if dir != Dir::Gt || after_lt || self.both_ways {
                node.directions.push(dir);
                self.refine(node, witness);
                node.directions.pop();
            }
            return;
        }
        for dir in [Dir::Lt, Dir::Eq, Dir::Gt] {
            if dir == Dir::Gt && !after_lt && !self.both_ways {
                continue;
            }
            // The parent's witness already proves the child feasible when its
            // distance has the child's direction.
            let witnessed =
                self.distances[g].eval(witness).is_ok_and(|d| dir.holds(d)) && self.real(witness);
            node.push(g, dir);
            let answer = if witnessed {
                Feasibility::Feasible(witness.to_vec())
            } else if let Some(point) = self.samples.find(&node.directions) {
                Feasibility::Feasible(point.to_vec())
            } else {
                self.ask(node, None)
            };
            match answer {
                Feasibility::Feasible(w) => self.refine(node, &w),
                Feasibility::Infeasible => {}
                Feasibility::Unknown => {
                    let vector = self.undecided(&node.directions[..g], dir);
                    self.found.push(vector);
                }
            }
            node.pop();
        }
    }

    /// Is `point` a dependence, not only a solution of the system without
    /// links: every link whose outer loops are at distance 0 holds there.
    fn real(&self, point: &[i64]) -> bool {
        let distances: Vec<Option<i64>> =
            self.distances.iter().map(|d| d.eval(point).ok()).collect();
        self.links.iter().all(|(p, link)| {
            distances[..*p].iter().any(|&d| d != Some(0)) || link.eval(point) == Ok(0)
        })
    }

    /// Direction and distance of loop `g` when they are the same in every solution.
    fn fixed(&self, g: usize) -> Option<(Dir, i64)> {
        let d = &self.distances[g];
        d.is_constant().then(|| (Dir::of(d.constant), d.constant))
    }

    /// Do samples show every direction of the loops from `g` on (one at
    /// least not fixed) under `prefix`?
    fn sampled_below(&self, g: usize, prefix: &[Dir]) -> bool {
        const ANY: [Dir; 3] = [Dir::Lt, Dir::Eq, Dir::Gt];
        let fixed: Vec<Option<[Dir; 1]>> = (g..self.distances.len())
            .map(|h| self.fixed(h).map(|(dir, _)| [dir]))
            .collect();
        let rest: Vec<&[Dir]> = fixed
            .iter()
            .map(|f| f.as_ref().map_or(&ANY[..], |d| &d[..]))
            .collect();
        fixed.iter().any(Option::is_none) && self.samples.cover(prefix, &rest)
    }

    /// Extends `vector` to every loop: the fixed direction and distance of
    /// a loop that has them, else `*`.
    fn extend_unrefined(&self, vector: &mut DepVector) {
        for g in vector.directions.len()..self.distances.len() {
            let (dir, distance) = self
                .fixed(g)
                .map_or((Dir::Star, None), |(d, c)| (d, Some(c)));
            vector.directions.push(dir);
            vector.distances.push(distance);
        }
    }

    /// The vector of `node`'s directions, then `*` on every further loop
    /// (its fixed direction where it has one).
    fn summary(&mut self, node: &Node, witness: &[i64]) -> DepVector {
        let mut vector = self.leaf(node, witness);
        self.extend_unrefined(&mut vector);
        vector.exact = false;
        vector
    }

    fn leaf(&mut self, node: &Node, witness: &[i64]) -> DepVector {
        let mut varied = None;
        let mut distances = Vec::with_capacity(node.directions.len());
        for (g, &dir) in node.directions.iter().enumerate() {
            distances.push(match (dir, self.fixed(g)) {
                (Dir::Eq, _) => Some(0),
                (_, Some((_, c))) => Some(c),
                _ if self.coarse => self.fixed_in_frame(node, g),
                _ => self.single_distance(node, g, witness, &mut varied),
            });
        }
        DepVector {
            directions: node.directions.clone(),
            distances,
            exact: self.closed,
        }
    }

    /// The distance on loop `g` when it is the same in every solution with
    /// the node's `=` loops at distance 0 (`A(I+J+K)` and `A(I+J+K-1)`: 1
    /// on K where I and J are `=`). What a coarse search tells: proving a
    /// distance single over the bounds (two more questions, and a look at
    /// the witness's neighbours) was most of its time on dgesvj, whose
    /// unknown bounds leave few distances single.
    fn fixed_in_frame(&mut self, node: &Node, g: usize) -> Option<i64> {
        let frame = self.frame(&node.equal)?;
        let d = &frame.distances[g];
        d.is_constant().then_some(d.constant)
    }

    /// The witness's distance on loop `g`, when no other is feasible.
    /// `varied` keeps [`Search::varied_near`] for the leaf's other loops.
    fn single_distance(
        &mut self,
        node: &Node,
        g: usize,
        witness: &[i64],
        varied: &mut Option<Vec<bool>>,
    ) -> Option<i64> {
        let d0 = self.distances[g].eval(witness).ok()?;
        if self.samples.other_distance(&node.directions, g, d0) {
            return None;
        }
        if varied.is_none() {
            let frame = self.frame(&node.equal)?;
            *varied = Some(self.varied_near(node, &frame, witness));
        }
        if varied.as_ref().is_some_and(|v| v[g]) {
            return None;
        }
        // No solution with a larger distance, none with a smaller one; the
        // node's own direction already rules out one side when d0 is ±1.
        let d = &self.distances[g];
        let dir = node.directions[g];
        let above = d.plus_constant(d0.checked_neg()?.checked_sub(1)?).ok()?;
        let below = d.negated().ok()?.plus_constant(d0.checked_sub(1)?).ok()?;
        let sides = [
            (above, dir == Dir::Gt && d0 == -1),
            (below, dir == Dir::Lt && d0 == 1),
        ];
        for (side, empty) in sides {
            if !empty && self.ask(node, Some(side)) != Feasibility::Infeasible {
                return None;
            }
        }
        Some(d0)
    }

    /// Cheap evidence before asking, for every loop at once: does a
    /// neighbour of the witness in the node (one or two generators of the
    /// node's frame away) have another distance there? A move of `±t_i ±
    /// t_j` in the frame's parameters changes each row by its coefficients
    /// of `t_i` and `t_j`, so no point is evaluated in full.
    fn varied_near(&self, node: &Node, frame: &Frame, witness: &[i64]) -> Vec<bool> {
        let mut varied = vec![false; self.distances.len()];
        let at = |ls: &[Linear]| {
            ls.iter()
                .map(|l| l.eval(witness).map(i128::from))
                .collect::<Result<Vec<_>, _>>()
        };
        let (Ok(values), Ok(distances)) = (at(&self.domain), at(&self.distances)) else {
            return varied;
        };
        let moved = |l: &Linear, v: i128, (i, si): (usize, i128), (j, sj): (usize, i128)| {
            v + si * i128::from(l.coeff(i)) + sj * i128::from(l.coeff(j))
        };
        let n = frame.map.generators.len();
        for i in 0..n {
            for j in i..n {
                for (si, sj) in [(1, 0), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1)] {
                    if (i == j) != (sj == 0) {
                        continue;
                    }
                    let (a, b) = ((i, si), (j, sj));
                    let changes =
                        |g: usize| moved(&frame.distances[g], distances[g], a, b) != distances[g];
                    if !(0..varied.len()).any(|g| !varied[g] && changes(g)) {
                        continue;
                    }
                    let inside = frame
                        .domain
                        .iter()
                        .zip(&values)
                        .all(|(l, &v)| moved(l, v, a, b) >= 0)
                        && node.constrained.iter().all(|&h| {
                            let d = moved(&frame.distances[h], distances[h], a, b);
                            node.directions[h].holds(d.signum() as i64)
                        });
                    if inside {
                        for (g, flag) in varied.iter_mut().enumerate() {
                            *flag |= changes(g);
                        }
                    }
                }
            }
        }
        varied
    }

    /// A vector the test could not refine past loop `directions.len()`.
    fn undecided(&self, directions: &[Dir], dir: Dir) -> DepVector {
        let mut out = DepVector {
            directions: directions.to_vec(),
            distances: directions
                .iter()
                .map(|&d| (d == Dir::Eq).then_some(0))
                .collect(),
            exact: false,
        };
        out.directions.push(dir);
        out.distances.push((dir == Dir::Eq).then_some(0));
        self.extend_unrefined(&mut out);
        out
    }
}

/// `d >= 1` for `<`, `d <= -1` for `>` (`=` is a frame, `*` no constraint;
/// `None` also on overflow).
fn sign_constraint(d: &Linear, dir: Dir) -> Option<Linear> {
    match dir {
        Dir::Lt => d.plus_constant(-1).ok(),
        Dir::Gt => d.negated().ok()?.plus_constant(-1).ok(),
        Dir::Eq | Dir::Star => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::*;

    fn one_loop(subscript: Subscript, trip: i64) -> RefInfo {
        RefInfo {
            subscripts: vec![subscript],
            loops: vec![LoopBound::trip(trip)],
            guards: Vec::new(),
        }
    }

    fn affine(constant: i64, coeffs: &[i64]) -> Subscript {
        Subscript::Affine(NormalForm::new(constant, coeffs))
    }

    #[test]
    fn guards_narrow_the_domain_of_each_reference() {
        // DO I = 1, 10: IF (I .GE. 6) A(I) = ... then IF (I .LE. 5) ... = A(I - 1)
        // (I = 1 + I_0): U runs for I_0 >= 5, V for I_0 <= 4.
        let guarded = |subscript: Subscript, form: NormalForm| RefInfo {
            guards: vec![Guard { form, eq: false }],
            ..one_loop(subscript, 10)
        };
        let u = guarded(affine(1, &[1]), NormalForm::new(-5, &[1]));
        let v = guarded(affine(0, &[1]), NormalForm::new(4, &[-1]));
        let pair = Pair::new(&u, &v, 1, &SymbolRanges::new()).unwrap();
        // U writes elements 6..10, V reads 0..4: they never meet.
        assert_eq!(pair.dependence_vectors(), vec![]);
        // Without the guards, V reads what U wrote one iteration before.
        let (u0, v0) = (one_loop(affine(1, &[1]), 10), one_loop(affine(0, &[1]), 10));
        let free = Pair::new(&u0, &v0, 1, &SymbolRanges::new()).unwrap();
        assert_eq!(free.dependence_vectors().len(), 1);
        // An equality: V runs only at I_0 = 0 and reads A(0), which U
        // (A(1 + I_0)) never writes.
        let only = RefInfo {
            guards: vec![Guard {
                form: NormalForm::new(0, &[1]),
                eq: true,
            }],
            ..one_loop(affine(0, &[1]), 10)
        };
        let pair = Pair::new(&u0, &only, 1, &SymbolRanges::new()).unwrap();
        assert_eq!(pair.dependence_vectors(), vec![]);
        // Guarded vectors are never exact (an instance may lack its partner).
        let at_least = RefInfo {
            guards: vec![Guard {
                form: NormalForm::new(-1, &[1]),
                eq: false,
            }],
            ..one_loop(affine(0, &[1]), 10)
        };
        let pair = Pair::new(&u0, &at_least, 1, &SymbolRanges::new()).unwrap();
        let vectors = pair.dependence_vectors();
        assert_eq!(vectors.len(), 1);
        assert!(!vectors[0].exact);
        assert_eq!(vectors[0].distances, [Some(1)]);
    }

    #[test]
    fn a_symbol_only_a_guard_names_keeps_its_term() {
        // A(K) under K = M (the two guards K - M >= 0, M - K >= 0; M is in
        // no subscript) against A(3): they meet when M = 3. Dropping M's
        // terms would read the guards as K = 0 and find no dependence.
        let k = NormalForm::new(0, &[]).with_symbol("K", 1);
        let guard = |k_coeff: i64| Guard {
            form: NormalForm::new(0, &[])
                .with_symbol("K", k_coeff)
                .with_symbol("M", -k_coeff),
            eq: false,
        };
        let u = RefInfo {
            guards: vec![guard(1), guard(-1)],
            ..one_loop(Subscript::Affine(k), 10)
        };
        let v = one_loop(affine(3, &[]), 10);
        let pair = Pair::new(&u, &v, 1, &SymbolRanges::new()).unwrap();
        assert!(!pair.dependence_vectors().is_empty());
    }

    #[test]
    fn a_symbolic_offset_gives_directions_its_range_allows() {
        // A(I+K) then A(I): the distance is K.
        let u = one_loop(
            Subscript::Affine(NormalForm::new(0, &[1]).with_symbol("K", 1)),
            50,
        );
        let v = one_loop(affine(0, &[1]), 50);
        let vectors = |range: Option<SymbolRange>| {
            let symbols = range
                .map(|r| SymbolRanges::from([("K".to_string(), r)]))
                .unwrap_or_default();
            Pair::new(&u, &v, 1, &symbols).unwrap().dependence_vectors()
        };
        let free = vectors(None);
        assert_eq!(free.len(), 2);
        assert!(free.iter().all(|v| !v.exact && v.distances[0] != Some(1)));
        assert!(
            free.iter().any(|v| v.directions == [Dir::Lt])
                && free.iter().any(DepVector::is_loop_independent)
        );
        let positive = vectors(Some(SymbolRange::at_least(1)));
        assert_eq!(positive.len(), 1);
        assert_eq!(positive[0].directions, [Dir::Lt]);
        let three = vectors(Some(SymbolRange::exactly(3)));
        assert_eq!(
            three,
            vec![DepVector {
                directions: vec![Dir::Lt],
                distances: vec![Some(3)],
                exact: true
            }]
        );
        // K = 60 exceeds the trip count: no dependence at all.
        assert_eq!(vectors(Some(SymbolRange::exactly(60))), vec![]);
    }

    #[test]
    fn a_symbol_scoped_to_the_inner_loop_is_one_value_only_inside_it() {
        // DO J / (M changes) / DO I: A(3*I - M) then A(3*I - M - 3). Inside
        // one execution of the I loop M is one value: V is one I iteration
        // later. Across J iterations (M@1) they are two unknowns: any
        // direction on I; M and M@0 are one value in the whole nest.
        let loops = vec![LoopBound::trip(10), LoopBound::trip(10)];
        let at = |c: i64, symbol: &str| RefInfo {
            subscripts: vec![Subscript::Affine(
                NormalForm::new(c, &[0, 3]).with_symbol(symbol, -1),
            )],
            loops: loops.clone(),
            guards: Vec::new(),
        };
        for (symbol, scoped) in [("M@1", true), ("M", false), ("M@0", false)] {
            let (u, v) = (at(0, symbol), at(-3, symbol));
            let pair = Pair::new(&u, &v, 2, &SymbolRanges::new()).unwrap();
            let vectors = pair.dependence_vectors();
            let same_j: Vec<_> = vectors
                .iter()
                .filter(|v| v.directions[0] == Dir::Eq)
                .collect();
            assert_eq!(same_j.len(), 1, "{symbol}: {vectors:?}");
            assert_eq!(same_j[0].directions, [Dir::Eq, Dir::Lt]);
            assert_eq!(same_j[0].distances[1], Some(1));
            // The next J iteration at the same I: only with two values of M.
            let any_i = vectors.iter().any(|v| v.covers(&[1, 0]));
            assert_eq!(any_i, scoped, "{symbol}: {vectors:?}");
            let exact = pair.coincidence(1, 1, Property::ExactCoincidence);
            assert!(
                matches!(exact, Ok(Verdict::Holds(_))),
                "{symbol}: {exact:?}"
            );
        }
    }

    #[test]
    fn a_non_affine_subscript_leaves_every_ordered_direction_possible() {
        // A(IDX(I)) then A(I).
        let u = one_loop(Subscript::Unknown, 10);
        let v = one_loop(affine(0, &[1]), 10);
        let pair = Pair::new(&u, &v, 1, &SymbolRanges::new()).unwrap();
        let vectors = pair.dependence_vectors();
        assert_eq!(vectors.len(), 2);
        assert!(vectors.iter().all(|v| !v.exact));
        assert!(vectors.iter().any(|v| v.covers(&[0])) && vectors.iter().any(|v| v.covers(&[9])));
        assert_eq!(
            pair.coincidence(0, 0, Property::ExactCoincidence),
            Ok(Verdict::Unknown)
        );
        assert_eq!(
            pair.coincidence(0, 3, Property::PossibleCoincidence),
            Ok(Verdict::Holds(Rule::Exact))
        );
    }

    #[test]
    fn an_unknown_bound_gives_one_vector_per_carrier() {
        // A(I + J + K) then A(I + J + K - 1) in DO I / DO J / DO K, trip 4
        // each: `<` on I goes with `>` on J or K, and the search tells the
        // inner directions apart (more than one vector for I).
        let known = vec![LoopBound::trip(4); 3];
        let at = |c: i64, loops: &[LoopBound]| RefInfo {
            subscripts: vec![affine(c, &[1, 1, 1])],
            loops: loops.to_vec(),
            guards: Vec::new(),
        };
        let vectors = |loops: &[LoopBound]| {
            let (u, v) = (at(0, loops), at(-1, loops));
            let pair = Pair::new(&u, &v, 3, &SymbolRanges::new()).unwrap();
            pair.dependence_vectors()
        };
        use Dir::{Eq, Lt, Star};
        let refined = vectors(&known);
        let carried_by_i = refined.iter().filter(|v| v.directions[0] == Lt).count();
        assert!(carried_by_i > 1, "{refined:?}");
        // The K loop's bound unknown (`MIN(N, 4)`): one vector per carrier,
        // `*` inside it; the distance on the carrier still told.
        let unknown = [LoopBound::trip(4), LoopBound::trip(4), LoopBound::Unknown];
        let coarse = vectors(&unknown);
        let directions: Vec<Vec<Dir>> = coarse.iter().map(|v| v.directions.clone()).collect();
        assert_eq!(
            directions,
            vec![vec![Lt, Star, Star], vec![Eq, Lt, Star], vec![Eq, Eq, Lt]],
            "{coarse:?}"
        );
        assert_eq!(coarse[2].distances, [Some(0), Some(0), Some(1)]);
        // Sound: every vector the refinement finds is covered.
        for d in [[1, -1, 0], [1, 0, -3], [0, 1, -2], [0, 0, 1]] {
            assert!(coarse.iter().any(|v| v.covers(&d)), "{d:?}");
        }
    }

    #[test]
    fn a_single_distance_can_come_from_the_bounds_alone() {
        // A(I+J) then A(I) in DO I / DO J with J in 0..1 only: U at (i, j)
        // meets V at (i + j, *); with '<' on I the distance is 1.
        let loops = vec![LoopBound::trip(10), LoopBound::trip(2)];
        let u = RefInfo {
            subscripts: vec![affine(0, &[1, 1])],
            loops: loops.clone(),
            guards: Vec::new(),
        };
        let v = RefInfo {
            subscripts: vec![affine(0, &[1, 0])],
            loops,
            guards: Vec::new(),
        };
        let vectors = Pair::new(&u, &v, 1, &SymbolRanges::new())
            .unwrap()
            .dependence_vectors();
        let carried = vectors.iter().find(|v| v.directions == [Dir::Lt]).unwrap();
        assert_eq!(carried.distances, [Some(1)]);
    }

    #[test]
    fn an_exhausted_budget_leaves_everything_possible() {
        let u = one_loop(affine(1, &[2]), 10);
        let v = one_loop(affine(0, &[3]), 10);
        let pair = Pair::new(&u, &v, 1, &SymbolRanges::new()).unwrap();
        assert!(pair
            .dependence_vectors()
            .iter()
            .all(|v| v.directions != [Dir::Star]));
        let starved = pair.with_budget(0);
        assert_eq!(
            starved.dependence_vectors(),
            vec![DepVector {
                directions: vec![Dir::Star],
                distances: vec![None],
                exact: false
            }]
        );
        assert_eq!(
            starved.coincidence(0, 0, Property::PossibleCoincidence),
            Ok(Verdict::Unknown)
        );
    }
}
