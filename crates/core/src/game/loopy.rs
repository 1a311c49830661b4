//! Values of games that loop (Smith's theory, Fraenkel's generalised Sprague–Grundy function
//! γ): a position of a finite game graph, cycles allowed, has a value `n` (a natural number:
//! the player to move wins, or loses when 0, as in Sprague–Grundy) or `∞(A)`, `A` the finite
//! values of its options. `∞(A)` with `0 ∈ A` is a win for the player to move (move to a
//! 0); without, neither player can force a win: a draw (`D`). Values add like nimbers:
//! `n + m = n ⊕ m`, `∞(A) + n = ∞(A ⊕ n)`, and two infinite components give `∞(∅)`.
//!
//! Maps and sequences hold a value in one `u32` cell ([`cells`]): finite values as they are,
//! an infinite one as a code that says whether its set holds 0 (so a colour table tells a
//! draw from a win without the set) and where its set is in the grid's table.

use std::fmt;

use super::nimber::Outcome;

/// The value of a position of a game that may loop.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Gamma {
    /// A natural number: the position behaves as a Nim heap of this size.
    Finite(u64),
    /// `∞(A)`: `A` the finite values of the options, sorted, without repeats.
    Infinite(Vec<u64>),
}

impl Gamma {
    /// The outcome: P for 0, N for another number or an `∞(A)` with 0 in `A`, else D.
    pub fn outcome(&self) -> Outcome {
        match self {
            Gamma::Finite(0) => Outcome::P,
            Gamma::Finite(_) => Outcome::N,
            Gamma::Infinite(a) if a.first() == Some(&0) => Outcome::N,
            Gamma::Infinite(_) => Outcome::D,
        }
    }

    /// The value of the sum of two positions, by Smith's rules.
    pub fn sum(&self, other: &Gamma) -> Gamma {
        match (self, other) {
            (Gamma::Finite(a), Gamma::Finite(b)) => Gamma::Finite(a ^ b),
            (Gamma::Infinite(a), Gamma::Finite(n)) | (Gamma::Finite(n), Gamma::Infinite(a)) => {
                let mut shifted: Vec<u64> = a.iter().map(|x| x ^ n).collect();
                shifted.sort_unstable();
                Gamma::Infinite(shifted)
            }
            (Gamma::Infinite(_), Gamma::Infinite(_)) => Gamma::Infinite(Vec::new()),
        }
    }

    /// `∞(A)` from the finite values of the options (any order, repeats allowed).
    pub fn infinite(mut values: Vec<u64>) -> Gamma {
        values.sort_unstable();
        values.dedup();
        Gamma::Infinite(values)
    }

    /// The finite value n, or `None` for ∞(A).
    pub fn finite(&self) -> Option<u64> {
        match self {
            Gamma::Finite(v) => Some(*v),
            Gamma::Infinite(_) => None,
        }
    }
}

impl fmt::Display for Gamma {
    /// `3`, `∞(0,2)`, `∞` (for `∞(∅)`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Gamma::Finite(v) => write!(f, "{v}"),
            Gamma::Infinite(a) if a.is_empty() => f.write_str("∞"),
            Gamma::Infinite(a) => {
                let list: Vec<String> = a.iter().map(u64::to_string).collect();
                write!(f, "∞({})", list.join(","))
            }
        }
    }
}

/// Values of loopy games in the `u32` cells of maps and sequences, beside the markers those
/// use (`u32::MAX` down to `u32::MAX − 2`).
pub mod cells {
    /// Cells from here up to [`INFINITE_END`] hold an infinite value: `INFINITE + 2·i + z`, `i`
    /// the index of its set in the table kept beside the cells, `z` 1 when 0 is in the set.
    pub const INFINITE: u32 = 0xE000_0000;
    /// One past the last infinite code (2^27 sets at most).
    pub const INFINITE_END: u32 = 0xF000_0000;
    /// The most distinct sets a table holds.
    pub const MAX_SETS: usize = ((INFINITE_END - INFINITE) / 2) as usize;

