//! The array subscript test (rules/dl/subscripts.dl) against real runs of
//! random affine loop nests (`kaiseki_judge::gen::affine_nest`).
//!
//! - Soundness: every real dependence (flow, anti, output, input) between
//!   two element references is covered by a row of `kaiseki deps --format
//!   csv --loop-vars`: same kind, references and common loops, each distance equal to
//!   the row's or `*` with a compatible direction.
//! - No false dependence: on nests with constant bounds, every row between
//!   two element references of one array is realized by two accesses of
//!   one element, in that order, with distances the row admits: pairs in
//!   one nest, and pairs without common loops (the array's initialization
//!   and the nest here). Realized, not necessarily direct: the row A(I) -> A(I) of
//!   `A(I) = ..; A(I) = ..; .. = A(I)` is a dependence whose element the
//!   second write always overwrites first. The judge lists direct
//!   dependences only; how many rows it never sees is printed (precision),
//!   not asserted: killing at the level of elements is not modelled.
//!
//! - Exact rows happen: in every run that executes the sink of an `exact`
//!   row, some direct dependence the row covers happened.
//!
//! Run with `--nocapture` to see the counts.

mod common;

use common::{deps_csv_every_row, generated, lower_source, positions, scaled, scratch_dir, Dep};
use kaiseki_facts::FactBase;
use kaiseki_judge::{common_loops, dependences, run_source, Access, Config, Dependence, Mode};
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

/// (kind, var, source line:col, sink line:col).
type Key = (String, String, (u32, u32), (u32, u32));

/// Lines of the common loops and the distance in each.
type Vector = (Vec<u32>, Vec<i64>);

fn row_key(r: &Dep) -> Key {
    (r.kind.clone(), r.var.clone(), r.src, r.dst)
}

/// The row admits these common loops and distances.
fn admits(row: &Dep, (loops, distance): &Vector) -> bool {
    row.loops == *loops
        && distance
            .iter()
            .zip(&row.direction)
            .zip(&row.distance)
            .all(|((&d, &dir), &known)| {
                let sign_ok = match dir {
                    '<' => d > 0,
                    '=' => d == 0,
                    '>' => d < 0,
                    _ => true,
                };
                sign_ok && known.is_none_or(|k| k == d)
            })
}

fn kind_of(first: Mode, second: Mode) -> &'static str {
    match (first, second) {
        (Mode::Write, Mode::Read) => "flow",
        (Mode::Read, Mode::Write) => "anti",
        (Mode::Write, Mode::Write) => "output",
        (Mode::Read, Mode::Read) => "input",
    }
}

fn pos(a: &Access) -> (u32, u32) {
    (a.pos.line, a.pos.col)
}

fn vector(a: &Access, b: &Access) -> Vector {
    let (loops, distance) = common_loops(&a.loops, &b.loops);
    (loops.iter().map(|p| p.line).collect(), distance)
}

/// Where the element references of arrays stand: the ends of tested pairs.
fn element_positions(facts: &FactBase) -> HashSet<(u32, u32)> {
    let elements: HashSet<i64> = facts.array_ref.iter().map(|a| a.r#ref).collect();
    positions(facts, &elements)
}

/// Every (common loops, distances) with which two accesses of one element,
/// at the ends of some key in `keys`, happen in that order.
fn realized(trace: &[Access], keys: &HashSet<Key>) -> HashMap<Key, HashSet<Vector>> {
    let mut cells: HashMap<_, Vec<&Access>> = HashMap::new();
    for a in trace.iter().filter(|a| !a.at_loop_end) {
        cells.entry(a.loc).or_default().push(a);
    }
    let mut found: HashMap<Key, HashSet<Vector>> = HashMap::new();
    for accesses in cells.values() {
        for (i, a) in accesses.iter().enumerate() {
            for b in &accesses[i + 1..] {
                let key = (
                    kind_of(a.mode, b.mode).to_string(),
                    a.var.to_string(),
                    pos(a),
                    pos(b),
                );
                if keys.contains(&key) {
                    found.entry(key).or_default().insert(vector(a, b));
                }
            }
        }
    }
    found
}

#[derive(Default)]
struct Tally {
    programs: usize,
    runs: usize,
    real: usize,
    rows: usize,
    /// Rows some direct dependence of a run falls in.
    observed: usize,
    /// Rows that no two accesses realize, on nests with constant / symbolic bounds.
    false_constant: usize,
    false_symbolic: usize,
    /// Unrealized rows without common loops on bounds read at run time: a
    /// nest may run zero times, or too few times to reach the other's elements.
    false_between_nests: usize,
    exact: usize,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.programs += other.programs;
        self.runs += other.runs;
        self.real += other.real;
        self.rows += other.rows;
        self.observed += other.observed;
        self.false_constant += other.false_constant;
        self.false_symbolic += other.false_symbolic;
        self.false_between_nests += other.false_between_nests;
        self.exact += other.exact;
    }
}

