//! The crate's solver against these brute forces, ruleset by ruleset.

use super::seed_001::cdn_brute;
use super::seed_003::{sub_table, zeruclid3};
use super::*;
use nimscope_core::game::Layout;
use nimscope_core::game::{Position, Ruleset};
use nimscope_core::solver::Control;
use nimscope_core::solver::grid::grid;
use nimscope_core::solver::search::Search;
use nimscope_core::solver::sequence::sequence;

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
