//! Helpers shared by the end-to-end tests: running the `kaiseki` binary,
//! the shared example files, generated programs, scratch directories and
//! the dependence CSV contract read back into rows.

// Each test crate includes this module and uses a part of it.
#![allow(dead_code)]

use kaiseki_facts::FactBase;
use kaiseki_judge::gen::{affine_nest, scalar_program, Generated};
use std::collections::{BTreeMap, HashSet};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The header docs/deps.md promises for `kaiseki deps --format csv`.
pub const DEPS_HEADER: &str = "unit,kind,var,src_line,src_col,dst_line,dst_col,loops,distance,direction,carrier,certainty,minimal";

/// What one run of the binary did.
#[derive(Debug)]
pub struct Outcome {
    /// The exit code; `None` when a signal ended the process (a crash).
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `kaiseki` with `args` and collects what it did.
pub fn kaiseki<I, S>(args: I) -> Outcome
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let out = Command::new(env!("CARGO_BIN_EXE_kaiseki"))
        .args(args)
        .output()
        .expect("the kaiseki binary runs");
    Outcome {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Runs `kaiseki` and insists on exit status 0 and no error message.
pub fn kaiseki_ok<I, S>(args: I) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let args: Vec<_> = args.into_iter().map(|a| a.as_ref().to_owned()).collect();
    let out = kaiseki(&args);
    assert_eq!(
        out.code,
        Some(0),
        "kaiseki {args:?} failed:\n{}",
        out.stderr
    );
    assert!(
        !out.stderr.contains("error:"),
        "kaiseki {args:?}:\n{}",
        out.stderr
    );
    out.stdout
}

/// The number of rows `kaiseki query FILE PATTERN` answers (its header aside).
pub fn query_rows(file: &Path, pattern: &str) -> usize {
    kaiseki_ok(["query".as_ref(), file.as_os_str(), pattern.as_ref()])
        .lines()
        .count()
        - 1
}

/// The shared examples (CI clones the repository with `shared` beside it).
pub fn examples_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/examples"))
}

pub fn example(name: &str) -> PathBuf {
    examples_dir().join(name)
}

/// Every Fortran example, in name order.
pub fn example_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(examples_dir())
        .expect("../shared/examples is readable")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| matches!(p.extension().and_then(OsStr::to_str), Some("f" | "f90")))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "examples missing: {files:?}");
    files
}

/// `text` written as the file `name` in the scratch directory `dir`.
pub fn source_file(dir: &str, name: &str, text: &str) -> PathBuf {
    let path = scratch_dir(dir).join(name);
    std::fs::write(&path, text).expect("program written");
    path
}

/// The built-in rule files, as `--rules` takes them.
pub fn rules_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/rules/dl"))
}

/// An empty directory of this test's own under the target directory.
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).expect("old scratch directory removed");
    }
    std::fs::create_dir_all(&dir).expect("scratch directory created");
    dir
}

/// The generated programs the end-to-end tests use: `scalar` scalar
/// programs and `affine` affine nests, from fixed seeds.
pub fn generated(scalar: u64, affine: u64) -> Vec<Generated> {
    (0..scalar)
        .map(scalar_program)
        .chain((0..affine).map(affine_nest))
        .collect()
}

/// Fewer generated programs in a debug build, where everything is ~10x slower.
pub fn scaled(release: u64) -> u64 {
    if cfg!(debug_assertions) {
        release.div_ceil(4)
    } else {
        release
    }
}

/// Parses and lowers `text` as the file `path`; errors fail the test.
pub fn lower_source(path: &str, text: &str) -> FactBase {
    let (program, mut diags) = kaiseki_frontend::parse_source(path, text);
    let (facts, lower_diags) = kaiseki_frontend::lower(&program);
    diags.extend(lower_diags);
    let errors: Vec<String> = diags
        .iter()
        .filter(|d| d.is_error())
        .map(ToString::to_string)
        .collect();
    assert!(errors.is_empty(), "{path}:\n{}", errors.join("\n"));
    facts
}

pub fn lower_file(path: &Path) -> FactBase {
    let text = std::fs::read_to_string(path).expect("readable source");
    lower_source(&path.to_string_lossy(), &text)
}

/// One row of the dependence CSV, typed.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Dep {
    pub unit: String,
    pub kind: String,
    pub var: String,
    pub src: (u32, u32),
    pub dst: (u32, u32),
    pub loops: Vec<u32>,
    pub distance: Vec<Option<i64>>,
    pub direction: Vec<char>,
    pub carrier: u32,
    pub certainty: String,
    pub minimal: bool,
}

