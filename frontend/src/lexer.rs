//! Tokens of one logical statement (logos). Keywords are recognised in any
//! case; whether a keyword is really a name is decided later by
//! [`crate::classify`] and the grammar (Fortran reserves no words).

use crate::statement::ConstructRole;
use logos::Logos;

macro_rules! keywords {
    ($($v:ident = $s:literal),* $(,)?) => {
        /// The words the grammar knows as keywords.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Kw { $($v),* }

        impl Kw {
            pub fn text(self) -> &'static str {
                match self { $(Kw::$v => $s),* }
            }

            /// `word` must be upper case.
            pub fn from_word(word: &str) -> Option<Kw> {
                match word { $($s => Some(Kw::$v),)* _ => None }
            }
        }
    };
}

keywords! {
    Program = "PROGRAM", Subroutine = "SUBROUTINE", Function = "FUNCTION",
    Block = "BLOCK", Data = "DATA", End = "END", Recursive = "RECURSIVE",
    Pure = "PURE", Elemental = "ELEMENTAL", Result = "RESULT",
    Integer = "INTEGER", Real = "REAL", Double = "DOUBLE", Precision = "PRECISION",
    Complex = "COMPLEX", Logical = "LOGICAL", Character = "CHARACTER",
    Dimension = "DIMENSION", Parameter = "PARAMETER", Common = "COMMON",
    Equivalence = "EQUIVALENCE", Save = "SAVE", External = "EXTERNAL",
    Intrinsic = "INTRINSIC", Implicit = "IMPLICIT", None = "NONE",
    Do = "DO", While = "WHILE", If = "IF", Then = "THEN", Else = "ELSE",
    Go = "GO", To = "TO", Continue = "CONTINUE", Call = "CALL",
    Return = "RETURN", Stop = "STOP", Read = "READ", Write = "WRITE",
    Print = "PRINT", Contains = "CONTAINS",
    Processors = "PROCESSORS", Template = "TEMPLATE", Align = "ALIGN",
    With = "WITH", Distribute = "DISTRIBUTE", Onto = "ONTO", Cyclic = "CYCLIC",
    Independent = "INDEPENDENT", New = "NEW", Dynamic = "DYNAMIC",
    Realign = "REALIGN", Redistribute = "REDISTRIBUTE", Inherit = "INHERIT",
    Extrinsic = "EXTRINSIC", Use = "USE", Namelist = "NAMELIST",
    Public = "PUBLIC", Private = "PRIVATE", Allocatable = "ALLOCATABLE",
    Target = "TARGET", Volatile = "VOLATILE", Contiguous = "CONTIGUOUS",
    Intent = "INTENT", Optional = "OPTIONAL", Allocate = "ALLOCATE",
    Deallocate = "DEALLOCATE", Module = "MODULE", Interface = "INTERFACE",
    Procedure = "PROCEDURE",
}

/// Words written without their blank (`ENDDO`) and the words they stand for.
pub(crate) const COMPOUNDS: &[(&str, &[&str])] = &[
    ("GOTO", &["GO", "TO"]),
    ("ELSEIF", &["ELSE", "IF"]),
    ("ENDIF", &["END", "IF"]),
    ("ENDDO", &["END", "DO"]),
    ("DOWHILE", &["DO", "WHILE"]),
    ("DOUBLEPRECISION", &["DOUBLE", "PRECISION"]),
    ("DOUBLECOMPLEX", &["DOUBLE", "COMPLEX"]),
    ("BLOCKDATA", &["BLOCK", "DATA"]),
    ("ENDPROGRAM", &["END", "PROGRAM"]),
    ("ENDSUBROUTINE", &["END", "SUBROUTINE"]),
    ("ENDFUNCTION", &["END", "FUNCTION"]),
    ("ENDBLOCKDATA", &["END", "BLOCK", "DATA"]),
    ("ENDBLOCK", &["END", "BLOCK"]),
    ("SELECTCASE", &["SELECT", "CASE"]),
    ("ENDSELECT", &["END", "SELECT"]),
    ("ENDWHERE", &["END", "WHERE"]),
    ("ENDFORALL", &["END", "FORALL"]),
    ("ENDINTERFACE", &["END", "INTERFACE"]),
    ("ENDTYPE", &["END", "TYPE"]),
    ("ENDMODULE", &["END", "MODULE"]),
    ("ENDASSOCIATE", &["END", "ASSOCIATE"]),
];

