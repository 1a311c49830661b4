//! The statistics researchers compare for a take-and-break code's values G(0..N), from the
//! values alone: the largest value and its first heap, the rare/common split by the published
//! convention, and the SHA-256 of the values file.
//!
//! The rare/common split is the one Flammenkamp's tables and Czajka's octal-games solver
//! publish: a *rare mask* `m` over the values' bits, with a *position* bit where every
//! splitting move takes tokens of one parity: heap `n` is rare when
//! `popcount(G(n) & m) + pos·((n + d) mod 2)` is even (`d` the parity of the tokens a split
//! takes), and `m` (with `pos`) is the choice that makes the fewest heaps rare, found by the
//! Walsh–Hadamard transform of the counts of (value, parity) (ties: the smallest mask). That
//! convention counts heap 0 (G(0) = 0 is rare under every mask without the position bit);
//! these statistics do not, since heap 0 is never a part of a split: 0.6 to 2^21 has 1,583
//! rare heaps here against the published 1,584. The engine's own split (`seq --json`'s
//! `rare_common`) is chosen greedily and need not be linear; it is not this one.

use super::values_file::{self, Values};
use crate::game::rules::one_heap::OctalCode;

/// The statistics of G(0..n).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Stats {
    /// The ruleset, as nimscope names it (`grundy`, `octal(0.6)`).
    pub ruleset: String,
    /// How many values: G(0..n).
    pub n: u64,
    /// The largest value, and the first heap that has it.
    pub largest: u32,
    /// The first heap whose value is `largest`.
    pub largest_first: u64,
    /// The rare mask, in hexadecimal as published (`1ee` for 0.6), and whether the heap's
    /// parity joins it (`pos`); `None` where the values are too wide to transform (past 2^24).
    pub rare_mask: Option<String>,
    /// Whether the heap's parity joins the mask (`pos`).
    pub rare_mask_position: bool,
    /// The rare heaps `n ≥ 1`, ascending.
    pub rare_heaps: Vec<u64>,
    /// How many rare heaps, heap 0 left out.
    pub rare_count: u64,
    /// The largest rare heap, if any.
    pub last_rare_heap: Option<u64>,
    /// SHA-256 of the values file (what `sha256sum` prints for `seq --values FILE`).
    pub sha256: String,
    /// Bytes a value takes in the values file.
    pub value_bytes: u8,
}

/// The parity of the tokens every splitting move takes (`Some(0)` or `Some(1)`), `None` when
/// splits take both (the position bit is then not used).
fn split_parity(code: &OctalCode) -> Option<u64> {
    let mut parities = code.moves().filter(|m| m.digit & 12 != 0).map(|m| m.take & 1);
    let first = parities.next()?;
    parities.all(|p| p == first).then_some(first)
}

/// Walsh–Hadamard transform in place (length a power of two).
fn hadamard(a: &mut [i64]) {
    let mut h = 1;
    while h < a.len() {
        for i in (0..a.len()).step_by(2 * h) {
            for j in i..i + h {
                let (x, y) = (a[j], a[j + h]);
                a[j] = x + y;
                a[j + h] = x - y;
            }
        }
        h *= 2;
    }
}

/// The published rare mask of the values: (extended mask `2m + pos`, its rare count over all
/// heaps from 0), or `None` past 2^24 values' width.
fn best_mask(values: &Values, parity: Option<u64>) -> Option<(u32, u64)> {
    let max = values.max();
    let bits = 32 - max.leading_zeros();
    if bits > 24 {
        return None;
    }
    let size = 1usize << (bits + 1);
    let mut counts = vec![0i64; size];
    let d = parity.unwrap_or(0);
    for i in 0..values.len() {
        let e = 2 * values.get(i) as usize + ((i + d) & 1) as usize;
        counts[e] += 1;
    }
    hadamard(&mut counts);
    let n = values.len() as i64;
    let (mut best, mut best_rare) = (0u32, n);
    for (m, &h) in counts.iter().enumerate().skip(1) {
        if parity.is_none() && m & 1 == 1 {
            continue;
        }
        let rare = (h + n) / 2;
        if rare < best_rare {
            (best, best_rare) = (m as u32, rare);
        }
    }
    Some((best, best_rare as u64))
}

