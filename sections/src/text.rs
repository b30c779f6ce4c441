//! Sections as Fortran text and back: `A(1:100, I)`, `A(2:2*N:2)`,
//! `A(:, J+1)`; `?` for an unknown subscript, `A()` for no element,
//! `A(...)` for an unknown section, `S` for a scalar.

use crate::affine::Affine;
use crate::dim::{Dim, Triplet};
use crate::section::Section;
use std::fmt;
use std::str::FromStr;

/// A section printed with its array's name.
pub struct Named<'a> {
    pub array: &'a str,
    pub section: &'a Section,
}

impl Section {
    /// `A(1:100, I)` for `named("A")`.
    pub fn named<'a>(&'a self, array: &'a str) -> Named<'a> {
        Named {
            array,
            section: self,
        }
    }
}

impl fmt::Display for Named<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.section {
            Section::Empty => write!(f, "{}()", self.array),
            Section::Unknown => write!(f, "{}(...)", self.array),
            Section::Dims(d) if d.is_empty() => write!(f, "{}", self.array),
            Section::Dims(d) => {
                write!(f, "{}(", self.array)?;
                for (i, x) in d.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{x}")?;
                }
                write!(f, ")")
            }
        }
    }
}

impl fmt::Display for Dim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Dim::Triplet(t) => write!(f, "{t}"),
            Dim::All => write!(f, ":"),
            Dim::Unknown => write!(f, "?"),
        }
    }
}

impl fmt::Display for Triplet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.as_point(), self.stride()) {
            (Some(x), _) => write!(f, "{x}"),
            (None, 1) => write!(f, "{}:{}", self.first(), self.bound()),
            (None, s) => write!(f, "{}:{}:{s}", self.first(), self.bound()),
        }
    }
}

/// Text that is not a section (or an affine form), with the byte offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub offset: usize,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at {}: {}", self.offset, self.message)
    }
}

/// Reads `A(...)` text back: the array's name and the section.
pub fn parse_section(text: &str) -> Result<(String, Section), ParseError> {
    let mut p = Parser { text, pos: 0 };
    let name = p.name()?;
    if p.peek().is_none() {
        return Ok((name, Section::Dims(vec![])));
    }
    p.expect('(')?;
    let section = if p.eat(')') {
        Section::Empty
    } else if p.eat_str("...") {
        p.expect(')')?;
        Section::Unknown
    } else {
        let mut dims = vec![p.dim()?];
        while p.eat(',') {
            dims.push(p.dim()?);
        }
        p.expect(')')?;
        dims.into_iter()
            .collect::<Option<Vec<_>>>()
            .map_or(Section::Empty, Section::Dims)
    };
    p.end()?;
    Ok((name, section))
}

impl FromStr for Affine {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Affine, ParseError> {
        let mut p = Parser { text, pos: 0 };
        let a = p.affine()?;
        p.end()?;
        Ok(a)
    }
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

impl Parser<'_> {
    fn error<T>(&self, message: &str) -> Result<T, ParseError> {
        Err(ParseError {
            offset: self.pos,
            message: message.to_string(),
        })
    }