/// A statement (or construct part) that is valid Fortran the analyses do
/// not model.
#[derive(Clone, Debug, PartialEq)]
pub struct Unmodelled {
    /// What it is, e.g. "OPEN statement".
    pub what: String,
    pub role: Option<ConstructRole>,
}

/// A token of the grammar.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// A name, upper case.
    Ident(String),
    Kw(Kw),
    Int(i64),
    /// A real literal as written (`1.0E30`, `2.5D0`, `.5`).
    Real(String),
    /// A character constant, quotes removed.
    Str(String),
    True,
    False,
    Plus,
    Minus,
    Star,
    Pow,
    Slash,
    Concat,
    LParen,
    RParen,
    /// `(/` and `/)` (or `[` and `]`) around an array constructor.
    LCtor,
    RCtor,
    Comma,
    Colon,
    DColon,
    Equals,
    Percent,
    Arrow,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
    Not,
    Eqv,
    Neqv,
    /// A user-defined operator `.NAME.`.
    DefinedOp(String),
    /// Put by [`crate::classify`]: one value list of a DATA statement
    /// (`/1.0, 2*0/`), its tokens inside the slashes; the grammar reads
    /// them apart, so that values it does not model cost only the values.
    DataValues(Vec<Spanned>),
    /// Put by [`crate::classify`]: the rest of a statement the analyses do
    /// not model, with what it is.
    Unmodelled(Unmodelled),
    /// Put first in an HPF directive.
    Hpf,
    /// Put by [`crate::classify`]: a FORMAT statement (contents not kept).
    Format,
    /// Put by [`crate::classify`]: the `POINTER` of a Cray pointer
    /// statement, `POINTER (P, A(N))`.
    CrayPointer,
    /// Put by [`crate::classify`]: the `(` that opens an implied-DO list
    /// of a READ, WRITE or PRINT (never a parenthesized expression or a
    /// complex constant).
    ImpliedDoOpen,
    /// Put by [`crate::classify`]: the word opening OPEN, CLOSE, INQUIRE,
    /// REWIND, BACKSPACE or ENDFILE with a parenthesized specifier list.
    FileStmt(String),
    /// Put by [`crate::classify`]: the keywords of EXIT and CYCLE, and of
    /// the statements of a SELECT CASE construct (`SELECT CASE`, `CASE`,
    /// `CASE DEFAULT`, `END SELECT`).
    Exit,
    Cycle,
    SelectCase,
    Case,
    CaseDefault,
    EndSelect,
    /// Put by [`crate::classify`]: the WHERE of a WHERE statement
    /// (`WHERE (mask) lhs = rhs`) or of a WHERE construct's first line.
    Where,
    /// `ELSEWHERE` or `ELSE WHERE`, in a WHERE construct.
    ElseWhere,
    /// `END WHERE`.
    EndWhere,
    /// Put by [`crate::classify`]: the FORALL of a FORALL statement or of a
    /// FORALL construct's first line.
    Forall,
    /// `END FORALL`.
    EndForall,
    /// Put by [`crate::classify`]: the `TYPE` (or `CLASS`) of a declaration
    /// of derived-type objects, `TYPE(T) [, attrs] [::] entities`.
    DerivedType,
    /// Put by [`crate::classify`]: the `TYPE` opening a derived-type
    /// definition, `TYPE [, attrs ::] name`.
    TypeDefOpen,
    /// Put by [`crate::classify`]: `END TYPE` closing a derived-type
    /// definition.
    EndTypeDef,
    /// Put by [`crate::classify`]: a SEQUENCE statement (of a derived-type
    /// definition), which says nothing the analyses use.
    Sequence,
    /// Put by [`crate::classify`]: the F90 POINTER statement
    /// (`POINTER :: P`), not a Cray pointer's.
    PointerStmt,
}

