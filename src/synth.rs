//! Large synthetic Fortran programs for the benchmarks: fixed-form F77 with
//! HPF directives, deterministic for a seed.
//!
//! (The `mixed` shape of the frontend benchmark is
//! `kaiseki_frontend::synth::synthetic_program`.)
//! - `dataflow`: one unit with many statements over many scalars, each
//!   statement reading and writing variables of a sliding window (or of
//!   all of them, `--spread uniform`; or constant elements of arrays in
//!   their place, `--spread elements`), inside loops and IFs — for the
//!   reaching-definitions benchmark.
//! - `nests`: many depth-3 loop nests with affine array references — for the
//!   subscript dependence benchmark; `shared`: the nests of a unit all use
//!   the same three 2-D arrays — for the size of the dependence graph.
//! - `sweeps`: one unit of depth-3 nests over three shared arrays, each
//!   nest rewriting one of them whole — for array kills and the size of
//!   the dependence graph of one unit.
//! - `legacy`: one unit with scalars used all over it under the control
//!   flow real code has (block IFs on two scalars, DO loops every few dozen
//!   statements) — for the dataflow of a long legacy routine.
//! - `driver`: a benchmark timing harness — a main program, dozens of kernel
//!   subroutines of small loops over big COMMON blocks (declared with other
//!   shapes and EQUIVALENCEd in some units), timers, checksums and
//!   formatted reports — for real-program speed.

