//! `kaiseki parallel` and `kaiseki openmp` (spec 001): the verdicts of
//! the paper's example and of TSVC-style loops, and the OpenMP programs
//! run with 1, 2 and 4 threads printing what the sequential ones print.

mod common;

use common::{example, kaiseki_ok, scratch_dir};
use kaiseki_judge::gen::parallel_loops;
use kaiseki_judge::gfortran;
use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::process::Stdio;

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
        Some("unit,loop_line,var,depth,verdict,private,lastprivate,reductions,inductions,blockers,transform")
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
        (155, par, "", "", "", ""),            // a call of a contained procedure
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
    assert!(v[&158][5].contains("write 159"), "{:?}", v[&158]);
}

#[test]
fn loops_the_judge_found_wrongly_called_parallel_are_not() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parallel/regressions.f");
    let v = verdicts(&path);
    let row = |line: i64| {
        v.get(&line)
            .unwrap_or_else(|| panic!("no row for line {line}: {v:?}"))
    };
    // (verdict, private, lastprivate, reductions, inductions)
    assert_eq!(row(14)[0], "sequential", "maxloc by .GE.: {:?}", row(14));
    assert!(row(14)[5].contains("IDX"), "{:?}", row(14));
    assert_eq!(row(21)[..4], ["parallel-with-transforms", "", "", "max:X"]);
    assert_eq!(
        row(27)[..5],
        ["parallel-with-transforms", "J", "J", "", ""],
        "the inner DO variable's last value"
    );
    assert_eq!(
        row(34)[..5],
        ["parallel-with-transforms", "", "", "+:M", ""],
        "a counter"
    );
}

#[test]
fn regions_make_work_arrays_and_last_values_private() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parallel/privatization.f");
    let v = verdicts(&path);
    let want = ["parallel-with-transforms", "T", "", "", ""];
    assert_eq!(v[&15][..5], want, "a work array: {:?}", v[&15]);
    // Read after the loop, but rewritten whole by every iteration: each
    // iteration's copy starts from W (FIRSTPRIVATE), the last is copied out.
    let want = ["parallel-with-transforms", "W", "W", "", ""];
    assert_eq!(v[&24][..5], want, "read after the loop: {:?}", v[&24]);
    let want = ["parallel-with-transforms", "", "K", "", ""];
    assert_eq!(
        v[&33][..5],
        want,
        "the DO variable's last value: {:?}",
        v[&33]
    );
    let want = ["parallel-with-transforms", "IMIN", "", "min:XMIN", ""];
    assert_eq!(v[&38][..5], want, "a location never read: {:?}", v[&38]);
}

#[test]
fn calls_that_surely_write_an_array_and_arrays_rewritten_whole_make_work_arrays() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parallel/work_arrays.f90");
    let v = verdicts(&path);
    let row = |line: i64| v[&line][..5].to_vec();
    // The call writes TEMP(1:5) on every run.
    for line in [54, 55] {
        assert_eq!(
            row(line)[..2],
            ["parallel-with-transforms", "TEMP"],
            "{line}: {:?}",
            v[&line]
        );
    }
    // FACE(1:5, IX) by the call given FACE(1, IX), for IX = 1 and 2.
    assert_eq!(
        row(64)[..2],
        ["parallel-with-transforms", "FACE"],
        "{:?}",
        v[&64]
    );
    // A callee that writes its dummy under an IF: TEMP stays exposed.
    for line in [74, 75] {
        assert_eq!(v[&line][0], "sequential", "{line}: {:?}", v[&line]);
        assert!(v[&line][5].contains("flow TEMP"), "{line}: {:?}", v[&line]);
    }
    // The module's W, rewritten whole: copied in and out.
    assert_eq!(
        row(84)[..3],
        ["parallel-with-transforms", "W", "W"],
        "{:?}",
        v[&84]
    );
    // V(1:K) moves with K; PEEK reads W by its name.
    for line in [93, 100] {
        assert_eq!(v[&line][0], "sequential", "{line}: {:?}", v[&line]);
    }
}

