//! The row pattern `explain` takes: `rel(arg, ...)` where an argument is
//! `_`, a variable (`D`: the same variable twice means the same value), a
//! number, a "symbol", or a place as `query` prints it: `X@6:7` or `6:7`
//! (a reference or a statement, by what the column numbers), `B@6:7` (a
//! block), `DO I@5` or `5` (a loop, by its DO line).

use kaiseki_facts::{FactBase, IdKind, Value};

/// A pattern error: the 1-based column in the pattern and the message.
pub type PatternError = (usize, String);

#[derive(Clone, Debug, PartialEq)]
enum Arg {
    Any,
    Var(String),
    Value(Value),
    /// `[name@]line[:col]`.
    Place(Option<String>, i64, Option<i64>),
}

/// A parsed pattern, before its places are resolved.
#[derive(Debug)]
pub struct Pattern {
    pub rel: String,
    args: Vec<(Arg, usize)>,
}

impl Pattern {
    /// Whether `text` is one atom `rel(...)`, the parenthesis after the
    /// name closing at its end: a pattern, which may name places. Anything
    /// else (`a(X), !b(X)`, `a(X), X > 2`) is a rule body, which `explain`
    /// reads as `query` does.
    pub fn is_atom(text: &str) -> bool {
        let text = text.trim().trim_end_matches('.').trim_end();
        let Some(open) = text.find('(') else {
            return false;
        };
        let name = text[..open].trim();
        if !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
            return false;
        }
        let (mut depth, mut quoted) = (0, false);
        for (i, ch) in text.char_indices().skip_while(|&(i, _)| i < open) {
            match ch {
                '"' => quoted = !quoted,
                '(' if !quoted => depth += 1,
                ')' if !quoted => {
                    depth -= 1;
                    if depth == 0 {
                        return i + 1 == text.len();
                    }
                }
                _ => {}
            }
        }
        // Never closed: a pattern, whose parser says what is missing.
        true
    }

    pub fn parse(text: &str) -> Result<Pattern, PatternError> {
        let text = text.trim_end().trim_end_matches('.');
        let open = text
            .find('(')
            .ok_or((1, "expected `rel(arg, ...)`".to_string()))?;
        let rel = text[..open].trim();
        if rel.is_empty() || !rel.chars().all(|c| c.is_alphanumeric() || c == '_') {
            return Err((1, format!("`{rel}` is not a relation name")));
        }
        let Some(inner) = text[open + 1..].strip_suffix(')') else {
            return Err((text.chars().count(), "expected `)` at the end".into()));
        };
        let mut args = Vec::new();
        let mut start = open + 1;
        for piece in split_args(inner) {
            let lead = piece.len() - piece.trim_start().len();
            let col = text[..start + lead].chars().count() + 1;
            args.push((
                parse_arg(piece.trim()).ok_or((col, format!("cannot read `{}`", piece.trim())))?,
                col,
            ));
            start += piece.len() + 1;
        }
        Ok(Pattern {
            rel: rel.to_string(),
            args,
        })
    }

    pub fn arity(&self) -> usize {
        self.args.len()
    }

    /// The values each column may hold (`None`: any), places looked up in
    /// `facts` by what the column numbers (`kinds`): several when more than
    /// one reference stands at a place (a DO variable's definition and use).
    pub fn resolve(
        &self,
        kinds: &[Option<IdKind>],
        facts: &FactBase,
    ) -> Result<Vec<Option<Vec<Value>>>, PatternError> {
        self.args
            .iter()
            .enumerate()
            .map(|(c, (arg, col))| match arg {
                Arg::Any | Arg::Var(_) => Ok(None),
                Arg::Value(v) => Ok(Some(vec![v.clone()])),
                Arg::Place(name, line, pos) => {
                    let kind = kinds.get(c).copied().flatten().ok_or((
                        *col,
                        "this column holds no reference, statement, loop or block".to_string(),
                    ))?;
                    let ids = places(facts, kind, name.as_deref(), *line, *pos);
                    if ids.is_empty() {
                        return Err((*col, format!("no {} there", kind_name(kind))));
                    }
                    Ok(Some(ids.into_iter().map(Value::Number).collect()))
                }
            })
            .collect()
    }

    /// Whether `row` gives equal values to each repeated variable.
    pub fn consistent(&self, row: &[Value]) -> bool {
        self.args.iter().enumerate().all(|(i, (a, _))| match a {
            Arg::Var(v) => self.args[..i]
                .iter()
                .zip(row)
                .all(|((b, _), x)| b != &Arg::Var(v.clone()) || *x == row[i]),
            _ => true,
        })
    }
}

