//! `deps --format sarif` and `check --format sarif` write SARIF 2.1.0 that
//! the OASIS schema (`tests/fixtures/sarif-schema-2.1.0.json`) accepts,
//! with one result per dependence row or diagnostic, placed where the
//! CSV and the text diagnostics place them. Python's `jsonschema` validates
//! (`.ci/run` installs it).

mod common;

use common::{deps_csv, deps_csv_with, example_files, kaiseki, kaiseki_ok, scratch_dir};
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

/// Validates the logs; one line per result: `rule level file:line:col related...`.
fn validated(logs: &[&Path]) -> Vec<String> {
    checked(logs, &[])
}

/// [`validated`], with `sarif_check.py`'s `options` (`--flows`: a line
/// per code flow location after each result).
fn checked(logs: &[&Path], options: &[&str]) -> Vec<String> {
    let out = Command::new("python3")
        .arg(format!("{FIXTURES}/sarif_check.py"))
        .args(options)
        .arg(format!("{FIXTURES}/sarif-schema-2.1.0.json"))
        .args(logs)
        .output()
        .expect("python3 runs (with the jsonschema package: pip install jsonschema)");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "the SARIF logs are not valid:\n{stderr}"
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn deps_sarif_is_valid_and_has_one_result_per_row() {
    let dir = scratch_dir("sarif_deps");
    for (i, path) in example_files().iter().enumerate() {
        let file = path.to_str().expect("utf-8 path");
        let sarif = kaiseki_ok(["deps", file, "--format", "sarif"]);
        let log = dir.join(format!("{i}.sarif"));
        std::fs::write(&log, &sarif).expect("write");
        let results: BTreeSet<String> = validated(&[&log]).into_iter().collect();
        let expected: BTreeSet<String> = deps_csv(path)
            .iter()
            .map(|r| {
                format!(
                    "{} note {file}:{}:{} {file}:{}:{}",
                    r.kind, r.dst.0, r.dst.1, r.src.0, r.src.1
                )
            })
            .collect();
        assert!(!expected.is_empty(), "{file} has dependences");
        assert_eq!(results, expected, "{file}");
    }
}

#[test]
fn proofs_are_valid_code_flows_through_both_references() {
    let dir = scratch_dir("sarif_proof");
    let mut steps = 0;
    for (i, path) in example_files().iter().enumerate() {
        let file = path.to_str().expect("utf-8 path");
        let plain = dir.join(format!("{i}.sarif"));
        std::fs::write(
            &plain,
            kaiseki_ok(["deps", file, "--format", "sarif", "--all"]),
        )
        .expect("write");
        let proved = dir.join(format!("{i}.proof.sarif"));
        let sarif = kaiseki_ok(["deps", file, "--format", "sarif", "--all", "--proof"]);
        std::fs::write(&proved, sarif).expect("write");
        let lines = checked(&[&proved], &["--flows"]);
        // The same results as without --proof, each followed by its flow.
        let results: Vec<&String> = lines.iter().filter(|l| !l.starts_with("  ")).collect();
        let plain = validated(&[&plain]);
        assert_eq!(results, plain.iter().collect::<Vec<_>>(), "{file}");
        let mut at = 0;
        while at < lines.len() {
            let result = &lines[at];
            let flow: Vec<&str> = lines[at + 1..]
                .iter()
                .take_while(|l| l.starts_with("  flow "))
                .map(String::as_str)
                .collect();
            at += 1 + flow.len();
            // `kind note sink source`: the proof rests on facts of both
            // references, so the flow passes through both places.
            let places: Vec<&str> = result.split(' ').skip(2).collect();
            for place in &places {
                let here = format!("  flow {place} ");
                assert!(
                    flow.iter().any(|l| l.starts_with(&here)),
                    "{file}: the proof of `{result}` never stands at {place}:\n{}",
                    flow.join("\n")
                );
            }
            // Each location names an input fact and the rule that read it.
            for step in &flow {
                let message = step.splitn(5, ' ').nth(4).unwrap_or_default();
                assert!(
                    message.contains(") for ") && message.contains(".dl:"),
                    "{file}: {step}"
                );
            }
            steps += flow.len();
        }
    }
    assert!(steps > 100, "only {steps} flow locations");
    // Code flows are SARIF's: elsewhere --proof is a usage error.
    let file = example_files()[0].to_str().expect("utf-8").to_string();
    let out = kaiseki(["deps", &file, "--proof"]);
    assert_eq!(out.code, Some(2), "{out:?}");
}

#[test]
fn check_sarif_is_valid_and_places_every_diagnostic() {
    let dir = scratch_dir("sarif_check");
    let bad = dir.join("bad.f");
    std::fs::write(
        &bad,
        "      PROGRAM P\n      X = (1\n      ENTRY E\n      END\n",
    )
    .expect("write");
    let file = bad.to_str().expect("utf-8 path");
    let out = kaiseki(["check", file, "--format", "sarif"]);
    assert_eq!(out.code, Some(1), "{out:?}");
    let log = dir.join("bad.sarif");
    std::fs::write(&log, &out.stdout).expect("write");
    let results = validated(&[&log]);
    // The same places as the text diagnostics.
    let text = kaiseki(["check", file]);
    let placed: Vec<String> = text
        .stderr
        .lines()
        .filter(|l| l.contains(": error: ") || l.contains(": warning: "))
        .map(|l| {
            let (place, rest) = l.split_once(": ").expect("file:line:col: level");
            let level = rest.split(':').next().expect("level");
            format!("{level} {level} {place}")
        })
        .collect();
    assert!(
        placed.iter().any(|p| p.starts_with("error")),
        "{}",
        text.stderr
    );
    assert_eq!(results, placed);
    // A clean file: a valid log without results, exit 0.
    let clean = dir.join("clean.sarif");
    let ok = kaiseki_ok([
        "check",
        example_files()[0].to_str().expect("utf-8"),
        "--format",
        "sarif",
    ]);
    std::fs::write(&clean, ok).expect("write");
    assert!(validated(&[&clean]).is_empty());
}

/// `tests/include/main.f` reads its loop from `body.h`: the source and the
/// sink of a dependence may stand in different files.
const INCLUDING: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/include/main.f");

/// The file of `files` whose line `line` has `var` at column `col`: the
/// one place a reference of the CSV can stand (the test program is written
/// so that only one of its files fits each reference).
fn file_of<'a>(files: &[(&'a str, String)], var: &str, (line, col): (u32, u32)) -> &'a str {
    let fits: Vec<&str> = files
        .iter()
        .filter(|(_, text)| {
            let line = text.lines().nth(line as usize - 1).unwrap_or_default();
            line.get(col as usize - 1..)
                .is_some_and(|s| s.starts_with(var))
        })
        .map(|(name, _)| *name)
        .collect();
    assert_eq!(fits.len(), 1, "{var}@{line}:{col} fits {fits:?}");
    fits[0]
}

