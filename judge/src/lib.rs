//! kaiseki's brute-force judge, used only by tests: an interpreter of the
//! syntax tree that records every memory access ([`trace`]), the real
//! dependences those accesses make ([`deps`]), seeded generators of random
//! Fortran programs ([`gen`]), and gfortran as the interpreter's own
//! reference ([`gfortran`]). What the analyses claim statically is checked
//! against what a run actually does.

pub mod carried;
pub mod deps;
pub mod gen;
pub mod gfortran;
pub mod interp;
pub mod shapes;
pub mod trace;

pub use deps::{common_loops, dependences, DepKind, Dependence};
pub use interp::{
    run, run_reordered, Clauses, Config, Order, RedOp, Reduction, Reorder, Run, RunError, Step,
};
pub use trace::{
    project, Access, ArgOrigin, CallSite, CommonNames, Iteration, Loc, Mode, SharedName,
};

/// Parses `text` as the file `path` (the extension chooses fixed or free
/// form) and runs it; a parse error or a run-time error is the `Err`, as
/// `path:line:col: message` lines.
pub fn run_source<S: AsRef<str>>(
    path: &str,
    text: &str,
    input: &[S],
    config: &Config,
) -> Result<Run, String> {
    let (program, diags) = kaiseki_frontend::parse_source(path, text);
    let errors: Vec<String> = diags
        .iter()
        .filter(|d| d.is_error())
        .map(ToString::to_string)
        .collect();
    if !errors.is_empty() {
        return Err(errors.join("\n"));
    }
    run(&program, input, config).map_err(|e| format!("{path}:{e}"))
}