/// The statistics of `values` = G(0..n), named `ruleset` in the values file; the rare/common
/// split for a take-and-break `code` that splits heaps.
pub fn stats(ruleset: &str, code: Option<&OctalCode>, values: &Values) -> Stats {
    let n = values.len();
    let (mut largest, mut largest_first) = (0u32, 0u64);
    for i in 0..n {
        let v = values.get(i);
        if v > largest {
            (largest, largest_first) = (v, i);
        }
    }
    let parity = code.and_then(split_parity);
    let mask = code.filter(|c| c.splits()).and_then(|_| best_mask(values, parity));
    let mut rare_heaps = Vec::new();
    if let Some((m, _)) = mask {
        let d = parity.unwrap_or(0);
        for i in 1..n {
            let e = 2 * values.get(i) + ((i + d) & 1) as u32;
            if (e & m).count_ones().is_multiple_of(2) {
                rare_heaps.push(i);
            }
        }
    }
    Stats {
        ruleset: ruleset.to_string(),
        n,
        largest,
        largest_first,
        rare_mask: mask.map(|(m, _)| format!("{:x}", m >> 1)),
        rare_mask_position: mask.is_some_and(|(m, _)| m & 1 == 1),
        rare_count: rare_heaps.len() as u64,
        last_rare_heap: rare_heaps.last().copied(),
        rare_heaps,
        sha256: values_file::checksum(ruleset, values),
        value_bytes: values_file::width_for(largest),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::octal::plain::Plain;

    fn values(code: &str, n: usize) -> Vec<u32> {
        let mut p = Plain::new(&code.parse().unwrap());
        (0..n).for_each(|_| {
            p.next_value();
        });
        p.into_values()
    }

    #[test]
    fn the_mask_is_the_one_with_fewest_rare_heaps() {
        // every mask tried by brute force, on the first values of three games
        for code in ["0.6", "4u.0", "0.04"] {
            let v = values(code, 3000);
            let c: OctalCode = code.parse().unwrap();
            let s = stats(code, Some(&c), &Values::U32(&v));
            let d = split_parity(&c);
            let bits = 32 - v.iter().max().unwrap().leading_zeros();
            let is_rare = |m: u32, i: usize| {
                ((2 * v[i] + ((i as u64 + d.unwrap_or(0)) & 1) as u32) & m)
                    .count_ones()
                    .is_multiple_of(2)
            };
            let count = |m: u32| (0..v.len()).filter(|&i| is_rare(m, i)).count();
            let best = (1..1u32 << (bits + 1))
                .filter(|m| d.is_some() || m & 1 == 0)
                .min_by_key(|&m| (count(m), m))
                .unwrap();
            assert_eq!(s.rare_mask, Some(format!("{:x}", best >> 1)), "{code}");
            assert_eq!(s.rare_mask_position, best & 1 == 1, "{code}");
            // heap 0 is left out of the count, not of the choice
            let listed: Vec<u64> = (1..v.len()).filter(|&i| is_rare(best, i)).map(|i| i as u64).collect();
            assert_eq!(s.rare_heaps, listed, "{code}");
            assert_eq!(
                s.rare_count as usize,
                count(best) - usize::from(is_rare(best, 0)),
                "{code}"
            );
        }
    }

    #[test]
    fn largest_value_and_checksum() {
        let v = values("0.07", 100);
        let c: OctalCode = "0.07".parse().unwrap();
        let s = stats("octal(0.07)", Some(&c), &Values::U32(&v));
        let (mut m, mut at) = (0, 0);
        for (i, &x) in v.iter().enumerate() {
            if x > m {
                (m, at) = (x, i as u64);
            }
        }
        assert_eq!((s.largest, s.largest_first), (m, at));
        assert_eq!(s.value_bytes, 1);
        assert_eq!(s.sha256, values_file::checksum("octal(0.07)", &Values::U32(&v)));
        assert_eq!(s.sha256.len(), 64);
    }
}