/// LU's FLUX: written whole for I = 1, NX before the reads at I-1 and I+1
/// for I = IST, IEND, which may reach elements no iteration writes.
#[test]
fn arrays_every_iteration_writes_before_reading_are_copied_in_and_out() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parallel/fresh.f90");
    let v = verdicts(&path);
    for line in [14, 15] {
        assert_eq!(
            v[&line][..3],
            ["parallel-with-transforms", "FLUX", "FLUX"],
            "{line}: {:?}",
            v[&line]
        );
    }
    // A read before the covering write, a covering write under an IF, and
    // writes that move with K: what one iteration reads, another wrote.
    for line in [44, 60, 79] {
        assert_eq!(v[&line][0], "sequential", "{line}: {:?}", v[&line]);
        assert!(v[&line][5].contains("flow FLUX"), "{line}: {:?}", v[&line]);
    }
}

/// BT's exact_rhs: `DO I = 0, GRID_POINTS(1) - 1` writes BUF before the
/// reads at I-1 and I+1, GRID_POINTS a module array nothing the unit runs
/// changes; where the unit or a procedure it calls writes it, its
/// elements are no terms.
#[test]
fn elements_nothing_changes_are_terms_of_bounds() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parallel/fixed_elements.f90");
    let v = verdicts(&path);
    for line in [12, 13] {
        assert_eq!(
            v[&line][..3],
            ["parallel-with-transforms", "BUF", "BUF"],
            "{line}: {:?}",
            v[&line]
        );
    }
    for line in [32, 54] {
        assert_eq!(v[&line][0], "sequential", "{line}: {:?}", v[&line]);
        assert!(v[&line][5].contains("flow BUF"), "{line}: {:?}", v[&line]);
    }
    // F(I + GP(2)) against F(I): GP(2) is one unknown value, so they may
    // meet, but no two iterations write one element.
    assert_eq!(v[&68][0], "sequential", "{:?}", v[&68]);
    assert!(v[&68][5].contains("flow F 69->69"), "{:?}", v[&68]);
    assert!(!v[&68][5].contains("output F"), "{:?}", v[&68]);
}

/// NPB 3.4's field arrays are allocatable: allocated once with constant
/// bounds, a call given `RHS(1,J,K)` touches `RHS(1:5,J,K)`; W, allocated
/// with two shapes, keeps its deferred shape and the call reaches W from
/// the element on.
#[test]
fn allocate_gives_calls_the_shape_of_their_actuals() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parallel/allocated.f90");
    let v = verdicts(&path);
    assert_eq!(v[&21][0], "parallel", "{:?}", v[&21]);
    assert_eq!(v[&27][0], "sequential", "{:?}", v[&27]);
    assert!(v[&27][5].contains("flow W 28->28"), "{:?}", v[&27]);
}

#[test]
fn a_scalar_the_inner_loop_does_not_change_is_one_value_in_it() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parallel/outer_scalars.f");
    let v = verdicts(&path);
    let row = |line: i64| {
        v.get(&line)
            .unwrap_or_else(|| panic!("no row for line {line}: {v:?}"))
    };
    // M = M + 3 under an IF, M = IP(J): A(I + M) against A(I + M + 20).
    assert_eq!(row(18)[0], "parallel", "{:?}", row(18));
    assert_eq!(row(24)[0], "parallel", "{:?}", row(24));
    assert_eq!(row(27)[0], "sequential", "{:?}", row(27));
    assert!(row(27)[5].contains("flow B"), "{:?}", row(27));
    // The J loops carry what the I loops do not.
    assert_eq!(row(16)[0], "sequential", "{:?}", row(16));
    assert_eq!(row(22)[0], "sequential", "{:?}", row(22));
    // M changes inside the I loop: no value to share.
    assert_eq!(row(33)[0], "sequential", "{:?}", row(33));
    assert!(row(33)[5].contains(" M "), "{:?}", row(33));
    // M a counter of the J loop (`IF (..) M = M + c`): its range, 0 up to
    // c times the J iterations so far, keeps A(3*I + 3*J - M) from A(J + 2)
    // and lets A(M + 1) reach A(I + 31) only in the last J iteration.
    assert_eq!(row(44)[0], "parallel", "{:?}", row(44));
    assert_eq!(row(53)[0], "sequential", "{:?}", row(53));
    assert!(row(53)[5].contains("flow A 54->54"), "{:?}", row(53));
    assert!(!row(51)[5].contains("anti A"), "{:?}", row(51));
    assert!(row(51)[5].contains("flow A 54->54"), "{:?}", row(51));
}

