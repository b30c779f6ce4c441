//! Golden facts of the worked examples: every relation of
//! `FactBase::tables()` for each file of `<workspace>/../shared/examples`,
//! as `== relation ==` then one TSV row per line, then the diagnostics,
//! compared with `frontend/tests/golden/<example>.facts.txt`.
//!
//! After a deliberate change of lowering, rewrite the files with
//! `UPDATE_GOLDEN=1 cargo test -p kaiseki-frontend --test lower_golden`
//! and review the diff before committing it.

mod common;

use std::collections::BTreeMap;
use std::path::PathBuf;

use common::{examples_dir, lower_src};
use kaiseki_facts::FactBase;

fn golden_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden"))
}

fn example_files() -> Vec<PathBuf> {
    let dir = examples_dir();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| {
            panic!(
                "{}: {e} (the examples live in ../shared beside the repository)",
                dir.display()
            )
        })
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            matches!(
                p.extension().and_then(|x| x.to_str()),
                Some("f" | "f90" | "for" | "f77")
            )
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no examples in {}", dir.display());
    files
}

/// Lowers one example, named by its file name only (so paths in the facts
/// do not depend on where the repository is).
fn lower_example(path: &PathBuf) -> (FactBase, Vec<kaiseki_frontend::Diagnostic>) {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .expect("file name");
    let text = std::fs::read_to_string(path).expect("readable example");
    lower_src(name, &text)
}

fn render(facts: &FactBase, diags: &[kaiseki_frontend::Diagnostic]) -> String {
    let mut out = String::new();
    for t in facts.tables() {
        out.push_str(&format!("== {} ==\n", t.name));
        for row in &t.rows {
            let cells: Vec<String> = row.iter().map(|v| v.to_string()).collect();
            out.push_str(&cells.join("\t"));
            out.push('\n');
        }
    }
    out.push_str("== diagnostics ==\n");
    for d in diags {
        out.push_str(d.to_string().lines().next().unwrap_or(""));
        out.push('\n');
    }
    out
}

/// Lines only in `expected` / only in `actual`, per section.
fn diff_summary(expected: &str, actual: &str) -> String {
    fn sections(text: &str) -> BTreeMap<String, Vec<String>> {
        let mut m: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut cur = String::new();
        for l in text.lines() {
            if l.starts_with("== ") {
                cur = l.to_string();
                m.entry(cur.clone()).or_default();
            } else {
                m.entry(cur.clone()).or_default().push(l.to_string());
            }
        }
        m
    }
    let (e, a) = (sections(expected), sections(actual));
    let mut out = String::new();
    let names: std::collections::BTreeSet<&String> = e.keys().chain(a.keys()).collect();
    for name in names {
        let empty = Vec::new();
        let (el, al) = (e.get(name).unwrap_or(&empty), a.get(name).unwrap_or(&empty));
        let missing: Vec<&String> = el.iter().filter(|l| !al.contains(l)).collect();
        let extra: Vec<&String> = al.iter().filter(|l| !el.contains(l)).collect();
        if missing.is_empty() && extra.is_empty() {
            continue;
        }
        out.push_str(&format!(
            "{name}: {} missing, {} unexpected\n",
            missing.len(),
            extra.len()
        ));
        for l in missing.iter().take(10) {
            out.push_str(&format!("  - {l}\n"));
        }
        for l in extra.iter().take(10) {
            out.push_str(&format!("  + {l}\n"));
        }
    }
    out
}

#[test]
fn facts_of_every_example_match_golden() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut failures = Vec::new();
    for path in example_files() {
        let (facts, diags) = lower_example(&path);
        let actual = render(&facts, &diags);
        let stem = path.file_stem().and_then(|s| s.to_str()).expect("stem");
        let golden = golden_dir().join(format!("{stem}.facts.txt"));
        if update {
            std::fs::create_dir_all(golden_dir()).expect("golden dir");
            std::fs::write(&golden, &actual).expect("write golden");
            continue;
        }
        match std::fs::read_to_string(&golden) {
            Ok(expected) if expected == actual => {}
            Ok(expected) => failures.push(format!("{stem}:\n{}", diff_summary(&expected, &actual))),
            Err(e) => failures.push(format!("{stem}: {}: {e}", golden.display())),
        }
    }
    assert!(
        failures.is_empty(),
        "facts differ from the golden files (UPDATE_GOLDEN=1 rewrites them):\n{}",
        failures.join("\n")
    );
}

#[test]
fn every_golden_file_has_its_example() {
    let stems: Vec<String> = example_files()
        .iter()
        .filter_map(|p| p.file_stem().and_then(|s| s.to_str()).map(str::to_string))
        .collect();
    for e in std::fs::read_dir(golden_dir())
        .expect("golden dir")
        .flatten()
    {
        let name = e.file_name().to_string_lossy().to_string();
        let stem = name.trim_end_matches(".facts.txt");
        assert!(stems.iter().any(|s| s == stem), "stale golden file {name}");
    }
}

#[test]
fn lowering_is_deterministic() {
    for path in example_files() {
        let (a, da) = lower_example(&path);
        let (b, db) = lower_example(&path);
        assert_eq!(a.tables(), b.tables(), "{}", path.display());
        assert_eq!(da, db);
    }
}
