//! Array syntax over distributed arrays under the owner-computes rule.
//! The plan is the rules' (`rules/dl/comm.dl`): `spmd_array` names the
//! array assignments (`A(2:N-1, J) = B(1:N-2, J) * 2`, `A = 0`) and the
//! reductions assigned to a scalar (`E = MAXVAL(ABS(B - A))`, MINVAL,
//! SUM of INTEGER values) that run owner-computes, and the section whose
//! owners compute; `spmd_array_read` says how each distributed array
//! read reaches them. Here they are written: DO loops over the section
//! (an assignment's, along a BLOCK dimension, over the elements at the
//! rank's coordinate only) in which the owner of each element assigns
//! it, or folds it into its share
//! of the reduction that one MPI_Allreduce combines; before them, the
//! elements another rank owns, point to point to the owner that computes
//! with them, or broadcast when one element is read. Every other array
//! statement runs on every rank after the owners broadcast what it reads.
//!
//! A section assignment writes its elements on their owners only; the
//! communication analysis kills every copy of the section at it (its
//! `sad_kill` is `<A(2:N-1), T>`), so later reads fetch from the owners.

use super::scalarize::{do_statement, last, scalarize, Element, Kind, Scalarized};
use super::{exchange, text, wrap_loops, Edits, Group};

/// A distributed or other array read of an array statement, in the order
/// written: its reference, its array, and how it reaches the owner that
/// computes (`spmd_array_read`; empty for an array that is not
/// distributed).
struct Read {
    r#ref: i64,
    array: String,
    how: String,
}

