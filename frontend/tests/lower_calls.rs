//! What a call touches without naming it: the caller's members of the
//! COMMON blocks the callee (or what it calls) names, as a use and a
//! possible definition at the call; all of them when the callee is not a
//! unit of the program or has an opaque statement.

mod common;
use common::*;
use kaiseki_facts::FactBase;

/// The variables a statement reads (without the ones it names).
fn used_at(f: &FactBase, line: i64) -> Vec<String> {
    let stmt = f
        .stmt
        .iter()
        .find(|s| s.line == line && s.kind == "call")
        .expect("a call on the line")
        .stmt;
    let mut v: Vec<String> = refs(f, stmt)
        .into_iter()
        .filter(|(_, k, _)| *k == "use")
        .map(|(_, _, v)| v)
        .collect();
    v.sort();
    v.dedup();
    v
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
      S(1) = 0.0
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
      OPEN (UNIT=3, FILE='X')
      END
";

#[test]
fn a_call_touches_the_blocks_its_callee_names_whatever_their_layout() {
    let (f, _) = lower_src("t.f", PROGRAM);
    // ONLYA names /A/ (as one array S): the call reads X and Y, not U or W.
    assert_eq!(used_at(&f, 5), ["X", "Y"]);
}

#[test]
fn blocks_reach_the_caller_through_the_callees_calls() {
    let (f, _) = lower_src("t.f", PROGRAM);
    // VIAB names /C/ and calls F, which names /B/.
    assert_eq!(used_at(&f, 6), ["U", "W"]);
}

#[test]
fn an_unknown_or_opaque_callee_touches_every_block() {
    let (f, _) = lower_src("t.f", PROGRAM);
    // LIB is not a unit of the program; W is also its argument.
    assert_eq!(used_at(&f, 7), ["U", "W", "X", "Y"]);
    // OPAQ has a statement the analyses do not model (it might call anything).
    assert_eq!(used_at(&f, 8), ["U", "W", "X", "Y"]);
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
    // CPU_TIME is no procedure of unknown effects: TICK touches /T/ only.
    assert_eq!(used_at(&f, 4), ["T0"]);
}