#[test]
fn geometric_induction_variables_make_loops_parallel() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parallel/geometric.f");
    let v = verdicts(&path);
    let want = ["parallel-with-transforms", "", "J", "", "J"];
    assert_eq!(v[&12][..5], want, "J = 2*J: {:?}", v[&12]);
    let want = ["parallel-with-transforms", "", "K", "", "K"];
    assert_eq!(v[&17][..5], want, "K = K*(-2), step 2: {:?}", v[&17]);
    assert_eq!(
        v[&22][0], "sequential",
        "a scaling under an IF: {:?}",
        v[&22]
    );
    let emitted = openmp(&path, &scratch_dir("openmp_geometric"));
    assert!(emitted.contains("J = 1*(2)**(I - (1))"), "{emitted}");
    assert!(emitted.contains("K = 3*(-2)**((I - (1))/(2))"), "{emitted}");
}

#[test]
fn a_do_statement_a_jump_goes_to_gets_no_directive() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parallel/jump_target.f");
    let v = verdicts(&path);
    assert_eq!(
        v[&9][..4],
        ["parallel-with-transforms", "", "", "+:S"],
        "{:?}",
        v[&9]
    );
    let emitted = openmp(&path, &scratch_dir("openmp_jump_target"));
    let lines: Vec<&str> = emitted.lines().collect();
    let at = |text: &str| lines.iter().position(|l| l.contains(text)).expect(text);
    assert!(!lines[at("DO 20 J") - 1].starts_with("!$OMP"), "{emitted}");
    assert!(lines[at("DO 10 I") - 1].starts_with("!$OMP"), "{emitted}");
}

#[test]
fn induction_variables_from_any_start_make_loops_parallel() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parallel/inductions.f");
    let v = verdicts(&path);
    let want = ["parallel-with-transforms", "", "K", "", "K"];
    assert_eq!(v[&15][..5], want, "a constant start: {:?}", v[&15]);
    let want = ["parallel-with-transforms", "", "L", "", "L"];
    assert_eq!(v[&20][..5], want, "a start read from IW(7): {:?}", v[&20]);
    // Only the loop whose start is a constant gets a directive.
    let emitted = openmp(&path, &scratch_dir("openmp_inductions"));
    let lines: Vec<&str> = emitted.lines().collect();
    let before = |text: &str| {
        let at = lines.iter().position(|l| l.contains(text)).expect(text);
        lines[..at]
            .iter()
            .rev()
            .take_while(|l| l.starts_with("!$OMP"))
            .count()
    };
    assert!(before("DO 10 I") > 0, "{emitted}");
    assert_eq!(before("DO 20 I"), 0, "{emitted}");
    assert!(emitted.contains("K = 5 + 2*(I - (1))"), "{emitted}");
}

