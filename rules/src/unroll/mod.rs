//! Unroll factors for nested loops (Koseki, Komatsu & Fukazawa, seed 004):
//! the machine model ([`machine`]), the body as operations ([`body`]),
//! the parameters N, C, c_i, n_i of one nest (here), and the estimate
//! and search ([`search`]). The rules (`rules/dl/unroll.dl`) find the
//! nests, their fully permutable band and the iteration dependences and
//! reuses; they call [`model_record`] and [`search_record`] through the
//! functors `@unroll_model` and `@unroll_search`.
//!
//! Modelling choices beyond those of [`body`] and [`search`]:
//! - c_i (section 3.2): for each flow dependence along loop i alone, at
//!   distance d, the body of the later iteration gets the stored value from
//!   the register when the earlier one computes it; the growth of the
//!   longest path over the original, divided by d; the largest. Only array
//!   elements count, as in the paper's section 3.1 (arrays: name and
//!   subscript polynomials): a recurrence through a scalar (`T = T -
//!   X(J)*Y(J)`) adds nothing. Livermore kernel 4's (3,2) and its
//!   innermost-only (1,5) of Table 1 need that.
//! - n_i: a load is saved per unroll of loop i when its element does not
//!   change along i and the body stores none of its array (reuse), or it
//!   reads what an earlier iteration along i read (reuse: an input
//!   dependence) or stored (scalar replacement: a flow dependence), 1/d at
//!   distance d; a store is saved when a later iteration along i
//!   overwrites it (an output dependence); an operation whose operands do
//!   not change along i is computed once (value reuse: `B(J)+C(J)` along
//!   I). Dependences along several loops at once are not counted (they
//!   save only (k_i - 1)(k_j - 1) operations, not a term of Ch).

pub mod body;
pub mod machine;
pub mod search;
#[cfg(test)]
mod tests;

use body::{Body, Op, RefKind};
use kaiseki_affine::symbolic::LoopForm;
use machine::Machine;
use search::Model;
use std::collections::HashMap;

/// An iteration dependence along one loop of the band: `src` then `dst`
/// (references of the body), loop position `pos` (0 = outermost), `d`
/// iterations apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shift {
    pub src: i64,
    pub dst: i64,
    pub pos: usize,
    pub d: i64,
}

/// N, C, c_i and n_i of the body `stmts` (`target=tree`, in order) in the
/// band `loops` (outermost first).
pub fn model(
    loops: &[i64],
    stmts: &[(i64, &str)],
    refs: &HashMap<i64, RefKind>,
    shifts: &[Shift],
    m: &Machine,
) -> Model {
    let body = Body::build(stmts, refs);
    let none = HashMap::new();
    let start = body.schedule(m, &none);
    let c = body.length(m, &none);
    let stored: Vec<&str> = body
        .store_of
        .keys()
        .filter_map(|r| match refs.get(r) {
            Some(RefKind::Element(a, _)) => Some(a.as_str()),
            _ => None,
        })
        .collect();
    let mut growth = vec![0.0; loops.len()];
    let mut removed = vec![0.0; loops.len()];
    for (i, &l) in loops.iter().enumerate() {
        // Invariant nodes along loop i.
        let mut invariant = vec![false; body.nodes.len()];
        for (n, node) in body.nodes.iter().enumerate() {
            invariant[n] = match node.op {
                Op::Store => false,
                Op::Carried => node.r#ref.and_then(|r| refs.get(&r)).is_some_and(|k| {
                    matches!(k, RefKind::Scalar(name, _) if !body.assigned.contains(name))
                        && k.invariant_along(l)
                }),
                Op::Load => node.r#ref.and_then(|r| refs.get(&r)).is_some_and(|k| {
                    k.invariant_along(l)
                        && !matches!(k, RefKind::Element(a, _) if stored.contains(&a.as_str()))
                }),
                Op::Fp | Op::Int => node.args.iter().all(|&a| invariant[a]),
            };
        }
        let mut saved: HashMap<usize, f64> = HashMap::new();
        for (n, node) in body.nodes.iter().enumerate() {
            if node.live && invariant[n] {
                saved.insert(n, 1.0);
            }
        }
        for s in shifts.iter().filter(|s| s.pos == i && s.d > 0) {
            let share = 1.0 / s.d as f64;
            let (src_store, dst_store) = (body.store_of.get(&s.src), body.store_of.get(&s.dst));
            let dst_load = body
                .value_of
                .get(&s.dst)
                .copied()
                .filter(|&n| body.nodes[n].op == Op::Load);
            let saving = match (src_store, dst_store) {
                // output: the earlier store is overwritten.
                (Some(&st), Some(_)) if body.nodes[st].live => Some(st),
                // flow or input: the later load is not needed.
                (_, None) => dst_load,
                _ => None,
            };
            if let Some(n) = saving {
                let e = saved.entry(n).or_default();
                *e = e.max(share);
            }
            // Path growth: a flow dependence forwards the stored value.
            if let (Some(&st), Some(load)) = (src_store, dst_load) {
                if let Some(&v) = body.nodes[st].args.first() {
                    let at = body.available(m, &none, &start, v);
                    let longer = body.length(m, &HashMap::from([(load, at)]));
                    let g = (longer - c).max(0) as f64 / s.d as f64;
                    growth[i] = f64::max(growth[i], g);
                }
            }
        }
        removed[i] = saved.values().sum();
    }
    Model {
        ops: body.ops() as f64,
        cycles: c as f64,
        growth,
        removed,
    }
}

