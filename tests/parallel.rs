//! `kaiseki parallel` and `kaiseki openmp` (spec 001): the verdicts of
//! the paper's example and of TSVC-style loops, and the OpenMP programs
//! run with 1, 2 and 4 threads printing what the sequential ones print.

mod common;

use common::{example, kaiseki_ok, scratch_dir};
use kaiseki_judge::gfortran;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The report's rows by loop line: (verdict, private, lastprivate,
/// reductions, inductions, blockers).
fn verdicts(path: &Path) -> BTreeMap<i64, [String; 6]> {
    let csv = kaiseki_ok([
        "parallel".as_ref(),
        path.as_os_str(),
        "--format".as_ref(),
        "csv".as_ref(),
    ]);
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("unit,loop_line,var,depth,verdict,private,lastprivate,reductions,inductions,blockers")
    );
    lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let line: i64 = f[1].parse().expect("loop_line");
            (line, std::array::from_fn(|i| f[4 + i].to_string()))
        })
        .collect()
}

fn tsvc() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parallel/tsvc.f")
}

#[test]
fn the_spec_example_gives_the_verdicts_of_expected_md() {
    let v = verdicts(&example("iwasawa_parallel.f90"));
    let row = |line: i64| {
        v.get(&line)
            .unwrap_or_else(|| panic!("no row for line {line}: {v:?}"))
    };
    assert_eq!(row(13)[0], "parallel", "the do-all");
    assert_eq!(row(17)[0], "sequential", "the carried flow on Z");
    assert_eq!(row(17)[5], "flow Z 18->18");
    assert_eq!(
        row(21)[..3],
        ["parallel-with-transforms", "T", "T"],
        "T private, live after"
    );
    assert_eq!(
        row(27)[..4],
        ["parallel-with-transforms", "", "", "+:S"],
        "conditional sum"
    );
    assert_eq!(row(34)[3], "max:XMAX");
    assert_eq!(
        row(39)[..5],
        ["parallel-with-transforms", "", "K", "", "K"],
        "K = 2*r + 2, last value"
    );
}

#[test]
fn tsvc_style_loops_get_the_verdicts_a_reader_expects() {
    let v = verdicts(&tsvc());
    let par = "parallel";
    let tr = "parallel-with-transforms";
    let seq = "sequential";
    // (loop line, verdict, private, lastprivate, reductions, inductions)
    let want: &[(i64, &str, &str, &str, &str, &str)] = &[
        (24, par, "", "", "", ""),             // s000
        (28, par, "", "", "", ""),             // s111: even writes, odd reads
        (32, seq, "", "", "", ""),             // s112
        (36, par, "", "", "", ""),             // s113
        (40, seq, "", "", "", ""),             // s121: anti
        (44, par, "", "", "", ""),             // s1112
        (48, seq, "", "", "", ""),             // s241
        (53, tr, "S", "", "", ""),             // s251
        (59, seq, "S", "", "", ""),            // s252: T carries
        (66, tr, "", "", "+:SUM1", ""),        // s311
        (70, tr, "", "", "*:PROD", ""),        // s312
        (75, tr, "", "", "max:X", ""),         // s314
        (79, tr, "", "", "min:Y", ""),         // s316
        (85, tr, "", "", "maxloc:X@IDX", ""),  // s315
        (94, tr, "", "", "+:SUM1;+:SUM2", ""), // s319
        (99, seq, "", "", "", ""),             // s321
        (104, seq, "JLAST", "", "", ""),       // s331: conditional last value
        (108, "excluded", "", "", "", ""),     // s332: jumps out
        (114, seq, "", "", "", ""),            // s341: conditional counter
        (122, tr, "", "K", "", "K"),           // induction
        (127, par, "", "", "", ""),            // s4112
        (131, seq, "", "", "", ""),            // s4113
        (138, tr, "M", "", "+:H", ""),         // histogram
        (143, par, "", "", "", ""),            // nest, outer
        (149, tr, "", "", "+:S", ""),          // reduction over a nest
        (155, "excluded", "", "", "", ""),     // a call
        (158, "excluded", "", "", "", ""),     // I/O
    ];
    for &(line, verdict, private, last, red, ind) in want {
        let row = v
            .get(&line)
            .unwrap_or_else(|| panic!("no row for line {line}"));
        assert_eq!(
            row[..5],
            [verdict, private, last, red, ind],
            "loop at line {line}: {row:?}"
        );
        let blocked = verdict == seq || verdict == "excluded";
        assert_eq!(
            !row[5].is_empty(),
            blocked,
            "blockers of line {line}: {row:?}"
        );
    }
    assert!(v[&104][5].contains("last value of JLAST"), "{:?}", v[&104]);
    assert!(v[&108][5].contains("jump out 109"), "{:?}", v[&108]);
    assert!(v[&155][5].contains("call TWICE 156"), "{:?}", v[&155]);
    assert!(v[&158][5].contains("write 159"), "{:?}", v[&158]);
}

/// Runs `exe` with `threads` OpenMP threads; its standard output.
fn run(exe: &Path, threads: usize) -> String {
    let out = Command::new(exe)
        .env("OMP_NUM_THREADS", threads.to_string())
        .output()
        .expect("the compiled program runs");
    assert!(
        out.status.success(),
        "{}: {}",
        exe.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn openmp_programs_print_what_the_sequential_ones_print() {
    for path in [example("iwasawa_parallel.f90"), tsvc()] {
        let name = path
            .file_name()
            .expect("file name")
            .to_string_lossy()
            .into_owned();
        let dir = scratch_dir(&format!("openmp_{name}"));
        let out = dir.join(format!("omp_{name}"));
        kaiseki_ok([
            "openmp".as_ref(),
            path.as_os_str(),
            "-o".as_ref(),
            out.as_os_str(),
        ]);
        let original = std::fs::read_to_string(&path).expect("source");
        let emitted = std::fs::read_to_string(&out).expect("output");
        // Only lines were added: the directives and the closed forms.
        let added: Vec<&str> = emitted
            .lines()
            .filter(|l| !original.lines().any(|o| o == *l))
            .collect();
        assert!(
            added.iter().any(|l| l.starts_with("!$OMP PARALLEL DO")),
            "{name}: no directive"
        );
        let kept: Vec<&str> = emitted.lines().filter(|l| !added.contains(l)).collect();
        assert_eq!(
            kept,
            original.lines().collect::<Vec<_>>(),
            "{name}: a line changed"
        );
        let seq = gfortran::compile(&dir, &name, &original).expect("sequential build");
        let omp = gfortran::compile_with(&dir, &format!("omp_{name}"), &emitted, &["-fopenmp"])
            .expect("OpenMP build");
        let want = run(&seq, 1);
        for threads in [1, 2, 4] {
            assert_eq!(run(&omp, threads), want, "{name} with {threads} threads");
        }
    }
}
