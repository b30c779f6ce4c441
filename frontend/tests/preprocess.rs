//! Preprocessed sources and include paths, as gfortran reads them: `.F`
//! files through cpp with `-D`, `-U` and `-I`, every fact and diagnostic at
//! the line and column the user wrote (also in `#include`d files); Fortran
//! INCLUDE searched in the including file's directory, then the `-I`
//! directories; `.f` files not preprocessed.

use kaiseki_facts::FactBase;
use kaiseki_frontend::ast::{Pos, Program};
use kaiseki_frontend::{lower, parse_files, parse_source, Diagnostic, MacroArg, SourceOptions};
use std::path::{Path, PathBuf};

/// A fresh directory holding `files` (path, text).
fn tree(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).unwrap();
    }
    for (path, text) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

fn parse(path: &Path, opts: &SourceOptions) -> (Program, Vec<Diagnostic>) {
    parse_files(&[path], opts)
}

fn shown(diags: &[Diagnostic]) -> String {
    diags.iter().map(|d| format!("{d}\n")).collect()
}

/// Parses and lowers; there must be no diagnostic at all.
fn clean_facts(path: &Path, opts: &SourceOptions) -> (Program, FactBase) {
    let (program, mut diags) = parse(path, opts);
    let (facts, lower_diags) = lower(&program);
    diags.extend(lower_diags);
    assert!(diags.is_empty(), "{}", shown(&diags));
    (program, facts)
}

