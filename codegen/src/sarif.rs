//! SARIF 2.1.0 (the OASIS Static Analysis Results Interchange Format that
//! code-review tools and editors read): one result per dependence (the
//! sink as the location, the source as a related location) or per
//! diagnostic. `tests/sarif.rs` validates the output against the schema.

use crate::deps::DepRow;
use crate::explain::FlowStep;
use crate::json::Json;

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

/// One result of `kaiseki deps`: the row's dependence, whose source and
/// sink references were read from `files` (the unit's file or an
/// INCLUDEd one: the two may differ). A non-empty `flow` (the input facts
/// of the row's proof, with `--proof`) becomes its code flow.
pub fn dependence(r: &DepRow, files: (&str, &str), flow: &[FlowStep]) -> Json {
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
    let (src, dst) = places(r, files);
    let message = format!(
        "{} dependence on {} from {src} to {dst} in {}: {carried}{vector}; {}{}",
        r.kind,
        r.var,
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
            Json::Array(vec![location(files.1, r.dst_line, r.dst_col, None, None)]),
        ),
        (
            "relatedLocations",
            Json::Array(vec![location(
                files.0,
                r.src_line,
                r.src_col,
                Some(0),
                Some(format!("source of the {} dependence on {}", r.kind, r.var)),
            )]),
        ),
    ];
    if !flow.is_empty() {
        result.push(("codeFlows", Json::Array(vec![code_flow(r, files, flow)])));
    }
    Json::object(result)
}

/// The source and the sink of a row as the messages name them: `11:7`,
/// or `file:11:7` for both when they were read from different files.
fn places(r: &DepRow, (src_file, dst_file): (&str, &str)) -> (String, String) {
    let (src, dst) = (
        format!("{}:{}", r.src_line, r.src_col),
        format!("{}:{}", r.dst_line, r.dst_col),
    );
    if src_file == dst_file {
        (src, dst)
    } else {
        (format!("{src_file}:{src}"), format!("{dst_file}:{dst}"))
    }
}

/// The proof of a dependence as one thread of locations: each input fact
/// it rests on, where the source gave it, nested as deep as its step.
fn code_flow(r: &DepRow, files: (&str, &str), flow: &[FlowStep]) -> Json {
    let locations = flow
        .iter()
        .map(|step| {
            let at = location(
                &step.file,
                step.line,
                step.col,
                None,
                Some(step.message.clone()),
            );
            Json::object([
                ("location", at),
                ("nestingLevel", Json::Number(step.nesting as i64)),
            ])
        })
        .collect();
    let (src, dst) = places(r, files);
    Json::object([
        (
            "message",
            text(format!(
                "why the {} dependence on {} from {src} to {dst} is derived: the facts its proof rests on",
                r.kind, r.var
            )),
        ),
        (
            "threadFlows",
            Json::Array(vec![Json::object([("locations", Json::Array(locations))])]),
        ),
    ])
}

/// The SARIF log of `kaiseki deps`, written as its results come: the text
/// of a log built whole, in pieces, so that no more than one result is
/// held (with `--proof`, a large program's log is gigabytes).
pub struct DependenceLog {
    /// The log without results, cut where they go.
    head: String,
    tail: String,
    results: usize,
}

/// How deep the results array of a log stands (`runs[0].results`).
const RESULTS_DEPTH: usize = 3;

impl Default for DependenceLog {
    fn default() -> Self {
        let empty = log(&DEPENDENCE_RULES, Vec::new());
        let cut = "\"results\": [";
        let at = empty.find(cut).map_or(empty.len(), |i| i + cut.len());
        let (head, tail) = empty.split_at(at);
        DependenceLog {
            head: head.to_string(),
            tail: tail.to_string(),
            results: 0,
        }
    }
}

impl DependenceLog {
    /// The text before the first result.
    pub fn head(&self) -> &str {
        &self.head
    }

    /// The text of the next result.
    pub fn result(&mut self, result: &Json) -> String {
        let mut out = String::from(if self.results == 0 { "\n" } else { ",\n" });
        out.push_str(&"  ".repeat(RESULTS_DEPTH + 1));
        result.write(&mut out, RESULTS_DEPTH + 1);
        self.results += 1;
        out
    }

    /// The text after the last result.
    pub fn tail(&self) -> String {
        let close = if self.results == 0 {
            String::new()
        } else {
            format!("\n{}", "  ".repeat(RESULTS_DEPTH))
        };
        close + &self.tail
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_written_as_results_come_is_the_log_built_whole() {
        let result = |i: i64| Json::object([("ruleId", Json::str("flow")), ("n", Json::Number(i))]);
        for n in 0..3 {
            let mut streamed = DependenceLog::default();
            let mut text = streamed.head().to_string();
            for i in 0..n {
                text.push_str(&streamed.result(&result(i)));
            }
            text.push_str(&streamed.tail());
            assert_eq!(text, log(&DEPENDENCE_RULES, (0..n).map(result).collect()));
        }
    }

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
