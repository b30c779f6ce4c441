//! Translates the built-in rules (`dl/*.dl`) into an Ascent program with
//! the crate's own front end (`src/dl`, included below: one parser for
//! both engines), and each test program of `tests/compiled/<name>/` into a
//! module of `fixtures.rs`. A program with errors becomes a module that
//! reports them when run, and a build warning: the crate still builds, so
//! the interpreter can show the same errors in full.

// The interpreter uses parts of the front end that translation does not.
#[allow(dead_code)]
#[path = "src/dl/mod.rs"]
mod dl;

use std::path::{Path, PathBuf};

/// `lint`: warn of the rules that fall into the compiled engine's trap
/// (`dl::join_order`); the test fixtures may, on purpose.
fn translate(root: &Path, dir: &Path, lint: bool) -> String {
    let origin = dir.strip_prefix(root).unwrap_or(dir).display().to_string();
    let (sources, checked) = match dl::read_dir(dir) {
        Ok(sources) => {
            let checked = dl::compile(&sources);
            (sources, checked)
        }
        Err(diags) => (dl::diag::Sources::default(), Err(diags)),
    };
    match checked {
        Ok(program) => {
            let found = if lint {
                dl::join_order::full_reads(&program)
            } else {
                Vec::new()
            };
            for d in sources.resolve(found) {
                println!(
                    "cargo:warning={}:{}:{}: {}",
                    d.file, d.line, d.col, d.message
                );
            }
            dl::to_ascent::translate(&program, &origin, &sources, timed())
        }
        Err(diags) => {
            for d in &diags {
                println!("cargo:warning={}", d.headline());
            }
            dl::to_ascent::translate_failure(&diags, &origin, &sources)
        }
    }
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
    for watched in ["dl", "src/dl", "tests/compiled"] {
        println!("cargo:rerun-if-changed={}", root.join(watched).display());
    }
    let write = |name: &str, text: String| {
        std::fs::write(out.join(name), text).expect("write to OUT_DIR");
    };
    write("builtin.rs", translate(&root, &root.join("dl"), true));

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
            translate(&root, dir, false)
        ));
        all.push(format!("({name:?}, &{name}::PROGRAM)"));
    }
    text.push_str(&format!(
        "/// Every fixture: its directory name and its compiled program.\npub(crate) static ALL: &[(&str, &crate::compiled::CompiledProgram)] = &[{}];\n",
        all.join(", ")
    ));
    write("fixtures.rs", text);
}
