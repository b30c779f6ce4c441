//! Lowering of READ, WRITE and PRINT: units (external or internal files),
//! control specifiers, END=/ERR= jumps and implied-DO lists; of OPEN,
//! CLOSE, INQUIRE, REWIND, BACKSPACE and ENDFILE with specifier lists.

mod common;
use common::*;
use kaiseki_facts::FactBase;

/// The references of a statement in id order, each as `use X` or `def X`,
/// then `!` for a certain definition, `(*)` for a whole-array reference,
/// `(n)` for an element of rank n.
fn shown(f: &FactBase, stmt: i64) -> Vec<String> {
    refs(f, stmt)
        .into_iter()
        .map(|(r, kind, var)| {
            let mut s = format!("{kind} {var}");
            if f.must_def.iter().any(|m| m.r#ref == r) {
                s.push('!');
            }
            if f.whole_array_ref.iter().any(|w| w.r#ref == r) {
                s.push_str("(*)");
            }
            if let Some(a) = f.array_ref.iter().find(|a| a.r#ref == r) {
                s.push_str(&format!("({})", a.rank));
            }
            s
        })
        .collect()
}

#[test]
fn an_integer_unit_is_read_and_an_internal_file_written_or_read() {
    let f = facts(
        "t.f90",
        "program t
  integer :: iou, k, ios
  character*20 :: line, lines(3)
  real :: x
  write (iou, *) x
  write (line, '(f8.2)') x
  write (lines(k), *) x
  write (line(1:5), *) k
  read (line, *) k
  write (line, *, iostat=ios) x
  write (lines, *) x
  read (lines(2), *) k
end program t
",
    );
    let w = |n| shown(&f, nth(&f, "write", n));
    assert_eq!(w(0), ["use IOU", "use X"]);
    assert_eq!(
        w(1),
        ["use X", "def LINE!"],
        "a whole scalar is overwritten"
    );
    assert_eq!(w(2), ["use X", "use K", "def LINES(1)"]);
    assert_eq!(w(3), ["use K", "def LINE"], "a substring is part of it");
    assert_eq!(
        w(4),
        ["use X", "def LINE", "def IOS!"],
        "IOSTAT= may stop it early"
    );
    assert_eq!(
        w(5),
        ["use X", "def LINES(*)"],
        "it may write fewer records"
    );
    assert_eq!(shown(&f, nth(&f, "read", 0)), ["use LINE", "def K!"]);
    let r = nth(&f, "read", 1);
    assert_eq!(shown(&f, r), ["use LINES(1)", "def K!"]);
}

#[test]
fn specifiers_are_read_or_defined_and_end_err_labels_are_edges() {
    let f = facts(
        "t.f",
        "      PROGRAM T
      INTEGER N, IOS, K
      CHARACTER*8 F
      F = '(I5)'
      READ (5, F, IOSTAT=IOS, END=90, ERR=80) N
      K = N
   80 K = 0
   90 READ (5, 100, REC=K+1) N
  100 FORMAT (I5)
      PRINT F, K
      END
",
    );
    let r = nth(&f, "read", 0);
    assert_eq!(shown(&f, r), ["use F", "def N", "def IOS!"]);
    let (next, l80, l90) = (r + 1, at_line(&f, "assign", 7), nth(&f, "read", 1));
    let mut s = succs(&f, r);
    s.sort();
    assert_eq!(s, [next, l80, l90]);
    assert_eq!(shown(&f, l90), ["use K", "def N!"]);
    assert_eq!(succs(&f, l90), [l90 + 2], "no jump: the FORMAT is no node");
    assert_eq!(shown(&f, nth(&f, "print", 0)), ["use F", "use K"]);
}

#[test]
fn an_end_label_that_is_not_a_statement_is_an_error() {
    let (_, diags) = lower_src(
        "t.f",
        "      PROGRAM T\n      READ (5, *, END=99) N\n      END\n",
    );
    assert_eq!(errors(&diags), ["no statement has label 99"]);
}

#[test]
fn implied_do_elements_stand_for_whole_arrays_and_define_their_variables() {
    let f = facts(
        "t.f90",
        "program t
  integer :: i, j, k, n, m, i1, i2, map(10)
  real :: a(10,10), b(10), c(10)
  write (6, *) (map(k), b(k), c(1), k = i1, i2)
  read (5, *) n, m, ((a(i,j), j=1,n), i=1,m)
  read (5, *) (b(map(k)), k = 1, n, 2)
  print *, (b(k+i), k=1,n), k
  read (5, *, end=9) (c(k), k=1,3)
9 continue
end program t
",
    );
    assert_eq!(
        shown(&f, nth(&f, "write", 0)),
        [
            "use I1",
            "use I2",
            "def K!",
            "use MAP(*)",
            "use B(*)",
            "use C(1)"
        ]
    );
    assert_eq!(
        shown(&f, nth(&f, "read", 0)),
        ["def N!", "def M!", "use M", "def I!", "use N", "def J", "def A(*)"],
        "N and M are read before the bounds use them; an inner loop may not run"
    );
    assert_eq!(
        shown(&f, nth(&f, "read", 1)),
        ["use N", "def K!", "use MAP(*)", "def B(*)"]
    );
    assert_eq!(
        shown(&f, nth(&f, "print", 0)),
        ["use N", "def K!", "use B(*)", "use I", "use K"],
        "I is no implied-DO variable; the K after the list is"
    );
    assert_eq!(
        shown(&f, nth(&f, "read", 2)),
        ["def K", "def C(*)"],
        "END= may stop the READ before K is set"
    );
    let c1 = f
        .array_ref
        .iter()
        .find(|a| a.array == "C")
        .expect("C(1)")
        .r#ref;
    assert_eq!(subscripts(&f, c1), [Some((1, vec![], vec![]))]);
    assert!(f.opaque.is_empty());
}