/// Reads `kaiseki deps --format csv` output, checking the header and the
/// shape of every field (a malformed row fails the test).
pub fn parse_deps_csv(text: &str) -> Vec<Dep> {
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(DEPS_HEADER), "CSV header:\n{text}");
    lines.map(parse_dep).collect()
}

/// The (line, column) of each of `refs`, as the dependence CSV names references.
pub fn positions(facts: &FactBase, refs: &HashSet<i64>) -> HashSet<(u32, u32)> {
    facts
        .ref_pos
        .iter()
        .filter(|p| refs.contains(&p.r#ref))
        .map(|p| (p.line as u32, p.col as u32))
        .collect()
}

/// The rows of `kaiseki deps FILE --format csv` (the run must succeed).
pub fn deps_csv(path: &Path) -> Vec<Dep> {
    deps_csv_with(path, &[])
}

/// Every row of `kaiseki deps FILE --format csv --loop-vars`, those of the
/// DO loops' own indices included: what soundness is checked against.
pub fn deps_csv_every_row(path: &Path) -> Vec<Dep> {
    deps_csv_with(path, &["--loop-vars"])
}

/// The rows of `kaiseki deps FILE --format csv` with the `extra` options.
pub fn deps_csv_with(path: &Path, extra: &[&str]) -> Vec<Dep> {
    let mut args = vec![
        "deps".as_ref(),
        path.as_os_str(),
        "--format".as_ref(),
        "csv".as_ref(),
    ];
    args.extend(extra.iter().map(OsStr::new));
    parse_deps_csv(&kaiseki_ok(args))
}

/// The `;`-separated items of a per-loop field (none when it is empty).
fn list(s: &str) -> Vec<&str> {
    if s.is_empty() {
        Vec::new()
    } else {
        s.split(';').collect()
    }
}

fn parse_dep(line: &str) -> Dep {
    let f: Vec<&str> = line.split(',').collect();
    assert_eq!(f.len(), 13, "13 fields in {line:?}");
    let num = |s: &str| -> u32 {
        s.parse()
            .unwrap_or_else(|_| panic!("number {s:?} in {line:?}"))
    };
    let loops: Vec<u32> = list(f[7]).into_iter().map(num).collect();
    let distance: Vec<Option<i64>> = list(f[8])
        .into_iter()
        .map(|d| match d {
            "*" => None,
            n => Some(
                n.parse()
                    .unwrap_or_else(|_| panic!("distance {n:?} in {line:?}")),
            ),
        })
        .collect();
    let direction: Vec<char> = list(f[9])
        .into_iter()
        .map(|d| match d {
            "<" | "=" | ">" | "*" => d.chars().next().unwrap_or('?'),
            _ => panic!("direction {d:?} in {line:?}"),
        })
        .collect();
    assert!(
        distance.len() == loops.len() && direction.len() == loops.len(),
        "one distance and one direction per loop in {line:?}"
    );
    assert!(
        matches!(f[1], "flow" | "anti" | "output" | "input"),
        "kind in {line:?}"
    );
    assert!(
        matches!(f[11], "exact" | "possible"),
        "certainty in {line:?}"
    );
    let carrier = num(f[10]);
    assert!(
        carrier == 0 || loops.contains(&carrier),
        "the carrier is one of the loops in {line:?}"
    );
    Dep {
        unit: f[0].to_string(),
        kind: f[1].to_string(),
        var: f[2].to_string(),
        src: (num(f[3]), num(f[4])),
        dst: (num(f[5]), num(f[6])),
        loops,
        distance,
        direction,
        carrier,
        certainty: f[11].to_string(),
        minimal: match f[12] {
            "true" => true,
            "false" => false,
            m => panic!("minimal {m:?} in {line:?}"),
        },
    }
}

/// Every file of `dir` by name, with its text.
pub fn files(dir: &Path) -> BTreeMap<String, String> {
    std::fs::read_dir(dir)
        .expect("output directory")
        .map(|e| {
            let path = e.expect("directory entry").path();
            let name = path
                .file_name()
                .expect("file name")
                .to_string_lossy()
                .into_owned();
            (name, std::fs::read_to_string(&path).expect("text file"))
        })
        .collect()
}
