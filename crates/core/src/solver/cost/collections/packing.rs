//! The packing bound: collections of two heaps counted by a fixed way of dealing their parts.
//!
//! A move that takes `t` tokens and leaves two heaps reaches, from a heap of `m`, every
//! collection `X` with `Σ(x + t) = m + t` exactly (`collections.rs`: `k` splits leave
//! `m − t·k` tokens in `k + 1` heaps), and the heap of `n` reaches every `m` that moves leaving
//! one heap lower it to (by `t` itself where its digit allows, or by the code's other takes):
//! [`Family`]. From two heaps `a, b`, a collection `W` is reached when its parts
//! can be dealt into an `X` of `a` and a `Y` of `b`. Dealing them by one fixed rule, largest
//! parts first, one at a time ([`Rule`]: into `X` while they fit, or into the side with more
//! room), gives each `W` at most one way, so the collections the rule deals successfully are
//! distinct and all reached: their number, counted by a table over the two sides' weights, is
//! a lower bound (the larger of the two rules' is kept; each misses some the other
//! deals, so neither count is the union's).
//! Unlike a cut or a parity, the rule lets both sides hold parts of every size, which is most
//! of what two alike heaps reach. Three heaps and more ([`met_from_many`]) are dealt the same
//! way into a side each, by three rules (most room, best fit, first fit).
//!
//! Where the two heaps of a split must differ (`u`, Grundy's game), a side's collections are
//! the same but for those of two parts or more all alike: a heap reaches every other one (by
//! induction on the heap: split off a smallest part, or, where the rest would be all alike, one
//! of the alike parts; the heap left is larger than the part either way). So each side also
//! keeps its shape, whether it holds one part, alike parts, or parts of two sizes.

use super::{Met, Tally, keep_best};
use crate::game::rules::one_heap::OctalCode;

/// Most cells the bound visits (its table's states times the part sizes dealt, about 0.05 s a
/// rule):
/// past it the heaps are far past any memory by the other bounds already (0.137 at 64,64 takes
/// 2.7·10^6, 0.007 at 200,200 would take 7.5·10^7 for a search of 10^16 collections).
const MAX_WORK: usize = 20_000_000;

/// Most cells of one table (32 bytes each, twice while a size is dealt).
const MAX_CELLS: usize = 2_000_000;

/// Weights a family tells apart (`64 ·` this): heaps up to [`super::MAX_TOKENS`] and their takes.
const WEIGHT_WORDS: usize = 8;

/// One side's family: parts weigh `x + take`, and a collection is the family's when its
/// weight is one of `weights` (and its shape reached, where the split's heaps must differ).
/// A heap of `n` lowered to `m` by moves that leave one heap (any take `s` of the code whose
/// digit allows it, from a heap above `s`) reaches, by splits of `take`, every collection of
/// weight `Σ(x + take) = m + take` exactly (`k` splits leave `m − take·k` tokens in `k + 1`
/// heaps; the residue of the tokens modulo `take` follows from the weight); so the weights are
/// `m + take` for each `m` so reached, `n` itself among them, and (where alike parts are
/// reached) those of such a collection less parts that a move removes whole.
#[derive(Debug, Clone, Copy)]
pub(super) struct Family {
    pub(super) take: usize,
    /// The largest weight (`n + take`).
    pub(super) capacity: usize,
    /// Bit `w`: collections of weight `w` are the family's.
    weights: [u64; WEIGHT_WORDS],
    /// The two heaps of a split must differ: collections of alike parts are not reached.
    pub(super) unequal: bool,
}