#[test]
fn rec_and_fmt_values_that_are_variables_are_read() {
    let f = facts(
        "r.f",
        "      PROGRAM R
      INTEGER IOU, IREC, K
      CHARACTER*8 FMT
      WRITE (IOU, FMT, REC=IREC) K
      READ (UNIT=IOU, FMT=FMT, REC=IREC + 1) K
      END
",
    );
    assert_eq!(
        shown(&f, nth(&f, "write", 0)),
        ["use IOU", "use FMT", "use IREC", "use K"]
    );
    assert_eq!(
        shown(&f, nth(&f, "read", 0)),
        ["use IOU", "use FMT", "use IREC", "def K!"]
    );
}

#[test]
fn file_statements_read_their_specifiers_and_set_iostat_and_inquired_variables() {
    let source = "      PROGRAM O
      CHARACTER*20 NAME, ACC
      LOGICAL LIVING
      INTEGER IOU, IOS, N, LEN
      INQUIRE (FILE=NAME, EXIST=LIVING, NUMBER=N, ACCESS=ACC)
      OPEN (UNIT=IOU, FILE=NAME, STATUS='OLD', RECL=LEN, IOSTAT=IOS)
      OPEN (IOU + 1, FILE=NAME, ERR=90)
      REWIND (IOU, IOSTAT=IOS)
      BACKSPACE (UNIT=IOU)
      ENDFILE (IOU)
      CLOSE (UNIT=IOU, STATUS='DELETE', ERR=90)
      INQUIRE (UNIT=IOU, OPENED=LIVING, IOSTAT=IOS)
   90 PRINT *, IOS
      REWIND IOU
      END
";
    // Only the bare REWIND is set aside.
    let (_, parse_diags) = kaiseki_frontend::parse_source("o.f", source);
    let warnings: Vec<String> = parse_diags.iter().map(|d| d.message.clone()).collect();
    assert_eq!(
        warnings,
        ["REWIND statement is not modelled; treated as opaque"]
    );
    let (f, diags) = lower_src("o.f", source);
    assert!(diags.is_empty(), "{diags:?}");
    let inquire = nth(&f, "inquire", 0);
    assert_eq!(
        shown(&f, inquire),
        ["use NAME", "def LIVING", "def N", "def ACC"],
        "an INQUIRE sets its variables, possibly"
    );
    assert_eq!(
        shown(&f, nth(&f, "open", 0)),
        ["use IOU", "use NAME", "use LEN", "def IOS!"]
    );
    assert_eq!(shown(&f, nth(&f, "open", 1)), ["use IOU", "use NAME"]);
    assert_eq!(shown(&f, nth(&f, "rewind", 0)), ["use IOU", "def IOS!"]);
    assert_eq!(shown(&f, nth(&f, "backspace", 0)), ["use IOU"]);
    assert_eq!(shown(&f, nth(&f, "endfile", 0)), ["use IOU"]);
    assert_eq!(shown(&f, nth(&f, "close", 0)), ["use IOU"]);
    assert_eq!(
        shown(&f, nth(&f, "inquire", 1)),
        ["use IOU", "def LIVING", "def IOS!"]
    );
    // ERR= jumps to 90 besides going on; every statement has an io row.
    let print = nth(&f, "print", 0);
    for (kind, n) in [("open", 1), ("close", 0)] {
        let s = nth(&f, kind, n);
        assert!(succs(&f, s).contains(&print), "{kind} jumps to 90");
        assert_eq!(succs(&f, s).len(), 2, "{kind}");
    }
    let kinds: Vec<&str> = f.io.iter().map(|r| r.kind.as_str()).collect();
    assert_eq!(
        kinds,
        [
            "inquire",
            "open",
            "open",
            "rewind",
            "backspace",
            "endfile",
            "close",
            "inquire",
            "print"
        ]
    );
}

#[test]
fn bad_file_statement_specifiers_are_errors() {
    let (_, diags) = kaiseki_frontend::parse_source(
        "b.f",
        "      PROGRAM B
      OPEN (7, 'X')
      CLOSE (UNIT=7, UNIT=8)
      CLOSE (7, ERR=N)
      END
",
    );
    assert_eq!(
        errors(&diags),
        [
            "OPEN: only the unit may be given without a keyword",
            "CLOSE: UNIT= is given twice",
            "CLOSE: ERR= needs a label"
        ]
    );
}
