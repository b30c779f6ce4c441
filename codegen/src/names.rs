//! Ids as a reader knows them: a reference as its variable and place
//! (`X@6:7`), a statement as its place (`6:7`), a loop as its DO variable
//! and line (`DO I@5`), a block as its first statement (`B@6:7`), an affine
//! form as its text (`2*I+1`). What a column numbers ([`IdKind`]) comes
//! from the schemas; this module only looks the ids up in the facts.

use kaiseki_facts::{ColType, FactBase, IdKind, Table, Value};
use std::collections::HashMap;
use std::sync::Arc;

/// Where an id stands in the source: the file it was read from (an
/// INCLUDEd file, or its unit's) and the line and column there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place<'a> {
    pub file: &'a str,
    pub line: i64,
    pub col: i64,
}

/// The facts needed to show ids, indexed by id.
#[derive(Default)]
pub struct Names {
    /// ref -> (variable, line, col, its statement)
    refs: HashMap<i64, (String, i64, i64, i64)>,
    /// stmt -> (line, col, the file it was read from)
    stmts: HashMap<i64, (i64, i64, Arc<str>)>,
    /// loop -> its `DO` text (`DO I`, `DO WHILE`) and line
    loops: HashMap<i64, (String, i64)>,
    /// form -> text
    forms: HashMap<i64, String>,
}

