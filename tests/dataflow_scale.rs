//! The cost of dataflow follows the references, not blocks x references:
//! on one unit whose scalars are used all over it (`synth dataflow
//! --spread uniform`), the facts at block entries (`dataflow_in`) stay a
//! small multiple of the references, and doubling the unit (twice the
//! statements and the scalars, so each reference's next one is twice as
//! far) doubles them. Over each variable's sparse graph they are about 5
//! per reference, growing 2.1x; across chunks of blocks they were under 25
//! and grew under 2.8x; carried block by block, 72 and 146 times the
//! references, growing 4x.

mod common;
use common::*;

/// (references, facts at block entries) of the uniform shape.
fn counts(statements: usize) -> (usize, usize) {
    let dir = scratch_dir(&format!("dataflow_scale_{statements}"));
    let file = dir.join("flat.f");
    let text = kaiseki_ok([
        "synth",
        "dataflow",
        "--size",
        &statements.to_string(),
        "--vars",
        &(statements / 10).to_string(),
        "--spread",
        "uniform",
    ]);
    std::fs::write(&file, text).expect("program written");
    let rows = |pattern: &str| query_rows(&file, pattern);
    (
        rows("access(R, S, V)"),
        rows("dataflow_in(P, B, V, R, T, H, G)"),
    )
}

#[test]
fn dataflow_facts_follow_the_references() {
    let (refs, facts) = counts(5000);
    let (refs2, facts2) = counts(10000);
    assert!(
        refs > 10_000 && refs2 > 2 * refs - 1000,
        "{refs} and {refs2} references"
    );
    let per_ref = facts as f64 / refs as f64;
    let growth = facts2 as f64 / facts as f64;
    println!("{facts} facts for {refs} references ({per_ref:.1} each); twice the unit: {facts2} ({growth:.2}x)");
    assert!(per_ref < 8.0, "{per_ref:.1} facts per reference");
    assert!(growth < 2.3, "twice the unit gives {growth:.2}x the facts");
}
