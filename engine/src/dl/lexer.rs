//! Splits rule text into tokens, each with its line and column; comments
//! (`//`, `/* */`) and white space are dropped. Lexical errors become
//! diagnostics and lexing goes on, so one typo does not hide the next.

use super::diag::{Diagnostic, Pos};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    Ident(String),
    Number(i64),
    Str(String),
    /// `.decl`, `.input`, ... (the name without the dot).
    Directive(String),
    /// `_` alone.
    Wildcard,
    LParen,
    RParen,
    LBrace,
    RBrace,
    Comma,
    Dot,
    Colon,
    Semicolon,
    /// `:-`
    If,
    Bang,
    At,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    Eof,
}

impl Tok {
    /// How the token is named in "expected ..., found ..." messages.
    pub fn describe(&self) -> String {
        match self {
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Number(n) => format!("`{n}`"),
            Tok::Str(s) => format!("{s:?}"),
            Tok::Directive(d) => format!("`.{d}`"),
            Tok::Eof => "end of file".to_string(),
            other => format!("`{}`", other.spelling()),
        }
    }

    fn spelling(&self) -> &'static str {
        match self {
            Tok::Wildcard => "_",
            Tok::LParen => "(",
            Tok::RParen => ")",
            Tok::LBrace => "{",
            Tok::RBrace => "}",
            Tok::Comma => ",",
            Tok::Dot => ".",
            Tok::Colon => ":",
            Tok::Semicolon => ";",
            Tok::If => ":-",
            Tok::Bang => "!",
            Tok::At => "@",
            Tok::Eq => "=",
            Tok::Ne => "!=",
            Tok::Lt => "<",
            Tok::Le => "<=",
            Tok::Gt => ">",
            Tok::Ge => ">=",
            Tok::Plus => "+",
            Tok::Minus => "-",
            Tok::Star => "*",
            Tok::Slash => "/",
            Tok::Percent => "%",
            Tok::Ident(_) | Tok::Number(_) | Tok::Str(_) | Tok::Directive(_) | Tok::Eof => "",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Token {
    pub tok: Tok,
    pub pos: Pos,
}

/// Soufflé's directives; a `.` followed by one of these names starts a
/// directive, any other `.` ends a clause.
const DIRECTIVES: &[&str] = &[
    "decl",
    "input",
    "output",
    "functor",
    "type",
    "printsize",
    "pragma",
    "comp",
    "init",
    "include",
    "plan",
    "limitsize",
    "override",
];

struct Lexer<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    file: u32,
    line: u32,
    col: u32,
    tokens: Vec<Token>,
    diags: Vec<Diagnostic>,
}

impl Lexer<'_> {
    fn pos(&self) -> Pos {
        Pos {
            file: self.file,
            line: self.line,
            col: self.col,
        }
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += 1;
        }
        Some(c)
    }

    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn second(&self) -> Option<char> {
        let mut it = self.chars.clone();
        it.next();
        it.next()
    }

    fn push(&mut self, tok: Tok, pos: Pos) {
        self.tokens.push(Token { tok, pos });
    }

    fn error(&mut self, pos: Pos, message: String) {
        self.diags.push(Diagnostic::new(pos, message));
    }

    fn word(&mut self) -> String {
        let mut s = String::new();
        while let Some(c) = self.peek() {
            if c.is_ascii_alphanumeric() || c == '_' {
                s.push(c);
                self.bump();
            } else {
                break;
            }
        }
        s
    }

    fn block_comment(&mut self, start: Pos) {
        self.bump();
        self.bump();
        loop {
            match self.bump() {
                None => return self.error(start, "unterminated `/*` comment".into()),
                Some('*') if self.peek() == Some('/') => {
                    self.bump();
                    return;
                }
                Some(_) => {}
            }
        }
    }

    fn string(&mut self, start: Pos) {
        self.bump();
        let mut s = String::new();
        loop {
            match self.bump() {
                None | Some('\n') => {
                    return self.error(start, "unterminated string".into());
                }
                Some('"') => break,
                Some('\\') => match self.bump() {
                    Some('n') => s.push('\n'),
                    Some('t') => s.push('\t'),
                    Some('"') => s.push('"'),
                    Some('\\') => s.push('\\'),
                    other => {
                        let shown = other.map(String::from).unwrap_or_default();
                        self.error(start, format!("unknown escape `\\{shown}` in string"));
                    }
                },
                Some(c) => s.push(c),
            }
        }
        self.push(Tok::Str(s), start);
    }

    fn number(&mut self, start: Pos) {
        let digits = self.word();
        match digits.parse::<i64>() {
            Ok(n) => self.push(Tok::Number(n), start),
            Err(_) if digits.chars().all(|c| c.is_ascii_digit()) => {
                self.error(start, format!("number `{digits}` does not fit in 64 bits"));
                self.push(Tok::Number(0), start);
            }
            Err(_) => {
                self.error(start, format!("malformed number `{digits}`"));
                self.push(Tok::Number(0), start);
            }
        }
    }

    fn run(&mut self) {
        while let Some(c) = self.peek() {
            let pos = self.pos();
            match c {
                c if c.is_whitespace() => {
                    self.bump();
                }
                '/' if self.second() == Some('/') => {
                    while self.peek().is_some_and(|c| c != '\n') {
                        self.bump();
                    }
                }
                '/' if self.second() == Some('*') => self.block_comment(pos),
                '"' => self.string(pos),
                '0'..='9' => self.number(pos),
                c if c.is_ascii_alphabetic() || c == '_' => {
                    let w = self.word();
                    let tok = if w == "_" {
                        Tok::Wildcard
                    } else {
                        Tok::Ident(w)
                    };
                    self.push(tok, pos);
                }
                '.' => {
                    self.bump();
                    let directive = self.peek().is_some_and(|c| c.is_ascii_alphabetic()) && {
                        let mut it = self.chars.clone();
                        let name: String =
                            std::iter::from_fn(|| it.next().filter(|c| c.is_ascii_alphanumeric()))
                                .collect();
                        DIRECTIVES.contains(&name.as_str())
                    };
                    if directive {
                        let name = self.word();
                        self.push(Tok::Directive(name), pos);
                    } else {
                        self.push(Tok::Dot, pos);
                    }
                }
                _ => {
                    self.bump();
                    let two = |l: &mut Self, next: char, yes: Tok, no: Tok| {
                        if l.peek() == Some(next) {
                            l.bump();
                            yes
                        } else {
                            no
                        }
                    };
                    let tok = match c {
                        '(' => Tok::LParen,
                        ')' => Tok::RParen,
                        '{' => Tok::LBrace,
                        '}' => Tok::RBrace,
                        ',' => Tok::Comma,
                        ';' => Tok::Semicolon,
                        '@' => Tok::At,
                        '=' => Tok::Eq,
                        '+' => Tok::Plus,
                        '-' => Tok::Minus,
                        '*' => Tok::Star,
                        '/' => Tok::Slash,
                        '%' => Tok::Percent,
                        ':' => two(self, '-', Tok::If, Tok::Colon),
                        '!' => two(self, '=', Tok::Ne, Tok::Bang),
                        '<' => two(self, '=', Tok::Le, Tok::Lt),
                        '>' => two(self, '=', Tok::Ge, Tok::Gt),
                        other => {
                            self.error(pos, format!("unexpected character `{other}`"));
                            continue;
                        }
                    };
                    self.push(tok, pos);
                }
            }
        }
        let pos = self.pos();
        self.push(Tok::Eof, pos);
    }
}

