//! Random bytes and random token soups never make the parser panic, in
//! either source form, preprocessed or not.

use proptest::prelude::*;

const PIECES: &[&str] = &[
    "PROGRAM",
    "SUBROUTINE",
    "FUNCTION",
    "END",
    "ENDDO",
    "END DO",
    "ENDIF",
    "END IF",
    "DO",
    "10",
    "20",
    "99999",
    "CONTINUE",
    "IF",
    "THEN",
    "ELSE",
    "ELSE IF",
    "GO TO",
    "GOTO",
    "CALL",
    "RETURN",
    "STOP",
    "READ",
    "WRITE",
    "PRINT",
    "FORMAT",
    "DATA",
    "COMMON",
    "/",
    "//",
    "DIMENSION",
    "PARAMETER",
    "INTEGER",
    "REAL*8",
    "CHARACTER*(*)",
    "DOUBLE PRECISION",
    "IMPLICIT NONE",
    "EQUIVALENCE",
    "SAVE",
    "SELECT CASE",
    "CASE",
    "END SELECT",
    "WHERE",
    "MODULE",
    "CONTAINS",
    "INCLUDE 'x.inc'",
    "X",
    "A(I)",
    "I",
    "=",
    "==",
    "+",
    "-",
    "*",
    "**",
    "(",
    ")",
    "(/",
    "/)",
    ",",
    ":",
    "::",
    ";",
    "&",
    "'str",
    "'s'",
    "\"",
    ".EQ.",
    ".AND.",
    ".NOT.",
    ".TRUE.",
    "1.E5",
    "2.5D0",
    ".5",
    "1.",
    "!HPF$",
    "CHPF$",
    "INDEPENDENT",
    "ALIGN",
    "WITH",
    "TEMPLATE",
    "DISTRIBUTE",
    "BLOCK",
    "CYCLIC",
    "ONTO",
    "PROCESSORS",
    "*",
    "!",
    "C",
    "\t",
    "\n",
    "\n     &",
    "\n      ",
    "\n",
    " ",
    "%",
    "=>",
    "@",
    "é",
];

/// Lines that start preprocessed soups: directives, good and bad, and line
/// markers.
const DIRECTIVES: &[&str] = &[
    "#define X 1",
    "#define F(A) (A*2)",
    "#define",
    "#undef X",
    "#ifdef X",
    "#ifndef Y",
    "#if X > 0 &&",
    "#if defined(X) || F(1)",
    "#elif 1",
    "#else",
    "#endif",
    "#include \"none.h\"",
    "#include <none.h>",
    "#include",
    "#error e",
    "#warning w",
    "#pragma p",
    "# 7 \"marked.f\" 1",
    "# 3",
    "#",
    "/* open comment",
    "*/",
];

fn soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 0..200).prop_map(|v| v.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..2000)) {
        let text = String::from_utf8_lossy(&bytes);
        for path in ["r.f", "r.f90"] {
            let _ = kaiseki_frontend::parse_source(path, &text);
        }
    }

    #[test]
    fn token_soups_never_panic(text in soup()) {
        for path in ["s.f", "s.f90"] {
            let (prog, diags) = kaiseki_frontend::parse_source(path, &text);
            // Every diagnostic points into a file that was read.
            for d in &diags {
                prop_assert!(prog.files.iter().any(|f| f.path == d.path));
            }
        }
    }

    #[test]
    fn fixed_form_soups_in_statement_columns_never_panic(lines in prop::collection::vec(soup(), 0..20)) {
        let text: String = lines.iter().map(|l| format!("      {l}\n")).collect();
        let _ = kaiseki_frontend::parse_source("c.f", &text);
    }
}

proptest! {
    // Each case runs cpp twice: fewer cases.
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn preprocessed_soups_never_panic(
        lines in prop::collection::vec((prop::option::of(prop::sample::select(DIRECTIVES)), soup()), 0..12)
    ) {
        let text: String = lines
            .iter()
            .map(|(d, l)| format!("{}\n      {l}\n", d.unwrap_or("")))
            .collect();
        for path in ["p.F", "p.F90", "p.f"] {
            let (prog, diags) = kaiseki_frontend::parse_source(path, &text);
            for d in &diags {
                prop_assert!(prog.files.iter().any(|f| f.path == d.path), "{d}");
            }
        }
    }
}
