//! The two engines agree: the built-in rules interpreted and compiled
//! through Ascent derive the same relations on every example and on
//! generated programs, and `kaiseki analyze` writes byte-identical files
//! with and without `--rules rules/dl`.

mod common;

use common::{
    example_files, files, generated, kaiseki_ok, lower_file, lower_source, rules_dir, scaled,
    scratch_dir,
};
use kaiseki_facts::FactBase;
use std::path::Path;

fn assert_agree(name: &str, facts: &FactBase) {
    // The analyses run on request too.
    let mut facts = facts.clone();
    for what in ["parallel", "coincidence", "comm"] {
        facts
            .request
            .push(kaiseki_facts::Request { what: what.into() });
    }
    let facts = &facts;
    let diff = kaiseki_rules::compare_builtin(facts).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(
        diff.is_empty(),
        "{name}: the engines differ:\n{}",
        diff.join("\n")
    );
}

#[test]
fn interpreted_and_compiled_rules_agree_on_the_examples() {
    for path in example_files() {
        let facts = lower_file(&path);
        // Something to agree on: every example has references.
        assert!(!facts.def.is_empty(), "{}", path.display());
        assert_agree(&path.display().to_string(), &facts);
    }
}

#[test]
fn interpreted_and_compiled_rules_agree_on_the_parallelization_tests() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parallel/tsvc.f");
    let facts = lower_file(&path);
    assert!(!facts.reduction_update.is_empty() && !facts.minmax_test.is_empty());
    assert_agree("tsvc.f", &facts);
}

#[test]
fn interpreted_and_compiled_rules_agree_on_the_array_statements_plan() {
    for name in ["array_assign.f90", "reductions.f90", "aligned.f90"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/spmd")
            .join(name);
        let facts = lower_file(&path);
        assert!(!facts.array_assign.is_empty(), "{name}");
        assert_agree(name, &facts);
    }
}

#[test]
fn interpreted_and_compiled_rules_agree_on_generated_programs() {
    let n = scaled(25);
    for g in generated(n, n) {
        assert_agree(&g.file_name, &lower_source(&g.file_name, &g.source));
    }
}

#[test]
fn analyze_writes_the_same_files_with_the_rules_interpreted() {
    let rules = rules_dir();
    for path in example_files() {
        let stem = path
            .file_stem()
            .expect("file stem")
            .to_string_lossy()
            .into_owned();
        let compiled = scratch_dir(&format!("engines_compiled_{stem}"));
        let interpreted = scratch_dir(&format!("engines_interpreted_{stem}"));
        let out_c = kaiseki_ok([
            "analyze".as_ref(),
            path.as_os_str(),
            "-o".as_ref(),
            compiled.as_os_str(),
        ]);
        let out_i = kaiseki_ok([
            "analyze".as_ref(),
            path.as_os_str(),
            "-o".as_ref(),
            interpreted.as_os_str(),
            "--rules".as_ref(),
            rules.as_os_str(),
        ]);
        let (c, i) = (files(&compiled), files(&interpreted));
        assert!(c.contains_key("dependence.csv"), "{stem}: {:?}", c.keys());
        assert!(
            c["dependence.csv"].len() > 60,
            "{stem}: dependences beyond the header"
        );
        assert_eq!(
            c.keys().collect::<Vec<_>>(),
            i.keys().collect::<Vec<_>>(),
            "{stem}"
        );
        for (name, bytes) in &c {
            assert!(
                bytes == &i[name],
                "{stem}: {name} differs between the engines"
            );
        }
        // The summary names the output directory, which differs; the rest is the same.
        let summary = |out: &str, dir: &Path| out.replace(&*dir.to_string_lossy(), "DIR");
        assert_eq!(
            summary(&out_c, &compiled),
            summary(&out_i, &interpreted),
            "{stem}"
        );
    }
}

/// The compiled program runs only the parts a selection needs: each
/// derived relation asked for alone has the rows it has in a run of
/// every part (a part skipped that a relation needed would leave it
/// short or empty).
#[test]
fn compiled_rules_asked_for_one_relation_give_its_full_rows() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parallel/tsvc.f");
    let mut facts = lower_file(&path);
    for what in ["parallel", "coincidence", "comm"] {
        facts
            .request
            .push(kaiseki_facts::Request { what: what.into() });
    }
    let program = kaiseki_rules::builtin_program();
    let registry = kaiseki_rules::functors::standard();
    let every = program
        .run_select(&facts, &registry, kaiseki_engine::Select::Derived)
        .expect("the compiled rules run");
    let mut nonempty = 0;
    for table in &every {
        let alone = program
            .run_select(
                &facts,
                &registry,
                kaiseki_engine::Select::Only(&[table.name.as_str()]),
            )
            .expect("the compiled rules run");
        assert_eq!(alone.len(), 1, "{}", table.name);
        assert_eq!(alone[0].rows, table.rows, "{}", table.name);
        nonempty += usize::from(!table.rows.is_empty());
    }
    assert!(nonempty > 100, "{nonempty} relations with rows");
}
