//! `kaiseki report`: the program's loops as one static HTML page
//! (codegen/src/report/): each loop's verdict and clauses, what blocks it
//! and the proof of a blocker, its unroll decision and, in HPF programs,
//! its transfers, from one run of the rules per group of units.

use crate::{groups, pipeline};
use kaiseki_codegen::explain::{Relations, Show};
use kaiseki_codegen::names::Names;
use kaiseki_codegen::report::{self, Findings};
use kaiseki_engine::Select;
use kaiseki_frontend::SourceOptions;
use kaiseki_rules::{functors, kinds};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub struct Options<'a> {
    /// The directory the page is written into (`index.html`).
    pub output: &'a Path,
    /// The unrolling model's machine file.
    pub machine: Option<&'a Path>,
    pub rules: Option<&'a Path>,
    pub jobs: usize,
}

pub fn run(files: &[PathBuf], opts: &SourceOptions, o: &Options) -> Result<ExitCode, String> {
    let machine = match super::unroll::machine_or_exit(o.machine) {
        Ok(m) => m,
        Err(code) => return Ok(code),
    };
    let (sources, interpreted) = match o.rules {
        None => (kaiseki_rules::builtin_program().sources(), None),
        Some(dir) => {
            let (sources, program) = pipeline::read_rules(dir)?;
            (sources, Some(program))
        }
    };
    // The proofs walk the rules' IR (the interpreter's, also of the
    // compiled built-in rules), over tables the chosen engine derived.
    let prover_rules = match &interpreted {
        Some(p) => p.clone(),
        None => pipeline::builtin_rule_program()?,
    };
    let ir = prover_rules.ir();
    let blocker = ir
        .relations
        .iter()
        .position(|r| r.name == "blocker")
        .ok_or("the rules declare no relation `blocker`, which kaiseki report proves")?;
    let mut reads: Vec<&str> = report::relations();
    reads.extend(
        pipeline::derived_closure(ir, blocker)
            .into_iter()
            .map(|r| ir.relations[r].name.as_str()),
    );
    reads.sort_unstable();
    reads.dedup();
    let kinds = kinds::column_kinds(ir);
    let (program, mut diags) = kaiseki_frontend::parse_files(files, opts);
    let (groups, lower_diags) = groups::map_groups(&program, o.jobs, |mut facts| {
        // Communication is asked only of HPF programs: a program without
        // mappings has no remote reads.
        let hpf = !facts.hpf_distribute.is_empty() || !facts.hpf_align.is_empty();
        for what in ["parallel", "unroll"]
            .into_iter()
            .chain(hpf.then_some("comm"))
        {
            facts
                .request
                .push(kaiseki_facts::Request { what: what.into() });
        }
        super::unroll::add_machine(&mut facts, &machine);
        let derived = pipeline::derive_with(&facts, interpreted.as_ref(), Select::Only(&reads))?;
        let mut found = report::findings(&facts, &derived);
        let registry = functors::standard();
        let relations = Relations::new(ir, &facts, derived, &registry);
        let names = Names::new(&facts);
        let show = Show {
            kinds: &kinds,
            names: Some(&names),
            rules: &sources,
            sources: &program.files,
        };
        report::add_proofs(&mut found.loops, &relations, &show);
        Ok(found)
    })?;
    diags.extend(lower_diags);
    let had_errors = pipeline::report(&diags);
    let mut findings = Findings::default();
    for g in groups {
        findings.extend(g);
    }
    findings.sort();
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    let page = report::page(
        &format!("kaiseki report: {}", names.join(", ")),
        &program.files,
        &findings,
    );
    std::fs::create_dir_all(o.output).map_err(|e| format!("{}: {e}", o.output.display()))?;
    let index = o.output.join("index.html");
    std::fs::write(&index, page).map_err(|e| format!("{}: {e}", index.display()))?;
    eprintln!(
        "{} loop{}: wrote {}",
        findings.loops.len(),
        if findings.loops.len() == 1 { "" } else { "s" },
        index.display()
    );
    Ok(super::status(had_errors))
}