impl Group<'_> {
    /// Writes statement `s` for owner-computes when the plan says so
    /// (`spmd_array`); whether it did.
    pub(super) fn array_statement(&self, s: i64, edits: &mut Edits) -> Result<bool, String> {
        let Some((home, op)) = self.by_stmt.get(&s).and_then(|p| p.array) else {
            return Ok(false);
        };
        let Some(&(unit, line, _)) = self.stmts.get(&s) else {
            return Ok(false);
        };
        // An array the program leaves whole (owners.rs: replicated, or a
        // dummy argument some call passes otherwise) is computed by every rank.
        let array = self.refs.var.get(&home);
        if array.is_none_or(|a| self.dist.get(unit, a).is_none()) {
            return Ok(false);
        }
        let written = self.src.statement(line).and_then(|text| {
            let (lhs, rhs) = split_assignment(&text)?;
            let reads = self.array_reads(s);
            let kind = |name: &str| self.kind(unit, name);
            let name = |name: &str| self.subscript_name(s, name);
            let code = if op == "=" {
                self.section_assignment(unit, (lhs, rhs), &reads, &kind, &name)
            } else {
                self.reduction(unit, (op, home), rhs, &reads, &kind, &name)
            }?;
            Some((code, lhs.trim().to_string()))
        });
        let Some((code, lhs)) = written else {
            // Every rank runs it instead, after the broadcasts of what it
            // reads: slower, as correct.
            edits.warnings.push(format!(
                "{}: the array statement `spmd_array` plans owner-computes could not be written element by element: every rank runs it",
                self.src.describe(line)
            ));
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
        if op != "=" {
            // The value of an empty reduction is the statement's own.
            edits.before(line, "IF (kc_rn > 0) THEN".into());
            edits.before(line, format!("{lhs} = kc_rv"));
            edits.before(line, "ELSE".into());
            edits.after(last, "END IF".into());
        } else {
            edits.dropped.extend(line..=last);
        }
        Ok(true)
    }

    /// The array reads of statement `s` (not those of its subscripts), in
    /// the order written.
    fn array_reads(&self, s: i64) -> Vec<Read> {
        let how = self.by_stmt.get(&s).map(|p| &p.reads);
        let refs = &self.refs;
        refs.uses_of(s)
            .iter()
            .filter(|r| refs.elements.contains(r) || refs.wholes.contains(r))
            .filter(|r| !refs.in_subscripts.contains(r))
            .filter_map(|&r| {
                Some(Read {
                    r#ref: r,
                    array: refs.var.get(&r)?.to_string(),
                    how: how.and_then(|h| h.get(&r)).unwrap_or(&"").to_string(),
                })
            })
            .collect()
    }

    /// The code of `lhs = rhs` over the section of `lhs`.
    fn section_assignment(
        &self,
        unit: &str,
        (lhs, rhs): (&str, &str),
        reads: &[Read],
        kind: &dyn Fn(&str) -> Kind,
        name: &dyn Fn(&str) -> text::Name,
    ) -> Option<Vec<String>> {
        let left = scalarize(lhs, kind, name)?;
        let [home] = &left.refs[..] else {
            return None;
        };
        let right = scalarize(rhs, kind, name)?;
        let p = self.owner_of(unit, home);
        let mut code = self.fetch(unit, home, &right, reads)?;
        code.extend(wrap_loops(
            &self.owned_loops(unit, home),
            &[format!(
                "IF (kc_me == {p}) {} = {}",
                home.text(),
                right.text.trim()
            )],
        ));
        Some(code)
    }

    /// The code of `scalar = RED(expr)`, `op` combining the ranks' shares
    /// in `kc_rv`, `kc_rn` the number of elements; the owners of `home`'s
    /// elements fold.
    fn reduction(
        &self,
        unit: &str,
        (op, home): (&str, i64),
        rhs: &str,
        reads: &[Read],
        kind: &dyn Fn(&str) -> Kind,
        name: &dyn Fn(&str) -> text::Name,
    ) -> Option<Vec<String>> {
        let rhs = rhs.trim();
        let open = rhs.find('(')?;
        let inner = text::matching(&rhs[open..])?;
        if open + inner.len() + 2 != rhs.len() {
            return None;
        }
        let expr = scalarize(inner, kind, name)?;
        let at = reads.iter().position(|r| r.r#ref == home)?;
        let home = expr.refs.get(at)?;
        let p = self.owner_of(unit, home);
        let fold = match op {
            "SUM" => format!("kc_rv = kc_rv + DBLE({})", expr.text.trim()),
            _ => format!("kc_rv = {op}(kc_rv, DBLE({}))", expr.text.trim()),
        };
        let mut code = self.fetch(unit, home, &expr, reads)?;
        code.push(format!("CALL kc_fold_start('{op}')"));
        code.extend(wrap_loops(
            &loops(home),
            &[
                "kc_rn = kc_rn + 1".into(),
                format!("IF (kc_me == {p}) {fold}"),
            ],
        ));
        code.push(format!("CALL kc_fold_end('{op}')"));
        Some(code)
    }

    /// Brings to the owner of each element of `home` the distributed
    /// elements `expr` reads with it, as `spmd_array_read` says: a single
    /// element broadcast by its owner, a section point to point.
    fn fetch(
        &self,
        unit: &str,
        home: &Element,
        expr: &Scalarized,
        reads: &[Read],
    ) -> Option<Vec<String>> {
        if reads.len() != expr.refs.len()
            || reads
                .iter()
                .zip(&expr.refs)
                .any(|(r, e)| r.array != e.array)
        {
            return None;
        }
        let p = self.owner_of(unit, home);
        let mut code: Vec<String> = Vec::new();
        let mut done: Vec<&Element> = Vec::new();
        for (read, r) in reads.iter().zip(&expr.refs) {
            if matches!(read.how.as_str(), "" | "local") || done.contains(&r) {
                continue;
            }
            // Left whole, every rank has all of it.
            let Some(d) = self.dist.get(unit, &r.array) else {
                continue;
            };
            done.push(r);
            if read.how == "broadcast" {
                let point: Vec<text::Range> = r
                    .dims
                    .iter()
                    .map(|x| (x.clone(), x.clone(), "1".to_string()))
                    .collect();
                code.push(d.share(&point));
            } else {
                let q = self.owner_of(unit, r);
                code.extend(exchange(&loops(home), (&q, &p), &r.text(), d));
            }
        }
        Some(code)
    }

    /// The DO statements over the elements of the section of `home` this
    /// rank may own, outermost (its last section dimension) first: along
    /// a BLOCK dimension of the grid those at the rank's coordinate, else
    /// all (the owner test in the loops decides).
    fn owned_loops(&self, unit: &str, home: &Element) -> Vec<String> {
        let dist = self.dist.get(unit, &home.array);
        home.section
            .iter()
            .zip(&home.section_dims)
            .enumerate()
            .rev()
            .map(|(k, (r, &adim))| {
                dist.and_then(|d| d.local_bounds(adim, &r.0, &r.2, &last(r)))
                    .map_or_else(
                        || do_statement(k + 1, r),
                        |(from, to)| format!("DO kc_j{} = {from}, {to}", k + 1),
                    )
            })
            .collect()
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
        if self.parameter(unit, name).is_some() {
            return Kind::Scalar;
        }
        let Some(v) = self.variable(unit, name) else {
            return Kind::Other;
        };
        if !super::owners::travels(&v.r#type) {
            return Kind::Other;
        }
        if v.rank == 0 {
            return Kind::Scalar;
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
