//! Cram and Push Cram solvers against independent brute force, published values and the
//! parser's error messages.
//!
//! The brute force knows nothing of the solvers' tricks: it walks cells with loops (no bit
//! shifts by strides), takes the mex over all options of the whole board (no decomposition,
//! no symmetry) and memoises in a plain `HashMap` keyed by the raw mask.

use nimscope_core::game::rules::cram_board::{Board, BoardError, Domino, Orientation};
use nimscope_core::solver::control::{Control, SolveError};
use nimscope_core::solver::cram::push::{PushCramSolver, PushMove, post_push_value};
use nimscope_core::solver::cram::{CramSolver, Outcome};
use std::collections::HashMap;

// ---------------------------------------------------------------------------------------------
// Brute force.

fn cell(cols: usize, r: usize, c: usize) -> u128 {
    1u128 << (r * cols + c)
}

/// All dominoes of a `rows × cols` grid as pairs of cell masks; horizontal only, vertical only
/// or both.
fn all_dominoes(rows: usize, cols: usize, horizontal: bool, vertical: bool) -> Vec<u128> {
    let mut out = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            if horizontal && c + 1 < cols {
                out.push(cell(cols, r, c) | cell(cols, r, c + 1));
            }
            if vertical && r + 1 < rows {
                out.push(cell(cols, r, c) | cell(cols, r + 1, c));
            }
        }
    }
    out
}

fn mex(values: impl IntoIterator<Item = u32>) -> u32 {
    let mut seen = vec![false; 300];
    for v in values {
        if (v as usize) < seen.len() {
            seen[v as usize] = true;
        }
    }
    seen.iter().position(|&s| !s).unwrap() as u32
}

struct BruteCram {
    dominoes: Vec<u128>,
    memo: HashMap<u128, u32>,
}

impl BruteCram {
    fn new(rows: usize, cols: usize) -> Self {
        BruteCram {
            dominoes: all_dominoes(rows, cols, true, true),
            memo: HashMap::new(),
        }
    }

    fn value(&mut self, empty: u128) -> u32 {
        if let Some(&v) = self.memo.get(&empty) {
            return v;
        }
        let options: Vec<u128> = self
            .dominoes
            .iter()
            .filter(|&&d| empty & d == d)
            .map(|&d| empty & !d)
            .collect();
        let v = mex(options.into_iter().map(|o| self.value(o)).collect::<Vec<_>>());
        self.memo.insert(empty, v);
        v
    }
}

/// 0.07 by its definition: a strip of n loses two adjacent cells, leaving strips a and b.
fn brute_007(n: usize) -> u32 {
    let mut g = vec![0u32; n + 1];
    for m in 2..=n {
        g[m] = mex((0..=m - 2).map(|a| g[a] ^ g[m - 2 - a]));
    }
    g[n]
}

struct BrutePush {
    rows: usize,
    cols: usize,
    dominoes: Vec<u128>,
    g007: Vec<u32>,
    memo: HashMap<u128, u32>,
}

impl BrutePush {
    fn new(rows: usize, cols: usize) -> Self {
        BrutePush {
            rows,
            cols,
            dominoes: all_dominoes(rows, cols, false, true),
            g007: (0..=cols).map(brute_007).collect(),
            memo: HashMap::new(),
        }
    }

    fn post(&self, empty: u128) -> u32 {
        let mut v = 0;
        for r in 0..self.rows {
            let mut run = 0;
            for c in 0..=self.cols {
                if c < self.cols && empty & cell(self.cols, r, c) != 0 {
                    run += 1;
                } else {
                    v ^= self.g007[run];
                    run = 0;
                }
            }
        }
        v
    }

    fn value(&mut self, empty: u128) -> u32 {
        if let Some(&v) = self.memo.get(&empty) {
            return v;
        }
        let options: Vec<u128> = self
            .dominoes
            .iter()
            .filter(|&&d| empty & d == d)
            .map(|&d| empty & !d)
            .collect();
        let mut values: Vec<u32> = options.into_iter().map(|o| self.value(o)).collect();
        values.push(self.post(empty));
        let v = mex(values);
        self.memo.insert(empty, v);
        v
    }
}

/// Fixed-seed xorshift, so failures reproduce (the loopy graphs' tests use it too).
pub(crate) struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

mod boards;
mod cram;
mod push;
