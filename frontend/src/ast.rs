//! The syntax tree of a Fortran 77/90 + HPF program after parsing and
//! structuring: DO loops and block IFs own their bodies, labels stay on the
//! statements that carry them. Lowering (facts), the test interpreter and
//! code generation all walk this tree.
//!
//! Names are upper case. Every node that stands for a place in the source
//! carries a [`Pos`] so that facts and diagnostics can point at it.

/// Index of a file in [`Program::files`].
pub type FileId = usize;

/// A 1-based position in a source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Pos {
    pub file: FileId,
    pub line: u32,
    pub col: u32,
}

/// A name as written, folded to upper case, with where it stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Name {
    pub text: String,
    pub pos: Pos,
}

/// One source file as read (INCLUDEd files are files of their own).
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub path: String,
    /// The raw lines, kept for diagnostics (`file:line:col`, the line, a caret).
    pub lines: Vec<String>,
}

/// Everything parsed from the files of one run.
#[derive(Clone, Debug, Default)]
pub struct Program {
    pub files: Vec<SourceFile>,
    pub units: Vec<Unit>,
    /// Generic procedure names (INTERFACE blocks) and their specific
    /// procedures: a call of the generic name may call any of them.
    pub generics: std::collections::BTreeMap<String, Vec<String>>,
}

