//! The packing bound: collections of two heaps counted by a fixed way of dealing their parts.
//!
//! A move that takes `t` tokens and leaves one or two heaps reaches, from a heap of `n`, every
//! collection `X` with `Σ(x + t) ≤ n + t` and `ΣX ≡ n (mod t)` (`collections.rs`: `k` moves
//! leave `n − t·k` tokens in at most `k + 1` heaps); one that must leave two heaps, those with
//! `Σ(x + t) = n + t` exactly. From two heaps `a, b`, a collection `W` is reached when its parts
//! can be dealt into an `X` of `a` and a `Y` of `b`. Dealing them by one fixed rule, largest
//! parts first (as many of each size into `X` as fit, the rest into `Y`), gives each `W` at most
//! one way, so the collections the rule deals successfully are distinct and all reached: their
//! number, counted by a table over the two sides' weights and residues, is a lower bound.
//! Unlike a cut or a parity, the rule lets both sides hold parts of every size, which is most
//! of what two alike heaps reach. Moves whose two heaps must differ are left out (the cut
//! bound counts those).

use super::Met;
use crate::game::rules::one_heap::OctalCode;

/// Most cells the bound visits (its table's states times the part sizes dealt, about 0.05 s):
/// past it the heaps are far past any memory by the other bounds already (0.137 at 64,64 takes
/// 2.7·10^6, 0.007 at 200,200 would take 7.5·10^7 for a search of 10^16 collections).
const MAX_WORK: usize = 20_000_000;

/// One side's family: parts weigh `x + take`, their weights sum to at most (or exactly)
/// `capacity`, and their tokens to `residue` modulo `take` (no condition when `take` ≤ 1).
#[derive(Debug, Clone, Copy)]
struct Family {
    take: usize,
    capacity: usize,
    exact: bool,
    residue: usize,
}

impl Family {
    fn of(code: &OctalCode, n: usize) -> Vec<Family> {
        code.moves()
            .filter(|m| !m.unequal && m.digit & 4 != 0)
            .map(|m| {
                let take = m.take as usize;
                Family {
                    take,
                    capacity: n + take,
                    exact: m.digit & 2 == 0,
                    residue: if take > 1 { n % take } else { 0 },
                }
            })
            .collect()
    }

    fn modulus(&self) -> usize {
        self.take.max(1)
    }

    fn accepts(&self, weight: usize, residue: usize) -> bool {
        weight > 0 && residue == self.residue && (!self.exact || weight == self.capacity)
    }
}

/// Counts and heaps of the collections dealt into the state `(weight, residue)` of each side.
struct Table {
    x: Family,
    y: Family,
    /// `(count, heaps)` by `((wx·mx + rx)·(cy + 1) + wy)·my + ry`.
    cells: Vec<(u128, u128)>,
}

impl Table {
    fn new(x: Family, y: Family, parts: usize) -> Option<Self> {
        let size = (x.capacity + 1)
            .checked_mul(x.modulus())?
            .checked_mul(y.capacity + 1)?
            .checked_mul(y.modulus())?;
        (size.checked_mul(parts)? <= MAX_WORK).then(|| Table {
            x,
            y,
            cells: vec![(0, 0); size],
        })
    }

    fn index(&self, wx: usize, rx: usize, wy: usize, ry: usize) -> usize {
        ((wx * self.x.modulus() + rx) * (self.y.capacity + 1) + wy) * self.y.modulus() + ry
    }

    /// Deals every count of parts of size `part` onto every state: as many as fit into `X`,
    /// the rest into `Y` (none when they do not fit there).
    fn deal(&mut self, part: usize) {
        let (x, y) = (self.x, self.y);
        let mut next = vec![(0u128, 0u128); self.cells.len()];
        let (px, py) = (part + x.take, part + y.take);
        for wx in 0..=x.capacity {
            for rx in 0..x.modulus() {
                for wy in 0..=y.capacity {
                    for ry in 0..y.modulus() {
                        let (count, heaps) = self.cells[self.index(wx, rx, wy, ry)];
                        if count == 0 {
                            continue;
                        }
                        let fit = (x.capacity - wx) / px;
                        for c in 0.. {
                            let (cx, cy) = (c.min(fit), c.saturating_sub(fit));
                            let wy2 = wy + cy * py;
                            if wy2 > y.capacity {
                                break;
                            }
                            let at = self.index(
                                wx + cx * px,
                                (rx + cx * part) % x.modulus(),
                                wy2,
                                (ry + cy * part) % y.modulus(),
                            );
                            let cell = &mut next[at];
                            cell.0 = cell.0.saturating_add(count);
                            cell.1 = cell
                                .1
                                .saturating_add(heaps)
                                .saturating_add(count.saturating_mul(c as u128));
                        }
                    }
                }
            }
        }
        self.cells = next;
    }

    fn accepted(&self) -> (u128, u128) {
        let (x, y) = (self.x, self.y);
        let mut total = (0u128, 0u128);
        for wx in 0..=x.capacity {
            for rx in 0..x.modulus() {
                for wy in 0..=y.capacity {
                    for ry in 0..y.modulus() {
                        if x.accepts(wx, rx) && y.accepts(wy, ry) {
                            let (c, h) = self.cells[self.index(wx, rx, wy, ry)];
                            total = (total.0.saturating_add(c), total.1.saturating_add(h));
                        }
                    }
                }
            }
        }
        total
    }
}

/// The packing bound for the heaps `a` and `b`, with `others` heaps held beside them; `None`
/// when no move splits in two or the table would take more than [`MAX_WORK`].
pub(super) fn met_from_packing(code: &OctalCode, a: usize, b: usize, others: u128) -> Option<Met> {
    let mut best: Option<Met> = None;
    for (p, q) in [(a, b), (b, a)] {
        for &x in &Family::of(code, p) {
            for &y in &Family::of(code, q) {
                let mut table = Table::new(x, y, p.max(q))?;
                table.cells[0] = (1, 0);
                for part in (1..=p.max(q)).rev() {
                    table.deal(part);
                }
                let (positions, heaps) = table.accepted();
                if best.is_none_or(|m| positions > m.positions) {
                    let heaps = heaps.saturating_add(others.saturating_mul(positions));
                    best = Some(Met { positions, heaps });
                }
            }
        }
    }
    best
}
