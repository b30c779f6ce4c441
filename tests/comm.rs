//! HPF communication (Li & Harada, seed 000), end to end on the paper's
//! examples (../shared/examples, EXPECTED.md): Gen and Kill of Example 3,
//! the elimination phase of Table 2, the propagation phase of Table 3,
//! the verdicts of Example 6 and the two-path partial redundancy of
//! section 2.2, through `kaiseki analyze` and `kaiseki comm`. Sets are
//! compared with the paper's by their elements (sections::enumerate),
//! for every value of the DO variable where they are functions of it.

mod common;

use common::{example, kaiseki_ok, scratch_dir};
use kaiseki_sections::enumerate::{elements, Elements};
use kaiseki_sections::sad::SadSet;
use kaiseki_sections::{parse_section, Approx};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The rows of one relation `kaiseki analyze` wrote for `file` (TSV, ids
/// as numbers).
fn relation(file: &Path, name: &str) -> Vec<Vec<String>> {
    let dir = scratch_dir(&format!(
        "comm_{}_{name}",
        file.file_stem().unwrap().to_str().unwrap()
    ));
    kaiseki_ok([
        "analyze".as_ref(),
        file.as_os_str(),
        "--raw".as_ref(),
        "--format".as_ref(),
        "tsv".as_ref(),
        "-o".as_ref(),
        dir.as_os_str(),
    ]);
    let text =
        std::fs::read_to_string(dir.join(format!("{name}.facts"))).expect("relation written");
    text.lines()
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

/// The statement id of the statement at `line` (first column 0 of `stmt`).
fn stmt_at(file: &Path, line: i64) -> String {
    let facts = common::lower_file(file);
    facts
        .stmt
        .iter()
        .find(|s| s.line == line && s.kind != "decl")
        .map(|s| s.stmt.to_string())
        .unwrap_or_else(|| panic!("no statement at line {line}"))
}

type Elems = BTreeSet<Vec<i64>>;

/// The elements of array `A` the set's items hold, with `I` = `i`; only
/// items whose mapping text contains `mapping` when given.
fn elems_of_set(set: &str, i: i64, mapping: Option<&str>) -> Elems {
    let s: SadSet = set.parse().expect("a descriptor set");
    let env = BTreeMap::from([("I".to_string(), i)]);
    let mut out = Elems::new();
    for x in s.items() {
        if x.array != "A" || x.cond.is_some() {
            continue;
        }
        if mapping.is_some_and(|m| !x.to_string().contains(m)) {
            continue;
        }
        match elements(x.section(), &env, (1, 100), Approx::Must).expect("enumerable") {
            Elements::Set(e) => out.extend(e),
            Elements::Everything => panic!("unknown section in {set}"),
        }
    }
    out
}

/// The elements of the paper's sections (`A(1:99, 2:I-1)`, ...), I = `i`.
fn elems_of_paper(sections: &[&str], i: i64) -> Elems {
    let env = BTreeMap::from([("I".to_string(), i)]);
    let mut out = Elems::new();
    for t in sections {
        let (_, s) = parse_section(t).expect("a section");
        if let Some(Elements::Set(e)) = elements(&s, &env, (1, 100), Approx::Must) {
            out.extend(e);
        }
    }
    out
}

#[test]
fn example_3_gen_and_kill_of_one_assignment() {
    let f = example("li_harada_ex3.f90");
    let s = stmt_at(&f, 17);
    let gen: Vec<_> = relation(&f, "sad_gen")
        .into_iter()
        .filter(|r| r[0] == s)
        .collect();
    let kill: Vec<_> = relation(&f, "sad_kill")
        .into_iter()
        .filter(|r| r[0] == s)
        .collect();
    // <C(2*I,J-1), <[1,2],[F1(j)=j/2, F2(j)=j+1]>> and <A(I,J), T>.
    assert_eq!(gen[0][1], "<C(2*I, J-1), VPROCS<[1,2],[j/2,j+1]>>");
    assert_eq!(kill[0][1], "<A(I, J), T>");
}

/// Gen and Kill of the summary node of the loop at `line`.
fn summary(rows: &[Vec<String>], f: &Path, line: i64) -> (String, String) {
    let l = stmt_at(f, line);
    let r = rows
        .iter()
        .find(|r| r[0] == "plain" && r[1] == l)
        .unwrap_or_else(|| panic!("no summary of the loop at line {line}"));
    (r[2].clone(), r[3].clone())
}

#[test]
fn table_2_elimination_phase_for_array_a() {
    let f = example("li_harada_fig1.f90");
    let rows = relation(&f, "summary_gk");
    let j = Some("VPROCS<[2,1],[j,j]>");
    // L2 (s2, line 24): Gen = A(1:100, I), P = [2,1], F = [j, j]; Kill of A: none.
    let (g2, k2) = summary(&rows, &f, 24);
    assert_eq!(g2, "<A(1:100, I), VPROCS<[2,1],[j,j]>>");
    assert!(!k2.contains("<A("), "{k2}");
    // L1 (s1, line 23): Gen = A(1:100, 100) and A(1:99, 2:100) (the copies
    // s3 fetched, minus what s5 kills in later iterations); Kill = A(100, 1:99).
    // Our Gen also lists the copies s6 itself reads (A(1, 2:100) onto D's
    // owners, mapping [2,-],[j,=1]): the paper folds them into "A(1:100, I)".
    let (g1, k1) = summary(&rows, &f, 23);
    assert_eq!(
        elems_of_set(&g1, 0, j),
        elems_of_paper(&["A(1:100, 100)", "A(1:99, 2:100)"], 0)
    );
    assert!(g1.contains("<A(1, 2:100), VPROCS<[2,-],[j,=1]>>"), "{g1}");
    assert!(k1.contains("<A(100, 1:99), T>"), "{k1}");
    // L3 (s10, line 32): Gen_con = A(100, 2:100), read onto C's owners
    // VPROCS(I, 1) (the paper prints the mapping of A's dimensions loosely).
    let (g3, _) = summary(&rows, &f, 32);
    assert_eq!(g3, "<A(100, 2:100), VPROCS<[2,-],[j,=1]>>");
    // L4 (s14, line 36): Gen = A(100, 30:50).
    let (g4, _) = summary(&rows, &f, 36);
    assert_eq!(g4, "<A(100, 30:50), VPROCS<[2,-],[j,=1]>>");
}

/// The sets of `sad_sets` at node `line` of level `level_line` (columns:
/// level, node, gen, kill, in, out, in_con, upin, upout).
fn sets_at(rows: &[Vec<String>], f: &Path, level_line: i64, line: i64) -> Vec<String> {
    let lv = if level_line == 0 {
        "0".to_string()
    } else {
        stmt_at(f, level_line)
    };
    let n = stmt_at(f, line);
    rows.iter()
        .find(|r| r[0] == lv && r[1] == n)
        .unwrap_or_else(|| panic!("no sets at line {line} of level {level_line}"))
        .clone()
}

#[test]
fn table_3_propagation_phase_for_array_a() {
    let f = example("li_harada_fig1.f90");
    let rows = relation(&f, "sad_sets");
    let j = Some("VPROCS<[2,1],[j,j]>");
    let in2 = &sets_at(&rows, &f, 23, 24)[4];
    let out2 = &sets_at(&rows, &f, 23, 24)[5];
    let in5 = &sets_at(&rows, &f, 23, 27)[4];
    let out5 = &sets_at(&rows, &f, 23, 27)[5];
    let in6 = &sets_at(&rows, &f, 23, 28)[4];
    // The paper's `A(1:100, I-1)` names column 1 when I = 2, which L1 never
    // reads (its first iteration reads column 2): both sides are compared
    // on the columns L1 reads, 2:100.
    for i in 2..=100 {
        let paper = |s: &[&str]| -> Elems {
            elems_of_paper(s, i)
                .into_iter()
                .filter(|e| e[1] >= 2)
                .collect()
        };
        // IN_2(I) = OUT_1(I) = A(1:99, 2:I-1), A(1:100, I-1). Ours lacks
        // A(100, I-1): it is there only when I >= 3 (column I-1 was read),
        // which no triplet over I can say for every I, so the must-set
        // leaves it out (smaller, never wrong). s5 kills it before s6.
        let late = |mut e: Elems| {
            e.remove(&vec![100, i - 1]);
            e
        };
        assert_eq!(
            elems_of_set(in2, i, j),
            late(paper(&["A(1:99, 2:I-1)", "A(1:100, I-1)"])),
            "IN_2, I = {i}"
        );
        // OUT_2(I) = IN_5(I) = A(1:99, 2:I-1), A(1:100, I-1:I)
        let o2 = late(paper(&["A(1:99, 2:I-1)", "A(1:100, I-1:I)"]));
        assert_eq!(elems_of_set(out2, i, j), o2, "OUT_2, I = {i}");
        assert_eq!(elems_of_set(in5, i, j), o2, "IN_5, I = {i}");
        // OUT_5(I) = IN_6(I) = A(1:99, 2:I), A(1:100, I)
        let o5 = paper(&["A(1:99, 2:I)", "A(1:100, I)"]);
        assert_eq!(elems_of_set(out5, i, j), o5, "OUT_5, I = {i}");
        assert_eq!(elems_of_set(in6, i, j), o5, "IN_6, I = {i}");
    }
    // IN_11^con(I) = A(100, 2:I-1): the copies s11 fetched in the earlier
    // iterations. Inside the THEN branch we follow the path where N .EQ. 100
    // held, so they are in IN_11 itself, beside the unconditional copies
    // onto the same processors, A(1, 3:100) of s6 (the paper leaves those
    // out of its conditional set); they become conditional at the ENDIF.
    let in11 = &sets_at(&rows, &f, 32, 33)[4];
    for i in 2..=100 {
        assert_eq!(
            elems_of_set(in11, i, Some("VPROCS<[2,-],[j,=1]>")),
            elems_of_paper(&["A(100, 2:I-1)", "A(1, 3:100)"], i),
            "IN_11, I = {i}"
        );
    }
    let con14 = &sets_at(&rows, &f, 0, 36)[6];
    assert!(
        con14.contains(":<A(100, 2:100), VPROCS<[2,-],[j,=1]>>"),
        "{con14}"
    );
    // IN_15(I) = A(1:99, 2:100), A(1:100, 100), A(100, 30:I-1). The paper
    // keeps A(1, 2), which s8 kills (its own Example 6 says so): ours does not.
    let in15 = &sets_at(&rows, &f, 36, 37)[4];
    for i in 30..=50 {
        let mut paper = elems_of_paper(&["A(1:99, 2:100)", "A(1:100, 100)", "A(100, 30:I-1)"], i);
        paper.remove(&vec![1, 2]);
        assert_eq!(elems_of_set(in15, i, None), paper, "IN_15, I = {i}");
    }
}

/// `kaiseki comm --format csv` rows by line: (verdict, condition,
/// send_section, send_at_line).
fn verdicts(file: &Path) -> BTreeMap<i64, Vec<String>> {
    comm_rows(file)
        .into_iter()
        .map(|f| (f[1].parse().unwrap(), f[7..].to_vec()))
        .collect()
}

/// The fields of each row `kaiseki comm --format csv` prints for `file`.
fn comm_rows(file: &Path) -> Vec<Vec<String>> {
    let out = kaiseki_ok([
        "comm".as_ref(),
        file.as_os_str(),
        "--format".as_ref(),
        "csv".as_ref(),
    ]);
    let mut lines = out.lines();
    assert_eq!(
        lines.next(),
        Some(
            "unit,line,col,array,section,owner,reader,verdict,condition,send_section,send_at_line"
        )
    );
    lines.map(split_csv).collect()
}

/// One CSV line's fields (quoted fields may hold commas).
fn split_csv(line: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => out.push(String::new()),
            c => out.last_mut().unwrap().push(c),
        }
    }
    out
}

