//! Analysis of a program in groups of units, on several threads.
//!
//! Every rule is local to a program unit (dataflow follows the unit's
//! control flow; a call is modelled without looking into the callee), so
//! groups of units can be lowered and analyzed apart and their results put
//! together. The groups are contiguous runs of units in program order with
//! about the same number of source lines, lowered in program order (ids are
//! the whole program's); threads take the next group until none is left,
//! and the results come back in program order, so the output does not
//! depend on the number of threads.

use crate::progress;
use kaiseki_facts::FactBase;
use kaiseki_frontend::ast::Program;
use kaiseki_frontend::{CallEffects, Diagnostic, NextIds};
use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use std::sync::{Condvar, Mutex, PoisonError};

/// The number of threads to use when the user does not say: one per core.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// Lowers each group of `program`'s units and runs `analyze` on its facts
/// with `jobs` threads. Returns the results and the lowering diagnostics,
/// both in program order. The groups are lowered one after the other, each
/// numbered from the ids where the previous one stopped, so statement,
/// reference and form ids are those of the whole program (`kaiseki facts`)
/// and the derived relations of the groups can be put together as they
/// are; the other threads analyze the groups already lowered meanwhile.
pub fn map_groups<T: Send>(
    program: &Program,
    jobs: usize,
    analyze: impl Fn(FactBase) -> Result<T, String> + Sync,
) -> Result<(Vec<T>, Vec<Diagnostic>), String> {
    let effects = CallEffects::of(program);
    let groups = groups(program, jobs);
    let mut diags = Vec::new();
    let analyzed = progress::groups(groups.len(), |done| {
        let lower = |give: &mut dyn FnMut(FactBase)| {
            let mut ids = NextIds::default();
            for &(first, end) in &groups {
                let (facts, group_diags, next) = kaiseki_frontend::lower_units(
                    program,
                    &effects,
                    |u| (first..end).contains(&u),
                    ids,
                );
                ids = next;
                diags.extend(group_diags);
                give(facts);
            }
        };
        map_produced(jobs, lower, |facts| {
            let result = analyze(facts);
            done.fetch_add(1, Ordering::Relaxed);
            result
        })
    })?;
    Ok((analyzed.into_iter().collect::<Result<_, _>>()?, diags))
}

/// `f` of each item, computed by `jobs` threads that take the next item
/// until none is left; the results in the items' order.
pub fn map_parallel<'a, I: Sync, T: Send>(
    items: &'a [I],
    jobs: usize,
    f: impl Fn(&'a I) -> T + Sync,
) -> Result<Vec<T>, String> {
    map_produced(jobs, |give| items.iter().for_each(give), f)
}

/// `f` of each item that `produce` gives, in order, computed by `jobs`
/// threads: the calling thread produces the items while the others take
/// them as they come, then joins them. The producer never runs more than
/// `jobs` items ahead: when that many wait, it computes one itself (with
/// one thread, each item as soon as it is produced), so items (the facts
/// of groups of units) do not pile up in memory. The results in the
/// items' order.
fn map_produced<I: Send, T: Send>(
    jobs: usize,
    produce: impl FnOnce(&mut dyn FnMut(I)),
    f: impl Fn(I) -> T + Sync,
) -> Result<Vec<T>, String> {
    // The items waiting, with their rank, and whether more will come. The
    // lock is only held to push or pop one: threads wait for items on
    // `ready`, which releases it.
    let queue = Mutex::new((VecDeque::<(usize, I)>::new(), false));
    let ready = Condvar::new();
    let lock = || queue.lock().unwrap_or_else(PoisonError::into_inner);
    let results: Mutex<Vec<(usize, T)>> = Mutex::new(Vec::new());
    let compute = |(k, item): (usize, I)| {
        let result = f(item);
        if let Ok(mut done) = results.lock() {
            done.push((k, result));
        }
    };
    let work = || loop {
        let mut waiting = lock();
        let next = loop {
            match waiting.0.pop_front() {
                Some(next) => break Some(next),
                None if waiting.1 => break None,
                None => waiting = ready.wait(waiting).unwrap_or_else(PoisonError::into_inner),
            }
        };
        drop(waiting);
        match next {
            Some(next) => compute(next),
            None => return,
        }
    };
    let produced = std::thread::scope(|scope| {
        for _ in 1..jobs {
            scope.spawn(work);
        }
        let mut count = 0;
        produce(&mut |item| {
            let mut waiting = lock();
            waiting.0.push_back((count, item));
            count += 1;
            ready.notify_one();
            while waiting.0.len() >= jobs {
                let Some(next) = waiting.0.pop_front() else {
                    break;
                };
                drop(waiting);
                compute(next);
                waiting = lock();
            }
        });
        lock().1 = true;
        ready.notify_all();
        work();
        count
    });
    let mut results = results
        .into_inner()
        .map_err(|_| "an analysis thread failed".to_string())?;
    if results.len() != produced {
        return Err("an analysis thread failed".to_string());
    }
    results.sort_unstable_by_key(|(k, _)| *k);
    Ok(results.into_iter().map(|(_, r)| r).collect())
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    #[test]
    fn groups_are_numbered_as_the_whole_program() {
        let text = kaiseki_frontend::synth::synthetic_program(4000, 7);
        let (program, _) = kaiseki_frontend::parse_source("mixed.f", &text);
        let (whole, _) = kaiseki_frontend::lower(&program);
        for jobs in [1, 3] {
            let (parts, _) = map_groups(&program, jobs, Ok).expect("lowered");
            assert!(parts.len() > 4, "several groups: {}", parts.len());
            let mut merged = FactBase::default();
            for part in parts {
                merged.extend(part);
            }
            merged.normalize();
            assert!(
                merged == whole,
                "--jobs {jobs}: other facts than the whole program's"
            );
        }
    }

    #[test]
    fn the_producer_runs_at_most_jobs_items_ahead() {
        for jobs in [1, 2, 3] {
            let started = AtomicUsize::new(0);
            let mut most_waiting = 0;
            let results = map_produced(
                jobs,
                |give| {
                    for k in 0..40 {
                        most_waiting = most_waiting.max(k - started.load(Ordering::SeqCst));
                        give(k);
                    }
                },
                |k: usize| {
                    started.fetch_add(1, Ordering::SeqCst);
                    std::thread::sleep(std::time::Duration::from_millis(2));
                    k * 2
                },
            )
            .expect("mapped");
            assert_eq!(results, (0..40).map(|k| k * 2).collect::<Vec<_>>());
            // Fewer than `jobs` in the queue, and taken from it but not
            // started yet, one per other thread.
            assert!(
                most_waiting < 2 * jobs,
                "--jobs {jobs}: {most_waiting} items waited"
            );
            if jobs == 1 {
                assert_eq!(most_waiting, 0, "each item computed as it comes");
            }
        }
    }

    #[test]
    fn the_producer_never_waits_for_a_thread_that_waits_for_it() {
        // Many small items, threads idle waiting for them: a producer
        // that waited for a lock an idle thread held would hang.
        for _ in 0..200 {
            for jobs in [2, 3, 4] {
                let items: Vec<u32> = (0..50).collect();
                let got = map_parallel(&items, jobs, |&x| x + 1).expect("mapped");
                assert_eq!(got, (1..51).collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn results_come_in_the_items_order() {
        let items: Vec<u64> = (0..200).collect();
        for jobs in [1, 2, 5] {
            let squares = map_parallel(&items, jobs, |&x| x * x).expect("mapped");
            assert_eq!(squares, items.iter().map(|x| x * x).collect::<Vec<_>>());
        }
    }
}
