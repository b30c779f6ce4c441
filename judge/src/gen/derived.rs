//! The programs of [`super::affine_nest`] and [`super::parallel_loops`]
//! with their arrays A and B made derived-type components, in one of three
//! shapes drawn from the seed:
//! - a structure of arrays: `G%A(I,J)`, `G%B(I)` in one object, copied
//!   whole (`G2 = G`) before the checksums are printed from the copy;
//! - arrays of structures: `A(I,J)` is `PA(J)%A(I)`, `B(I)` is `PB(I)%B`
//!   (the last dimension is the object's);
//! - nested components: `W%IN(2)%A(I,J)`, `W%IN(1)%B(I)`.
//!
//! Every reference keeps its subscripts, so the real dependences are the
//! nest's, under the flattened names (`G%A`, `PA%A`, `W%IN%A`).

use super::{affine_nest, parallel_loops, Generated, Rng};

/// The arguments of the parenthesis opening at `open` (`s[open] == '('`),
/// split at its top-level commas, and the index after its `)`.
fn args_at(s: &[char], open: usize) -> Option<(Vec<String>, usize)> {
    let mut depth = 0;
    let mut args = Vec::new();
    let mut cur = String::new();
    for (i, &c) in s.iter().enumerate().skip(open) {
        match c {
            '(' => {
                depth += 1;
                if depth == 1 {
                    continue;
                }
            }
            ')' => {
                depth -= 1;
                if depth == 0 {
                    args.push(cur);
                    return Some((args, i + 1));
                }
            }
            ',' if depth == 1 => {
                args.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    None
}

/// What an element reference becomes, from its array's name and subscripts.
type RefWriter = dyn Fn(&str, &[String]) -> String;

/// `line` with every element reference `A(...)` / `B(...)` (the whole
/// name, followed by `(`) replaced by what `f` makes of its name and
/// subscripts (which are rewritten first).
fn rewrite_refs(line: &str, f: &RefWriter) -> String {
    let s: Vec<char> = line.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        let starts_word = i == 0 || !(s[i - 1].is_ascii_alphanumeric() || s[i - 1] == '_');
        if (c == 'A' || c == 'B') && starts_word && s.get(i + 1) == Some(&'(') {
            if let Some((args, next)) = args_at(&s, i + 1) {
                let args: Vec<String> = args.iter().map(|a| rewrite_refs(a, f)).collect();
                out.push_str(&f(&c.to_string(), &args));
                i = next;
                continue;
            }
        }
        out.push(c);
        i += 1;
    }
    out
}

/// Fixed-form lines longer than 72 columns continued at a blank.
fn wrap_fixed(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut line = line.to_string();
    while line.len() > 72 && !line.starts_with('C') {
        let cut = line[..72].rfind(' ').filter(|c| *c > 6).unwrap_or(72);
        let rest = line[cut..].trim_start().to_string();
        line.truncate(cut);
        out.push(line);
        line = format!("     & {rest}");
    }
    out.push(line);
    out
}

/// [`super::affine_nest`]`(seed)` with A and B as derived-type components.
pub fn derived_nest(seed: u64) -> Generated {
    derive(affine_nest(seed), seed)
}

/// [`super::parallel_loops`]`(seed)` with A and B as derived-type components.
pub fn derived_parallel_loops(seed: u64) -> Generated {
    derive(parallel_loops(seed), seed)
}

/// `g` (declaring `REAL A(..), B(..), scalars` and printing `SUM(A),
/// SUM(B), ...` last) with A and B as derived-type components.
fn derive(g: Generated, seed: u64) -> Generated {
    let mut rng = Rng::new(seed.wrapping_mul(0x9E37_79B9) ^ 0xD1);
    let shape = rng.range(0, 2);
    let fixed = g.file_name.ends_with(".f");
    let indent = if fixed { "      " } else { "" };
    // The declared bounds of A and B, from `REAL A(..), B(..), S, T`.
    let decl = g
        .source
        .lines()
        .find(|l| l.trim_start().starts_with("REAL A("))
        .expect("affine_nest declares A and B")
        .to_string();
    let chars: Vec<char> = decl.chars().collect();
    let a_open = decl.find("A(").expect("A") + 1;
    let (a_dims, _) = args_at(&chars, a_open).expect("A's bounds");
    let b_open = decl.find("B(").expect("B") + 1;
    let (b_dims, b_end) = args_at(&chars, b_open).expect("B's bounds");
    let scalars: String = chars[b_end..].iter().collect();
    let scalars = scalars.trim_start_matches(", ").to_string();
    let dims = |name: &str| if name == "A" { &a_dims } else { &b_dims };
    let lower = |bounds: &str| bounds.split(':').next().unwrap_or("1").to_string();

    let mut types: Vec<String> = Vec::new();
    let mut objects: Vec<String> = Vec::new();
    let mut after_nest: Vec<String> = Vec::new();
    let refs: Box<RefWriter>;
    let sums: Vec<(String, String)>;
    match shape {
        0 => {
            types.extend([
                "TYPE GRID".to_string(),
                format!("  REAL A({}), B({})", a_dims.join(","), b_dims.join(",")),
                "END TYPE GRID".to_string(),
            ]);
            objects.push("TYPE(GRID) G, G2".into());
            after_nest.push("G2 = G".into());
            refs = Box::new(|n, args| format!("G%{n}({})", args.join(",")));
            sums = vec![
                ("SUM(A)".into(), "SUM(G2%A)".into()),
                ("SUM(B)".into(), "SUM(G2%B)".into()),
            ];
        }
        1 => {
            let mut s = Vec::new();
            for n in ["A", "B"] {
                let d = dims(n);
                let (last, inner) = d.split_last().expect("rank 1 or 2");
                types.push(format!("TYPE T{n}"));
                if inner.is_empty() {
                    types.push(format!("  REAL {n}"));
                    s.push((format!("SUM({n})"), format!("SUM(P{n}%{n})")));
                } else {
                    types.push(format!("  REAL {n}({})", inner.join(",")));
                    // One part of a reference may be an array, not two:
                    // the checksum of the first structure.
                    s.push((
                        format!("SUM({n})"),
                        format!("SUM(P{n}({})%{n})", lower(last)),
                    ));
                }
                types.push(format!("END TYPE T{n}"));
                objects.push(format!("TYPE(T{n}) P{n}({last})"));
            }
            sums = s;
            refs = Box::new(|n, args| {
                let (last, inner) = args.split_last().expect("a subscript");
                if inner.is_empty() {
                    format!("P{n}({last})%{n}")
                } else {
                    format!("P{n}({last})%{n}({})", inner.join(","))
                }
            });
        }
        _ => {
            types.extend([
                "TYPE INNER".to_string(),
                format!("  REAL A({}), B({})", a_dims.join(","), b_dims.join(",")),
                "END TYPE INNER".to_string(),
                "TYPE OUTER".to_string(),
                "  INTEGER TAG".to_string(),
                "  TYPE(INNER) IN(2)".to_string(),
                "END TYPE OUTER".to_string(),
            ]);
            objects.push("TYPE(OUTER) W".into());
            refs = Box::new(|n, args| {
                let k = if n == "A" { 2 } else { 1 };
                format!("W%IN({k})%{n}({})", args.join(","))
            });
            sums = vec![
                ("SUM(A)".into(), "SUM(W%IN(2)%A)".into()),
                ("SUM(B)".into(), "SUM(W%IN(1)%B)".into()),
            ];
        }
    }

    // Whole statements: a reference may be split over continuation lines.
    let mut statements: Vec<String> = Vec::new();
    for line in g.source.lines() {
        match (line.strip_prefix("     & "), statements.last_mut()) {
            (Some(rest), Some(last)) if fixed => {
                last.push(' ');
                last.push_str(rest);
            }
            _ => statements.push(line.to_string()),
        }
    }
    let mut out: Vec<String> = Vec::new();
    for line in &statements {
        let trimmed = line.trim_start();
        if trimmed.starts_with("REAL A(") {
            out.push(format!("{indent}REAL {scalars}"));
            out.extend(objects.iter().map(|o| format!("{indent}{o}")));
            continue;
        }
        let mut l = rewrite_refs(line, &*refs);
        for (from, to) in &sums {
            l = l.replace(from.as_str(), to);
        }
        if trimmed.starts_with("PRINT *, SUM(A)") {
            out.extend(after_nest.iter().map(|s| format!("{indent}{s}")));
        }
        out.push(l);
        if trimmed.starts_with("PROGRAM ") {
            out.extend(types.iter().map(|t| format!("{indent}{t}")));
        }
    }
    let lines: Vec<String> = if fixed {
        out.iter().flat_map(|l| wrap_fixed(l)).collect()
    } else {
        out
    };
    let mut source = lines.join("\n");
    source.push('\n');
    Generated {
        file_name: format!("derived_{}", g.file_name),
        source,
        inputs: g.inputs,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_keep_their_subscripts_in_each_shape() {
        let f = |n: &str, a: &[String]| format!("P{n}({})%{n}", a.join(","));
        assert_eq!(
            rewrite_refs("X = A(B(I + 1),2) + SUM(A)", &f),
            "X = PA(PB(I + 1)%B,2)%A + SUM(A)"
        );
        let mut shapes = std::collections::BTreeSet::new();
        for seed in 0..30 {
            let g = derived_nest(seed);
            let bare = |l: &&str| l.contains(" A(") && !l.contains("REAL A(");
            assert!(!g.source.lines().any(|l| bare(&l)), "{}", g.source);
            if g.source.contains("G2 = G") {
                shapes.insert(0);
            } else if g.source.contains("%IN(") {
                shapes.insert(2);
            } else {
                assert!(g.source.contains("PA("), "{}", g.source);
                shapes.insert(1);
            }
            if g.file_name.ends_with(".f") {
                assert!(g.source.lines().all(|l| l.len() <= 72), "{}", g.source);
            }
        }
        assert_eq!(shapes.len(), 3);
    }
}