impl Tok {
    /// How the token reads in a message.
    pub fn describe(&self) -> String {
        match self {
            Tok::Ident(s) => format!("name `{s}`"),
            Tok::Kw(k) => format!("`{}`", k.text()),
            Tok::Int(v) => format!("`{v}`"),
            Tok::Real(s) => format!("`{s}`"),
            Tok::Str(_) => "character constant".into(),
            Tok::DefinedOp(s) => format!("`.{s}.`"),
            Tok::DataValues(_) => "DATA values".into(),
            Tok::Unmodelled(u) => u.what.clone(),
            Tok::Hpf => "`!HPF$`".into(),
            Tok::Format => "`FORMAT`".into(),
            Tok::CrayPointer => "`POINTER`".into(),
            Tok::FileStmt(w) => format!("`{w}`"),
            Tok::Exit => "`EXIT`".into(),
            Tok::Cycle => "`CYCLE`".into(),
            Tok::SelectCase => "`SELECT CASE`".into(),
            Tok::Case => "`CASE`".into(),
            Tok::CaseDefault => "`CASE DEFAULT`".into(),
            Tok::EndSelect => "`END SELECT`".into(),
            Tok::ElseWhere => "`ELSEWHERE`".into(),
            Tok::EndWhere => "`END WHERE`".into(),
            Tok::Forall => "`FORALL`".into(),
            Tok::EndForall => "`END FORALL`".into(),
            Tok::Where => "`WHERE`".into(),
            Tok::DerivedType | Tok::TypeDefOpen => "`TYPE`".into(),
            Tok::EndTypeDef => "`END TYPE`".into(),
            Tok::Sequence => "`SEQUENCE`".into(),
            Tok::PointerStmt => "`POINTER`".into(),
            other => format!("`{}`", punct_text(other)),
        }
    }
}

fn punct_text(t: &Tok) -> &'static str {
    match t {
        Tok::True => ".TRUE.",
        Tok::False => ".FALSE.",
        Tok::Plus => "+",
        Tok::Minus => "-",
        Tok::Star => "*",
        Tok::Pow => "**",
        Tok::Slash => "/",
        Tok::Concat => "//",
        Tok::LParen | Tok::ImpliedDoOpen => "(",
        Tok::RParen => ")",
        Tok::LCtor => "(/",
        Tok::RCtor => "/)",
        Tok::Comma => ",",
        Tok::Colon => ":",
        Tok::DColon => "::",
        Tok::Equals => "=",
        Tok::Percent => "%",
        Tok::Arrow => "=>",
        Tok::Eq => "==",
        Tok::Ne => "/=",
        Tok::Lt => "<",
        Tok::Le => "<=",
        Tok::Gt => ">",
        Tok::Ge => ">=",
        Tok::And => ".AND.",
        Tok::Or => ".OR.",
        Tok::Not => ".NOT.",
        Tok::Eqv => ".EQV.",
        Tok::Neqv => ".NEQV.",
        _ => "?",
    }
}

/// A token with its byte range in the statement text.
pub type Spanned = (usize, Tok, usize);

/// Why a statement could not be split into tokens.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum LexError {
    #[default]
    BadChar,
    Unterminated,
    IntTooLarge,
    /// A digit the base of a BOZ constant does not have (`B'102'`).
    BozDigit(char),
}

