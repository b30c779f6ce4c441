//! Statement classification between lexing and parsing. Fortran reserves no
//! words, so before the grammar sees a statement this pass decides:
//! - an assignment (`word [(...)]... = ...`) starts with a name even when
//!   the word is a keyword (`DATA(I) = 1`, `IF = 2`), also after a logical IF;
//! - statements the analyses do not model (OPEN, SELECT CASE, WHERE, ...)
//!   become one [`Tok::Unmodelled`] token, so their contents never cause
//!   syntax errors; constructs say whether they open, continue or close;
//! - FORMAT contents and DATA value lists are replaced by single tokens;
//! - the `(` opening an implied-DO list of READ, WRITE or PRINT becomes
//!   [`Tok::ImpliedDoOpen`];
//! - HPF directives get a leading [`Tok::Hpf`]; those that mean nothing to
//!   the analyses and unknown ones are ignored with a warning;
//! - `USE HPF_LIBRARY` is left to the grammar (it names intrinsics);
//! - a word the lexer split as a compound keyword (`ELSEIF`, `ENDDO`,
//!   `GOTO`) is one name again where it is not the statement's keyword
//!   (`PROGRAM ELSEIF`, `X = ENDIF + 1`, `ELSEIF = 1`).

use crate::fixed_words::split_head;
use crate::lexer::{close_of, Kw, Spanned, Tok, Unmodelled, COMPOUNDS};
use crate::statement::ConstructRole;

/// The HPF directives the grammar reads.
const HPF_DIRECTIVES: &[Kw] = &[
    Kw::Processors,
    Kw::Template,
    Kw::Align,
    Kw::Distribute,
    Kw::Independent,
    Kw::Dynamic,
    Kw::Realign,
    Kw::Redistribute,
    Kw::Inherit,
    Kw::Dimension,
];

/// HPF 1.1 and 2.0 directives that say nothing the analyses use, by their
/// first two words: the directive's name and why.
fn ignored_hpf_directive(
    first: &str,
    second: Option<&str>,
) -> Option<(&'static str, &'static str)> {
    const PLACES: &str = "it only says where computations run";
    Some(match (first, second) {
        ("SEQUENCE", _) => (
            "SEQUENCE",
            "it only says which objects may be storage associated",
        ),
        ("NO", Some("SEQUENCE")) => ("NO SEQUENCE", "it only says which objects are mapped"),
        ("ON", _) => ("ON", PLACES),
        ("END", Some("ON")) => ("END ON", PLACES),
        ("RESIDENT", _) => ("RESIDENT", PLACES),
        ("TASK_REGION", _) => ("TASK_REGION", "it only groups computations into tasks"),
        ("END", Some("TASK_REGION")) => {
            ("END TASK_REGION", "it only groups computations into tasks")
        }
        ("SHADOW", _) => (
            "SHADOW",
            "it only sizes the overlap areas of distributed arrays",
        ),
        ("RANGE", _) => (
            "RANGE",
            "it only restricts the distributions a dummy may have",
        ),
        _ => return None,
    })
}

/// Statements that are valid but not modelled, by first word.
const UNMODELLED_STATEMENTS: &[&str] = &[
    "OPEN",
    "CLOSE",
    "INQUIRE",
    "REWIND",
    "BACKSPACE",
    "ENDFILE",
    "FLUSH",
    "WAIT",
    "ASSIGN",
    "PAUSE",
    "ENTRY",
    "IMPORT",
    "NULLIFY",
    "SEQUENCE",
    "VALUE",
    "PROTECTED",
    "ASYNCHRONOUS",
    "BIND",
    "GENERIC",
    "FINAL",
    "CLASS",
];

/// Statements that change control flow in ways the tree cannot express.
const UNMODELLED_JUMPS: &[&str] = &["CYCLE", "EXIT"];

