//! Parses one logical statement: tokens (lexer), classification, then the
//! lalrpop grammar. Errors become diagnostics at the offending token and the
//! statement is dropped; the caller goes on with the next one.

use crate::ast::{
    BinOp, DataValue, DeclKind, DimSpec, Entity, Expr, ExprKind, ForallIndex, Intent, IoControl,
    IoItem, Name, Pos, StmtKind, TypeSpec, UnOp,
};
use crate::classify::classify;
use crate::hpf_syntax::UseNames;
use crate::lexer::{tokenize, Tok};
use crate::lines::LogicalStmt;
use crate::source::Reporter;
use crate::statement::{ConstructRole, Parsed, Statement};
use lalrpop_util::ParseError;
use std::cell::RefCell;

lalrpop_util::lalrpop_mod!(
    #[allow(clippy::all, clippy::pedantic, unused_parens)]
    grammar
);

pub(crate) type GrammarError = ParseError<usize, Tok, (usize, String)>;

/// Every level of an expression tree stands for one operator or
/// parenthesis, so a statement with at most this many of them gives trees
/// that recursive walks (and drops) can handle.
pub const MAX_OPERATORS: usize = 2000;

/// An F90 attribute in a type declaration (`REAL, DIMENSION(10), SAVE :: X`).
pub enum Attr {
    Dimension(Vec<DimSpec>),
    Parameter,
    Save,
    External,
    Intrinsic,
    /// PUBLIC (true) or PRIVATE.
    Access(bool),
    /// ALLOCATABLE: the shape comes from ALLOCATE; the dims are `:`.
    Allocatable,
    /// TARGET: a POINTER may point at it.
    Target,
    /// `INTENT(IN)`, `INTENT(OUT)`, `INTENT(INOUT)`.
    Intent(Intent),
    /// Attributes that change nothing the analyses see (OPTIONAL, CONTIGUOUS).
    Quiet,
    /// Any other attribute, by name, with where it stands.
    Other(usize, String),
}

/// One specifier of a READ or WRITE control list: where it stands, its
/// keyword (`None` when given by position), its value (`None` for `*`).
pub type IoSpec = (usize, Option<String>, Option<Expr>);

/// One item of a COMMON statement: a block name (`/B/`, `//`) or an entity.
pub enum CommonItem {
    Block(String),
    Entity(Entity),
}

enum Note {
    /// Makes an executable statement opaque (a warning for others).
    Unmodelled(usize, String),
    Warning(usize, String),
}

/// What grammar actions see: positions of the statement's text, and notes
/// about parts that are valid but not modelled.
pub struct Ctx<'s> {
    stmt: &'s LogicalStmt,
    notes: RefCell<Vec<Note>>,
    /// The keyword arguments read (see [`Statement::keywords`]).
    keywords: RefCell<Vec<(Pos, String)>>,
}

