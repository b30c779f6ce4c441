//! Storage association in one unit (Fortran 77, 8.2, 8.3 and 17.1): its
//! COMMON blocks laid out member after member in cells (numeric storage
//! units), and its EQUIVALENCE classes, each either placed in a COMMON
//! block through a member (possibly extending the block past its end) or
//! given a storage area of its own. Done once, at the unit's first call:
//! the places never change.

use super::memory::{check_size, unallocated, Binding};
use super::{fail, At, Cells, Exec, Frame, Interp, Ty};
use crate::trace::SharedName;
use kaiseki_frontend::ast::{Expr, ExprKind, Pos};
use std::collections::HashMap;

/// One EQUIVALENCE item: the name and the cell it designates, counted from
/// the name's first cell.
struct Item {
    name: String,
    cell: i64,
    pos: Pos,
}

/// A name of an EQUIVALENCE class, where its first cell is in the class,
/// and where the name first stands in an EQUIVALENCE.
#[derive(Clone)]
struct Member {
    name: String,
    at: i64,
    pos: Pos,
}

/// The EQUIVALENCE classes of a unit: each name's class and where its
/// first cell is relative to the class.
#[derive(Default)]
struct Classes {
    place: HashMap<String, (usize, i64)>,
    /// Names in the order they first appear, with that position.
    order: Vec<(String, Pos)>,
    classes: usize,
}

