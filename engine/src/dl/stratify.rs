//! Stratification: the strongly connected components of the dependency
//! graph (head relation -> relations its body reads), in dependency order.
//! A negation or an aggregate that reads a relation of its own component
//! has no stratified meaning and is an error naming the cycle.

use super::diag::Diagnostic;
use super::ir::*;
use std::collections::VecDeque;

/// Tarjan's algorithm, iterative so deep dependency chains cannot overflow
/// the stack. Components come out dependencies first.
fn components(n: usize, deps: &[Vec<usize>]) -> Vec<Vec<usize>> {
    const UNSEEN: usize = usize::MAX;
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut out = Vec::new();
    let mut counter = 0;
    for root in 0..n {
        if index[root] != UNSEEN {
            continue;
        }
        // (node, next edge to visit)
        let mut work = vec![(root, 0)];
        index[root] = counter;
        low[root] = counter;
        counter += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut edge)) = work.last_mut() {
            if let Some(&w) = deps[v].get(*edge) {
                *edge += 1;
                if index[w] == UNSEEN {
                    index[w] = counter;
                    low[w] = counter;
                    counter += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut comp = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    comp.push(w);
                    if w == v {
                        break;
                    }
                }
                comp.sort_unstable();
                out.push(comp);
            }
        }
    }
    out
}

/// A shortest dependency path `from -> ... -> to` inside one component.
fn path(deps: &[Vec<usize>], comp_of: &[usize], from: usize, to: usize) -> Vec<usize> {
    let mut prev = vec![usize::MAX; deps.len()];
    let mut queue = VecDeque::from([from]);
    prev[from] = from;
    while let Some(v) = queue.pop_front() {
        if v == to {
            break;
        }
        for &w in &deps[v] {
            if prev[w] == usize::MAX && comp_of[w] == comp_of[from] {
                prev[w] = v;
                queue.push_back(w);
            }
        }
    }
    let mut out = vec![to];
    let mut at = to;
    while at != from && prev[at] != usize::MAX {
        at = prev[at];
        out.push(at);
    }
    out.reverse();
    out
}

/// Fills [`Program::strata`], or reports each negation or aggregate
/// through recursion.
pub fn stratify(p: &mut Program) -> Vec<Diagnostic> {
    let n = p.relations.len();
    let mut deps = vec![Vec::new(); n];
    for rule in &p.rules {
        for lit in &rule.body {
            if let Some((rel, _)) = lit.kind.reads() {
                deps[rule.head].push(rel);
            }
        }
    }
    for d in &mut deps {
        d.sort_unstable();
        d.dedup();
    }
    let comps = components(n, &deps);
    let mut comp_of = vec![0; n];
    for (c, comp) in comps.iter().enumerate() {
        for &r in comp {
            comp_of[r] = c;
        }
    }
    let mut diags = Vec::new();
    for rule in &p.rules {
        for lit in &rule.body {
            if let Some((rel, false)) = lit.kind.reads() {
                if comp_of[rel] == comp_of[rule.head] {
                    let mut cycle = vec![rule.head];
                    cycle.extend(path(&deps, &comp_of, rel, rule.head));
                    let names: Vec<&str> = cycle
                        .iter()
                        .filter(|r| !p.relations[**r].aggregate_body)
                        .map(|r| p.relations[*r].name.as_str())
                        .collect();
                    let what = match lit.kind {
                        LitKind::Not { .. } => "negation",
                        _ => "aggregate",
                    };
                    diags.push(Diagnostic::new(
                        lit.pos,
                        format!(
                            "{what} through recursion (not stratifiable): {}",
                            names.join(" -> ")
                        ),
                    ));
                }
            }
        }
    }
    let mut rules_of = vec![Vec::new(); comps.len()];
    for (i, rule) in p.rules.iter().enumerate() {
        rules_of[comp_of[rule.head]].push(i);
    }
    p.strata = comps
        .into_iter()
        .zip(rules_of)
        .map(|(relations, rules)| {
            let recursive = rules.iter().any(|&i| {
                p.rules[i].body.iter().any(|l| {
                    matches!(l.kind.reads(), Some((r, true)) if comp_of[r] == comp_of[p.rules[i].head])
                })
            });
            Stratum {
                relations,
                rules,
                recursive,
            }
        })
        .collect();
    diags
}

#[cfg(test)]
mod tests {
    use super::components;

    #[test]
    fn components_come_dependencies_first() {
        // 0 -> 1 -> 2 -> 1, 3 alone
        let deps = vec![vec![1], vec![2], vec![1], vec![]];
        assert_eq!(components(4, &deps), vec![vec![1, 2], vec![0], vec![3]]);
    }
}
