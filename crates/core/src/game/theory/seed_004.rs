//! Seed 004 (the number theory games slides): Nim, misère Nim, Fibonacci Nim, the divisor game.

use super::{fibonacci, zeckendorf_bits};

/// Nim-sum (xor) of the heaps (seed 004, "Nim-Sum Definition").
/// Note: `9 ⊕ 10 ⊕ 15 = 12`, not 10 as a seed-004 slide says.
pub fn nim_sum(heaps: &[u64]) -> u64 {
    heaps.iter().fold(0, |s, &x| s ^ x)
}

/// Seed 004, Theorem (Bouton): a normal-play Nim position is P (second player
/// wins) iff the nim-sum of the heap sizes is 0.
pub fn bouton_p(heaps: &[u64]) -> bool {
    nim_sum(heaps) == 0
}

/// Seed 004, second lemma of Bouton's proof: if `s = ⊕x_i ≠ 0`, let `d` be the
/// leftmost 1-bit of `s`, choose (the first) heap `k` whose bit `d` is 1, and set
/// `y_k = s ⊕ x_k < x_k`. Returns `Some((k, y_k))`, or `None` when `s = 0`.
pub fn bouton_winning_move(heaps: &[u64]) -> Option<(usize, u64)> {
    let s = nim_sum(heaps);
    if s == 0 {
        return None;
    }
    let d = 63 - s.leading_zeros();
    let k = heaps.iter().position(|&x| (x >> d) & 1 == 1)?;
    Some((k, s ^ heaps[k]))
}

/// Seed 004, misère Nim strategy ("play as in normal play until exactly one
/// heap is larger than 1, then reduce it to 0 or 1 so as to leave an odd number
/// of heaps of size 1"). The P-positions this strategy implies:
/// * if every heap is ≤ 1: P iff the number of heaps of size 1 is odd
///   (in particular the empty position is N: the player who cannot move wins);
/// * otherwise: P iff the nim-sum is 0.
pub fn misere_nim_p(heaps: &[u64]) -> bool {
    if heaps.iter().all(|&x| x <= 1) {
        heaps.iter().filter(|&&x| x == 1).count() % 2 == 1
    } else {
        nim_sum(heaps) == 0
    }
}

/// Seed 004, misère Nim strategy, as a move: "play exactly like you would in
/// normal play until your opponent leaves one pile of size greater than one;
/// at this point, reduce this pile to size 1 or 0, whichever leaves an odd
/// number of piles with only one object". When no heap exceeds 1, the move
/// removes a heap of size 1 (leaving an odd number of them) if that count is
/// even. Returns `(heap index, new size)`, or `None` if the position is P
/// under [`misere_nim_p`] (or has no move).
pub fn misere_nim_move(heaps: &[u64]) -> Option<(usize, u64)> {
    let big: Vec<usize> = (0..heaps.len()).filter(|&i| heaps[i] > 1).collect();
    let ones = heaps.iter().filter(|&&x| x == 1).count();
    match big.len() {
        0 => {
            if ones % 2 == 0 && ones > 0 {
                heaps.iter().position(|&x| x == 1).map(|i| (i, 0))
            } else {
                None
            }
        }
        1 => Some((big[0], if ones % 2 == 1 { 0 } else { 1 })),
        _ => bouton_winning_move(heaps),
    }
}

/// Zeckendorf terms of `n` (distinct non-consecutive Fibonacci numbers, from
/// `F_2 = 1` upwards), in decreasing order; empty for `n = 0` (seed 004,
/// Zeckendorf's theorem).
pub fn zeckendorf_terms(n: u64) -> Vec<u64> {
    let bits = zeckendorf_bits(n);
    let len = bits.len() as u32;
    bits.iter()
        .enumerate()
        .filter(|&(_, &x)| x == 1)
        .map(|(j, _)| fibonacci(len + 1 - j as u32))
        .collect()
}

/// Seed 004, Fibonacci Nim strategy: position `(n, q)` (`n` chips, at most `q`
/// may be taken). `n = 0` is P (no move). For `n ≥ 1`, the position is losing
/// (P) iff `q` is less than the smallest term of the Zeckendorf representation
/// of `n`.
pub fn fibonacci_nim_p(n: u64, q: u64) -> bool {
    if n == 0 {
        return true;
    }
    // n ≥ 1 has at least one Zeckendorf term
    zeckendorf_terms(n).last().is_none_or(|&smallest| q < smallest)
}

/// Seed 004, Fibonacci Nim strategy, the winning move: take all chips if
/// allowed (`q ≥ n`), otherwise take the smallest Zeckendorf term of `n` if
/// it is `≤ q`; `None` if neither is possible (a P-position) or `n = 0`.
pub fn fibonacci_nim_move(n: u64, q: u64) -> Option<u64> {
    if n == 0 {
        return None;
    }
    if q >= n {
        return Some(n);
    }
    // n ≥ 1 has at least one Zeckendorf term
    zeckendorf_terms(n).last().copied().filter(|&smallest| smallest <= q)
}

/// Seed 004, Theorem (Fibonacci Nim): a fresh pile of `n ≥ 2` chips (position
/// `(n, n − 1)`) is a loss for the first player iff `n` is a Fibonacci number.
/// (Also true for `n = 1`: `(1, 0)` has no move.)
pub fn fibonacci_fresh_pile_p(n: u64) -> bool {
    zeckendorf_terms(n).len() == 1
}

/// Seed 004, "Reducing by divisors" game (`divisor` of docs/games.md: subtract a
/// proper divisor `d < n` of `n`; `n = 1` is terminal, the player who makes 1
/// wins). The seed leaves the analysis blank; derived here: for `n ≥ 1`,
/// `n` is a P-position iff `n` is odd.
///
/// Proof: odd `n` has only odd divisors, so every move leads to an even number;
/// even `n ≥ 2` can subtract 1 to reach an odd number; `n = 1` is terminal (P).
/// So from 60 the first player (A) wins, e.g. by moving to 59.
pub fn divisor_game_p(n: u64) -> bool {
    n % 2 == 1
}

/// The divisor game's values (derived here, checked by search in `crates/core/tests/it/heap_games.rs`): for
/// `n ≥ 1`, `G(n) = v₂(n)`, the exponent of 2 in `n` (0 exactly on the odd P-positions of
/// [`divisor_game_p`]).
///
/// Proof by induction: write `n = 2^k·m`, `m` odd. A proper divisor `d` of `n` has
/// `v₂(d) = j ≤ k`. If `j < k`, `v₂(n − d) = j`; every `j < k` occurs (`d = 2^j`). If `j = k`,
/// `n − d = 2^k(m − m')` with `m, m'` odd, so `v₂(n − d) > k`. The options' values are therefore
/// all of `0..k` and never `k`: the mex is `k`.
pub fn divisor_grundy(n: u64) -> u64 {
    u64::from(n.trailing_zeros().min(63))
}
