//! Typed rules whose games loop, against a brute force written here from the rules of play
//! alone: a won/lost/drawn retrograde analysis of the explicit graph (built from the game's
//! definition, not from the typed rule), of sums on the product of the graphs, and of sums
//! with Nim heaps, whose outcomes tell a position's value (γ = n exactly when the position
//! plus a heap of n is a P-position; γ = ∞(A) when no such sum is, and then the position plus
//! a heap of j is an N-position exactly for j in A). The labelling itself is tested the same
//! way on random explicit graphs, their sums with Nim heaps and with each other.

use nimscope_core::game::rules::typed::examples::example;
use nimscope_core::game::{Gamma, Layout, Outcome, Position, Ruleset};
use nimscope_core::solver::grid::grid;
use nimscope_core::solver::loopy::graph::Graph;
use nimscope_core::solver::loopy::label::{self, INFINITE};
use nimscope_core::solver::sequence::sequence;
use nimscope_core::solver::{Control, Evaluator};

use crate::cram_solver::Rng;

/// Won (N), lost (P) or drawn (D) for the player to move at every vertex of a graph given by
/// its options, by retrograde analysis.
fn outcomes(options: &[Vec<usize>]) -> Vec<Outcome> {
    let n = options.len();
    let mut preds = vec![Vec::new(); n];
    for (v, o) in options.iter().enumerate() {
        for &w in o {
            preds[w].push(v);
        }
    }
    let mut out: Vec<Option<Outcome>> = vec![None; n];
    let mut left: Vec<usize> = options.iter().map(Vec::len).collect();
    let mut queue: Vec<usize> = (0..n).filter(|&v| left[v] == 0).collect();
    for &v in &queue {
        out[v] = Some(Outcome::P);
    }
    while let Some(w) = queue.pop() {
        for &v in &preds[w] {
            if out[v].is_some() {
                continue;
            }
            if out[w] == Some(Outcome::P) {
                out[v] = Some(Outcome::N);
                queue.push(v);
            } else {
                left[v] -= 1;
                if left[v] == 0 {
                    out[v] = Some(Outcome::P);
                    queue.push(v);
                }
            }
        }
    }
    out.into_iter().map(|o| o.unwrap_or(Outcome::D)).collect()
}

/// The graph of a sum: vertex (u, v) is u·|b| + v.
fn product(a: &[Vec<usize>], b: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let nb = b.len();
    let mut out = Vec::with_capacity(a.len() * nb);
    for (u, a_options) in a.iter().enumerate() {
        for (v, b_options) in b.iter().enumerate() {
            let mut o: Vec<usize> = a_options.iter().map(|&x| x * nb + v).collect();
            o.extend(b_options.iter().map(|&y| u * nb + y));
            out.push(o);
        }
    }
    out
}

/// γ of every vertex, from the outcomes of its sums with Nim heaps up to `top`.
fn gammas_by_outcomes(options: &[Vec<usize>], top: usize) -> Vec<Gamma> {
    let mut found: Vec<Option<u64>> = vec![None; options.len()];
    let mut wins: Vec<Vec<u64>> = vec![Vec::new(); options.len()];
    for j in 0..=top {
        let heap: Vec<Vec<usize>> = (0..=j).map(|h| (0..h).collect()).collect();
        let sum = outcomes(&product(options, &heap));
        for u in 0..options.len() {
            match sum[u * heap.len() + j] {
                Outcome::P => found[u] = found[u].or(Some(j as u64)),
                Outcome::N => wins[u].push(j as u64),
                Outcome::D => {}
            }
        }
    }
    found
        .into_iter()
        .zip(wins)
        .map(|(f, w)| match f {
            Some(v) => Gamma::Finite(v),
            None => Gamma::Infinite(w),
        })
        .collect()
}

/// Subtraction modulo n from its definition: positions 0..n, x > 0 moves to (x − s) mod n.
fn clock(n: usize, set: &[usize]) -> Vec<Vec<usize>> {
    (0..n)
        .map(|x| {
            if x == 0 {
                Vec::new()
            } else {
                set.iter().map(|&s| (x + n * s - s) % n).collect()
            }
        })
        .collect()
}

fn clock_rule(n: usize, set: &[usize]) -> Ruleset {
    let set: Vec<String> = set.iter().map(usize::to_string).collect();
    format!(
        "rule(x if x < {n} -> (x - s) % {n} for s in {{{}}} if x > 0)",
        set.join(", ")
    )
    .parse()
    .unwrap()
}

