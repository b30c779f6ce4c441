//! The generic face of a relation: column names and types, and rows of
//! [`Value`]s, so that exporters and the rule interpreter can handle every
//! relation without knowing its Rust type. Values, column types and tables
//! are the rule engine's (`kaiseki_engine`): the schemas are written in them.

pub use kaiseki_engine::{ColType, Table, Value};

/// What an id column numbers: the ids of the fact base are numbers, and a
/// reader knows them by where they stand in the source. Declared once, in
/// the field types of `schema.rs` ([`RefId`], [`StmtId`], ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IdKind {
    /// A reference (`def`, `use`): shown as `X@6:7`.
    Ref,
    /// A statement: shown as `6:7`.
    Stmt,
    /// A loop, the id of its DO statement: shown as `DO I@5`.
    Loop,
    /// A basic block, the id of its first statement: shown as `B@6:7`.
    Block,
    /// An affine form: shown as its text, `2*I+1`.
    Form,
}

impl IdKind {
    /// The kind a field type of `schema.rs` names (`RefId`, ...), if any.
    pub const fn of_field_type(ty: &str) -> Option<IdKind> {
        const KINDS: [(&str, IdKind); 5] = [
            ("RefId", IdKind::Ref),
            ("StmtId", IdKind::Stmt),
            ("LoopId", IdKind::Loop),
            ("BlockId", IdKind::Block),
            ("FormId", IdKind::Form),
        ];
        let mut i = 0;
        while i < KINDS.len() {
            if const_eq(KINDS[i].0, ty) {
                return Some(KINDS[i].1);
            }
            i += 1;
        }
        None
    }

    /// Its name in documentation and messages (`ref`, `stmt`, ...).
    pub fn name(self) -> &'static str {
        match self {
            IdKind::Ref => "ref",
            IdKind::Stmt => "stmt",
            IdKind::Loop => "loop",
            IdKind::Block => "block",
            IdKind::Form => "form",
        }
    }
}

/// `a == b` in a constant context.
const fn const_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The id of a reference (a `number` column of kind [`IdKind::Ref`]).
pub type RefId = i64;
/// The id of a statement ([`IdKind::Stmt`]).
pub type StmtId = i64;
/// The id of a loop: its DO statement's ([`IdKind::Loop`]).
pub type LoopId = i64;
/// The id of a basic block: its first statement's ([`IdKind::Block`]).
pub type BlockId = i64;
/// The id of an affine form ([`IdKind::Form`]).
pub type FormId = i64;

/// A column: its name (identical in `.dl` files, Rust fields and CSV
/// headers), type, and what it numbers when it is an id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Column {
    pub name: &'static str,
    pub ty: ColType,
    pub kind: Option<IdKind>,
}

/// The schema of one relation.
#[derive(Clone, Copy, Debug)]
pub struct Schema {
    pub name: &'static str,
    pub columns: &'static [Column],
    /// One sentence for people; the same text as the type's doc comment.
    pub doc: &'static str,
}

impl Schema {
    /// A table of this relation's columns, without rows.
    pub fn empty_table(&self) -> Table {
        Table {
            name: self.name.to_string(),
            columns: self
                .columns
                .iter()
                .map(|c| (c.name.to_string(), c.ty))
                .collect(),
            rows: Vec::new(),
        }
    }

    /// `name(col: type, ...)`, as in a Soufflé `.decl`.
    pub fn signature(&self) -> String {
        let cols: Vec<String> = self
            .columns
            .iter()
            .map(|c| format!("{}: {}", c.name, c.ty.souffle_name()))
            .collect();
        format!("{}({})", self.name, cols.join(", "))
    }
}

/// A relation type: a row of typed columns.
pub trait Relation: Sized + Ord + Clone {
    const SCHEMA: Schema;
    fn to_row(&self) -> Vec<Value>;
    /// `None` when the row does not match the schema.
    fn from_row(row: &[Value]) -> Option<Self>;
}

/// Conversion of a Rust field to and from a [`Value`].
pub trait Field: Sized {
    const TYPE: ColType;
    fn to_value(&self) -> Value;
    fn from_value(v: &Value) -> Option<Self>;
}

impl Field for i64 {
    const TYPE: ColType = ColType::Number;
    fn to_value(&self) -> Value {
        Value::Number(*self)
    }
    fn from_value(v: &Value) -> Option<Self> {
        match v {
            Value::Number(n) => Some(*n),
            Value::Symbol(_) => None,
        }
    }
}