impl Program {
    /// The names that are procedures of the program: its units and
    /// generic names.
    pub fn procedure_names(&self) -> rustc_hash::FxHashSet<&str> {
        let units = self.units.iter().map(|u| u.name.text.as_str());
        units
            .chain(self.generics.keys().map(String::as_str))
            .collect()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnitKind {
    Program,
    Subroutine,
    Function,
    BlockData,
    /// A MODULE: its declarations are storage and constants that the units
    /// using it share; its procedures are units of their own whose
    /// [`Unit::host`] is the module.
    Module,
}

/// A program unit. A file without a PROGRAM statement starts an unnamed
/// main program called `MAIN`.
#[derive(Clone, Debug)]
pub struct Unit {
    pub kind: UnitKind,
    pub name: Name,
    pub args: Vec<Name>,
    /// Declared result type of a FUNCTION (`REAL FUNCTION F(X)`).
    pub result_type: Option<TypeSpec>,
    /// The result variable of a FUNCTION with `RESULT(r)`, whose type is
    /// the function's.
    pub result: Option<Name>,
    pub decls: Vec<Decl>,
    pub body: Vec<Stmt>,
    /// Where the END statement stands.
    pub end: Pos,
    /// The label on the END statement, if any (GOTO targets).
    pub end_label: Option<u32>,
    /// The unit has CONTAINS: the procedures after it share its variables
    /// (host association).
    pub contains: bool,
    /// The unit whose CONTAINS holds this procedure (a MODULE or another
    /// procedure): the procedure sees its host's names.
    pub host: Option<String>,
    /// Keyword arguments of the unit's calls (`CALL F(X, N=5)`): the
    /// keyword, by where its value stands.
    pub keywords: rustc_hash::FxHashMap<Pos, String>,
    /// `EXTRINSIC(HPF_LOCAL)`, `EXTRINSIC(F77_LOCAL)`, ...: the procedure
    /// runs on each processor's local part of its arrays, so its body is
    /// not the global program the analyses model; lowering skips it.
    pub extrinsic_local: Option<String>,
    /// The bounds the program's ALLOCATEs give the unit's arrays of
    /// deferred shape, by name, where they all agree and are constants
    /// (see `scopes::shape_allocated`): what [`crate::symbols::Symbols`]
    /// takes as their dims. The declarations stay as written (the judge's
    /// interpreter allocates by them).
    pub allocated: rustc_hash::FxHashMap<String, Vec<DimSpec>>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeSpec {
    Integer,
    Real,
    Double,
    Complex,
    Logical,
    Character,
}

/// What a procedure may do with a dummy argument, as INTENT declares it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Intent {
    /// Only read: the procedure never defines it.
    In,
    /// Only defined: its value on entry is never read.
    Out,
    InOut,
}

/// An interface body: a procedure's name and its dummies in order, each
/// with the INTENT the body declares (`None`: none, may read and write).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    pub name: String,
    pub dummies: Vec<(String, Option<Intent>)>,
}

/// One declarator: `A(0:100, N)`, `X`, `C*8`.
#[derive(Clone, Debug)]
pub struct Entity {
    pub name: Name,
    /// Empty for a scalar.
    pub dims: Vec<DimSpec>,
    /// `= value` in F90 declarations (`INTEGER :: N = 10`, with PARAMETER).
    pub init: Option<Expr>,
}

/// `lower:upper`; `lower` is 1 when absent; `upper` is `None` for `*` (and
/// for the `:` of assumed- or deferred-shape arrays).
#[derive(Clone, Debug)]
pub struct DimSpec {
    pub lower: Option<Expr>,
    pub upper: Option<Expr>,
}

/// One type of an IMPLICIT statement: the type, the bytes of an element (as
/// in [`DeclKind::Type`]) and the letter ranges it applies to.
pub type ImplicitRule = (TypeSpec, Option<i64>, Vec<(char, char)>);

#[derive(Clone, Debug)]
pub struct Decl {
    pub pos: Pos,
    pub kind: DeclKind,
}

#[derive(Clone, Debug)]
pub enum DeclKind {
    /// `INTEGER A(10), B` or `REAL, DIMENSION(10), PARAMETER :: ...`;
    /// attribute DIMENSION is already folded into each entity's dims.
    Type {
        ty: TypeSpec,
        /// Bytes of one element, as the statement states or the type's
        /// default; `None` when unknown (CHARACTER, a kind that is not a literal).
        bytes: Option<i64>,
        parameter: bool,
        entities: Vec<Entity>,
    },
    Dimension(Vec<Entity>),
    Parameter(Vec<(Name, Expr)>),
    /// Block name `""` is blank common.
    Common {
        block: String,
        entities: Vec<Entity>,
    },
    Equivalence(Vec<Vec<Expr>>),
    /// DATA: its sets, `objects /values/` each.
    Data(Vec<DataSet>),
    /// An empty list saves everything; a COMMON block is named `/BLK/`
    /// (blank common `//`), which saves all its members.
    Save(Vec<Name>),
    External(Vec<Name>),
    Intrinsic(Vec<Name>),
    /// `POINTER (P, A(N))` (Cray pointers, a GNU extension): each pointer
    /// and its pointee, whose dimensions make it an array.
    CrayPointer(Vec<(Name, Entity)>),
    /// `NAMELIST /G/ A, B`: the variables its groups name. Only I/O with
    /// `NML=` reads or writes them through the group, and that is opaque.
    Namelist(Vec<Name>),
    ImplicitNone,
    /// `IMPLICIT REAL (A-H, O-Z)`: the letter ranges given each type.
    Implicit(Vec<ImplicitRule>),
    Hpf(HpfDirective),
    /// `USE HPF_LIBRARY`: the library procedures the unit sees. `names`
    /// are (local name, library name) pairs: the only ones seen with
    /// `ONLY:`, renames (`X => SUM_SCATTER`) otherwise.
    UseHpfLibrary {
        only: bool,
        names: Vec<(Name, String)>,
    },
    /// `USE M`, `USE M, ONLY: A, B => C`, `USE M, X => Y`,
    /// `USE, INTRINSIC :: M`: `names` are (local name, module's name)
    /// pairs, the only ones seen with `ONLY:`, renames otherwise.
    Use {
        module: Name,
        only: bool,
        names: Vec<(Name, String)>,
    },
    /// POINTER (attribute or statement): these names may point at any
    /// TARGET, so every statement that references one is opaque (see
    /// `crate::scopes`): sound before precise.
    Pointer(Vec<Name>),
    /// PUBLIC or PRIVATE, as a statement (no names: the module's default)
    /// or as an attribute of the names declared with it.
    Access {
        public: bool,
        names: Vec<Name>,
    },
    /// An INTERFACE block: its generic name (`None` for a plain interface)
    /// and the procedures it names (MODULE PROCEDURE lists and the names of
    /// its interface bodies).
    Interface {
        generic: Option<Name>,
        procedures: Vec<Name>,
        /// The interface bodies: what each says of its procedure's dummies.
        bodies: Vec<Signature>,
    },
    /// `INTENT(IN) :: A`, or the INTENT attribute of a type declaration.
    Intent {
        intent: Intent,
        names: Vec<Name>,
    },
    /// `TYPE name ... END TYPE`: a derived-type definition and its
    /// components, each a [`DeclKind::Type`] or a [`DeclKind::Derived`]
    /// (default initializers are kept in the entities, not used), and a
    /// [`DeclKind::Pointer`] naming the POINTER components.
    /// `unsupported` says why objects of the type cannot be flattened
    /// (type-bound procedures, EXTENDS...). [`crate::derived::flatten`]
    /// reads every unit's TypeDefs, whatever the unit's kind, and leaves
    /// them in place; later stages ignore them.
    TypeDef {
        name: Name,
        components: Vec<DeclKind>,
        unsupported: Option<String>,
    },
    /// `TYPE(T) [, attrs ::] entities` (`CLASS(T)` too): objects of a
    /// derived type. `attrs` are the attributes other than DIMENSION
    /// (folded into the entities' dims), upper case (`ALLOCATABLE`,
    /// `INTENT`, ...); SAVE, EXTERNAL, INTRINSIC become declarations of
    /// their own as for [`DeclKind::Type`]. [`crate::derived::flatten`]
    /// replaces every Derived declaration by the declarations of its
    /// objects' leaves, so later stages never see one.
    Derived {
        type_name: Name,
        entities: Vec<Entity>,
        attrs: Vec<String>,
    },
}

/// One `objects /values/` of a DATA statement.
#[derive(Clone, Debug)]
pub struct DataSet {
    pub objects: Vec<DataObject>,
    /// `None` when the value list is not modelled (BOZ or Hollerith
    /// constants): then how many values it holds is unknown.
    pub values: Option<Vec<DataValue>>,
}

#[derive(Clone, Debug)]
pub enum DataObject {
    /// A scalar, an array element, a substring or a whole array.
    Item(Expr),
    /// An implied-DO list, as the whole arrays it names (how many elements
    /// it initializes is not kept).
    ImpliedDo(Vec<Expr>),
}

impl DataObject {
    /// The variables the object initializes (part of).
    pub fn exprs(&self) -> &[Expr] {
        match self {
            DataObject::Item(e) => std::slice::from_ref(e),
            DataObject::ImpliedDo(es) => es,
        }
    }
}

/// `r*c` or `c` in a DATA value list.
#[derive(Clone, Debug)]
pub struct DataValue {
    /// `r`: an integer literal or a named constant.
    pub repeat: Option<Expr>,
    /// `c`: a literal, signed or not, or a named constant; `None` for a
    /// complex constant `(re, im)`, which the tree does not model.
    pub value: Option<Expr>,
}

/// HPF directives (`!HPF$`, `CHPF$`, `*HPF$`). INDEPENDENT is not here: it
/// sets [`StmtKind::Do::independent`] of the DO it precedes.
/// HPF mapping directives (`!HPF$`, `CHPF$`, `*HPF$`), one per declared
/// object group as written; the attribute form (`!HPF$ ALIGN WITH T :: A,
/// B`) and the combined one (`!HPF$ TEMPLATE, DISTRIBUTE(BLOCK) :: T(N)`)
/// become the same variants. INDEPENDENT is not here: it sets
/// [`StmtKind::Do::independent`] of the DO it precedes.
#[derive(Clone, Debug)]
pub enum HpfDirective {
    /// `PROCESSORS P(4, 0:3)`; no dims for a scalar arrangement.
    Processors {
        name: Name,
        dims: Vec<DimSpec>,
    },
    Template {
        name: Name,
        dims: Vec<DimSpec>,
    },
    /// `ALIGN A(I), B(I) WITH T(I)`, `ALIGN (I) WITH T(I) :: A, B`.
    Align {
        alignees: Vec<Alignee>,
        target: AlignWith,
    },
    /// `DISTRIBUTE T(BLOCK) ONTO P`, `DISTRIBUTE (BLOCK) :: A, B`.
    Distribute {
        distributees: Vec<Name>,
        /// `None` when no format is given (the compiler chooses) or it is
        /// transcriptive (`DISTRIBUTE A *`: the actual argument's).
        formats: Option<Vec<DistFormat>>,
        /// `None` when not given or transcriptive (`ONTO *`).
        onto: Option<Name>,
    },
    /// DYNAMIC, REALIGN, REDISTRIBUTE (`directive`): the mapping of these
    /// arrays and templates may change while the unit runs.
    Remapped {
        directive: &'static str,
        names: Vec<Name>,
    },
}

/// One aligned object; `source` is `None` when it has no subscripts
/// (`ALIGN A WITH T`, `ALIGN WITH T :: A`): `:` in every dimension.
#[derive(Clone, Debug)]
pub struct Alignee {
    pub name: Name,
    pub source: Option<Vec<AlignSource>>,
}

/// `WITH T(subscripts)`; `subscripts` is `None` for `WITH T`: `:` in every
/// dimension of `T`. A descriptive `WITH *T` is the same alignment.
#[derive(Clone, Debug)]
pub struct AlignWith {
    pub target: Name,
    pub subscripts: Option<Vec<AlignTarget>>,
}

/// A subscript of the aligned array in ALIGN: an align dummy, `*` (collapse) or `:`.
#[derive(Clone, Debug)]
pub enum AlignSource {
    Dummy(Name),
    Star,
    Colon,
}

/// A subscript of the align target: an expression in the dummies
/// (`a*I+b`, a constant), a triplet (an [`ExprKind::Range`]: `:`, `1:N`,
/// `L:U:S`) or `*` (replication).
#[derive(Clone, Debug)]
pub enum AlignTarget {
    Expr(Expr),
    Star,
}

#[derive(Clone, Debug)]
pub enum DistFormat {
    Block(Option<Expr>),
    Cyclic(Option<Expr>),
    Star,
}

/// `!HPF$ INDEPENDENT` before a DO, with the variables its NEW clause
/// makes private to each iteration.
#[derive(Clone, Debug)]
pub struct Independent {
    pub new: Vec<Name>,
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub label: Option<u32>,
    /// Where the statement's first keyword (or the assigned name) stands.
    pub pos: Pos,
    pub kind: StmtKind,
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    /// `lhs = rhs`; `lhs` is a [`ExprKind::Var`] or [`ExprKind::Apply`] (array element).
    Assign {
        lhs: Expr,
        rhs: Expr,
    },
    /// A DO loop with its body. For a labelled DO the terminal statement is
    /// the last statement of the innermost loop that shares it.
    Do {
        var: Name,
        lower: Expr,
        upper: Expr,
        step: Option<Expr>,
        body: Vec<Stmt>,
        end: LoopEnd,
        /// Asserted by `!HPF$ INDEPENDENT`.
        independent: Option<Independent>,
        /// The construct name (`OUTER: DO I = ...`), upper case.
        construct: Option<String>,
    },
    DoWhile {
        cond: Expr,
        body: Vec<Stmt>,
        end: LoopEnd,
        /// The construct name (`OUTER: DO WHILE (...)`), upper case.
        construct: Option<String>,
    },
    /// Block IF: the IF and each ELSE IF arm (condition, where its keyword
    /// stands, body), then the ELSE part and the END IF.
    If {
        arms: Vec<IfArm>,
        else_part: Option<ElsePart>,
        end: Pos,
        end_label: Option<u32>,
    },
    /// SELECT CASE: the selector, read once, then the CASE blocks as
    /// written (CASE DEFAULT among them, with no values), and END SELECT.
    Select {
        selector: Expr,
        cases: Vec<CaseArm>,
        end: Pos,
        end_label: Option<u32>,
        /// The construct name (`S: SELECT CASE (K)`), upper case.
        construct: Option<String>,
    },
    /// EXIT: leaves the DO or DO WHILE loop named `construct` (the
    /// innermost one around when `None`) for the statement after it.
    /// Structuring checks that such a loop is open around the statement.
    Exit {
        construct: Option<String>,
    },
    /// CYCLE: ends the current iteration of that loop (goes to its end).
    Cycle {
        construct: Option<String>,
    },
    /// `WHERE (mask) lhs = rhs`: each element of `lhs` whose element of
    /// `mask` is true gets the element of `rhs` (a masked array
    /// assignment). With `indices`, `FORALL (I = L:U:S, ..., mask) lhs =
    /// rhs`: for every value of the indices whose mask is true (`.TRUE.`
    /// when none is written), every right side is evaluated, then
    /// assigned. WHERE and FORALL constructs are parsed as these, one per
    /// assignment (see `crate::masked`).
    Where {
        indices: Vec<ForallIndex>,
        mask: Expr,
        lhs: Expr,
        rhs: Expr,
    },
    /// `IF (cond) stmt`.
    LogicalIf {
        cond: Expr,
        stmt: Box<Stmt>,
    },
    Goto(u32),
    /// `GO TO (l1, l2, ...), index`.
    ComputedGoto {
        labels: Vec<u32>,
        index: Expr,
    },
    /// `IF (e) neg, zero, pos`.
    ArithIf {
        expr: Expr,
        neg: u32,
        zero: u32,
        pos: u32,
    },
    Continue,
    Call {
        name: Name,
        args: Vec<Expr>,
    },
    Return,
    Stop,
    Read {
        control: IoControl,
        items: Vec<IoItem>,
    },
    Write {
        control: IoControl,
        items: Vec<IoItem>,
    },
    /// `PRINT fmt, items`: its control has a format and nothing else.
    Print {
        control: IoControl,
        items: Vec<IoItem>,
    },
    Format,
    /// OPEN, CLOSE, INQUIRE, REWIND, BACKSPACE or ENDFILE (`what`, lower
    /// case) with a specifier list: its unit (or FILE=) and the values it
    /// reads in `control` (with IOSTAT= and ERR=), and the variables an
    /// INQUIRE (or OPEN's NEWUNIT=, IOMSG=) sets in `outputs`.
    File {
        what: String,
        control: IoControl,
        outputs: Vec<Expr>,
    },
    /// `ALLOCATE (A(N, 0:M), STAT=I)` or DEALLOCATE: the objects (with
    /// their bounds), the STAT= and ERRMSG= variables it sets, the SOURCE=
    /// or MOLD= expressions it reads. It gives the arrays their shape; their
    /// elements are undefined after it, so it neither reads nor defines them.
    Allocate {
        deallocate: bool,
        objects: Vec<Expr>,
        stat: Vec<Expr>,
        source: Vec<Expr>,
    },
    /// Valid Fortran that the analyses do not model (a warning was given);
    /// analyses treat it as reading and writing everything it might.
    Opaque {
        reason: String,
    },
}

/// The control list of a READ or WRITE (`(IOU, 100, IOSTAT=IOS, END=99)`),
/// or the format of PRINT and of `READ fmt, items`.
#[derive(Clone, Debug, Default)]
pub struct IoControl {
    /// `None` for `*`. An INTEGER expression is an external unit number, a
    /// CHARACTER variable, element or substring an internal file: the types
    /// tell, so lowering decides.
    pub unit: Option<Expr>,
    /// `None` for list-directed `*`; else a FORMAT label (an integer
    /// constant) or a character expression holding the format.
    pub format: Option<Expr>,
    /// Other specifiers whose values the statement reads (REC=, ADVANCE=).
    pub values: Vec<Expr>,
    /// IOSTAT=: the variable the statement sets to 0, to a negative value
    /// at an end of file or record, to a positive one on an error.
    pub iostat: Option<Expr>,
    /// SIZE=: the variable a non-advancing READ sets to the characters it read.
    pub size: Option<Expr>,
    /// END=, ERR=, EOR=: where the statement jumps on those conditions.
    pub end: Option<u32>,
    pub err: Option<u32>,
    pub eor: Option<u32>,
}

impl IoControl {
    /// Whether the statement may stop part way and go on executing (at a
    /// label, or after it with IOSTAT=), leaving items it did not reach as
    /// they were; without any of these a failed transfer ends the program.
    pub fn may_stop_early(&self) -> bool {
        self.iostat.is_some() || self.end.is_some() || self.err.is_some() || self.eor.is_some()
    }

