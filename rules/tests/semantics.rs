//! What the interpreter derives, relation by relation, on small programs
//! whose answers are known (the compiled engine is held to the same
//! answers by the engine crate's fixture tests).

use kaiseki_engine::dl::diag::Sources;
use kaiseki_engine::{
    run_interpreted_select, run_interpreted_with, EngineError, FunctorContext, FunctorRegistry,
    FunctorSpec, RuleProgram, Select,
};
use kaiseki_facts::{CfgEdge, FactBase, Value};
use kaiseki_rules::{check_rules, functors, run_interpreted};

fn program(text: &str) -> RuleProgram {
    let sources = Sources {
        files: vec![("t.dl".into(), text.into())],
    };
    check_rules(&sources).unwrap_or_else(|d| panic!("{d:?}"))
}

fn graph(edges: &[(i64, i64)]) -> FactBase {
    FactBase {
        cfg_edge: edges
            .iter()
            .map(|&(from, to)| CfgEdge { from, to })
            .collect(),
        ..FactBase::default()
    }
}

/// The rows of `relation`, numbers and symbols written out.
fn rows(tables: &[kaiseki_facts::Table], relation: &str) -> Vec<String> {
    let t = tables.iter().find(|t| t.name == relation).expect(relation);
    t.rows
        .iter()
        .map(|r| {
            r.iter()
                .map(|v| match v {
                    Value::Number(n) => n.to_string(),
                    Value::Symbol(s) => format!("{s:?}"),
                })
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect()
}

const EDGES: &str = ".decl cfg_edge(from: number, to: number)\n.input cfg_edge\n";

#[test]
fn recursion_and_stratified_negation() {
    let p = program(&format!(
        "{EDGES}.decl node(n: number)\nnode(X) :- cfg_edge(X, _) ; cfg_edge(_, X).\n\
         .decl reach(n: number)\nreach(1).\nreach(Y) :- reach(X), cfg_edge(X, Y).\n\
         .decl dead(n: number)\n.output dead\ndead(X) :- node(X), !reach(X).\n\
         .decl sink(n: number)\nsink(X) :- node(X), !cfg_edge(X, _)."
    ));
    let t = run_interpreted(&p, &graph(&[(1, 2), (2, 3), (3, 2), (4, 5)])).unwrap();
    assert_eq!(rows(&t, "reach"), ["1", "2", "3"]);
    assert_eq!(rows(&t, "dead"), ["4", "5"]);
    assert_eq!(rows(&t, "sink"), ["5"]);
    assert_eq!(p.outputs(), ["dead"]);
    // Every declared relation is returned, inputs included, and nothing else.
    let names: Vec<&str> = t.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["cfg_edge", "node", "reach", "dead", "sink"]);
}

#[test]
fn aggregates_count_nothing_as_zero_and_have_no_max_of_nothing() {
    let p = program(&format!(
        "{EDGES}.decl node(n: number)\nnode(X) :- cfg_edge(X, _) ; cfg_edge(_, X).\n\
         .decl deg(n: number, d: number)\ndeg(X, D) :- node(X), D = count : {{ cfg_edge(X, _) }}.\n\
         .decl top(n: number, m: number)\ntop(X, M) :- node(X), M = max Y : {{ cfg_edge(X, Y) }}.\n\
         .decl total(s: number)\ntotal(S) :- S = sum Y - X : cfg_edge(X, Y).\n\
         .decl low(m: number)\nlow(M) :- M = min X : {{ cfg_edge(X, Y), Y > 2 }}."
    ));
    let t = run_interpreted(&p, &graph(&[(1, 2), (1, 3), (2, 3)])).unwrap();
    assert_eq!(rows(&t, "deg"), ["1,2", "2,1", "3,0"]);
    assert_eq!(rows(&t, "top"), ["1,3", "2,3"]);
    assert_eq!(rows(&t, "total"), ["4"]);
    assert_eq!(rows(&t, "low"), ["1"]);
}

#[test]
fn aggregates_count_tuples_not_values() {
    // Two edges leave 1; `count` sees two tuples though `_` hides the targets.
    let p = program(&format!(
        "{EDGES}.decl n(c: number)\nn(C) :- C = count : {{ cfg_edge(1, _) }}.\n\
         .decl s(c: number)\ns(C) :- C = sum X : {{ cfg_edge(X, _) }}."
    ));
    let t = run_interpreted(&p, &graph(&[(1, 2), (1, 3)])).unwrap();
    assert_eq!(rows(&t, "n"), ["2"]);
    assert_eq!(rows(&t, "s"), ["2"]);
}

#[test]
fn arithmetic_wraps_and_division_by_zero_derives_nothing() {
    let p = program(
        ".decl v(x: number)\nv(0). v(3). v(-7).\n\
         .decl q(x: number, q: number, r: number)\nq(X, 7 / X, 7 % X) :- v(X).\n\
         .decl w(x: number)\nw(9223372036854775807 + 1).\n\
         .decl e(x: number)\ne(-2 * 3 + 10 % 4).",
    );
    let t = run_interpreted(&p, &FactBase::default()).unwrap();
    assert_eq!(rows(&t, "q"), ["-7,-1,0", "3,2,1"]);
    assert_eq!(rows(&t, "w"), ["-9223372036854775808"]);
    assert_eq!(rows(&t, "e"), ["-4"]);
}

#[test]
fn intrinsic_functors_with_one_several_or_no_results() {
    let p = program(
        ".decl s(x: symbol)\ns(\"7\"). s(\"x\").\n\
         .decl n(x: symbol, n: number)\nn(S, N) :- s(S), N = to_number(S).\n\
         .decl c(x: symbol)\nc(cat(S, to_string(N + 1))) :- n(S, N).\n\
         .decl r(k: number)\nr(K) :- n(_, N), K = range(N, 10).\n\
         .decl eq(x: symbol)\neq(S) :- s(S), S != \"x\", S = @cat(\"\", S).",
    );
    let t = run_interpreted(&p, &FactBase::default()).unwrap();
    assert_eq!(rows(&t, "n"), ["\"7\",7"]);
    assert_eq!(rows(&t, "c"), ["\"78\""]);
    assert_eq!(rows(&t, "r"), ["7", "8", "9"]);
    assert_eq!(rows(&t, "eq"), ["\"7\""]);
}

/// A native-style functor: the successors of a node, read from the fact
/// base through a per-run index.
fn successors(ctx: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    let index = ctx.memo(|facts| {
        let mut m = std::collections::HashMap::<i64, Vec<i64>>::new();
        for e in &facts.cfg_edge {
            m.entry(e.from).or_default().push(e.to);
        }
        m
    });
    let Value::Number(n) = args[0] else {
        return vec![];
    };
    index
        .get(&n)
        .into_iter()
        .flatten()
        .map(|s| Value::Number(*s))
        .collect()
}

fn registry_with(f: FunctorSpec<FactBase>) -> FunctorRegistry<FactBase> {
    let mut r = functors::standard();
    r.register(f).unwrap();
    r
}

#[test]
fn registered_functors_read_the_fact_base_and_return_several_values() {
    use kaiseki_facts::ColType::Number;
    let registry = registry_with(FunctorSpec {
        name: "succ",
        args: &[Number],
        result: Number,
        doc: "successors",
        f: successors,
    });
    let sources = Sources {
        files: vec![(
            "t.dl".into(),
            ".functor succ(n: number): number\n.decl p(a: number, b: number)\np(1, S) :- S = @succ(1).\np(S, T) :- p(_, S), T = @succ(S).".into(),
        )],
    };
    let p = RuleProgram::from_sources_with(&sources, &registry).unwrap();
    let t = run_interpreted_with(&p, &graph(&[(1, 2), (1, 3), (3, 4)]), &registry).unwrap();
    assert_eq!(rows(&t, "p"), ["1,2", "1,3", "3,4"]);
    // The standard registry does not have it: the run says so.
    assert_eq!(
        run_interpreted(&p, &FactBase::default()).unwrap_err(),
        EngineError::Functor {
            name: "succ".into(),
            message: "no functor `succ` is registered in the engine".into()
        }
    );
}

#[test]
fn a_functor_returning_the_wrong_type_fails_the_run() {
    use kaiseki_facts::ColType::Number;
    fn bad(_: &FunctorContext<FactBase>, _: &[Value]) -> Vec<Value> {
        vec![Value::Symbol("oops".into())]
    }
    let registry = registry_with(FunctorSpec {
        name: "bad",
        args: &[],
        result: Number,
        doc: "",
        f: bad,
    });
    let sources = Sources {
        files: vec![(
            "t.dl".into(),
            ".functor bad(): number\n.decl p(a: number)\np(X) :- X = @bad().".into(),
        )],
    };
    let p = RuleProgram::from_sources_with(&sources, &registry).unwrap();
    let err = run_interpreted_with(&p, &FactBase::default(), &registry).unwrap_err();
    assert_eq!(
        err.to_string(),
        "functor `bad`: returned `oops`, which is not a number"
    );
}

#[test]
fn facts_extend_inputs_and_nullary_relations_hold_or_not() {
    let p = program(&format!(
        "{EDGES}cfg_edge(10, 11).\n.decl cyclic()\ncyclic() :- cfg_edge(X, Y), cfg_edge(Y, X).\n\
         .decl acyclic()\nacyclic() :- !cyclic()."
    ));
    let t = run_interpreted(&p, &graph(&[(1, 2)])).unwrap();
    assert_eq!(rows(&t, "cfg_edge"), ["1,2", "10,11"]);
    assert_eq!(rows(&t, "cyclic"), Vec::<String>::new());
    assert_eq!(rows(&t, "acyclic"), [""]);
    let t = run_interpreted(&p, &graph(&[(1, 2), (2, 1)])).unwrap();
    assert_eq!(rows(&t, "cyclic"), [""]);
    assert!(rows(&t, "acyclic").is_empty());
}

#[test]
fn several_heads_disjunction_and_symbol_comparison() {
    let p = program(
        ".decl k(x: symbol, n: number)\nk(\"do\", 1). k(\"if\", 2). k(\"end\", 3).\n\
         .decl a(x: symbol)\n.decl b(x: symbol)\na(X), b(X) :- k(X, N), (N = 1 ; X = \"end\").\n\
         .decl c(x: symbol)\nc(X) :- k(X, _), X != \"if\", !a(X) ; k(X, 2).",
    );
    let t = run_interpreted(&p, &FactBase::default()).unwrap();
    assert_eq!(rows(&t, "a"), ["\"do\"", "\"end\""]);
    assert_eq!(rows(&t, "b"), rows(&t, "a"));
    assert_eq!(rows(&t, "c"), ["\"if\""]);
}

#[test]
fn inputs_are_bound_by_name_to_the_fact_base() {
    let p = program(
        ".decl stmt(stmt: number, unit: symbol, line: number, col: number, kind: symbol)\n.input stmt\n\
         .decl units(u: symbol)\nunits(U) :- stmt(_, U, _, _, \"assign\").",
    );
    let mut facts = FactBase::default();
    for (stmt, unit, kind) in [
        (1, "MAIN", "assign"),
        (2, "SUB", "do"),
        (3, "SUB", "assign"),
    ] {
        facts.stmt.push(kaiseki_facts::Stmt {
            stmt,
            unit: unit.into(),
            line: stmt,
            col: 7,
            kind: kind.into(),
        });
    }
    let t = run_interpreted(&p, &facts).unwrap();
    assert_eq!(rows(&t, "units"), ["\"MAIN\"", "\"SUB\""]);
}

#[test]
fn runs_return_the_selected_relations_only() {
    let p = program(&format!(
        "{EDGES}.decl reach(n: number)\nreach(1).\nreach(Y) :- reach(X), cfg_edge(X, Y).\n\
         .decl far(n: number)\n.output far\nfar(X) :- reach(X), X > 2."
    ));
    let f = graph(&[(1, 2), (2, 3)]);
    let registry = functors::standard();
    let run = |select| run_interpreted_select(&p, &f, &registry, select);
    let outputs = run(Select::Outputs).unwrap();
    assert_eq!(outputs.len(), 1);
    assert_eq!(rows(&outputs, "far"), ["3"]);
    let only = run(Select::Only(&["reach", "cfg_edge"])).unwrap();
    let names: Vec<&str> = only.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["cfg_edge", "reach"]);
    assert_eq!(rows(&only, "reach"), ["1", "2", "3"]);
    assert_eq!(
        run(Select::Only(&["nope"])).unwrap_err(),
        EngineError::UnknownRelation("nope".into())
    );
}
