//! Random HPF programs for `kaiseki spmd`: arrays aligned with templates
//! (offsets, transposes, one alignment through another array), templates
//! distributed BLOCK, CYCLIC, CYCLIC(2) or `*` per dimension, loop nests
//! that read shifted and transposed elements (some under an IF), section
//! assignments (offsets, strides, backwards), two reductions over sections, and the
//! arrays' checksums printed. Values are integers kept small with MOD.

use super::{Generated, Rng};

const N: i64 = 12;
const MATRICES: [&str; 3] = ["A", "B", "C"];
const VECTORS: [&str; 2] = ["U", "V"];

/// One random HPF program; the same seed gives the same text.
pub fn hpf_program(seed: u64) -> Generated {
    let mut rng = Rng::new(seed);
    let formats = ["BLOCK", "CYCLIC", "CYCLIC(2)", "*"];
    let (mut f1, f2) = (*rng.pick(&formats), *rng.pick(&formats));
    if f1 == "*" && f2 == "*" {
        f1 = "BLOCK";
    }
    let f3 = *rng.pick(&formats[..3]);
    let mut src = format!(
        "! Random HPF program, seed {seed}.\nPROGRAM hpf_random\n  INTEGER :: I, J, K, L\n  INTEGER :: A({N}, {N}), B({N}, {N}), C({N}, {N}), U({N}), V({N})\n!HPF$ TEMPLATE T({m}, {m})\n!HPF$ TEMPLATE S({m})\n",
        m = N + 2
    );
    for a in &MATRICES[..2] {
        let (o1, o2) = (rng.range(0, 2), rng.range(0, 2));
        if rng.chance(40) {
            src.push_str(&format!("!HPF$ ALIGN {a}(I, J) WITH T(J+{o2}, I+{o1})\n"));
        } else {
            src.push_str(&format!("!HPF$ ALIGN {a}(I, J) WITH T(I+{o1}, J+{o2})\n"));
        }
    }
    src.push_str("!HPF$ ALIGN C(:, :) WITH A(:, :)\n");
    let o = rng.range(0, 2);
    if rng.chance(50) {
        src.push_str(&format!("!HPF$ ALIGN U(I) WITH T(I+{o}, 1)\n"));
    } else {
        src.push_str(&format!("!HPF$ ALIGN U(I) WITH S(I+{o})\n"));
    }
    src.push_str(&format!("!HPF$ ALIGN V(I) WITH S(I+{})\n", rng.range(0, 2)));
    src.push_str(&format!(
        "!HPF$ DISTRIBUTE T({f1}, {f2})\n!HPF$ DISTRIBUTE S({f3})\n"
    ));
    src.push_str(&format!(
        "  DO J = 1, {N}\n    DO I = 1, {N}\n      A(I, J) = MOD(7*I + 3*J, 23)\n      B(I, J) = MOD(I + 2*J, 19)\n      C(I, J) = 0\n    END DO\n    U(J) = MOD(5*J, 13)\n    V(J) = 0\n  END DO\n"
    ));
    for _ in 0..rng.range(2, 4) {
        match rng.range(0, 3) {
            0 | 1 => matrix_nest(&mut rng, &mut src),
            2 => vector_loop(&mut rng, &mut src),
            _ => section_assignment(&mut rng, &mut src),
        }
    }
    let (x, y, z) = (
        *rng.pick(&MATRICES),
        *rng.pick(&MATRICES),
        *rng.pick(&MATRICES),
    );
    let (e1, e2) = (rng.range(1, 8), rng.range(1, 8));
    let (s1, s2) = (rng.range(1, 2), rng.range(1, 2));
    src.push_str(&format!(
        "  K = MAXVAL(ABS({} - {}))\n  L = SUM(MOD({}, 7))\n",
        section(&mut rng, x, (e1, s1), (e2, s2)),
        section(&mut rng, y, (e1, s1), (e2, s2)),
        section(&mut rng, z, (e2, s2), (e1, s1)),
    ));
    src.push_str(
        "  PRINT *, SUM(A), SUM(B), SUM(C), SUM(U), SUM(V), K, L\nEND PROGRAM hpf_random\n",
    );
    Generated {
        file_name: format!("hpf_random_{seed}.f90"),
        source: src,
        inputs: vec![vec![]],
    }
}

