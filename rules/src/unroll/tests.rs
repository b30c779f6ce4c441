//! The estimate and the body model on the paper's numbers: the models of
//! Livermore kernels 21 and 23 (which `tests/unroll.rs` derives from
//! Fortran, and checks against every cell of figs. 11 and 13) and the
//! search's answers of Table 2, its ties and its stops.

use super::machine::Machine;
use super::search::{Model, Stop};
use super::*;

fn kernel21() -> Model {
    Model {
        ops: 6.0,
        cycles: 7.0,
        growth: vec![2.0, 0.0, 0.0],
        removed: vec![2.0, 1.0, 1.0],
    }
}

fn kernel23() -> Model {
    Model {
        ops: 22.0,
        cycles: 15.0,
        growth: vec![12.0, 12.0],
        removed: vec![2.0, 2.0],
    }
}

#[test]
fn table_2_vectors_and_why_the_search_stops() {
    let m = Machine::default();
    assert_eq!(
        kernel21().search(&[0, 0, 0], &m),
        (vec![3, 2, 2], Stop::Saturated)
    );
    assert_eq!(
        kernel23().search(&[0, 0], &m),
        (vec![5, 5], Stop::Saturated)
    );
    // Kernel 4: a tie at (1,1) goes to the smaller body; the trip count
    // (3) caps k_1.
    let k4 = Model {
        ops: 4.0,
        cycles: 5.0,
        growth: vec![0.0, 0.0],
        removed: vec![1.0, 0.0],
    };
    assert_eq!(k4.search(&[3, 0], &m), (vec![3, 2], Stop::Saturated));
    // Kernel 18 (its second nest): equal bodies, the longer loop.
    let k18 = Model {
        ops: 44.0,
        cycles: 15.0,
        growth: vec![0.0, 0.0],
        removed: vec![5.0, 5.0],
    };
    assert_eq!(k18.search(&[5, 99], &m), (vec![1, 2], Stop::Saturated));
    // Innermost only (Table 1's one-dimensional column): (1,1,6).
    let inner = Model {
        growth: vec![0.0],
        removed: vec![1.0],
        ..kernel21()
    };
    assert_eq!(inner.search(&[0], &m).0, vec![6]);
    // A recurrence as long as the body never saturates: no gain.
    let flat = Model {
        ops: 2.0,
        cycles: 4.0,
        growth: vec![4.0],
        removed: vec![0.0],
    };
    assert_eq!(flat.search(&[0], &m), (vec![1], Stop::NoGain));
    // Trip counts bound the factors.
    assert_eq!(kernel23().search(&[2, 0], &m).0[0], 2);
    // A tiny cache stops the search before it overflows: (2,1) would be
    // 22*2 - 2 = 42 operations, 11 instructions of 32 bytes, past 320.
    let small = Machine {
        icache_bytes: 8 * 40,
        ..m
    };
    assert_eq!(
        kernel23().search(&[0, 0], &small),
        (vec![1, 1], Stop::Cache)
    );
}

/// Fig. 1 of the paper: `D(I) = D(I) + A(I,J) * (B(J) + C(J))`, I outer
/// (loop 1), J inner (loop 2); refs 1 D, 2 A, 3 B, 4 C, 5 the store of D.
fn fig1_refs() -> HashMap<i64, RefKind> {
    [
        (1, "D|0+1*i1"),
        (2, "A|0+1*i1|0+1*i2"),
        (3, "B|0+1*i2"),
        (4, "C|0+1*i2"),
        (5, "D|0+1*i1"),
    ]
    .into_iter()
    .map(|(r, k)| (r, RefKind::parse(k)))
    .collect()
}

const FIG1: &str = "(add.f r1 (mul.f r2 (add.f r3 r4)))";

#[test]
fn figure_1_body_and_parameters() {
    let refs = fig1_refs();
    // Flow and output on D(I) along J (position 2) at distance 1.
    let shifts = [
        Shift {
            src: 5,
            dst: 1,
            pos: 1,
            d: 1,
        },
        Shift {
            src: 5,
            dst: 5,
            pos: 1,
            d: 1,
        },
    ];
    let md = model(&[1, 2], &[(5, FIG1)], &refs, &shifts, &Machine::default());
    // 4 loads, 3 operations, 1 store; load, add, multiply, add, store.
    assert_eq!((md.ops, md.cycles), (8.0, 9.0));
    // Along I: B(J), C(J) and B(J)+C(J) reused, no growth; along J: the
    // load and the store of D(I) saved, one add (2 cycles) longer.
    assert_eq!(md.removed, vec![3.0, 2.0]);
    assert_eq!(md.growth, vec![0.0, 2.0]);
}