    fn skip_blanks(&mut self) {
        while self.text[self.pos..].starts_with(' ') {
            self.pos += 1;
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.skip_blanks();
        self.text[self.pos..].chars().next()
    }

    fn eat(&mut self, c: char) -> bool {
        self.eat_str(c.encode_utf8(&mut [0; 4]))
    }

    fn eat_str(&mut self, s: &str) -> bool {
        self.skip_blanks();
        let found = self.text[self.pos..].starts_with(s);
        if found {
            self.pos += s.len();
        }
        found
    }

    fn expect(&mut self, c: char) -> Result<(), ParseError> {
        if self.eat(c) {
            Ok(())
        } else {
            self.error(&format!("expected `{c}`"))
        }
    }

    fn end(&mut self) -> Result<(), ParseError> {
        match self.peek() {
            None => Ok(()),
            Some(c) => self.error(&format!("unexpected `{c}`")),
        }
    }

    /// A name: a letter, then letters, digits, `_`, `#`, `$`.
    fn name(&mut self) -> Result<String, ParseError> {
        self.skip_blanks();
        let rest = &self.text[self.pos..];
        if !rest.starts_with(|c: char| c.is_ascii_alphabetic()) {
            return self.error("expected a name");
        }
        let len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || "_#$".contains(c)))
            .unwrap_or(rest.len());
        self.pos += len;
        Ok(rest[..len].to_string())
    }

    fn integer(&mut self) -> Result<i64, ParseError> {
        self.skip_blanks();
        let rest = &self.text[self.pos..];
        let len = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        match rest[..len].parse() {
            Ok(v) => {
                self.pos += len;
                Ok(v)
            }
            Err(_) => self.error("expected an integer"),
        }
    }

    /// `:`, `?`, `e`, `e:e` or `e:e:s`; `None` for an empty triplet.
    fn dim(&mut self) -> Result<Option<Dim>, ParseError> {
        if self.eat('?') {
            return Ok(Some(Dim::Unknown));
        }
        if matches!(self.peek(), Some(':')) {
            self.pos += 1;
            return Ok(Some(Dim::All));
        }
        let first = self.affine()?;
        if !self.eat(':') {
            return Ok(Some(Dim::point(first)));
        }
        let bound = self.affine()?;
        let stride = if self.eat(':') {
            let negative = self.eat('-');
            let s = self.integer()?;
            if s == 0 {
                return self.error("a stride is never 0");
            }
            if negative {
                -s
            } else {
                s
            }
        } else {
            1
        };
        Ok(Triplet::new(first, bound, stride).map(Dim::Triplet))
    }

    /// Terms `c`, `N`, `c*N`, `N*c` joined by `+` and `-`.
    fn affine(&mut self) -> Result<Affine, ParseError> {
        let mut sum = Affine::constant(0);
        let mut sign = if self.eat('-') {
            -1
        } else {
            self.eat('+');
            1
        };
        loop {
            let term = if matches!(self.peek(), Some(c) if c.is_ascii_digit()) {
                let c = self.integer()?;
                if self.eat('*') {
                    Affine::term(&self.name()?, c)
                } else {
                    Affine::constant(c)
                }
            } else {
                let name = self.name()?;
                let c = if self.eat('*') { self.integer()? } else { 1 };
                Affine::term(&name, c)
            };
            sum = match sum.add_scaled(sign, &term) {
                Some(s) => s,
                None => return self.error("overflow"),
            };
            sign = if self.eat('+') {
                1
            } else if self.eat('-') {
                -1
            } else {
                return Ok(sum);
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(text: &str) {
        let (name, s) = parse_section(text).unwrap();
        assert_eq!(s.named(&name).to_string(), text);
    }

    #[test]
    fn issue_12_contract_texts() {
        round_trip("A(1:100, I)");
        round_trip("A(2:2*N:2)");
        round_trip("A(100, 1:99)");
        round_trip("B(:, J+1, ?)");
        round_trip("A(N:1:-2)");
        round_trip("A()");
        round_trip("A(...)");
        round_trip("S");
    }

    #[test]
    fn parsing_normalizes() {
        let (_, s) = parse_section("A( 1 : 10 : 3 , 2*I + 1 )").unwrap();
        assert_eq!(s.named("A").to_string(), "A(1:10:3, 2*I+1)");
        let (_, d) = parse_section("A(10:1:-1)").unwrap();
        assert_eq!(d.named("A").to_string(), "A(1:10)");
        let (_, e) = parse_section("A(5:1, I)").unwrap();
        assert_eq!(e, Section::Empty);
        assert_eq!("N*2-3".parse::<Affine>().unwrap().to_string(), "2*N-3");
    }

    #[test]
    fn bad_text_is_an_error() {
        assert!(parse_section("A(1:").is_err());
        assert!(parse_section("A(1:2:0)").is_err());
        assert!(parse_section("(1)").is_err());
        assert_eq!(parse_section("A(1) x").unwrap_err().offset, 5);
    }
}
