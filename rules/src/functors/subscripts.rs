//! The functors of the subscript rules (`rules/dl/induction.dl`,
//! `rules/dl/subscripts.dl`): arithmetic on normal forms, and the
//! dependence tests of Ishida & Kanada on packed references. Normal forms
//! and packs are spelled as [`kaiseki_affine::symbolic`] defines. The
//! unrolling functors are [`super::unroll`]'s.
//!
//! Records that carry several fields come back as one symbol, fields
//! separated by `|`, read with `@field(record, i)`:
//! - a dependence vector: `carrier|loops|directions|distances|certainty`,
//!   with the loop that carries it (0: none), the common loops' ids, one
//!   direction (`<`, `=`, `>`, `*`) and one distance (a number or `*`) per
//!   common loop, `;`-separated, and `exact` or `possible`;
//! - a coincidence: `loop|n|property|verdict|rule`.
//!
//! Nothing here panics on bad input: a symbol that is not what a functor
//! expects gives no result, or, for the tests, the answer that assumes
//! everything (a `*` vector, an `unknown` verdict).

use kaiseki_affine::coincidence::{Property, Rule, Verdict};
use kaiseki_affine::symbolic::{is_section_loop, section_loop, LoopForm, Packed};
use kaiseki_affine::{DepVector, Dir};
use kaiseki_affine::{Pair, SymbolRanges};
use kaiseki_engine::functors::{number, text, FunctorContext, FunctorSpec};
use kaiseki_facts::ColType::{Number, Symbol};
use kaiseki_facts::{FactBase, Value};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

fn form(v: &Value) -> Option<LoopForm> {
    text(v).parse().ok()
}

fn symbol(form: Option<LoopForm>) -> Vec<Value> {
    form.map(|f| Value::Symbol(f.to_string()))
        .into_iter()
        .collect()
}

fn nf_num(_: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    symbol(Some(LoopForm::constant(number(&args[0]))))
}

fn nf_iv(_: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    symbol(Some(LoopForm::induction(number(&args[0]))))
}

fn section_loop_id(_: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    vec![Value::Number(section_loop(
        number(&args[0]),
        number(&args[1]),
    ))]
}

fn nf_symbol(_: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    symbol(LoopForm::symbol(text(&args[0])))
}

fn nf_add(_: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    symbol(
        form(&args[0])
            .zip(form(&args[1]))
            .and_then(|(a, b)| a.add(&b)),
    )
}

fn nf_scale(_: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    symbol(form(&args[0]).and_then(|a| a.scale(number(&args[1]))))
}

fn nf_constant(_: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    form(&args[0])
        .map(|f| Value::Number(f.constant))
        .into_iter()
        .collect()
}

fn nf_loops(_: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    form(&args[0]).map_or(Vec::new(), |f| {
        f.loops.keys().map(|&l| Value::Number(l)).collect()
    })
}

fn nf_coeff(_: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    let l = number(&args[1]);
    form(&args[0])
        .map(|f| Value::Number(f.loops.get(&l).copied().unwrap_or(0)))
        .into_iter()
        .collect()
}

fn nf_symbols(_: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    form(&args[0]).map_or(Vec::new(), |f| {
        f.symbols.into_keys().map(Value::Symbol).collect()
    })
}

fn nf_symbol_coeff(_: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    let s = text(&args[1]);
    form(&args[0])
        .map(|f| Value::Number(f.symbols.get(s).copied().unwrap_or(0)))
        .into_iter()
        .collect()
}

fn field(_: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    usize::try_from(number(&args[1]))
        .ok()
        .and_then(|i| text(&args[0]).split('|').nth(i))
        .map(|f| Value::Symbol(f.to_string()))
        .into_iter()
        .collect()
}

/// Item i (from 0) of a `;`-separated list: a dependence row's direction
/// or distance at one loop of its `loops` list (`=;<` at 1 is `<`).
fn item(_: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    usize::try_from(number(&args[1]))
        .ok()
        .and_then(|i| text(&args[0]).split(';').nth(i))
        .map(|f| Value::Symbol(f.to_string()))
        .into_iter()
        .collect()
}

/// The references parsed so far in a run, by their dims then loops packs:
/// a reference is in many pairs (looked up without building a key).
#[derive(Default)]
struct ParsedRefs(RefCell<HashMap<String, ByLoops>>);

