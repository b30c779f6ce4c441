//! Sparse evaluation graphs (`seg_edge`): for each variable (storage
//! object) of a unit, the blocks where its dataflow facts can change and
//! the block edges between them, so reaching definitions and exposed uses
//! carry a variable's facts from one such block to the next in one step
//! instead of block by block. Their cost then follows the references, not
//! blocks x references.
//!
//! A variable's nodes are the blocks that reference it, the blocks that
//! control enters from a loop that references it (over a back edge or an
//! exit: those edges change a fact's carrier loop), and the iterated
//! dominance frontier of these (where facts from different nodes merge).
//! Between nodes every block and edge passes the variable's facts as they
//! are, and by the dominance frontier property (as in SSA construction)
//! the facts leaving any block are those leaving its nearest dominating
//! node. So for each edge `via -> to` into a node, `seg_edge(var, from,
//! via, to)` names that node `from`; the rules apply the edge's effect on
//! the carrier as they would to the block edge itself.

use rustc_hash::{FxHashMap, FxHashSet};

use kaiseki_facts::{BlockGuard, FactBase, SegEdge};

/// The unit's blocks as positions 0..n (the entry first), with their edges.
pub(super) struct BlockGraph {
    pub ids: Vec<i64>,
    pub succs: Vec<Vec<usize>>,
    pub preds: Vec<Vec<usize>>,
}

/// A DO or DO WHILE loop as blocks: `inside[p]` when block p belongs to an
/// iteration, and `end`, the block of its `enddo` node.
pub(super) struct LoopBlocks {
    pub inside: Vec<bool>,
    pub end: Option<usize>,
}

/// Adds the `seg_edge` and `block_guard` rows of a unit to `facts`:
/// `touched[p]` lists the variables the references of block p name (as
/// storage objects), `guards` the guard of each edge out of an invariant
/// test.
pub(super) fn sparse_edges(
    facts: &mut FactBase,
    graph: &BlockGraph,
    touched: &[Vec<&str>],
    loops: &[LoopBlocks],
    guards: &FxHashMap<(usize, usize), i64>,
) {
    let mut names: Vec<&str> = Vec::new();
    let mut number: FxHashMap<&str, usize> = FxHashMap::default();
    let touched: Vec<Vec<usize>> = touched
        .iter()
        .map(|vars| {
            let mut vs: Vec<usize> = vars
                .iter()
                .map(|&v| {
                    *number.entry(v).or_insert_with(|| {
                        names.push(v);
                        names.len() - 1
                    })
                })
                .collect();
            vs.sort_unstable();
            vs.dedup();
            vs
        })
        .collect();
    let (mut edges, block_guards) = sparse_graph(graph, &touched, loops, names.len(), guards);
    // The unit's rows in their order (see [`sort_seg_edges`]): blocks are
    // numbered in the order of their ids, so positions compare as ids do.
    let mut by_name: Vec<usize> = (0..names.len()).collect();
    by_name.sort_unstable_by_key(|&v| names[v]);
    let mut rank = vec![0; names.len()];
    for (r, v) in by_name.into_iter().enumerate() {
        rank[v] = r;
    }
    edges.sort_unstable_by_key(|&(var, from, via, to, guard)| (rank[var], from, via, to, guard));
    for (var, from, via, to, guard) in edges {
        facts.seg_edge.push(SegEdge {
            var: names[var].to_string(),
            from: graph.ids[from],
            via: graph.ids[via],
            to: graph.ids[to],
            guard,
        });
    }
    for (&block, guard) in graph.ids.iter().zip(block_guards) {
        facts.block_guard.push(BlockGuard { block, guard });
    }
}

