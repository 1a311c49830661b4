//! The split count: exactly the collections of two heaps whose parts split into a collection
//! of each heap's family.
//!
//! A collection `W` is reached from heaps `a, b` when its parts split into an `X` of `a`'s
//! family and a `Y` of `b`'s (`packing.rs`: the families a heap surely reaches). The packing
//! bound counts the `W` one fixed rule deals; this count asks whether any split exists. Parts
//! are dealt largest first as there, and a state keeps, for the parts dealt so far (their
//! weight `T`), every weight `X` can have (`Y` has the rest, `T − wx`) and the shapes of both
//! sides: a bitset over `wx` for each pair of shapes. Two collections that lead to the same
//! state are counted together, so the table holds states, not collections; where `X` and `Y`
//! are the exact sets a heap reaches (0.6, Grundy's game), the count is the search's own.
//!
//! The number of states is not known before, so the count stops past [`MAX_WORK`] (the
//! packing bound answers then): two heaps of 0.6 at 40 end with 65,000 states, at 64 with 1.8
//! million.

use std::collections::HashMap;

use super::packing::{Family, Shape};
use super::{Met, Tally, keep_best};
use crate::game::rules::one_heap::OctalCode;

/// Most states the count makes over all its stages (a state for each count of parts dealt
/// onto each state before; about 0.6 s of work, two heaps of Grundy's game at 40 take 1.9
/// million): past it the packing bound answers.
const MAX_WORK: usize = 3_000_000;

/// Past this many collections (a quarter of a terabyte) a lower bound is past any budget
/// already: the count, which grows with them, is not tried.
pub(super) const PAST_ANY_BUDGET: u128 = 1_000_000_000;

/// Words of a state's bitsets, all pairs of shapes together: 9 for two sides of three shapes
/// with weights below 64 (Grundy's game to 63), or one bitset of weights below 576. Past it
/// the packing bound answers.
const WORDS: usize = 9;

/// A state: the weight dealt, and the weights `X` can have for each pair of shapes.
type State = (usize, [u64; WORDS]);

type Table = HashMap<State, Tally, foldhash::fast::RandomState>;

/// A table of states that deals parts one size at a time (two heaps here, three in
/// `triples.rs`).
pub(super) trait Deal {
    /// Every count of parts of size `part` onto every state; on the last size (`accept`), the
    /// collections that split are added there instead of kept. `None` past the work allowed.
    fn deal(&mut self, part: usize, accept: Option<&mut Tally>, work: &mut usize) -> Option<()>;
}

/// Deals parts of every size from `largest` down; the collections whose parts split. The last
/// size's states are not kept, only whether they split.
pub(super) fn run(table: &mut impl Deal, largest: usize, work: &mut usize) -> Option<Tally> {
    let mut sum: Tally = (0, 0);
    for part in (1..=largest).rev() {
        let last = (part == 1).then_some(&mut sum);
        table.deal(part, last, work)?;
    }
    Some(sum)
}

/// The count for the heaps `a` and `b`, with `others` heaps held beside them; `None` when no
/// two families of the heaps take alike from a part (the weights would not share a total), or
/// the count would take more than [`MAX_WORK`] states or [`WORDS`] words.
pub(super) fn met_from_splits(code: &OctalCode, a: usize, b: usize, others: u128) -> Option<Met> {
    let mut best: Option<Met> = None;
    let mut work = 0;
    for x in Family::of(code, a) {
        for y in Family::of(code, b).into_iter().filter(|y| y.take == x.take) {
            let counted = Count::new(x, y).and_then(|mut c| run(&mut c, a.max(b), &mut work));
            keep_best(&mut best, counted, others);
        }
    }
    best
}

struct Count {
    x: Family,
    y: Family,
    /// Words of one bitset (weights `0..=x.capacity`).
    words: usize,
    states: Table,
    /// [`Count::acceptance`], by total weight.
    accepted: Vec<[u64; WORDS]>,
}

