//! The generators: deterministic per seed, varied across seeds, and every
//! program parses and runs in the judge on all its inputs, in bounds.

use kaiseki_judge::gen::{
    affine_nest, allocatable_program, argument_program, control_nests, exact_nests, host_program,
    module_program, parallel_control_loops, parallel_loops, reread_nests, rewrite_nests,
    scalar_program, shared_nests, storage_program, Generated,
};
use kaiseki_judge::{dependences, project, run_source, Config, DepKind, Run};
use std::collections::BTreeSet;

fn runs_cleanly(g: &Generated) {
    for input in &g.inputs {
        let run = run_source(&g.file_name, &g.source, input, &Config::default())
            .unwrap_or_else(|e| panic!("{e}\n--- source:\n{}", g.source));
        assert!(!run.output.is_empty(), "prints nothing:\n{}", g.source);
    }
}

#[test]
fn same_seed_same_program_other_seed_other_program() {
    assert_eq!(scalar_program(3).source, scalar_program(3).source);
    assert_eq!(affine_nest(3).source, affine_nest(3).source);
    assert_ne!(scalar_program(3).source, scalar_program(4).source);
    assert_ne!(affine_nest(3).source, affine_nest(4).source);
    assert_eq!(storage_program(3).source, storage_program(3).source);
    assert_ne!(storage_program(3).source, storage_program(4).source);
    assert_eq!(shared_nests(3).source, shared_nests(3).source);
    assert_ne!(shared_nests(3).source, shared_nests(4).source);
    assert_eq!(parallel_loops(3).source, parallel_loops(3).source);
    assert_ne!(parallel_loops(3).source, parallel_loops(4).source);
}

#[test]
fn scalar_programs_run_on_all_inputs() {
    for seed in 0..150 {
        let g = scalar_program(seed);
        assert_eq!(g.inputs.len(), 3);
        runs_cleanly(&g);
    }
}

#[test]
fn loop_nests_run_on_all_inputs() {
    for seed in 0..150 {
        runs_cleanly(&affine_nest(seed));
    }
}

#[test]
fn generators_cover_both_forms_labels_gotos_and_steps() {
    let scalars: Vec<String> = (0..60).map(|s| scalar_program(s).source).collect();
    let nests: Vec<Generated> = (0..60).map(affine_nest).collect();
    let any = |texts: &[String], pat: &str| texts.iter().any(|t| t.contains(pat));
    assert!(any(&scalars, "GO TO") && any(&scalars, "ELSE") && any(&scalars, "CONTINUE"));
    let nest_texts: Vec<String> = nests.iter().map(|g| g.source.clone()).collect();
    assert!(any(&nest_texts, ", -1\n") && any(&nest_texts, ", 2\n") && any(&nest_texts, "READ"));
    assert!(
        nests.iter().any(|g| g.file_name.ends_with(".f"))
            && nests.iter().any(|g| g.file_name.ends_with(".f90"))
    );
    let depth3 = nest_texts
        .iter()
        .any(|t| t.lines().any(|l| l.contains("DO ") && l.contains(" K = ")));
    assert!(depth3, "some nest is three deep");
}

#[test]
fn loop_nests_have_carried_dependences() {
    // The point of the nests: loop-carried dependences of several kinds.
    let mut carried = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let g = affine_nest(seed);
        let Some(input) = g.inputs.first() else {
            continue;
        };
        let run = run_source(&g.file_name, &g.source, input, &Config::default())
            .unwrap_or_else(|e| panic!("{e}"));
        for d in dependences(&run.trace) {
            if (d.var == "A" || d.var == "B") && d.distance.iter().any(|x| *x != 0) {
                carried.insert(d.kind);
            }
        }
    }
    for k in [
        DepKind::Flow,
        DepKind::Anti,
        DepKind::Output,
        DepKind::Input,
    ] {
        assert!(
            carried.contains(&k),
            "no carried {k:?} dependence on arrays in 40 nests"
        );
    }
}

#[test]
fn storage_programs_run_in_bounds() {
    for seed in 0..150 {
        runs_cleanly(&storage_program(seed));
    }
}

