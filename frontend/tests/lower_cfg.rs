//! Lowering of control flow: statement numbering, CFG edges, entries and
//! exits, and basic blocks.

mod common;
use common::*;

fn blocks(f: &kaiseki_facts::FactBase) -> Vec<Vec<i64>> {
    let mut out: Vec<Vec<i64>> = Vec::new();
    let mut rows: Vec<_> = f
        .block_stmt
        .iter()
        .map(|b| (b.block, b.index, b.stmt))
        .collect();
    rows.sort();
    for (block, index, stmt) in rows {
        assert_eq!(
            out.last().map(|b| b[0]) == Some(block),
            index > 0,
            "block {block} index {index}"
        );
        if index == 0 {
            assert_eq!(block, stmt, "a block's id is its first statement");
            out.push(vec![stmt]);
        } else if let Some(b) = out.last_mut() {
            b.push(stmt);
        }
    }
    out
}

fn edges(f: &kaiseki_facts::FactBase) -> Vec<(i64, i64)> {
    f.cfg_edge.iter().map(|e| (e.from, e.to)).collect()
}

#[test]
fn block_if_with_else_if_and_empty_else() {
    let f = facts(
        "t.f90",
        "program t
  integer :: n, x
  read *, n
  if (n > 0) then
    x = 1
  else if (n < 0) then
    x = 2
  else
  end if
  print *, x
end program t
",
    );
    let k: Vec<String> = kinds(&f).into_iter().map(|(_, k)| k).collect();
    assert_eq!(
        k,
        ["decl", "read", "if", "assign", "elseif", "assign", "else", "endif", "print", "end"]
    );
    assert_eq!(
        edges(&f),
        vec![
            (2, 3),
            (3, 4),
            (3, 5),
            (4, 8),
            (5, 6),
            (5, 7),
            (6, 8),
            (7, 8),
            (8, 9),
            (9, 10)
        ]
    );
    let conds: Vec<(i64, String)> = f.cond.iter().map(|c| (c.stmt, c.text.clone())).collect();
    assert_eq!(
        conds,
        vec![(3, "N.GT.0".to_string()), (5, "N.LT.0".to_string())]
    );
    assert_eq!(f.cfg_entry.len(), 1);
    assert_eq!(f.cfg_entry[0].stmt, 2);
    assert_eq!(
        blocks(&f),
        vec![
            vec![2, 3],
            vec![4],
            vec![5],
            vec![6],
            vec![7],
            vec![8, 9, 10]
        ]
    );
}

#[test]
fn labelled_do_with_a_goto_out_of_the_loop() {
    let f = facts(
        "t.f",
        "      PROGRAM T
      INTEGER I, N
      REAL X
      N = 10
      X = 0.0
      DO 10 I = 1, N
        IF (X .GT. 5.0) GOTO 20
        X = X + 1.0
   10 CONTINUE
   20 PRINT *, X
      END
",
    );
    let rows: Vec<(i64, i64, i64, String)> = f
        .stmt
        .iter()
        .map(|s| (s.stmt, s.line, s.col, s.kind.clone()))
        .collect();
    let expect = [
        (1, 2, 7, "decl"),
        (2, 3, 7, "decl"),
        (3, 4, 7, "assign"),
        (4, 5, 7, "assign"),
        (5, 6, 7, "do"),
        (6, 7, 9, "logical_if"),
        (7, 7, 25, "goto"),
        (8, 8, 9, "assign"),
        (9, 9, 7, "continue"),
        (10, 9, 0, "enddo"),
        (11, 10, 7, "print"),
        (12, 11, 7, "end"),
    ];
    let expect: Vec<(i64, i64, i64, String)> = expect
        .iter()
        .map(|&(a, b, c, d)| (a, b, c, d.to_string()))
        .collect();
    assert_eq!(rows, expect);
    assert_eq!(
        edges(&f),
        vec![
            (3, 4),
            (4, 5),
            (5, 6),
            (5, 11),
            (6, 7),
            (6, 8),
            (7, 11),
            (8, 9),
            (9, 10),
            (10, 6),
            (10, 11),
            (11, 12)
        ]
    );
    let labels: Vec<(i64, i64)> = f.stmt_label.iter().map(|l| (l.stmt, l.label)).collect();
    assert_eq!(labels, vec![(9, 10), (11, 20)]);
    assert_eq!(
        blocks(&f),
        vec![
            vec![3, 4, 5],
            vec![6],
            vec![7],
            vec![8, 9, 10],
            vec![11, 12]
        ]
    );
    let bedges: Vec<(i64, i64)> = f.block_edge.iter().map(|e| (e.from, e.to)).collect();
    assert_eq!(
        bedges,
        vec![(3, 6), (3, 11), (6, 7), (6, 8), (7, 11), (8, 6), (8, 11)]
    );
}

