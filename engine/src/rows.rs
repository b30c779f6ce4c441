//! What both engines compute on: fixed-width rows of `i64`, where a symbol
//! is its number in an [`Interner`]; and the conversions between these rows
//! and the [`Table`]s of the fact base.

use crate::table::{ColType, Table, Value};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// Rows of one relation, stored flat.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rows {
    arity: usize,
    /// Counted apart from `data` so that nullary relations have rows too.
    len: usize,
    data: Vec<i64>,
}

impl Rows {
    pub fn new(arity: usize) -> Rows {
        Rows {
            arity,
            len: 0,
            data: Vec::new(),
        }
    }

    /// Rows from fixed-size arrays (what the generated Ascent code yields).
    pub fn collect<const N: usize>(arity: usize, rows: impl Iterator<Item = [i64; N]>) -> Rows {
        let mut out = Rows::new(arity);
        for row in rows {
            out.push(&row);
        }
        out
    }

    pub fn push(&mut self, row: &[i64]) {
        debug_assert_eq!(row.len(), self.arity);
        self.data.extend_from_slice(row);
        self.len += 1;
    }

    /// Appends one row given field by field.
    pub fn push_from(&mut self, fields: impl IntoIterator<Item = i64>) {
        self.data.extend(fields);
        self.len += 1;
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn arity(&self) -> usize {
        self.arity
    }

    /// Row `i` (`i < len`).
    pub fn row(&self, i: usize) -> &[i64] {
        &self.data[i * self.arity..(i + 1) * self.arity]
    }

    pub fn iter(&self) -> impl Iterator<Item = &[i64]> + '_ {
        (0..self.len).map(move |i| self.row(i))
    }
}

/// Symbols as dense numbers. Shared by reference during a run (functors
/// intern their results), hence the interior mutability.
#[derive(Debug, Default)]
pub struct Interner {
    inner: RefCell<Symbols>,
}

#[derive(Debug, Default)]
struct Symbols {
    ids: HashMap<Rc<str>, i64>,
    names: Vec<Rc<str>>,
}

impl Interner {
    /// An interner whose first symbols are `constants`, numbered from 0 in
    /// order: the numbering both engines give the constants of a program.
    pub fn with_constants<S: AsRef<str>>(constants: &[S]) -> Interner {
        let interner = Interner::default();
        for c in constants {
            interner.intern(c.as_ref());
        }
        interner
    }

    pub fn intern(&self, s: &str) -> i64 {
        let mut inner = self.inner.borrow_mut();
        if let Some(id) = inner.ids.get(s) {
            return *id;
        }
        let id = inner.names.len() as i64;
        let name: Rc<str> = Rc::from(s);
        inner.names.push(name.clone());
        inner.ids.insert(name, id);
        id
    }

    pub fn resolve(&self, id: i64) -> Option<Rc<str>> {
        let inner = self.inner.borrow();
        usize::try_from(id)
            .ok()
            .and_then(|i| inner.names.get(i).cloned())
    }

    /// The value of a field of type `ty`.
    pub fn value(&self, v: i64, ty: ColType) -> Value {
        match ty {
            ColType::Number => Value::Number(v),
            // Ids come only from this interner; an unknown one would be a bug,
            // shown rather than hidden.
            ColType::Symbol => Value::Symbol(
                self.resolve(v)
                    .map(|s| s.to_string())
                    .unwrap_or_else(|| format!("<symbol {v}>")),
            ),
        }
    }

    /// The row field for a value; `None` when the value has the other type.
    pub fn field(&self, v: &Value, ty: ColType) -> Option<i64> {
        match (v, ty) {
            (Value::Number(n), ColType::Number) => Some(*n),
            (Value::Symbol(s), ColType::Symbol) => Some(self.intern(s)),
            _ => None,
        }
    }
}