impl Classes {
    /// Adds a set whose items all designate one cell, merging classes;
    /// refuses a set that contradicts the earlier ones.
    fn add(&mut self, set: &[Item]) -> Result<(), (Pos, String)> {
        let Some(anchor) = set.first() else {
            return Ok(());
        };
        let (class, at) = match self.place.get(&anchor.name) {
            Some(&(c, p)) => (c, p + anchor.cell),
            None => {
                self.classes += 1;
                self.insert(anchor, self.classes - 1, -anchor.cell);
                (self.classes - 1, 0)
            }
        };
        for item in &set[1..] {
            let want = at - item.cell;
            match self.place.get(&item.name) {
                None => self.insert(item, class, want),
                Some(&(c, p)) if c == class => {
                    if p != want {
                        return Err((
                            item.pos,
                            format!(
                                "EQUIVALENCE of {} contradicts an earlier association",
                                item.name
                            ),
                        ));
                    }
                }
                Some(&(c, p)) => {
                    for (other, q) in self.place.values_mut() {
                        if *other == c {
                            *other = class;
                            *q += want - p;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    fn insert(&mut self, item: &Item, class: usize, at: i64) {
        self.place.insert(item.name.clone(), (class, at));
        self.order.push((item.name.clone(), item.pos));
    }

    /// The members of each class, in order of appearance.
    fn members(&self) -> Vec<Vec<Member>> {
        let mut out = vec![Vec::new(); self.classes];
        for (name, pos) in &self.order {
            let (c, at) = self.place[name];
            out[c].push(Member {
                name: name.clone(),
                at,
                pos: *pos,
            });
        }
        out.retain(|m| !m.is_empty());
        out
    }
}

/// Where a class sits in a COMMON block: the block, its storage, the cell
/// of class position 0, and the first member of the block in the class.
#[derive(Clone)]
struct Anchor {
    block: String,
    storage: usize,
    base: i64,
    member: Binding,
}

impl Interp<'_> {
    /// Binds the COMMON members and EQUIVALENCEd names of unit `fr.unit`
    /// (into its statics and the frame), allocating the classes that are
    /// not in COMMON, and records which members stand for COMMON cells.
    pub(super) fn associate(&mut self, fr: &mut Frame, unit_pos: Pos) -> Exec<()> {
        let classes = self.equivalence_classes(fr)?;
        let (members, anchors) = self.common_members(fr, &classes)?;
        for b in &members {
            self.stands_for(fr.unit, b, b);
        }
        for (class, anchor) in classes.iter().zip(anchors) {
            match anchor {
                Some(a) => self.place_in_common(fr, class, &a, &members)?,
                None => self.allocate_class(fr, class, unit_pos)?,
            }
        }
        Ok(())
    }

    /// The unit's EQUIVALENCE classes: members with their class positions.
    fn equivalence_classes(&mut self, fr: &mut Frame) -> Exec<Vec<Vec<Member>>> {
        let mut classes = Classes::default();
        for set in self.infos[fr.unit].equivalences.clone() {
            let mut items = Vec::with_capacity(set.len());
            for e in &set {
                items.push(self.equivalence_item(fr, e)?);
            }
            if let Err((pos, message)) = classes.add(&items) {
                return fail(pos, message);
            }
        }
        Ok(classes.members())
    }

    /// Binds the COMMON members one after another in their blocks; returns
    /// them and where each class with a member sits.
    fn common_members(
        &mut self,
        fr: &mut Frame,
        classes: &[Vec<Member>],
    ) -> Exec<(Vec<Binding>, Vec<Option<Anchor>>)> {
        let mut anchors: Vec<Option<Anchor>> = vec![None; classes.len()];
        let mut members = Vec::new();
        for (block, names) in self.infos[fr.unit].commons.clone() {
            let storage = self.common_storage(&block);
            let mut offset: usize = 0;
            for m in &names {
                if self.infos[fr.unit].deferred.contains(&m.text) {
                    // An allocatable module variable: the only member of
                    // its block, whose cells ALLOCATE gives.
                    if names.len() > 1 {
                        return fail(
                            m.pos,
                            format!("allocatable {} shares COMMON /{block}/", m.text),
                        );
                    }
                    self.shapes.entry(storage).or_insert(None);
                    let rank = self.infos[fr.unit].dims[&m.text].len();
                    let cells = Cells {
                        storage,
                        offset: 0,
                        through: None,
                    };
                    let b = Binding {
                        deferred: true,
                        ..self.binding(fr.unit, &m.text, cells, unallocated(rank))
                    };
                    self.keep(fr, &b);
                    members.push(b);
                    continue;
                }
                let b = self.binding_at(fr, &m.text, m.pos, storage, offset)?;
                let cells = b
                    .cells()
                    .ok_or_else(|| format!("{} in COMMON has assumed size", m.text))
                    .at(m.pos)?;
                let class = classes
                    .iter()
                    .enumerate()
                    .find_map(|(c, ms)| ms.iter().find(|x| x.name == m.text).map(|x| (c, x.at)));
                if let Some((c, at)) = class {
                    let anchor = Anchor {
                        block: block.clone(),
                        storage,
                        base: offset as i64 - at,
                        member: b.clone(),
                    };
                    match &anchors[c] {
                        None => anchors[c] = Some(anchor),
                        Some(a) if a.storage == storage && a.base == anchor.base => {}
                        Some(a) => {
                            return fail(
                                m.pos,
                                format!(
                                    "EQUIVALENCE associates {} of COMMON /{block}/ with another place of COMMON /{}/",
                                    m.text, a.block
                                ),
                            )
                        }
                    }
                }
                offset = offset.saturating_add(cells);
                self.mem.grow(storage, offset, b.ty.zero()).at(m.pos)?;
                self.keep(fr, &b);
                members.push(b);
            }
        }
        Ok((members, anchors))
    }

    /// Binds the members of a class that sits in COMMON, growing the block
    /// past its end when they reach beyond it.
    fn place_in_common(
        &mut self,
        fr: &mut Frame,
        class: &[Member],
        anchor: &Anchor,
        members: &[Binding],
    ) -> Exec<()> {
        for m in class {
            if members.iter().any(|b| *b.name == *m.name) {
                continue;
            }
            let Some(start) = usize::try_from(anchor.base + m.at).ok() else {
                return fail(
                    m.pos,
                    format!(
                        "EQUIVALENCE extends COMMON /{}/ before its start ({})",
                        anchor.block, m.name
                    ),
                );
            };
            let b = self.binding_at(fr, &m.name, m.pos, anchor.storage, start)?;
            let end = start.saturating_add(b.cells().unwrap_or(0));
            self.mem.grow(anchor.storage, end, b.ty.zero()).at(m.pos)?;
            self.keep(fr, &b);
            self.stands_for(fr.unit, &anchor.member, &b);
        }
        Ok(())
    }

    /// Records that the COMMON `member` of a unit stands for the cells of `b`.
    fn stands_for(&mut self, unit: usize, member: &Binding, b: &Binding) {
        // An allocatable member stands for whatever cells its block gets.
        let cells = if b.deferred {
            usize::MAX - b.offset
        } else {
            b.cells().unwrap_or(0)
        };
        self.common_names.add(
            self.unit_names[unit].clone(),
            SharedName {
                var: member.name.clone(),
                storage: member.storage,
                start: member.offset,
                element_cells: member.width,
                covers: b.offset..b.offset.saturating_add(cells),
            },
        );
    }

    /// The storage of a COMMON block, created empty at its first mention.
    fn common_storage(&mut self, block: &str) -> usize {
        if let Some(&s) = self.commons.get(block) {
            return s;
        }
        let s = self.mem.alloc(Vec::new());
        self.commons.insert(block.to_string(), s);
        s
    }

    /// A storage area of its own for an EQUIVALENCE class outside COMMON
    /// (its members' sizes were checked as items).
    fn allocate_class(&mut self, fr: &mut Frame, class: &[Member], unit_pos: Pos) -> Exec<()> {
        let mut spans = Vec::with_capacity(class.len());
        for m in class {
            let probe = self.binding_at(fr, &m.name, m.pos, 0, 0)?;
            let cells = probe.cells().map_or(0, |n| n as i64);
            spans.push((m.at, cells, probe));
        }
        let low = spans.iter().map(|s| s.0).min().unwrap_or(0);
        let high = spans
            .iter()
            .map(|s| s.0.saturating_add(s.1))
            .max()
            .unwrap_or(0);
        let len = usize::try_from(high.saturating_sub(low)).unwrap_or(usize::MAX);
        let fill = spans.first().map_or(Ty::Int, |s| s.2.ty).zero();
        let storage = self.mem.alloc_filled(len, fill).at(unit_pos)?;
        for (at, _, probe) in spans {
            let b = Binding {
                storage,
                offset: usize::try_from(at - low).unwrap_or(0),
                ..probe
            };
            self.keep(fr, &b);
        }
        Ok(())
    }

    /// The binding of a name (standing at `pos`) to cells from `offset` in
    /// `storage`; refused when its type is not a whole number of cells.
    fn binding_at(
        &mut self,
        fr: &mut Frame,
        name: &str,
        pos: Pos,
        storage: usize,
        offset: usize,
    ) -> Exec<Binding> {
        let typed = self.infos[fr.unit].typed(name);
        if typed.width.is_none() && typed.ty != Ty::Char {
            return fail(
                pos,
                format!("the size of {name}'s type is not a whole number of storage units: the judge cannot lay it out"),
            );
        }
        let dims = self.dims_of(fr, name)?;
        let cells = Cells {
            storage,
            offset,
            through: None,
        };
        Ok(self.binding(fr.unit, name, cells, dims))
    }

    /// Keeps a binding for this and later calls of the unit.
    fn keep(&mut self, fr: &mut Frame, b: &Binding) {
        self.statics[fr.unit].insert(b.name.to_string(), b.clone());
        fr.vars.insert(b.name.to_string(), b.clone());
    }

    /// The name and cell an EQUIVALENCE item designates: a variable (its
    /// first cell) or an array element with constant subscripts.
    fn equivalence_item(&mut self, fr: &mut Frame, e: &Expr) -> Exec<Item> {
        let (name, subs) = match &e.kind {
            ExprKind::Var(n) => (n, &[][..]),
            ExprKind::Apply { name, args } => (name, args.as_slice()),
            _ => return fail(e.pos, "EQUIVALENCE item is not a variable"),
        };
        let ty = self.infos[fr.unit].type_of(name);
        if fr.consts.contains_key(name) {
            return fail(e.pos, format!("constant {name} in EQUIVALENCE"));
        }
        if self.program.units[fr.unit]
            .args
            .iter()
            .any(|a| &a.text == name)
        {
            return fail(e.pos, format!("dummy argument {name} in EQUIVALENCE"));
        }
        if ty == Ty::Char {
            return fail(
                e.pos,
                "CHARACTER in EQUIVALENCE is not supported by the judge",
            );
        }
        let mut values = Vec::with_capacity(subs.len());
        for s in subs {
            if !is_constant(fr, s) {
                return fail(s.pos, "EQUIVALENCE subscript is not a constant");
            }
            values.push(self.eval_scalar(fr, s)?.as_int().at(s.pos)?);
        }
        let probe = self.binding_at(fr, name, e.pos, 0, 0)?;
        // Bounded sizes keep every class position far from overflow.
        probe
            .cells()
            .ok_or_else(|| format!("{name} in EQUIVALENCE has assumed size"))
            .and_then(check_size)
            .at(e.pos)?;
        let index = if values.is_empty() {
            0
        } else {
            probe.linear(&values).at(e.pos)?
        };
        Ok(Item {
            name: name.clone(),
            cell: i64::try_from(probe.cell(index)).unwrap_or(i64::MAX),
            pos: e.pos,
        })
    }
}

/// Whether an expression is made of literals and named constants only.
fn is_constant(fr: &Frame, e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Real(_) | ExprKind::Logical(_) | ExprKind::Str(_) => true,
        ExprKind::Var(n) => fr.consts.contains_key(n),
        ExprKind::Unary(_, x) => is_constant(fr, x),
        ExprKind::Binary(_, a, b) => is_constant(fr, a) && is_constant(fr, b),
        ExprKind::Apply { .. } | ExprKind::Range { .. } => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(name: &str, cell: i64) -> Item {
        Item {
            name: name.into(),
            cell,
            pos: Pos::default(),
        }
    }

    #[test]
    fn sets_merge_classes_with_their_offsets() {
        let mut c = Classes::default();
        // (X(1), Y(3)) then (Z(2), W(1)) then (Y(1), W(5)): one class.
        c.add(&[item("X", 0), item("Y", 2)]).unwrap();
        c.add(&[item("Z", 1), item("W", 0)]).unwrap();
        assert_eq!(c.members().len(), 2);
        c.add(&[item("Y", 0), item("W", 4)]).unwrap();
        let members = c.members();
        assert_eq!(members.len(), 1);
        let at = |n: &str| members[0].iter().find(|m| m.name == n).map(|m| m.at);
        let x = at("X").unwrap();
        assert_eq!(at("Y"), Some(x - 2));
        assert_eq!(at("W"), Some(x - 6));
        assert_eq!(at("Z"), Some(x - 7));
        // A set consistent with the class is accepted, a contradiction is not.
        assert!(c.add(&[item("X", 0), item("Z", 7)]).is_ok());
        assert!(c.add(&[item("X", 0), item("Z", 0)]).is_err());
    }
}
