//! Random programs whose loops touch array sections: assignments in array
//! syntax inside DO loops (sections whose bounds move with the DO
//! variables, strides, backwards sections, triangular and empty ones),
//! SUM of a section beside element accesses, and calls that pass an
//! element or a whole array to an explicit-shape dummy (sequence
//! association: the procedure touches the elements from the one passed
//! on). Every section stays inside its array for every value the loops
//! take; N is read, so some loops run zero times.

use super::{Generated, Rng};

/// The vectors' extent.
const V_LEN: i64 = 40;
/// The matrices' extent in each dimension.
const M_LEN: i64 = 12;
const VECTORS: [&str; 2] = ["V", "W"];
const MATRICES: [&str; 2] = ["A", "B"];

/// The procedures the calls use: name, dummies' declarations and body.
/// ADD3 writes X(1:3) from Y(1:3); SET2 writes all of X(2,2); PEEK reads
/// X(1) and X(4) of X(4).
const PROCEDURES: &str = "\
SUBROUTINE ADD3(X, Y)
  INTEGER :: X(3), Y(3), K
  DO K = 1, 3
    X(K) = MOD(X(K) + Y(K) + K, 1009)
  END DO
END SUBROUTINE ADD3
SUBROUTINE SET2(X, C)
  INTEGER :: X(2, 2), C, K, L
  DO L = 1, 2
    DO K = 1, 2
      X(K, L) = MOD(C + K + 3*L, 1009)
    END DO
  END DO
END SUBROUTINE SET2
SUBROUTINE PEEK(X, R)
  INTEGER :: X(4), R
  R = MOD(R + X(1) + 2*X(4), 1009)
END SUBROUTINE PEEK
";

/// One random program; the same seed gives the same text.
pub fn section_program(seed: u64) -> Generated {
    let mut rng = Rng::new(seed);
    let mut src = format!(
        "! Random program over array sections, seed {seed}.\nPROGRAM sections\n  INTEGER :: I, J, N, R\n  INTEGER :: V({V_LEN}), W({V_LEN}), A({M_LEN}, {M_LEN}), B({M_LEN}, {M_LEN})\n  READ *, N\n  R = 0\n  DO I = 1, {V_LEN}\n    V(I) = MOD(7*I, 23)\n    W(I) = MOD(3*I + 1, 19)\n  END DO\n  DO J = 1, {M_LEN}\n    DO I = 1, {M_LEN}\n      A(I, J) = MOD(I + 5*J, 17)\n      B(I, J) = MOD(2*I + J, 13)\n    END DO\n  END DO\n"
    );
    for _ in 0..rng.range(3, 5) {
        match rng.range(0, 4) {
            0 | 1 => vector_loop(&mut rng, &mut src),
            2 => matrix_nest(&mut rng, &mut src),
            _ => call_loop(&mut rng, &mut src),
        }
    }
    src.push_str("  PRINT *, SUM(V), SUM(W), SUM(A), SUM(B), R\nEND PROGRAM sections\n");
    src.push_str(PROCEDURES);
    Generated {
        file_name: format!("sections_{seed}.f90"),
        source: src,
        inputs: [0, 3, 9].map(|n| vec![n.to_string()]).to_vec(),
    }
}

/// A DO header: `DO I = lo, hi[, step]` over values within `1..=top`,
/// the upper bound sometimes N; the values the DO variable can take.
fn header(rng: &mut Rng, var: &str, top: i64) -> (String, Vec<i64>) {
    let lo = rng.range(1, 4);
    let hi = rng.range(lo - 1, top.min(lo + 8));
    let (step, by) = match rng.range(0, 5) {
        0 => (2, ", 2".to_string()),
        1 => (-1, ", -1".to_string()),
        _ => (1, String::new()),
    };
    let (first, last) = if step < 0 { (hi, lo) } else { (lo, hi) };
    let upper = if step > 0 && rng.chance(30) {
        format!("MIN(N, {last})")
    } else {
        last.to_string()
    };
    let values = (lo..=hi).collect();
    (format!("DO {var} = {first}, {upper}{by}"), values)
}

/// A section of one dimension of extent `len` (an expression of I) at a
/// base moving with I: `c0 + c1*I : ... : s`, sometimes backwards; `None`
/// when it leaves `1..=top` for some value of I (or is empty for all).
fn range(rng: &mut Rng, var: &str, values: &[i64], len: (i64, i64), top: i64) -> Option<String> {
    let c1 = *rng.pick(&[-1, 0, 1, 2]);
    let s = *rng.pick(&[1, 1, 2]);
    let c0 = rng.range(-4, 12);
    // len = l0 + l1 * I elements.
    let (l0, l1) = len;
    for &i in values {
        let base = c0 + c1 * i;
        let n = l0 + l1 * i;
        if n > 0 && (base < 1 || base + (n - 1) * s > top) {
            return None;
        }
    }
    let base = affine(c0, c1, var);
    let last = affine(c0 + (l0 - 1) * s, c1 + l1 * s, var);
    Some(match (s, rng.chance(20)) {
        (_, true) => format!("{last}:{base}:-{s}"),
        (1, false) => format!("{base}:{last}"),
        _ => format!("{base}:{last}:{s}"),
    })
}

/// `c0 + c1*var` as Fortran.
fn affine(c0: i64, c1: i64, var: &str) -> String {
    let term = match c1 {
        0 => return c0.to_string(),
        1 => var.to_string(),
        -1 => format!("-{var}"),
        c => format!("{c}*{var}"),
    };
    match c0 {
        0 => term,
        c if c > 0 => format!("{term}+{c}"),
        c => format!("{term}{c}"),
    }
}

