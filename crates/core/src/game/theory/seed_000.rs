//! Seed 000 (Cairns–Ho, *A restriction of Euclid*): Euclid, Grossman's game and M-Euclid.

/// Continued fraction `[a0, a1, …, an]` of `b/a`, with the seed-000 convention
/// that `an > 1` when `n > 0` (this is what the Euclidean algorithm yields).
///
/// Domain: `a ≥ 1`, `b ≥ 0`. Returns an empty vector for `a = 0`.
/// Example: `continued_fraction(11, 27) = [2, 2, 5]` (27/11 = 2 + 1/(2 + 1/5)).
pub fn continued_fraction(a: u64, b: u64) -> Vec<u64> {
    let mut out = Vec::new();
    if a == 0 {
        return out;
    }
    let (mut num, mut den) = (b, a);
    while den != 0 {
        out.push(num / den);
        let r = num % den;
        num = den;
        den = r;
    }
    out
}

/// `𝓘(a, b)` of seed 000 Theorem 1: the largest `i ∈ {0..=n}` such that
/// `a0 = … = a_{i−1} ≤ a_i`, for the continued fraction `[a0..an]` of `b/a`.
///
/// Domain: `1 ≤ a`, any `b` with `b ≥ a` (the seed takes `0 < a < b`).
///
/// # Panics
/// If `a = 0`.
pub fn cf_index_i(a: u64, b: u64) -> usize {
    assert!(a >= 1, "cf_index_i: need a >= 1");
    let cf = continued_fraction(a, b);
    index_i_of(&cf)
}

fn index_i_of(cf: &[u64]) -> usize {
    let n = cf.len() - 1;
    // m = length of the initial run of terms equal to a0.
    let m = cf.iter().take_while(|&&x| x == cf[0]).count();
    if m <= n && cf[m] > cf[0] { m } else { m - 1 }
}

/// `𝓙(a, b)` of seed 000 Theorem 2: `min(𝓘(a, b), n − 1)` (Remark 1).
///
/// Domain: `0 < a < b`, `b` not a multiple of `a` (so `n ≥ 1`).
///
/// # Panics
/// If `b` is a multiple of `a` (or `a = 0`).
pub fn cf_index_j(a: u64, b: u64) -> usize {
    assert!(a >= 1, "cf_index_j: need a >= 1");
    let cf = continued_fraction(a, b);
    let n = cf.len() - 1;
    assert!(n >= 1, "cf_index_j: b must not be a multiple of a");
    index_i_of(&cf).min(n - 1)
}

/// Seed 000, Theorem 1 (Cole–Davie's Euclid, values due to Nivasch and
/// Cairns–Ho–Lengyel): for `0 < a < b`, with `[a0..an]` the continued fraction
/// of `b/a`,
/// `G_E(a, b) = ⌊b/a⌋ − (0 if 𝓘(a, b) is even, 1 otherwise)`.
///
/// Game: `euclid` of docs/games.md (a zero entry ends the game).
/// Domain: `0 < a < b` (the formula is also evaluated for `a = b`, where it
/// gives 1 = G(a, a), but that is outside the stated theorem).
///
/// The arguments are sorted first (the game is symmetric).
///
/// # Panics
/// If either argument is 0.
pub fn euclid_grundy(a: u64, b: u64) -> u64 {
    let (a, b) = if a <= b { (a, b) } else { (b, a) };
    assert!(a >= 1, "euclid_grundy: need 0 < a <= b");
    let i = cf_index_i(a, b);
    b / a - (i % 2) as u64
}

