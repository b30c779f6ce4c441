//! One module per subcommand.

mod analyze;
mod check;
mod comm;
mod deps;
mod explain;
mod facts;
mod openmp;
mod parallel;
mod query;
mod report;
mod spmd;
mod unroll;

use crate::cli::{Cli, Command, FileFormat, Shape};
use crate::synth;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Where the rewritten `files` of one program go (`openmp`, `spmd`,
/// `unroll --emit`): one file to `output` itself; several into the
/// directory `output` (made if missing), each under its own name, so that
/// they compile there in the same order.
pub fn output_paths(files: &[PathBuf], output: &Path) -> Result<Vec<PathBuf>, String> {
    if files.len() == 1 {
        return Ok(vec![output.to_path_buf()]);
    }
    let mut names = std::collections::HashSet::new();
    let mut out = Vec::with_capacity(files.len());
    for f in files {
        let base = f
            .file_name()
            .ok_or_else(|| format!("{}: not a file name", f.display()))?;
        if !names.insert(base) {
            return Err(format!(
                "{}: two of the files have this name; they cannot both be written into {}",
                f.display(),
                output.display()
            ));
        }
        out.push(output.join(base));
    }
    std::fs::create_dir_all(output).map_err(|e| format!("{}: {e}", output.display()))?;
    Ok(out)
}

pub fn run(cli: Cli) -> Result<ExitCode, String> {
    match cli.command {
        Command::Check {
            files,
            format,
            input,
        } => check::run(&files, &input.0, format),
        Command::Facts {
            files,
            output,
            format,
            list,
            input,
        } => facts::run(&files, &input.0, output.as_deref(), format.into(), list),
        Command::Analyze {
            files,
            output,
            format,
            stats,
            raw,
            regions,
            rules,
            jobs,
            input,
        } => analyze::run(
            &files,
            &input.0,
            &output,
            format.into(),
            analyze::Report {
                stats,
                raw,
                regions,
            },
            rules.rules.as_deref(),
            jobs.threads(),
        ),
        Command::Deps {
            files,
            format,
            all,
            loop_vars,
            dot,
            by_loop,
            proof,
            stats,
            rules,
            jobs,
            input,
        } => {
            if proof && (dot || by_loop || format != crate::cli::DepsFormat::Sarif) {
                eprintln!(
                    "kaiseki: error: --proof goes with --format sarif (and not --dot or --by-loop)"
                );
                return Ok(ExitCode::from(2));
            }
            if by_loop && (dot || format == crate::cli::DepsFormat::Sarif) {
                eprintln!("kaiseki: error: --by-loop writes a table or CSV (not --dot or SARIF)");
                return Ok(ExitCode::from(2));
            }
            let include = kaiseki_codegen::deps::Include {
                general: all,
                loop_index: loop_vars,
            };
            let o = deps::Options {
                format,
                include,
                dot,
                by_loop,
                proof,
                stats,
            };
            deps::run(&files, &input.0, o, rules.rules.as_deref(), jobs.threads())
        }
        Command::Parallel {
            files,
            format,
            rules,
            jobs,
            input,
        } => parallel::run(
            &files,
            &input.0,
            format,
            rules.rules.as_deref(),
            jobs.threads(),
        ),
        Command::Comm {
            files,
            format,
            rules,
            jobs,
            input,
        } => comm::run(
            &files,
            &input.0,
            format,
            rules.rules.as_deref(),
            jobs.threads(),
        ),
        Command::Spmd {
            files,
            output,
            procs,
            no_reuse,
            rules,
            jobs,
            input,
        } => spmd::run(
            &files,
            &input.0,
            &output,
            kaiseki_codegen::spmd::Options {
                procs,
                reuse: !no_reuse,
            },
            rules.rules.as_deref(),
            jobs.threads(),
        ),
        Command::Openmp {
            files,
            output,
            transform,
            every_loop,
            rules,
            jobs,
            input,
        } => openmp::run(
            &files,
            &input.0,
            &output,
            transform,
            every_loop,
            rules.rules.as_deref(),
            jobs.threads(),
        ),
        Command::Unroll {
            files,
            format,
            machine,
            grid,
            png,
            emit,
            output,
            factors,
            rules,
            jobs,
            input,
        } => unroll::run(
            &files,
            &input.0,
            &unroll::Options {
                machine: machine.as_deref(),
                format,
                grid,
                png: png.as_deref(),
                rules: rules.rules.as_deref(),
                jobs: jobs.threads(),
                emit: output
                    .as_deref()
                    .filter(|_| emit)
                    .map(|output| unroll::Emit {
                        output,
                        factors: factors.as_deref(),
                    }),
            },
        ),
        Command::Report {
            files,
            output,
            machine,
            rules,
            jobs,
            input,
        } => report::run(
            &files,
            &input.0,
            &report::Options {
                output: &output,
                machine: machine.as_deref(),
                rules: rules.rules.as_deref(),
                jobs: jobs.threads(),
            },
        ),
        Command::Query {
            file,
            body,
            format,
            raw,
            rules,
            jobs,
            input,
        } => query::run(
            &file,
            &input.0,
            &body,
            format.into(),
            raw,
            rules.rules.as_deref(),
            jobs.threads(),
        ),
        Command::Explain {
            file,
            pattern,
            depth,
            width,
            dot,
            why_not,
            rules,
            jobs,
            input,
        } => explain::run(
            &file,
            &input.0,
            &pattern,
            explain::Options {
                depth,
                width,
                dot,
                why_not,
                rules: rules.rules.as_deref(),
                jobs: jobs.threads(),
            },
        ),
        Command::Synth {
            shape,
            size,
            vars,
            spread,
            shared,
            seed,
        } => {
            emit(&match shape {
                Shape::Mixed => kaiseki_frontend::synth::synthetic_program(size, seed),
                Shape::Dataflow => synth::dataflow(size, vars, spread, seed),
                Shape::Nests => synth::nests(size, 10, shared, seed),
                Shape::Sweeps => synth::sweeps(size, 10, seed),
                Shape::Legacy => synth::legacy(size, vars, seed),
                Shape::Driver => synth::driver(size, seed),
            })?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

impl From<FileFormat> for kaiseki_facts::Format {
    fn from(f: FileFormat) -> Self {
        match f {
            FileFormat::Tsv => kaiseki_facts::Format::Tsv,
            FileFormat::Csv => kaiseki_facts::Format::Csv,
        }
    }
}

/// Writes command output to stdout. A closed pipe (`kaiseki deps f | head`)
/// ends the output quietly instead of failing.
fn emit(text: &str) -> Result<(), String> {
    emit_parts(&[text])
}

/// [`emit`] of `parts` one after the other (a large output need not be
/// joined first).
fn emit_parts(parts: &[impl AsRef<str>]) -> Result<(), String> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let written = parts
        .iter()
        .try_for_each(|p| out.write_all(p.as_ref().as_bytes()));
    match written.and_then(|_| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(format!("stdout: {e}")),
        _ => Ok(()),
    }
}

/// Standard output written piece by piece as the pieces are made. A
/// reader that closed the pipe (`| head`) wants no more: later pieces are
/// dropped, not an error.
struct Output {
    out: std::io::BufWriter<std::io::Stdout>,
    closed: bool,
}

impl Output {
    fn stdout() -> Output {
        Output {
            out: std::io::BufWriter::with_capacity(1 << 16, std::io::stdout()),
            closed: false,
        }
    }

    fn write(&mut self, piece: &str) -> Result<(), String> {
        use std::io::Write;
        if self.closed {
            return Ok(());
        }
        match self.out.write_all(piece.as_bytes()) {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(())
            }
            other => other.map_err(|e| format!("stdout: {e}")),
        }
    }

    /// Writes what is still buffered.
    fn finish(mut self) -> Result<(), String> {
        use std::io::Write;
        match self.out.flush() {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(format!("stdout: {e}")),
            _ => Ok(()),
        }
    }
}

/// Exit status 1 when the input had errors (what was valid was still processed).
fn status(had_errors: bool) -> ExitCode {
    if had_errors {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Writes tables into `dir`, one file per table, creating `dir`.
fn write_tables(
    tables: &[kaiseki_facts::Table],
    dir: &std::path::Path,
    format: kaiseki_facts::Format,
) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for t in tables {
        let path = format.path(dir, &t.name);
        let mut out = std::io::BufWriter::new(
            std::fs::File::create(&path).map_err(|e| format!("{}: {e}", path.display()))?,
        );
        kaiseki_facts::write_table(t, format, &mut out)
            .and_then(|_| std::io::Write::flush(&mut out))
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}
