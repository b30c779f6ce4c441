//! The line stage: physical lines of one file -> logical statements.
//!
//! Fixed form: label in columns 1-5, a continuation mark in column 6,
//! statement text in 7-72 (a tab in 1-6 starts the text, DEC style: a tab
//! then a digit 1-9 is a continuation), comment lines with `C c * ! D` in
//! column 1. Free form: `&` continuation (and an optional leading `&`),
//! labels as leading digits. Both: `!` comments outside strings, `;`
//! between statements, HPF directive lines (`!HPF$`, `CHPF$`, `*HPF$`).
//!
//! Fixed form ignores blanks outside character and Hollerith constants
//! (`. EQ .` is `.EQ.`, `GO TO` is `GOTO`, `X MAX` is `XMAX`): its
//! statements are built without them, and [`crate::fixed_words`] splits
//! the keywords that then run into names (`DO10I=1,N`).
//!
//! Each logical statement keeps a map from its text back to file positions,
//! so every token reports where it really stands: the stage reads
//! [`SourceLine`]s, which already know their file, line and columns (a
//! preprocessed line may come from an `#include`d file, or have macros
//! expanded in it).

use crate::ast::{FileId, Pos};
use crate::lexer::hollerith_count;
use crate::source::{Form, Reporter};

/// One physical line and where its characters stand in the sources.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceLine {
    pub text: String,
    pub file: FileId,
    pub line: u32,
    /// The 1-based column of each character of `text`; empty when the line
    /// is as written (character `i` at column `i + 1`).
    pub cols: Vec<u32>,
}

impl SourceLine {
    /// A line as written in `file`.
    pub fn written(file: FileId, line: u32, text: &str) -> Self {
        SourceLine {
            text: text.to_string(),
            file,
            line,
            cols: Vec::new(),
        }
    }

    /// Where character `i` of the text stands.
    fn pos(&self, i: usize) -> Pos {
        let col = match self.cols.last() {
            None => i as u32 + 1,
            Some(&last) => self
                .cols
                .get(i)
                .copied()
                .unwrap_or_else(|| last + (i + 1 - self.cols.len()) as u32),
        };
        Pos {
            file: self.file,
            line: self.line,
            col,
        }
    }
}

/// F2023 allows a statement of one million characters; longer ones are
/// refused before lexing.
pub const MAX_STATEMENT_CHARS: usize = 1_000_000;

/// One statement after comments and continuations are removed.
#[derive(Clone, Debug)]
pub struct LogicalStmt {
    pub text: String,
    /// Where the code starts in `text` (after a free-form label).
    pub code_start: usize,
    pub label: Option<(u32, Pos)>,
    /// An HPF directive (the sentinel is not in `text`).
    pub hpf: bool,
    /// Fixed-form statement text, whose blanks were left out: words may
    /// run together. HPF directives keep their blanks.
    pub squeezed: bool,
    /// Runs of `text` that stand on consecutive columns of one line. A
    /// non-ASCII character gets a run of its own, so within a run byte
    /// offsets and columns advance together.
    segs: Vec<Seg>,
}

#[derive(Clone, Copy, Debug)]
struct Seg {
    at: usize,
    pos: Pos,
}

impl LogicalStmt {
    /// The source position of byte offset `off` of `text` (the end of the
    /// text maps just past its last character).
    pub fn pos_at(&self, off: usize) -> Pos {
        let i = self.segs.partition_point(|s| s.at <= off).saturating_sub(1);
        match self.segs.get(i) {
            Some(s) => Pos {
                col: s.pos.col + (off.saturating_sub(s.at)) as u32,
                ..s.pos
            },
            None => Pos::default(),
        }
    }

    /// The code (label removed).
    pub fn code(&self) -> &str {
        &self.text[self.code_start..]
    }
}

/// Accumulates characters into logical statements.
struct Builder<'r> {
    form: Form,
    rep: &'r mut Reporter,
    out: Vec<LogicalStmt>,
    cur: Option<LogicalStmt>,
    /// The quote character of a string still open at the end of the text.
    quote: Option<char>,
    /// Characters still to come of a Hollerith constant (`5HHELLO`).
    hollerith: usize,
    /// Where the next character would stand if it continued the last run.
    next: Option<Pos>,
    last_ascii: bool,
    /// Position of the first character, for messages about the statement.
    first: Option<Pos>,
}

