//! The command line, end to end: exit codes (0 ok, 1 bad input, 2 usage
//! error), diagnostics as `file:line:col: error:` with the source line and
//! a caret, recovery after an error, help and version, the facts export,
//! deterministic output, errors in rule files, and queries.

mod common;

use common::{
    deps_csv, example, example_files, files, kaiseki, kaiseki_ok, parse_deps_csv, rules_dir,
    scratch_dir, Outcome,
};
use kaiseki_facts::FactBase;
use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

fn path_str(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// Exit status 1 with an error message and no crash.
fn assert_bad_input(out: &Outcome, what: &str) {
    assert_eq!(out.code, Some(1), "{what}: {out:?}");
    assert!(out.stderr.contains("error:"), "{what}: {out:?}");
    assert!(!out.stderr.contains("panicked"), "{what}: {out:?}");
}

/// The `error:` diagnostic at `file:line:`, followed by the source line
/// `source` and a caret under its column. Returns the column.
fn assert_located(stderr: &str, file: &str, line: u32, source: &str) -> usize {
    let lines: Vec<&str> = stderr.lines().collect();
    let prefix = format!("{file}:{line}:");
    let i = lines
        .iter()
        .position(|l| l.starts_with(&prefix) && l.contains(": error: "))
        .unwrap_or_else(|| panic!("no error at {prefix} in:\n{stderr}"));
    let col: usize = lines[i][prefix.len()..]
        .split(':')
        .next()
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("a column in {:?}", lines[i]));
    let shown = lines.get(i + 1).copied().unwrap_or_default();
    let indent = shown
        .find(source)
        .unwrap_or_else(|| panic!("the source line {source:?} under {:?}:\n{stderr}", lines[i]));
    let caret = lines.get(i + 2).copied().unwrap_or_default();
    assert_eq!(caret.trim(), "^", "a caret line under {shown:?}:\n{stderr}");
    assert_eq!(
        caret.find('^'),
        Some(indent + col - 1),
        "the caret is under column {col}:\n{stderr}"
    );
    col
}

#[test]
fn check_accepts_every_example() {
    for path in example_files() {
        let out = kaiseki(["check", path_str(&path)]);
        assert_eq!(out.code, Some(0), "{}: {out:?}", path.display());
        assert!(
            !out.stderr.contains("error:"),
            "{}: {}",
            path.display(),
            out.stderr
        );
    }
}