/// Subtraction sets tried for each modulus: small ones, and one that depends on the modulus.
fn sets(n: usize) -> Vec<Vec<usize>> {
    vec![
        vec![1, 3, 4],
        vec![2, 5],
        vec![1, 2],
        vec![3],
        vec![1 + n % 7, 2 + n % 5, 7],
    ]
}

#[test]
fn subtraction_modulo_n_for_every_n_up_to_200() {
    let mut draws = 0;
    for n in 1..=200 {
        for set in sets(n) {
            let r = clock_rule(n, &set);
            let s = sequence(&r, n as u64, &Control::new()).unwrap();
            let want = outcomes(&clock(n, &set));
            for (x, &outcome) in want.iter().enumerate() {
                let g = s.gamma(x as u64).unwrap();
                assert_eq!(g.outcome(), outcome, "n = {n}, S = {set:?}, x = {x}: {g}");
                draws += usize::from(outcome == Outcome::D);
            }
            if n <= 40 {
                // the values themselves, from the sums with Nim heaps
                let by_outcomes = gammas_by_outcomes(&clock(n, &set), 6);
                for (x, expected) in by_outcomes.iter().enumerate() {
                    assert_eq!(&s.gamma(x as u64).unwrap(), expected, "n = {n}, S = {set:?}, x = {x}");
                }
            }
        }
    }
    assert!(draws > 1000, "draws met: {draws}");
}

#[test]
fn thousands_of_loopy_sums_agree_with_the_product_graph() {
    let mut ev = Evaluator::new();
    let c = Control::new();
    let mut checked = [0usize; 3];
    for (n, m) in [(7, 9), (12, 5), (10, 10), (13, 8)] {
        for (sa, sb) in [
            (vec![1, 3, 4], vec![2, 5]),
            (vec![2, 5], vec![1, 2]),
            (vec![3, 4], vec![1, 3, 4]),
        ] {
            let (ga, gb) = (clock(n, &sa), clock(m, &sb));
            let played = outcomes(&product(&ga, &gb));
            // two rules: sum(R1,R2) at x+y
            let (ra, rb) = (clock_rule(n, &sa), clock_rule(m, &sb));
            let sum = Ruleset::Sum(Box::new(ra.clone()), Box::new(rb));
            for x in 0..n {
                for y in 0..m {
                    let p = Position::Sum(
                        Box::new(Position::Heaps(vec![x as u64])),
                        Box::new(Position::Heaps(vec![y as u64])),
                    );
                    let a = ev.answer(&sum, &p, &c).unwrap();
                    assert_eq!(a.outcome, played[x * m + y], "{sum} at {p}");
                    checked[a.outcome as usize] += 1;
                }
            }
            // one rule, a collection of two heaps: their sum
            let same = outcomes(&product(&ga, &ga));
            for x in 0..n {
                for y in 0..n {
                    let p = Position::Heaps(vec![x as u64, y as u64]);
                    let a = ev.answer(&ra, &p, &c).unwrap();
                    assert_eq!(a.outcome, same[x * n + y], "{ra} at {p}");
                    checked[a.outcome as usize] += 1;
                }
            }
        }
    }
    assert!(
        checked.iter().sum::<usize>() > 2000 && checked.iter().all(|&k| k > 100),
        "{checked:?}"
    );
}

/// Nim with shifts from its definition, on the positions of at most `total` tokens: vertex
/// (a, b) is a·(total + 1) + b.
fn nim_shift(total: usize) -> Vec<Vec<usize>> {
    let w = total + 1;
    let mut out = vec![Vec::new(); w * w];
    for a in 0..=total {
        for b in 0..=total - a {
            let o = &mut out[a * w + b];
            o.extend((0..a).map(|x| x * w + b));
            o.extend((0..b).map(|y| a * w + y));
            if a >= 1 {
                o.push((a - 1) * w + b + 1);
            }
            if b >= 1 {
                o.push((a + 1) * w + b - 1);
            }
        }
    }
    out
}

#[test]
fn the_loopy_examples_against_brute_force() {
    // nim-shift: a map whose cells loop; the tokens never grow, so a + b ≤ 14 is closed
    let r: Ruleset = example("nim-shift").unwrap().text.parse().unwrap();
    let g = grid(&r, &Layout::Plain, 0..8, 0..7, &Control::new()).unwrap();
    let total = 14;
    let graph = nim_shift(total);
    let want = gammas_by_outcomes(&graph, 20);
    for a in 0..8 {
        for b in 0..7 {
            let got = g.gamma(a, b).unwrap();
            assert_eq!(
                got,
                want[a as usize * (total + 1) + b as usize],
                "nim-shift at ({a}, {b})"
            );
        }
    }
    // the clock and the swap
    let r: Ruleset = example("clock").unwrap().text.parse().unwrap();
    let s = sequence(&r, 12, &Control::new()).unwrap();
    let want = gammas_by_outcomes(&clock(12, &[1, 3, 4]), 6);
    for x in 0..12 {
        assert_eq!(s.gamma(x).unwrap(), want[x as usize], "clock at {x}");
    }
    let r: Ruleset = example("swap").unwrap().text.parse().unwrap();
    let g = grid(&r, &Layout::Plain, 0..5, 0..5, &Control::new()).unwrap();
    for a in 0..5 {
        for b in 0..5 {
            assert_eq!(g.gamma(a, b), Some(Gamma::Infinite(Vec::new())), "swap at ({a}, {b})");
        }
    }
}

