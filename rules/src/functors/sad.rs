//! The functors of the communication rules (`rules/dl/comm.dl`, Li &
//! Harada): section access descriptors and their algebra
//! ([`kaiseki_sections::sad`]), with sections read off the facts.
//!
//! Sets travel through the rules as their text (`<A(1:100, I),
//! VPROCS<[2,1],[j,j]>> ; ...`, `{}` for none). Every set operation takes
//! the `level` where it happens (a DO statement, 0 for a unit's top level):
//! the constant ranges of that loop's and its enclosing loops' variables are
//! what symbolic bounds are compared under. A malformed argument gives no
//! result (the rule does not fire).

use kaiseki_engine::functors::{number, text, FunctorContext, FunctorSpec};
use kaiseki_facts::ColType::{Number, Symbol};
use kaiseki_facts::{FactBase, SectionDim, SectionForm, Value};
use kaiseki_sections::sad::{Holder, Mapping, Sad, SadSet, TripletText};
use kaiseki_sections::vpmap::Distribution;
use kaiseki_sections::{Affine, Approx, Assumptions, Dim, Loop, Section, Triplet};
use std::collections::HashMap;
use std::str::FromStr;

pub(super) fn sym(s: impl ToString) -> Vec<Value> {
    vec![Value::Symbol(s.to_string())]
}

/// What the functors read of the facts, indexed once per run.
#[derive(Default)]
pub(super) struct Index {
    /// Array references: the array and the subscripts (`None`: not affine).
    pub(super) refs: HashMap<i64, (String, Vec<Option<Affine>>)>,
    /// Whole-array references.
    pub(super) whole: HashMap<i64, String>,
    /// Whole-array references written as sections (`section_dim`): the
    /// array and the section.
    pub(super) sections: HashMap<i64, (String, Section)>,
    /// The same references' k-th element (`element_indices`).
    pub(super) section_elements: HashMap<i64, Vec<Option<Affine>>>,
    /// DO loops: the loop, its parent loop.
    pub(super) loops: HashMap<i64, (Option<Loop>, i64)>,
    /// The affine triplets of the references with `section_form` rows (a
    /// section, a bare array name, the part of an actual a call touches).
    pub(super) section_forms: HashMap<i64, Section>,
}

