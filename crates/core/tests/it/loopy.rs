//! Typed rules whose games loop, against a brute force written here from the rules of play
//! alone: a won/lost/drawn retrograde analysis of the explicit graph (built from the game's
//! definition, not from the typed rule), of sums on the product of the graphs, and of sums
//! with Nim heaps, whose outcomes tell a position's value (γ = n exactly when the position
//! plus a heap of n is a P-position; γ = ∞(A) when no such sum is, and then the position plus
//! a heap of j is an N-position exactly for j in A).

use nimscope_core::game::rules::typed::examples::example;
use nimscope_core::game::{Gamma, Layout, Outcome, Position, Ruleset};
use nimscope_core::solver::grid::grid;
use nimscope_core::solver::sequence::sequence;
use nimscope_core::solver::{Control, Evaluator};

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