    /// The labels the statement may jump to.
    pub fn jumps(&self) -> impl Iterator<Item = u32> + '_ {
        [self.end, self.err, self.eor].into_iter().flatten()
    }

    /// Every expression of the list, in source order of kind: unit,
    /// format, values, IOSTAT=, SIZE=.
    pub fn exprs(&self) -> impl Iterator<Item = &Expr> {
        let vars = [&self.iostat, &self.size].into_iter().flatten();
        self.unit
            .iter()
            .chain(&self.format)
            .chain(&self.values)
            .chain(vars)
    }
}

/// An item of an I/O list.
#[derive(Clone, Debug)]
pub enum IoItem {
    Expr(Expr),
    ImpliedDo(Box<ImpliedDo>),
}

/// `(items, VAR = lower, upper [, step])` in an I/O list: the items once
/// per value of VAR, which the statement defines as a DO loop would.
#[derive(Clone, Debug)]
pub struct ImpliedDo {
    pub items: Vec<IoItem>,
    pub var: Name,
    pub lower: Expr,
    pub upper: Expr,
    pub step: Option<Expr>,
}

/// `I = L:U[:S]` in a FORALL header: the index is the statement's own,
/// not the unit's variable of that name.
#[derive(Clone, Debug)]
pub struct ForallIndex {
    pub var: Name,
    pub lower: Expr,
    pub upper: Expr,
    pub step: Option<Expr>,
}

