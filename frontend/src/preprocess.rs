//! The C preprocessor, run on the files gfortran preprocesses (`.F`,
//! `.F90`, `.fpp`, ...; see [`is_preprocessed`](crate::source::is_preprocessed)).
//!
//! It is the system's `cpp` in traditional mode, as gfortran's own: that
//! mode leaves Fortran's apostrophes, `//` and blank columns alone, which a
//! standard C preprocessor (and the Rust ones on crates.io) does not.
//! `-undef -nostdinc`: only the user's `-D`, `-U` and `-I` count, none of
//! gfortran's compiler and machine macros (`__GFORTRAN__`, `__x86_64__`)
//! and no system header directory, so the analysis does not depend on the
//! machine it runs on. The line markers in its output map each line back
//! to the file and line that hold it ([`markers`]).

use crate::ast::{FileId, Pos};
use crate::lines::SourceLine;
use crate::markers::{self, Names};
use crate::source::{not_found, split_lines, MacroArg, Reporter, SourceOptions};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// What cpp reads.
pub enum Input<'a> {
    /// The registered file's path, so that `#include "x"` looks in the
    /// file's own directory first.
    Disk,
    /// This text, on its standard input (`#include "x"` then looks in the
    /// current directory first, then in the file's).
    Text(&'a str),
}

/// What cpp calls its standard input.
const STDIN: &str = "<stdin>";

/// The preprocessed lines of `file` (registered in `rep`), or `None` when
/// cpp reported errors (they are reported against the sources) or could not
/// run.
pub fn preprocess(
    file: FileId,
    input: Input,
    opts: &SourceOptions,
    rep: &mut Reporter,
) -> Option<Vec<SourceLine>> {
    let path = rep.files[file].path.clone();
    let mut cpp = command(opts);
    // cpp names its input as it was given.
    let given = match (&input, path.starts_with('-')) {
        (Input::Text(_), _) => STDIN.to_string(),
        (Input::Disk, true) => format!("./{path}"),
        (Input::Disk, false) => path.clone(),
    };
    let text = match input {
        Input::Disk => {
            cpp.arg(&given);
            None
        }
        Input::Text(text) => {
            let own = Path::new(&path).parent().unwrap_or(Path::new(""));
            if !own.as_os_str().is_empty() {
                cpp.arg("-iquote").arg(own);
            }
            cpp.arg("-");
            Some(text)
        }
    };
    let out = match run(cpp, text) {
        Ok(out) => out,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            rep.file_error(
                &path,
                "cannot preprocess: the C preprocessor `cpp` (part of gcc) is not installed",
            );
            return None;
        }
        Err(e) => {
            rep.file_error(&path, format!("cannot run the C preprocessor `cpp`: {e}"));
            return None;
        }
    };
    let mut names = Names::new(file, &[&given], rep);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let mut failed = false;
    for d in stderr.lines().filter_map(diagnostic) {
        failed |= d.error;
        report(&d, file, &mut names, opts, rep);
    }
    if !out.status.success() && !failed {
        let why = stderr.lines().next().unwrap_or("no message");
        rep.file_error(&path, format!("the C preprocessor failed: {why}"));
        failed = true;
    }
    if failed {
        return None;
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let lines = split_lines(&text);
    Some(markers::follow(
        lines.iter().map(String::as_str),
        file,
        &mut names,
        "directive ignored: the preprocessor passes it on, and it means nothing to Fortran",
        rep,
    ))
}

/// `cpp` in traditional mode with the user's macros and directories only.
fn command(opts: &SourceOptions) -> Command {
    let mut cpp = Command::new("cpp");
    cpp.args([
        "-traditional-cpp",
        "-undef",
        "-nostdinc",
        "-fno-diagnostics-show-caret",
        "-fdiagnostics-color=never",
    ])
    .env("LC_ALL", "C");
    for m in &opts.macros {
        cpp.arg(match m {
            MacroArg::Define(d) => format!("-D{d}"),
            MacroArg::Undefine(u) => format!("-U{u}"),
        });
    }
    for dir in &opts.include_dirs {
        cpp.arg("-I").arg(dir);
    }
    cpp
}

/// Runs `cpp`, writing `text` (if any) to its standard input.
fn run(mut cpp: Command, text: Option<&str>) -> std::io::Result<Output> {
    cpp.stdin(if text.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    })
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    let mut child = cpp.spawn()?;
    let stdin = child.stdin.take();
    std::thread::scope(|s| {
        if let (Some(mut pipe), Some(text)) = (stdin, text) {
            // A write error means cpp stopped reading: its messages say why.
            s.spawn(move || pipe.write_all(text.as_bytes()));
        }
        child.wait_with_output()
    })
}

/// One message of cpp: `name:line:col: error: message`, where line and
/// column may be missing.
#[derive(Debug, PartialEq, Eq)]
struct CppMessage<'a> {
    name: &'a str,
    line: u32,
    col: u32,
    error: bool,
    message: &'a str,
}

