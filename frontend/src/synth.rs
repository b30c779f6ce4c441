//! Large synthetic programs for timing the frontend and the analyses:
//! valid fixed-form Fortran 77 + HPF with many subroutines, deep loop
//! nests (labelled and END DO), affine and non-affine subscripts, block and
//! logical IFs, GOTOs out of loops, COMMON, PARAMETER and HPF mapping
//! directives, and a main program that calls every subroutine.
//!
//! The same `(lines, seed)` always gives the same text.

use std::fmt::Write;

/// A fixed-form program of about `lines` lines (at least one subroutine
/// and the main program), chosen by `seed`.
pub fn synthetic_program(lines: usize, seed: u64) -> String {
    let mut g = Gen {
        rng: Rng(seed ^ 0x9E37_79B9_7F4A_7C15),
        out: String::new(),
        lines: 0,
        label: 0,
    };
    let mut units = 0;
    while units == 0 || g.lines + 12 + units < lines {
        units += 1;
        g.subroutine(units);
    }
    g.main(units);
    g.out
}

/// splitmix64: small, fast and good enough to vary the shapes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// The DO variables of nesting levels 1, 2, ...
const LOOP_VARS: [&str; 6] = ["I", "J", "K", "L", "M", "N2"];

struct Gen {
    rng: Rng,
    out: String,
    lines: usize,
    label: u32,
}

impl Gen {
    /// One statement line: `label` in columns 1-5, the text from column 7.
    fn line(&mut self, label: Option<u32>, indent: usize, text: &str) {
        let lab = label.map_or_else(String::new, |l| l.to_string());
        let _ = writeln!(self.out, "{lab:>5} {:indent$}{text}", "");
        self.lines += 1;
    }

    fn raw(&mut self, text: &str) {
        self.out.push_str(text);
        self.out.push('\n');
        self.lines += 1;
    }

    fn new_label(&mut self) -> u32 {
        self.label += 10;
        self.label
    }

    fn subroutine(&mut self, n: usize) {
        self.label = 0;
        self.raw(&format!("C     Synthetic unit {n}"));
        self.line(None, 0, &format!("SUBROUTINE SUB{n}(A, B, NN)"));
        self.line(None, 0, "INTEGER NN, NP, NQ, I, J, K, L, M, N2, IDX(128)");
        self.line(None, 0, "PARAMETER (NP = 60, NQ = 2*NP + 8)");
        self.line(None, 0, "REAL A(NQ, NQ), B(NQ), S, T, W(0:NQ)");
        self.line(None, 0, &format!("COMMON /BLK{}/ C(NQ), D(NQ)", n % 7));
        self.raw("!HPF$ TEMPLATE TT(NQ, NQ)");
        self.raw("!HPF$ ALIGN (I,J) WITH TT(I,J) :: A");
        self.raw("!HPF$ ALIGN (I) WITH TT(I,*) :: B");
        self.raw("!HPF$ DISTRIBUTE TT(BLOCK, CYCLIC(2))");
        self.line(None, 0, "S = 0.0");
        self.line(None, 0, "T = 1.0");
        let nests = 3 + self.rng.below(6);
        for _ in 0..nests {
            let exit = self.rng.chance(30).then(|| self.new_label() + 9000);
            let depth = 1 + self.rng.below(LOOP_VARS.len());
            self.nest(0, depth, exit);
            if let Some(l) = exit {
                self.line(Some(l), 0, "CONTINUE");
            }
            if self.rng.chance(40) {
                self.if_block(0, 0);
            }
        }
        self.line(None, 0, "RETURN");
        self.line(None, 0, "END");
    }

    /// A loop nest from `level` (0-based) down to `depth`; `exit` is a
    /// label after the nest that inner statements may jump to.
    fn nest(&mut self, level: usize, depth: usize, exit: Option<u32>) {
        let var = LOOP_VARS[level];
        let indent = 2 * level;
        let lower = 2 + self.rng.below(2);
        let upper = ["NP", "NP-1", "NN", "NP/2"][self.rng.below(4)];
        let labelled = self.rng.chance(50);
        let term = labelled.then(|| self.new_label());
        let head = match term {
            Some(l) => format!("DO {l} {var} = {lower}, {upper}"),
            None => format!("DO {var} = {lower}, {upper}"),
        };
        if level == 0 && self.rng.chance(30) {
            self.raw("!HPF$ INDEPENDENT");
        }
        self.line(None, indent, &head);
        let stmts = 1 + self.rng.below(4);
        for _ in 0..stmts {
            self.statement(level, indent + 2, exit);
        }
        if level + 1 < depth {
            self.nest(level + 1, depth, exit);
        }
        self.statement(level, indent + 2, exit);
        match term {
            Some(l) => self.line(Some(l), indent, "CONTINUE"),
            None => self.line(None, indent, "END DO"),
        }
    }