/// Puts the `seg_edge` rows of the units in their order (by every field,
/// the variable's name first), given each unit's rows in that order (see
/// [`sparse_edges`]) and the units in the order of their ids: then the
/// rows of one name are in order as they stand, and a stable counting
/// sort by name orders them all. The relation has most rows of all (on a
/// large program, a fifth of them): sorting it in [`FactBase::normalize`]
/// by string comparisons was a tenth of `check`; normalize now finds it
/// in order.
pub(super) fn sort_seg_edges(rows: &mut Vec<SegEdge>) {
    let (rank, count) = {
        let mut names: Vec<&str> = rows
            .iter()
            .map(|r| r.var.as_str())
            .collect::<FxHashSet<&str>>()
            .into_iter()
            .collect();
        names.sort_unstable();
        let count = names.len();
        let of: FxHashMap<&str, usize> = names.into_iter().zip(0..).collect();
        let rank: Vec<usize> = rows.iter().map(|r| of[r.var.as_str()]).collect();
        (rank, count)
    };
    // Where each name's rows start.
    let mut start = vec![0; count + 1];
    for &r in &rank {
        start[r + 1] += 1;
    }
    for i in 1..start.len() {
        start[i] += start[i - 1];
    }
    let mut sorted: Vec<Option<SegEdge>> = vec![None; rows.len()];
    for (row, r) in rows.drain(..).zip(rank) {
        sorted[start[r]] = Some(row);
        start[r] += 1;
    }
    rows.extend(sorted.into_iter().flatten());
}

/// A sparse graph edge (var, from, via, to, guard) over block positions.
type Edge = (usize, usize, usize, usize, i64);

/// The sparse graphs of variables 0..nvars, and each block's guard: the
/// last guarded edge on its dominator-tree path that is the only way into
/// its target (a branch into an arm). An edge's guard is that of `via ->
/// to` if it has one, else the last guard between `from` and `via`: every
/// path from `from` to `via` enters that arm, which `from` dominates.
pub(super) fn sparse_graph(
    graph: &BlockGraph,
    touched: &[Vec<usize>],
    loops: &[LoopBlocks],
    nvars: usize,
    guards: &FxHashMap<(usize, usize), i64>,
) -> (Vec<Edge>, Vec<i64>) {
    let n = graph.ids.len();
    if n == 0 {
        return (Vec::new(), Vec::new());
    }
    let dom = Dominators::of(graph);
    let frontier = dom.frontiers();
    // The nodes of each variable, as the variables each block is a node of.
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut seeds: Vec<Vec<usize>> = vec![Vec::new(); nvars];
    for (p, vars) in touched.iter().enumerate() {
        for &v in vars {
            seeds[v].push(p);
        }
    }
    for l in loops {
        let mut vars: Vec<usize> = (0..n)
            .filter(|&p| l.inside[p])
            .flat_map(|p| touched[p].iter().copied())
            .collect();
        vars.sort_unstable();
        vars.dedup();
        if vars.is_empty() {
            continue;
        }
        let targets: Vec<usize> = (0..n)
            .filter(|&p| l.inside[p])
            .flat_map(|p| {
                graph.succs[p]
                    .iter()
                    .copied()
                    .filter(move |&s| !l.inside[s] || l.end == Some(p))
            })
            .collect();
        for &v in &vars {
            seeds[v].extend(&targets);
        }
    }
    let mut mark = vec![usize::MAX; n];
    for (v, seed) in seeds.into_iter().enumerate() {
        let mut work = Vec::new();
        for p in seed {
            if mark[p] != v {
                mark[p] = v;
                members[p].push(v);
                work.push(p);
            }
        }
        while let Some(p) = work.pop() {
            for &f in &frontier[p] {
                if f < n && mark[f] != v {
                    mark[f] = v;
                    members[f].push(v);
                    work.push(f);
                }
            }
        }
    }
    // Walk the dominator tree with each variable's nearest node so far.
    let mut nearest: Vec<Option<usize>> = vec![None; nvars];
    let mut edges = Vec::new();
    let mut saved: Vec<(usize, Option<usize>)> = Vec::new();
    // (block, where its undo entries start; None on the way down)
    let mut stack: Vec<(usize, Option<usize>)> =
        dom.children[n].iter().map(|&c| (c, None)).collect();
    // Each block's dominator-tree depth and its last guard as (depth of
    // the arm's entry, guard).
    let mut depth = vec![0usize; n + 1];
    let mut last_guard = vec![(0usize, 0i64); n + 1];
    while let Some((p, undo)) = stack.pop() {
        if let Some(start) = undo {
            for (v, old) in saved.drain(start..).rev() {
                nearest[v] = old;
            }
            continue;
        }
        let parent = dom.idom[p];
        depth[p] = depth[parent] + 1;
        last_guard[p] = match graph.preds[p][..] {
            [q] => guards
                .get(&(q, p))
                .map_or(last_guard[parent], |&g| (depth[p], g)),
            _ => last_guard[parent],
        };
        stack.push((p, Some(saved.len())));
        for &v in &members[p] {
            saved.push((v, nearest[v]));
            nearest[v] = Some(p);
        }
        for &s in &graph.succs[p] {
            for &v in &members[s] {
                if let Some(from) = nearest[v] {
                    let guard = match guards.get(&(p, s)) {
                        Some(&g) => g,
                        None if last_guard[p].0 > depth[from] => last_guard[p].1,
                        None => 0,
                    };
                    edges.push((v, from, p, s, guard));
                }
            }
        }
        stack.extend(dom.children[p].iter().map(|&c| (c, None)));
    }
    (edges, last_guard[..n].iter().map(|&(_, g)| g).collect())
}