impl Ctx<'_> {
    pub fn pos(&self, at: usize) -> Pos {
        self.stmt.pos_at(at)
    }

    pub fn name(&self, at: usize, text: String) -> Name {
        Name {
            text,
            pos: self.pos(at),
        }
    }

    pub fn expr(&self, at: usize, kind: ExprKind) -> Expr {
        Expr {
            pos: self.pos(at),
            kind,
        }
    }

    pub fn binary(&self, at: usize, op: BinOp, a: Expr, b: Expr) -> Expr {
        self.expr(at, ExprKind::Binary(op, Box::new(a), Box::new(b)))
    }

    pub fn unary(&self, at: usize, op: UnOp, e: Expr) -> Expr {
        self.expr(at, ExprKind::Unary(op, Box::new(e)))
    }

    pub fn range(&self, at: usize, lo: Option<Expr>, hi: Option<Expr>, st: Option<Expr>) -> Expr {
        self.expr(
            at,
            ExprKind::Range {
                lower: lo.map(Box::new),
                upper: hi.map(Box::new),
                stride: st.map(Box::new),
            },
        )
    }

    /// An array constructor (see [`crate::ast::ARRAY_CONSTRUCTOR`]) of
    /// `items`; each implied DO among them becomes a
    /// [`crate::ast::IMPLIED_DO`] application.
    pub fn constructor(&self, at: usize, items: Vec<IoItem>) -> Expr {
        let args = items
            .into_iter()
            .map(|i| self.constructor_item(i))
            .collect();
        self.expr(
            at,
            ExprKind::Apply {
                name: crate::ast::ARRAY_CONSTRUCTOR.to_string(),
                args,
            },
        )
    }

    fn constructor_item(&self, item: IoItem) -> Expr {
        let d = match item {
            IoItem::Expr(e) => return e,
            IoItem::ImpliedDo(d) => *d,
        };
        let at = d.var.pos;
        let step = d.step.unwrap_or(Expr {
            pos: at,
            kind: ExprKind::Int(1),
        });
        let head = [
            Expr {
                pos: at,
                kind: ExprKind::Var(d.var.text),
            },
            d.lower,
            d.upper,
            step,
        ];
        let items = d.items.into_iter().map(|i| self.constructor_item(i));
        Expr {
            pos: at,
            kind: ExprKind::Apply {
                name: crate::ast::IMPLIED_DO.to_string(),
                args: head.into_iter().chain(items).collect(),
            },
        }
    }

    /// A keyword argument `keyword = value`: the value, whose keyword the
    /// statement keeps by the value's position.
    pub fn keyword(&self, keyword: Name, value: Expr) -> Expr {
        self.keywords.borrow_mut().push((value.pos, keyword.text));
        value
    }

    /// The value of `INTENT(...)`: `words` as written (`IN OUT` is two).
    pub fn intent(&self, at: usize, words: &[String]) -> Result<Intent, GrammarError> {
        match words.concat().as_str() {
            "IN" => Ok(Intent::In),
            "OUT" => Ok(Intent::Out),
            "INOUT" => Ok(Intent::InOut),
            w => Err(ParseError::User {
                error: (at, format!("`{w}` is not an intent: IN, OUT or INOUT")),
            }),
        }
    }

    pub fn unmodelled(&self, at: usize, what: &str) {
        self.notes
            .borrow_mut()
            .push(Note::Unmodelled(at, what.to_string()));
    }

    pub fn warn(&self, at: usize, message: impl Into<String>) {
        self.notes
            .borrow_mut()
            .push(Note::Warning(at, message.into()));
    }

    /// The control list of a READ or WRITE: the unit and format by
    /// position or keyword, the other specifiers by keyword. NML= (namelist
    /// I/O) and specifiers after Fortran 90 are not modelled.
    pub fn io_control(&self, stmt: &str, specs: Vec<IoSpec>) -> Result<IoControl, GrammarError> {
        let mut c = IoControl::default();
        let mut seen: Vec<String> = Vec::new();
        let user = |at: usize, message: String| ParseError::User {
            error: (at, message),
        };
        for (i, (at, key, value)) in specs.into_iter().enumerate() {
            let key = match key {
                Some(k) => k,
                // `(u, f)`: the unit first, the format second (F90 9.4.1).
                None if i == 0 => "UNIT".to_string(),
                None if i == 1 && seen == ["UNIT"] => "FMT".to_string(),
                None => {
                    let why = "only the unit and then the format may be given without a keyword";
                    return Err(user(at, format!("{stmt}: {why}")));
                }
            };
            if seen.contains(&key) {
                return Err(user(at, format!("{stmt}: {key}= is given twice")));
            }
            seen.push(key.clone());
            let expr = |what: &str| {
                value
                    .clone()
                    .ok_or_else(|| user(at, format!("{stmt}: `*` is not {what} for {key}=")))
            };
            match key.as_str() {
                "UNIT" => c.unit = value.clone(),
                "FMT" => c.format = value.clone(),
                "REC" | "ADVANCE" => c.values.push(expr("a value")?),
                "IOSTAT" => c.iostat = Some(expr("a variable")?),
                "SIZE" => c.size = Some(expr("a variable")?),
                "END" | "ERR" | "EOR" => {
                    let label = match expr("a label")?.kind {
                        ExprKind::Int(v) => self.label(at, v)?,
                        _ => return Err(user(at, format!("{stmt}: {key}= needs a label"))),
                    };
                    match key.as_str() {
                        "END" => c.end = Some(label),
                        "ERR" => c.err = Some(label),
                        _ => c.eor = Some(label),
                    }
                }
                "NML" => self.unmodelled(at, &format!("{stmt} with NML= (namelist I/O)")),
                other => self.unmodelled(at, &format!("{stmt} with {other}=")),
            }
        }
        Ok(c)
    }

    /// OPEN, CLOSE, INQUIRE, REWIND, BACKSPACE, ENDFILE (`stmt`, upper
    /// case): the unit first without a keyword or as UNIT=; IOSTAT= and
    /// ERR= as for READ; IOMSG=, NEWUNIT= and an INQUIRE's specifiers
    /// other than UNIT=, FILE=, IOSTAT=, ERR= are variables it sets; the
    /// others values it reads. INQUIRE with IOLENGTH= is not modelled.
    pub fn file_stmt(&self, stmt: &str, specs: Vec<IoSpec>) -> Result<StmtKind, GrammarError> {
        let mut c = IoControl::default();
        let mut outputs = Vec::new();
        let mut seen: Vec<String> = Vec::new();
        let user = |at: usize, message: String| ParseError::User {
            error: (at, message),
        };
        for (i, (at, key, value)) in specs.into_iter().enumerate() {
            let key = match key {
                Some(k) => k,
                None if i == 0 => "UNIT".to_string(),
                None => {
                    let why = "only the unit may be given without a keyword";
                    return Err(user(at, format!("{stmt}: {why}")));
                }
            };
            if seen.contains(&key) {
                return Err(user(at, format!("{stmt}: {key}= is given twice")));
            }
            seen.push(key.clone());
            let Some(value) = value else {
                return Err(user(at, format!("{stmt}: `*` is not a value for {key}=")));
            };
            match key.as_str() {
                "UNIT" => c.unit = Some(value),
                "IOSTAT" => c.iostat = Some(value),
                "ERR" => match value.kind {
                    ExprKind::Int(v) => c.err = Some(self.label(at, v)?),
                    _ => return Err(user(at, format!("{stmt}: ERR= needs a label"))),
                },
                "IOLENGTH" => self.unmodelled(at, &format!("{stmt} with IOLENGTH=")),
                "IOMSG" | "NEWUNIT" => outputs.push(value),
                "FILE" => c.values.push(value),
                _ if stmt == "INQUIRE" => outputs.push(value),
                _ => c.values.push(value),
            }
        }
        Ok(StmtKind::File {
            what: stmt.to_lowercase(),
            control: c,
            outputs,
        })
    }

    /// An F90 type declaration with attributes.
    pub fn typed(
        &self,
        (ty, bytes): (TypeSpec, Option<i64>),
        attrs: Vec<Attr>,
        mut entities: Vec<Entity>,
    ) -> Vec<DeclKind> {
        let mut parameter = false;
        let mut extra = Vec::new();
        let names = |es: &[Entity]| es.iter().map(|e| e.name.clone()).collect::<Vec<_>>();
        for a in attrs {
            match a {
                Attr::Dimension(dims) => {
                    for e in entities.iter_mut().filter(|e| e.dims.is_empty()) {
                        e.dims = dims.clone();
                    }
                }
                Attr::Parameter => parameter = true,
                Attr::Save => extra.push(DeclKind::Save(names(&entities))),
                Attr::External => extra.push(DeclKind::External(names(&entities))),
                Attr::Intrinsic => extra.push(DeclKind::Intrinsic(names(&entities))),
                Attr::Access(public) => extra.push(DeclKind::Access {
                    public,
                    names: names(&entities),
                }),
                // Attributes that do not change what a statement reads or
                // writes: an allocatable array's subscripts are analyzed as
                // an explicit-shape array's, with unknown bounds.
                Attr::Allocatable | Attr::Target | Attr::Quiet => {}
                Attr::Intent(intent) => extra.push(DeclKind::Intent {
                    intent,
                    names: names(&entities),
                }),
                Attr::Other(_, n) if n == "POINTER" => {
                    extra.push(DeclKind::Pointer(names(&entities)))
                }
                Attr::Other(at, n) => {
                    self.warn(at, format!("attribute {n} is not modelled; ignored"))
                }
            }
        }
        let mut out = vec![DeclKind::Type {
            ty,
            bytes,
            parameter,
            entities,
        }];
        out.extend(extra);
        out
    }

    /// `USE M ...` (see [`DeclKind::Use`]); `USE HPF_LIBRARY` names the
    /// HPF library's procedures. `only` is where the word before `:`
    /// stands, the word and the names.
    pub fn use_module(
        &self,
        module: Name,
        only: Option<(usize, String, Option<UseNames>)>,
        renames: UseNames,
    ) -> Result<Vec<DeclKind>, GrammarError> {
        let (only, names) = match only {
            None => (false, renames),
            Some((wat, word, _)) if word != "ONLY" => {
                return Err(ParseError::User {
                    error: (wat, format!("expected ONLY, not `{word}`")),
                })
            }
            Some((_, _, names)) => (true, names.unwrap_or_default()),
        };
        if module.text == "HPF_LIBRARY" {
            return Ok(vec![DeclKind::UseHpfLibrary { only, names }]);
        }
        Ok(vec![DeclKind::Use {
            module,
            only,
            names,
        }])
    }

    /// ALLOCATE or DEALLOCATE: the objects, then STAT= (ERRMSG= and
    /// SOURCE= / MOLD= are read or written like STAT=, as opaque values).
    pub fn allocate(
        &self,
        deallocate: bool,
        items: Vec<(Option<(usize, String)>, Expr)>,
    ) -> Result<StmtKind, GrammarError> {
        let mut objects = Vec::new();
        let mut stat = Vec::new();
        let mut source = Vec::new();
        for (key, e) in items {
            match key {
                None => objects.push(e),
                Some((_, k)) if k == "STAT" || k == "ERRMSG" => stat.push(e),
                Some((_, k)) if k == "SOURCE" || k == "MOLD" => source.push(e),
                Some((at, k)) => {
                    return Err(ParseError::User {
                        error: (at, format!("`{k}=` is not a specifier of ALLOCATE")),
                    })
                }
            }
        }
        Ok(StmtKind::Allocate {
            deallocate,
            objects,
            stat,
            source,
        })
    }

    /// `ALLOCATABLE :: A(:, :)`, `TARGET :: X`: a shape given here is the
    /// array's, as DIMENSION would give it.
    pub fn attribute_statement(&self, entities: Vec<Entity>) -> Vec<DeclKind> {
        let shaped: Vec<Entity> = entities
            .into_iter()
            .filter(|e| !e.dims.is_empty())
            .collect();
        if shaped.is_empty() {
            Vec::new()
        } else {
            vec![DeclKind::Dimension(shaped)]
        }
    }

    /// `TYPE(T) [, attrs ::] entities`: DIMENSION folded into the
    /// entities, SAVE, EXTERNAL, INTRINSIC as for [`Ctx::typed`], the
    /// other attributes kept by name.
    pub fn derived(
        &self,
        type_name: Name,
        attrs: Vec<Attr>,
        mut entities: Vec<Entity>,
    ) -> Vec<DeclKind> {
        let mut kept = Vec::new();
        let mut extra = Vec::new();
        let names = |es: &[Entity]| es.iter().map(|e| e.name.clone()).collect::<Vec<_>>();
        for a in attrs {
            match a {
                Attr::Dimension(dims) => {
                    for e in entities.iter_mut().filter(|e| e.dims.is_empty()) {
                        e.dims = dims.clone();
                    }
                }
                Attr::Parameter => kept.push("PARAMETER".to_string()),
                Attr::Save => extra.push(DeclKind::Save(names(&entities))),
                Attr::External => extra.push(DeclKind::External(names(&entities))),
                Attr::Intrinsic => extra.push(DeclKind::Intrinsic(names(&entities))),
                Attr::Access(public) => extra.push(DeclKind::Access {
                    public,
                    names: names(&entities),
                }),
                Attr::Allocatable => kept.push("ALLOCATABLE".to_string()),
                Attr::Target => kept.push("TARGET".to_string()),
                Attr::Intent(intent) => extra.push(DeclKind::Intent {
                    intent,
                    names: names(&entities),
                }),
                Attr::Quiet => {}
                Attr::Other(_, n) => kept.push(n),
            }
        }
        let mut out = vec![DeclKind::Derived {
            type_name,
            entities,
            attrs: kept,
        }];
        out.extend(extra);
        out
    }

    /// `TYPE [, attrs ::] name`: a derived-type definition opens. Access
    /// attributes and BIND(C) change nothing; EXTENDS and ABSTRACT are
    /// not modelled (objects of the type are not flattened).
    pub fn type_def(&self, at: usize, name: Name, attrs: Vec<Attr>) -> Parsed {
        let mut unsupported = None;
        for a in attrs {
            match a {
                Attr::Access(_) => {}
                Attr::Other(_, n) if n == "BIND" => {}
                Attr::Other(_, n) => unsupported = Some(format!("a type with attribute {n}")),
                _ => {
                    self.warn(at, "an attribute of a TYPE statement is ignored");
                }
            }
        }
        Parsed::TypeDef { name, unsupported }
    }

    /// One part of a component reference: a name, with subscripts if given.
    pub fn part(&self, at: usize, name: String, args: Option<Vec<Expr>>) -> Expr {
        match args {
            Some(args) => self.expr(at, ExprKind::Apply { name, args }),
            None => self.expr(at, ExprKind::Var(name)),
        }
    }

    /// A component reference `first%parts...` (see [`crate::ast::COMPONENT_REF`]).
    pub fn component(&self, at: usize, first: Expr, mut parts: Vec<Expr>) -> Expr {
        parts.insert(0, first);
        self.expr(
            at,
            ExprKind::Apply {
                name: crate::ast::COMPONENT_REF.to_string(),
                args: parts,
            },
        )
    }

    /// Splits `COMMON /A/ X, Y /B/ Z` into one declaration per block.
    pub fn common(&self, items: Vec<CommonItem>) -> Vec<DeclKind> {
        let mut out: Vec<DeclKind> = Vec::new();
        for item in items {
            match (item, out.last_mut()) {
                (CommonItem::Block(block), _) => out.push(DeclKind::Common {
                    block,
                    entities: Vec::new(),
                }),
                (CommonItem::Entity(e), Some(DeclKind::Common { entities, .. })) => {
                    entities.push(e)
                }
                (CommonItem::Entity(e), _) => out.push(DeclKind::Common {
                    block: String::new(),
                    entities: vec![e],
                }),
            }
        }
        out
    }

    /// A FORALL header: at least one index, then at most one mask, last.
    pub fn forall_header(
        &self,
        at: usize,
        items: Vec<Result<ForallIndex, Expr>>,
    ) -> Result<(Vec<ForallIndex>, Expr), GrammarError> {
        let mut indices = Vec::new();
        let mut mask = None;
        for item in items {
            match (item, &mask) {
                (Ok(i), None) => indices.push(i),
                (Err(m), None) if !indices.is_empty() => mask = Some(m),
                _ => {
                    return Err(ParseError::User {
                        error: (at, "a FORALL header is `(I = L:U[:S], ...[, mask])`".into()),
                    })
                }
            }
        }
        let mask = mask.unwrap_or(Expr {
            pos: self.pos(at),
            kind: ExprKind::Logical(true),
        });
        Ok((indices, mask))
    }

    /// A statement label: 1 to 99999.
    pub fn label(&self, at: usize, v: i64) -> Result<u32, GrammarError> {
        match u32::try_from(v) {
            Ok(v) if (1..=99999).contains(&v) => Ok(v),
            _ => Err(ParseError::User {
                error: (at, format!("`{v}` is not a statement label (1 to 99999)")),
            }),
        }
    }

    /// A letter of an IMPLICIT range.
    pub fn letter(&self, at: usize, text: &str) -> Result<char, GrammarError> {
        let mut cs = text.chars();
        match (cs.next(), cs.next()) {
            (Some(c), None) if c.is_ascii_alphabetic() => Ok(c),
            _ => Err(ParseError::User {
                error: (at, format!("`{text}` is not a letter in IMPLICIT")),
            }),
        }
    }

    /// The values of a DATA set; `None` when they are not modelled.
    pub fn data_values(&self, toks: Vec<crate::lexer::Spanned>) -> Option<Vec<DataValue>> {
        grammar::DataValueListParser::new().parse(self, toks).ok()
    }

    /// An object of a DATA implied-DO list stands for its whole array.
    pub fn whole_array(&self, e: Expr) -> Expr {
        match e.kind {
            ExprKind::Apply { name, .. } => Expr {
                pos: e.pos,
                kind: ExprKind::Var(name),
            },
            _ => e,
        }
    }
}

