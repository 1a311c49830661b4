//! Small, independent mex solvers for each game of GAMES.md (written apart from the crate's
//! rules and solvers), compared with the closed forms of `theory.rs` and with the solver itself
//! on ranges.
//!
//! Where a seed statement is false under computation, the test asserts the
//! computed truth (the specific counterexample) and says so in a comment.

// The only line to change when this file moves into nimscope:
use nimscope::game::theory as th;

use std::collections::{HashMap, HashSet};

// ---------------------------------------------------------------------------
// Generic helpers
// ---------------------------------------------------------------------------

fn mex<I: IntoIterator<Item = u64>>(it: I) -> u64 {
    let s: HashSet<u64> = it.into_iter().collect();
    let mut m = 0;
    while s.contains(&m) {
        m += 1;
    }
    m
}

/// Grundy table over [0,n)², for a 2-heap ruleset whose moves strictly
/// decrease a + b (true for every game here).
fn table2(n: usize, moves: &dyn Fn(u64, u64) -> Vec<(u64, u64)>) -> Vec<Vec<u64>> {
    let mut g = vec![vec![u64::MAX; n]; n];
    for s in 0..(2 * n - 1) {
        for a in 0..n {
            if s < a || s - a >= n {
                continue;
            }
            let b = s - a;
            let v = mex(moves(a as u64, b as u64).into_iter().map(|(x, y)| {
                let r = g[x as usize][y as usize];
                assert!(r != u64::MAX, "move does not decrease the sum");
                r
            }));
            g[a][b] = v;
        }
    }
    g
}

/// Values of push(R1, R2) at positions (1, g), given R1's moves and R2's table.
fn push_table2(n: usize, r1: &dyn Fn(u64, u64) -> Vec<(u64, u64)>, g2: &[Vec<u64>]) -> Vec<Vec<u64>> {
    let mut g = vec![vec![u64::MAX; n]; n];
    for s in 0..(2 * n - 1) {
        for a in 0..n {
            if s < a || s - a >= n {
                continue;
            }
            let b = s - a;
            let mut opts: Vec<u64> = r1(a as u64, b as u64)
                .into_iter()
                .map(|(x, y)| g[x as usize][y as usize])
                .collect();
            opts.push(g2[a][b]); // pushing the button
            g[a][b] = mex(opts);
        }
    }
    g
}

// ---------------------------------------------------------------------------
// Two-heap rulesets (GAMES.md)
// ---------------------------------------------------------------------------

/// Subtract positive multiples of the smaller from the larger, result ≥ `min_result`.
fn euclid_like(a: u64, b: u64, min_result: u64) -> Vec<(u64, u64)> {
    let mut v = Vec::new();
    if a == 0 || b == 0 {
        return v;
    }
    let (lo, hi, swapped) = if a <= b { (a, b, false) } else { (b, a, true) };
    let mut k = 1;
    while hi >= k * lo && hi - k * lo >= min_result {
        let r = hi - k * lo;
        v.push(if swapped { (r, lo) } else { (lo, r) });
        // when a == b the "larger" can be either; both give the same pair up to order
        k += 1;
    }
    if a == b {
        // symmetric: reducing either entry
        let extra: Vec<_> = v.iter().map(|&(x, y)| (y, x)).collect();
        v.extend(extra);
    }
    v
}

fn euclid_moves(a: u64, b: u64) -> Vec<(u64, u64)> {
    euclid_like(a, b, 0)
}
fn grossman_moves(a: u64, b: u64) -> Vec<(u64, u64)> {
    euclid_like(a, b, 1)
}
fn m_euclid_moves(a: u64, b: u64) -> Vec<(u64, u64)> {
    if a == 0 || b == 0 || a.is_multiple_of(b) || b.is_multiple_of(a) {
        return vec![];
    }
    euclid_like(a, b, 1)
}
fn euclid0_moves(a: u64, b: u64) -> Vec<(u64, u64)> {
    if a == 0 && b == 0 {
        vec![]
    } else if a == 0 || b == 0 {
        vec![(0, 0)]
    } else {
        euclid_like(a, b, 1)
    }
}
fn nim_moves(a: u64, b: u64) -> Vec<(u64, u64)> {
    let mut v: Vec<_> = (0..a).map(|x| (x, b)).collect();
    v.extend((0..b).map(|y| (a, y)));
    v
}
fn wythoff_moves(a: u64, b: u64) -> Vec<(u64, u64)> {
    let mut v = nim_moves(a, b);
    v.extend((1..=a.min(b)).map(|k| (a - k, b - k)));
    v
}

