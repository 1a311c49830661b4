//! Closed forms and characterisations from the seed papers, implemented with
//! pure (exact, integer) arithmetic and **no game-tree search**.
//!
//! Every public function cites the statement it implements. Statements are
//! implemented *as written* in the seed, even where a brute-force solver
//! disagrees; such disagreements are recorded in the function's rustdoc
//! ("Checked:") and asserted as counterexamples in `tests/brute.rs`.
//!
//! Golden-ratio decisions never use floating point: for integers `a, b ≥ 1`,
//! `b/a > Φ ⟺ b² − ab − a² > 0` (Φ is the positive root of `x² − x − 1`, and
//! irrational, so `b/a ≠ Φ`), and `⌊nΦ⌋ = (n + ⌊√(5n²)⌋) / 2` (integer division).
//!
//! | seed | statement | function(s) |
//! | --- | --- | --- |
//! | 000 (Cairns–Ho, *A restriction of Euclid*) | continued-fraction convention | [`continued_fraction`], [`cf_index_i`], [`cf_index_j`] |
//! | 000 | Theorem 1 (Euclid, Cole–Davie; Nivasch / Cairns–Ho–Lengyel) | [`euclid_grundy`] |
//! | 000 | Theorem 1, second part (Grossman's game) | [`grossman_grundy`] |
//! | 000 | Theorem 2 (M-Euclid) | [`m_euclid_grundy`] |
//! | 000 | Corollary (G_M vs G_E, G_M vs G_G) | [`corollary_m_from_e`], [`corollary_m_from_g`] |
//! | 002 (golden-ratio slides) | Theorem: first player wins Euclid iff b/a ∈ ℤ or b/a > Φ | [`euclid_first_player_wins`] |
//! | 001 (Common Divisor Nim) | Theorem 1.3 (re-derived here, formulas lost in the seed text) | [`cdn_grundy`], [`two_adic_valuation`] |
//! | 003 (push-the-button) | Prop 3.0.3 (P-positions of Euclid: b/a < Φ) | [`ratio_below_phi`] |
//! | 003 | Prop 3.1.3 (Wythoff pairs) | [`floor_phi_times`], [`wythoff_pair`], [`is_wythoff_p`] |
//! | 003 | Def 3.1.4 (Fibonacci numbers, u_n = F_{n+1} − 1) | [`fibonacci`], [`u_seq`] |
//! | 003 | Thm 3.1.6 (P-positions of Nim ⊚ Euclid) | [`nim_push_euclid_p_thm316`] |
//! | 003 | Thm 3.1.7 (mex / ⌈ΦA⌉ recurrence) | [`nim_push_euclid_pairs_thm317`] |
//! | 003 | Def 3.1.8, Thm 3.1.9 (Fibonacci representation) | [`zeckendorf_bits`], [`thm319_in_a`], [`thm319_partner`] |
//! | 003 | Thm 3.2.1 (3-heap Zeruclid bounds) | [`ceil_phi_times`], [`thm321_bounds`] |
//! | 003 | Props 4.1.1, 4.1.2, 4.1.3 (push compounds of Nim, Wythoff, Euclid) | [`prop411_p`], [`prop412_p`], [`prop413_p`] |
//! | 003 | Prop 4.2.2 (TAG_k = sub({1..k}), normal and misère) | [`tag_p`], [`tag_grundy`], [`tag_misere_p`] |
//! | 003 | Thm 4.2.3 (period bounds) | [`thm423_outcome_bound`], [`thm423_value_bound`] |
//! | 003 | Thm 4.2.4 (period of sub({1..k1}) ⊚ sub({1..k2})) | [`thm424_period`] |
//! | 004 (number theory games slides) | Bouton's theorem and its winning-move lemma | [`nim_sum`], [`bouton_p`], [`bouton_winning_move`] |
//! | 004 | Misère Nim strategy | [`misere_nim_p`], [`misere_nim_move`] |
//! | 004 | Fibonacci Nim (Zeckendorf strategy) | [`zeckendorf_terms`], [`fibonacci_nim_p`], [`fibonacci_nim_move`], [`fibonacci_fresh_pile_p`] |
//! | 004 | Divisor game ("Reducing by divisors") | [`divisor_game_p`], [`divisor_grundy`] |
//!
//! Brute-force status (`tests/brute.rs`): every statement above agrees with a
//! plain mex search on the tested ranges. Noted along the way: seed 004's slide
//! "Nim-Sum Examples" prints `9 ⊕ 10 ⊕ 15 = 10`; the value is 12 (its own bit
//! table and winning moves agree with 12). Prop 4.1.2 is stated for `a ≥ 1`
//! only; under `euclid0`, `(0, b)` with `b ≥ 1` is P and `(0, 0)` is N.
//!
//! Game names (`euclid`, `grossman`, `m-euclid`, `euclid0`, `zeruclid`, `cdn`, …)
//! are those of `GAMES.md`.

/// seed 003 Table 1 as printed: the first P-positions (a ≤ b) of Wythoff…
pub const TABLE_1_WYTHOFF: [(u64, u64); 12] = [
    (0, 0),
    (1, 2),
    (3, 5),
    (4, 7),
    (6, 10),
    (8, 13),
    (9, 15),
    (11, 18),
    (12, 20),
    (14, 23),
    (16, 26),
    (17, 28),
];
/// …and of Nim ⊚ Euclid (seed 003's Euclid: `euclid0`).
pub const TABLE_1_NIM_PUSH_EUCLID: [(u64, u64); 11] = [
    (0, 1),
    (2, 4),
    (3, 5),
    (6, 10),
    (7, 12),
    (8, 13),
    (9, 15),
    (11, 18),
    (14, 23),
    (16, 26),
    (17, 28),
];

