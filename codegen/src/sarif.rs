//! SARIF 2.1.0 (the OASIS Static Analysis Results Interchange Format that
//! code-review tools and editors read): one result per dependence (the
//! sink as the location, the source as a related location) or per
//! diagnostic. `tests/sarif.rs` validates the output against the schema.

use crate::deps::DepRow;
use crate::explain::FlowStep;
use crate::json::Json;
use std::collections::HashMap;

/// The rules of `kaiseki deps` results: the dependence kinds.
const DEPENDENCE_RULES: [(&str, &str); 4] = [
    (
        "flow",
        "A value written at the source is read at the sink (true dependence).",
    ),
    (
        "anti",
        "A value read at the source is overwritten at the sink.",
    ),
    (
        "output",
        "A variable written at the source is written again at the sink.",
    ),
    (
        "input",
        "A variable read at the source is read again at the sink.",
    ),
];

/// One diagnostic of `kaiseki check`.
pub struct Finding<'a> {
    pub error: bool,
    pub file: &'a str,
    /// 0: the file as a whole.
    pub line: u32,
    /// 0: the line as a whole.
    pub col: u32,
    pub message: &'a str,
}

/// One result of `kaiseki deps`: the row's dependence, `file` being its
/// unit's. A non-empty `flow` (the input facts of the row's proof, with
/// `--proof`) becomes its code flow.
pub fn dependence(r: &DepRow, file: &str, flow: &[FlowStep]) -> Json {
    let carried = match r.carrier {
        0 => "loop-independent".to_string(),
        line => format!("carried by the DO loop at line {line}"),
    };
    let vector = if r.loops.is_empty() {
        String::new()
    } else {
        let fields = r.fields();
        format!(", distance ({}), direction ({})", fields[8], fields[9])
    };
    let message = format!(
        "{} dependence on {} from {}:{} to {}:{} in {}: {carried}{vector}; {}{}",
        r.kind,
        r.var,
        r.src_line,
        r.src_col,
        r.dst_line,
        r.dst_col,
        r.unit,
        r.certainty,
        if r.minimal { "" } else { ", not minimal" },
    );
    let mut result = vec![
        ("ruleId", Json::str(r.kind)),
        ("level", Json::str("note")),
        ("message", text(message)),
        (
            "locations",
            Json::Array(vec![location(file, r.dst_line, r.dst_col, None, None)]),
        ),
        (
            "relatedLocations",
            Json::Array(vec![location(
                file,
                r.src_line,
                r.src_col,
                Some(0),
                Some(format!("source of the {} dependence on {}", r.kind, r.var)),
            )]),
        ),
    ];
    if !flow.is_empty() {
        result.push(("codeFlows", Json::Array(vec![code_flow(r, file, flow)])));
    }
    Json::object(result)
}

/// The proof of a dependence as one thread of locations: each input fact
/// it rests on, where the source gave it, nested as deep as its step.
fn code_flow(r: &DepRow, file: &str, flow: &[FlowStep]) -> Json {
    let locations = flow
        .iter()
        .map(|step| {
            let at = location(file, step.line, step.col, None, Some(step.message.clone()));
            Json::object([
                ("location", at),
                ("nestingLevel", Json::Number(step.nesting as i64)),
            ])
        })
        .collect();
    Json::object([
        (
            "message",
            text(format!(
                "why the {} dependence on {} from {}:{} to {}:{} is derived: the facts its proof rests on",
                r.kind, r.var, r.src_line, r.src_col, r.dst_line, r.dst_col
            )),
        ),
        (
            "threadFlows",
            Json::Array(vec![Json::object([("locations", Json::Array(locations))])]),
        ),
    ])
}

/// The SARIF log of `kaiseki deps`, with its results.
pub fn dependence_log(results: Vec<Json>) -> String {
    log(&DEPENDENCE_RULES, results)
}

/// The SARIF log of `kaiseki check`.
pub fn diagnostics(findings: &[Finding]) -> String {
    let results = findings
        .iter()
        .map(|d| {
            let level = if d.error { "error" } else { "warning" };
            Json::object([
                ("ruleId", Json::str(level)),
                ("level", Json::str(level)),
                ("message", text(d.message.to_string())),
                (
                    "locations",
                    Json::Array(vec![location(
                        d.file,
                        d.line.into(),
                        d.col.into(),
                        None,
                        None,
                    )]),
                ),
            ])
        })
        .collect();
    log(
        &[
            (
                "error",
                "The input is not valid Fortran or HPF, or cannot be read.",
            ),
            ("warning", "Valid input that the analyses do not model."),
        ],
        results,
    )
}

fn text(s: String) -> Json {
    Json::object([("text", Json::String(s))])
}

/// A physical location; line or column 0 (the file or the line as a
/// whole) are left out, as SARIF counts from 1. A related location has an
/// `id`; `message` says what stands there.
fn location(file: &str, line: i64, col: i64, id: Option<i64>, message: Option<String>) -> Json {
    let mut region = Vec::new();
    if line > 0 {
        region.push(("startLine", Json::Number(line)));
        if col > 0 {
            region.push(("startColumn", Json::Number(col)));
        }
    }
    let mut physical = vec![(
        "artifactLocation",
        Json::object([("uri", Json::str(uri(file)))]),
    )];
    if !region.is_empty() {
        physical.push(("region", Json::object(region)));
    }
    let mut loc = Vec::new();
    if let Some(id) = id {
        loc.push(("id", Json::Number(id)));
    }
    if let Some(message) = message {
        loc.push(("message", text(message)));
    }
    loc.push(("physicalLocation", Json::object(physical)));
    Json::object(loc)
}

/// A file path as a relative URI reference (`/` separators, spaces and the
/// other reserved characters percent-encoded).
fn uri(path: &str) -> String {
    let mut out = String::new();
    for b in path.replace('\\', "/").bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The whole log: one run of kaiseki with its rules and results.
fn log(rules: &[(&str, &str)], results: Vec<Json>) -> String {
    let rules = rules
        .iter()
        .map(|(id, description)| {
            Json::object([
                ("id", Json::str(*id)),
                ("shortDescription", text(description.to_string())),
            ])
        })
        .collect();
    let driver = Json::object([
        ("name", Json::str("kaiseki")),
        ("version", Json::str(env!("CARGO_PKG_VERSION"))),
        ("rules", Json::Array(rules)),
    ]);
    Json::object([
        (
            "$schema",
            Json::str("https://json.schemastore.org/sarif-2.1.0.json"),
        ),
        ("version", Json::str("2.1.0")),
        (
            "runs",
            Json::Array(vec![Json::object([
                ("tool", Json::object([("driver", driver)])),
                ("results", Json::Array(results)),
            ])]),
        ),
    ])
    .pretty()
}

/// Each unit's file, from the `unit` facts of `facts`.
pub fn unit_files<'a>(
    facts: impl IntoIterator<Item = &'a kaiseki_facts::FactBase>,
) -> HashMap<&'a str, &'a str> {
    facts
        .into_iter()
        .flat_map(|f| f.unit.iter().map(|u| (u.unit.as_str(), u.file.as_str())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_become_uri_references() {
        assert_eq!(uri("examples/a b.f"), "examples/a%20b.f");
        assert_eq!(uri("dir\\x#1.f90"), "dir/x%231.f90");
    }

    #[test]
    fn columns_and_lines_zero_are_left_out() {
        let l = location("a.f", 3, 0, None, None).pretty();
        assert!(l.contains("\"startLine\": 3") && !l.contains("startColumn"));
        let l = location("a.f", 0, 0, None, None).pretty();
        assert!(!l.contains("region"));
    }
}
