//! Grundy values (nimbers), the mex rule and outcomes.

use std::fmt;

/// Outcome class of a position: `P` (the previous player wins; value 0), `N` (the next player
/// wins) or, in a game that loops, `D` (a draw: neither player can force a win; see
/// [`super::loopy`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Outcome {
    /// A P-position: the player to move loses (Grundy value 0).
    P,
    /// An N-position: the player to move wins.
    N,
    /// A draw: in a game that loops, neither player can force a win.
    D,
}

impl Outcome {
    /// The outcome of a position with Grundy value `g` (normal play, or the misère Grundy value
    /// of a misère game; both are 0 exactly on P-positions).
    pub fn of(g: u32) -> Self {
        if g == 0 { Outcome::P } else { Outcome::N }
    }
}

impl Outcome {
    /// `"P"`, `"N"` or `"D"`, as printed and as written in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::P => "P",
            Outcome::N => "N",
            Outcome::D => "D",
        }
    }

    /// Who wins, in words: "the previous player wins", "the next player wins", "a draw".
    pub fn words(self) -> &'static str {
        match self {
            Outcome::P => "the previous player wins",
            Outcome::N => "the next player wins",
            Outcome::D => "a draw: neither player can force a win",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The minimum excluded value of `values`: the least non-negative integer not among them.
///
/// Runs in O(len) with a small scratch bitmap; values ≥ len cannot be the mex and are skipped.
pub fn mex(values: impl IntoIterator<Item = u32>) -> u32 {
    let values: Vec<u32> = values.into_iter().collect();
    let limit = values.len() as u32 + 1;
    let mut seen = vec![0u64; (limit as usize).div_ceil(64)];
    for v in values.into_iter().filter(|&v| v < limit) {
        seen[(v / 64) as usize] |= 1 << (v % 64);
    }
    first_zero_bit(&seen)
}

/// Index of the first zero bit of a bitmap (bits past its end count as zero).
pub fn first_zero_bit(words: &[u64]) -> u32 {
    for (i, w) in words.iter().enumerate() {
        if *w != u64::MAX {
            return i as u32 * 64 + w.trailing_ones();
        }
    }
    words.len() as u32 * 64
}

/// A small reusable mex accumulator for hot loops: insert values, read the mex, clear.
#[derive(Debug, Default, Clone)]
pub struct MexSet {
    words: Vec<u64>,
    touched: Vec<usize>,
}

impl MexSet {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `v`.
    #[inline]
    pub fn insert(&mut self, v: u32) {
        let w = (v / 64) as usize;
        if w >= self.words.len() {
            self.words.resize(w + 1, 0);
        }
        if self.words[w] == 0 {
            self.touched.push(w);
        }
        self.words[w] |= 1 << (v % 64);
    }

    /// Whether `v` was inserted since the last clear.
    #[inline]
    pub fn contains(&self, v: u32) -> bool {
        let w = (v / 64) as usize;
        w < self.words.len() && self.words[w] & (1 << (v % 64)) != 0
    }

    /// The least value not inserted since the last clear.
    #[inline]
    pub fn mex(&self) -> u32 {
        first_zero_bit(&self.words)
    }

    /// Forgets all values in time proportional to the words used.
    #[inline]
    pub fn clear(&mut self) {
        for &w in &self.touched {
            self.words[w] = 0;
        }
        self.touched.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mex_examples() {
        assert_eq!(mex([]), 0);
        assert_eq!(mex([1, 2]), 0);
        assert_eq!(mex([0, 1, 3]), 2);
        assert_eq!(
            mex([
                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27,
                28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53,
                54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64
            ]),
            65
        );
        let mut s = MexSet::new();
        for v in [0, 1, 2, 100] {
            s.insert(v);
        }
        assert_eq!(s.mex(), 3);
        s.clear();
        assert_eq!(s.mex(), 0);
        assert!(!s.contains(100));
    }
}