#[derive(Logos, Debug, PartialEq)]
#[logos(skip r"[ \t\f\r\n]+")]
#[logos(error = LexError)]
enum Raw {
    #[regex("[A-Za-z][A-Za-z0-9_]*")]
    Word,
    #[regex("[0-9]+", number)]
    Number(Tok),
    #[regex(r"\.[0-9]+([EeDdQq][+-]?[0-9]+)?(_[A-Za-z0-9_]+)?")]
    DotReal,
    #[token("'", |l| string(l, '\''))]
    #[token("\"", |l| string(l, '"'))]
    Str(String),
    /// `B'101'`, `O'17'`, `Z'FF'`, `X'FF'` and `'FF'X`, `'17'O` (GNU, DEC).
    #[regex("[BbOoZzXx]'[0-9A-Za-z]+'", boz)]
    #[regex("[BbOoZzXx]\"[0-9A-Za-z]+\"", boz)]
    #[regex("'[0-9A-Fa-f]+'[BbOoZzXx]", boz)]
    #[regex("\"[0-9A-Fa-f]+\"[BbOoZzXx]", boz)]
    Boz(i64),
    #[regex(r"\.[A-Za-z]+\.", dot_operator)]
    Dot(Tok),
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("*")]
    Star,
    #[token("**")]
    Pow,
    #[token("/")]
    Slash,
    #[token("//")]
    Concat,
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("(/")]
    #[token("[")]
    LCtor,
    #[token("/)")]
    #[token("]")]
    RCtor,
    #[token(",")]
    Comma,
    #[token(":")]
    Colon,
    #[token("::")]
    DColon,
    #[token("=")]
    Equals,
    #[token("%")]
    Percent,
    #[token("=>")]
    Arrow,
    #[token("==")]
    Eq,
    #[token("/=")]
    Ne,
    #[token("<")]
    Lt,
    #[token("<=")]
    Le,
    #[token(">")]
    Gt,
    #[token(">=")]
    Ge,
}

/// The dotted words that are operators or logical constants.
fn dot_word(word: &str) -> Option<Tok> {
    Some(match word.to_ascii_uppercase().as_str() {
        "EQ" => Tok::Eq,
        "NE" => Tok::Ne,
        "LT" => Tok::Lt,
        "LE" => Tok::Le,
        "GT" => Tok::Gt,
        "GE" => Tok::Ge,
        "AND" => Tok::And,
        "OR" => Tok::Or,
        "NOT" => Tok::Not,
        "EQV" => Tok::Eqv,
        "NEQV" => Tok::Neqv,
        "TRUE" => Tok::True,
        "FALSE" => Tok::False,
        _ => return None,
    })
}

fn dot_operator(lex: &mut logos::Lexer<Raw>) -> Tok {
    let s = lex.slice();
    let word = &s[1..s.len() - 1];
    dot_word(word).unwrap_or_else(|| Tok::DefinedOp(word.to_ascii_uppercase()))
}

/// An integer or real literal starting with digits. Logos matched the
/// digits; this extends the match by hand so that `1.EQ.2` stays an
/// integer before `.EQ.` while `1.E5` and `2.5D0` are reals.
fn number(lex: &mut logos::Lexer<Raw>) -> Result<Tok, LexError> {
    let rest = lex.remainder().as_bytes();
    let digits = |from: usize| {
        rest.get(from..)
            .map_or(0, |r| r.iter().take_while(|b| b.is_ascii_digit()).count())
    };
    let mut n = 0;
    let mut real = false;
    if rest.first() == Some(&b'.') {
        let letters = rest[1..]
            .iter()
            .take_while(|b| b.is_ascii_alphabetic())
            .count();
        let is_operator = letters > 0
            && rest.get(1 + letters) == Some(&b'.')
            && std::str::from_utf8(&rest[1..1 + letters])
                .ok()
                .and_then(dot_word)
                .is_some();
        if !is_operator {
            real = true;
            n = 1 + digits(1);
        }
    }
    if matches!(rest.get(n), Some(b'E' | b'e' | b'D' | b'd' | b'Q' | b'q')) {
        let sign = usize::from(matches!(rest.get(n + 1), Some(b'+' | b'-')));
        let d = digits(n + 1 + sign);
        if d > 0 {
            real = true;
            n += 1 + sign + d;
        }
    }
    if rest.get(n) == Some(&b'_') {
        let k = rest[n + 1..]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        if k > 0 {
            n += 1 + k;
        }
    }
    if n == 0 && matches!(rest.first(), Some(b'H' | b'h')) {
        let before = &lex.source()[..lex.span().start];
        if let Some(count) = hollerith_count(before, lex.slice()) {
            return Ok(hollerith(lex, count));
        }
    }
    let int_text = lex.slice().to_string();
    lex.bump(n);
    if real {
        Ok(Tok::Real(lex.slice().to_string()))
    } else {
        int_text
            .parse::<i64>()
            .map(Tok::Int)
            .map_err(|_| LexError::IntTooLarge)
    }
}

