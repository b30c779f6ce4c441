//! From a source file to its parsed statements, with INCLUDE lines replaced
//! by the statements of the files they name (resolved relative to the
//! including file; a missing file or a cycle is an error at the INCLUDE).

use crate::ast::{FileId, Pos};
use crate::lines::{logical_statements, LogicalStmt};
use crate::parser::parse_statement;
use crate::source::{form_of, has_fortran_extension, read_text, Form, Reporter};
use crate::statement::Statement;
use std::path::{Path, PathBuf};

/// INCLUDEs nested deeper than this are refused.
const MAX_INCLUDE_DEPTH: usize = 50;

/// Parses every statement of `file` (already registered in `rep`),
/// expanding INCLUDE lines.
pub fn statements_of(file: FileId, form: Form, rep: &mut Reporter) -> Vec<Statement> {
    let mut out = Vec::new();
    let mut stack = vec![canonical(&rep.files[file].path)];
    collect(file, form, rep, &mut stack, &mut out);
    out
}

fn canonical(path: &str) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| PathBuf::from(path))
}

fn collect(
    file: FileId,
    form: Form,
    rep: &mut Reporter,
    stack: &mut Vec<PathBuf>,
    out: &mut Vec<Statement>,
) {
    let lines = rep.files[file].lines.clone();
    for st in logical_statements(file, &lines, form, rep) {
        match include_target(&st) {
            Some(name) => include(file, form, &st, &name, rep, stack, out),
            None => out.extend(parse_statement(&st, rep)),
        }
    }
}

/// `INCLUDE 'name'` (any case, either quote).
fn include_target(st: &LogicalStmt) -> Option<String> {
    let code = st.code().trim();
    let head = code.get(..7)?;
    if !head.eq_ignore_ascii_case("INCLUDE") {
        return None;
    }
    let rest = code[7..].trim();
    let q = rest.chars().next().filter(|c| *c == '\'' || *c == '"')?;
    let inner = rest.strip_prefix(q)?.strip_suffix(q)?;
    (!inner.contains(q)).then(|| inner.to_string())
}

fn include(
    file: FileId,
    form: Form,
    st: &LogicalStmt,
    name: &str,
    rep: &mut Reporter,
    stack: &mut Vec<PathBuf>,
    out: &mut Vec<Statement>,
) {
    let at = st.pos_at(st.code_start + (st.code().len() - st.code().trim_start().len()));
    let dir = Path::new(&rep.files[file].path)
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let path = dir.join(name);
    let shown = path.to_string_lossy().to_string();
    let key = canonical(&shown);
    if stack.contains(&key) {
        rep.error(
            at,
            format!("INCLUDE cycle: '{name}' is already being included"),
        );
        return;
    }
    if stack.len() >= MAX_INCLUDE_DEPTH {
        rep.error(
            at,
            format!("INCLUDE nested more than {MAX_INCLUDE_DEPTH} deep"),
        );
        return;
    }
    let text = match read_text(&path) {
        Ok(t) => t,
        Err(e) => {
            rep.error(at, format!("cannot include '{name}': {e}"));
            return;
        }
    };
    let id = rep.add_file(&shown, &text);
    let inc_form = if has_fortran_extension(&shown) {
        form_of(&shown)
    } else {
        form
    };
    stack.push(key);
    collect(id, inc_form, rep, stack, out);
    stack.pop();
}

/// Where a missing END at the end of `file` is reported: its last line.
pub fn end_of(file: FileId, rep: &Reporter) -> Pos {
    let lines = &rep.files[file].lines;
    Pos {
        file,
        line: lines.len() as u32,
        col: 0,
    }
}
