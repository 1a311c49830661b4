//! A growable bitset over small non-negative integers (Grundy values and their extensions), with
//! the mex read off its words.

/// Bits indexed by `u32`, growing on insertion; absent bits read as 0.
#[derive(Debug, Clone, Default)]
pub struct Bits {
    words: Vec<u64>,
}

impl Bits {
    /// Whether `v` is set.
    #[inline]
    pub fn contains(&self, v: u32) -> bool {
        self.words
            .get((v >> 6) as usize)
            .is_some_and(|w| w & (1 << (v & 63)) != 0)
    }

    /// Sets `v`, growing the words as needed.
    #[inline]
    pub fn insert(&mut self, v: u32) {
        let i = (v >> 6) as usize;
        if i >= self.words.len() {
            self.words.resize(i + 1, 0);
        }
        self.words[i] |= 1 << (v & 63);
    }

    /// Makes room for values below `2^bits` so that [`Bits::insert_fast`] needs no check.
    pub fn reserve_values(&mut self, bits: u32) {
        let words = (1usize << bits).div_ceil(64);
        if self.words.len() < words {
            self.words.resize(words, 0);
        }
    }

    /// Inserts a value known to be below the reserved range.
    #[inline(always)]
    pub fn insert_fast(&mut self, v: u32) {
        self.words[(v >> 6) as usize] |= 1 << (v & 63);
    }

    /// The least value not in the set.
    #[inline]
    pub fn mex(&self) -> u32 {
        crate::game::first_zero_bit(&self.words)
    }

    /// Empties the set, keeping its room.
    #[inline]
    pub fn clear(&mut self) {
        self.words.fill(0);
    }

    /// The values in the set, ascending.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let b = w.trailing_zeros();
                    w &= w - 1;
                    i as u32 * 64 + b
                })
            })
        })
    }

    /// The words, for word-parallel unions.
    pub fn words(&self) -> &[u64] {
        &self.words
    }
}

/// The number of bits of the largest value in `v` (values below `2^bits`).
pub fn value_bits(max: u32) -> u32 {
    32 - max.leading_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_mex_iterate() {
        let mut b = Bits::default();
        for v in [0, 1, 2, 4, 70, 129] {
            b.insert(v);
        }
        assert_eq!(b.mex(), 3);
        assert_eq!(b.iter().collect::<Vec<_>>(), [0, 1, 2, 4, 70, 129]);
        assert!(b.contains(70) && !b.contains(71) && !b.contains(100_000));
        b.clear();
        assert_eq!(b.mex(), 0);
        assert_eq!(value_bits(0), 0);
        assert_eq!(value_bits(5), 3);
    }
}
