//! The reordered runs behind the parallelization judge: a loop run in
//! another order with private copies, reductions, inductions and last
//! values prints what a parallel loop with those clauses would print.

use kaiseki_judge::{run, run_reordered, Clauses, Config, Order, RedOp, Reduction, Reorder, Step};

fn outputs(src: &str, line: u32, clauses: Clauses) -> (String, Vec<Result<String, String>>) {
    let (program, diags) = kaiseki_frontend::parse_source("t.f90", src);
    assert!(diags.iter().all(|d| !d.is_error()), "{src}");
    let config = Config::default();
    let seq = run(&program, &[] as &[&str], &config)
        .expect("sequential run")
        .output;
    let reordered = [Order::Reverse, Order::Shuffle(7)]
        .into_iter()
        .map(|order| {
            let plan = Reorder {
                line,
                order,
                clauses: clauses.clone(),
            };
            run_reordered(&program, &[] as &[&str], &config, &plan)
                .map(|r| r.output)
                .map_err(|e| e.to_string())
        })
        .collect();
    (seq, reordered)
}

const RECURRENCE: &str = "\
program t
  real a(8)
  integer i
  a = 1.0
  do i = 2, 8
    a(i) = a(i-1) + a(i)
  end do
  print *, a(8)
end
";

#[test]
fn a_recurrence_prints_something_else_in_reverse() {
    let (seq, got) = outputs(RECURRENCE, 5, Clauses::default());
    assert!(seq.contains("8.0"), "{seq}");
    assert_ne!(got[0].as_deref(), Ok(seq.as_str()));
}

const TEMPORARY: &str = "\
program t
  real a(6), b(6), t
  integer i
  t = 5.0
  do i = 1, 6
    a(i) = i
  end do
  do i = 1, 6
    if (i .gt. 1) t = a(i)
    b(i) = t * 2.0
  end do
  print *, sum(b), t
end
";

#[test]
fn private_copies_start_undefined_or_with_the_value_before_the_loop() {
    let private = Clauses {
        private: vec!["T".into()],
        lastprivate: vec!["T".into()],
        ..Clauses::default()
    };
    let (_, got) = outputs(TEMPORARY, 8, private);
    for g in got {
        let e = g.expect_err("iteration 1 reads an undefined T");
        assert!(e.contains("T is read while undefined"), "{e}");
    }
    let first = Clauses {
        firstprivate: vec!["T".into()],
        lastprivate: vec!["T".into()],
        ..Clauses::default()
    };
    let (seq, got) = outputs(TEMPORARY, 8, first);
    for g in got {
        assert_eq!(g.as_deref(), Ok(seq.as_str()));
    }
    // Without its last value, T is undefined after the loop.
    let (_, got) = outputs(
        TEMPORARY,
        8,
        Clauses {
            firstprivate: vec!["T".into()],
            ..Clauses::default()
        },
    );
    assert!(got[0].as_ref().is_err_and(|e| e.contains("T is read")));
}

const REDUCTIONS: &str = "\
program t
  real a(7), s, x
  integer i, k, imax
  do i = 1, 7
    a(i) = mod(3 * i, 5)
  end do
  s = 1.0
  x = -1.0
  imax = 0
  k = 10
  do i = 1, 7
    k = k + 2
    s = s + a(i) * k
    if (a(i) .gt. x) then
      x = a(i)
      imax = i
    end if
  end do
  print *, s, x, imax, k
end
";

fn reductions(locs: &[&str]) -> Clauses {
    Clauses {
        lastprivate: vec!["K".into()],
        reductions: vec![
            Reduction {
                op: RedOp::Add,
                var: "S".into(),
                locs: Vec::new(),
            },
            Reduction {
                op: RedOp::Max,
                var: "X".into(),
                locs: locs.iter().map(|l| l.to_string()).collect(),
            },
        ],
        inductions: vec![("K".into(), Step::Add(2))],
        ..Clauses::default()
    }
}

#[test]
fn reductions_inductions_and_the_first_maximum_survive_any_order() {
    let (seq, got) = outputs(REDUCTIONS, 11, reductions(&["IMAX"]));
    // a = 3 1 4 2 0 3 1: the first 4 is at 3.
    assert!(seq.split_whitespace().nth(2) == Some("3"), "{seq}");
    for g in got {
        assert_eq!(g.as_deref(), Ok(seq.as_str()));
    }
    // A wrong increment or a wrong operator shows.
    let mut wrong = reductions(&["IMAX"]);
    wrong.inductions[0].1 = Step::Add(1);
    assert_ne!(
        outputs(REDUCTIONS, 11, wrong).1[0].as_deref(),
        Ok(seq.as_str())
    );
    let mut wrong = reductions(&["IMAX"]);
    wrong.reductions[0].op = RedOp::Max;
    assert_ne!(
        outputs(REDUCTIONS, 11, wrong).1[0].as_deref(),
        Ok(seq.as_str())
    );
    // Without the location clause IMAX is shared: run in reverse, it
    // records where the running maximum of each private copy rose.
    let (_, got) = outputs(REDUCTIONS, 11, reductions(&[]));
    assert_ne!(got[0].as_deref(), Ok(seq.as_str()));
}

const GEOMETRIC: &str = "\
program g
  integer b(8), i, j
  j = 3
  do i = 1, 8
    j = -2 * j
    b(i) = j + i
  end do
  print *, b, j
end
";

#[test]
fn a_geometric_induction_takes_its_closed_form_in_any_order() {
    let clauses = |step| Clauses {
        lastprivate: vec!["J".into()],
        inductions: vec![("J".into(), step)],
        ..Clauses::default()
    };
    let (seq, got) = outputs(GEOMETRIC, 4, clauses(Step::Times(-2)));
    for g in got {
        assert_eq!(g.as_deref(), Ok(seq.as_str()));
    }
    let (_, got) = outputs(GEOMETRIC, 4, clauses(Step::Times(2)));
    assert_ne!(got[0].as_deref(), Ok(seq.as_str()));
}
