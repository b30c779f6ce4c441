//! `kaiseki spmd`: the program rewritten as SPMD Fortran + MPI under the
//! owner-computes rule (Li & Harada, seed 000). Every rank holds the
//! arrays at full size; the owner of an assigned element of a distributed
//! array executes the assignment (a guard; array assignments and
//! reductions element by element, `arrays.rs`), every other statement
//! runs on every rank. The plan is the relations of `rules/dl/comm.dl`:
//! which assignments their owner executes (`spmd_owner`, and the array
//! statements of `spmd_array`, with how what they read gets there,
//! `spmd_array_read`), the transfers of the remote reads, where and under
//! which condition (`spmd_send`, `spmd_share`), and what the owners
//! broadcast before a statement every rank runs (`spmd_broadcast`). Which
//! arrays the program distributes (`owners.rs`: numeric arrays of the
//! main program and subroutines with constant template bounds, dummies
//! every call passes alike) is decided here; the arrays left whole are
//! computed by every rank. Rank 0 does the I/O and broadcasts what it
//! READs; before a call the caller broadcasts the arrays its callee does
//! not compute alike.

mod arrays;
mod owners;
mod scalarize;
mod text;

use crate::{num, sym};
use kaiseki_facts::{FactBase, Param, Table, Var};
use kaiseki_frontend::InlinedLine;
use owners::{CallSite, Distributed};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use text::{Source, Subscripts};

/// The derived relations the program is built from.
pub const RELATIONS: &[&str] = &[
    "spmd_send",
    "spmd_share",
    "spmd_owner",
    "spmd_array",
    "spmd_array_read",
    "spmd_broadcast",
    "spmd_hoist",
    "owner_dim",
    "gen_ref",
];

const RUNTIME: &str = include_str!("runtime.f90");

/// What the user asked for.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// The number of ranks the program must run on; `None`: any.
    pub procs: Option<u32>,
    /// Leave out the transfers the analysis proves redundant.
    pub reuse: bool,
}

/// Lines to write before and after source lines (1-based), and the
/// labels to move off a line onto a `CONTINUE` before what is inserted.
#[derive(Default)]
struct Edits {
    before: BTreeMap<usize, Vec<String>>,
    after: BTreeMap<usize, Vec<String>>,
    relabel: BTreeMap<usize, i64>,
    /// Source lines written as comments (a statement rewritten).
    dropped: BTreeSet<usize>,
    /// The broadcasts made before a loop (`spmd_hoist`): (line, code),
    /// each once.
    hoisted: BTreeSet<(usize, String)>,
    /// Module declarations (the IF flags) and procedures (owners).
    declarations: BTreeSet<String>,
    procedures: Vec<String>,
    warnings: Vec<String>,
}

impl Edits {
    fn before(&mut self, line: usize, text: String) {
        self.before.entry(line).or_default().push(text);
    }
    fn after(&mut self, line: usize, text: String) {
        self.after.entry(line).or_default().push(text);
    }
}

/// One file of the program to write: its lines with its INCLUDEs inlined
/// (`kaiseki_frontend::inlined_lines`; statements read from an INCLUDEd
/// file are edited where they are inlined), its form and its name.
pub struct SpmdFile<'a> {
    pub lines: &'a [InlinedLine],
    pub fixed: bool,
    pub name: &'a str,
}

/// The files of one program written for MPI, in their order, and the
/// warnings to print. The run-time module (with the owner functions of
/// every file's arrays) is written into the first file, which compiles
/// first; calls are matched across the files.
pub fn generate(
    files: &[SpmdFile],
    groups: &[(FactBase, Vec<Table>)],
    opts: Options,
) -> Result<(Vec<String>, Vec<String>), String> {
    // A flattened derived-type component (`P%X(J, I)` for `P(I)%X(J)`,
    // frontend `derived`) is not the reference as written, which the
    // writer copies its subscripts from.
    let component = groups.iter().find_map(|(facts, _)| {
        let defs = facts.def.iter().map(|d| &d.var);
        defs.chain(facts.r#use.iter().map(|u| &u.var))
            .find(|v| v.contains('%'))
    });
    if let (Some(v), Some(f)) = (component, files.first()) {
        return Err(format!(
            "{}: error: kaiseki spmd does not write programs with derived-type components ({v})",
            f.name
        ));
    }
    let srcs: Vec<Source> = files
        .iter()
        .map(|f| Source::new(f.lines, f.fixed))
        .collect();
    let places = files
        .iter()
        .zip(&srcs)
        .map(|(f, src)| {
            groups
                .iter()
                .map(|(facts, _)| Places::new(facts, f.name, src))
                .collect::<Result<Vec<_>, _>>()
        })
        .collect::<Result<Vec<_>, _>>()?;
    let names: Vec<&str> = files.iter().map(|f| f.name).collect();
    let mut dist = Distributed::new(groups, &names);
    let sites: Vec<CallSite> = places
        .iter()
        .zip(&srcs)
        .flat_map(|(ps, src)| {
            groups
                .iter()
                .zip(ps)
                .flat_map(|((facts, _), p)| p.call_sites(facts, src))
        })
        .collect();
    dist.match_calls(&sites);
    let mut runtime = Edits::default();
    dist.declare(&mut runtime);
    let mut edited = Vec::with_capacity(files.len());
    for ((f, src), ps) in files.iter().zip(&srcs).zip(places) {
        let mut edits = Edits::default();
        for ((facts, derived), p) in groups.iter().zip(ps) {
            Group::new(facts, derived, f.name, src, opts, p, &dist).plan(&mut edits)?;
        }
        runtime.declarations.append(&mut edits.declarations);
        runtime.procedures.append(&mut edits.procedures);
        runtime.warnings.append(&mut edits.warnings);
        edited.push(edits);
    }
    let texts = srcs
        .iter()
        .zip(&edited)
        .enumerate()
        .map(|(k, (src, edits))| {
            let mut out = String::new();
            if k == 0 {
                write_runtime(&mut out, src, &runtime, opts);
            }
            src.render(&mut out, edits);
            out
        })
        .collect();
    Ok((texts, runtime.warnings))
}

/// Where the statements and references of a group of units stand in the
/// output (the file with its INCLUDEs inlined).
struct Places<'a> {
    /// Statement -> (unit, its first line in the output, kind).
    stmts: HashMap<i64, (&'a str, usize, &'a str)>,
    /// Reference -> its line in the output.
    ref_lines: HashMap<i64, usize>,
}