/// Classifies one statement's tokens in place; `squeezed`: a fixed-form
/// statement without its blanks, whose keywords may run into names. `Ok`
/// holds the construct name the statement starts with (`OUTER: DO ...`),
/// removed from the tokens; `Err` a warning for a directive that is
/// ignored as a whole.
pub fn classify(
    toks: &mut Vec<Spanned>,
    hpf: bool,
    squeezed: bool,
) -> Result<Option<String>, String> {
    if hpf {
        return match toks.first() {
            Some((at, Tok::Kw(k), _)) if HPF_DIRECTIVES.contains(k) => {
                let at = *at;
                rejoin_names(toks, 1, toks.len());
                toks.insert(0, (at, Tok::Hpf, at));
                Ok(None)
            }
            Some((_, t, _)) => Err(match word(t) {
                Some(w) => match ignored_hpf_directive(w, word_at(toks, 1)) {
                    Some((name, why)) => {
                        format!("HPF directive {name} is not modelled: {why}; ignored")
                    }
                    None => format!("unknown HPF directive {w}; ignored"),
                },
                None => format!(
                    "unknown HPF directive starting with {}; ignored",
                    t.describe()
                ),
            }),
            None => Err("empty HPF directive; ignored".into()),
        };
    }
    // A construct name (`OUTER: DO ...`): EXIT and CYCLE may name it.
    let mut construct = None;
    if toks.len() > 2 && word(&toks[0].1).is_some() && toks[1].1 == Tok::Colon {
        construct = word(&toks[0].1).map(str::to_string);
        toks.drain(0..2);
    }
    classify_at(toks, 0, true, squeezed);
    Ok(construct)
}

/// The upper-case word of a keyword or name token.
fn word(t: &Tok) -> Option<&str> {
    match t {
        Tok::Ident(s) => Some(s),
        Tok::Kw(k) => Some(k.text()),
        _ => None,
    }
}

fn word_at(toks: &[Spanned], i: usize) -> Option<&str> {
    toks.get(i).and_then(|t| word(&t.1))
}

/// Compound words that only ever begin a statement; elsewhere such a word
/// is a name. (`DOUBLEPRECISION` and `DOUBLECOMPLEX` are types also after
/// IMPLICIT or before FUNCTION, `BLOCKDATA` also after END.)
fn only_begins_statements(compound: &str) -> bool {
    !matches!(compound, "DOUBLEPRECISION" | "DOUBLECOMPLEX" | "BLOCKDATA")
}

/// The compound word written as one word (`ELSEIF`, not `ELSE IF`) whose
/// parts the lexer put at `toks[i..]`, and how many parts it has.
/// It is called at every token of most statements: the first word is
/// taken once and compared first, so that a token that begins no compound
/// costs one comparison per compound, not a walk over its parts.
fn compound_at(toks: &[Spanned], i: usize) -> Option<(&'static str, usize)> {
    let first = word_at(toks, i)?;
    COMPOUNDS.iter().find_map(|(whole, parts)| {
        if parts[0] != first {
            return None;
        }
        let found = toks.get(i..i + parts.len())?;
        let words = found[1..]
            .iter()
            .zip(&parts[1..])
            .all(|(t, p)| word(&t.1) == Some(p));
        let one_word = found.windows(2).all(|w| w[0].2 == w[1].0);
        (words && one_word).then_some((*whole, parts.len()))
    })
}

/// Makes the compound at `toks[i]` the name it is.
fn rejoin(toks: &mut Vec<Spanned>, i: usize, whole: &str, parts: usize) {
    let (at, end) = (toks[i].0, toks[i + parts - 1].2);
    toks.splice(i..i + parts, [(at, Tok::Ident(whole.to_string()), end)]);
}

/// Rejoins the statement-only compounds in `toks[from..to]` into names.
fn rejoin_names(toks: &mut Vec<Spanned>, from: usize, mut to: usize) {
    let mut i = from;
    while i < to {
        if let Some((whole, parts)) = compound_at(toks, i) {
            if only_begins_statements(whole) && i + parts <= to {
                rejoin(toks, i, whole, parts);
                to -= parts - 1;
            }
        }
        i += 1;
    }
}

/// `word [(...)]... [%word]... =` starting at `s`.
fn is_assignment(toks: &[Spanned], s: usize) -> bool {
    if word_at(toks, s).is_none() {
        return false;
    }
    let mut j = s + 1;
    loop {
        match toks.get(j).map(|t| &t.1) {
            Some(Tok::LParen) => match close_of(toks, j) {
                Some(c) => j = c + 1,
                None => return false,
            },
            Some(Tok::Percent) if word_at(toks, j + 1).is_some() => j += 2,
            Some(Tok::Equals) => return true,
            _ => return false,
        }
    }
}

/// Replaces `toks[s..]` by one unmodelled token.
fn set_aside(toks: &mut Vec<Spanned>, s: usize, what: String, role: Option<ConstructRole>) {
    let (Some(first), Some(last)) = (toks.get(s), toks.last()) else {
        return;
    };
    let (at, end) = (first.0, last.2);
    toks.truncate(s);
    toks.push((at, Tok::Unmodelled(Unmodelled { what, role }), end));
}