/// The rows of a table, whose columns have the types `types`.
pub fn encode(table: &Table, types: &[ColType], symbols: &Interner) -> Result<Rows, String> {
    let mut rows = Rows::new(types.len());
    let mut row = Vec::with_capacity(types.len());
    for (i, values) in table.rows.iter().enumerate() {
        row.clear();
        if values.len() != types.len() {
            return Err(format!("row {} has {} fields", i + 1, values.len()));
        }
        for (v, ty) in values.iter().zip(types) {
            row.push(
                symbols.field(v, *ty).ok_or_else(|| {
                    format!("row {}: `{v}` is not a {}", i + 1, ty.souffle_name())
                })?,
            );
        }
        rows.push(&row);
    }
    Ok(rows)
}

impl Interner {
    /// For each symbol id, its rank in the string order of all symbols:
    /// rows compared with symbols replaced by ranks compare as their
    /// decoded values do.
    pub fn ranks(&self) -> Vec<i64> {
        let inner = self.inner.borrow();
        let mut ids: Vec<usize> = (0..inner.names.len()).collect();
        ids.sort_unstable_by(|a, b| inner.names[*a].cmp(&inner.names[*b]));
        let mut ranks = vec![0; ids.len()];
        for (rank, id) in ids.into_iter().enumerate() {
            ranks[id] = rank as i64;
        }
        ranks
    }
}

/// The table `name` with `columns`, from rows (sorted and deduplicated).
/// `ranks` is [`Interner::ranks`]: rows are sorted as `i64`s before any
/// value is built, which is much cheaper than sorting values.
pub fn decode(
    name: &str,
    columns: &[(String, ColType)],
    rows: &Rows,
    symbols: &Interner,
    ranks: &[i64],
) -> Table {
    let arity = columns.len();
    let mut keys: Vec<i64> = Vec::with_capacity(rows.len() * arity);
    for row in rows.iter() {
        for (v, (_, ty)) in row.iter().zip(columns) {
            keys.push(match ty {
                ColType::Number => *v,
                ColType::Symbol => usize::try_from(*v)
                    .ok()
                    .and_then(|i| ranks.get(i).copied())
                    .unwrap_or(i64::MAX),
            });
        }
    }
    let key = |i: usize| &keys[i * arity..(i + 1) * arity];
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_unstable_by(|a, b| key(*a).cmp(key(*b)));
    order.dedup_by(|a, b| key(*a) == key(*b));
    Table {
        name: name.to_string(),
        columns: columns.to_vec(),
        rows: order
            .into_iter()
            .map(|i| {
                rows.row(i)
                    .iter()
                    .zip(columns)
                    .map(|(v, (_, ty))| symbols.value(*v, *ty))
                    .collect()
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_are_numbered_first_and_in_order() {
        let s = Interner::with_constants(&["b", "a", "b"]);
        assert_eq!(s.intern("b"), 0);
        assert_eq!(s.intern("a"), 1);
        assert_eq!(s.intern("c"), 2);
        assert_eq!(s.resolve(1).as_deref(), Some("a"));
        assert_eq!(s.resolve(-1), None);
    }

    #[test]
    fn tables_round_trip_and_come_back_sorted() {
        let cols = vec![
            ("x".to_string(), ColType::Symbol),
            ("n".to_string(), ColType::Number),
        ];
        let table = Table {
            name: "t".into(),
            columns: cols.clone(),
            rows: vec![
                vec![Value::Symbol("z".into()), Value::Number(2)],
                vec![Value::Symbol("a".into()), Value::Number(1)],
            ],
        };
        let s = Interner::default();
        let mut rows = encode(&table, &[ColType::Symbol, ColType::Number], &s).unwrap();
        rows.push(&[s.intern("a"), 1]);
        assert_eq!(rows.len(), 3);
        let back = decode("t", &cols, &rows, &s, &s.ranks());
        let mut want = table.clone();
        want.normalize();
        assert_eq!(back, want);
    }

    #[test]
    fn nullary_rows_are_counted() {
        let mut r = Rows::new(0);
        r.push(&[]);
        assert_eq!(r.iter().count(), 1);
    }

    #[test]
    fn wrongly_typed_fields_are_errors() {
        let table = Table {
            name: "t".into(),
            columns: vec![("n".into(), ColType::Number)],
            rows: vec![vec![Value::Symbol("x".into())]],
        };
        let err = encode(&table, &[ColType::Number], &Interner::default()).unwrap_err();
        assert_eq!(err, "row 1: `x` is not a number");
    }
}