/// The tokens of one file (always ending with [`Tok::Eof`]) and the lexical errors.
pub fn lex(file: u32, text: &str) -> (Vec<Token>, Vec<Diagnostic>) {
    let mut lexer = Lexer {
        chars: text.chars().peekable(),
        file,
        line: 1,
        col: 1,
        tokens: Vec::new(),
        diags: Vec::new(),
    };
    lexer.run();
    (lexer.tokens, lexer.diags)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(text: &str) -> Vec<Tok> {
        let (t, d) = lex(0, text);
        assert!(d.is_empty(), "{d:?}");
        t.into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn directives_differ_from_clause_ends() {
        assert_eq!(
            toks(".decl a(x: number)\na(1).b(2)."),
            vec![
                Tok::Directive("decl".into()),
                Tok::Ident("a".into()),
                Tok::LParen,
                Tok::Ident("x".into()),
                Tok::Colon,
                Tok::Ident("number".into()),
                Tok::RParen,
                Tok::Ident("a".into()),
                Tok::LParen,
                Tok::Number(1),
                Tok::RParen,
                Tok::Dot,
                Tok::Ident("b".into()),
                Tok::LParen,
                Tok::Number(2),
                Tok::RParen,
                Tok::Dot,
                Tok::Eof
            ]
        );
    }

    #[test]
    fn comments_strings_and_operators() {
        assert_eq!(
            toks("// x\n/* y\n z */ \"a\\\"b\" :- != <= _ _x"),
            vec![
                Tok::Str("a\"b".into()),
                Tok::If,
                Tok::Ne,
                Tok::Le,
                Tok::Wildcard,
                Tok::Ident("_x".into()),
                Tok::Eof
            ]
        );
    }

    #[test]
    fn positions_are_one_based_lines_and_columns() {
        let (t, _) = lex(0, "a\n  bc(");
        assert_eq!((t[1].pos.line, t[1].pos.col), (2, 3));
        assert_eq!((t[2].pos.line, t[2].pos.col), (2, 5));
    }

    #[test]
    fn lexical_errors_are_reported_and_skipped() {
        let (t, d) = lex(0, "a # b\n\"open");
        assert_eq!(d.len(), 2);
        assert_eq!(d[0].message, "unexpected character `#`");
        assert_eq!((d[1].pos.line, d[1].pos.col), (2, 1));
        assert_eq!(t.len(), 3);
    }
}
