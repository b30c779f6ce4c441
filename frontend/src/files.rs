//! From the lines of a source file to its parsed statements, with INCLUDE
//! lines replaced by the statements of the files they name (searched in the
//! including file's directory, then in the `-I` directories; a missing file
//! or a cycle is an error at the INCLUDE). As in gfortran, INCLUDEd files
//! are not preprocessed, even when the file that includes them is.

use crate::ast::{FileId, Pos};
use crate::lines::{logical_statements, LogicalStmt, SourceLine};
use crate::markers::{self, Names};
use crate::parser::parse_statement;
use crate::source::{
    form_of, has_fortran_extension, not_found, read_text, Form, Reporter, SourceOptions,
};
use crate::statement::Statement;
use std::path::PathBuf;

/// INCLUDEs nested deeper than this are refused.
const MAX_INCLUDE_DEPTH: usize = 50;

/// The lines of `file` (registered in `rep`) as written, following the line
/// markers an outside preprocessor may have left (as gfortran does).
pub fn as_written(file: FileId, rep: &mut Reporter) -> Vec<SourceLine> {
    let text = rep.files[file].lines.clone();
    let mut names = Names::new(file, &[], rep);
    markers::follow(
        text.iter().map(String::as_str),
        file,
        &mut names,
        "preprocessor line ignored: only .F, .FOR, .FTN, .F90, .F95, .F03, .F08, .FPP and .fpp files are preprocessed (not the files they INCLUDE)",
        rep,
    )
}

/// Parses every statement of `lines`, the lines of `file` (registered in
/// `rep`), expanding INCLUDE lines.
pub fn statements_of(
    file: FileId,
    lines: &[SourceLine],
    form: Form,
    opts: &SourceOptions,
    rep: &mut Reporter,
) -> Vec<Statement> {
    let stack = vec![canonical(&PathBuf::from(&rep.files[file].path))];
    let mut reader = Reader {
        rep,
        opts,
        stack,
        out: Vec::new(),
    };
    reader.collect(lines, form);
    reader.out
}

fn canonical(path: &PathBuf) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.clone())
}

/// Reads statements, following INCLUDE lines.
struct Reader<'r> {
    rep: &'r mut Reporter,
    opts: &'r SourceOptions,
    /// The files being read, outermost first (canonical paths).
    stack: Vec<PathBuf>,
    out: Vec<Statement>,
}

impl Reader<'_> {
    fn collect(&mut self, lines: &[SourceLine], form: Form) {
        for st in logical_statements(lines, form, self.rep) {
            match include_target(&st) {
                Some(name) => self.include(form, &st, &name),
                None => self.out.extend(parse_statement(&st, self.rep)),
            }
        }
    }

    fn include(&mut self, form: Form, st: &LogicalStmt, name: &str) {
        let at = st.pos_at(st.code_start + (st.code().len() - st.code().trim_start().len()));
        let searched = self.opts.search_path(&self.rep.files[at.file].path);
        let Some(path) = searched.iter().map(|d| d.join(name)).find(|p| p.exists()) else {
            self.rep.error(at, not_found("INCLUDE", name, &searched));
            return;
        };
        let key = canonical(&path);
        if self.stack.contains(&key) {
            self.rep.error(
                at,
                format!("INCLUDE cycle: '{name}' is already being included"),
            );
            return;
        }
        if self.stack.len() >= MAX_INCLUDE_DEPTH {
            self.rep.error(
                at,
                format!("INCLUDE nested more than {MAX_INCLUDE_DEPTH} deep"),
            );
            return;
        }
        let text = match read_text(&path) {
            Ok(t) => t,
            Err(e) => {
                self.rep.error(at, format!("cannot include '{name}': {e}"));
                return;
            }
        };
        let shown = path.to_string_lossy().to_string();
        let id = self.rep.add_file(&shown, &text);
        let inc_form = if has_fortran_extension(&shown) {
            form_of(&shown)
        } else {
            form
        };
        let lines = as_written(id, self.rep);
        self.stack.push(key);
        self.collect(&lines, inc_form);
        self.stack.pop();
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

/// Where a missing END at the end of `file` is reported: its last line.
pub fn end_of(file: FileId, rep: &Reporter) -> Pos {
    let lines = &rep.files[file].lines;
    Pos {
        file,
        line: lines.len() as u32,
        col: 0,
    }
}