impl Count {
    fn new(x: Family, y: Family) -> Option<Self> {
        let words = (x.capacity + 1).div_ceil(64);
        if words * x.shapes() * y.shapes() > WORDS {
            return None;
        }
        // nothing dealt: X weighs 0, both sides empty
        let mut empty = [0u64; WORDS];
        empty[0] = 1;
        let mut states = Table::default();
        states.insert((0, empty), (1, 0));
        let mut count = Count {
            x,
            y,
            words,
            states,
            accepted: Vec::new(),
        };
        count.accepted = count.acceptance();
        Some(count)
    }

    fn pair(&self, sx: Shape, sy: Shape) -> usize {
        let at = |family: &Family, shape: Shape| if family.unequal { shape as usize } else { 0 };
        (at(&self.x, sx) * self.y.shapes() + at(&self.y, sy)) * self.words
    }

    fn shapes(family: &Family) -> &'static [Shape] {
        if family.unequal { &Shape::ALL } else { &Shape::ALL[..1] }
    }

    /// Clears a weight of `X` with alike parts on a side where the same weight holds with
    /// that side reached: whatever splits from the first splits from the second (alike parts
    /// become reached by any part more, a reached side stays so), so states that differ only
    /// there are one, and the table holds fewer.
    fn drop_dominated(&self, bits: &mut [u64; WORDS]) {
        let (alike, reached) = (Shape::Alike, Shape::Reached);
        let mut clear = |dropped: usize, kept: &[usize]| {
            for w in 0..self.words {
                let mask = kept.iter().fold(0, |m, &k| m | bits[k + w]);
                bits[dropped + w] &= !mask;
            }
        };
        match (self.x.unequal, self.y.unequal) {
            (true, true) => {
                let p = |sx, sy| self.pair(sx, sy);
                clear(
                    p(alike, alike),
                    &[p(reached, alike), p(alike, reached), p(reached, reached)],
                );
                for other in [Shape::Empty, reached] {
                    clear(p(alike, other), &[p(reached, other)]);
                    clear(p(other, alike), &[p(other, reached)]);
                }
            }
            (true, false) => clear(self.pair(alike, Shape::Empty), &[self.pair(reached, Shape::Empty)]),
            (false, true) => clear(self.pair(Shape::Empty, alike), &[self.pair(Shape::Empty, reached)]),
            (false, false) => {}
        }
    }

    /// Whether some weight of `X` in a state leaves both sides in their families.
    fn splits(&self, total: usize, bits: &[u64; WORDS]) -> bool {
        let accepted = &self.accepted[total];
        bits.iter().zip(accepted).any(|(b, a)| b & a != 0)
    }

    /// For each total weight, the weights of `X` (in each pair of shapes' bitset) that leave
    /// both sides in their families.
    fn acceptance(&self) -> Vec<[u64; WORDS]> {
        let (x, y) = (self.x, self.y);
        (0..=x.capacity + y.capacity)
            .map(|total| {
                let mut mask = [0u64; WORDS];
                for &sx in Self::shapes(&x) {
                    for &sy in Self::shapes(&y) {
                        let at = self.pair(sx, sy);
                        for wx in 0..=x.capacity.min(total) {
                            let wy = total - wx;
                            if x.holds(wx, sx) && y.holds(wy, sy) {
                                mask[at + wx / 64] |= 1 << (wx % 64);
                            }
                        }
                    }
                }
                mask
            })
            .collect()
    }
}