use crate::cli::Spread;

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
/// from a window of 40 variables sliding through the program
/// (`Spread::Window`) or from all of them (`Spread::Uniform`), or constant
/// elements of arrays of 50 in their place (`Spread::Elements`: variable v
/// is `T{v / 50}({v % 50 + 1})`); every tenth group is a DO loop, every
/// seventh an IF/ELSE.
pub fn dataflow(stmts: usize, vars: usize, spread: Spread, seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let mut out = String::from("      PROGRAM FLOW\n      INTEGER I, N\n");
    let declared: Vec<String> = match spread {
        Spread::Elements => (0..vars.div_ceil(50))
            .map(|t| format!("T{t}(50)"))
            .collect(),
        _ => (0..vars).map(|v| format!("V{v}")).collect(),
    };
    // Five `T123(50)` or eight `V1234` fit in the 72 columns of fixed form.
    declare_reals(
        &mut out,
        &declared,
        if spread == Spread::Elements { 5 } else { 8 },
    );
    out.push_str("      N = 10\n");
    let window = match spread {
        Spread::Window => 40.min(vars),
        Spread::Uniform | Spread::Elements => vars,
    };
    let name = |v: usize| match spread {
        Spread::Elements => format!("T{}({})", v / 50, v % 50 + 1),
        _ => format!("V{v}"),
    };
    let mut written = 0;
    let mut group = 0;
    while written < stmts {
        group += 1;
        let base = written * vars.saturating_sub(window) / stmts.max(1);
        let mut var = |rng: &mut Rng| name(base + rng.below(window as u64) as usize);
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
    out.push_str(&format!("      PRINT *, {}\n      END\n", name(0)));
    out
}

/// `REAL` statements declaring `names`, `per_line` to a statement.
fn declare_reals(out: &mut String, names: &[String], per_line: usize) {
    for chunk in names.chunks(per_line) {
        out.push_str(&format!("      REAL {}\n", chunk.join(", ")));
    }
}

/// The declaration of the three 2-D arrays the nests of a unit share.
const SHARED_ARRAYS: &str =
    "      REAL A(-200:200, -200:200), B(-200:200, -200:200),\n     &     C(-200:200, -200:200)\n";

/// `nests` loop nests of depth 3, each with `refs` affine array references
/// (coefficients -3..3, some coupled, a triangular and a symbolic bound),
/// in units of 50 nests. Each nest works on arrays of its own (An, Bn:
/// rank 1 or 2) unless `shared`: then every nest of a unit works on the
/// same three 2-D arrays A, B, C, and every pair of references to one
/// array in the unit, in one nest or in two, is a subscript test and often
/// a row (the shape of a solver whose sweeps all update the same grids).
pub fn nests(nests: usize, refs: usize, shared: bool, seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let mut out = String::new();
    for (u, first) in (0..nests).step_by(50).enumerate() {
        let last = (first + 50).min(nests);
        out.push_str(&format!(
            "      SUBROUTINE N{u}(N)\n      INTEGER N, I, J, K\n"
        ));
        if shared {
            out.push_str(SHARED_ARRAYS);
        } else {
            for n in first..last {
                out.push_str(&format!(
                    "      REAL A{n}(-200:200), B{n}(-200:200, -200:200)\n"
                ));
            }
        }
        for n in first..last {
            out.push_str("      DO I = 1, 10\n        DO J = 1, N\n          DO K = I, 10\n");
            for r in 0..refs.div_ceil(2) {
                let mut array = |rank2: bool| {
                    if shared {
                        ["A", "B", "C"][rng.below(3) as usize].to_string()
                    } else if rank2 {
                        format!("B{n}")
                    } else {
                        format!("A{n}")
                    }
                };
                let (lhs_array, rhs_array) =
                    (array(shared || r % 3 == 0), array(shared || r % 3 == 1));
                out.push_str(&affine_assignment(
                    &mut rng,
                    (&lhs_array, shared || r % 3 == 0),
                    (&rhs_array, shared || r % 3 == 1),
                ));
            }
            out.push_str("          END DO\n        END DO\n      END DO\n");
        }
        out.push_str("      END\n");
    }
    out
}

/// One subroutine of `nests` depth-3 loop nests over the same three 2-D
/// arrays A, B, C, the shape of a solver whose sweeps all update the same
/// grids: nest n rewrites one array whole (`A(I, J) = B(I, J) * 0.5 +
/// C(I, J - 1) + K` over the declared bounds, in both iterations of K),
/// then `refs - 2` affine references (as in [`nests`]) read and write the
/// three anywhere. Each array is rewritten every third nest, so a
/// reference meets the references of a few nests around it, not of the
/// whole unit: the dependence graph grows with the nests, once array
/// writes kill (`rules/dl/kills.dl`).
pub fn sweeps(nests: usize, refs: usize, seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let mut out = String::from("      SUBROUTINE SWEEPS(N)\n      INTEGER N, I, J, K\n");
    out.push_str(SHARED_ARRAYS);
    let arrays = ["A", "B", "C"];
    for n in 0..nests {
        let (x, y, z) = (arrays[n % 3], arrays[(n + 1) % 3], arrays[(n + 2) % 3]);
        out.push_str("      DO K = 1, 2\n        DO J = -200, 200\n          DO I = -200, 200\n");
        out.push_str(&format!(
            "            {x}(I, J) = {y}(I, J) * 0.5 + {z}(I, J - 1) + K\n"
        ));
        for _ in 0..refs.saturating_sub(2).div_ceil(2) {
            let mut pick = || arrays[rng.below(3) as usize];
            let (l, r) = (pick(), pick());
            out.push_str(&affine_assignment(&mut rng, (l, true), (r, true)));
        }
        out.push_str("          END DO\n        END DO\n      END DO\n");
    }
    out.push_str("      END\n");
    out
}

/// One main program of about `lines` lines over `vars` REAL scalars used
/// all over it (as `Spread::Uniform`), with the control flow real code
/// has: runs of 10 to 40 statements `V = W * 0.5 + X`, then a block IF on
/// two of the scalars (`IF (Va .GT. Vb) THEN`, with an ELSE half the
/// time) or a DO loop over `1, N` (a nest of two one time in three) of a
/// few statements, sometimes with such an IF inside.
pub fn legacy(lines: usize, vars: usize, seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let mut out = String::from("      PROGRAM LEGACY\n      INTEGER I, J, N\n");
    let declared: Vec<String> = (0..vars).map(|v| format!("V{v}")).collect();
    declare_reals(&mut out, &declared, 8);
    out.push_str("      N = 10\n");
    let vars = vars.max(1) as u64;
    let var = |rng: &mut Rng| format!("V{}", rng.below(vars));
    let assign = |rng: &mut Rng, indent: &str| {
        let (a, b, c) = (var(rng), var(rng), var(rng));
        format!("{indent}{a} = {b} * 0.5 + {c}\n")
    };
    let block_if = |rng: &mut Rng, indent: &str| {
        let mut text = format!("{indent}IF ({} .GT. {}) THEN\n", var(rng), var(rng));
        let inner = format!("{indent}  ");
        for _ in 0..rng.range(1, 4) {
            text.push_str(&assign(rng, &inner));
        }
        if rng.below(2) == 0 {
            text.push_str(&format!("{indent}ELSE\n"));
            for _ in 0..rng.range(1, 3) {
                text.push_str(&assign(rng, &inner));
            }
        }
        text.push_str(&format!("{indent}END IF\n"));
        text
    };
    let count = |text: &str| text.lines().count();
    let mut written = count(&out);
    while written < lines {
        let mut chunk = String::new();
        for _ in 0..rng.range(10, 40) {
            chunk.push_str(&assign(&mut rng, "      "));
        }
        if rng.below(2) == 0 {
            chunk.push_str(&block_if(&mut rng, "      "));
        } else {
            let nested = rng.below(3) == 0;
            chunk.push_str("      DO I = 1, N\n");
            let indent = if nested {
                chunk.push_str("        DO J = 1, N\n");
                "          "
            } else {
                "        "
            };
            for _ in 0..rng.range(2, 6) {
                chunk.push_str(&assign(&mut rng, indent));
            }
            if rng.below(3) == 0 {
                chunk.push_str(&block_if(&mut rng, indent));
            }
            if nested {
                chunk.push_str("        END DO\n");
            }
            chunk.push_str("      END DO\n");
        }
        written += count(&chunk);
        out.push_str(&chunk);
    }
    out.push_str("      PRINT *, V0\n      END\n");
    out
}

/// The COMMON blocks every unit of the `driver` shape declares.
const DRIVER_COMMONS: &str = "      INTEGER N, LOOP, NPASS, MK, IOU, JR, KR
      REAL T0, TSUM, TMIN, Q, R, S, T, DI, DK, DM, XNM, E3, FW
      REAL ZA, ZB, ZC, ZD, ZE, ZP, ZQ, ZR, U, V, W, X, Y, Z
      REAL TIME, CSUM, WT
      COMMON /PARMS/ N, LOOP, NPASS, MK, IOU, JR, KR
      COMMON /SCALAR/ T0, TSUM, TMIN, Q, R, S, T, DI, DK, DM, XNM, E3,
     &                FW
      COMMON /SPACES/ ZA(1001), ZB(1001), ZC(1001), ZD(1001), ZE(1001),
     &                ZP(4,512), ZQ(1001), ZR(1001)
      COMMON /SPACE1/ U(1001), V(1001), W(1001), X(1001), Y(1001),
     &                Z(1001)
      COMMON /TIMES/ TIME(47), CSUM(47), WT(47)
";

/// A benchmark driver of `units` program units (at least 8): the main
/// program runs every kernel `NPASS` times between timer calls; each kernel
/// subroutine is a dozen small loops over the COMMON arrays (1-D and 2-D,
/// shifted subscripts, reductions into scalars, IFs), and some declare a
/// block with other names (`SPACE1` as one array) or EQUIVALENCE a local
/// array onto it; utilities initialize (DATA), time (ETIME), sum and
/// report (WRITE with FORMAT). About 170 lines per unit.
pub fn driver(units: usize, seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let kernels = units.max(8) - 5;
    let mut out = String::from("      PROGRAM DRIVER\n");
    out.push_str(DRIVER_COMMONS);
    out.push_str("      INTEGER K, IP\n      CALL INIT\n");
    out.push_str("      DO 20 IP = 1, NPASS\n        DO 10 K = 1, MK\n");
    out.push_str("          T0 = TIMER(0.0)\n");
    for k in 0..kernels {
        out.push_str(&format!("          IF (K .EQ. {}) CALL K{k}\n", k + 1));
    }
    out.push_str("          TIME(K) = TIME(K) + TIMER(T0)\n");
    out.push_str("          CALL CHECK(K)\n   10   CONTINUE\n   20 CONTINUE\n");
    out.push_str("      CALL REPORT\n      END\n");
    for k in 0..kernels {
        out.push_str(&driver_kernel(&mut rng, k));
    }
    out.push_str(&format!(
        "      SUBROUTINE INIT\n{DRIVER_COMMONS}      INTEGER I, J
      REAL SPACE1(6006)
      COMMON /SPACE1/ SPACE1
      N = 1001
      LOOP = 3
      NPASS = 2
      MK = {kernels}
      IOU = 6
      DO 10 I = 1, 6006
        SPACE1(I) = 0.001 * MOD(I, 97)
   10 CONTINUE
      DO 20 I = 1, 1001
        ZA(I) = 0.01 * I
        ZB(I) = 1.0 - ZA(I)
        ZC(I) = ZA(I) * ZB(I)
        ZD(I) = 0.5
        ZE(I) = 0.25
        ZQ(I) = 0.1
        ZR(I) = 0.2
   20 CONTINUE
      DO 30 J = 1, 512
        DO 30 I = 1, 4
          ZP(I, J) = 0.001 * (I + J)
   30 CONTINUE
      Q = 0.5
      R = 0.25
      S = 0.125
      T = 0.0625
      DO 40 I = 1, 47
        TIME(I) = 0.0
        CSUM(I) = 0.0
        WT(I) = 1.0
   40 CONTINUE
      END
"
    ));
    out.push_str(
        "      REAL FUNCTION TIMER(T)
      REAL T, TA(2), E
      E = ETIME(TA)
      TIMER = E - T
      END
",
    );
    out.push_str(&format!(
        "      SUBROUTINE CHECK(K)\n{DRIVER_COMMONS}      INTEGER K, I
      REAL SUM
      SUM = 0.0
      DO 10 I = 1, N
        SUM = SUM + X(I) + ABS(ZA(I))
   10 CONTINUE
      CSUM(K) = SUM
      END
"
    ));
    out.push_str(&format!(
        "      SUBROUTINE REPORT\n{DRIVER_COMMONS}      INTEGER K
      WRITE (IOU, 100)
      DO 10 K = 1, MK
        WRITE (IOU, 110) K, TIME(K), CSUM(K)
   10 CONTINUE
  100 FORMAT(//, 1X, 'KERNEL', 6X, 'TIME', 10X, 'CHECKSUM')
  110 FORMAT(1X, I6, 2E14.6)
      END
"
    ));
    out
}

/// One kernel subroutine of the `driver` shape.
fn driver_kernel(rng: &mut Rng, k: usize) -> String {
    let mut out = format!("      SUBROUTINE K{k}\n{DRIVER_COMMONS}      INTEGER I, J, L, M\n");
    let local = k % 4 == 1;
    if local {
        out.push_str("      REAL PX(2048), VX(1001)\n");
        out.push_str("      EQUIVALENCE (ZP(1,1), PX(1)), (V(1), VX(1))\n");
    }
    let arrays = [
        "ZA", "ZB", "ZC", "ZD", "ZE", "ZQ", "ZR", "U", "V", "W", "X", "Y", "Z",
    ];
    let scalars = ["Q", "R", "S", "T", "DI", "DK", "DM", "E3"];
    let pick =
        |rng: &mut Rng, names: &[&'static str]| names[rng.below(names.len() as u64) as usize];
    for l in 0..26 {
        let label = 10 * (l + 1);
        match rng.below(5) {
            0 | 1 => {
                let (a, b, c) = (pick(rng, &arrays), pick(rng, &arrays), pick(rng, &arrays));
                let (p, q) = (pick(rng, &scalars), pick(rng, &scalars));
                let (s1, s2) = (rng.range(0, 11), rng.range(0, 11));
                out.push_str(&format!(
                    "      DO {label} L = 1, LOOP\n      DO {label} I = 1, N - 12\n        {a}(I) = {p} + {b}(I + {s1}) * ({q} * {c}(I + {s2}))\n  {label:>3} CONTINUE\n"
                ));
            }
            2 => {
                let (a, b) = (pick(rng, &arrays), pick(rng, &arrays));
                let p = pick(rng, &scalars);
                out.push_str(&format!(
                    "      {p} = 0.0\n      DO {label} I = 2, N\n        {p} = {p} + {a}(I) * {b}(I - 1)\n        IF ({a}(I) .GT. {p}) {p} = {a}(I)\n  {label:>3} CONTINUE\n"
                ));
            }
            3 => {
                let a = pick(rng, &arrays);
                let zp = if local {
                    "PX(I + 4 * (J - 1))"
                } else {
                    "ZP(I, J)"
                };
                out.push_str(&format!(
                    "      DO {label} J = 2, 512\n        DO {label} I = 1, 4\n          {zp} = ZP(I, J - 1) + {a}(J) * 0.5\n  {label:>3} CONTINUE\n"
                ));
            }
            _ => {
                let (a, b) = (pick(rng, &arrays), pick(rng, &arrays));
                let v = if local { "VX" } else { b };
                out.push_str(&format!(
                    "      M = MOD(KR, 7) + 1\n      DO {label} I = 1, N - 8\n        IF ({v}(I) .LT. 0.5) THEN\n          {a}(I) = {v}(I + M) - DI\n        ELSE\n          {a}(I) = {v}(I) * DK\n        END IF\n  {label:>3} CONTINUE\n"
                ));
            }
        }
        out.push_str(&format!("      TSUM = TSUM + {}(1)\n", pick(rng, &arrays)));
    }
    out.push_str("      END\n");
    out
}

/// `lhs = rhs + 1.0` in a nest's body, each side a reference to an array
/// (of rank 2 when its flag says) with random affine subscripts; the right
/// side on a continuation line (a rank-2 reference on each side would pass
/// column 72).
fn affine_assignment(rng: &mut Rng, lhs: (&str, bool), rhs: (&str, bool)) -> String {
    let lhs = affine_ref(rng, lhs.0, lhs.1);
    let rhs = affine_ref(rng, rhs.0, rhs.1);
    format!("            {lhs} =\n     &        {rhs} + 1.0\n")
}

/// A reference to `array` with random affine subscripts in I, J, K.
fn affine_ref(rng: &mut Rng, array: &str, rank2: bool) -> String {
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
        format!("{array}({a}, {b})")
    } else {
        format!("{array}({})", sub(rng))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generators_are_deterministic_and_sized() {
        assert_eq!(
            dataflow(500, 50, Spread::Window, 7),
            dataflow(500, 50, Spread::Window, 7)
        );
        assert_ne!(
            dataflow(500, 50, Spread::Window, 7),
            dataflow(500, 50, Spread::Window, 8)
        );
        let d = dataflow(1000, 100, Spread::Window, 3);
        let assigns = d.lines().filter(|l| l.contains(" = ")).count();
        assert!(assigns >= 900, "{assigns} assignments");
        // Uniform: the first tenth of the statements already names scalars from
        // the whole range, which the sliding window never does.
        let names_high = |text: &str| {
            let head: String = text.lines().skip(20).take(100).collect();
            (50..100).any(|v| head.contains(&format!("V{v} ")))
        };
        assert!(names_high(&dataflow(1000, 100, Spread::Uniform, 3)));
        assert!(!names_high(&d));
        for shared in [false, true] {
            let n = nests(60, 10, shared, 5);
            assert_eq!(n, nests(60, 10, shared, 5));
            assert_eq!(n.matches("DO I = 1, 10").count(), 60);
            assert!(
                n.lines().all(|l| l.len() <= 72),
                "fixed form fits in 72 columns"
            );
            assert_eq!(n.matches("SUBROUTINE").count(), 2);
            // Shared: three arrays per unit, each referenced in many nests.
            let declared = n.lines().filter(|l| l.contains("REAL")).count();
            assert_eq!(declared, if shared { 2 } else { 60 });
        }
        let s = sweeps(30, 10, 2);
        assert_eq!(s, sweeps(30, 10, 2));
        assert_eq!(s.matches("SUBROUTINE").count(), 1, "one unit");
        assert_eq!(s.matches("DO K = 1, 2").count(), 30);
        assert!(s.contains("            A(I, J) = B(I, J) * 0.5 + C(I, J - 1) + K\n"));
        assert!(s.contains("            C(I, J) = A(I, J) * 0.5 + B(I, J - 1) + K\n"));
        assert!(
            s.lines().all(|l| l.len() <= 72),
            "fixed form fits in 72 columns"
        );
        let l = legacy(3000, 500, 4);
        assert_eq!(l, legacy(3000, 500, 4));
        let lines = l.lines().count();
        assert!((3000..3100).contains(&lines), "{lines} lines");
        assert!(l.contains(" .GT. V") && l.contains("        DO J = 1, N\n"));
        assert!(
            l.lines().all(|l| l.len() <= 72),
            "fixed form fits in 72 columns"
        );
        let d = driver(44, 1);
        assert_eq!(d, driver(44, 1));
        assert_eq!(d.matches("\n      END\n").count(), 44, "44 units");
        assert!(
            d.lines().all(|l| l.len() <= 72),
            "fixed form fits in 72 columns"
        );
        let lines = d.lines().count();
        assert!((6_000..9_000).contains(&lines), "{lines} lines");
    }
}