/// (line, col) of every reference to `var`, in reference order.
fn refs_of(facts: &FactBase, var: &str) -> Vec<(i64, i64)> {
    let ids: Vec<i64> = facts
        .def
        .iter()
        .map(|d| (d.r#ref, &d.var))
        .chain(facts.r#use.iter().map(|u| (u.r#ref, &u.var)))
        .filter(|(_, v)| *v == var)
        .map(|(r, _)| r)
        .collect();
    let mut at: Vec<(i64, i64)> = facts
        .ref_pos
        .iter()
        .filter(|p| ids.contains(&p.r#ref))
        .map(|p| (p.line, p.col))
        .collect();
    at.sort();
    at
}

/// The path of the file a statement on `line` stands in (the first such).
fn file_of_line(program: &Program, line: u32) -> String {
    let pos: Pos = program.units[0]
        .body
        .iter()
        .map(|s| s.pos)
        .find(|p| p.line == line)
        .unwrap_or_else(|| panic!("a statement on line {line}"));
    program.files[pos.file].path.clone()
}

fn opts(macros: &[MacroArg], dirs: &[PathBuf]) -> SourceOptions {
    SourceOptions {
        macros: macros.to_vec(),
        include_dirs: dirs.to_vec(),
        ..SourceOptions::default()
    }
}

const MAIN_F: &str = "      PROGRAM P
#define N 10
      REAL A(N), B, C
#ifdef FAST
      A(1) = 1
      A(2) = 2
#else
      A(1) = A(2) + C
#endif
#include \"scale.h\"
      B = A(1) * SCALE + C
      END
";

#[test]
fn cpp_selects_defines_and_includes_and_lines_stay_as_written() {
    let dir = tree(
        "pp_main",
        &[("main.F", MAIN_F), ("inc/scale.h", "      C = SCALE\n")],
    );
    let inc = dir.join("inc");
    // -D FAST then -U FAST: the #else branch, as cpp applies them in order.
    let o = opts(
        &[
            MacroArg::Define("SCALE=2.5".into()),
            MacroArg::Define("FAST".into()),
            MacroArg::Undefine("FAST".into()),
        ],
        &[inc],
    );
    let (program, facts) = clean_facts(&dir.join("main.F"), &o);
    let lines: Vec<i64> = facts.stmt.iter().map(|s| s.line).collect();
    // The #else assignment keeps line 8, the one after the #include line 11;
    // `C = SCALE` is line 1 of the header.
    assert_eq!(lines, [3, 8, 1, 11, 12]);
    assert!(file_of_line(&program, 1).ends_with("scale.h"));
    assert!(file_of_line(&program, 11).ends_with("main.F"));
    // N became 10.
    assert_eq!(facts.array_dim[0].upper, "10");
    // C after the expanded SCALE keeps its column; the header's C is at 7.
    let c = MAIN_F.lines().nth(10).unwrap().rfind('C').unwrap() as i64 + 1;
    assert_eq!(refs_of(&facts, "C"), [(1, 7), (8, 21), (11, c)]);

    // -D FAST alone takes the other branch.
    let o = opts(
        &[
            MacroArg::Define("FAST".into()),
            MacroArg::Define("SCALE=2".into()),
        ],
        &[dir.join("inc")],
    );
    let (_, facts) = clean_facts(&dir.join("main.F"), &o);
    let lines: Vec<i64> = facts.stmt.iter().map(|s| s.line).collect();
    assert_eq!(lines, [3, 5, 6, 1, 11, 12]);
}

#[test]
fn include_is_searched_in_the_own_directory_then_the_i_directories_in_order() {
    let dir = tree(
        "pp_include",
        &[
            (
                "src/main.f",
                "      PROGRAM P\n      INCLUDE 'a.h'\n      INCLUDE 'b.h'\n      END\n",
            ),
            ("src/a.h", "      X = 1\n"),
            ("i1/a.h", "      WRONG = 1\n"),
            ("i1/b.h", "      Y = 2\n"),
            ("i2/b.h", "      WRONG = 2\n"),
        ],
    );
    let o = opts(&[], &[dir.join("i1"), dir.join("i2")]);
    let (program, facts) = clean_facts(&dir.join("src/main.f"), &o);
    let defs: Vec<&str> = facts.def.iter().map(|d| d.var.as_str()).collect();
    assert_eq!(defs, ["X", "Y"]);
    let paths: Vec<&str> = program.files.iter().map(|f| f.path.as_str()).collect();
    assert!(
        paths[1].ends_with("src/a.h") && paths[2].ends_with("i1/b.h"),
        "{paths:?}"
    );
}

#[test]
fn a_missing_include_is_one_error_naming_the_paths_searched() {
    let dir = tree(
        "pp_missing",
        &[(
            "main.f",
            "      PROGRAM P\n      INCLUDE 'nope.h'\n      END\n",
        )],
    );
    let (i1, i2) = (dir.join("i1"), dir.join("i2"));
    let (_, diags) = parse(&dir.join("main.f"), &opts(&[], &[i1.clone(), i2.clone()]));
    assert_eq!(diags.len(), 1, "{}", shown(&diags));
    let d = &diags[0];
    assert!(d.is_error());
    assert_eq!((d.line, d.col), (2, 7));
    assert_eq!(
        d.message,
        format!(
            "cannot find INCLUDE file 'nope.h' (searched: {}, {}, {})",
            dir.display(),
            i1.display(),
            i2.display()
        )
    );
}

#[test]
fn a_missing_hash_include_is_one_error_at_the_directive() {
    let dir = tree(
        "pp_missing_hash",
        &[(
            "main.F",
            "      PROGRAM P\n#include \"nope.h\"\n      X = 1\n      END\n",
        )],
    );
    let inc = dir.join("inc");
    let (program, diags) = parse(&dir.join("main.F"), &opts(&[], std::slice::from_ref(&inc)));
    assert_eq!(diags.len(), 1, "{}", shown(&diags));
    let d = &diags[0];
    assert!(d.is_error());
    assert_eq!((d.line, d.col), (2, 10));
    assert_eq!(d.source_line.as_deref(), Some("#include \"nope.h\""));
    assert_eq!(
        d.message,
        format!(
            "cannot find #include file 'nope.h' (searched: {}, {})",
            dir.display(),
            inc.display()
        )
    );
    // A file cpp could not read through is not analyzed.
    assert!(program.units.is_empty());
}

#[test]
fn an_unterminated_if_is_one_error_at_its_directive() {
    let src = "      PROGRAM P\n#if defined(A) && B > 2\n      X = 1\n      END\n";
    let (_, diags) = parse_source("t.F90", src);
    assert_eq!(diags.len(), 1, "{}", shown(&diags));
    assert!(diags[0].is_error());
    assert_eq!(diags[0].path, "t.F90");
    assert_eq!((diags[0].line, diags[0].col), (2, 1));
    assert!(
        diags[0].message.contains("unterminated #if"),
        "{}",
        diags[0]
    );
}

#[test]
fn in_memory_text_is_preprocessed_by_its_extension() {
    let src = "#define TWICE(X) (2*(X))\nprogram p\n#if N > 2\ny = TWICE(z)\n#endif\nend\n";
    let (program, diags) = parse_source("t.F90", src);
    assert!(diags.is_empty(), "{}", shown(&diags));
    // N is not defined: 0 > 2 is false.
    assert_eq!(program.units[0].body.len(), 0);
    let (program, _) = parse_source("t.f90", "program p\ny = 1\nend\n");
    assert_eq!(program.units[0].body.len(), 1);
}

#[test]
fn f_files_are_not_preprocessed_their_directives_are_ignored_with_a_warning() {
    // As gfortran: each `#` line is left out with a warning, both branches
    // stay, N is a name.
    let src = "      PROGRAM P\n#define N 10\n#ifdef A\n      X = N\n#else\n      Y = 2\n#endif\n      END\n";
    let (program, diags) = parse_source("t.f", src);
    let at: Vec<(u32, u32, bool)> = diags
        .iter()
        .map(|d| (d.line, d.col, d.is_error()))
        .collect();
    assert_eq!(
        at,
        [(2, 1, false), (3, 1, false), (5, 1, false), (7, 1, false)],
        "{}",
        shown(&diags)
    );
    assert!(diags[0].message.contains("only .F, .FOR"), "{}", diags[0]);
    assert_eq!(program.units[0].body.len(), 2);
    let (facts, _) = lower(&program);
    let used: Vec<&str> = facts.r#use.iter().map(|u| u.var.as_str()).collect();
    assert_eq!(used, ["N"]);
}

#[test]
fn line_markers_of_another_preprocessor_are_followed_in_any_file() {
    let src = "      PROGRAM P\n# 40 \"orig.F\"\n      X = (1 +\n# 7\n      END\n";
    let (program, diags) = parse_source("gen.f", src);
    assert_eq!(diags.len(), 1, "{}", shown(&diags));
    assert_eq!((diags[0].path.as_str(), diags[0].line), ("orig.F", 40));
    assert_eq!(program.units[0].end.line, 7);
}

/// `-ffree-form` reads a `.F` file in free form, `-cpp` preprocesses a
/// `.f90` file (their build's flags: miniGhost's, TeaLeaf's).
#[test]
fn forced_form_and_cpp() {
    let dir = std::env::temp_dir().join(format!("kaiseki_forced_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let free_f = dir.join("free.F");
    std::fs::write(
        &free_f,
        "program p\n  x = 1 + &\n      2\n  print *, x\nend program p\n",
    )
    .unwrap();
    let (_, d) = parse_files(&[&free_f], &SourceOptions::default());
    assert!(
        d.iter().any(|x| x.is_error()),
        "fixed form by default: {d:?}"
    );
    let free = SourceOptions {
        form: Some(kaiseki_frontend::Form::Free),
        ..SourceOptions::default()
    };
    let (_, d) = parse_files(&[&free_f], &free);
    assert!(d.is_empty(), "{d:?}");
    let cpp_f90 = dir.join("cpp.f90");
    std::fs::write(
        &cpp_f90,
        "program p\n#ifdef NEVER\n  call nothing(\n#endif\n  x = 1\nend program p\n",
    )
    .unwrap();
    let cpp = SourceOptions {
        cpp: true,
        ..SourceOptions::default()
    };
    let (_, d) = parse_files(&[&cpp_f90], &cpp);
    assert!(d.is_empty(), "{d:?}");
}