impl Names {
    pub fn new(facts: &FactBase) -> Names {
        let mut refs: HashMap<i64, (String, i64, i64, i64)> = HashMap::new();
        for (r, stmt, var) in facts
            .def
            .iter()
            .map(|d| (d.r#ref, d.stmt, &d.var))
            .chain(facts.r#use.iter().map(|u| (u.r#ref, u.stmt, &u.var)))
        {
            refs.entry(r).or_insert_with(|| (var.clone(), 0, 0, stmt));
        }
        for p in &facts.ref_pos {
            if let Some(e) = refs.get_mut(&p.r#ref) {
                (e.1, e.2) = (p.line, p.col);
            }
        }
        // A statement was read from its `stmt_file` or its unit's file.
        let mut files: HashMap<&str, Arc<str>> = HashMap::new();
        let mut file = |name| shared(&mut files, name);
        let unit_file: HashMap<&str, Arc<str>> = facts
            .unit
            .iter()
            .map(|u| (u.unit.as_str(), file(&u.file)))
            .collect();
        let stmt_file: HashMap<i64, Arc<str>> = facts
            .stmt_file
            .iter()
            .map(|s| (s.stmt, file(&s.file)))
            .collect();
        let stmts = facts
            .stmt
            .iter()
            .map(|s| {
                let file = stmt_file
                    .get(&s.stmt)
                    .or_else(|| unit_file.get(s.unit.as_str()))
                    .cloned()
                    .unwrap_or_else(|| file(""));
                (s.stmt, (s.line, s.col, file))
            })
            .collect();
        let loops = facts
            .r#loop
            .iter()
            .map(|l| {
                let head = if l.kind == "do_while" {
                    "DO WHILE".to_string()
                } else {
                    format!("DO {}", l.var)
                };
                (l.r#loop, (head, l.line))
            })
            .collect();
        Names {
            refs,
            stmts,
            forms: form_texts(facts),
            loops,
        }
    }

    /// `id` as a reader knows it, or the number when the facts do not
    /// know it (a carrier 0: no loop).
    pub fn show(&self, kind: IdKind, id: i64) -> String {
        let shown = match kind {
            IdKind::Ref => self
                .refs
                .get(&id)
                .map(|(v, line, col, _)| format!("{v}@{line}:{col}")),
            IdKind::Stmt => self.stmts.get(&id).map(|(l, c, _)| format!("{l}:{c}")),
            IdKind::Block => self.stmts.get(&id).map(|(l, c, _)| format!("B@{l}:{c}")),
            IdKind::Loop => self.loops.get(&id).map(|(h, l)| format!("{h}@{l}")),
            IdKind::Form => self.forms.get(&id).cloned(),
        };
        shown.unwrap_or_else(|| id.to_string())
    }

    /// Adds the names of `other` (the facts of another group of units,
    /// numbered apart from these).
    pub fn extend(&mut self, other: Names) {
        self.refs.extend(other.refs);
        self.stmts.extend(other.stmts);
        self.loops.extend(other.loops);
        self.forms.extend(other.forms);
    }

    /// `table` with the ids of its columns of a kind (`kinds`, per column)
    /// shown as a reader knows them: those columns become text.
    pub fn show_table(&self, table: &mut Table, kinds: &[Option<IdKind>]) {
        let shown: Vec<(usize, IdKind)> = kinds
            .iter()
            .enumerate()
            .filter_map(|(i, k)| k.map(|k| (i, k)))
            .collect();
        for &(i, _) in &shown {
            if let Some(column) = table.columns.get_mut(i) {
                column.1 = ColType::Symbol;
            }
        }
        for row in &mut table.rows {
            for &(i, kind) in &shown {
                if let Some(Value::Number(id)) = row.get(i) {
                    row[i] = Value::Symbol(self.show(kind, *id));
                }
            }
        }
    }

    /// Where `id` stands in the source, when the facts know (a reference
    /// is in its statement's file).
    pub fn place(&self, kind: IdKind, id: i64) -> Option<Place<'_>> {
        let stmt = match kind {
            IdKind::Ref => {
                let (_, line, col, stmt) = self.refs.get(&id)?;
                let file = self.stmts.get(stmt).map_or("", |s| &s.2);
                return Some(Place {
                    file,
                    line: *line,
                    col: *col,
                });
            }
            // A loop's id is its DO statement's.
            IdKind::Stmt | IdKind::Block | IdKind::Loop => id,
            IdKind::Form => return None,
        };
        let (line, col, file) = self.stmts.get(&stmt)?;
        Some(Place {
            file,
            line: *line,
            col: *col,
        })
    }
}

/// `name`, stored once in `files` however many statements share it.
fn shared<'a>(files: &mut HashMap<&'a str, Arc<str>>, name: &'a str) -> Arc<str> {
    files.entry(name).or_insert_with(|| name.into()).clone()
}

/// The text of every affine form: its terms (loop variables first, in the
/// facts' order, then other variables), then its constant.
fn form_texts(facts: &FactBase) -> HashMap<i64, String> {
    let loop_var: HashMap<i64, &str> = facts
        .r#loop
        .iter()
        .map(|l| (l.r#loop, l.var.as_str()))
        .collect();
    let mut terms: HashMap<i64, Vec<(i64, String)>> = HashMap::new();
    for t in &facts.affine_loop {
        let name = loop_var.get(&t.r#loop).copied().unwrap_or("?");
        terms
            .entry(t.form)
            .or_default()
            .push((t.coeff, name.to_string()));
    }
    for t in &facts.affine_var {
        terms
            .entry(t.form)
            .or_default()
            .push((t.coeff, t.var.clone()));
    }
    facts
        .affine
        .iter()
        .map(|a| {
            let terms = terms.get(&a.form).map(Vec::as_slice).unwrap_or_default();
            (a.form, affine_text(terms, a.constant))
        })
        .collect()
}

/// `2*I-J+1` from the terms (coefficient, name) and the constant.
fn affine_text(terms: &[(i64, String)], constant: i64) -> String {
    let mut out = String::new();
    for (c, name) in terms.iter().filter(|(c, _)| *c != 0) {
        let sign = if *c < 0 {
            "-"
        } else if out.is_empty() {
            ""
        } else {
            "+"
        };
        let coeff = match c.unsigned_abs() {
            1 => String::new(),
            k => format!("{k}*"),
        };
        out.push_str(&format!("{sign}{coeff}{name}"));
    }
    match constant {
        0 if !out.is_empty() => {}
        c if c < 0 || out.is_empty() => out.push_str(&c.to_string()),
        c => out.push_str(&format!("+{c}")),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use kaiseki_facts::{
        Affine, AffineLoop, AffineVar, Def, Loop, RefPos, Stmt, StmtFile, Unit, Use,
    };

    #[test]
    fn ids_show_as_places_variables_and_texts() {
        let mut f = FactBase::default();
        f.stmt.push(Stmt {
            stmt: 3,
            unit: "P".into(),
            line: 6,
            col: 7,
            kind: "assign".into(),
        });
        f.def.push(Def {
            r#ref: 9,
            stmt: 3,
            var: "X".into(),
        });
        f.ref_pos.push(RefPos {
            r#ref: 9,
            line: 6,
            col: 7,
        });
        f.r#loop.push(Loop {
            r#loop: 2,
            unit: "P".into(),
            kind: "do".into(),
            var: "I".into(),
            line: 5,
            depth: 1,
        });
        f.affine.push(Affine {
            form: 4,
            constant: -1,
        });
        f.affine_loop.push(AffineLoop {
            form: 4,
            r#loop: 2,
            coeff: 2,
        });
        f.affine_var.push(AffineVar {
            form: 4,
            var: "N".into(),
            coeff: -1,
        });
        let n = Names::new(&f);
        assert_eq!(n.show(IdKind::Ref, 9), "X@6:7");
        assert_eq!(n.show(IdKind::Stmt, 3), "6:7");
        assert_eq!(n.show(IdKind::Block, 3), "B@6:7");
        assert_eq!(n.show(IdKind::Loop, 2), "DO I@5");
        assert_eq!(n.show(IdKind::Form, 4), "2*I-N-1");
        assert_eq!(n.show(IdKind::Loop, 0), "0");
        assert_eq!(
            n.place(IdKind::Ref, 9),
            Some(Place {
                file: "",
                line: 6,
                col: 7
            })
        );
        assert_eq!(affine_text(&[], 0), "0");
        assert_eq!(affine_text(&[(1, "I".into())], 3), "I+3");
        assert_eq!(affine_text(&[(-1, "I".into())], 0), "-I");
    }

    #[test]
    fn places_name_the_file_each_statement_was_read_from() {
        let mut f = FactBase::default();
        f.unit.push(Unit {
            unit: "P".into(),
            kind: "program".into(),
            file: "main.f".into(),
            line: 1,
        });
        for (stmt, line) in [(1, 4), (2, 3)] {
            f.stmt.push(Stmt {
                stmt,
                unit: "P".into(),
                line,
                col: 7,
                kind: "assign".into(),
            });
        }
        // Statement 2 is line 3 of an INCLUDEd file; its reference too.
        f.stmt_file.push(StmtFile {
            stmt: 2,
            file: "inc/body.h".into(),
        });
        f.r#use.push(Use {
            r#ref: 5,
            stmt: 2,
            var: "X".into(),
        });
        f.ref_pos.push(RefPos {
            r#ref: 5,
            line: 3,
            col: 11,
        });
        let n = Names::new(&f);
        let at = |kind, id| n.place(kind, id).map(|p| (p.file, p.line, p.col));
        assert_eq!(at(IdKind::Stmt, 1), Some(("main.f", 4, 7)));
        assert_eq!(at(IdKind::Stmt, 2), Some(("inc/body.h", 3, 7)));
        assert_eq!(at(IdKind::Block, 2), Some(("inc/body.h", 3, 7)));
        assert_eq!(at(IdKind::Ref, 5), Some(("inc/body.h", 3, 11)));
        assert_eq!(at(IdKind::Stmt, 3), None);
        assert_eq!(n.show(IdKind::Ref, 5), "X@3:11");
    }
}