impl Family {
    pub(super) fn of(code: &OctalCode, n: usize) -> Vec<Family> {
        // the heaps `n` is lowered to by moves that leave one heap
        let lowering: Vec<usize> = code
            .moves()
            .filter(|m| m.digit & 2 != 0 && m.take > 0)
            .map(|m| m.take as usize)
            .collect();
        let removing: Vec<usize> = code
            .moves()
            .filter(|m| m.digit & 1 != 0 && m.take > 0)
            .map(|m| m.take as usize)
            .collect();
        let mut lowered = vec![false; n + 1];
        if n > 0 {
            lowered[n] = true;
        }
        for h in (1..=n).rev() {
            if lowered[h] {
                for &s in lowering.iter().filter(|&&s| s < h) {
                    lowered[h - s] = true;
                }
            }
        }
        code.moves()
            .filter(|m| m.digit & 4 != 0)
            .map(|m| {
                let take = m.take as usize;
                let mut weights = [0u64; WEIGHT_WORDS];
                for h in (1..=n).filter(|&h| lowered[h]) {
                    set_weight(&mut weights, h + take);
                }
                // a part of `r` tokens that a move removes whole (its digit leaves no heap)
                // goes: any collection of the family with such a part, less that part, is
                // reached too (where alike parts are not reached, the rest might be alike)
                if !m.unequal {
                    for w in (1..64 * WEIGHT_WORDS).rev() {
                        if !has_weight(&weights, w) {
                            continue;
                        }
                        for &r in &removing {
                            if let Some(less) = w.checked_sub(r + take).filter(|&l| l > 0) {
                                set_weight(&mut weights, less);
                            }
                        }
                    }
                }
                Family {
                    take,
                    capacity: n + take,
                    weights,
                    unequal: m.unequal,
                }
            })
            .collect()
    }

    /// The shapes a side tells apart: [`Shape`]'s three where alike parts are not reached.
    pub(super) fn shapes(&self) -> usize {
        if self.unequal { 3 } else { 1 }
    }

    /// A side's state in the packing tables: whether its shape is reached, where alike parts
    /// are not (an empty side is the one of weight 0, so two states and the weight tell all
    /// three shapes apart).
    fn states(&self) -> usize {
        if self.unequal { 2 } else { 1 }
    }

    fn state(&self, shape: Shape) -> usize {
        usize::from(self.unequal && shape == Shape::Reached)
    }

    /// The shape of a side of the weight in the state.
    fn shape(&self, weight: usize, state: usize) -> Shape {
        match (state, weight) {
            (1, _) => Shape::Reached,
            (_, 0) => Shape::Empty,
            _ if self.unequal => Shape::Alike,
            // no shape told apart: any is reached
            _ => Shape::Reached,
        }
    }

    fn accepts(&self, weight: usize, state: usize) -> bool {
        self.holds(weight, self.shape(weight, state))
    }

    /// Whether a collection of the weight and the shape is the family's (and not empty).
    pub(super) fn holds(&self, weight: usize, shape: Shape) -> bool {
        weight > 0 && has_weight(&self.weights, weight) && !(self.unequal && shape != Shape::Reached)
    }
}

/// Marks a family's weight (those past its words are left out: the family is then smaller).
fn set_weight(weights: &mut [u64; WEIGHT_WORDS], w: usize) {
    if w < 64 * WEIGHT_WORDS {
        weights[w / 64] |= 1 << (w % 64);
    }
}

fn has_weight(weights: &[u64; WEIGHT_WORDS], w: usize) -> bool {
    w < 64 * WEIGHT_WORDS && weights[w / 64] & (1 << (w % 64)) != 0
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
    /// Into the side with least room that holds it (three sides or more), as bins are
    /// packed best-fit: sides whose sums must be met exactly are filled one by one.
    BestFit,
}

/// Counts and heaps of the collections dealt into the state `(weight, shape)` of each
/// side.
struct Table {
    sides: Vec<Family>,
    rule: Rule,
    /// A side's digit of a cell's index is `w·s + q`, for its weight `w`, its state `q`
    /// ([`Family::state`]) and its number of states `s`; `strides[i]` is side `i`'s place.
    strides: Vec<usize>,
    /// `(count, heaps)` by `Σ digit·stride`.
    cells: Vec<(u128, u128)>,
}

impl Table {
    /// `None` when the table, times the part sizes dealt, would pass `work` (left, and spent
    /// here) or the size of [`MAX_CELLS`].
    fn new(sides: Vec<Family>, rule: Rule, parts: usize, work: &mut usize) -> Option<Self> {
        let mut strides = Vec::with_capacity(sides.len());
        let mut size = 1usize;
        for side in sides.iter().rev() {
            strides.push(size);
            size = size.checked_mul((side.capacity + 1).checked_mul(side.states())?)?;
        }
        strides.reverse();
        let cost = size.checked_mul(parts)?;
        if size > MAX_CELLS || cost > *work {
            return None;
        }
        *work -= cost;
        let mut cells = vec![(0, 0); size];
        cells[0] = (1, 0);
        Some(Table {
            sides,
            rule,
            strides,
            cells,
        })
    }

    /// Side `i`'s weight and state in the cell `at`.
    fn digit(&self, at: usize, i: usize) -> (usize, usize) {
        let side = &self.sides[i];
        let d = at / self.strides[i] % ((side.capacity + 1) * side.states());
        (d / side.states(), d % side.states())
    }

