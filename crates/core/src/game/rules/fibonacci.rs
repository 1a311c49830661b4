//! Fibonacci Nim (seed 004): a pile of `n` chips and a quota `q`, the most that may be taken
//! now. Taking `k` (1 ≤ k ≤ min(q, n)) leads to `(n − k, 2k)`. A fresh pile is `(n, n − 1)`:
//! the first move may not take everything.

/// Appends the options of `(n, q)`; the quota of an option is capped at its pile (a quota
/// above the pile allows nothing more), so equal games get equal positions.
pub fn options(n: u64, q: u64, out: &mut Vec<(u64, u64)>) {
    for k in 1..=q.min(n) {
        out.push((n - k, (2 * k).min(n - k)));
    }
}

/// The canonical form of `(n, q)`: quota capped at the pile.
pub fn canonical(n: u64, q: u64) -> (u64, u64) {
    (n, q.min(n))
}
