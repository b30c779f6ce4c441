//! Which rank owns each element of a distributed array: `owner_dim`
//! (comm.dl: the end of the ALIGN chain) with the template's bounds and
//! DISTRIBUTE formats, written as one Fortran function per array. The
//! processor grid is chosen at run time from the number of ranks (the
//! PROCESSORS shape when it has that many).

use super::Edits;
use crate::{num, sym};
use kaiseki_facts::{FactBase, Table, Value};
use std::collections::{BTreeMap, HashMap, HashSet};

/// The arrays the generated code distributes: those of the main program
/// and of its subroutines (a dummy argument only when every call passes
/// it an array distributed the same way).
pub(super) struct Distributed {
    arrays: BTreeMap<(String, String), ArrayDist>,
    /// The dummy arguments of subroutines: (unit, position) -> name.
    dummies: BTreeMap<(String, usize), String>,
    warnings: Vec<String>,
}

/// One distributed array: its declared bounds and owner function.
pub(super) struct ArrayDist {
    name: String,
    function: String,
    bounds: Vec<(String, String)>,
    body: String,
    /// The owner function's body without its name: two arrays of the same
    /// bounds and mapping have each element on the same rank.
    mapping: String,
    /// The array dimensions aligned with a BLOCK dimension of the grid.
    blocks: Vec<BlockDim>,
    /// The PROCESSORS shape the grid takes when the ranks fit it (0s: any).
    given: Vec<i64>,
    /// LOGICAL elements: they travel as 1.0 and 0.0 in the runtime's
    /// double-precision buffers.
    logical: bool,
}

/// Array dimension `adim` (1-based) sits at `coeff * i + offset` of a
/// template dimension of `lo:hi` distributed BLOCK (`k` as `kc_coord`
/// takes it) along coordinate `coord` (1-based) of the grid.
struct BlockDim {
    adim: i64,
    coeff: i64,
    offset: i64,
    lo: i64,
    hi: i64,
    k: i64,
    coord: usize,
}

/// A call of a subroutine: the actual arguments as written (`None`: not
/// a CALL statement, a function reference), and where it is (`line 12`).
pub(super) struct CallSite {
    pub caller: String,
    pub callee: String,
    pub args: Option<Vec<String>>,
    pub place: String,
}

/// `kc_own_cke_a`.
pub(super) fn function_name(unit: &str, array: &str) -> String {
    format!(
        "kc_own_{}_{}",
        unit.to_ascii_lowercase(),
        array.to_ascii_lowercase()
    )
}

impl Distributed {
    /// The arrays of the units of `files` that `owner_dim` maps.
    pub(super) fn new(groups: &[(FactBase, Vec<Table>)], files: &[&str]) -> Distributed {
        let mut d = Distributed {
            arrays: BTreeMap::new(),
            dummies: BTreeMap::new(),
            warnings: Vec::new(),
        };
        // Procedures of one name (internal ones of two hosts) would share
        // owner functions: their arrays are left whole.
        let mut named: BTreeMap<&str, usize> = BTreeMap::new();
        for u in groups.iter().flat_map(|(facts, _)| &facts.unit) {
            *named.entry(u.unit.as_str()).or_default() += 1;
        }
        for (unit, _) in named.iter().filter(|(_, n)| **n > 1) {
            d.warnings.push(format!(
                "{unit}: several procedures have this name: their arrays are not distributed in the MPI program (every rank computes all of them)"
            ));
        }
        for (facts, derived) in groups {
            let kinds: HashMap<&str, &str> = facts
                .unit
                .iter()
                .filter(|u| files.contains(&u.file.as_str()) && named[u.unit.as_str()] == 1)
                .filter(|u| matches!(u.kind.as_str(), "program" | "subroutine"))
                .map(|u| (u.unit.as_str(), u.kind.as_str()))
                .collect();
            d.dummies.extend(
                facts
                    .dummy_arg
                    .iter()
                    .filter(|a| kinds.contains_key(a.unit.as_str()))
                    .map(|a| ((a.unit.clone(), a.pos as usize), a.var.clone())),
            );
            let mut by_array: BTreeMap<(String, String), Vec<&Vec<Value>>> = BTreeMap::new();
            for r in super::rows(derived, "owner_dim") {
                if kinds.contains_key(sym(&r[0])) {
                    by_array
                        .entry((sym(&r[0]).to_string(), sym(&r[1]).to_string()))
                        .or_default()
                        .push(r);
                }
            }
            for ((unit, array), dims) in by_array {
                match array_dist(facts, &unit, &array, &dims) {
                    Ok(a) => {
                        d.arrays.insert((unit, array), a);
                    }
                    Err(why) => d.warnings.push(format!(
                        "{unit}: {array} is not distributed in the MPI program ({why}): every rank computes all of it"
                    )),
                }
            }
        }
        d
    }