/// Reads a line of cpp's standard error; notes, context ("In file included
/// from") and "compilation terminated." are not messages.
fn diagnostic(line: &str) -> Option<CppMessage<'_>> {
    let (at, error, message) = [
        (": fatal error: ", true),
        (": error: ", true),
        (": warning: ", false),
    ]
    .into_iter()
    .filter_map(|(tag, error)| {
        let at = line.find(tag)?;
        Some((at, error, &line[at + tag.len()..]))
    })
    .min_by_key(|m| m.0)?;
    // `name`, `name:line` or `name:line:col`; the name may hold colons.
    let mut name = &line[..at];
    let mut numbers = Vec::new();
    while numbers.len() < 2 {
        let Some((head, n)) = name.rsplit_once(':') else {
            break;
        };
        let Ok(n) = n.parse::<u32>() else { break };
        numbers.push(n);
        name = head;
    }
    let (line_no, col) = match numbers[..] {
        [] => (0, 0),
        [l] => (l, 0),
        [c, l, ..] => (l, c),
    };
    let message = message.trim_end_matches(" [-Wcpp]");
    Some(CppMessage {
        name,
        line: line_no,
        col,
        error,
        message,
    })
}

/// Reports a message of cpp against the source it names (against `main`,
/// the file preprocessed, when it names no line).
fn report(
    d: &CppMessage,
    main: FileId,
    names: &mut Names,
    opts: &SourceOptions,
    rep: &mut Reporter,
) {
    if d.line == 0 {
        let path = rep.files[main].path.clone();
        let message = format!("{}: {}", d.name, d.message);
        match d.error {
            true => rep.file_error(&path, message),
            false => rep.warning(
                Pos {
                    file: main,
                    line: 0,
                    col: 0,
                },
                message,
            ),
        }
        return;
    }
    let file = names.file(d.name, rep);
    let lines = &rep.files[file].lines;
    let text = |line: u32| {
        (line as usize)
            .checked_sub(1)
            .and_then(|i| lines.get(i))
            .map_or("", String::as_str)
    };
    let (mut line, mut col, mut message) = (d.line, d.col, d.message.to_string());
    if let Some(name) = d.message.strip_suffix(": No such file or directory") {
        // In traditional mode cpp (and so gfortran) reports a missing
        // `#include` file on the line after the directive.
        if let Some((at, (quote, from))) = [line.saturating_sub(1), line]
            .into_iter()
            .find_map(|l| Some((l, include_of(text(l), name)?)))
        {
            let mut searched = opts.search_path(&rep.files[file].path);
            if quote == '<' {
                searched.remove(0);
            }
            line = at;
            col = from as u32 + 1;
            message = not_found("#include", name, &searched);
        }
    }
    if col == 0 {
        // A directive as a whole (`unterminated #if`): its first character.
        let shown = text(line);
        col = (shown.chars().take_while(|c| c.is_whitespace()).count() + 1) as u32;
    }
    let pos = Pos { file, line, col };
    match d.error {
        true => rep.error(pos, message),
        false => rep.warning(pos, message),
    }
}

/// The quote (`"` or `<`) and the character index of the file name when
/// `line` is the directive `#include` of `name`.
fn include_of(line: &str, name: &str) -> Option<(char, usize)> {
    let rest = line.trim_start().strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("include")?.trim_start();
    let quote = rest.chars().next().filter(|&q| q == '"' || q == '<')?;
    let close = if quote == '<' { '>' } else { '"' };
    let inner = rest[1..].split(close).next()?;
    let at = line.len() - rest.len();
    (inner == name).then(|| (quote, line[..at].chars().count()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_of_cpp() {
        let d = diagnostic("a/b.F:3:2: fatal error: x.h: No such file or directory").unwrap();
        assert_eq!(
            d,
            CppMessage {
                name: "a/b.F",
                line: 3,
                col: 2,
                error: true,
                message: "x.h: No such file or directory"
            }
        );
        let d = diagnostic("c:d.F:6: error: unterminated #ifdef").unwrap();
        assert_eq!((d.name, d.line, d.col), ("c:d.F", 6, 0));
        let d = diagnostic("<stdin>:7:2: warning: #warning hm [-Wcpp]").unwrap();
        assert_eq!(
            (d.name, d.error, d.message),
            ("<stdin>", false, "#warning hm")
        );
        let d = diagnostic("cpp: error: unrecognized option").unwrap();
        assert_eq!((d.name, d.line), ("cpp", 0));
        let d = diagnostic("x:12.F:40: error: e").unwrap();
        assert_eq!((d.name, d.line, d.col), ("x:12.F", 40, 0));
        for not in [
            "compilation terminated.",
            "In file included from a.F:3:",
            "",
        ] {
            assert_eq!(diagnostic(not), None);
        }
    }

    #[test]
    fn include_directives() {
        assert_eq!(include_of("#include \"x.h\"", "x.h"), Some(('"', 9)));
        assert_eq!(include_of("  #  include <x.h>", "x.h"), Some(('<', 13)));
        assert_eq!(include_of("#include \"y.h\"", "x.h"), None);
        assert_eq!(include_of("      INCLUDE 'x.h'", "x.h"), None);
    }
}