/// A DO loop's bounds are read once, on entry (NPB CG's `sparse`): a lower
/// bound that two definitions reach, or an element of an index array, is
/// one value throughout an execution of the loop, so `X(J) = X(J) + C` is
/// parallel and the row loop of a sparse product too; across executions
/// (the loop over the rows) the elements may meet again.
#[test]
fn bounds_read_on_entry_are_one_value_per_execution() {
    let v = verdicts(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parallel/bounds.f90"));
    assert_eq!(v[&14][0], "parallel", "{:?}", v[&14]);
    assert_eq!(
        v[&19][..3],
        ["parallel-with-transforms", "", ""],
        "{:?}",
        v[&19]
    );
    assert_eq!(v[&19][3], "+:SUM", "{:?}", v[&19]);
    assert_eq!(v[&17][0], "sequential", "{:?}", v[&17]);
    assert_eq!(v[&25][5], "flow X 26->26", "{:?}", v[&25]);
}

/// `S = MOD(S + X, M)` on INTEGERs is a `mod` reduction when every term
/// is never negative and the value on entry is a constant in 0..M-1 on
/// every path (`REDUCTION(+:S)` and `S = MOD(S, M)` after the loop; the
/// OpenMP program prints the sequential value on 1, 2 and 4 threads,
/// `openmp_programs_print_what_the_sequential_ones_print`); a term that
/// may be negative, a start past the modulus or two moduli keep the loop
/// sequential.
#[test]
fn mod_checksums_are_reductions_when_their_sums_are_never_negative() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parallel/mod_checksum.f90");
    let v = verdicts(&path);
    let row = |line: i64| (v[&line][0].as_str(), v[&line][3].as_str());
    assert_eq!(row(14), ("parallel-with-transforms", "mod:S"), "{v:?}");
    assert_eq!(row(19), ("parallel-with-transforms", "mod:T"), "{v:?}");
    for line in [27, 31, 35] {
        assert_eq!(row(line).0, "sequential", "line {line}: {v:?}");
    }
    let dir = scratch_dir("openmp_mod_checksum");
    let emitted = openmp(&path, &dir);
    let lines: Vec<&str> = emitted.lines().map(str::trim).collect();
    for (clause, last) in [("S", "S = MOD(S, 9973)"), ("T", "T = MOD(T, 1009)")] {
        assert!(
            lines.contains(&format!("!$OMP& REDUCTION(+:{clause})").as_str()),
            "{emitted}"
        );
        let at = lines.iter().position(|l| *l == last).expect(last);
        assert_eq!(lines[at - 1], "!$OMP END PARALLEL DO", "{emitted}");
    }
}