    /// Whether cell value `v` is an infinite value.
    #[inline]
    pub fn is_infinite(v: u32) -> bool {
        (INFINITE..INFINITE_END).contains(&v)
    }

    /// Whether an infinite cell is a draw (0 is not among its options' values).
    #[inline]
    pub fn is_draw(v: u32) -> bool {
        is_infinite(v) && (v - INFINITE) & 1 == 0
    }

    /// The code of the set number `index` (`zero`: 0 is in it).
    pub fn encode(index: usize, zero: bool) -> u32 {
        INFINITE + 2 * index as u32 + u32::from(zero)
    }

    /// The index of an infinite cell's set in its table.
    pub fn index(v: u32) -> usize {
        ((v - INFINITE) / 2) as usize
    }
}

/// The sets of the infinite values of a map or a sequence, each once, numbered as the cells'
/// codes number them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InfiniteSets {
    sets: Vec<Vec<u64>>,
    index: std::collections::HashMap<Vec<u64>, usize>,
}

impl InfiniteSets {
    /// The cell code of `g` (its set added when new); `None` past [`cells::MAX_SETS`] sets or
    /// for a finite value past the cells' range.
    pub fn code(&mut self, g: &Gamma) -> Option<u32> {
        match g {
            Gamma::Finite(v) => u32::try_from(*v).ok().filter(|&v| v < cells::INFINITE),
            Gamma::Infinite(a) => {
                let i = match self.index.get(a) {
                    Some(&i) => i,
                    None => {
                        let next = self.sets.len();
                        if next >= cells::MAX_SETS {
                            return None;
                        }
                        self.index.insert(a.clone(), next);
                        self.sets.push(a.clone());
                        next
                    }
                };
                Some(cells::encode(i, a.first() == Some(&0)))
            }
        }
    }

    /// The value a cell holds.
    pub fn value(&self, v: u32) -> Gamma {
        if cells::is_infinite(v)
            && let Some(a) = self.sets.get(cells::index(v))
        {
            return Gamma::Infinite(a.clone());
        }
        Gamma::Finite(u64::from(v))
    }

    /// Memory held, roughly.
    pub fn bytes(&self) -> u64 {
        self.sets.iter().map(|s| 64 + 16 * s.len() as u64).sum()
    }

    /// Whether no cell holds an infinite value.
    pub fn is_empty(&self) -> bool {
        self.sets.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_sums_and_text() {
        let d = Gamma::infinite(vec![2, 1, 2]);
        let n = Gamma::infinite(vec![0, 3]);
        assert_eq!((d.outcome(), n.outcome()), (Outcome::D, Outcome::N));
        assert_eq!(d.to_string(), "∞(1,2)");
        assert_eq!(Gamma::Infinite(vec![]).to_string(), "∞");
        // ∞(1,2) + *3 = ∞(2,1 ⊕ 3) = ∞(1,2)… shifted: {1⊕3, 2⊕3} = {2, 1}
        assert_eq!(d.sum(&Gamma::Finite(3)), Gamma::infinite(vec![1, 2]));
        assert_eq!(d.sum(&Gamma::Finite(1)), Gamma::infinite(vec![0, 3]));
        assert_eq!(d.sum(&n), Gamma::Infinite(vec![]));
        assert_eq!(Gamma::Finite(5).sum(&Gamma::Finite(3)), Gamma::Finite(6));
        let mut t = InfiniteSets::default();
        let (a, b) = (t.code(&d).unwrap(), t.code(&n).unwrap());
        assert!(cells::is_draw(a) && !cells::is_draw(b) && cells::is_infinite(b));
        assert_eq!(t.value(a), d);
        assert_eq!(t.code(&d), Some(a));
        assert_eq!(t.code(&Gamma::Finite(7)), Some(7));
    }
}
