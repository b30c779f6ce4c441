//! The functors of region analysis (`rules/dl/regions.dl`, spec 001
//! section 1.1): MOD, USE, DDEF and EUSE summaries
//! ([`kaiseki_sections::Summary`]) of statements, combined by the spec's
//! Case 1 (IF), Case 2 (sequence) and Case 3 (loop expansion), and the
//! LIVE sets after loops. Summaries travel through the rules as their
//! text (`MOD | USE | DDEF | EUSE`, each a region `A(1:N, I) ; S`).
//! A malformed argument gives no result (the rule does not fire).

use super::sad::{assumptions, binary_under, idx, sym};
use kaiseki_engine::functors::{number, text, FunctorContext, FunctorSpec};
use kaiseki_facts::ColType::{Number, Symbol};
use kaiseki_facts::{FactBase, Value};
use kaiseki_sections::assumptions::Declared;
use kaiseki_sections::{
    is_subset_within, Answer, Approx, Assumptions, Dim, Region, Section, Summary,
};
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

/// What a statement reads and writes, read off the facts once per run.
#[derive(Default)]
struct Statements {
    /// Per statement: (reference, variable, is a definition).
    refs: HashMap<i64, Vec<(i64, String, bool)>>,
    must: BTreeSet<i64>,
    /// The left sides of assignments (an element a function given it may
    /// write is not surely written).
    targets: BTreeSet<i64>,
    /// Elements passed to array dummies: the procedure may reach every
    /// element from them on (`element_actual`).
    sequence: BTreeSet<i64>,
    /// Actual arguments a call surely writes all of (`section_must_def`).
    sure_sections: BTreeSet<i64>,
    /// DO statements and loop ends: the DO variable they leave to Case 3.
    control: HashMap<i64, String>,
    /// (unit, variable): the rank.
    rank: HashMap<(String, String), usize>,
    unit_of: HashMap<i64, String>,
    /// Per unit, what a caller or a later call may read: dummy arguments,
    /// COMMON and SAVEd variables.
    outside: HashMap<String, BTreeSet<String>>,
    /// (unit, array): the declared bounds of each dimension, when constant.
    declared: HashMap<(String, String), Bounds>,
    /// Per unit, the declared bounds of its own arrays and module arrays
    /// (not of dummies, which old code declares `A(1)` and reaches past,
    /// nor of COMMON arrays, which it may index across members): the
    /// assumptions EUSE is computed under (see `Region::minus`).
    trusted: HashMap<String, Arc<Declared>>,
}

/// Per dimension, the declared lower and upper bound when both are constants.
type Bounds = Vec<Option<(i64, i64)>>;