/// The references of one dims pack, by their loops pack (`None`: malformed).
type ByLoops = HashMap<String, Option<Rc<Packed>>>;

/// The two references of a test, unpacked (each pack parsed once per run);
/// `None` when a pack is malformed.
fn unpack(ctx: &FunctorContext<FactBase>, args: &[Value]) -> Option<(Rc<Packed>, Rc<Packed>)> {
    let parsed = ctx.memo(|_| ParsedRefs::default());
    let mut parsed = parsed.0.borrow_mut();
    let mut one = |dims: &Value, loops: &Value| {
        let (dims, loops) = (text(dims), text(loops));
        if let Some(known) = parsed.get(dims).and_then(|by_loops| by_loops.get(loops)) {
            return known.clone();
        }
        let packed = Packed::parse(dims, loops).ok().map(Rc::new);
        parsed
            .entry(dims.to_string())
            .or_default()
            .insert(loops.to_string(), packed.clone());
        packed
    };
    Some((one(&args[0], &args[1])?, one(&args[2], &args[3])?))
}

/// The loops both references are in: their common outermost loops (a
/// section's own loops never are, even of a reference paired with itself).
fn common_loops(u: &Packed, v: &Packed) -> Vec<i64> {
    u.loop_ids
        .iter()
        .zip(&v.loop_ids)
        .take_while(|(a, b)| a == b && !is_section_loop(**a))
        .map(|(a, _)| *a)
        .collect()
}

fn dir_char(d: Dir) -> char {
    match d {
        Dir::Lt => '<',
        Dir::Eq => '=',
        Dir::Gt => '>',
        Dir::Star => '*',
    }
}

fn join<T>(items: &[T], f: impl Fn(&T) -> String) -> String {
    items.iter().map(f).collect::<Vec<_>>().join(";")
}

fn vector_record(loops: &[i64], v: &DepVector) -> String {
    format!(
        "{}|{}|{}|{}",
        join(loops, i64::to_string),
        join(&v.directions, |d| dir_char(*d).to_string()),
        join(&v.distances, |d| d
            .map_or("*".to_string(), |n| n.to_string())),
        if v.exact { "exact" } else { "possible" }
    )
}

/// `@dep_vectors(u_dims, u_loops, v_dims, v_loops)`: the direction
/// vectors of U then V ([`Pair::dependence_vectors`]), one record per vector
/// and carrier it can have ([`meet`]: a `*` vector is split, so that the
/// rules join records with the carriers of the dataflow paths); malformed or
/// inconsistent references give the vector that assumes anything.
///
/// A record is `exact` only when its vector certainly happens, is the
/// pair's only vector and has one known distance per loop: then no access
/// of U or V to the same element can come between a dependence's ends
/// except in the same iterations of the common loops (it would make another
/// distance), so the dependence is a direct one whenever it happens.
///
/// The rules ask for both orders of nearly every pair in one nest: one
/// search answers both ([`Pair::dependence_vectors_both_ways`], from the
/// reference that sorts first by what it is ([`kaiseki_affine::RefInfo`]'s order), so
/// the answer depends neither on which order is asked first nor on how the
/// loops are numbered), and the other order's records wait in the run's
/// memo ([`Answers`]). A pair without common loops is asked in one order
/// only (no back edge leads from the later reference to the earlier one),
/// so its other order is not searched. A pair outside loops is searched
/// once per run for each pair of subscripts.
fn dep_vectors(ctx: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    let key: Vec<&str> = args.iter().map(text).collect();
    let answers = ctx.memo(|_| Answers::default());
    let joined = key.join("\t");
    if let Some(records) = answers.reply(&joined) {
        return records;
    }
    let mine = search_vectors(ctx, args, &key, &answers);
    if key[1].is_empty() && key[3].is_empty() {
        answers.keep(joined, mine.clone());
    }
    mine
}

