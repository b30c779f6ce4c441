//! Large synthetic Fortran programs for the benchmarks: fixed-form F77 with
//! HPF directives, deterministic for a seed.
//!
//! (The `mixed` shape of the frontend benchmark is
//! `kaiseki_frontend::synth::synthetic_program`.)
//! - `dataflow`: one unit with many statements over many scalars, each
//!   statement reading and writing variables of a sliding window, inside
//!   loops and IFs — for the reaching-definitions benchmark.
//! - `nests`: many depth-3 loop nests with affine array references — for the
//!   subscript dependence benchmark.

/// splitmix64: a tiny deterministic generator, enough for test inputs.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }
}

/// One main program with `stmts` assignments over `vars` scalars in the
/// `dataflow` shape: each statement uses two variables and defines one, all
/// from a window of 40 variables sliding through the program; every tenth
/// group is a DO loop, every seventh an IF/ELSE.
pub fn dataflow(stmts: usize, vars: usize, seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let mut out = String::from("      PROGRAM FLOW\n      INTEGER I, N\n");
    for chunk in (0..vars).collect::<Vec<_>>().chunks(8) {
        let names: Vec<String> = chunk.iter().map(|v| format!("V{v}")).collect();
        out.push_str(&format!("      REAL {}\n", names.join(", ")));
    }
    out.push_str("      N = 10\n");
    let window = 40.min(vars);
    let mut written = 0;
    let mut group = 0;
    while written < stmts {
        group += 1;
        let base = written * vars.saturating_sub(window) / stmts.max(1);
        let mut var = |rng: &mut Rng| format!("V{}", base + rng.below(window as u64) as usize);
        let assign = |rng: &mut Rng, var: &mut dyn FnMut(&mut Rng) -> String| {
            let (a, b, c) = (var(rng), var(rng), var(rng));
            format!("{a} = {b} + {c} * 0.5\n")
        };
        if group % 10 == 0 {
            out.push_str("      DO I = 1, N\n");
            for _ in 0..8 {
                out.push_str(&format!("        {}", assign(&mut rng, &mut var)));
            }
            out.push_str("      END DO\n");
            written += 10;
        } else if group % 7 == 0 {
            out.push_str(&format!("      IF ({} .GT. 0.0) THEN\n", var(&mut rng)));
            out.push_str(&format!("        {}", assign(&mut rng, &mut var)));
            out.push_str("      ELSE\n");
            out.push_str(&format!("        {}", assign(&mut rng, &mut var)));
            out.push_str("      END IF\n");
            written += 3;
        } else {
            for _ in 0..5 {
                out.push_str(&format!("      {}", assign(&mut rng, &mut var)));
            }
            written += 5;
        }
    }
    out.push_str("      PRINT *, V0\n      END\n");
    out
}

/// `nests` loop nests of depth 3, each with `refs` affine array references
/// (rank 1 or 2, coefficients -3..3, some coupled, a triangular and a
/// symbolic bound), in units of 50 nests. Each nest works on arrays of its
/// own (An, Bn): element definitions never kill, so nests sharing an array
/// would make every pair of their references a reported dependence, and the
/// benchmark is about the subscript tests inside nests.
pub fn nests(nests: usize, refs: usize, seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let mut out = String::new();
    for (u, first) in (0..nests).step_by(50).enumerate() {
        let last = (first + 50).min(nests);
        out.push_str(&format!(
            "      SUBROUTINE N{u}(N)\n      INTEGER N, I, J, K\n"
        ));
        for n in first..last {
            out.push_str(&format!(
                "      REAL A{n}(-200:200), B{n}(-200:200, -200:200)\n"
            ));
        }
        for n in first..last {
            out.push_str("      DO I = 1, 10\n        DO J = 1, N\n          DO K = I, 10\n");
            for r in 0..refs.div_ceil(2) {
                let lhs = affine_ref(&mut rng, n, r % 3 == 0);
                let rhs = affine_ref(&mut rng, n, r % 3 == 1);
                // The right side on a continuation line: a rank-2 reference
                // on each side would pass column 72.
                out.push_str(&format!("            {lhs} =\n     &        {rhs} + 1.0\n"));
            }
            out.push_str("          END DO\n        END DO\n      END DO\n");
        }
        out.push_str("      END\n");
    }
    out
}

fn affine_ref(rng: &mut Rng, nest: usize, rank2: bool) -> String {
    let sub = |rng: &mut Rng| {
        let mut s = format!("{}", rng.range(-5, 5));
        for v in ["I", "J", "K"] {
            let c = rng.range(-3, 3);
            if c != 0 {
                s.push_str(&format!(" + {c}*{v}"));
            }
        }
        s.replace("+ -", "- ")
    };
    if rank2 {
        let (a, b) = (sub(rng), sub(rng));
        format!("B{nest}({a}, {b})")
    } else {
        format!("A{nest}({})", sub(rng))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generators_are_deterministic_and_sized() {
        assert_eq!(dataflow(500, 50, 7), dataflow(500, 50, 7));
        assert_ne!(dataflow(500, 50, 7), dataflow(500, 50, 8));
        let d = dataflow(1000, 100, 3);
        let assigns = d.lines().filter(|l| l.contains(" = ")).count();
        assert!(assigns >= 900, "{assigns} assignments");
        let n = nests(60, 10, 5);
        assert_eq!(n.matches("DO I = 1, 10").count(), 60);
        assert!(
            n.lines().all(|l| l.len() <= 72),
            "fixed form fits in 72 columns"
        );
        assert_eq!(n.matches("SUBROUTINE").count(), 2);
    }
}