fn run_storage(seed: u64) -> (Generated, Run) {
    let g = storage_program(seed);
    let run = run_source(&g.file_name, &g.source, &[] as &[&str], &Config::default())
        .unwrap_or_else(|e| panic!("{e}\n--- source:\n{}", g.source));
    (g, run)
}

/// The statements of a unit as one line each (continuations joined).
fn statements(source: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in source.lines() {
        match (line.strip_prefix("     &"), out.last_mut()) {
            (Some(rest), Some(last)) => last.push_str(rest),
            _ => out.push(line.trim().to_string()),
        }
    }
    out
}

/// The items of each set of an EQUIVALENCE statement.
fn equivalence_sets(stmt: &str) -> Vec<Vec<String>> {
    let mut sets = Vec::new();
    let (mut depth, mut item) = (0, String::new());
    let mut set = Vec::new();
    for c in stmt.trim_start_matches("EQUIVALENCE").chars() {
        match (c, depth) {
            ('(', 0) => depth = 1,
            (')', 1) => {
                set.push(std::mem::take(&mut item).trim().to_string());
                sets.push(std::mem::take(&mut set));
                depth = 0;
            }
            (',', 1) => set.push(std::mem::take(&mut item).trim().to_string()),
            (c, d) if d > 0 => {
                depth += usize::from(c == '(');
                depth -= usize::from(c == ')');
                item.push(c);
            }
            _ => {}
        }
    }
    sets
}

#[test]
fn storage_programs_cover_the_forms_of_association() {
    let mut seen = BTreeSet::new();
    for seed in 0..60 {
        let (g, run) = run_storage(seed);
        let stmts = statements(&g.source);
        seen.insert(if g.file_name.ends_with(".f") {
            "fixed"
        } else {
            "free"
        });
        let arrays: BTreeSet<&str> = stmts
            .iter()
            .filter(|s| {
                s.starts_with("INTEGER") || s.starts_with("REAL") || s.starts_with("DOUBLE")
            })
            .flat_map(|s| s.split(", "))
            .filter_map(|d| d.split_whitespace().last()?.split_once('(').map(|(n, _)| n))
            .collect();
        for s in stmts.iter().filter(|s| s.starts_with("EQUIVALENCE")) {
            for set in equivalence_sets(s) {
                if set.len() == 3 {
                    seen.insert("a set of three");
                }
                for item in &set {
                    if item.contains(',') {
                        seen.insert("a 2-D element");
                    }
                    if !item.contains('(') && !arrays.contains(item.as_str()) {
                        seen.insert("a scalar");
                    }
                }
            }
        }
        if stmts
            .iter()
            .any(|s| s.starts_with("DOUBLE PRECISION") && s.contains(" M"))
        {
            seen.insert("DOUBLE PRECISION in COMMON");
        }
        if stmts.iter().any(|s| s.starts_with("CALL SUB2")) {
            seen.insert("two subroutines");
        }
        // Cells of the block past those the main program's members cover
        // (it writes each member whole): an EQUIVALENCE extends the block.
        let common: Vec<(usize, bool)> = run
            .trace
            .iter()
            .filter(|a| &*a.unit == "STORE")
            .filter_map(|a| {
                let (n, _) = run.common.name_of("STORE", a.loc)?;
                Some((a.loc.offset, n.var == a.var))
            })
            .collect();
        let members_end = common.iter().filter(|c| c.1).map(|c| c.0 + 1).max();
        let extended = common.iter().any(|c| c.0 >= members_end.unwrap_or(0));
        if extended {
            seen.insert("COMMON extended by EQUIVALENCE");
        }
        let args: Vec<&str> = stmts
            .iter()
            .filter_map(|s| s.strip_prefix("CALL SUB1(")?.strip_suffix(')'))
            .collect();
        let in_loop = args.iter().any(|a| matches!(*a, "I" | "J"));
        let outside = args.iter().any(|a| a.parse::<i64>().is_ok());
        assert!(
            in_loop && outside,
            "SUB1 called in and outside loops:\n{}",
            g.source
        );
    }
    let want = [
        "fixed",
        "free",
        "a set of three",
        "a 2-D element",
        "a scalar",
        "DOUBLE PRECISION in COMMON",
        "two subroutines",
        "COMMON extended by EQUIVALENCE",
    ];
    for w in want {
        assert!(seen.contains(w), "no program has {w}");
    }
}

