//! Array syntax over distributed arrays under the owner-computes rule.
//! A section assignment (`A(2:N-1, J) = B(1:N-2, J) * 2`, `A = 0`)
//! becomes DO loops over the section in which the owner of each assigned
//! element assigns it; a reduction assigned to a scalar
//! (`E = MAXVAL(ABS(B(2:N-1, 2:N-1) - A(2:N-1, 2:N-1)))`, MINVAL, SUM of
//! INTEGER values) has each owner of an element of its first distributed
//! section fold it, and one MPI_Allreduce combine. The elements another
//! rank owns go point to point to the owner that computes with them,
//! before the loops, only those it needs; nothing for an array aligned
//! as the computing one and read at the same subscripts. What does not
//! fit (the right side reads the assigned array elsewhere than at the
//! element assigned, a function that might not be elemental, a DIM or
//! MASK argument, ...) takes the conservative way: every rank runs the
//! statement after the owners broadcast what it reads.
//!
//! A section assignment writes its elements on their owners only; the
//! communication analysis kills every copy of the array at it (its
//! `sad_kill` is `<A(...), T>`), so later reads fetch from the owners.

use super::scalarize::{do_statement, scalarize, Element, Kind, Scalarized};
use super::{exchange, text, wrap_loops, Edits, Group};

/// The reductions taken, and the operation that combines them.
const REDUCTIONS: &[(&str, &str)] = &[("MAXVAL", "MAX"), ("MINVAL", "MIN"), ("SUM", "SUM")];