/// Parses one logical statement; `None` when it had nothing to keep (an
/// ignored directive, or an HPF directive with an error). A statement with
/// an error (reported) is [`Parsed::Unreadable`].
pub fn parse_statement(st: &LogicalStmt, rep: &mut Reporter) -> Option<Statement> {
    let (mut toks, problem) = tokenize(&st.text, st.code_start);
    let first = toks.first()?.0;
    let pos = st.pos_at(first);
    let construct = match classify(&mut toks, st.hpf, st.squeezed) {
        Ok(c) => c,
        Err(warning) => {
            rep.warning(pos, warning);
            return None;
        }
    };
    let unreadable = |toks: &[crate::lexer::Spanned]| {
        (!st.hpf).then(|| Statement {
            label: st.label.map(|l| l.0),
            pos,
            kind: Box::new(Parsed::Unreadable {
                executable: looks_executable(toks),
            }),
            construct: None,
            keywords: Vec::new(),
        })
    };
    if let Some(p) = problem {
        let set_aside = toks.iter().any(|(s, t, e)| {
            matches!(t, Tok::Unmodelled(_) | Tok::Format) && (*s..*e).contains(&p.at)
        });
        if !set_aside {
            rep.error(st.pos_at(p.at), p.message);
            return unreadable(&toks);
        }
    }
    let operators = toks.iter().filter(|t| is_operator(&t.1)).count();
    if operators > MAX_OPERATORS {
        rep.error(
            pos,
            format!("statement too complex ({operators} operators and parentheses; at most {MAX_OPERATORS})"),
        );
        return unreadable(&toks);
    }
    let ctx = Ctx {
        stmt: st,
        notes: RefCell::new(Vec::new()),
        keywords: RefCell::new(Vec::new()),
    };
    let end = toks.last().map_or(first, |t| t.2);
    let executable = looks_executable(&toks);
    let parsed = grammar::StatementParser::new().parse(&ctx, toks);
    let mut kind = match parsed {
        Ok(k) => k,
        Err(e) => {
            let (at, message) = describe_error(e, end);
            rep.error(st.pos_at(at), message);
            return (!st.hpf).then(|| Statement {
                label: st.label.map(|l| l.0),
                pos,
                kind: Box::new(Parsed::Unreadable { executable }),
                construct: None,
                keywords: Vec::new(),
            });
        }
    };
    let mut made_opaque = false;
    for note in ctx.notes.into_inner() {
        match note {
            Note::Unmodelled(at, what) => {
                let npos = st.pos_at(at);
                if let Parsed::Exec(k) = &mut *kind {
                    if !made_opaque {
                        *k = StmtKind::Opaque {
                            reason: what.clone(),
                        };
                        made_opaque = true;
                    }
                    rep.warning(
                        npos,
                        format!("{what} is not modelled; the statement is treated as opaque"),
                    );
                } else {
                    rep.warning(npos, format!("{what} is not modelled; ignored"));
                }
            }
            Note::Warning(at, m) => rep.warning(st.pos_at(at), m),
        }
    }
    if !made_opaque {
        warn_set_aside(&kind, pos, rep);
    }
    Some(Statement {
        label: st.label.map(|l| l.0),
        pos,
        kind,
        construct,
        keywords: ctx.keywords.into_inner(),
    })
}

