//! Array subscript analysis end to end (rules/dl/induction.dl,
//! rules/dl/subscripts.dl): `kaiseki analyze` and `kaiseki deps` on the
//! figures of Ishida & Kanada (seed 002) give what
//! ../shared/examples/EXPECTED.md says, with normal forms computed from
//! the facts; small programs check each kind of induction variable and
//! what must stay "possible".

mod common;

use common::{
    deps_csv, deps_csv_with, example, kaiseki_ok, lower_file, lower_source, scratch_dir,
    source_file, Dep,
};
use kaiseki_facts::FactBase;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// The `.output` relations `kaiseki analyze` wrote, as rows of named fields.
struct Analysis {
    facts: FactBase,
    tables: HashMap<String, Vec<HashMap<String, String>>>,
}

impl Analysis {
    fn of_file(path: &Path) -> Analysis {
        let stem = path.file_stem().expect("file stem").to_string_lossy();
        let dir = scratch_dir(&format!("subscripts_{stem}"));
        kaiseki_ok([
            "analyze".as_ref(),
            path.as_os_str(),
            "--raw".as_ref(),
            "-o".as_ref(),
            dir.as_os_str(),
        ]);
        let mut tables = HashMap::new();
        for name in [
            "normal_form",
            "normal_coeff",
            "normal_symbol",
            "induction_variable",
            "coincidence",
        ] {
            let text = std::fs::read_to_string(dir.join(format!("{name}.csv")))
                .unwrap_or_else(|e| panic!("{name}.csv: {e}"));
            let mut lines = text.lines();
            let header: Vec<&str> = lines.next().expect("header").split(',').collect();
            let rows = lines
                .map(|l| {
                    header
                        .iter()
                        .zip(l.split(','))
                        .map(|(h, v)| (h.to_string(), v.to_string()))
                        .collect()
                })
                .collect();
            tables.insert(name.to_string(), rows);
        }
        Analysis {
            facts: lower_file(path),
            tables,
        }
    }

    fn of_source(name: &str, source: &str) -> Analysis {
        let dir = scratch_dir(&format!("subscripts_src_{name}"));
        let path = dir.join(name);
        std::fs::write(&path, source).expect("program written");
        Analysis::of_file(&path)
    }

    fn rows(&self, table: &str) -> impl Iterator<Item = &HashMap<String, String>> {
        self.tables[table].iter()
    }

    /// The element reference of `array` on `line` (the only one there).
    fn element(&self, array: &str, line: i64) -> i64 {
        self.element_at(array, line, None)
    }

