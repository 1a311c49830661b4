//! Tests of `evaluate`.
use super::{OctalCode, Position, Ruleset, ValueMethod};
use crate::solver::misere_quotient::Quotient;
use crate::solver::search::Search;
use crate::solver::{Control, Evaluator, SolveError};

/// Every family's examples (the family table's), each position valued by the evaluator's route
/// and by the plain search.
#[test]
fn every_familys_examples_agree_with_the_plain_search() {
    let c = Control::new();
    let mut e = Evaluator::new();
    for ex in crate::game::families::examples() {
        let r: Ruleset = ex.ruleset.parse().unwrap();
        let mut plain = Search::plain(r.clone());
        for text in ex.positions {
            let p = r.parse_position(text).unwrap();
            assert_eq!(
                e.value(&r, &p, &c).unwrap(),
                plain.value(&p, &c).unwrap(),
                "{} {text}",
                ex.ruleset
            );
        }
    }
}

#[test]
fn every_route_agrees_with_the_plain_search() {
    let c = Control::new();
    let mut e = Evaluator::new();
    for (rules, positions) in [
        ("wythoff", &["3,5", "10,7", "0,0"][..]),
        ("push(nim,euclid0)", &["2,4", "pushed(2,4)", "0,1"]),
        (
            "push(push(nim,wythoff),euclid)",
            &["4,6", "pushed1(4,6)", "pushed(4,6)", "pushed1(pushed(2,2))"],
        ),
        ("sum(tag(3),wythoff)", &["5+2,3"]),
        ("fibonacci-nim", &["20", "20:5", "13"]),
        ("octal(0.07)", &["30", "5,7"]),
        ("misere(octal(0.07))", &["5,7"]),
        ("euclid3", &["3,5,7"]),
        ("zeruclid", &["1,3,5", "4,9"]),
        ("cram", &["3x3", "2x4", "..#/.../#.."]),
        ("cram-v", &["3x3", ".#./..."]),
        ("cram-h", &["2x5"]),
        ("push-cram", &["3x3", "2x3", "pushed(3x3)"]),
        ("misere(cram)", &["2x3"]),
    ] {
        let r: Ruleset = rules.parse().unwrap();
        let mut plain = Search::plain(r.clone());
        for text in positions {
            let p = r
                .parse_position(text)
                .unwrap_or_else(|err| panic!("{rules} {text}: {err}"));
            assert_eq!(
                e.value(&r, &p, &c).unwrap(),
                plain.value(&p, &c).unwrap(),
                "{rules} {text}"
            );
            for o in e.options(&r, &p, &c).unwrap() {
                assert_eq!(
                    o.grundy,
                    plain.value(&o.position, &c).unwrap(),
                    "{rules} {text} → {}",
                    o.to
                );
            }
        }
    }
}

#[test]
fn huge_heaps_are_answered_through_the_certified_period() {
    // Dawson's Kayles by the plain recurrence (a move removes 2 from a row of n cells,
    // leaving the two sides), and its published period 34 (Winning Ways) for n ≥ 53.
    let mut g = vec![0u32; 400];
    for n in 2..g.len() {
        let rest = n - 2;
        let seen: Vec<u32> = (0..=rest / 2).map(|x| g[x] ^ g[rest - x]).collect();
        g[n] = (0..).find(|v| !seen.contains(v)).unwrap();
    }
    let r: Ruleset = "octal(0.07)".parse().unwrap();
    let mut e = Evaluator::new();
    for n in [1_048_610u64, 10_000_000_000_017, 999_999_999_999] {
        let small = 53 + (n - 53) % 34 + 68;
        let v = e.value(&r, &Position::Heaps(vec![n]), &Control::new()).unwrap();
        assert_eq!(v, g[small as usize], "G({n})");
    }
    let r: Ruleset = "tag(3)".parse().unwrap();
    assert_eq!(
        e.value(&r, &Position::Heaps(vec![4_000_000_000_001]), &Control::new()),
        Ok(1)
    );
}

#[test]
fn winning_moves_are_marked() {
    let r: Ruleset = "nim".parse().unwrap();
    let p = r.parse_position("1,3,5,6").unwrap();
    let opts = Evaluator::new().options(&r, &p, &Control::new()).unwrap();
    let wins: Vec<&str> = opts.iter().filter(|o| o.winning).map(|o| o.to.as_str()).collect();
    // seed 004: 1⊕3⊕5⊕6 = 1; the balancing moves
    assert_eq!(wins, ["0,3,5,6", "1,2,5,6", "1,3,4,6"]);
}

