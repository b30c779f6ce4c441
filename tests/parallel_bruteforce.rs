//! Soundness of `kaiseki parallel` against real runs (spec 001, "Proof by
//! execution"). For random programs (`parallel_loops`: nests over shared
//! arrays with temporaries, reductions and induction variables), every
//! loop called `parallel` or `parallel-with-transforms` must
//!
//! (a) carry, in every recorded run, no flow, anti or output dependence
//!     (two different iterations of one execution of the loop) except on
//!     the variables its row names: private, lastprivate, reductions with
//!     their location variables, inductions, its own DO variable and those
//!     of the loops inside it;
//! (b) print what the program prints when its iterations run in reverse
//!     and in a shuffled order, each with its own copies of the private
//!     variables (firstprivate ones starting from the value before the
//!     loop, the others undefined: reading one is an error), reductions
//!     combined, induction variables in closed form, and the last values
//!     restored (`kaiseki_judge::run_reordered`).
//!
//! Recall: of the loops the runs show parallel by the judge's own reading
//! (among those that ran at least two iterations in one execution)
//! (carrying dependences only on DO variables, on scalars no iteration
//! reads from another whose value after the loop, if read, comes from
//! the last iteration, and on reductions and induction variables of the
//! judge's own shapes, `kaiseki_judge::shapes`), the share called
//! parallel. Run with `--nocapture` to see the numbers and the misses.

mod common;

use common::{kaiseki_ok, lower_source, scaled, scratch_dir};
use kaiseki_codegen::parallel::{decisions, rows, to_csv, LoopDecision, RELATIONS};
use kaiseki_engine::Select;
use kaiseki_facts::{FactBase, Request, Value};
use kaiseki_judge::carried::{observe, LoopObservation};
use kaiseki_judge::gen::{
    allocatable_program, argument_program, boundary_program, bounds_program,
    derived_parallel_loops, exact_nests, host_program, module_program, parallel_control_loops,
    parallel_loops, section_program, shared_nests, Generated,
};
use kaiseki_judge::shapes::{do_vars, find_do, roles, Role};
use kaiseki_judge::{run, run_reordered, Clauses, Config, Order, RedOp, Reduction, Reorder, Step};
use kaiseki_rules::{builtin_program, functors};
use std::collections::{BTreeMap, BTreeSet};

const PARALLEL: [&str; 2] = ["parallel", "parallel-with-transforms"];

/// What the analysis says of one loop, with the increment of each
/// induction variable.
struct Claim {
    decision: LoopDecision,
    /// Each induction variable's update per iteration (iv_inc, iv_factor).
    steps: BTreeMap<String, Step>,
}

/// The claims of every loop of the program, by DO line, read through the
/// library; the CLI's CSV must be the same rows.
fn claims(g: &Generated) -> BTreeMap<u32, Claim> {
    let mut facts = lower_source(&g.file_name, &g.source);
    facts.request.push(Request {
        what: "parallel".into(),
    });
    let mut wanted = RELATIONS.to_vec();
    wanted.extend(["iv_inc", "iv_factor"]);
    let derived = builtin_program()
        .run_select(&facts, &functors::standard(), Select::Only(&wanted))
        .unwrap_or_else(|e| panic!("{}: {e}", g.file_name));
    let dir = scratch_dir(&format!("pbf_{}", g.file_name));
    let path = dir.join(&g.file_name);
    std::fs::write(&path, &g.source).expect("program written");
    let csv = kaiseki_ok([
        "parallel".as_ref(),
        path.as_os_str(),
        "--format".as_ref(),
        "csv".as_ref(),
    ]);
    assert_eq!(
        csv,
        to_csv(&rows(&facts, &derived)),
        "{}: the CLI and the library differ",
        g.file_name
    );
    let line_of = |l: i64| loop_line(&facts, l);
    let mut out: BTreeMap<u32, Claim> = decisions(&derived)
        .into_iter()
        .map(|(l, decision)| {
            let claim = Claim {
                decision,
                steps: BTreeMap::new(),
            };
            (line_of(l), claim)
        })
        .collect();
    for (name, step) in [
        ("iv_inc", Step::Add as fn(i64) -> Step),
        ("iv_factor", Step::Times),
    ] {
        let table = derived.iter().find(|t| t.name == name);
        for r in table.map_or(&[][..], |t| &t.rows[..]) {
            if let [Value::Number(l), Value::Symbol(v), Value::Number(c)] = &r[..] {
                if let Some(claim) = out.get_mut(&line_of(*l)) {
                    claim.steps.insert(v.clone(), step(*c));
                }
            }
        }
    }
    out
}

