//! Derived types end to end: the frontend flattens every object into one
//! variable per leaf component (`P%X`, frontend `derived`), so components
//! are storage of their own, subscripted exactly, in the dependence graph,
//! the parallelization verdicts and the OpenMP program.

mod common;

use common::{deps_csv, kaiseki, kaiseki_ok, scratch_dir, source_file};
use kaiseki_judge::gfortran;
use std::collections::BTreeMap;
use std::path::Path;

const PROGRAM: &str = "\
program mesh_demo
  implicit none
  type point
    real :: x, y
  end type point
  type grid
    integer :: n
    real :: x(100), y(100)
  end type grid
  type(point) :: p(100)
  type(grid) :: m
  integer :: i
  real :: s
  m%n = 100
  do i = 1, m%n
    m%y(i) = real(i)
    p(i)%x = real(2*i)
    p(i)%y = 0.0
  end do
  do i = 1, m%n
    m%x(i) = m%y(i)
  end do
  do i = 2, m%n
    p(i)%x = p(i-1)%x + 1.0
  end do
  do i = 2, m%n
    p(i)%y = p(i-1)%x
  end do
  s = 0.0
  do i = 1, m%n
    s = s + m%x(i) * p(i)%y
  end do
  print *, s, m%x(7), p(9)%x, p(9)%y
end program mesh_demo
";

/// The `parallel` report's verdict by loop line.
fn verdicts(path: &Path) -> BTreeMap<i64, (String, String)> {
    let csv = kaiseki_ok([
        "parallel".as_ref(),
        path.as_os_str(),
        "--format".as_ref(),
        "csv".as_ref(),
    ]);
    csv.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (
                f[1].parse().expect("loop_line"),
                (f[4].to_string(), f[9].to_string()),
            )
        })
        .collect()
}

#[test]
fn components_are_storage_of_their_own() {
    let path = source_file("derived", "mesh_demo.f90", PROGRAM);
    let out = kaiseki(["check".as_ref(), path.as_os_str()]);
    assert!(
        !out.stderr.contains("error") && !out.stderr.contains("not modelled"),
        "{}",
        out.stderr
    );
    let deps = deps_csv(&path);
    // `m%x(i) = m%y(i)`: M%X and M%Y never depend on each other.
    assert!(
        !deps
            .iter()
            .any(|d| d.var.starts_with("M%") && d.src.0 == 21 && d.dst.0 == 21),
        "{deps:?}"
    );
    // `p(i)%x = p(i-1)%x + 1.0` carries a flow dependence of distance 1.
    let carried: Vec<_> = deps
        .iter()
        .filter(|d| d.var == "P%X" && d.kind == "flow" && d.src.0 == 24 && d.dst.0 == 24)
        .collect();
    assert_eq!(carried.len(), 1, "{deps:?}");
    assert_eq!(carried[0].distance, [Some(1)], "{:?}", carried[0]);
    let v = verdicts(&path);
    assert_eq!(v[&20].0, "parallel", "{v:?}");
    assert_eq!(v[&23].0, "sequential", "{v:?}");
    assert!(v[&23].1.contains("P%X"), "{v:?}");
    // Reads P%X of the iteration before, writes P%Y: no carried dependence.
    assert_eq!(v[&26].0, "parallel", "{v:?}");
    assert_eq!(v[&30].0, "parallel-with-transforms", "{v:?}");
}

