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
use std::borrow::Borrow;
use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::Ordering;
use std::sync::{Condvar, Mutex, PoisonError};

/// The number of threads to use when the user does not say: one per core.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// The order groups of units are lowered, analyzed and delivered in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Program order: statement, reference and form ids are those of the
    /// whole program (`kaiseki facts`), as exported relations need.
    Program,
    /// Unit name order, all the units of one name in one group: output
    /// sorted by unit can be written group by group as the groups are
    /// done (ids are then not the whole program's; nothing shown needs
    /// them).
    Name,
}

/// Lowers each group of `program`'s units and runs `analyze` on its facts
/// with `jobs` threads. Returns the results and the lowering diagnostics,
/// both in program order. The groups are lowered one after the other, each
/// numbered from the ids where the previous one stopped, so statement,
/// reference and form ids are those of the whole program (`kaiseki facts`)
/// and the derived relations of the groups can be put together as they
/// are; the other threads analyze the groups already lowered meanwhile.
pub fn map_groups<T: Send>(
    program: impl Borrow<Program>,
    jobs: usize,
    analyze: impl Fn(FactBase) -> Result<T, String> + Sync,
) -> Result<(Vec<T>, Vec<Diagnostic>), String> {
    let mut results = Vec::new();
    let diags = for_each_group(program, jobs, Order::Program, analyze, |r| {
        results.push(r);
        Ok(())
    })?;
    Ok((results, diags))
}

/// [`map_groups`] that hands each group's result to `deliver` in `order`
/// as soon as it and those before it are done, instead of keeping them
/// all: memory holds the program and the few groups in flight, not every
/// group's result. Returns the lowering diagnostics in program order; the
/// first error of `analyze` or `deliver` stops the delivery. A program
/// given by value is dropped as soon as its last group is lowered: the
/// syntax tree of a long unit is no longer held while its rules run.
pub fn for_each_group<T: Send>(
    program: impl Borrow<Program>,
    jobs: usize,
    order: Order,
    analyze: impl Fn(FactBase) -> Result<T, String> + Sync,
    mut deliver: impl FnMut(T) -> Result<(), String>,
) -> Result<Vec<Diagnostic>, String> {
    let effects = CallEffects::of(program.borrow());
    let groups = groups(program.borrow(), jobs, order);
    let mut diags = Vec::new();
    let mut outcome = Ok(());
    progress::groups(groups.len(), |done| {
        let lower = |give: &mut dyn FnMut(FactBase)| {
            let mut program = Some(program);
            let mut ids = NextIds::default();
            for (k, units) in groups.iter().enumerate() {
                let Some(tree) = &program else { break };
                let (facts, group_diags, next) = kaiseki_frontend::lower_units(
                    tree.borrow(),
                    &effects,
                    |u| units.binary_search(&u).is_ok(),
                    ids,
                );
                ids = next;
                diags.extend(group_diags);
                if k + 1 == groups.len() {
                    program = None;
                }
                give(facts);
            }
        };
        let analyzed = |facts| {
            let result = analyze(facts);
            done.fetch_add(1, Ordering::Relaxed);
            result
        };
        map_produced(jobs, lower, analyzed, |result| {
            if outcome.is_ok() {
                outcome = result.and_then(&mut deliver);
            }
        })
    })?;
    outcome?;
    // Each group's diagnostics are in program order: a stable sort by unit
    // puts the groups' back in program order.
    diags.sort_by_key(|(unit, _)| *unit);
    Ok(diags.into_iter().map(|(_, d)| d).collect())
}

/// `f` of each item that `produce` gives, in order, computed by `jobs`
/// threads: the calling thread produces the items while the others take
/// them as they come, then joins them. The producer never runs more than
/// `jobs` items ahead: when that many wait, it computes one itself (with
/// one thread, each item as soon as it is produced), so items (the facts
/// of groups of units) do not pile up in memory. The calling thread hands
/// the results to `deliver` in the items' order, each as soon as those
/// before it are done (between items it produces, and at the end).
fn map_produced<I: Send, T: Send>(
    jobs: usize,
    produce: impl FnOnce(&mut dyn FnMut(I)),
    f: impl Fn(I) -> T + Sync,
    mut deliver: impl FnMut(T),
) -> Result<(), String> {
    // The items waiting, with their rank, and whether more will come. The
    // lock is only held to push or pop one: threads wait for items on
    // `ready`, which releases it.
    let queue = Mutex::new((VecDeque::<(usize, I)>::new(), false));
    let ready = Condvar::new();
    let lock = || queue.lock().unwrap_or_else(PoisonError::into_inner);
    // The results not delivered yet, by rank.
    let results: Mutex<BTreeMap<usize, T>> = Mutex::new(BTreeMap::new());
    let mut delivered = 0;
    // Delivers the results that come next in order (none when a thread
    // failed: the count at the end tells).
    let mut deliver_ready = || {
        let mut next = Vec::new();
        if let Ok(mut done) = results.lock() {
            while let Some(first) = done.first_entry().filter(|e| *e.key() == delivered) {
                next.push(first.remove());
                delivered += 1;
            }
        }
        next.into_iter().for_each(&mut deliver);
    };
    let compute = |(k, item): (usize, I)| {
        let result = f(item);
        if let Ok(mut done) = results.lock() {
            done.insert(k, result);
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
            drop(waiting);
            deliver_ready();
        });
        lock().1 = true;
        ready.notify_all();
        work();
        count
    });
    deliver_ready();
    if delivered != produced {
        return Err("an analysis thread failed".to_string());
    }
    Ok(())
}