#[test]
fn do_while_tests_at_the_header() {
    let f = facts(
        "t.f90",
        "program t
  integer :: i
  i = 0
  do while (i < 10)
    i = i + 1
  end do
end program t
",
    );
    assert_eq!(edges(&f), vec![(2, 3), (3, 4), (3, 6), (4, 5), (5, 3)]);
    let l = &f.r#loop[0];
    assert_eq!(
        (l.r#loop, l.kind.as_str(), l.var.as_str(), l.line, l.depth),
        (3, "do_while", "", 4, 1)
    );
    assert_eq!(f.loop_end[0].stmt, 5);
    assert_eq!(f.cond[0].text, "I.LT.10");
    assert!(f.loop_bounds.is_empty() && f.loop_trip.is_empty());
}

#[test]
fn computed_goto_arithmetic_if_return_and_stop() {
    let f = facts(
        "s.f",
        "      SUBROUTINE S(K)
      INTEGER K
      GO TO (10, 20), K
      IF (K - 5) 10, 20, 30
   10 RETURN
   20 STOP
   30 CONTINUE
      END
",
    );
    let k: Vec<String> = kinds(&f).into_iter().map(|(_, k)| k).collect();
    assert_eq!(
        k,
        [
            "decl",
            "computed_goto",
            "arith_if",
            "return",
            "stop",
            "continue",
            "end"
        ]
    );
    assert_eq!(
        edges(&f),
        vec![
            (2, 3),
            (2, 4),
            (2, 5),
            (3, 4),
            (3, 5),
            (3, 6),
            (4, 7),
            (6, 7)
        ]
    );
    let exits: Vec<i64> = f.cfg_exit.iter().map(|e| e.stmt).collect();
    assert_eq!(exits, vec![4, 5, 7]);
    let conds: Vec<&str> = f.cond.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(conds, ["K", "K-5"]);
    assert_eq!(
        blocks(&f),
        vec![vec![2], vec![3], vec![4], vec![5], vec![6], vec![7]]
    );
}

#[test]
fn unreachable_statements_get_blocks_of_their_own() {
    let f = facts(
        "t.f",
        "      PROGRAM T
      GOTO 10
      X = 1.0
   10 CONTINUE
      END
",
    );
    assert_eq!(edges(&f), vec![(1, 3), (2, 3), (3, 4)]);
    assert_eq!(blocks(&f), vec![vec![1], vec![2], vec![3, 4]]);
}

#[test]
fn unknown_labels_are_errors_and_the_rest_is_still_lowered() {
    let (f, diags) = lower_src(
        "t.f",
        "      PROGRAM T
      X = 1.0
      GOTO 99
      END
",
    );
    assert_eq!(
        errors(&diags),
        vec!["no statement has label 99".to_string()]
    );
    let d = diags.iter().find(|d| d.is_error()).expect("error");
    assert_eq!((d.line, d.path.as_str()), (3, "t.f"));
    assert_eq!(d.source_line.as_deref(), Some("      GOTO 99"));
    assert_eq!(kinds(&f).len(), 3);
    assert_eq!(succs(&f, 2), Vec::<i64>::new());
}

#[test]
fn statement_ids_run_on_across_units_and_entries_are_per_unit() {
    let f = facts(
        "t.f",
        "      PROGRAM T
      CALL S
      END
      SUBROUTINE S
      RETURN
      END
",
    );
    assert_eq!(
        kinds(&f),
        vec![
            (1, "call".into()),
            (2, "end".into()),
            (3, "return".into()),
            (4, "end".into())
        ]
    );
    let entries: Vec<(String, i64)> = f
        .cfg_entry
        .iter()
        .map(|e| (e.unit.clone(), e.stmt))
        .collect();
    assert_eq!(entries, vec![("S".to_string(), 3), ("T".to_string(), 1)]);
    assert_eq!(edges(&f), vec![(1, 2), (3, 4)]);
    assert_eq!(f.call[0].callee, "S");
}

#[test]
fn duplicate_labels_and_jumps_to_format_are_errors() {
    let (f, diags) = lower_src(
        "t.f",
        "      PROGRAM T
   10 X = 1.0
   10 Y = 2.0
      GOTO 20
   20 FORMAT (F8.2)
      END
",
    );
    assert_eq!(
        errors(&diags),
        vec![
            "label 10 is defined more than once".to_string(),
            "label 20 is not on an executable statement".to_string()
        ]
    );
    assert_eq!(f.stmt.iter().filter(|s| s.kind == "format").count(), 1);
}

#[test]
fn an_opaque_statement_may_jump_and_touch_every_variable() {
    let (f, diags) = lower_src(
        "t.f90",
        "program p
  integer :: i, n
  real :: x(10), s
  n = 10
  do i = 1, n
    rewind 7
    s = s + x(i)
  end do
10 continue
end program p
",
    );
    assert!(diags.iter().all(|d| !d.is_error()));
    let opaque = nth(&f, "opaque", 0);
    let succ: Vec<i64> = edges(&f)
        .into_iter()
        .filter(|&(a, _)| a == opaque)
        .map(|(_, b)| b)
        .collect();
    // fallthrough, the enddo (CYCLE/EXIT), the labelled CONTINUE, the END
    let expected = [
        nth(&f, "assign", 1),
        nth(&f, "enddo", 0),
        nth(&f, "continue", 0),
        nth(&f, "end", 0),
    ];
    for t in expected {
        assert!(succ.contains(&t), "{t} missing from {succ:?}");
    }
    // a use and a may-definition of every variable of the unit
    let at = |rel: Vec<(i64, String)>| -> Vec<String> {
        let mut v: Vec<String> = rel
            .into_iter()
            .filter(|(s, _)| *s == opaque)
            .map(|(_, v)| v)
            .collect();
        v.sort();
        v
    };
    let vars = ["I", "N", "S", "X"];
    assert_eq!(
        at(f.r#use.iter().map(|u| (u.stmt, u.var.clone())).collect()),
        vars
    );
    assert_eq!(
        at(f.def.iter().map(|d| (d.stmt, d.var.clone())).collect()),
        vars
    );
    let opaque_defs: Vec<i64> = f
        .def
        .iter()
        .filter(|d| d.stmt == opaque)
        .map(|d| d.r#ref)
        .collect();
    assert!(f.must_def.iter().all(|m| !opaque_defs.contains(&m.r#ref)));
}

#[test]
fn exit_and_cycle_go_past_and_to_the_end_of_their_loops() {
    let f = facts(
        "x.f90",
        "program x
  integer :: i, j, n
  outer: do i = 1, n
    do j = 1, n
      if (j > i) cycle outer
      if (j == 2) exit
      n = n + 1
    end do
    if (i > 5) exit outer
  end do outer
  print *, n
end program x
",
    );
    let k: Vec<(i64, String)> = kinds(&f);
    let id = |kind: &str, nth: usize| {
        k.iter()
            .filter(|(_, x)| x == kind)
            .nth(nth)
            .map(|(s, _)| *s)
            .unwrap_or_else(|| panic!("no {kind} {nth}: {k:?}"))
    };
    let (do_i, do_j) = (id("do", 0), id("do", 1));
    let (enddo_j, enddo_i) = (id("enddo", 0), id("enddo", 1));
    let (cycle, exit_j, exit_i) = (id("cycle", 0), id("exit", 0), id("exit", 1));
    let print = id("print", 0);
    let out = |s: i64| -> Vec<i64> {
        edges(&f)
            .into_iter()
            .filter(|e| e.0 == s)
            .map(|e| e.1)
            .collect()
    };
    // CYCLE OUTER: the end of the outer loop (its next iteration), only.
    assert_eq!(out(cycle), [enddo_i]);
    // EXIT: where the inner loop goes on (the logical IF after it).
    assert_eq!(out(exit_j), [id("logical_if", 2)]);
    assert_eq!(out(exit_i), [print]);
    assert!(out(do_i).contains(&print) && out(enddo_i).contains(&print));
    assert!(out(enddo_j).contains(&(do_j + 1)));
}

#[test]
fn select_case_is_a_chain_of_tests_on_one_read_of_the_selector() {
    let f = facts(
        "s.f90",
        "program s
  integer :: k, x
  read *, k
  select case (k)
  case default
    x = 0
  case (1, 3:5)
    x = 1
  case (:0)
  end select
  print *, x
end program s
",
    );
    let k: Vec<String> = kinds(&f).into_iter().map(|(_, k)| k).collect();
    assert_eq!(
        k,
        [
            "decl",
            "read",
            "select",
            "case",
            "assign",
            "case",
            "case_default",
            "assign",
            "endselect",
            "print",
            "end"
        ]
    );
    // select -> case (1, 3:5) -> case (:0) -> default; each case to its
    // body (an empty one to the end select). CASE DEFAULT is numbered
    // last, with its body: every edge goes forward.
    let mut e = edges(&f);
    e.sort();
    assert_eq!(
        e,
        vec![
            (2, 3),
            (3, 4),
            (4, 5),
            (4, 6),
            (5, 9),
            (6, 7),
            (6, 9),
            (7, 8),
            (8, 9),
            (9, 10),
            (10, 11)
        ]
    );
    // The selector is read once, by the SELECT.
    let uses: Vec<i64> = f
        .r#use
        .iter()
        .filter(|u| u.var == "K")
        .map(|u| u.stmt)
        .collect();
    assert_eq!(uses, [3]);
}

#[test]
fn a_where_statement_reads_its_mask_and_may_write_its_left_side() {
    let f = facts(
        "w.f90",
        "program w
  real :: a(10), b(10)
  b = 1.0
  where (a > 0.0) b = a
  print *, b
end program w
",
    );
    let k: Vec<String> = kinds(&f).into_iter().map(|(_, k)| k).collect();
    assert_eq!(k, ["decl", "assign", "where", "print", "end"]);
    let uses: Vec<(i64, String)> = f.r#use.iter().map(|u| (u.stmt, u.var.clone())).collect();
    assert!(uses.contains(&(3, "A".to_string())), "{uses:?}");
    let defs: Vec<(i64, String)> = f.def.iter().map(|d| (d.stmt, d.var.clone())).collect();
    assert!(defs.contains(&(3, "B".to_string())), "{defs:?}");
    // A may-write: it kills nothing, so B = 1.0 still reaches the PRINT.
    assert!(!f
        .must_def
        .iter()
        .any(|k| f.def.iter().any(|d| d.r#ref == k.r#ref && d.stmt == 3)));
}
