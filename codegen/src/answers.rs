//! The rows of a relation for people (`kaiseki query`, `kaiseki analyze`):
//! an aligned table, CSV or JSON (an array of objects keyed by the column
//! names), with ids shown as [`Names`] shows them or kept as numbers.

use crate::json::Json;
use crate::names::Names;
use kaiseki_facts::{IdKind, Table, Value};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Table,
    Csv,
    Json,
}

/// A relation's rows with what its columns number: `kinds[i]` for column
/// `i` (from the schemas, `kaiseki_rules::kinds`).
pub struct Answers<'a> {
    pub table: &'a Table,
    pub kinds: &'a [Option<IdKind>],
    /// `None`: ids as numbers (`--raw`).
    pub names: Option<&'a Names>,
}

impl Answers<'_> {
    /// Field `i` of `row`: an id as its reader knows it, else as it is.
    fn cell(&self, row: &[Value], i: usize) -> Cell {
        match (&row[i], self.kinds.get(i).copied().flatten(), self.names) {
            (Value::Number(n), Some(kind), Some(names)) => Cell::Text(names.show(kind, *n)),
            (Value::Number(n), _, _) => Cell::Number(*n),
            (Value::Symbol(s), _, _) => Cell::Text(s.clone()),
        }
    }

    fn strings(&self) -> Vec<Vec<String>> {
        let width = self.table.columns.len();
        self.table
            .rows
            .iter()
            .map(|r| (0..width).map(|i| self.cell(r, i).text()).collect())
            .collect()
    }

    pub fn render(&self, format: Format) -> String {
        let header: Vec<&str> = self.table.columns.iter().map(|(n, _)| n.as_str()).collect();
        match format {
            Format::Table => crate::table::render(&header, &self.strings()),
            Format::Csv => {
                let header: Vec<String> = header.iter().map(|h| h.to_string()).collect();
                let mut out = crate::csv_line(&header);
                for row in self.strings() {
                    out.push_str(&crate::csv_line(&row));
                }
                out
            }
            Format::Json => Json::Array(
                self.table
                    .rows
                    .iter()
                    .map(|r| {
                        Json::object(header.iter().enumerate().map(|(i, h)| {
                            let v = match self.cell(r, i) {
                                Cell::Number(n) => Json::Number(n),
                                Cell::Text(s) => Json::String(s),
                            };
                            (*h, v)
                        }))
                    })
                    .collect(),
            )
            .pretty(),
        }
    }
}

enum Cell {
    Number(i64),
    Text(String),
}

impl Cell {
    fn text(self) -> String {
        match self {
            Cell::Number(n) => n.to_string(),
            Cell::Text(s) => s,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kaiseki_facts::{ColType, Def, FactBase, RefPos};

    fn sample() -> (Table, FactBase) {
        let table = Table {
            name: "query".into(),
            columns: vec![
                ("D".into(), ColType::Number),
                ("V".into(), ColType::Symbol),
                ("N".into(), ColType::Number),
            ],
            rows: vec![vec![
                Value::Number(9),
                Value::Symbol("a,b".into()),
                Value::Number(4),
            ]],
        };
        let mut f = FactBase::default();
        f.def.push(Def {
            r#ref: 9,
            stmt: 1,
            var: "X".into(),
        });
        f.ref_pos.push(RefPos {
            r#ref: 9,
            line: 6,
            col: 7,
        });
        (table, f)
    }

    #[test]
    fn ids_are_readable_in_every_format_unless_raw() {
        let (table, facts) = sample();
        let names = Names::new(&facts);
        let kinds = [Some(IdKind::Ref), None, None];
        let readable = Answers {
            table: &table,
            kinds: &kinds,
            names: Some(&names),
        };
        assert_eq!(
            readable.render(Format::Table),
            "D      V    N\nX@6:7  a,b  4\n"
        );
        assert_eq!(readable.render(Format::Csv), "D,V,N\nX@6:7,\"a,b\",4\n");
        assert_eq!(
            readable.render(Format::Json),
            "[\n  {\n    \"D\": \"X@6:7\",\n    \"V\": \"a,b\",\n    \"N\": 4\n  }\n]\n"
        );
        let raw = Answers {
            table: &table,
            kinds: &kinds,
            names: None,
        };
        assert_eq!(raw.render(Format::Csv), "D,V,N\n9,\"a,b\",4\n");
        assert!(raw.render(Format::Json).contains("\"D\": 9,"));
    }
}
