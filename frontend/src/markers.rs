//! Line markers (`# 12 "file.h" 1`): the C preprocessor writes one before
//! each run of lines that does not follow the line before (the lines of an
//! `#include`d file, the line after a removed `#if` block), and gfortran
//! honours them in every source, preprocessed or not. [`follow`] turns
//! lines that may carry them into [`SourceLine`]s that know the file, line
//! and columns of each character as the user wrote it.

use crate::align;
use crate::ast::{FileId, Pos};
use crate::lines::SourceLine;
use crate::source::{read_text, Reporter};
use rustc_hash::FxHashMap;
use std::path::Path;

/// The lines of `text`, read as lines of `file` (registered in `rep`) until
/// a marker names another one in `names`. A line that changed from the one
/// written (expanded macros) gets its columns aligned with it. Other lines
/// starting with `#` are left out with a warning, `ignored` (gfortran's
/// "Illegal preprocessor directive"); blank lines are left out too.
pub fn follow<'t>(
    text: impl IntoIterator<Item = &'t str>,
    file: FileId,
    names: &mut Names,
    ignored: &str,
    rep: &mut Reporter,
) -> Vec<SourceLine> {
    let mut at = Cursor {
        name: None,
        file,
        line: 1,
    };
    let mut out = Vec::new();
    for line in text {
        if let Some(rest) = line.strip_prefix('#') {
            if let Some((number, name)) = marker(rest) {
                at.name = name.or(at.name.take());
                at.line = number;
                continue;
            }
            let file = at.file(names, rep);
            rep.warning(
                Pos {
                    file,
                    line: at.line,
                    col: 1,
                },
                ignored,
            );
        } else if !line.trim().is_empty() {
            let file = at.file(names, rep);
            out.push(placed(line, file, at.line, rep));
        }
        at.line += 1;
    }
    out
}

/// The files that markers and the preprocessor's messages name, by the
/// names they use.
pub struct Names(FxHashMap<String, FileId>);

impl Names {
    /// `file` under its path and under `aliases` (the preprocessor's name
    /// for its standard input).
    pub fn new(file: FileId, aliases: &[&str], rep: &Reporter) -> Self {
        let names = aliases.iter().map(|a| a.to_string());
        let path = rep.files[file].path.clone();
        Names(names.chain([path]).map(|n| (n, file)).collect())
    }

    /// The file named `name`, registered (read) the first time. An
    /// unreadable file still gets positions, without text to show.
    pub fn file(&mut self, name: &str, rep: &mut Reporter) -> FileId {
        if let Some(&id) = self.0.get(name) {
            return id;
        }
        let text = read_text(Path::new(name)).unwrap_or_default();
        let id = rep.add_file(name, &text);
        self.0.insert(name.to_string(), id);
        id
    }
}

/// Where the next line stands.
struct Cursor {
    /// A file named by the last marker, registered only when a line of it
    /// is used (the preprocessor also names `<built-in>` and `<command-line>`).
    name: Option<String>,
    file: FileId,
    line: u32,
}

impl Cursor {
    fn file(&mut self, names: &mut Names, rep: &mut Reporter) -> FileId {
        if let Some(name) = self.name.take() {
            self.file = names.file(&name, rep);
        }
        self.file
    }
}

/// `N` or `N "name" flags...` after the `#` of a line marker (gfortran
/// accepts no other form, not even `#line`).
fn marker(rest: &str) -> Option<(u32, Option<String>)> {
    let rest = rest.trim_start_matches([' ', '\t']);
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let number = rest[..digits].parse().ok()?;
    let after = &rest[digits..];
    if after.trim().is_empty() {
        return Some((number, None));
    }
    // The name is set off from the number.
    let blanks = after.len() - after.trim_start_matches([' ', '\t']).len();
    let quoted = after[blanks..].strip_prefix('"').filter(|_| blanks > 0)?;
    let mut name = String::new();
    let mut chars = quoted.chars();
    loop {
        match chars.next()? {
            '"' => break,
            '\\' => name.push(chars.next()?),
            c => name.push(c),
        }
    }
    chars
        .as_str()
        .split_whitespace()
        .all(|f| f.bytes().all(|b| b.is_ascii_digit()))
        .then_some((number, Some(name)))
}

/// Line `line` of `file` as it now reads, its columns aligned with the line
/// as written when the two differ.
fn placed(now: &str, file: FileId, line: u32, rep: &Reporter) -> SourceLine {
    let written = (line as usize)
        .checked_sub(1)
        .and_then(|i| rep.files[file].lines.get(i))
        .map_or("", String::as_str);
    let mut placed = SourceLine::written(file, line, now);
    if written != now {
        placed.cols = align::columns(written, now);
    }
    placed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_of_gfortran_and_cpp() {
        assert_eq!(marker(" 12"), Some((12, None)));
        assert_eq!(marker(" 1 \"a.h\" 1 3"), Some((1, Some("a.h".into()))));
        assert_eq!(
            marker(" 7 \"a \\\"b\\\\c\""),
            Some((7, Some("a \"b\\c".into())))
        );
        for not in ["line 3 \"a\"", "ifdef X", "", " 3 \"open", " 3 x", "3\"a\""] {
            assert_eq!(marker(not), None, "{not:?}");
        }
    }

    #[test]
    fn lines_follow_the_markers_and_directives_are_left_out() {
        let mut rep = Reporter::default();
        let f = rep.add_file("main.f", "      X = 1\n");
        let text = [
            "      X = 1",
            "#ifdef A",
            "",
            "# 40 \"<built-in>\"",
            "# 7 \"main.f\"",
            "      Y = 2",
            "# 3 \"no/such.h\" 1",
            "      Z = 3",
        ];
        let mut names = Names::new(f, &[], &rep);
        let lines = follow(text, f, &mut names, "left out", &mut rep);
        let at: Vec<(&str, u32)> = lines
            .iter()
            .map(|l| (rep.files[l.file].path.as_str(), l.line))
            .collect();
        assert_eq!(at, [("main.f", 1), ("main.f", 7), ("no/such.h", 3)]);
        assert!(lines[0].cols.is_empty());
        // `<built-in>` had no line, so it was never registered.
        assert_eq!(rep.files.len(), 2);
        assert_eq!(rep.diags.len(), 1);
        assert_eq!((rep.diags[0].line, rep.diags[0].col), (2, 1));
        assert_eq!(rep.diags[0].message, "left out");
    }
}