/// Whether a statement that could not be read is executable as far as its
/// first word tells: not a declaration, a unit's header or END.
fn looks_executable(toks: &[crate::lexer::Spanned]) -> bool {
    use crate::lexer::Kw;
    // `WORD = ...`: an assignment, whatever the word.
    if toks.get(1).is_some_and(|t| t.1 == Tok::Equals) {
        return true;
    }
    match toks.first().map(|t| &t.1) {
        Some(Tok::Kw(k)) => !matches!(
            k,
            Kw::Program
                | Kw::Subroutine
                | Kw::Function
                | Kw::Block
                | Kw::Data
                | Kw::End
                | Kw::Recursive
                | Kw::Pure
                | Kw::Elemental
                | Kw::Integer
                | Kw::Real
                | Kw::Double
                | Kw::Complex
                | Kw::Logical
                | Kw::Character
                | Kw::Dimension
                | Kw::Parameter
                | Kw::Common
                | Kw::Equivalence
                | Kw::Save
                | Kw::External
                | Kw::Intrinsic
                | Kw::Implicit
                | Kw::Contains
                | Kw::Extrinsic
                | Kw::Use
                | Kw::Namelist
        ),
        // F90 and later declarations whose first word the lexer keeps as a name.
        Some(Tok::Ident(w)) => !matches!(
            w.as_str(),
            "TYPE"
                | "CLASS"
                | "MODULE"
                | "INTERFACE"
                | "PROCEDURE"
                | "GENERIC"
                | "FINAL"
                | "IMPORT"
                | "ENUM"
                | "ENUMERATOR"
                | "ALLOCATABLE"
                | "POINTER"
                | "TARGET"
                | "OPTIONAL"
                | "INTENT"
                | "PUBLIC"
                | "PRIVATE"
                | "SEQUENCE"
                | "VOLATILE"
                | "VALUE"
                | "PROTECTED"
                | "ASYNCHRONOUS"
                | "BIND"
                | "ABSTRACT"
                | "IMPURE"
                | "MODULEPROCEDURE"
        ),
        Some(Tok::Hpf | Tok::CrayPointer | Tok::Format) | None => false,
        Some(_) => true,
    }
}

