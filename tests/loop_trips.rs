//! DO loops whose trip count is a constant (`loop_trip`): the dependence
//! graph follows only the control edges some run takes. A loop that runs
//! at least once never skips its body, so a certain definition in it
//! kills what came before; a loop that runs at most once carries nothing.

mod common;

use common::{deps_csv, source_file, Dep};

fn deps_of(name: &str, source: &str) -> Vec<Dep> {
    deps_csv(&source_file(&format!("loop_trips_{name}"), name, source))
}

/// The rows of `kind` on `var` as (src line, dst line, carrier).
fn edges(rows: &[Dep], kind: &str, var: &str) -> Vec<(u32, u32, u32)> {
    rows.iter()
        .filter(|r| r.kind == kind && r.var == var)
        .map(|r| (r.src.0, r.dst.0, r.carrier))
        .collect()
}

#[test]
fn constant_trip_counts_remove_the_edges_no_run_takes() {
    let source = "      PROGRAM TR
      READ *, N
      S = 0.0
      DO 10 I = 1, 3
        S = S + 1.0
   10 CONTINUE
      DO 20 J = 1, 1
        T = S
        S = T * 2.0
   20 CONTINUE
      U = S
      DO 30 K = 1, N
        S = 0.0
   30 CONTINUE
      PRINT *, S, T, U
      END
";
    let rows = deps_of("trips.f", source);
    let flows = edges(&rows, "flow", "S");
    // Loop 10 always runs: S = 0.0 reaches its body only, never line 8 past it.
    assert!(flows.contains(&(3, 5, 0)), "{flows:?}");
    assert!(flows.contains(&(5, 5, 4)), "{flows:?}");
    assert!(
        !flows.iter().any(|&(s, d, _)| s == 3 && d != 5),
        "{flows:?}"
    );
    // Loop 20 runs once: T = S reads line 5's S, never line 9's.
    assert!(flows.contains(&(5, 8, 0)), "{flows:?}");
    assert!(
        !flows.iter().any(|&(s, _, c)| s == 9 && c == 7),
        "{flows:?}"
    );
    assert!(edges(&rows, "anti", "S").iter().all(|&(_, _, c)| c != 7));
    // Loop 30 may not run: S from line 9 still reaches the PRINT.
    assert!(flows.contains(&(9, 15, 0)), "{flows:?}");
    assert!(flows.contains(&(13, 15, 0)), "{flows:?}");
}