/// A reduction into a component cannot be written as an OpenMP clause
/// (`REDUCTION(+:T%SUM)` is not OpenMP): its loop is left without a
/// directive; the others get theirs, and the program compiles and prints
/// what it prints sequentially with 1 and 4 threads.
#[test]
fn openmp_leaves_loops_whose_clauses_would_name_a_component() {
    let src = "\
program red
  implicit none
  type acc
    real :: sum
    real :: v(200)
  end type acc
  type(acc) :: t
  integer :: i
  t%sum = 0.0
  do i = 1, 200
    t%v(i) = real(mod(i, 7))
  end do
  do i = 1, 200
    t%sum = t%sum + t%v(i)
  end do
  print *, t%sum
end program red
";
    let dir = scratch_dir("derived_openmp");
    let path = source_file("derived_openmp", "red.f90", src);
    let v = verdicts(&path);
    assert_eq!(v[&10].0, "parallel", "{v:?}");
    assert_eq!(v[&13].0, "parallel-with-transforms", "{v:?}");
    let out = dir.join("omp_red.f90");
    kaiseki_ok([
        "openmp".as_ref(),
        path.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    let emitted = std::fs::read_to_string(&out).expect("output");
    let directives: Vec<&str> = emitted
        .lines()
        .filter(|l| l.starts_with("!$OMP PARALLEL DO"))
        .collect();
    assert_eq!(directives.len(), 1, "{emitted}");
    assert!(!emitted.contains("T%SUM)"), "{emitted}");
    let seq = gfortran::compile(&dir, "red.f90", src).expect("sequential build");
    let omp =
        gfortran::compile_with(&dir, "omp_red.f90", &emitted, &["-fopenmp"]).expect("OpenMP build");
    let want = gfortran::run(&seq, &[] as &[String]).expect("sequential run");
    for threads in ["1", "4"] {
        std::env::set_var("OMP_NUM_THREADS", threads);
        let got = gfortran::run(&omp, &[] as &[String]).expect("OpenMP run");
        assert_eq!(got, want, "{threads} threads");
    }
}

/// A subroutine whose dummy is of derived type gets its leaves as dummies,
/// and the call passes the actual object's leaves in the same order: the
/// call's effects on P%X reach the caller's loop.
#[test]
fn calls_pass_the_leaves_of_an_object() {
    let src = "\
subroutine shift(q, n)
  implicit none
  type point
    real :: x, y
  end type point
  integer :: n
  type(point) :: q(n)
  integer :: i
  do i = 2, n
    q(i)%y = q(i-1)%y
  end do
end subroutine shift
program calls
  implicit none
  type point
    real :: x, y
  end type point
  type(point) :: p(50)
  integer :: i
  do i = 1, 50
    p(i)%x = real(i)
    p(i)%y = real(i)
  end do
  call shift(p, 50)
  print *, p(50)%x, p(50)%y
end program calls
";
    let path = source_file("derived_calls", "calls.f90", src);
    let out = kaiseki(["check".as_ref(), path.as_os_str()]);
    assert!(!out.stderr.contains("error"), "{}", out.stderr);
    let v = verdicts(&path);
    assert_eq!(v[&9].0, "sequential", "{v:?}");
    let deps = deps_csv(&path);
    // The call writes P%Y (through its dummy Q%Y), which the print reads.
    assert!(
        deps.iter()
            .any(|d| d.unit == "CALLS" && d.var == "P%Y" && d.src.0 == 24 && d.dst.0 == 25),
        "{deps:?}"
    );
}

/// `unroll --emit` cannot write a flattened component back as Fortran
/// (`P%X(J, I)` for `P(I)%X(J)`): a nest that references components is
/// left as written, with a warning, even at forced factors.
#[test]
fn unroll_emit_leaves_nests_with_components_as_written() {
    let src = "\
program un
  implicit none
  type row
    real :: x(8)
  end type row
  type(row) :: p(8)
  integer :: i, j
  do i = 1, 8
    do j = 1, 8
      p(i)%x(j) = real(i + j)
    end do
  end do
  print *, p(3)%x(4)
end program un
";
    let dir = scratch_dir("derived_unroll");
    let path = source_file("derived_unroll", "un.f90", src);
    let out = dir.join("u_un.f90");
    let run = kaiseki([
        "unroll".as_ref(),
        path.as_os_str(),
        "--emit".as_ref(),
        "-o".as_ref(),
        out.as_os_str(),
        "--factors".as_ref(),
        "2,2".as_ref(),
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stderr.contains("references derived-type components"),
        "{}",
        run.stderr
    );
    assert_eq!(std::fs::read_to_string(&out).expect("emitted"), src);
}

/// `kaiseki spmd` copies subscripts from the references as written, which
/// a flattened component is not: it refuses such a program, with a
/// message naming the component, rather than write a wrong one.
#[test]
fn spmd_refuses_programs_with_components() {
    let src = "\
program dist
  implicit none
  type acc
    real :: total
  end type acc
  type(acc) :: t
  real :: a(16)
  integer :: i
!HPF$ DISTRIBUTE a(BLOCK)
  t%total = 0.0
  do i = 1, 16
    a(i) = real(i)
  end do
  t%total = a(3)
  print *, t%total
end program dist
";
    let dir = scratch_dir("derived_spmd");
    let path = source_file("derived_spmd", "dist.f90", src);
    let out = dir.join("spmd_dist.f90");
    let run = kaiseki([
        "spmd".as_ref(),
        path.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    assert_ne!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("does not write programs with derived-type components (T%TOTAL)"),
        "{}",
        run.stderr
    );
}