/// Statements the classifier set aside are announced here, once each.
fn warn_set_aside(kind: &Parsed, pos: Pos, rep: &mut Reporter) {
    match kind {
        Parsed::Exec(StmtKind::Opaque { reason }) => {
            rep.warning(pos, format!("{reason} is not modelled; treated as opaque"));
        }
        Parsed::Exec(StmtKind::LogicalIf { stmt, .. }) => {
            if let StmtKind::Opaque { reason } = &stmt.kind {
                rep.warning(
                    stmt.pos,
                    format!("{reason} is not modelled; treated as opaque"),
                );
            }
        }
        Parsed::Construct {
            role: ConstructRole::Open("MODULE"),
            ..
        } => {
            rep.warning(pos, "MODULE is not modelled; it is skipped up to its END");
        }
        Parsed::Construct {
            what,
            role: ConstructRole::Open(_),
        } => {
            rep.warning(
                pos,
                format!("{what} is not modelled; treated as one opaque statement"),
            );
        }
        _ => {}
    }
}

fn is_operator(t: &Tok) -> bool {
    matches!(
        t,
        Tok::Plus
            | Tok::Minus
            | Tok::Star
            | Tok::Pow
            | Tok::Slash
            | Tok::Concat
            | Tok::LParen
            | Tok::ImpliedDoOpen
            | Tok::LCtor
            | Tok::Eq
            | Tok::Ne
            | Tok::Lt
            | Tok::Le
            | Tok::Gt
            | Tok::Ge
            | Tok::And
            | Tok::Or
            | Tok::Not
            | Tok::Eqv
            | Tok::Neqv
    )
}

