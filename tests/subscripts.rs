//! Array subscript analysis end to end (rules/dl/induction.dl,
//! rules/dl/subscripts.dl): `kaiseki analyze` and `kaiseki deps` on the
//! figures of Ishida & Kanada (seed 002) give what
//! ../shared/examples/EXPECTED.md says, with normal forms computed from
//! the facts; small programs check each kind of induction variable and
//! what must stay "possible".

mod common;

use common::{deps_csv, example, kaiseki_ok, lower_file, lower_source, scratch_dir, Dep};
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
                    .any(|p| p.r#ref == *r && p.line == line)
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
    let dir = scratch_dir("subscripts_not_ivs_deps");
    let path = dir.join("not_ivs.f");
    std::fs::write(&path, &source).expect("program written");
    let rows = deps_csv(&path);
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
/// hold its value on entry when A(I + M) runs.
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
    let names = BTreeMap::new();
    assert_eq!(a.element_form("A", 9, &names), None);
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
    let dir = scratch_dir("subscripts_passed_element");
    let path = dir.join("passed.f");
    std::fs::write(&path, source).expect("program written");
    let rows = deps_csv(&path);
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
    let dir = scratch_dir("subscripts_constant_element");
    let path = dir.join("constant_element.f");
    std::fs::write(&path, &source).expect("program written");
    // kind, source and sink columns, direction and distance of each row in the loop.
    let mut rows: Vec<String> = deps_csv(&path)
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
    // The write stands in column 9, the read in column 16.
    assert_eq!(
        rows,
        [
            "anti 16->9 ['<'] [None]",
            "anti 16->9 ['='] [Some(0)]",
            "flow 9->16 ['<'] [None]",
            "input 16->16 ['<'] [None]",
            "output 9->9 ['<'] [None]",
        ]
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
