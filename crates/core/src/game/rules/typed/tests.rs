//! The move language against hand-written rules: parsing, the canonical text, errors that
//! name their place, and the fast path against the value-by-value definition.

use std::collections::BTreeSet;

use super::examples::EXAMPLES;
use super::program::Program;
use super::{TypedRule, run};
use crate::game::{Position, Ruleset};

#[allow(unused_imports)]
use super::analysis;

fn rule(text: &str) -> TypedRule {
    TypedRule::parse(text).unwrap_or_else(|e| panic!("{text}: {} at {}", e.message, e.at))
}

pub(super) fn all_options(program: &Program, heaps: &[u64]) -> Result<Vec<(usize, Vec<u64>)>, String> {
    let mut out = Vec::new();
    run::options(program, heaps, &mut |t: usize, o: &[u64]| out.push((t, o.to_vec()))).map_err(|e| e.to_string())?;
    Ok(out)
}

/// The same program with every fast path turned off: the definition.
fn slow(program: &Program) -> Program {
    let mut p = program.clone();
    p.terms.iter_mut().for_each(|t| t.fast = None);
    p
}

#[test]
fn examples_parse_and_their_canonical_text_round_trips() {
    for e in EXAMPLES {
        let r = rule(e.text);
        let again = rule(r.text());
        assert_eq!(again.text(), r.text(), "{}", e.name);
        assert_eq!(again, r);
        // as a ruleset expression too, inside compounds
        let ruleset: Ruleset = e.text.parse().unwrap();
        assert_eq!(ruleset.to_string(), r.text());
        let back: Ruleset = ruleset.to_string().parse().unwrap();
        assert_eq!(back, ruleset);
        // at most three short lines, as the issue asks
        assert!(e.text.lines().count() <= 3, "{}", e.name);
    }
    let r: Ruleset = format!("push({},wythoff)", EXAMPLES[1].text).parse().unwrap();
    assert_eq!(r.to_string().parse::<Ruleset>().unwrap(), r);
}

/// The options of a built-in ruleset and of a typed rule at `p`, as sets of positions.
fn option_sets(builtin: &Ruleset, typed: &Ruleset, p: &Position) -> (BTreeSet<Position>, BTreeSet<Position>) {
    let (mut a, mut b) = (Vec::new(), Vec::new());
    builtin.options(p, &mut a);
    typed.try_options(p, &mut b).unwrap();
    // a collection of heaps is a multiset: compare sorted, without empty heaps
    let multiset = |p: Position| match (builtin.shape(), p) {
        (crate::game::Shape::OneHeap, Position::Heaps(mut h)) => {
            h.retain(|&x| x > 0);
            h.sort_unstable();
            Position::Heaps(h)
        }
        (_, p) => p,
    };
    (
        a.into_iter().map(multiset).collect(),
        b.into_iter().map(multiset).collect(),
    )
}

#[test]
fn examples_move_like_the_builtin_rulesets() {
    for e in EXAMPLES {
        let Some(builtin) = e.equals else { continue };
        let builtin: Ruleset = builtin.parse().unwrap();
        let typed: Ruleset = e.text.parse().unwrap();
        let Ruleset::Typed(r) = &typed else { panic!() };
        if r.arity() == 2 {
            for a in 0..24 {
                for b in 0..24 {
                    let p = Position::Heaps(vec![a, b]);
                    assert_eq!(
                        builtin.check_position(&p).is_ok(),
                        typed.check_position(&p).is_ok(),
                        "{} at {p}",
                        e.name
                    );
                    if builtin.check_position(&p).is_err() {
                        continue;
                    }
                    let (x, y) = option_sets(&builtin, &typed, &p);
                    assert_eq!(x, y, "{} at {p}", e.name);
                }
            }
        } else {
            for n in 0..40 {
                for p in [Position::Heaps(vec![n]), Position::Heaps(vec![3, n, 7])] {
                    let (x, y) = option_sets(&builtin, &typed, &p);
                    assert_eq!(x, y, "{} at {p}", e.name);
                }
            }
        }
    }
}

