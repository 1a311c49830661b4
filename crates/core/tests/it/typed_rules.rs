//! Typed rules against independent answers: every example of `nimscope rules --examples` gives
//! the values of the built-in ruleset it names, or of a brute force written here (Grundy's
//! game, subtract-a-square, three-heap Wythoff) or of a closed form (generalized Wythoff's
//! P-positions); compounds take typed rules on either side; a rule that loops is reported with
//! its cycle; a session saves a typed rule's text and reads it back.

use std::collections::{HashMap, HashSet};

use nimscope_core::game::rules::typed::examples::{EXAMPLES, example};
use nimscope_core::game::{Gamma, Layout, Outcome, Position, Ruleset};
use nimscope_core::session::Session;
use nimscope_core::solver::grid::grid;
use nimscope_core::solver::search::Search;
use nimscope_core::solver::sequence::sequence;
use nimscope_core::solver::{Control, Evaluator};

fn typed(name: &str) -> Ruleset {
    example(name).unwrap().text.parse().unwrap()
}

fn mex(values: impl IntoIterator<Item = u32>) -> u32 {
    let s: HashSet<u32> = values.into_iter().collect();
    (0..).find(|v| !s.contains(v)).unwrap()
}

fn map(r: &Ruleset, n: u64) -> Vec<Vec<Option<u32>>> {
    let g = grid(r, &Layout::Plain, 0..n, 0..n, &Control::new()).unwrap();
    (0..n).map(|a| (0..n).map(|b| g.get(a, b)).collect()).collect()
}

fn seq(r: &Ruleset, n: u64) -> Vec<Option<u32>> {
    sequence(r, n, &Control::new()).unwrap().values
}

#[test]
fn examples_with_a_builtin_twin_have_its_values() {
    let mut checked = 0;
    for e in EXAMPLES {
        let Some(twin) = e.equals else { continue };
        let (t, b): (Ruleset, Ruleset) = (e.text.parse().unwrap(), twin.parse().unwrap());
        match t.shape() {
            nimscope_core::game::Shape::TwoHeaps => assert_eq!(map(&t, 48), map(&b, 48), "{}", e.name),
            _ => {
                assert_eq!(seq(&t, 300), seq(&b, 300), "{}", e.name);
                // collections of heaps: the nim-sum of the heaps, through every route
                let mut ev = Evaluator::new();
                for p in ["3,7,12", "1,1,5", "20,9"] {
                    let (pt, pb) = (t.parse_position(p).unwrap(), b.parse_position(p).unwrap());
                    let c = Control::new();
                    assert_eq!(
                        ev.value(&t, &pt, &c).unwrap(),
                        ev.value(&b, &pb, &c).unwrap(),
                        "{} at {p}",
                        e.name
                    );
                    assert_eq!(
                        Search::plain(t.clone()).value(&pt, &c).unwrap(),
                        ev.value(&b, &pb, &c).unwrap()
                    );
                }
            }
        }
        checked += 1;
    }
    assert_eq!(
        checked, 8,
        "nim, wythoff, euclid, grossman, sub134, grundy, kayles, dawson-kayles"
    );
}

#[test]
fn grundys_game_and_subtract_a_square_against_brute_force() {
    let n = 400;
    let mut grundy = vec![0u32; n];
    let mut square = vec![0u32; n];
    for h in 0..n {
        grundy[h] = mex((1..h).filter(|&k| k < h - k).map(|k| grundy[k] ^ grundy[h - k]));
        square[h] = mex((1..).take_while(|k| k * k <= h).map(|k| square[h - k * k]));
    }
    let some = |v: &[u32]| v.iter().map(|&x| Some(x)).collect::<Vec<_>>();
    assert_eq!(seq(&typed("grundy"), n as u64), some(&grundy));
    assert_eq!(seq(&typed("subtract-square"), n as u64), some(&square));
    // the published start of Grundy's game (OEIS A002188)
    assert_eq!(
        grundy[..20],
        [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3]
    );
}