    /// An affine subscript in the enclosing loop variables, within `1..NQ`.
    fn subscript(&mut self, level: usize) -> String {
        let v = LOOP_VARS[self.rng.below(level + 1)];
        match self.rng.below(5) {
            0 => v.to_string(),
            1 => format!("{v}+1"),
            2 => format!("{v}-1"),
            3 => format!("2*{v}"),
            _ => format!("{v}+{}", LOOP_VARS[self.rng.below(level + 1)]),
        }
    }

    fn statement(&mut self, level: usize, indent: usize, exit: Option<u32>) {
        let (s1, s2, s3) = (
            self.subscript(level),
            self.subscript(level),
            self.subscript(level),
        );
        let text = match self.rng.below(10) {
            0 => format!("A({s1}, {s2}) = A({s2}, {s1}) + B({s3})"),
            1 => format!("B({s1}) = B({s2}) * 0.5 + C({s3})"),
            2 => format!("S = S + A({s1}, {s2}) * D({s3})"),
            3 => format!("W({s1}) = T - S"),
            4 => format!("C({s1}) = D({s2}) + W(IDX({s3}))"),
            5 => {
                let (l, r) = (s1, s2);
                self.line(None, indent, &format!("IF (A({l}, {r}) .GT. S) THEN"));
                self.line(None, indent + 2, &format!("T = T + A({l}, {r})"));
                self.line(None, indent, "ELSE");
                self.line(None, indent + 2, &format!("T = T - B({l})"));
                self.line(None, indent, "END IF");
                return;
            }
            6 => match exit {
                Some(l) => format!("IF (S .GT. 1.0E6) GOTO {l}"),
                None => format!("IF (T .LT. 0.0) B({s1}) = 0.0"),
            },
            7 => format!("D({s1}) = MAX(D({s2}), ABS(B({s3})))"),
            8 => format!("IDX({s1}) = MOD({}, NQ) + 1", LOOP_VARS[level]),
            _ => format!(
                "A({s1}, {s2}) = SQRT(ABS(B({s3}))) + REAL({})",
                LOOP_VARS[level]
            ),
        };
        self.line(None, indent, &text);
    }

    fn if_block(&mut self, indent: usize, depth: usize) {
        self.line(None, indent, "IF (S .GT. T) THEN");
        self.line(None, indent + 2, "S = S - T");
        self.line(None, indent, "ELSE IF (S .LT. 0.0) THEN");
        if depth < 2 {
            self.if_block(indent + 2, depth + 1);
        } else {
            self.line(None, indent + 2, "S = 0.0");
        }
        self.line(None, indent, "END IF");
    }

    fn main(&mut self, units: usize) {
        self.raw("C     Synthetic main program");
        self.line(None, 0, "PROGRAM SYNTH");
        self.line(None, 0, "INTEGER NP, NQ, N");
        self.line(None, 0, "PARAMETER (NP = 60, NQ = 2*NP + 8)");
        self.line(None, 0, "REAL X(NQ, NQ), Y(NQ)");
        self.line(None, 0, "N = NP");
        for n in 1..=units {
            self.line(None, 0, &format!("CALL SUB{n}(X, Y, N)"));
        }
        self.line(None, 0, "PRINT *, X(1, 1), Y(1)");
        self.line(None, 0, "END");
    }
}

#[cfg(test)]
mod tests {
    use super::synthetic_program;

    #[test]
    fn programs_are_deterministic_and_about_the_asked_size() {
        let a = synthetic_program(2000, 7);
        assert_eq!(a, synthetic_program(2000, 7));
        assert_ne!(a, synthetic_program(2000, 8));
        let n = a.lines().count();
        assert!((1900..=2300).contains(&n), "{n} lines");
        // Fixed form: statements fit in columns 1-72.
        assert!(
            a.lines().all(|l| l.len() <= 72),
            "a line is longer than 72 columns"
        );
    }
}