impl ForallIndex {
    /// The bounds and the step, as written.
    pub fn bounds(&self) -> impl Iterator<Item = &Expr> {
        [&self.lower, &self.upper].into_iter().chain(&self.step)
    }

    pub fn bounds_mut(&mut self) -> impl Iterator<Item = &mut Expr> {
        [&mut self.lower, &mut self.upper]
            .into_iter()
            .chain(&mut self.step)
    }
}

#[derive(Clone, Debug)]
pub struct IfArm {
    pub cond: Expr,
    pub pos: Pos,
    /// The label of an ELSE IF; `None` for the first arm, whose label is the
    /// IF statement's [`Stmt::label`].
    pub label: Option<u32>,
    pub body: Vec<Stmt>,
}

/// One CASE block of a SELECT CASE: `values` is `None` for CASE DEFAULT.
#[derive(Clone, Debug)]
pub struct CaseArm {
    pub values: Option<Vec<CaseValue>>,
    pub pos: Pos,
    pub label: Option<u32>,
    pub body: Vec<Stmt>,
}

/// A value or range of a CASE selector list: `3`, `3:5`, `:0`, `7:`.
#[derive(Clone, Debug)]
pub enum CaseValue {
    Single(Expr),
    Range(Option<Expr>, Option<Expr>),
}

