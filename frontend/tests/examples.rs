//! Every worked example (shared/examples) and every program of the corpus
//! (tests/corpus) parses with no diagnostic at all.

use std::path::{Path, PathBuf};

fn fortran_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("f" | "f90")))
        .collect();
    v.sort();
    v
}

fn assert_clean(files: &[PathBuf]) {
    assert!(!files.is_empty());
    for f in files {
        let (prog, diags) = kaiseki_frontend::parse_files(&[f], &Default::default());
        let shown: Vec<String> = diags.iter().map(|d| d.to_string()).collect();
        assert!(shown.is_empty(), "{}:\n{}", f.display(), shown.join("\n"));
        assert!(!prog.units.is_empty(), "{}: no units", f.display());
    }
}

#[test]
fn shared_examples_parse_clean() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/examples");
    assert_clean(&fortran_files(&dir));
}

#[test]
fn corpus_programs_parse_clean() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    assert_clean(&fortran_files(&dir));
}