/// The length of the Hollerith constant `<digits>H...` whose digits
/// follow `before`, when they start one: after `(`, `,`, `/` or `=` (blanks
/// between), where a count followed by `H` can be nothing else
/// (`FORMAT(1X, 5HHELLO)`, `DATA A /4HABCD/`, `CALL F(3HABC)`).
pub fn hollerith_count(before: &str, digits: &str) -> Option<usize> {
    let opens = before
        .trim_end_matches([' ', '\t'])
        .ends_with(['(', ',', '/', '=']);
    let all_digits = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    (opens && all_digits).then(|| digits.parse().ok()).flatten()
}

/// The `count` characters after the `H` (fewer when the statement ends
/// first, as when an editor dropped trailing blanks), as a character
/// constant.
fn hollerith(lex: &mut logos::Lexer<Raw>, count: usize) -> Tok {
    let text: String = lex.remainder()[1..].chars().take(count).collect();
    lex.bump(1 + text.len());
    Tok::Str(text)
}

/// The value of a BOZ constant: its bits as an integer of 64 (`Z'FF'` is
/// 255; a 64-bit pattern with the top bit set is negative).
fn boz(lex: &mut logos::Lexer<Raw>) -> Result<i64, LexError> {
    let s = lex.slice();
    let (letter, digits) = if s.starts_with(['\'', '"']) {
        (s.as_bytes()[s.len() - 1], &s[1..s.len() - 2])
    } else {
        (s.as_bytes()[0], &s[2..s.len() - 1])
    };
    let radix = match letter.to_ascii_uppercase() {
        b'B' => 2,
        b'O' => 8,
        _ => 16,
    };
    let mut v: u64 = 0;
    for c in digits.chars() {
        let d = c.to_digit(radix).ok_or(LexError::BozDigit(c))?;
        v = v
            .checked_mul(u64::from(radix))
            .and_then(|v| v.checked_add(u64::from(d)))
            .ok_or(LexError::IntTooLarge)?;
    }
    Ok(v as i64)
}

/// A character constant; a doubled quote stands for one.
fn string(lex: &mut logos::Lexer<Raw>, quote: char) -> Result<String, LexError> {
    let rest = lex.remainder();
    let mut out = String::new();
    let mut chars = rest.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == quote {
            if let Some(&(_, d)) = chars.peek() {
                if d == quote {
                    out.push(quote);
                    chars.next();
                    continue;
                }
            }
            lex.bump(i + 1);
            return Ok(out);
        }
        out.push(c);
    }
    lex.bump(rest.len());
    Err(LexError::Unterminated)
}

/// A lexical error: where, and the message.
#[derive(Clone, Debug, PartialEq)]
pub struct LexProblem {
    pub at: usize,
    pub message: String,
}