// ---------------------------------------------------------------------------
// Seed 000
// ---------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------
// Seed 001: Common Divisor Nim
// ---------------------------------------------------------------------------

fn cdn_brute(h: &[u64], memo: &mut HashMap<Vec<u64>, u64>) -> u64 {
    let mut key = h.to_vec();
    key.sort_unstable();
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let g = key.iter().fold(0, |g, &x| th::gcd(g, x));
    let mut opts = HashSet::new();
    if g > 0 {
        for d in (1..=g).filter(|d| g % d == 0) {
            for i in 0..key.len() {
                if key[i] >= d {
                    let mut t = key.clone();
                    t[i] -= d;
                    opts.insert(cdn_brute(&t, memo));
                }
            }
        }
    }
    let v = mex(opts);
    memo.insert(key, v);
    v
}

#[test]
fn seed001_cdn_one_and_two_heaps() {
    let mut memo = HashMap::new();
    for n in 0..=200u64 {
        assert_eq!(th::cdn_grundy(&[n]), cdn_brute(&[n], &mut memo), "[{n}]");
    }
    for a in 0..=64u64 {
        for b in 0..=64u64 {
            assert_eq!(th::cdn_grundy(&[a, b]), cdn_brute(&[a, b], &mut memo), "[{a},{b}]");
        }
    }
}

#[test]
fn seed001_cdn_three_heaps() {
    let mut memo = HashMap::new();
    for a in 0..=24u64 {
        for b in a..=24u64 {
            for c in b..=24u64 {
                assert_eq!(
                    th::cdn_grundy(&[a, b, c]),
                    cdn_brute(&[a, b, c], &mut memo),
                    "[{a},{b},{c}]"
                );
            }
        }
    }
}

