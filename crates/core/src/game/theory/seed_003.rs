//! Seed 003, §3: Wythoff's pairs, Nim ⊚ Euclid and the Fibonacci representation.

use super::{ceil_phi_times, floor_phi_times};

/// Seed 003, Proposition 3.1.3 (\[Wyt07\]): the `n`-th Wythoff pair
/// `(a_n, b_n) = (⌊nΦ⌋, ⌊nΦ⌋ + n)`, computed exactly. Domain: `n ≥ 0`
/// (`n ≤ ~2^61` to avoid overflow).
pub fn wythoff_pair(n: u64) -> (u64, u64) {
    let a = floor_phi_times(n);
    (a, a + n)
}

/// Seed 003, Proposition 3.1.3: `(a, b)` (either order) is a P-position of
/// `wythoff` iff it is `(a_n, b_n)` or `(b_n, a_n)` for some `n ≥ 0`.
pub fn is_wythoff_p(a: u64, b: u64) -> bool {
    let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
    floor_phi_times(hi - lo) == lo
}

/// Seed 003, Definition 3.1.4: Fibonacci numbers `F_0 = 0, F_1 = 1`.
/// Domain: `n ≤ 93` (`F_93` is the largest that fits in `u64`; panics above).
pub fn fibonacci(n: u32) -> u64 {
    assert!(n <= 93, "fibonacci: F_n overflows u64 for n > 93");
    let (mut x, mut y) = (0u64, 1u64);
    for _ in 0..n {
        // y runs one term ahead and may pass u64::MAX at n = 93; it is never returned then
        (x, y) = (y, x.saturating_add(y));
    }
    x
}

/// Seed 003, Definition 3.1.4: `u_n = F_{n+1} − 1`. Domain `n ≤ 92`.
pub fn u_seq(n: u32) -> u64 {
    fibonacci(n + 1) - 1
}

/// Seed 003, Theorem 3.1.6: the P-positions of `push(nim, euclid0)`
/// (= Nim ⊚ Euclid of seed 003 Section 3, Euclid extended by `(0,i) → (0,0)`;
/// by Prop 3.1.1 also the outcomes of `zeruclid` on `(1, a, b)`) are
/// `P = {(a_n, b_n), n ≥ 0} ∖ {(u_{2n}, u_{2n+1}), n ≥ 0} ∪ {(u_{2n+1}, u_{2n+2}), n ≥ 0}`.
///
/// Membership test for `(a, b)` in either order (the set is read as symmetric,
/// Table 1 lists the pairs with `a ≤ b`). Domain: `a, b < 2^61`.
pub fn nim_push_euclid_p_thm316(a: u64, b: u64) -> bool {
    let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
    let mut k = 0u32;
    loop {
        let u = u_seq(k);
        if u > lo || k >= 90 {
            break;
        }
        if u == lo && u_seq(k + 1) == hi {
            // (u_k, u_{k+1}): added if k odd, removed if k even.
            return k % 2 == 1;
        }
        k += 1;
    }
    is_wythoff_p(lo, hi)
}

/// Seed 003, Theorem 3.1.7: the P-positions of Nim ⊚ Euclid are the
/// `(A_n, B_n)` with `A_0 = 0, B_0 = 1, A_n = mex{A_i, B_i : i < n}`,
/// `B_n = ⌈ΦA_n⌉`. Returns all pairs with `A_n < limit`, in order of `n`
/// (this is a recurrence on integers, not a game search).
pub fn nim_push_euclid_pairs_thm317(limit: u64) -> Vec<(u64, u64)> {
    let mut out = Vec::new();
    if limit == 0 {
        return out;
    }
    out.push((0u64, 1u64));
    let mut used = std::collections::BTreeSet::new();
    used.insert(0u64);
    used.insert(1u64);
    let mut mex = 0u64;
    loop {
        while used.contains(&mex) {
            mex += 1;
        }
        if mex >= limit {
            break;
        }
        let a = mex;
        let b = ceil_phi_times(a);
        used.insert(a);
        used.insert(b);
        out.push((a, b));
        // drop entries below mex to keep the set small
        used = used.split_off(&mex);
    }
    out
}

