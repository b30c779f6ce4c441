//! Soundness of the dependence graph against real runs: every dependence
//! the judge sees in a trace (flow, anti, output, input between two
//! accesses of one memory cell, with its distance in every common loop)
//! must be covered by a row of `kaiseki deps --format csv --loop-vars`
//! (every row, those of the DO loops' own indices too) with the same
//! kind, variable, source and sink positions and the same common loops,
//! whose direction and distance admit the real distance. Rows marked
//! `exact` must happen in every run that executes their sink. Each unit
//! is checked on the trace as it sees it (`kaiseki_judge::project`): one
//! trace per activation, a callee's accesses at the call (its dummies'
//! at the actual arguments, COMMON cells under the caller's names). The
//! variable of a dependence is the name its source goes through.
//!
//! The analysis looks at one unit at a time, so each unit's rows are held
//! to the dependences that unit sees (`kaiseki_judge::project`): a callee's
//! accesses through its dummies happen at the actual arguments of the
//! call; its locals and COMMON members are the callee's own business (the
//! call's hidden references stand for them in the caller).
//!
//! Precision is the share of the flow, anti and output rows that cover a
//! dependence of some run; it is printed for every set of programs (run
//! with `--nocapture`) and asserted on the nests sharing arrays.
//!
//! The rows `kaiseki deps` leaves out by default (without `--loop-vars`)
//! must be a DO loop's own bookkeeping, as this test finds it in the
//! source text: both ends are the DO variable of one DO statement (its
//! definition there or its increment) or a use of that variable in that
//! loop's body, inside the parentheses of an element of an array when a
//! statement of the body may define the variable. So a real dependence
//! hidden by mistake is caught even though soundness is checked on every
//! row.

mod common;

use common::{
    deps_csv, deps_csv_every_row, example_files, generated, lower_source, positions, scaled,
    scratch_dir, Dep,
};
use kaiseki_facts::FactBase;
use kaiseki_judge::gen::{
    allocatable_program, argument_program, bounds_program, control_nests, derived_nest,
    derived_parallel_loops, exact_nests, host_program, module_program, reread_nests, rewrite_nests,
    section_program, shared_nests, storage_program, Generated,
};
use kaiseki_judge::{dependences, project, run_source, Config, Dependence, Mode, Run};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::fmt::Write as _;
use std::path::Path;

/// A program to check and the inputs of its runs.
struct Program {
    file_name: String,
    source: String,
    inputs: Vec<Vec<String>>,
}

impl From<Generated> for Program {
    fn from(g: Generated) -> Program {
        Program {
            file_name: g.file_name,
            source: g.source,
            inputs: g.inputs,
        }
    }
}

/// The (var, mode, line:col) of the accesses a run executed.
type Executed = HashSet<(String, Mode, (u32, u32))>;

/// What a run did as its units see it: the real dependences of every
/// activation of every unit, and every access (a callee's at its calls too).
fn seen_by_units(run: &Run) -> (BTreeSet<Dependence>, Executed) {
    let units: BTreeSet<&str> = run.trace.iter().map(|a| &*a.unit).collect();
    let mut real = BTreeSet::new();
    let mut executed = HashSet::new();
    for unit in units {
        for activation in project(&run.trace, &run.common, unit) {
            executed.extend(
                activation
                    .iter()
                    .map(|a| (a.var.to_string(), a.mode, (a.pos.line, a.pos.col))),
            );
            real.extend(dependences(&activation));
        }
    }
    (real, executed)
}

/// (unit, kind, var, source line:col, sink line:col): what a row and a
/// real dependence must share. DO statements and their synthetic `enddo`
/// put the DO variable at the same position, so the initial definition
/// and the increment are told apart only by the common loops.
type Key = (String, String, String, (u32, u32), (u32, u32));

fn row_key(r: &Dep) -> Key {
    (r.unit.clone(), r.kind.clone(), r.var.clone(), r.src, r.dst)
}

fn real_key(d: &Dependence) -> Key {
    (
        d.src.unit.clone(),
        d.kind.as_str().to_string(),
        d.var.clone(),
        (d.src.pos.line, d.src.pos.col),
        (d.dst.pos.line, d.dst.pos.col),
    )
}

/// The row admits the real dependence: the same common loops (generated
/// programs and the examples never re-enter a loop inside one iteration
/// of its enclosing loops, so the judge's common loops are the static
/// ones), and per loop a direction and distance the real distance fits.
fn covers(row: &Dep, real: &Dependence) -> bool {
    let loops: Vec<u32> = real.loops.iter().map(|p| p.line).collect();
    row.loops == loops
        && real.distance.iter().enumerate().all(|(i, &d)| {
            let direction_ok = match row.direction[i] {
                '<' => d > 0,
                '=' => d == 0,
                '>' => d < 0,
                _ => true,
            };
            direction_ok && row.distance[i].is_none_or(|n| n == d)
        })
}

