//! Tests of `sequence`.

use super::*;
use crate::game::{Position, Shape};
use crate::solver::period::certify_splits;
use crate::solver::search::Search;

fn seq(rules: &str, n: u64) -> Sequence {
    sequence(&rules.parse().unwrap(), n, &Control::new()).unwrap()
}

fn plain(rules: &str, n: u64) -> Vec<Option<u32>> {
    let r: Ruleset = rules.parse().unwrap();
    let mut s = Search::plain(r.clone());
    (0..n)
        .map(|i| {
            let p = if r.shape() == Shape::Fibonacci {
                Position::fresh_fib(i)
            } else {
                Position::Heaps(vec![i])
            };
            r.check_position(&p).ok().map(|_| s.value(&p, &Control::new()).unwrap())
        })
        .collect()
}

#[test]
fn closed_form_sequences_hold_nothing_and_match_the_search() {
    // 2^32 values of Nim under a 1 MiB budget: the formula is held, not the values
    let c = Control::with_budget(1 << 20);
    let nim = compute(&"nim".parse().unwrap(), 1 << 32, &c).unwrap();
    assert!(nim.bytes() < 1024, "{}", nim.bytes());
    assert_eq!(nim.get((1 << 32) - 1), Some(u32::MAX));
    for rules in [
        "nim",
        "misere(nim)",
        "zeruclid",
        "cdn",
        "divisor",
        "push(nim,tag(2))",
        "misere(push(nim,nim))",
    ] {
        assert_eq!(seq(rules, 300).values, plain(rules, 300), "{rules}");
    }
    let m = compute(&"misere(nim)".parse().unwrap(), 1 << 32, &c).unwrap();
    assert_eq!(m.method, SequenceMethod::ClosedForm);
}

#[test]
fn fills_match_plain_search() {
    for rules in [
        "sub(1,3,4)",
        "tag(5)",
        "divisor",
        "octal(0.07)",
        "octal(0.77)",
        "octal(0.137)",
        "octal(0.6)",
        "misere(sub(2,3))",
        "misere(tag(3))",
        "push(tag(2),tag(3))",
        "push(sub(1,4),octal(0.07))",
        "misere(push(tag(3),sub(2,5)))",
        "push(push(tag(1),tag(2)),tag(4))",
        "nim",
        "cdn",
        "zeruclid",
        "fibonacci-nim",
        "push(octal(0.07),octal(0.07))",
        "misere(octal(0.07))",
    ] {
        // the plain search plays octal games on collections of heaps: keep them small
        let n = if rules.contains("octal(0.07),") || rules.starts_with("misere(octal") {
            16
        } else if rules.contains("octal") {
            40
        } else {
            300
        };
        assert_eq!(seq(rules, n).values, plain(rules, n), "{rules}");
    }
}

#[test]
fn dawson_kayles_published_values_and_period() {
    // Winning Ways: 0.07 in cell indexing, period 34
    let expect = [
        0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 2, 7, 4, 0, 1,
        1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 2,
    ];
    let s = seq("octal(0.07)", 100_000);
    let got: Vec<u32> = s.values[..expect.len()].iter().map(|v| v.unwrap()).collect();
    assert_eq!(got, expect);
    assert_eq!(s.periodicity.map(|p| p.period), Some(34));
    // the extrapolated tail agrees with a direct computation (mex over removing 2 from an
    // end or splitting what is left in two) where both exist
    let mut naive = vec![0u32; 3000];
    for n in 2..naive.len() {
        let rest = n - 2;
        let mut seen: Vec<u32> = (0..=rest / 2).map(|x| naive[x] ^ naive[rest - x]).collect();
        seen.sort_unstable();
        naive[n] = (0..).find(|v| seen.binary_search(v).is_err()).unwrap();
    }
    let got: Vec<u32> = s.values[..3000].iter().map(|v| v.unwrap()).collect();
    assert_eq!(got, naive);
}

#[test]
fn kayles_published_values_and_period() {
    let expect = [
        0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1, 2, 8, 5, 4, 7, 2, 1, 8, 6, 7,
    ];
    let s = seq("octal(0.77)", 2000);
    let got: Vec<u32> = s.values[..expect.len()].iter().map(|v| v.unwrap()).collect();
    assert_eq!(got, expect);
    assert_eq!(
        s.periodicity,
        Some(Periodicity {
            period: 12,
            preperiod: 71
        })
    );
}

#[test]
fn split_certificates_keep_parts_non_empty() {
    // 0.8 (take one, leave three heaps): 0,0,0,0,1 — four equal values prove nothing
    assert_eq!(certify_splits(&[0, 0, 0, 0], 3, 1), None);
    assert_eq!(certify_splits(&[0, 0, 0], 2, 1), None);
    // a long constant run does: from max(n0, 1) = 1 the bound is 3·(1 + 1) + 1 = 7
    assert_eq!(
        certify_splits(&[0; 7], 3, 1),
        Some(Periodicity {
            period: 1,
            preperiod: 0
        })
    );
}

#[test]
fn subtraction_periods() {
    assert_eq!(
        seq("tag(5)", 100).periodicity,
        Some(Periodicity {
            period: 6,
            preperiod: 0
        })
    );
    assert_eq!(seq("divisor", 100).periodicity, None);
    assert_eq!(seq("divisor", 3).values, vec![None, Some(0), Some(1)]);
}
