//! What kaiseki prints: reports, CSV contracts and Graphviz pictures built
//! from the facts and the derived relations.

pub mod answers;
pub mod comm;
pub mod deps;
pub mod explain;
pub mod fortran_writer;
pub mod json;
pub mod names;
pub mod openmp;
pub mod parallel;
pub mod report;
pub mod sarif;
pub mod scalar_replace;
pub mod source_lines;
pub mod spmd;
pub mod table;
pub mod transform;
pub mod unroll;
pub mod unroll_emit;
pub mod unroll_png;

use kaiseki_facts::Value;

/// A number column of a derived row (0 if the row holds a symbol there).
fn num(v: &Value) -> i64 {
    match v {
        Value::Number(n) => *n,
        Value::Symbol(_) => 0,
    }
}

/// A symbol column of a derived row ("" if the row holds a number there).
fn sym(v: &Value) -> &str {
    match v {
        Value::Symbol(s) => s,
        Value::Number(_) => "",
    }
}

/// Quotes the CSV field `out[start..]` when it holds a comma, a quote or a
/// newline.
fn quote_from(out: &mut String, start: usize) {
    let special = |b: &u8| matches!(b, b',' | b'"' | b'\n');
    if out.as_bytes()[start..].iter().any(special) {
        let field = out.split_off(start);
        out.push('"');
        out.push_str(&field.replace('"', "\"\""));
        out.push('"');
    }
}

/// One CSV line of `fields`, quoted where needed.
pub fn csv_line(fields: &[String]) -> String {
    let mut out = String::new();
    for f in fields {
        let start = out.len();
        out.push_str(f);
        quote_from(&mut out, start);
        out.push(',');
    }
    out.pop();
    out.push('\n');
    out
}