    /// Keeps a distributed dummy argument only when every call passes it a
    /// whole array of the caller distributed the same way: the subroutine
    /// then computes it under the owner-computes rule as the caller does.
    /// Otherwise every rank computes all of it, on whole copies the caller
    /// broadcasts before the call. Until nothing changes: a dummy left
    /// whole may be what its subroutine passes on.
    pub(super) fn match_calls(&mut self, sites: &[CallSite]) {
        while self.unmatch_once(sites) {}
    }

    /// One round of `match_calls`: whether a dummy argument was left whole.
    fn unmatch_once(&mut self, sites: &[CallSite]) -> bool {
        let mut unmatched = Vec::new();
        for ((unit, pos), dummy) in &self.dummies {
            let key = (unit.clone(), dummy.clone());
            let Some(d) = self.arrays.get(&key) else {
                continue;
            };
            for site in sites.iter().filter(|c| &c.callee == unit) {
                let actual = site.args.as_ref().and_then(|a| a.get(pos - 1));
                let same = actual
                    .and_then(|a| self.get(&site.caller, &a.to_ascii_uppercase()))
                    .is_some_and(|a| a.same_owners(d));
                if !same {
                    self.warnings.push(format!(
                        "{}: {} passes {dummy} of {unit} what {unit} does not distribute alike: every rank computes {dummy} in {unit} (the caller broadcasts its arrays first)",
                        site.place, site.caller
                    ));
                    unmatched.push(key);
                    break;
                }
            }
        }
        let changed = !unmatched.is_empty();
        for key in unmatched {
            self.arrays.remove(&key);
        }
        changed
    }

    pub(super) fn get(&self, unit: &str, array: &str) -> Option<&ArrayDist> {
        self.arrays.get(&(unit.to_string(), array.to_string()))
    }

    /// The distributed dummy argument at `pos` of subroutine `unit`.
    pub(super) fn dummy(&self, unit: &str, pos: usize) -> Option<&ArrayDist> {
        let name = self.dummies.get(&(unit.to_string(), pos))?;
        self.get(unit, name)
    }

    /// The owner functions and the warnings of the arrays left whole.
    pub(super) fn declare(&self, edits: &mut Edits) {
        edits
            .procedures
            .extend(self.arrays.values().map(|a| a.body.clone()));
        edits.warnings.extend(self.warnings.iter().cloned());
    }

    /// Broadcasts of the distributed arrays of the unit before a call,
    /// but those in `passed` (their callee computes them as the caller).
    pub(super) fn call_shares(&self, unit: &str, passed: &HashSet<String>) -> Vec<String> {
        self.arrays
            .iter()
            .filter(|((u, a), _)| u == unit && !passed.contains(a))
            .map(|(_, a)| a.share(&a.whole()))
            .collect()
    }
}

impl ArrayDist {
    /// Whether each element of both arrays is on the same rank (the same
    /// bounds and owner function).
    pub(super) fn same_owners(&self, other: &ArrayDist) -> bool {
        self.mapping == other.mapping && self.bounds == other.bounds
    }