fn loop_line(facts: &FactBase, l: i64) -> u32 {
    facts
        .r#loop
        .iter()
        .find(|r| r.r#loop == l)
        .map_or(0, |r| r.line as u32)
}

/// Prints what the runs of one generator found and fails on the first
/// unsound claim.
fn report(what: &str, extra: &str, tally: &Tally, failures: &[String]) {
    let (truth, hit) = tally.truth;
    println!(
        "{what}: {} programs, {} runs, {} loops, {} called parallel{extra}; {truth} parallel by the runs, {hit} of them called parallel",
        tally.programs, tally.runs, tally.loops, tally.claimed
    );
    assert!(
        failures.is_empty(),
        "{} unsound claims; the first:\n{}",
        failures.len(),
        failures[0]
    );
}

/// The clauses a reordered run applies for a claim.
fn clauses(c: &Claim) -> Result<Clauses, String> {
    let d = &c.decision;
    let mut reductions = Vec::new();
    for (op, var) in &d.reductions {
        let op = RedOp::parse(op).ok_or_else(|| format!("unknown reduction {op}"))?;
        let locs = d
            .locations
            .get(var)
            .into_iter()
            .flatten()
            .cloned()
            .collect();
        reductions.push(Reduction {
            op,
            var: var.clone(),
            locs,
        });
    }
    let mut inductions = Vec::new();
    for v in &d.inductions {
        let step = c
            .steps
            .get(v)
            .ok_or_else(|| format!("induction {v} without an update"))?;
        inductions.push((v.clone(), *step));
    }
    Ok(Clauses {
        private: d.private.iter().cloned().collect(),
        firstprivate: d.firstprivate.iter().cloned().collect(),
        lastprivate: d.lastprivate.iter().cloned().collect(),
        reductions,
        inductions,
    })
}

/// The variables a claim lets the loop carry dependences on.
fn named(c: &Claim, do_vars: &BTreeSet<String>) -> BTreeSet<String> {
    let d = &c.decision;
    let mut ok: BTreeSet<String> = do_vars.clone();
    ok.extend(d.private.iter().cloned());
    ok.extend(d.firstprivate.iter().cloned());
    ok.extend(d.lastprivate.iter().cloned());
    ok.extend(d.inductions.iter().cloned());
    ok.extend(d.reductions.iter().map(|(_, v)| v.clone()));
    ok.extend(d.locations.values().flatten().cloned());
    ok
}

/// Why the judge's own reading of the runs says the loop is not parallel
/// (empty: it is).
fn truth(
    obs: &LoopObservation,
    roles: &BTreeMap<String, Role>,
    own_var: &str,
    arrays: &BTreeSet<String>,
) -> Vec<String> {
    let mut why = Vec::new();
    if obs.live_out.contains(own_var) {
        why.push(format!("DO variable {own_var} read after the loop"));
    }
    for (v, kinds) in &obs.carried {
        if v == own_var || (roles.contains_key(v) && !arrays.contains(v)) {
            continue;
        }
        let flow = kinds.contains_key(&kaiseki_judge::DepKind::Flow);
        if arrays.contains(v) || flow {
            let example: Vec<String> = kinds
                .iter()
                .map(|(k, (s, d))| format!("{} {v} {s}->{d}", k.as_str()))
                .collect();
            why.push(example.join(", "));
        } else if obs.live_out_not_last.contains(v) {
            why.push(format!(
                "{v}: its value after the loop may come from an earlier iteration"
            ));
        }
    }
    why
}

#[derive(Default)]
struct Tally {
    programs: usize,
    runs: usize,
    loops: usize,
    claimed: usize,
    /// (truly parallel, of them claimed).
    truth: (usize, usize),
    reordered_runs: usize,
    misses: Vec<String>,
}

/// The variables of subroutines and functions that each call has its own
/// of: not dummies, COMMON or module variables, nor saved.
fn automatic_vars(facts: &FactBase) -> BTreeSet<(String, String)> {
    let procedures: BTreeSet<&str> = facts
        .unit
        .iter()
        .filter(|u| u.kind == "subroutine" || u.kind == "function")
        .map(|u| u.unit.as_str())
        .collect();
    let shared: BTreeSet<(&str, &str)> = facts
        .dummy_arg
        .iter()
        .map(|d| (d.unit.as_str(), d.var.as_str()))
        .chain(
            facts
                .common
                .iter()
                .map(|c| (c.unit.as_str(), c.var.as_str())),
        )
        .chain(
            facts
                .saved
                .iter()
                .map(|s| (s.unit.as_str(), s.var.as_str())),
        )
        .collect();
    facts
        .var
        .iter()
        .filter(|v| procedures.contains(v.unit.as_str()))
        .filter(|v| !shared.contains(&(v.unit.as_str(), v.var.as_str())))
        .map(|v| (v.unit.clone(), v.var.clone()))
        .collect()
}

/// Checks one program; unsound claims are appended to `failures`.
fn check(g: &Generated, tally: &mut Tally, failures: &mut Vec<String>) {
    let (program, diags) = kaiseki_frontend::parse_source(&g.file_name, &g.source);
    assert!(
        diags.iter().all(|d| !d.is_error()),
        "{}: parse errors",
        g.file_name
    );
    let claims = claims(g);
    let config = Config {
        step_limit: 2_000_000,
        trace: true,
    };
    let facts = lower_source(&g.file_name, &g.source);
    let automatic = automatic_vars(&facts);
    let mut outputs = Vec::new();
    let mut observed: BTreeMap<u32, LoopObservation> = BTreeMap::new();
    for input in &g.inputs {
        let r = run(&program, input, &config)
            .unwrap_or_else(|e| panic!("{}: {e}\n{}", g.file_name, g.source));
        for &line in claims.keys() {
            observed
                .entry(line)
                .or_default()
                .merge(observe(&r.trace, line, &automatic));
        }
        outputs.push(r.output);
        tally.runs += 1;
    }
    let arrays: BTreeSet<String> = facts
        .var
        .iter()
        .filter(|v| v.rank > 0)
        .map(|v| v.var.clone())
        .collect();
    tally.programs += 1;
    let mut fail = |line: u32, what: String| {
        failures.push(format!(
            "--- {} ---\n{}\nloop at line {line} of {}: {what}",
            g.file_name, g.source, g.file_name
        ));
    };
    for (&line, claim) in &claims {
        let Some(do_stmt) = find_do(&program, line) else {
            continue;
        };
        let obs = &observed[&line];
        let dvars = do_vars(do_stmt);
        let own = match &do_stmt.kind {
            kaiseki_frontend::ast::StmtKind::Do { var, .. } => var.text.clone(),
            _ => String::new(),
        };
        let called = PARALLEL.contains(&claim.decision.verdict.as_str());
        tally.loops += 1;
        tally.claimed += usize::from(called);
        // A loop that never ran two iterations in one execution shows nothing.
        if obs.max_trip >= 2 {
            let why = truth(obs, &roles(do_stmt), &own, &arrays);
            if why.is_empty() {
                tally.truth.0 += 1;
                tally.truth.1 += usize::from(called);
                if !called {
                    tally.misses.push(format!(
                        "{} line {line}: {} [{}]",
                        g.file_name,
                        claim.decision.verdict,
                        claim
                            .decision
                            .blockers
                            .iter()
                            .cloned()
                            .collect::<Vec<_>>()
                            .join("; ")
                    ));
                }
            }
        }
        if !called {
            continue;
        }
        // (a) no carried dependence but on the variables the row names.
        let ok = named(claim, &dvars);
        for (v, kinds) in &obs.carried {
            if !ok.contains(v) {
                let k: Vec<String> = kinds
                    .iter()
                    .map(|(k, (s, d))| format!("{} {v} {s}->{d}", k.as_str()))
                    .collect();
                fail(
                    line,
                    format!(
                        "called {} but carries {} (row names {ok:?})",
                        claim.decision.verdict,
                        k.join(", ")
                    ),
                );
            }
        }
        // (b) the reordered runs print what the program prints.
        let clauses = match clauses(claim) {
            Ok(c) => c,
            Err(e) => {
                fail(line, e);
                continue;
            }
        };
        for (input, want) in g.inputs.iter().zip(&outputs) {
            for order in [Order::Reverse, Order::Shuffle(u64::from(line))] {
                let plan = Reorder {
                    line,
                    order,
                    clauses: clauses.clone(),
                };
                tally.reordered_runs += 1;
                let got = run_reordered(&program, input, &config, &plan);
                let what = match got {
                    Ok(r) if r.output == *want => continue,
                    Ok(r) => format!("prints\n{}instead of\n{want}", r.output),
                    Err(e) => format!("stops: {e}"),
                };
                fail(
                    line,
                    format!(
                        "called {} {:?}; run {order:?} with {clauses:?} on input {input:?}: {what}",
                        claim.decision.verdict, claim.decision
                    ),
                );
            }
        }
    }
}

#[test]
fn loops_called_parallel_run_in_any_order_and_carry_only_what_they_name() {
    let n = scaled(40);
    let mut tally = Tally::default();
    let mut failures = Vec::new();
    for seed in 0..n {
        check(&parallel_loops(seed), &mut tally, &mut failures);
    }
    let (truth, hit) = tally.truth;
    let recall = hit as f64 / truth.max(1) as f64;
    println!(
        "parallel_loops: {} programs, {} runs, {} loops, {} called parallel, {} reordered runs; \
         {truth} parallel by the runs, {hit} of them called parallel: recall {recall:.3}",
        tally.programs, tally.runs, tally.loops, tally.claimed, tally.reordered_runs
    );
    for m in &tally.misses {
        println!("  missed: {m}");
    }
    let mut summary: Vec<&str> = failures
        .iter()
        .filter_map(|f| f.lines().find(|l| l.starts_with("loop at line")))
        .collect();
    summary.dedup_by_key(|l| l.split(':').next().unwrap_or_default().to_string());
    assert!(
        failures.is_empty(),
        "{} unsound claims:\n{}\nthe first in full:\n{}",
        failures.len(),
        summary.join("\n"),
        failures[0]
    );
    // The generator must be honest: both kinds of loops, in number.
    assert!(
        truth * 5 >= tally.loops,
        "few parallel loops: {truth}/{}",
        tally.loops
    );
    assert!(
        truth * 5 <= tally.loops * 4,
        "few sequential loops: {truth}/{}",
        tally.loops
    );
    // The goal (0.97). Measured: 0.952 (198 of 208) on seeds 0..40,
    // 0.962 (200 of 208) once IFs were decided where they are reached, 0.966
    // (201 of 208) once last values set in the last iteration only and
    // variables defined only where no run reaches were known, 0.971 (202 of
    // 208) once a counter stepped under an IF (`IF (Q .GT. 0) M = M + 1`)
    // kept within what the iterations so far can add (`counter_bound`); the
    // misses are listed above (docs/parallel.md: a max with its location
    // beside another update of the max, writes under conditions the runs
    // never take).
    assert!(recall >= 0.97, "recall {recall:.3}");
}

/// The recall of `parallel` on the nests of the dependence judge (seeds
/// 0..40): `shared_nests` (today's shapes) and `exact_nests` (zero- and
/// one-trip loops, negative-step triangular loops, IFs on affine
/// conditions of the DO variables, induction scalars stepped in nests):
/// no unsound claim, and the recall each reaches (printed with
/// `--nocapture`, held to the figures measured).
#[test]
fn loops_of_the_dependence_nests_are_judged_soundly_and_found_parallel() {
    for (what, make, floor) in [
        // Measured 0.948 (128 of 135) and 0.932 (123 of 132) before code no
        // run reaches and the guards of IFs were known, 0.963 (130 of 135)
        // and 0.947 (125 of 132) after; 0.970 (131 of 135) and 0.962 (127
        // of 132) once conditions were decided where the IFs around them
        // hold, the iterations a statement runs in were known and one known
        // bound gave one end of a DO variable's range; 0.985 (130 of 132)
        // on `exact_nests` once a last value set in the last iteration only
        // (`runs_last`) and an inner DO variable no run reaches
        // (FIRSTPRIVATE and LASTPRIVATE) were known.
        ("shared_nests", shared_nests as fn(u64) -> Generated, 0.97),
        ("exact_nests", exact_nests, 0.98),
    ] {
        let mut tally = Tally::default();
        let mut failures = Vec::new();
        for seed in 0..scaled(40) {
            check(&make(seed), &mut tally, &mut failures);
        }
        let (truth, hit) = tally.truth;
        let recall = hit as f64 / truth.max(1) as f64;
        println!(
            "{what}: {} programs, {} runs, {} loops, {} called parallel; \
             {truth} parallel by the runs, {hit} of them called parallel: recall {recall:.3}",
            tally.programs, tally.runs, tally.loops, tally.claimed
        );
        for m in &tally.misses {
            println!("  missed: {m}");
        }
        let summary: Vec<&str> = failures
            .iter()
            .filter_map(|f| f.lines().find(|l| l.starts_with("loop at line")))
            .collect();
        assert!(
            failures.is_empty(),
            "{what}: {} unsound claims:\n{}\nthe first in full:\n{}",
            failures.len(),
            summary.join("\n"),
            failures[0]
        );
        assert!(recall >= floor, "{what}: recall {recall:.3}");
    }
}

/// The same with CYCLE, EXIT and SELECT CASE in the bodies: no unsound
/// claim; loops with only CYCLE are still called parallel.
#[test]
fn loops_with_exit_cycle_and_select_case_are_judged_soundly() {
    let n = scaled(40);
    let mut tally = Tally::default();
    let mut failures = Vec::new();
    for seed in 0..n {
        check(&parallel_control_loops(seed), &mut tally, &mut failures);
    }
    let (truth, hit) = tally.truth;
    println!(
        "parallel_control_loops: {} programs, {} loops, {} called parallel, {} reordered runs; \
         {truth} parallel by the runs, {hit} of them called parallel",
        tally.programs, tally.loops, tally.claimed, tally.reordered_runs
    );
    for m in &tally.misses {
        println!("  missed: {m}");
    }
    assert!(
        failures.is_empty(),
        "{} unsound claims; the first in full:\n{}",
        failures.len(),
        failures[0]
    );
    assert!(
        tally.reordered_runs > 0 && hit > 0,
        "nothing called parallel"
    );
}

/// The programs of `parallel_loops` with their arrays as derived-type
/// components (flattened by the frontend into one variable per
/// component): no unsound claim.
#[test]
fn loops_over_derived_type_components_run_in_any_order() {
    let mut tally = Tally::default();
    let mut failures = Vec::new();
    for seed in 0..scaled(40) {
        check(&derived_parallel_loops(seed), &mut tally, &mut failures);
    }
    report("derived_parallel_loops", "", &tally, &failures);
    assert!(tally.claimed > 0, "no loop called parallel");
}

/// Loops over module arrays, host arrays of internal procedures and
/// allocatable arrays, in the main program and in the subroutines, with
/// calls of subroutines that touch them in their bodies: no unsound claim.
#[test]
fn loops_over_module_host_and_allocatable_arrays_with_calls_are_judged_soundly() {
    let mut tally = Tally::default();
    let mut failures = Vec::new();
    for seed in 0..scaled(30) {
        for g in [
            module_program(seed),
            host_program(seed),
            allocatable_program(seed),
        ] {
            check(&g, &mut tally, &mut failures);
        }
    }
    let (truth, hit) = tally.truth;
    println!(
        "module/host/allocatable programs: {} programs, {} runs, {} loops, {} called parallel, {} reordered runs; {truth} parallel by the runs, {hit} of them called parallel",
        tally.programs, tally.runs, tally.loops, tally.claimed, tally.reordered_runs
    );
    let mut summary: Vec<&str> = failures
        .iter()
        .filter_map(|f| f.lines().find(|l| l.starts_with("loop at line")))
        .collect();
    summary.dedup();
    assert!(
        failures.is_empty(),
        "{} unsound claims:\n{}\nthe first in full:\n{}",
        failures.len(),
        summary.join("\n"),
        failures[0]
    );
    assert!(tally.claimed > 0, "no loop called parallel");
}

/// Work arrays written in pieces (W(0), W(1:N-1) by a loop, W(N)) and
/// read near their ends, N read on input: no unsound claim, and the J
/// loops whose pieces cover what they read (for every N within W's
/// declared bounds) get W private in some programs.
#[test]
fn work_arrays_written_in_pieces_are_judged_soundly() {
    let mut tally = Tally::default();
    let mut failures = Vec::new();
    let mut private_w = 0;
    for seed in 0..scaled(40) {
        let g = boundary_program(seed);
        check(&g, &mut tally, &mut failures);
        private_w += claims(&g)
            .values()
            .filter(|c| PARALLEL.contains(&c.decision.verdict.as_str()))
            .filter(|c| c.decision.private.contains("W"))
            .count();
    }
    report(
        "boundary programs",
        &format!(" ({private_w} with W private)"),
        &tally,
        &failures,
    );
    assert!(private_w > 0, "no loop with W private");
}

/// Loops calling subroutines and functions that read, write or hand on
/// the arrays, elements and scalars they are given: a loop whose calls do
/// nothing their references do not show is judged by its references, and
/// no claim is unsound.
#[test]
fn loops_with_calls_passing_arrays_elements_and_scalars_are_judged_soundly() {
    let mut tally = Tally::default();
    let mut failures = Vec::new();
    for seed in 0..scaled(60) {
        check(&argument_program(seed), &mut tally, &mut failures);
    }
    let (truth, hit) = tally.truth;
    println!(
        "argument programs: {} programs, {} runs, {} loops, {} called parallel, {} reordered runs; {truth} parallel by the runs, {hit} of them called parallel",
        tally.programs, tally.runs, tally.loops, tally.claimed, tally.reordered_runs
    );
    assert!(
        failures.is_empty(),
        "{} unsound claims; the first:\n{}",
        failures.len(),
        failures[0]
    );
    assert!(tally.claimed > 0, "no loop with calls called parallel");
}

/// Loops over K whose lower bound is read on entry (an index array's
/// element, a scalar set under an IF or changed by the body): no claim is
/// unsound, and loops over K whose references meet only in one iteration
/// are called parallel.
#[test]
fn loops_with_bounds_read_on_entry_are_judged_soundly() {
    let mut tally = Tally::default();
    let mut failures = Vec::new();
    for seed in 0..scaled(60) {
        check(&bounds_program(seed), &mut tally, &mut failures);
    }
    report("bounds programs", "", &tally, &failures);
    assert!(
        tally.claimed > 0,
        "no loop with bounds read on entry called parallel"
    );
}

/// Loops over sections, SUM of sections and calls passing elements to
/// explicit-shape dummies (`section_program`): no claim is unsound, and
/// loops whose sections move apart are called parallel.
#[test]
fn loops_over_sections_and_element_actuals_are_judged_soundly() {
    let mut tally = Tally::default();
    let mut failures = Vec::new();
    for seed in 0..scaled(60) {
        check(&section_program(seed), &mut tally, &mut failures);
    }
    let (truth, hit) = tally.truth;
    println!(
        "section programs: {} programs, {} runs, {} loops, {} called parallel; {truth} parallel by the runs, {hit} of them called parallel",
        tally.programs, tally.runs, tally.loops, tally.claimed
    );
    for m in &tally.misses {
        println!("  missed: {m}");
    }
    assert!(
        failures.is_empty(),
        "{} unsound claims; the first:\n{}",
        failures.len(),
        failures[0]
    );
    assert!(tally.claimed > 0, "no loop over sections called parallel");
}

#[test]
fn hand_written_shapes_the_generator_lacks_are_judged_too() {
    // Geometric induction variables, scalars set in the loop around.
    let mut tally = Tally::default();
    let mut failures = Vec::new();
    for name in ["geometric.f", "outer_scalars.f"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/parallel")
            .join(name);
        let g = Generated {
            file_name: name.to_string(),
            source: std::fs::read_to_string(&path).expect("program"),
            inputs: vec![Vec::new()],
        };
        check(&g, &mut tally, &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(tally.reordered_runs > 0, "no loop called parallel");
    for m in &tally.misses {
        println!("  missed: {m}");
    }
}
