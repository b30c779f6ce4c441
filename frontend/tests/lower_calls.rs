//! What a call touches without naming it: a use of the caller's COMMON
//! members that overlap the bytes the callee (or what it calls) may read,
//! and a possible definition of those that overlap what it may write,
//! whatever names and shapes the callee gives the block; all of them when
//! the callee is not a unit of the program or has an opaque statement.

mod common;
use common::*;
use kaiseki_facts::FactBase;

/// The variables the call on `line` reads and those it defines, names it
/// spells itself included.
fn touched_at(f: &FactBase, line: i64) -> (Vec<String>, Vec<String>) {
    let stmt = f
        .stmt
        .iter()
        .find(|s| s.line == line && s.kind == "call")
        .expect("a call on the line")
        .stmt;
    let of = |kind: &str| {
        let mut v: Vec<String> = refs(f, stmt)
            .into_iter()
            .filter(|(_, k, _)| *k == kind)
            .map(|(_, _, v)| v)
            .collect();
        v.sort();
        v.dedup();
        v
    };
    (of("use"), of("def"))
}

fn used_at(f: &FactBase, line: i64) -> Vec<String> {
    touched_at(f, line).0
}

fn defined_at(f: &FactBase, line: i64) -> Vec<String> {
    touched_at(f, line).1
}

const PROGRAM: &str = "      PROGRAM P
      COMMON /A/ X, Y
      COMMON /B/ U(10)
      COMMON /C/ W
      CALL ONLYA
      CALL VIAB
      CALL LIB(W)
      CALL OPAQ
      END
      SUBROUTINE ONLYA
      COMMON /A/ S(2)
      S(1) = S(2)
      END
      SUBROUTINE VIAB
      COMMON /C/ T
      T = F(1.0)
      END
      REAL FUNCTION F(Z)
      COMMON /B/ V(5), V2(5)
      F = Z + V2(1)
      END
      SUBROUTINE OPAQ
      COMMON /A/ Q(2)
      COMMON /B/ R(10)
      ASSIGN 10 TO I
   10 CONTINUE
      END
";

#[test]
fn a_call_touches_the_blocks_its_callee_names_whatever_their_layout() {
    let (f, _) = lower_src("t.f", PROGRAM);
    // ONLYA names /A/ as one array S: S(2) is read, S(1) written, and an
    // element stands for its array, so the call reads and writes X and Y.
    assert_eq!(
        touched_at(&f, 5),
        (vec!["X".into(), "Y".into()], vec!["X".into(), "Y".into()])
    );
}

#[test]
fn blocks_reach_the_caller_through_the_callees_calls() {
    let (f, _) = lower_src("t.f", PROGRAM);
    // VIAB writes /C/ and calls F, which reads /B/.
    assert_eq!(used_at(&f, 6), ["U"]);
    assert_eq!(defined_at(&f, 6), ["W"]);
}

#[test]
fn an_unknown_or_opaque_callee_touches_every_block() {
    let (f, _) = lower_src("t.f", PROGRAM);
    let all: Vec<String> = ["U", "W", "X", "Y"].map(String::from).to_vec();
    // LIB is not a unit of the program; W is also its argument.
    assert_eq!(touched_at(&f, 7), (all.clone(), all.clone()));
    // OPAQ has a statement the analyses do not model (it might call anything).
    assert_eq!(touched_at(&f, 8), (all.clone(), all));
}

#[test]
fn a_timer_that_calls_intrinsic_subroutines_touches_only_its_blocks() {
    let (f, diags) = lower_src(
        "t.f",
        "      PROGRAM P
      COMMON /A/ X
      COMMON /T/ T0
      CALL TICK
      END
      SUBROUTINE TICK
      COMMON /T/ T0
      CALL CPU_TIME(T0)
      END
",
    );
    assert!(diags.is_empty(), "{diags:?}");
    // CPU_TIME is no procedure of unknown effects: TICK writes T0 only.
    assert_eq!(touched_at(&f, 4), (vec![], vec!["T0".to_string()]));
}

/// /D/ is 8 bytes of I1 I2 in the caller, one REAL R, then an INTEGER K in
/// the callees; /E/ is three members in both layouts, the last unnamed.
const MEMBERS: &str = "      PROGRAM M
      COMMON /D/ I1, I2
      COMMON /E/ A(4), B, C
      CALL SETK
      CALL READR
      CALL MID
      CALL ALL
      END
      SUBROUTINE SETK
      COMMON /D/ R, K
      K = 3
      END
      SUBROUTINE READR
      COMMON /D/ R
      PRINT *, R
      END
      SUBROUTINE MID
      COMMON /E/ Z(4), Y
      Y = Z(1)
      END
      SUBROUTINE ALL
      CALL SETK
      CALL READR
      END