#[test]
fn the_fast_path_agrees_with_the_definition() {
    let rules = [
        "rule(n -> [k, n - k] for k in 1..n if 2*k < n)",
        "rule(n -> [k, n - k] for k in 1..=n if n <= 3*k and 2*k + 1 < n)",
        "rule(n -> n - k for k in 1..=n if k == 3 or k >= 5)",
        "rule((a, b) -> (a - k, b - l) for k in 1..=a for l in 1..=b if |k - l| < 3)",
        "rule((a, b) -> (a - k, b - l) for k in 0..=a for l in 0..=b if |l - k| <= 1 and k + l > 0)",
        "rule((a, b) -> (a - k, b + k) for k in 1..=a if b + k <= 10)",
        "rule((a, b) -> (a - 2*k, b) for k in 1..=a/2 if 3 <= k + 1; (a, b - k) for k in 0..b if k > b - k)",
        "rule((a, b) -> (k, b) for k in 0..a if 2*k >= a - 1 and k != 3)",
        "rule((a, b) -> (a - k, b - k) for k in 1..=a if k <= b and k == 2)",
        "rule((a, b) -> (a - k, b) for k in 1..=a if a - k >= 2)",
        // guards that fail at an end: the fast path must give the definition's error, or none
        "rule((a, b) -> (a - k, b) for k in 0..=a + 2 if k - 1 < a)",
        "rule(n -> n - k for k in 1..=n + 1)",
    ];
    for text in rules {
        let r = rule(text);
        let foldable = !text.contains(" or ") && !text.contains("!=");
        assert_eq!(r.program().terms.iter().any(|t| t.fast.is_some()), foldable, "{text}");
        let definition = slow(r.program());
        let positions: Vec<Vec<u64>> = if r.arity() == 1 {
            (0..30).map(|n| vec![n]).collect()
        } else {
            (0..14).flat_map(|a| (0..14).map(move |b| vec![a, b])).collect()
        };
        for p in positions {
            assert_eq!(
                all_options(r.program(), &p),
                all_options(&definition, &p),
                "{text} at {p:?}"
            );
        }
    }
}

#[test]
fn errors_name_the_term_the_part_and_the_position() {
    let r = rule("rule(n -> n - 1; n - 2)");
    let err = all_options(r.program(), &[1]).unwrap_err();
    assert!(
        err.contains("term 2") && err.contains("n - 2 goes below zero") && err.contains("heap 1"),
        "{err}"
    );
    // a guard written before the subtraction skips it
    let r = rule("rule(n -> n - 2 if n >= 2)");
    assert_eq!(all_options(r.program(), &[1]).unwrap(), vec![]);
    let r = rule("rule((a, b) -> (a / b, b))");
    let err = all_options(r.program(), &[3, 0]).unwrap_err();
    assert!(err.contains("divides by zero") && err.contains("(3, 0)"), "{err}");
    let r = rule("rule(n -> n * n)");
    let err = all_options(r.program(), &[u64::MAX]).unwrap_err();
    assert!(err.contains("n * n is past"), "{err}");
    let r = rule("rule(n -> n + n)");
    let err = all_options(r.program(), &[u64::MAX]).unwrap_err();
    assert!(err.contains("the heap n + n is past 2^64 - 1"), "{err}");
    let r = rule("rule((a, b) -> (a - k, b) for k in 0..=a)");
    let err = all_options(r.program(), &[u64::MAX, 0]).unwrap_err();
    assert!(
        err.contains("(a - k, b) for k in 0..=a") && err.contains("1.8e19 loop steps"),
        "{err}"
    );
    let r = rule("rule(n -> 0 for k in 0..n if k * k == n + 1)");
    let err = all_options(r.program(), &[1 << 40]).unwrap_err();
    assert!(err.contains("loop steps"), "{err}");
    let r = rule("rule((a, b) if a >= 1 -> (a - 1, b))");
    let err = all_options(r.program(), &[1, 5]).unwrap_err();
    assert!(err.contains("not a position"), "{err}");
}

