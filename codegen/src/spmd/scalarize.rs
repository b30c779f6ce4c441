//! Array expressions written element by element: each array reference
//! of `B(2:N-1, J) * 2 + ABS(C)` becomes the element the loops over the
//! section are at (`B(2 + kc_j1, J) * 2 + ABS(C(1 + kc_j1))`), the k-th
//! section dimension of every reference running with `kc_jk` (array
//! syntax pairs the dimensions of conforming sections in order). Whether
//! the expression is elemental is the frontend's `array_assign`; what
//! cannot be rewritten here (a relational or logical operator, a
//! character constant, a vector subscript, sections that do not conform)
//! gives `None`.

use super::text::{self, matching, split_top_at as split_top, Name, Range};

/// What a name of the statement's unit is, for the rewriting.
pub(super) enum Kind {
    /// An array and its declared bounds per dimension.
    Array { bounds: Vec<(String, String)> },
    /// A scalar variable or PARAMETER.
    Scalar,
    /// Anything else: a function, an unknown name.
    Other,
}

/// One array reference at the current element of the loops.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Element {
    /// The array's name, upper case.
    pub array: String,
    /// The subscripts, a section dimension as `first + kc_jk * stride`.
    pub dims: Vec<String>,
    /// The triplets of its section dimensions (empty: one element).
    pub section: Vec<Range>,
    /// The array dimension (1-based) of each section dimension.
    pub section_dims: Vec<usize>,
}

impl Element {
    /// `B(2 + kc_j1, J)`.
    pub fn text(&self) -> String {
        format!("{}({})", self.array, self.dims.join(", "))
    }
}

/// An expression with its array references at the current element.
#[derive(Debug)]
pub(super) struct Scalarized {
    pub text: String,
    /// The array references, in the order written.
    pub refs: Vec<Element>,
}

/// `expr` with its array references at the current element. `kind`
/// tells what a name is; `name` what a name in a subscript is (as
/// `text::triplet` needs: a subscript must be one INTEGER scalar).
pub(super) fn scalarize(
    expr: &str,
    kind: &dyn Fn(&str) -> Kind,
    name: &dyn Fn(&str) -> Name,
) -> Option<Scalarized> {
    if !expr.is_ascii() {
        return None;
    }
    let b = expr.as_bytes();
    let mut out = Scalarized {
        text: String::new(),
        refs: Vec::new(),
    };
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            let start = i;
            i = number_end(b, i);
            out.text.push_str(&expr[start..i]);
        } else if c.is_ascii_alphabetic() {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let word = expr[start..i].to_ascii_uppercase();
            let rest = expr[i..].trim_start();
            let open = i + (expr.len() - i - rest.len());
            let called = rest.starts_with('(');
            match (kind(&word), called) {
                (Kind::Array { bounds }, true) => {
                    let inner = matching(&expr[open..])?;
                    let dims: Vec<&str> = split_top(inner, ',');
                    out.refs.push(element(&word, &dims, &bounds, name)?);
                    i = open + inner.len() + 2;
                    out.text.push_str(&out.refs.last()?.text());
                }
                (Kind::Array { bounds }, false) => {
                    let dims = vec![":"; bounds.len()];
                    out.refs.push(element(&word, &dims, &bounds, name)?);
                    out.text.push_str(&out.refs.last()?.text());
                }
                (Kind::Scalar, false) => out.text.push_str(&word),
                // An intrinsic or a function the frontend found elemental
                // (`array_assign`).
                (Kind::Other, true) => out.text.push_str(&word),
                _ => return None,
            }
        } else if b"+-*/(), <>=".contains(&c) {
            out.text.push(c as char);
            i += 1;
        } else if let Some(word) = dot_word(&expr[i..]) {
            out.text.push_str(word);
            i += word.len();
        } else {
            // A character constant, `%`, `;`, `.X.` of a defined operator...
            return None;
        }
    }
    // Array syntax pairs section dimensions in order: a reference has
    // all of them or is one element.
    let rank = out.refs.iter().map(|r| r.section.len()).max().unwrap_or(0);
    out.refs
        .iter()
        .all(|r| r.section.is_empty() || r.section.len() == rank)
        .then_some(out)
}

/// The logical operator or constant `text` starts with (`.AND.`,
/// `.NEQV.`, `.TRUE.`, `.LT.`...), as written.
fn dot_word(text: &str) -> Option<&str> {
    const WORDS: &[&str] = &[
        "NOT", "AND", "OR", "EQV", "NEQV", "TRUE", "FALSE", "EQ", "NE", "LT", "LE", "GT", "GE",
    ];
    let inner = text.strip_prefix('.')?;
    let end = inner.find('.')?;
    WORDS
        .contains(&inner[..end].to_ascii_uppercase().as_str())
        .then(|| &text[..end + 2])
}

/// Where the number literal at `i` ends (`1`, `2.5`, `1.0e-4`, `1D0`,
/// `3_8`); `1.EQ.` ends before its operator.
fn number_end(b: &[u8], mut i: usize) -> usize {
    let digits = |mut i: usize| {
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        i
    };
    i = digits(i);
    if b.get(i) == Some(&b'.') && !b.get(i + 1).is_some_and(u8::is_ascii_alphabetic) {
        i = digits(i + 1);
    }
    if b.get(i).is_some_and(|c| b"eEdDqQ".contains(c)) {
        let sign = usize::from(b.get(i + 1).is_some_and(|c| b"+-".contains(c)));
        if b.get(i + 1 + sign).is_some_and(u8::is_ascii_digit) {
            i = digits(i + 1 + sign);
        }
    }
    if b.get(i) == Some(&b'_') {
        i += 1;
        while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
            i += 1;
        }
    }
    i
}

