//! Region analysis (spec 001, section 1.1) against real runs. For random
//! programs (`parallel_loops`: nests over shared arrays with IFs,
//! triangular bounds, temporaries, reductions and induction variables),
//! every execution of every DO loop, and every iteration of one, must
//! stay inside what `region_loop` and `region_iteration` say:
//! - every element it writes is in MOD, every element it reads in USE;
//! - every element it reads before writing it is in EUSE;
//! - every element of DDEF is written.
//!
//! And every element read after an execution of a loop, before it is
//! written again, is in the loop's LIVE (`region_live`).
//!
//! Sections are evaluated with the values the trace shows scalars holding
//! where the part starts (LIVE: where the loop ends). A DO loop defines
//! its variable before its first iteration and reads it at each increment;
//! an iteration's sets leave its own DO variable out.

mod common;

use common::{lower_source, scaled};
use kaiseki_engine::Select;
use kaiseki_facts::{FactBase, Request, Value};
use kaiseki_judge::gen::parallel_loops;
use kaiseki_judge::{run, Access, Config, Mode};
use kaiseki_rules::{builtin_program, functors};
use kaiseki_sections::enumerate::{elements, indices, Elements};
use kaiseki_sections::{Approx, Dim, Region, Section};
use std::collections::{BTreeMap, BTreeSet, HashMap};

type Env = BTreeMap<String, i64>;
/// A variable's element: its name and its subscripts (none: a scalar).
type Element = (String, Vec<i64>);

/// The sets the analysis gives one loop, by its DO line.
#[derive(Default)]
struct Claimed {
    /// (mod, use, ddef, euse) of one iteration and of the whole loop.
    iteration: Option<[Region; 4]>,
    whole: Option<[Region; 4]>,
    live: Option<Region>,
}

fn parse(v: &Value) -> Region {
    match v {
        Value::Symbol(t) => t.parse().unwrap_or_else(|e| panic!("{t}: {e}")),
        other => panic!("not a region: {other:?}"),
    }
}