#[test]
fn syntax_errors_point_at_their_character() {
    let at = |text: &str| {
        let e = text.parse::<Ruleset>().unwrap_err();
        (e.at, e.message)
    };
    let (a, m) = at("rule((a, b) -> (a - k, b) for k in 1..=c)");
    assert_eq!(a, 40, "{m}");
    assert!(m.contains("unknown name 'c'"), "{m}");
    let (a, m) = at("rule(n -> n - k for k in 1..=j for j in 1..n)");
    assert!(m.contains("'j' is not bound yet"), "{m}");
    assert_eq!(a, 30);
    let (_, m) = at("rule((a, b) -> (a - 1))");
    assert!(m.contains("1 heaps, but the rule is played on 2"), "{m}");
    let (_, m) = at("rule(n -> n - 1");
    assert!(m.contains("')'"), "{m}");
    let (_, m) = at("rule(n -> n - 1 for k in 1..=n for k in 1..=n)");
    assert!(m.contains("already a name"), "{m}");
    let (_, m) = at("rule(n -> |n| )");
    assert!(m.contains("|x - y|"), "{m}");
    let (_, m) = at("rule(n -> n - 99999999999999999999999)");
    assert!(m.contains("64 bits"), "{m}");
    let (_, m) = at(&format!("rule(n -> {}n{})", "(".repeat(500), ")".repeat(500)));
    assert!(m.contains("nests"), "{m}");
    let (_, m) = at("rule(n -> foo(n))");
    assert!(m.contains("unknown function"), "{m}");
    // four heaps are a position; seventeen are past the limit
    assert!("rule((a,b,c,d) -> (a,b,c,d - 1) if d >= 1)".parse::<Ruleset>().is_ok());
    let heaps: Vec<String> = (0..17).map(|i| format!("h{i}")).collect();
    let (_, m) = at(&format!("rule(({}) -> ({}))", heaps.join(","), heaps.join(",")));
    assert!(m.contains("2 to 16 heaps") && m.contains("not 17"), "{m}");
}

#[test]
fn comments_units_and_unicode_spellings() {
    let a = rule("rule((a, b) → (a − k, b) for k in 1..=a if k ≤ b  # Nim with a cap\n)");
    let b = rule("rule((a, b) -> (a - k, b) for k in 1..=a if k <= b)");
    assert_eq!(a, b);
}

