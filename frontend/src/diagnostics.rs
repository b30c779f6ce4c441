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
/// then one line per file and severity that had more, saying what the
/// rest are, most frequent first (`... and 812 more warnings: 600
/// "`X` is not an array", 212 "..."`), of that severity, so that a file
/// with only warnings still has no error.
pub fn shown(diags: &[Diagnostic]) -> Vec<Cow<'_, Diagnostic>> {
    let mut counts: BTreeMap<(&str, Severity), usize> = BTreeMap::new();
    let mut hidden: BTreeMap<(&str, Severity), BTreeMap<String, usize>> = BTreeMap::new();
    let mut out = Vec::with_capacity(diags.len().min(2 * SHOWN_PER_FILE));
    for d in diags {
        let key = (d.path.as_str(), d.severity);
        let n = counts.entry(key).or_insert(0);
        *n += 1;
        if *n <= SHOWN_PER_FILE {
            out.push(Cow::Borrowed(d));
        } else {
            *hidden
                .entry(key)
                .or_default()
                .entry(kind_of(&d.message))
                .or_insert(0) += 1;
        }
    }
    for ((path, severity), kinds) in hidden {
        let n: usize = kinds.values().sum();
        let what = match (severity, n) {
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
            message: format!("... and {n} more {what}: {}", most_frequent(kinds)),
            source_line: None,
        }));
    }
    out
}

/// How many of the most frequent kinds of message a summary names.
const KINDS_NAMED: usize = 3;

/// A message with each name it quotes (between backquotes) made `X`, so
/// that the messages of one kind count together.
fn kind_of(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    for (i, part) in message.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        out.push_str(if i % 2 == 1 { "X" } else { part });
    }
    out
}

/// `600 "A", 200 "B", 12 "C" and 3 others`: the kinds by count, most
/// frequent first (then in text order).
fn most_frequent(kinds: BTreeMap<String, usize>) -> String {
    let mut by_count: Vec<(String, usize)> = kinds.into_iter().collect();
    by_count.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let named: Vec<String> = by_count
        .iter()
        .take(KINDS_NAMED)
        .map(|(kind, n)| format!("{n} \"{kind}\""))
        .collect();
    let others: usize = by_count.iter().skip(KINDS_NAMED).map(|(_, n)| n).sum();
    match others {
        0 => named.join(", "),
        1 => format!("{} and 1 other", named.join(", ")),
        n => format!("{} and {n} others", named.join(", ")),
    }
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
                "a.f: warning: ... and 812 more warnings: 812 \"m\"",
                "b.f: error: ... and 1 more error: 1 \"m\""
            ]
        );
    }

    #[test]
    fn the_summary_says_what_the_rest_are_most_frequent_first() {
        let mut diags = Vec::new();
        let mut push = |message: String| {
            diags.push(Diagnostic {
                message,
                ..diag("a.f", Severity::Error, 1)
            })
        };
        for i in 0..SHOWN_PER_FILE + 600 {
            push(format!("`V{i}` is not an array and cannot be assigned"));
        }
        for i in 0..200 {
            push(format!("`N{i}` has no type"));
        }
        for m in ["a", "b", "b", "c"] {
            push(m.to_string());
        }
        let out = shown(&diags);
        let summary = out.iter().find(|d| d.line == 0).expect("summary");
        assert_eq!(
            summary.message,
            "... and 804 more errors: 600 \"`X` is not an array and cannot be assigned\", \
             200 \"`X` has no type\", 2 \"b\" and 2 others"
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
