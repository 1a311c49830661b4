//! The explicit graph of a game that may loop: every position reachable from the start
//! positions, numbered in the order they are met (breadth first), with their options as
//! compressed rows of numbers and the reverse edges the labelling walks back along. Memory is
//! counted as the graph grows and refused past the budget.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hash};

use crate::solver::control::{Control, SolveError};

/// Edges as compressed rows: the options of vertex `v` are `targets[offsets[v]..offsets[v + 1]]`.
#[derive(Debug, Clone, Default)]
pub struct Graph {
    /// Where each vertex's options start in `targets` (one more entry than vertices).
    pub offsets: Vec<usize>,
    /// The options of every vertex, one after another.
    pub targets: Vec<u32>,
}

impl Graph {
    /// The number of vertices.
    pub fn len(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    /// Whether the graph has no vertex.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The options of vertex `v`.
    #[inline]
    pub fn options(&self, v: usize) -> &[u32] {
        &self.targets[self.offsets[v]..self.offsets[v + 1]]
    }

    /// The graph with every edge turned round (the predecessors of each vertex).
    pub fn reversed(&self) -> Graph {
        let n = self.len();
        let mut count = vec![0usize; n + 1];
        for &t in &self.targets {
            count[t as usize + 1] += 1;
        }
        for i in 0..n {
            count[i + 1] += count[i];
        }
        let mut fill = count.clone();
        let mut targets = vec![0u32; self.targets.len()];
        for v in 0..n {
            for &t in self.options(v) {
                targets[fill[t as usize]] = v as u32;
                fill[t as usize] += 1;
            }
        }
        Graph {
            offsets: count,
            targets,
        }
    }

    /// Memory held by the edges and offsets.
    pub fn bytes(&self) -> u64 {
        (self.offsets.len() * 8 + self.targets.len() * 4) as u64
    }
}

/// The most vertices a graph numbers (its edges are `u32`).
pub const MAX_VERTICES: usize = u32::MAX as usize - 1;

/// What exploring a game costs per vertex besides its key: the index entry, its offsets, its
/// label and the labelling's counters, and the reverse graph.
const VERTEX_BYTES: u64 = 64;
/// Per edge: forward and reverse.
const EDGE_BYTES: u64 = 8;

/// The positions reachable from `starts` by `options` (which appends the options of a
/// position, or says why it cannot), numbered breadth first (the index of each), and the graph
/// of their moves.
/// `key_bytes` is the memory of one key; the whole is refused past the budget of `control`
/// with `what` named.
pub fn explore<K: Clone + Eq + Hash, S: BuildHasher + Default>(
    starts: impl IntoIterator<Item = K>,
    mut options: impl FnMut(&K, &mut Vec<K>) -> Result<(), SolveError>,
    key_bytes: impl Fn(&K) -> u64,
    what: &dyn Fn() -> String,
    control: &Control,
) -> Result<(HashMap<K, u32, S>, Graph), SolveError> {
    let mut index: HashMap<K, u32, S> = HashMap::default();
    let mut keys: Vec<K> = Vec::new();
    let mut bytes = 0u64;
    let budget = control.memory_budget();
    let add = |k: K, index: &mut HashMap<K, u32, S>, keys: &mut Vec<K>, bytes: &mut u64| -> Result<u32, SolveError> {
        if let Some(&i) = index.get(&k) {
            return Ok(i);
        }
        if keys.len() >= MAX_VERTICES {
            return Err(SolveError::Unsupported(format!(
                "{} reaches more than 2^32 positions",
                what()
            )));
        }
        // the key is held twice: in the index and in the list of positions
        *bytes += 2 * key_bytes(&k) + VERTEX_BYTES;
        let i = keys.len() as u32;
        index.insert(k.clone(), i);
        keys.push(k);
        Ok(i)
    };
    for s in starts {
        add(s, &mut index, &mut keys, &mut bytes)?;
    }
    let mut graph = Graph {
        offsets: vec![0],
        targets: Vec::new(),
    };
    let mut opts = Vec::new();
    let mut v = 0;
    while v < keys.len() {
        if v % 1024 == 0 {
            control.check()?;
            control.add_done(1024.min(keys.len() as u64));
        }
        opts.clear();
        let key = keys[v].clone();
        options(&key, &mut opts)?;
        for o in opts.drain(..) {
            let i = add(o, &mut index, &mut keys, &mut bytes)?;
            graph.targets.push(i);
        }
        graph.offsets.push(graph.targets.len());
        let needed = bytes + graph.targets.len() as u64 * EDGE_BYTES;
        if needed > budget {
            return Err(SolveError::OverBudget {
                what: format!(
                    "{} (the positions it reaches, {} so far, each held with its moves)",
                    what(),
                    keys.len()
                ),
                needed,
                budget,
            });
        }
        v += 1;
    }
    drop(keys);
    Ok((index, graph))
}
