//! Translates each test program of `tests/compiled/<name>/` into a module
//! of `fixtures.rs` with the crate's own front end (`src/dl`, included
//! below: a build script cannot depend on its own crate), for the tests
//! that hold the compiled engine to the interpreter. A program with errors
//! becomes a module that reports them when run, and a build warning.

// The interpreter uses parts of the front end that translation does not.
#[allow(dead_code)]
#[path = "src/dl/mod.rs"]
mod dl;
// What `dl::diag` prints under a message.
#[path = "src/excerpt.rs"]
mod excerpt;

use std::path::{Path, PathBuf};

fn translate(root: &Path, dir: &Path) -> String {
    let origin = dir.strip_prefix(root).unwrap_or(dir).display().to_string();
    let (text, warnings) = dl::to_ascent::translate_dir(dir, &origin, false, false);
    for w in warnings {
        println!("cargo:warning={w}");
    }
    text
}

fn main() {
    // Read when the script runs, not baked in when it is compiled: cargo may
    // reuse one compiled script for two checkouts that share a target dir.
    let root = PathBuf::from(
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"),
    );
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    for watched in ["src/dl", "src/excerpt.rs", "tests/compiled"] {
        println!("cargo:rerun-if-changed={}", root.join(watched).display());
    }
    let mut fixtures: Vec<PathBuf> = std::fs::read_dir(root.join("tests/compiled"))
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_dir())
                .collect()
        })
        .unwrap_or_default();
    fixtures.sort();
    let mut text = String::new();
    let mut all = Vec::new();
    for dir in &fixtures {
        let name = dir
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("fixture")
            .to_string();
        text.push_str(&format!(
            "pub(crate) mod {name} {{\n{}}}\n\n",
            translate(&root, dir)
        ));
        all.push(format!("({name:?}, &{name}::PROGRAM)"));
    }
    text.push_str(&format!(
        "/// Every fixture: its directory name and its compiled program.\npub(crate) static ALL: &[(&str, &crate::compiled::CompiledProgram)] = &[{}];\n",
        all.join(", ")
    ));
    std::fs::write(out.join("fixtures.rs"), text).expect("write to OUT_DIR");
}