/// The records of [`dep_vectors`] for the pair `key` names, searched; the
/// other order's, when searched too, go to `answers`.
fn search_vectors(
    ctx: &FunctorContext<FactBase>,
    args: &[Value],
    key: &[&str],
    answers: &Answers,
) -> Vec<Value> {
    let Some((u, v)) = unpack(ctx, args) else {
        return Vec::new();
    };
    let loops = common_loops(&u, &v);
    let records = |mut vectors: Vec<DepVector>| -> Vec<Value> {
        let only = vectors.len() == 1;
        for v in &mut vectors {
            v.exact &= only && v.distances.iter().all(Option::is_some);
        }
        let mut out = Vec::new();
        for v in &vectors {
            for c in std::iter::once(0).chain(loops.iter().copied()) {
                if let Some(m) = meet(&loops, v, c) {
                    out.push(Value::Symbol(format!("{c}|{}", vector_record(&loops, &m))));
                }
            }
        }
        out
    };
    let anything = || {
        vec![DepVector {
            directions: vec![Dir::Star; loops.len()],
            distances: vec![None; loops.len()],
            exact: false,
        }]
    };
    // (U then V, V then U), the second only `both_ways`.
    let search = |a: &Packed, b: &Packed, both_ways: bool| match Pair::new(
        &a.info,
        &b.info,
        loops.len(),
        &SymbolRanges::new(),
    ) {
        Ok(p) if both_ways => p.dependence_vectors_both_ways(),
        Ok(p) => (p.dependence_vectors(), Vec::new()),
        Err(_) => (anything(), anything()),
    };
    if key[..2] == key[2..] || loops.is_empty() {
        return records(search(&u, &v, false).0);
    }
    // Equal references (up to the numbering of their loops) make the same
    // system either way; else the order of what they are, not of their
    // loops' ids, picks the side to search from.
    let ours_first = u.info <= v.info;
    let (first, second) = if ours_first { (&u, &v) } else { (&v, &u) };
    let (ahead, behind) = search(first, second, true);
    let (mine, other) = if ours_first {
        (ahead, behind)
    } else {
        (behind, ahead)
    };
    let reversed = [key[2], key[3], key[0], key[1]];
    answers.wait(reversed.join("\t"), records(other));
    records(mine)
}

/// `@covers(u_dims, u_loops, v_dims, v_loops)`: 1 when the write V
/// touches the element of every instance of U, in the same iterations of
/// their common loops ([`Pair::covered_by_v`]); no result otherwise.
fn covers(ctx: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    let Some((u, v)) = unpack(ctx, args) else {
        return Vec::new();
    };
    let common = common_loops(&u, &v).len();
    match Pair::new(&u.info, &v.info, common, &SymbolRanges::new()) {
        Ok(pair) if pair.covered_by_v() => vec![Value::Number(1)],
        _ => Vec::new(),
    }
}

/// The records `@dep_vectors` found in a run, keyed by the call's
/// arguments.
#[derive(Default)]
struct Answers {
    /// The other order of each pair searched both ways, until asked.
    waiting: RefCell<HashMap<String, Vec<Value>>>,
    /// The pairs outside loops, whose questions are only their subscripts
    /// and come again and again (`A(5)` and `A(5)` in straight-line code:
    /// in the 26,250-line elements benchmark, 101,893 of the 155,855 calls
    /// are outside loops and ask 941 questions).
    /// Emptied when it holds [`ANSWERS_KEPT`], so its memory stays bounded
    /// when every pair is another question.
    outside_loops: RefCell<HashMap<String, Vec<Value>>>,
}

/// How many answers [`Answers::outside_loops`] holds at most (a few
/// megabytes).
const ANSWERS_KEPT: usize = 1 << 16;

impl Answers {
    fn reply(&self, key: &str) -> Option<Vec<Value>> {
        let mut waiting = self.waiting.borrow_mut();
        if !waiting.is_empty() {
            if let Some(records) = waiting.remove(key) {
                return Some(records);
            }
        }
        self.outside_loops.borrow().get(key).cloned()
    }

    fn wait(&self, key: String, records: Vec<Value>) {
        self.waiting.borrow_mut().insert(key, records);
    }

    fn keep(&self, key: String, records: Vec<Value>) {
        let mut kept = self.outside_loops.borrow_mut();
        if kept.len() >= ANSWERS_KEPT {
            kept.clear();
        }
        kept.insert(key, records);
    }
}