/// Where a parse error is and what to say about it.
fn describe_error(e: GrammarError, end: usize) -> (usize, String) {
    match e {
        ParseError::InvalidToken { location } => (location, "invalid token".into()),
        ParseError::UnrecognizedEof { expected, .. } => (
            end,
            format!("unexpected end of statement{}", expected_list(&expected)),
        ),
        ParseError::UnrecognizedToken {
            token: (at, tok, _),
            expected,
        } => (
            at,
            format!("unexpected {}{}", tok.describe(), expected_list(&expected)),
        ),
        ParseError::ExtraToken {
            token: (at, tok, _),
        } => (
            at,
            format!(
                "unexpected {} after the end of the statement",
                tok.describe()
            ),
        ),
        ParseError::User { error } => error,
    }
}

/// "; expected `)` or `,`" when the list is short enough to help.
fn expected_list(expected: &[String]) -> String {
    if expected.is_empty() || expected.len() > 6 {
        return String::new();
    }
    let names: Vec<String> = expected
        .iter()
        .map(|s| match s.as_str() {
            "Ident" => "a name".to_string(),
            "IntLit" => "an integer".to_string(),
            "RealLit" => "a real constant".to_string(),
            "StrLit" => "a character constant".to_string(),
            other => format!("`{}`", other.trim_matches('"')),
        })
        .collect();
    match names.split_last() {
        Some((last, [])) => format!("; expected {last}"),
        Some((last, rest)) => format!("; expected {} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// The bytes of one element given a kind selector (`*8`, `(8)`, `(KIND=8)`:
/// `Some(Some(k))`; a selector that is not a literal: `Some(None)`), or the
/// type's `default` size without one.
pub fn sized(selector: Option<Option<i64>>, default: i64) -> Option<i64> {
    match selector {
        None => Some(default),
        Some(k) => k.filter(|&k| k > 0),
    }
}

/// A `COMPLEX(k)` element: two parts of kind `k` (`COMPLEX*16` states bytes).
pub fn complex_size(kind: Option<i64>) -> Option<i64> {
    kind.filter(|&k| k > 0).map(|k| 2 * k)
}