    /// The element reference of `array` on `line`, in column `col` if
    /// given: the only one there.
    fn element_at(&self, array: &str, line: i64, col: Option<i64>) -> i64 {
        let refs: Vec<i64> = self
            .facts
            .array_ref
            .iter()
            .filter(|a| a.array == array)
            .map(|a| a.r#ref)
            .filter(|r| {
                self.facts
                    .ref_pos
                    .iter()
                    .any(|p| p.r#ref == *r && p.line == line && col.is_none_or(|c| p.col == c))
            })
            .collect();
        assert_eq!(refs.len(), 1, "one {array} on line {line}: {refs:?}");
        refs[0]
    }

    /// The DO loop on `line`.
    fn do_loop(&self, line: i64) -> i64 {
        let l = self.facts.r#loop.iter().find(|l| l.line == line);
        l.unwrap_or_else(|| panic!("no loop on line {line}")).r#loop
    }

    /// The first subscript of the element of `array` on `line`, as [`Analysis::form`].
    fn element_form(&self, array: &str, line: i64, names: &BTreeMap<i64, &str>) -> Option<String> {
        self.form(self.element(array, line), 1, names)
    }

    /// Subscript `dim` of `r` as the paper prints it, the loops named by
    /// `names` (loop id -> `Ig1`...); `None` without a normal form.
    fn form(&self, r: i64, dim: i64, names: &BTreeMap<i64, &str>) -> Option<String> {
        let is = |row: &HashMap<String, String>| {
            row["ref"] == r.to_string() && row["dim"] == dim.to_string()
        };
        let constant: i64 = self.rows("normal_form").find(|row| is(row))?["constant"]
            .parse()
            .expect("constant");
        let mut terms: Vec<(String, i64)> = self
            .rows("normal_coeff")
            .filter(|row| is(row))
            .map(|row| {
                let l: i64 = row["loop"].parse().expect("loop");
                let name = names.get(&l).map_or(format!("I{l}"), |n| n.to_string());
                (name, row["coeff"].parse().expect("coeff"))
            })
            .collect();
        terms.extend(
            self.rows("normal_symbol")
                .filter(|row| is(row))
                .map(|row| (row["symbol"].clone(), row["coeff"].parse().expect("coeff"))),
        );
        terms.sort();
        let mut text = if constant != 0 || terms.is_empty() {
            constant.to_string()
        } else {
            String::new()
        };
        for (name, c) in terms {
            let term = match c.abs() {
                1 => name,
                a => format!("{a}*{name}"),
            };
            text = match (text.is_empty(), c < 0) {
                (true, true) => format!("-{term}"),
                (true, false) => term,
                (false, true) => format!("{text} - {term}"),
                (false, false) => format!("{text} + {term}"),
            };
        }
        Some(text)
    }

    /// The coincidence verdict and rule of u then v on `loop` for n and property.
    fn coincidence(&self, u: i64, v: i64, l: i64, n: i64, property: &str) -> (String, String) {
        let row = self
            .rows("coincidence")
            .find(|row| {
                row["u"] == u.to_string()
                    && row["v"] == v.to_string()
                    && row["loop"] == l.to_string()
                    && row["n"] == n.to_string()
                    && row["property"] == property
            })
            .unwrap_or_else(|| panic!("no coincidence row for {u} {v} {l} {n} {property}"));
        (row["verdict"].clone(), row["rule"].clone())
    }
}

/// The rows of `kaiseki deps` for `source`, written as the file `name`.
fn deps_of(name: &str, source: &str) -> Vec<Dep> {
    deps_csv(&source_file(
        &format!("subscripts_deps_{name}"),
        name,
        source,
    ))
}

fn ishida(name: &str) -> Analysis {
    Analysis::of_file(&example(name))
}

#[test]
fn fig1_standard_forms_through_induction_variables() {
    let a = ishida("ishida_fig1.f");
    let (g1, g2) = (a.do_loop(8), a.do_loop(12));
    let names = BTreeMap::from([(g1, "Ig1"), (g2, "Ig2")]);
    // References (2), (5), (7) of the paper.
    assert_eq!(a.element_form("A", 9, &names).as_deref(), Some("4*Ig1"));
    assert_eq!(
        a.element_form("A", 14, &names).as_deref(),
        Some("2 + 8*Ig1")
    );
    assert_eq!(
        a.element_form("A", 16, &names).as_deref(),
        Some("7 + 16*Ig1 + 3*Ig2")
    );
    // (a) J has two definitions in loop g1 (J=J+1, J=J+3): increment 4;
    // (b) the initial value of I is J, itself 1 + 4*Ig1 there.
    let mut ivs: Vec<(String, String, String, String)> = a
        .rows("induction_variable")
        .map(|r| {
            (
                r["loop"].clone(),
                r["var"].clone(),
                r["initial"].clone(),
                r["increment"].clone(),
            )
        })
        .collect();
    ivs.sort();
    let row = |l: i64, v: &str, init: String, inc: &str| {
        (l.to_string(), v.to_string(), init, inc.to_string())
    };
    let mut want = vec![
        row(g1, "J", "0".into(), "4"),
        row(g2, "I", format!("1+4*i{g1}"), "1"),
    ];
    want.sort();
    assert_eq!(ivs, want);
}

#[test]
fn fig3_loop_dependence_information() {
    let a = ishida("ishida_fig3.f");
    // A: loop 10, U1 = A(I), V1 = A(I-1): loop 1-times exact coincidence.
    let (l10, u1, v1) = (a.do_loop(12), a.element("A", 13), a.element("A", 14));
    assert_eq!(
        a.coincidence(u1, v1, l10, 1, "exact"),
        ("holds".into(), "(1)".into())
    );
    assert_eq!(a.coincidence(u1, v1, l10, 0, "possible").0, "does_not_hold");
    // B: loop 20, U2 = A(I), V2 = A(I+J-1): no loop 0-times exact
    // coincidence, but a loop 0-times possible coincidence (J = 1 only).
    let (l20, u2, v2) = (a.do_loop(16), a.element("A", 17), a.element("A", 19));
    assert_eq!(a.coincidence(u2, v2, l20, 0, "exact").0, "does_not_hold");
    assert_eq!(a.coincidence(u2, v2, l20, 0, "possible").0, "holds");
    // C: loop 30, U3 = A(I), V3 = A(I+J): no loop 0-or-more possible coincidence.
    let (l30, u3, v3) = (a.do_loop(21), a.element("A", 22), a.element("A", 24));
    assert_eq!(
        a.coincidence(u3, v3, l30, 0, "or_more"),
        ("does_not_hold".into(), "(3-2) dim 1".into())
    );
}

/// The rows of `kaiseki deps` for loop 10 of fig. 3: U1 -> V1 is one flow
/// dependence of distance 1 that always happens; V1 never reads what U1
/// writes later (no anti dependence).
#[test]
fn fig3_loop10_rows() {
    let rows = deps_csv(&example("ishida_fig3.f"));
    let loop10: Vec<String> = rows
        .iter()
        .filter(|r| r.var == "A" && [13, 14].contains(&r.src.0) && [13, 14].contains(&r.dst.0))
        .map(|r| format!("{r:?}"))
        .collect();
    let want = Dep {
        unit: "FIG3".into(),
        kind: "flow".into(),
        var: "A".into(),
        src: (13, 9),
        dst: (14, 14),
        loops: vec![12],
        distance: vec![Some(1)],
        direction: vec!['<'],
        carrier: 12,
        certainty: "exact".into(),
        minimal: true,
    };
    assert_eq!(loop10, vec![format!("{want:?}")]);
}

/// Loop 20 of fig. 3: A(I) and A(I+J-1) meet in the same iteration of
/// loop 20 only when J = 1, so the flow dependence is possible, not exact:
/// exact means every instance of the sink reads what the source wrote
/// (Ishida & Kanada, section 3).
#[test]
fn fig3_loop20_is_possible_not_exact() {
    let rows = deps_csv(&example("ishida_fig3.f"));
    let loop20: Vec<(String, Vec<Option<i64>>, String)> = rows
        .iter()
        .filter(|r| r.var == "A" && r.src == (17, 9) && r.dst == (19, 14))
        .map(|r| (r.kind.clone(), r.distance.clone(), r.certainty.clone()))
        .collect();
    assert_eq!(
        loop20,
        vec![("flow".to_string(), vec![Some(0)], "possible".to_string())]
    );
}

#[test]
fn fig4_coefficient_rule_3_on_each_dimension() {
    let a = ishida("ishida_fig4.f");
    let (g1, g2, g3) = (a.do_loop(13), a.do_loop(14), a.do_loop(16));
    let names = BTreeMap::from([(g1, "Ig1"), (g2, "Ig2"), (g3, "Ig3")]);
    let (u, v) = (a.element("A", 15), a.element("A", 17));
    let forms = |r| (a.form(r, 1, &names), a.form(r, 2, &names));
    assert_eq!(
        forms(u),
        (Some("1 + Ig1".into()), Some("2 + Ig1 + Ig2".into()))
    );
    assert_eq!(
        forms(v),
        (Some("2 + Ig1 + Ig3".into()), Some("1 + Ig1".into()))
    );
    // U then V: no loop 0-or-more possible coincidence for g1 and g2; V then
    // U: none 1 or more iterations later. The paper applies (3-2) to each
    // dimension; one dimension suffices, and for V then U on g2 the first
    // dimension the rules try is decided by (3-1).
    for g in [g1, g2] {
        for (x, y, n) in [(u, v, 0), (v, u, 1)] {
            let (verdict, rule) = a.coincidence(x, y, g, n, "or_more");
            assert_eq!(verdict, "does_not_hold", "{x} then {y} on {g}");
            assert!(rule.starts_with("(3-"), "{rule}");
        }
    }
}

#[test]
fn fig5_diophantine_equation() {
    let a = ishida("ishida_fig5.f");
    let (g1, g2, g3) = (a.do_loop(11), a.do_loop(12), a.do_loop(14));
    let names = BTreeMap::from([(g1, "Ig1"), (g2, "Ig2"), (g3, "Ig3")]);
    let (u, v) = (a.element("A", 13), a.element("A", 15));
    // (line 13: A(I+3*J-5) in loop 20; line 15: A(-I-4*K+5) in loop 30)
    assert_eq!(a.form(u, 1, &names).as_deref(), Some("-1 + Ig1 + 3*Ig2"));
    assert_eq!(a.form(v, 1, &names).as_deref(), Some("-Ig1 - 4*Ig3"));
    // The coefficient rules cannot decide; 2*Ig1 + 3*Ig2 + 4*Ig3 = 1 has no
    // solution in the loops' bounds: no loop 0-times possible coincidence.
    assert_eq!(
        a.coincidence(u, v, g1, 0, "possible"),
        ("does_not_hold".into(), "diophantine".into())
    );
}

/// Wraps statements in a main program with the declarations they need.
fn program(body: &str) -> String {
    format!(
        "      PROGRAM T\n      INTEGER I, J, K, M, N, IDX(100)\n      REAL A(-500:500), B(-500:500)\n{body}      PRINT *, A(1), B(1)\n      END\n"
    )
}

#[test]
fn induction_variables_of_each_kind() {
    let a = Analysis::of_source(
        "ivs.f",
        &program(
            "      N = 10
      J = 5
      DO 10 I = 1, 10
        J = I
        DO 20 K = 1, 5
          J = J + 2
          A(J) = 1.0
          M = 3*J - 1
          B(M) = 2.0
   20   CONTINUE
   10 CONTINUE
      DO 30 I = N, 1, -2
   30 A(I) = 3.0
      DO 40 I = 1, N
        DO 40 K = I + 1, N
   40 B(K - I) = 4.0
",
        ),
    );
    let (g1, g2, g3, g4, g5) = (
        a.do_loop(6),
        a.do_loop(8),
        a.do_loop(15),
        a.do_loop(17),
        a.do_loop(18),
    );
    let names = BTreeMap::from([(g1, "I1"), (g2, "I2"), (g3, "I3"), (g4, "I4"), (g5, "I5")]);
    // J starts from the outer loop's DO variable: I + 2*(Ig2 + 1).
    assert_eq!(
        a.element_form("A", 10, &names).as_deref(),
        Some("3 + I1 + 2*I2")
    );
    // M = 3*J - 1, a linear family of J.
    assert_eq!(
        a.element_form("B", 12, &names).as_deref(),
        Some("8 + 3*I1 + 6*I2")
    );
    // DO I = N, 1, -2 with N = 10: I = 10 - 2*Ig.
    assert_eq!(
        a.element_form("A", 16, &names).as_deref(),
        Some("10 - 2*I3")
    );
    // DO K = I + 1, N: K - I = 1 + Ig5.
    assert_eq!(a.element_form("B", 19, &names).as_deref(), Some("1 + I5"));
    let ivs: Vec<(String, String)> = a
        .rows("induction_variable")
        .map(|r| (r["var"].clone(), r["increment"].clone()))
        .collect();
    assert_eq!(ivs, [("J".to_string(), "2".to_string())]);
}

#[test]
fn what_is_not_an_induction_variable_has_no_normal_form() {
    let source = program(
        "      J = 0
      M = 0
      DO 10 I = 1, 10
        IF (A(I) .GT. 0.0) J = J + 1
        B(J) = A(I)
        M = IDX(I)
        A(M) = 1.0
        A(IDX(I)) = 2.0
        A(I*I) = 3.0
   10 CONTINUE
",
    );
    let a = Analysis::of_source("not_ivs.f", &source);
    assert_eq!(
        a.rows("induction_variable").count(),
        0,
        "J is updated under a condition"
    );
    let names = BTreeMap::new();
    for (array, line) in [("B", 8), ("A", 10), ("A", 11), ("A", 12)] {
        assert_eq!(
            a.element_form(array, line, &names),
            None,
            "{array} on {line}"
        );
    }
    // Each of them writes elements it may write again in a later
    // iteration: never independent.
    let rows = deps_of("not_ivs.f", &source);
    for (line, col) in [(8, 9), (10, 9), (11, 9), (12, 9)] {
        assert!(
            rows.iter().any(|r| r.kind == "output"
                && r.src == (line, col)
                && r.dst == (line, col)
                && r.direction == ['<']
                && r.distance == [None]
                && r.certainty == "possible"),
            "output self-dependence of {line}:{col} carried by the loop"
        );
    }
}

/// A definition that only some paths pass gives no value: M may still
/// hold its value on entry when A(I + M) runs. The loop does not change
/// M: it is one unknown there, M@loop.
#[test]
fn a_definition_under_a_condition_gives_no_value() {
    let a = Analysis::of_source(
        "conditional_def.f",
        &program(
            "      READ (*,*) N
      IF (N .GT. 5) M = 3
      IF (N .GT. 7) K = 2
      DO 10 I = 1, 10
        K = K + 1
   10 A(I + M) = B(K) + 1.0
",
        ),
    );
    let l = a.do_loop(7);
    let names = BTreeMap::from([(l, "Ig")]);
    let scoped = format!("1 + Ig + M@{l}");
    assert_eq!(a.element_form("A", 9, &names), Some(scoped));
    assert_eq!(a.element_form("B", 9, &names), None);
    let ivs: Vec<String> = a
        .rows("induction_variable")
        .map(|r| r["initial"].clone())
        .collect();
    assert_eq!(ivs, ["?"], "K is an induction variable of unknown start");
}

/// An element passed to a procedure stands for the rest of the array: F
/// writes A(I) and A(I+1) through X(1) and X(2).
#[test]
fn an_element_passed_to_a_call_may_be_any_element() {
    let source = "      PROGRAM P
      REAL A(20), S
      INTEGER I
      S = 0.0
      DO 10 I = 1, 10
        CALL F(A(I))
        S = S + A(I + 1)
   10 CONTINUE
      PRINT *, S
      END
      SUBROUTINE F(X)
      REAL X(2)
      X(1) = 1.0
      X(2) = 2.0
      END
";
    let rows = deps_of("passed.f", source);
    // The callee's write of A(I+1) is read in the same iteration.
    assert!(
        rows.iter().any(|r| r.kind == "flow"
            && r.var == "A"
            && r.src.0 == 6
            && r.dst.0 == 7
            && r.loops == [5]
            && r.direction == ['=']),
        "{rows:#?}"
    );
}

#[test]
fn a_constant_element_in_a_loop_depends_on_itself_in_every_later_iteration() {
    let source = program(
        "      DO 10 I = 1, 10
        A(1) = A(1) + B(I)
   10 CONTINUE
",
    );
    // kind, source and sink columns, direction and distance of each row in the loop.
    let mut rows: Vec<String> = deps_of("constant_element.f", &source)
        .into_iter()
        .filter(|r| r.var == "A" && r.loops == [4])
        .map(|r| {
            format!(
                "{} {}->{} {:?} {:?}",
                r.kind, r.src.1, r.dst.1, r.direction, r.distance
            )
        })
        .collect();
    rows.sort();
    // The write stands in column 9, the read in column 16. The write
    // overwrites what the read saw in the same iteration, so no minimal
    // anti or input dependence goes from the read to a later iteration:
    // the carried anti is a general (Kuck) one, which `--all` adds.
    assert_eq!(
        rows,
        [
            "anti 16->9 ['='] [Some(0)]",
            "flow 9->16 ['<'] [None]",
            "output 9->9 ['<'] [None]",
        ]
    );
    let path = source_file(
        "subscripts_deps_constant_element_all",
        "constant_element.f",
        &source,
    );
    assert!(
        deps_csv_with(&path, &["--all"])
            .iter()
            .any(|r| r.var == "A" && r.kind == "anti" && r.direction == ['<'] && !r.minimal),
        "the general carried anti dependence with --all"
    );
}

#[test]
fn symbols_keep_one_value_where_they_are_compared() {
    let a = Analysis::of_source(
        "symbols.f",
        &program(
            "      READ (*,*) N
      DO 10 I = 1, 10
        B(I + N) = A(I) + 1.0
   10 CONTINUE
",
        ),
    );
    let names = BTreeMap::from([(a.do_loop(5), "Ig")]);
    let read = a
        .facts
        .def
        .iter()
        .find(|d| d.var == "N")
        .expect("READ defines N")
        .r#ref;
    assert_eq!(
        a.element_form("B", 6, &names),
        Some(format!("1 + Ig + N#{read}"))
    );
}

/// The compiled and interpreted engines derive the same subscript relations,
/// the loop dependence information included, on the synthetic nests of the
/// benchmark and on the paper's figures, where they are not empty.
#[test]
fn engines_agree_on_subscript_relations() {
    let nests = kaiseki_ok(["synth", "nests", "--size", "3"]);
    let mut programs = vec![("nests.f".to_string(), lower_source("nests.f", &nests))];
    for name in ["ishida_fig3.f", "ishida_fig4.f", "ishida_fig5.f"] {
        programs.push((name.to_string(), lower_file(&example(name))));
    }
    for (name, mut facts) in programs {
        facts.request.push(kaiseki_facts::Request {
            what: "coincidence".into(),
        });
        let diff = kaiseki_rules::compare_builtin(&facts).expect("both engines run");
        assert!(diff.is_empty(), "{name}: {}", diff.join("\n"));
        let tables = kaiseki_rules::run_compiled(&facts).expect("compiled rules run");
        for relation in [
            "normal_form",
            "array_tested",
            "array_dependence",
            "coincidence",
        ] {
            let t = tables.iter().find(|t| t.name == relation).expect(relation);
            assert!(!t.rows.is_empty(), "{name}: {relation} is empty");
        }
    }
}

/// Each row between two references in loops `loops`, as
/// `kind direction distance certainty`, sorted.
fn pair_rows(rows: &[Dep], src: (u32, u32), dst: (u32, u32), loops: &[u32]) -> Vec<String> {
    let mut out: Vec<String> = rows
        .iter()
        .filter(|r| r.src == src && r.dst == dst && r.loops == loops)
        .map(|r| {
            let dist: Vec<String> = r
                .distance
                .iter()
                .map(|d| d.map_or("*".into(), |d| d.to_string()))
                .collect();
            let dir: String = r.direction.iter().collect();
            format!("{} {dir} {} {}", r.kind, dist.join(";"), r.certainty)
        })
        .collect();
    out.sort();
    out
}

/// K keeps its DATA value (nothing in the unit can change it): A(I+K) is
/// I+5 and A(I) overwrites what it read 5 iterations later, always. M is
/// assigned once before the loop, on every path: its value 3 reaches the
/// subscript through induction.dl.
#[test]
fn data_constants_and_values_assigned_once_give_exact_distances() {
    let source = "      PROGRAM C
      REAL A(100)
      INTEGER K, M
      DATA K /5/
      READ *, N
      M = 3
      DO 10 I = 1, 50
        A(I) = A(I+K) + A(I+M)
   10 CONTINUE
      PRINT *, A(1), N
      END
";
    let a = Analysis::of_source("data_k.f", source);
    let names = BTreeMap::from([(a.do_loop(7), "Ig")]);
    let form = |col| a.form(a.element_at("A", 8, Some(col)), 1, &names);
    assert_eq!(form(16).as_deref(), Some("6 + Ig"), "I+K with I = 1 + Ig");
    assert_eq!(form(25).as_deref(), Some("4 + Ig"), "I+M");
    let rows = deps_of("data_k.f", source);
    assert_eq!(pair_rows(&rows, (8, 16), (8, 9), &[7]), ["anti < 5 exact"]);
    assert_eq!(pair_rows(&rows, (8, 25), (8, 9), &[7]), ["anti < 3 exact"]);
    for read in [(8, 16), (8, 25)] {
        assert_eq!(pair_rows(&rows, (8, 9), read, &[7]), [] as [&str; 0]);
    }
}

/// F90 initializations, DATA lists with a named repeat count and
/// PARAMETERs in every form fold into subscripts and loop bounds.
#[test]
fn initial_values_and_parameters_fold_in_every_form() {
    let source = "program p
  integer, parameter :: nr = 2, n = 10
  integer, parameter :: m = 2*n + 1
  integer :: k = 5
  integer :: j, l
  real :: a(100), b(100)
  data j, l /nr*3/
  do i = 1, k
    a(i + k) = 1.0
    b(i + m) = 2.0
    a(i + j - l) = 3.0
  end do
  print *, a(1), b(1)
end program p
";
    let a = Analysis::of_source("inits.f90", source);
    let l = a.do_loop(8);
    let names = BTreeMap::from([(l, "Ig")]);
    assert_eq!(a.element_form("A", 9, &names).as_deref(), Some("6 + Ig"));
    assert_eq!(a.element_form("B", 10, &names).as_deref(), Some("22 + Ig"));
    assert_eq!(a.element_form("A", 11, &names).as_deref(), Some("1 + Ig"));
    let trip = a.facts.loop_trip.iter().find(|t| t.r#loop == l);
    assert_eq!(trip.map(|t| t.trip), Some(5), "DO I = 1, K runs 5 times");
}

/// A variable the unit passes to a procedure may change there: its DATA
/// value is no constant and the distance stays unknown (S makes it 0):
/// K is only one unknown in the loop, K@loop.
#[test]
fn a_data_variable_passed_to_a_call_is_no_constant() {
    let source = "      PROGRAM C
      REAL A(100)
      INTEGER K
      DATA K /5/
      CALL S(K)
      DO 10 I = 1, 50
        A(I) = A(I+K)
   10 CONTINUE
      PRINT *, A(1)
      END
      SUBROUTINE S(K)
      K = 0
      END
";
    let a = Analysis::of_source("data_passed.f", source);
    let l = a.do_loop(6);
    assert_eq!(
        a.form(
            a.element_at("A", 7, Some(16)),
            1,
            &BTreeMap::from([(l, "Ig")])
        ),
        Some(format!("1 + Ig + K@{l}"))
    );
    let rows = deps_of("data_passed.f", source);
    let pair = pair_rows(&rows, (7, 16), (7, 9), &[6]);
    assert!(pair.contains(&"anti = 0 possible".to_string()), "{pair:?}");
    assert!(pair.iter().all(|r| r.ends_with("possible")), "{pair:?}");
}

/// An assignment that only some paths to the loop pass is not the value
/// the loop reads: M may hold its value on entry (or the other one), so
/// the distance stays unknown and includes 0 (M is one unknown, M@loop).
#[test]
fn an_assignment_on_some_paths_only_gives_no_distance() {
    for (name, before) in [("if_only.f", ""), ("if_other.f", "      M = 1\n")] {
        let source = format!(
            "      PROGRAM C\n      REAL A(100)\n      READ *, N\n{before}      IF (N .GT. 5) M = 3\n      DO 10 I = 1, 50\n        A(I) = A(I+M)\n   10 CONTINUE\n      PRINT *, A(1)\n      END\n"
        );
        let (do_line, line) = if before.is_empty() { (5, 6) } else { (6, 7) };
        let a = Analysis::of_source(name, &source);
        let l = a.do_loop(i64::from(do_line));
        assert_eq!(
            a.form(
                a.element_at("A", line, Some(16)),
                1,
                &BTreeMap::from([(l, "Ig")])
            ),
            Some(format!("1 + Ig + M@{l}"))
        );
        let rows = deps_of(name, &source);
        assert_eq!(
            pair_rows(&rows, (line as u32, 16), (line as u32, 9), &[do_line]),
            ["anti < * possible", "anti = 0 possible"],
            "{name}"
        );
    }
}

/// A call between the assignment and the loop may change a COMMON
/// variable (S sets M to 1), not a local one: A(I+L) stays I+3, A(I+M) is
/// I + the one unknown M@loop.
#[test]
fn a_call_before_the_loop_may_change_a_common_scalar() {
    let source = "      PROGRAM P
      COMMON /C/ M
      REAL A(100)
      M = 3
      L = 3
      CALL S
      DO 10 I = 1, 50
        A(I) = A(I+M)
        A(I) = A(I+L)
   10 CONTINUE
      PRINT *, A(1)
      END
      SUBROUTINE S
      COMMON /C/ M
      M = 1
      END
";
    let a = Analysis::of_source("common_call.f", source);
    let names = BTreeMap::from([(a.do_loop(7), "Ig")]);
    let scoped = format!("1 + Ig + M@{}", a.do_loop(7));
    assert_eq!(
        a.form(a.element_at("A", 8, Some(16)), 1, &names),
        Some(scoped)
    );
    assert_eq!(
        a.form(a.element_at("A", 9, Some(16)), 1, &names).as_deref(),
        Some("4 + Ig")
    );
    let rows = deps_of("common_call.f", source);
    assert_eq!(
        pair_rows(&rows, (8, 16), (8, 9), &[7]),
        ["anti < * possible", "anti = 0 possible"]
    );
}

/// K = N/2 is no affine value but one unknown K#d wherever it is read:
/// A(I) and A(I+K) for I = 1, K touch 1..K and K+1..2K, never the same
/// element whatever N is; for I = 1, N they do (N = 4: A(3) is read at
/// I = 1 and written at I = 3), so the loop keeps possible rows.
#[test]
fn symbolic_bounds_prove_independence_only_where_ranges_cannot_meet() {
    let source = "      PROGRAM P
      REAL A(200)
      READ *, N
      K = N/2
      DO 10 I = 1, K
        A(I) = A(I+K)
   10 CONTINUE
      DO 20 I = 1, N
        A(I) = A(I+K)
   20 CONTINUE
      PRINT *, A(1)
      END
";
    let a = Analysis::of_source("symbolic.f", source);
    let names = BTreeMap::from([(a.do_loop(5), "Ig")]);
    let k = a
        .facts
        .def
        .iter()
        .find(|d| d.var == "K")
        .expect("K = N/2")
        .r#ref;
    assert_eq!(
        a.form(a.element_at("A", 6, Some(16)), 1, &names),
        Some(format!("1 + Ig + K#{k}"))
    );
    let rows = deps_of("symbolic.f", source);
    for (src, dst) in [((6, 9), (6, 16)), ((6, 16), (6, 9))] {
        assert_eq!(pair_rows(&rows, src, dst, &[5]), [] as [&str; 0]);
    }
    assert_eq!(
        pair_rows(&rows, (9, 16), (9, 9), &[8]),
        ["anti < * possible", "anti = 0 possible"]
    );
    assert_eq!(
        pair_rows(&rows, (9, 9), (9, 16), &[8]),
        ["flow < * possible"]
    );
}

/// Pairs in different nests, in straight-line code, one in a loop and one
/// outside go through the subscript test like pairs in one nest: A(I) for
/// I = 1..10 never meets A(J+10) or A(J+20) of the next nest, nor A(50);
/// it may meet A(5), which is not every element it writes: possible.
#[test]
fn pairs_outside_one_nest_are_tested() {
    let source = "      PROGRAM X
      REAL A(100)
      DO 10 I = 1, 10
        A(I) = 1.0
   10 CONTINUE
      DO 20 J = 1, 10
        A(J + 20) = A(J + 10)
   20 CONTINUE
      A(5) = 2.0
      X = A(5)
      Y = A(50)
      PRINT *, X, Y
      END
";
    let rows = deps_of("across.f", source);
    let a_i = (4, 9);
    for other in [(7, 9), (7, 21), (11, 11)] {
        let between: Vec<&Dep> = rows
            .iter()
            .filter(|r| r.src == a_i && r.dst == other)
            .collect();
        assert!(between.is_empty(), "{between:?}");
    }
    assert_eq!(pair_rows(&rows, a_i, (9, 7), &[]), ["output   possible"]);
    assert_eq!(pair_rows(&rows, (9, 7), (10, 11), &[]), ["flow   exact"]);
}

/// A pair without common loops is exact only when both touch one element
/// and nothing else can write it in between: A(K) may be A(5).
#[test]
fn a_write_in_between_leaves_a_pair_without_common_loops_possible() {
    let source = "      PROGRAM Y
      REAL A(100)
      READ *, K
      A(5) = 2.0
      X = A(5)
      A(K) = 3.0
      Y = A(5)
      PRINT *, X, Y
      END
";
    let rows = deps_of("between.f", source);
    assert_eq!(pair_rows(&rows, (4, 7), (5, 11), &[]), ["flow   exact"]);
    assert_eq!(pair_rows(&rows, (4, 7), (7, 11), &[]), ["flow   possible"]);
    assert_eq!(pair_rows(&rows, (6, 7), (7, 11), &[]), ["flow   possible"]);
}

/// A loop of constant bounds writes A(3) in every iteration: the read
/// after the loop always sees its last write.
#[test]
fn a_constant_element_written_in_a_loop_reaches_a_read_after_it_exactly() {
    let source = "      PROGRAM Z
      REAL A(100)
      DO 10 I = 1, 10
        A(3) = REAL(I)
   10 CONTINUE
      X = A(3)
      PRINT *, X
      END
";
    let rows = deps_of("after_loop.f", source);
    assert_eq!(pair_rows(&rows, (4, 9), (6, 11), &[]), ["flow   exact"]);
}