/// Checks one program; problems go to `failures`.
fn check(g: &kaiseki_judge::gen::Generated, tally: &mut Tally, failures: &mut Vec<String>) {
    let dir = scratch_dir(&format!("subscripts_bruteforce_{}", g.file_name));
    let path = dir.join(&g.file_name);
    std::fs::write(&path, &g.source).expect("program written");
    let rows = deps_csv_every_row(&path);
    let elements = element_positions(&lower_source(&g.file_name, &g.source));
    // The rows of tested pairs, by index.
    let tested: Vec<usize> = (0..rows.len())
        .filter(|&i| elements.contains(&rows[i].src) && elements.contains(&rows[i].dst))
        .collect();
    let mut by_key: HashMap<Key, Vec<usize>> = HashMap::new();
    for &i in &tested {
        by_key.entry(row_key(&rows[i])).or_default().push(i);
    }
    let keys: HashSet<Key> = by_key.keys().cloned().collect();
    let constant_bounds = g.inputs.iter().all(Vec::is_empty);
    let mut observed: HashSet<usize> = HashSet::new();
    let mut seen: HashMap<Key, HashSet<Vector>> = HashMap::new();
    let config = Config {
        step_limit: 2_000_000,
        trace: true,
    };
    let mut report = |what: String| {
        let mut text = format!("--- {} ---\n{}\n{what}\nrows:\n", g.file_name, g.source);
        for &i in &tested {
            let _ = writeln!(text, "  {:?}", rows[i]);
        }
        failures.push(text);
    };
    for input in &g.inputs {
        let run = match run_source(&g.file_name, &g.source, input, &config) {
            Ok(run) => run,
            Err(e) => {
                report(format!("the judge failed on {input:?}: {e}"));
                continue;
            }
        };
        tally.runs += 1;
        let real: Vec<Dependence> = dependences(&run.trace)
            .into_iter()
            .filter(|d| {
                !d.src.at_loop_end
                    && !d.dst.at_loop_end
                    && elements.contains(&(d.src.pos.line, d.src.pos.col))
                    && elements.contains(&(d.dst.pos.line, d.dst.pos.col))
            })
            .collect();
        tally.real += real.len();
        let mut covered_now = HashSet::new();
        for d in &real {
            let key = (
                d.kind.as_str().to_string(),
                d.var.clone(),
                (d.src.pos.line, d.src.pos.col),
                (d.dst.pos.line, d.dst.pos.col),
            );
            let v = (d.loops.iter().map(|p| p.line).collect(), d.distance.clone());
            let covering: Vec<usize> = by_key
                .get(&key)
                .map_or(&[][..], Vec::as_slice)
                .iter()
                .copied()
                .filter(|&i| admits(&rows[i], &v))
                .collect();
            if covering.is_empty() {
                report(format!("input {input:?}: missed {d}"));
            }
            covered_now.extend(covering);
        }
        let executed: HashSet<(Mode, (u32, u32))> =
            run.trace.iter().map(|a| (a.mode, pos(a))).collect();
        for &i in &tested {
            let r = &rows[i];
            let sink = if r.kind == "flow" {
                Mode::Read
            } else {
                Mode::Write
            };
            if r.certainty == "exact"
                && executed.contains(&(sink, r.dst))
                && !covered_now.contains(&i)
            {
                report(format!(
                    "input {input:?}: exact row never happened although its sink ran: {r:?}"
                ));
            }
        }
        observed.extend(covered_now);
        for (key, vectors) in realized(&run.trace, &keys) {
            seen.entry(key).or_default().extend(vectors);
        }
    }
    for &i in &tested {
        let r = &rows[i];
        tally.rows += 1;
        tally.exact += usize::from(r.certainty == "exact");
        tally.observed += usize::from(observed.contains(&i));
        let real = seen
            .get(&row_key(r))
            .is_some_and(|vs| vs.iter().any(|v| admits(r, v)));
        if !real {
            if constant_bounds {
                tally.false_constant += 1;
                report(format!("false dependence (constant bounds): {r:?}"));
            } else if r.loops.is_empty() {
                tally.false_between_nests += 1;
            } else {
                tally.false_symbolic += 1;
            }
        }
    }
    tally.programs += 1;
}

#[test]
fn affine_nests_lose_no_array_dependence_and_report_no_false_one() {
    // One thread per core: each program is a `kaiseki deps` process and
    // runs of the judge's interpreter, independent of the others.
    let programs = generated(0, scaled(200));
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let mut tally = Tally::default();
    let mut failures = Vec::new();
    std::thread::scope(|scope| {
        let workers: Vec<_> = programs
            .chunks(programs.len().div_ceil(threads))
            .map(|chunk| {
                scope.spawn(move || {
                    let mut tally = Tally::default();
                    let mut failures = Vec::new();
                    for g in chunk {
                        check(g, &mut tally, &mut failures);
                    }
                    (tally, failures)
                })
            })
            .collect();
        for worker in workers {
            let (t, f) = worker.join().expect("a checking thread panicked");
            tally.add(t);
            failures.extend(f);
        }
    });
    let never = tally.rows - tally.observed;
    eprintln!(
        "subscripts: {} programs, {} runs, {} real element dependences; {} rows of tested pairs \
         ({} exact); {never} never observed as direct dependences ({:.1}%); not realized at all: \
         {} with constant bounds; with bounds read at run time, {} in common loops and {} without",
        tally.programs,
        tally.runs,
        tally.real,
        tally.rows,
        tally.exact,
        100.0 * never as f64 / tally.rows.max(1) as f64,
        tally.false_constant,
        tally.false_symbolic,
        tally.false_between_nests
    );
    assert!(tally.real > 0 && tally.rows > 0, "something was checked");
    assert!(
        failures.is_empty(),
        "{} failures; the first:\n{}",
        failures.len(),
        failures
            .iter()
            .take(3)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