/// The options of one heap as a sorted list of sorted collections (zeros dropped).
fn heap_options(r: &TypedRule, n: u64) -> Vec<Vec<u64>> {
    let mut out: Vec<Vec<u64>> = all_options(r.program(), &[n])
        .unwrap()
        .into_iter()
        .map(|(_, mut o)| {
            o.retain(|&x| x > 0);
            o.sort_unstable();
            o
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

#[test]
fn guards_and_bounds_are_signed() {
    // "leave at least 4": k > n − 4 is simply true below 4, not an error
    let r = rule("rule(n -> n - k for k in 1..=n if k > n - 4)");
    assert_eq!(heap_options(&r, 2), vec![vec![], vec![1]]);
    assert_eq!(heap_options(&r, 9), vec![vec![], vec![1], vec![2], vec![3]]);
    // a bound below zero is an empty range; a remainder of a negative number is in 0..m
    let r = rule("rule(x if x < 5 -> (x - s) % 5 for s in {1, 3} if x > 0)");
    assert_eq!(heap_options(&r, 2), vec![vec![1], vec![4]]);
    let r = rule("rule(n -> n - k for k in 1..=n - 4)");
    assert_eq!(heap_options(&r, 2), Vec::<Vec<u64>>::new());
    // a heap below zero is still an error naming the term and the part
    let r = rule("rule(n -> n - 3)");
    let err = all_options(r.program(), &[1]).unwrap_err();
    assert!(
        err.contains("term 1") && err.contains("the heap n - 3 goes below zero (-2)"),
        "{err}"
    );
    // floor division and unary minus
    let r = rule("rule(n -> n - k for k in {-(-7) / 2, (0 - 7) / 2 + 5})");
    assert_eq!(heap_options(&r, 10), vec![vec![7], vec![9]]);
}

#[test]
fn powers_bits_primes_and_fibonacci() {
    let cases: [(&str, u64, Vec<u64>); 9] = [
        ("rule(n -> n - 2 ^ k for k in 0..=4 if 2 ^ k <= n)", 9, vec![1, 5, 7, 8]),
        ("rule(n -> n - p for p in primes(n))", 12, vec![1, 5, 7, 9, 10]),
        ("rule(n -> n - k for k in 1..=n if prime(k))", 12, vec![1, 5, 7, 9, 10]),
        ("rule(n -> n - k for k in powers(3, n))", 10, vec![1, 7, 9]),
        ("rule(n -> n - f for f in fibs(n))", 9, vec![1, 4, 6, 7, 8]),
        (
            "rule(n -> xor(n, k) for k in 1..=n if xor(n, k) < n)",
            6,
            vec![0, 2, 3, 4, 5],
        ),
        ("rule(n -> n - popcount(n) if n > 0)", 7, vec![4]),
        ("rule(n -> fib(k) for k in 1..=6 if fib(k) < n)", 6, vec![1, 2, 3, 5]),
        (
            "rule(n -> bitand(n, k) + bitor(0, k) for k in {1} if n >= 3)",
            3,
            vec![2],
        ),
    ];
    for (text, n, expect) in cases {
        let r = rule(text);
        let got: Vec<u64> = heap_options(&r, n).into_iter().map(|o| o.iter().sum()).collect();
        let mut got = got;
        got.sort_unstable();
        assert_eq!(got, expect, "{text}");
        assert_eq!(rule(r.text()).text(), r.text(), "{text} round-trips");
    }
    let r = rule("rule(n -> n - 1 if distinct(n, 3, 5))");
    assert_eq!(heap_options(&r, 3).len(), 0);
    assert_eq!(heap_options(&r, 4).len(), 1);
    // the canonical text keeps the meaning of powers and signs
    for (text, canonical) in [
        ("rule(n -> n - 2^3^0)", "rule(n -> n - 2 ^ 3 ^ 0)"),
        ("rule(n -> n - (2^3)^0)", "rule(n -> n - (2 ^ 3) ^ 0)"),
        ("rule(n -> n - -(-1))", "rule(n -> n - -(-1))"),
        ("rule(n -> n - 2**2)", "rule(n -> n - 2 ^ 2)"),
    ] {
        assert_eq!(rule(text).text(), canonical);
        assert_eq!(heap_options(&rule(text), 9), heap_options(&rule(canonical), 9));
    }
    let err = all_options(rule("rule(n -> n - fib(k) for k in {200})").program(), &[5]).unwrap_err();
    assert!(err.contains("fib(k) is out of reach"), "{err}");
    let err = all_options(rule("rule(n -> n - k for k in powers(1, n))").program(), &[5]).unwrap_err();
    assert!(err.contains("a base of at least 2"), "{err}");
    let (_, m) = {
        let e = "rule(n -> primes(n))".parse::<Ruleset>().unwrap_err();
        (e.at, e.message)
    };
    assert!(m.contains("source of values for 'for'"), "{m}");
}

#[test]
fn comprehensions_give_a_variable_number_of_heaps() {
    // the Ruler game: a run of j coins ending at n is turned, heads at n − j + 1 … n − 1
    let r = rule("rule(n -> [k for k in n - j + 1..n] for j in 1..=n)");
    let mut opts = heap_options(&r, 4);
    opts.sort();
    assert_eq!(opts, vec![vec![], vec![1, 2, 3], vec![2, 3], vec![3]]);
    // fixed parts beside a comprehension, and guards inside it
    let r = rule("rule(n -> [1, k for k in 2..n if k % 2 == 0] if n >= 2)");
    assert_eq!(heap_options(&r, 7), vec![vec![1, 2, 4, 6]]);
    assert_eq!(rule(r.text()), r);
    let err = all_options(rule("rule(n -> [k for k in 0..n])").program(), &[5000]).unwrap_err();
    assert!(err.contains("more than 4096 heaps"), "{err}");
}

#[test]
fn rules_on_any_number_of_heaps() {
    let r = rule("rule((a, b, c, d) -> (a - k, b, c, d) for k in 1..=a; (a, b, c, d - 1) if d >= 1)");
    assert_eq!(r.arity(), 4);
    assert_eq!(all_options(r.program(), &[2, 0, 0, 1]).unwrap().len(), 3);
    let p: Ruleset = r.text().parse().unwrap();
    assert!(p.check_position(&Position::Heaps(vec![1, 2, 3, 4])).is_ok());
    assert!(p.check_position(&Position::Heaps(vec![1, 2, 3])).is_err());
}

#[test]
fn costs_are_refused_before_they_are_spent() {
    let r = rule("rule((a, b) -> (a - k, b - l) for k in 0..=a for l in 0..=b if k + l >= 1)");
    let err = all_options(r.program(), &[u64::MAX, u64::MAX]).unwrap_err();
    assert!(err.contains("would"), "{err}");
    let r = rule("rule(n -> n - k for k in 1..=n if n % k == 0)");
    let err = all_options(r.program(), &[1 << 40]).unwrap_err();
    assert!(err.contains("would run at least 1.1e12 loop steps"), "{err}");
    // three nested loops of a thousand each: 10^9 steps, refused at the outer loop
    let r = rule("rule(n -> 0 for i in 0..n for j in 0..n for k in 0..n if i * j + k * k == n)");
    let err = all_options(r.program(), &[1000]).unwrap_err();
    assert!(err.contains("would run at least"), "{err}");
    // the same with a guard that narrows the innermost loop costs n² steps, and runs
    let r = rule("rule(n -> 0 for i in 0..n for j in 0..n for k in 0..n if i + j + k == 3 * n)");
    assert_eq!(all_options(r.program(), &[1000]).unwrap(), vec![]);
    // the estimate knows the cost of a box of positions before any runs
    let e = rule("rule(n -> n - k*k for k in 1..=isqrt(n))").estimate(&[(0, 1 << 20)]);
    assert_eq!(e.steps.upper, 1024);
}

#[test]
fn a_range_past_both_caps_is_refused_as_steps_and_one_past_the_options_alone_as_options() {
    // 2^27 + 1 values, each the same option: the steps' cap is what the loop passes first
    let r = rule("rule(n -> n - 1 for k in 1..=134217729)");
    let err = all_options(r.program(), &[5]).unwrap_err();
    assert!(err.contains("would run at least 1.3e8 loop steps"), "{err}");
    assert!(!err.contains("options"), "{err}");
    // 2^24 + 1 values are within the steps' cap and over the options' one
    let r = rule("rule(n -> n - 1 for k in 1..=16777217)");
    let err = all_options(r.program(), &[5]).unwrap_err();
    assert!(err.contains("would have about 1.7e7 options"), "{err}");
}

#[test]
fn a_stop_flag_stops_a_long_position() {
    use std::rc::Rc;
    let r = rule("rule(n -> 0 for k in 0..n if k * k == n + 1)");
    let limits = run::Limits {
        stop: Rc::new(|| true),
        max_options: run::MAX_OPTIONS,
    };
    let err = run::with_limits(limits, || all_options(r.program(), &[100_000_000])).unwrap_err();
    assert_eq!(err, "stopped");
}

#[test]
fn moves_that_grow_without_bound_are_found() {
    let r = rule("rule(n -> n + 1)");
    assert!(r.grows_from(&[3]).unwrap().contains("from heap 3 to heap 4"));
    let r = rule("rule((a, b) -> (a, b + 1) if a == 0; (a - 1, b) if a >= 1)");
    assert!(r.grows_from(&[0, 5]).is_some());
    assert!(r.grows_from(&[3, 5]).is_none());
    // a guard that reads the growing heap bounds it: no claim
    assert!(rule("rule(n -> n + 1 if n < 10)").grows_from(&[3]).is_none());
}

#[test]
fn typed_rules_that_equal_a_builtin_are_recognised() {
    use super::analysis::Equivalent;
    use crate::game::rules::one_heap::SubtractionSet;
    let eq = |text: &str| rule(text).equivalent().cloned();
    let code = |c: &str| Some(Equivalent::Octal(c.parse().unwrap()));
    for e in EXAMPLES {
        let expect = match e.equals {
            Some("nim") => Some(Equivalent::Nim),
            Some("wythoff") => Some(Equivalent::Wythoff),
            Some("sub(1,3,4)") => Some(Equivalent::Subtraction(SubtractionSet::new([1, 3, 4]).unwrap())),
            Some("octal(0.77)") => code("0.77"),
            Some("octal(0.07)") => code("0.07"),
            Some("grundy") => code("4u.0"),
            _ => None,
        };
        assert_eq!(eq(e.text), expect, "{}", e.name);
    }
    // other spellings of the same games
    assert_eq!(
        eq("rule((a, b) -> (k, b) for k in 0..a; (a, l) for l in 0..b)"),
        Some(Equivalent::Nim)
    );
    assert_eq!(
        eq(
            "rule((a, b) -> (a, b - k) for k in 1..=b; (a - k, b) for k in 1..=a; (a - k, b - k) for k in 1..=a if k <= b)"
        ),
        Some(Equivalent::Wythoff)
    );
    assert_eq!(eq("rule(n -> k for k in 0..n)"), Some(Equivalent::Nim));
    assert_eq!(
        eq("rule(n -> n - k for k in 1..=min(n, 3))"),
        Some(Equivalent::Subtraction(SubtractionSet::new([1, 2, 3]).unwrap()))
    );
    assert_eq!(eq("rule(n -> [k, n - 2 - k] for k in 0..=n - 2)"), code("0.07"));
    assert_eq!(
        eq("rule(n -> n - 2 if n >= 3; [k, n - 2 - k] for k in 1..n - 2)"),
        code("0.06")
    );
    assert_eq!(
        eq("rule(n -> [k, n - 1 - k] for k in 0..n if 2*k <= n - 1)"),
        code("0.7")
    );
    // not these: a subtraction with an error below 4, a partial row, 2-Wythoff
    for text in [
        "rule(n -> n - s for s in {1, 3, 4})",
        "rule((a, b) -> (a - k, b) for k in 1..=a if k <= 3; (a, b - k) for k in 1..=b)",
        "rule((a, b) -> (a - k, b) for k in 1..=a; (a, b - k) for k in 1..=b; (a - k, b - l) for k in 1..=a for l in 1..=b if |k - l| < 2)",
        "rule(n -> n - k for k in 1..=n if k != 2)",
    ] {
        assert_eq!(eq(text), None, "{text}");
    }
    // Grundy's game is the take-and-break code 4. with unequal parts, computed as `4u.0`
    let g = rule("rule(n -> [k, n - k] for k in 1..n if 2*k < n)");
    let tb = g.take_and_break().unwrap();
    assert_eq!((tb.code_text().as_str(), tb.unequal), ("4.0", true));
    assert_eq!(eq("rule(n -> [k, n - k] for k in 1..n if 2*k < n)"), code("4u.0"));
    // splitting without taking: the digit before the point
    let split = rule("rule(n -> [k, n - k] for k in 1..n; [k, n - 3 - k] for k in 0..=n - 3)");
    assert_eq!(split.take_and_break().unwrap().code_text(), "4.007");
    assert_eq!(
        eq("rule(n -> [k, n - k] for k in 1..n; [k, n - 3 - k] for k in 0..=n - 3)"),
        code("4.007")
    );
    assert_eq!(eq("rule(n -> [k, n - k] for k in 1..n if 2*k <= n)"), code("4.0"));
}

mod recognition {
    //! Generated spellings of take-and-break rules: whatever the recogniser says a rule equals,
    //! the rule has that code's options on every heap checked (far past the recogniser's own
    //! comparison).

    use super::{heap_options, rule};
    use crate::game::rules::one_heap::OctalOption;
    use crate::game::rules::typed::analysis::Equivalent;
    use proptest::prelude::*;

    fn builtin_options(e: &Equivalent, n: u64) -> Vec<Vec<u64>> {
        let mut out: Vec<Vec<u64>> = match e {
            Equivalent::Nim => (0..n).map(|m| if m == 0 { vec![] } else { vec![m] }).collect(),
            Equivalent::Subtraction(s) => s
                .iter()
                .filter(|&&t| t <= n)
                .map(|&t| if t == n { vec![] } else { vec![n - t] })
                .collect(),
            Equivalent::Octal(code) => {
                let mut o = Vec::new();
                code.options(n, &mut o);
                o.into_iter()
                    .map(|x| match x {
                        OctalOption::Gone => vec![],
                        OctalOption::One(a) => vec![a],
                        OctalOption::Two(a, b) => vec![a, b],
                        OctalOption::Three(a, b, c) => vec![a, b, c],
                    })
                    .collect()
            }
            Equivalent::Wythoff => unreachable!("one heap"),
        };
        out.iter_mut().for_each(|o| o.sort_unstable());
        out.sort();
        out.dedup();
        out
    }

    fn term() -> impl Strategy<Value = String> {
        let t = 1u64..4;
        prop_oneof![
            (t.clone(), 0u64..2).prop_map(|(t, strict)| {
                let op = if strict == 1 { ">" } else { ">=" };
                format!("n - {t} if n {op} {t}")
            }),
            (t.clone(), 0u64..3, 0u64..3)
                .prop_map(|(t, lo, hi)| format!("[k, n - {t} - k] for k in {lo}..=n - {t} - {hi} if n >= {t}")),
            (t.clone(), 1u64..3).prop_map(|(t, d)| format!("[k, n - {t} - k] for k in 1..n - {t} if {d}*k <= n - {t}")),
            (t, 0u64..2).prop_map(|(t, lo)| format!("n - k for k in {lo}..={t} if k <= n and k >= 1")),
            // splits that take nothing (the digit before the point), into unequal parts or any
            (0u64..2).prop_map(|strict| {
                let op = if strict == 1 { "<" } else { "<=" };
                format!("[k, n - k] for k in 1..n if 2*k {op} n")
            }),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, .. ProptestConfig::default() })]

        #[test]
        fn a_recognised_rule_has_its_builtins_options(terms in proptest::collection::vec(term(), 1..4)) {
            let text = format!("rule(n -> {})", terms.join("; "));
            let r = rule(&text);
            if let Some(e) = r.equivalent() {
                for n in 0..300 {
                    prop_assert_eq!(heap_options(&r, n), builtin_options(e, n), "{} = {:?} at {}", text, e, n);
                }
            }
        }
    }
}
