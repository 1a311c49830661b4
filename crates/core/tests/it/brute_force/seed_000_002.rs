//! Seed 000 (Euclid and its relatives) and the golden-ratio statements of seeds 002 to 004, against brute force.

use super::*;

const N2: usize = 160;

#[test]
fn continued_fraction_convention() {
    assert_eq!(th::continued_fraction(11, 27), vec![2, 2, 5]);
    assert_eq!(th::continued_fraction(3, 9), vec![3]);
    assert_eq!(th::continued_fraction(2, 3), vec![1, 2]);
    for a in 1..80u64 {
        for b in a..200u64 {
            let cf = th::continued_fraction(a, b);
            if cf.len() > 1 {
                assert!(*cf.last().unwrap() > 1);
            }
            // evaluate back
            let (mut p, mut q) = (1u64, 0u64);
            for &t in cf.iter().rev() {
                let np = t * p + q;
                q = p;
                p = np;
            }
            let g = th::gcd(a, b);
            assert_eq!((p, q), (b / g, a / g));
        }
    }
}

#[test]
fn seed000_theorem1_euclid() {
    let g = table2(N2, &euclid_moves);
    for a in 1..N2 as u64 {
        assert_eq!(g[a as usize][a as usize], 1, "G_E(a,a) = 1");
        for b in a + 1..N2 as u64 {
            assert_eq!(th::euclid_grundy(a, b), g[a as usize][b as usize], "G_E({a},{b})");
        }
    }
}

#[test]
fn seed000_theorem1_grossman() {
    let g = table2(N2, &grossman_moves);
    for a in 1..N2 as u64 {
        assert_eq!(g[a as usize][a as usize], 0);
        for b in a + 1..N2 as u64 {
            assert_eq!(th::grossman_grundy(a, b), g[a as usize][b as usize], "G_G({a},{b})");
        }
    }
}

#[test]
fn seed000_theorem2_and_corollary_m_euclid() {
    let ge = table2(N2, &euclid_moves);
    let gg = table2(N2, &grossman_moves);
    let gm = table2(N2, &m_euclid_moves);
    for a in 1..N2 as u64 {
        for b in a + 1..N2 as u64 {
            if b % a == 0 {
                continue;
            }
            let (ai, bi) = (a as usize, b as usize);
            assert_eq!(th::m_euclid_grundy(a, b), gm[ai][bi], "Thm 2 G_M({a},{b})");
            assert_eq!(
                th::corollary_m_from_e(a, b, ge[ai][bi]),
                gm[ai][bi],
                "Cor (E) at ({a},{b})"
            );
            assert_eq!(
                th::corollary_m_from_g(a, b, gg[ai][bi]),
                gm[ai][bi],
                "Cor (G) at ({a},{b})"
            );
        }
    }
}

// ---------------------------------------------------------------------------
// Seeds 002 / 003 / 004: golden ratio
// ---------------------------------------------------------------------------

#[test]
fn seed002_golden_ratio_theorem() {
    let g = table2(N2, &euclid_moves);
    for a in 1..N2 as u64 {
        for b in 1..N2 as u64 {
            assert_eq!(
                th::euclid_first_player_wins(a, b),
                g[a as usize][b as usize] != 0,
                "({a},{b})"
            );
        }
    }
    // seed 004 examples: (162,100) A wins, (161,100) B wins
    assert!(th::euclid_first_player_wins(162, 100));
    assert!(!th::euclid_first_player_wins(161, 100));
}

#[test]
fn seed003_prop303_ratio_below_phi() {
    let gg = table2(N2, &grossman_moves);
    let g0 = table2(N2, &euclid0_moves);
    for a in 1..N2 as u64 {
        for b in a..N2 as u64 {
            let p = th::ratio_below_phi(a, b);
            assert_eq!(p, gg[a as usize][b as usize] == 0, "grossman ({a},{b})");
            assert_eq!(p, g0[a as usize][b as usize] == 0, "euclid0 ({a},{b})");
        }
    }
    // the statement is about grossman/euclid0, NOT Cole–Davie's euclid: there
    // (a,a) is N although 1 < Φ.
    let ge = table2(8, &euclid_moves);
    assert_ne!(ge[3][3], 0);
}

#[test]
fn exact_phi_arithmetic() {
    // ⌊nΦ⌋ against a slow exact method: largest m with m ≤ nΦ ⟺ m² − mn − n² ≤ 0 ... (m/n < Φ)
    for n in 1..5000u64 {
        let f = th::floor_phi_times(n);
        assert_eq!(th::cmp_ratio_with_phi(n, f), std::cmp::Ordering::Less);
        assert_eq!(th::cmp_ratio_with_phi(n, f + 1), std::cmp::Ordering::Greater);
        assert_eq!(th::ceil_phi_times(n), f + 1);
    }
    // large n: no overflow, consistent
    let n = 1u64 << 40;
    let f = th::floor_phi_times(n);
    assert!((f as f64 - n as f64 * th::PHI).abs() < 2e-3 * 1e3);
}