/// A section of `len` elements of a vector, in bounds, after some tries.
fn vector_section(rng: &mut Rng, values: &[i64], len: (i64, i64)) -> Option<String> {
    let v = *rng.pick(&VECTORS);
    (0..30)
        .find_map(|_| range(rng, "I", values, len, V_LEN))
        .map(|r| format!("{v}({r})"))
}

/// The extent of the sections of one statement: a constant, or growing
/// with I (a triangular section).
fn extent(rng: &mut Rng) -> (i64, i64) {
    if rng.chance(25) {
        (rng.range(0, 1), 1)
    } else {
        (rng.range(1, 4), 0)
    }
}

fn vector_loop(rng: &mut Rng, src: &mut String) {
    let (head, values) = header(rng, "I", 12);
    let len = extent(rng);
    let body = match rng.range(0, 3) {
        0 | 1 => {
            let (Some(x), Some(y), Some(z)) = (
                vector_section(rng, &values, len),
                vector_section(rng, &values, len),
                vector_section(rng, &values, len),
            ) else {
                return;
            };
            format!("{x} = MOD({y} + 2*{z} + I, 1009)")
        }
        2 => {
            let Some(y) = vector_section(rng, &values, len) else {
                return;
            };
            let v = *rng.pick(&VECTORS);
            let c = rng.range(0, 20);
            format!(
                "{v}(I+{c}) = MOD({v}(I+{}) + SUM({y}), 1009)",
                rng.range(0, 20)
            )
        }
        _ => {
            let Some(x) = vector_section(rng, &values, len) else {
                return;
            };
            format!("{x} = I")
        }
    };
    let body = if rng.chance(25) {
        format!("IF (MOD(I, 2) == 0) {body}")
    } else {
        body
    };
    src.push_str(&format!("  {head}\n    {body}\n  END DO\n"));
}

/// `X(r, J+c) = Y(r', J+c')` or the transposed `X(J+c, r)` inside
/// `DO J` (and sometimes a `DO I` around whose variable moves the rows).
fn matrix_nest(rng: &mut Rng, src: &mut String) {
    let (head, values) = header(rng, "I", 8);
    let len = extent(rng);
    let section = |rng: &mut Rng| -> Option<String> {
        let m = *rng.pick(&MATRICES);
        let r = (0..30).find_map(|_| range(rng, "I", &values, len, M_LEN))?;
        let c = rng.range(0, 3);
        Some(if rng.chance(30) {
            format!("{m}(J+{c}, {r})")
        } else {
            format!("{m}({r}, J+{c})")
        })
    };
    let (Some(x), Some(y)) = (section(rng), section(rng)) else {
        return;
    };
    let hi = rng.range(1, M_LEN - 3);
    src.push_str(&format!(
        "  {head}\n    DO J = 1, {hi}\n      {x} = MOD({y} + J, 1009)\n    END DO\n  END DO\n"
    ));
}

/// A loop calling ADD3, SET2 or PEEK on elements that move with I (or a
/// whole vector).
fn call_loop(rng: &mut Rng, src: &mut String) {
    let (head, values) = header(rng, "I", 12);
    // An element actual `X(c0 + c1*I)` whose `span` elements from it on
    // stay in the vector.
    // (ADD3's two dummies get different vectors: overlapping dummies a
    // procedure writes are not Fortran.)
    let element = |rng: &mut Rng, v: &str, span: i64| -> String {
        for _ in 0..30 {
            let c1 = *rng.pick(&[0, 1, 2, 3]);
            let c0 = rng.range(-3, 10);
            if values
                .iter()
                .all(|&i| c0 + c1 * i >= 1 && c0 + c1 * i + span - 1 <= V_LEN)
            {
                return format!("{v}({})", affine(c0, c1, "I"));
            }
        }
        v.to_string()
    };
    let (v, w) = if rng.chance(50) {
        ("V", "W")
    } else {
        ("W", "V")
    };
    let call = match rng.range(0, 3) {
        0 => format!("CALL ADD3({}, {})", element(rng, v, 3), element(rng, w, 3)),
        1 => format!("CALL PEEK({}, R)", element(rng, v, 4)),
        _ => {
            let m = *rng.pick(&MATRICES);
            let row = rng.range(1, M_LEN - 3);
            let col = if values.iter().all(|&i| i < M_LEN) {
                "I".to_string()
            } else {
                "1".to_string()
            };
            format!("CALL SET2({m}({row}, {col}), I)")
        }
    };
    let other = *rng.pick(&VECTORS);
    let body = if rng.chance(40) {
        format!(
            "{call}\n    {other}(I+{c}) = MOD({other}(I+{c}) + 1, 1009)",
            c = rng.range(0, 20)
        )
    } else {
        call
    };
    src.push_str(&format!("  {head}\n    {body}\n  END DO\n"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_program_and_every_shape_appears() {
        assert_eq!(section_program(3).source, section_program(3).source);
        let all: String = (0..60).map(|s| section_program(s).source).collect();
        for f in [
            ":-",
            "CALL ADD3(",
            "CALL SET2(",
            "CALL PEEK(",
            "SUM(",
            "MIN(N",
            ", -1\n",
        ] {
            assert!(all.contains(f), "{f} never generated");
        }
    }
}
