//! Seed 004: Bouton, misère Nim, Fibonacci Nim and the divisor game, against brute force.

use super::*;

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
