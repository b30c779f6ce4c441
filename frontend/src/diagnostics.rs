//! Diagnostics in the compilers' form: `file:line:col: error: message`,
//! then the source line and a caret under the column.

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

#[cfg(test)]
mod tests {
    use super::*;

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
