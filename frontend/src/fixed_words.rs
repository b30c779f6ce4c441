//! The words of a fixed-form statement, whose blanks the line stage left
//! out: a statement's keyword runs into what follows it (`DO10I=1,N`,
//! `REALFUNCTIONF(X)`, `GOTO10`, `IMPLICITDOUBLEPRECISION(A-H)`), and
//! [`split_head`] splits it off, as the lexer would have split the words
//! written with blanks.
//!
//! Fortran decides by the statement's shape: `word[(...)]... = ...` is an
//! assignment, whatever its word, unless a comma follows the `=` outside
//! parentheses (`DO10I=1,N` is a DO; `DO10I=1.5` assigns DO10I); any other
//! statement starts with a keyword, the longest that fits.

use crate::lexer::{close_of, push_word, Kw, Spanned, Tok};

/// What may follow a statement keyword inside the same word.
#[derive(Clone, Copy)]
enum Tail {
    /// A name (`CALLFOO`, `REALX`, `DATAX`); for a statement the analyses
    /// set aside whole (`REWIND5`), whatever is left.
    Name,
    /// A statement label or a name (`GOTO10`, `PRINT100`, `GOTOL`, `STOP1`).
    Target,
    /// An optional label, then WHILE or the DO variable.
    Do,
    /// NONE or a type.
    Implicit,
    /// The kind of unit or construct ended (`ENDSUBROUTINEF`), then its name.
    End,
    /// Another keyword: the unit the prefix qualifies (`RECURSIVESUBROUTINEF`).
    Prefix,
}

/// Statement keywords and what may run into them, longest first where one
/// starts another (`DOUBLEPRECISION` before `DO`, `ENDFILE` before `END`).
const HEADS: &[(&str, Tail)] = &[
    ("DOUBLEPRECISION", Tail::Name),
    ("DOUBLECOMPLEX", Tail::Name),
    ("INTEGER", Tail::Name),
    ("REAL", Tail::Name),
    ("COMPLEX", Tail::Name),
    ("LOGICAL", Tail::Name),
    ("CHARACTER", Tail::Name),
    ("IMPLICIT", Tail::Implicit),
    ("PROGRAM", Tail::Name),
    ("SUBROUTINE", Tail::Name),
    ("FUNCTION", Tail::Name),
    ("BLOCKDATA", Tail::Name),
    ("RECURSIVE", Tail::Prefix),
    ("ELEMENTAL", Tail::Prefix),
    ("PURE", Tail::Prefix),
    ("EXTRINSIC", Tail::Prefix),
    ("DIMENSION", Tail::Name),
    ("COMMON", Tail::Name),
    ("DATA", Tail::Name),
    ("SAVE", Tail::Name),
    ("EXTERNAL", Tail::Name),
    ("INTRINSIC", Tail::Name),
    ("CALL", Tail::Name),
    ("GOTO", Tail::Target),
    ("PRINT", Tail::Target),
    ("READ", Tail::Target),
    ("RETURN", Tail::Target),
    ("STOP", Tail::Target),
    ("PAUSE", Tail::Target),
    ("ENDFILE", Tail::Name),
    ("END", Tail::End),
    ("DO", Tail::Do),
    ("ASSIGN", Tail::Name),
    ("ENTRY", Tail::Name),
    ("NAMELIST", Tail::Name),
    ("OPEN", Tail::Name),
    ("CLOSE", Tail::Name),
    ("INQUIRE", Tail::Name),
    ("REWIND", Tail::Name),
    ("BACKSPACE", Tail::Name),
    ("CASE", Tail::Name),
    ("POINTER", Tail::Name),
    ("USE", Tail::Name),
    ("TYPE", Tail::Name),
];

/// What ends: `END` + one of these, then the construct's or unit's name.
const ENDED: &[&str] = &[
    "BLOCKDATA",
    "SUBROUTINE",
    "FUNCTION",
    "PROGRAM",
    "DO",
    "IF",
    "TYPE",
];

/// What IMPLICIT is followed by.
const IMPLICIT_WORDS: &[&str] = &[
    "DOUBLEPRECISION",
    "DOUBLECOMPLEX",
    "INTEGER",
    "REAL",
    "COMPLEX",
    "LOGICAL",
    "CHARACTER",
    "NONE",
];