/// The part of vector `v` (over `loops`) that a dependence carried by loop
/// `carrier` (0: loop-independent) can have — `=` outside the carrier, `<`
/// on it, anything inside — or `None` when they do not meet. It stays
/// `exact` only when it was not narrowed and every distance is known: then
/// the dependence certainly happens, with these distances.
fn meet(loops: &[i64], v: &DepVector, carrier: i64) -> Option<DepVector> {
    let mut v = v.clone();
    let at = match carrier {
        0 => loops.len(),
        c => loops.iter().position(|&l| l == c)?,
    };
    for g in 0..loops.len().min(at + 1) {
        let want = if g < at { Dir::Eq } else { Dir::Lt };
        let distance_fits = v.distances[g].is_none_or(|d| want.holds(d));
        match v.directions[g] {
            d if d == want && distance_fits => {}
            Dir::Star if distance_fits => {
                v.directions[g] = want;
                v.exact = false;
                if want == Dir::Eq {
                    v.distances[g] = Some(0);
                }
            }
            _ => return None,
        }
    }
    v.exact &= v.distances.iter().all(Option::is_some);
    Some(v)
}

const N_VALUES: [i64; 2] = [0, 1];

const PROPERTIES: [(Property, &str); 3] = [
    (Property::ExactCoincidence, "exact"),
    (Property::PossibleCoincidence, "possible"),
    (Property::PossibleCoincidenceOrMore, "or_more"),
];

fn rule_name(rule: Rule) -> String {
    match rule {
        Rule::Coefficient1 => "(1)".to_string(),
        Rule::Coefficient2_1 { dim } => format!("(2-1) dim {}", dim + 1),
        Rule::Coefficient2_2 { dim } => format!("(2-2) dim {}", dim + 1),
        Rule::Coefficient3_1 { dim } => format!("(3-1) dim {}", dim + 1),
        Rule::Coefficient3_2 { dim } => format!("(3-2) dim {}", dim + 1),
        Rule::Diophantine => "diophantine".to_string(),
        Rule::Exact => "exact".to_string(),
    }
}

/// `@coincidence(u_dims, u_loops, v_dims, v_loops)`: the loop dependence
/// information of U then V ([`Pair::coincidence`]) for every common loop,
/// n = 0 and 1 and the three properties, as records
/// `loop|n|property|verdict|rule` (verdict `holds`, `does_not_hold` or
/// `unknown`; rule empty when unknown).
fn coincidence(ctx: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    let Some((u, v)) = unpack(ctx, args) else {
        return Vec::new();
    };
    let loops = common_loops(&u, &v);
    let pair = Pair::new(&u.info, &v.info, loops.len(), &SymbolRanges::new()).ok();
    let mut out = Vec::new();
    for (g, l) in loops.iter().enumerate() {
        for n in N_VALUES {
            for (property, name) in PROPERTIES {
                let verdict = pair
                    .as_ref()
                    .and_then(|p| p.coincidence(g, n, property).ok())
                    .unwrap_or(Verdict::Unknown);
                let (verdict, rule) = match verdict {
                    Verdict::Holds(r) => ("holds", rule_name(r)),
                    Verdict::DoesNotHold(r) => ("does_not_hold", rule_name(r)),
                    Verdict::Unknown => ("unknown", String::new()),
                };
                out.push(Value::Symbol(format!("{l}|{n}|{name}|{verdict}|{rule}")));
            }
        }
    }
    out
}

