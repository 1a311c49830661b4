//! Seed 003, §4: push compounds of one-heap games, their outcomes and periods.

use super::{cmp_ratio_with_phi, fibonacci, floor_phi_times, gcd};

/// Seed 003, Proposition 4.1.1: the P-positions of `push(nim, wythoff)`
/// (Nim ⊚ Wythoff) are `{(0,1), (1,0)} ∪ {(k,k) : k ≥ 2}`. Domain: all of ℕ².
pub fn prop411_p(a: u64, b: u64) -> bool {
    (a, b) == (0, 1) || (a, b) == (1, 0) || (a == b && a >= 2)
}

/// If `p/q` (in lowest terms, `q ≥ 1`) equals `F_{k+1}/F_k` for some `k ≥ 1`,
/// return that `k`.
fn consecutive_fib_ratio_index(p: u64, q: u64) -> Option<u32> {
    let g = gcd(p, q);
    let (p, q) = (p / g, q / g);
    let mut k = 1u32;
    while k < 92 {
        let (fk, fk1) = (fibonacci(k), fibonacci(k + 1));
        if fk > q {
            return None;
        }
        if fk == q && fk1 == p {
            return Some(k);
        }
        k += 1;
    }
    None
}

/// Seed 003, Proposition 4.1.2: a position `(a, b)` with `a ≤ b` is a
/// P-position of Euclid ⊚ Nim (`push(euclid0, nim)`) iff
/// * `b/a < Φ` and `b/a ≠ F_{2i+2}/F_{2i+1}` for every `i ≥ 0` (so `b/a ≠ 1, 3/2, 8/5, …`), or
/// * `b/a = F_{2i+1}/F_{2i}` for some `i ≥ 1` (`b/a = 2, 5/3, 13/8, …`).
///
/// Domain: `1 ≤ a` (the statement divides by `a`); arguments are sorted first.
/// For `a = 0` (outside the statement) this returns `false`; note that under
/// `euclid0` the positions `(0, b)`, `b ≥ 1`, are in fact P (see the report).
pub fn prop412_p(a: u64, b: u64) -> bool {
    let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
    if lo == 0 {
        return false;
    }
    let fib_k = consecutive_fib_ratio_index(hi, lo);
    let below = cmp_ratio_with_phi(lo, hi) == std::cmp::Ordering::Less;
    // F_{k+1}/F_k with k = 2i+1 (odd) is of the first kind, k = 2i (even, i ≥ 1) of the second.
    let first_kind = matches!(fib_k, Some(k) if k % 2 == 1);
    let second_kind = matches!(fib_k, Some(k) if k % 2 == 0);
    (below && !first_kind) || second_kind
}

/// Seed 003, Proposition 4.1.3: the P-positions of Wythoff ⊚ Nim
/// (`push(wythoff, nim)`) are `{(a_n − 1, b_n − 1) : n ≥ 1}` with `(a_n, b_n)`
/// the Wythoff pairs; tested in either order. Domain: all of ℕ².
pub fn prop413_p(a: u64, b: u64) -> bool {
    let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
    let n = hi - lo;
    n >= 1 && floor_phi_times(n) == lo + 1
}

/// Seed 003, Proposition 4.2.2 (\[BCG04\]), normal play: in `tag(k)` =
/// `sub({1..k})`, `k ≥ 1`, `n` is a P-position iff `n ≡ 0 (mod k+1)`.
/// (Seed 004's TAG_5: `n = 42` is P, the second player wins; `n = 50` is N.)
pub fn tag_p(k: u64, n: u64) -> bool {
    n.is_multiple_of(k + 1)
}

/// Seed 003, Proposition 4.2.2 (\[BCG04\]) with its values: in `tag(k)`, `G(n) = n mod (k+1)`
/// (the options of `n` are `n−1, …, n−min(k,n)`, whose values are the `min(k,n)` residues just
/// below `n`'s, so the mex is `n mod (k+1)`); the P-positions of [`tag_p`] are its zeros.
pub fn tag_grundy(k: u64, n: u64) -> u64 {
    n % k.saturating_add(1).max(1)
}

/// Seed 003, Proposition 4.2.2, misère play: `n` is a P-position of misère
/// `sub({1..k})` iff `n ≡ 1 (mod k+1)`.
pub fn tag_misere_p(k: u64, n: u64) -> bool {
    n % (k + 1) == 1 % (k + 1)
}

/// Seed 003, Theorem 4.2.3 (first bound): the P-positions of
/// `sub(S) ⊚ R2`, `R2` with `k`-periodic P-positions, are ultimately periodic
/// with period and pre-period at most `k · 2^{max(S)}`. Saturates at `u64::MAX`.
pub fn thm423_outcome_bound(k: u64, max_s: u64) -> u64 {
    let p = if max_s >= 64 { u64::MAX } else { 1u64 << max_s };
    k.saturating_mul(p)
}

/// Seed 003, Theorem 4.2.3 (second bound): if the values of `R2` are also
/// `k`-periodic, the values of `sub(S) ⊚ R2` are periodic with period and
/// pre-period at most `k · (|S| + 2)^{max(S)}`. Saturates at `u64::MAX`.
pub fn thm423_value_bound(k: u64, s_len: u64, max_s: u64) -> u64 {
    let mut p: u64 = 1;
    for _ in 0..max_s {
        p = p.saturating_mul(s_len + 2);
    }
    k.saturating_mul(p)
}

/// Seed 003, Theorem 4.2.4: for `k1, k2 ≥ 1`, let `a` be the smallest
/// (positive) integer with `(k1+1)·a ≡ −1 (mod k2+1)`. The P-positions of
/// `sub({1..k1}) ⊚ sub({1..k2})` are periodic with period `(k1+1)·a + 1`;
/// if no such `a` exists (i.e. `gcd(k1+1, k2+1) > 1`), the period is `k1 + 1`.
pub fn thm424_period(k1: u64, k2: u64) -> u64 {
    let m = k2 + 1;
    for a in 1..=m {
        if ((k1 + 1) as u128 * a as u128 + 1).is_multiple_of(m as u128) {
            return (k1 + 1) * a + 1;
        }
    }
    k1 + 1
}