#[test]
fn generalized_wythoff_has_fraenkels_p_positions() {
    // a-Wythoff (|k − l| < a): the P-positions are (A_n, A_n + a·n) and their mirrors, A_n the
    // least number not yet used (Fraenkel 1982); a = 2 here
    let n = 120u64;
    let mut used = HashSet::new();
    let mut p = HashSet::new();
    for i in 0.. {
        let a = (0..).find(|x| !used.contains(x)).unwrap();
        let b = a + 2 * i;
        if a >= n {
            break;
        }
        used.insert(a);
        used.insert(b);
        p.insert((a, b));
        p.insert((b, a));
    }
    let m = map(&typed("wythoff2"), n);
    for a in 0..n {
        for b in 0..n {
            assert_eq!(m[a as usize][b as usize] == Some(0), p.contains(&(a, b)), "({a}, {b})");
        }
    }
}

#[test]
fn three_heaps_against_brute_force() {
    let n = 9u64;
    let mut g: HashMap<(u64, u64, u64), u32> = HashMap::new();
    for s in 0..3 * n {
        for a in 0..n {
            for b in 0..n {
                let Some(c) = s.checked_sub(a + b).filter(|&c| c < n) else {
                    continue;
                };
                let mut opts = Vec::new();
                opts.extend((1..=a).map(|k| (a - k, b, c)));
                opts.extend((1..=b).map(|k| (a, b - k, c)));
                opts.extend((1..=c).map(|k| (a, b, c - k)));
                opts.extend((1..=a.min(b).min(c)).map(|k| (a - k, b - k, c - k)));
                g.insert((a, b, c), mex(opts.iter().map(|o| g[o])));
            }
        }
    }
    let r = typed("three-heaps");
    let mut search = Search::new(r.clone());
    for (&(a, b, c), &v) in &g {
        assert_eq!(
            search.value(&Position::Heaps(vec![a, b, c]), &Control::new()).unwrap(),
            v
        );
    }
    // a slice of it, as the map shows it
    let slice = Layout::parse_slice("2,_,_").unwrap();
    let s = grid(&r, &slice, 0..n, 0..n, &Control::new()).unwrap();
    for a in 0..n {
        for b in 0..n {
            assert_eq!(s.get(a, b), Some(g[&(2, a, b)]));
        }
    }
}

#[test]
fn compounds_take_typed_rules_on_either_side() {
    let wythoff = example("wythoff").unwrap().text;
    let sub134 = example("sub134").unwrap().text;
    let kayles = example("kayles").unwrap().text;
    for (typed, builtin) in [
        (format!("push({wythoff},nim)"), "push(wythoff,nim)"),
        (format!("push(nim,{wythoff})"), "push(nim,wythoff)"),
        (format!("misere({wythoff})"), "misere(wythoff)"),
    ] {
        let (t, b): (Ruleset, Ruleset) = (typed.parse().unwrap(), builtin.parse().unwrap());
        assert_eq!(map(&t, 24), map(&b, 24), "{builtin}");
    }
    for (typed, builtin) in [
        (format!("misere({kayles})"), "misere(octal(0.77))"),
        (format!("push({sub134},tag(2))"), "push(sub(1,3,4),tag(2))"),
    ] {
        let (t, b): (Ruleset, Ruleset) = (typed.parse().unwrap(), builtin.parse().unwrap());
        assert_eq!(seq(&t, 24), seq(&b, 24), "{builtin}");
    }
    let (t, b): (Ruleset, Ruleset) = (
        format!("sum({sub134},nim)").parse().unwrap(),
        "sum(sub(1,3,4),nim)".parse().unwrap(),
    );
    assert_eq!(map(&t, 30), map(&b, 30));
}

