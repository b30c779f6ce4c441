//! Reading source files and reporting problems against them: the text
//! checks (missing, directory, empty, binary, not UTF-8), the source form
//! and preprocessing chosen by extension, the options that say how sources
//! are read, and [`Reporter`], which turns a [`Pos`] and a message into a
//! [`Diagnostic`] that carries its source line.

use crate::ast::{Pos, SourceFile};
use crate::diagnostics::{Diagnostic, Severity};
use std::path::{Path, PathBuf};

/// How the sources are read, as the compiler's command line says it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceOptions {
    /// `-D` and `-U` for the preprocessed files, in command-line order
    /// (a later one overrides an earlier one for the same name).
    pub macros: Vec<MacroArg>,
    /// `-I`: searched in order by `#include` and by `INCLUDE`, after the
    /// directory of the including file.
    pub include_dirs: Vec<PathBuf>,
    /// `-ffree-form` / `-ffixed-form`: the form of every file given,
    /// whatever its extension.
    pub form: Option<Form>,
    /// `-cpp`: every file goes through the C preprocessor.
    pub cpp: bool,
}

impl SourceOptions {
    /// The form a given file is read in: the forced one, or by extension.
    pub fn form_of(&self, path: &str) -> Form {
        self.form.unwrap_or_else(|| form_of(path))
    }

    /// Whether a given file goes through the C preprocessor.
    pub fn preprocesses(&self, path: &str) -> bool {
        self.cpp || is_preprocessed(path)
    }

    /// Where `INCLUDE 'name'` and `#include "name"` in the file `including`
    /// look, in order: its own directory, then the `-I` directories.
    pub fn search_path(&self, including: &str) -> Vec<PathBuf> {
        let own = Path::new(including).parent().unwrap_or(Path::new(""));
        std::iter::once(own.to_path_buf())
            .chain(self.include_dirs.iter().cloned())
            .collect()
    }
}

/// The message for a file `name` that `what` (`INCLUDE`, `#include`) found
/// in none of `searched`.
pub fn not_found(what: &str, name: &str, searched: &[PathBuf]) -> String {
    let dirs: Vec<String> = searched
        .iter()
        .map(|d| match d.to_string_lossy() {
            s if s.is_empty() => ".".to_string(),
            s => s.into_owned(),
        })
        .collect();
    format!(
        "cannot find {what} file '{name}' (searched: {})",
        dirs.join(", ")
    )
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MacroArg {
    /// `NAME` (defined as 1) or `NAME=VALUE`.
    Define(String),
    Undefine(String),
}

/// Whether gfortran runs the file through the C preprocessor: the
/// upper-case extensions of Fortran sources and `.fpp`. (gfortran does not
/// know `.f77` or `.F77` at all.)
pub fn is_preprocessed(path: &str) -> bool {
    let ext = Path::new(path)
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("");
    matches!(
        ext,
        "F" | "FOR" | "FTN" | "F90" | "F95" | "F03" | "F08" | "FPP" | "fpp"
    )
}

/// Fixed form (columns: label 1-5, continuation 6, text 7-72) or free form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Form {
    Fixed,
    Free,
}

/// `.f .for .ftn .f77` (either case) are fixed form; everything else free.
pub fn form_of(path: &str) -> Form {
    let ext = Path::new(path)
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    match ext.as_str() {
        "f" | "for" | "ftn" | "f77" | "fpp" => Form::Fixed,
        _ => Form::Free,
    }
}

/// Whether the extension names a Fortran source (an INCLUDEd `.h` or
/// `.inc` file takes the form of the file that includes it instead).
pub fn has_fortran_extension(path: &str) -> bool {
    let ext = Path::new(path)
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    matches!(
        ext.as_str(),
        "f" | "for" | "ftn" | "f77" | "fpp" | "f90" | "f95" | "f03" | "f08"
    )
}

/// Reads a file as text, or says why it cannot be used.
pub fn read_text(path: &Path) -> Result<String, String> {
    if path.is_dir() {
        return Err("is a directory, not a source file".into());
    }
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read file: {e}"))?;
    check_text(bytes)
}