// Smith's labelling of explicit graphs (no rule): random graphs, their sums with Nim heaps and
// their sums with each other on the product graph.

/// A graph from lists of options.
fn graph(options: &[Vec<usize>]) -> Graph {
    let mut g = Graph {
        offsets: vec![0],
        targets: Vec::new(),
    };
    for o in options {
        g.targets.extend(o.iter().map(|&x| x as u32));
        g.offsets.push(g.targets.len());
    }
    g
}

/// A random game graph on `n` vertices, each with up to `degree` options.
fn random_game(rng: &mut Rng, n: usize, degree: u64) -> Vec<Vec<usize>> {
    (0..n)
        .map(|_| {
            let d = rng.below(degree + 1);
            (0..d).map(|_| rng.below(n as u64) as usize).collect()
        })
        .collect()
}

/// γ of every vertex by the labelling.
fn gammas(options: &[Vec<usize>]) -> Vec<Gamma> {
    let g = graph(options);
    let labels = label::label(&g, &g.reversed(), &Control::new()).unwrap();
    (0..options.len())
        .map(|v| match labels[v] {
            INFINITE => Gamma::Infinite(label::option_values(&g, &labels, v)),
            m => Gamma::Finite(u64::from(m)),
        })
        .collect()
}

#[test]
fn values_agree_with_their_sums_with_nim_heaps() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut infinite = 0;
    for round in 0..300 {
        let n = 1 + rng.below(9) as usize;
        let game = random_game(&mut rng, n, 3);
        let g = gammas(&game);
        // a finite value or an option's value is at most the out-degree
        let top = 4;
        let expect = gammas_by_outcomes(&game, top);
        for (u, gu) in g.iter().enumerate() {
            assert_eq!(gu, &expect[u], "round {round}, vertex {u} of {game:?}");
            infinite += usize::from(matches!(gu, Gamma::Infinite(_)));
        }
    }
    assert!(infinite > 100, "the random graphs have infinite values ({infinite})");
}

#[test]
fn sums_agree_with_the_product_graph() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut seen = [0usize; 3];
    for round in 0..3000 {
        let (na, nb) = (1 + rng.below(6) as usize, 1 + rng.below(6) as usize);
        let a = random_game(&mut rng, na, 3);
        let b = random_game(&mut rng, nb, 3);
        let (ga, gb) = (gammas(&a), gammas(&b));
        let sum = product(&a, &b);
        let played = outcomes(&sum);
        let labelled = gammas(&sum);
        for (u, gu) in ga.iter().enumerate() {
            for (v, gv) in gb.iter().enumerate() {
                let by_rules = gu.sum(gv);
                let w = u * nb + v;
                assert_eq!(
                    by_rules.outcome(),
                    played[w],
                    "round {round}: {a:?} + {b:?} at ({u}, {v})"
                );
                assert_eq!(by_rules, labelled[w], "round {round}: {a:?} + {b:?} at ({u}, {v})");
                seen[by_rules.outcome() as usize] += 1;
            }
        }
    }
    assert!(seen.iter().all(|&s| s > 1000), "P, N and D all met: {seen:?}");
}

#[test]
fn acyclic_graphs_have_their_grundy_values() {
    let mut rng = Rng(7);
    for _ in 0..200 {
        let n = 1 + rng.below(12) as usize;
        // options only to smaller vertices: a finite game
        let game: Vec<Vec<usize>> = (0..n)
            .map(|v| {
                (0..rng.below(4))
                    .filter(|_| v > 0)
                    .map(|_| rng.below(v as u64) as usize)
                    .collect()
            })
            .collect();
        let mut grundy = vec![0u64; n];
        for v in 0..n {
            grundy[v] = (0..).find(|m| !game[v].iter().any(|&w| grundy[w] == *m)).unwrap();
        }
        let g = gammas(&game);
        for v in 0..n {
            assert_eq!(g[v], Gamma::Finite(grundy[v]));
        }
    }
}
