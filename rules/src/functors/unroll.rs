//! The functors of the unrolling rules (`rules/dl/unroll.dl`): the model
//! of a nest and the search for its unroll factors ([`crate::unroll`]).

use kaiseki_engine::functors::{text, FunctorContext, FunctorSpec};
use kaiseki_facts::ColType::Symbol;
use kaiseki_facts::{FactBase, Value};

/// The model of a nest, as `unroll.dl` packs it ([`crate::unroll::model_record`]).
fn unroll_model(_: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    let t: Vec<&str> = args.iter().map(text).collect();
    crate::unroll::model_record(t[0], t[1], t[2], t[3], t[4])
        .map(Value::Symbol)
        .into_iter()
        .collect()
}

fn unroll_search(_: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    crate::unroll::search_record(text(&args[0]), text(&args[1]), text(&args[2]))
        .map(Value::Symbol)
        .into_iter()
        .collect()
}

/// `pos|d` (1-based position, distance or `*`) when exactly one component
/// of a dependence's direction is not `=` and it is `<`; `*` when some
/// component is `>` or `*` (the band is not fully permutable); nothing
/// when every component is `=`.
fn unroll_shift(_: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    let dirs: Vec<&str> = text(&args[0]).split(';').collect();
    let dists: Vec<&str> = text(&args[1]).split(';').collect();
    if dirs.iter().any(|d| *d == ">" || *d == "*") {
        return vec![Value::Symbol("*".into())];
    }
    let moved: Vec<usize> = (0..dirs.len()).filter(|&i| dirs[i] == "<").collect();
    match moved[..] {
        [i] => vec![Value::Symbol(format!(
            "{}|{}",
            i + 1,
            dists.get(i).copied().unwrap_or("*")
        ))],
        _ => Vec::new(),
    }
}

/// The unrolling functors, registered by [`super::standard`].
pub const FUNCTORS: &[FunctorSpec<FactBase>] = &[
    FunctorSpec {
        name: "unroll_model",
        args: &[Symbol, Symbol, Symbol, Symbol, Symbol],
        result: Symbol,
        doc: "N|C|c_i;...|n_i;... of a nest: its band's loops, body statements, references, iteration dependences and the machine (rules/src/unroll).",
        f: unroll_model,
    },
    FunctorSpec {
        name: "unroll_search",
        args: &[Symbol, Symbol, Symbol],
        result: Symbol,
        doc: "k_i;...|P|stop: the greedy search of seed 004, section 6, for a model, the loops' trip counts (0: unknown) and the machine.",
        f: unroll_search,
    },
    FunctorSpec {
        name: "unroll_shift",
        args: &[Symbol, Symbol],
        result: Symbol,
        doc: "pos|distance when a dependence's direction moves along one loop only, * when it has > or * (not fully permutable).",
        f: unroll_shift,
    },
];