const BROKEN_THEN_GOOD: &str = "      PROGRAM A
      X = (1 +
      END
      SUBROUTINE S
      Y = 2
      PRINT *, Y
      END
";

#[test]
fn a_syntax_error_is_located_and_the_next_unit_still_analyzed() {
    let dir = scratch_dir("cli_syntax");
    let file = dir.join("broken.f");
    std::fs::write(&file, BROKEN_THEN_GOOD).expect("write");
    let out = kaiseki(["check", path_str(&file)]);
    assert_bad_input(&out, "check");
    let col = assert_located(&out.stderr, path_str(&file), 2, "      X = (1 +");
    assert!(
        (11..=15).contains(&col),
        "the column points into `(1 +`: {col}"
    );

    // What was valid is still analyzed: unit S has its facts and its dependence.
    let facts_dir = dir.join("facts");
    let out = kaiseki([
        "facts",
        path_str(&file),
        "-o",
        path_str(&facts_dir),
        "--format",
        "csv",
    ]);
    assert_bad_input(&out, "facts");
    let stmts = std::fs::read_to_string(facts_dir.join("stmt.csv")).expect("stmt.csv");
    assert!(
        stmts.lines().any(|l| l.contains(",S,5,7,assign")),
        "{stmts}"
    );
    let out = kaiseki(["deps", path_str(&file), "--format", "csv"]);
    assert_bad_input(&out, "deps");
    let rows = parse_deps_csv(&out.stdout);
    assert!(
        rows.iter().any(|r| r.unit == "S"
            && r.kind == "flow"
            && r.var == "Y"
            && r.src == (5, 7)
            && r.dst == (6, 16)),
        "{}",
        out.stdout
    );
}

/// 300 unmodelled statements: 300 warnings, then one more error at the end
/// when `bad` is set.
fn many_warnings(bad: bool) -> String {
    let mut src = String::from("      PROGRAM W\n      X = 1.0\n");
    for _ in 0..300 {
        src.push_str("      REWIND 5\n");
    }
    if bad {
        src.push_str("      X = (1 +\n");
    }
    src.push_str("      PRINT *, X\n      END\n");
    src
}

#[test]
fn warnings_are_capped_apart_from_errors_and_alone_exit_0() {
    let dir = scratch_dir("cli_warnings");
    let file = dir.join("warn.f");
    std::fs::write(&file, many_warnings(false)).expect("write");
    for cmd in ["check", "deps"] {
        let out = kaiseki([cmd, path_str(&file)]);
        assert_eq!(out.code, Some(0), "{cmd}: {out:?}");
        assert!(!out.stderr.contains("error"), "{cmd}: {}", out.stderr);
        let warnings = out
            .stderr
            .lines()
            .filter(|l| l.contains(": warning: REWIND"))
            .count();
        assert_eq!(warnings, 200, "{cmd}");
        assert!(
            out.stderr.contains(&format!(
                "{}: warning: ... and 100 more warnings",
                path_str(&file)
            )),
            "{cmd}: {}",
            out.stderr
        );
    }
    // An error after the 300 warnings is still shown, and is the only error.
    std::fs::write(&file, many_warnings(true)).expect("write");
    let out = kaiseki(["check", path_str(&file)]);
    assert_bad_input(&out, "check");
    assert_located(&out.stderr, path_str(&file), 303, "      X = (1 +");
    assert_eq!(out.stderr.matches(": error: ").count(), 1, "{}", out.stderr);
}

/// Old-style fixed form with intrinsic calls, blanks inside operators, a
/// BOZ constant and FORMATs: clean, and its dependences are those of the
/// statements that reference variables, none at a FORMAT line.
const LEGACY: &str = "      PROGRAM LEGACY
      INTEGER I, N, MASK
      REAL A(100), T
      CHARACTER*16 ARG
      DATA MASK /Z'FF'/
      CALL GETARG(1, ARG)
      N = IAND(LEN(ARG), MASK)
      DO 10 I = 1, N
        IF (A(I) . LT . 0.0 . AND. .TRUE .) A(I) = 0.0
   10 CONTINUE
      CALL CPU_TIME(T)
      WRITE(6, 100) N, T
  100 FORMAT(//, 1X, 'N =', I5, 3(1X, F10.3), 5HDONE., $)
      END
";

#[test]
fn legacy_fixed_form_is_clean_and_formats_make_no_dependences() {
    let dir = scratch_dir("cli_legacy");
    let file = dir.join("legacy.f");
    std::fs::write(&file, LEGACY).expect("write");
    let out = kaiseki(["check", path_str(&file)]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(!out.stderr.contains("warning"), "{}", out.stderr);
    let out = kaiseki(["deps", path_str(&file), "--format", "csv", "--all"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    let rows = parse_deps_csv(&out.stdout);
    assert!(
        rows.iter().all(|r| r.src.0 != 13 && r.dst.0 != 13),
        "{}",
        out.stdout
    );
    // ARG flows from GETARG to LEN; N from its assignment to the loop and the WRITE.
    let flows: Vec<(&str, u32, u32)> = rows
        .iter()
        .filter(|r| r.kind == "flow")
        .map(|r| (r.var.as_str(), r.src.0, r.dst.0))
        .collect();
    for want in [("ARG", 6, 7), ("N", 7, 8), ("N", 7, 12), ("T", 11, 12)] {
        assert!(flows.contains(&want), "{want:?} in {flows:?}");
    }
}

/// OPEN, CLOSE and INQUIRE are modelled, not opaque: no warning, their
/// specifier variables in the rows, and a routine that opens a file
/// touches only what it names (here nothing of /W/), not every COMMON
/// variable of its caller.
#[test]
fn file_statements_give_rows_and_keep_their_routine_known() {
    let dir = scratch_dir("cli_files");
    let file = dir.join("files.f");
    std::fs::write(
        &file,
        "      PROGRAM F
      COMMON /W/ A(10)
      INTEGER IOU, IOS
      IOU = 7
      A(1) = 0.0
      CALL INITIO(IOU, IOS)
      PRINT *, IOS, A(1)
      END
      SUBROUTINE INITIO(IOU, IOS)
      LOGICAL LIVING
      INQUIRE (FILE='x.dat', EXIST=LIVING)
      IF (LIVING) OPEN (UNIT=IOU, FILE='x.dat', IOSTAT=IOS)
      IF (LIVING) CLOSE (UNIT=IOU, STATUS='DELETE')
      OPEN (UNIT=IOU, FILE='x.dat', STATUS='NEW', IOSTAT=IOS)
      END
",
    )
    .expect("write");
    let out = kaiseki(["check", path_str(&file)]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(!out.stderr.contains("warning"), "{}", out.stderr);
    let out = kaiseki(["deps", path_str(&file), "--format", "csv"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    let rows = parse_deps_csv(&out.stdout);
    let flows: Vec<(&str, &str, u32, u32)> = rows
        .iter()
        .filter(|r| r.kind == "flow")
        .map(|r| (r.unit.as_str(), r.var.as_str(), r.src.0, r.dst.0))
        .collect();
    for want in [
        ("INITIO", "LIVING", 11, 12),
        ("INITIO", "LIVING", 11, 13),
        ("F", "IOU", 4, 6),
        ("F", "IOS", 6, 7),
        ("F", "A", 5, 7),
    ] {
        assert!(flows.contains(&want), "{want:?} in {flows:?}");
    }
    // The call touches no element of A: A(1) flows past it, and nothing
    // of A is at the call's line.
    assert!(
        rows.iter()
            .all(|r| r.var != "A" || (r.src.0 != 6 && r.dst.0 != 6)),
        "{}",
        out.stdout
    );
}

#[test]
fn unreadable_inputs_are_errors_not_crashes() {
    let dir = scratch_dir("cli_unreadable");
    let empty = dir.join("empty.f");
    std::fs::write(&empty, "").expect("write");
    let binary = dir.join("binary.f");
    std::fs::write(
        &binary,
        b"\x7fELF\x02\x01\x01\x00\x00\x00garbage\x00\xff\xfe",
    )
    .expect("write");
    let missing = dir.join("missing.f");
    for (what, path) in [
        ("missing file", &missing),
        ("directory", &dir),
        ("empty file", &empty),
        ("binary file", &binary),
    ] {
        for cmd in ["check", "deps"] {
            let out = kaiseki([cmd, path_str(path)]);
            assert_bad_input(&out, &format!("{cmd} on a {what}"));
            assert!(
                out.stderr.contains(path_str(path)),
                "{what}: the message names the file: {}",
                out.stderr
            );
        }
    }
}

#[test]
fn help_of_every_subcommand_shows_examples() {
    for args in [
        vec!["--help"],
        vec!["check", "--help"],
        vec!["facts", "--help"],
        vec!["analyze", "--help"],
        vec!["deps", "--help"],
        vec!["query", "--help"],
        vec!["synth", "--help"],
    ] {
        let out = kaiseki(&args);
        assert_eq!(out.code, Some(0), "{args:?}");
        assert!(
            out.stdout.contains("Examples:\n  kaiseki "),
            "{args:?}: {}",
            out.stdout
        );
    }
}

#[test]
fn version_prints_the_package_version() {
    let out = kaiseki(["--version"]);
    assert_eq!(out.code, Some(0));
    assert_eq!(
        out.stdout,
        format!("kaiseki {}\n", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn usage_errors_exit_2() {
    let ex = example("kanada_deps.f");
    let ex = path_str(&ex);
    for args in [
        vec![],
        vec!["frobnicate"],
        vec!["deps"],
        vec!["check"],
        vec!["deps", ex, "--frobnicate"],
        vec!["deps", ex, "--format", "xml"],
        vec!["analyze", ex],
        vec!["facts", ex],
        vec!["query", ex],
    ] {
        let out = kaiseki(&args);
        assert_eq!(out.code, Some(2), "{args:?}: {out:?}");
        // clap points to the help in every usage error.
        assert!(out.stderr.contains("--help"), "{args:?}: {}", out.stderr);
    }
}

fn write_facts(dir: &Path, format: &str) -> BTreeMap<String, String> {
    let ex = example("kanada_deps.f");
    let out = kaiseki([
        "facts",
        path_str(&ex),
        "-o",
        path_str(dir),
        "--format",
        format,
    ]);
    assert_eq!(out.code, Some(0), "{out:?}");
    files(dir)
}

#[test]
fn facts_writes_one_file_per_relation() {
    let tsv = write_facts(&scratch_dir("cli_facts_tsv"), "tsv");
    let csv = write_facts(&scratch_dir("cli_facts_csv"), "csv");
    let names = |ext: &str| -> BTreeSet<String> {
        FactBase::SCHEMAS
            .iter()
            .map(|s| format!("{}.{ext}", s.name))
            .collect()
    };
    assert_eq!(tsv.keys().cloned().collect::<BTreeSet<_>>(), names("facts"));
    assert_eq!(csv.keys().cloned().collect::<BTreeSet<_>>(), names("csv"));
    for schema in FactBase::SCHEMAS {
        let columns: Vec<&str> = schema.columns.iter().map(|c| c.name).collect();
        let text = &tsv[&format!("{}.facts", schema.name)];
        for line in text.lines() {
            assert_eq!(
                line.split('\t').count(),
                columns.len(),
                "{}: {line:?}",
                schema.name
            );
        }
        let text = &csv[&format!("{}.csv", schema.name)];
        let mut lines = text.lines();
        assert_eq!(
            lines.next(),
            Some(columns.join(",").as_str()),
            "{} header",
            schema.name
        );
        assert_eq!(
            lines.count(),
            tsv[&format!("{}.facts", schema.name)].lines().count(),
            "{}",
            schema.name
        );
    }
    // Kanada's program defines X three times.
    let defs_of_x = csv["def.csv"].lines().filter(|l| l.ends_with(",X")).count();
    assert_eq!(defs_of_x, 3, "{}", csv["def.csv"]);
}

#[test]
fn two_runs_write_the_same_bytes() {
    let ex = example("li_harada_fig1.f90");
    let ex = path_str(&ex);
    for format in ["tsv", "csv"] {
        let (a, b) = (
            scratch_dir(&format!("cli_det_a_{format}")),
            scratch_dir(&format!("cli_det_b_{format}")),
        );
        for dir in [&a, &b] {
            kaiseki_ok(["facts", ex, "-o", path_str(dir), "--format", format]);
        }
        assert_eq!(files(&a), files(&b), "facts --format {format}");
    }
    let (a, b) = (
        scratch_dir("cli_det_analyze_a"),
        scratch_dir("cli_det_analyze_b"),
    );
    for dir in [&a, &b] {
        kaiseki_ok(["analyze", ex, "-o", path_str(dir)]);
    }
    assert_eq!(files(&a), files(&b), "analyze");
    let deps = kaiseki_ok(["deps", ex, "--format", "csv", "--all"]);
    assert_eq!(
        deps,
        kaiseki_ok(["deps", ex, "--format", "csv", "--all"]),
        "deps"
    );
}

/// A copy of the built-in rules with one more file, `zz_bad.dl`.
fn rules_with(name: &str, bad: &str) -> PathBuf {
    let dir = scratch_dir(&format!("cli_rules_{name}"));
    for entry in std::fs::read_dir(rules_dir()).expect("rules/dl") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "dl") {
            std::fs::copy(&path, dir.join(path.file_name().expect("name"))).expect("copy");
        }
    }
    std::fs::write(dir.join("zz_bad.dl"), bad).expect("write");
    dir
}

#[test]
fn errors_in_rule_files_are_located() {
    let ex = example("kanada_deps.f");
    // (case, rule text, line of the error, the text its column points at)
    let cases = [
        ("syntax", ".decl p(x: number)\np(X) :- def(X, _, _) def(X, _, _).\n", 2, "def(X, _, _)."),
        ("unknown_relation", ".decl p(x: number)\np(X) :- nosuch(X).\n", 2, "nosuch"),
        ("arity", ".decl p(x: number)\np(X) :- def(X, _).\n", 2, "def"),
        ("unbound_head", ".decl p(x: number, y: number)\np(X, Y) :- def(X, _, _).\n", 2, "Y)"),
        (
            "negation_through_recursion",
            ".decl p(x: number)\n.decl q(x: number)\np(X) :- def(X, _, _), !q(X).\nq(X) :- def(X, _, _), !p(X).\n",
            3,
            "q(X).",
        ),
    ];
    for (case, text, line, at) in cases {
        let dir = rules_with(case, text);
        let out = kaiseki(["deps", path_str(&ex), "--rules", path_str(&dir)]);
        assert_bad_input(&out, case);
        let source = text.lines().nth(line - 1).expect("the error line");
        let file = dir.join("zz_bad.dl");
        let col = assert_located(&out.stderr, path_str(&file), line as u32, source);
        let want = source.rfind(at).expect("marker in the line") + 1;
        assert_eq!(
            col, want,
            "{case}: column of {at:?} in {source:?}:\n{}",
            out.stderr
        );
        assert!(
            out.stdout.is_empty(),
            "{case}: no rows from bad rules: {}",
            out.stdout
        );
    }
}

/// `ref -> (line, col)` from `kaiseki facts --format csv`.
fn ref_positions(file: &Path) -> BTreeMap<u32, (u32, u32)> {
    let dir = scratch_dir("cli_query_facts");
    kaiseki_ok([
        "facts",
        path_str(file),
        "-o",
        path_str(&dir),
        "--format",
        "csv",
    ]);
    let text = std::fs::read_to_string(dir.join("ref_pos.csv")).expect("ref_pos.csv");
    text.lines()
        .skip(1)
        .map(|l| {
            let n: Vec<u32> = l.split(',').map(|x| x.parse().expect("number")).collect();
            (n[0], (n[1], n[2]))
        })
        .collect()
}

#[test]
fn query_prints_the_bindings_of_its_variables() {
    let ex = example("kanada_deps.f");
    let body = r#"flow(D, U, _), def(D, _, "X")"#;
    let csv = kaiseki_ok(["query", path_str(&ex), body, "--format", "csv", "--raw"]);
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("D,U"));
    let pos = ref_positions(&ex);
    let answered: BTreeSet<((u32, u32), (u32, u32))> = lines
        .map(|l| {
            let (d, u) = l.split_once(',').expect("two columns");
            let at = |r: &str| pos[&r.parse::<u32>().expect("a ref")];
            (at(d), at(u))
        })
        .collect();
    // The same flow dependences as `deps` reports on X.
    let rows = deps_csv(&ex);
    let flow_x: BTreeSet<_> = rows
        .iter()
        .filter(|r| r.kind == "flow" && r.var == "X")
        .map(|r| (r.src, r.dst))
        .collect();
    assert_eq!(answered, flow_x);
    assert!(
        answered.contains(&((11, 7), (12, 11))),
        "X = 1.0 reaches Y = X + 1.0"
    );
    // Without --raw, the same rows show each reference as VAR@line:col.
    let readable = kaiseki_ok(["query", path_str(&ex), body, "--format", "csv"]);
    let shown: BTreeSet<String> = readable.lines().skip(1).map(str::to_string).collect();
    let expected: BTreeSet<String> = answered
        .iter()
        .map(|((dl, dc), (ul, uc))| format!("X@{dl}:{dc},X@{ul}:{uc}"))
        .collect();
    assert_eq!(shown, expected, "{readable}");
    assert!(shown.contains("X@11:7,X@12:11"), "{readable}");
    // The table has the same header and rows.
    let table = kaiseki_ok(["query", path_str(&ex), body]);
    let words: Vec<Vec<&str>> = table
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    let csv_words: Vec<Vec<&str>> = readable.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(words, csv_words);
}

/// The `<query>:1:col: error:` diagnostic, its line and a caret under
/// `at` (the text the column points at); exit status 2.
fn assert_query_error(body: &str, at: &str, message: &str) {
    let ex = example("kanada_deps.f");
    let out = kaiseki(["query", path_str(&ex), body]);
    assert_eq!(out.code, Some(2), "{body}: {out:?}");
    assert!(!out.stderr.contains("panicked"), "{out:?}");
    assert!(out.stderr.contains(message), "{body}: {}", out.stderr);
    let col = assert_located(&out.stderr, "<query>", 1, body);
    assert!(
        body[col - 1..].starts_with(at),
        "column {col} of {body:?} is at {at:?}:\n{}",
        out.stderr
    );
}

#[test]
fn a_wrong_query_is_located_with_a_caret_and_exits_2() {
    assert_query_error(r#"flow(D, U, _), deff(D, _, "X")"#, "deff", "deff");
    assert_query_error("flow(D, U)", "flow", "3 columns but 2 arguments");
    assert_query_error("def(D, _, _), !use(R, _, _)", "R", "R");
    assert_query_error("flow(D, U", "", "");
}

#[test]
fn query_shows_loops_statements_and_forms_and_writes_json() {
    let ex = example("ishida_fig1.f");
    let text = std::fs::read_to_string(&ex).expect("example");
    // Every loop as DO VAR@line, the line holding that DO.
    let loops = kaiseki_ok([
        "query",
        path_str(&ex),
        "loop(L, _, _, V, Line, _)",
        "--format",
        "csv",
    ]);
    let lines: Vec<&str> = text.lines().collect();
    let mut seen = 0;
    for row in csv_rows(&loops) {
        assert_eq!(row[0], format!("DO {}@{}", row[1], row[2]), "{loops}");
        let line: usize = row[2].parse().expect("a line");
        assert!(lines[line - 1].to_uppercase().contains("DO"), "{loops}");
        seen += 1;
    }
    assert!(seen > 0, "{loops}");
    // A subscript's form is its text; the JSON is keyed by the variables.
    let json = kaiseki_ok([
        "query",
        path_str(&ex),
        "subscript(R, 1, F)",
        "--format",
        "json",
    ]);
    assert!(json.trim_start().starts_with('['), "{json}");
    assert!(
        json.contains("\"R\": \"") && json.contains("\"F\": \""),
        "{json}"
    );
    let raw = kaiseki_ok([
        "query",
        path_str(&ex),
        "subscript(R, 1, F)",
        "--format",
        "json",
        "--raw",
    ]);
    assert!(
        raw.contains("\"F\": ") && !raw.contains("\"F\": \""),
        "{raw}"
    );
    // Statements as line:col.
    let stmts = kaiseki_ok([
        "query",
        path_str(&ex),
        "stmt(S, _, L, C, \"do\")",
        "--format",
        "csv",
    ]);
    for row in csv_rows(&stmts) {
        assert_eq!(row[0], format!("{}:{}", row[1], row[2]), "{stmts}");
    }
}

#[test]
fn deps_gives_the_same_output_on_any_number_of_threads() {
    // Many units: every example, a generated program, and a file whose
    // first unit has a syntax error (diagnostics and exit code must match too).
    let dir = scratch_dir("cli_jobs");
    let generated = dir.join("mixed.f");
    std::fs::write(&generated, kaiseki_ok(["synth", "mixed", "--size", "300"])).expect("write");
    let broken = dir.join("broken.f");
    std::fs::write(&broken, BROKEN_THEN_GOOD).expect("write");
    let mut inputs = example_files();
    inputs.extend([generated, broken]);
    for extra in [&["--format", "csv"][..], &["--all"], &["--dot"]] {
        let run = |jobs: &str| {
            let mut args: Vec<&OsStr> = vec![OsStr::new("deps")];
            args.extend(inputs.iter().map(|p| p.as_os_str()));
            args.extend(extra.iter().map(OsStr::new));
            args.extend([OsStr::new("--jobs"), OsStr::new(jobs)]);
            kaiseki(args)
        };
        let one = run("1");
        assert_bad_input(&one, "deps");
        assert!(one.stdout.lines().count() > 100, "{}", one.stdout);
        for jobs in ["2", "3", "8"] {
            let many = run(jobs);
            assert_eq!(many.code, one.code, "--jobs {jobs} {extra:?}");
            assert_eq!(many.stderr, one.stderr, "--jobs {jobs} {extra:?}");
            assert!(
                many.stdout == one.stdout,
                "--jobs {jobs} {extra:?}: output differs"
            );
        }
    }
}

const PREPROCESSED: &str = "program p
#include \"n.h\"
  integer i
  real a(N), b(N)
#ifdef SHIFT
  do i = 2, N
    a(i) = b(i) * SCALE + a(i - SHIFT)
  end do
#else
  do i = 1, N
    a(i) = b(i)
  end do
#endif
  include 'tail.inc'
end program
";

#[test]
fn preprocessed_files_take_d_u_and_i_and_keep_the_lines_written() {
    let dir = scratch_dir("cli_preprocessed");
    let main = dir.join("main.F90");
    std::fs::write(&main, PREPROCESSED).expect("write");
    std::fs::create_dir_all(dir.join("inc")).expect("mkdir");
    std::fs::write(dir.join("inc/n.h"), "#define N 100\n#define SCALE 2.5\n").expect("write");
    std::fs::write(dir.join("inc/tail.inc"), "  b(1) = a(2)\n").expect("write");
    let (main_s, inc) = (path_str(&main), dir.join("inc"));
    let inc_s = path_str(&inc);
    let deps_of_a = |extra: &[&str]| -> Vec<(u32, u32, u32, u32, u32)> {
        let mut args = vec!["deps", main_s, "--format", "csv", "-I", inc_s];
        args.extend(extra);
        let deps = parse_deps_csv(&kaiseki_ok(&args));
        deps.iter()
            .filter(|d| d.var == "A" && d.kind == "flow" && d.carrier != 0)
            .map(|d| (d.src.0, d.src.1, d.dst.0, d.dst.1, d.carrier))
            .collect()
    };
    // The flow from a(i) to a(i - SHIFT), carried by the DO on line 6; the
    // sink stands after the expanded SCALE, at its written column.
    let sink = PREPROCESSED.lines().nth(6).unwrap().rfind("a(").unwrap() as u32 + 1;
    assert_eq!(deps_of_a(&["-D", "SHIFT=1"]), [(7, 5, 7, sink, 6)]);
    assert_eq!(deps_of_a(&["-DSHIFT=1"]), [(7, 5, 7, sink, 6)]);
    // -U after -D undefines it: the #else loop has no carried dependence.
    assert_eq!(deps_of_a(&["-D", "SHIFT=1", "-U", "SHIFT"]), []);
    assert_eq!(deps_of_a(&["-U", "SHIFT", "-D", "SHIFT=1"]).len(), 1);

    // Both the #include and the INCLUDE are found only through -I.
    let out = kaiseki(["check", main_s, "-I", inc_s]);
    assert_eq!(out.code, Some(0), "{out:?}");
    let out = kaiseki(["check", main_s]);
    assert_bad_input(&out, "no -I");
    assert_eq!(out.stderr.matches("error:").count(), 1, "{}", out.stderr);
    let col = assert_located(&out.stderr, main_s, 2, "#include \"n.h\"");
    assert_eq!(col, 10);
    assert!(
        out.stderr.contains(&format!(
            "cannot find #include file 'n.h' (searched: {})",
            dir.display()
        )),
        "{}",
        out.stderr
    );
}

#[test]
fn a_missing_include_names_the_paths_searched() {
    let dir = scratch_dir("cli_missing_include");
    let main = dir.join("main.f");
    std::fs::write(
        &main,
        "      PROGRAM P\n      INCLUDE 'defs.h'\n      END\n",
    )
    .expect("write");
    let out = kaiseki([
        "facts",
        path_str(&main),
        "-o",
        path_str(&dir.join("out")),
        "-I",
        "a",
        "-I",
        "b",
    ]);
    assert_bad_input(&out, "missing INCLUDE file");
    assert_located(&out.stderr, path_str(&main), 2, "      INCLUDE 'defs.h'");
    assert!(
        out.stderr.contains(&format!(
            "cannot find INCLUDE file 'defs.h' (searched: {}, a, b)",
            dir.display()
        )),
        "{}",
        out.stderr
    );
}

#[test]
fn malformed_macro_names_are_usage_errors() {
    let ex = example("kanada_deps.f");
    for args in [["-D", "1X"], ["-D", "=1"], ["-U", "X=1"], ["-D", "X-Y"]] {
        let out = kaiseki(["check", path_str(&ex), args[0], args[1]]);
        assert_eq!(out.code, Some(2), "{args:?}: {out:?}");
    }
    let out = kaiseki(["check", path_str(&ex), "-D", "F(A)=A", "-D", "X_1"]);
    assert_eq!(out.code, Some(0), "{out:?}");
}

#[test]
fn without_cpp_a_preprocessed_file_is_one_clear_error() {
    let dir = scratch_dir("cli_no_cpp");
    let main = dir.join("main.F");
    std::fs::write(&main, "      PROGRAM P\n      END\n").expect("write");
    let plain = dir.join("plain.f");
    std::fs::write(&plain, "      PROGRAM Q\n      END\n").expect("write");
    // An empty PATH: no `cpp` to run.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kaiseki"))
        .args(["check", path_str(&main), path_str(&plain)])
        .env("PATH", "")
        .output()
        .expect("the kaiseki binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.matches("error:").count(), 1, "{stderr}");
    assert!(
        stderr.contains(&format!(
            "{}: error: cannot preprocess: the C preprocessor `cpp` (part of gcc) is not installed",
            main.display()
        )),
        "{stderr}"
    );
    // The other file is still analyzed.
    assert!(stderr.contains("2 file(s), 1 unit(s)"), "{stderr}");
}

/// Three loops: I's index used in subscripts, in a body assignment and
/// after the loop; J's index assigned in its body (valid for the
/// analyses); a second loop on I.
const LOOP_VARS: &str = "      PROGRAM LOOPV
      INTEGER I, J, K, N
      REAL A(100)
      N = 99
      K = 0
      DO 10 I = 1, N
        A(I) = A(I+1) + K
        K = I
   10 CONTINUE
      PRINT *, I, K
      DO 20 J = 1, N
        J = J + 1
        A(J) = 0.0
   20 CONTINUE
      DO 30 I = 1, N, 2
   30 A(I) = 1.0
      END
";

/// A row of a DO loop's own bookkeeping in [`LOOP_VARS`]: between the
/// index references at one DO statement (definition, increment) and the
/// uses of its index in its body, any two of them: every use (`K = I`
/// too) in a body that does not assign the index, only those in
/// subscripts in one that does (the J loop's `J = J + 1`). Written out by
/// hand: the positions of each DO variable and of its uses.
fn bookkeeping(r: &common::Dep) -> bool {
    type Place = (u32, u32);
    let loops: &[(&str, Place, &[Place])] = &[
        ("I", (6, 13), &[(7, 11), (7, 18), (8, 13)]),
        ("J", (11, 13), &[(13, 11)]),
        ("I", (15, 13), &[(16, 9)]),
    ];
    loops.iter().any(|&(var, at_do, uses)| {
        let own = |end: (u32, u32)| end == at_do || uses.contains(&end);
        r.var == var && own(r.src) && own(r.dst)
    })
}

#[test]
fn deps_leaves_out_the_loops_own_index_rows_unless_asked() {
    let dir = scratch_dir("cli_loop_vars");
    let file = dir.join("loopv.f");
    std::fs::write(&file, LOOP_VARS).expect("write");
    let f = path_str(&file);
    let has = |rows: &[common::Dep], kind: &str, var: &str, src, dst| {
        rows.iter()
            .any(|r| r.kind == kind && r.var == var && r.src == src && r.dst == dst)
    };
    for all in [&[][..], &["--all"]] {
        let run = |extra: &[&str]| {
            let mut args = vec!["deps", f, "--format", "csv"];
            args.extend(all.iter().chain(extra));
            parse_deps_csv(&kaiseki_ok(args))
        };
        let (shown, every) = (run(&[]), run(&["--loop-vars"]));
        let kept: Vec<_> = every.iter().filter(|r| !bookkeeping(r)).cloned().collect();
        assert_eq!(shown, kept, "{all:?}: every row but the bookkeeping");
        let hidden = every.len() - shown.len();
        assert!(hidden >= 10, "{all:?}: {hidden} rows left out");
        // The bookkeeping rows of each loop are there with --loop-vars
        // only. (In the J loop, J = J + 1 kills the DO's definition: no
        // flow from it to A(J), nor output to the increment.)
        let own = [
            ("flow", "I", (6, 13), (7, 11)),
            ("flow", "I", (6, 13), (7, 18)),
            ("anti", "I", (7, 11), (6, 13)),
            ("output", "I", (6, 13), (6, 13)),
            ("anti", "I", (6, 13), (6, 13)),
            ("anti", "J", (13, 11), (11, 13)),
            ("anti", "J", (11, 13), (11, 13)),
            ("flow", "I", (15, 13), (16, 9)),
            ("anti", "I", (16, 9), (15, 13)),
            ("output", "I", (15, 13), (15, 13)),
            // Uses outside subscripts in a body that does not assign
            // the index, and the reads of the index among themselves.
            ("flow", "I", (6, 13), (8, 13)),
            ("anti", "I", (8, 13), (6, 13)),
            ("input", "I", (7, 11), (8, 13)),
            ("input", "I", (7, 18), (7, 11)),
        ];
        for (kind, var, src, dst) in own {
            let row = format!("{all:?}: {kind} {var} {src:?} -> {dst:?}");
            assert!(has(&every, kind, var, src, dst), "{row} with --loop-vars");
            assert!(!has(&shown, kind, var, src, dst), "{row} left out");
        }
        // Real dependences on the index stay: its use after the loop, the
        // body assignment of J (and its use there), the rows between the
        // two loops on I.
        let real = [
            ("flow", "I", (6, 13), (10, 16)),
            ("output", "J", (12, 9), (11, 13)),
            ("output", "J", (11, 13), (12, 9)),
            ("flow", "J", (11, 13), (12, 13)),
            ("flow", "J", (12, 9), (13, 11)),
            ("output", "I", (6, 13), (15, 13)),
            ("anti", "I", (10, 16), (15, 13)),
        ];
        for (kind, var, src, dst) in real {
            assert!(
                has(&shown, kind, var, src, dst),
                "{all:?}: {kind} {var} {src:?} -> {dst:?} shown"
            );
        }
    }
    // The table and the picture leave out the same rows.
    for extra in [&[][..], &["--loop-vars"]] {
        let csv = kaiseki_ok([&["deps", f, "--format", "csv"][..], extra].concat());
        let table = kaiseki_ok([&["deps", f][..], extra].concat());
        assert_eq!(table.lines().count(), csv.lines().count(), "{extra:?}");
        let dot = kaiseki_ok([&["deps", f, "--dot"][..], extra].concat());
        let edge = "\"LOOPV:6:13\" -> \"LOOPV:7:11\"";
        assert_eq!(dot.contains(edge), !extra.is_empty(), "{extra:?}:\n{dot}");
        assert_eq!(dot.matches(" -> ").count(), csv.lines().count() - 1);
    }
}

#[test]
fn rules_without_loop_index_need_loop_vars() {
    let dir = scratch_dir("cli_rules_no_loop_index");
    let rules = dir.join("rules");
    std::fs::create_dir_all(&rules).expect("mkdir");
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/dl");
    for entry in std::fs::read_dir(&shipped).expect("rules/dl") {
        let path = entry.expect("entry").path();
        let name = path.file_name().expect("name").to_owned();
        if path.extension().is_some_and(|e| e == "dl") && name != "loop_index.dl" {
            std::fs::copy(&path, rules.join(name)).expect("copy");
        }
    }
    let file = dir.join("loopv.f");
    std::fs::write(&file, LOOP_VARS).expect("write");
    let (f, r) = (path_str(&file), path_str(&rules));
    let out = kaiseki(["deps", f, "--rules", r]);
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(out.stdout.is_empty(), "{}", out.stdout);
    for needed in ["loop_index_dependence", "loop_index.dl", "--loop-vars", r] {
        assert!(out.stderr.contains(needed), "{needed}: {}", out.stderr);
    }
    // With --loop-vars the relation is not read: every row, as built in.
    assert_eq!(
        kaiseki_ok(["deps", f, "--rules", r, "--loop-vars", "--format", "csv"]),
        kaiseki_ok(["deps", f, "--loop-vars", "--format", "csv"])
    );
}

#[test]
fn rules_directory_without_rule_files_is_a_usage_error() {
    let ex = example("kanada_deps.f");
    let ex = path_str(&ex);
    let empty = scratch_dir("cli_rules_empty");
    std::fs::write(empty.join("notes.txt"), "no rules here").expect("write");
    let missing = empty.join("missing");
    let out_dir = scratch_dir("cli_rules_empty_out");
    for dir in [&empty, &missing] {
        let dir = path_str(dir);
        for args in [
            vec!["deps", ex, "--rules", dir],
            vec!["analyze", ex, "-o", path_str(&out_dir), "--rules", dir],
            vec!["query", ex, "flow(D, U, _)", "--rules", dir],
        ] {
            let out = kaiseki(&args);
            assert_eq!(out.code, Some(2), "{args:?}: {out:?}");
            assert!(out.stderr.contains(dir), "{args:?}: {}", out.stderr);
            assert!(out.stderr.contains("--help"), "{args:?}: {}", out.stderr);
            assert!(out.stdout.is_empty(), "{args:?}: {}", out.stdout);
        }
    }
    let out = kaiseki(["deps", ex, "--rules", path_str(&empty)]);
    assert!(out.stderr.contains("no .dl file"), "{}", out.stderr);
    assert!(files(&out_dir).is_empty(), "nothing written");
}

/// Every example, a generated program of several groups of units, and a
/// file whose first unit has a syntax error.
fn many_units(name: &str) -> Vec<PathBuf> {
    let dir = scratch_dir(name);
    let generated = dir.join("mixed.f");
    std::fs::write(&generated, kaiseki_ok(["synth", "mixed", "--size", "300"])).expect("write");
    let broken = dir.join("broken.f");
    std::fs::write(&broken, BROKEN_THEN_GOOD).expect("write");
    let mut inputs = example_files();
    inputs.extend([generated, broken]);
    inputs
}

#[test]
fn analyze_gives_the_same_files_on_any_number_of_threads() {
    let inputs = many_units("cli_analyze_jobs");
    let run = |jobs: &str| {
        let out_dir = scratch_dir(&format!("cli_analyze_jobs_{jobs}"));
        let mut args: Vec<&OsStr> = vec![OsStr::new("analyze")];
        args.extend(inputs.iter().map(|p| p.as_os_str()));
        args.extend(["-o", path_str(&out_dir), "--jobs", jobs].map(OsStr::new));
        let out = kaiseki(args);
        (out, files(&out_dir))
    };
    let (one, one_files) = run("1");
    assert_bad_input(&one, "analyze");
    assert!(one_files["dependence.csv"].lines().count() > 100);
    for jobs in ["2", "3", "8"] {
        let (many, many_files) = run(jobs);
        assert_eq!(many.code, one.code, "--jobs {jobs}");
        assert_eq!(many.stderr, one.stderr, "--jobs {jobs}");
        assert_eq!(
            many.stdout
                .replace(&format!("cli_analyze_jobs_{jobs}"), "X"),
            one.stdout.replace("cli_analyze_jobs_1", "X"),
            "--jobs {jobs}"
        );
        assert!(many_files == one_files, "--jobs {jobs}: files differ");
    }
}

/// The rows of a CSV text after its header, split at commas (no field of
/// the files read here is quoted).
fn csv_rows(text: &str) -> Vec<Vec<&str>> {
    text.lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect()
}

/// A dependence placed in the source: (kind, source, sink).
type Placed = (String, (u32, u32), (u32, u32));

#[test]
fn analyze_numbers_references_as_facts_does() {
    // Several groups of units: the ids of `analyze` must still be those of
    // `kaiseki facts`, so the dependences it writes, placed with the
    // facts' `ref_pos`, are the rows of `deps`.
    let dir = scratch_dir("cli_analyze_ids");
    let file = dir.join("mixed.f");
    std::fs::write(&file, kaiseki_ok(["synth", "mixed", "--size", "600"])).expect("write");
    let f = path_str(&file);
    let (facts_dir, out_dir) = (dir.join("facts"), dir.join("out"));
    kaiseki_ok(["facts", f, "-o", path_str(&facts_dir), "--format", "csv"]);
    kaiseki_ok([
        "analyze",
        f,
        "-o",
        path_str(&out_dir),
        "--jobs",
        "3",
        "--raw",
    ]);
    let (facts, out) = (files(&facts_dir), files(&out_dir));
    let pos: BTreeMap<&str, (u32, u32)> = csv_rows(&facts["ref_pos.csv"])
        .into_iter()
        .map(|r| {
            (
                r[0],
                (r[1].parse().expect("line"), r[2].parse().expect("col")),
            )
        })
        .collect();
    let placed = |name: &str| -> BTreeSet<Placed> {
        csv_rows(&out[name])
            .into_iter()
            .map(|r| (r[0].to_string(), pos[r[1]], pos[r[2]]))
            .collect()
    };
    let independent: BTreeSet<_> = placed("array_tested.csv")
        .difference(&placed("array_dependence.csv"))
        .cloned()
        .collect();
    let dependences: BTreeSet<_> = placed("dependence.csv")
        .difference(&independent)
        .cloned()
        .collect();
    let rows = parse_deps_csv(&kaiseki_ok(["deps", f, "--format", "csv", "--loop-vars"]));
    let shown: BTreeSet<_> = rows.into_iter().map(|r| (r.kind, r.src, r.dst)).collect();
    assert!(shown.len() > 1000, "{}", shown.len());
    assert_eq!(dependences, shown);

    // Without --raw, the same rows with each reference shown as its
    // variable and place, in the same order.
    let var: BTreeMap<&str, &str> = ["def.csv", "use.csv"]
        .iter()
        .flat_map(|name| csv_rows(&facts[*name]))
        .map(|r| (r[0], r[2]))
        .collect();
    let readable_dir = dir.join("readable");
    kaiseki_ok(["analyze", f, "-o", path_str(&readable_dir), "--jobs", "3"]);
    let readable = files(&readable_dir);
    let shown_ref = |id: &str| {
        let (line, col) = pos[id];
        format!("{}@{line}:{col}", var[id])
    };
    let expected: Vec<Vec<String>> = csv_rows(&out["dependence.csv"])
        .into_iter()
        .map(|r| {
            vec![
                r[0].to_string(),
                shown_ref(r[1]),
                shown_ref(r[2]),
                r[3].to_string(),
                r[4].to_string(),
            ]
        })
        .collect();
    let got: Vec<Vec<String>> = csv_rows(&readable["dependence.csv"])
        .into_iter()
        .map(|r| r.iter().map(|s| s.to_string()).collect())
        .collect();
    assert_eq!(got.len(), expected.len());
    // The carrier is a loop: `DO I@5`, or 0 for none.
    for (g, e) in got.iter().zip(&expected) {
        assert_eq!(g[..3], e[..3]);
        assert!(g[3] == "0" || g[3].starts_with("DO "), "{g:?}");
        assert_eq!(g[4], e[4]);
    }
}

/// A main program and the subroutines it calls, each unit its own group.
const CALLS: &str = "      PROGRAM MAIN
      REAL X(10)
      CALL INIT(X, 10)
      CALL SCALE(X, 10)
      PRINT *, X(1)
      END
      SUBROUTINE INIT(A, N)
      REAL A(N)
      DO 10 I = 1, N
   10 A(I) = I
      END
      SUBROUTINE SCALE(A, N)
      REAL A(N)
      DO 10 I = 1, N
   10 A(I) = 2 * A(I)
      END
";

#[test]
fn query_joins_across_units_on_any_number_of_threads() {
    let dir = scratch_dir("cli_query_jobs");
    let file = dir.join("calls.f");
    std::fs::write(&file, CALLS).expect("write");
    // A call's actual argument reaches a use; its callee is another unit.
    let body = r#"dependence("flow", D, U, _, _), def(D, S, V), call(S, C), unit(C, K, _, _)"#;
    let run = |jobs: &str| {
        kaiseki_ok([
            "query",
            path_str(&file),
            body,
            "--format",
            "csv",
            "--jobs",
            jobs,
        ])
    };
    let one = run("1");
    let callees: BTreeSet<&str> = csv_rows(&one).iter().map(|r| r[4]).collect();
    assert_eq!(callees, BTreeSet::from(["INIT", "SCALE"]), "{one}");
    assert!(
        csv_rows(&one)
            .iter()
            .all(|r| r[3] == "X" && r[5] == "subroutine"),
        "{one}"
    );
    for jobs in ["2", "3", "8"] {
        assert_eq!(run(jobs), one, "--jobs {jobs}");
    }
}

/// Relations computed on request (parallelization, regions) answer queries
/// as `analyze` computes them.
#[test]
fn queries_read_relations_computed_on_request() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parallel/privatization.f");
    let path = path.to_str().expect("utf-8 path");
    let out = kaiseki_ok(["query", path, "work_array(L, A)", "--format", "csv"]);
    assert_eq!(out, "L,A\nDO J@15,T\n");
    let out = kaiseki_ok(["query", path, "parallel(L, V)", "--format", "csv"]);
    assert!(out.contains("DO K@33,parallel-with-transforms"), "{out}");
    let out = kaiseki_ok(["query", path, "region_live(L, V)", "--format", "csv"]);
    assert!(out.contains("DO J@24,"), "{out}");
}

/// `deps --by-loop`: per loop, what it carries, grouped by variable and
/// kind, the largest groups first, with their distances in that loop.
#[test]
fn deps_by_loop_groups_the_carried_dependences() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parallel/bounds.f90");
    let csv = kaiseki_ok([
        "deps".as_ref(),
        path.as_os_str(),
        "--by-loop".as_ref(),
        "--format".as_ref(),
        "csv".as_ref(),
    ]);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "unit,loop_line,var,kind,rows,distances");
    assert!(lines.contains(&"BOUNDS,25,X,flow,1,1"), "{csv}");
    assert!(lines.contains(&"BOUNDS,17,A,flow,2,*"), "{csv}");
    // The loop over J at line 14 carries nothing on X (X(J) = X(J) + C).
    assert!(
        !lines.iter().any(|l| l.starts_with("BOUNDS,14,X,")),
        "{csv}"
    );
    // Loop 17's groups: the largest first.
    let rows: Vec<usize> = lines
        .iter()
        .filter(|l| l.starts_with("BOUNDS,17,"))
        .map(|l| l.rsplit(',').nth(1).expect("rows").parse().expect("count"))
        .collect();
    assert!(rows.windows(2).all(|w| w[0] >= w[1]), "{csv}");
    let table = kaiseki_ok(["deps".as_ref(), path.as_os_str(), "--by-loop".as_ref()]);
    assert!(table.starts_with("unit"), "{table}");
    let refused = kaiseki([
        "deps".as_ref(),
        path.as_os_str(),
        "--by-loop".as_ref(),
        "--dot".as_ref(),
    ]);
    assert_eq!(refused.code, Some(2));
}

/// `deps --stats` says how many integer questions ran out of their budget
/// (each such dependence kept as possible): none on a small nest, and the
/// rows are those of a plain run.
#[test]
fn deps_stats_counts_the_questions_past_their_budget() {
    let dir = scratch_dir("cli_deps_stats");
    let path = dir.join("nest.f90");
    std::fs::write(
        &path,
        "PROGRAM X\nREAL A(20)\nDO I = 1, 10\n  A(I + 1) = A(I) + 1.0\nEND DO\nPRINT *, A\nEND\n",
    )
    .expect("program written");
    let out = kaiseki(["deps", path_str(&path), "--stats"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(
        out.stderr.contains(
            "integer questions past their budget of 500000 operations (answered possible): 0"
        ),
        "{}",
        out.stderr
    );
    assert_eq!(out.stdout, kaiseki_ok(["deps", path_str(&path)]));
}
