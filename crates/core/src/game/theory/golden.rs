//! Seeds 002 and 003: the golden ratio and Euclid's outcomes.

use super::cmp_ratio_with_phi;

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