#[test]
fn references_of_included_files_are_located_in_them() {
    let main = INCLUDING;
    let body = main.replace("main.f", "body.h");
    let files = [
        (main, std::fs::read_to_string(main).expect("main.f")),
        (
            body.as_str(),
            std::fs::read_to_string(&body).expect("body.h"),
        ),
    ];
    let dir = scratch_dir("sarif_include");
    let log = dir.join("include.sarif");
    let sarif = kaiseki_ok(["deps", main, "--format", "sarif", "--all", "--proof"]);
    std::fs::write(&log, &sarif).expect("write");
    let lines = checked(&[&log], &["--flows"]);
    // Each result where the source text puts its references.
    let results: BTreeSet<&str> = lines
        .iter()
        .filter(|l| !l.starts_with("  "))
        .map(String::as_str)
        .collect();
    let rows = deps_csv_with(Path::new(main), &["--all"]);
    let expected: BTreeSet<String> = rows
        .iter()
        .map(|r| {
            let (src, dst) = (
                file_of(&files, &r.var, r.src),
                file_of(&files, &r.var, r.dst),
            );
            format!(
                "{} note {dst}:{}:{} {src}:{}:{}",
                r.kind, r.dst.0, r.dst.1, r.src.0, r.src.1
            )
        })
        .collect();
    assert_eq!(
        results,
        expected.iter().map(String::as_str).collect(),
        "{sarif}"
    );
    // A flow dependence from main.f into body.h and one back.
    let across = |from: &str, to: &str| {
        rows.iter().any(|r| {
            r.kind == "flow"
                && file_of(&files, &r.var, r.src) == from
                && file_of(&files, &r.var, r.dst) == to
        })
    };
    assert!(across(main, &body) && across(&body, main), "{rows:?}");
    // Every code flow location is a line of the file it names, and its
    // fact names that place (`X@3:17`, `3:7`, a loop `DO I@2`).
    let flows: Vec<&String> = lines.iter().filter(|l| l.starts_with("  flow ")).collect();
    for step in &flows {
        let words: Vec<&str> = step.trim_start().splitn(4, ' ').collect();
        let (place, message) = (words[1], words[3]);
        let fact = message.split(" for ").next().expect("a fact");
        let at: Vec<&str> = place.rsplitn(3, ':').collect();
        let (col, line, file) = (at[0], at[1], at[2]);
        let text = &files
            .iter()
            .find(|(f, _)| *f == file)
            .expect("a known file")
            .1;
        let n: usize = line.parse().expect("a line");
        assert!(n >= 1 && n <= text.lines().count(), "{step}");
        assert!(
            fact.contains(&format!("{line}:{col}"))
                || fact.contains(&format!("@{line})"))
                || fact.contains(&format!("@{line},")),
            "{step}"
        );
    }
    for (file, _) in &files {
        let here = format!("  flow {file}:");
        assert!(
            flows.iter().any(|l| l.starts_with(&here)),
            "no flow step in {file}"
        );
    }
}

#[test]
fn explain_shows_the_lines_of_included_files() {
    let out = kaiseki_ok([
        "explain",
        INCLUDING,
        "flow(X@6:7, X@3:17, _)",
        "--depth",
        "2",
    ]);
    let body = INCLUDING.replace("main.f", "body.h");
    // The use at 3:17 stands in body.h, the definition at 6:7 in main.f.
    assert!(out.contains(&format!("{body}:3:17: A(I) = X * I")), "{out}");
    assert!(out.contains(&format!("{INCLUDING}:6:7: X = 1.0")), "{out}");
    assert!(!out.contains(&format!("{INCLUDING}:3:")), "{out}");
}