/// Whether the compiler vectorizes the innermost loop of the band as it
/// stands: every element that changes along it is contiguous along it
/// (stride 1 in the first subscript, in no other), some element does, no
/// value stored in one iteration is read or overwritten by a later one
/// along it, and no scalar carries a value from one iteration to the next
/// (a floating-point reduction needs reassociation, which -O2 does not
/// do).
pub fn vectorizable(
    loops: &[i64],
    stmts: &[(i64, &str)],
    refs: &HashMap<i64, RefKind>,
    shifts: &[Shift],
) -> bool {
    let Some(&inner) = loops.last() else {
        return false;
    };
    let mut contiguous = false;
    for kind in refs.values() {
        let RefKind::Element(_, dims) = kind else {
            continue;
        };
        if kind.invariant_along(inner) {
            continue;
        }
        let along = |d: &Option<LoopForm>| d.as_ref().map(|f| f.loops.get(&inner).copied());
        let first = dims.first().and_then(along);
        if first != Some(Some(1)) || dims[1..].iter().any(|d| along(d) != Some(None)) {
            return false;
        }
        contiguous = true;
    }
    let body = Body::build(stmts, refs);
    let carried = body.nodes.iter().any(|n| {
        n.op == Op::Carried
            && matches!(n.r#ref.and_then(|r| refs.get(&r)),
                Some(RefKind::Scalar(name, _)) if body.assigned.contains(name))
    });
    let stored_later = shifts
        .iter()
        .any(|s| s.pos + 1 == loops.len() && body.store_of.contains_key(&s.src));
    contiguous && !carried && !stored_later
}

/// A number as the records spell it: at most 3 decimals, no trailing zeros.
pub fn num(x: f64) -> String {
    // Sums of nothing are -0.0.
    let s = format!("{:.3}", x + 0.0);
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

fn list(xs: &[f64]) -> String {
    xs.iter().map(|&x| num(x)).collect::<Vec<_>>().join(";")
}

fn numbers(s: &str) -> Vec<f64> {
    s.split(';')
        .filter(|p| !p.is_empty())
        .filter_map(|p| p.parse().ok())
        .collect()
}

/// `N|C|c_1;...|n_1;...|v`: the model as the `@unroll_model` functor
/// returns it (`v`: 1 when the innermost loop is [`vectorizable`], else 0), from the packs of `rules/dl/unroll.dl`: `loops` `id;id`,
/// `stmts` `target=tree&...`, `refs` `id=NAME|nf|nf&...`, `shifts`
/// `src:dst:pos:d&...`. None when a pack is malformed.
pub fn model_record(
    loops: &str,
    stmts: &str,
    refs: &str,
    shifts: &str,
    machine: &str,
) -> Option<String> {
    let m: Machine = machine.parse().ok()?;
    let loops: Vec<i64> = loops
        .split(';')
        .filter(|p| !p.is_empty())
        .map(|p| p.parse().ok())
        .collect::<Option<_>>()?;
    let stmts: Vec<(i64, &str)> = stmts
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            p.split_once('=')
                .and_then(|(t, tree)| Some((t.parse().ok()?, tree)))
        })
        .collect::<Option<_>>()?;
    let refs: HashMap<i64, RefKind> = refs
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            p.split_once('=')
                .and_then(|(r, k)| Some((r.parse().ok()?, RefKind::parse(k))))
        })
        .collect::<Option<_>>()?;
    let shifts: Vec<Shift> = shifts
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let f: Vec<i64> = p
                .split(':')
                .map(|x| x.parse().ok())
                .collect::<Option<_>>()?;
            match f[..] {
                [src, dst, pos, d] => Some(Shift {
                    src,
                    dst,
                    pos: usize::try_from(pos).ok()?.checked_sub(1)?,
                    d,
                }),
                _ => None,
            }
        })
        .collect::<Option<_>>()?;
    let md = model(&loops, &stmts, &refs, &shifts, &m);
    let vector = vectorizable(&loops, &stmts, &refs, &shifts);
    Some(format!(
        "{}|{}|{}|{}|{}",
        num(md.ops),
        num(md.cycles),
        list(&md.growth),
        list(&md.removed),
        u8::from(vector)
    ))
}

/// The model of a `model_record` (its first four fields).
pub fn parse_model(record: &str) -> Option<Model> {
    let f: Vec<&str> = record.split('|').collect();
    let [ops, cycles, growth, removed, ..] = f[..] else {
        return None;
    };
    Some(Model {
        ops: ops.parse().ok()?,
        cycles: cycles.parse().ok()?,
        growth: numbers(growth),
        removed: numbers(removed),
    })
}

/// `k_1;...|P|stop|path`: the search's answer for a model record, with
/// the trip counts `caps` (`3;0`, 0 unknown); `path` is the vectors the
/// search passed, `>`-separated (`1;1>2;1>2;2`). On a machine with a
/// vector unit, a vectorizable innermost loop (the record's last field)
/// keeps factor 1, as a loop of one iteration would.
pub fn search_record(model: &str, caps: &str, machine: &str) -> Option<String> {
    let m: Machine = machine.parse().ok()?;
    let md = parse_model(model)?;
    let mut caps: Vec<i64> = numbers(caps).iter().map(|&c| c as i64).collect();
    if m.vector_width > 1 && model.ends_with("|1") {
        if let Some(last) = caps.last_mut() {
            *last = 1;
        }
    }
    let (path, stop) = md.search_path(&caps, &m);
    let text = |k: &Vec<i64>| k.iter().map(i64::to_string).collect::<Vec<_>>().join(";");
    let k = path.last()?;
    Some(format!(
        "{}|{}|{}|{}",
        text(k),
        num(md.perf(k, &m)),
        stop.name(),
        path.iter().map(text).collect::<Vec<_>>().join(">")
    ))
}