#[test]
fn a_rule_that_loops_is_valued_and_one_that_grows_is_refused() {
    let r = typed("swap");
    let p = r.parse_position("3,5").unwrap();
    let a = Evaluator::new().answer(&r, &p, &Control::new()).unwrap();
    assert_eq!(
        (a.grundy, a.infinite.as_deref(), a.outcome),
        (None, Some(&[][..]), Outcome::D)
    );
    assert!(a.by.contains("Smith") && a.by.contains("3,5 → 5,3 → 3,5"), "{}", a.by);
    // a cycle through six heaps: every heap a draw
    let up: Ruleset = "rule(n -> n + 1 if n < 5; n - 5 if n >= 5)".parse().unwrap();
    let s = sequence(&up, 6, &Control::new()).unwrap();
    assert!((0..6).all(|n| s.gamma(n) == Some(Gamma::Infinite(vec![]))));
    // a move that grows without bound is refused at once, with the move that grows
    for (text, position) in [
        ("rule(n -> n + 1)", "3"),
        ("rule((a, b) -> (a, b + 1) if a == 0; (a - 1, b) if a >= 1)", "3,5"),
    ] {
        let r: Ruleset = text.parse().unwrap();
        let p = r.parse_position(position).unwrap();
        let err = Evaluator::new()
            .answer(&r, &p, &Control::new())
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("grows without bound") && err.contains("applies again"),
            "{err}"
        );
        if r.shape() == nimscope_core::game::Shape::OneHeap {
            let err = sequence(&r, 10, &Control::new()).unwrap_err().to_string();
            assert!(err.contains("grows without bound"), "{err}");
        }
    }
    // a long path that ends is no cycle: heaps grow, then fall
    let finite: Ruleset = "rule((a, b) -> (a - 1, b + 3) if a >= 1; (a, b - 1) if b >= 1)"
        .parse()
        .unwrap();
    let p = finite.parse_position("6,0").unwrap();
    let v = Evaluator::new().value(&finite, &p, &Control::new()).unwrap();
    let mut plain = Search::plain(finite.clone());
    assert_eq!(v, plain.value(&p, &Control::new()).unwrap());
}

#[test]
fn new_examples_against_brute_force() {
    // subtract a prime, subtract a power of two (n mod 3), the Ruler game (the largest power
    // of two dividing n)
    let n = 600usize;
    let primes: Vec<usize> = (2..n)
        .filter(|&p| (2..p).take_while(|d| d * d <= p).all(|d| p % d != 0))
        .collect();
    let mut prime = vec![0u32; n];
    let mut ruler = vec![0u32; n];
    for h in 0..n {
        prime[h] = mex(primes.iter().take_while(|&&p| p <= h).map(|&p| prime[h - p]));
        ruler[h] = mex((1..=h).map(|j| (h + 1 - j..h).fold(0, |x, k| x ^ ruler[k])));
    }
    let some = |v: &[u32]| v.iter().map(|&x| Some(x)).collect::<Vec<_>>();
    assert_eq!(seq(&typed("subtract-prime"), n as u64), some(&prime));
    let power: Vec<u32> = (0..n as u32).map(|h| h % 3).collect();
    assert_eq!(seq(&typed("subtract-power"), n as u64), some(&power));
    let two_adic: Vec<u32> = (0..n)
        .map(|h| if h == 0 { 0 } else { 1 << h.trailing_zeros() })
        .collect();
    assert_eq!(ruler[..200], two_adic[..200]);
    assert_eq!(seq(&typed("ruler"), 200), some(&two_adic[..200]));
    // Moore's Nim_3 on four heaps: a P-position exactly when every binary digit is set in a
    // multiple of 4 heaps (Moore 1910); its values by brute force
    let k = 6u64;
    let mut four: HashMap<[u64; 4], u32> = HashMap::new();
    let mut welter: HashMap<[u64; 4], u32> = HashMap::new();
    let mut cells: Vec<[u64; 4]> = (0..k.pow(4))
        .map(|i| [i % k, i / k % k, i / k / k % k, i / k / k / k])
        .collect();
    cells.sort_by_key(|c| c.iter().sum::<u64>());
    for c in &cells {
        let mut opts = Vec::new();
        for m in 1u64..(1 << 4) - 1 {
            // the heaps of mask m lowered, each by at least one
            let idx: Vec<usize> = (0..4).filter(|i| m >> i & 1 == 1).collect();
            let mut lowered = vec![*c];
            for &i in &idx {
                lowered = lowered
                    .into_iter()
                    .flat_map(|x| {
                        (0..c[i]).map(move |v| {
                            let mut y = x;
                            y[i] = v;
                            y
                        })
                    })
                    .collect();
            }
            opts.extend(lowered);
        }
        four.insert(*c, mex(opts.iter().map(|o| four[o])));
        let distinct = |x: &[u64; 4]| (0..4).all(|i| (0..i).all(|j| x[i] != x[j]));
        if distinct(c) {
            let w: Vec<u32> = (0..4)
                .flat_map(|i| (0..c[i]).map(move |v| (i, v)))
                .map(|(i, v)| {
                    let mut y = *c;
                    y[i] = v;
                    y
                })
                .filter(|y| distinct(y))
                .map(|y| welter[&y])
                .collect();
            welter.insert(*c, mex(w));
        }
    }
    let mut search = Search::new(typed("moore3"));
    let mut wsearch = Search::new(typed("welter"));
    for c in &cells {
        let p = Position::Heaps(c.to_vec());
        let v = search.value(&p, &Control::new()).unwrap();
        assert_eq!(v, four[c], "moore3 at {p}");
        let moore_p = (0..3).all(|bit| c.iter().filter(|&&h| h >> bit & 1 == 1).count() % 4 == 0);
        assert_eq!(v == 0, moore_p, "Moore's theorem at {p}");
        if let Some(&w) = welter.get(c) {
            assert_eq!(wsearch.value(&p, &Control::new()).unwrap(), w, "welter at {p}");
        }
    }
    // Nim with a pass on three heaps, by brute force
    let mut pass: HashMap<[u64; 4], u32> = HashMap::new();
    for p in 0..2 {
        for c in cells.iter().filter(|c| c[3] == 0) {
            let (a, b, d) = (c[0], c[1], c[2]);
            let mut opts: Vec<[u64; 4]> = Vec::new();
            opts.extend((0..a).map(|x| [x, b, d, p]));
            opts.extend((0..b).map(|x| [a, x, d, p]));
            opts.extend((0..d).map(|x| [a, b, x, p]));
            if p == 1 && a + b + d > 0 {
                opts.push([a, b, d, 0]);
            }
            pass.insert([a, b, d, p], mex(opts.iter().map(|o| pass[o])));
        }
    }
    let r = typed("nim-pass");
    let mut s = Search::new(r.clone());
    for (c, &v) in &pass {
        assert_eq!(
            s.value(&Position::Heaps(c.to_vec()), &Control::new()).unwrap(),
            v,
            "nim-pass at {c:?}"
        );
    }
    // a map of a four-heap game: the slice a, b with c = 2, p = 1
    let slice = Layout::parse_slice("_,_,2,1").unwrap();
    let g = grid(&r, &slice, 0..5, 0..5, &Control::new()).unwrap();
    for a in 0..5 {
        for b in 0..5 {
            assert_eq!(g.get(a, b), Some(pass[&[a, b, 2, 1]]));
        }
    }
}