/// The reference `array(dims)` at the current element; its section
/// dimensions take the loop indices `kc_j1`, `kc_j2`, ... in order.
fn element(
    array: &str,
    dims: &[&str],
    bounds: &[(String, String)],
    name: &dyn Fn(&str) -> Name,
) -> Option<Element> {
    if dims.len() != bounds.len() {
        return None;
    }
    let mut e = Element {
        array: array.to_string(),
        dims: Vec::new(),
        section: Vec::new(),
        section_dims: Vec::new(),
    };
    for (at, (dim, (lo, hi))) in dims.iter().zip(bounds).enumerate() {
        let whole = (lo.clone(), hi.clone(), "1".to_string());
        let range = text::triplet(dim, &whole, name)?;
        if split_top(dim, ':').len() == 1 {
            e.dims.push(dim.trim().to_string());
            continue;
        }
        let k = e.section.len() + 1;
        let step = if range.2 == "1" {
            String::new()
        } else {
            format!(" * {}", paren(&range.2))
        };
        e.dims.push(format!("{} + kc_j{k}{step}", range.0));
        e.section.push(range);
        e.section_dims.push(at + 1);
    }
    Some(e)
}

/// The DO statement of section dimension `k` (1-based) of `range`:
/// `kc_jk` counts its elements from 0.
pub(super) fn do_statement(k: usize, range: &Range) -> String {
    format!("DO kc_j{k} = 0, {}", last(range))
}

/// The number of the last element of `range`, counted from 0.
pub(super) fn last((lo, hi, step): &Range) -> String {
    if step == "1" {
        format!("{hi} - {}", paren(lo))
    } else {
        format!(
            "({hi} - {} + {}) / {} - 1",
            paren(lo),
            paren(step),
            paren(step)
        )
    }
}

/// `x`, parenthesized unless it is one name or number.
fn paren(x: &str) -> String {
    let x = x.trim();
    if x.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        x.to_string()
    } else {
        format!("({x})")
    }
}

#[cfg(test)]
mod tests {
    use super::{do_statement, scalarize, Kind, Name, Scalarized};

    fn kind(n: &str) -> Kind {
        let bounds = |k: usize| vec![("1".to_string(), "N".to_string()); k];
        match n {
            "A" | "C" | "K" => Kind::Array { bounds: bounds(1) },
            "B" => Kind::Array { bounds: bounds(2) },
            "N" | "J" | "S" => Kind::Scalar,
            _ => Kind::Other,
        }
    }

    fn name(n: &str) -> Name {
        match n {
            "N" | "J" => Name::Scalar,
            "A" | "B" | "C" | "K" => Name::Array,
            _ => Name::Other,
        }
    }

    fn rewrite(expr: &str) -> Option<Scalarized> {
        scalarize(expr, &kind, &name)
    }

    #[test]
    fn sections_become_the_element_the_loops_are_at() {
        let e = rewrite("B(2:N-1, J) * 2 + ABS(C) - A(N:1:-2)").expect("elemental");
        assert_eq!(
            e.text,
            "B(2 + kc_j1, J) * 2 + ABS(C(1 + kc_j1)) - A(N + kc_j1 * (-2))"
        );
        assert_eq!(e.refs.len(), 3);
        assert_eq!(
            e.refs[2].section,
            vec![("N".to_string(), "1".to_string(), "-2".to_string())]
        );
        let k = rewrite("MOD(K(1:N:2) * 3, 5) + K(J)").expect("elemental");
        assert_eq!(k.text, "MOD(K(1 + kc_j1 * 2) * 3, 5) + K(J)");
        assert!(k.refs[1].section.is_empty());
    }

    #[test]
    fn what_cannot_be_written_element_by_element_is_refused() {
        for expr in [
            "A .MYOP. C",
            "A .AND C",
            "A(K)",
            "B(1:N, 1:N) + A(1:N)",
            "'x'",
            "S(1)",
        ] {
            assert!(rewrite(expr).is_none(), "{expr}");
        }
        assert_eq!(
            rewrite("1.0E-4 * A + F(J)").map(|e| e.text),
            Some("1.0E-4 * A(1 + kc_j1) + F(J)".to_string())
        );
    }

    #[test]
    fn logical_operators_and_constants_are_kept_as_written() {
        let e = rewrite("A(2:N) .NEQV. .not. C(1:N-1) .OR. A(1:N-1) >= 0 .eqv. .TRUE.")
            .expect("elemental");
        assert_eq!(
            e.text,
            "A(2 + kc_j1) .NEQV. .not. C(1 + kc_j1) .OR. A(1 + kc_j1) >= 0 .eqv. .TRUE."
        );
        assert_eq!(e.refs.len(), 3);
        assert_eq!(rewrite(".FALSE.").map(|e| e.text), Some(".FALSE.".into()));
    }

    #[test]
    fn loops_count_the_elements_of_a_triplet() {
        let r = |l: &str, h: &str, s: &str| (l.to_string(), h.to_string(), s.to_string());
        assert_eq!(
            do_statement(1, &r("2", "N-1", "1")),
            "DO kc_j1 = 0, N-1 - 2"
        );
        assert_eq!(
            do_statement(2, &r("N", "1", "-2")),
            "DO kc_j2 = 0, (1 - N + (-2)) / (-2) - 1"
        );
    }
}
