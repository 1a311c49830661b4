//! The quotient against independent work: the plain misère search on every small collection,
//! misère Nim's closed form (Bouton), and the sizes the literature reports.

use super::{OctalCode, Outcome, Quotient, admit_growth, compute, growth_bytes};
use crate::game::{Position, Ruleset};
use crate::solver::search::Search;
use crate::solver::{Control, SolveError};
use std::collections::HashSet;

/// Every collection of at most `count` heaps of sizes `1..=heaps` (ascending).
fn collections(heaps: u64, count: usize) -> Vec<Vec<u64>> {
    let mut out = vec![vec![]];
    let mut layer: Vec<Vec<u64>> = vec![vec![]];
    for _ in 0..count {
        let mut next = Vec::new();
        for c in &layer {
            let from = c.last().copied().unwrap_or(1);
            for h in from..=heaps {
                let mut d = c.clone();
                d.push(h);
                next.push(d);
            }
        }
        out.extend(next.iter().cloned());
        layer = next;
    }
    out
}

fn code(text: &str) -> OctalCode {
    text.parse().unwrap()
}

/// The quotient's outcome of every collection of up to `count` heaps of at most `heaps` equals
/// the plain memoised search of `misere(octal(C))`.
fn agrees_with_search(c: &str, heaps: u16, count: usize) -> Quotient {
    let control = Control::new();
    let q = compute(&code(c), heaps, &control).unwrap();
    let r: Ruleset = format!("misere(octal({c}))").parse().unwrap();
    let mut search = Search::plain(r);
    for col in collections(u64::from(heaps), count) {
        let p = if col.is_empty() {
            Position::Heaps(vec![0])
        } else {
            Position::Heaps(col.clone())
        };
        let g = search.value(&p, &control).unwrap();
        let expect = if g == 0 { Outcome::P } else { Outcome::N };
        assert_eq!(q.outcome(&col), Some(expect), "{c}: {col:?}");
    }
    q
}

#[test]
fn wild_and_tame_codes_agree_with_the_plain_search() {
    for (c, heaps, count) in [
        ("0.07", 12, 4),
        ("0.77", 12, 4),
        ("0.137", 12, 4),
        ("0.6", 12, 4),
        ("0.333", 12, 4),      // TAG_3 = sub(1,2,3)
        ("0.33333333", 10, 4), // Nim on heaps up to 8
    ] {
        agrees_with_search(c, heaps, count);
    }
}

#[test]
fn codes_that_split_without_taking_agree_with_the_plain_search() {
    // a split without taking keeps the tokens: the lightest collections are ordered by a
    // weight every move lowers (Grundy's game failed at heap 13 when ordered by tokens)
    for (c, heaps, count) in [("4u.0", 18, 2), ("4u.0", 13, 3), ("4.007", 12, 2)] {
        agrees_with_search(c, heaps, count);
    }
}

#[test]
fn wild_codes_agree_on_more_heaps_per_collection() {
    for c in ["0.07", "0.77"] {
        agrees_with_search(c, 8, 6);
    }
}

/// Misère Nim (Bouton): P exactly when every heap is 0 or 1 and their number is odd, or some
/// heap is 2 or more and the nim-sum is 0.
fn misere_nim_is_p(col: &[u64]) -> bool {
    if col.iter().any(|&h| h >= 2) {
        col.iter().fold(0, |x, &h| x ^ h) == 0
    } else {
        col.iter().filter(|&&h| h == 1).count() % 2 == 1
    }
}

#[test]
fn nim_is_tame_with_misere_nims_sizes_and_outcomes() {
    // Nim on heaps up to 9: the octal code with nine 3s
    let q = compute(&code("0.333333333"), 9, &Control::new()).unwrap();
    // heaps below 2^k give 2^k + 2 elements (k ≥ 2), heaps 0 and 1 give 2
    let sizes: Vec<usize> = q.stages().iter().map(|s| s.size).collect();
    assert_eq!(sizes, [2, 6, 6, 10, 10, 10, 10, 18, 18]);
    assert!(q.stages().iter().all(|s| s.tame));
    assert_eq!(q.first_wild_heap(), None);
    assert_eq!(q.grew_at(), [1, 2, 4, 8]);
    for col in collections(9, 5) {
        let expect = if misere_nim_is_p(&col) { Outcome::P } else { Outcome::N };
        assert_eq!(q.outcome(&col), Some(expect), "{col:?}");
    }
}

#[test]
fn tag_is_tame() {
    // TAG_3 = sub(1,2,3): heap n plays like a nim heap of n mod 4
    let q = compute(&code("0.333"), 20, &Control::new()).unwrap();
    assert!(q.is_tame());
    assert_eq!(q.size(), 6);
    for col in collections(20, 3) {
        let as_nim: Vec<u64> = col.iter().map(|h| h % 4).collect();
        let expect = if misere_nim_is_p(&as_nim) {
            Outcome::P
        } else {
            Outcome::N
        };
        assert_eq!(q.outcome(&col), Some(expect), "{col:?}");
    }
}

