//! The source excerpt under a located message: the line, then a caret under
//! the column. Rule diagnostics print it, and so do kaiseki's Fortran
//! diagnostics (through `kaiseki_facts::excerpt`): both place messages by
//! 1-based line and column. `build.rs` includes it with [`crate::dl`].

use std::fmt;

/// Longer lines are cut, so that a 10 MB line does not flood the terminal.
const SHOWN: usize = 200;

/// Writes `\n  <line>` and, when `col` (1-based, 0: none) is on the shown
/// part, `\n  <pad>^` with the line's tabs kept so the caret lines up.
pub fn write_excerpt(f: &mut impl fmt::Write, line: &str, col: usize) -> fmt::Result {
    let shown: String = line.chars().take(SHOWN).collect();
    write!(f, "\n  {shown}")?;
    if col > 0 && col <= SHOWN {
        let pad: String = line
            .chars()
            .take(col - 1)
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        write!(f, "\n  {pad}^")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn excerpt(line: &str, col: usize) -> String {
        let mut s = String::new();
        write_excerpt(&mut s, line, col).unwrap();
        s
    }

    #[test]
    fn the_caret_keeps_tabs_and_long_lines_are_cut() {
        assert_eq!(excerpt("\tX = (1", 6), "\n  \tX = (1\n  \t    ^");
        assert_eq!(excerpt("abc", 0), "\n  abc");
        let long = "x".repeat(300);
        assert_eq!(excerpt(&long, 250), format!("\n  {}", "x".repeat(200)));
    }
}