/// Splits the keyword off the word at `s` (a name token of a squeezed
/// statement), and in a type statement the FUNCTION after a length
/// (`REAL*8FUNCTIONF(X)`) or the name a length ran into (`REAL*8D1`).
/// `assignment`: the statement has the shape of an assignment.
pub fn split_head(toks: &mut Vec<Spanned>, s: usize, assignment: bool) {
    let word = match toks.get(s) {
        Some((at, Tok::Ident(w), _)) => Some((*at, w.clone())),
        // A keyword stands alone (`DOUBLEPRECISION::X`), unless a DO
        // statement starts with it: `DOUBLE=1,2` is `DO UBLE = 1, 2`.
        Some((at, Tok::Kw(k), _)) if assignment => Some((*at, k.text().to_string())),
        _ => None,
    };
    if let Some((at, word)) = word {
        let found = if assignment {
            let is_do = word.len() > 2 && word.starts_with("DO") && comma_after_equals(toks, s);
            is_do.then_some(("DO", Tail::Do))
        } else {
            HEADS.iter().find(|(h, _)| word.starts_with(h)).copied()
        };
        let Some((head, t)) = found else {
            return;
        };
        let mut pieces = Vec::new();
        push_word(&mut pieces, head, at);
        tail(t, &word[head.len()..], at + head.len(), &mut pieces);
        toks.splice(s..=s, pieces);
    }
    if assignment {
        return;
    }
    // `EXTRINSIC(...)` ends its word: the statement goes on after it
    // (`PUREEXTRINSIC(HPF_LOCAL)SUBROUTINEF(A)`).
    let prefixes = toks[s..]
        .iter()
        .take_while(|t| matches!(t.1, Tok::Kw(Kw::Recursive | Kw::Pure | Kw::Elemental)))
        .count();
    let e = s + prefixes;
    if toks.get(e).is_some_and(|t| t.1 == Tok::Kw(Kw::Extrinsic))
        && toks.get(e + 1).is_some_and(|t| t.1 == Tok::LParen)
    {
        if let Some(c) = close_of(toks, e + 1) {
            split_head(toks, c + 1, false);
        }
        return;
    }
    let type_words = match toks.get(s).map(|t| &t.1) {
        Some(Tok::Kw(Kw::Double)) => 2,
        Some(Tok::Kw(k)) if TYPE_KEYWORDS.contains(k) => 1,
        _ => 0,
    };
    if type_words > 0 {
        after_length(toks, s + type_words);
    }
}

/// The keywords that start a type statement (DOUBLE with its second word).
const TYPE_KEYWORDS: &[Kw] = &[
    Kw::Integer,
    Kw::Real,
    Kw::Complex,
    Kw::Logical,
    Kw::Character,
];