    /// The declared extent of every dimension, as `lo:hi:1`.
    /// DO bounds over a section dimension along array dimension `adim`
    /// (1-based) whose elements are `first + j * stride`, j in 0:`last`:
    /// the j whose elements lie at this rank's coordinate of a BLOCK
    /// dimension (`kc_edge`, a search at run time), a superset of those
    /// the rank owns; `None` for a dimension of another kind.
    pub(super) fn local_bounds(
        &self,
        adim: usize,
        first: &str,
        stride: &str,
        last: &str,
    ) -> Option<(String, String)> {
        let b = self.blocks.iter().find(|b| b.adim == adim as i64)?;
        let given: Vec<String> = self.given.iter().map(|g| g.to_string()).collect();
        let edge = |end: &str| {
            format!(
                "kc_edge({c} * ({first}) + {o}, {c} * ({stride}), {last}, {lo}, {hi}, {n}, (/{g}/), {d}, {k}, .{end}.)",
                c = b.coeff,
                o = b.offset,
                lo = b.lo,
                hi = b.hi,
                n = given.len(),
                g = given.join(", "),
                d = b.coord,
                k = b.k,
            )
        };
        Some((edge("TRUE"), edge("FALSE")))
    }

    pub(super) fn whole(&self) -> Vec<(String, String, String)> {
        self.bounds
            .iter()
            .map(|(l, h)| (l.clone(), h.clone(), "1".into()))
            .collect()
    }

    /// The owners of the elements of the section broadcast them to every
    /// rank: one message per owner.
    pub(super) fn share(&self, ranges: &[(String, String, String)]) -> String {
        let vars: Vec<String> = (1..=ranges.len()).map(|k| format!("kc_i{k}")).collect();
        let element = format!("{}({})", self.name, vars.join(", "));
        let owner = format!("{}({})", self.function, vars.join(", "));
        let loops: Vec<String> = ranges
            .iter()
            .zip(&vars)
            .rev()
            .map(|((l, h, s), v)| format!("DO {v} = {l}, {h}, {s}"))
            .collect();
        let mut code = vec!["CALL kc_start()".to_string()];
        code.extend(super::wrap_loops(
            &loops,
            &[format!("CALL kc_put({owner}, {})", self.sent(&element))],
        ));
        code.push("CALL kc_share()".into());
        code.extend(super::wrap_loops(
            &loops,
            &[format!("IF (kc_got({owner})) {}", self.received(&element))],
        ));
        code.join("\n")
    }

    /// `element` as the runtime's buffers carry it (double precision).
    pub(super) fn sent(&self, element: &str) -> String {
        if self.logical {
            format!("MERGE(1D0, 0D0, {element})")
        } else {
            format!("DBLE({element})")
        }
    }

    /// The assignment of the value received (`kc_v`) to `element`.
    pub(super) fn received(&self, element: &str) -> String {
        if self.logical {
            format!("{element} = kc_v /= 0D0")
        } else {
            format!("{element} = kc_v")
        }
    }
}

/// Whether elements of type `ty` travel in the runtime's double-precision
/// buffers (see [`ArrayDist::sent`]): the types an array the program
/// distributes, or an array statement computes element by element, may have.
pub(super) fn travels(ty: &str) -> bool {
    matches!(ty, "integer" | "real" | "double" | "logical")
}

