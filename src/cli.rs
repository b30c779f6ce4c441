//! The command line: subcommands, options and the examples shown by `--help`.

use clap::{Arg, ArgAction, ArgMatches, Parser, Subcommand, ValueEnum};
use kaiseki_frontend::{Form, MacroArg, SourceOptions};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "kaiseki",
    version,
    about = "Dependence, subscript, parallelization, HPF communication and unrolling analyses of Fortran loop programs, on Datalog",
    after_help = "Examples:\n  kaiseki check prog.f\n  kaiseki facts prog.f -o facts/ --format csv\n  kaiseki deps prog.f --format csv\n  kaiseki parallel prog.f\n  kaiseki openmp prog.f -o prog_omp.f\n  kaiseki comm prog.f90\n  kaiseki spmd prog.f90 -o prog_mpi.f90\n  kaiseki analyze prog.f -o out/\n  kaiseki report prog.f -o report/\n  kaiseki query prog.f 'flow(D, U, _), def(D, _, \"X\")'"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Parse and lower the files; print diagnostics; exit 0 when there are no errors.
    #[command(
        after_help = "Examples:\n  kaiseki check prog.f\n  kaiseki check main.f90 solver.f\n  kaiseki check prog.f --format sarif > check.sarif\n  kaiseki check solver.F -D USE_MPI -D N=512 -I include/   # .F .F90 .fpp... go through cpp"
    )]
    Check {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// `sarif`: the diagnostics as SARIF 2.1.0 on stdout (all of them, for editors and code review).
        #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
        format: CheckFormat,
        #[command(flatten)]
        input: InputArgs,
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
        #[command(flatten)]
        input: InputArgs,
    },
    /// Run every rule file and write every `.output` relation.
    #[command(
        after_help = "Examples:\n  kaiseki analyze prog.f -o out/\n  kaiseki analyze prog.f -o out/ --format tsv\n  kaiseki analyze prog.f -o out/ --raw               # ids as numbers\n  kaiseki analyze prog.f -o out/ --regions           # MOD/USE/DDEF/EUSE/LIVE too\n  kaiseki analyze prog.f -o out/ --rules my_rules/   # interpret edited rules\n  kaiseki analyze prog.f -o out/ --jobs 1            # one thread"
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
        /// Write ids as the numbers of the facts, not as `X@6:7`, `6:7`, `DO I@5`, `B@6:7`, forms.
        #[arg(long)]
        raw: bool,
        /// Also write the region sets of every statement, loop and unit (MOD, USE, DDEF,
        /// EUSE, LIVE); their cost grows with the square of a long straight-line unit.
        #[arg(long)]
        regions: bool,
        #[command(flatten)]
        rules: RulesArg,
        #[command(flatten)]
        jobs: JobsArg,
        #[command(flatten)]
        input: InputArgs,
    },
    /// Print the data dependence graph.
    #[command(
        after_help = "Examples:\n  kaiseki deps prog.f\n  kaiseki deps prog.f --format csv > deps.csv\n  kaiseki deps prog.f --all                  # also the general (Kuck) output and anti dependences\n  kaiseki deps prog.f --loop-vars            # also the rows of the DO loops' own index variables\n  kaiseki deps prog.f --dot | dot -Tsvg > deps.svg\n  kaiseki deps prog.f --by-loop              # per loop, what it carries: variable, kind, rows\n  kaiseki deps prog.f --format sarif > deps.sarif   # for code review and editors\n  kaiseki deps prog.f --format sarif --proof > deps.sarif   # ... with each result's proof as a code flow\n  kaiseki deps solver.F90 -D N=512 -I include/     # preprocessed, as gfortran"
    )]
    Deps {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// `sarif`: SARIF 2.1.0, one result per dependence (the sink as its location, the source related).
        #[arg(long, value_enum, default_value_t = DepsFormat::Table)]
        format: DepsFormat,
        /// Add the general (non-minimal) output and anti dependences.
        #[arg(long)]
        all: bool,
        /// Keep the rows of each DO loop's own index: its definition at the DO statement and
        /// its increment at the loop's end, against themselves and the index's uses in the body
        /// (left out by default; other uses and definitions of the index are always shown).
        #[arg(long)]
        loop_vars: bool,
        /// Write Graphviz DOT instead of a table.
        #[arg(long)]
        dot: bool,
        /// Per loop, the dependences it carries grouped by variable and kind, with how many
        /// rows and their distances (a table, or CSV with `--format csv`).
        #[arg(long)]
        by_loop: bool,
        /// With `--format sarif`: give each result a code flow that walks its proof (the input
        /// facts `kaiseki explain` shows, each at its source place, in proof order).
        #[arg(long)]
        proof: bool,
        /// Also print to standard error how many integer questions of the subscript tests ran
        /// out of their operation budget (each such dependence is kept as possible).
        #[arg(long)]
        stats: bool,
        #[command(flatten)]
        rules: RulesArg,
        #[command(flatten)]
        jobs: JobsArg,
        #[command(flatten)]
        input: InputArgs,
    },
    /// Say for every loop whether its iterations can run in parallel, what that takes and what stops it.
    #[command(
        after_help = "Examples:\n  kaiseki parallel prog.f\n  kaiseki parallel prog.f --format csv > loops.csv\n\nVerdicts: parallel, parallel-with-transforms (the private, lastprivate, reductions and\ninductions columns say which), sequential (blockers: each carried dependence as\n`kind VAR src_line->dst_line`), excluded (I/O, calls, EXIT and jumps out, STOP, DO WHILE),\nunknown (an opaque statement, or one kaiseki could not read, in the loop)."
    )]
    Parallel {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[arg(long, value_enum, default_value_t = TableFormat::Table)]
        format: TableFormat,
        #[command(flatten)]
        rules: RulesArg,
        #[command(flatten)]
        jobs: JobsArg,
        #[command(flatten)]
        input: InputArgs,
    },
    /// List every read of an element another virtual processor owns (HPF owner-computes) and whether its transfer is redundant.
    #[command(
        after_help = "Examples:\n  kaiseki comm prog.f90\n  kaiseki comm prog.f90 --format csv > comm.csv\n\nVerdicts (Li & Harada): needed; complete (a copy fetched earlier is still valid);\nconditional (redundant when `condition` held); partial (only `send_section` must be\nsent, at the exit of line `send_at_line`); local (another virtual processor on the\nsame real one: they differ only along undistributed dimensions)."
    )]
    Comm {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[arg(long, value_enum, default_value_t = TableFormat::Table)]
        format: TableFormat,
        #[command(flatten)]
        rules: RulesArg,
        #[command(flatten)]
        jobs: JobsArg,
        #[command(flatten)]
        input: InputArgs,
    },
    /// Write the program as SPMD Fortran + MPI (owner-computes), sending only the transfers HPF communication analysis finds needed.
    #[command(
        after_help = "Examples:\n  kaiseki spmd prog.f90 -o prog_mpi.f90\n  mpif90 prog_mpi.f90 -o prog_mpi && mpirun -np 4 ./prog_mpi\n  kaiseki spmd prog.f90 --no-reuse -o base.f90   # every remote read sent\n  kaiseki spmd mod.f90 main.f90 -o mpi/          # each file written into mpi/\n\nEvery rank holds the arrays at full size; rank 0 does the I/O. At the end rank 0 writes\n`kaiseki-spmd: messages=M bytes=B` to standard error."
    )]
    Spmd {
        /// The files of one program (modules among them, in any order).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The Fortran file to write; with several FILES, the directory
        /// each is written into under its own name.
        #[arg(short, long)]
        output: PathBuf,
        /// The number of ranks the program must run on (default: any, chosen at run time).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
        procs: Option<u32>,
        /// Send every remote read, also those a valid copy makes redundant (the baseline).
        #[arg(long)]
        no_reuse: bool,
        #[command(flatten)]
        rules: RulesArg,
        #[command(flatten)]
        jobs: JobsArg,
        #[command(flatten)]
        input: InputArgs,
    },
    /// Write the program with OpenMP directives before the outermost parallel loop of each nest.
    #[command(
        after_help = "Examples:\n  kaiseki openmp prog.f -o prog_omp.f\n  gfortran -fopenmp prog_omp.f && OMP_NUM_THREADS=4 ./a.out\n  kaiseki openmp mod.f90 main.f90 -o omp/   # each file written into omp/\n  kaiseki openmp prog.f --transform -o prog_omp.f   # aligned, distributed, interchanged loops first\n\nEvery line but the directives and the closed forms of induction variables is the original's\n(with --transform, but those of the loops rewritten)."
    )]
    Openmp {
        /// The files of one program (modules among them, in any order).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The Fortran file to write; with several FILES, the directory
        /// each is written into under its own name.
        #[arg(short, long)]
        output: PathBuf,
        /// First rewrite the loops `kaiseki parallel` lists a transformation
        /// for (alignment, distribution, interchange), then judge the
        /// rewritten program for its directives.
        #[arg(long)]
        transform: bool,
        /// A directive on every outermost parallel loop, also where its
        /// work does not pay for a parallel region (a loop of a few
        /// assignments inside a sequential loop): to see them all.
        #[arg(long)]
        every_loop: bool,
        #[command(flatten)]
        rules: RulesArg,
        #[command(flatten)]
        jobs: JobsArg,
        #[command(flatten)]
        input: InputArgs,
    },
    /// Choose unroll factors for every loop nest (Koseki, Komatsu & Fukazawa): unroll-and-jam estimate and search.
    #[command(
        after_help = "Examples:\n  kaiseki unroll prog.f\n  kaiseki unroll prog.f --format csv --machine vliw.toml\n  kaiseki unroll prog.f --grid 8            # P(k) for every k up to 8 per loop\n  kaiseki unroll prog.f --grid 8 --png p.png  # ... drawn as a heat map with the search path\n  kaiseki unroll prog.f --emit -o prog_u.f  # the program unrolled and jammed at the chosen factors\n  kaiseki unroll prog.f --emit -o prog_u.f --factors 4,2\n  kaiseki unroll mod.f90 main.f90 --emit -o unrolled/  # each file written into unrolled/\n\nA machine file holds `name = integer` lines: issue, issue_cycles, latency_fp, latency_load,\nlatency_store, latency_int, instruction_bits, icache_bytes, vector_width (default: the paper's VLIW)."
    )]
    Unroll {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[arg(long, value_enum, default_value_t = TableFormat::Table)]
        format: TableFormat,
        /// A machine file (`name = integer` lines) over the paper's VLIW.
        #[arg(long)]
        machine: Option<PathBuf>,
        /// Print P(k) for every unroll vector with factors up to K instead.
        #[arg(long, value_name = "K", value_parser = clap::value_parser!(u16).range(1..=64), conflicts_with = "emit")]
        grid: Option<u16>,
        /// With --grid: draw the grids as a heat map (PNG) with the search path, not a table.
        #[arg(long, value_name = "OUT.png", requires = "grid")]
        png: Option<PathBuf>,
        /// Write the program with every nest unrolled and jammed to -o.
        #[arg(long, requires = "output")]
        emit: bool,
        /// The file --emit writes; with several FILES, the directory each
        /// is written into under its own name.
        #[arg(short, long, requires = "emit")]
        output: Option<PathBuf>,
        /// Unroll every nest by these factors, outermost loop first (padded with 1).
        #[arg(long, value_delimiter = ',', value_name = "K1,K2,...", requires = "emit", value_parser = clap::value_parser!(i64).range(1..=64))]
        factors: Option<Vec<i64>>,
        #[command(flatten)]
        rules: RulesArg,
        #[command(flatten)]
        jobs: JobsArg,
        #[command(flatten)]
        input: InputArgs,
    },
    /// Write a static HTML report of every loop: verdict, clauses, blockers and their proofs, unroll decision, HPF transfers.
    #[command(
        after_help = "Examples:\n  kaiseki report prog.f -o report/      # then open report/index.html\n  kaiseki report mod.f90 main.f90 -o report/\n  kaiseki report prog.f -o report/ --machine x86.toml\n\nOne page, its style and script inline: it opens offline in any browser. A click on a\nloop (or report/index.html#loop-UNIT-LINE) opens its panel: what blocks it, each\ndependence linked to its lines, and the proof `kaiseki explain` gives of a blocker."
    )]
    Report {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The directory to write `index.html` into (created if missing).
        #[arg(short, long)]
        output: PathBuf,
        /// A machine file for the unroll decisions (as `kaiseki unroll --machine`).
        #[arg(long)]
        machine: Option<PathBuf>,
        #[command(flatten)]
        rules: RulesArg,
        #[command(flatten)]
        jobs: JobsArg,
        #[command(flatten)]
        input: InputArgs,
    },
    /// Evaluate a rule body against the facts and derived relations; print the bindings.
    #[command(
        after_help = "Examples:\n  kaiseki query prog.f 'flow(D, U, _), def(D, _, \"X\")'\n  kaiseki query prog.f 'loop(L, _, _, V, Line, 2)' --format csv\n  kaiseki query prog.f 'dependence(K, S, D, C, _)' --format json\n  kaiseki query prog.f 'flow(D, U, _)' --raw          # ids as numbers\n  kaiseki query prog.f 'flow(D, U, _)' --jobs 1       # one thread\n\nIds print as the reader knows them: a reference X@6:7 (variable, line:col), a\nstatement 6:7, a loop DO I@5 (its DO line), a block B@6:7, an affine form 2*I+1.\nA wrong body is reported at <query>:1:col with a caret, exit status 2."
    )]
    Query {
        file: PathBuf,
        /// A conjunction of atoms, negations and comparisons, as in a rule body.
        body: String,
        #[arg(long, value_enum, default_value_t = QueryFormat::Table)]
        format: QueryFormat,
        /// Print ids as the numbers of the facts, not as `X@6:7`, `6:7`, `DO I@5`, `B@6:7`, forms.
        #[arg(long)]
        raw: bool,
        #[command(flatten)]
        rules: RulesArg,
        #[command(flatten)]
        jobs: JobsArg,
        #[command(flatten)]
        input: InputArgs,
    },
    /// Why a row of a derived relation is there: its proof tree down to input facts.
    #[command(
        after_help = "Examples:\n  kaiseki explain prog.f 'flow(X@11:7, U, _)'       # every flow from the definition at 11:7\n  kaiseki explain prog.f 'dependence(K, S, D, C, _)' --depth 3\n  kaiseki explain prog.f 'flow(11:7, 12:11, _)' --dot | dot -Tsvg > why.svg\n  kaiseki explain prog.f 'flow(X@11:7, X@21:16, _)' --why-not\n  kaiseki explain prog.f 'flow(D, U, _), def(D, _, \"X\")'   # a body, as query takes\n\nA pattern argument is _, a variable, a number, a \"symbol\", or a place as query prints\nit: X@6:7 or 6:7 (a reference or statement), B@6:7 (a block), DO I@5 or 5 (a loop).\nEach step names the rule (file:line) it used; input facts show their source line."
    )]
    Explain {
        file: PathBuf,
        /// `rel(arg, ...)`: the rows to explain; or a rule body as `query` takes
        /// (atoms, negations, comparisons), whose answers are explained.
        pattern: String,
        /// Steps shown below each row; deeper premises print as `...`.
        #[arg(long, default_value_t = 6)]
        depth: usize,
        /// Rows explained; the others are counted.
        #[arg(long, default_value_t = 10)]
        width: usize,
        /// Write the trees as one Graphviz digraph.
        #[arg(long)]
        dot: bool,
        /// For a row that is not derived: for each rule that could derive
        /// it, the body literal that fails first.
        #[arg(long)]
        why_not: bool,
        #[command(flatten)]
        rules: RulesArg,
        #[command(flatten)]
        jobs: JobsArg,
        #[command(flatten)]
        input: InputArgs,
    },
    /// Write a large synthetic Fortran program to stdout (for benchmarks).
    #[command(
        after_help = "Examples:\n  kaiseki synth mixed --size 100000 > big.f          # ~100,000 lines, many units\n  kaiseki synth dataflow --size 50000 --vars 5000 > flow.f\n  kaiseki synth dataflow --size 50000 --vars 5000 --spread uniform > flat.f\n  kaiseki synth dataflow --size 50000 --vars 5000 --spread elements > table.f\n  kaiseki synth nests --size 2000 > nests.f          # 2,000 depth-3 nests, 10 references each\n  kaiseki synth nests --size 400 --shared > s.f      # 400 nests over three shared arrays\n  kaiseki synth sweeps --size 2000 > sweeps.f        # one unit, 2,000 nests rewriting three shared arrays\n  kaiseki synth legacy --size 55000 --vars 5000 > legacy.f  # one unit, 55,000 lines, IFs and DO loops\n  kaiseki synth driver --size 44 > driver.f          # a timing harness of 44 units, ~7,500 lines"
    )]
    Synth {
        #[arg(value_enum)]
        shape: Shape,
        /// Lines (mixed, legacy), statements (dataflow), loop nests (nests, sweeps) or program units (driver).
        #[arg(long, default_value_t = 100_000)]
        size: usize,
        /// Scalars of the dataflow and legacy shapes.
        #[arg(long, default_value_t = 5_000)]
        vars: usize,
        /// Which scalars a dataflow statement picks: from a window sliding through the
        /// program (`window`) or from all of them (`uniform`: every scalar used all over the
        /// unit; `elements`: the same with constant array elements for scalars).
        #[arg(long, value_enum, default_value_t = Spread::Window)]
        spread: Spread,
        /// Nests shape: the nests of a unit share three 2-D arrays (default: each nest has its own).
        #[arg(long)]
        shared: bool,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spread {
    /// A window of 40 scalars sliding through the program: each scalar dies early.
    Window,
    /// Any scalar anywhere: no locality, as COMMON variables read all over a legacy routine.
    Uniform,
    /// As `uniform`, but the variables are constant elements of arrays of 50 (`T3(17)`),
    /// as a table of coefficients read and updated all over a routine.
    Elements,
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
    /// One unit of depth-3 nests over three shared 2-D arrays, each nest rewriting one of them whole.
    Sweeps,
    /// One unit, scalars used all over it with block IFs on two of them and DO loops (nesting 1-2) every few dozen statements.
    Legacy,
}

#[derive(clap::Args, Debug, Clone)]
pub struct RulesArg {
    /// Interpret the `.dl` files of this directory instead of the compiled built-in rules.
    #[arg(long, value_name = "DIR", value_parser = rules_dir)]
    pub rules: Option<PathBuf>,
}

/// `-D`, `-U` and `-I`, as gfortran takes them. Read by hand: cpp applies
/// `-D` and `-U` in command-line order, which derived fields would lose.
#[derive(Debug, Clone, Default)]
pub struct InputArgs(pub SourceOptions);

impl clap::FromArgMatches for InputArgs {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let placed = |id: &str| {
            let values = m.get_many::<String>(id).into_iter().flatten().cloned();
            m.indices_of(id).into_iter().flatten().zip(values)
        };
        let mut macros: Vec<(usize, MacroArg)> = placed("define")
            .map(|(at, d)| (at, MacroArg::Define(d)))
            .chain(placed("undefine").map(|(at, u)| (at, MacroArg::Undefine(u))))
            .collect();
        macros.sort_by_key(|(at, _)| *at);
        let include_dirs = m
            .get_many::<PathBuf>("include")
            .map(|dirs| dirs.cloned().collect())
            .unwrap_or_default();
        let form = m
            .get_many::<String>("form")
            .and_then(|mut f| f.next_back().cloned())
            .map(|f| {
                if f == "free-form" {
                    Form::Free
                } else {
                    Form::Fixed
                }
            });
        Ok(InputArgs(SourceOptions {
            macros: macros.into_iter().map(|(_, m)| m).collect(),
            include_dirs,
            form,
            cpp: m.get_one::<String>("cpp").is_some(),
        }))
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

impl clap::Args for InputArgs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        cmd.arg(
            Arg::new("define")
                .short('D')
                .value_name("NAME[=VALUE]")
                .action(ArgAction::Append)
                .value_parser(|s: &str| macro_arg(s, true))
                .help("Define a macro for the preprocessed files (.F, .F90, .fpp...); VALUE defaults to 1"),
        )
        .arg(
            Arg::new("undefine")
                .short('U')
                .value_name("NAME")
                .action(ArgAction::Append)
                .value_parser(|s: &str| macro_arg(s, false))
                .help("Undefine a macro (-D and -U apply in command-line order)"),
        )
        .arg(
            Arg::new("include")
                .short('I')
                .value_name("DIR")
                .action(ArgAction::Append)
                .value_parser(clap::value_parser!(PathBuf))
                .help("Search DIR for #include and INCLUDE files, after the including file's directory"),
        )
        .arg(
            Arg::new("form")
                .short('f')
                .value_name("free-form|fixed-form")
                .action(ArgAction::Append)
                .value_parser(["free-form", "fixed-form"])
                .help("-ffree-form, -ffixed-form: read every file in that form, whatever its extension (as gfortran)"),
        )
        .arg(
            Arg::new("cpp")
                .short('c')
                .value_name("pp")
                .value_parser(["pp"])
                .help("-cpp: run every file through the C preprocessor (as gfortran)"),
        )
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

/// A macro name (`-U`), or with `definition`, `NAME`, `NAME=VALUE` or
/// `NAME(ARGS)=VALUE` (`-D`).
fn macro_arg(s: &str, definition: bool) -> Result<String, String> {
    let name_len = s
        .char_indices()
        .find(|&(i, c)| !(c == '_' || c.is_ascii_alphabetic() || (i > 0 && c.is_ascii_digit())))
        .map_or(s.len(), |(i, _)| i);
    let rest = &s[name_len..];
    let valid = name_len > 0 && (rest.is_empty() || definition && rest.starts_with(['=', '(']));
    if valid {
        Ok(s.to_string())
    } else {
        Err("expected a macro name: a letter or `_`, then letters, digits and `_`".into())
    }
}

/// A `--rules` directory must hold rule files: an empty one would run no
/// rule and write nothing, silently.
fn rules_dir(arg: &str) -> Result<PathBuf, String> {
    let dir = PathBuf::from(arg);
    match kaiseki_engine::dl::read_dir(&dir) {
        Ok(sources) if sources.files.is_empty() => Err("the directory has no .dl file".into()),
        Ok(_) => Ok(dir),
        Err(diags) => Err(diags
            .iter()
            .map(|d| d.message.as_str())
            .collect::<Vec<_>>()
            .join("; ")),
    }
}

#[derive(clap::Args, Debug, Clone, Copy)]
pub struct JobsArg {
    /// Threads: groups of program units are analyzed in parallel (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
}

impl JobsArg {
    /// The number of threads to use.
    pub fn threads(self) -> usize {
        self.jobs
            .map_or_else(crate::groups::default_jobs, usize::from)
    }
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

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueryFormat {
    /// Aligned columns for people.
    Table,
    /// CSV with a header row.
    Csv,
    /// An array of objects keyed by the variable names.
    Json,
}

impl From<QueryFormat> for kaiseki_codegen::answers::Format {
    fn from(f: QueryFormat) -> Self {
        match f {
            QueryFormat::Table => Self::Table,
            QueryFormat::Csv => Self::Csv,
            QueryFormat::Json => Self::Json,
        }
    }
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DepsFormat {
    /// Aligned columns for people.
    Table,
    /// The CSV contract (docs/deps.md).
    Csv,
    /// SARIF 2.1.0 for code-review tools and editors.
    Sarif,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckFormat {
    /// `file:line:col: error: message` on stderr.
    Text,
    /// SARIF 2.1.0 on stdout.
    Sarif,
}
