//! The command line: subcommands, options and the examples shown by `--help`.

use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "kaiseki",
    version,
    about = "Dependence, subscript, parallelization, HPF communication and unrolling analyses of Fortran loop programs, on Datalog",
    after_help = "Examples:\n  kaiseki check prog.f\n  kaiseki facts prog.f -o facts/ --format csv\n  kaiseki deps prog.f --format csv\n  kaiseki analyze prog.f -o out/\n  kaiseki query prog.f 'flow(D, U, _), def(D, _, \"X\")'"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Parse and lower the files; print diagnostics; exit 0 when there are no errors.
    #[command(after_help = "Examples:\n  kaiseki check prog.f\n  kaiseki check main.f90 solver.f")]
    Check {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Write the facts lowered from the files, one file per relation.
    #[command(
        after_help = "Examples:\n  kaiseki facts prog.f -o facts/                 # Souffle .facts (TSV)\n  kaiseki facts prog.f -o facts/ --format csv    # CSV with headers\n  kaiseki facts --list                           # the relations and their columns"
    )]
    Facts {
        files: Vec<PathBuf>,
        /// Output directory (created if missing).
        #[arg(short, long, required_unless_present = "list")]
        output: Option<PathBuf>,
        #[arg(long, value_enum, default_value_t = FileFormat::Tsv)]
        format: FileFormat,
        /// List the input relations with their columns and documentation.
        #[arg(long)]
        list: bool,
    },
    /// Run every rule file and write every `.output` relation.
    #[command(
        after_help = "Examples:\n  kaiseki analyze prog.f -o out/\n  kaiseki analyze prog.f -o out/ --format tsv\n  kaiseki analyze prog.f -o out/ --rules my_rules/   # interpret edited rules"
    )]
    Analyze {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[arg(short, long)]
        output: PathBuf,
        #[arg(long, value_enum, default_value_t = FileFormat::Csv)]
        format: FileFormat,
        /// Also print the size of every relation, intermediate ones included, and the time taken.
        #[arg(long)]
        stats: bool,
        #[command(flatten)]
        rules: RulesArg,
    },
    /// Print the data dependence graph.
    #[command(
        after_help = "Examples:\n  kaiseki deps prog.f\n  kaiseki deps prog.f --format csv > deps.csv\n  kaiseki deps prog.f --all                  # also the general (Kuck) output and anti dependences\n  kaiseki deps prog.f --dot | dot -Tsvg > deps.svg"
    )]
    Deps {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[arg(long, value_enum, default_value_t = TableFormat::Table)]
        format: TableFormat,
        /// Add the general (non-minimal) output and anti dependences.
        #[arg(long)]
        all: bool,
        /// Write Graphviz DOT instead of a table.
        #[arg(long)]
        dot: bool,
        #[command(flatten)]
        rules: RulesArg,
        /// Threads: groups of program units are analyzed in parallel (default: one per core).
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
        jobs: Option<u16>,
    },
    /// Evaluate a rule body against the facts and derived relations; print the bindings.
    #[command(
        after_help = "Examples:\n  kaiseki query prog.f 'flow(D, U, _), def(D, _, \"X\")'\n  kaiseki query prog.f 'loop(L, _, _, V, Line, 2)' --format csv"
    )]
    Query {
        file: PathBuf,
        /// A conjunction of atoms, negations and comparisons, as in a rule body.
        body: String,
        #[arg(long, value_enum, default_value_t = TableFormat::Table)]
        format: TableFormat,
        #[command(flatten)]
        rules: RulesArg,
    },
    /// Write a large synthetic Fortran program to stdout (for benchmarks).
    #[command(
        after_help = "Examples:\n  kaiseki synth mixed --size 100000 > big.f          # ~100,000 lines, many units\n  kaiseki synth dataflow --size 50000 --vars 5000 > flow.f\n  kaiseki synth nests --size 2000 > nests.f          # 2,000 depth-3 nests, 10 references each\n  kaiseki synth driver --size 44 > driver.f          # a timing harness of 44 units, ~7,500 lines"
    )]
    Synth {
        #[arg(value_enum)]
        shape: Shape,
        /// Lines (mixed), statements (dataflow), loop nests (nests) or program units (driver).
        #[arg(long, default_value_t = 100_000)]
        size: usize,
        /// Scalars of the dataflow shape.
        #[arg(long, default_value_t = 5_000)]
        vars: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Many units of numerical code with COMMON, PARAMETER, HPF, loops, IFs, GOTOs.
    Mixed,
    /// One unit, many statements over many scalars, in loops and IFs.
    Dataflow,
    /// Depth-3 loop nests with 10 affine array references each.
    Nests,
    /// A benchmark timing harness: kernels of small loops over big COMMON blocks, EQUIVALENCE, timers, reports.
    Driver,
}

#[derive(clap::Args, Debug, Clone)]
pub struct RulesArg {
    /// Interpret the `.dl` files of this directory instead of the compiled built-in rules.
    #[arg(long, value_name = "DIR")]
    pub rules: Option<PathBuf>,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileFormat {
    /// Tab-separated `.facts` files without header (Souffle).
    Tsv,
    /// `.csv` files with a header row.
    Csv,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableFormat {
    /// Aligned columns for people.
    Table,
    /// CSV with a header row.
    Csv,
}
