//! Basic blocks (`block_stmt`, `block_edge`), the CFG edges of the unit
//! (`cfg_edge`), and `ref_next` inside blocks; then the chunks of blocks
//! (see [`super::chunks`]).
//!
//! A node starts a block (is a leader) unless it has exactly one
//! predecessor, which is the node numbered just before it and has no other
//! successor. So the leaders are the entry, join points (several
//! predecessors), successors of branches, and also nodes without
//! predecessors (unreachable code, which still belongs to a block of its
//! own) and targets of a single backward or forward jump: every block is a
//! run of consecutive ids, so the order of ids in a block is execution
//! order. A block's id is the id of its first statement.

use std::collections::HashMap;

use kaiseki_facts::{BlockEdge, BlockStmt, CfgEdge, RefNext};

use super::chunks::BlockGraph;
use super::UnitLowerer;

impl UnitLowerer<'_, '_, '_> {
    pub(super) fn finish_blocks(&mut self) {
        let mut edges = std::mem::take(&mut self.edges);
        edges.sort_unstable();
        edges.dedup();
        let index: HashMap<i64, usize> =
            self.exec.iter().enumerate().map(|(i, &s)| (s, i)).collect();
        let n = self.exec.len();
        let mut succs: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
        for &(from, to) in &edges {
            self.g.facts.cfg_edge.push(CfgEdge { from, to });
            if let (Some(&f), Some(&t)) = (index.get(&from), index.get(&to)) {
                succs[f].push(t);
                preds[t].push(f);
            }
        }
        let leader = |i: usize| {
            i == 0 || preds[i].len() != 1 || preds[i][0] + 1 != i || succs[i - 1].len() != 1
        };
        let mut block_of = vec![0i64; n];
        let mut blocks: Vec<Vec<usize>> = Vec::new();
        for i in 0..n {
            if leader(i) || blocks.is_empty() {
                blocks.push(Vec::new());
            }
            if let Some(b) = blocks.last_mut() {
                b.push(i);
            }
        }
        for b in &blocks {
            let id = self.exec[b[0]];
            for (k, &i) in b.iter().enumerate() {
                block_of[i] = id;
                self.g.facts.block_stmt.push(BlockStmt {
                    block: id,
                    stmt: self.exec[i],
                    index: k as i64,
                });
            }
        }
        // The block of each statement as a position among the blocks.
        let mut position = vec![0usize; n];
        for (p, b) in blocks.iter().enumerate() {
            for &i in b {
                position[i] = p;
            }
        }
        let mut graph = BlockGraph {
            ids: blocks.iter().map(|b| self.exec[b[0]]).collect(),
            succs: vec![Vec::new(); blocks.len()],
            preds: vec![Vec::new(); blocks.len()],
        };
        for (p, b) in blocks.iter().enumerate() {
            if let Some(&last) = b.last() {
                for &s in &succs[last] {
                    self.g.facts.block_edge.push(BlockEdge {
                        from: block_of[last],
                        to: block_of[s],
                    });
                    graph.succs[p].push(position[s]);
                    graph.preds[position[s]].push(p);
                }
            }
            self.ref_next(b);
        }
        self.chunks(&graph);
    }

    /// `ref_next`: consecutive references to the same variable (to the
    /// same storage, for names that share it) in one block.
    fn ref_next(&mut self, block: &[usize]) {
        let mut last: HashMap<&str, i64> = HashMap::new();
        for &i in block {
            let Some(refs) = self.stmt_refs.get(&self.exec[i]) else {
                continue;
            };
            for (r, var) in refs {
                if let Some(prev) = last.insert(self.storage.storage_of(var), *r) {
                    self.g.facts.ref_next.push(RefNext {
                        r#ref: prev,
                        next: *r,
                    });
                }
            }
        }
    }
}
