//! Reading and writing tables: tab-separated `.facts` files without a header
//! (the Soufflé convention) and `.csv` files with a header row.

use crate::relation::{ColType, Table, Value};
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};

/// The two on-disk formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Tab-separated, no header, `.facts` (Soufflé `-F`/`-D`).
    Tsv,
    /// Comma-separated with a header row naming the columns, `.csv`.
    Csv,
}

impl Format {
    pub fn extension(self) -> &'static str {
        match self {
            Format::Tsv => "facts",
            Format::Csv => "csv",
        }
    }

    /// The file of relation `name` in directory `dir`.
    pub fn path(self, dir: &Path, name: &str) -> PathBuf {
        dir.join(format!("{name}.{}", self.extension()))
    }
}

/// Tabs and line breaks cannot appear in a TSV field: they become spaces.
fn tsv_field(v: &Value) -> String {
    v.to_string().replace(['\t', '\n', '\r'], " ")
}

/// Writes the rows of `table` (in their current order) in `format`.
pub fn write_table(table: &Table, format: Format, out: &mut dyn Write) -> io::Result<()> {
    match format {
        Format::Tsv => {
            for row in &table.rows {
                let fields: Vec<String> = row.iter().map(tsv_field).collect();
                writeln!(out, "{}", fields.join("\t"))?;
            }
            Ok(())
        }
        Format::Csv => {
            let mut w = csv::Writer::from_writer(out);
            w.write_record(table.columns.iter().map(|(n, _)| n.as_str()))
                .map_err(io::Error::other)?;
            for row in &table.rows {
                w.write_record(row.iter().map(|v| v.to_string()))
                    .map_err(io::Error::other)?;
            }
            w.flush()
        }
    }
}

fn parse_field(text: &str, ty: ColType) -> Result<Value, String> {
    match ty {
        ColType::Number => text
            .trim()
            .parse::<i64>()
            .map(Value::Number)
            .map_err(|_| format!("`{text}` is not a number")),
        ColType::Symbol => Ok(Value::Symbol(text.to_string())),
    }
}

/// Reads rows into `table` (whose columns are already set) from `input`.
/// A CSV header must name the table's columns in order.
pub fn read_table(
    table: &mut Table,
    format: Format,
    input: &mut dyn BufRead,
) -> Result<(), String> {
    let arity = table.columns.len();
    let convert = |fields: Vec<&str>, line: usize, table: &mut Table| -> Result<(), String> {
        if fields.len() != arity {
            return Err(format!(
                "line {line}: {} fields, relation `{}` has {arity} columns",
                fields.len(),
                table.name
            ));
        }
        let row = fields
            .iter()
            .zip(&table.columns)
            .map(|(f, (_, ty))| parse_field(f, *ty))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("line {line}: {e}"))?;
        table.rows.push(row);
        Ok(())
    };
    match format {
        Format::Tsv => {
            for (i, line) in input.lines().enumerate() {
                let line = line.map_err(|e| e.to_string())?;
                if line.is_empty() && arity != 1 {
                    continue;
                }
                convert(line.split('\t').collect(), i + 1, table)?;
            }
        }
        Format::Csv => {
            let mut r = csv::Reader::from_reader(input);
            let header: Vec<String> = r
                .headers()
                .map_err(|e| e.to_string())?
                .iter()
                .map(str::to_string)
                .collect();
            let expected: Vec<&str> = table.columns.iter().map(|(n, _)| n.as_str()).collect();
            if header != expected {
                return Err(format!(
                    "header `{}` does not match the columns `{}` of `{}`",
                    header.join(","),
                    expected.join(","),
                    table.name
                ));
            }
            for (i, rec) in r.records().enumerate() {
                let rec = rec.map_err(|e| e.to_string())?;
                convert(rec.iter().collect(), i + 2, table)?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::relation::Relation;
    use crate::{FactBase, Stmt, Use};

    fn sample() -> FactBase {
        let mut fb = FactBase::default();
        fb.stmt.push(Stmt {
            stmt: 2,
            unit: "MAIN".into(),
            line: 4,
            col: 7,
            kind: "assign".into(),
        });
        fb.r#use.push(Use {
            r#ref: 1,
            stmt: 2,
            var: "X, \"Y\"".into(),
        });
        fb
    }

    #[test]
    fn raw_identifiers_lose_their_prefix() {
        assert_eq!(Use::SCHEMA.name, "use");
        assert_eq!(Use::SCHEMA.columns[0].name, "ref");
    }

    #[test]
    fn tables_round_trip_through_both_formats() {
        let fb = sample();
        for format in [Format::Tsv, Format::Csv] {
            let mut back = Vec::new();
            for t in fb.tables() {
                let mut bytes = Vec::new();
                write_table(&t, format, &mut bytes).unwrap();
                let mut t2 = Table {
                    rows: vec![],
                    ..t.clone()
                };
                read_table(&mut t2, format, &mut bytes.as_slice()).unwrap();
                assert_eq!(t2, t);
                back.push(t2);
            }
            assert_eq!(FactBase::from_tables(&back).unwrap(), fb);
        }
    }

    #[test]
    fn csv_header_names_the_columns() {
        let t = sample()
            .tables()
            .into_iter()
            .find(|t| t.name == "stmt")
            .unwrap();
        let mut bytes = Vec::new();
        write_table(&t, Format::Csv, &mut bytes).unwrap();
        let text = String::from_utf8(bytes).unwrap();
        assert_eq!(text.lines().next(), Some("stmt,unit,line,col,kind"));
    }

    #[test]
    fn bad_rows_are_errors() {
        let mut t = Stmt::SCHEMA.empty_table();
        let err = read_table(
            &mut t,
            Format::Tsv,
            &mut "1\tMAIN\tx\t7\tassign\n".as_bytes(),
        );
        assert!(err.unwrap_err().contains("not a number"));
    }
}