#[test]
fn a_session_keeps_a_typed_rule_and_refuses_a_damaged_one() {
    let text = example("grundy").unwrap().text;
    let mut s = Session::from_ron("(ruleset: \"nim\")", "x").unwrap();
    s.ruleset = text.parse::<Ruleset>().unwrap();
    let again = Session::from_ron(&s.to_ron(), "x").unwrap();
    assert_eq!(again.ruleset, text.parse::<Ruleset>().unwrap());
    let bad = "Session(\n  ruleset: \"rule(n -> [k, n - k] for k in 1..n if 2*k < m)\",\n)";
    let err = Session::from_ron(bad, "mine.ron").unwrap_err().to_string();
    assert!(
        err.contains("mine.ron") && err.contains("line 2") && err.contains("unknown name 'm'"),
        "{err}"
    );
}

mod generated {
    //! Generated text: parsing never panics and always says where it failed (the fast path
    //! against the definition, on generated rules, is a unit test beside the compiler:
    //! crates/core/src/game/rules/typed/fast_path_tests.rs).

    use nimscope_core::game::Ruleset;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, .. ProptestConfig::default() })]

        #[test]
        fn any_text_parses_or_says_where(text in "rule\\((\\PC|[()\\[\\]{};,|.<>=!+*/%-]){0,40}") {
            if let Err(e) = text.parse::<Ruleset>() {
                prop_assert!(e.at >= 1 && e.at <= text.len() + 1, "{e:?}");
                prop_assert!(!e.to_string().contains('\n'));
            }
        }
    }
}