/// `X(I+a, J+b)` or its transpose, shifted by -2..2.
fn element(rng: &mut Rng, array: &str) -> String {
    let (a, b) = (shift(rng), shift(rng));
    if rng.chance(30) {
        format!("{array}(J{b}, I{a})")
    } else {
        format!("{array}(I{a}, J{b})")
    }
}

fn shift(rng: &mut Rng) -> String {
    match rng.range(-2, 2) {
        0 => String::new(),
        k if k > 0 => format!("+{k}"),
        k => k.to_string(),
    }
}

fn matrix_nest(rng: &mut Rng, src: &mut String) {
    let lhs = *rng.pick(&MATRICES);
    let (r1, r2) = (*rng.pick(&MATRICES), *rng.pick(&MATRICES));
    let target = element(rng, lhs);
    let (x, y) = (element(rng, r1), element(rng, r2));
    let stmt = format!("{target} = MOD({x} + 2*{y} + I, 1009)");
    src.push_str(&format!("  DO I = 3, {}\n    DO J = 3, {}\n", N - 2, N - 2));
    if rng.chance(30) {
        src.push_str(&format!(
            "      IF (MOD(I + J, 3) == 0) THEN\n        {stmt}\n      END IF\n"
        ));
    } else {
        src.push_str(&format!("      {stmt}\n"));
    }
    src.push_str("    END DO\n  END DO\n");
}

/// `X(lo1:hi1:s1, lo2:hi2:s2)` of `e1` by `e2` elements (at most what
/// fits) at a random place; a dimension sometimes backwards
/// (`hi:lo:-s`: array syntax pairs elements in order).
fn section(rng: &mut Rng, array: &str, (e1, s1): (i64, i64), (e2, s2): (i64, i64)) -> String {
    let dim = |rng: &mut Rng, e: i64, s: i64| {
        let e = e.min(1 + (N - 1) / s);
        let lo = rng.range(1, N - (e - 1) * s);
        let hi = lo + (e - 1) * s;
        if rng.chance(20) {
            format!("{hi}:{lo}:-{s}")
        } else if s == 1 {
            format!("{lo}:{hi}")
        } else {
            format!("{lo}:{hi}:{s}")
        }
    };
    let (d1, d2) = (dim(rng, e1, s1), dim(rng, e2, s2));
    format!("{array}({d1}, {d2})")
}

/// `X(section) = MOD(Y(section) + 2*Z(section) + 1, 1009)`, the sections
/// conforming, each at its own place; Y and Z are mostly other arrays
/// than X (a read of X elsewhere than the element assigned is the
/// conservative case).
fn section_assignment(rng: &mut Rng, src: &mut String) {
    let (e1, e2) = (rng.range(2, 9), rng.range(2, 9));
    let (s1, s2) = (rng.range(1, 2), rng.range(1, 2));
    let lhs = *rng.pick(&MATRICES);
    let others: Vec<&str> = MATRICES.iter().copied().filter(|a| *a != lhs).collect();
    let x = section(rng, lhs, (e1, s1), (e2, s2));
    let read = |rng: &mut Rng| {
        let a = if rng.chance(75) {
            *rng.pick(&others)
        } else {
            lhs
        };
        section(rng, a, (e1, s1), (e2, s2))
    };
    let (y, z) = (read(rng), read(rng));
    src.push_str(&format!("  {x} = MOD({y} + 2*{z} + 1, 1009)\n"));
}

fn vector_loop(rng: &mut Rng, src: &mut String) {
    let lhs = *rng.pick(&VECTORS);
    let other = *rng.pick(&VECTORS);
    let m = *rng.pick(&MATRICES);
    let col = rng.range(1, N);
    src.push_str(&format!(
        "  DO I = 3, {}\n    {lhs}(I{}) = MOD({other}(I{}) + {m}(I{}, {col}), 1009)\n  END DO\n",
        N - 2,
        shift(rng),
        shift(rng),
        shift(rng)
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_program_and_every_format_appears() {
        assert_eq!(hpf_program(3).source, hpf_program(3).source);
        let all: String = (0..40).map(|s| hpf_program(s).source).collect();
        for f in ["(BLOCK,", "CYCLIC(2)", "*)", "T(J+", "WITH S("] {
            assert!(all.contains(f), "{f} never generated");
        }
    }
}
