//! Diagnostics in the compilers' form: `file:line:col: error: message`,
//! then the source line and a caret under the column; and which of them
//! are shown when a file has very many.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
}

/// One problem found in the input. Self-contained: it carries the text of
/// the source line it points at, so it can be printed without the files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub path: String,
    /// 1-based; 0 when the problem is with the file as a whole.
    pub line: u32,
    /// 1-based; 0 when the problem is with the line or file as a whole.
    pub col: u32,
    pub message: String,
    /// The source line, when there is one to show.
    pub source_line: Option<String>,
}

impl Diagnostic {
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        match (self.line, self.col) {
            (0, _) => write!(f, "{}: {sev}: {}", self.path, self.message)?,
            (l, 0) => write!(f, "{}:{l}: {sev}: {}", self.path, self.message)?,
            (l, c) => write!(f, "{}:{l}:{c}: {sev}: {}", self.path, self.message)?,
        }
        if let Some(src) = &self.source_line {
            kaiseki_facts::excerpt::write_excerpt(f, src, self.col as usize)?;
        }
        Ok(())
    }
}

/// How many errors, and apart from them how many warnings, of one file
/// are shown: a garbage file must not flood the output, and a large valid
/// one with many unmodelled statements must not hide its errors.
pub const SHOWN_PER_FILE: usize = 200;

/// The diagnostics to print, in order: per file the first
/// [`SHOWN_PER_FILE`] errors and the first [`SHOWN_PER_FILE`] warnings,
/// then one line per file and severity that had more
/// (`... and 812 more warnings`), of that severity, so that a file with
/// only warnings still has no error.
pub fn shown(diags: &[Diagnostic]) -> Vec<Cow<'_, Diagnostic>> {
    let mut counts: BTreeMap<(&str, Severity), usize> = BTreeMap::new();
    let mut out = Vec::with_capacity(diags.len().min(2 * SHOWN_PER_FILE));
    for d in diags {
        let n = counts.entry((d.path.as_str(), d.severity)).or_insert(0);
        *n += 1;
        if *n <= SHOWN_PER_FILE {
            out.push(Cow::Borrowed(d));
        }
    }
    for ((path, severity), n) in counts {
        if n > SHOWN_PER_FILE {
            let hidden = n - SHOWN_PER_FILE;
            let what = match (severity, hidden) {
                (Severity::Error, 1) => "error",
                (Severity::Error, _) => "errors",
                (Severity::Warning, 1) => "warning",
                (Severity::Warning, _) => "warnings",
            };
            out.push(Cow::Owned(Diagnostic {
                severity,
                path: path.to_string(),
                line: 0,
                col: 0,
                message: format!("... and {hidden} more {what}"),
                source_line: None,
            }));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diag(path: &str, severity: Severity, line: u32) -> Diagnostic {
        Diagnostic {
            severity,
            path: path.into(),
            line,
            col: 1,
            message: "m".into(),
            source_line: None,
        }
    }

    #[test]
    fn errors_and_warnings_are_capped_apart_and_the_rest_summed_up() {
        let mut diags = Vec::new();
        for i in 0..SHOWN_PER_FILE + 812 {
            diags.push(diag("a.f", Severity::Warning, i as u32 + 1));
        }
        diags.push(diag("a.f", Severity::Error, 5000));
        for i in 0..SHOWN_PER_FILE + 1 {
            diags.push(diag("b.f", Severity::Error, i as u32 + 1));
        }
        let out = shown(&diags);
        assert_eq!(out.len(), 2 * SHOWN_PER_FILE + 1 + 2);
        // The error after 1012 warnings is still shown.
        assert!(out.iter().any(|d| d.path == "a.f" && d.line == 5000));
        let summaries: Vec<String> = out
            .iter()
            .filter(|d| d.line == 0)
            .map(|d| d.to_string())
            .collect();
        assert_eq!(
            summaries,
            [
                "a.f: warning: ... and 812 more warnings",
                "b.f: error: ... and 1 more error"
            ]
        );
    }

    #[test]
    fn only_warnings_stay_only_warnings() {
        let diags: Vec<Diagnostic> = (0..SHOWN_PER_FILE as u32 * 3)
            .map(|i| diag("a.f", Severity::Warning, i + 1))
            .collect();
        assert!(!shown(&diags).iter().any(|d| d.is_error()));
    }

    #[test]
    fn renders_position_line_and_caret() {
        let d = Diagnostic {
            severity: Severity::Error,
            path: "a.f".into(),
            line: 3,
            col: 9,
            message: "expected `)`".into(),
            source_line: Some("      X = (1 + 2".into()),
        };
        assert_eq!(
            d.to_string(),
            "a.f:3:9: error: expected `)`\n        X = (1 + 2\n          ^"
        );
    }
}
