//! The columns of a line that the preprocessor changed (macros expanded,
//! C comments removed): each character of the new line is placed in the
//! line as written, so that a reference after an expanded macro keeps its
//! own column and what a macro put in points at the macro.
//!
//! Both lines are cut into words (names and numbers), runs of blanks and
//! single other characters. The common subsequence of words with the most
//! characters is what the preprocessor kept (counting characters, a name
//! outweighs the blanks cpp puts around a macro argument); the characters
//! it put in stand where the text it replaced began.

/// Above this many cells (words of one line times words of the other) the
/// middle of the lines is not matched word by word: only their common start
/// and end keep their columns.
const MAX_TABLE: usize = 1 << 20;

/// The 1-based column in `written` of each character of `now`.
pub fn columns(written: &str, now: &str) -> Vec<u32> {
    let w: Vec<char> = written.chars().collect();
    let n: Vec<char> = now.chars().collect();
    let (ww, nw) = (words(&w), words(&n));
    // The characters that word i of `now` and word j of `written` share.
    let same = |i: usize, j: usize| {
        let (a, b) = (&n[nw[i].0..nw[i].1], &w[ww[j].0..ww[j].1]);
        if a == b {
            a.len() as u32
        } else {
            0
        }
    };
    let mut cols = Vec::with_capacity(n.len());
    // The first written word not yet matched or passed over.
    let mut next = 0;
    let mut pairs = matches(nw.len(), ww.len(), same).into_iter().peekable();
    for (i, &(from, to)) in nw.iter().enumerate() {
        match pairs.next_if(|&(pi, _)| pi == i) {
            Some((_, j)) => {
                cols.extend((ww[j].0..ww[j].0 + (to - from)).map(|c| c as u32 + 1));
                next = j + 1;
            }
            None => {
                let at = ww.get(next).map_or(w.len(), |word| word.0);
                cols.extend(std::iter::repeat_n(at as u32 + 1, to - from));
            }
        }
    }
    cols
}

/// Character ranges of the words of `chars`.
fn words(chars: &[char]) -> Vec<(usize, usize)> {
    let class = |c: char| {
        if c.is_alphanumeric() || c == '_' {
            0
        } else if c.is_whitespace() {
            1
        } else {
            2
        }
    };
    let mut out: Vec<(usize, usize)> = Vec::new();
    for (i, &c) in chars.iter().enumerate() {
        match out.last_mut() {
            Some(last) if class(c) != 2 && class(chars[last.0]) == class(c) => last.1 = i + 1,
            _ => out.push((i, i + 1)),
        }
    }
    out
}

/// Pairs `(i, j)`, increasing in both, of equal words of a line of `n`
/// words and one of `w` words (`same`: the characters they share, 0 when
/// they differ): the common start and end, and between them the common
/// subsequence with the most characters when the table is small enough.
fn matches(n: usize, w: usize, same: impl Fn(usize, usize) -> u32) -> Vec<(usize, usize)> {
    let head = (0..n.min(w)).take_while(|&k| same(k, k) > 0).count();
    let tail = (0..(n - head).min(w - head))
        .take_while(|&k| same(n - 1 - k, w - 1 - k) > 0)
        .count();
    let mut out: Vec<(usize, usize)> = (0..head).map(|k| (k, k)).collect();
    let (a, b) = (n - head - tail, w - head - tail);
    if a > 0 && b > 0 && (a + 1) * (b + 1) <= MAX_TABLE {
        // best[i * (b + 1) + j]: the most characters a common subsequence
        // of the middles from word i of one and word j of the other on has.
        let at = |i: usize, j: usize| i * (b + 1) + j;
        let mut best = vec![0u32; (a + 1) * (b + 1)];
        for i in (0..a).rev() {
            for j in (0..b).rev() {
                let both = match same(head + i, head + j) {
                    0 => 0,
                    k => best[at(i + 1, j + 1)] + k,
                };
                best[at(i, j)] = both.max(best[at(i + 1, j)]).max(best[at(i, j + 1)]);
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < a && j < b {
            let k = same(head + i, head + j);
            if k > 0 && best[at(i, j)] == best[at(i + 1, j + 1)] + k {
                out.push((head + i, head + j));
                i += 1;
                j += 1;
            } else if best[at(i + 1, j)] >= best[at(i, j + 1)] {
                i += 1;
            } else {
                j += 1;
            }
        }
    }
    out.extend((0..tail).rev().map(|k| (n - 1 - k, w - 1 - k)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The written text under each character of `now`.
    fn under(written: &str, now: &str) -> String {
        let w: Vec<char> = written.chars().collect();
        columns(written, now)
            .iter()
            .map(|&c| w.get(c as usize - 1).copied().unwrap_or('$'))
            .collect()
    }

    #[test]
    fn text_after_an_expanded_macro_keeps_its_column() {
        let written = "      A(I) = B(I) * NX + C(I)";
        let now = "      A(I) = B(I) * 100 + C(I)";
        let cols = columns(written, now);
        let c = now.find("C(").unwrap();
        assert_eq!(cols[c] as usize, written.find("C(").unwrap() + 1);
        // The three digits stand on the macro's name.
        assert_eq!(under(written, now), "      A(I) = B(I) * NNN + C(I)");
    }

    #[test]
    fn arguments_of_a_function_like_macro_keep_their_columns() {
        let written = "X = SQ(Y) + N";
        let now = "X = (Y*Y) + 10";
        let cols = columns(written, now);
        let y = now.find('Y').unwrap();
        assert_eq!(cols[y] as usize, written.find('Y').unwrap() + 1);
        // What the macro put in stands where its text begins.
        assert_eq!(under(written, now), "X = (Y))) + NN");
    }

    #[test]
    fn names_outweigh_the_blanks_around_a_macro_argument() {
        // Traditional cpp keeps the blanks of `( myThid )` around the argument.
        let written = "        _BEGIN_MASTER( myThid )";
        let now = "        IF (  myThid  .EQ. 1 ) THEN";
        let cols = columns(written, now);
        let m = now.find('m').unwrap();
        assert_eq!(cols[m] as usize, written.find('m').unwrap() + 1);
    }

    #[test]
    fn removed_comments_and_identical_lines() {
        let written = "X = 1 /* c */ + Z";
        let now = "X = 1  + Z";
        assert_eq!(under(written, now), "X = 1  + Z");
        assert_eq!(columns("abc", "abc"), [1, 2, 3]);
        assert_eq!(columns("", "ab"), [1, 1]);
        assert_eq!(columns("N", ""), Vec::<u32>::new());
    }

    #[test]
    fn long_lines_keep_their_common_start_and_end() {
        let word = |i: usize| format!("V{i} ");
        let written: String = (0..1100).map(word).collect::<String>() + "M " + "END";
        let now: String = (0..1100).map(word).collect::<String>() + "7 " + "END";
        let cols = columns(&written, &now);
        assert_eq!(cols.len(), now.chars().count());
        assert_eq!(under(&written, &now), written);
        // Different middles too large for the table stand on their start.
        let a: String = (0..1100).map(|i| format!("A{i} ")).collect();
        let b: String = (0..1100).map(|i| format!("B{i} ")).collect();
        let cols = columns(&format!("X {a}Y"), &format!("X {b}Y"));
        assert_eq!(cols[2], 3);
        assert_eq!(*cols.last().unwrap() as usize, a.len() + 3);
    }
}
