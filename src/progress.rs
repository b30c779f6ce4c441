//! Progress of long runs on standard error: once a run has taken
//! [`AFTER`], a line such as `kaiseki: 12/40 groups of units analyzed (3 s)`
//! redrawn in place, erased when the work is done. Only on a terminal:
//! tests and pipes read standard error without it.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Runs shorter than this show nothing.
const AFTER: Duration = Duration::from_secs(2);

/// How often the line is redrawn.
const TICK: Duration = Duration::from_millis(250);

/// Whether to draw the progress line now.
fn due(terminal: bool, elapsed: Duration) -> bool {
    terminal && elapsed >= AFTER
}

/// The progress line.
fn line(done: usize, total: usize, elapsed: Duration) -> String {
    format!(
        "kaiseki: {done}/{total} groups of units analyzed ({} s)",
        elapsed.as_secs()
    )
}

/// Runs `work`, which counts the groups it has analyzed (of `total`) in
/// the counter it is given, showing that count on a terminal.
pub fn groups<T>(total: usize, work: impl FnOnce(&AtomicUsize) -> T) -> T {
    let terminal = std::io::stderr().is_terminal();
    let done = AtomicUsize::new(0);
    if !terminal {
        return work(&done);
    }
    let start = Instant::now();
    let (stop, stopped) = mpsc::channel::<()>();
    std::thread::scope(|scope| {
        let counted = &done;
        scope.spawn(move || {
            let mut shown = false;
            while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(TICK) {
                if due(terminal, start.elapsed()) {
                    let text = line(counted.load(Ordering::Relaxed), total, start.elapsed());
                    // `\x1b[K` erases what a longer line left to the right.
                    draw(&format!("\r{text}\x1b[K"));
                    shown = true;
                }
            }
            if shown {
                draw("\r\x1b[K");
            }
        });
        let out = work(&done);
        drop(stop);
        out
    })
}

/// Writes to standard error; progress that cannot be shown is not an error.
fn draw(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(text.as_bytes()).and_then(|_| err.flush());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_shows_on_a_terminal_after_two_seconds_only() {
        let long = Duration::from_secs(30);
        assert!(due(true, long));
        assert!(due(true, AFTER));
        assert!(!due(true, Duration::from_millis(1999)));
        assert!(!due(false, long), "never when stderr is not a terminal");
        assert!(!due(false, Duration::ZERO));
    }

    #[test]
    fn the_line_counts_groups_and_seconds() {
        assert_eq!(
            line(12, 40, Duration::from_millis(3600)),
            "kaiseki: 12/40 groups of units analyzed (3 s)"
        );
    }

    #[test]
    fn work_runs_and_returns_its_result() {
        let got = groups(3, |done| {
            for _ in 0..3 {
                done.fetch_add(1, Ordering::Relaxed);
            }
            done.load(Ordering::Relaxed)
        });
        assert_eq!(got, 3);
    }
}