#[test]
fn sums_are_balanced_and_stores_overwritten_in_the_body_dropped() {
    let refs: HashMap<i64, RefKind> = [
        (1, "X|0+1*i1"),
        (2, "Y|0+1*i1"),
        (3, "Z|0+1*i1"),
        (4, "W|0+1*i1"),
        (5, "A|0+1*i1"),
        (6, "A|0+1*i1"),
        (7, "A|0+1*i1"),
    ]
    .into_iter()
    .map(|(r, k)| (r, RefKind::parse(k)))
    .collect();
    // A(I) = X+Y+Z+W; A(I) = A(I) * 2: the first store is dead, the load
    // of A(I) is the register, and the sum is two levels deep.
    let stmts = [
        (5, "(add.f (add.f (add.f r1 r2) r3) r4)"),
        (7, "(mul.f r6 k)"),
    ];
    let md = model(&[1], &stmts, &refs, &[], &Machine::default());
    // 4 loads, 3 adds, 1 multiply, 1 store.
    assert_eq!(md.ops, 9.0);
    // load 2, add 2, add 2, multiply 2, store issued: 9.
    assert_eq!(md.cycles, 9.0);
}

#[test]
fn records_round_trip_and_bad_packs_give_nothing() {
    let machine = Machine::default().to_string();
    let record = model_record(
        "1;2",
        &format!("5={FIG1}"),
        "1=D|0+1*i1&2=A|0+1*i1|0+1*i2&3=B|0+1*i2&4=C|0+1*i2&5=D|0+1*i1",
        "5:1:2:1&5:5:2:1",
        &machine,
    );
    // Fig. 1's J runs along A's second subscript: not vectorizable (0).
    assert_eq!(record.as_deref(), Some("8|9|0;2|3;2|0"));
    let found = search_record("8|9|0;2|3;2|0", "64;64", &machine).unwrap();
    // The answer, P, the stop and the path from (1,1) to the answer.
    let f: Vec<&str> = found.split('|').collect();
    assert_eq!(f[2], "saturated", "{found}");
    assert!(
        f[3].starts_with("1;1>") && f[3].ends_with(&format!(">{}", f[0])),
        "{found}"
    );
    assert_eq!(
        f[3].split('>').count(),
        f[0].split(';')
            .map(|k| k.parse::<usize>().unwrap() - 1)
            .sum::<usize>()
            + 1
    );
    assert_eq!(model_record("x", "", "", "", &machine), None);
    assert_eq!(model_record("1", "", "", "1:2", &machine), None);
    assert_eq!(search_record("1|2", "", &machine), None);
}

/// `B(I,J) = A(I,J) + A(I+1,J)`, J outer (loop 1), I inner (loop 2):
/// stride 1 along I in every array; A(I+1,J) is read again as A(I,J) one
/// iteration of I later (an input dependence, position 2 in the pack).
const ROW_REFS: &str = "1=A|0+1*i2|0+1*i1&2=A|1+1*i2|0+1*i1&3=B|0+1*i2|0+1*i1";
const ROW_BODY: &str = "(add.f r1 r2)";

#[test]
fn a_vector_unit_leaves_a_vectorizable_innermost_loop_alone() {
    let paper = Machine::default().to_string();
    let stmts = format!("3={ROW_BODY}");
    let record = model_record("1;2", &stmts, ROW_REFS, "2:1:2:1", &paper).unwrap();
    assert!(record.ends_with("|1"), "{record}");
    // Fig. 1 is not vectorizable along J (A(I,J)), and neither is a
    // recurrence along the inner loop (a flow dependence from the store).
    assert!(!vectorizable(&[1, 2], &[(5, FIG1)], &fig1_refs(), &[]));
    let refs: HashMap<i64, RefKind> = ROW_REFS
        .split('&')
        .filter_map(|p| p.split_once('='))
        .map(|(r, k)| (r.parse().unwrap(), RefKind::parse(k)))
        .collect();
    let body = [(3, ROW_BODY)];
    assert!(vectorizable(&[1, 2], &body, &refs, &[]));
    let carried = Shift {
        src: 3,
        dst: 1,
        pos: 1,
        d: 1,
    };
    assert!(!vectorizable(&[1, 2], &body, &refs, &[carried]));
    // The paper's machine unrolls the inner loop (it saves loads); one
    // with a vector unit keeps it at 1 and unrolls the outer one.
    let factors = |m: &Machine| {
        let found = search_record(&record, "0;0", &m.to_string()).unwrap();
        found.split('|').next().unwrap().to_string()
    };
    let k = factors(&Machine::default());
    assert!(!k.ends_with(";1"), "{k}");
    let vector = Machine {
        vector_width: 4,
        ..Machine::default()
    };
    let k = factors(&vector);
    assert!(k.ends_with(";1") && !k.starts_with("1;"), "{k}");
}