#[derive(Clone, Debug)]
pub struct ElsePart {
    pub pos: Pos,
    pub label: Option<u32>,
    pub body: Vec<Stmt>,
}

/// How a loop ends: at `END DO` (its position and label) or at the labelled
/// terminal statement, which is the last statement of the body.
#[derive(Clone, Debug)]
pub enum LoopEnd {
    EndDo { pos: Pos, label: Option<u32> },
    Label(u32),
}

/// The parser refuses statements with more than 2000 operators and
/// parentheses, and blocks nested more than 250 deep, so recursive walks
/// over expressions and statements stay within the stack.
#[derive(Clone, Debug)]
pub struct Expr {
    pub pos: Pos,
    pub kind: ExprKind,
}

impl Expr {
    /// The bound expressions of an ALLOCATE object (`A(0:N, M)`: `0`, `N`,
    /// `M`); none for a DEALLOCATE object or a scalar.
    pub fn allocated_bounds(&self) -> Vec<&Expr> {
        let ExprKind::Apply { args, .. } = &self.kind else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for a in args {
            match &a.kind {
                ExprKind::Range {
                    lower,
                    upper,
                    stride,
                } => out.extend([lower, upper, stride].into_iter().flatten().map(|b| &**b)),
                _ => out.push(a),
            }
        }
        out
    }