/// A loop whose calls do nothing their references do not show is judged
/// by them: a function of an element and a subroutine given elements for
/// scalar dummies are parallel; an element for an array dummy whose
/// callee reads it and writes the next carries a flow only (what the
/// callee touches from the element passed); a SAVEd counter or a PRINT in the callee excludes the
/// loop, as does an intrinsic subroutine with a state (RANDOM_NUMBER), but
/// not an error report before a STOP, nor a call no iteration makes; a
/// module or COMMON variable the callee touches is shared, never private.
#[test]
fn loops_calling_contained_procedures_are_judged_by_their_references() {
    let v = verdicts(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parallel/calls.f90"));
    let got: Vec<(i64, &str, &str, &str)> = v
        .iter()
        .map(|(l, r)| (*l, r[0].as_str(), r[1].as_str(), r[5].as_str()))
        .collect();
    assert_eq!(
        got,
        [
            (14, "parallel", "", ""),
            (18, "parallel", "", ""),
            (22, "parallel", "", ""),
            (26, "sequential", "", "flow B 27->27"),
            (30, "excluded", "", "call COUNTED 31"),
            (34, "excluded", "", "call SHOW 35"),
            (
                38,
                "sequential",
                "",
                "anti SHARED_T 39->39;flow SHARED_T 39->39;output SHARED_T 39->39"
            ),
            (43, "sequential", "", "anti T 45->44;output T 44->44"),
            (48, "excluded", "", "call RANDOM_NUMBER 49"),
            (52, "parallel", "", ""),
            (56, "parallel", "", ""),
        ]
    );
}

/// The text `kaiseki openmp PATH -o DIR/omp_NAME` writes (NAME: PATH's).
fn openmp(path: &Path, dir: &Path) -> String {
    openmp_with(path, dir, &[])
}

/// The OpenMP program with a directive on every outermost parallel loop,
/// also where its work does not pay for a region (`--every-loop`): what
/// the tests of the directives themselves run.
fn openmp_every(path: &Path, dir: &Path) -> String {
    openmp_with(path, dir, &["--every-loop"])
}

fn openmp_with(path: &Path, dir: &Path, flags: &[&str]) -> String {
    let name = path.file_name().expect("file name").to_string_lossy();
    let out = dir.join(format!("omp_{name}"));
    let mut args: Vec<&OsStr> = vec!["openmp".as_ref(), path.as_os_str()];
    args.extend(flags.iter().map(OsStr::new));
    args.extend([OsStr::new("-o"), out.as_os_str()]);
    kaiseki_ok(args);
    std::fs::read_to_string(&out).expect("output")
}

/// Runs `exe` with `threads` OpenMP threads and no input; its standard output.
fn run(exe: &Path, threads: usize) -> String {
    run_on(exe, threads, &[])
}

#[test]
fn openmp_programs_print_what_the_sequential_ones_print() {
    for path in [
        example("iwasawa_parallel.f90"),
        tsvc(),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parallel/inductions.f"),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parallel/privatization.f"),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parallel/outer_scalars.f"),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parallel/geometric.f"),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parallel/jump_target.f"),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parallel/control.f90"),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parallel/calls.f90"),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parallel/intrinsic_names.f"),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parallel/profit.f90"),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parallel/work_arrays.f90"),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parallel/mod_checksum.f90"),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parallel/fresh.f90"),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parallel/fixed_elements.f90"),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parallel/allocated.f90"),
    ] {
        let name = path
            .file_name()
            .expect("file name")
            .to_string_lossy()
            .into_owned();
        let dir = scratch_dir(&format!("openmp_{name}"));
        let emitted = openmp_every(&path, &dir);
        let original = std::fs::read_to_string(&path).expect("source");
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

/// As a suite with its own driver is parallelized (TSVC: `loops.f` and
/// `mains.f`): only the kernels' file is given to kaiseki, so the timing
/// loops that call the driver's DUMMY are excluded and the loops inside
/// them get the directives; the OpenMP kernels are linked with the
/// driver compiled unchanged and without OpenMP, with 64-bit reals as
/// TSVC asks, and print the serial build's checksums on 1 and 4 threads.
/// The kernels are TSVC's shapes that went wrong or could: a maximum in a
/// variable named MAX (gfortran refused TSVC's whole file for it), a sum
/// into A(I*INC) with the stride from the driver, a packed triangle
/// walked by an inner induction, an induction stepped twice.
#[test]
fn openmp_kernels_linked_with_their_unchanged_driver_print_the_serial_checksums() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parallel/driver");
    let dir = scratch_dir("openmp_driver");
    for f in ["kernels.f", "driver.f"] {
        std::fs::copy(fixture.join(f), dir.join(f)).expect("fixture copied");
    }
    let emitted = openmp_every(&dir.join("kernels.f"), &dir);
    assert!(
        emitted.matches("!$OMP PARALLEL DO").count() >= 6,
        "{emitted}"
    );
    assert!(!emitted.contains("REDUCTION(MAX:"), "{emitted}");
    let flags = [
        "-fdefault-real-8",
        "-fdefault-double-8",
        "-std=legacy",
        "-O2",
    ];
    let build = |args: &[&str]| {
        gfortran::run_in(&dir, flags.iter().chain(args)).unwrap_or_else(|e| panic!("{e}"))
    };
    build(&["-o", "serial", "driver.f", "kernels.f"]);
    build(&["-c", "driver.f"]);
    build(&["-fopenmp", "-c", "omp_kernels.f"]);
    build(&["-fopenmp", "-o", "omp", "driver.o", "omp_kernels.o"]);
    let want = run(&dir.join("serial"), 1);
    assert_eq!(want.lines().count(), 18, "{want}");
    for threads in [1, 4] {
        assert_eq!(run(&dir.join("omp"), threads), want, "{threads} threads");
    }
}