/// The distribution of one array, or why the generated code keeps it whole.
fn array_dist(
    facts: &FactBase,
    unit: &str,
    array: &str,
    dims: &[&Vec<Value>],
) -> Result<ArrayDist, String> {
    let var = facts
        .var
        .iter()
        .find(|v| v.unit == unit && v.var == array)
        .ok_or("not a variable")?;
    if !travels(&var.r#type) {
        return Err(format!("{} elements", var.r#type));
    }
    if facts
        .storage
        .iter()
        .any(|s| s.unit == unit && s.var == array)
        || facts
            .equivalence
            .iter()
            .any(|e| e.unit == unit && e.var == array)
    {
        return Err("it shares storage".into());
    }
    let mut bounds: Vec<(i64, String, String)> = facts
        .array_dim
        .iter()
        .filter(|d| d.unit == unit && d.array == array)
        .map(|d| (d.dim, d.lower.clone(), d.upper.clone()))
        .collect();
    bounds.sort();
    if bounds.is_empty() || bounds.len() > 7 || bounds.iter().any(|b| b.2 == "*") {
        return Err("its shape".into());
    }
    let template = sym(&dims[0][2]).to_string();
    let mut per_tdim: BTreeMap<i64, &Vec<Value>> = BTreeMap::new();
    for d in dims {
        if sym(&d[4]) == "replicated" {
            return Err("a replicated alignment".into());
        }
        per_tdim.insert(num(&d[3]), d);
    }
    let mut coords: Vec<String> = Vec::new();
    let mut blocks: Vec<BlockDim> = Vec::new();
    let mut given: Vec<i64> = Vec::new();
    let mut onto = String::new();
    for (tdim, d) in &per_tdim {
        let Some(dist) = facts
            .hpf_distribute
            .iter()
            .find(|x| x.unit == unit && x.template == template && x.dim == *tdim)
        else {
            continue;
        };
        let k = match dist.format.as_str() {
            "block" => dist.k,
            "cyclic" => -dist.k.max(1),
            _ => continue,
        };
        let (lo, hi) = template_bounds(facts, unit, &template, *tdim)
            .ok_or("the template's bounds are not constants")?;
        let t = match sym(&d[4]) {
            "axis" => format!("{} * i{} + {}", num(&d[6]), num(&d[5]), num(&d[7])),
            _ => num(&d[7]).to_string(),
        };
        let e = coords.len() + 1;
        coords.push(format!("kc_coord({t}, {lo}, {hi}, e({e}), {k})"));
        if k >= 0 && sym(&d[4]) == "axis" {
            blocks.push(BlockDim {
                adim: num(&d[5]),
                coeff: num(&d[6]),
                offset: num(&d[7]),
                lo,
                hi,
                k,
                coord: e,
            });
        }
        onto.clone_from(&dist.onto);
        given.push(0);
    }
    if !onto.is_empty() {
        let mut shape: Vec<(i64, i64)> = facts
            .hpf_processors
            .iter()
            .filter(|p| p.unit == unit && p.name == onto)
            .map(|p| (p.dim, p.extent))
            .collect();
        shape.sort();
        if shape.len() == given.len() && shape.iter().all(|s| s.1 > 0) {
            given = shape.iter().map(|s| s.1).collect();
        }
    }
    let function = function_name(unit, array);
    let args: Vec<String> = (1..=bounds.len()).map(|k| format!("i{k}")).collect();
    let mut body = vec![
        format!("INTEGER FUNCTION {function}({})", args.join(", ")),
        format!("INTEGER, INTENT(IN) :: {}", args.join(", ")),
    ];
    if coords.is_empty() {
        body.push(format!("{function} = 0"));
    } else {
        let n = coords.len();
        let shape: Vec<String> = given.iter().map(|g| g.to_string()).collect();
        body.push(format!("INTEGER, SAVE :: e({n}) = 0"));
        body.push(format!(
            "IF (e(1) == 0) CALL kc_grid({n}, (/{}/), e)",
            shape.join(", ")
        ));
        let mut rank = coords[n - 1].clone();
        for k in (0..n - 1).rev() {
            rank = format!("{} + e({}) * ({rank})", coords[k], k + 1);
        }
        body.push(format!("{function} = {rank}"));
    }
    let mapping = body[2..].join("\n").replace(&function, "kc_own");
    body.push(format!("END FUNCTION {function}"));
    Ok(ArrayDist {
        name: array.to_string(),
        function,
        bounds: bounds.into_iter().map(|b| (b.1, b.2)).collect(),
        body: body.join("\n"),
        mapping,
        blocks,
        given,
        logical: var.r#type == "logical",
    })
}

/// The index range of a template dimension (a template, or an array
/// distributed itself).
fn template_bounds(facts: &FactBase, unit: &str, template: &str, dim: i64) -> Option<(i64, i64)> {
    if let Some(t) = facts
        .hpf_template
        .iter()
        .find(|t| t.unit == unit && t.name == template && t.dim == dim)
    {
        return Some((t.lower, t.upper));
    }
    let d = facts
        .array_dim
        .iter()
        .find(|d| d.unit == unit && d.array == template && d.dim == dim)?;
    Some((d.lower.trim().parse().ok()?, d.upper.trim().parse().ok()?))
}
