//! Chunks: runs of consecutive basic blocks with one entry and one exit
//! (`chunk`, `chunk_exit`, `chunk_parent`, `block_chunk`), so that
//! dataflow can carry a variable's facts across a whole chunk that never
//! references it in one step, instead of block by block. With them the
//! cost of reaching definitions and exposed uses follows the references
//! (times the depth of the chunk tree), not blocks x references.
//!
//! The chunks are the valid nodes of one binary tree over the unit's
//! blocks in id order. A range is split at the boundary crossed by the
//! fewest edges (an edge that lands on the block just after it does not
//! cross it): the shallowest point of the loop and IF structure inside
//! it; among such boundaries the middle one, so a long sequence gives a
//! balanced tree.
//! A node is a chunk when control enters it only at its first block
//! (never again from inside), leaves it for one block only, and can get
//! from the entry to an exit inside it.

use kaiseki_facts::{BlockChunk, Chunk, ChunkExit, ChunkParent};

use super::UnitLowerer;

/// The unit's blocks as positions 0..n in id order, with their edges.
pub(super) struct BlockGraph {
    pub ids: Vec<i64>,
    pub succs: Vec<Vec<usize>>,
    pub preds: Vec<Vec<usize>>,
}

impl UnitLowerer<'_, '_, '_> {
    pub(super) fn chunks(&mut self, graph: &BlockGraph) {
        let n = graph.ids.len();
        let crossing = crossings(graph);
        // Splits and checks cost the length of the range: past this budget
        // (a pathological jump pattern making the tree deep) no more
        // chunks are made, and dataflow goes block by block there.
        let mut budget = 64 * n + 1024;
        // (range, nearest chunk above it)
        let mut stack = vec![(0..n, None)];
        let mut innermost = vec![None; n];
        while let Some((range, above)) = stack.pop() {
            if range.len() < 2 || budget < range.len() {
                for p in range {
                    innermost[p] = above;
                }
                continue;
            }
            budget -= 2 * range.len();
            let mut here = above;
            if let Some(exits) = exits_if_chunk(graph, range.clone()) {
                self.g.next_chunk += 1;
                let chunk = -self.g.next_chunk;
                self.g.facts.chunk.push(Chunk {
                    chunk,
                    entry: graph.ids[range.start],
                    last: graph.ids[range.end - 1],
                });
                for (from, to) in exits {
                    self.g.facts.chunk_exit.push(ChunkExit {
                        chunk,
                        from: graph.ids[from],
                        to: graph.ids[to],
                    });
                }
                if let Some(parent) = above {
                    self.g
                        .facts
                        .chunk_parent
                        .push(ChunkParent { chunk, parent });
                }
                here = Some(chunk);
            }
            let split = split_point(&crossing, range.clone());
            stack.push((split..range.end, here));
            stack.push((range.start..split, here));
        }
        for (p, chunk) in innermost.into_iter().enumerate() {
            if let Some(chunk) = chunk {
                self.g.facts.block_chunk.push(BlockChunk {
                    block: graph.ids[p],
                    chunk,
                });
            }
        }
    }
}

/// `crossing[k]`: how many edges cross the boundary just before position
/// k without landing on k: forward edges that pass over k, and backward
/// edges from k or later to before k. A range cut there can still be a
/// chunk: an edge landing on k is an exit to the next range's entry.
fn crossings(graph: &BlockGraph) -> Vec<i64> {
    let n = graph.ids.len();
    let mut delta = vec![0i64; n + 1];
    for (u, succs) in graph.succs.iter().enumerate() {
        for &v in succs {
            let (from, to) = if v > u { (u + 1, v) } else { (v + 1, u + 1) };
            if from < to {
                delta[from] += 1;
                delta[to] -= 1;
            }
        }
    }
    let mut crossing = Vec::with_capacity(n);
    let mut sum = 0;
    for d in &delta[..n] {
        sum += d;
        crossing.push(sum);
    }
    crossing
}

/// The boundary that splits `range` (at least two positions): the middle
/// one of those the fewest edges cross.
fn split_point(crossing: &[i64], range: std::ops::Range<usize>) -> usize {
    let inner = range.start + 1..range.end;
    let least = inner.clone().map(|k| crossing[k]).min().unwrap_or(0);
    let best: Vec<usize> = inner.filter(|&k| crossing[k] == least).collect();
    best[best.len() / 2]
}

/// The exit edges `(from, to)` of `range` whose source control reaches
/// from the entry, when the range is a chunk; `None` when it is not.
fn exits_if_chunk(
    graph: &BlockGraph,
    range: std::ops::Range<usize>,
) -> Option<Vec<(usize, usize)>> {
    let inside = |p: usize| range.contains(&p);
    let entry = range.start;
    if graph.preds[entry].iter().any(|&q| inside(q)) {
        return None;
    }
    let mut target = None;
    for p in range.clone() {
        if p != entry && graph.preds[p].iter().any(|&q| !inside(q)) {
            return None;
        }
        for &s in &graph.succs[p] {
            if !inside(s) && *target.get_or_insert(s) != s {
                return None;
            }
        }
    }
    target?;
    let mut seen = vec![false; range.len()];
    let mut work = vec![entry];
    seen[0] = true;
    let mut exits = Vec::new();
    while let Some(p) = work.pop() {
        for &s in &graph.succs[p] {
            if !inside(s) {
                exits.push((p, s));
            } else if !seen[s - entry] {
                seen[s - entry] = true;
                work.push(s);
            }
        }
    }
    exits.sort_unstable();
    exits.dedup();
    (!exits.is_empty()).then_some(exits)
}
