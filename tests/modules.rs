//! Fortran 90 modules end to end (frontend `scopes`): a program of two
//! files, given in either order; module arrays are storage every unit
//! shares, module PARAMETERs fold into the bounds, module procedures are
//! units whose calls touch what their bodies touch, and internal
//! procedures see their host's variables. The OpenMP and the unrolled
//! programs of both files compile in module order and print what the
//! original prints.

mod common;

use common::{kaiseki, kaiseki_ok, scratch_dir};
use kaiseki_judge::gfortran;
use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

fn file(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/modules")
        .join(name)
}

/// The `parallel` report of the files: (unit, loop line) -> (verdict, blockers).
fn verdicts(files: &[PathBuf]) -> BTreeMap<(String, i64), (String, String)> {
    let mut args: Vec<&OsStr> = vec![OsStr::new("parallel")];
    args.extend(files.iter().map(|f| f.as_os_str()));
    args.extend([OsStr::new("--format"), OsStr::new("csv")]);
    kaiseki_ok(args)
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let key = (f[0].to_string(), f[1].parse().expect("line"));
            (key, (f[4].to_string(), f[9..].join(",")))
        })
        .collect()
}

#[test]
fn files_in_any_order_check_clean() {
    for order in [
        ["heat_mod.f90", "heat_main.f90"],
        ["heat_main.f90", "heat_mod.f90"],
    ] {
        let out = kaiseki([
            "check".as_ref(),
            file(order[0]).as_os_str(),
            file(order[1]).as_os_str(),
        ]);
        assert_eq!(out.code, Some(0), "{order:?}: {}", out.stderr);
        assert!(!out.stderr.contains("warning"), "{}", out.stderr);
    }
}

#[test]
fn module_kernels_are_parallel_and_shared_arrays_tie_the_callers() {
    let v = verdicts(&[file("heat_main.f90"), file("heat_mod.f90")]);
    let at = |unit: &str, line: i64| &v[&(unit.to_string(), line)];
    // The stencil and the copy of the module procedure, over module arrays.
    assert_eq!(at("SWEEP", 24).0, "parallel", "{v:?}");
    assert_eq!(at("SWEEP", 29).0, "parallel", "{v:?}");
    assert_eq!(at("INIT", 14).0, "parallel", "{v:?}");
    // The time loop calls SWEEP, which reads and writes U and UNEW.
    assert_ne!(at("HEAT", 6).0, "parallel", "{v:?}");
    assert!(at("HEAT", 6).1.contains("SWEEP"), "{v:?}");
    // A sum of a module array into a module scalar: a reduction.
    assert_eq!(at("HEAT", 10).0, "parallel-with-transforms", "{v:?}");
}

#[test]
fn the_openmp_program_of_both_files_prints_what_the_original_prints() {
    let dir = scratch_dir("modules_openmp");
    let omp = dir.join("omp");
    let _ = std::fs::remove_dir_all(&omp);
    kaiseki_ok([
        "openmp".as_ref(),
        file("heat_mod.f90").as_os_str(),
        file("heat_main.f90").as_os_str(),
        "-o".as_ref(),
        omp.as_os_str(),
    ]);
    let written = std::fs::read_to_string(omp.join("heat_mod.f90")).expect("written");
    assert!(written.contains("!$OMP PARALLEL DO"), "{written}");
    let build = |srcs: [PathBuf; 2], exe: &Path, openmp: bool| {
        let args = srcs
            .iter()
            .map(|s| s.as_os_str())
            .chain([OsStr::new("-o"), exe.as_os_str()])
            .chain(openmp.then_some(OsStr::new("-fopenmp")));
        gfortran::run_in(&dir, args).unwrap_or_else(|e| panic!("{e}"));
    };
    let seq = dir.join("heat_seq");
    let par = dir.join("heat_omp");
    build([file("heat_mod.f90"), file("heat_main.f90")], &seq, false);
    build(
        [omp.join("heat_mod.f90"), omp.join("heat_main.f90")],
        &par,
        true,
    );
    let run = |exe: &Path, threads: &str| {
        let out = Command::new(exe)
            .env("OMP_NUM_THREADS", threads)
            .output()
            .expect("run");
        assert!(out.status.success());
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let want = run(&seq, "1");
    assert!(want.contains("steps, total:"), "{want}");
    for threads in ["1", "4"] {
        assert_eq!(run(&par, threads), want, "{threads} threads");
    }
}

/// `unroll --emit` on both files: each written into the directory, the
/// module's nests unrolled and jammed, and the program prints what the
/// original prints.
#[test]
fn the_unrolled_program_of_both_files_prints_what_the_original_prints() {
    let dir = scratch_dir("modules_unroll");
    let out = dir.join("unrolled");
    let _ = std::fs::remove_dir_all(&out);
    kaiseki_ok([
        "unroll".as_ref(),
        file("heat_mod.f90").as_os_str(),
        file("heat_main.f90").as_os_str(),
        "--emit".as_ref(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    let written = std::fs::read_to_string(out.join("heat_mod.f90")).expect("written");
    assert!(written.contains("KUL1"), "{written}");
    let build = |srcs: [PathBuf; 2], exe: &Path| {
        let args = srcs
            .iter()
            .map(|s| s.as_os_str())
            .chain([OsStr::new("-o"), exe.as_os_str()]);
        gfortran::run_in(&dir, args).unwrap_or_else(|e| panic!("{e}"));
        let run = Command::new(exe).output().expect("run");
        assert!(run.status.success());
        String::from_utf8_lossy(&run.stdout).to_string()
    };
    let want = build(
        [file("heat_mod.f90"), file("heat_main.f90")],
        &dir.join("heat_seq"),
    );
    let got = build(
        [out.join("heat_mod.f90"), out.join("heat_main.f90")],
        &dir.join("heat_unrolled"),
    );
    assert!(want.contains("steps, total:"), "{want}");
    assert_eq!(got, want);
}

/// A generic call calls the specific its arguments' types decide: the
/// loop over the REAL elements touches them alone and is parallel; the
/// one over the INTEGER elements calls the specific that writes a module
/// variable, and is not.
#[test]
fn generic_calls_touch_what_their_specific_touches() {
    let v = verdicts(&[file("generic.f90")]);
    let at = |line: i64| &v[&("GENERIC".to_string(), line)];
    assert_eq!(at(30).0, "parallel", "{v:?}");
    assert_ne!(at(33).0, "parallel", "{v:?}");
    assert!(at(33).1.contains("LAST"), "{v:?}");
}

#[test]
fn modules_named_like_keywords_are_used_by_name() {
    let out = kaiseki(["check".as_ref(), file("keyword_names.f90").as_os_str()]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let v = verdicts(&[file("keyword_names.f90")]);
    assert_eq!(v[&("P".to_string(), 16)].0, "parallel", "{v:?}");
}
