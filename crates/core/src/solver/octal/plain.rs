//! The plain method: G(n) is the mex over every option of a heap of n, each computed from the
//! values before it. Two-heap splits cost O(n) a heap; three-heap splits (hexadecimal digits 8
//! to f) use the set of two-heap split values of every smaller total, kept as a bitset, so they
//! cost O(n · values) a heap. The reference the rare/common method is tested against, and the
//! method for games whose moves may leave three heaps.

use super::bits::{Bits, value_bits};
use crate::game::rules::one_heap::OctalCode;

/// G(0), G(1), … of one octal or hexadecimal code under normal play, one value per call.
pub struct Plain {
    digits: Vec<u8>,
    values: Vec<u32>,
    max: u32,
    seen: Bits,
    /// `pairs[s]`: the values G(a) ⊕ G(s − a), 1 ≤ a < s (only kept for three-heap codes).
    pairs: Vec<Bits>,
    three: bool,
}

impl Plain {
    /// A computation of `code`'s values, none computed yet.
    pub fn new(code: &OctalCode) -> Self {
        Self {
            digits: code.digits().to_vec(),
            values: Vec::new(),
            max: 0,
            seen: Bits::default(),
            pairs: Vec::new(),
            three: code.splits_in_three(),
        }
    }

    /// The values computed so far.
    pub fn values(&self) -> &[u32] {
        &self.values
    }

    /// Takes the computed values.
    pub fn into_values(self) -> Vec<u32> {
        self.values
    }

    /// Computes the next value, G(len).
    pub fn next_value(&mut self) -> u32 {
        let n = self.values.len() as u64;
        let g = &self.values;
        self.seen.clear();
        self.seen.reserve_values(value_bits(self.max));
        for (t, &d) in self.digits.iter().enumerate() {
            let k = t as u64 + 1;
            if k > n {
                break;
            }
            let rest = (n - k) as usize;
            if d & 1 != 0 && rest == 0 {
                self.seen.insert_fast(0);
            }
            if d & 2 != 0 && rest >= 1 {
                self.seen.insert_fast(g[rest]);
            }
            if d & 4 != 0 {
                for a in 1..=rest / 2 {
                    self.seen.insert_fast(g[a] ^ g[rest - a]);
                }
            }
            if d & 8 != 0 && rest >= 3 {
                // the smallest part a, then any split of the rest in two
                for (a, &ga) in g.iter().enumerate().take(rest - 1).skip(1) {
                    for v in self.pairs[rest - a].iter() {
                        self.seen.insert_fast(ga ^ v);
                    }
                }
            }
        }
        let v = self.seen.mex();
        self.values.push(v);
        self.max = self.max.max(v);
        if self.three {
            let s = self.values.len() - 1;
            let mut p = Bits::default();
            for a in 1..s {
                p.insert(self.values[a] ^ self.values[s - a]);
            }
            self.pairs.push(p);
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(code: &str, n: usize) -> Vec<u32> {
        let mut p = Plain::new(&code.parse().unwrap());
        (0..n).for_each(|_| {
            p.next_value();
        });
        p.into_values()
    }

    #[test]
    fn published_values() {
        // Dawson's Kayles and Kayles (Winning Ways)
        assert_eq!(plain("0.07", 12), [0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3]);
        assert_eq!(plain("0.77", 12), [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);
    }

    #[test]
    fn three_heap_moves_agree_with_enumeration() {
        // 0.f: take one token, leaving zero, one, two or three heaps; and 0.48: take one
        // leaving two heaps, or two leaving three. Compared with the mex over every option.
        for code in ["0.f", "0.48", "0.0c", "0.9"] {
            let c: OctalCode = code.parse().unwrap();
            let got = plain(code, 40);
            let mut g: Vec<u32> = Vec::new();
            for n in 0..40u64 {
                let mut opts = Vec::new();
                c.options(n, &mut opts);
                let vals: Vec<u32> = opts
                    .iter()
                    .map(|o| match *o {
                        crate::game::rules::one_heap::OctalOption::Gone => 0,
                        crate::game::rules::one_heap::OctalOption::One(x) => g[x as usize],
                        crate::game::rules::one_heap::OctalOption::Two(x, y) => g[x as usize] ^ g[y as usize],
                        crate::game::rules::one_heap::OctalOption::Three(x, y, z) => {
                            g[x as usize] ^ g[y as usize] ^ g[z as usize]
                        }
                    })
                    .collect();
                g.push(crate::game::mex(vals));
            }
            assert_eq!(got, g, "{code}");
        }
    }
}
