//! Bad programs give errors, never panics or hangs: generated programs
//! broken on purpose (lines dropped, numbers made huge or zero, inputs
//! missing) are run under a small step limit.

use kaiseki_judge::gen::{affine_nest, scalar_program, storage_program, Rng};
use kaiseki_judge::{run_source, Config};

/// Breaks one thing in `source`: drops a line, or replaces a number by
/// one that overflows, divides by zero, or makes bounds absurd.
fn mutate(source: &str, rng: &mut Rng) -> String {
    let lines: Vec<&str> = source.lines().collect();
    let k = rng.range(1, lines.len() as i64 - 1) as usize;
    break_line(source, k, rng)
}

/// `source` with line `k` dropped or a number in it replaced.
fn break_line(source: &str, k: usize, rng: &mut Rng) -> String {
    let mut lines: Vec<String> = source.lines().map(str::to_string).collect();
    if rng.chance(30) {
        lines.remove(k);
    } else {
        let replacement = *rng.pick(&["0", "-1", "999999999", "9223372036854775807", "2000000000"]);
        let line = &lines[k];
        if let Some(at) = line.find(|c: char| c.is_ascii_digit() && c != '0') {
            let end = line[at..]
                .find(|c: char| !c.is_ascii_digit())
                .map_or(line.len(), |e| at + e);
            lines[k] = format!("{}{replacement}{}", &line[..at], &line[end..]);
        }
    }
    lines.join("\n") + "\n"
}

#[test]
fn broken_programs_give_errors_not_panics() {
    let cfg = Config {
        step_limit: 20_000,
        trace: true,
    };
    let mut rng = Rng::new(99);
    let mut errors = 0;
    for seed in 0..180 {
        let g = match seed % 3 {
            0 => scalar_program(seed),
            1 => affine_nest(seed),
            // Declarations broken too: EQUIVALENCE subscripts, COMMON sizes.
            _ => storage_program(seed),
        };
        let broken = mutate(&g.source, &mut rng);
        let input: &[String] = if rng.chance(20) { &[] } else { &g.inputs[0] };
        if run_source(&g.file_name, &broken, input, &cfg).is_err() {
            errors += 1;
        }
    }
    assert!(
        errors > 10,
        "mutations should break some runs, only {errors} did"
    );
}

#[test]
fn broken_storage_declarations_give_errors_not_panics() {
    let mut rng = Rng::new(7);
    let mut errors = 0;
    for seed in 0..80 {
        let g = storage_program(seed);
        let declarations: Vec<usize> = g
            .source
            .lines()
            .enumerate()
            .filter(|(_, l)| {
                ["EQUIVALENCE", "COMMON", "INTEGER", "REAL", "DOUBLE"]
                    .iter()
                    .any(|w| l.contains(w))
            })
            .map(|(k, _)| k)
            .collect();
        let broken = break_line(&g.source, *rng.pick(&declarations), &mut rng);
        if run_source(&g.file_name, &broken, &[] as &[&str], &Config::default()).is_err() {
            errors += 1;
        }
    }
    assert!(
        errors > 10,
        "mutations should break some runs, only {errors} did"
    );
}

#[test]
fn runaway_loops_hit_the_step_limit() {
    let src = "program p\n  integer :: i\n  do i = 1, 2000000000\n  end do\nend program\n";
    let cfg = Config {
        step_limit: 10_000,
        trace: false,
    };
    let err = run_source("p.f90", src, &[] as &[&str], &cfg).unwrap_err();
    assert!(err.contains("step limit exceeded"), "{err}");
}

#[test]
fn absurd_declarations_are_errors() {
    let src = "program p\n  real :: a(-9223372036854775807:9223372036854775807)\n  a(1) = 0.0\nend program\n";
    let err = run_source("p.f90", src, &[] as &[&str], &Config::default()).unwrap_err();
    assert!(err.contains("too large"), "{err}");
    let zero_step = "program p\n  integer :: i\n  do i = 1, 5, 0\n  end do\nend program\n";
    let err = run_source("p.f90", zero_step, &[] as &[&str], &Config::default()).unwrap_err();
    assert!(err.contains("step is zero"), "{err}");
}

#[test]
fn bad_equivalences_are_errors_at_their_items() {
    let cases = [
        (
            "      PROGRAM B\n      REAL X(4), Y(4)\n      EQUIVALENCE (X(1), Y(1)), (X(2), Y(1))\n      X(1) = 0.0\n      END\n",
            "3:40:",
            "contradicts",
        ),
        (
            "      PROGRAM B\n      REAL A(4), Z(3)\n      COMMON /C/ A\n      EQUIVALENCE (A(1), Z(2))\n      A(1) = 0.0\n      END\n",
            "4:26:",
            "before its start",
        ),
        (
            "      PROGRAM B\n      REAL A(4), Z(3)\n      COMMON /C/ A\n      COMMON /D/ Z\n      EQUIVALENCE (A(1), Z(1))\n      A(1) = 0.0\n      END\n",
            "4:18:",
            "with another place",
        ),
        (
            "      PROGRAM B\n      REAL X(4), Y(4)\n      N = 2\n      EQUIVALENCE (X(N), Y(1))\n      X(1) = 0.0\n      END\n",
            "4:22:",
            "not a constant",
        ),
        (
            "      PROGRAM B\n      REAL X(4), Y(4)\n      EQUIVALENCE (X(5), Y(1))\n      X(1) = 0.0\n      END\n",
            "3:20:",
            "out of bounds",
        ),
        (
            "      PROGRAM B\n      REAL X(-9223372036854775807:9223372036854775807), Y(2)\n      EQUIVALENCE (X(1), Y(1))\n      Y(1) = 0.0\n      END\n",
            "3:20:",
            "too large",
        ),
        (
            "      PROGRAM B\n      INTEGER*2 H(2)\n      INTEGER N\n      EQUIVALENCE (N, H(2))\n      N = 0\n      END\n",
            "4:23:",
            "not a whole number of storage units",
        ),
        (
            "      PROGRAM B\n      CALL S(1.0)\n      END\n      SUBROUTINE S(X)\n      EQUIVALENCE (X, Y)\n      Y = X\n      END\n",
            "5:20:",
            "dummy argument X",
        ),
    ];
    for (src, at, what) in cases {
        let err = run_source("b.f", src, &[] as &[&str], &Config::default()).unwrap_err();
        assert!(err.contains(at) && err.contains(what), "{err}\n{src}");
    }
}
