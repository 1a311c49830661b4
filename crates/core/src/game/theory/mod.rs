//! Closed forms and characterisations from the seed papers, implemented with
//! pure (exact, integer) arithmetic and **no game-tree search**.
//!
//! Every public function cites the statement it implements. Statements are
//! implemented *as written* in the seed, even where a brute-force solver
//! disagrees; such disagreements are recorded in the function's rustdoc
//! ("Checked:") and asserted as counterexamples in `crates/core/tests/it/brute_force/`.
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
//! Brute-force status (`crates/core/tests/it/brute_force/`): every statement above agrees with a
//! plain mex search on the tested ranges. Noted along the way: seed 004's slide
//! "Nim-Sum Examples" prints `9 ⊕ 10 ⊕ 15 = 10`; the value is 12 (its own bit
//! table and winning moves agree with 12). Prop 4.1.2 is stated for `a ≥ 1`
//! only; under `euclid0`, `(0, b)` with `b ≥ 1` is P and `(0, 0)` is N.
//!
//! Game names (`euclid`, `grossman`, `m-euclid`, `euclid0`, `zeruclid`, `cdn`, …)
//! are those of `docs/games.md`.

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

mod golden;
mod seed_000;
mod seed_001;
mod seed_003;
mod seed_003_push;
mod seed_004;

pub use golden::*;
pub use seed_000::*;
pub use seed_001::*;
pub use seed_003::*;
pub use seed_003_push::*;
pub use seed_004::*;