    /// Calls `f` with the place, name and arguments of every `NAME(args)`
    /// in the expression, inner ones first: the one walk of the passes
    /// that rewrite calls (renaming a generic call, passing lifted host
    /// variables).
    pub fn for_each_apply_mut(&mut self, f: &mut impl FnMut(Pos, &mut String, &mut Vec<Expr>)) {
        let pos = self.pos;
        match &mut self.kind {
            ExprKind::Apply { name, args } => {
                args.iter_mut().for_each(|a| a.for_each_apply_mut(f));
                f(pos, name, args);
            }
            ExprKind::Range {
                lower,
                upper,
                stride,
            } => [lower, upper, stride]
                .into_iter()
                .flatten()
                .for_each(|x| x.for_each_apply_mut(f)),
            ExprKind::Unary(_, x) => x.for_each_apply_mut(f),
            ExprKind::Binary(_, a, b) => {
                a.for_each_apply_mut(f);
                b.for_each_apply_mut(f);
            }
            ExprKind::Var(_)
            | ExprKind::Int(_)
            | ExprKind::Real(_)
            | ExprKind::Logical(_)
            | ExprKind::Str(_) => {}
        }
    }

    /// Whether `hit` holds for some name in the expression, in source
    /// order: a variable (`applied` false) or the name of an array
    /// element, substring or function reference (`applied` true). Stops
    /// at the first hit.
    pub fn any_name(&self, hit: &mut impl FnMut(&str, bool) -> bool) -> bool {
        match &self.kind {
            ExprKind::Var(n) => hit(n, false),
            ExprKind::Apply { name, args } => {
                hit(name, true) || args.iter().any(|a| a.any_name(hit))
            }
            ExprKind::Range {
                lower,
                upper,
                stride,
            } => [lower, upper, stride]
                .into_iter()
                .flatten()
                .any(|x| x.any_name(hit)),
            ExprKind::Unary(_, x) => x.any_name(hit),
            ExprKind::Binary(_, a, b) => a.any_name(hit) || b.any_name(hit),
            ExprKind::Int(_) | ExprKind::Real(_) | ExprKind::Logical(_) | ExprKind::Str(_) => false,
        }
    }
}