#[test]
fn storage_programs_have_dependences_between_names_of_one_cell() {
    // The point of the programs: carried dependences of every kind whose
    // ends go through different names, in the main program and in a
    // subroutine, and through COMMON at a call.
    let (mut carried, mut in_sub, mut at_call) = (BTreeSet::new(), false, false);
    for seed in 0..40 {
        let (g, run) = run_storage(seed);
        let lines: Vec<&str> = g.source.lines().collect();
        let is_call = |line: u32| lines[line as usize - 1].contains("CALL");
        for unit in ["STORE", "SUB1", "SUB2"] {
            for activation in project(&run.trace, &run.common, unit) {
                for d in dependences(&activation) {
                    if d.var == d.sink_var {
                        continue;
                    }
                    if d.distance.iter().any(|x| *x != 0) {
                        carried.insert(d.kind);
                    }
                    in_sub |= unit != "STORE";
                    at_call |= is_call(d.src.pos.line) || is_call(d.dst.pos.line);
                }
            }
        }
    }
    for k in [
        DepKind::Flow,
        DepKind::Anti,
        DepKind::Output,
        DepKind::Input,
    ] {
        assert!(
            carried.contains(&k),
            "no carried {k:?} dependence between two names"
        );
    }
    assert!(
        in_sub && at_call,
        "in a subroutine: {in_sub}, at a call: {at_call}"
    );
}

#[test]
fn shared_nests_run_on_all_inputs_and_take_both_arms() {
    for seed in 0..150 {
        let g = shared_nests(seed);
        runs_cleanly(&g);
        // P (the last value read) is 1 in some run and 0 in another.
        let p: BTreeSet<&str> = g
            .inputs
            .iter()
            .filter_map(|i| i.last())
            .map(|s| &**s)
            .collect();
        assert_eq!(p, BTreeSet::from(["0", "1"]), "{:?}", g.inputs);
    }
}

/// The nests rewriting shared arrays run in bounds on all their inputs
/// (N down to 0, P both ways), and together have every shape that keeps a
/// rewrite from being whole.
#[test]
fn rewrite_nests_run_and_have_every_incomplete_shape() {
    let words = [
        "GOTO",
        "CYCLE",
        "EXIT",
        "IF (P .EQ. 1) THEN",
        "MIN(N,",
        "K = 1, N",
        "K = 1, 2",
        "SUM(",
    ];
    let seen = run_and_find(&words, (0..80).map(rewrite_nests));
    assert_eq!(seen.len(), words.len(), "{seen:?}");
    assert_eq!(rewrite_nests(3).source, rewrite_nests(3).source);
    assert_ne!(rewrite_nests(3).source, rewrite_nests(4).source);
}

/// Runs each program on all its inputs ([`runs_cleanly`]) and returns
/// which of `words` some program's source contains.
fn run_and_find<'w>(
    words: &[&'w str],
    programs: impl Iterator<Item = Generated>,
) -> BTreeSet<&'w str> {
    let mut seen = BTreeSet::new();
    for g in programs {
        runs_cleanly(&g);
        seen.extend(words.iter().filter(|w| g.source.contains(**w)));
    }
    seen
}

#[test]
fn control_programs_run_and_have_exit_cycle_and_select_case() {
    let words = [
        "EXIT\n",
        "CYCLE\n",
        "EXIT N",
        "CYCLE N",
        "SELECT CASE",
        "CASE DEFAULT",
        "CASE (:",
        ":)",
        "END DO N",
    ];
    let programs = (0..80).flat_map(|seed| [control_nests(seed), parallel_control_loops(seed)]);
    let seen = run_and_find(&words, programs);
    assert_eq!(seen.len(), words.len(), "{seen:?}");
    assert_eq!(control_nests(3).source, control_nests(3).source);
    assert_ne!(control_nests(3).source, shared_nests(3).source);
}

