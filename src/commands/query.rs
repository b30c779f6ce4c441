//! `kaiseki query`: evaluate a rule body over the facts and the derived
//! relations and print the bindings of its named variables, ids shown as
//! the reader knows them (`X@6:7`, `DO I@5`) unless `--raw`.

use crate::pipeline::{self, QueryError};
use kaiseki_codegen::answers::{Answers, Format};
use kaiseki_codegen::names::Names;
use kaiseki_frontend::SourceOptions;
use std::path::Path;
use std::process::ExitCode;

pub fn run(
    file: &Path,
    opts: &SourceOptions,
    body: &str,
    format: Format,
    raw: bool,
    rules: Option<&Path>,
    jobs: usize,
) -> Result<ExitCode, String> {
    let query = match pipeline::compile_query(body, rules) {
        Ok(q) => q,
        Err(e) => return Ok(query_error(e)),
    };
    let (program, mut diags) = kaiseki_frontend::parse_files(&[file], opts);
    let run = pipeline::run_query(&program, jobs, &query, &query.reads)?;
    diags.extend(run.diags);
    let had_errors = pipeline::report(&diags);
    let names = (!raw).then(|| Names::new(&run.facts));
    let answers = Answers {
        table: &run.answers,
        kinds: &query.kinds,
        names: names.as_ref(),
    };
    super::emit(&answers.render(format))?;
    Ok(super::status(had_errors))
}

/// Prints why a query did not compile: a wrong body is a usage error
/// (exit 2), reported as the rule files' errors are.
pub fn query_error(e: QueryError) -> ExitCode {
    match e {
        QueryError::Body(diags) => {
            for d in &diags {
                eprintln!("{d}");
            }
            ExitCode::from(2)
        }
        QueryError::Rules(message) => {
            eprintln!("kaiseki: error: {message}");
            ExitCode::from(1)
        }
    }
}
