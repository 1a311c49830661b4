//! The packing bound: collections of two heaps counted by a fixed way of dealing their parts.
//!
//! A move that takes `t` tokens and leaves one or two heaps reaches, from a heap of `n`, every
//! collection `X` with `Σ(x + t) ≤ n + t` and `ΣX ≡ n (mod t)` (`collections.rs`: `k` moves
//! leave `n − t·k` tokens in at most `k + 1` heaps); one that must leave two heaps, those with
//! `Σ(x + t) = n + t` exactly. From two heaps `a, b`, a collection `W` is reached when its parts
//! can be dealt into an `X` of `a` and a `Y` of `b`. Dealing them by one fixed rule, largest
//! parts first, one at a time ([`Rule`]: into `X` while they fit, or into the side with more
//! room), gives each `W` at most one way, so the collections the rule deals successfully are
//! distinct and all reached: their number, counted by a table over the two sides' weights and
//! residues, is a lower bound (the larger of the two rules' is kept; each misses some the other
//! deals, so neither count is the union's).
//! Unlike a cut or a parity, the rule lets both sides hold parts of every size, which is most
//! of what two alike heaps reach.
//!
//! Where the two heaps of a split must differ (`u`, Grundy's game), a side's collections are
//! the same but for those of two parts or more all alike: a heap reaches every other one (by
//! induction on the heap: split off a smallest part, or, where the rest would be all alike, one
//! of the alike parts; the heap left is larger than the part either way). So each side also
//! keeps its shape, whether it holds one part, alike parts, or parts of two sizes.

use super::Met;
use crate::game::rules::one_heap::OctalCode;

/// Most cells the bound visits (its table's states times the part sizes dealt, about 0.05 s a
/// rule):
/// past it the heaps are far past any memory by the other bounds already (0.137 at 64,64 takes
/// 2.7·10^6, 0.007 at 200,200 would take 7.5·10^7 for a search of 10^16 collections).
const MAX_WORK: usize = 20_000_000;

/// One side's family: parts weigh `x + take`, their weights sum to at most (or exactly)
/// `capacity`, and their tokens to `residue` modulo `take` (no condition when `take` ≤ 1).
#[derive(Debug, Clone, Copy)]
pub(super) struct Family {
    pub(super) take: usize,
    pub(super) capacity: usize,
    exact: bool,
    residue: usize,
    /// The two heaps of a split must differ: collections of alike parts are not reached.
    pub(super) unequal: bool,
}

impl Family {
    pub(super) fn of(code: &OctalCode, n: usize) -> Vec<Family> {
        code.moves()
            .filter(|m| m.digit & 4 != 0)
            .map(|m| {
                let take = m.take as usize;
                Family {
                    take,
                    capacity: n + take,
                    exact: m.digit & 2 == 0,
                    residue: if take > 1 { n % take } else { 0 },
                    unequal: m.unequal,
                }
            })
            .collect()
    }

    pub(super) fn modulus(&self) -> usize {
        self.take.max(1)
    }

    /// The shapes a side tells apart: [`Shape`]'s three where alike parts are not reached.
    pub(super) fn shapes(&self) -> usize {
        if self.unequal { 3 } else { 1 }
    }

    /// A side's state: its tokens' residue and its shape, as one number below
    /// `modulus · shapes`.
    fn states(&self) -> usize {
        self.modulus() * self.shapes()
    }

    fn state(&self, residue: usize, shape: Shape) -> usize {
        residue * self.shapes() + if self.unequal { shape as usize } else { 0 }
    }

    fn split(&self, state: usize) -> (usize, Shape) {
        let shape = if self.unequal {
            Shape::ALL[state % 4]
        } else {
            Shape::Empty
        };
        (state / self.shapes(), shape)
    }

    fn accepts(&self, weight: usize, state: usize) -> bool {
        let (residue, shape) = self.split(state);
        self.holds(weight, residue, shape)
    }

    /// Whether a collection of the weight, tokens of the residue and the shape is the
    /// family's (and not empty).
    pub(super) fn holds(&self, weight: usize, residue: usize, shape: Shape) -> bool {
        weight > 0
            && residue == self.residue
            && (!self.exact || weight == self.capacity)
            && !(self.unequal && shape != Shape::Reached)
    }
}