fn contains(toks: &[Spanned], s: usize, tok: &Tok) -> bool {
    toks[s..].iter().any(|t| &t.1 == tok)
}

/// Whether a WHERE or FORALL at `s` is a construct (nothing after its
/// parenthesised header) rather than a single statement.
fn header_only(toks: &[Spanned], s: usize) -> bool {
    toks.get(s + 1).is_some_and(|t| t.1 == Tok::LParen)
        && close_of(toks, s + 1).is_some_and(|c| c + 1 == toks.len())
}

fn classify_at(toks: &mut Vec<Spanned>, s: usize, may_be_logical_if: bool, squeezed: bool) {
    // The statement's own compound keyword, unless it is assigned to
    // (`ELSEIF = 1`, `ENDDO(2) = 0`).
    if let Some((whole, parts)) = compound_at(toks, s) {
        if is_assignment(toks, s + parts - 1) {
            rejoin(toks, s, whole, parts);
        }
    }
    if squeezed {
        split_head(toks, s, is_assignment(toks, s));
    }
    let head_parts = compound_at(toks, s).map_or(1, |(_, parts)| parts);
    // A logical IF's statement has a head of its own.
    let logical_if = may_be_logical_if
        && word_at(toks, s) == Some("IF")
        && toks.get(s + 1).is_some_and(|t| t.1 == Tok::LParen);
    let names_end = match logical_if.then(|| close_of(toks, s + 1)).flatten() {
        Some(c) => c,
        None => toks.len(),
    };
    rejoin_names(toks, s + head_parts, names_end);
    if is_assignment(toks, s) {
        if let Some(w) = word_at(toks, s).map(str::to_string) {
            toks[s].1 = Tok::Ident(w);
        }
        if let Some(what) = percent_not_modelled(toks, s) {
            set_aside(toks, s, what.into(), None);
        } else {
            mark_constructor_implied_dos(toks, s);
        }
        return;
    }
    let Some(w) = word_at(toks, s).map(str::to_string) else {
        return;
    };
    let next = word_at(toks, s + 1).map(str::to_string);
    let aside = |toks: &mut Vec<Spanned>, what: String, role| set_aside(toks, s, what, role);
    match w.as_str() {
        "IF" if may_be_logical_if && toks.get(s + 1).is_some_and(|t| t.1 == Tok::LParen) => {
            if let Some(c) = close_of(toks, s + 1) {
                let then_or_arith = matches!(
                    toks.get(c + 1).map(|t| &t.1),
                    None | Some(Tok::Kw(Kw::Then)) | Some(Tok::Int(_))
                );
                if !then_or_arith {
                    classify_at(toks, c + 1, false, squeezed);
                }
            }
            return;
        }
        // `FORMAT(/...` starts with the token of an array constructor.
        "FORMAT"
            if toks
                .get(s + 1)
                .is_some_and(|t| matches!(t.1, Tok::LParen | Tok::LCtor)) =>
        {
            let (at, end) = (toks[s].0, toks[toks.len() - 1].2);
            toks.truncate(s);
            toks.push((at, Tok::Format, end));
            return;
        }
        "DATA" => {
            hide_data_values(toks, s + 1);
            return;
        }
        "USE" => {
            drop_operator_items(toks, s + 1);
            return;
        }
        // The F90 POINTER attribute statement is set aside below.
        "POINTER" if toks.get(s + 1).is_some_and(|t| t.1 == Tok::LParen) => {
            toks[s].1 = Tok::CrayPointer;
            return;
        }
        "POINTER" => {
            toks[s].1 = Tok::PointerStmt;
            return;
        }
        "READ" | "WRITE" | "PRINT" => {
            let mut items = s + 1;
            if w != "PRINT" && toks.get(s + 1).is_some_and(|t| t.1 == Tok::LParen) {
                items = close_of(toks, s + 1).map_or(toks.len(), |c| c + 1);
            }
            mark_implied_dos(toks, items);
        }
        "GO" if toks.get(s + 1).is_some_and(|t| t.1 == Tok::Kw(Kw::To))
            && word_at(toks, s + 2).is_some() =>
        {
            aside(toks, "assigned GO TO".into(), None);
            return;
        }
        "ELSE" if next.as_deref() == Some("WHERE") => {
            let end = toks[s + 1].2;
            toks.splice(s..s + 2, [(toks[s].0, Tok::ElseWhere, end)]);
            return;
        }
        "ELSEWHERE" => {
            toks[s].1 = Tok::ElseWhere;
            return;
        }
        "END" if matches!(next.as_deref(), Some("WHERE" | "FORALL")) => {
            let end = toks[s + 1].2;
            let t = if next.as_deref() == Some("WHERE") {
                Tok::EndWhere
            } else {
                Tok::EndForall
            };
            toks.splice(s..s + 2, [(toks[s].0, t, end)]);
            return;
        }
        "END" if next.as_deref() == Some("SELECT") => {
            // `END SELECT [name]`: one token for the two words.
            let end = toks[s + 1].2;
            toks.splice(s..s + 2, [(toks[s].0, Tok::EndSelect, end)]);
            return;
        }
        "END" => {
            let closes = match next.as_deref() {
                Some("INTERFACE") => Some("INTERFACE"),
                Some("TYPE") => {
                    // `END TYPE [name]`: one token, the name may follow.
                    let (at, end) = (toks[s].0, toks[s + 1].2);
                    toks.splice(s..s + 2, [(at, Tok::EndTypeDef, end)]);
                    return;
                }
                Some("MODULE") => Some("MODULE"),
                Some("ASSOCIATE") => Some("ASSOCIATE"),
                Some("FILE") => {
                    aside(toks, "ENDFILE statement".into(), None);
                    return;
                }
                _ => None,
            };
            if let Some(c) = closes {
                aside(toks, format!("END {c}"), Some(ConstructRole::Close(c)));
            }
            return;
        }
        // `SELECT CASE (selector)`: one token for the two words.
        "SELECT"
            if next.as_deref() == Some("CASE")
                && toks.get(s + 2).is_some_and(|t| t.1 == Tok::LParen)
                && close_of(toks, s + 2) == Some(toks.len() - 1) =>
        {
            let end = toks[s + 1].2;
            toks.splice(s..s + 2, [(toks[s].0, Tok::SelectCase, end)]);
            return;
        }
        "SELECT" => {
            let what = format!("SELECT {} construct", next.unwrap_or_default());
            aside(toks, what, Some(ConstructRole::Open("SELECT")));
            return;
        }
        "CASE" if next.as_deref() == Some("DEFAULT") && toks.len() <= s + 3 => {
            let end = toks[s + 1].2;
            toks.splice(s..s + 2, [(toks[s].0, Tok::CaseDefault, end)]);
            return;
        }
        "CASE" if toks.get(s + 1).is_some_and(|t| t.1 == Tok::LParen) => {
            toks[s].1 = Tok::Case;
            return;
        }
        "CASE" => {
            aside(toks, "CASE".into(), Some(ConstructRole::Middle));
            return;
        }
        // `EXIT [name]`, `CYCLE [name]`.
        "EXIT" | "CYCLE" if toks.len() <= s + 2 && (toks.len() == s + 1 || next.is_some()) => {
            toks[s].1 = if w == "EXIT" { Tok::Exit } else { Tok::Cycle };
            return;
        }
        // `WHERE (mask) lhs = rhs`: a masked array assignment.
        "WHERE"
            if toks.get(s + 1).is_some_and(|t| t.1 == Tok::LParen)
                && close_of(toks, s + 1).is_some_and(|c| is_assignment(toks, c + 1)) =>
        {
            let c = close_of(toks, s + 1).expect("checked");
            toks[s].1 = Tok::Where;
            classify_at(toks, c + 1, false, squeezed);
            if matches!(toks.last(), Some((_, Tok::Unmodelled(_), _))) {
                aside(toks, "WHERE statement".into(), None);
            }
            return;
        }
        // `WHERE (mask)`: the first line of a WHERE construct.
        "WHERE" if header_only(toks, s) => {
            toks[s].1 = Tok::Where;
            return;
        }
        // `FORALL (header) [assignment]`: a FORALL statement, or the first
        // line of a FORALL construct.
        "FORALL" if toks.get(s + 1).is_some_and(|t| t.1 == Tok::LParen) => {
            let Some(c) = close_of(toks, s + 1) else {
                return;
            };
            toks[s].1 = Tok::Forall;
            if c + 1 < toks.len() {
                classify_at(toks, c + 1, false, squeezed);
                if matches!(toks.last(), Some((_, Tok::Unmodelled(_), _))) {
                    aside(toks, "FORALL statement".into(), None);
                }
            }
            return;
        }
        "WHERE" => {
            aside(toks, "WHERE statement".into(), None);
            return;
        }
        // Interface blocks and modules are parsed by the grammar; an
        // ABSTRACT INTERFACE is an interface block that names no procedure.
        "ABSTRACT" if next.as_deref() == Some("INTERFACE") => {
            toks.remove(s);
            return;
        }
        "TYPE" | "CLASS" if toks.get(s + 1).is_some_and(|t| t.1 == Tok::LParen) => {
            let close = close_of(toks, s + 1);
            let star = toks.get(s + 2).is_some_and(|t| t.1 == Tok::Star);
            let function = close.is_some_and(|c| {
                toks[c + 1..].iter().any(|t| word(&t.1) == Some("FUNCTION"))
                    && !toks[c + 1..].iter().any(|t| t.1 == Tok::DColon)
            });
            if star {
                aside(toks, format!("{w}(*) declaration (polymorphism)"), None);
            } else if function {
                aside(toks, "FUNCTION returning a derived type".into(), None);
            } else {
                // `TYPE(T) [, attrs] [::] entities`: the grammar reads it.
                toks[s].1 = Tok::DerivedType;
                drop_pointer_inits(toks, s);
                rejoin_names(toks, s + 1, toks.len());
            }
            return;
        }
        "SEQUENCE" if toks.len() == s + 1 => {
            toks[s].1 = Tok::Sequence;
            return;
        }
        "TYPE" if next.as_deref() == Some("IS") => {
            aside(toks, "TYPE IS".into(), Some(ConstructRole::Middle));
            return;
        }
        "TYPE" => {
            // `TYPE name`, `TYPE, attrs :: name`, `TYPE :: name`.
            toks[s].1 = Tok::TypeDefOpen;
            rejoin_names(toks, s + 1, toks.len());
            return;
        }
        "INTERFACE" | "MODULE" => return,
        // `PROCEDURE(iface) :: f` declares a procedure (a dummy); a
        // PROCEDURE statement of an interface block names no storage.
        "PROCEDURE" if toks.get(s + 1).is_some_and(|t| t.1 == Tok::LParen) => return,
        "PROCEDURE" => {
            aside(toks, "PROCEDURE statement".into(), None);
            return;
        }
        "ASSOCIATE" => {
            aside(
                toks,
                "ASSOCIATE construct".into(),
                Some(ConstructRole::Open("ASSOCIATE")),
            );
            return;
        }
        "OPEN" | "CLOSE" | "INQUIRE" | "REWIND" | "BACKSPACE" | "ENDFILE"
            if toks.get(s + 1).is_some_and(|t| t.1 == Tok::LParen)
                && close_of(toks, s + 1) == Some(toks.len() - 1) =>
        {
            toks[s].1 = Tok::FileStmt(w.clone());
            return;
        }
        _ if UNMODELLED_STATEMENTS.contains(&w.as_str()) => {
            aside(toks, format!("{w} statement"), None);
            return;
        }
        _ if UNMODELLED_JUMPS.contains(&w.as_str()) => {
            aside(toks, format!("{w} statement (a jump)"), None);
            return;
        }
        _ => {}
    }
    if is_type_word(&w) {
        drop_pointer_inits(toks, s);
    }
    if let Some(what) = percent_not_modelled(toks, s) {
        aside(toks, what.into(), None);
    } else if w == "CALL" && toks.get(s + 2).is_some_and(|t| t.1 == Tok::Percent) {
        aside(toks, "call of a type-bound procedure".into(), None);
    } else if contains(toks, s, &Tok::Arrow) {
        aside(toks, "pointer assignment".into(), None);
    } else {
        mark_constructor_implied_dos(toks, s);
    }
}

