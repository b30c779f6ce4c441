//! The source as lines: statement extents, the subscripts of a
//! reference as written, and the program written back with generated
//! lines (indented and continued for fixed or free form).

use super::Edits;
use crate::source_lines::{free_code, is_fixed_comment, statement_end};
use kaiseki_frontend::InlinedLine;
use std::collections::HashMap;

/// The program as the compiler reads it: the file's lines with its
/// INCLUDEs inlined (the output is one file), numbered 1, 2, ... here.
pub(super) struct Source<'a> {
    lines: Vec<&'a str>,
    /// Where each line was read: (file, line in that file).
    origins: Vec<(&'a str, usize)>,
    /// (file, line in that file) -> the line here.
    places: HashMap<(&'a str, usize), usize>,
    fixed: bool,
    newline: &'static str,
}

/// The subscripts of one array element, as written.
#[derive(Default)]
pub(super) struct Subscripts {
    pub dims: Vec<String>,
}

impl<'a> Source<'a> {
    pub fn new(lines: &'a [InlinedLine], fixed: bool) -> Source<'a> {
        Source {
            lines: lines.iter().map(|l| l.text.as_str()).collect(),
            origins: lines.iter().map(|l| (l.file.as_str(), l.line)).collect(),
            places: lines
                .iter()
                .enumerate()
                .map(|(k, l)| ((l.file.as_str(), l.line), k + 1))
                .collect(),
            fixed,
            newline: if lines.iter().any(|l| l.text.ends_with("\r\n")) {
                "\r\n"
            } else {
                "\n"
            },
        }
    }

    /// The line here of line `line` of `file` (`None`: a file not
    /// inlined, such as a header the preprocessor `#include`d).
    pub fn place(&self, file: &str, line: usize) -> Option<usize> {
        self.places.get(&(file, line)).copied()
    }

    /// `file:line:1: error: message` and the source line, for line `line`
    /// here.
    pub fn error(&self, line: usize, message: &str) -> String {
        let (file, at) = self.origin(line);
        let text = self
            .lines
            .get(line.wrapping_sub(1))
            .map_or("", |l| l.trim_end());
        format!("{file}:{at}:1: error: {message}\n  {text}")
    }

    /// Where line `line` here was read: the file and its line there.
    fn origin(&self, line: usize) -> (&'a str, usize) {
        let first = self.origins.first().map_or("?", |o| o.0);
        self.origins
            .get(line.wrapping_sub(1))
            .copied()
            .unwrap_or((first, line))
    }

    /// Line `line` here as a reader finds it: `line 12` of the file
    /// written, `body.h:5` for a line of an INCLUDEd file.
    pub fn describe(&self, line: usize) -> String {
        match self.origin(line) {
            (file, at) if Some(file) == self.origins.first().map(|o| o.0) => format!("line {at}"),
            (file, at) => format!("{file}:{at}"),
        }
    }

    /// The last line of the statement that goes on at line `line`.
    pub fn statement_end(&self, line: usize) -> usize {
        if line == 0 || line > self.lines.len() {
            return line;
        }
        statement_end(&self.lines, line, self.fixed)
    }

    /// The code of a line without its comment (and fixed form's columns
    /// past 72).
    pub fn code(&self, line: usize) -> &'a str {
        let Some(l) = self.lines.get(line.wrapping_sub(1)) else {
            return "";
        };
        let l = l.trim_end_matches(['\n', '\r']);
        if self.fixed {
            if is_fixed_comment(l) {
                return "";
            }
            free_code(&l[..l.len().min(72)])
        } else {
            free_code(l)
        }
    }

    /// The subscripts of the array reference whose name starts at `col`
    /// of `line` (continuation lines joined).
    pub fn subscripts(&self, line: usize, col: usize) -> Option<Subscripts> {
        let text = self.joined(line, col)?;
        let open = text.find('(')?;
        if !text[..open]
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ' ')
        {
            return None;
        }
        let inner = matching(&text[open..])?;
        Some(Subscripts {
            dims: split_top(inner)
                .into_iter()
                .map(|d| d.trim().to_string())
                .collect(),
        })
    }

    /// The text of the statement that goes on at line `line` from column
    /// `col` on, its continuation lines joined.
    fn joined(&self, line: usize, col: usize) -> Option<String> {
        let end = self.statement_end(line);
        let mut text = String::new();
        for (k, n) in (line..=end).enumerate() {
            let code = self.code(n);
            let piece = if k == 0 {
                code.get(col.checked_sub(1)?..)?
            } else if self.fixed {
                code.get(6..).unwrap_or("")
            } else {
                let t = code.trim_start();
                t.strip_prefix('&').unwrap_or(t)
            };
            let piece = if self.fixed {
                piece
            } else {
                piece.trim_end().trim_end_matches('&')
            };
            text.push_str(piece);
        }
        Some(text)
    }

    /// The statement at line `line` as one line of text, without its
    /// label.
    pub fn statement(&self, line: usize) -> Option<String> {
        let text = self.joined(line, if self.fixed { 7 } else { 1 })?;
        let text = text.trim_start();
        let text = if self.fixed {
            text
        } else {
            text.trim_start_matches(|c: char| c.is_ascii_digit())
        };
        Some(text.trim().to_string())
    }

    /// The actual arguments of the CALL statement at `line`, as written.
    pub fn call_args(&self, line: usize) -> Option<Vec<String>> {
        let code = self.code(line);
        let at = code.to_ascii_uppercase().find("CALL")? + 4;
        let rest = &code[at..];
        let col = at + (rest.len() - rest.trim_start().len()) + 1;
        Some(self.subscripts(line, col).map_or_else(Vec::new, |s| s.dims))
    }

    /// One generated line, indented and continued as the form needs.
    pub fn emit(&self, out: &mut String, text: &str) {
        let (indent, width) = if self.fixed {
            ("      ", 72)
        } else {
            ("  ", 100)
        };
        let mut rest = text.trim().to_string();
        if rest.starts_with('!') {
            out.push_str(&rest);
            out.push_str(self.newline);
            return;
        }
        let mut first = true;
        loop {
            // A free-form continuation starts with `&` too: a cut inside
            // a name or a number joins again.
            let lead = match (first, self.fixed) {
                (true, _) => indent,
                (false, true) => "     &",
                (false, false) => "  &",
            };
            let room = width - lead.len() - 2;
            if rest.len() <= room {
                out.push_str(lead);
                out.push_str(&rest);
                out.push_str(self.newline);
                return;
            }
            let cut = rest[..room]
                .rfind(", ")
                .map(|c| c + 2)
                .or_else(|| rest[..room].rfind(' ').map(|c| c + 1))
                .unwrap_or(room);
            out.push_str(lead);
            out.push_str(&rest[..cut]);
            if !self.fixed {
                out.push('&');
            }
            out.push_str(self.newline);
            rest = rest[cut..].to_string();
            first = false;
        }
    }

    /// The source with the generated lines before and after its lines;
    /// a label in `relabel` moves to a CONTINUE before the first of them;
    /// a dropped line is kept as a comment.
    pub fn render(&self, out: &mut String, edits: &Edits) {
        for (i, line) in self.lines.iter().enumerate() {
            let n = i + 1;
            let mut line = line.to_string();
            if let Some(label) = edits.relabel.get(&n) {
                self.emit_label(out, *label);
                line = self.strip_label(&line, *label);
            }
            for b in edits.before.get(&n).into_iter().flatten() {
                self.emit_all(out, b);
            }
            if edits.dropped.contains(&n) {
                out.push('!');
            }
            out.push_str(&line);
            if !line.ends_with('\n') {
                out.push_str(self.newline);
            }
            for a in edits.after.get(&n).into_iter().flatten() {
                self.emit_all(out, a);
            }
        }
    }

    fn emit_all(&self, out: &mut String, code: &str) {
        for l in code.lines() {
            self.emit(out, l);
        }
    }

    fn emit_label(&self, out: &mut String, label: i64) {
        if self.fixed {
            out.push_str(&format!("{label:<5} CONTINUE{}", self.newline));
        } else {
            out.push_str(&format!("{label} CONTINUE{}", self.newline));
        }
    }

    /// The line with its statement label blanked out.
    fn strip_label(&self, line: &str, label: i64) -> String {
        let text = label.to_string();
        if self.fixed {
            let head: String = line.chars().take(5).collect();
            if head.trim() == text {
                return format!("     {}", &line[head.len()..]);
            }
            return line.to_string();
        }
        let start = line.len() - line.trim_start().len();
        match line[start..].strip_prefix(&text) {
            Some(rest) => format!("{}{}{rest}", &line[..start], " ".repeat(text.len())),
            None => line.to_string(),
        }
    }
}

