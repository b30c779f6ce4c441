//! The interpreter on Fortran 90 scoping, as the frontend rewrites it
//! (`kaiseki_frontend::scopes`): module variables shared by every unit
//! that sees them and initialized before the main program runs, host
//! association of internal procedures, and ALLOCATE / DEALLOCATE of local
//! and module arrays.

use kaiseki_judge::{run_source, Config, Mode};

const GRID: &str = include_str!("modules/grid.f90");

fn printed(path: &str, text: &str, input: &[&str]) -> Vec<String> {
    run_source(path, text, input, &Config::default())
        .unwrap_or_else(|e| panic!("{e}"))
        .output
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// What gfortran 12 prints for `grid.f90` on input 4.
#[test]
fn modules_host_association_and_allocatables_run_as_gfortran_runs_them() {
    let got = printed("grid.f90", GRID, &["4"]);
    let want = ["247", "641", "244", "195", "4", "2", "20", "0", "3", "3"];
    let got: Vec<f64> = got.iter().map(|s| s.parse().expect(s)).collect();
    let want: Vec<f64> = want.iter().map(|s| s.parse().unwrap()).collect();
    assert_eq!(got, want);
}

/// One module variable is one cell in every unit that sees it (renamed
/// too), its initial value is no access, and an internal procedure's
/// accesses to a host array go to the host's cells.
#[test]
fn module_variables_and_host_arrays_share_cells_across_units() {
    let r = run_source("grid.f90", GRID, &["4"], &Config::default()).unwrap();
    let cells = |unit: &str, var: &str| -> Vec<_> {
        r.trace
            .iter()
            .filter(|a| &*a.unit == unit && &*a.var == var)
            .map(|a| a.loc.storage)
            .collect()
    };
    // NX in INIT and WIDTH (its local name) in BUMP.
    let nx = cells("INIT", "NX");
    assert!(!nx.is_empty());
    assert!(cells("BUMP", "WIDTH").iter().all(|s| *s == nx[0]));
    // U allocated in INIT, read in MAIN and BUMP, written in INNER.
    let u = cells("INIT", "U")[0];
    for unit in ["MAIN", "BUMP", "INNER"] {
        let seen = cells(unit, "U");
        assert!(!seen.is_empty() && seen.iter().all(|s| *s == u), "{unit}");
    }
    // W of MAIN is the dummy W of INNER, until MAIN allocates it anew.
    let w = cells("MAIN", "W")[0];
    assert!(cells("INNER", "W").iter().all(|s| *s == w));
    // No access before the first statement of MAIN (the READ of M).
    assert_eq!(&*r.trace[0].var, "M");
    assert_eq!(r.trace[0].mode, Mode::Write);
}

#[test]
fn allocation_errors_stop_the_run() {
    let run = |body: &str| {
        let src = format!(
            "program p\n  real, allocatable :: w(:)\n  integer :: k\n{body}\nend program p\n"
        );
        run_source("p.f90", &src, &[] as &[&str], &Config::default()).map(|r| r.output)
    };
    let e = run("  w(1) = 1.0").unwrap_err();
    assert!(e.contains("out of bounds"), "{e}");
    let e = run("  allocate(w(2))\n  allocate(w(3))").unwrap_err();
    assert!(e.contains("already allocated"), "{e}");
    let e = run("  deallocate(w)").unwrap_err();
    assert!(e.contains("not allocated"), "{e}");
    let out =
        run("  allocate(w(-1:1), stat=k)\n  w = 2.0\n  print *, sum(w), k, lbound(w)").unwrap();
    let v: Vec<f64> = out.split_whitespace().map(|s| s.parse().unwrap()).collect();
    assert_eq!(v, [6.0, 0.0, -1.0]);
}
