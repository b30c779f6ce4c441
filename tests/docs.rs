//! The documentation that is generated stays in sync with the code.

use std::process::Command;

/// `docs/relations.md` is the output of `kaiseki facts --list`
/// (regenerate: `cargo run -- facts --list > docs/relations.md`).
#[test]
fn relation_docs_are_current() {
    let out = Command::new(env!("CARGO_BIN_EXE_kaiseki"))
        .args(["facts", "--list"])
        .output()
        .expect("run kaiseki");
    assert!(out.status.success());
    let listed = String::from_utf8(out.stdout).expect("utf-8");
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/relations.md");
    let doc = std::fs::read_to_string(path).expect("docs/relations.md");
    assert!(
        doc == listed,
        "docs/relations.md is stale: run `cargo run -- facts --list > docs/relations.md`"
    );
    for schema in kaiseki_facts::FactBase::SCHEMAS {
        assert!(listed.contains(&format!("## {}\n", schema.name)));
    }
}