/// Seed 000, Theorem 1 second part (Grossman's game): `G_G(a, b) = G_E(a, b)`
/// except when `a0 = a1 = … = an`, in which case
/// `G_G(a, b) = G_E(a, b) − (−1)^{𝓘(a, b)}`.
///
/// Game: `grossman` of docs/games.md ((d, d) terminal). Domain: `0 < a < b`.
///
/// The arguments are sorted first (the game is symmetric).
///
/// # Panics
/// If either argument is 0 or `a = b` (where `G_G = 0`, outside the theorem).
pub fn grossman_grundy(a: u64, b: u64) -> u64 {
    let (a, b) = if a <= b { (a, b) } else { (b, a) };
    assert!(a >= 1 && b > a, "grossman_grundy: need 0 < a < b");
    let cf = continued_fraction(a, b);
    let ge = euclid_grundy(a, b);
    if cf.iter().all(|&x| x == cf[0]) {
        apply_sign(ge, index_i_of(&cf))
    } else {
        ge
    }
}

/// `g − (−1)^i`, saturating at 0 (never reached inside the stated domains).
fn apply_sign(g: u64, i: usize) -> u64 {
    if i.is_multiple_of(2) {
        g.saturating_sub(1)
    } else {
        g + 1
    }
}

/// Seed 000, Theorem 2 (M-Euclid): for `0 < a < b`, `b` not a multiple of `a`,
/// `G_M(a, b) = ⌊b/a⌋ − (0 if 𝓙(a, b) is even, 1 otherwise)`,
/// with `𝓙(a, b)` the largest `j < n` such that `a0 = … = a_{j−1} ≤ a_j`.
///
/// Game: `m-euclid` of docs/games.md (a position where one entry divides the other
/// is terminal, value 0).
///
/// The arguments are sorted first (the game is symmetric).
///
/// # Panics
/// If either argument is 0 or one divides the other (terminal, `G_M = 0`).
pub fn m_euclid_grundy(a: u64, b: u64) -> u64 {
    let (a, b) = if a <= b { (a, b) } else { (b, a) };
    assert!(
        a >= 1 && b > a && !b.is_multiple_of(a),
        "m_euclid_grundy: need 0 < a < b, a ∤ b"
    );
    b / a - (cf_index_j(a, b) % 2) as u64
}

/// Seed 000, Corollary, first part: `G_M(a, b) = G_E(a, b)` except when
/// `a0 = a1 = … = a_{n−1} ≤ a_n`, in which case `G_M(a, b) = G_E(a, b) − (−1)^{𝓘(a, b)}`.
/// Returns the predicted `G_M` given `g_e = G_E(a, b)`.
///
/// Domain: `0 < a < b`, `b` not a multiple of `a`. (Result saturates at 0.)
///
/// # Panics
/// Outside the domain.
pub fn corollary_m_from_e(a: u64, b: u64, g_e: u64) -> u64 {
    assert!(
        a >= 1 && b > a && !b.is_multiple_of(a),
        "corollary: need 0 < a < b, a ∤ b"
    );
    let cf = continued_fraction(a, b);
    let n = cf.len() - 1;
    let exception = cf[..n].iter().all(|&x| x == cf[0]) && cf[n - 1] <= cf[n];
    if exception {
        apply_sign(g_e, index_i_of(&cf))
    } else {
        g_e
    }
}

/// Seed 000, Corollary, second part: `G_M(a, b) = G_G(a, b)` except when
/// `a0 = a1 = … = a_{n−1} < a_n`, in which case `G_M(a, b) = G_G(a, b) − (−1)^{𝓘(a, b)}`.
/// Returns the predicted `G_M` given `g_g = G_G(a, b)`.
///
/// Domain: `0 < a < b`, `b` not a multiple of `a`. (Result saturates at 0.)
///
/// # Panics
/// Outside the domain.
pub fn corollary_m_from_g(a: u64, b: u64, g_g: u64) -> u64 {
    assert!(
        a >= 1 && b > a && !b.is_multiple_of(a),
        "corollary: need 0 < a < b, a ∤ b"
    );
    let cf = continued_fraction(a, b);
    let n = cf.len() - 1;
    let exception = cf[..n].iter().all(|&x| x == cf[0]) && cf[n - 1] < cf[n];
    if exception {
        apply_sign(g_g, index_i_of(&cf))
    } else {
        g_g
    }
}