impl<'r> Builder<'r> {
    fn new(form: Form, rep: &'r mut Reporter) -> Self {
        Builder {
            form,
            rep,
            out: Vec::new(),
            cur: None,
            quote: None,
            hollerith: 0,
            next: None,
            last_ascii: true,
            first: None,
        }
    }

    fn start(&mut self, label: Option<(u32, Pos)>, hpf: bool) {
        self.finish();
        self.cur = Some(LogicalStmt {
            text: String::new(),
            code_start: 0,
            label,
            hpf,
            squeezed: self.form == Form::Fixed && !hpf,
            segs: Vec::new(),
        });
    }

    fn is_open(&self, hpf: bool) -> bool {
        self.cur.as_ref().is_some_and(|c| c.hpf == hpf)
    }

    fn push_char(&mut self, c: char, pos: Pos) {
        let Some(cur) = self.cur.as_mut() else {
            return;
        };
        if self.next != Some(pos) || !c.is_ascii() || !self.last_ascii {
            cur.segs.push(Seg {
                at: cur.text.len(),
                pos,
            });
        }
        if self.first.is_none() && !c.is_whitespace() {
            self.first = Some(pos);
        }
        cur.text.push(c);
        self.next = Some(Pos {
            col: pos.col + 1,
            ..pos
        });
        self.last_ascii = c.is_ascii();
    }

    /// Appends code characters `chars[from..to]` of `line`, splitting at
    /// `;` outside constants, leaving out the blanks of a squeezed
    /// statement. Stops at a `!` comment outside constants.
    fn push_code(&mut self, chars: &[char], from: usize, to: usize, line: &SourceLine) {
        for (i, &c) in chars.iter().enumerate().take(to).skip(from) {
            let pos = line.pos(i);
            if self.hollerith > 0 {
                self.hollerith -= 1;
                self.push_char(c, pos);
                continue;
            }
            match self.quote {
                Some(q) if c == q => self.quote = None,
                Some(_) => {}
                None => match c {
                    '\'' | '"' => self.quote = Some(c),
                    '!' => return,
                    ';' => {
                        let hpf = self.cur.as_ref().is_some_and(|s| s.hpf);
                        self.start(None, hpf);
                        continue;
                    }
                    'H' | 'h' => self.hollerith = self.hollerith_ahead(),
                    ' ' | '\t' if self.cur.as_ref().is_some_and(|s| s.squeezed) => continue,
                    _ => {}
                },
            }
            self.push_char(c, pos);
        }
    }

    /// The length of the Hollerith constant whose `H` comes next, or 0.
    fn hollerith_ahead(&self) -> usize {
        let Some(cur) = &self.cur else {
            return 0;
        };
        let text = &cur.text[cur.code_start..];
        let body = text.trim_end_matches(|c: char| c.is_ascii_digit());
        hollerith_count(body, &text[body.len()..]).unwrap_or(0)
    }

    fn finish(&mut self) {
        self.quote = None;
        self.hollerith = 0;
        self.next = None;
        self.last_ascii = true;
        let first = self.first.take();
        let Some(mut st) = self.cur.take() else {
            return;
        };
        if self.form == Form::Free && !st.hpf {
            take_free_label(&mut st);
        }
        if st.code().trim().is_empty() {
            if let Some((l, pos)) = st.label {
                self.rep
                    .error(pos, format!("statement label {l} has no statement"));
            }
            return;
        }
        if st.text.len() > MAX_STATEMENT_CHARS {
            let pos = first.unwrap_or_else(|| st.pos_at(0));
            self.rep.error(
                pos,
                format!(
                    "statement is too long ({} characters; at most {MAX_STATEMENT_CHARS})",
                    st.text.len()
                ),
            );
            return;
        }
        self.out.push(st);
    }
}

/// A free-form label: 1 to 5 leading digits followed by a blank.
fn take_free_label(st: &mut LogicalStmt) {
    let text = &st.text;
    let lead = text.len() - text.trim_start().len();
    let digits = text[lead..].bytes().take_while(u8::is_ascii_digit).count();
    let after = text[lead + digits..].chars().next();
    if (1..=5).contains(&digits) && after.is_none_or(char::is_whitespace) {
        if let Ok(v) = text[lead..lead + digits].parse::<u32>() {
            st.label = Some((v, st.pos_at(lead)));
            st.code_start = lead + digits;
        }
    }
}

