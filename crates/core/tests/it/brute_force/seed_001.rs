//! Seed 001: Common Divisor Nim on one to four heaps, against brute force.

use super::*;

pub(super) fn cdn_brute(h: &[u64], memo: &mut HashMap<Vec<u64>, u64>) -> u64 {
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
