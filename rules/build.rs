//! Translates the built-in rules (`dl/*.dl`) into an Ascent program with
//! the engine's front end (`kaiseki_engine::dl`: one parser for both
//! engines), warning of the rules that fall into the compiled engine's trap
//! (`dl::join_order`). A program with errors becomes one that reports them
//! when run, and a build warning: the crate still builds, so the
//! interpreter can show the same errors in full.

use kaiseki_engine::dl;
use std::path::{Path, PathBuf};

fn translate(root: &Path, dir: &Path) -> String {
    let origin = dir.strip_prefix(root).unwrap_or(dir).display().to_string();
    let (text, warnings) = dl::to_ascent::translate_dir(dir, &origin, timed(), true);
    for w in warnings {
        println!("cargo:warning={w}");
    }
    text
}

/// Whether the `rule-times` feature is on (see `dl::to_ascent::translate`).
fn timed() -> bool {
    std::env::var_os("CARGO_FEATURE_RULE_TIMES").is_some()
}

fn main() {
    // Read when the script runs, not baked in when it is compiled: cargo may
    // reuse one compiled script for two checkouts that share a target dir.
    let root = PathBuf::from(
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"),
    );
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    println!("cargo:rerun-if-changed={}", root.join("dl").display());
    std::fs::write(out.join("builtin.rs"), translate(&root, &root.join("dl")))
        .expect("write to OUT_DIR");
}
