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
        let at = include_pos(st);
        let path = match find_include(self.opts, &self.rep.files[at.file].path, name) {
            Ok(p) => p,
            Err(e) => {
                self.rep.error(at, e);
                return;
            }
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

/// Where an INCLUDE line's keyword stands.
fn include_pos(st: &LogicalStmt) -> Pos {
    st.pos_at(st.code_start + (st.code().len() - st.code().trim_start().len()))
}

/// The file `INCLUDE 'name'` in file `including` reads: the first that
/// exists along the search path.
fn find_include(opts: &SourceOptions, including: &str, name: &str) -> Result<PathBuf, String> {
    let searched = opts.search_path(including);
    let found = searched.iter().map(|d| d.join(name)).find(|p| p.exists());
    found.ok_or_else(|| not_found("INCLUDE", name, &searched))
}

/// One line of the text the compiler reads for a file once its INCLUDE
/// lines are replaced by the files they name: the line's text and where
/// it was read (`file` as the facts' `stmt_file` spells it, 1-based `line`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InlinedLine {
    pub file: String,
    pub line: usize,
    pub text: String,
}

/// The lines of `path` (whose `text` is given) with every INCLUDE line
/// replaced by the lines of the file it names, recursively, found as the
/// parser finds them: a writer that rewrites a program as one file
/// (`kaiseki spmd`) edits included statements where they are inlined. An
/// INCLUDE that cannot be followed (missing, a cycle) stays as written.
pub fn inlined_lines(path: &str, text: &str, opts: &SourceOptions) -> Vec<InlinedLine> {
    let mut rep = Reporter::default();
    let mut stack = vec![canonical(&PathBuf::from(path))];
    inline_file(path, text, form_of(path), opts, &mut rep, &mut stack)
}

fn inline_file(
    path: &str,
    text: &str,
    form: Form,
    opts: &SourceOptions,
    rep: &mut Reporter,
    stack: &mut Vec<PathBuf>,
) -> Vec<InlinedLine> {
    let id = rep.add_file(path, text);
    let lines = as_written(id, rep);
    let mut includes = std::collections::BTreeMap::new();
    for st in logical_statements(&lines, form, rep) {
        let Some(name) = include_target(&st) else {
            continue;
        };
        let at = include_pos(&st);
        if at.file != id || stack.len() >= MAX_INCLUDE_DEPTH {
            continue;
        }
        let Ok(found) = find_include(opts, path, &name) else {
            continue;
        };
        let key = canonical(&found);
        let Ok(inner) = read_text(&found) else {
            continue;
        };
        if stack.contains(&key) {
            continue;
        }
        let shown = found.to_string_lossy().to_string();
        let inc_form = if has_fortran_extension(&shown) {
            form_of(&shown)
        } else {
            form
        };
        stack.push(key);
        includes.insert(
            at.line as usize,
            inline_file(&shown, &inner, inc_form, opts, rep, stack),
        );
        stack.pop();
    }
    let mut out = Vec::new();
    for (k, line) in text.split_inclusive('\n').enumerate() {
        match includes.remove(&(k + 1)) {
            Some(inner) => out.extend(inner),
            None => out.push(InlinedLine {
                file: path.to_string(),
                line: k + 1,
                text: line.to_string(),
            }),
        }
    }
    out
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