/// Refuses binary data: NUL bytes or text that is not UTF-8.
pub fn check_text(bytes: Vec<u8>) -> Result<String, String> {
    if let Some(at) = bytes.iter().position(|&b| b == 0) {
        return Err(format!(
            "binary file (NUL byte at offset {at}), not Fortran source"
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "file is not valid UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })
}

/// Splits text into lines without their `\n` / `\r\n` ends.
pub fn split_lines(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.strip_suffix('\r').unwrap_or(l).to_string())
        .collect()
}

/// How much of a source line a diagnostic keeps; the renderer shows 200
/// characters, so a 10 MB line is not copied into every message.
const MAX_SOURCE_LINE: usize = 400;

/// The files read so far and the diagnostics against them. All are kept
/// (at most a few per statement or line, so memory stays proportional to
/// the input); [`crate::diagnostics::shown`] chooses what is printed.
#[derive(Default)]
pub struct Reporter {
    pub files: Vec<SourceFile>,
    pub diags: Vec<Diagnostic>,
}

impl Reporter {
    /// Registers a file and returns its id.
    pub fn add_file(&mut self, path: &str, text: &str) -> usize {
        self.files.push(SourceFile {
            path: path.to_string(),
            lines: split_lines(text),
        });
        self.files.len() - 1
    }

    /// A problem with a file as a whole (it may not be registered).
    pub fn file_error(&mut self, path: &str, message: impl Into<String>) {
        self.diags.push(Diagnostic {
            severity: Severity::Error,
            path: path.to_string(),
            line: 0,
            col: 0,
            message: message.into(),
            source_line: None,
        });
    }

    pub fn error(&mut self, pos: Pos, message: impl Into<String>) {
        self.report(Severity::Error, pos, message.into());
    }

    pub fn warning(&mut self, pos: Pos, message: impl Into<String>) {
        self.report(Severity::Warning, pos, message.into());
    }

    fn report(&mut self, severity: Severity, pos: Pos, message: String) {
        let Some(file) = self.files.get(pos.file) else {
            return;
        };
        let source_line = (pos.line as usize)
            .checked_sub(1)
            .and_then(|i| file.lines.get(i))
            .map(|l| l.chars().take(MAX_SOURCE_LINE).collect());
        self.diags.push(Diagnostic {
            severity,
            path: file.path.clone(),
            line: pos.line,
            col: pos.col,
            message,
            source_line,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn form_follows_extension() {
        assert_eq!(form_of("a.f"), Form::Fixed);
        assert_eq!(form_of("A.FOR"), Form::Fixed);
        assert_eq!(form_of("a.F"), Form::Fixed);
        assert_eq!(form_of("a.f90"), Form::Free);
        assert_eq!(form_of("a.F90"), Form::Free);
        assert_eq!(form_of("noext"), Form::Free);
        assert_eq!(form_of("a.FPP"), Form::Fixed);
    }

    #[test]
    fn upper_case_extensions_and_fpp_are_preprocessed() {
        for p in ["a.F", "a.FOR", "a.FTN", "a.F90", "a.F95", "a.F03", "a.F08"] {
            assert!(is_preprocessed(p), "{p}");
        }
        assert!(is_preprocessed("a.fpp") && is_preprocessed("d/a.FPP"));
        for p in ["a.f", "a.for", "a.f90", "a.F77", "a.f77", "a.h", "F"] {
            assert!(!is_preprocessed(p), "{p}");
        }
    }

    #[test]
    fn binary_and_bad_utf8_are_refused() {
        assert!(check_text(b"ab\0c".to_vec()).unwrap_err().contains("NUL"));
        assert!(check_text(vec![b'a', 0xff, 0xfe])
            .unwrap_err()
            .contains("UTF-8"));
        assert_eq!(check_text(b"x = 1".to_vec()).unwrap(), "x = 1");
    }
}