impl Group<'_> {
    /// Writes statement `s` for owner-computes when it is a section
    /// assignment to a distributed array or a reduction over one;
    /// whether it did.
    pub(super) fn array_statement(&self, s: i64, edits: &mut Edits) -> Result<bool, String> {
        let Some(&(unit, line, "assign")) = self.stmts.get(&s) else {
            return Ok(false);
        };
        // A DO loop ending on it would end before the code written.
        if self.owned.contains_key(&s)
            || self.calls(s)
            || self.nested_reads(s)
            || self.ends_do(line)
        {
            return Ok(false);
        }
        let Some(text) = self.src.statement(line) else {
            return Ok(false);
        };
        let Some((lhs, rhs)) = split_assignment(&text) else {
            return Ok(false);
        };
        let kind = |name: &str| self.kind(unit, name);
        let name = |name: &str| self.subscript_name(s, name);
        let code = if matches!(kind(&lhs.trim().to_ascii_uppercase()), Kind::Scalar { .. }) {
            self.reduction(unit, rhs, &kind, &name)
        } else {
            scalarize(lhs, &kind, &name).and_then(|left| match &left.refs[..] {
                [home]
                    if left.text.trim() == home.text()
                        && !home.section.is_empty()
                        && self.dist.get(unit, &home.array).is_some() =>
                {
                    self.section_assignment(unit, home, rhs, &kind, &name)
                }
                _ => None,
            })
        };
        let Some((code, reduces)) = code else {
            return Ok(false);
        };
        self.relabel(s, line, edits)?;
        edits.before(
            line,
            format!("! kaiseki-spmd: owner computes {}", self.src.describe(line)),
        );
        for c in code {
            edits.before(line, c);
        }
        let last = self.src.statement_end(line);
        if reduces {
            // The value of an empty reduction is the statement's own.
            edits.before(line, "IF (kc_rn > 0) THEN".into());
            edits.before(line, format!("{} = kc_rv", lhs.trim()));
            edits.before(line, "ELSE".into());
            edits.after(last, "END IF".into());
        } else {
            edits.dropped.extend(line..=last);
        }
        Ok(true)
    }

    /// The code of `home = rhs` over the section of `home`.
    fn section_assignment(
        &self,
        unit: &str,
        home: &Element,
        rhs: &str,
        kind: &dyn Fn(&str) -> Kind,
        name: &dyn Fn(&str) -> text::Name,
    ) -> Option<(Vec<String>, bool)> {
        let right = scalarize(rhs, kind, name)?;
        // Fortran evaluates the whole right side first: the assigned
        // array may only be read at the element assigned.
        if right
            .refs
            .iter()
            .any(|r| r.array == home.array && !r.same_place(home))
        {
            return None;
        }
        if right
            .refs
            .iter()
            .any(|r| !r.section.is_empty() && r.section.len() != home.section.len())
        {
            return None;
        }
        let p = self.owner_of(unit, home);
        let mut code = self.fetch(unit, home, &right);
        code.extend(wrap_loops(
            &loops(home),
            &[format!(
                "IF (kc_me == {p}) {} = {}",
                home.text(),
                right.text.trim()
            )],
        ));
        Some((code, false))
    }

    /// The code of `scalar = RED(expr)`: the ranks' folds and their
    /// combination in `kc_rv`, `kc_rn` the number of elements.
    fn reduction(
        &self,
        unit: &str,
        rhs: &str,
        kind: &dyn Fn(&str) -> Kind,
        name: &dyn Fn(&str) -> text::Name,
    ) -> Option<(Vec<String>, bool)> {
        let rhs = rhs.trim();
        let open = rhs.find('(')?;
        let function = rhs[..open].trim().to_ascii_uppercase();
        let &(_, op) = REDUCTIONS.iter().find(|(f, _)| *f == function)?;
        let inner = text::matching(&rhs[open..])?;
        if open + inner.len() + 2 != rhs.len() || text::split_top_at(inner, ',').len() != 1 {
            return None;
        }
        let expr = scalarize(inner, kind, name)?;
        // SUM in another order than the sequential one is exact for
        // INTEGER values only.
        if op == "SUM" && !expr.integer {
            return None;
        }
        let home = expr
            .refs
            .iter()
            .find(|r| !r.section.is_empty() && self.dist.get(unit, &r.array).is_some())?;
        let p = self.owner_of(unit, home);
        let fold = match op {
            "SUM" => format!("kc_rv = kc_rv + DBLE({})", expr.text.trim()),
            _ => format!("kc_rv = {op}(kc_rv, DBLE({}))", expr.text.trim()),
        };
        let mut code = self.fetch(unit, home, &expr);
        code.push(format!("CALL kc_fold_start('{op}')"));
        code.extend(wrap_loops(
            &loops(home),
            &[
                "kc_rn = kc_rn + 1".into(),
                format!("IF (kc_me == {p}) {fold}"),
            ],
        ));
        code.push(format!("CALL kc_fold_end('{op}')"));
        Some((code, true))
    }

    /// Brings to the owner of each element of `home` the distributed
    /// elements `expr` reads with it: a single element is broadcast by
    /// its owner; an element of a section goes point to point, unless
    /// its array is aligned as `home`'s and read at the same subscripts.
    fn fetch(&self, unit: &str, home: &Element, expr: &Scalarized) -> Vec<String> {
        let Some(own) = self.dist.get(unit, &home.array) else {
            return Vec::new();
        };
        let p = self.owner_of(unit, home);
        let mut code: Vec<String> = Vec::new();
        let mut done: Vec<&Element> = Vec::new();
        for r in &expr.refs {
            let Some(d) = self.dist.get(unit, &r.array) else {
                continue;
            };
            if done.contains(&r) || (d.same_owners(own) && r.same_place(home)) {
                continue;
            }
            done.push(r);
            if r.section.is_empty() {
                let point: Vec<text::Range> = r
                    .dims
                    .iter()
                    .map(|x| (x.clone(), x.clone(), "1".to_string()))
                    .collect();
                code.push(d.share(&point));
            } else {
                let q = self.owner_of(unit, r);
                code.extend(exchange(&loops(home), &q, &p, &r.text()));
            }
        }
        code
    }

    /// `kc_own_U_A(...)` of the element.
    fn owner_of(&self, unit: &str, e: &Element) -> String {
        format!(
            "{}({})",
            super::owners::function_name(unit, &e.array),
            e.dims.join(", ")
        )
    }

    /// What `name` is in `unit`, for the rewriting.
    fn kind(&self, unit: &str, name: &str) -> Kind {
        if let Some(p) = self.parameter(unit, name) {
            return Kind::Scalar {
                integer: p.value.trim().parse::<i64>().is_ok(),
            };
        }
        let Some(v) = self.variable(unit, name) else {
            return Kind::Other;
        };
        if !matches!(v.r#type.as_str(), "integer" | "real" | "double") {
            return Kind::Other;
        }
        if v.rank == 0 {
            return Kind::Scalar {
                integer: v.r#type == "integer",
            };
        }
        let mut dims: Vec<_> = self
            .facts
            .array_dim
            .iter()
            .filter(|d| d.unit == unit && d.array == name)
            .collect();
        dims.sort_by_key(|d| d.dim);
        let given = |b: &str| !matches!(b.trim(), "" | "*" | ":");
        if dims.len() != v.rank as usize || !dims.iter().all(|d| given(&d.lower) && given(&d.upper))
        {
            return Kind::Other;
        }
        Kind::Array {
            integer: v.r#type == "integer",
            bounds: dims
                .iter()
                .map(|d| (d.lower.clone(), d.upper.clone()))
                .collect(),
        }
    }
}

/// The DO statements over the section of `home`, outermost (its last
/// section dimension) first.
fn loops(home: &Element) -> Vec<String> {
    home.section
        .iter()
        .enumerate()
        .rev()
        .map(|(k, r)| do_statement(k + 1, r))
        .collect()
}

/// `lhs = rhs` split at its `=` (not `==`, `<=`, `>=`, `/=`, `=>`).
fn split_assignment(text: &str) -> Option<(&str, &str)> {
    let b = text.as_bytes();
    let mut depth = 0;
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'(' => depth += 1,
            b')' => depth -= 1,
            b'=' if depth == 0 => {
                let before = i.checked_sub(1).map(|k| b[k]);
                let after = b.get(i + 1).copied();
                if before.is_some_and(|c| b"<>/=".contains(&c))
                    || after.is_some_and(|c| c == b'=' || c == b'>')
                {
                    return None;
                }
                return Some((&text[..i], &text[i + 1..]));
            }
            b'\'' | b'"' | b';' => return None,
            _ => {}
        }
    }
    None
}
