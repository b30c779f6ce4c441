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
use kaiseki_frontend::{CallEffects, Diagnostic};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The number of threads to use when the user does not say: one per core.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// Lowers each group of `program`'s units and runs `analyze` on its facts
/// with `jobs` threads. Returns the results and the lowering diagnostics,
/// both in program order.
pub fn map_groups<T: Send>(
    program: &Program,
    jobs: usize,
    analyze: impl Fn(FactBase) -> Result<T, String> + Sync,
) -> Result<(Vec<T>, Vec<Diagnostic>), String> {
    let effects = CallEffects::of(program);
    let analyzed = map_parallel(&groups(program, jobs), jobs, |&(first, end)| {
        let (facts, diags) =
            kaiseki_frontend::lower_units(program, &effects, |u| (first..end).contains(&u));
        (analyze(facts), diags)
    })?;
    let (mut out, mut diags) = (Vec::new(), Vec::new());
    for (result, group_diags) in analyzed {
        diags.extend(group_diags);
        out.push(result?);
    }
    Ok((out, diags))
}

/// `f` of each item, computed by `jobs` threads that take the next item
/// until none is left; the results in the items' order.
pub fn map_parallel<'a, I: Sync, T: Send>(
    items: &'a [I],
    jobs: usize,
    f: impl Fn(&'a I) -> T + Sync,
) -> Result<Vec<T>, String> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<T>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    let work = || loop {
        let k = next.fetch_add(1, Ordering::Relaxed);
        let Some(item) = items.get(k) else {
            return;
        };
        let result = f(item);
        if let Ok(mut slots) = results.lock() {
            slots[k] = Some(result);
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..jobs.min(items.len()) {
            scope.spawn(work);
        }
        work();
    });
    let failed = || "an analysis thread failed".to_string();
    results
        .into_inner()
        .map_err(|_| failed())?
        .into_iter()
        .map(|slot| slot.ok_or_else(failed))
        .collect()
}

/// Source lines of a group, about: small groups keep the rules' relations
/// and indices small enough to stay in cache (the nests benchmark takes 8%
/// less CPU in groups of one 850-line unit than in eight groups of five).
const GROUP_LINES: usize = 500;

/// Contiguous runs of units, `(first, end)` indices, each about the same
/// number of source lines: at least four groups per thread (so that a
/// thread that drew small groups takes more), and groups of about
/// [`GROUP_LINES`] lines in a large program.
fn groups(program: &Program, jobs: usize) -> Vec<(usize, usize)> {
    let units = &program.units;
    let lines = |u: &kaiseki_frontend::ast::Unit| {
        usize::try_from(u.end.line.saturating_sub(u.name.pos.line)).unwrap_or(0) + 1
    };
    let total: usize = units.iter().map(lines).sum();
    let wanted = (4 * jobs).max(total / GROUP_LINES);
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