#[test]
fn example_6_complete_conditional_and_partial_redundancy() {
    let v = verdicts(&example("li_harada_fig1.f90"));
    let row = |line: i64| {
        v.get(&line)
            .unwrap_or_else(|| panic!("no row at line {line}: {v:?}"))
    };
    // s3 (line 25) and s11 (line 33) fetch for the first time; s8 (30) too.
    assert_eq!(row(25)[0], "needed");
    assert_eq!(row(33)[0], "needed");
    assert_eq!(row(30)[0], "needed");
    // s6: the copy of A(1, I) was fetched at s3 when J = 1.
    assert_eq!(row(28)[0], "complete");
    // s15: redundant when N .EQ. 100 held at s9 (line 31).
    assert_eq!(row(37)[..2], ["conditional", "N.EQ.100 at 31"]);
    // s18: only A(1, 2), killed at s8 (line 30), is sent, at s8's exit.
    assert_eq!(row(40)[..], ["partial", "", "A(1, 2)", "30"]);
}

#[test]
fn one_transfer_after_s20_removes_the_partial_redundancy_of_two_paths() {
    let v = verdicts(&example("li_harada_s20.f90"));
    // s23 (line 21, only when N .EQ. 50) and s27 (line 25): A(50), at the
    // exit of s20 (line 18).
    for line in [21, 25] {
        assert_eq!(v[&line][..], ["partial", "", "A(50)", "18"], "line {line}");
    }
}