#[test]
fn caches_give_back_the_least_recently_used_first_and_keep_within_the_budget() {
    let budget = 8 << 20;
    let c = Control::with_budget(budget);
    let mut e = Evaluator::new();
    let (w, z): (Ruleset, Ruleset) = ("wythoff".parse().unwrap(), "zeruclid".parse().unwrap());
    let p = Position::Heaps(vec![1000, 999]);
    let plain = |r: &Ruleset| Evaluator::new().value(r, &p, &Control::new()).unwrap();
    assert_eq!(e.value(&w, &p, &c).unwrap(), plain(&w));
    let wythoff_map = e.cache_bytes();
    assert!(wythoff_map > 0);
    assert_eq!(e.value(&z, &p, &c).unwrap(), plain(&z));
    let both = e.cache_bytes();
    assert!(both > wythoff_map && both <= budget);
    // Wythoff used last: Zeruclid's map goes first
    assert_eq!(e.value(&w, &p, &c).unwrap(), plain(&w));
    e.trim(both - 1);
    assert_eq!(e.cache_bytes(), wythoff_map);
    // a map that needs most of the budget makes room for itself
    let big = Position::Heaps(vec![1400, 1399]);
    assert_eq!(
        e.value(&z, &big, &c).unwrap(),
        Evaluator::new().value(&z, &big, &Control::new()).unwrap()
    );
    assert!(e.cache_bytes() <= budget);
    e.trim(0);
    assert_eq!(e.cache_bytes(), 0);
}

/// A collection with a heap past the quotient's reach that a small search answers is searched
/// first, never waiting for the quotient (0.07's fails at heap 34 after seconds).
#[test]
fn a_small_search_answers_before_a_quotient_past_reach() {
    let r: Ruleset = "misere(octal(0.07))".parse().unwrap();
    let mut e = Evaluator::new();
    let mut plain = Search::plain(r.clone());
    for heaps in [[40u64, 1], [39, 2]] {
        let p = Position::heaps(&heaps);
        let a = e.answer(&r, &p, &Control::new()).unwrap();
        let want = plain.value(&p, &Control::new()).unwrap();
        assert_eq!(
            (a.grundy, a.method),
            (Some(u64::from(want)), ValueMethod::Search),
            "{heaps:?}"
        );
    }
    assert!(e.quotients.is_empty() && e.quotients_past_reach.is_empty());
}

/// The options of a position searched before are answered from the search's memo (no new
/// estimate), with the plain search's values.
#[test]
fn options_of_a_searched_position_are_answered_from_its_memo() {
    let r: Ruleset = "misere(octal(0.07))".parse().unwrap();
    let mut e = Evaluator::new();
    let mut plain = Search::plain(r.clone());
    let p = Position::heaps(&[40, 1]);
    e.answer(&r, &p, &Control::new()).unwrap();
    let mut options = Vec::new();
    r.options(&p, &mut options);
    assert!(options.len() > 10, "{}", options.len());
    for q in options {
        assert!(e.searches[&r].memoised(&q).is_some(), "{q}");
        let a = e.answer(&r, &q, &Control::new()).unwrap();
        let want = plain.value(&q, &Control::new()).unwrap();
        assert_eq!(
            (a.grundy, a.method),
            (Some(u64::from(want)), ValueMethod::Search),
            "{q}"
        );
    }
}

/// A misère quotient past reach is tried once per code: the heap it stopped at is remembered,
/// and the quotient as far as it went is kept, answering the collections of the heaps below.
#[test]
fn a_quotient_past_reach_is_kept_as_far_as_it_went_and_not_tried_again() {
    let r: Ruleset = "misere(octal(0.6))".parse().unwrap();
    let code: OctalCode = "0.6".parse().unwrap();
    let mut e = Evaluator::new();
    let past = Position::heaps(&[17, 17, 17, 17]);
    for _ in 0..2 {
        assert_eq!(e.by_quotient(&r, &past, &Control::new()).unwrap(), None);
        assert_eq!(e.quotients_past_reach.get(&code), Some(&17));
        assert_eq!(e.quotients.get(&code).map(Quotient::heaps), Some(16));
    }
    let below = Position::heaps(&[16, 16, 16, 15]);
    let a = e.by_quotient(&r, &below, &Control::new()).unwrap().unwrap();
    assert_eq!((a.grundy, a.method), (None, ValueMethod::MisereQuotient));
    let q = crate::solver::misere_quotient::compute(&code, 16, &Control::new()).unwrap();
    assert_eq!(Some(a.outcome), q.outcome(&[16, 16, 16, 15]));
}

/// A heap whose search cannot fit and which the misère quotient does not reach is refused with
/// both reasons: the search's size for the heap asked, and where the quotient stopped.
#[test]
fn a_heap_past_the_search_and_the_quotient_says_both() {
    let r: Ruleset = "misere(octal(0.07))".parse().unwrap();
    let small = Control::with_budget(1 << 20);
    let refused = Evaluator::new()
        .answer(&r, &Position::Heaps(vec![100]), &small)
        .unwrap_err();
    let e = refused.to_string();
    assert!(e.starts_with("the value of heap 100 in misere(octal(0.07))"), "{e}");
    assert!(e.contains("nor does the misère quotient reach heap 100: "), "{e}");
    assert_eq!(e.lines().count(), 1, "{e}");
    // the two reasons are the error's fields, the search's said for the heap asked
    let SolveError::PastQuotient {
        search,
        reach,
        quotient,
    } = refused
    else {
        panic!("not both reasons: {refused:?}")
    };
    assert_eq!(reach, 100);
    assert!(search.to_string().starts_with("the value of heap 100 in"), "{search}");
    assert!(!search.to_string().contains("quotient"), "{search}");
    assert_eq!(
        e,
        format!("{search}; nor does the misère quotient reach heap 100: {quotient}")
    );
}
