//! `kaiseki`: analyses of Fortran loop programs on Datalog.
//!
//! Exit status (CodeQL style): 0 ok, 1 bad input (syntax errors, bad rule
//! files), 2 usage error. The analysis never answers with a crash.

mod cli;
mod commands;
mod groups;
mod pipeline;
mod progress;
mod synth;

use clap::Parser;
use std::process::ExitCode;

/// The analyses make and drop millions of small vectors (rows, linear
/// constraints): mimalloc's thread-local free lists take a fifth off the
/// `deps` benchmark's time next to the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `mi_option_purge_delay` of mimalloc's `mi_option_e` (v2 and v3 alike;
/// libmimalloc-sys names the options around it, not this one).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

fn main() -> ExitCode {
    // Keep freed memory for reuse instead of returning it to the system
    // 10 ms later: the rules' indices are dropped and rebuilt all run
    // long, and every purged page came back through a page fault that
    // zeroed it (on the 53,000-line uniform unit, 2.5 s of system time
    // down to 1.8 s, 6% more peak memory).
    // SAFETY: an option set before any other thread runs; mimalloc reads it at each purge.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, -1) };
    let cli = cli::Cli::parse();
    match commands::run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("kaiseki: error: {e}");
            ExitCode::from(1)
        }
    }
}