/// Whether `chars[at..at+4]` spells `HPF$` in any case.
fn is_hpf_sentinel(chars: &[char], at: usize) -> bool {
    chars.len() >= at + 4
        && chars[at..at + 4]
            .iter()
            .map(|c| c.to_ascii_uppercase())
            .eq("HPF$".chars())
}

/// Splits the lines of one file into logical statements; problems with the
/// lines themselves are reported to `rep`.
pub fn logical_statements(
    lines: &[SourceLine],
    form: Form,
    rep: &mut Reporter,
) -> Vec<LogicalStmt> {
    let mut b = Builder::new(form, rep);
    match form {
        Form::Fixed => fixed_form(&mut b, lines),
        Form::Free => free_form(&mut b, lines),
    }
    b.finish();
    b.out
}

/// Fixed-form text ends at column 72: 66 characters after column 6.
const FIXED_TEXT_WIDTH: usize = 66;

fn fixed_form(b: &mut Builder, lines: &[SourceLine]) {
    for line in lines {
        let chars: Vec<char> = line.text.chars().collect();
        if chars.iter().all(|c| c.is_whitespace()) {
            continue;
        }
        if matches!(chars[0], 'C' | 'c' | '*' | '!' | 'D' | 'd') {
            // `DHPF$` is a debug line, not a directive.
            if !matches!(chars[0], 'D' | 'd') && is_hpf_sentinel(&chars, 1) {
                fixed_directive(b, &chars, line);
            }
            continue;
        }
        let mut label = String::new();
        let mut label_pos = None;
        let mut cont = false;
        let mut text_start = chars.len();
        for (i, &c) in chars.iter().enumerate().take(6) {
            let pos = line.pos(i);
            if c == '\t' {
                cont = chars.get(i + 1).is_some_and(|d| ('1'..='9').contains(d));
                text_start = i + 1 + usize::from(cont);
                break;
            }
            if i == 5 {
                cont = c != ' ' && c != '0';
                text_start = 6;
                break;
            }
            if c.is_ascii_digit() {
                label.push(c);
                label_pos.get_or_insert(pos);
            } else if c == '!' && label.is_empty() {
                text_start = usize::MAX; // a comment line
                break;
            } else if c != ' ' {
                b.rep.error(
                    pos,
                    format!("invalid character `{c}` in the label field (columns 1-5)"),
                );
                text_start = usize::MAX;
                break;
            }
        }
        if text_start == usize::MAX {
            continue;
        }
        let end = chars.len().min(text_start + FIXED_TEXT_WIDTH);
        if cont {
            if !b.is_open(false) {
                let pos = line.pos(5);
                b.rep
                    .error(pos, "continuation line with no statement to continue");
                continue;
            }
            if let Some(p) = label_pos {
                b.rep.error(p, "a continuation line cannot have a label");
            }
        } else {
            let label = label_pos.and_then(|p| label.parse::<u32>().ok().map(|v| (v, p)));
            b.start(label, false);
        }
        b.push_code(&chars, text_start, end, line);
    }
}

/// `CHPF$`, `*HPF$`, `!HPF$` in columns 1-5; column 6 marks continuation.
fn fixed_directive(b: &mut Builder, chars: &[char], line: &SourceLine) {
    let cont = chars.get(5).is_some_and(|&c| c != ' ' && c != '0');
    if cont && b.is_open(true) {
        // continues the open directive
    } else {
        b.start(None, true);
    }
    let end = chars.len().min(6 + FIXED_TEXT_WIDTH);
    b.push_code(chars, 6.min(chars.len()), end, line);
}

fn free_form(b: &mut Builder, lines: &[SourceLine]) {
    // Whether the previous line ended with `&`, and in which kind of statement.
    let mut continuing: Option<bool> = None;
    for line in lines {
        let chars: Vec<char> = line.text.chars().collect();
        let Some(s) = chars.iter().position(|c| !c.is_whitespace()) else {
            continue;
        };
        let hpf = chars[s] == '!' && is_hpf_sentinel(&chars, s + 1);
        if chars[s] == '!' && !hpf {
            continue;
        }
        let mut from = if hpf { s + 5 } else { s };
        if continuing == Some(hpf) && b.is_open(hpf) {
            let lead = chars[from..]
                .iter()
                .take_while(|c| c.is_whitespace())
                .count();
            if chars.get(from + lead) == Some(&'&') {
                from += lead + 1;
            }
        } else {
            if continuing.is_some() {
                let pos = line.pos(s);
                b.rep.error(
                    pos,
                    "the previous line ends with `&` but this line does not continue it",
                );
            }
            b.start(None, hpf);
        }
        let (end, more) = free_code_end(&chars, from, b.quote);
        continuing = more.then_some(hpf);
        b.push_code(&chars, from, end, line);
    }
    if continuing.is_some() {
        if let Some(pos) = b.first {
            b.rep
                .error(pos, "the last statement ends with `&` but the file ends");
        }
    }
}