/// The subscript functors, registered by [`super::standard`].
pub const FUNCTORS: &[FunctorSpec<FactBase>] = &[
    FunctorSpec {
        name: "nf_num",
        args: &[Number],
        result: Symbol,
        doc: "The normal form of a constant.",
        f: nf_num,
    },
    FunctorSpec {
        name: "nf_iv",
        args: &[Number],
        result: Symbol,
        doc: "The standard induction variable I_loop of a loop, as a normal form.",
        f: nf_iv,
    },
    FunctorSpec {
        name: "section_loop",
        args: &[Number, Number],
        result: Number,
        doc: "The loop that runs over dimension `dim` of section reference `ref` in the packs: local to that reference, never common to two.",
        f: section_loop_id,
    },
    FunctorSpec {
        name: "nf_symbol",
        args: &[Symbol],
        result: Symbol,
        doc: "A loop-invariant unknown (N, N#12) as a normal form; none for other names.",
        f: nf_symbol,
    },
    FunctorSpec {
        name: "nf_add",
        args: &[Symbol, Symbol],
        result: Symbol,
        doc: "The sum of two normal forms; none on overflow.",
        f: nf_add,
    },
    FunctorSpec {
        name: "nf_scale",
        args: &[Symbol, Number],
        result: Symbol,
        doc: "A normal form times a constant; none on overflow.",
        f: nf_scale,
    },
    FunctorSpec {
        name: "nf_constant",
        args: &[Symbol],
        result: Number,
        doc: "The constant C0 of a normal form.",
        f: nf_constant,
    },
    FunctorSpec {
        name: "nf_loops",
        args: &[Symbol],
        result: Number,
        doc: "Each loop whose standard induction variable has a non-zero coefficient.",
        f: nf_loops,
    },
    FunctorSpec {
        name: "nf_coeff",
        args: &[Symbol, Number],
        result: Number,
        doc: "The coefficient C_loop of a normal form (0 when absent).",
        f: nf_coeff,
    },
    FunctorSpec {
        name: "nf_symbols",
        args: &[Symbol],
        result: Symbol,
        doc: "Each loop-invariant unknown of a normal form.",
        f: nf_symbols,
    },
    FunctorSpec {
        name: "nf_symbol_coeff",
        args: &[Symbol, Symbol],
        result: Number,
        doc: "The coefficient of an unknown in a normal form (0 when absent).",
        f: nf_symbol_coeff,
    },
    FunctorSpec {
        name: "dep_vectors",
        args: &[Symbol, Symbol, Symbol, Symbol],
        result: Symbol,
        doc: "The direction vectors of U then V (dims and loops packs of each), one record each.",
        f: dep_vectors,
    },
    FunctorSpec {
        name: "covers",
        args: &[Symbol, Symbol, Symbol, Symbol],
        result: Number,
        doc: "1 when the write V (dims and loops packs) touches the element of every instance of U; none otherwise.",
        f: covers,
    },
    FunctorSpec {
        name: "coincidence",
        args: &[Symbol, Symbol, Symbol, Symbol],
        result: Symbol,
        doc: "Ishida & Kanada's loop dependence information of U then V, one record per loop, n and property.",
        f: coincidence,
    },
    FunctorSpec {
        name: "field",
        args: &[Symbol, Number],
        result: Symbol,
        doc: "Field i (from 0) of a `|`-separated record.",
        f: field,
    },
    FunctorSpec {
        name: "item",
        args: &[Symbol, Number],
        result: Symbol,
        doc: "Item i (from 0) of a `;`-separated list (a direction or distance at one loop).",
        f: item,
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    fn char_dir(c: &str) -> Option<Dir> {
        Some(match c {
            "<" => Dir::Lt,
            "=" => Dir::Eq,
            ">" => Dir::Gt,
            "*" => Dir::Star,
            _ => return None,
        })
    }

    /// Splits a `;`-separated list (empty for no loops).
    fn list(s: &str) -> Vec<&str> {
        if s.is_empty() {
            Vec::new()
        } else {
            s.split(';').collect()
        }
    }

    fn parse_vector(record: &str) -> Option<(Vec<i64>, DepVector)> {
        let [loops, dirs, dists, certainty] = record.split('|').collect::<Vec<_>>()[..] else {
            return None;
        };
        let loops = list(loops)
            .into_iter()
            .map(|l| l.parse().ok())
            .collect::<Option<Vec<i64>>>()?;
        let directions = list(dirs)
            .into_iter()
            .map(char_dir)
            .collect::<Option<Vec<_>>>()?;
        let distances = list(dists)
            .into_iter()
            .map(|d| {
                if d == "*" {
                    Some(None)
                } else {
                    d.parse().ok().map(Some)
                }
            })
            .collect::<Option<Vec<_>>>()?;
        (loops.len() == directions.len() && loops.len() == distances.len()).then_some((
            loops,
            DepVector {
                directions,
                distances,
                exact: certainty == "exact",
            },
        ))
    }

    /// [`meet`] on a record.
    fn meet_text(record: &str, carrier: i64) -> Vec<String> {
        parse_vector(record)
            .and_then(|(loops, v)| meet(&loops, &v, carrier).map(|m| vector_record(&loops, &m)))
            .into_iter()
            .collect()
    }
    use kaiseki_facts::FactBase;

    fn call(
        f: fn(&FunctorContext<FactBase>, &[Value]) -> Vec<Value>,
        args: &[Value],
    ) -> Vec<String> {
        let facts = FactBase::default();
        f(&FunctorContext::new(&facts), args)
            .into_iter()
            .map(|v| v.to_string())
            .collect()
    }

    fn s(x: &str) -> Value {
        Value::Symbol(x.to_string())
    }

    fn n(x: i64) -> Value {
        Value::Number(x)
    }

    #[test]
    fn normal_form_arithmetic() {
        assert_eq!(call(nf_num, &[n(-4)]), ["-4"]);
        assert_eq!(call(nf_iv, &[n(12)]), ["0+1*i12"]);
        assert_eq!(call(nf_symbol, &[s("N#3")]), ["0+1*N#3"]);
        assert!(call(nf_symbol, &[s("bad name")]).is_empty());
        assert_eq!(call(nf_add, &[s("1+2*i5"), s("3-2*i5+1*N")]), ["4+1*N"]);
        assert_eq!(call(nf_scale, &[s("1+2*i5"), n(-3)]), ["-3-6*i5"]);
        assert!(call(nf_scale, &[s("1+2*i5"), n(i64::MAX)]).is_empty());
        assert!(call(nf_add, &[s("?"), s("1")]).is_empty());
        let f = s("7+16*i5+3*i9-1*N");
        assert_eq!(call(nf_constant, std::slice::from_ref(&f)), ["7"]);
        assert_eq!(call(nf_loops, std::slice::from_ref(&f)), ["5", "9"]);
        assert_eq!(call(nf_coeff, &[f.clone(), n(9)]), ["3"]);
        assert_eq!(call(nf_coeff, &[f.clone(), n(4)]), ["0"]);
        assert_eq!(call(nf_symbols, std::slice::from_ref(&f)), ["N"]);
        assert_eq!(call(nf_symbol_coeff, &[f, s("N")]), ["-1"]);
        assert_eq!(call(field, &[s("a|b|c"), n(1)]), ["b"]);
        assert!(call(field, &[s("a|b|c"), n(3)]).is_empty());
        assert!(call(field, &[s("a"), n(-1)]).is_empty());
    }

    /// Ishida & Kanada fig. 3, loop 10 (`DO 10 I = 1, 20`): A(I) then A(I-1).
    const LOOP10: &str = ";8:1:20:1";

    #[test]
    fn both_orders_of_a_pair_do_not_depend_on_which_is_asked_first() {
        // A(2*I+J) and A(I+3*J+1) in a 2-deep nest, one search for both.
        let nest = ";8:1:10:1;9:1:0+1*N:1";
        let u = [s("|0+2*i8+1*i9"), s(nest), s("|1+1*i8+3*i9"), s(nest)];
        let v = [u[2].clone(), u[3].clone(), u[0].clone(), u[1].clone()];
        let facts = FactBase::default();
        let run = |first: &[Value], second: &[Value]| {
            let ctx = FunctorContext::new(&facts);
            let text = |vs: Vec<Value>| vs.iter().map(Value::to_string).collect::<Vec<_>>();
            (
                text(dep_vectors(&ctx, first)),
                text(dep_vectors(&ctx, second)),
            )
        };
        let (uv, vu) = run(&u, &v);
        let (vu_first, uv_second) = run(&v, &u);
        assert!(!uv.is_empty() && !vu.is_empty());
        assert_eq!((uv, vu), (uv_second, vu_first));
    }

    #[test]
    fn a_question_outside_loops_asked_again_gets_the_same_records() {
        let facts = FactBase::default();
        let ctx = FunctorContext::new(&facts);
        let text = |vs: Vec<Value>| vs.iter().map(Value::to_string).collect::<Vec<_>>();
        // A(5) written, then A(K+1) read, outside loops.
        let pair = [s("|5"), s(""), s("|1+1*K"), s("")];
        let first = text(dep_vectors(&ctx, &pair));
        assert_eq!(first, ["0||||possible"]);
        assert_eq!(text(dep_vectors(&ctx, &pair)), first);
        let answers = ctx.memo(|_| Answers::default());
        assert_eq!(answers.outside_loops.borrow().len(), 1);
        for i in 0..ANSWERS_KEPT {
            answers.keep(i.to_string(), Vec::new());
        }
        assert!(answers.outside_loops.borrow().len() <= ANSWERS_KEPT);
        assert_eq!(text(dep_vectors(&ctx, &pair)), first);
    }

    #[test]
    fn vectors_of_packed_references() {
        let u = [s("|1+1*i8"), s(LOOP10), s("|0+1*i8"), s(LOOP10)];
        assert_eq!(call(dep_vectors, &u), ["8|8|<|1|exact"]);
        // The other way round: A(I-1) is read after A(I-1) was written.
        let v = [s("|0+1*i8"), s(LOOP10), s("|1+1*i8"), s(LOOP10)];
        assert!(call(dep_vectors, &v).is_empty());
        // A(I) read, then written: same iteration.
        let same = [s("|1+1*i8"), s(LOOP10), s("|1+1*i8"), s(LOOP10)];
        assert_eq!(call(dep_vectors, &same), ["0|8|=|0|exact"]);
        // Two vectors: neither is exact (A(1) written, then read).
        let twice = [s("|1"), s(LOOP10), s("|1"), s(LOOP10)];
        assert_eq!(
            call(dep_vectors, &twice),
            ["8|8|<|*|possible", "0|8|=|0|possible"]
        );
        // Unknown subscripts: anything, never nothing.
        let w = [s("|?"), s(LOOP10), s("|0+1*i8"), s(LOOP10)];
        let mut anything = call(dep_vectors, &w);
        anything.sort();
        assert_eq!(anything, ["0|8|=|0|possible", "8|8|<|*|possible"]);
        // Rank mismatch (an inconsistent program) assumes anything.
        let x = [s("|1|2"), s(LOOP10), s("|1"), s(LOOP10)];
        // Each record is a vector narrowed to one carrier it can have.
        assert_eq!(
            call(dep_vectors, &x),
            ["0|8|=|0|possible", "8|8|<|*|possible"]
        );
        // No common loop: the empty vector when they can meet (possible:
        // V meets A(5) in one iteration of its loop only).
        let y = [s("|5"), s(";3:1:10:1"), s("|0+1*i8"), s(LOOP10)];
        assert_eq!(call(dep_vectors, &y), ["0||||possible"]);
        assert!(call(dep_vectors, &[s("x"), s(""), s(""), s("")]).is_empty());
    }

    #[test]
    fn vectors_meet_the_carrier_of_a_dataflow_path() {
        assert_eq!(meet_text("8|<|1|exact", 8), ["8|<|1|exact"]);
        assert!(meet_text("8|<|1|exact", 0).is_empty());
        assert!(meet_text("8|=|0|exact", 8).is_empty());
        assert_eq!(meet_text("8|=|0|exact", 0), ["8|=|0|exact"]);
        assert_eq!(
            meet_text("8;9|*;*|*;*|possible", 9),
            ["8;9|=;<|0;*|possible"]
        );
        assert_eq!(meet_text("8;9|*;*|*;*|exact", 0), ["8;9|=;=|0;0|possible"]);
        assert_eq!(meet_text("8;9|<;>|2;-1|exact", 8), ["8;9|<;>|2;-1|exact"]);
        assert!(meet_text("8;9|*;*|-1;*|possible", 8).is_empty());
        assert!(meet_text("8|<|1|exact", 7).is_empty());
        assert_eq!(meet_text("|||exact", 0), ["|||exact"]);
        assert!(meet_text("8|<|1", 8).is_empty());
        // Several distances: only possible.
        assert_eq!(meet_text("8|<|*|exact", 8), ["8|<|*|possible"]);
    }

    #[test]
    fn coincidence_records_name_the_deciding_rule() {
        let u = [s("|1+1*i8"), s(LOOP10), s("|0+1*i8"), s(LOOP10)];
        let records = call(coincidence, &u);
        assert_eq!(records.len(), 6);
        assert!(records.contains(&"8|1|exact|holds|(1)".to_string()));
        assert!(records.contains(&"8|0|possible|does_not_hold|(2-1) dim 1".to_string()));
        let bad = [s("|1|2"), s(LOOP10), s("|1"), s(LOOP10)];
        assert!(call(coincidence, &bad)
            .iter()
            .all(|r| r.ends_with("|unknown|")));
    }
}
