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
        let statements = logical_statements(lines, form, self.rep);
        // About one statement each: growing `out` by doubling copied the
        // statements parsed so far again and again.
        self.out.reserve(statements.len());
        for st in statements {
            match include_target(&st) {
                Some(name) => self.include(form, &st, &name),
                None => self.out.extend(parse_statement(&st, self.rep)),
            }
        }
    }

    fn include(&mut self, form: Form, st: &LogicalStmt, name: &str) {
        let at = include_pos(st);
        let including = self.rep.files[at.file].path.clone();
        let inc = match resolve_include(self.opts, &including, name, form, &self.stack) {
            Ok(inc) => inc,
            Err(e) => {
                self.rep.error(at, e);
                return;
            }
        };
        let (key, inc_form) = (inc.key, inc.form);
        let id = self.rep.add_file(&inc.shown, &inc.text);
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

/// A file an INCLUDE line names, found and read.
struct Included {
    /// Its canonical path (what the stack of files being included holds).
    key: PathBuf,
    /// Its path as shown in messages and facts.
    shown: String,
    text: String,
    form: Form,
}

/// The file `INCLUDE 'name'` in file `including` (of source form `form`)
/// reads: the first that exists along the search path, unless it is
/// already being included (`stack`) or nested too deep; its form is its
/// extension's, else the including file's.
fn resolve_include(
    opts: &SourceOptions,
    including: &str,
    name: &str,
    form: Form,
    stack: &[PathBuf],
) -> Result<Included, String> {
    let searched = opts.search_path(including);
    let found = searched.iter().map(|d| d.join(name)).find(|p| p.exists());
    let path = found.ok_or_else(|| not_found("INCLUDE", name, &searched))?;
    let key = canonical(&path);
    if stack.contains(&key) {
        return Err(format!("INCLUDE cycle: '{name}' is already being included"));
    }
    if stack.len() >= MAX_INCLUDE_DEPTH {
        return Err(format!("INCLUDE nested more than {MAX_INCLUDE_DEPTH} deep"));
    }
    let text = read_text(&path).map_err(|e| format!("cannot include '{name}': {e}"))?;
    let shown = path.to_string_lossy().to_string();
    let form = if has_fortran_extension(&shown) {
        form_of(&shown)
    } else {
        form
    };
    Ok(Included {
        key,
        shown,
        text,
        form,
    })
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
    inline_file(path, text, opts.form_of(path), opts, &mut rep, &mut stack)
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
        if include_pos(&st).file != id {
            continue;
        }
        let Ok(inc) = resolve_include(opts, path, &name, form, stack) else {
            continue;
        };
        stack.push(inc.key);
        includes.insert(
            include_pos(&st).line as usize,
            inline_file(&inc.shown, &inc.text, inc.form, opts, rep, stack),
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
