//! Seed 003, sections 3 and 4: Wythoff, the push compounds, Zeruclid, TAG and subtraction games, against brute force.

use super::*;

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

pub(super) fn zeruclid3(h: [u64; 3], memo: &mut HashMap<[u64; 3], u64>) -> u64 {
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
    // docs/games.md: Thm 3.1.6 holds for push(nim, euclid0), not push(nim, euclid).
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

pub(super) fn sub_table(s: &[u64], n: usize, misere: bool) -> Vec<u64> {
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
