//! Basic blocks (`block_stmt`, `block_edge`), the CFG edges of the unit
//! (`cfg_edge`), and `ref_next` inside runs without branches; then each variable's sparse
//! graph over the blocks (see [`super::seg`]).
//!
//! A node starts a block (is a leader) unless it has exactly one
//! predecessor, which is the node numbered just before it and has no other
//! successor. So the leaders are the entry, join points (several
//! predecessors), successors of branches, and also nodes without
//! predecessors (unreachable code, which still belongs to a block of its
//! own) and targets of a single backward or forward jump: every block is a
//! run of consecutive ids, so the order of ids in a block is execution
//! order. A block's id is the id of its first statement.
//!
//! A statement that names an element of an array by subscripts of one value
//! all through the unit (`element_ref`)
//! is also a block of its own: the element's dataflow facts are killed and
//! blocked between blocks, while inside a block the chains (`ref_next`)
//! follow the array, and would link every two of its element references
//! in a long run of straight-line code. The chains of the other variables
//! go on through such blocks, over the whole run without branches.

use rustc_hash::{FxHashMap, FxHashSet};

use kaiseki_facts::{BlockEdge, BlockStmt, CfgEdge, RefNext};

use super::seg::{sparse_edges, BlockGraph, LoopBlocks};
use super::UnitLowerer;

impl UnitLowerer<'_, '_, '_> {
    pub(super) fn finish_blocks(&mut self) {
        let mut edges = std::mem::take(&mut self.edges);
        edges.sort_unstable();
        edges.dedup();
        for &(from, to) in &edges {
            if self.always_then.get(&from).is_some_and(|&then| then != to) {
                self.never(from, to);
            }
        }
        let stmt_guards = self.invariant_tests(&edges);
        let index: FxHashMap<i64, usize> =
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
        // A statement that names an `element_ref` is a block of its own.
        let names_element: Vec<bool> = self
            .exec
            .iter()
            .map(|s| {
                self.stmt_refs
                    .get(s)
                    .is_some_and(|refs| refs.iter().any(|(r, _)| self.element_of.contains_key(r)))
            })
            .collect();
        let plain_leader = |i: usize| {
            i == 0 || preds[i].len() != 1 || preds[i][0] + 1 != i || succs[i - 1].len() != 1
        };
        let leader = |i: usize| plain_leader(i) || names_element[i] || names_element[i - 1];
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
        // A reference's facts belong to its storage object, or to its
        // element for an `element_ref`; the facts of every element of an
        // array can reach its other references. A reference to an element
        // is in its array's graph only when some reference names the array
        // otherwise (`loose`).
        let mut elements: FxHashMap<&str, Vec<(&str, &str)>> = FxHashMap::default();
        let mut loose: FxHashSet<&str> = FxHashSet::default();
        for refs in self.stmt_refs.values() {
            for (r, var) in refs {
                match self.element_of.get(r) {
                    Some((e, class)) => elements
                        .entry(var.as_str())
                        .or_default()
                        .push((e.as_str(), class.as_str())),
                    None => {
                        loose.insert(self.storage.storage_of(var));
                    }
                }
            }
        }
        for es in elements.values_mut() {
            es.sort_unstable();
            es.dedup();
        }
        // The chains of the arrays with such elements stop at the
        // blocks of such statements; the other variables' chains go on
        // through a run of blocks with no branch (a basic block but for
        // those statements), so that `exact` still sees the run.
        let mut chains: FxHashMap<&str, i64> = FxHashMap::default();
        let mut ref_next = Vec::new();
        for b in &blocks {
            if plain_leader(b[0]) {
                chains.clear();
            } else {
                chains.retain(|var, _| !elements.contains_key(var));
            }
            for &i in b {
                for (r, var) in self.stmt_refs.get(&self.exec[i]).into_iter().flatten() {
                    if let Some(prev) = chains.insert(self.storage.storage_of(var), *r) {
                        ref_next.push(RefNext {
                            r#ref: prev,
                            next: *r,
                        });
                    }
                }
            }
        }
        self.g.facts.ref_next.extend(ref_next);
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
        }
        // Borrowed names: a `String` per reference per block was a good part
        // of the unit's allocations.
        let touched: Vec<Vec<&str>> = blocks
            .iter()
            .map(|b| {
                let mut vars = Vec::new();
                // The other elements an array's references meet, once per
                // block and class (`None`: not an element).
                let mut met: FxHashSet<(&str, Option<&str>)> = FxHashSet::default();
                for (r, var) in b
                    .iter()
                    .filter_map(|&i| self.stmt_refs.get(&self.exec[i]))
                    .flatten()
                {
                    let storage = self.storage.storage_of(var);
                    if loose.contains(storage) {
                        vars.push(storage);
                    }
                    let own = self.element_of.get(r);
                    if let Some((e, _)) = own {
                        vars.push(e.as_str());
                    }
                    let class = own.map(|(_, c)| c.as_str());
                    if met.insert((storage, class)) {
                        // An element meets those of the other classes.
                        let others = elements.get(storage).into_iter().flatten();
                        vars.extend(others.filter(|(_, c)| Some(*c) != class).map(|(o, _)| *o));
                    }
                }
                vars
            })
            .collect();
        // The guards as edges between block positions: a test ends its block.
        let guards: FxHashMap<(usize, usize), i64> = stmt_guards
            .into_iter()
            .filter_map(|((from, to), g)| {
                let (f, t) = (index.get(&from)?, index.get(&to)?);
                Some(((position[*f], position[*t]), g))
            })
            .collect();
        let loops = self.loop_blocks(&blocks, &position, &index);
        sparse_edges(&mut self.g.facts, &graph, &touched, &loops, &guards);
    }

    /// The unit's loops as blocks, as the rules see them: a block belongs
    /// to a loop when its first statement is in the loop's body, or is the
    /// header of a DO WHILE (tested every iteration).
    fn loop_blocks(
        &self,
        blocks: &[Vec<usize>],
        position: &[usize],
        index: &FxHashMap<i64, usize>,
    ) -> Vec<LoopBlocks> {
        let [first_loop, first_stmt, first_end] = self.first_loop_rows;
        let facts = &self.g.facts;
        let leader: FxHashMap<i64, usize> = blocks
            .iter()
            .enumerate()
            .map(|(p, b)| (self.exec[b[0]], p))
            .collect();
        let mut number: FxHashMap<i64, usize> = FxHashMap::default();
        let mut loops: Vec<LoopBlocks> = Vec::new();
        for l in &facts.r#loop[first_loop..] {
            number.insert(l.r#loop, loops.len());
            let mut inside = vec![false; blocks.len()];
            if l.kind == "do_while" {
                if let Some(&p) = leader.get(&l.r#loop) {
                    inside[p] = true;
                }
            }
            loops.push(LoopBlocks { inside, end: None });
        }
        for row in &facts.loop_stmt[first_stmt..] {
            if let (Some(&k), Some(&p)) = (number.get(&row.r#loop), leader.get(&row.stmt)) {
                loops[k].inside[p] = true;
            }
        }
        for row in &facts.loop_end[first_end..] {
            if let (Some(&k), Some(&i)) = (number.get(&row.r#loop), index.get(&row.stmt)) {
                loops[k].end = Some(position[i]);
            }
        }
        loops
    }
}