impl Deal for Count {
    /// Every count of parts of size `part` onto every state: for each, every way of giving
    /// `j` of them to `X` and the rest to `Y`. `None` past [`MAX_WORK`].
    fn deal(&mut self, part: usize, mut accept: Option<&mut Tally>, work: &mut usize) -> Option<()> {
        let (x, y) = (self.x, self.y);
        let weight = part + x.take;
        let most = x.capacity + y.capacity;
        let planes: Vec<(Shape, Shape)> = Self::shapes(&x)
            .iter()
            .flat_map(|&sx| Self::shapes(&y).iter().map(move |&sy| (sx, sy)))
            .collect();
        let mut next = Table::default();
        for (&(total, ref bits), &(count, heaps)) in &self.states {
            // every j from 2 to c − 2 leaves both sides' shapes alike (parts of the size on
            // each, two or more): their shifts are gathered as c grows, not redone
            let mut middle = [0u64; WORDS];
            for c in 0.. {
                let total = total + c * weight;
                if total > most {
                    break;
                }
                if c >= 4 {
                    for plane in (0..WORDS - WORDS % self.words).step_by(self.words) {
                        let at = plane..plane + self.words;
                        shift_or(&mut middle[at.clone()], &bits[at], (c - 2) * weight);
                    }
                }
                // on the last size, totals where nothing splits (all but one for exact
                // families) need no dealing
                if accept.is_some() && self.accepted[total].iter().all(|&w| w == 0) {
                    continue;
                }
                let mut dealt = [0u64; WORDS];
                for &(sx, sy) in &planes {
                    let from = self.pair(sx, sy);
                    let held = &bits[from..from + self.words];
                    if held.iter().all(|&w| w == 0) {
                        continue;
                    }
                    if c >= 4 {
                        let to = self.pair(sx.with(2), sy.with(2));
                        for w in 0..self.words {
                            dealt[to + w] |= middle[from + w];
                        }
                    }
                    let mut ends = [0, 1, c.saturating_sub(1), c];
                    ends.sort_unstable();
                    let mut last = None;
                    for j in ends {
                        if j > c || last == Some(j) || (2..=c.saturating_sub(2)).contains(&j) || j * weight > x.capacity
                        {
                            continue;
                        }
                        last = Some(j);
                        let to = self.pair(sx.with(j), sy.with(c - j));
                        shift_or(&mut dealt[to..to + self.words], held, j * weight);
                    }
                }
                // X's weights that leave Y within its capacity
                let low = total.saturating_sub(y.capacity);
                for chunk in dealt.chunks_mut(self.words) {
                    keep_range(chunk, low, x.capacity);
                }
                // no weight of X works now, and none will with more parts
                if dealt.iter().all(|&w| w == 0) {
                    break;
                }
                let heaps = heaps.saturating_add(count.saturating_mul(c as u128));
                if let Some(sum) = accept.as_deref_mut() {
                    if self.splits(total, &dealt) {
                        *sum = (sum.0.saturating_add(count), sum.1.saturating_add(heaps));
                    }
                    continue;
                }
                *work += 1;
                if *work > MAX_WORK {
                    return None;
                }
                self.drop_dominated(&mut dealt);
                let tally = next.entry((total, dealt)).or_insert((0, 0));
                *tally = (tally.0.saturating_add(count), tally.1.saturating_add(heaps));
            }
        }
        self.states = next;
        Some(())
    }
}

/// `to |= from << by`, within `to`'s words.
pub(super) fn shift_or(to: &mut [u64], from: &[u64], by: usize) {
    let (words, bits) = (by / 64, by % 64);
    for i in (words..to.len()).rev() {
        let low = from[i - words];
        let mut word = low << bits;
        if bits > 0 && i > words {
            word |= from[i - words - 1] >> (64 - bits);
        }
        to[i] |= word;
    }
}

/// Clears every bit outside `low..=high`.
fn keep_range(bits: &mut [u64], low: usize, high: usize) {
    for (i, word) in bits.iter_mut().enumerate() {
        let (start, end) = (i * 64, i * 64 + 63);
        if end < low || start > high {
            *word = 0;
            continue;
        }
        if low > start {
            *word &= u64::MAX << (low - start);
        }
        if high < end {
            *word &= u64::MAX >> (end - high);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifting_and_clearing_bits_match_a_plain_set() {
        let set = [0usize, 3, 63, 64, 70, 127, 130];
        let mut from = vec![0u64; 3];
        for &b in &set {
            from[b / 64] |= 1 << (b % 64);
        }
        for by in [0usize, 1, 5, 63, 64, 65, 100] {
            let mut to = vec![0u64; 3];
            shift_or(&mut to, &from, by);
            for (low, high) in [(0usize, 191), (4, 130), (64, 64), (65, 190)] {
                let mut kept = to.clone();
                keep_range(&mut kept, low, high);
                let got: Vec<usize> = (0..192).filter(|b| kept[b / 64] >> (b % 64) & 1 == 1).collect();
                let want: Vec<usize> = set
                    .iter()
                    .map(|b| b + by)
                    .filter(|&b| b < 192 && (low..=high).contains(&b))
                    .collect();
                assert_eq!(got, want, "shift {by}, keep {low}..={high}");
            }
        }
    }
}