/// The dominator tree of the blocks under a virtual root (position n) that
/// enters the entry block and every block the entry does not reach, so
/// unreachable code has dominators too.
struct Dominators {
    idom: Vec<usize>,
    /// The blocks each block immediately dominates (the root's at n).
    children: Vec<Vec<usize>>,
    preds: Vec<Vec<usize>>,
}

impl Dominators {
    /// Cooper, Harvey and Kennedy's iterative algorithm over reverse
    /// postorder.
    fn of(graph: &BlockGraph) -> Dominators {
        let n = graph.ids.len();
        let root = n;
        let mut succs: Vec<Vec<usize>> = graph.succs.clone();
        let mut preds: Vec<Vec<usize>> = graph.preds.clone();
        succs.push(Vec::new());
        preds.push(Vec::new());
        let mut reached = vec![false; n + 1];
        let mut add_root_edge = |p: usize, succs: &mut Vec<Vec<usize>>, reached: &mut [bool]| {
            succs[root].push(p);
            preds[p].push(root);
            let mut work = vec![p];
            reached[p] = true;
            while let Some(q) = work.pop() {
                for &s in &succs[q] {
                    if !reached[s] {
                        reached[s] = true;
                        work.push(s);
                    }
                }
            }
        };
        for p in 0..n {
            if !reached[p] {
                add_root_edge(p, &mut succs, &mut reached);
            }
        }
        // Postorder numbers from an iterative depth-first walk.
        let mut post = vec![0usize; n + 1];
        let mut order = Vec::with_capacity(n + 1);
        let mut seen = vec![false; n + 1];
        let mut stack = vec![(root, 0usize)];
        seen[root] = true;
        while let Some((p, next)) = stack.last_mut() {
            let p = *p;
            if let Some(&s) = succs[p].get(*next) {
                *next += 1;
                if !seen[s] {
                    seen[s] = true;
                    stack.push((s, 0));
                }
            } else {
                post[p] = order.len();
                order.push(p);
                stack.pop();
            }
        }
        let mut idom = vec![usize::MAX; n + 1];
        idom[root] = root;
        let intersect = |mut a: usize, mut b: usize, idom: &[usize]| {
            while a != b {
                while post[a] < post[b] {
                    a = idom[a];
                }
                while post[b] < post[a] {
                    b = idom[b];
                }
            }
            a
        };
        let mut changed = true;
        while changed {
            changed = false;
            for &b in order.iter().rev().skip(1) {
                let mut new = usize::MAX;
                for &p in &preds[b] {
                    if idom[p] != usize::MAX {
                        new = if new == usize::MAX {
                            p
                        } else {
                            intersect(p, new, &idom)
                        };
                    }
                }
                if idom[b] != new {
                    idom[b] = new;
                    changed = true;
                }
            }
        }
        let mut children = vec![Vec::new(); n + 1];
        for b in 0..n {
            children[idom[b]].push(b);
        }
        Dominators {
            idom,
            children,
            preds,
        }
    }

    /// The dominance frontier of each block (Cooper, Harvey and Kennedy):
    /// the joins it reaches without dominating them.
    fn frontiers(&self) -> Vec<Vec<usize>> {
        let mut frontier = vec![Vec::new(); self.idom.len()];
        for (b, preds) in self.preds.iter().enumerate() {
            if preds.len() < 2 {
                continue;
            }
            for &p in preds {
                let mut runner = p;
                while runner != self.idom[b] {
                    if frontier[runner].last() != Some(&b) {
                        frontier[runner].push(b);
                    }
                    runner = self.idom[runner];
                }
            }
        }
        frontier
    }
}