    /// Deals every count of parts of size `part` onto every state, one part at a time by the
    /// table's rule (none past the count that fits no side).
    fn deal(&mut self, part: usize) {
        let k = self.sides.len();
        let mut next = vec![(0u128, 0u128); self.cells.len()];
        let (mut held, mut added) = (vec![(0, 0); k], vec![0usize; k]);
        for at in 0..self.cells.len() {
            let (count, heaps) = self.cells[at];
            if count == 0 {
                continue;
            }
            for (i, h) in held.iter_mut().enumerate() {
                *h = self.digit(at, i);
            }
            added.fill(0);
            for c in 0.. {
                if c > 0 {
                    // the room each side has for one part more
                    let room = |i: usize| {
                        let side = &self.sides[i];
                        let weight = part + side.take;
                        (side.capacity - held[i].0)
                            .checked_sub(added[i] * weight)
                            .filter(|&r| r >= weight)
                    };
                    let to = match self.rule {
                        Rule::FillX => (0..k).find(|&i| room(i).is_some()),
                        // the first of the sides with most room
                        Rule::Balance => (0..k)
                            .filter_map(|i| room(i).map(|r| (r, i)))
                            .max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)))
                            .map(|(_, i)| i),
                        // the first of the sides with least room that holds it
                        Rule::BestFit => (0..k).filter_map(|i| room(i).map(|r| (r, i))).min().map(|(_, i)| i),
                    };
                    match to {
                        Some(i) => added[i] += 1,
                        None => break,
                    }
                }
                let mut to_cell = 0;
                for (i, side) in self.sides.iter().enumerate() {
                    let ((w, q), n) = (held[i], added[i]);
                    let q = side.state(side.shape(w, q).with(n));
                    to_cell += ((w + n * (part + side.take)) * side.states() + q) * self.strides[i];
                }
                let cell = &mut next[to_cell];
                cell.0 = cell.0.saturating_add(count);
                cell.1 = cell
                    .1
                    .saturating_add(heaps)
                    .saturating_add(count.saturating_mul(c as u128));
            }
        }
        self.cells = next;
    }

    fn accepted(&self) -> Tally {
        let mut total = (0u128, 0u128);
        for (at, &(c, h)) in self.cells.iter().enumerate() {
            if c > 0
                && self.sides.iter().enumerate().all(|(i, side)| {
                    let (w, q) = self.digit(at, i);
                    side.accepts(w, q)
                })
            {
                total = (total.0.saturating_add(c), total.1.saturating_add(h));
            }
        }
        total
    }
}

/// Deals the parts of every size from `largest` down into the table's sides; the collections
/// dealt into every side's family, and their heaps.
fn count(mut table: Table, largest: usize) -> Tally {
    for part in (1..=largest).rev() {
        table.deal(part);
    }
    table.accepted()
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
                let table = Table::new(vec![x, y], rule, p.max(q), &mut { MAX_WORK })?;
                keep_best(&mut best, Some(count(table, p.max(q))), others);
            }
        }
    }
    best
}

/// The packing bound for three heaps or more (`heaps`, largest first), with `others` heaps
/// held beside them: their parts dealt by each rule into the families of one take (each
/// side's weights then share a part's size), the largest count kept. `None` when no take
/// splits every heap or no table fits [`MAX_WORK`].
pub(super) fn met_from_many(code: &OctalCode, heaps: &[usize], others: u128) -> Option<Met> {
    let largest = heaps.iter().copied().max()?;
    let families: Vec<Vec<Family>> = heaps.iter().map(|&n| Family::of(code, n)).collect();
    let mut best: Option<Met> = None;
    let mut work = MAX_WORK;
    for x in &families[0] {
        let Some(sides) = families
            .iter()
            .map(|f| f.iter().find(|y| y.take == x.take).copied())
            .collect::<Option<Vec<Family>>>()
        else {
            continue;
        };
        let reversed: Vec<Family> = sides.iter().rev().copied().collect();
        for (sides, rule) in [sides, reversed]
            .iter()
            .flat_map(|s| [Rule::Balance, Rule::BestFit, Rule::FillX].map(|r| (s, r)))
        {
            let Some(table) = Table::new(sides.clone(), rule, largest, &mut work) else {
                return best;
            };
            keep_best(&mut best, Some(count(table, largest)), others);
        }
    }
    best
}
