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

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    match commands::run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("kaiseki: error: {e}");
            ExitCode::from(1)
        }
    }
}