/// Runs `exe` with `threads` OpenMP threads and `input` on its standard
/// input; its standard output.
fn run_on(exe: &Path, threads: usize, input: &[String]) -> String {
    let mut child = Command::new(exe)
        .env("OMP_NUM_THREADS", threads.to_string())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the compiled program runs");
    let mut stdin = child.stdin.take().expect("stdin");
    // A program that reads nothing may have ended before its input is written.
    if let Err(e) = writeln!(stdin, "{}", input.join("\n")) {
        assert_eq!(
            e.kind(),
            std::io::ErrorKind::BrokenPipe,
            "input written: {e}"
        );
    }
    drop(stdin);
    let out = child.wait_with_output().expect("the program ends");
    assert!(
        out.status.success(),
        "{}: {}",
        exe.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn openmp_versions_of_generated_programs_print_what_the_sequential_ones_print() {
    let mut directives = 0;
    for seed in 0..common::scaled(8) {
        let g = parallel_loops(seed);
        let dir = scratch_dir(&format!("openmp_gen_{seed}"));
        let path = dir.join(&g.file_name);
        std::fs::write(&path, &g.source).expect("program written");
        let emitted = openmp_every(&path, &dir);
        directives += emitted.matches("!$OMP PARALLEL DO").count();
        let seq = gfortran::compile(&dir, &g.file_name, &g.source).expect("sequential build");
        let omp = gfortran::compile_with(
            &dir,
            &format!("omp_{}", g.file_name),
            &emitted,
            &["-fopenmp"],
        )
        .unwrap_or_else(|e| panic!("{e}\n{emitted}"));
        for input in &g.inputs {
            let want = run_on(&seq, 1, input);
            for threads in [1, 2, 4] {
                let got = run_on(&omp, threads, input);
                if let Err(e) = gfortran::compare_outputs(&want, &got, 1e-5) {
                    panic!(
                        "{} on {input:?} with {threads} threads: {e}\n{emitted}",
                        g.file_name
                    );
                }
            }
        }
    }
    assert!(directives >= 4, "only {directives} parallel loops");
}

#[test]
fn loops_read_from_include_files_get_no_directive() {
    // main.f's first loop is read from body.h (its DO at body.h's line 2,
    // a comment line of main.f); its second loop is its own.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/include/main.f");
    let include = path.parent().expect("tests/include");
    let dir = scratch_dir("openmp_include");
    let emitted = openmp(&path, &dir);
    let original = std::fs::read_to_string(&path).expect("source");
    let lines: Vec<&str> = emitted.lines().collect();
    let directives: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("!$OMP PARALLEL DO"))
        .collect();
    assert_eq!(directives.len(), 1, "{emitted}");
    assert!(lines[directives[0] + 1].contains("DO 20 I"), "{emitted}");
    let kept: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| !l.starts_with("!$OMP"))
        .collect();
    assert_eq!(kept, original.lines().collect::<Vec<_>>());
    let inc = include.to_str().expect("utf-8 path");
    let seq = gfortran::compile_with(&dir, "main.f", &original, &["-I", inc]).expect("sequential");
    let omp = gfortran::compile_with(&dir, "omp_main.f", &emitted, &["-fopenmp", "-I", inc])
        .expect("OpenMP build");
    let want = run(&seq, 1);
    for threads in [1, 2, 4] {
        assert_eq!(run(&omp, threads), want, "{threads} threads");
    }
}

/// EXIT leaves a loop (excluded, its blocker `exit LINE`), CYCLE only ends
/// an iteration (the loop stays parallel when its body is), and the arms
/// of a SELECT CASE carry what they carry.
#[test]
fn exit_cycle_and_select_case_get_the_verdicts_of_their_control_flow() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parallel/control.f90");
    let v = verdicts(&path);
    let row = |line: i64| {
        v.get(&line)
            .unwrap_or_else(|| panic!("no row for line {line}: {v:?}"))
    };
    assert_eq!(row(8)[0], "excluded", "EXIT: {:?}", row(8));
    assert_eq!(row(8)[5], "exit 10");
    assert_eq!(row(12)[0], "parallel", "only a CYCLE: {:?}", row(12));
    assert_eq!(
        row(16)[..2],
        ["parallel-with-transforms", "T"],
        "CYCLE after the temporary's definition: {:?}",
        row(16)
    );
    // CYCLE OUTER leaves the inner loop, not the outer one.
    assert!(PARALLEL.contains(&row(21)[0].as_str()), "{:?}", row(21));
    assert_eq!(row(22)[0], "excluded", "{:?}", row(22));
    assert_eq!(row(22)[5], "jump out 23");
    // EXIT L2 leaves both loops.
    assert_eq!(row(27)[..1], ["excluded"], "{:?}", row(27));
    assert_eq!(row(27)[5], "exit 29");
    assert_eq!(row(28)[5], "exit 29");
    // One arm writes A(I), the other reads A(I-1): a carried flow.
    assert_eq!(row(32)[0], "sequential", "{:?}", row(32));
    assert_eq!(row(32)[5], "flow A 35->37");
    assert_eq!(row(40)[0], "parallel", "{:?}", row(40));
    // The OpenMP program: directives on the parallel loops only.
    let emitted = openmp(&path, &scratch_dir("openmp_control"));
    let directed = directed_lines(&emitted);
    assert_eq!(
        directed.into_iter().collect::<Vec<_>>(),
        [12, 16, 21, 40],
        "{emitted}"
    );
}