/// Counts for the precision report.
#[derive(Default)]
struct Tally {
    programs: usize,
    runs: usize,
    real: usize,
    /// (rows, rows observed) of scalar and of array variables.
    scalar: (usize, usize),
    array: (usize, usize),
    /// (rows, rows observed) of kind flow, anti or output: of every
    /// variable, and of arrays.
    ordered: (usize, usize),
    ordered_array: (usize, usize),
    exact_checked: usize,
    /// Rows left out without `--loop-vars` (all checked to be bookkeeping).
    hidden: usize,
    /// The flow, anti and output rows no run showed: (program, row).
    never: Vec<(String, Dep)>,
}

impl Tally {
    fn report(&self, what: &str) -> String {
        let pct = |(rows, seen): (usize, usize)| {
            let never = rows - seen;
            format!(
                "{never}/{rows} never observed ({:.1}%)",
                100.0 * never as f64 / rows.max(1) as f64
            )
        };
        format!(
            "{what}: {} programs, {} runs, {} real dependences; scalar rows {}; array rows {}; {} exact rows checked; precision {:.3} (array rows {:.3}); {} loop index rows left out by default",
            self.programs,
            self.runs,
            self.real,
            pct(self.scalar),
            pct(self.array),
            self.exact_checked,
            self.precision(),
            share(self.ordered_array),
            self.hidden
        )
    }

    /// Flow, anti and output rows covering a dependence of some run, over
    /// all of them.
    fn precision(&self) -> f64 {
        share(self.ordered)
    }
}

/// seen / rows of a (rows, seen) count.
fn share((rows, seen): (usize, usize)) -> f64 {
    seen as f64 / rows.max(1) as f64
}

/// What went wrong: the program, one line on the problem, the rows near it.
struct Failure {
    program: String,
    what: String,
    detail: String,
}

fn failure(p: &Program, what: String, rows: &[Dep]) -> Failure {
    let mut detail = format!("--- {} ---\n{}\n{what}\nrows:\n", p.file_name, p.source);
    for r in rows {
        let _ = writeln!(detail, "  {r:?}");
    }
    Failure {
        program: p.file_name.clone(),
        what,
        detail,
    }
}

