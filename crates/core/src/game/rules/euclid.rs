//! The Euclid family on two heaps (docs/games.md): Cole–Davie's Euclid, Grossman's game, its
//! extension to zero heaps used by seed 003 (`euclid0`), M-Euclid, and 3-Euclid on triples.
//!
//! All subtract a positive multiple of the smaller heap from the larger; they differ in how far
//! the result may go and in which positions end the game.

/// Which member of the Euclid family.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum EuclidVariant {
    /// Cole–Davie (seeds 000, 002, 004): result ≥ 0; a zero entry ends the game.
    ColeDavie,
    /// Grossman (seed 000): a, b ≥ 1, result ≥ 1; (d, d) ends the game.
    Grossman,
    /// Grossman extended to N² (seed 003 §3): (0, i) and (i, 0), i > 0, move to (0, 0).
    Zero,
    /// M-Euclid (seed 000): as Grossman, but the game ends when one entry divides the other.
    Multiple,
}

impl EuclidVariant {
    /// Whether (a, b) is a position of this variant.
    pub fn is_position(self, a: u64, b: u64) -> bool {
        match self {
            EuclidVariant::ColeDavie | EuclidVariant::Zero => true,
            EuclidVariant::Grossman | EuclidVariant::Multiple => a >= 1 && b >= 1,
        }
    }

    /// Appends the options of (a, b), which must be a position.
    pub fn options(self, a: u64, b: u64, out: &mut Vec<(u64, u64)>) {
        let (lo, hi) = (a.min(b), a.max(b));
        // The option (lo, hi - k·lo) written back in the original heap order.
        let mut push = |rest: u64| out.push(if a <= b { (a, rest) } else { (rest, b) });
        match self {
            EuclidVariant::ColeDavie => {
                if lo == 0 {
                    return;
                }
                if a == b {
                    // Either heap may be the one reduced: (a, 0) and (0, a).
                    out.push((a, 0));
                    out.push((0, a));
                    return;
                }
                for k in 1..=hi / lo {
                    push(hi - k * lo);
                }
            }
            EuclidVariant::Grossman | EuclidVariant::Zero => {
                if lo == 0 {
                    if hi > 0 && self == EuclidVariant::Zero {
                        out.push((0, 0));
                    }
                    return;
                }
                for k in 1..=(hi - 1) / lo {
                    push(hi - k * lo);
                }
            }
            EuclidVariant::Multiple => {
                if lo == 0 || hi % lo == 0 {
                    return;
                }
                for k in 1..=hi / lo {
                    push(hi - k * lo);
                }
            }
        }
    }
}

/// 3-Euclid (seed 002, triples): subtract a positive multiple of one entry from one of the
/// other two, the result ≥ 0; a zero entry ends the game.
pub fn euclid3_options(h: &[u64], out: &mut Vec<Vec<u64>>) {
    if h.contains(&0) {
        return;
    }
    for j in 0..h.len() {
        for i in 0..h.len() {
            if i == j {
                continue;
            }
            let mut v = h[j];
            while v >= h[i] {
                v -= h[i];
                let mut o = h.to_vec();
                o[j] = v;
                if !out.contains(&o) {
                    out.push(o);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_002_example_moves() {
        // "from (11,27), we can move to either (11,16) or to (11,5)"
        let mut out = Vec::new();
        EuclidVariant::ColeDavie.options(11, 27, &mut out);
        assert_eq!(out, vec![(11, 16), (11, 5)]);
    }

    #[test]
    fn terminal_conventions() {
        let mut out = Vec::new();
        EuclidVariant::Grossman.options(4, 4, &mut out);
        assert!(out.is_empty());
        EuclidVariant::Multiple.options(3, 9, &mut out);
        assert!(out.is_empty());
        EuclidVariant::Zero.options(0, 5, &mut out);
        assert_eq!(out, vec![(0, 0)]);
        out.clear();
        EuclidVariant::Grossman.options(7, 3, &mut out);
        assert_eq!(out, vec![(4, 3), (1, 3)]);
    }
}