/// The lines of the original program (1-based) that `openmp` put a
/// directive before: every line it adds starts with `!$OMP`.
fn directed_lines(emitted: &str) -> std::collections::BTreeSet<usize> {
    let mut out = std::collections::BTreeSet::new();
    let (mut orig, mut pending) = (0, false);
    for l in emitted.lines() {
        let t = l.trim_start().to_uppercase();
        if t.starts_with("!$OMP") {
            pending |= !t.starts_with("!$OMP END");
        } else {
            orig += 1;
            if pending {
                out.insert(orig);
            }
            pending = false;
        }
    }
    out
}

const PARALLEL: [&str; 2] = ["parallel", "parallel-with-transforms"];

/// A statement kaiseki could not read makes every loop around it
/// `unknown`, with that statement as its blocker, and gets no directive.
#[test]
fn a_loop_holding_a_statement_kaiseki_could_not_read_is_unknown() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parallel/unreadable.f90");
    let out = common::kaiseki([
        "parallel".as_ref(),
        path.as_os_str(),
        "--format".as_ref(),
        "csv".as_ref(),
    ]);
    assert_eq!(out.code, Some(1), "the error makes the run fail");
    assert!(out.stderr.contains("unreadable.f90:6:"), "{}", out.stderr);
    let rows: Vec<&str> = out.stdout.lines().skip(1).collect();
    assert_eq!(
        rows,
        [
            "UNREADABLE,5,I,1,unknown,,,,,opaque statement 6 (statement kaiseki could not read),",
            "UNREADABLE,8,I,1,parallel,,,,,,"
        ],
        "{}",
        out.stdout
    );
    let dir = scratch_dir("openmp_unreadable");
    let target = dir.join("omp_unreadable.f90");
    let out = common::kaiseki([
        "openmp".as_ref(),
        path.as_os_str(),
        "-o".as_ref(),
        target.as_os_str(),
    ]);
    assert_eq!(out.code, Some(1));
    let emitted = std::fs::read_to_string(&target).expect("the program is written");
    assert_eq!(
        directed_lines(&emitted).into_iter().collect::<Vec<_>>(),
        [8],
        "{emitted}"
    );
}

/// Directives only where a parallel region is worth its cost: none in a
/// procedure a loop with a directive calls (its loop would open a region
/// inside the caller's at each call), none on a loop of a few iterations
/// with a small body (`DO M = 1, 5` over the components of a point), none
/// on a loop inside a sequential one that runs fewer assignments than a
/// region costs (1,000 elements of an array declared with 1,000; N
/// elements, N known at run time), though `parallel` calls them all
/// parallel; a loop over N elements outside loops gets an IF clause.
/// `--every-loop` writes the directives of the loops inside sequential
/// ones too (IF clauses where N counts). The program prints what the
/// sequential one prints, with both values of the clauses
/// (`openmp_programs_print_what_the_sequential_ones_print`).
#[test]
fn directives_go_where_a_region_is_worth_its_cost() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parallel/profit.f90");
    let v = verdicts(&path);
    for line in [45, 16, 19, 23, 26, 29, 61, 64] {
        assert!(PARALLEL.contains(&v[&line][0].as_str()), "{line}: {v:?}");
    }
    let emitted = openmp(&path, &scratch_dir("openmp_profit"));
    let want: std::collections::BTreeSet<usize> = [13, 16, 57].into();
    assert_eq!(directed_lines(&emitted), want, "{emitted}");
    assert!(emitted.contains("IF((N) - (1) + 1 .GE. 4096)"), "{emitted}");
    assert_eq!(emitted.matches("IF(").count(), 1, "{emitted}");
    let every = openmp_every(&path, &scratch_dir("openmp_profit_every"));
    let want: std::collections::BTreeSet<usize> = [13, 16, 29, 57, 61, 64].into();
    assert_eq!(directed_lines(&every), want, "{every}");
    assert_eq!(
        every.matches("IF((N-1) - (2) + 1 .GE. 4096)").count(),
        2,
        "{every}"
    );
}