/// Where the code of a free-form line ends (before a `!` comment and a
/// trailing `&`), and whether that `&` was there.
fn free_code_end(chars: &[char], from: usize, mut quote: Option<char>) -> (usize, bool) {
    let mut end = chars.len();
    for (i, &c) in chars.iter().enumerate().skip(from) {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '\'' || c == '"' => quote = Some(c),
            None if c == '!' => {
                end = i;
                break;
            }
            None => {}
        }
    }
    while end > from && chars[end - 1].is_whitespace() {
        end -= 1;
    }
    if end > from && chars[end - 1] == '&' {
        (end - 1, true)
    } else {
        (end, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(form: Form, src: &str) -> (Vec<LogicalStmt>, Reporter) {
        let mut rep = Reporter::default();
        let f = rep.add_file("t", src);
        let lines: Vec<SourceLine> = (rep.files[f].lines.iter().zip(1..))
            .map(|(l, n)| SourceLine::written(f, n, l))
            .collect();
        let out = logical_statements(&lines, form, &mut rep);
        (out, rep)
    }

    fn codes(v: &[LogicalStmt]) -> Vec<String> {
        v.iter().map(|s| s.code().trim().to_string()).collect()
    }

    #[test]
    fn fixed_labels_continuations_comments_and_column_72() {
        let long = format!("      Y = 3{}IGNORED", " ".repeat(72 - 11));
        let src = format!(
            "C comment\n* another\n   10 X = 1 +\n     &    2\n{long}\n!bang comment\n\n  20  CONTINUE ! trailing\n"
        );
        let (v, rep) = run(Form::Fixed, &src);
        assert!(rep.diags.is_empty(), "{:?}", rep.diags);
        assert_eq!(codes(&v), ["X=1+2", "Y=3", "CONTINUE"]);
        assert_eq!(v[0].label.map(|l| l.0), Some(10));
        assert_eq!(v[0].label.unwrap().1.col, 4);
        assert_eq!(v[2].label.map(|l| l.0), Some(20));
        // `2` of the continuation line stands on line 4, column 11.
        let off = v[0].text.find('2').unwrap();
        assert_eq!(
            v[0].pos_at(off),
            Pos {
                file: 0,
                line: 4,
                col: 11
            }
        );
    }

    #[test]
    fn fixed_continuation_zero_is_not_continuation_and_tabs_start_text() {
        let (v, _) = run(Form::Fixed, "      X = 1\n     0Y = 2\n10\tZ = 3\n\t1+ 4\n");
        assert_eq!(codes(&v), ["X=1", "Y=2", "Z=3+4"]);
        assert_eq!(v[2].label.map(|l| l.0), Some(10));
    }

    #[test]
    fn fixed_bang_inside_string_is_not_a_comment() {
        let (v, _) = run(Form::Fixed, "      PRINT *, 'A!B' ! c\n");
        assert_eq!(codes(&v), ["PRINT*,'A!B'"]);
    }

    #[test]
    fn fixed_blanks_are_left_out_but_constants_keep_theirs() {
        let src = "      IF (X . EQ . 'A B') Y = 1\n  100 FORMAT (1X, 6HA ;B!', 'C D')\n      D = 1\n     &  0\n";
        let (v, rep) = run(Form::Fixed, src);
        assert!(rep.diags.is_empty(), "{:?}", rep.diags);
        assert_eq!(
            codes(&v),
            ["IF(X.EQ.'A B')Y=1", "FORMAT(1X,6HA ;B!','C D')", "D=10"]
        );
        assert!(v.iter().all(|s| s.squeezed));
        // `Y` keeps its place on the line.
        let off = v[0].text.find('Y').unwrap();
        assert_eq!(v[0].pos_at(off).col, 27);
        let off = v[2].text.find('0').unwrap();
        assert_eq!((v[2].pos_at(off).line, v[2].pos_at(off).col), (4, 9));
        // Directives and free form keep their blanks.
        let (v, _) = run(Form::Fixed, "CHPF$ ALIGN A(I) WITH T(I)\n");
        assert_eq!(codes(&v), ["ALIGN A(I) WITH T(I)"]);
        let (w, _) = run(Form::Free, "x = a . b\n");
        assert_eq!(codes(&w), ["x = a . b"]);
        assert!(!v[0].squeezed && !w[0].squeezed);
    }

    #[test]
    fn fixed_hpf_directives_with_continuation() {
        let (v, _) = run(
            Form::Fixed,
            "CHPF$ ALIGN A(I)\nCHPF$&  WITH T(I)\n*hpf$ DISTRIBUTE T(BLOCK)\n!HPF$ INDEPENDENT\nC HPF$ not one\nDHPF$ nor this\n",
        );
        assert_eq!(
            codes(&v),
            [
                "ALIGN A(I)  WITH T(I)",
                "DISTRIBUTE T(BLOCK)",
                "INDEPENDENT"
            ]
        );
        assert!(v.iter().all(|s| s.hpf));
    }

    #[test]
    fn fixed_bad_label_field_and_orphan_continuation_are_errors() {
        let (_, rep) = run(Form::Fixed, "     &X = 1\n  A   Y = 2\n");
        assert_eq!(rep.diags.len(), 2);
        assert_eq!((rep.diags[0].line, rep.diags[0].col), (1, 6));
        assert_eq!((rep.diags[1].line, rep.diags[1].col), (2, 3));
    }

    #[test]
    fn free_continuations_labels_semicolons() {
        let src =
            "X = 1 + &\n    & 2 ! c\n100 Y = 2; Z = 'a;b' &\n  // 'c'\n! comment\n  W = 'it''s'\n";
        let (v, rep) = run(Form::Free, src);
        assert!(rep.diags.is_empty(), "{:?}", rep.diags);
        assert_eq!(
            codes(&v),
            ["X = 1 +  2", "Y = 2", "Z = 'a;b' // 'c'", "W = 'it''s'"]
        );
        assert_eq!(v[1].label.map(|l| l.0), Some(100));
        assert_eq!(
            v[1].label.unwrap().1,
            Pos {
                file: 0,
                line: 3,
                col: 1
            }
        );
        let off = v[0].text.find('2').unwrap();
        assert_eq!(
            v[0].pos_at(off),
            Pos {
                file: 0,
                line: 2,
                col: 7
            }
        );
    }

    #[test]
    fn free_hpf_directive_continuation() {
        let (v, _) = run(
            Form::Free,
            "  !hpf$ align (i) with t(i) &\n  !HPF$& :: a, b\n!HPF$ INDEPENDENT, NEW(J)\n",
        );
        assert_eq!(
            codes(&v),
            ["align (i) with t(i)  :: a, b", "INDEPENDENT, NEW(J)"]
        );
    }

    #[test]
    fn non_ascii_in_strings_keeps_columns() {
        let (v, _) = run(Form::Free, "S = 'é' // X\n");
        let off = v[0].text.find('X').unwrap();
        assert_eq!(v[0].pos_at(off).col, 12);
    }

    #[test]
    fn preprocessed_lines_keep_the_columns_they_were_written_at() {
        // "X = N + Z" as written, N expanded to 100.
        let line = SourceLine {
            text: "X = 100 + Z &".into(),
            file: 3,
            line: 40,
            cols: crate::align::columns("X = N + Z &", "X = 100 + Z &"),
        };
        let next = SourceLine::written(3, 41, "  + W");
        let mut rep = Reporter::default();
        let v = logical_statements(&[line, next], Form::Free, &mut rep);
        let at = |c: &str| v[0].pos_at(v[0].text.find(c).unwrap());
        assert_eq!((at("1").col, at("0").col, at("Z").col), (5, 5, 9));
        assert_eq!((at("Z").file, at("Z").line), (3, 40));
        assert_eq!((at("W").line, at("W").col), (41, 5));
    }

    #[test]
    fn label_without_statement_is_an_error() {
        let (v, rep) = run(Form::Free, "10\nX = 1\n");
        assert_eq!(codes(&v), ["X = 1"]);
        assert_eq!(rep.diags.len(), 1);
        assert!(rep.diags[0].message.contains("label 10"));
    }
}
