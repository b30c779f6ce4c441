//! Source lines of the Fortran the emitters write back: where a statement
//! ends (its continuation lines), comment lines, and statements laid out
//! within the form's columns (fixed: 7-72, free: 132).

/// The last line of the statement that starts on line `start` (1-based):
/// its continuation lines follow.
pub fn statement_end(lines: &[&str], start: usize, fixed: bool) -> usize {
    let mut last = start;
    if fixed {
        let mut n = start + 1;
        while let Some(line) = lines.get(n - 1) {
            if is_fixed_comment(line) {
                n += 1;
                continue;
            }
            let col6 = line.chars().nth(5);
            if line.len() > 5
                && !line.starts_with('\t')
                && col6.is_some_and(|c| c != ' ' && c != '0')
            {
                last = n;
                n += 1;
            } else {
                break;
            }
        }
    } else {
        while lines
            .get(last - 1)
            .is_some_and(|l| free_code(l).trim_end().ends_with('&'))
            && last < lines.len()
        {
            last += 1;
        }
    }
    last
}

/// A fixed-form comment or blank line.
pub fn is_fixed_comment(line: &str) -> bool {
    line.trim().is_empty() || line.starts_with(['C', 'c', '*', '!'])
}

/// A free-form line without its trailing comment.
pub fn free_code(line: &str) -> &str {
    let mut quote = None;
    for (i, c) in line.char_indices() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), _) if c == q => quote = None,
            (None, '!') => return &line[..i],
            _ => {}
        }
    }
    line
}

/// A statement at `indent`, continued past column 72 in fixed form
/// (a mark in column 6) and past column 132 in free form (`&` at the end
/// and at the start of the next line, so a name or a character constant
/// may be split).
pub fn statement_lines(indent: &str, stmt: &str, fixed: bool) -> Vec<String> {
    let line = format!("{indent}{stmt}");
    let (width, more, lead) = if fixed {
        (72, 66, "     &")
    } else {
        (132, 130, "&")
    };
    if line.len() <= width {
        return vec![line];
    }
    let tail = if fixed { "" } else { "&" };
    let (first, mut rest) = line.split_at(floor_boundary(&line, width - tail.len()));
    let mut out = vec![format!("{first}{tail}")];
    while !rest.is_empty() {
        let (part, next) = rest.split_at(floor_boundary(rest, more));
        let tail = if next.is_empty() { "" } else { tail };
        out.push(format!("{lead}{part}{tail}"));
        rest = next;
    }
    out
}

/// The largest character boundary of `s` at most `at`.
fn floor_boundary(s: &str, at: usize) -> usize {
    let mut at = at.min(s.len());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_statements_stay_within_the_columns_of_their_form() {
        let stmt = format!("X = {}", vec!["A(I+1,J)"; 40].join("+"));
        for fixed in [true, false] {
            let lines = statement_lines("      ", &stmt, fixed);
            let width = if fixed { 72 } else { 132 };
            assert!(lines.len() > 2, "{lines:?}");
            assert!(lines.iter().all(|l| l.len() <= width), "{lines:?}");
            let joined: String = lines
                .iter()
                .enumerate()
                .map(|(i, l)| {
                    let l = if i == 0 {
                        l.as_str()
                    } else if fixed {
                        &l[6..]
                    } else {
                        &l[1..]
                    };
                    if fixed {
                        l
                    } else {
                        l.trim_end_matches('&')
                    }
                })
                .collect();
            assert_eq!(joined, format!("      {stmt}"));
        }
    }
}
