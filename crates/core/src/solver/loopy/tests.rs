//! Smith's labelling against brute force, on random graphs: a won/lost/drawn retrograde
//! analysis written here from the rules of play alone. The value of a vertex is told by the
//! outcomes of its sums with Nim heaps (γ(u) = n exactly when u + *n is a P-position; γ(u) =
//! ∞(A) when no u + *j is, and then u + *j is an N-position exactly for j in A), and the value
//! of a sum by the outcome of the sum played on the product of the graphs.

use super::graph::Graph;
use super::label::{self, INFINITE};
use crate::game::Outcome;
use crate::game::loopy::Gamma;
use crate::solver::control::Control;

/// A small deterministic generator (xorshift), so the random graphs are the same every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

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

/// Won, lost or drawn for the player to move at every vertex, by the retrograde analysis of
/// play: a vertex without options is lost; one with a lost option won; one whose options are
/// all won lost; what is never settled drawn.
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

/// The graph of the sum of two games: vertex (u, v) is u·|B| + v.
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

/// A Nim heap of `j`: vertex h moves to every smaller h.
fn nim_heap(j: usize) -> Vec<Vec<usize>> {
    (0..=j).map(|h| (0..h).collect()).collect()
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

/// γ of vertex `u` told by brute force from the outcomes of `u + *j`, j up to `top`.
fn gamma_by_outcomes(options: &[Vec<usize>], u: usize, top: usize) -> Gamma {
    let mut next_wins = Vec::new();
    for j in 0..=top {
        let heap = nim_heap(j);
        let sum = outcomes(&product(options, &heap));
        // the heap's vertex j: the full heap
        match sum[u * heap.len() + j] {
            Outcome::P => return Gamma::Finite(j as u64),
            Outcome::N => next_wins.push(j as u64),
            Outcome::D => {}
        }
    }
    Gamma::Infinite(next_wins)
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
        for (u, gu) in g.iter().enumerate() {
            let expect = gamma_by_outcomes(&game, u, top);
            assert_eq!(gu, &expect, "round {round}, vertex {u} of {game:?}");
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