/// What a side holds so far, told apart where alike parts are not reached: one part and parts
/// of two sizes behave alike from here on (a smaller part makes either parts of two sizes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Shape {
    Empty,
    /// Two parts or more, all of one size: not reached unless a smaller part joins them.
    Alike,
    /// One part, or parts of two sizes or more.
    Reached,
}

impl Shape {
    pub(super) const ALL: [Shape; 3] = [Shape::Empty, Shape::Alike, Shape::Reached];

    /// After `count` parts of a size smaller than any held.
    pub(super) fn with(self, count: usize) -> Shape {
        match (self, count) {
            (_, 0) => self,
            (Shape::Empty, 1) => Shape::Reached,
            (Shape::Empty, _) => Shape::Alike,
            _ => Shape::Reached,
        }
    }
}

/// Where the parts of a size go, one at a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rule {
    /// Into `X` while they fit, then into `Y`.
    FillX,
    /// Into the side with more room left (`X` on a tie), as the largest-first rule of
    /// scheduling balances two machines: it meets two sums exactly more often where the
    /// first fills `X` with large parts and leaves small ones it cannot place.
    Balance,
}

/// Counts and heaps of the collections dealt into the state `(weight, residue, shape)` of each
/// side.
struct Table {
    x: Family,
    y: Family,
    rule: Rule,
    /// `(count, heaps)` by `((wx·sx + qx)·(cy + 1) + wy)·sy + qy`, for the weights `w`, the
    /// states `q` ([`Family::state`]) and their numbers `s`.
    cells: Vec<(u128, u128)>,
}

impl Table {
    fn new(x: Family, y: Family, rule: Rule, parts: usize) -> Option<Self> {
        let size = (x.capacity + 1)
            .checked_mul(x.states())?
            .checked_mul(y.capacity + 1)?
            .checked_mul(y.states())?;
        (size.checked_mul(parts)? <= MAX_WORK).then(|| Table {
            x,
            y,
            rule,
            cells: vec![(0, 0); size],
        })
    }

    fn index(&self, wx: usize, qx: usize, wy: usize, qy: usize) -> usize {
        ((wx * self.x.states() + qx) * (self.y.capacity + 1) + wy) * self.y.states() + qy
    }

    /// Deals every count of parts of size `part` onto every state, one part at a time by the
    /// table's rule (none past the count that fits neither side).
    fn deal(&mut self, part: usize) {
        let (x, y) = (self.x, self.y);
        let mut next = vec![(0u128, 0u128); self.cells.len()];
        let (px, py) = (part + x.take, part + y.take);
        for wx in 0..=x.capacity {
            for qx in 0..x.states() {
                let (rx, shape_x) = x.split(qx);
                for wy in 0..=y.capacity {
                    for qy in 0..y.states() {
                        let (ry, shape_y) = y.split(qy);
                        let (count, heaps) = self.cells[self.index(wx, qx, wy, qy)];
                        if count == 0 {
                            continue;
                        }
                        let (mut cx, mut cy) = (0, 0);
                        for c in 0.. {
                            if c > 0 {
                                let room_x = (x.capacity - wx).checked_sub(cx * px).filter(|&r| r >= px);
                                let room_y = (y.capacity - wy).checked_sub(cy * py).filter(|&r| r >= py);
                                match (room_x, room_y, self.rule) {
                                    (None, None, _) => break,
                                    (Some(_), None, _) | (Some(_), Some(_), Rule::FillX) => cx += 1,
                                    (Some(rx), Some(ry), Rule::Balance) if rx >= ry => cx += 1,
                                    _ => cy += 1,
                                }
                            }
                            let wy2 = wy + cy * py;
                            let at = self.index(
                                wx + cx * px,
                                x.state((rx + cx * part) % x.modulus(), shape_x.with(cx)),
                                wy2,
                                y.state((ry + cy * part) % y.modulus(), shape_y.with(cy)),
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
            for qx in 0..x.states() {
                for wy in 0..=y.capacity {
                    for qy in 0..y.states() {
                        if x.accepts(wx, qx) && y.accepts(wy, qy) {
                            let (c, h) = self.cells[self.index(wx, qx, wy, qy)];
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
            for (&y, rule) in Family::of(code, q)
                .iter()
                .flat_map(|y| [(y, Rule::FillX), (y, Rule::Balance)])
            {
                let mut table = Table::new(x, y, rule, p.max(q))?;
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