/// `word[at..]` after the keyword, by what may follow it.
fn tail(t: Tail, rest: &str, at: usize, out: &mut Vec<Spanned>) {
    if rest.is_empty() {
        return;
    }
    let name = |out: &mut Vec<Spanned>, text: &str, at: usize| {
        if !text.is_empty() {
            out.push((at, Tok::Ident(text.to_string()), at + text.len()));
        }
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    match t {
        // A FUNCTION running into a type's name is split by
        // `after_length`, which sees whether dummy arguments follow.
        Tail::Name => name(out, rest, at),
        Tail::Target if digits == rest.len() => label(out, rest, at),
        Tail::Target => name(out, rest, at),
        Tail::Do => {
            label(out, &rest[..digits], at);
            let after = &rest[digits..];
            if after == "WHILE" {
                push_word(out, after, at + digits);
            } else {
                name(out, after, at + digits);
            }
        }
        Tail::Implicit => match IMPLICIT_WORDS.iter().find(|t| **t == rest) {
            Some(t) => push_word(out, t, at),
            None => name(out, rest, at),
        },
        Tail::End => match ENDED.iter().find(|e| rest.starts_with(*e)) {
            Some(e) => {
                push_word(out, e, at);
                name(out, &rest[e.len()..], at + e.len());
            }
            None => name(out, rest, at),
        },
        Tail::Prefix => match HEADS.iter().find(|(h, _)| rest.starts_with(h)) {
            Some(&(h, t)) => {
                push_word(out, h, at);
                tail(t, &rest[h.len()..], at + h.len(), out);
            }
            None => name(out, rest, at),
        },
    }
}

/// Digits as a label token.
fn label(out: &mut Vec<Spanned>, digits: &str, at: usize) {
    if let Ok(v) = digits.parse::<i64>() {
        out.push((at, Tok::Int(v), at + digits.len()));
    }
}

/// Whether a comma stands outside parentheses after the first `=` at the
/// statement's top level from `s`.
fn comma_after_equals(toks: &[Spanned], s: usize) -> bool {
    let mut i = s;
    let mut seen_equals = false;
    while i < toks.len() {
        match toks[i].1 {
            Tok::LParen | Tok::LCtor => match close_of(toks, i) {
                Some(c) => i = c,
                None => return false,
            },
            Tok::Equals => seen_equals = true,
            Tok::Comma if seen_equals => return true,
            _ => {}
        }
        i += 1;
    }
    false
}

/// In a type statement from `i`: past a length (`*8`, `*(*)`, `(KIND=8)`),
/// a name that begins with FUNCTION before a list of dummy arguments is a
/// function's (`CHARACTER*8FUNCTIONF(X)`), and a real constant the length ran into
/// is the length and a name (`REAL*8D1` is REAL*8 D1, not REAL*8.0E1).
fn after_length(toks: &mut Vec<Spanned>, i: usize) {
    let mut j = i;
    match toks.get(j).map(|t| &t.1) {
        Some(Tok::Star) => {
            j += 1;
            match toks.get(j).map(|t| &t.1) {
                Some(Tok::LParen) => j = close_of(toks, j).map_or(toks.len(), |c| c + 1),
                Some(Tok::Real(_)) => {
                    split_length(toks, j);
                    j += 1;
                }
                _ => j += 1,
            }
        }
        Some(Tok::LParen) => j = close_of(toks, j).map_or(toks.len(), |c| c + 1),
        _ => {}
    }
    if let Some((at, Tok::Ident(w), _)) = toks.get(j).cloned() {
        if let (Some(f), true) = (w.strip_prefix("FUNCTION"), dummy_list(toks, j + 1)) {
            if !f.is_empty() {
                let mut pieces = Vec::new();
                push_word(&mut pieces, "FUNCTION", at);
                pieces.push((at + 8, Tok::Ident(f.to_string()), at + w.len()));
                toks.splice(j..=j, pieces);
            }
        }
    }
}

/// Whether `toks[i..]` is `(names)` up to the end, as after a FUNCTION's
/// name; `REAL FUNCTIONS(10)` declares an array.
fn dummy_list(toks: &[Spanned], i: usize) -> bool {
    toks.get(i).is_some_and(|t| t.1 == Tok::LParen)
        && close_of(toks, i) == Some(toks.len() - 1)
        && toks[i + 1..toks.len() - 1]
            .iter()
            .enumerate()
            .all(|(k, t)| match k % 2 {
                0 => matches!(t.1, Tok::Ident(_) | Tok::Kw(_)),
                _ => t.1 == Tok::Comma,
            })
}

/// `8D1` (a real by its shape) at `j` is the length 8 and the name `D1`,
/// joined with a name right after it (`8D1X`).
fn split_length(toks: &mut Vec<Spanned>, j: usize) {
    let (at, Tok::Real(text), end) = toks[j].clone() else {
        return;
    };
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let Ok(len) = text[..digits].parse::<i64>() else {
        return;
    };
    if digits == text.len() || !text.as_bytes()[digits].is_ascii_alphabetic() {
        return;
    }
    let mut name = text[digits..].to_ascii_uppercase();
    let mut name_end = end;
    let mut take = j + 1..j + 1;
    if let Some((s, Tok::Ident(more), e)) = toks.get(j + 1) {
        if *s == end {
            name.push_str(more);
            name_end = *e;
            take = j + 1..j + 2;
        }
    }
    toks.drain(take);
    toks.splice(
        j..=j,
        [
            (at, Tok::Int(len), at + digits),
            (at + digits, Tok::Ident(name), name_end),
        ],
    );
}

#[cfg(test)]
mod tests {
    use crate::classify::classify;
    use crate::lexer::tokenize;

    /// The squeezed statement's tokens after classification, as text.
    fn words(s: &str) -> Vec<String> {
        let (mut t, p) = tokenize(s, 0);
        assert_eq!(p, None, "{s}");
        classify(&mut t, false, true).unwrap();
        t.iter()
            .map(|(a, tok, e)| match tok {
                crate::lexer::Tok::Unmodelled(u) => format!("<{}>", u.what),
                _ => s[*a..*e].to_string(),
            })
            .collect()
    }

    #[test]
    fn heads_split_by_the_statement_shape() {
        assert_eq!(words("DO10I=1,N"), ["DO", "10", "I", "=", "1", ",", "N"]);
        assert_eq!(words("DO10I=1.5"), ["DO10I", "=", "1.5"]);
        assert_eq!(
            words("DOUBLE=F(1,2)"),
            ["DOUBLE", "=", "F", "(", "1", ",", "2", ")"]
        );
        assert_eq!(words("DOUBLE=1,2"), ["DO", "UBLE", "=", "1", ",", "2"]);
        assert_eq!(words("DOUBLEPRECISIONX"), ["DOUBLE", "PRECISION", "X"]);
        assert_eq!(
            words("DOUBLEPRECISION::X"),
            ["DOUBLE", "PRECISION", "::", "X"]
        );
        assert_eq!(words("REAL*8X"), ["REAL", "*", "8", "X"]);
        assert_eq!(words("GOTO10"), ["GO", "TO", "10"]);
        assert_eq!(words("GOTOL,(10,20)"), ["<assigned GO TO>"]);
        assert_eq!(words("ASSIGN10TOL"), ["<ASSIGN statement>"]);
        assert_eq!(words("IMPLICITNONE"), ["IMPLICIT", "NONE"]);
        assert_eq!(
            words("RECURSIVESUBROUTINEF(X)"),
            ["RECURSIVE", "SUBROUTINE", "F", "(", "X", ")"]
        );
        assert_eq!(words("ENDSUBROUTINEFOO"), ["END", "SUBROUTINE", "FOO"]);
        assert_eq!(words("TYPEGRID"), ["TYPE", "GRID"]);
        assert_eq!(words("ENDTYPEGRID"), ["ENDTYPE", "GRID"]);
        assert_eq!(words("TYPE(GRID)M"), ["TYPE", "(", "GRID", ")", "M"]);
        assert_eq!(words("TYPEX=1"), ["TYPEX", "=", "1"]);
        assert_eq!(
            words("PUREEXTRINSIC(HPF_LOCAL)REALFUNCTIONF(A)"),
            [
                "PURE",
                "EXTRINSIC",
                "(",
                "HPF_LOCAL",
                ")",
                "REAL",
                "FUNCTION",
                "F",
                "(",
                "A",
                ")"
            ]
        );
        assert_eq!(words("ENDFILE5"), ["<ENDFILE statement>"]);
        assert_eq!(words("IF(X)RETURN1"), ["IF", "(", "X", ")", "RETURN", "1"]);
    }

    #[test]
    fn lengths_of_type_statements_end_before_names() {
        assert_eq!(
            words("REAL*8FUNCTIONF(X)"),
            ["REAL", "*", "8", "FUNCTION", "F", "(", "X", ")"]
        );
        assert_eq!(
            words("INTEGER*4E1X,D2"),
            ["INTEGER", "*", "4", "E1X", ",", "D2"]
        );
        assert_eq!(
            words("CHARACTER*(*)FUNCTIONS(N)"),
            [
                "CHARACTER",
                "*",
                "(",
                "*",
                ")",
                "FUNCTION",
                "S",
                "(",
                "N",
                ")"
            ]
        );
        assert_eq!(words("REALFUNCTIONS"), ["REAL", "FUNCTIONS"]);
        assert_eq!(
            words("REALFUNCTIONS(10),X"),
            ["REAL", "FUNCTIONS", "(", "10", ")", ",", "X"]
        );
        assert_eq!(
            words("LOGICALFUNCTIONP()"),
            ["LOGICAL", "FUNCTION", "P", "(", ")"]
        );
    }
}