/// Splits `text[from..]` into tokens (offsets are into `text`). Lexing goes
/// on after an error so that a statement the classifier sets aside (FORMAT,
/// an unmodelled statement) can still be recognised; the first error is
/// returned with the tokens.
pub fn tokenize(text: &str, from: usize) -> (Vec<Spanned>, Option<LexProblem>) {
    let mut toks = Vec::new();
    let mut problem = None;
    let mut lex = Raw::lexer(&text[from..]);
    while let Some(r) = lex.next() {
        let span = lex.span();
        let (s, e) = (span.start + from, span.end + from);
        let tok = match r {
            Ok(Raw::Word) => {
                push_word(&mut toks, lex.slice(), s);
                continue;
            }
            Ok(Raw::Number(t)) | Ok(Raw::Dot(t)) => t,
            Ok(Raw::DotReal) => Tok::Real(lex.slice().to_string()),
            Ok(Raw::Str(v)) => Tok::Str(v),
            Ok(Raw::Boz(v)) => Tok::Int(v),
            Ok(Raw::Plus) => Tok::Plus,
            Ok(Raw::Minus) => Tok::Minus,
            Ok(Raw::Star) => Tok::Star,
            Ok(Raw::Pow) => Tok::Pow,
            Ok(Raw::Slash) => Tok::Slash,
            Ok(Raw::Concat) => Tok::Concat,
            Ok(Raw::LParen) => Tok::LParen,
            Ok(Raw::RParen) => Tok::RParen,
            Ok(Raw::LCtor) => Tok::LCtor,
            Ok(Raw::RCtor) => Tok::RCtor,
            Ok(Raw::Comma) => Tok::Comma,
            Ok(Raw::Colon) => Tok::Colon,
            Ok(Raw::DColon) => Tok::DColon,
            Ok(Raw::Equals) => Tok::Equals,
            Ok(Raw::Percent) => Tok::Percent,
            Ok(Raw::Arrow) => Tok::Arrow,
            Ok(Raw::Eq) => Tok::Eq,
            Ok(Raw::Ne) => Tok::Ne,
            Ok(Raw::Lt) => Tok::Lt,
            Ok(Raw::Le) => Tok::Le,
            Ok(Raw::Gt) => Tok::Gt,
            Ok(Raw::Ge) => Tok::Ge,
            Err(err) => {
                if problem.is_none() {
                    let message = match err {
                        LexError::BadChar => {
                            let c = text[s..].chars().next().unwrap_or('?');
                            format!("unexpected character `{}`", c.escape_debug())
                        }
                        LexError::Unterminated => "unterminated character constant".into(),
                        LexError::IntTooLarge => "integer constant too large".into(),
                        LexError::BozDigit(c) => format!(
                            "`{}` is not a digit of this binary, octal or hexadecimal constant",
                            c.escape_debug()
                        ),
                    };
                    problem = Some(LexProblem { at: s, message });
                }
                continue;
            }
        };
        toks.push((s, tok, e));
    }
    (toks, problem)
}