/// A unit that distributes no array has nothing to transfer: its
/// statements get no Gen and Kill sets (whose kill sets of scalars would
/// grow with a long unit's length), while the unit beside it that
/// distributes one does.
#[test]
fn units_without_distributed_arrays_are_not_analyzed() {
    let dir = scratch_dir("comm_plain_unit");
    let file = dir.join("two_units.f90");
    std::fs::write(
        &file,
        "program main\n  real :: a(100)\n!hpf$ distribute a(block)\n  integer :: i\n  do i = 2, 100\n    a(i) = a(i-1)\n  end do\n  call plain\n  print *, a(100)\nend program\nsubroutine plain\n  real :: b(10), s\n  integer :: k\n  s = 0\n  do k = 1, 10\n    b(k) = s\n    s = s + 1\n  end do\n  print *, b(10)\nend subroutine\n",
    )
    .unwrap();
    let facts = common::lower_file(&file);
    let unit_of: BTreeMap<String, String> = facts
        .stmt
        .iter()
        .map(|s| (s.stmt.to_string(), s.unit.clone()))
        .collect();
    for name in ["sad_gen", "sad_kill"] {
        let units: BTreeSet<&str> = relation(&file, name)
            .iter()
            .map(|r| unit_of[&r[0]].as_str())
            .collect();
        assert_eq!(units, BTreeSet::from(["MAIN"]), "{name}");
    }
}

