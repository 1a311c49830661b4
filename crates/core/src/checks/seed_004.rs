//! Seed 004 (the slides): Bouton, misère Nim, the nim-sum examples, Fibonacci Nim, TAG(5),
//! the divisor game and Euclid's examples.

use crate::checks::row::Tally;
use crate::game::Layout;
use crate::game::theory as th;
use crate::game::{Outcome, Position};
// the theorems are checked against the fill from the origin, never against their own formulas
use super::compare::*;
use crate::solver::grid::filled as grid;
use crate::solver::search::Search;
use crate::solver::sequence::sequence;
use crate::solver::{Control, SolveError};

pub(super) fn seed_004(n: u64, c: &Control, rows: &mut Rows) -> Result<(), SolveError> {
    // Bouton, against the plain search (the solver's Nim shortcut is Bouton itself)
    let mut plain = Search::plain(rules("nim"));
    let k = (n / 16).clamp(4, 12).min(n);
    let mut t = Tally::default();
    for x in 0..k {
        for y in 0..k {
            for z in 0..k {
                let h = [x, y, z];
                let v = plain.value(&Position::heaps(&h), c)?;
                let mv_ok = th::bouton_winning_move(&h).is_none_or(|(i, to)| {
                    let mut o = h;
                    o[i] = to;
                    th::nim_sum(&o) == 0 && to < h[i]
                });
                t.case(((v == 0) != th::bouton_p(&h) || !mv_ok).then(|| format!("{x},{y},{z}: value {v}")));
            }
        }
    }
    t.push_to(
        rows,
        "seed 004 Bouton",
        "Nim is P iff the nim-sum is 0; the lemma's move balances",
        format!("three heaps < {k}"),
    );
    let mut m = Search::new(rules("misere(nim)"));
    let mut t = Tally::default();
    for x in 0..k {
        for y in 0..k {
            for z in 0..k {
                let v = m.value(&Position::heaps(&[x, y, z]), c)?;
                t.case(
                    ((v == 0) != th::misere_nim_p(&[x, y, z])).then(|| format!("{x},{y},{z} is {}", Outcome::of(v))),
                );
            }
        }
    }
    t.push_to(
        rows,
        "seed 004 misère Nim",
        "misère Nim strategy's P-positions",
        format!("three heaps < {k}"),
    );
    let table: [&[u64]; 16] = [
        &[2, 2],
        &[7, 7],
        &[1, 2, 3],
        &[1, 4, 5],
        &[1, 6, 7],
        &[1, 8, 9],
        &[2, 4, 6],
        &[2, 5, 7],
        &[1, 1, 9, 9],
        &[1, 2, 4, 7],
        &[1, 2, 5, 6],
        &[1, 3, 4, 6],
        &[1, 3, 5, 7],
        &[2, 3, 4, 5],
        &[1, 3, 5, 7],
        &[3, 3],
    ];
    let mut t = Tally::default();
    for h in table {
        // an error (cancelled, over budget) stops the table; it never passes a position
        let v = plain.value(&Position::heaps(h), c)?;
        t.case((v != 0).then(|| format!("{h:?} has value {v}")));
    }
    t.push_to(
        rows,
        "seed 004 Nim table",
        "the slide's 2-, 3- and 4-heap positions are P",
        format!("{} listed positions", table.len()),
    );
    rows.push(row(
        "seed 004 Nim-sum examples",
        "5 ⊕ 6 ⊕ 7 = 4 and 9 ⊕ 10 ⊕ 15 = 10 (as printed)",
        "2 sums".into(),
        2,
        {
            let (s1, s2) = (5 ^ 6 ^ 7, 9 ^ 10 ^ 15);
            if s1 != 4 {
                Some(format!("5 ⊕ 6 ⊕ 7 = {s1}"))
            } else if s2 != 10 {
                Some(format!("9 ⊕ 10 ⊕ 15 = {s2}"))
            } else {
                None
            }
        },
    ));
    fibonacci_and_examples(n, c, rows)
}

/// Fibonacci Nim's map, and the slides' own examples (TAG(5), the divisor game, Euclid).
fn fibonacci_and_examples(n: u64, c: &Control, rows: &mut Rows) -> Result<(), SolveError> {
    let f = grid(&rules("fibonacci-nim"), &Layout::Plain, 0..n, 0..n, c)?;
    cells(
        0,
        n,
        |a, q| q <= a,
        |a, q| {
            let p = is_p(&f, a, q);
            let mv_ok = th::fibonacci_nim_move(a, q)
                .is_none_or(|k| k >= 1 && k <= q.min(a) && is_p(&f, a - k, (2 * k).min(a - k)));
            (p != th::fibonacci_nim_p(a, q) || (!p && !mv_ok))
                .then(|| format!("({a},{q}) is {}", if p { "P" } else { "N" }))
        },
    )
    .push_to(
        rows,
        "seed 004 Fibonacci Nim",
        "(n,q) is P iff q < smallest Zeckendorf term; the strategy's move wins",
        format!("0 ≤ q ≤ n < {n}"),
    );
    let mut t = Tally::default();
    for a in 2..n {
        let p = is_p(&f, a, a - 1);
        t.case((p != th::fibonacci_fresh_pile_p(a)).then(|| format!("{a} is {}", if p { "P" } else { "N" })));
    }
    t.push_to(
        rows,
        "seed 004 Fibonacci Nim",
        "a fresh pile (n ≥ 2) is P iff n is a Fibonacci number",
        format!("2 ≤ n < {n}"),
    );
    // the slide's own examples, 42 and 50, at any bound
    let len = 51.max(n);
    let t5 = sequence(&rules("tag(5)"), len, c)?;
    let mut t = Tally::default();
    for (i, v) in t5.values.iter().enumerate() {
        t.case(((*v == Some(0)) != th::tag_p(5, i as u64)).then(|| format!("n = {i}")));
    }
    t.case((t5.values[42] != Some(0) || t5.values[50] == Some(0)).then(|| "42 or 50".into()));
    t.push_to(
        rows,
        "seed 004 TAG₅",
        "42 is P (B wins), 50 is N (A wins); P iff 6 | n",
        format!("n < {len}"),
    );
    // the slide's example, 60, at any bound
    let len = n.saturating_mul(10).max(61);
    let d = sequence(&rules("divisor"), len, c)?;
    let mut t = Tally::default();
    for i in 1..len as usize {
        let p = d.values[i] == Some(0);
        t.case((p != th::divisor_game_p(i as u64)).then(|| format!("{i} is {}", if p { "P" } else { "N" })));
    }
    t.push_to(
        rows,
        "seed 004 divisor game",
        "from n ≥ 1, P iff n odd (so A wins from 60)",
        format!("1 ≤ n < {len}"),
    );
    let e = map("euclid", 163, c)?;
    rows.push(row(
        "seed 004 Euclid games",
        "(162,100) is N (A wins), (161,100) is P (B wins)",
        "2 positions".into(),
        2,
        {
            match (e.get(162, 100), e.get(161, 100)) {
                (Some(x), Some(0)) if x != 0 => None,
                (x, y) => Some(format!("G(162,100) = {x:?}, G(161,100) = {y:?}")),
            }
        },
    ));
    Ok(())
}
