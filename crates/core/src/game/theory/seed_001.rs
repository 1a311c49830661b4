//! Seed 001: Common Divisor Nim.

use super::two_adic_valuation;

/// Seed 001, Theorem 1.3 (Sprague–Grundy value of Common Divisor Nim), in the
/// closed form **re-derived here by brute force** (the seed text lost its formulas;
/// the surviving structure — 2-adic valuations, a formal element ∞ larger than
/// every integer, the case split on a parity — matches this form):
///
/// For heaps `x_1..x_k` (any `k ≥ 1`, zeros allowed), let `v(x) = v₂(x)` for
/// `x > 0` and `v(0) = ∞`. Let `m = min_i v(x_i)` (= `v₂(gcd)`), and `c` the
/// number of heaps with `v(x_i) = m`. Then
///
/// * `G = 0` if all heaps are 0;
/// * `G = m + 1` if `c` is odd;
/// * `G = 0` if `c` is even.
///
/// So one heap `n > 0` has value `v₂(n) + 1`, and two non-zero heaps have value
/// `0` if `v₂(a) = v₂(b)` and `min(v₂(a), v₂(b)) + 1` otherwise.
///
/// Game: `cdn` of docs/games.md (subtract a positive common divisor of all heaps,
/// `gcd(0, b) = b`, from one heap). Checked by brute force in `crates/core/tests/it/brute_force/`
/// for 1 heap ≤ 200, 2 heaps ≤ 64×64, 3 heaps ≤ 24³ (and offline for 4 heaps
/// < 13, 5 heaps < 9).
pub fn cdn_grundy(heaps: &[u64]) -> u64 {
    let vals: Vec<u32> = heaps.iter().filter_map(|&x| two_adic_valuation(x)).collect();
    let Some(&m) = vals.iter().min() else { return 0 };
    let c = vals.iter().filter(|&&v| v == m).count();
    if c % 2 == 1 { m as u64 + 1 } else { 0 }
}