/// Removes the `OPERATOR(...)` and `ASSIGNMENT(=)` items (with a rename,
/// `OPERATOR(.x.) => OPERATOR(.y.)`) of a USE list from `from` on: they
/// name no variable or procedure the analyses see.
fn drop_operator_items(toks: &mut Vec<Spanned>, from: usize) {
    let mut i = from;
    while i < toks.len() {
        let generic = matches!(word_at(toks, i), Some("OPERATOR" | "ASSIGNMENT"))
            && toks.get(i + 1).is_some_and(|t| t.1 == Tok::LParen);
        if !generic {
            i += 1;
            continue;
        }
        // The item runs to the next `,` at this level (or the end).
        let mut end = i;
        while end < toks.len() && toks[end].1 != Tok::Comma {
            end = match toks[end].1 {
                Tok::LParen => close_of(toks, end).map_or(toks.len(), |c| c + 1),
                _ => end + 1,
            };
        }
        // With the comma before it (or after it, when it is first).
        let (lo, hi) = if i > from && toks[i - 1].1 == Tok::Comma {
            (i - 1, end)
        } else {
            (i, (end + 1).min(toks.len()))
        };
        toks.drain(lo..hi);
        i = lo;
    }
}

/// Drops the pointer initializations (`=> NULL()`) of a type declaration
/// at `s`: like default initializers of components, they say nothing
/// the analyses use.
fn drop_pointer_inits(toks: &mut Vec<Spanned>, s: usize) {
    let mut i = s;
    let mut depth = 0usize;
    while i < toks.len() {
        match toks[i].1 {
            Tok::LParen | Tok::LCtor => depth += 1,
            Tok::RParen | Tok::RCtor => depth = depth.saturating_sub(1),
            Tok::Arrow if depth == 0 => {
                let mut end = i + 1;
                let mut d = 0usize;
                while end < toks.len() {
                    match toks[end].1 {
                        Tok::LParen | Tok::LCtor => d += 1,
                        Tok::RParen | Tok::RCtor => d = d.saturating_sub(1),
                        Tok::Comma if d == 0 => break,
                        _ => {}
                    }
                    end += 1;
                }
                toks.drain(i..end);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
}

/// Why a `%` in `toks[s..]` cannot be read: component references (`P%X`,
/// `P(I)%X`) follow a name or a `)`; a `%` anywhere else is DEC's `%VAL`,
/// `%REF` or `%LOC`.
fn percent_not_modelled(toks: &[Spanned], s: usize) -> Option<&'static str> {
    let odd = (s..toks.len()).any(|i| {
        toks[i].1 == Tok::Percent
            && (i == s
                || !(word(&toks[i - 1].1).is_some() || toks[i - 1].1 == Tok::RParen)
                || word_at(toks, i + 1).is_none())
    });
    odd.then_some("%VAL, %REF or %LOC (a DEC extension)")
}

/// Marks the `(` opening each implied-DO list of an I/O list that starts
/// at `from`: a parenthesis with a `=` at its own level, which neither an
/// expression nor a complex constant has, and not after a name (there it
/// holds subscripts or arguments, where `=` is a keyword argument).
fn mark_implied_dos(toks: &mut [Spanned], from: usize) {
    // Open parentheses: (index, opens an implied DO if a `=` shows up).
    let mut open: Vec<(usize, bool)> = Vec::new();
    let mut found = Vec::new();
    for i in from..toks.len() {
        match toks[i].1 {
            Tok::LParen | Tok::LCtor => open.push((i, false)),
            Tok::RParen | Tok::RCtor => {
                if let Some((at, true)) = open.pop() {
                    found.push(at);
                }
            }
            Tok::Equals => {
                if let Some((at, seen)) = open.last_mut() {
                    *seen = toks[*at].1 == Tok::LParen
                        && toks[..*at].last().is_none_or(|t| word(&t.1).is_none());
                }
            }
            _ => {}
        }
    }
    for at in found {
        toks[at].1 = Tok::ImpliedDoOpen;
    }
}

/// Marks the implied DOs inside the array constructors of the statement
/// from `from` on (`(/ (B(I), I = 1, N) /)`).
fn mark_constructor_implied_dos(toks: &mut [Spanned], from: usize) {
    let mut at = from;
    while let Some(k) = toks[at..].iter().position(|t| t.1 == Tok::LCtor) {
        let open = at + k;
        let close = close_of(toks, open).unwrap_or(toks.len() - 1);
        mark_implied_dos(&mut toks[..=close], open);
        at = close + 1;
    }
}

/// Words that start a type declaration, where an initializer may be a
/// pointer's target.
fn is_type_word(w: &str) -> bool {
    matches!(
        w,
        "INTEGER" | "REAL" | "DOUBLE" | "COMPLEX" | "LOGICAL" | "CHARACTER"
    )
}

/// Replaces each `/values/` of a DATA statement by one [`Tok::DataValues`]
/// holding the tokens between the slashes.
fn hide_data_values(toks: &mut Vec<Spanned>, from: usize) {
    let mut out: Vec<Spanned> = toks.drain(from..).collect::<Vec<_>>();
    let mut kept = Vec::with_capacity(out.len());
    let mut depth = 0usize;
    let mut i = 0;
    while i < out.len() {
        match out[i].1 {
            Tok::LParen | Tok::LCtor => depth += 1,
            Tok::RParen | Tok::RCtor => depth = depth.saturating_sub(1),
            Tok::Slash if depth == 0 => {
                if let Some(k) = out[i + 1..].iter().position(|t| t.1 == Tok::Slash) {
                    let end = out[i + 1 + k].2;
                    let values = out[i + 1..i + 1 + k].to_vec();
                    kept.push((out[i].0, Tok::DataValues(values), end));
                    i += k + 2;
                    continue;
                }
            }
            Tok::Concat if depth == 0 => {
                // `//` is an empty value list; keep it as one.
                out[i].1 = Tok::DataValues(Vec::new());
            }
            _ => {}
        }
        kept.push(std::mem::replace(&mut out[i], (0, Tok::Comma, 0)));
        i += 1;
    }
    toks.extend(kept);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::tokenize;

    fn classified(s: &str) -> Vec<Tok> {
        let (mut t, _) = tokenize(s, 0);
        classify(&mut t, false, false).unwrap();
        t.into_iter().map(|x| x.1).collect()
    }

    fn is_unmodelled(t: &Tok, what: &str) -> bool {
        matches!(t, Tok::Unmodelled(u) if u.what == what)
    }

    #[test]
    fn keywords_assigned_to_are_names() {
        assert_eq!(classified("DATA(I) = 1")[0], Tok::Ident("DATA".into()));
        assert_eq!(classified("IF = 2")[0], Tok::Ident("IF".into()));
        assert_eq!(classified("DO 10 I = 1, 2")[0], Tok::Kw(Kw::Do));
        let t = classified("IF (X) READ = 1");
        assert_eq!(t[4], Tok::Ident("READ".into()));
    }

    #[test]
    fn unmodelled_statements_are_set_aside() {
        // File statements with a specifier list are left to the grammar;
        // other forms (`REWIND 5`, INQUIRE with an output list) set aside.
        let t = classified("OPEN(UNIT=1, FILE='x', STATUS='OLD')");
        assert_eq!(t[0], Tok::FileStmt("OPEN".into()));
        let t = classified("REWIND 5");
        assert_eq!(t.len(), 1);
        assert!(is_unmodelled(&t[0], "REWIND statement"));
        let t = classified("INQUIRE (IOLENGTH=N) A, B");
        assert!(is_unmodelled(&t[0], "INQUIRE statement"));
        let t = classified("EXIT (X)");
        assert!(is_unmodelled(&t[0], "EXIT statement (a jump)"));
        // WHERE and FORALL statements and constructs are left to the
        // grammar.
        assert_eq!(classified("WHERE (A > 0)")[0], Tok::Where);
        assert_eq!(classified("ELSE WHERE (A < 0)")[0], Tok::ElseWhere);
        assert_eq!(classified("ELSEWHERE")[0], Tok::ElseWhere);
        assert_eq!(classified("END WHERE"), [Tok::EndWhere]);
        assert_eq!(classified("WHERE (A > 0) A = 1")[0], Tok::Where);
        assert_eq!(classified("FORALL (I = 1:N) A(I) = 1")[0], Tok::Forall);
        assert_eq!(classified("FORALL (I = 1:N, J = 1:M)")[0], Tok::Forall);
        assert_eq!(classified("END FORALL"), [Tok::EndForall]);
        let t = classified("SELECT TYPE (P)");
        assert!(
            matches!(&t[0], Tok::Unmodelled(u) if u.role == Some(ConstructRole::Open("SELECT")))
        );
    }

    #[test]
    fn exit_cycle_and_select_case_get_their_own_tokens() {
        let t = classified("IF (X) EXIT");
        assert_eq!(t[4], Tok::Exit);
        let t = classified("CYCLE OUTER");
        assert_eq!(t, [Tok::Cycle, Tok::Ident("OUTER".into())]);
        assert_eq!(classified("SELECT CASE (K)")[0], Tok::SelectCase);
        assert_eq!(classified("SELECTCASE (K)")[0], Tok::SelectCase);
        assert_eq!(classified("CASE (1, 3:5)")[0], Tok::Case);
        assert_eq!(classified("CASE DEFAULT")[0], Tok::CaseDefault);
        assert_eq!(classified("END SELECT")[0], Tok::EndSelect);
        assert_eq!(classified("ENDSELECT S")[0], Tok::EndSelect);
        // A construct name is taken off the statement.
        let mut t = crate::lexer::tokenize("OUTER: DO I = 1, N", 0).0;
        assert_eq!(classify(&mut t, false, false), Ok(Some("OUTER".into())));
        assert_eq!(t[0].1, Tok::Kw(Kw::Do));
        // Assigned to, they are names.
        assert_eq!(classified("EXIT = 1")[0], Tok::Ident("EXIT".into()));
    }

    #[test]
    fn derived_type_statements() {
        assert_eq!(classified("TYPE POINT")[0], Tok::TypeDefOpen);
        assert_eq!(classified("TYPE, PUBLIC :: POINT")[0], Tok::TypeDefOpen);
        assert_eq!(classified("END TYPE POINT")[0], Tok::EndTypeDef);
        assert_eq!(classified("TYPE(POINT) :: P")[0], Tok::DerivedType);
        assert_eq!(
            classified("CLASS(POINT), INTENT(IN) :: P")[0],
            Tok::DerivedType
        );
        assert_eq!(classified("SEQUENCE")[0], Tok::Sequence);
        let t = classified("TYPE(POINT), POINTER :: P => NULL(), Q");
        assert!(!t.contains(&Tok::Arrow), "{t:?}");
        assert!(t.contains(&Tok::Ident("Q".into())), "{t:?}");
        let t = classified("CLASS(*), POINTER :: U");
        assert!(is_unmodelled(&t[0], "CLASS(*) declaration (polymorphism)"));
        let t = classified("TYPE(POINT) FUNCTION F(X)");
        assert!(is_unmodelled(&t[0], "FUNCTION returning a derived type"));
        // Component references go to the grammar; DEC's %VAL does not.
        assert!(classified("P(I)%X = Q%Y(2)%Z").contains(&Tok::Percent));
        let t = classified("CALL F(%VAL(X))");
        assert!(is_unmodelled(&t[0], "%VAL, %REF or %LOC (a DEC extension)"));
        let t = classified("CALL P%MOVE(1.0)");
        assert!(is_unmodelled(&t[0], "call of a type-bound procedure"));
        // A variable called TYPE is assigned as any other.
        assert_eq!(classified("TYPE = 1")[0], Tok::Ident("TYPE".into()));
    }

    #[test]
    fn implied_do_lists_open_with_their_own_token() {
        let opens = |s: &str| -> Vec<usize> {
            let t = classified(s);
            let marked = t
                .iter()
                .enumerate()
                .filter(|(_, t)| **t == Tok::ImpliedDoOpen);
            marked.map(|(i, _)| i).collect()
        };
        assert_eq!(opens("PRINT *, (A(I), I = 1, 3)"), [3]);
        assert_eq!(opens("READ (5,*) ((A(I,J), J=1,N), I=1,M)"), [6, 7]);
        assert_eq!(opens("WRITE(*,*)(X(K),K=1,2), (1.0, 2.0), (Y)"), [6]);
        // A keyword argument is no implied DO; nor is the control list.
        assert_eq!(
            opens("WRITE (UNIT=6, FMT=*) F(X=1), (1, 2)"),
            Vec::<usize>::new()
        );
        assert_eq!(opens("IF (L) PRINT *, (K, K=1,3)"), [7]);
    }

    #[test]
    fn data_values_are_hidden() {
        let t = classified("DATA X, Y /1.0, 2*0/, (A(I), I=1,2) /1, 2/");
        let lists: Vec<usize> = t
            .iter()
            .filter_map(|t| match t {
                Tok::DataValues(v) => Some(v.len()),
                _ => None,
            })
            .collect();
        assert_eq!(lists, [5, 3], "`1.0 , 2 * 0` and `1 , 2`");
        assert!(!t.contains(&Tok::Slash));
    }

    #[test]
    fn hpf_directives() {
        let (mut t, _) = tokenize("DISTRIBUTE T(BLOCK)", 0);
        classify(&mut t, true, false).unwrap();
        assert_eq!(t[0].1, Tok::Hpf);
        let (mut t, _) = tokenize("DYNAMIC A", 0);
        classify(&mut t, true, false).unwrap();
        assert_eq!(t[0].1, Tok::Hpf);
        let (mut t, _) = tokenize("NO SEQUENCE", 0);
        let w = classify(&mut t, true, false).unwrap_err();
        assert_eq!(
            w,
            "HPF directive NO SEQUENCE is not modelled: it only says which objects are mapped; ignored"
        );
        let (mut t, _) = tokenize("PREFETCH A", 0);
        assert_eq!(
            classify(&mut t, true, false).unwrap_err(),
            "unknown HPF directive PREFETCH; ignored"
        );
    }
}
