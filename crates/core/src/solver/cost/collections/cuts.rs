//! The cut bound: collections of two heaps told apart by the sizes of their parts.
//!
//! For a cut `s`, a collection `X` reached from heap `a` whose parts are all larger than `s`,
//! beside a collection `Y` reached from heap `b` whose parts are all at most `s`, is reached
//! from `a, b` (the heaps are played apart), and `X ∪ Y` gives back `X` (its parts above `s`)
//! and `Y` (the others): distinct pairs make distinct collections. So a search from `a, b`
//! meets at least `max_s N_{>s}(a) · N_{≤s}(b)` collections (and the same with `a` and `b`
//! exchanged), where `N` counts the collections of the module's construction (`collections.rs`)
//! whose parts lie on one side of the cut. Other heaps of the collection stay where they are
//! (taking them out of `X ∪ Y ∪ R` gives `X ∪ Y` back), so a pair of a larger collection
//! counts the same. The parity pairing this replaces splits the parts by parity, which leaves
//! about a square root of each side's collections; a cut near the middle of the parts' sizes
//! keeps far more.

use super::{Met, at_most};
use crate::game::rules::one_heap::OctalCode;

/// Past this many collections from the largest heap alone the search is past any memory
/// (10^15 collections take petabytes): the cut bound is not worth its `n³` table there.
pub(super) const PAST_ANY_MEMORY: u128 = 1_000_000_000_000_000;

/// The collections of one side of a cut and their heaps in all.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Side {
    count: u128,
    heaps: u128,
}

impl Side {
    fn add(&mut self, count: u128, parts: u128) {
        self.count = self.count.saturating_add(count);
        self.heaps = self.heaps.saturating_add(count.saturating_mul(parts));
    }
}

/// The construction's collections from a heap of `n` under `code`, by move, whose parts obey
/// the cut: `exactly(rest, j, unequal)` counts the partitions of `rest` into exactly `j` parts
/// on the cut's side (their largest part unique when `unequal`). The best move's count.
fn side(code: &OctalCode, n: usize, exactly: &dyn Fn(usize, usize, bool) -> u128) -> Side {
    let mut best = Side::default();
    for m in code.moves() {
        let (t, unequal) = (m.take as usize, m.unequal);
        let (one, two) = (m.digit & 2 != 0, m.digit & 4 != 0);
        let mut family = Side::default();
        // k moves (as in `met_from_heap`): n − t·k tokens in at most k + 1 heaps
        let ks = if t == 0 { n } else { n.div_ceil(t) };
        for k in 0..ks {
            let rest = n - t * k;
            let parts = match (one, two) {
                (true, true) => 0..=k + 1,
                (false, true) => k + 1..=k + 1,
                (true, false) => 1..=1,
                _ => continue,
            };
            for j in parts {
                family.add(exactly(rest, j, unequal && j >= 2), j as u128);
            }
        }
        if family.count > best.count {
            best = family;
        }
    }
    best
}

/// `N_{>s}(n)` for `s = 0..=last`: parts larger than `s` are `s` plus a part of at least one,
/// so those of `rest` into exactly `j` are those of `rest − j·(s + 1)` into at most `j`.
fn above(code: &OctalCode, n: usize, last: usize) -> Vec<Side> {
    (0..=last)
        .map(|s| {
            side(code, n, &|rest, j, unequal| {
                if j == 0 {
                    return u128::from(rest == 0);
                }
                // the largest part unique: one token off it gives those of rest − 1
                let rest = if unequal { rest.saturating_sub(1) } else { rest };
                rest.checked_sub(j * (s + 1)).map_or(0, |r| at_most(r, j).0)
            })
        })
        .collect()
}

/// `N_{≤s}(n)` for `s = 0..=last`, from a table of the partitions of every `m ≤ n` into
/// exactly `j` parts of at most `s`, grown one part size at a time.
fn below(code: &OctalCode, n: usize, last: usize) -> Vec<Side> {
    // table[m][j]: partitions of m into exactly j parts, each at most s
    let mut table = vec![vec![0u128; n + 1]; n + 1];
    table[0][0] = 1;
    let mut previous = table.clone();
    let mut sides = Vec::with_capacity(last + 1);
    for s in 0..=last {
        if s > 0 {
            previous.clone_from(&table);
            for m in s..=n {
                for j in 1..=n {
                    table[m][j] = table[m][j].saturating_add(table[m - s][j - 1]);
                }
            }
        }
        sides.push(side(code, n, &|rest, j, unequal| {
            if unequal {
                // one token off the unique largest part (at most s) leaves parts of at most s − 1
                rest.checked_sub(1).map_or(0, |r| previous[r][j])
            } else {
                table[rest][j]
            }
        }));
    }
    sides
}

/// The cut bound for the heaps `a` and `b` (both at most the table's tokens), with `others`
/// heaps held beside them.
pub(super) fn met_from_cut(code: &OctalCode, a: usize, b: usize, others: u128) -> Met {
    let last = a.min(b);
    let (a_above, a_below) = (above(code, a, last), below(code, a, last));
    let (b_above, b_below) = (above(code, b, last), below(code, b, last));
    let mut best = Met { positions: 0, heaps: 0 };
    for s in 0..=last {
        for (x, y) in [(a_above[s], b_below[s]), (b_above[s], a_below[s])] {
            let positions = x.count.saturating_mul(y.count);
            if positions > best.positions {
                let heaps = x
                    .count
                    .saturating_mul(y.heaps)
                    .saturating_add(x.heaps.saturating_mul(y.count))
                    .saturating_add(others.saturating_mul(positions));
                best = Met { positions, heaps };
            }
        }
    }
    best
}