fn statements(facts: &FactBase) -> Statements {
    let mut s = Statements::default();
    for d in &facts.def {
        let e = s.refs.entry(d.stmt).or_default();
        e.push((d.r#ref, d.var.clone(), true));
    }
    for u in &facts.r#use {
        let e = s.refs.entry(u.stmt).or_default();
        e.push((u.r#ref, u.var.clone(), false));
    }
    s.must = facts.must_def.iter().map(|m| m.r#ref).collect();
    s.targets = facts.assign_tree.iter().map(|a| a.target).collect();
    s.sequence = facts.element_actual.iter().map(|e| e.r#ref).collect();
    s.sure_sections = facts.section_must_def.iter().map(|e| e.r#ref).collect();
    for st in &facts.stmt {
        s.unit_of.insert(st.stmt, st.unit.clone());
    }
    let var_of: HashMap<i64, &str> = facts
        .r#loop
        .iter()
        .filter(|l| l.kind == "do")
        .map(|l| (l.r#loop, l.var.as_str()))
        .collect();
    for (l, v) in &var_of {
        s.control.insert(*l, v.to_string());
    }
    for e in &facts.loop_end {
        if let Some(v) = var_of.get(&e.r#loop) {
            s.control.insert(e.stmt, v.to_string());
        }
    }
    for v in &facts.var {
        s.rank
            .insert((v.unit.clone(), v.var.clone()), v.rank.max(0) as usize);
    }
    let outside = facts
        .dummy_arg
        .iter()
        .map(|d| (&d.unit, &d.var))
        .chain(facts.common.iter().map(|c| (&c.unit, &c.var)))
        .chain(facts.saved.iter().map(|c| (&c.unit, &c.var)));
    for (u, v) in outside {
        s.outside.entry(u.clone()).or_default().insert(v.clone());
    }
    for d in &facts.array_dim {
        let dims = s
            .declared
            .entry((d.unit.clone(), d.array.clone()))
            .or_default();
        let j = (d.dim - 1).max(0) as usize;
        if dims.len() <= j {
            dims.resize(j + 1, None);
        }
        dims[j] = d.lower.trim().parse().ok().zip(d.upper.trim().parse().ok());
    }
    let untrusted: BTreeSet<(&str, &str)> = facts
        .dummy_arg
        .iter()
        .map(|d| (d.unit.as_str(), d.var.as_str()))
        .chain(
            facts
                .common
                .iter()
                .filter(|c| !c.block.contains('%'))
                .map(|c| (c.unit.as_str(), c.var.as_str())),
        )
        .collect();
    let mut trusted: HashMap<String, Declared> = HashMap::new();
    for ((u, a), b) in &s.declared {
        if !untrusted.contains(&(u.as_str(), a.as_str())) {
            trusted
                .entry(u.clone())
                .or_default()
                .insert(a.clone(), b.clone());
        }
    }
    s.trusted = trusted.into_iter().map(|(u, d)| (u, Arc::new(d))).collect();
    s
}

/// The assumptions at level `level` (a loop, or 0) of `unit`'s
/// statements: its loops' ranges and its arrays' declared bounds.
fn region_assumptions(
    ctx: &FunctorContext<FactBase>,
    level: i64,
    unit: Option<&str>,
) -> Assumptions {
    let st = ctx.memo(statements);
    let a = assumptions(&idx(ctx), level);
    match unit.or_else(|| st.unit_of.get(&level).map(String::as_str)) {
        Some(u) => match st.trusted.get(u) {
            Some(d) => a.with_declared(d.clone()),
            None => a,
        },
        None => a,
    }
}

/// Every element of a variable of the unit.
fn whole(st: &Statements, unit: &str, var: &str) -> Section {
    let rank = st
        .rank
        .get(&(unit.to_string(), var.to_string()))
        .copied()
        .unwrap_or(0);
    Section::Dims(vec![Dim::All; rank])
}

fn summary(v: &Value) -> Option<Summary> {
    text(v).parse().ok()
}

fn region(v: &Value) -> Option<Region> {
    text(v).parse().ok()
}

/// The summary of one statement: what it may define (MOD), surely defines
/// (DDEF: a scalar it overwrites, the element or section an assignment's
/// left side writes with affine subscripts, the part of an actual argument
/// a call surely writes), and reads (USE = EUSE: a statement reads before
/// it writes). A DO statement and its loop's end leave their DO
/// variable to the loop's own summary.
fn reg_stmt(ctx: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    let st = ctx.memo(statements);
    let ix = idx(ctx);
    let s = number(&args[0]);
    let unit = st.unit_of.get(&s).map_or("", String::as_str);
    let skip = st.control.get(&s);
    let (mut modified, mut defined, mut used) = (Vec::new(), Vec::new(), Vec::new());
    for (r, var, is_def) in st.refs.get(&s).into_iter().flatten() {
        if Some(var) == skip {
            continue;
        }
        // A section, a bare array name, or the part of an actual a call
        // touches: its triplets, surely all written by an assignment to it
        // or a call that surely writes it.
        if let Some(section) = ix.section_forms.get(r) {
            let item = (var.clone(), section.clone());
            if *is_def {
                if st.targets.contains(r) || st.sure_sections.contains(r) {
                    defined.push(item.clone());
                }
                modified.push(item);
            } else {
                used.push(item);
            }
            continue;
        }
        let (section, sure) = match ix.refs.get(r).filter(|_| !st.sequence.contains(r)) {
            Some((_, dims)) => (
                Section::Dims(
                    dims.iter()
                        .map(|d| d.clone().map_or(Dim::Unknown, Dim::point))
                        .collect(),
                ),
                st.targets.contains(r) && dims.iter().all(Option::is_some),
            ),
            None => match whole(&st, unit, var) {
                Section::Dims(d) if d.is_empty() => (Section::Dims(d), st.must.contains(r)),
                all => (all, false),
            },
        };
        let item = (var.clone(), section);
        if *is_def {
            if sure {
                defined.push(item.clone());
            }
            modified.push(item);
        } else {
            used.push(item);
        }
    }
    let used = Region::of(used);
    sym(Summary {
        modified: Region::of(modified),
        defined: Region::of(defined),
        exposed: used.clone(),
        used,
    })
}

fn reg_then(ctx: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    let a = region_assumptions(ctx, number(&args[2]), None);
    binary_under(args, &a, Summary::then)
}

fn reg_join(ctx: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    let a = region_assumptions(ctx, number(&args[2]), None);
    binary_under(args, &a, Summary::join)
}

/// The summary of a whole loop from that of one iteration.
fn over(ctx: &FunctorContext<FactBase>, body: &Summary, l: i64) -> Option<Summary> {
    let ix = idx(ctx);
    let st = ctx.memo(statements);
    let (lp, parent) = ix.loops.get(&l)?;
    Some(match st.control.get(&l) {
        Some(var) => {
            let unit = st.unit_of.get(&l).map(String::as_str);
            body.over(var, lp.as_ref(), &region_assumptions(ctx, *parent, unit))
        }
        None => body.repeated(),
    })
}

fn reg_over(ctx: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    summary(&args[0])
        .and_then(|b| over(ctx, &b, number(&args[1])))
        .map_or(vec![], sym)
}

/// One set of a summary: `mod`, `use`, `ddef` or `euse`.
fn reg_part(_: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    let Some(s) = summary(&args[0]) else {
        return vec![];
    };
    match text(&args[1]) {
        "mod" => sym(s.modified),
        "use" => sym(s.used),
        "ddef" => sym(s.defined),
        "euse" => sym(s.exposed),
        _ => vec![],
    }
}

/// What may be read after the end of an iteration of loop `args[2]`: its
/// DO variable (by the increment), what any iteration may read before
/// defining it (the EUSE of the whole loop), or what is live after the
/// loop (`args[1]`), as a summary that only reads it.
fn reg_loop_end(ctx: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    let l = number(&args[2]);
    let (Some(body), Some(live)) = (summary(&args[0]), region(&args[1])) else {
        return vec![];
    };
    let Some(all) = over(ctx, &body, l) else {
        return vec![];
    };
    let st = ctx.memo(statements);
    let a = assumptions(&idx(ctx), l);
    let live = match st.control.get(&l) {
        Some(var) => live.before_increment(var, &a),
        None => live,
    };
    sym(Summary::reading(all.exposed).then(&Summary::reading(live), &a))
}

/// What may be read after a unit returns: its dummy arguments, COMMON
/// and SAVEd variables, whole, as a summary that only reads them.
fn reg_outside(ctx: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    let st = ctx.memo(statements);
    let unit = text(&args[0]);
    let items = st
        .outside
        .get(unit)
        .into_iter()
        .flatten()
        .map(|v| (v.clone(), whole(&st, unit, v)));
    sym(Summary::reading(Region::of(items)))
}

/// 1 when a region has a section of the variable, else 0.
fn reg_names(_: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    region(&args[0]).map_or(vec![], |r| {
        vec![Value::Number(i64::from(r.names(text(&args[1]))))]
    })
}

/// Whether the sections of `var` in `part` mention neither the DO variable
/// of loop `l` nor a scalar `iteration` (the MOD of one of its iterations)
/// may change: they name the same elements in every iteration.
fn fixed(st: &Statements, part: &Region, iteration: &Region, var: &str, l: i64) -> bool {
    let mut moving = iteration.scalars();
    moving.extend(st.control.get(&l).map(String::as_str));
    part.items()
        .iter()
        .filter(|(n, _)| n == var)
        .all(|(_, s)| moving.iter().all(|v| !s.mentions(v)))
}

/// 1 when every iteration of loop `args[3]` writes the same elements of
/// variable `args[2]` and all it may write of it: its MOD sections in one
/// iteration (`args[0]`) lie inside its DDEF ones (`args[1]`) and mention
/// neither the DO variable nor a scalar the iteration may change. The last
/// iteration then leaves every element the loop writes as the loop run in
/// order would: a private copy per iteration, started from the variable's
/// value (FIRSTPRIVATE) and copied out of the last (LASTPRIVATE), gives
/// the variable the loop's value. A written section may pass a bound of
/// the defined one where that bound is at or past the array's declared
/// one (`is_subset_within`: a valid program writes inside its arrays).
fn reg_rewrites(ctx: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    let (Some(modified), Some(defined)) = (region(&args[0]), region(&args[1])) else {
        return vec![];
    };
    let var = text(&args[2]);
    let l = number(&args[3]);
    let of = |r: &Region| Region::of(r.items().iter().filter(|(n, _)| n == var).cloned());
    let (written, sure) = (of(&modified), of(&defined));
    let st = ctx.memo(statements);
    let a = assumptions(&idx(ctx), l);
    let rest = written.minus(&sure, Approx::May, &a);
    let unit = st.unit_of.get(&l).cloned().unwrap_or_default();
    let declared = st.declared.get(&(unit, var.to_string()));
    let inside = rest.items().iter().all(|(_, r)| {
        declared.is_some_and(|d| {
            sure.items()
                .iter()
                .any(|(_, s)| is_subset_within(r, s, d, &a) == Answer::Yes)
        })
    });
    let all = !written.items().is_empty() && fixed(&st, &written, &modified, var, l) && inside;
    vec![Value::Number(i64::from(all))]
}

/// 1 when the sections of variable `args[2]` in region `args[0]` name the
/// same elements in every iteration of loop `args[3]`, whose iterations
/// may modify region `args[1]` ([`fixed`]).
fn reg_fixed(ctx: &FunctorContext<FactBase>, args: &[Value]) -> Vec<Value> {
    let (Some(part), Some(iteration)) = (region(&args[0]), region(&args[1])) else {
        return vec![];
    };
    let st = ctx.memo(statements);
    let ok = fixed(&st, &part, &iteration, text(&args[2]), number(&args[3]));
    vec![Value::Number(i64::from(ok))]
}

/// The region functors, registered by [`super::standard`].
pub const FUNCTORS: &[FunctorSpec<FactBase>] = &[
    FunctorSpec {
        name: "reg_stmt",
        args: &[Number],
        result: Symbol,
        doc: "The MOD | USE | DDEF | EUSE summary of one statement.",
        f: reg_stmt,
    },
    FunctorSpec {
        name: "reg_then",
        args: &[Symbol, Symbol, Number],
        result: Symbol,
        doc: "Case 2: the summary of one part then another, at a loop level.",
        f: reg_then,
    },
    FunctorSpec {
        name: "reg_join",
        args: &[Symbol, Symbol, Number],
        result: Symbol,
        doc: "Case 1: the summary of one part or another (two branches), at a loop level.",
        f: reg_join,
    },
    FunctorSpec {
        name: "reg_over",
        args: &[Symbol, Number],
        result: Symbol,
        doc: "Case 3: the summary of a DO loop from that of one iteration.",
        f: reg_over,
    },
    FunctorSpec {
        name: "reg_part",
        args: &[Symbol, Symbol],
        result: Symbol,
        doc: "One set of a summary: `mod`, `use`, `ddef` or `euse`.",
        f: reg_part,
    },
    FunctorSpec {
        name: "reg_loop_end",
        args: &[Symbol, Symbol, Number],
        result: Symbol,
        doc: "What may be read after an iteration of a loop: its EUSE over all iterations and what is live after it (a reading summary).",
        f: reg_loop_end,
    },
    FunctorSpec {
        name: "reg_rewrites",
        args: &[Symbol, Symbol, Symbol, Number],
        result: Number,
        doc: "1 when every iteration of a loop surely writes all it may write of a variable, the same elements each time (MOD of one iteration, its DDEF, the variable, the loop).",
        f: reg_rewrites,
    },
    FunctorSpec {
        name: "reg_fixed",
        args: &[Symbol, Symbol, Symbol, Number],
        result: Number,
        doc: "1 when a region's sections of a variable name the same elements in every iteration of a loop (the region, MOD of one iteration, the variable, the loop).",
        f: reg_fixed,
    },
    FunctorSpec {
        name: "reg_outside",
        args: &[Symbol],
        result: Symbol,
        doc: "What may be read after a unit returns: dummy arguments, COMMON and SAVEd variables (a reading summary).",
        f: reg_outside,
    },
    FunctorSpec {
        name: "reg_names",
        args: &[Symbol, Symbol],
        result: Number,
        doc: "1 when a region has a section of the variable, else 0.",
        f: reg_names,
    },
];