/// The text inside the parentheses that open `text`.
pub(super) fn matching(text: &str) -> Option<&str> {
    let mut depth = 0;
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(&text[1..i]);
                }
            }
            _ => {}
        }
    }
    None
}

/// `text` split at the commas outside parentheses.
fn split_top(text: &str) -> Vec<&str> {
    split_top_at(text, ',')
}

/// `text` split at each `sep` outside parentheses.
pub(super) fn split_top_at(text: &str, sep: char) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            c if c == sep && depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// What a name in a subscript is, as far as `triplet` needs to know.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Name {
    /// An INTEGER scalar variable or a PARAMETER.
    Scalar,
    /// An array (an element of it when followed by `(`).
    Array,
    /// Anything else (a function, a variable of another type).
    Other,
}

/// The intrinsics whose value is a scalar when their arguments are.
const SCALAR_INTRINSICS: &[&str] = &[
    "MOD", "MODULO", "MIN", "MAX", "ABS", "SIGN", "DIM", "INT", "NINT",
];

/// One dimension of a reference as written (`2:N-1`, `:`, `J`, `K(I)+1`)
/// as a range, the missing bounds from `whole` (the declared extent);
/// `None` when it might not be one scalar or triplet: an array without
/// subscripts (`A(V, 1)`), a section inside, a function that is not a
/// scalar intrinsic, a `.` (an operator, a real).
pub(super) fn triplet(dim: &str, whole: &Range, name: &dyn Fn(&str) -> Name) -> Option<Range> {
    let parts = split_top_at(dim, ':');
    if parts.len() > 3 || !parts.iter().all(|p| scalar_expr(p, name)) {
        return None;
    }
    let or = |p: &str, w: &str| {
        let p = p.trim();
        if p.is_empty() { w } else { p }.to_string()
    };
    match parts[..] {
        [e] if !e.trim().is_empty() => Some((or(e, ""), or(e, ""), "1".into())),
        [l, h] => Some((or(l, &whole.0), or(h, &whole.1), "1".into())),
        [l, h, st] => Some((or(l, &whole.0), or(h, &whole.1), or(st, "1"))),
        _ => None,
    }
}

