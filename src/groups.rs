//! Analysis of a program in groups of units, on several threads.
//!
//! Every rule is local to a program unit (dataflow follows the unit's
//! control flow; a call is modelled without looking into the callee), so
//! groups of units can be lowered and analyzed apart and their results put
//! together. The groups are contiguous runs of units in program order with
//! about the same number of source lines; threads take the next group until
//! none is left, and the results come back in program order, so the output
//! does not depend on the number of threads.

use kaiseki_facts::FactBase;
use kaiseki_frontend::ast::Program;
use kaiseki_frontend::Diagnostic;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The number of threads to use when the user does not say: one per core.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// One group's result and lowering diagnostics.
type Analyzed<T> = (Result<T, String>, Vec<Diagnostic>);

/// Lowers each group of `program`'s units and runs `analyze` on its facts
/// with `jobs` threads. Returns the results and the lowering diagnostics,
/// both in program order.
pub fn map_groups<T: Send>(
    program: &Program,
    jobs: usize,
    analyze: impl Fn(FactBase) -> Result<T, String> + Sync,
) -> Result<(Vec<T>, Vec<Diagnostic>), String> {
    let groups = groups(program, jobs);
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Analyzed<T>>>> =
        Mutex::new((0..groups.len()).map(|_| None).collect());
    let work = || loop {
        let g = next.fetch_add(1, Ordering::Relaxed);
        let Some(&(first, end)) = groups.get(g) else {
            return;
        };
        let (facts, diags) = kaiseki_frontend::lower_units(program, |u| (first..end).contains(&u));
        let result = analyze(facts);
        if let Ok(mut slots) = results.lock() {
            slots[g] = Some((result, diags));
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..jobs.min(groups.len()) {
            scope.spawn(work);
        }
        work();
    });
    let slots = results
        .into_inner()
        .map_err(|_| "an analysis thread failed".to_string())?;
    let (mut out, mut diags) = (Vec::new(), Vec::new());
    for slot in slots {
        let (result, group_diags) = slot.ok_or("an analysis thread failed")?;
        diags.extend(group_diags);
        out.push(result?);
    }
    Ok((out, diags))
}

/// Contiguous runs of units, `(first, end)` indices: one group when `jobs`
/// is 1, else four per thread (so that a thread that drew small groups takes
/// more), each about the same number of source lines.
fn groups(program: &Program, jobs: usize) -> Vec<(usize, usize)> {
    let units = &program.units;
    let lines = |u: &kaiseki_frontend::ast::Unit| {
        usize::try_from(u.end.line.saturating_sub(u.name.pos.line)).unwrap_or(0) + 1
    };
    let wanted = if jobs <= 1 { 1 } else { 4 * jobs };
    let total: usize = units.iter().map(lines).sum();
    let share = total.div_ceil(wanted).max(1);
    let mut out = Vec::new();
    let (mut first, mut size) = (0, 0);
    for (i, u) in units.iter().enumerate() {
        size += lines(u);
        if size >= share {
            out.push((first, i + 1));
            (first, size) = (i + 1, 0);
        }
    }
    if first < units.len() || out.is_empty() {
        out.push((first, units.len()));
    }
    out
}
