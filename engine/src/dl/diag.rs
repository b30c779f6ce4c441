//! Positions in rule files and the diagnostics that point at them, in the
//! compilers' form `file:line:col: error: message`, then the source line and
//! a caret.

use std::fmt;

/// A place in one of the program's files (`file` indexes [`Sources`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    pub file: u32,
    /// 1-based.
    pub line: u32,
    /// 1-based, in characters.
    pub col: u32,
}

/// A problem found while reading a program, before the file names are known.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Diagnostic {
    pub pos: Pos,
    pub message: String,
}

impl Diagnostic {
    pub fn new(pos: Pos, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            pos,
            message: message.into(),
        }
    }
}

/// The files of one program: names and texts, in the order of [`Pos::file`].
#[derive(Clone, Debug, Default)]
pub struct Sources {
    pub files: Vec<(String, String)>,
}

impl Sources {
    /// A hash of the files' names (without directories) and texts, the same
    /// in `build.rs` and at run time: tells whether two programs were read
    /// from the same rule files.
    pub fn fingerprint(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for (name, text) in &self.files {
            let base = std::path::Path::new(name)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            for b in base.bytes().chain([0]).chain(text.bytes()).chain([0]) {
                h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
            }
        }
        h
    }

    /// Sorts, deduplicates and resolves diagnostics against the file texts.
    pub fn resolve(&self, mut diags: Vec<Diagnostic>) -> Vec<RuleDiagnostic> {
        diags.sort();
        diags.dedup();
        diags
            .into_iter()
            .map(|d| {
                let (file, text) = self
                    .files
                    .get(d.pos.file as usize)
                    .map(|(f, t)| (f.clone(), Some(t)))
                    .unwrap_or_default();
                RuleDiagnostic {
                    file,
                    line: d.pos.line,
                    col: d.pos.col,
                    message: d.message,
                    source_line: text.and_then(|t| {
                        t.lines()
                            .nth((d.pos.line as usize).saturating_sub(1))
                            .map(str::to_string)
                    }),
                }
            })
            .collect()
    }
}

/// One error in a rule program, self-contained (it carries its source line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleDiagnostic {
    pub file: String,
    /// 1-based; 0 when the problem is with the file as a whole.
    pub line: u32,
    pub col: u32,
    pub message: String,
    pub source_line: Option<String>,
}

impl RuleDiagnostic {
    /// The first line alone: `file:line:col: error: message`.
    pub fn headline(&self) -> String {
        if self.line == 0 {
            format!("{}: error: {}", self.file, self.message)
        } else {
            format!(
                "{}:{}:{}: error: {}",
                self.file, self.line, self.col, self.message
            )
        }
    }
}

impl fmt::Display for RuleDiagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.headline())?;
        if let Some(src) = &self.source_line {
            crate::excerpt::write_excerpt(f, src, self.col as usize)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_position_line_and_caret() {
        let sources = Sources {
            files: vec![("a.dl".into(), "x.\n  p(X) :- q(Y).".into())],
        };
        let d = sources.resolve(vec![Diagnostic::new(
            Pos {
                file: 0,
                line: 2,
                col: 5,
            },
            "variable `X` is unbound in the head",
        )]);
        assert_eq!(
            d[0].to_string(),
            "a.dl:2:5: error: variable `X` is unbound in the head\n    p(X) :- q(Y).\n      ^"
        );
    }
}