/// Whether `text` is an expression of INTEGER scalars: literals, scalar
/// names, elements and scalar intrinsics of such expressions.
fn scalar_expr(text: &str, name: &dyn Fn(&str) -> Name) -> bool {
    if text.contains(':')
        || !text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_+-*/(), ".contains(c))
    {
        return false;
    }
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_alphabetic() {
            // Digits after a letter belong to its name, skipped below.
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
            i += 1;
        }
        let word = text[start..i].to_ascii_uppercase();
        let called = text[i..].trim_start().starts_with('(');
        let ok = match (name(&word), called) {
            (Name::Scalar, false) | (Name::Array, true) => true,
            (Name::Other, true) => SCALAR_INTRINSICS.contains(&word.as_str()),
            _ => false,
        };
        if !ok {
            return false;
        }
    }
    true
}

/// A section as `sad_sections` prints it, `A(1:100, I)`: the array and
/// per dimension its range (`None`: all of it, for `:` and `?`), in
/// Fortran (see [`element_spelled`]).
pub(super) type Range = (String, String, String);
pub(super) fn parse_section(text: &str) -> Option<(String, Vec<Option<Range>>)> {
    let text = &element_spelled(text);
    let open = text.find('(')?;
    let name = text[..open].trim().to_string();
    let dims = split_top(matching(&text[open..])?)
        .into_iter()
        .map(|d| {
            let d = d.trim();
            if d == ":" || d == "?" {
                return None;
            }
            let parts: Vec<&str> = d.split(':').map(str::trim).collect();
            Some(match parts[..] {
                [e] => (e.to_string(), e.to_string(), "1".to_string()),
                [l, h] => (l.to_string(), h.to_string(), "1".to_string()),
                [l, h, s, ..] => (l.to_string(), h.to_string(), s.to_string()),
                _ => return None,
            })
        })
        .collect();
    Some((name, dims))
}

/// `text` with each fixed element's term (`GP$1`, `A$1$2`: the
/// frontend's `fixed_element` spelling) written as the element it is,
/// `GP(1)`, `A(1,2)`.
fn element_spelled(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '$' {
            out.push(c);
            continue;
        }
        let mut subscripts = vec![String::new()];
        while let Some(&d) = chars.peek() {
            match d {
                '0'..='9' => subscripts.last_mut().expect("one").push(d),
                '$' => subscripts.push(String::new()),
                _ => break,
            }
            chars.next();
        }
        out.push_str(&format!("({})", subscripts.join(",")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{element_spelled, triplet, Name, Range};

    #[test]
    fn fixed_elements_are_written_as_elements() {
        assert_eq!(
            element_spelled("U(0:GP$1-1, A$1$2)"),
            "U(0:GP(1)-1, A(1,2))"
        );
        assert_eq!(element_spelled("V(1:N)"), "V(1:N)");
    }

    fn name(n: &str) -> Name {
        match n {
            "N" | "I" | "K" => Name::Scalar,
            "V" | "A" => Name::Array,
            _ => Name::Other,
        }
    }

    fn range(dim: &str) -> Option<Range> {
        let whole = ("1".to_string(), "64".to_string(), "1".to_string());
        triplet(dim, &whole, &name)
    }

    fn r(l: &str, h: &str, s: &str) -> Option<Range> {
        Some((l.into(), h.into(), s.into()))
    }

    #[test]
    fn dimensions_as_written_become_ranges() {
        assert_eq!(range("2:N-1:3"), r("2", "N-1", "3"));
        assert_eq!(range(":"), r("1", "64", "1"));
        assert_eq!(range("K:"), r("K", "64", "1"));
        assert_eq!(range("::2"), r("1", "64", "2"));
        assert_eq!(range("I+1"), r("I+1", "I+1", "1"));
        assert_eq!(
            range("MOD(I, 8) + 1"),
            r("MOD(I, 8) + 1", "MOD(I, 8) + 1", "1")
        );
        assert_eq!(range("V(K)"), r("V(K)", "V(K)", "1"));
    }

    #[test]
    fn what_might_not_be_a_scalar_reads_the_whole_dimension() {
        for dim in [
            "V",
            "V(1:2)",
            "ABS(V)",
            "F(I)",
            "X",
            "I.EQ.1",
            "MAXLOC(A)",
            "",
        ] {
            assert_eq!(range(dim), None, "{dim}");
        }
    }
}