/// Seed 003, Definition 3.1.8: the Fibonacci (Zeckendorf) representation
/// `n = Σ_{i ≥ 2} x_i F_i`, no two consecutive 1s, as the bit string
/// `x_k x_{k−1} … x_2`, most significant first, with `x_k = 1`; empty for `n = 0`.
/// Example: `6 = F_5 + F_2 → [1, 0, 0, 1]`.
pub fn zeckendorf_bits(n: u64) -> Vec<u8> {
    if n == 0 {
        return Vec::new();
    }
    // largest k with F_k <= n (k >= 2)
    let mut k = 2u32;
    while k < 93 && fibonacci(k + 1) <= n {
        k += 1;
    }
    let mut rest = n;
    let mut bits = Vec::with_capacity(k as usize - 1);
    for i in (2..=k).rev() {
        let f = fibonacci(i);
        if f <= rest {
            bits.push(1);
            rest -= f;
        } else {
            bits.push(0);
        }
    }
    bits
}

/// Value of a Fibonacci representation `x_k … x_2` (inverse of [`zeckendorf_bits`];
/// accepts any 0/1 string, most significant first).
pub fn from_fibonacci_bits(bits: &[u8]) -> u64 {
    let len = bits.len() as u32;
    bits.iter()
        .enumerate()
        .map(|(j, &x)| x as u64 * fibonacci(len + 1 - j as u32))
        .sum()
}

/// Is `bits` of the form `(10)^j`, `j ≥ 0` (the empty string included)?
fn is_10_star(bits: &[u8]) -> bool {
    bits.len().is_multiple_of(2) && bits.chunks(2).all(|c| c == [1, 0])
}

/// Seed 003, Theorem 3.1.9 (first part): `x ∈ A` (the smaller coordinates of
/// the P-positions of Nim ⊚ Euclid) iff the Fibonacci representation `s` of `x`
/// either ends with an even number of 0s and `s ≠ (10)*1`, or `s = (10)*`.
/// `(10)*` includes the empty word (so `x = 0 ∈ A`, and `x = 1`, `s = "1"`, is not).
pub fn thm319_in_a(x: u64) -> bool {
    let s = zeckendorf_bits(x);
    if is_10_star(&s) {
        return true;
    }
    let trailing_zeros = s.iter().rev().take_while(|&&b| b == 0).count();
    let is_10_star_1 = !s.is_empty() && s[s.len() - 1] == 1 && is_10_star(&s[..s.len() - 1]);
    trailing_zeros % 2 == 0 && !is_10_star_1
}

/// Seed 003, Theorem 3.1.9 (second part): for `a ∈ A` with representation `s_A`,
/// the partner `B` has representation `s_A 0` if `s_A ≠ (10)*`, and `s_A 1` if
/// `s_A = (10)*` (empty word included, giving the partner 1 of 0).
/// Domain: `a ∈ A` (see [`thm319_in_a`]); for other `a` the same rule is applied.
pub fn thm319_partner(a: u64) -> u64 {
    let mut s = zeckendorf_bits(a);
    let bit = if is_10_star(&s) { 1 } else { 0 };
    s.push(bit);
    from_fibonacci_bits(&s)
}

/// Seed 003, Theorem 3.2.1: if `(a, b, c)`, `c ≥ b ≥ a > 0`, is a P-position of
/// 3-heap `zeruclid`, then `⌈Φb⌉ ≤ c ≤ ⌈Φb⌉ + a − 1`. Returns that closed
/// interval `(⌈Φb⌉, ⌈Φb⌉ + a − 1)`. Domain `b ≥ a ≥ 1`.
pub fn thm321_bounds(a: u64, b: u64) -> (u64, u64) {
    let lo = ceil_phi_times(b);
    (lo, lo + a - 1)
}