fn claimed(facts: &FactBase) -> BTreeMap<u32, Claimed> {
    let wanted = ["region_iteration", "region_loop", "region_live"];
    let derived = builtin_program()
        .run_select(facts, &functors::standard(), Select::Only(&wanted))
        .expect("rules run");
    let line: HashMap<i64, u32> = facts
        .r#loop
        .iter()
        .map(|l| (l.r#loop, l.line as u32))
        .collect();
    let mut out: BTreeMap<u32, Claimed> = BTreeMap::new();
    for t in &derived {
        for r in &t.rows {
            let Value::Number(l) = r[0] else { continue };
            let c = out.entry(line[&l]).or_default();
            match t.name.as_str() {
                "region_iteration" => {
                    c.iteration = Some([parse(&r[1]), parse(&r[2]), parse(&r[3]), parse(&r[4])])
                }
                "region_loop" => {
                    c.whole = Some([parse(&r[1]), parse(&r[2]), parse(&r[3]), parse(&r[4])])
                }
                "region_live" => c.live = Some(parse(&r[1])),
                _ => {}
            }
        }
    }
    out
}

/// Declared bounds of each array with constant bounds.
fn shapes(facts: &FactBase) -> HashMap<String, Vec<(i64, i64)>> {
    let mut dims: HashMap<String, BTreeMap<i64, (i64, i64)>> = HashMap::new();
    for d in &facts.array_dim {
        if let (Ok(lo), Ok(hi)) = (d.lower.parse::<i64>(), d.upper.parse::<i64>()) {
            dims.entry(d.array.clone())
                .or_default()
                .insert(d.dim, (lo, hi));
        }
    }
    let rank: HashMap<&str, usize> = facts
        .var
        .iter()
        .map(|v| (v.var.as_str(), v.rank as usize))
        .collect();
    dims.into_iter()
        .filter(|(a, d)| rank.get(a.as_str()) == Some(&d.len()))
        .map(|(a, d)| (a, d.into_values().collect()))
        .collect()
}

/// The subscripts of element `index` (column-major, 0-based) of an array.
fn subscripts(index: usize, dims: &[(i64, i64)]) -> Vec<i64> {
    let mut rest = index as i64;
    dims.iter()
        .map(|&(lo, hi)| {
            let n = hi - lo + 1;
            let s = lo + rest % n;
            rest /= n;
            s
        })
        .collect()
}

/// Whether a region may hold the element (may: `?` and `:` hold any index;
/// a bound that does not evaluate holds everything).
fn holds(r: &Region, (name, subs): &Element, env: &Env) -> bool {
    r.items().iter().any(|(n, s)| {
        n == name
            && match s {
                Section::Empty => false,
                Section::Unknown => true,
                Section::Dims(d) if d.len() != subs.len() => true,
                Section::Dims(d) => d.iter().zip(subs).all(|(dim, x)| match dim {
                    Dim::Triplet(t) => indices(t, env).is_none_or(|v| v.contains(x)),
                    Dim::All | Dim::Unknown => true,
                }),
            }
    })
}

/// The elements a must-region surely holds, where every bound evaluates
/// (`:` and `?` hold nothing here: their extent is not the test's).
fn surely(r: &Region, env: &Env) -> Vec<Element> {
    let mut out = Vec::new();
    for (n, s) in r.items() {
        if let Some(Elements::Set(tuples)) = elements(s, env, (1, 0), Approx::Must) {
            out.extend(tuples.into_iter().map(|t| (n.clone(), t)));
        }
    }
    out
}

/// What one execution of a loop (or one iteration) did.
#[derive(Default)]
struct Seen {
    env: Env,
    /// The loop's DO variable, which its DO statement defines first.
    own: Option<Element>,
    written: BTreeSet<Element>,
    read: BTreeSet<Element>,
    exposed: BTreeSet<Element>,
    /// Trace positions of its first and last accesses.
    span: (usize, usize),
}

impl Seen {
    fn add(&mut self, e: Element, mode: Mode) {
        match mode {
            Mode::Write => {
                self.written.insert(e);
            }
            Mode::Read => {
                if !self.written.contains(&e) && self.own.as_ref() != Some(&e) {
                    self.exposed.insert(e.clone());
                }
                self.read.insert(e);
            }
        }
    }
}

#[derive(Default)]
struct Tally {
    programs: usize,
    parts: usize,
    live_checks: usize,
    failures: Vec<String>,
}

fn check(seed: u64, tally: &mut Tally) {
    let g = parallel_loops(seed);
    let (program, _) = kaiseki_frontend::parse_source(&g.file_name, &g.source);
    let mut facts = lower_source(&g.file_name, &g.source);
    for what in ["parallel", "regions"] {
        facts.request.push(Request { what: what.into() });
    }
    let claims = claimed(&facts);
    let shapes = shapes(&facts);
    let element = |a: &Access| -> Option<Element> {
        match shapes.get(&*a.var) {
            Some(d) => Some((a.var.to_string(), subscripts(a.index, d))),
            None => facts
                .var
                .iter()
                .any(|v| *v.var == *a.var && v.rank == 0)
                .then(|| (a.var.to_string(), vec![])),
        }
    };
    // The DO statement defines its variable before the loop's first access.
    let do_var: HashMap<u32, Element> = facts
        .r#loop
        .iter()
        .map(|l| (l.line as u32, (l.var.clone(), vec![])))
        .collect();
    let start = |line: u32, env: &Env, k: usize| Seen {
        env: env.clone(),
        own: do_var.get(&line).cloned(),
        span: (k, k),
        ..Seen::default()
    };
    let config = Config {
        step_limit: 2_000_000,
        trace: true,
    };
    tally.programs += 1;
    for input in &g.inputs {
        let run = run(&program, input, &config).unwrap_or_else(|e| panic!("{}: {e}", g.file_name));
        let trace: Vec<&Access> = run.trace.iter().filter(|a| a.callers.is_empty()).collect();
        // Values of integer scalars before each access.
        let mut env = Env::new();
        let mut envs = Vec::with_capacity(trace.len());
        // (line, instance) and (line, instance, iteration) -> what happened.
        let mut whole: BTreeMap<(u32, u64), Seen> = BTreeMap::new();
        let mut iters: BTreeMap<(u32, u64, u64), Seen> = BTreeMap::new();
        for (k, a) in trace.iter().enumerate() {
            envs.push(env.clone());
            let Some(e) = element(a) else { continue };
            for it in a.loops.iter() {
                let line = it.do_pos.line;
                let w = whole
                    .entry((line, it.instance))
                    .or_insert_with(|| start(line, &env, k));
                w.add(e.clone(), a.mode);
                w.span.1 = k;
                // The DO variable's increment belongs to the loop, not to
                // an iteration (the iteration's sets leave it out).
                if a.at_loop_end && a.loops.last() == Some(it) {
                    continue;
                }
                let i = iters
                    .entry((line, it.instance, it.iter))
                    .or_insert_with(|| start(line, &env, k));
                i.add(e.clone(), a.mode);
            }
            if let (Some(v), true) = (a.value, e.1.is_empty()) {
                env.insert(e.0.clone(), v);
            }
        }
        envs.push(env.clone());
        let mut fail = |what: String| {
            tally
                .failures
                .push(format!("{} ({input:?}): {what}", g.file_name));
        };
        let mut judge = |line: u32, part: &str, seen: &Seen, sets: &[Region; 4]| {
            let [m, u, d, e] = sets;
            for x in &seen.written {
                if !holds(m, x, &seen.env) {
                    fail(format!("DO@{line} {part}: writes {x:?}, not in MOD {m}"));
                }
            }
            for x in &seen.read {
                if !holds(u, x, &seen.env) {
                    fail(format!("DO@{line} {part}: reads {x:?}, not in USE {u}"));
                }
            }
            for x in &seen.exposed {
                if !holds(e, x, &seen.env) {
                    fail(format!(
                        "DO@{line} {part}: reads {x:?} first, not in EUSE {e}"
                    ));
                }
            }
            for x in surely(d, &seen.env) {
                if !seen.written.contains(&x) {
                    fail(format!(
                        "DO@{line} {part}: DDEF {d} holds {x:?}, never written"
                    ));
                }
            }
        };
        for (&(line, _), seen) in &whole {
            let Some(c) = claims.get(&line) else { continue };
            if let Some(sets) = &c.whole {
                judge(line, "loop", seen, sets);
                tally.parts += 1;
            }
        }
        for (&(line, _, _), seen) in &iters {
            let Some(c) = claims.get(&line) else { continue };
            if let Some(sets) = &c.iteration {
                judge(line, "iteration", seen, sets);
                tally.parts += 1;
            }
        }
        // LIVE: reads after the execution, before a write.
        for (&(line, _), seen) in &whole {
            let Some(live) = claims.get(&line).and_then(|c| c.live.as_ref()) else {
                continue;
            };
            let end = seen.span.1 + 1;
            let at_end = &envs[end];
            let mut written = BTreeSet::new();
            for a in &trace[end..] {
                let Some(e) = element(a) else { continue };
                match a.mode {
                    Mode::Write => {
                        written.insert(e);
                    }
                    Mode::Read if !written.contains(&e) && !holds(live, &e, at_end) => {
                        fail(format!(
                            "DO@{line}: {e:?} read after the loop, not in LIVE {live}"
                        ));
                    }
                    Mode::Read => {}
                }
            }
            tally.live_checks += 1;
        }
    }
}

#[test]
fn regions_hold_what_runs_touch() {
    let mut tally = Tally::default();
    for seed in 0..scaled(24) {
        check(seed, &mut tally);
    }
    println!(
        "regions: {} programs, {} loop executions and iterations checked, {} LIVE sets",
        tally.programs, tally.parts, tally.live_checks
    );
    assert!(tally.parts > 100, "too few parts checked: {}", tally.parts);
    assert!(
        tally.failures.is_empty(),
        "{} failures, the first:\n{}",
        tally.failures.len(),
        tally.failures[..tally.failures.len().min(10)].join("\n")
    );
}