/// Index of the parenthesis closing the one at `open`.
pub fn close_of(toks: &[Spanned], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, (_, t, _)) in toks.iter().enumerate().skip(open) {
        match t {
            Tok::LParen | Tok::LCtor | Tok::ImpliedDoOpen => depth += 1,
            Tok::RParen | Tok::RCtor => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// A word becomes a keyword (or the keywords of a compound such as
/// `ENDDO`) or a name. Keywords are looked up without allocating.
pub fn push_word(toks: &mut Vec<Spanned>, word: &str, at: usize) {
    let mut buf = [0u8; 16];
    let upper = (word.len() <= buf.len()).then(|| {
        let b = &mut buf[..word.len()];
        b.copy_from_slice(word.as_bytes());
        b.make_ascii_uppercase();
        std::str::from_utf8(b).unwrap_or_default()
    });
    if let Some(up) = upper {
        if let Some((_, parts)) = COMPOUNDS.iter().find(|(w, _)| *w == up) {
            let mut s = at;
            for p in *parts {
                let tok = Kw::from_word(p).map_or_else(|| Tok::Ident(p.to_string()), Tok::Kw);
                toks.push((s, tok, s + p.len()));
                s += p.len();
            }
            return;
        }
        if let Some(k) = Kw::from_word(up) {
            toks.push((at, Tok::Kw(k), at + word.len()));
            return;
        }
    }
    toks.push((at, Tok::Ident(word.to_ascii_uppercase()), at + word.len()));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        let (t, p) = tokenize(s, 0);
        assert_eq!(p, None, "{s}");
        t.into_iter().map(|(_, t, _)| t).collect()
    }

    #[test]
    fn numbers_and_dotted_operators() {
        assert_eq!(toks("1.EQ.2"), [Tok::Int(1), Tok::Eq, Tok::Int(2)]);
        assert_eq!(toks("1.E5"), [Tok::Real("1.E5".into())]);
        assert_eq!(toks("2.5D0"), [Tok::Real("2.5D0".into())]);
        assert_eq!(toks(".5"), [Tok::Real(".5".into())]);
        assert_eq!(toks("1.0e-3_8"), [Tok::Real("1.0e-3_8".into())]);
        assert_eq!(toks("1."), [Tok::Real("1.".into())]);
        assert_eq!(
            toks("X.and..not.Y"),
            [
                Tok::Ident("X".into()),
                Tok::And,
                Tok::Not,
                Tok::Ident("Y".into())
            ]
        );
        assert_eq!(toks(".true."), [Tok::True]);
    }

    #[test]
    fn keywords_any_case_and_compounds() {
        assert_eq!(toks("enddo"), [Tok::Kw(Kw::End), Tok::Kw(Kw::Do)]);
        assert_eq!(
            toks("GoTo 10"),
            [Tok::Kw(Kw::Go), Tok::Kw(Kw::To), Tok::Int(10)]
        );
        assert_eq!(toks("Program1"), [Tok::Ident("PROGRAM1".into())]);
    }

    #[test]
    fn strings_with_doubled_quotes() {
        assert_eq!(
            toks("'it''s' \"a\"\"b\""),
            [Tok::Str("it's".into()), Tok::Str("a\"b".into())]
        );
        let (_, p) = tokenize("X = 'abc", 0);
        assert_eq!(p.unwrap().message, "unterminated character constant");
    }

    #[test]
    fn hollerith_constants_after_an_opening_or_separating_character() {
        assert_eq!(
            toks("(5HHI YO,1H )"),
            [
                Tok::LParen,
                Tok::Str("HI YO".into()),
                Tok::Comma,
                Tok::Str(" ".into()),
                Tok::RParen
            ]
        );
        assert_eq!(toks("/ 3habc/")[1], Tok::Str("abc".into()));
        // A count past the end of the statement takes what is there.
        assert_eq!(toks("=9HAB"), [Tok::Equals, Tok::Str("AB".into())]);
        // Not after a name, an operator or a `*`: `REAL*8 H`, `DO 10 H = ...`.
        assert_eq!(
            toks("REAL*8H"),
            [
                Tok::Kw(Kw::Real),
                Tok::Star,
                Tok::Int(8),
                Tok::Ident("H".into())
            ]
        );
        assert_eq!(toks("X+2H")[2], Tok::Int(2));
    }

    #[test]
    fn boz_constants_are_integers() {
        assert_eq!(
            toks("B'101' O'17' Z'ff' X\"FF\" 'FF'X '17'o"),
            [5, 15, 255, 255, 255, 15].map(Tok::Int)
        );
        assert_eq!(toks("Z'FFFFFFFFFFFFFFFF'"), [Tok::Int(-1)]);
        // A string followed by something else stays a string.
        assert_eq!(
            toks("'FF',X"),
            [Tok::Str("FF".into()), Tok::Comma, Tok::Ident("X".into())]
        );
        assert_eq!(toks("ZZ'1'")[0], Tok::Ident("ZZ".into()));
        let (_, p) = tokenize("L = B'102'", 0);
        let p = p.unwrap();
        assert_eq!(p.at, 4);
        assert!(p.message.contains("`2` is not a digit"), "{}", p.message);
        let (_, p) = tokenize("L = Z'1FFFFFFFFFFFFFFFF'", 0);
        assert_eq!(p.unwrap().message, "integer constant too large");
    }

    #[test]
    fn bad_character_is_reported_with_offset() {
        let (_, p) = tokenize("X = 1 @ 2", 0);
        assert_eq!(p.unwrap().at, 6);
        let (_, p) = tokenize("N = 99999999999999999999", 0);
        assert_eq!(p.unwrap().message, "integer constant too large");
    }
}