fn index(facts: &FactBase) -> Index {
    let var_of: HashMap<i64, &str> = facts
        .r#loop
        .iter()
        .map(|l| (l.r#loop, l.var.as_str()))
        .collect();
    let mut forms: HashMap<i64, Option<Affine>> = facts
        .affine
        .iter()
        .map(|a| (a.form, Some(Affine::constant(a.constant))))
        .collect();
    let mut add = |form: i64, name: &str, coeff: i64| {
        if let Some(slot) = forms.get_mut(&form) {
            *slot = slot.take().and_then(|f| f.add(&Affine::term(name, coeff)));
        }
    };
    for t in &facts.affine_loop {
        match var_of.get(&t.r#loop) {
            Some(v) => add(t.form, v, t.coeff),
            None => add(t.form, "?", t.coeff),
        }
    }
    for t in &facts.affine_var {
        add(t.form, &t.var, t.coeff);
    }
    let forms: HashMap<i64, Affine> = forms
        .into_iter()
        .filter_map(|(k, v)| v.filter(|a| !a.mentions("?")).map(|a| (k, a)))
        .collect();
    let mut refs: HashMap<i64, (String, Vec<Option<Affine>>)> = facts
        .array_ref
        .iter()
        .map(|r| {
            (
                r.r#ref,
                (r.array.clone(), vec![None; r.rank.max(0) as usize]),
            )
        })
        .collect();
    // A subscript's form with the values its scalars hold put in, where
    // the lowering knows them (`subscript_value`), else as written.
    let valued: HashMap<(i64, i64), i64> = facts
        .subscript_value
        .iter()
        .map(|v| ((v.r#ref, v.dim), v.form))
        .collect();
    for s in &facts.subscript {
        if let Some((_, dims)) = refs.get_mut(&s.r#ref) {
            if let Some(slot) = dims.get_mut((s.dim - 1).max(0) as usize) {
                let form = valued.get(&(s.r#ref, s.dim)).unwrap_or(&s.form);
                *slot = forms.get(form).cloned();
            }
        }
    }
    let parent: HashMap<i64, i64> = facts
        .loop_parent
        .iter()
        .map(|p| (p.r#loop, p.parent))
        .collect();
    let bound = |l: i64, which: &str| {
        facts
            .loop_bound
            .iter()
            .find(|b| b.r#loop == l && b.which == which)
            .and_then(|b| forms.get(&b.form).cloned())
    };
    let loops = facts
        .r#loop
        .iter()
        .map(|l| {
            let step = bound(l.r#loop, "step").and_then(|s| s.as_constant());
            let lp = match (bound(l.r#loop, "lower"), bound(l.r#loop, "upper"), step) {
                (Some(lo), Some(hi), Some(st)) if st != 0 && l.kind == "do" => {
                    Some(Loop::new(&l.var, lo, hi, st))
                }
                _ => None,
            };
            (l.r#loop, (lp, parent.get(&l.r#loop).copied().unwrap_or(0)))
        })
        .collect();
    let whole: HashMap<i64, String> = facts
        .whole_array_ref
        .iter()
        .map(|w| (w.r#ref, w.array.clone()))
        .collect();
    let mut rows: HashMap<i64, Vec<&SectionDim>> = HashMap::new();
    for d in &facts.section_dim {
        rows.entry(d.r#ref).or_default().push(d);
    }
    let mut sections = HashMap::new();
    let mut section_elements = HashMap::new();
    for (r, mut ds) in rows {
        let Some(array) = whole.get(&r) else {
            continue;
        };
        ds.sort_by_key(|d| d.dim);
        let section = ds
            .iter()
            .map(|d| section_dim(&d.lower, &d.upper, &d.step))
            .collect::<Option<Vec<Dim>>>()
            .map_or(Section::Empty, Section::Dims);
        sections.insert(r, (array.clone(), section));
        section_elements.insert(r, element_indices(&ds));
    }
    let mut form_rows: HashMap<i64, Vec<&SectionForm>> = HashMap::new();
    for f in &facts.section_form {
        form_rows.entry(f.r#ref).or_default().push(f);
    }
    let section_forms = form_rows
        .into_iter()
        .map(|(r, mut ds)| {
            ds.sort_by_key(|d| d.dim);
            let dim = |d: &SectionForm| {
                let lower = forms.get(&d.lower).cloned();
                let upper = forms.get(&d.upper).cloned();
                match (lower, upper) {
                    (Some(x), _) if d.step == 0 => Some(Dim::point(x)),
                    (Some(x), Some(y)) => Triplet::new(x, y, d.step).map(Dim::Triplet),
                    _ => Some(Dim::Unknown),
                }
            };
            let section = ds
                .iter()
                .map(|d| dim(d))
                .collect::<Option<Vec<Dim>>>()
                .map_or(Section::Empty, Section::Dims);
            (r, section)
        })
        .collect();
    Index {
        refs,
        whole,
        sections,
        section_elements,
        loops,
        section_forms,
    }
}

pub(super) fn idx(ctx: &FunctorContext<FactBase>) -> std::rc::Rc<Index> {
    ctx.memo(index)
}

/// The constant ranges of the variables of `level` and its enclosing loops.
pub(super) fn assumptions(ix: &Index, mut level: i64) -> Assumptions {
    let mut a = Assumptions::none();
    while let Some((l, parent)) = ix.loops.get(&level) {
        if let Some(l) = l {
            let (lo, hi) = (l.lo.as_constant(), l.hi.as_constant());
            let (lo, hi) = if l.step > 0 { (lo, hi) } else { (hi, lo) };
            if lo.zip(hi).is_some_and(|(a, b)| a <= b) {
                a = a.with_range(&l.var, lo, hi);
            }
        }
        level = *parent;
    }
    a
}

fn set(v: &Value) -> Option<SadSet> {
    text(v).parse().ok()
}

/// `op` of two sets or summaries (`args[0]`, `args[1]`, as text) under
/// the assumptions of the level `args[2]`.
pub(super) fn binary<T: FromStr + ToString>(
    ctx: &FunctorContext<FactBase>,
    args: &[Value],
    op: fn(&T, &T, &Assumptions) -> T,
) -> Vec<Value> {
    binary_under(args, &assumptions(&idx(ctx), number(&args[2])), op)
}

/// [`binary`] under the assumptions `a`.
pub(super) fn binary_under<T: FromStr + ToString>(
    args: &[Value],
    a: &Assumptions,
    op: fn(&T, &T, &Assumptions) -> T,
) -> Vec<Value> {
    match (text(&args[0]).parse::<T>(), text(&args[1]).parse::<T>()) {
        (Ok(x), Ok(y)) => sym(op(&x, &y, a)),
        _ => vec![],
    }
}

fn sad_union(ctx: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    binary(ctx, args, SadSet::union)
}

fn sad_meet(ctx: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    binary(ctx, args, SadSet::meet)
}

fn sad_minus(ctx: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    binary(ctx, args, SadSet::minus)
}

fn mode(v: &Value) -> Option<Approx> {
    match text(v) {
        "may" => Some(Approx::May),
        "must" => Some(Approx::Must),
        _ => None,
    }
}

/// `iterations(S, k, low:high:step)` over the DO loop `args[1]`.
fn sad_iterations(ctx: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    let ix = idx(ctx);
    let l = number(&args[1]);
    let (Some(s), Some(m), Some((Some(lp), parent))) =
        (set(&args[0]), mode(&args[2]), ix.loops.get(&l))
    else {
        return match mode(&args[2]) {
            // A loop whose bounds are not affine: may widens to every element
            // of the arrays named, must knows nothing.
            Some(Approx::May) => set(&args[0]).map_or(vec![], |s| sym(widen(&s))),
            _ => sym("{}"),
        };
    };
    sym(s.iterations(lp, m, &assumptions(&ix, *parent)))
}

/// Every array a may-set names, whole.
fn widen(s: &SadSet) -> SadSet {
    SadSet(
        s.items()
            .iter()
            .map(|x| Sad {
                section: kaiseki_sections::sad::SectionText::new(&x.array, Section::Unknown),
                ..x.clone()
            })
            .collect(),
    )
}

/// `iterations(S, k, low : k-step : step)`: the iterations before the
/// current one (equation 11), in terms of the current value of `k`.
fn sad_before(ctx: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    let ix = idx(ctx);
    let l = number(&args[1]);
    let (Some(s), Some(m), Some((Some(lp), _))) = (set(&args[0]), mode(&args[2]), ix.loops.get(&l))
    else {
        return match mode(&args[2]) {
            Some(Approx::May) => set(&args[0]).map_or(vec![], |s| sym(widen(&s))),
            _ => sym("{}"),
        };
    };
    let fresh = format!("{}'", lp.var);
    let Some(renamed) = s.rename(&lp.var, &Affine::symbol(&fresh)) else {
        return vec![];
    };
    let Some(hi) = Affine::symbol(&lp.var).add_constant(-lp.step) else {
        return vec![];
    };
    let before = Loop::new(&fresh, lp.lo.clone(), hi, lp.step);
    sym(renamed.iterations(&before, m, &assumptions(&ix, l)))
}

/// The set with every item made conditional on IF statement `args[1]`'s
/// branch `args[2]` (`+` or `-`).
fn sad_when(_: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    set(&args[0]).map_or(vec![], |s| {
        sym(s.when((number(&args[1]), text(&args[2]) == "+")))
    })
}

/// One dimension of a section from its `section_dim` texts: `None` when
/// the triplet is empty whatever the symbols, `?` when a bound is not
/// affine or the step not a constant.
fn section_dim(lower: &str, upper: &str, step: &str) -> Option<Dim> {
    let (Ok(first), Ok(bound)) = (Affine::from_str(lower), Affine::from_str(upper)) else {
        return Some(Dim::Unknown);
    };
    if step.is_empty() {
        return Some(Dim::point(first));
    }
    match step.parse::<i64>() {
        Ok(stride) if stride != 0 => Triplet::new(first, bound, stride).map(Dim::Triplet),
        _ => Some(Dim::Unknown),
    }
}

/// The section of an array reference as text (`A(J, I)`, `A(?, 1)` for a
/// subscript that is not affine, `A(...)` for a whole array, its triplets for a section).
fn sad_ref(ctx: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    let ix = idx(ctx);
    let r = number(&args[0]);
    if let Some((array, dims)) = ix.refs.get(&r) {
        let s = Section::Dims(
            dims.iter()
                .map(|d| d.clone().map_or(Dim::Unknown, Dim::point))
                .collect(),
        );
        return sym(s.named(array));
    }
    if let Some((array, section)) = ix.sections.get(&r) {
        return sym(section.named(array));
    }
    ix.whole
        .get(&r)
        .map_or(vec![], |a| sym(Section::Unknown.named(a)))
}

/// The owner mapping `args[0]` (`VPROCS<[1,2],[j,j]>`) parsed.
fn owner_mapping(t: &str) -> Option<(String, Vec<Holder>)> {
    match text_item(&format!("<X, {t}>"))?.mapping {
        Mapping::To { template, holders } => Some((template, holders)),
        Mapping::Invalid => None,
    }
}

fn text_item(t: &str) -> Option<Sad> {
    t.parse::<SadSet>().ok()?.items().first().cloned()
}

fn section_of(t: &str) -> Option<(String, Section)> {
    kaiseki_sections::parse_section(t).ok()
}

/// The single loop variable of `a` with its coefficient and the constant,
/// when `a` is `alpha*k + beta` with one symbol.
fn single(a: &Affine) -> Option<(&str, i64, i64)> {
    let mut terms = a.terms();
    let (k, alpha) = terms.next()?;
    terms
        .next()
        .is_none()
        .then_some((k, alpha, a.constant_part()))
}

/// Gen of one right-hand-side reference (section 4.1, table 1): `<D^R,
/// M^R>` where `M^R` holds each element on the owner of the left-hand side
/// that reads it. `args`: the owner mapping of the left-hand side's array,
/// the left-hand side's section, the right-hand side's section.
fn sad_gen(_: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    let (Some((template, owner)), Some((_, lhs)), Some((array, rhs))) = (
        owner_mapping(text(&args[0])),
        section_of(text(&args[1])),
        section_of(text(&args[2])),
    ) else {
        return vec![];
    };
    let point = |s: &Section, d: usize| -> Option<Affine> {
        match s.dims()?.get(d.checked_sub(1)?)? {
            Dim::Triplet(t) => t.as_point().cloned(),
            _ => None,
        }
    };
    let mut used = vec![false; rhs.rank().unwrap_or(0) + 1];
    let holders: Vec<Holder> = owner
        .iter()
        .map(|h| match h {
            Holder::Of { dim, num, off, den } if *den == 1 => {
                let Some(sub) = point(&lhs, *dim) else {
                    return Holder::Unknown;
                };
                // Table 1, first row: the right-hand side's subscript that
                // uses the same loop variable gives the position.
                if let Some((k, a1, b1)) = single(&sub) {
                    for (h, taken) in used.iter_mut().enumerate().skip(1) {
                        if *taken {
                            continue;
                        }
                        if let Some((k2, a2, b2)) = point(&rhs, h).as_ref().and_then(single) {
                            if k2 == k {
                                *taken = true;
                                // c*(a1*(j-b2)/a2 + b1) + l
                                let n = num * a1;
                                let o = num * (b1 * a2 - a1 * b2) + off * a2;
                                return Holder::of(h, n, o, a2).unwrap_or(Holder::Unknown);
                            }
                        }
                    }
                }
                // The other rows: the owner's position at this iteration.
                sub.scale(*num)
                    .and_then(|x| x.add_constant(*off))
                    .map_or(Holder::Unknown, |x| {
                        Holder::At(TripletText::new(&Dim::point(x)))
                    })
            }
            Holder::Of { .. } => Holder::Unknown,
            other => other.clone(),
        })
        .collect();
    let g = Sad::new(&array, rhs, Mapping::To { template, holders });
    sym(SadSet(vec![g]))
}

/// The virtual processors that own the elements of a section, as
/// `VPROCS(1, I)` (`:` for a replicated dimension, `?` when unknown).
fn sad_owner(_: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    let (Some((template, owner)), Some((_, s))) =
        (owner_mapping(text(&args[0])), section_of(text(&args[1])))
    else {
        return vec![];
    };
    let dims: Vec<String> = owner
        .iter()
        .map(|h| match h {
            Holder::Of {
                dim,
                num,
                off,
                den: 1,
            } => s
                .dims()
                .and_then(|d| d.get(dim - 1))
                .and_then(|d| match d {
                    Dim::Triplet(t) => {
                        let at = |x: &Affine| x.scale(*num)?.add_constant(*off);
                        match t.as_point() {
                            Some(x) => at(x).map(Triplet::point),
                            None if *num != 0 => {
                                Triplet::new(at(t.first())?, at(t.bound())?, t.stride() * num)
                            }
                            None => None,
                        }
                    }
                    _ => None,
                })
                .map_or("?".to_string(), |t| Dim::Triplet(t).to_string()),
            Holder::At(t) => t.dim().map_or("?".to_string(), |d| d.to_string()),
            Holder::All => ":".to_string(),
            _ => "?".to_string(),
        })
        .collect();
    sym(format!("{template}({})", dims.join(", ")))
}

/// Whether `set` holds every copy of the single descriptor `g`, counting
/// only unconditional items: 1 or 0.
fn sad_covers(ctx: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    let a = assumptions(&idx(ctx), number(&args[2]));
    match (set(&args[0]), text_item(text(&args[1]))) {
        (Some(s), Some(g)) => vec![Value::Number(i64::from(s.covers(&g, None, &a)))],
        _ => vec![],
    }
}

/// The first condition (`s+`, `s-`) under which `set`'s conditional items,
/// with its unconditional ones, hold every copy of `g`; none when none.
fn sad_covering_condition(ctx: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    let a = assumptions(&idx(ctx), number(&args[2]));
    let (Some(s), Some(g)) = (set(&args[0]), text_item(text(&args[1]))) else {
        return vec![];
    };
    s.conditions()
        .into_iter()
        .find(|&c| s.covers(&g, Some(c), &a))
        .map(|(st, held)| Value::Symbol(format!("{st}{}", if held { '+' } else { '-' })))
        .into_iter()
        .collect()
}

/// The part of `set` that meets `other` (may): what a transfer of `set`
/// must send so that `other` is also available. Items keep `set`'s mapping.
fn sad_overlap(ctx: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    let a = assumptions(&idx(ctx), number(&args[2]));
    let (Some(s), Some(o)) = (set(&args[0]), set(&args[1])) else {
        return vec![];
    };
    sym(overlap(&s, &o, &a))
}

fn overlap(s: &SadSet, o: &SadSet, a: &Assumptions) -> SadSet {
    let mut out = Vec::new();
    for x in s.items() {
        for y in o
            .items()
            .iter()
            .filter(|y| y.array == x.array || y.array == "*")
        {
            let m = kaiseki_sections::intersection(x.section(), y.section(), Approx::May, a);
            if kaiseki_sections::is_empty(&m.section, a) != kaiseki_sections::Answer::Yes {
                out.push(Sad::new(&x.array, m.section, x.mapping.clone()));
            }
        }
    }
    SadSet(out).union(&SadSet::default(), a)
}

/// The transfers that resolve a partial redundancy at a node's exit (6.1):
/// for every UPOUT item that IN holds and that Kill cuts into, leaving some
/// of it, the part Kill may invalidate, with the item's mapping. `args`:
/// UPOUT, IN, Kill, level.
fn sad_partial(ctx: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    let a = assumptions(&idx(ctx), number(&args[3]));
    let (Some(up), Some(inn), Some(kill)) = (set(&args[0]), set(&args[1]), set(&args[2])) else {
        return vec![];
    };
    let mut out = SadSet::default();
    for u in up.items().iter().filter(|u| u.cond.is_none()) {
        let one = SadSet(vec![u.clone()]);
        if !inn.covers(u, None, &a) || one.minus(&kill, &a).items().is_empty() {
            continue;
        }
        let cut = overlap(&one, &kill, &a);
        out = out.union(&cut, &a);
    }
    sym(out)
}

/// Where the owner (`args[1]`, `VPROCS(J, I)`) and the reader (`args[2]`)
/// of an element lie: `same` virtual processor (`:` matches anything);
/// the same `real` processor because they differ only along dimensions the
/// unit `args[0]` does not distribute (`*`), whatever the processors;
/// `grid`, the same real processor of the declared PROCESSORS by equation
/// 12 (6.2; `sections::vpmap`) along some distributed dimension, for every
/// value of the loop variables; else `vp`.
fn sad_locality(ctx: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    let split = |t: &str| -> Option<(String, Vec<String>)> {
        let (name, rest) = t.split_once('(')?;
        let dims = rest
            .strip_suffix(')')?
            .split(", ")
            .map(str::to_string)
            .collect();
        Some((name.to_string(), dims))
    };
    let (Some((t1, d1)), Some((t2, d2))) = (split(text(&args[1])), split(text(&args[2]))) else {
        return sym("vp");
    };
    if t1 != t2 || d1.len() != d2.len() {
        return sym("vp");
    }
    let differ: Vec<usize> = (0..d1.len())
        .filter(|&i| d1[i] != d2[i] && d1[i] != ":" && d2[i] != ":")
        .collect();
    if differ.is_empty() {
        return sym("same");
    }
    let unit = text(&args[0]);
    let affine = |t: &str| Affine::from_str(t).ok();
    let worst = differ
        .iter()
        .map(|&d| {
            let at = affine(&d1[d]).zip(affine(&d2[d]));
            apart(ctx.facts(), unit, &t1, d, at.as_ref().map(|(a, b)| (a, b)))
        })
        .max()
        .unwrap_or(0);
    sym(LOCALITY[worst])
}

/// Where the element an array statement reads (reference `args[1]`,
/// its array mapped by `args[2]`) lies beside the element computed with it
/// (home reference `args[3]`, mapped by `args[4]`), element by element:
/// the k-th section dimensions of both run together (`section_dim`, as
/// written: a negative step runs backwards). `same` virtual processor for
/// every element (a replicated owner has a copy everywhere), `real`
/// (differing only along dimensions `args[0]` does not distribute), `grid`
/// (one real processor of the declared PROCESSORS, equation 12), else `vp`.
fn sad_pairing(ctx: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    let unit = text(&args[0]);
    let (Some((template, owner)), Some((t2, home))) =
        (owner_mapping(text(&args[2])), owner_mapping(text(&args[4])))
    else {
        return sym("vp");
    };
    let ix = idx(ctx);
    let element = |r: i64| {
        ix.refs
            .get(&r)
            .map(|(_, dims)| dims)
            .or_else(|| ix.section_elements.get(&r))
    };
    let (Some(read), Some(computed)) = (element(number(&args[1])), element(number(&args[3])))
    else {
        return sym("vp");
    };
    if template != t2 || owner.len() != home.len() {
        return sym("vp");
    }
    let worst = owner
        .iter()
        .zip(&home)
        .enumerate()
        .map(
            |(d, (o, h))| match (position(o, read), position(h, computed)) {
                (Position::All, _) => 0,
                (Position::At(a), Position::At(b)) if a == b => 0,
                (Position::At(a), Position::At(b)) => {
                    apart(ctx.facts(), unit, &template, d, Some((&a, &b)))
                }
                _ => apart(ctx.facts(), unit, &template, d, None),
            },
        )
        .max()
        .unwrap_or(0);
    sym(LOCALITY[worst])
}

/// The names of the localities, by how far apart (`apart`).
const LOCALITY: [&str; 4] = ["same", "real", "grid", "vp"];

/// How far apart two different positions (`a`, `b`; `None`: not affine)
/// along dimension `d` (0-based) of template `t` lie: 1, on one real
/// processor whatever the processors (a `*` dimension); 2, on one real
/// processor of the declared PROCESSORS for every value of the variables
/// (equation 12); 3, not known to be on one.
fn apart(facts: &FactBase, unit: &str, t: &str, d: usize, at: Option<(&Affine, &Affine)>) -> usize {
    let collapsed = facts
        .hpf_distribute
        .iter()
        .any(|r| r.unit == unit && r.template == t && r.dim == d as i64 + 1 && r.format == "*");
    if collapsed {
        return 1;
    }
    let on_one = at.is_some_and(|(a, b)| {
        declared_distribution(facts, unit, t, d).is_some_and(|dist| dist.same_real(a, b))
    });
    if on_one {
        2
    } else {
        3
    }
}

/// A position along one template dimension of the element at `indices`.
enum Position {
    At(Affine),
    /// Every position (a replicated dimension).
    All,
    Unknown,
}

fn position(h: &Holder, indices: &[Option<Affine>]) -> Position {
    match h {
        Holder::Of {
            dim,
            num,
            off,
            den: 1,
        } => indices
            .get(dim - 1)
            .cloned()
            .flatten()
            .and_then(|x| x.scale(*num)?.add_constant(*off))
            .map_or(Position::Unknown, Position::At),
        Holder::At(t) => match t.dim() {
            Some(Dim::Triplet(t)) => t
                .as_point()
                .cloned()
                .map_or(Position::Unknown, Position::At),
            _ => Position::Unknown,
        },
        Holder::All => Position::All,
        _ => Position::Unknown,
    }
}

/// The subscripts of the k-th element of a section, per dimension
/// (`section_dim` rows in order, as written): `lower + step * #m` along
/// its m-th section dimension, the value of a dimension subscripted by
/// one, `None` where not affine.
fn element_indices(rows: &[&SectionDim]) -> Vec<Option<Affine>> {
    let mut m = 0;
    rows.iter()
        .map(|d| {
            if d.step.is_empty() {
                return Affine::from_str(&d.lower).ok();
            }
            m += 1;
            let step = d.step.parse::<i64>().ok()?;
            Affine::from_str(&d.lower)
                .ok()?
                .add(&Affine::term(&format!("#{m}"), step))
        })
        .collect()
}

/// How dimension `d` (0-based) of template `t` of `unit` is spread over
/// the declared PROCESSORS: its DISTRIBUTE format, the template's bounds,
/// and the extent of the processor dimension it goes onto (the distributed
/// dimensions of the template take those of the arrangement in order).
fn declared_distribution(facts: &FactBase, unit: &str, t: &str, d: usize) -> Option<Distribution> {
    let mut formats: Vec<_> = facts
        .hpf_distribute
        .iter()
        .filter(|r| r.unit == unit && r.template == t)
        .collect();
    formats.sort_by_key(|r| r.dim);
    let this = formats.iter().find(|r| r.dim == d as i64 + 1)?;
    let pdim = formats
        .iter()
        .filter(|r| r.format != "*" && r.dim <= this.dim)
        .count() as i64;
    let extent = facts
        .hpf_processors
        .iter()
        .find(|p| p.unit == unit && p.name == this.onto && p.dim == pdim)?
        .extent;
    let bounds = facts
        .hpf_template
        .iter()
        .find(|b| b.unit == unit && b.name == t && b.dim == this.dim)?;
    match this.format.as_str() {
        "block" if this.k > 0 => Distribution::cyclic(bounds.lower, this.k, extent),
        "block" => Distribution::block(bounds.lower, bounds.upper, extent),
        "cyclic" => Distribution::cyclic(bounds.lower, this.k, extent),
        _ => None,
    }
}

/// The sections of a set, without mappings (`A(1, 2) ; B(1:10)`), for
/// reports.
fn sad_sections(_: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    set(&args[0]).map_or(vec![], |s| {
        let d: Vec<&str> = s.items().iter().map(|x| x.section.text()).collect();
        sym(d.join(" ; "))
    })
}

/// The position formula of one template dimension in an owner mapping
/// (`kind` of `hpf_align`): `c*j+l` for an axis, `=l` for a constant, `*`
/// for a replicated dimension.
fn sad_position(_: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    let (c, l) = (number(&args[1]), number(&args[2]));
    match text(&args[0]) {
        "axis" => Affine::term("j", c).add_constant(l).map_or(vec![], sym),
        "constant" => sym(format!("={l}")),
        "replicated" => sym("*"),
        _ => sym("?"),
    }
}

/// Whether the set has no item: 1 or 0.
fn sad_is_empty(_: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    set(&args[0]).map_or(vec![], |s| {
        vec![Value::Number(i64::from(s.items().is_empty()))]
    })
}

/// The communication functors, registered by [`super::standard`].
pub const FUNCTORS: &[FunctorSpec<FactBase>] = &[
    FunctorSpec {
        name: "sad_union",
        args: &[Symbol, Symbol, Number],
        result: Symbol,
        doc: "a ∪ b of two descriptor sets, at a level (a DO statement, 0 at the top).",
        f: sad_union,
    },
    FunctorSpec {
        name: "sad_meet",
        args: &[Symbol, Symbol, Number],
        result: Symbol,
        doc: "a ∩ b of two must-sets of descriptors, at a level.",
        f: sad_meet,
    },
    FunctorSpec {
        name: "sad_minus",
        args: &[Symbol, Symbol, Number],
        result: Symbol,
        doc: "a − b: what b kills (T items) or lists with the same mapping, out of a.",
        f: sad_minus,
    },
    FunctorSpec {
        name: "sad_iterations",
        args: &[Symbol, Number, Symbol],
        result: Symbol,
        doc: "iterations(S, k, low:high:step) over a DO loop, `may` or `must`.",
        f: sad_iterations,
    },
    FunctorSpec {
        name: "sad_before",
        args: &[Symbol, Number, Symbol],
        result: Symbol,
        doc: "iterations(S, k, low:k-step:step): the iterations of a DO loop before the current one.",
        f: sad_before,
    },
    FunctorSpec {
        name: "sad_when",
        args: &[Symbol, Number, Symbol],
        result: Symbol,
        doc: "The set made conditional on the branch (`+`, `-`) of an IF statement.",
        f: sad_when,
    },
    FunctorSpec {
        name: "sad_ref",
        args: &[Number],
        result: Symbol,
        doc: "The section an array reference names, as text.",
        f: sad_ref,
    },
    FunctorSpec {
        name: "sad_gen",
        args: &[Symbol, Symbol, Symbol],
        result: Symbol,
        doc: "Gen of a right-hand-side reference (table 1): owner mapping of the left-hand side, its section, the reference's section.",
        f: sad_gen,
    },
    FunctorSpec {
        name: "sad_owner",
        args: &[Symbol, Symbol],
        result: Symbol,
        doc: "The virtual processors owning a section under an owner mapping, as `VPROCS(1, I)`.",
        f: sad_owner,
    },
    FunctorSpec {
        name: "sad_covers",
        args: &[Symbol, Symbol, Number],
        result: Number,
        doc: "1 when a set's unconditional items hold every copy of a descriptor, else 0.",
        f: sad_covers,
    },
    FunctorSpec {
        name: "sad_covering_condition",
        args: &[Symbol, Symbol, Number],
        result: Symbol,
        doc: "Each condition (`s+`, `s-`) under which a set holds every copy of a descriptor.",
        f: sad_covering_condition,
    },
    FunctorSpec {
        name: "sad_overlap",
        args: &[Symbol, Symbol, Number],
        result: Symbol,
        doc: "The part of a set's sections that may meet another set's, with the first set's mappings.",
        f: sad_overlap,
    },
    FunctorSpec {
        name: "sad_partial",
        args: &[Symbol, Symbol, Symbol, Number],
        result: Symbol,
        doc: "The partial-redundancy transfers at a node's exit (6.1), from UPOUT, IN and Kill.",
        f: sad_partial,
    },
    FunctorSpec {
        name: "sad_locality",
        args: &[Symbol, Symbol, Symbol],
        result: Symbol,
        doc: "`same`, `real` (6.2: differing only along undistributed dimensions), `grid` (6.2: one real processor of the declared PROCESSORS, equation 12) or `vp`, for an owner and a reader.",
        f: sad_locality,
    },
    FunctorSpec {
        name: "sad_pairing",
        args: &[Symbol, Number, Symbol, Number, Symbol],
        result: Symbol,
        doc: "Where an array statement's read (ref, its mapping) lies beside the element computed with it (home ref, its mapping), element by element: `same`, `real`, `grid` or `vp`.",
        f: sad_pairing,
    },
    FunctorSpec {
        name: "sad_sections",
        args: &[Symbol],
        result: Symbol,
        doc: "The sections of a set without their mappings, for reports.",
        f: sad_sections,
    },
    FunctorSpec {
        name: "sad_position",
        args: &[Symbol, Number, Number],
        result: Symbol,
        doc: "The position formula of an owner mapping's dimension: `c*j+l` (axis), `=l` (constant), `*` (replicated).",
        f: sad_position,
    },
    FunctorSpec {
        name: "sad_is_empty",
        args: &[Symbol],
        result: Number,
        doc: "1 when a set has no item, else 0.",
        f: sad_is_empty,
    },
];