impl<'a> Places<'a> {
    fn new(facts: &'a FactBase, file: &str, src: &Source) -> Result<Places<'a>, String> {
        let units: HashSet<&str> = facts
            .unit
            .iter()
            .filter(|u| u.file == file)
            .map(|u| u.unit.as_str())
            .collect();
        let read_from: HashMap<i64, &str> = facts
            .stmt_file
            .iter()
            .map(|f| (f.stmt, f.file.as_str()))
            .collect();
        let mut stmts = HashMap::new();
        for s in facts
            .stmt
            .iter()
            .filter(|s| units.contains(s.unit.as_str()))
        {
            let from = read_from.get(&s.stmt).copied().unwrap_or(file);
            let line = match src.place(from, s.line as usize) {
                Some(line) => line,
                // Declarations need no code beside them.
                None if s.kind == "decl" || s.kind == "format" => 0,
                None => {
                    let text = std::fs::read_to_string(from).unwrap_or_default();
                    let code = text.lines().nth(s.line as usize - 1).unwrap_or("");
                    return Err(format!(
                        "{from}:{}:{}: error: a statement of a header the preprocessor included: kaiseki spmd writes one file and cannot edit it (INCLUDE it instead)\n  {}",
                        s.line, s.col, code.trim_end()
                    ));
                }
            };
            stmts.insert(s.stmt, (s.unit.as_str(), line, s.kind.as_str()));
        }
        let ref_stmts: HashMap<i64, i64> = facts
            .r#use
            .iter()
            .map(|u| (u.r#ref, u.stmt))
            .chain(facts.def.iter().map(|d| (d.r#ref, d.stmt)))
            .collect();
        let ref_lines = facts
            .ref_pos
            .iter()
            .filter_map(|p| {
                let s = ref_stmts.get(&p.r#ref)?;
                stmts.get(s)?;
                let from = read_from.get(s).copied().unwrap_or(file);
                Some((p.r#ref, src.place(from, p.line as usize)?))
            })
            .collect();
        Ok(Places { stmts, ref_lines })
    }

    /// The calls of the group's statements, with their actual arguments
    /// when they are CALL statements.
    fn call_sites(&self, facts: &FactBase, src: &Source) -> Vec<CallSite> {
        facts
            .call
            .iter()
            .filter_map(|c| {
                let &(unit, line, kind) = self.stmts.get(&c.stmt)?;
                Some(CallSite {
                    caller: unit.to_string(),
                    callee: c.callee.clone(),
                    args: (kind == "call").then(|| src.call_args(line)).flatten(),
                    place: src.describe(line),
                })
            })
            .collect()
    }
}

/// One group of program units and what its relations say.
struct Group<'a> {
    facts: &'a FactBase,
    derived: &'a [Table],
    src: &'a Source<'a>,
    opts: Options,
    units: HashMap<&'a str, &'a str>,
    /// Statement -> (unit, its first line in the output, kind).
    stmts: HashMap<i64, (&'a str, usize, &'a str)>,
    /// Reference -> its line in the output.
    ref_lines: HashMap<i64, usize>,
    dist: &'a Distributed,
    /// Owner-computes assignments: statement -> (assigned ref, array).
    owned: HashMap<i64, (i64, String)>,
    /// The plan's rows per statement, indexed once.
    by_stmt: HashMap<i64, StmtPlan<'a>>,
    /// The references of each statement, indexed once.
    refs: Refs<'a>,
}

/// What the emitter asks of the references of one statement, indexed once
/// for the group (scanning the facts at every statement cost the square
/// of a long unit).
struct Refs<'a> {
    /// Reference -> its variable (definitions and uses).
    var: HashMap<i64, &'a str>,
    /// Statement -> its uses, in id order.
    uses: HashMap<i64, Vec<i64>>,
    /// Statement -> the variables it defines.
    defs: HashMap<i64, Vec<&'a str>>,
    /// Element references (`array_ref`).
    elements: HashSet<i64>,
    /// Whole-array references (`whole_array_ref`).
    wholes: HashSet<i64>,
    /// Uses inside subscripts (`subscript_use`).
    in_subscripts: HashSet<i64>,
}

impl<'a> Refs<'a> {
    fn index(facts: &'a FactBase) -> Refs<'a> {
        let mut uses: HashMap<i64, Vec<i64>> = HashMap::new();
        for u in &facts.r#use {
            uses.entry(u.stmt).or_default().push(u.r#ref);
        }
        for refs in uses.values_mut() {
            refs.sort_unstable();
        }
        let mut defs: HashMap<i64, Vec<&str>> = HashMap::new();
        for d in &facts.def {
            defs.entry(d.stmt).or_default().push(&d.var);
        }
        let defined = facts.def.iter().map(|d| (d.r#ref, d.var.as_str()));
        let used = facts.r#use.iter().map(|u| (u.r#ref, u.var.as_str()));
        Refs {
            var: defined.chain(used).collect(),
            uses,
            defs,
            elements: facts.array_ref.iter().map(|a| a.r#ref).collect(),
            wholes: facts.whole_array_ref.iter().map(|a| a.r#ref).collect(),
            in_subscripts: facts.subscript_use.iter().map(|x| x.r#ref).collect(),
        }
    }

    /// The uses of statement `s`, in id order.
    fn uses_of(&self, s: i64) -> &[i64] {
        self.uses.get(&s).map_or(&[], |u| &u[..])
    }

    /// The variable of `r` when it is a use of statement `s`.
    fn used_by(&self, s: i64, r: i64) -> Option<&'a str> {
        self.uses_of(s).binary_search(&r).ok()?;
        self.var.get(&r).copied()
    }

    /// Whether statement `s` defines `name`.
    fn defines(&self, s: i64, name: &str) -> bool {
        self.defs.get(&s).is_some_and(|d| d.contains(&name))
    }
}

/// What the plan says of one statement.
#[derive(Default)]
struct StmtPlan<'a> {
    /// `spmd_broadcast`: the reads to broadcast first and their extent.
    broadcasts: Vec<(i64, &'a str)>,
    /// `spmd_array`: the home section and the operation.
    array: Option<(i64, &'a str)>,
    /// `spmd_array_read`: how each read gets to its owner.
    reads: HashMap<i64, &'a str>,
    /// `gen_ref`: the reads a planned transfer brings.
    planned: HashSet<i64>,
    /// `spmd_hoist`: the whole broadcasts made before a loop around the
    /// statement instead (read -> loop).
    hoists: HashMap<i64, i64>,
}

impl<'a> StmtPlan<'a> {
    fn index(derived: &'a [Table]) -> HashMap<i64, StmtPlan<'a>> {
        let mut by: HashMap<i64, StmtPlan<'a>> = HashMap::new();
        for r in rows(derived, "spmd_broadcast") {
            let e = by.entry(num(&r[0])).or_default();
            e.broadcasts.push((num(&r[1]), sym(&r[2])));
        }
        for r in rows(derived, "spmd_array") {
            by.entry(num(&r[0])).or_default().array = Some((num(&r[1]), sym(&r[2])));
        }
        for r in rows(derived, "spmd_array_read") {
            let e = by.entry(num(&r[0])).or_default();
            e.reads.insert(num(&r[1]), sym(&r[2]));
        }
        for r in rows(derived, "gen_ref") {
            by.entry(num(&r[0])).or_default().planned.insert(num(&r[1]));
        }
        for r in rows(derived, "spmd_hoist") {
            let e = by.entry(num(&r[0])).or_default();
            e.hoists.insert(num(&r[1]), num(&r[2]));
        }
        for p in by.values_mut() {
            p.broadcasts.sort();
        }
        by
    }
}

impl<'a> Group<'a> {
    fn new(
        facts: &'a FactBase,
        derived: &'a [Table],
        file: &str,
        src: &'a Source<'a>,
        opts: Options,
        places: Places<'a>,
        dist: &'a Distributed,
    ) -> Group<'a> {
        let units: HashMap<&str, &str> = facts
            .unit
            .iter()
            .filter(|u| u.file == file)
            .map(|u| (u.unit.as_str(), u.kind.as_str()))
            .collect();
        let Places { stmts, ref_lines } = places;
        let mut g = Group {
            facts,
            derived,
            src,
            opts,
            units,
            stmts,
            ref_lines,
            dist,
            owned: HashMap::new(),
            by_stmt: StmtPlan::index(derived),
            refs: Refs::index(facts),
        };
        g.owned = g.owner_computes();
        g
    }

    /// The assignments their owner executes alone (`spmd_owner`), of the
    /// arrays the program distributes, whose subscripts can be written.
    fn owner_computes(&self) -> HashMap<i64, (i64, String)> {
        rows(self.derived, "spmd_owner")
            .iter()
            .filter_map(|r| {
                let (s, x) = (num(&r[0]), num(&r[1]));
                let a = self.refs.var.get(&x)?.to_string();
                let ok = self.is_dist(s, &a) && self.subscripts(x).is_some();
                ok.then_some((s, (x, a)))
            })
            .collect()
    }

    fn unit_of(&self, s: i64) -> Option<&'a str> {
        self.stmts.get(&s).map(|x| x.0)
    }

    fn is_dist(&self, s: i64, array: &str) -> bool {
        self.unit_of(s)
            .is_some_and(|u| self.dist.get(u, array).is_some())
    }

    fn line(&self, s: i64) -> usize {
        self.stmts.get(&s).map_or(0, |x| x.1)
    }

    /// The subscripts of an array reference, as written.
    fn subscripts(&self, r: i64) -> Option<Subscripts> {
        let p = self.facts.ref_pos.iter().find(|p| p.r#ref == r)?;
        self.src
            .subscripts(*self.ref_lines.get(&r)?, p.col as usize)
    }

    /// `kc_own_U_A(i, j)`: the rank owning an element.
    fn owner_call(&self, s: i64, array: &str, subs: &[String]) -> String {
        let unit = self.unit_of(s).unwrap_or_default();
        format!(
            "{}({})",
            owners::function_name(unit, array),
            subs.join(", ")
        )
    }

    fn plan(&self, edits: &mut Edits) -> Result<(), String> {
        self.units_and_ends(edits);
        // The transfers come first: they run on every rank, before the
        // guard of an owner-computes assignment.
        self.transfers(edits)?;
        let mut ids: Vec<i64> = self.stmts.keys().copied().collect();
        ids.sort_by_key(|s| (self.line(*s), *s));
        for s in ids {
            self.statement(s, edits)?;
        }
        if self.opts.reuse {
            self.shares(edits);
        }
        Ok(())
    }

    /// `USE kaiseki_spmd` in every unit, MPI set up at the main program's
    /// first executable statement and closed before its END.
    fn units_and_ends(&self, edits: &mut Edits) {
        for u in &self.facts.unit {
            if !self.units.contains_key(u.unit.as_str()) {
                continue;
            }
            let line = self
                .src
                .place(&u.file, u.line as usize)
                .unwrap_or(u.line as usize);
            let last = self.src.statement_end(line);
            let header = self.src.code(line).to_ascii_uppercase();
            if ["PROGRAM", "SUBROUTINE", "FUNCTION"]
                .iter()
                .any(|w| header.contains(w))
            {
                edits.after(last, "USE kaiseki_spmd".into());
            } else {
                edits.before(line, "USE kaiseki_spmd".into());
            }
            if u.kind != "program" {
                continue;
            }
            if let Some(e) = self.facts.cfg_entry.iter().find(|e| e.unit == u.unit) {
                edits.before(self.line(e.stmt), "CALL kc_init()".into());
            }
        }
    }

    /// What one statement needs besides the planned transfers.
    fn statement(&self, s: i64, edits: &mut Edits) -> Result<(), String> {
        let Some(&(unit, line, kind)) = self.stmts.get(&s) else {
            return Ok(());
        };
        let last = self.src.statement_end(line);
        let io = self
            .facts
            .io
            .iter()
            .find(|i| i.stmt == s)
            .map(|i| i.kind.as_str());
        match kind {
            "decl" | "format" | "enddo" | "else" | "endif" | "continue" => return Ok(()),
            "end" => {
                if self.units.get(unit) == Some(&"program") {
                    edits.before(line, "CALL kc_finish()".into());
                }
                return Ok(());
            }
            "stop" => {
                self.relabel(s, line, edits)?;
                edits.before(line, "CALL kc_finish()".into());
                return Ok(());
            }
            _ => {}
        }
        if self.array_statement(s, edits)? {
            return Ok(());
        }
        if let Some((x, array)) = self.owned.get(&s) {
            let mut pre = self.whole_reads(s, Reads::Unplanned, &HashSet::new(), edits)?;
            let subs = self.subscripts(*x).unwrap_or_default();
            pre.push(format!(
                "IF (kc_me == {}) THEN",
                self.owner_call(s, array, &subs.dims)
            ));
            self.relabel(s, line, edits)?;
            for p in pre {
                edits.before(line, p);
            }
            edits.after(last, "END IF".into());
            return Ok(());
        }
        // Every rank runs it: the owners broadcast what it reads first.
        let passed = self.passed_whole(s, edits);
        let mut pre = self.whole_reads(s, Reads::All, &passed, edits)?;
        if self.calls(s) {
            pre.extend(self.dist.call_shares(unit, &passed));
        }
        let at = if kind == "elseif" { self.if_of(s) } else { s };
        if kind == "do_while" || self.is_while(s) {
            if let Some(e) = self.facts.loop_end.iter().find(|e| e.r#loop == s) {
                for p in &pre {
                    edits.before(self.line(e.stmt), p.clone());
                }
            }
        }
        let internal = io == Some("write") && self.writes_character(s);
        let rank0 = matches!(io, Some(k) if k != "read") && !internal;
        if rank0 || io == Some("read") {
            pre.push("IF (kc_me == 0) THEN".into());
        }
        if !pre.is_empty() {
            self.relabel(at, self.line(at), edits)?;
        }
        for p in pre {
            edits.before(self.line(at), p);
        }
        if rank0 {
            edits.after(last, "END IF".into());
        }
        if io == Some("read") {
            edits.after(last, "END IF".into());
            for b in self.read_broadcasts(s) {
                edits.after(last, b);
            }
        }
        Ok(())
    }

    fn is_while(&self, s: i64) -> bool {
        self.facts
            .r#loop
            .iter()
            .any(|l| l.r#loop == s && l.kind == "do_while")
    }

    fn calls(&self, s: i64) -> bool {
        self.facts.call.iter().any(|c| c.stmt == s)
    }

    fn writes_character(&self, s: i64) -> bool {
        let unit = self.unit_of(s).unwrap_or_default();
        self.facts.def.iter().any(|d| {
            d.stmt == s
                && self
                    .facts
                    .var
                    .iter()
                    .any(|v| v.unit == unit && v.var == d.var && v.r#type == "character")
        })
    }

    /// The block IF an ELSE IF belongs to: its conditions are evaluated
    /// with nothing run in between, so what they read is sent before it.
    fn if_of(&self, s: i64) -> i64 {
        self.unit_order(s)
            .into_iter()
            .rev()
            .filter(|id| (self.line(*id), *id) <= (self.line(s), s))
            .find(|id| self.chain(*id).contains(&s))
            .unwrap_or(s)
    }

    /// The statements of `s`'s unit in source order.
    fn unit_order(&self, s: i64) -> Vec<i64> {
        let unit = self.unit_of(s);
        let mut ids: Vec<i64> = self
            .stmts
            .iter()
            .filter(|(_, v)| Some(v.0) == unit)
            .map(|(id, _)| *id)
            .collect();
        ids.sort_by_key(|id| (self.line(*id), *id));
        ids
    }

    /// The branches of the block IF `head`: itself, then its ELSE IFs
    /// and its ELSE in order (empty when `head` is not a block IF).
    fn chain(&self, head: i64) -> Vec<i64> {
        if self.stmts.get(&head).map(|x| x.2) != Some("if") {
            return Vec::new();
        }
        let mut out = vec![head];
        let mut depth = 0;
        let after = self
            .unit_order(head)
            .into_iter()
            .skip_while(|id| *id != head)
            .skip(1);
        for id in after {
            match (self.stmts[&id].2, depth) {
                ("if", _) => depth += 1,
                ("endif", 0) => break,
                ("endif", _) => depth -= 1,
                ("elseif" | "else", 0) => out.push(id),
                _ => {}
            }
        }
        out
    }

    /// The distributed arrays a CALL statement passes whole to dummy
    /// arguments its callee distributes alike (`Distributed::match_calls`):
    /// the callee computes them under the owner-computes rule, nothing is
    /// broadcast. One passed whole to another dummy is broadcast whole.
    fn passed_whole(&self, s: i64, edits: &mut Edits) -> HashSet<String> {
        let mut passed = HashSet::new();
        let calls: Vec<_> = self.facts.call.iter().filter(|c| c.stmt == s).collect();
        let (Some(&(unit, line, "call")), [call]) = (self.stmts.get(&s), &calls[..]) else {
            return passed;
        };
        let mut whole = BTreeSet::new();
        for (k, a) in self
            .src
            .call_args(line)
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            let name = a.to_ascii_uppercase();
            if self.dist.get(unit, &name).is_none() {
                continue;
            }
            if self.dist.dummy(&call.callee, k + 1).is_some() {
                passed.insert(name);
            } else {
                whole.insert(name);
            }
        }
        for name in whole {
            passed.remove(&name);
            edits.warnings.push(format!(
                "{}: CALL {}: {name} is broadcast whole before the call ({} does not distribute that dummy argument as {unit} distributes {name})",
                self.src.describe(line),
                call.callee,
                call.callee
            ));
        }
        passed
    }

    /// Broadcasts of the distributed elements statement `s` reads
    /// (`spmd_broadcast`, of the arrays the program distributes): all of
    /// them for a statement every rank runs, those no planned transfer
    /// covers for an owner-computes assignment; not the whole arrays in
    /// `passed` (a call's callee computes them). Those `spmd_hoist` moves
    /// go before their loop (once), the others are returned.
    fn whole_reads(
        &self,
        s: i64,
        which: Reads,
        passed: &HashSet<String>,
        edits: &mut Edits,
    ) -> Result<Vec<String>, String> {
        let unit = self.unit_of(s).unwrap_or_default();
        let plan = self.by_stmt.get(&s);
        let reads = plan.map_or(&[][..], |p| &p.broadcasts[..]);
        let mut out: Vec<String> = Vec::new();
        for &(r, extent) in reads {
            let Some(array) = self.refs.used_by(s, r) else {
                continue;
            };
            let Some(d) = self.dist.get(unit, array) else {
                continue;
            };
            if which == Reads::Unplanned && plan.is_some_and(|p| p.planned.contains(&r)) {
                continue;
            }
            if !self.refs.elements.contains(&r) && passed.contains(array) {
                continue;
            }
            let code = if extent == "whole" {
                d.share(&d.whole())
            } else {
                d.share(&self.section(s, r, &d.whole()))
            };
            if let Some(&l) = plan.and_then(|p| p.hoists.get(&r)) {
                let line = self.line(l);
                if edits.hoisted.insert((line, code.clone())) {
                    self.relabel(l, line, edits)?;
                    edits.before(line, code);
                }
            } else if !out.contains(&code) {
                out.push(code);
            }
        }
        Ok(out)
    }

    /// What reference `r` of statement `s` reads, per dimension: its
    /// element (`A(I+1, J)`), the triplet of a section (`A(2:N-1, J)`), or
    /// all of the dimension (`whole`) for a whole array, for a subscript
    /// that might not be one scalar (`A(V, 1)`, a vector subscript) and
    /// for one that names a variable the statement defines (`(A(I), I =
    /// 1, N)`: the broadcast before it cannot evaluate it).
    fn section(&self, s: i64, r: i64, whole: &[text::Range]) -> Vec<text::Range> {
        let dims = self.subscripts(r).map(|s| s.dims).unwrap_or_default();
        if dims.len() != whole.len() {
            return whole.to_vec();
        }
        let name = |name: &str| self.subscript_name(s, name);
        dims.iter()
            .zip(whole)
            .map(|(dim, w)| text::triplet(dim, w, &name).unwrap_or_else(|| w.clone()))
            .collect()
    }

    /// What a name in a subscript of statement `s` is, for
    /// `text::triplet`: a variable the statement defines is `Other` (code
    /// before the statement cannot evaluate it).
    fn subscript_name(&self, s: i64, name: &str) -> text::Name {
        let unit = self.unit_of(s).unwrap_or_default();
        if self.refs.defines(s, name) {
            return text::Name::Other;
        }
        if self.parameter(unit, name).is_some() {
            return text::Name::Scalar;
        }
        match self.variable(unit, name) {
            Some(v) if v.rank > 0 => text::Name::Array,
            Some(v) if v.r#type == "integer" => text::Name::Scalar,
            _ => text::Name::Other,
        }
    }

    /// The PARAMETER `name` of `unit`.
    fn parameter(&self, unit: &str, name: &str) -> Option<&'a Param> {
        self.facts
            .param
            .iter()
            .find(|p| p.unit == unit && p.name == name)
    }

    /// The variable `name` of `unit`.
    fn variable(&self, unit: &str, name: &str) -> Option<&'a Var> {
        self.facts
            .var
            .iter()
            .find(|v| v.unit == unit && v.var == name)
    }

    /// After rank 0 read them, every variable a READ sets goes to all.
    fn read_broadcasts(&self, s: i64) -> Vec<String> {
        let unit = self.unit_of(s).unwrap_or_default();
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        let mut defs: Vec<_> = self.facts.def.iter().filter(|d| d.stmt == s).collect();
        defs.sort_by_key(|d| d.r#ref);
        for d in defs {
            if !seen.insert(d.var.as_str()) {
                continue;
            }
            let Some(v) = self
                .facts
                .var
                .iter()
                .find(|v| v.unit == unit && v.var == d.var)
            else {
                continue;
            };
            let mpi = match v.r#type.as_str() {
                "integer" => "MPI_INTEGER",
                "real" => "MPI_REAL",
                "double" => "MPI_DOUBLE_PRECISION",
                "complex" => "MPI_COMPLEX",
                "logical" => "MPI_LOGICAL",
                _ => "MPI_CHARACTER",
            };
            let mut n = if v.rank > 0 {
                format!("SIZE({})", v.var)
            } else {
                "1".into()
            };
            if mpi == "MPI_CHARACTER" {
                n = format!("{n} * LEN({})", v.var);
            }
            out.push(format!(
                "CALL MPI_Bcast({}, {n}, {mpi}, 0, MPI_COMM_WORLD, kc_err)",
                v.var
            ));
            out.push(format!("CALL kc_counted({n}, {mpi})"));
        }
        out
    }

    /// A labelled statement gets code before it: the label moves to a
    /// CONTINUE first, so that a jump to it runs that code too. A DO loop
    /// ending on the statement cannot be split that way.
    fn relabel(&self, s: i64, line: usize, edits: &mut Edits) -> Result<(), String> {
        let Some(l) = self.facts.stmt_label.iter().find(|l| l.stmt == s) else {
            return Ok(());
        };
        if self.ends_do(line) {
            return Err(self.src.error(line, &format!(
                "a DO loop ends on labelled statement {} that needs communication or a guard: not supported (end the loop on a CONTINUE)",
                l.label
            )));
        }
        edits.relabel.insert(line, l.label);
        Ok(())
    }

    /// Whether a labelled DO loop ends on the statement at `line`.
    fn ends_do(&self, line: usize) -> bool {
        self.facts.loop_end.iter().any(|e| {
            self.line(e.stmt) == line
                && self
                    .facts
                    .stmt
                    .iter()
                    .any(|x| x.stmt == e.stmt && x.col == 0)
        })
    }

    /// The point-to-point transfers of `spmd_send`, vectorized over the
    /// loops between `at` and the read.
    fn transfers(&self, edits: &mut Edits) -> Result<(), String> {
        let variant = if self.opts.reuse { "reuse" } else { "all" };
        let mut sends: Vec<(i64, i64, String)> = rows(self.derived, "spmd_send")
            .iter()
            .filter(|r| sym(&r[0]) == variant)
            .map(|r| (num(&r[1]), num(&r[2]), sym(&r[3]).to_string()))
            .collect();
        sends.sort();
        let gen: HashMap<i64, i64> = rows(self.derived, "gen_ref")
            .iter()
            .map(|r| (num(&r[1]), num(&r[0])))
            .collect();
        for (r, at, unless) in sends {
            let Some(&s) = gen.get(&r) else { continue };
            let Some((x, lhs_array)) = self.owned.get(&s) else {
                continue;
            };
            let unit = self.unit_of(s).unwrap_or_default();
            let Some(array) = self
                .facts
                .r#use
                .iter()
                .find(|u| u.r#ref == r)
                .map(|u| &u.var)
            else {
                continue;
            };
            let Some(d) = self.dist.get(unit, array) else {
                continue;
            };
            let (Some(read), Some(lhs)) = (self.subscripts(r), self.subscripts(*x)) else {
                return Err(self.src.error(
                    self.line(s),
                    &format!("cannot read the subscripts of {array}"),
                ));
            };
            let q = self.owner_call(s, array, &read.dims);
            let p = self.owner_call(s, lhs_array, &lhs.dims);
            let element = format!("{array}({})", read.dims.join(", "));
            let loops = self.replay_loops(s, at);
            let mut code = exchange(&loops, (&q, &p), &element, d);
            if let Some(c) = self.condition_flag(&unless, edits)? {
                code.insert(0, format!("IF ({c}) THEN"));
                code.push("END IF".into());
            }
            edits.before(
                self.line(at),
                format!(
                    "! kaiseki-spmd: {element} at {}",
                    self.src.describe(self.line(s))
                ),
            );
            self.relabel(at, self.line(at), edits)?;
            for c in code {
                edits.before(self.line(at), c);
            }
        }
        Ok(())
    }

    /// The DO statements to run again before `at` to list what the read
    /// of statement `s` needs: the loops around `s` from `at` inwards.
    fn replay_loops(&self, s: i64, at: i64) -> Vec<String> {
        let mut loops: Vec<(i64, String)> = self
            .facts
            .loop_stmt
            .iter()
            .filter(|l| l.stmt == s)
            .filter(|l| {
                l.r#loop == at
                    || self
                        .facts
                        .loop_stmt
                        .iter()
                        .any(|m| m.r#loop == at && m.stmt == l.r#loop)
            })
            .filter_map(|l| {
                let info = self.facts.r#loop.iter().find(|x| x.r#loop == l.r#loop)?;
                let b = self
                    .facts
                    .loop_bounds
                    .iter()
                    .find(|b| b.r#loop == l.r#loop)?;
                Some((
                    info.depth,
                    format!("DO {} = {}, {}, {}", info.var, b.lower, b.upper, b.step),
                ))
            })
            .collect();
        loops.sort();
        loops.into_iter().map(|(_, d)| d).collect()
    }

    /// The condition under which a conditional transfer is made: the
    /// branch `unless` names (`31+`: the IF or ELSE IF at statement 31
    /// held; `31-`: it was tested and did not) was not taken. The flag
    /// `kc_bH` of the block IF H says which branch of H's chain ran: set
    /// to 0 before H, to the output line of the IF, ELSE IF or ELSE that
    /// starts a branch at its start (-1: H never reached). Branches come
    /// in line order, so the condition of branch b was tested and false
    /// when no branch ran or a later one did.
    fn condition_flag(&self, unless: &str, edits: &mut Edits) -> Result<Option<String>, String> {
        let Some(sign) = unless.chars().last() else {
            return Ok(None);
        };
        let Ok(b) = unless[..unless.len() - 1].parse::<i64>() else {
            return Ok(None);
        };
        let head = self.if_of(b);
        let branches = self.chain(head);
        if !branches.contains(&b) {
            return Ok(None);
        }
        let flag = format!("kc_b{head}");
        if edits.declarations.insert(format!("INTEGER :: {flag} = -1")) {
            let line = self.line(head);
            self.relabel(head, line, edits)?;
            edits.before(line, format!("{flag} = 0"));
            for k in branches {
                let start = self.src.statement_end(self.line(k));
                edits.after(start, format!("{flag} = {}", self.line(k)));
            }
        }
        let at = self.line(b);
        Ok(Some(match sign {
            '+' => format!("{flag} /= {at}"),
            _ => format!("{flag} /= 0 .AND. {flag} <= {at}"),
        }))
    }

    /// The partial-redundancy transfers of `spmd_share`: the owners
    /// broadcast the section at the exit of the statement (or loop).
    fn shares(&self, edits: &mut Edits) {
        for r in rows(self.derived, "spmd_share") {
            let (k, section) = (num(&r[0]), sym(&r[1]));
            let Some(unit) = self.unit_of(k) else {
                continue;
            };
            let Some((array, dims)) = text::parse_section(section) else {
                edits
                    .warnings
                    .push(format!("cannot read section {section}: not sent"));
                continue;
            };
            let Some(d) = self.dist.get(unit, &array) else {
                continue;
            };
            let whole = d.whole();
            let ranges: Vec<(String, String, String)> = dims
                .into_iter()
                .zip(whole)
                .map(|(dim, w)| dim.unwrap_or(w))
                .collect();
            let exit = self
                .facts
                .loop_end
                .iter()
                .find(|e| e.r#loop == k)
                .map_or(k, |e| e.stmt);
            let last = self.src.statement_end(self.line(exit));
            edits.after(last, format!("! kaiseki-spmd: {section} invalidated here"));
            edits.after(last, d.share(&ranges));
        }
    }
}

/// Which reads of a statement the owners broadcast before it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reads {
    /// Each read (a statement every rank runs).
    All,
    /// Those no `spmd_send` plans (an owner-computes assignment).
    Unplanned,
}

/// A derived relation's rows (none when it was not derived).
fn rows<'t>(derived: &'t [Table], name: &str) -> &'t [Vec<kaiseki_facts::Value>] {
    derived
        .iter()
        .find(|t| t.name == name)
        .map_or(&[][..], |t| &t.rows[..])
}

/// Point to point over `loops`: the owner `q` of `element` (of array
/// `d`) sends it to the rank `p` that reads it (one message per pair of
/// ranks).
fn exchange(
    loops: &[String],
    (q, p): (&str, &str),
    element: &str,
    d: &owners::ArrayDist,
) -> Vec<String> {
    let mut code = vec!["CALL kc_start()".to_string()];
    code.extend(wrap_loops(
        loops,
        &[format!("CALL kc_list({q}, {p}, {})", d.sent(element))],
    ));
    code.push("CALL kc_exchange()".into());
    code.extend(wrap_loops(
        loops,
        &[format!("IF (kc_take({q}, {p})) {}", d.received(element))],
    ));
    code
}

/// `body` inside the DO loops.
fn wrap_loops(loops: &[String], body: &[String]) -> Vec<String> {
    let mut out: Vec<String> = loops.to_vec();
    out.extend(body.iter().cloned());
    out.extend(loops.iter().map(|_| "END DO".to_string()));
    out
}

/// The run-time module, in the form of `src`, with the declarations and
/// owner procedures of `runtime`.
fn write_runtime(out: &mut String, src: &Source, runtime: &Edits, opts: Options) {
    let procs = opts.procs.map_or(String::new(), |p| {
        format!(
            "IF (kc_np /= {p}) THEN\nIF (kc_me == 0) WRITE (error_unit, '(A)') 'kaiseki-spmd: written for {p} ranks'\nCALL MPI_Abort(MPI_COMM_WORLD, 1, kc_err)\nEND IF"
        )
    });
    let mut pending = String::new();
    for line in RUNTIME.lines() {
        // A line ending in `&` is joined to the next: `emit` continues it
        // the way the form wants.
        if let Some(head) = line.trim().strip_suffix('&') {
            pending.push_str(head);
            continue;
        }
        let joined = std::mem::take(&mut pending) + line.trim();
        let t = joined.as_str();
        let expanded = match t {
            "!KC-DECLARATIONS" => runtime
                .declarations
                .iter()
                .cloned()
                .collect::<Vec<_>>()
                .join("\n"),
            "!KC-PROCS" => procs.clone(),
            "!KC-OWNERS" => runtime.procedures.join("\n"),
            _ => t.to_string(),
        };
        for l in expanded.lines() {
            src.emit(out, l);
        }
    }
}