/// The golden ratio Φ = (1 + √5)/2, for display only. All decisions in this
/// module use exact integer arithmetic instead.
pub const PHI: f64 = 1.618_033_988_749_895;

// ---------------------------------------------------------------------------
// Small exact helpers
// ---------------------------------------------------------------------------

/// Greatest common divisor with `gcd(0, b) = b` (zero does not constrain).
pub fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

/// Integer square root ⌊√n⌋ of a `u128`.
pub fn isqrt_u128(n: u128) -> u128 {
    n.isqrt()
}

/// Exact sign of `b² − ab − a²` for the golden-ratio test of `b/a`
/// (`a, b ≥ 0`): returns `Ordering::Greater` iff `b/a > Φ`, `Less` iff
/// `b/a < Φ` (for `a ≥ 1`; equality only at `a = b = 0`).
pub fn cmp_ratio_with_phi(a: u64, b: u64) -> std::cmp::Ordering {
    let (a, b) = (a as i128, b as i128);
    (b * b - a * b - a * a).cmp(&0)
}

/// ⌊nΦ⌋ computed exactly as `(n + ⌊√(5n²)⌋) / 2`.
///
/// Proof: nΦ = (n + n√5)/2 and ⌊y/2⌋ = ⌊⌊y⌋/2⌋, ⌊n + n√5⌋ = n + ⌊√(5n²)⌋.
pub fn floor_phi_times(n: u64) -> u64 {
    let n = n as u128;
    ((n + isqrt_u128(5 * n * n)) / 2) as u64
}

/// ⌈Φb⌉ computed exactly: `0` for `b = 0`, else `⌊Φb⌋ + 1` (Φb is irrational
/// for `b ≥ 1`). Used in seed 003 Thm 3.1.7 (`B_n = ⌈ΦA_n⌉`) and Thm 3.2.1.
pub fn ceil_phi_times(b: u64) -> u64 {
    if b == 0 { 0 } else { floor_phi_times(b) + 1 }
}

/// 2-adic valuation `v₂(n)` (exponent of 2 in `n`); `None` for `n = 0`
/// (the seed-001 "formal element larger than any element", i.e. ∞).
pub fn two_adic_valuation(n: u64) -> Option<u32> {
    if n == 0 { None } else { Some(n.trailing_zeros()) }
}

// ---------------------------------------------------------------------------
// Seed 000: Euclid, Grossman, M-Euclid
// ---------------------------------------------------------------------------

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
/// Game: `euclid` of GAMES.md (a zero entry ends the game).
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
/// Game: `grossman` of GAMES.md ((d, d) terminal). Domain: `0 < a < b`.
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
/// Game: `m-euclid` of GAMES.md (a position where one entry divides the other
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

// ---------------------------------------------------------------------------
// Seed 002 / 003: golden ratio and Euclid outcomes
// ---------------------------------------------------------------------------

/// Seed 002, Theorem (Cole–Davie): in `euclid` (a zero entry ends the game),
/// the first player wins from `(a, b)`, `a, b ≥ 1`, iff `max/min` is an integer
/// or `max/min > Φ`. Symmetric in `a, b`. Decided exactly via
/// `max² − max·min − min² > 0`.
///
/// Domain: `a, b ≥ 1` (returns `false` if both are 0, `true` if exactly one is:
/// outside the theorem; with a zero entry the position is terminal, so the
/// caller should not rely on that).
pub fn euclid_first_player_wins(a: u64, b: u64) -> bool {
    let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
    if lo == 0 {
        return false; // terminal in `euclid`: the player to move has lost
    }
    hi % lo == 0 || cmp_ratio_with_phi(lo, hi) == std::cmp::Ordering::Greater
}

/// Seed 003, Proposition 3.0.3 (\[CD69\]): a position `(a, b)` with
/// `1 ≤ a ≤ b` is a P-position of (seed 003's) Euclid iff `b/a < Φ`.
///
/// Seed 003's Euclid is `grossman` (and `euclid0`, and 2-heap `zeruclid` on
/// positive entries). Exact: `b² − ab − a² < 0`. Symmetric: the arguments are
/// sorted first. Domain: `a, b ≥ 1`.
pub fn ratio_below_phi(a: u64, b: u64) -> bool {
    let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
    cmp_ratio_with_phi(lo, hi) == std::cmp::Ordering::Less
}

// ---------------------------------------------------------------------------
// Seed 001: Common Divisor Nim
// ---------------------------------------------------------------------------

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
/// Game: `cdn` of GAMES.md (subtract a positive common divisor of all heaps,
/// `gcd(0, b) = b`, from one heap). Checked by brute force in `tests/brute.rs`
/// for 1 heap ≤ 200, 2 heaps ≤ 64×64, 3 heaps ≤ 24³ (and offline for 4 heaps
/// < 13, 5 heaps < 9).
pub fn cdn_grundy(heaps: &[u64]) -> u64 {
    let vals: Vec<u32> = heaps.iter().filter_map(|&x| two_adic_valuation(x)).collect();
    let Some(&m) = vals.iter().min() else { return 0 };
    let c = vals.iter().filter(|&&v| v == m).count();
    if c % 2 == 1 { m as u64 + 1 } else { 0 }
}

// ---------------------------------------------------------------------------
// Seed 003: Wythoff, Nim ⊚ Euclid, Fibonacci representation
// ---------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------
// Seed 003 Section 4: push compounds
// ---------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------
// Seed 004: Nim, misère Nim, Fibonacci Nim, divisor game
// ---------------------------------------------------------------------------

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

/// Seed 004, "Reducing by divisors" game (`divisor` of GAMES.md: subtract a
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

/// The divisor game's values (derived here, checked by search in `tests/heap_games.rs`): for
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
