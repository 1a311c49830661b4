//! Smith's labelling of a finite game graph, cycles allowed: the generalised Sprague–Grundy
//! value γ of every vertex (Smith 1966; Fraenkel and Yesha, "The generalized Sprague–Grundy
//! function and its invariance under certain mappings", 1986), by retrograde analysis, one
//! stage per finite value.
//!
//! Stage `m` works on the vertices not yet labelled (U) and those already found infinite (I).
//! A vertex of U is labelled `m` when none of its options is labelled `m` and every option in
//! U or I has an option labelled `m` (so a move that would leave value `m` behind is answered
//! by a move back to `m`, reached earlier in the stage: the counter that makes the play end).
//! As in the retrograde labelling of won and lost positions, each vertex keeps a count of its
//! options in U ∪ I without an option labelled `m`: a vertex labelled `m` marks its
//! predecessors, a marked vertex takes one off its predecessors' counts, and a count that
//! reaches 0 labels its vertex `m`. When nothing more can be labelled `m`, the vertices of U
//! without an option labelled `m` are infinite (their mex can never be `m`); the rest go on to
//! stage `m + 1`, each with an option of every value up to `m`. The work of a stage is the
//! edges of the vertices it still holds.

use super::graph::Graph;
use crate::solver::control::{Control, SolveError};

/// The label of a vertex whose value is infinite.
pub const INFINITE: u32 = u32::MAX;
/// A vertex not labelled yet.
const OPEN: u32 = u32::MAX - 1;
/// No stage marked the vertex.
const UNMARKED: u32 = u32::MAX;

/// γ of every vertex of `g` (`rev` its reverse): a finite value, or [`INFINITE`].
pub fn label(g: &Graph, rev: &Graph, control: &Control) -> Result<Vec<u32>, SolveError> {
    let n = g.len();
    let mut label = vec![OPEN; n];
    let mut mark = vec![UNMARKED; n];
    let mut count = vec![0u32; n];
    let mut open: Vec<u32> = (0..n as u32).collect();
    let mut queue: Vec<u32> = Vec::new();
    let mut m = 0u32;
    while !open.is_empty() {
        control.check()?;
        for &u in &open {
            let c = g
                .options(u as usize)
                .iter()
                .filter(|&&w| matches!(label[w as usize], OPEN | INFINITE))
                .count() as u32;
            count[u as usize] = c;
            if c == 0 {
                queue.push(u);
            }
        }
        let mut steps = 0u64;
        while let Some(u) = queue.pop() {
            let u = u as usize;
            if label[u] != OPEN || mark[u] == m {
                continue;
            }
            label[u] = m;
            for &p in rev.options(u) {
                let p = p as usize;
                if mark[p] == m || !matches!(label[p], OPEN | INFINITE) {
                    continue;
                }
                // p has an option labelled m: its predecessors lose an option to count
                mark[p] = m;
                for &q in rev.options(p) {
                    let q = q as usize;
                    if label[q] == OPEN && mark[q] != m {
                        count[q] -= 1;
                        if count[q] == 0 {
                            queue.push(q as u32);
                        }
                    }
                }
                steps += 1;
                if steps.is_multiple_of(1 << 16) {
                    control.check()?;
                }
            }
        }
        open.retain(|&u| {
            let u = u as usize;
            if label[u] != OPEN {
                false
            } else if mark[u] == m {
                true
            } else {
                label[u] = INFINITE;
                false
            }
        });
        m += 1;
    }
    control.add_done(n as u64);
    Ok(label)
}

/// The finite values of the options of vertex `v` (the `A` of `∞(A)`), sorted, each once.
pub fn option_values(g: &Graph, labels: &[u32], v: usize) -> Vec<u64> {
    let mut a: Vec<u64> = g
        .options(v)
        .iter()
        .map(|&w| labels[w as usize])
        .filter(|&l| l != INFINITE)
        .map(u64::from)
        .collect();
    a.sort_unstable();
    a.dedup();
    a
}
