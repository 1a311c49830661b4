//! Heap games at research scale, checked where it can be checked: every closed form the
//! evaluator uses against the plain mex search (`Search::plain`, no shortcuts) on all small
//! positions; sums and collections of heaps against the plain search of the whole position;
//! the rare/common octal engine against the plain method; huge positions against the theory.

use nimscope_core::game::rules::paging;
use nimscope_core::game::{Outcome, Position, Ruleset, theory};
use nimscope_core::solver::closed_form::{Known, closed_form};
use nimscope_core::solver::evaluate::{Evaluator, ValueMethod};
use nimscope_core::solver::octal::octal_sequence;
use nimscope_core::solver::search::Search;
use nimscope_core::solver::sequence::{self, compute};
use nimscope_core::solver::{Control, SolveError};

fn ruleset(text: &str) -> Ruleset {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Every position of `rules` written as `texts` gets the plain search's value from the
/// evaluator, and every closed form (value or outcome) agrees with the search.
fn agrees_with_plain_search(rules: &str, texts: impl IntoIterator<Item = String>) -> usize {
    let r = ruleset(rules);
    let c = Control::new();
    let mut plain = Search::plain(r.clone());
    let mut e = Evaluator::new();
    let mut closed = 0;
    for text in texts {
        let p = r
            .parse_position(&text)
            .unwrap_or_else(|err| panic!("{rules} {text}: {err}"));
        let want = plain.value(&p, &c).unwrap();
        let got = e.answer(&r, &p, &c).unwrap();
        assert_eq!(got.grundy, Some(u64::from(want)), "{rules} at {text}: {got:?}");
        assert_eq!(got.outcome, Outcome::of(want), "{rules} at {text}");
        if let Some(cf) = closed_form(&r, &p) {
            closed += 1;
            match cf.known {
                Known::Value(v) => assert_eq!(v, u64::from(want), "{rules} at {text}: {}", cf.by),
                Known::Outcome(o) => assert_eq!(o, Outcome::of(want), "{rules} at {text}: {}", cf.by),
            }
        }
    }
    closed
}

fn pairs(lo: u64, hi: u64) -> impl Iterator<Item = String> {
    (lo..hi).flat_map(move |a| (lo..hi).map(move |b| format!("{a},{b}")))
}

#[test]
fn closed_forms_of_two_heap_games_match_the_search() {
    assert_eq!(agrees_with_plain_search("nim", pairs(0, 24)), 24 * 24);
    assert!(agrees_with_plain_search("wythoff", pairs(0, 30)) == 30 * 30);
    for rules in ["euclid", "euclid0"] {
        assert_eq!(agrees_with_plain_search(rules, pairs(0, 40)), 40 * 40, "{rules}");
    }
    for rules in ["grossman", "m-euclid"] {
        assert_eq!(agrees_with_plain_search(rules, pairs(1, 40)), 39 * 39, "{rules}");
    }
    assert_eq!(agrees_with_plain_search("cdn", pairs(0, 40)), 40 * 40);
}

#[test]
fn closed_forms_of_many_heaps_and_one_heap_match_the_search() {
    let triples = (0..9).flat_map(|a| (0..9).flat_map(move |b| (0..9).map(move |c| format!("{a},{b},{c}"))));
    assert_eq!(agrees_with_plain_search("nim", triples.clone()), 729);
    assert_eq!(agrees_with_plain_search("cdn", triples), 729);
    for k in [1, 2, 5] {
        assert_eq!(
            agrees_with_plain_search(&format!("tag({k})"), (0..80).map(|n| n.to_string())),
            80
        );
    }
    // the divisor game: G(n) = v2(n), derived in theory.rs and checked here
    assert_eq!(
        agrees_with_plain_search("divisor", (1..400).map(|n| n.to_string())),
        399
    );
    // Fibonacci Nim: the outcome by Zeckendorf (the value itself has no closed form)
    let fib = (0..40).flat_map(|n| (0..=n).map(move |q| format!("{n}:{q}")));
    assert!(agrees_with_plain_search("fibonacci-nim", fib) > 800);
}

#[test]
fn collections_of_heaps_are_nim_sums() {
    // octal games (splits included), subtraction, tag and the divisor game on collections:
    // the nim-sum of the heaps' values is the value of the whole collection
    let collections = |max: u64| {
        (0..max).flat_map(move |a| (a..max).flat_map(move |b| (b..max).map(move |c| format!("{a},{b},{c}"))))
    };
    for rules in [
        "octal(0.07)",
        "octal(0.137)",
        "octal(0.6)",
        "octal(0.77)",
        "octal(0.8)",
        "octal(0.f4)",
    ] {
        agrees_with_plain_search(rules, collections(7));
    }
    for rules in ["sub(1,3,4)", "tag(3)"] {
        agrees_with_plain_search(rules, collections(12));
    }
    agrees_with_plain_search(
        "divisor",
        (1..14).flat_map(|a| (a..14).map(move |b| format!("{a},{b}"))),
    );
    let r = ruleset("octal(0.07)");
    let a = Evaluator::new()
        .answer(&r, &r.parse_position("30,40").unwrap(), &Control::new())
        .unwrap();
    assert!(a.by.contains("nim-sum"), "{a:?}");
}

#[test]
fn sums_are_nim_sums_of_their_components() {
    let texts = (0..6).flat_map(|a| (0..6).flat_map(move |b| (0..7).map(move |c| format!("{a},{b}+{c}"))));
    agrees_with_plain_search("sum(wythoff,octal(0.07))", texts.clone());
    agrees_with_plain_search("sum(euclid0,tag(2))", texts);
    agrees_with_plain_search(
        "sum(sum(nim,fibonacci-nim),push(tag(1),tag(2)))",
        (0..6).flat_map(|a| (0..7).map(move |n| format!("{a},2+{n}:3+{}", n % 4))),
    );
}

#[test]
fn misere_and_push_are_not_nim_sums() {
    // misère play and push compounds are searched as wholes, never nim-summed
    let triples = (0..4).flat_map(|a| (a..4).flat_map(move |b| (b..5).map(move |c| format!("{a},{b},{c}"))));
    agrees_with_plain_search("misere(octal(0.07))", triples.clone());
    agrees_with_plain_search("misere(nim)", triples);
    agrees_with_plain_search("push(octal(0.07),octal(0.07))", (0..12).map(|n| n.to_string()));
}

#[test]
fn rare_common_agrees_with_the_plain_method() {
    // octal games whose moves leave at most two heaps, to 20000 heaps, against the plain
    // method (the mex over every option, no split of the values into rare and common)
    for code in ["0.6", "0.16", "0.064", "0.35", "0.156", "0.06"] {
        let c = code.parse().unwrap();
        let rc = octal_sequence(&c, 20_000, &Control::new()).unwrap();
        let mut plain = nimscope_core::solver::octal::plain::Plain::new(&c);
        for (n, &v) in rc.values.iter().enumerate() {
            assert_eq!(plain.next_value(), v, "{code} at {n}");
        }
    }
}

#[test]
fn sequences_against_published_values() {
    // 0.6's first values as Beling's ogsolve 0.0.7 prints them (`ogsolve -m naive -n 30 -p 0.6`)
    let s = compute(&ruleset("octal(0.6)"), 31, &Control::new()).unwrap();
    let got: Vec<u32> = (0..31).map(|i| s.get(i).unwrap()).collect();
    assert_eq!(
        got,
        [
            0, 0, 1, 2, 0, 1, 2, 3, 1, 2, 3, 4, 0, 3, 4, 2, 1, 3, 2, 1, 0, 2, 1, 4, 5, 1, 4, 5, 1, 2, 0
        ]
    );
    assert_eq!(s.method.as_str(), "rare/common");
    // Nim's sequence is its closed form (no quadratic fill): G(n) = n
    let s = compute(&ruleset("nim"), 100_000, &Control::new()).unwrap();
    assert_eq!(s.method, sequence::SequenceMethod::ClosedForm);
    assert!((0..100_000).all(|n| s.get(n) == Some(n as u32)));
}

#[test]
fn huge_positions_are_answered_by_the_theory() {
    let big = 1_000_000_000_000_000_000u64;
    let c = Control::new();
    let mut e = Evaluator::new();
    let ask = |e: &mut Evaluator, rules: &str, text: &str| {
        let r = ruleset(rules);
        let p = r.parse_position(text).unwrap();
        e.answer(&r, &p, &c).unwrap()
    };
    let a = ask(&mut e, "nim", &format!("{big},3"));
    assert_eq!((a.grundy, a.method), (Some(big ^ 3), ValueMethod::ClosedForm));
    let a = ask(&mut e, "euclid", &format!("{big},3"));
    assert_eq!(a.grundy, Some(theory::euclid_grundy(3, big)));
    let a = ask(&mut e, "cdn", &vec!["6"; 20_000].join(","));
    // 20,000 heaps of valuation 1: an even count, so 0
    assert_eq!(a.grundy, Some(0));
    let a = ask(&mut e, "wythoff", &format!("{big},{big}"));
    assert_eq!(
        (a.grundy, a.outcome, a.method),
        (None, Outcome::N, ValueMethod::ClosedForm)
    );
    let (pa, pb) = theory::wythoff_pair(big);
    assert_eq!(ask(&mut e, "wythoff", &format!("{pb},{pa}")).grundy, Some(0));
    let a = ask(&mut e, "fibonacci-nim", &theory::fibonacci(80).to_string());
    assert_eq!((a.grundy, a.outcome), (None, Outcome::P));
    // a certified period answers any heap: Dawson's Kayles has period 34 from 53
    let a = ask(&mut e, "octal(0.07)", &big.to_string());
    let small = 53 + (big - 53) % 34;
    assert_eq!(a.grundy, ask(&mut e, "octal(0.07)", &small.to_string()).grundy);
    assert_eq!(a.method, ValueMethod::ClosedForm);
    // a sum of huge components
    let a = ask(&mut e, "sum(nim,octal(0.07))", &format!("{big}+{big}"));
    assert!(a.grundy.is_some());
}

#[test]
fn pages_of_huge_positions_have_closed_form_values() {
    let big = 1_000_000_000_000_000_000u64;
    let r = ruleset("euclid");
    let p = r.parse_position(&format!("{big},3")).unwrap();
    assert_eq!(paging::option_count(&r, &p), Some(u128::from(big / 3)));
    let page = Evaluator::new()
        .options_page(&r, &p, u128::from(big / 3 - 2), 10, &Control::new())
        .unwrap();
    assert_eq!(page.options.len(), 2);
    for o in &page.options {
        let Position::Heaps(h) = &o.position else { panic!() };
        let want = if h[0] == 0 {
            0
        } else {
            theory::euclid_grundy(h[0], h[1])
        };
        assert_eq!(o.answer.grundy, Some(want), "{}", o.to);
    }
}

#[test]
fn heaps_near_two_to_the_64_do_not_overflow() {
    // found by tests/it/cli/fuzz.rs: describing an octal move summed the heaps in a u64
    let r = ruleset("octal(0.07)");
    let p = r.parse_position("18446744073709551615,1").unwrap();
    let page = Evaluator::new().options_page(&r, &p, 0, 3, &Control::new()).unwrap();
    assert_eq!(
        page.options[0].description,
        "take 2 from a heap, leaving 1,18446744073709551613"
    );
    assert!(page.options.iter().all(|o| o.answer.grundy.is_some()));
}

#[test]
fn over_budget_is_a_refusal_not_an_abort() {
    let small = Control::with_budget(16 << 20);
    let mut e = Evaluator::new();
    // no period below 2^20 values and far too many values to compute: refused at once
    let r = ruleset("octal(0.6)");
    let p = r.parse_position("1000000000000").unwrap();
    assert!(matches!(e.answer(&r, &p, &small), Err(SolveError::OverBudget { .. })));
    // a sum whose component has only an outcome cannot have a value
    let r = ruleset("sum(wythoff,nim)");
    let p = r.parse_position("1000000000000,1000000000001+5").unwrap();
    assert!(matches!(e.answer(&r, &p, &small), Err(SolveError::Unsupported(_))));
}
