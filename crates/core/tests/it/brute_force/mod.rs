//! Small, independent mex solvers for each game of docs/games.md (written apart from the crate's
//! rules and solvers), compared with the closed forms of `theory.rs` and with the solver itself
//! on ranges.
//!
//! Where a seed statement is false under computation, the test asserts the
//! computed truth (the specific counterexample) and says so in a comment.

// The only line to change when this file moves into nimscope:
use nimscope_core::game::theory as th;

use std::collections::{HashMap, HashSet};

// ---------------------------------------------------------------------------
// Generic helpers
// ---------------------------------------------------------------------------

fn mex<I: IntoIterator<Item = u64>>(it: I) -> u64 {
    let s: HashSet<u64> = it.into_iter().collect();
    let mut m = 0;
    while s.contains(&m) {
        m += 1;
    }
    m
}

/// Grundy table over [0,n)², for a 2-heap ruleset whose moves strictly
/// decrease a + b (true for every game here).
fn table2(n: usize, moves: &dyn Fn(u64, u64) -> Vec<(u64, u64)>) -> Vec<Vec<u64>> {
    let mut g = vec![vec![u64::MAX; n]; n];
    for s in 0..(2 * n - 1) {
        for a in 0..n {
            if s < a || s - a >= n {
                continue;
            }
            let b = s - a;
            let v = mex(moves(a as u64, b as u64).into_iter().map(|(x, y)| {
                let r = g[x as usize][y as usize];
                assert!(r != u64::MAX, "move does not decrease the sum");
                r
            }));
            g[a][b] = v;
        }
    }
    g
}

/// Values of push(R1, R2) at positions (1, g), given R1's moves and R2's table.
fn push_table2(n: usize, r1: &dyn Fn(u64, u64) -> Vec<(u64, u64)>, g2: &[Vec<u64>]) -> Vec<Vec<u64>> {
    let mut g = vec![vec![u64::MAX; n]; n];
    for s in 0..(2 * n - 1) {
        for a in 0..n {
            if s < a || s - a >= n {
                continue;
            }
            let b = s - a;
            let mut opts: Vec<u64> = r1(a as u64, b as u64)
                .into_iter()
                .map(|(x, y)| g[x as usize][y as usize])
                .collect();
            opts.push(g2[a][b]); // pushing the button
            g[a][b] = mex(opts);
        }
    }
    g
}

// ---------------------------------------------------------------------------
// Two-heap rulesets (docs/games.md)
// ---------------------------------------------------------------------------

/// Subtract positive multiples of the smaller from the larger, result ≥ `min_result`.
fn euclid_like(a: u64, b: u64, min_result: u64) -> Vec<(u64, u64)> {
    let mut v = Vec::new();
    if a == 0 || b == 0 {
        return v;
    }
    let (lo, hi, swapped) = if a <= b { (a, b, false) } else { (b, a, true) };
    let mut k = 1;
    while hi >= k * lo && hi - k * lo >= min_result {
        let r = hi - k * lo;
        v.push(if swapped { (r, lo) } else { (lo, r) });
        // when a == b the "larger" can be either; both give the same pair up to order
        k += 1;
    }
    if a == b {
        // symmetric: reducing either entry
        let extra: Vec<_> = v.iter().map(|&(x, y)| (y, x)).collect();
        v.extend(extra);
    }
    v
}

fn euclid_moves(a: u64, b: u64) -> Vec<(u64, u64)> {
    euclid_like(a, b, 0)
}
fn grossman_moves(a: u64, b: u64) -> Vec<(u64, u64)> {
    euclid_like(a, b, 1)
}
fn m_euclid_moves(a: u64, b: u64) -> Vec<(u64, u64)> {
    if a == 0 || b == 0 || a.is_multiple_of(b) || b.is_multiple_of(a) {
        return vec![];
    }
    euclid_like(a, b, 1)
}
fn euclid0_moves(a: u64, b: u64) -> Vec<(u64, u64)> {
    if a == 0 && b == 0 {
        vec![]
    } else if a == 0 || b == 0 {
        vec![(0, 0)]
    } else {
        euclid_like(a, b, 1)
    }
}
fn nim_moves(a: u64, b: u64) -> Vec<(u64, u64)> {
    let mut v: Vec<_> = (0..a).map(|x| (x, b)).collect();
    v.extend((0..b).map(|y| (a, y)));
    v
}
fn wythoff_moves(a: u64, b: u64) -> Vec<(u64, u64)> {
    let mut v = nim_moves(a, b);
    v.extend((1..=a.min(b)).map(|k| (a - k, b - k)));
    v
}

mod seed_000_002;
mod seed_001;
mod seed_003;
mod seed_004;
mod solver;