/// The pieces between top-level commas (commas inside quotes stay).
fn split_args(s: &str) -> Vec<&str> {
    if s.trim().is_empty() {
        return Vec::new();
    }
    let mut pieces = Vec::new();
    let (mut start, mut quoted) = (0, false);
    for (i, ch) in s.char_indices() {
        match ch {
            '"' => quoted = !quoted,
            ',' if !quoted => {
                pieces.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    pieces.push(&s[start..]);
    pieces
}

fn parse_arg(a: &str) -> Option<Arg> {
    if a == "_" {
        return Some(Arg::Any);
    }
    if let Some(s) = a.strip_prefix('"').and_then(|s| s.strip_suffix('"')) {
        return Some(Arg::Value(Value::Symbol(s.to_string())));
    }
    let (name, at) = match a.rsplit_once('@') {
        Some((n, at)) => (Some(n.trim().to_string()), at),
        None => (None, a),
    };
    let number = |s: &str| s.trim().parse::<i64>().ok();
    if let Some((line, col)) = at.split_once(':') {
        return Some(Arg::Place(name, number(line)?, Some(number(col)?)));
    }
    if name.is_some() {
        return Some(Arg::Place(name, number(at)?, None));
    }
    if let Some(n) = number(a) {
        return Some(Arg::Value(Value::Number(n)));
    }
    let ident = a.chars().next()?.is_alphabetic() || a.starts_with('_');
    (ident && a.chars().all(|c| c.is_alphanumeric() || c == '_')).then(|| Arg::Var(a.to_string()))
}

fn kind_name(kind: IdKind) -> &'static str {
    match kind {
        IdKind::Ref => "reference",
        IdKind::Stmt => "statement",
        IdKind::Loop => "loop",
        IdKind::Block => "block",
        IdKind::Form => "affine form",
    }
}

/// The ids of what stands at `line:col` (a loop: its DO line), named
/// `name` when given (`X`, `B`, `DO I`, `DO WHILE`).
fn places(
    facts: &FactBase,
    kind: IdKind,
    name: Option<&str>,
    line: i64,
    col: Option<i64>,
) -> Vec<i64> {
    let at = |l: i64, c: i64| l == line && col.is_none_or(|x| x == c);
    match kind {
        IdKind::Ref => {
            let named = |r: i64| {
                name.is_none_or(|n| {
                    facts
                        .def
                        .iter()
                        .any(|d| d.r#ref == r && d.var.eq_ignore_ascii_case(n))
                        || facts
                            .r#use
                            .iter()
                            .any(|u| u.r#ref == r && u.var.eq_ignore_ascii_case(n))
                })
            };
            facts
                .ref_pos
                .iter()
                .filter(|p| at(p.line, p.col) && named(p.r#ref))
                .map(|p| p.r#ref)
                .collect()
        }
        IdKind::Stmt | IdKind::Block => facts
            .stmt
            .iter()
            .filter(|s| at(s.line, s.col) && name.is_none_or(|n| n == "B" || kind == IdKind::Stmt))
            .map(|s| s.stmt)
            .collect(),
        IdKind::Loop => {
            let named = |var: &str, kind: &str| {
                name.is_none_or(|n| {
                    let words: Vec<&str> = n.split_whitespace().collect();
                    match words.as_slice() {
                        ["DO", "WHILE"] => kind == "do_while",
                        ["DO", v] => v.eq_ignore_ascii_case(var),
                        _ => false,
                    }
                })
            };
            let stmt_col = |l: i64| facts.stmt.iter().find(|s| s.stmt == l).map_or(0, |s| s.col);
            facts
                .r#loop
                .iter()
                .filter(|l| at(l.line, stmt_col(l.r#loop)) && named(&l.var, &l.kind))
                .map(|l| l.r#loop)
                .collect()
        }
        IdKind::Form => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::Pattern;

    #[test]
    fn one_atom_is_a_pattern_and_anything_more_a_body() {
        for atom in [
            "flow(D, U, _)",
            "flow(X@11:7, U, _).",
            "p(\"a),(b\")",
            "flow(A, B",
        ] {
            assert!(Pattern::is_atom(atom), "{atom}");
        }
        for body in [
            "flow(D, U, _), def(D, _, \"X\")",
            "flow(D, U, _), !def(D, _, \"X\")",
            "flow(D, U, _), D < 3",
            "!def(D, _, \"X\")",
            "D = 3",
        ] {
            assert!(!Pattern::is_atom(body), "{body}");
        }
    }
}