#[test]
fn shared_nests_have_the_shapes_they_promise() {
    let texts: Vec<String> = (0..60).map(|s| shared_nests(s).source).collect();
    let any = |pat: &str| texts.iter().any(|t| t.contains(pat));
    for pat in [
        "IF (P .GT. 0) THEN",
        "ELSE",
        "IF (I .GT. ",
        "M = M + ",
        "M = M - ",
        "L + ",
        ", 2\n",
        ", -1\n",
    ] {
        assert!(any(pat), "no program has {pat:?}");
    }
    // Outermost DO statements: the two initialization loops, then two or
    // three nests.
    let outermost = |t: &str| {
        t.lines()
            .filter(|l| l.strip_prefix("      ").unwrap_or(l).starts_with("DO "))
            .count()
    };
    assert!(texts.iter().all(|t| (4..=5).contains(&outermost(t))));
}

#[test]
fn shared_nests_join_nests_and_straight_line_code_through_arrays() {
    // Array dependences without common loops after the initialization:
    // between two nests, or between a nest and the code around it.
    let mut kinds = BTreeSet::new();
    for seed in 0..40 {
        let g = shared_nests(seed);
        let lines: Vec<&str> = g.source.lines().collect();
        let init_end = lines
            .iter()
            .rposition(|l| l.contains("REAL(MOD("))
            .expect("initialization loops") as u32
            + 1;
        let run = run_source(&g.file_name, &g.source, &g.inputs[0], &Config::default())
            .unwrap_or_else(|e| panic!("{e}"));
        for d in dependences(&run.trace) {
            if (d.var == "A" || d.var == "B") && d.loops.is_empty() && d.src.pos.line > init_end + 2
            {
                kinds.insert(d.kind);
            }
        }
    }
    for k in [DepKind::Flow, DepKind::Anti, DepKind::Output] {
        assert!(kinds.contains(&k), "no {k:?} dependence between nests");
    }
}

/// The programs of Fortran 90 scoping run on all inputs and have what the
/// generators promise: module procedures and external subroutines using
/// the module (with ONLY and renames), calls in loops, internal procedures
/// reading the host's DO variables, allocatable arrays in both shapes with
/// constant and symbolic bounds; and dependences between an access in a
/// subroutine and one in the main program, seen at the call.
#[test]
fn module_host_and_allocatable_programs_have_their_shapes() {
    let mut seen = BTreeSet::new();
    let mut across_units = 0;
    for seed in 0..30 {
        for g in [
            module_program(seed),
            host_program(seed),
            allocatable_program(seed),
        ] {
            runs_cleanly(&g);
            let src = &g.source;
            let module = src.contains("MODULE SHARED");
            for (what, found) in [
                (
                    "module procedure",
                    module && src.contains("CONTAINS\n  SUBROUTINE"),
                ),
                (
                    "external subroutine",
                    src.contains("END PROGRAM MAIN\nSUBROUTINE"),
                ),
                ("only", src.contains(", ONLY:")),
                ("rename", src.contains(" => ")),
                (
                    "call in a loop",
                    src.lines().any(|l| l.starts_with("    CALL")),
                ),
                ("host call", !module && src.contains("  CALL")),
                ("module allocatable", module && src.contains("ALLOCATABLE")),
                ("local allocatable", !module && src.contains("ALLOCATABLE")),
                ("symbolic bound", src.contains(":MAX(N")),
            ] {
                if found {
                    seen.insert(what);
                }
            }
            let run = run_source(&g.file_name, src, &g.inputs[0], &Config::default()).unwrap();
            let deps = dependences(&project(&run.trace, &run.common, "MAIN")[0]);
            across_units += deps
                .iter()
                .filter(|d| {
                    let line = |n: u32| src.lines().nth(n as usize - 1).unwrap_or("");
                    line(d.src.pos.line).contains("CALL") != line(d.dst.pos.line).contains("CALL")
                })
                .count();
        }
    }
    assert_eq!(seen.len(), 9, "{seen:?}");
    assert!(across_units > 100, "{across_units}");
}