/// The name of the [`ExprKind::Apply`] a component reference is parsed
/// as: `P(I)%X(J)` is `Apply { name: "%", args: [P(I), X(J)] }`, one
/// argument per part, each a [`ExprKind::Var`] or an [`ExprKind::Apply`]
/// (its subscripts). It exists only between the parser and
/// [`crate::derived::flatten`], which rewrites each one into a reference
/// to the flattened variable (`P%X(J, I)`) or makes its statement opaque.
pub const COMPONENT_REF: &str = "%";

/// The name of the [`ExprKind::Apply`] an array constructor is parsed as:
/// `(/ A, B(1:2) /)` and `[A, B(1:2)]` are `Apply { name: "(/ /)", args:
/// [A, B(1:2)] }`. The intrinsics table has it as a function that reads
/// its arguments, so every walk over expressions sees the reads.
pub const ARRAY_CONSTRUCTOR: &str = "(/ /)";

/// The name of the [`ExprKind::Apply`] an implied DO of an array
/// constructor is parsed as: `(B(I), I = L, U, S)` is `Apply { name:
/// "( , = )", args: [I, L, U, S, B(I)] }` (S is 1 when not written), the
/// variable, the bounds, then the items. The variable is local to the
/// implied DO; the lowering takes an element whose subscripts use it as
/// the whole array, as in an I/O implied DO.
pub const IMPLIED_DO: &str = "( , = )";

#[derive(Clone, Debug)]
pub enum ExprKind {
    Int(i64),
    /// The literal as written (`1.0E30`, `2.5D0`).
    Real(String),
    Logical(bool),
    Str(String),
    /// A scalar, a whole array, or a PARAMETER constant.
    Var(String),
    /// `NAME(args)`: an array element, an intrinsic or a function call;
    /// [`crate::symbols`] says which.
    Apply {
        name: String,
        args: Vec<Expr>,
    },
    /// `lo:hi:stride` inside an [`ExprKind::Apply`] (array sections, substrings).
    Range {
        lower: Option<Box<Expr>>,
        upper: Option<Box<Expr>>,
        stride: Option<Box<Expr>>,
    },
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Plus,
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Pow,
    Concat,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
    Eqv,
    Neqv,
}