/// Positions of DO variables in DO statements: the initial definition and
/// the `enddo` increment share them, so `exact` on them is ambiguous in CSV.
fn do_var_positions(facts: &FactBase) -> HashSet<(u32, u32)> {
    let do_stmts: HashSet<i64> = facts
        .stmt
        .iter()
        .filter(|s| s.kind == "do" || s.kind == "enddo")
        .map(|s| s.stmt)
        .collect();
    let refs: HashSet<i64> = facts
        .def
        .iter()
        .filter(|d| do_stmts.contains(&d.stmt))
        .map(|d| d.r#ref)
        .collect();
    positions(facts, &refs)
}

/// Whether line `i` (0-based) of `lines` continues the statement of the
/// line before: in free form, after a line that ends with `&`; in fixed
/// form, with a mark in column 6.
fn continues(lines: &[&str], i: usize, free: bool) -> bool {
    let fixed = |l: &str| {
        let c: Vec<char> = l.chars().take(6).collect();
        c.len() == 6 && !matches!(c[0], 'C' | 'c' | '*' | '!') && !matches!(c[5], ' ' | '0')
    };
    i > 0
        && if free {
            lines[i - 1].trim_end().ends_with('&')
        } else {
            fixed(lines[i])
        }
}

/// The first line of the statement that `pos` stands in, and its text
/// before `pos` (continuation lines joined), in the source of `p`.
fn statement_before(p: &Program, (line, col): (u32, u32)) -> (u32, String) {
    let free = [".f90", ".f95", ".f03", ".f08"]
        .iter()
        .any(|e| p.file_name.to_ascii_lowercase().ends_with(e));
    let source = &p.source;
    let lines: Vec<&str> = source.lines().collect();
    let at = line as usize - 1;
    let Some(&text) = lines.get(at) else {
        return (line, String::new());
    };
    let mut first = at;
    while continues(&lines, first, free) {
        first -= 1;
    }
    let mut before = String::new();
    for l in &lines[first..at] {
        before.push_str(l.trim_end().trim_end_matches('&'));
        before.push(' ');
    }
    before.extend(text.chars().take(col as usize - 1));
    (first as u32 + 1, before)
}

/// Whether the name at `pos` in the source of `p` stands inside the
/// parentheses of an element of one of `arrays` (its subscripts), read
/// from the text: the enclosing open parentheses, each after a name.
fn in_subscript(p: &Program, arrays: &HashSet<&str>, pos: (u32, u32)) -> bool {
    let before: Vec<char> = statement_before(p, pos).1.chars().collect();
    let mut depth = 0;
    for (i, &c) in before.iter().enumerate().rev() {
        match c {
            ')' => depth += 1,
            '(' if depth > 0 => depth -= 1,
            '(' => {
                let head: String = before[..i].iter().collect();
                let head = head.trim_end();
                let name: String = head
                    .chars()
                    .rev()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '%')
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect();
                let name = name.to_ascii_uppercase();
                // A derived-type component is the array `P%X` (frontend
                // `derived`): `P%X(`, `P(` of `P(I)%X`, `%X(` of `P(I)%X(`.
                let component = |a: &&str| {
                    a.strip_prefix(name.as_str())
                        .is_some_and(|rest| rest.starts_with('%'))
                        || (name.starts_with('%') && a.ends_with(name.as_str()))
                };
                if arrays.contains(name.as_str()) || arrays.iter().any(component) {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

/// A DO loop's variable, the position of its variable in the DO
/// statement, the lines of its body, and whether its body may define the
/// variable.
type IndexPlaces<'f> = (&'f str, (u32, u32), HashSet<u32>, bool);

/// The rows of `every` (with `--loop-vars`) that `shown` (the default
/// output) leaves out must be loop bookkeeping (see the module's
/// documentation), and `shown` must be the other rows. Returns how many
/// were left out; failures are appended to `failures`.
fn check_hidden(
    p: &Program,
    facts: &FactBase,
    arrays: &HashSet<&str>,
    every: &[Dep],
    shown: &[Dep],
    failures: &mut Vec<Failure>,
) -> usize {
    // Per DO loop: its variable, the position of its variable in the DO
    // statement, and the lines of its body.
    let stmt_line: HashMap<i64, u32> = facts.stmt.iter().map(|s| (s.stmt, s.line as u32)).collect();
    let must: HashSet<i64> = facts.must_def.iter().map(|m| m.r#ref).collect();
    // Per DO loop also whether a statement of its body (not its end) may
    // define its variable.
    let loops: Vec<IndexPlaces> = facts
        .r#loop
        .iter()
        .filter(|l| l.kind == "do")
        .filter_map(|l| {
            let at_do = facts
                .def
                .iter()
                .find(|d| d.stmt == l.r#loop && d.var == l.var && must.contains(&d.r#ref))?;
            let pos = positions(facts, &HashSet::from([at_do.r#ref]));
            let stmts: HashSet<i64> = facts
                .loop_stmt
                .iter()
                .filter(|s| s.r#loop == l.r#loop)
                .map(|s| s.stmt)
                .collect();
            let body = stmts
                .iter()
                .filter_map(|s| stmt_line.get(s).copied())
                .collect();
            let end = facts
                .loop_end
                .iter()
                .find(|e| e.r#loop == l.r#loop)
                .map(|e| e.stmt);
            let assigned = facts
                .def
                .iter()
                .any(|d| d.var == l.var && stmts.contains(&d.stmt) && Some(d.stmt) != end);
            Some((l.var.as_str(), *pos.iter().next()?, body, assigned))
        })
        .collect();
    let bookkeeping = |r: &Dep| {
        loops.iter().any(|(var, at_do, body, assigned)| {
            let own = |end: (u32, u32)| {
                end == *at_do
                    || body.contains(&statement_before(p, end).0)
                        && (!assigned || in_subscript(p, arrays, end))
            };
            r.var == *var && own(r.src) && own(r.dst)
        })
    };
    let mut left = shown.iter().peekable();
    let mut hidden = 0;
    for r in every {
        if left.peek() == Some(&r) {
            left.next();
            continue;
        }
        hidden += 1;
        if !bookkeeping(r) {
            failures.push(failure(
                p,
                format!("left out without --loop-vars, but not a loop's bookkeeping: {r:?}"),
                &[],
            ));
        }
    }
    if let Some(r) = left.next() {
        failures.push(failure(
            p,
            format!("shown without --loop-vars, but not with it: {r:?}"),
            &[],
        ));
    }
    hidden
}

/// Checks one program; failures are appended to `failures`.
fn check(p: &Program, dir: &Path, tally: &mut Tally, failures: &mut Vec<Failure>) {
    let path = dir.join(&p.file_name);
    std::fs::write(&path, &p.source).expect("program written");
    let rows = deps_csv_every_row(&path);
    let facts = lower_source(&p.file_name, &p.source);
    let arrays: HashSet<&str> = facts
        .var
        .iter()
        .filter(|v| v.rank > 0)
        .map(|v| v.var.as_str())
        .collect();
    let ambiguous = do_var_positions(&facts);
    let shown = deps_csv(&path);
    tally.hidden += check_hidden(p, &facts, &arrays, &rows, &shown, failures);
    let mut by_key: HashMap<Key, Vec<usize>> = HashMap::new();
    for (i, r) in rows.iter().enumerate() {
        by_key.entry(row_key(r)).or_default().push(i);
    }
    let mut observed = vec![false; rows.len()];
    let config = Config {
        step_limit: 2_000_000,
        trace: true,
    };
    for input in &p.inputs {
        let run = match run_source(&p.file_name, &p.source, input, &config) {
            Ok(run) => run,
            Err(e) => {
                failures.push(failure(
                    p,
                    format!("the judge failed on {input:?}: {e}"),
                    &[],
                ));
                continue;
            }
        };
        tally.runs += 1;
        let (real, executed) = seen_by_units(&run);
        tally.real += real.len();
        let mut covered_now = HashSet::new();
        for d in &real {
            let candidates = by_key.get(&real_key(d)).map_or(&[][..], Vec::as_slice);
            let covering: Vec<usize> = candidates
                .iter()
                .copied()
                .filter(|&i| covers(&rows[i], d))
                .collect();
            if covering.is_empty() {
                let near: Vec<Dep> = candidates.iter().map(|&i| rows[i].clone()).collect();
                failures.push(failure(p, format!("input {input:?}: missed {d}"), &near));
            }
            for i in covering {
                observed[i] = true;
                covered_now.insert(i);
            }
        }
        tally.exact_checked += check_exact(&rows, &executed, &covered_now, &ambiguous, |what| {
            failures.push(failure(p, format!("input {input:?}: {what}"), &[]))
        });
    }
    for (r, seen) in rows.iter().zip(&observed) {
        let array = arrays.contains(r.var.as_str());
        let mut classes = vec![if array {
            &mut tally.array
        } else {
            &mut tally.scalar
        }];
        if r.kind != "input" {
            classes.push(&mut tally.ordered);
        }
        if r.kind != "input" && array {
            classes.push(&mut tally.ordered_array);
        }
        if r.kind != "input" && !seen {
            tally.never.push((p.file_name.clone(), r.clone()));
        }
        for class in classes {
            class.0 += 1;
            class.1 += usize::from(*seen);
        }
    }
    tally.programs += 1;
}

/// An `exact` row happens whenever its sink executes: in a run that
/// executes the sink (`executed`: var, mode and position of the run's
/// accesses), a real dependence it covers happened (`covered`: the rows
/// covering one of the run's dependences). Input rows are left out: the
/// judge links consecutive reads only, and an input row across other
/// reads is the closure of those. Returns how many rows were checked;
/// each violation goes to `fail`.
fn check_exact(
    rows: &[Dep],
    executed: &Executed,
    covered: &HashSet<usize>,
    ambiguous: &HashSet<(u32, u32)>,
    mut fail: impl FnMut(String),
) -> usize {
    let mut checked = 0;
    for (i, r) in rows.iter().enumerate() {
        if r.certainty != "exact"
            || r.kind == "input"
            || ambiguous.contains(&r.src)
            || ambiguous.contains(&r.dst)
        {
            continue;
        }
        let sink_mode = match r.kind.as_str() {
            "flow" => Mode::Read,
            _ => Mode::Write,
        };
        if !executed.contains(&(r.var.clone(), sink_mode, r.dst)) {
            continue;
        }
        checked += 1;
        if !covered.contains(&i) {
            fail(format!(
                "exact row never happened although its sink ran: {r:?}"
            ));
        }
    }
    checked
}

fn check_all(what: &str, programs: &[Program]) -> Tally {
    let dir = scratch_dir(&format!("deps_bruteforce_{what}"));
    let mut tally = Tally::default();
    let mut failures = Vec::new();
    for p in programs {
        check(p, &dir, &mut tally, &mut failures);
    }
    eprintln!("{}", tally.report(what));
    assert!(tally.runs > 0 && tally.real > 0, "{}", tally.report(what));
    if failures.is_empty() {
        return tally;
    }
    let mut message = format!("{} failures; the first in full:\n", failures.len());
    for f in failures.iter().take(3) {
        message.push_str(&f.detail);
    }
    message.push_str("and in short:\n");
    for f in failures.iter().take(40) {
        let _ = writeln!(message, "  {}: {}", f.program, f.what);
    }
    panic!("{message}");
}

fn from_generated(scalar: u64, affine: u64) -> Vec<Program> {
    generated(scalar, affine)
        .into_iter()
        .map(Program::from)
        .collect()
}

#[test]
fn scalar_programs_lose_no_dependence() {
    check_all("scalar", &from_generated(scaled(150), 0));
}

#[test]
fn affine_nests_lose_no_dependence() {
    check_all("affine", &from_generated(0, scaled(100)));
}

/// The programs of `affine_nest` and `parallel_loops` with their arrays
/// as derived-type components (a structure of arrays copied whole, arrays
/// of structures, nested components), which the frontend flattens into
/// one variable per component (`G%A`, `PA%A` for `PA(J)%A(I)`, `W%IN%A`):
/// the dependences of the runs are found under those names.
#[test]
fn derived_type_components_lose_no_dependence() {
    let programs: Vec<Program> = (0..scaled(50))
        .flat_map(|seed| [derived_nest(seed), derived_parallel_loops(seed)])
        .map(Program::from)
        .collect();
    check_all("derived", &programs);
}

/// Derived-type objects passed whole (an object, an element of an array
/// of structures, a sub-object) to subroutines whose dummies are of the
/// type: the call passes the leaves (sections of the flattened arrays for
/// an element), the callee writes some and reads others; whole-object
/// assignments inside and outside loops, components in DO bounds and IF
/// conditions, a structure in an I/O list.
#[test]
fn derived_type_arguments_and_whole_objects_lose_no_dependence() {
    let source = "program objs
  implicit none
  type pt
    sequence
    integer :: k
    real :: v(3)
  end type pt
  type bag
    sequence
    type(pt) :: a, b(4)
    real :: w
  end type bag
  type(pt) :: p(5), q
  type(bag) :: g
  integer :: i, n
  read *, n
  q%k = 2
  q%v = 1.0
  g%w = 0.0
  do i = 1, 5
    p(i)%k = i
    p(i)%v(1) = real(i)
    p(i)%v(2) = 0.0
    p(i)%v(3) = 0.0
  end do
  do i = 1, 4
    g%b(i) = p(i + 1)
  end do
  g%a = q
  do i = 2, min(n, 5)
    call step(p(i), p(i - 1))
    if (p(i)%k > q%k) call step(g%b(p(i)%k - 1), g%a)
  end do
  do i = 1, g%b(2)%k
    g%w = g%w + g%b(i)%v(1)
  end do
  q = p(n)
  print *, q, g%w, g%b(3)%v
end program objs
subroutine step(x, y)
  implicit none
  type pt
    sequence
    integer :: k
    real :: v(3)
  end type pt
  type(pt) :: x, y
  x%v(2) = y%v(1) + real(x%k)
  x%v(3) = x%v(2) * 2.0
end subroutine step
";
    let inputs: &[&[&str]] = &[&["1"], &["3"], &["5"]];
    check_all(
        "derived_objects",
        &with_inputs("derived_objects.f90", source, inputs),
    );
}

/// EQUIVALENCE classes and a COMMON block laid out differently in the
/// main program and its subroutines: dependences between two names of
/// one cell, in a unit and at its calls.
#[test]
fn storage_association_loses_no_dependence() {
    let programs: Vec<Program> = (0..scaled(30))
        .map(|seed| Program::from(storage_program(seed)))
        .collect();
    check_all("storage", &programs);
}

/// Nests sharing arrays, with straight-line code, IFs, scalars and
/// induction variables between and inside them (40 programs whatever the
/// build, enough for the figure to mean something): no dependence is lost,
/// and at least 96% of the flow, anti and output rows happen in some run
/// (63% when only pairs in one nest were tested, 91.5% before elements a
/// later write always overwrites were killed, 92.5% before loops whose
/// bounds are a constant apart got their trip count, 93.1% before paths
/// through both branches of invariant tests were dropped (94.2%), the runs
/// took N down to values where loops up to N do not run (94.7%), whole-array
/// reads after a write covering the source were killed and loops that
/// always run were known from the ranges of the loops around them (95.5%),
/// code no run reaches and the guards of IFs on DO variables: 96.5%;
/// conditions decided where the IFs around them hold, and the iterations
/// a statement under them runs in: 97.2%). The rows left are mostly
/// elements a write in one branch overwrites and zero-trip paths no N the
/// arrays allow takes; --nocapture lists them.
#[test]
fn shared_nests_lose_no_dependence_and_report_few_false_ones() {
    let programs: Vec<Program> = (0..40)
        .map(|seed| Program::from(shared_nests(seed)))
        .collect();
    let tally = check_all("shared_nests", &programs);
    // What the false rows are (shown with --nocapture).
    for (program, row) in &tally.never {
        eprintln!("never observed in {program}: {row:?}");
    }
    assert!(
        tally.precision() >= 0.97,
        "{}",
        tally.report("shared_nests")
    );
}

/// The nests of `exact_nests`: zero- and one-trip loops, negative-step
/// triangular loops, IFs on affine conditions of the DO variables (MOD and
/// MODULO too, ELSE IF and ELSE arms) and induction scalars stepped in
/// nests and under such IFs. No dependence is lost; the precision is held
/// to what was measured (see the figure below).
#[test]
fn exact_nests_lose_no_dependence_and_report_few_false_ones() {
    let programs: Vec<Program> = (0..40)
        .map(|seed| Program::from(exact_nests(seed)))
        .collect();
    let tally = check_all("exact_nests", &programs);
    for (program, row) in &tally.never {
        eprintln!("never observed in {program}: {row:?}");
    }
    // Measured 0.733 before code no run reaches and the guards of IFs on
    // DO variables were known, 0.891 after; 0.926 once conditions were
    // decided where the IFs around them hold, with the box of DO variable
    // values they allow and the iterations a statement runs in; 0.950 with
    // the one end of a DO variable's range a single known bound gives (or
    // the conditions around a test); 0.966 once logical IFs always true,
    // conditions decided from ranges a bound leaves open, loops that run
    // at most once, ELSE IF tests' iterations, induction scalars stepped in
    // inner loops of constant trip count (or under decided IFs) and values
    // a loop kills in every iteration were known; 0.970 (0.9697: 242 of
    // 7,999 rows never observed) once a triangular loop's body ran only in
    // the outer iterations its bounds allow and conditions were tested
    // only where the loops around them run; 0.973 (0.9729: 216 of 7,973)
    // once a scalar a statement of an outermost loop certainly defines in
    // some iteration (`runs_during`) was killed on the loop's exit. The
    // issue's goal is 0.97; what is left is listed in
    // docs/deps.md#precision.
    assert!(tally.precision() >= 0.97, "{}", tally.report("exact_nests"));
}

/// The same nests reading one element again and again (`reread_nests`:
/// `A(I)` in two statements of one iteration, in later iterations, under
/// IFs, in other nests): a read that surely reads, by the same affine
/// subscripts, the element an earlier read read ends that read's minimal
/// input dependences (`read_key`, rules/dl/access.dl), and no dependence
/// is lost; a wrong kill misses the input dependence of the next read.
/// (The precision is printed, not held to a figure.)
#[test]
fn rereads_of_one_element_lose_no_dependence() {
    let programs: Vec<Program> = (0..scaled(40))
        .map(|seed| Program::from(reread_nests(seed)))
        .collect();
    let tally = check_all("reread_nests", &programs);
    eprintln!("reread_nests precision {:.3}", tally.precision());
}

/// The same nests with EXIT and CYCLE (also of an outer loop, by name)
/// under IFs on DO variables and SELECT CASE on DO variables and their
/// MOD in the bodies: no dependence is lost. (The precision is printed, not
/// held to a figure.)
#[test]
fn control_flow_loses_no_dependence() {
    let programs: Vec<Program> = (0..scaled(40))
        .map(|seed| Program::from(control_nests(seed)))
        .collect();
    let tally = check_all("control_nests", &programs);
    eprintln!("control_nests precision {:.3}", tally.precision());
}

/// Long sequences of nests rewriting three shared arrays
/// (`rewrite_nests`): whole rewrites kill the facts of the references
/// before them in the dataflow (`rules/dl/kills.dl`), and many rewrites
/// are not whole in ways the kill must see (bounds one short or up to N,
/// an IF around the write or the nest, CYCLE before it, EXIT after it, a
/// GOTO past the nest, a loop up to N around it or between its loops, N
/// down to 0). No dependence is lost. (The precision is printed, not held
/// to a figure.)
#[test]
fn array_rewrites_lose_no_dependence() {
    let programs: Vec<Program> = (0..scaled(60))
        .map(|seed| Program::from(rewrite_nests(seed)))
        .collect();
    let tally = check_all("rewrite_nests", &programs);
    eprintln!("rewrite_nests precision {:.3}", tally.precision());
}

/// Fortran 90 scoping: arrays and scalars of a MODULE shared by the main
/// program, module procedures and external subroutines (ONLY, renames),
/// called inside and outside loops; internal procedures on their host's
/// arrays, scalars and DO variables (lifted to dummies by the frontend);
/// local and module allocatable arrays. Every unit's dependences, its
/// calls' included, are found.
#[test]
fn modules_host_association_and_allocatables_lose_no_dependence() {
    let programs: Vec<Program> = (0..scaled(30))
        .flat_map(|seed| {
            [
                module_program(seed),
                host_program(seed),
                allocatable_program(seed),
            ]
        })
        .map(Program::from)
        .collect();
    let tally = check_all("modules", &programs);
    eprintln!("modules precision {:.3}", tally.precision());
}

/// Calls that pass arrays, elements and scalars to procedures reading
/// some dummies, writing others, or handing them on: a call is a use of an
/// actual only where its callee may read the dummy, a definition only
/// where it may write it, and no dependence is lost.
#[test]
fn argument_passing_loses_no_dependence() {
    let programs: Vec<Program> = (0..scaled(40))
        .map(|seed| Program::from(argument_program(seed)))
        .collect();
    let tally = check_all("arguments", &programs);
    eprintln!("arguments precision {:.3}", tally.precision());
}

/// Loops whose lower bound is read once, on entry: an index array's
/// element (`DO K = IA(I), IA(I+1) - 1`), a scalar set under an IF, or one
/// the body then changes: no dependence is lost, and the references of one
/// execution compare exactly (the DO variable is the bound's value on
/// entry plus the step times the iteration).
#[test]
fn bounds_read_on_entry_lose_no_dependence() {
    let programs: Vec<Program> = (0..scaled(40))
        .map(|seed| Program::from(bounds_program(seed)))
        .collect();
    let tally = check_all("bounds", &programs);
    eprintln!("bounds precision {:.3}", tally.precision());
}

/// Array sections in loops, tested element by element: sections whose
/// bounds move with the DO variable (strides, backwards, triangular,
/// empty), SUM of a section, and calls passing an element or a whole
/// vector to an explicit-shape dummy. No dependence is lost.
#[test]
fn sections_lose_no_dependence() {
    let programs: Vec<Program> = (0..scaled(40))
        .map(|seed| Program::from(section_program(seed)))
        .collect();
    let tally = check_all("sections", &programs);
    eprintln!("sections precision {:.3}", tally.precision());
}

#[test]
fn examples_lose_no_dependence() {
    let programs: Vec<Program> = example_files()
        .iter()
        .map(|path| {
            let source = std::fs::read_to_string(path).expect("example readable");
            // Programs that READ take both sides of their conditions.
            let inputs = if source.to_uppercase().contains("READ") {
                ["100", "50", "-1"].map(|n| vec![n.to_string()]).to_vec()
            } else {
                vec![Vec::new()]
            };
            Program {
                file_name: path
                    .file_name()
                    .expect("file name")
                    .to_string_lossy()
                    .into_owned(),
                source,
                inputs,
            }
        })
        .collect();
    check_all("examples", &programs);
}

/// WHERE statements (may-writes of sections, masks read), SELECT CASE on
/// an input and EXIT/CYCLE of named loops, in a loop and between loops.
#[test]
fn where_select_case_and_named_jumps_lose_no_dependence() {
    let source = "program wsc
  integer :: n, i, j, k
  real :: a(10), b(10), s
  read *, n
  s = 0.0
  do i = 1, 10
    a(i) = i
    b(i) = 11 - i
  end do
  where (a > real(n)) b = a
  where (b(2:9) < 4.0) a(1:8) = b(3:10) + 1.0
  outer: do i = 1, 6
    inner: do j = 1, 6
      if (j > i + n) cycle outer
      if (a(j) > 8.0) exit inner
      if (i * j > 20) exit outer
      s = s + a(j)
      b(j) = s
    end do inner
    select case (mod(i + n, 3))
    case (0)
      a(i) = b(i + 1)
    case (1:)
      b(i) = a(i + 2)
    case default
      s = s + 1.0
    end select
  end do outer
  k = i
  print *, sum(a), sum(b), s, k, j
end program wsc
";
    let inputs: &[&[&str]] = &[&["0"], &["1"], &["5"], &["-4"]];
    check_all("where_select", &with_inputs("wsc.f90", source, inputs));
}

fn one_program(name: &str, source: &str, inputs: &[&str]) -> Vec<Program> {
    vec![Program {
        file_name: name.to_string(),
        source: source.to_string(),
        inputs: vec![inputs.iter().map(|s| s.to_string()).collect()],
    }]
}

/// Calls touch the caller's COMMON members over the bytes their callees
/// read or write (in other layouts, through an EQUIVALENCE, through the
/// callees' calls, in a loop and on a path an input picks), and define a
/// member that the call names only in a subscript.
#[test]
fn member_level_call_effects_lose_no_dependence() {
    let source = "      PROGRAM CE
      INTEGER I1, I2, K, N
      REAL A(4), B, C, Q(10)
      COMMON /D/ I1, I2
      COMMON /E/ A, B, C
      COMMON /K/ K
      READ *, N
      I1 = 1
      I2 = 2
      K = 1
      DO 10 J = 1, 3
        A(J) = REAL(J)
        CALL SETK(N)
        B = B + A(J)
        CALL READR
        CALL MID
        Q(K) = C
        CALL BUMP(Q(K))
        CALL ALL(N)
   10 CONTINUE
      PRINT *, I1, I2, K, A(1), B, C
      END
      SUBROUTINE SETK(N)
      COMMON /D/ R, L
      IF (N .GT. 0) L = N
      END
      SUBROUTINE READR
      COMMON /D/ R, L
      PRINT *, L
      END
      SUBROUTINE MID
      COMMON /E/ Z(4), Y, X
      REAL W
      EQUIVALENCE (W, Z(3))
      X = W + Y
      END
      SUBROUTINE BUMP(V)
      COMMON /K/ K
      K = MOD(K, 9) + 1
      V = 0.0
      END
      SUBROUTINE ALL(N)
      IF (N .GT. 1) CALL SETK(N)
      CALL READR
      END
";
    let inputs: &[&[&str]] = &[&["0"], &["1"], &["5"]];
    check_all(
        "call_effects",
        &with_inputs("call_effects.f", source, inputs),
    );
}

/// The DO statement reads its bounds before it defines its variable; the
/// body redefines a bound variable, which the trip count does not see.
#[test]
fn do_bounds_and_increments_lose_no_dependence() {
    let source = "      PROGRAM DV\n      INTEGER I, K, S\n      K = 3\n      S = 0\n      DO 10 I = 1, K\n      S = S + I\n   10 K = K + I\n      PRINT *, I, K, S\n      END\n";
    check_all("do_bounds", &one_program("do_bounds.f", source, &[]));
}

/// A READ list defines N before the subscript of the next item reads it
/// (Fortran 2008, 9.6.3: items are processed in order).
#[test]
fn read_list_defines_before_later_subscripts() {
    let source = "      PROGRAM RD\n      INTEGER N, A(10)\n      A(1) = 0\n      A(2) = 0\n      READ (*,*) N, A(N)\n      PRINT *, N, A(1), A(2)\n      END\n";
    check_all(
        "read_list",
        &one_program("read_list.f", source, &["2", "7"]),
    );
}

/// Variables that keep their DATA or initial value, values assigned once
/// before a loop (on every path or not, changed by a call or not) and
/// bounds in an unknown K = N/2, run on several N, K <= 0 included.
#[test]
fn constants_and_symbolic_bounds_lose_no_dependence() {
    // N, and M in calls.f.
    let inputs: Vec<Vec<String>> = ["-3", "0", "1", "2", "3", "4", "7", "10", "40"]
        .iter()
        .map(|n| vec![n.to_string(); 2])
        .collect();
    let sources = [
        (
            "data_k.f",
            "      PROGRAM C\n      REAL A(100)\n      INTEGER K, M\n      DATA K /5/\n      READ *, N\n      M = 3\n      DO 10 I = 1, 50\n        A(I) = A(I+K) + A(I+M)\n   10 CONTINUE\n      L = N/2\n      DO 20 I = 1, L\n        A(I) = A(I+L)\n   20 CONTINUE\n      PRINT *, A(1)\n      END\n",
        ),
        (
            "symbolic.f",
            "      PROGRAM P\n      REAL A(-100:200)\n      READ *, N\n      K = N/2\n      DO 10 I = 1, K\n        A(I) = A(I+K)\n   10 CONTINUE\n      DO 20 I = 1, N\n        A(I) = A(I+K)\n        A(I+K) = A(I) + 1.0\n   20 CONTINUE\n      DO 30 I = K, N\n        A(2*I) = A(I+K)\n   30 CONTINUE\n      PRINT *, A(1)\n      END\n",
        ),
        (
            "inits.f90",
            "program p\n  integer, parameter :: nr = 2, n0 = 10\n  integer, parameter :: m = 2*n0 + 1\n  integer :: k = 5\n  integer :: j, l, n\n  real :: a(100)\n  data j, l /2*3/\n  read *, n\n  do i = 1, k\n    a(i + k) = a(i + j - l) + a(i + m)\n  end do\n  do i = 1, n\n    a(i + j) = a(i + k) * 2.0\n  end do\n  print *, a(1)\nend program p\n",
        ),
        (
            "paths.f",
            "      PROGRAM C\n      REAL A(100)\n      READ *, N\n      IF (N .GT. 5) M = 3\n      DO 10 I = 1, 50\n        A(I) = A(I+M)\n   10 CONTINUE\n      PRINT *, A(1)\n      END\n",
        ),
        (
            "calls.f",
            "      PROGRAM P\n      COMMON /C/ M\n      REAL A(-100:200)\n      INTEGER K\n      DATA K /5/\n      READ *, N\n      M = 3\n      L = 3\n      CALL S(K)\n      DO 10 I = 1, 50\n        A(I) = A(I+M) + A(I+K)\n        A(I) = A(I+L)\n   10 CONTINUE\n      PRINT *, A(1)\n      END\n      SUBROUTINE S(K)\n      COMMON /C/ M\n      READ *, M\n      K = M - 1\n      END\n",
        ),
    ];
    let programs: Vec<Program> = sources
        .iter()
        .map(|(name, source)| Program {
            file_name: name.to_string(),
            source: source.to_string(),
            inputs: inputs.clone(),
        })
        .collect();
    check_all("constants", &programs);
}

fn with_inputs(name: &str, source: &str, inputs: &[&[&str]]) -> Vec<Program> {
    vec![Program {
        file_name: name.to_string(),
        source: source.to_string(),
        inputs: inputs
            .iter()
            .map(|i| i.iter().map(|s| s.to_string()).collect())
            .collect(),
    }]
}

/// Implied-DO lists in READ, WRITE and PRINT, nested and inside a loop,
/// on a unit held in an INTEGER variable: the elements they run over are
/// whole-array references, their variables definitions (A(K) is no
/// element of the K = 5 before it).
#[test]
fn implied_do_lists_lose_no_dependence() {
    let source = "      PROGRAM IMPL
      INTEGER IOU, K, N, I, J, M, A(5), B(3,2)
      REAL X(5)
      IOU = 6
      N = 4
      M = 2
      K = 5
      READ (*,*) (A(K), K = 1, N)
      PRINT *, A(2)
      DO 10 I = 1, N
        X(I) = A(I) * 2.0
   10 CONTINUE
      WRITE (IOU, *) (X(K), A(K), K = 1, N), K
      READ (5, *) ((B(I,J), I = 1, 3), J = 1, M)
      DO 20 J = 1, M
        B(1,J) = B(2,J) + B(3,J)
   20 CONTINUE
      WRITE (IOU, *) ((B(I,J), J = 1, M), I = 3, 1, -1)
      DO 30 I = 2, N
        PRINT *, (A(K), K = 1, I - 1), A(I+1)
        A(I) = A(I) + A(I-1)
   30 CONTINUE
      PRINT *, I, J, K, N, IOU
      END
";
    let input: Vec<String> = (1..=10).map(|v| v.to_string()).collect();
    let input: Vec<&str> = input.iter().map(String::as_str).collect();
    check_all(
        "implied_do",
        &with_inputs("implied_do.f", source, &[&input]),
    );
}

/// A WRITE into a CHARACTER variable (an internal file) defines it and a
/// READ from it uses it; IOSTAT= is defined, END= and ERR= jump, and a
/// READ that may stop early defines its items only possibly.
#[test]
fn internal_files_iostat_and_end_lose_no_dependence() {
    let source = "      PROGRAM INTERN
      CHARACTER*20 LINE, LINES(2)
      INTEGER K, M, N, IOS
      N = 7
      WRITE (LINE, *) N, N + 1
      READ (LINE, *) M, K
      WRITE (LINES(2), *) M
      READ (LINES(2), *) N
      PRINT *, LINE, M, K, N
      READ (*, *, IOSTAT=IOS) K
      PRINT *, IOS, K
      READ (*, *, END=30, ERR=30) M
      K = M
   30 PRINT *, K, M
      END
";
    check_all(
        "internal_files",
        &with_inputs(
            "internal_files.f",
            source,
            &[&[], &["3"], &["3", "4"], &["x"]],
        ),
    );
}