#[test]
fn seed001_cdn_four_heaps_small() {
    let mut memo = HashMap::new();
    for a in 0..=10u64 {
        for b in a..=10u64 {
            for c in b..=10u64 {
                for d in c..=10u64 {
                    assert_eq!(th::cdn_grundy(&[a, b, c, d]), cdn_brute(&[a, b, c, d], &mut memo));
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Seed 003 Section 3: Wythoff, Nim ⊚ Euclid, Zeruclid
// ---------------------------------------------------------------------------

const NP: usize = 130;

#[test]
fn seed003_prop313_wythoff() {
    let g = table2(NP, &wythoff_moves);
    for a in 0..NP as u64 {
        for b in 0..NP as u64 {
            assert_eq!(th::is_wythoff_p(a, b), g[a as usize][b as usize] == 0, "({a},{b})");
        }
    }
    let firsts: Vec<_> = (0..12).map(th::wythoff_pair).collect();
    assert_eq!(firsts, th::TABLE_1_WYTHOFF);
}

#[test]
fn seed003_def314_and_prop315() {
    assert_eq!(
        (0..12).map(th::fibonacci).collect::<Vec<_>>(),
        vec![0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89]
    );
    assert_eq!(th::fibonacci(93), 12200160415121876738);
    for n in 0..40u32 {
        // Prop 3.1.5: (u_2n, u_2n+1) is a Wythoff pair
        assert!(th::is_wythoff_p(th::u_seq(2 * n), th::u_seq(2 * n + 1)));
    }
}

fn nim_push_euclid0_table() -> Vec<Vec<u64>> {
    let g2 = table2(NP, &euclid0_moves);
    push_table2(NP, &nim_moves, &g2)
}

#[test]
fn seed003_thm316_317_319_nim_push_euclid() {
    let g = nim_push_euclid0_table();
    let brute_p: Vec<(u64, u64)> = (0..NP as u64)
        .flat_map(|a| (a..NP as u64).map(move |b| (a, b)))
        .filter(|&(a, b)| g[a as usize][b as usize] == 0)
        .collect();
    // Table 1 of seed 003
    assert_eq!(&brute_p[..11], &th::TABLE_1_NIM_PUSH_EUCLID[..]);
    for a in 0..NP as u64 {
        for b in 0..NP as u64 {
            assert_eq!(
                th::nim_push_euclid_p_thm316(a, b),
                g[a as usize][b as usize] == 0,
                "3.1.6 ({a},{b})"
            );
        }
    }
    // Thm 3.1.7: the recurrence lists exactly the brute-force P-positions with a ≤ b,
    // as far as the table reaches (B_n < NP).
    let pairs: Vec<_> = th::nim_push_euclid_pairs_thm317(NP as u64)
        .into_iter()
        .filter(|&(_, b)| b < NP as u64)
        .collect();
    let brute_in_range: Vec<_> = brute_p.iter().copied().filter(|&(_, b)| b < NP as u64).collect();
    assert_eq!(pairs, brute_in_range);
    // Thm 3.1.9: membership and partner
    let a_set: HashSet<u64> = th::nim_push_euclid_pairs_thm317(10_000).iter().map(|p| p.0).collect();
    for (a, b) in th::nim_push_euclid_pairs_thm317(10_000) {
        assert_eq!(th::thm319_partner(a), b, "partner of {a}");
        assert!(th::nim_push_euclid_p_thm316(a, b));
    }
    for x in 0..10_000u64 {
        assert_eq!(th::thm319_in_a(x), a_set.contains(&x), "3.1.9 membership {x}");
    }
}

#[test]
fn zeckendorf_roundtrip() {
    assert_eq!(th::zeckendorf_bits(0), Vec::<u8>::new());
    assert_eq!(th::zeckendorf_bits(1), vec![1]);
    assert_eq!(th::zeckendorf_bits(6), vec![1, 0, 0, 1]);
    for n in 0..20_000u64 {
        let s = th::zeckendorf_bits(n);
        assert_eq!(th::from_fibonacci_bits(&s), n);
        assert!(s.windows(2).all(|w| w != [1, 1]));
        assert!(s.is_empty() || s[0] == 1);
    }
}

fn zeruclid3(h: [u64; 3], memo: &mut HashMap<[u64; 3], u64>) -> u64 {
    let mut k = h;
    k.sort_unstable();
    if let Some(&v) = memo.get(&k) {
        return v;
    }
    let m = k.iter().copied().filter(|&x| x > 0).min();
    let mut opts = HashSet::new();
    if let Some(m) = m {
        for i in 0..3 {
            let mut t = k[i];
            while t >= m {
                t -= m;
                let mut n = k;
                n[i] = t;
                opts.insert(zeruclid3(n, memo));
            }
        }
    }
    let v = mex(opts);
    memo.insert(k, v);
    v
}

#[test]
fn seed003_prop303_two_heap_zeruclid() {
    // Seed 003 §3: P-positions of 2-heap Zeruclid with non-zero entries = b/a < Φ.
    let mut memo = HashMap::new();
    for a in 1..70u64 {
        for b in a..70u64 {
            assert_eq!(
                zeruclid3([0, a, b], &mut memo) == 0,
                th::ratio_below_phi(a, b),
                "(0,{a},{b})"
            );
        }
    }
}

#[test]
fn seed003_thm316_is_not_about_cole_davie_euclid() {
    // GAMES.md: Thm 3.1.6 holds for push(nim, euclid0), not push(nim, euclid).
    let g2 = table2(NP, &euclid_moves);
    let g = push_table2(NP, &nim_moves, &g2);
    let differs = (0..NP as u64)
        .flat_map(|a| (0..NP as u64).map(move |b| (a, b)))
        .filter(|&(a, b)| th::nim_push_euclid_p_thm316(a, b) != (g[a as usize][b as usize] == 0))
        .count();
    assert!(differs > 0);
}

#[test]
fn seed003_prop311_zeruclid_1ab_and_thm321_322() {
    let mut memo = HashMap::new();
    // Prop 3.1.1 + Thm 3.1.6: Zeruclid(1,a,b) outcome = Nim ⊚ Euclid0 outcome
    for a in 1..60u64 {
        for b in a..60u64 {
            assert_eq!(
                zeruclid3([1, a, b], &mut memo) == 0,
                th::nim_push_euclid_p_thm316(a, b),
                "(1,{a},{b})"
            );
        }
    }
    // Thm 3.2.1 and 3.2.2 on a ≤ b < 30, c < 70 (c ≤ ⌈Φb⌉+a−1 < 70 always here)
    const C: u64 = 70;
    for a in 1..20u64 {
        for b in a..30u64 {
            let ps: Vec<u64> = (0..C).filter(|&c| zeruclid3([a, b, c], &mut memo) == 0).collect();
            let (lo, hi) = th::thm321_bounds(a, b);
            assert!(hi < C);
            for &c in ps.iter().filter(|&&c| c >= b) {
                assert!(lo <= c && c <= hi, "Thm 3.2.1 fails at ({a},{b},{c})");
            }
            // Thm 3.2.2: exactly a values of c, one per class mod a
            let classes: HashSet<u64> = ps.iter().map(|c| c % a).collect();
            assert_eq!(ps.len() as u64, a, "Thm 3.2.2 count at ({a},{b}): {ps:?}");
            assert_eq!(classes.len() as u64, a);
        }
    }
}

// ---------------------------------------------------------------------------
// Seed 003 Section 4
// ---------------------------------------------------------------------------

#[test]
fn seed003_prop411_nim_push_wythoff() {
    let g2 = table2(NP, &wythoff_moves);
    let g = push_table2(NP, &nim_moves, &g2);
    for a in 0..NP as u64 {
        for b in 0..NP as u64 {
            assert_eq!(th::prop411_p(a, b), g[a as usize][b as usize] == 0, "({a},{b})");
        }
    }
}

#[test]
fn seed003_prop412_euclid0_push_nim() {
    let g2 = table2(NP, &nim_moves);
    let g = push_table2(NP, &euclid0_moves, &g2);
    for a in 1..NP as u64 {
        for b in a..NP as u64 {
            assert_eq!(th::prop412_p(a, b), g[a as usize][b as usize] == 0, "({a},{b})");
        }
    }
    // Outside the statement's domain (a = 0): (0,0) is N, (0,b), b ≥ 1, is P.
    assert_ne!(g[0][0], 0);
    assert!(g[0][1..].iter().all(|&v| v == 0));
}

#[test]
fn seed003_prop413_wythoff_push_nim() {
    let g2 = table2(NP, &nim_moves);
    let g = push_table2(NP, &wythoff_moves, &g2);
    for a in 0..NP as u64 {
        for b in 0..NP as u64 {
            assert_eq!(th::prop413_p(a, b), g[a as usize][b as usize] == 0, "({a},{b})");
        }
    }
}

fn sub_table(s: &[u64], n: usize, misere: bool) -> Vec<u64> {
    // Normal play: Grundy values. Misère: outcomes only (0 = P, 1 = N).
    let mut g = vec![0u64; n];
    for i in 0..n {
        let opts: Vec<u64> = s
            .iter()
            .filter(|&&x| x as usize <= i)
            .map(|&x| g[i - x as usize])
            .collect();
        g[i] = if !misere {
            mex(opts)
        } else if opts.is_empty() || opts.contains(&0) {
            1 // no move (the player who cannot move wins) or a move to P
        } else {
            0
        };
    }
    g
}

#[test]
fn seed003_prop422_tag() {
    for k in 1..8u64 {
        let s: Vec<u64> = (1..=k).collect();
        let g = sub_table(&s, 200, false);
        let gm = sub_table(&s, 200, true);
        for n in 0..200u64 {
            assert_eq!(th::tag_p(k, n), g[n as usize] == 0, "k={k} n={n}");
            assert_eq!(th::tag_misere_p(k, n), gm[n as usize] == 0, "misère k={k} n={n}");
        }
    }
    // seed 004 TAG_5: n = 42 second player (B) wins, n = 50 first player (A) wins
    assert!(th::tag_p(5, 42));
    assert!(!th::tag_p(5, 50));
}

/// Outcomes (true = P) of sub(S1) ⊚ R2 at positions (1, n), n < len.
fn push_sub_outcomes(s1: &[u64], g2: &[u64], len: usize) -> Vec<bool> {
    let mut p = vec![false; len];
    for n in 0..len {
        let r1_to_p = s1.iter().any(|&x| x as usize <= n && p[n - x as usize]);
        let push_to_p = g2[n] == 0;
        p[n] = !(r1_to_p || push_to_p);
    }
    p
}

/// (preperiod, period) of an ultimately periodic sequence: the smallest `p`
/// such that the sequence is `p`-periodic on at least its second half; the
/// preperiod is then the smallest `pre` with `v[i] = v[i+p]` for all `i ≥ pre`.
fn eventual_period<T: PartialEq>(v: &[T]) -> (usize, usize) {
    let n = v.len();
    for p in 1..=n / 4 {
        let mut pre = n - p;
        while pre > 0 && v[pre - 1] == v[pre - 1 + p] {
            pre -= 1;
        }
        if pre <= n / 2 {
            return (pre, p);
        }
    }
    panic!("no period found");
}

#[test]
fn seed003_thm424_period() {
    let mut mismatches = Vec::new();
    for k1 in 1..=12u64 {
        for k2 in 1..=12u64 {
            let s1: Vec<u64> = (1..=k1).collect();
            let s2: Vec<u64> = (1..=k2).collect();
            let len = 3000;
            let g2 = sub_table(&s2, len, false);
            let p = push_sub_outcomes(&s1, &g2, len);
            let (pre, per) = eventual_period(&p);
            let stated = th::thm424_period(k1, k2);
            // the stated period must at least be *a* period from position 1 on
            let is_a_period = (1..len - stated as usize).all(|i| p[i] == p[i + stated as usize]);
            if per as u64 != stated || !is_a_period || pre != 0 {
                mismatches.push((k1, k2, stated, per, pre, is_a_period));
            }
        }
    }
    // Thm 4.2.4 holds on 1 ≤ k1, k2 ≤ 12: the stated period is the minimal one and the
    // outcome sequence (heap sizes n ≥ 0) is purely periodic (pre-period 0).
    println!("Thm 4.2.4 mismatches (k1,k2,stated,minimal period,preperiod,stated is a period): {mismatches:?}");
    assert_eq!(mismatches, Vec::<(u64, u64, u64, usize, usize, bool)>::new());
}

#[test]
fn seed003_thm423_bounds() {
    assert_eq!(th::thm423_outcome_bound(3, 4), 48);
    assert_eq!(th::thm423_value_bound(3, 2, 4), 3 * 256);
    assert_eq!(th::thm423_outcome_bound(2, 100), u64::MAX);
    // check on small sub(S1) ⊚ sub(S2) with S2 = {1..k2}: P-positions of R2 have period k = k2+1
    let sets: Vec<Vec<u64>> = vec![
        vec![1],
        vec![2],
        vec![1, 3],
        vec![2, 3],
        vec![1, 4],
        vec![2, 5],
        vec![1, 2, 5],
        vec![3, 4, 6],
    ];
    for s1 in &sets {
        for k2 in 1..=4u64 {
            let s2: Vec<u64> = (1..=k2).collect();
            let len = 4000;
            let g2 = sub_table(&s2, len, false);
            let p = push_sub_outcomes(s1, &g2, len);
            let (pre, per) = eventual_period(&p);
            let bound = th::thm423_outcome_bound(k2 + 1, *s1.iter().max().unwrap()) as usize;
            assert!(
                pre <= bound && per <= bound,
                "S1={s1:?} k2={k2}: pre={pre} per={per} bound={bound}"
            );
            // values: R2 = sub({1..k2}) values are periodic with period k2+1 too
            let mut v = vec![0u64; len];
            for n in 0..len {
                let mut opts: Vec<u64> = s1
                    .iter()
                    .filter(|&&x| x as usize <= n)
                    .map(|&x| v[n - x as usize])
                    .collect();
                opts.push(g2[n]);
                v[n] = mex(opts);
            }
            let (vpre, vper) = eventual_period(&v);
            let vb = th::thm423_value_bound(k2 + 1, s1.len() as u64, *s1.iter().max().unwrap()) as usize;
            assert!(vpre <= vb && vper <= vb);
        }
    }
}

// ---------------------------------------------------------------------------
// Seed 004
// ---------------------------------------------------------------------------

fn nim_multi(h: &[u64], misere: bool, memo: &mut HashMap<Vec<u64>, bool>) -> bool {
    // returns true iff P
    let mut key = h.to_vec();
    key.sort_unstable();
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut has_move = false;
    let mut to_p = false;
    for i in 0..key.len() {
        for y in 0..key[i] {
            has_move = true;
            let mut t = key.clone();
            t[i] = y;
            if nim_multi(&t, misere, memo) {
                to_p = true;
            }
        }
    }
    let p = if !has_move { !misere } else { !to_p };
    memo.insert(key, p);
    p
}

#[test]
fn seed004_bouton_and_misere() {
    let mut memo_n = HashMap::new();
    let mut memo_m = HashMap::new();
    for a in 0..9u64 {
        for b in 0..9u64 {
            for c in 0..9u64 {
                for d in 0..4u64 {
                    let h = [a, b, c, d];
                    let p = nim_multi(&h, false, &mut memo_n);
                    assert_eq!(th::bouton_p(&h), p);
                    let mp = nim_multi(&h, true, &mut memo_m);
                    assert_eq!(th::misere_nim_p(&h), mp, "misère {h:?}");
                    match th::misere_nim_move(&h) {
                        None => assert!(mp || h.iter().all(|&x| x == 0)),
                        Some((k, y)) => {
                            assert!(!mp && y < h[k]);
                            let mut t = h;
                            t[k] = y;
                            assert!(nim_multi(&t, true, &mut memo_m), "misère strategy from {h:?}");
                        }
                    }
                    match th::bouton_winning_move(&h) {
                        None => assert!(p),
                        Some((k, y)) => {
                            assert!(!p && y < h[k]);
                            let mut t = h;
                            t[k] = y;
                            assert!(nim_multi(&t, false, &mut memo_n));
                        }
                    }
                }
            }
        }
    }
    assert!(th::bouton_p(&[1, 3, 5, 7]));
    // seed 004 "Winning Strategy" table of P-positions
    for n in 0..50u64 {
        assert!(th::bouton_p(&[n, n]) && th::bouton_p(&[1, 1, n, n]));
    }
    for h in [[1, 2, 3], [1, 4, 5], [1, 6, 7], [1, 8, 9], [2, 4, 6], [2, 5, 7]] {
        assert!(th::bouton_p(&h));
    }
    for h in [[1, 2, 4, 7], [1, 2, 5, 6], [1, 3, 4, 6], [1, 3, 5, 7], [2, 3, 4, 5]] {
        assert!(th::bouton_p(&h));
    }
    assert_eq!(th::nim_sum(&[5, 6, 7]), 4);
    // Seed 004 slide "Nim-Sum Examples" says 9 ⊕ 10 ⊕ 15 = 10: an arithmetic slip.
    // Its own bit table gives 1100₂ = 12, and its winning moves (remove 4 from 9
    // or 10, or 12 from 15) are the moves for a nim-sum of 12. The computed truth:
    assert_eq!(th::nim_sum(&[9, 10, 15]), 12);
    assert_ne!(th::nim_sum(&[9, 10, 15]), 10);
    assert!(th::bouton_p(&[5, 10, 15]) && th::bouton_p(&[9, 6, 15]) && th::bouton_p(&[9, 10, 3]));
}

#[test]
fn seed004_fibonacci_nim() {
    const N: usize = 300;
    // p[n][q] for q ≤ n (q beyond n is equivalent to q = n)
    let mut p = vec![vec![false; N]; N];
    for n in 0..N {
        for q in 0..N {
            let qq = q.min(n);
            let to_p = (1..=qq).any(|k| p[n - k][(2 * k).min(N - 1)]);
            p[n][q] = !to_p;
        }
    }
    for n in 0..N as u64 {
        for q in 0..N as u64 {
            let bp = p[n as usize][q as usize];
            assert_eq!(th::fibonacci_nim_p(n, q), bp, "({n},{q})");
            match th::fibonacci_nim_move(n, q) {
                None => assert!(bp),
                Some(k) => {
                    assert!(k >= 1 && k <= q.min(n));
                    let to = ((n - k) as usize, ((2 * k) as usize).min(N - 1));
                    assert!(p[to.0][to.1], "strategy move from ({n},{q}) takes {k}");
                }
            }
        }
        if n >= 1 {
            assert_eq!(
                th::fibonacci_fresh_pile_p(n),
                p[n as usize][n as usize - 1],
                "fresh {n}"
            );
        }
    }
    assert!(!th::fibonacci_fresh_pile_p(140));
    assert!(th::fibonacci_fresh_pile_p(144));
}

#[test]
fn seed004_divisor_game() {
    let n = 2000usize;
    let mut p = vec![false; n + 1];
    for m in 1..=n {
        let to_p = (1..m).filter(|d| m % d == 0).any(|d| p[m - d]);
        p[m] = !to_p;
    }
    for m in 1..=n as u64 {
        assert_eq!(th::divisor_game_p(m), p[m as usize], "{m}");
    }
    assert!(!th::divisor_game_p(60)); // seed 004: A wins from 60
}

// ---------------------------------------------------------------------------
// The crate's solver against these brute forces, ruleset by ruleset
// ---------------------------------------------------------------------------

mod solver {
    use super::*;
    use nimscope::game::Layout;
    use nimscope::game::{Position, Ruleset};
    use nimscope::solver::Control;
    use nimscope::solver::grid::grid;
    use nimscope::solver::search::Search;
    use nimscope::solver::sequence::sequence;

    const N: usize = 40;

    fn solver_map(rules: &str) -> Vec<Vec<Option<u32>>> {
        let r: Ruleset = rules.parse().unwrap();
        let g = grid(&r, &Layout::Plain, 0..N as u64, 0..N as u64, &Control::new()).unwrap();
        g.rows_iter().map(|(_, row)| row).collect()
    }

    fn same(rules: &str, brute: &[Vec<u64>], cell: impl Fn(usize, usize) -> bool) {
        let got = solver_map(rules);
        for a in 0..N {
            for b in 0..N {
                let expect = cell(a, b).then(|| brute[a][b] as u32);
                assert_eq!(got[a][b], expect, "{rules} at ({a},{b})");
            }
        }
    }

    fn misere_table2(n: usize, moves: &dyn Fn(u64, u64) -> Vec<(u64, u64)>) -> Vec<Vec<u64>> {
        let mut g = vec![vec![0u64; n]; n];
        for s in 0..(2 * n - 1) {
            for a in 0..n.min(s + 1) {
                if s - a >= n {
                    continue;
                }
                let b = s - a;
                let opts = moves(a as u64, b as u64);
                g[a][b] = if opts.is_empty() {
                    1
                } else {
                    mex(opts.into_iter().map(|(x, y)| g[x as usize][y as usize]))
                };
            }
        }
        g
    }

    #[test]
    fn two_heap_rulesets() {
        let all = |_: usize, _: usize| true;
        let positive = |a: usize, b: usize| a >= 1 && b >= 1;
        same("nim", &table2(N, &nim_moves), all);
        same("wythoff", &table2(N, &wythoff_moves), all);
        same("euclid", &table2(N, &euclid_moves), all);
        same("grossman", &table2(N, &grossman_moves), positive);
        same("m-euclid", &table2(N, &m_euclid_moves), positive);
        same("euclid0", &table2(N, &euclid0_moves), all);
        let mut memo = HashMap::new();
        let cdn: Vec<Vec<u64>> = (0..N as u64)
            .map(|a| (0..N as u64).map(|b| cdn_brute(&[a, b], &mut memo)).collect())
            .collect();
        same("cdn", &cdn, all);
        let mut memo = HashMap::new();
        let zer: Vec<Vec<u64>> = (0..N as u64)
            .map(|a| (0..N as u64).map(|b| zeruclid3([0, a, b], &mut memo)).collect())
            .collect();
        same("zeruclid", &zer, all);
        same("misere(wythoff)", &misere_table2(N, &wythoff_moves), all);
        same("misere(euclid0)", &misere_table2(N, &euclid0_moves), all);
    }

    #[test]
    fn push_compounds_and_slices() {
        let all = |_: usize, _: usize| true;
        let e0 = table2(N, &euclid0_moves);
        same("push(nim,euclid0)", &push_table2(N, &nim_moves, &e0), all);
        let nim = table2(N, &nim_moves);
        same("push(wythoff,nim)", &push_table2(N, &wythoff_moves, &nim), all);
        same("push(euclid0,nim)", &push_table2(N, &euclid0_moves, &nim), all);
        let w = table2(N, &wythoff_moves);
        same(
            "push(nim,push(euclid0,wythoff))",
            &push_table2(N, &nim_moves, &push_table2(N, &euclid0_moves, &w)),
            all,
        );
        // Zeruclid (1, a, b) as a slice of the three-heap game
        let r: Ruleset = "zeruclid".parse().unwrap();
        let g = grid(
            &r,
            &Layout::Slice(vec![Some(1), None, None]),
            0..20,
            0..20,
            &Control::new(),
        )
        .unwrap();
        let mut memo = HashMap::new();
        for a in 0..20 {
            for b in 0..20 {
                assert_eq!(g.get(a, b), Some(zeruclid3([1, a, b], &mut memo) as u32), "(1,{a},{b})");
            }
        }
    }

    fn solver_seq(rules: &str, n: usize) -> Vec<Option<u32>> {
        sequence(&rules.parse().unwrap(), n as u64, &Control::new())
            .unwrap()
            .values
    }

    /// Octal game values on one heap by the plain definition (a split heap's value is the
    /// nim-sum of its parts).
    fn octal_brute(digits: &[u8], n: usize) -> Vec<u64> {
        let mut g = vec![0u64; n];
        for h in 0..n {
            let mut opts = Vec::new();
            for (i, &d) in digits.iter().enumerate() {
                let k = i + 1;
                if k > h {
                    break;
                }
                let rest = h - k;
                if d & 1 != 0 && rest == 0 {
                    opts.push(0);
                }
                if d & 2 != 0 && rest > 0 {
                    opts.push(g[rest]);
                }
                if d & 4 != 0 {
                    for x in 1..rest {
                        opts.push(g[x] ^ g[rest - x]);
                    }
                }
            }
            g[h] = mex(opts);
        }
        g
    }

    #[test]
    fn one_heap_rulesets() {
        let n = 300;
        let some = |v: Vec<u64>| v.into_iter().map(|x| Some(x as u32)).collect::<Vec<_>>();
        for set in [&[1u64, 3, 4][..], &[2, 5], &[1, 2, 3, 4, 5]] {
            let text = set.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
            assert_eq!(
                solver_seq(&format!("sub({text})"), n),
                some(sub_table(set, n, false)),
                "sub({text})"
            );
            let misere: Vec<bool> = solver_seq(&format!("misere(sub({text}))"), n)
                .iter()
                .map(|v| *v == Some(0))
                .collect();
            let brute: Vec<bool> = sub_table(set, n, true).iter().map(|&v| v == 0).collect();
            assert_eq!(misere, brute, "misere(sub({text}))");
        }
        assert_eq!(solver_seq("tag(5)", n), some(sub_table(&[1, 2, 3, 4, 5], n, false)));
        for (code, digits) in [
            ("0.07", &[0u8, 7][..]),
            ("0.77", &[7, 7]),
            ("0.137", &[1, 3, 7]),
            ("0.6", &[6]),
            ("0.34", &[3, 4]),
        ] {
            assert_eq!(
                solver_seq(&format!("octal({code})"), 2000),
                some(octal_brute(digits, 2000)),
                "octal({code})"
            );
        }
        // divisor game: subtract a proper divisor; 1 is terminal; 0 is not a position
        let mut d = vec![0u64; n];
        for i in 2..n {
            d[i] = mex((1..i).filter(|k| i % k == 0).map(|k| d[i - k]));
        }
        let mut expect = some(d);
        expect[0] = None;
        assert_eq!(solver_seq("divisor", n), expect);
    }

    #[test]
    fn fibonacci_nim_and_euclid3() {
        fn fib(n: u64, q: u64, memo: &mut HashMap<(u64, u64), u64>) -> u64 {
            if let Some(&v) = memo.get(&(n, q)) {
                return v;
            }
            let v = mex((1..=q.min(n)).map(|k| fib(n - k, 2 * k, memo)).collect::<Vec<_>>());
            memo.insert((n, q), v);
            v
        }
        let r: Ruleset = "fibonacci-nim".parse().unwrap();
        let g = grid(&r, &Layout::Plain, 0..60, 0..70, &Control::new()).unwrap();
        let mut memo = HashMap::new();
        for n in 0..60 {
            for q in 0..70 {
                assert_eq!(g.get(n, q), Some(fib(n, q, &mut memo) as u32), "({n},{q})");
            }
        }
        fn e3(h: [u64; 3], memo: &mut HashMap<[u64; 3], u64>) -> u64 {
            if h.contains(&0) {
                return 0;
            }
            if let Some(&v) = memo.get(&h) {
                return v;
            }
            let mut opts = Vec::new();
            for j in 0..3 {
                for i in 0..3 {
                    if i != j {
                        let mut k = 1;
                        while k * h[i] <= h[j] {
                            let mut o = h;
                            o[j] -= k * h[i];
                            opts.push(e3(o, memo));
                            k += 1;
                        }
                    }
                }
            }
            let v = mex(opts);
            memo.insert(h, v);
            v
        }
        let r: Ruleset = "euclid3".parse().unwrap();
        let mut s = Search::new(r);
        let mut memo = HashMap::new();
        for a in 0..9 {
            for b in 0..9 {
                for c in 0..9 {
                    let v = s.value(&Position::heaps(&[a, b, c]), &Control::new()).unwrap();
                    assert_eq!(v as u64, e3([a, b, c], &mut memo), "({a},{b},{c})");
                }
            }
        }
    }
}
