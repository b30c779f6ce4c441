//! Direction and distance vectors over all common loops, by hierarchical
//! refinement of the exact test.
//!
//! The subscript equations are solved once in general form (the GCD test:
//! no integer solution, no dependence); the domain and each common loop's
//! distance `I'_g - I_g` are rewritten over the solution's parameters. Then,
//! from the outermost common loop in, each direction `<`, `=`, `>` is kept
//! only if the system with it is feasible. A loop whose distance is the same
//! in every solution gets its direction without a question. Only vectors
//! where U runs first are built: the first non-`=` direction is `<`.
//!
//! The all-`=` vector (same iteration of every common loop) is returned when
//! U and V may meet in one iteration: whether U runs before V there is a
//! matter of their order in the loop body, which the caller knows. For V
//! then U, call with the references swapped and keep the all-`=` vector of
//! only the pair whose first reference comes first in the body.

use super::diophantine;
use super::feasibility::{feasible, Budget, Feasibility, System};
use super::linear::Linear;
use super::pair::Pair;

/// The direction of one common loop: V's iteration compared to U's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// V runs in a later iteration (`I_g < I'_g`).
    Lt,
    /// Same iteration.
    Eq,
    /// V runs in an earlier iteration (only after an outer `<`).
    Gt,
    /// Any (the test could not refine).
    Star,
}

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
                .all(|((&dir, &known), &d)| {
                    let sign_ok = match dir {
                        Dir::Lt => d > 0,
                        Dir::Eq => d == 0,
                        Dir::Gt => d < 0,
                        Dir::Star => true,
                    };
                    sign_ok && known.is_none_or(|k| k == d)
                })
    }
}

impl Pair<'_> {
    /// Every possible dependence of U then V, as direction vectors over the
    /// common loops. Sound: every pair of iterations where U and V touch the
    /// same element with U's iteration of the common loops not after V's is
    /// covered by some returned vector.
    pub fn dependence_vectors(&self) -> Vec<DepVector> {
        let anything = || {
            vec![DepVector {
                directions: vec![Dir::Star; self.common],
                distances: vec![None; self.common],
                exact: false,
            }]
        };
        let solution = match diophantine::solve(&self.equations(), self.nvars()) {
            Ok(Some(solution)) => solution,
            Ok(None) => return Vec::new(),
            Err(_) => return anything(),
        };
        let over_t = |ls: Vec<Linear>| {
            ls.iter()
                .map(|l| l.substitute(&solution))
                .collect::<Result<Vec<_>, _>>()
        };
        let (Ok(domain), Ok(distances)) = (
            over_t(self.domain.clone()),
            over_t((0..self.common).map(|g| self.distance(g)).collect()),
        ) else {
            return anything();
        };
        let mut search = Search {
            nparams: solution.generators.len(),
            domain,
            distances,
            closed: self.closed,
            budget: self.budget(),
            found: Vec::new(),
        };
        let mut node = Node::default();
        match search.ask(&node, None) {
            Feasibility::Infeasible => {}
            Feasibility::Unknown => return anything(),
            Feasibility::Feasible(w) => search.refine(&mut node, &w),
        }
        search.found
    }
}

/// The directions chosen so far and the constraints (over the parameters) they add.
#[derive(Default)]
struct Node {
    directions: Vec<Dir>,
    eqs: Vec<Linear>,
    ineqs: Vec<Linear>,
}

impl Node {
    fn push(&mut self, dir: Dir, constraint: Constraint) {
        self.directions.push(dir);
        match constraint {
            Constraint::Zero(l) => self.eqs.push(l),
            Constraint::NonNegative(l) => self.ineqs.push(l),
        }
    }

    fn pop(&mut self) {
        match self.directions.pop() {
            Some(Dir::Eq) => self.eqs.pop(),
            _ => self.ineqs.pop(),
        };
    }
}

struct Search {
    nparams: usize,
    domain: Vec<Linear>,
    distances: Vec<Linear>,
    closed: bool,
    budget: Budget,
    found: Vec<DepVector>,
}

impl Search {
    fn ask(&mut self, node: &Node, extra: Option<Linear>) -> Feasibility {
        let mut ineqs = self.domain.clone();
        ineqs.extend(node.ineqs.iter().cloned());
        ineqs.extend(extra);
        feasible(
            &System {
                nvars: self.nparams,
                eqs: node.eqs.clone(),
                ineqs,
            },
            &mut self.budget,
        )
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
        if let Some((dir, _)) = self.fixed(g) {
            if dir != Dir::Gt || after_lt {
                node.directions.push(dir);
                self.refine(node, witness);
                node.directions.pop();
            }
            return;
        }
        let d = self.distances[g].clone();
        for dir in [Dir::Lt, Dir::Eq, Dir::Gt] {
            if dir == Dir::Gt && !after_lt {
                continue;
            }
            let Some(constraint) = direction_constraint(&d, dir) else {
                self.found.push(self.undecided(&node.directions, dir));
                continue;
            };
            node.push(dir, constraint);
            match self.ask(node, None) {
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

    /// Direction and distance of loop `g` when they are the same in every solution.
    fn fixed(&self, g: usize) -> Option<(Dir, i64)> {
        let d = &self.distances[g];
        d.is_constant().then(|| {
            let dir = match d.constant {
                c if c > 0 => Dir::Lt,
                0 => Dir::Eq,
                _ => Dir::Gt,
            };
            (dir, d.constant)
        })
    }

    fn leaf(&mut self, node: &Node, witness: &[i64]) -> DepVector {
        let mut distances = Vec::with_capacity(node.directions.len());
        for (g, &dir) in node.directions.iter().enumerate() {
            distances.push(match (dir, self.fixed(g)) {
                (Dir::Eq, _) => Some(0),
                (_, Some((_, c))) => Some(c),
                _ => self.single_distance(node, g, witness),
            });
        }
        DepVector {
            directions: node.directions.clone(),
            distances,
            exact: self.closed,
        }
    }

    /// The witness's distance on loop `g`, when no other is feasible.
    fn single_distance(&mut self, node: &Node, g: usize, witness: &[i64]) -> Option<i64> {
        let d = &self.distances[g];
        let d0 = d.eval(witness).ok()?;
        let above = d.plus_constant(d0.checked_neg()?.checked_sub(1)?).ok()?;
        let below = d.negated().ok()?.plus_constant(d0.checked_sub(1)?).ok()?;
        for side in [above, below] {
            if self.ask(node, Some(side)) != Feasibility::Infeasible {
                return None;
            }
        }
        Some(d0)
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
        for g in out.directions.len()..self.distances.len() {
            let (dir, distance) = self
                .fixed(g)
                .map_or((Dir::Star, None), |(d, c)| (d, Some(c)));
            out.directions.push(dir);
            out.distances.push(distance);
        }
        out
    }
}

/// What a direction says of the distance `d`: `d >= 1`, `d = 0`, `d <= -1`
/// (`None` for `*`, or on overflow).
fn direction_constraint(d: &Linear, dir: Dir) -> Option<Constraint> {
    match dir {
        Dir::Lt => d.plus_constant(-1).ok().map(Constraint::NonNegative),
        Dir::Eq => Some(Constraint::Zero(d.clone())),
        Dir::Gt => d
            .negated()
            .ok()?
            .plus_constant(-1)
            .ok()
            .map(Constraint::NonNegative),
        Dir::Star => None,
    }
}

enum Constraint {
    Zero(Linear),
    NonNegative(Linear),
}