/// Source lines of a group, about: small groups keep the rules' relations
/// and indices small enough to stay in cache (the nests benchmark takes 8%
/// less CPU in groups of one 850-line unit than in eight groups of five).
const GROUP_LINES: usize = 500;

/// The groups of units, each a sorted list of unit indices, about the same
/// number of source lines: at least four groups per thread (so that a
/// thread that drew small groups takes more), and groups of about
/// [`GROUP_LINES`] lines in a large program. In program order, contiguous
/// runs of units; in name order, runs of the units sorted by name (stable:
/// a name's units in program order), never parting units of one name.
fn groups(program: &Program, jobs: usize, order: Order) -> Vec<Vec<usize>> {
    let units = &program.units;
    let lines = |u: usize| {
        let u = &units[u];
        usize::try_from(u.end.line.saturating_sub(u.name.pos.line)).unwrap_or(0) + 1
    };
    let mut sequence: Vec<usize> = (0..units.len()).collect();
    if order == Order::Name {
        sequence.sort_by_key(|&u| &units[u].name.text);
    }
    let name = |u: usize| units[u].name.text.as_str();
    let total: usize = sequence.iter().map(|&u| lines(u)).sum();
    let wanted = (4 * jobs).max(total / GROUP_LINES);
    let share = total.div_ceil(wanted).max(1);
    let mut out = Vec::new();
    let (mut group, mut size) = (Vec::new(), 0);
    for (i, &u) in sequence.iter().enumerate() {
        size += lines(u);
        group.push(u);
        let parts_a_name = order == Order::Name
            && sequence
                .get(i + 1)
                .is_some_and(|&next| name(next) == name(u));
        if size >= share && !parts_a_name {
            group.sort_unstable();
            out.push(std::mem::take(&mut group));
            size = 0;
        }
    }
    if !group.is_empty() || out.is_empty() {
        group.sort_unstable();
        out.push(group);
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
            let mut results = Vec::new();
            map_produced(
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
                |r| results.push(r),
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
    fn results_are_delivered_while_later_items_are_produced() {
        for jobs in [1, 2, 3] {
            let produced = AtomicUsize::new(0);
            let mut behind = Vec::new();
            map_produced(
                jobs,
                |give| {
                    for k in 0..40 {
                        produced.store(k, Ordering::SeqCst);
                        give(k);
                    }
                },
                |k: usize| k,
                |k| behind.push(produced.load(Ordering::SeqCst) - k),
            )
            .expect("mapped");
            // Each result is delivered within a few items of its own
            // production, not all at the end.
            let most = behind.iter().max().copied().unwrap_or(0);
            assert!(
                most <= 2 * jobs,
                "--jobs {jobs}: delivered {most} items late"
            );
        }
    }

    #[test]
    fn name_order_groups_hold_every_unit_once_and_never_part_a_name() {
        let mut text = String::new();
        for name in [
            "ZETA", "ALPHA", "MID", "ALPHA", "BETA", "MID", "OMEGA", "ALPHA",
        ] {
            text.push_str(&format!(
                "      SUBROUTINE {name}\n      X = 1\n      END\n"
            ));
        }
        let (program, _) = kaiseki_frontend::parse_source("names.f", &text);
        for jobs in [1, 2, 8] {
            let groups = groups(&program, jobs, Order::Name);
            let names: Vec<Vec<&str>> = groups
                .iter()
                .map(|g| {
                    g.iter()
                        .map(|&u| program.units[u].name.text.as_str())
                        .collect()
                })
                .collect();
            let mut all: Vec<usize> = groups.concat();
            all.sort_unstable();
            assert_eq!(all, (0..8).collect::<Vec<_>>(), "{names:?}");
            // Groups in name order, a name in one group only.
            let firsts: Vec<Vec<&str>> = names
                .iter()
                .map(|g| {
                    let mut g = g.clone();
                    g.sort_unstable();
                    g.dedup();
                    g
                })
                .collect();
            let flat = firsts.concat();
            let mut sorted = flat.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(flat, sorted, "--jobs {jobs}: {names:?}");
            assert!(groups.len() > 1 || jobs == 1, "--jobs {jobs}: {names:?}");
        }
    }

    /// `f` of each item with [`map_produced`], the results collected.
    fn map_parallel<I: Sync, T: Send>(
        items: &[I],
        jobs: usize,
        f: impl Fn(&I) -> T + Sync,
    ) -> Result<Vec<T>, String> {
        let mut results = Vec::with_capacity(items.len());
        map_produced(
            jobs,
            |give| items.iter().for_each(give),
            f,
            |r| results.push(r),
        )?;
        Ok(results)
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