/// argument programs promise: subroutines and functions called in loops
/// and outside, given whole arrays, elements and scalars, whose bodies
/// read only, write only, do both or neither to a dummy, hand their
/// dummies on to another subroutine, and may return early.
#[test]
fn argument_programs_have_their_shapes() {
    let mut seen = BTreeSet::new();
    for seed in 0..40 {
        let g = argument_program(seed);
        runs_cleanly(&g);
        let src = &g.source;
        for (what, found) in [
            ("function", src.contains("REAL FUNCTION")),
            (
                "element actual",
                src.contains(", A(I") || src.contains(", B(I"),
            ),
            ("passed on", src.contains("  CALL P")),
            (
                "only read",
                src.contains("W = W + X(") && !src.contains("  X("),
            ),
            ("call in a loop", src.contains("DO I = 1, N\n    CALL")),
            ("returns early", src.contains("IF (M .EQ. 2) RETURN")),
        ] {
            if found {
                seen.insert(what);
            }
        }
    }
    assert_eq!(
        seen.into_iter().collect::<Vec<_>>(),
        [
            "call in a loop",
            "element actual",
            "function",
            "only read",
            "passed on",
            "returns early"
        ]
    );
}

/// reread_nests promise: references that come back, the same element
/// read in two statements of one nest.
#[test]
fn reread_nests_run_on_all_inputs_and_read_elements_again() {
    let mut again = 0;
    for seed in 0..60 {
        let g = reread_nests(seed);
        runs_cleanly(&g);
        // The references on the right of the assignments, `A(I - 1)`.
        let mut seen = BTreeSet::new();
        let mut twice = false;
        for rhs in g
            .source
            .lines()
            .filter_map(|l| l.split_once(" = "))
            .map(|(_, r)| r)
        {
            for (i, _) in rhs.match_indices(['A', 'B']) {
                let at_name = i == 0 || !rhs.as_bytes()[i - 1].is_ascii_alphanumeric();
                let rest = &rhs[i..];
                if let (true, Some(end)) = (at_name && rest[1..].starts_with('('), rest.find(')')) {
                    twice |= !seen.insert(rest[..=end].to_string());
                }
            }
        }
        again += usize::from(twice);
    }
    assert!(again > 30, "{again} of 60 programs read an element twice");
    assert_ne!(reread_nests(3).source, exact_nests(3).source);
}

#[test]
fn exact_nests_run_on_all_inputs_and_have_the_shapes_they_promise() {
    let mut texts = Vec::new();
    for seed in 0..150 {
        let g = exact_nests(seed);
        runs_cleanly(&g);
        texts.push(g.source);
    }
    assert_eq!(exact_nests(3).source, exact_nests(3).source);
    assert_ne!(exact_nests(3).source, exact_nests(4).source);
    assert_ne!(exact_nests(3).source, shared_nests(3).source);
    let any = |pat: &str| texts.iter().any(|t| t.contains(pat));
    for pat in [
        ", -1\n",
        ", 2\n",
        "ELSE IF (",
        "ELSE\n",
        ".AND.",
        ".OR.",
        ".NOT.",
        "MOD(",
        "MODULO(",
        ".NE.",
        ".LE.",
        "M = M + 3",
        ") M = M ",
    ] {
        assert!(any(pat), "no program has {pat:?}");
    }
    // Zero-trip (`DO I = 3, 2`), one-trip (`DO J = I, I`) and
    // negative-step triangular loops (`DO J = 4, I + 1, -1`).
    let headers: Vec<&str> = texts
        .iter()
        .flat_map(|t| t.lines())
        .filter(|l| l.contains("DO "))
        .collect();
    let zero = headers.iter().any(|l| {
        let nums: Vec<i64> = l
            .split(['=', ','])
            .skip(1)
            .filter_map(|x| x.trim().parse().ok())
            .collect();
        nums.len() == 2 && nums[1] < nums[0]
    });
    assert!(zero, "no zero-trip loop");
    assert!(
        headers.iter().any(|l| l.ends_with("J = I, I")),
        "no DO J = I, I"
    );
    assert!(
        headers
            .iter()
            .any(|l| l.contains(" J = ") && l.contains("I") && l.ends_with(", -1")),
        "no negative-step triangular loop"
    );
}