#[test]
fn dawsons_kayles_is_wild_and_presented() {
    let q = compute(&code("0.07"), 14, &Control::new()).unwrap();
    assert!(!q.is_tame());
    let first_wild = q.first_wild_heap().unwrap();
    assert!(q.stages()[usize::from(first_wild) - 2].tame);
    // the presentation's normal forms name every element once
    let names: HashSet<String> = (0..q.size() as u32).map(|x| q.name(x)).collect();
    assert_eq!(names.len(), q.size());
    // every heap's element is the product of the generators its normal form says
    for h in 0..=q.heaps() {
        let x = q.heap_element(h);
        let word = &q.presentation().normal[x as usize];
        let mut y = 0;
        for (i, &e) in word.iter().enumerate() {
            for _ in 0..e {
                y = q.monoid().mul(y, q.heap_element(q.generator_heaps()[i]));
            }
        }
        assert_eq!(y, x, "heap {h}");
    }
}

#[test]
fn a_cancelled_computation_stops() {
    let c = Control::new();
    c.cancel();
    // a code no other test asks for: a quotient kept (in this process or the cache folder) is
    // given at once, cancelled or not, and a cancelled computation is never kept
    assert_eq!(compute(&code("0.4271"), 20, &c).unwrap_err(), SolveError::Cancelled);
}

#[test]
fn dawsons_kayles_reaches_siegels_360_elements_at_heap_30() {
    // Plambeck and Siegel report 360 elements for 0.07 restricted to heaps up to 30
    let q = compute(&code("0.07"), 30, &Control::new()).unwrap();
    assert_eq!(q.size(), 360);
    assert!(q.monoid().is_reduced());
    // the earlier sizes are this engine's own (2 from heap 2, 6 from 4, 12 from 10, 24 from 14
    // to 24, as the plain search gave before): the quotient grows past heap 24 without it
    let sizes: Vec<usize> = q.stages().iter().map(|s| s.size).collect();
    assert_eq!(
        &sizes[..24],
        [
            1, 2, 2, 6, 6, 6, 6, 6, 6, 12, 12, 12, 12, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24
        ]
    );
    assert!(q.stages()[24].split, "heap 25 splits earlier elements");
}

/// Every collection of one heap in `big` and up to `count` heaps of at most `small`.
fn one_big_heap(big: std::ops::RangeInclusive<u64>, small: u64, count: usize) -> Vec<Vec<u64>> {
    let mut out = Vec::new();
    for b in big {
        for mut c in collections(small, count) {
            c.push(b);
            out.push(c);
        }
    }
    out
}

#[test]
fn heaps_past_the_old_reach_agree_with_the_plain_search() {
    // the heaps where earlier elements split (0.07 at 25, 27 and 30; 0.137 at 24, 26, 29, 30),
    // each with small heaps beside it, against the plain search
    for (c, heaps) in [("0.07", 30), ("0.137", 30)] {
        let control = Control::new();
        let q = compute(&code(c), heaps, &control).unwrap();
        let r: Ruleset = format!("misere(octal({c}))").parse().unwrap();
        let mut search = Search::plain(r);
        for col in one_big_heap(23..=u64::from(heaps), 5, 2) {
            let g = search.value(&Position::Heaps(col.clone()), &control).unwrap();
            let expect = if g == 0 { Outcome::P } else { Outcome::N };
            assert_eq!(q.outcome(&col), Some(expect), "{c}: {col:?}");
        }
    }
}

#[test]
fn a_quotient_past_the_size_limit_is_refused_with_its_size_so_far() {
    // 0.6 has 304 elements by heap 16; heap 17's candidates grow past the limit
    let e = compute(&code("0.6"), 17, &Control::new()).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("at heap 17") && text.contains("304 elements for heaps up to 16"),
        "{text}"
    );
}

/// A growth whose options cannot be held is refused before any heap is added (the heap of
/// 1000 of 0.123456789 alone has about 166,000 options leaving three heaps), and one that fits
/// goes on: the estimate is the listing of the largest heap, not of all of them (55 million).
#[test]
fn a_growth_past_its_budget_is_refused_before_it_starts() {
    let c = code("0.123456789");
    let bytes = growth_bytes(&c, 1000);
    assert!((16 << 20..256 << 20).contains(&bytes), "{bytes}");
    let small = Control::with_budget(16 << 20);
    match admit_growth(&c, 1000, &small) {
        Err(SolveError::OverBudget { needed, budget, .. }) => assert_eq!((needed, budget), (bytes, 16 << 20)),
        other => panic!("{other:?}"),
    }
    // compute refuses at once: nothing was grown, so nothing is kept
    assert!(matches!(compute(&c, 1000, &small), Err(SolveError::OverBudget { .. })));
    assert!(admit_growth(&c, 1000, &Control::new()).is_ok());
    assert!(admit_growth(&c, 40, &small).is_ok());
}