/// The array statements' plan of `kaiseki spmd` is a relation
/// (`spmd_array`, `spmd_array_read`): which array assignments and
/// reductions run owner-computes, and how each distributed array they
/// read reaches the owner that computes, by line and array.
#[test]
fn array_statements_plan_owner_computes_as_relations() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/spmd");
    type Plan = (BTreeSet<(i64, String)>, BTreeSet<(i64, String, String)>);
    let plan = |file: &str| -> Plan {
        let file = dir.join(file);
        let facts = common::lower_file(&file);
        let line: BTreeMap<String, i64> = facts
            .stmt
            .iter()
            .map(|s| (s.stmt.to_string(), s.line))
            .collect();
        let array: BTreeMap<String, String> = facts
            .r#use
            .iter()
            .map(|u| (u.r#ref.to_string(), u.var.clone()))
            .collect();
        let ops = relation(&file, "spmd_array")
            .iter()
            .map(|r| (line[&r[0]], r[2].clone()))
            .collect();
        let reads = relation(&file, "spmd_array_read")
            .iter()
            .map(|r| (line[&r[0]], array[&r[1]].clone(), r[2].clone()))
            .collect();
        (ops, reads)
    };
    // An array assignment kills the section it assigns.
    let array_assign = dir.join("array_assign.f90");
    let kills = relation(&array_assign, "sad_kill");
    for (line, kill) in [(27, "<A(2:38:3), T>"), (29, "<C(2:40:2), T>")] {
        let s = stmt_at(&array_assign, line);
        assert!(
            kills.iter().any(|r| r[0] == s && r[1] == kill),
            "line {line}: {kills:?}"
        );
    }
    let (ops, reads) = plan("array_assign.f90");
    let lines: Vec<i64> = ops.iter().map(|(l, _)| *l).collect();
    // Not 32, 33, 42: they read the array they assign elsewhere.
    assert_eq!(lines, [25, 26, 27, 28, 29, 30, 31, 35, 37, 39, 40, 41]);
    assert!(ops.iter().all(|(_, op)| op == "="));
    let read = |l: i64, a: &str, how: &str| (l, a.to_string(), how.to_string());
    for r in [
        read(25, "A", "local"),    // B aligned with A, same subscripts
        read(26, "A", "exchange"), // C is CYCLIC, A BLOCK
        read(29, "C", "local"),    // C(N:1:-2) at the element assigned
        read(29, "B", "exchange"),
        read(40, "G", "local"),    // H aligned with G: G(2:N-1, 2:N-1)
        read(40, "G", "exchange"), // G(1:N-2, 3:N)
        read(41, "G", "exchange"), // a column into a row
    ] {
        assert!(reads.contains(&r), "{r:?} not in {reads:?}");
    }
    let (ops, reads) = plan("reductions.f90");
    let ops: Vec<(i64, &str)> = ops.iter().map(|(l, o)| (*l, o.as_str())).collect();
    // Not the REAL SUM of line 42 (the order of a sum changes its bits).
    assert_eq!(
        ops,
        [
            (28, "MAX"),
            (29, "MIN"),
            (31, "MAX"),
            (32, "MIN"),
            (34, "MAX"),
            (35, "SUM"),
            (36, "SUM"),
            (39, "MAX"),
            (40, "MIN"),
            (41, "SUM")
        ]
    );
    for r in [
        read(31, "H", "local"),
        read(31, "G", "local"),
        read(34, "A", "local"),
        read(34, "C", "exchange"),
        read(36, "K", "local"),
        read(36, "K", "exchange"),
    ] {
        assert!(reads.contains(&r), "{r:?} not in {reads:?}");
    }
}

/// The real-processor check (6.2, equation 12) with the declared
/// PROCESSORS: reads whose owner and reader are other virtual processors
/// of one real processor for every iteration are `local` (CYCLIC on 4:
/// I+4 and I; BLOCK of 25: 25 and 1); the others stay (I+1 and I; 26
/// and 25, across a block boundary).
#[test]
fn real_processors_of_the_declared_grid_make_reads_local() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/spmd/real_processors.f90");
    let rows: Vec<(String, String, String, String)> = comm_rows(&file)
        .into_iter()
        .map(|f| (f[1].clone(), f[5].clone(), f[6].clone(), f[7].clone()))
        .collect();
    let row = |l: &str, o: &str, r: &str, v: &str| (l.into(), o.into(), r.into(), v.into());
    assert_eq!(
        rows,
        [
            row("26", "T(I+4)", "T(I)", "local"),
            row("29", "T(I+1)", "T(I)", "needed"),
            row("31", "U(25)", "U(1)", "local"),
            row("32", "U(26)", "U(25)", "needed"),
            row("34", "U(I+1)", "U(I)", "needed"),
            row("34", "U(I-1)", "U(I)", "needed"),
        ]
    );
}

/// The reads of owner-computes array statements are reported element by
/// element (`sad_pairing`): `B(N:1:-1)` read at `A(1:N)` is needed though
/// both cover the same processors; rows of X that differ along its
/// undistributed dimension are local, as are CYCLIC elements a multiple
/// of the four processors apart; a section read where it is computed has
/// no row.
#[test]
fn array_statement_reads_are_reported_element_by_element() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/spmd/pairing.f90");
    let rows: Vec<(i64, String)> = comm_rows(&file)
        .into_iter()
        .map(|f| (f[1].parse().unwrap(), f[7].clone()))
        .collect();
    let row = |l: i64, v: &str| (l, v.to_string());
    assert_eq!(
        rows,
        [
            row(28, "needed"),
            row(29, "local"),
            row(29, "local"),
            row(31, "local"),
            row(32, "local"),
        ]
    );
}