impl Field for String {
    const TYPE: ColType = ColType::Symbol;
    fn to_value(&self) -> Value {
        Value::Symbol(self.clone())
    }
    fn from_value(v: &Value) -> Option<Self> {
        match v {
            Value::Symbol(s) => Some(s.clone()),
            Value::Number(_) => None,
        }
    }
}

/// A relation's name without the `r#` of a raw identifier (`r#use` is `use`).
pub const fn raw_name(s: &'static str) -> &'static str {
    let b = s.as_bytes();
    if b.len() > 2 && b[0] == b'r' && b[1] == b'#' {
        s.split_at(2).1
    } else {
        s
    }
}

/// Declares relation structs, their [`Relation`] impls and the [`crate::FactBase`]
/// that holds one `Vec` of each. The doc comment of each relation is its
/// documentation everywhere (rustdoc, `kaiseki facts --list`, docs/relations.md).
macro_rules! relations {
    ($(
        #[doc = $doc:literal]
        $ty:ident $name:ident { $($field:ident : $fty:ty),* $(,)? }
    )*) => {
        $(
            #[doc = $doc]
            #[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
            pub struct $ty { $(pub $field: $fty),* }

            impl $crate::relation::Relation for $ty {
                const SCHEMA: $crate::relation::Schema = $crate::relation::Schema {
                    name: $crate::relation::raw_name(stringify!($name)),
                    columns: &[$($crate::relation::Column {
                        name: $crate::relation::raw_name(stringify!($field)),
                        ty: <$fty as $crate::relation::Field>::TYPE,
                        kind: $crate::relation::IdKind::of_field_type(stringify!($fty)),
                    }),*],
                    doc: $doc,
                };
                fn to_row(&self) -> Vec<$crate::relation::Value> {
                    vec![$($crate::relation::Field::to_value(&self.$field)),*]
                }
                #[allow(unused_assignments, unused_mut, unused_variables)]
                fn from_row(row: &[$crate::relation::Value]) -> Option<Self> {
                    let mut it = row.iter();
                    let r = $ty { $($field: <$fty as $crate::relation::Field>::from_value(it.next()?)?),* };
                    if it.next().is_some() { return None; }
                    Some(r)
                }
            }
        )*

        /// Every input relation of one analysis run, one `Vec` per relation.
        #[derive(Clone, Debug, Default, PartialEq, Eq)]
        pub struct FactBase { $(pub $name: Vec<$ty>),* }

        impl FactBase {
            /// The schemas of all input relations, in declaration order.
            pub const SCHEMAS: &'static [$crate::relation::Schema] =
                &[$(<$ty as $crate::relation::Relation>::SCHEMA),*];

            /// Sorts and deduplicates every relation, so output is deterministic.
            /// Unstable sorts: rows are ordered by every field (derived
            /// `Ord`), so equal rows are identical and the order is the
            /// stable sort's, without its buffer and merges.
            pub fn normalize(&mut self) {
                $( self.$name.sort_unstable(); self.$name.dedup(); )*
            }

            /// Every relation as an untyped table (sorted, deduplicated).
            pub fn tables(&self) -> Vec<$crate::relation::Table> {
                vec![$({
                    let mut t = <$ty as $crate::relation::Relation>::SCHEMA.empty_table();
                    t.rows = self.$name.iter().map($crate::relation::Relation::to_row).collect();
                    t.normalize();
                    t
                }),*]
            }

            /// Rebuilds a fact base from tables; unknown tables are an error.
            pub fn from_tables(tables: &[$crate::relation::Table]) -> Result<FactBase, String> {
                let mut fb = FactBase::default();
                for t in tables {
                    match t.name.as_str() {
                        $(n if n == $crate::relation::raw_name(stringify!($name)) => {
                            for (i, row) in t.rows.iter().enumerate() {
                                let r = <$ty as $crate::relation::Relation>::from_row(row)
                                    .ok_or_else(|| format!("{}: row {} does not match the schema", t.name, i + 1))?;
                                fb.$name.push(r);
                            }
                        })*
                        other => return Err(format!("unknown relation `{other}`")),
                    }
                }
                Ok(fb)
            }

            /// Appends all rows of `other` (used to merge per-file fact bases).
            pub fn extend(&mut self, other: FactBase) {
                $( self.$name.extend(other.$name); )*
            }
        }
    };
}
pub(crate) use relations;