";

#[test]
fn a_call_touches_the_members_over_the_bytes_its_callee_reads_or_writes() {
    let (f, diags) = lower_src("m.f", MEMBERS);
    assert!(diags.is_empty(), "{diags:?}");
    // K is the second 4 bytes of /D/: I2 is written, I1 untouched.
    assert_eq!(touched_at(&f, 4), (vec![], vec!["I2".to_string()]));
    // R is the first: I1 is read, nothing written.
    assert_eq!(touched_at(&f, 5), (vec!["I1".to_string()], vec![]));
    // Z is A (an element stands for its array), Y is B (bytes 16 to 20):
    // A read, B written, C untouched.
    assert_eq!(
        touched_at(&f, 6),
        (vec!["A".to_string()], vec!["B".to_string()])
    );
    // Through the calls of ALL: both.
    assert_eq!(
        touched_at(&f, 7),
        (vec!["I1".to_string()], vec!["I2".to_string()])
    );
}

#[test]
fn a_name_equivalenced_into_a_block_is_where_its_offset_puts_it() {
    let (f, diags) = lower_src(
        "q.f",
        "      PROGRAM Q
      COMMON /D/ I1, I2, I3
      CALL EQ
      END
      SUBROUTINE EQ
      COMMON /D/ J(2)
      EQUIVALENCE (J(2), L)
      L = 1
      END
",
    );
    assert!(diags.is_empty(), "{diags:?}");
    // L is J(2): the second member, named only through the EQUIVALENCE.
    assert_eq!(touched_at(&f, 3), (vec![], vec!["I2".to_string()]));
}

#[test]
fn a_block_gfortran_would_pad_is_touched_whole() {
    let (f, diags) = lower_src(
        "d.f",
        "      PROGRAM D
      COMMON /P/ I1, I2, I3, I4
      CALL PADDED
      CALL PLAIN
      END
      SUBROUTINE PADDED
      DOUBLE PRECISION D
      COMMON /P/ K, D
      D = 1.0D0
      END
      SUBROUTINE PLAIN
      DOUBLE PRECISION D
      COMMON /P/ K, L, D
      D = 1.0D0
      END
",
    );
    assert!(diags.is_empty(), "{diags:?}");
    // D after one INTEGER is not 8-aligned: gfortran pads, and where D lies
    // is not what the other unit's layout says. The whole block, then.
    let all: Vec<String> = ["I1", "I2", "I3", "I4"].map(String::from).to_vec();
    assert_eq!(defined_at(&f, 3), all);
    // Aligned, D is bytes 8 to 16: I3 and I4.
    assert_eq!(defined_at(&f, 4), ["I3", "I4"]);
}

#[test]
fn a_call_defines_a_member_it_also_names_in_a_subscript() {
    let (f, diags) = lower_src(
        "s.f",
        "      PROGRAM S
      COMMON /K/ K
      REAL A(10)
      K = 1
      CALL BUMP(A(K))
      END
      SUBROUTINE BUMP(X)
      COMMON /K/ K
      K = K + 1
      X = 0.0
      END
",
    );
    assert!(diags.is_empty(), "{diags:?}");
    // The subscript's use of K is no definition: the call's is added.
    assert_eq!(
        touched_at(&f, 5),
        (
            vec!["A".to_string(), "K".to_string()],
            vec!["A".to_string(), "K".to_string()]
        )
    );
}

#[test]
fn a_gnu_runtime_routine_declared_external_touches_no_common_block() {
    let (f, diags) = lower_src(
        "t.f",
        "      PROGRAM P
      COMMON /A/ X
      COMMON /T/ T0
      CALL TICK
      CALL TOCK
      END
      SUBROUTINE TICK
      COMMON /T/ T0
      REAL TA(2)
      EXTERNAL DTIME
      T0 = DTIME(TA)
      END
      SUBROUTINE TOCK
      REAL TA(2)
      EXTERNAL MYTIME
      T = MYTIME(TA)
      END
",
    );
    // DTIME is the library's: TICK writes T0 only; the warning says so.
    assert_eq!(touched_at(&f, 4), (vec![], vec!["T0".to_string()]));
    let warned: Vec<String> = diags.iter().map(|d| d.to_string()).collect();
    assert_eq!(warned.len(), 1, "{warned:?}");
    assert!(
        warned[0].contains("t.f:11:") && warned[0].contains("DTIME is EXTERNAL"),
        "{warned:?}"
    );
    // MYTIME is no runtime routine: unknown, so TOCK touches every block.
    let all: Vec<String> = ["T0", "X"].map(String::from).to_vec();
    assert_eq!(touched_at(&f, 5), (all.clone(), all));
}
