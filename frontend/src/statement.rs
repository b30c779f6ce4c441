//! One parsed statement before structuring: what the grammar produces for
//! a single logical statement. [`crate::structure`] nests these into units,
//! loops and IF blocks.

use crate::ast::{CaseValue, DeclKind, Expr, ForallIndex, Name, Pos, StmtKind, TypeSpec};

#[derive(Clone, Debug)]
pub struct Statement {
    pub label: Option<u32>,
    pub pos: Pos,
    /// Boxed as the parser builds it: a `Parsed` is hundreds of bytes (an
    /// executable statement's [`StmtKind`]), which the statements of a
    /// file would otherwise copy and touch twice on their way to the tree.
    pub kind: Box<Parsed>,
    /// The construct name before the statement (`OUTER: DO ...`), upper case.
    pub construct: Option<String>,
    /// Its keyword arguments: the keyword, by where its value stands
    /// (see [`crate::ast::Unit::keywords`]).
    pub keywords: Vec<(crate::ast::Pos, String)>,
}

#[derive(Clone, Debug)]
pub enum Parsed {
    Program(Name),
    /// `extrinsic_local`: see [`crate::ast::Unit::extrinsic_local`].
    Subroutine {
        name: Name,
        args: Vec<Name>,
        extrinsic_local: Option<String>,
    },
    Function {
        name: Name,
        args: Vec<Name>,
        /// `RESULT(r)`.
        result: Option<Name>,
        result_type: Option<TypeSpec>,
        extrinsic_local: Option<String>,
    },
    BlockData(Option<Name>),
    /// `MODULE name`.
    Module(Name),
    /// `MODULE PROCEDURE a, b` in a generic interface.
    ModuleProcedure(Vec<Name>),
    /// `INTERFACE [generic]`: opens an interface block.
    Interface(Option<Name>),
    /// `END`, `END PROGRAM [name]`, `END SUBROUTINE`, ...
    EndUnit,
    Do {
        /// The terminal label of `DO 10 I = ...`.
        target: Option<u32>,
        var: Name,
        lower: Expr,
        upper: Expr,
        step: Option<Expr>,
    },
    /// `DO [10] WHILE (cond)`; a bare `DO` is `DO WHILE (.TRUE.)`.
    DoWhile {
        target: Option<u32>,
        cond: Expr,
    },
    IfThen(Expr),
    /// `SELECT CASE (selector)`.
    SelectCase(Expr),
    /// `CASE (values)`; `None` for CASE DEFAULT.
    Case(Option<Vec<CaseValue>>),
    EndSelect,
    /// `WHERE (mask)`, the first line of a WHERE construct.
    WhereOpen(Expr),
    /// `ELSEWHERE [(mask)]`.
    ElseWhere(Option<Expr>),
    EndWhere,
    /// `FORALL (indices[, mask])`, the first line of a FORALL construct.
    ForallOpen((Vec<ForallIndex>, Expr)),
    EndForall,
    /// A statement that could not be read (its error was reported);
    /// `executable`: it does not look like a declaration or a unit's
    /// header. Inside executable code it stands as an opaque statement,
    /// so that no loop around it is judged as if it were not there.
    Unreadable {
        executable: bool,
    },
    ElseIf(Expr),
    Else,
    EndIf,
    /// `END DO [name]`.
    EndDo(Option<Name>),
    Decls(Vec<DeclKind>),
    Exec(StmtKind),
    /// `!HPF$ INDEPENDENT [(I, J)] [, NEW(X)]`: marks the DO that follows
    /// or, with an index list, the DOs of those variables nested directly
    /// one in the other from there.
    Independent {
        indices: Vec<Name>,
        new: Vec<Name>,
    },
    /// `CONTAINS`: internal or module procedures follow.
    Contains,
    /// `TYPE [, attrs ::] name`: a derived-type definition opens; its
    /// component declarations follow up to [`Parsed::EndTypeDef`].
    /// `unsupported`: why its objects cannot be flattened (an attribute
    /// such as EXTENDS).
    TypeDef {
        name: Name,
        unsupported: Option<String>,
    },
    EndTypeDef,
    /// A statement that opens, continues or closes a construct the
    /// analyses do not model (SELECT CASE, WHERE, INTERFACE, ...).
    Construct {
        what: String,
        role: ConstructRole,
    },
    /// Nothing to keep (an ignored HPF directive; its warning was given).
    Ignored,
}

/// The part a statement plays in an unmodelled construct; the `&str` names
/// the construct, so `END SELECT` closes `SELECT CASE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConstructRole {
    Open(&'static str),
    Middle,
    Close(&'static str),
}
