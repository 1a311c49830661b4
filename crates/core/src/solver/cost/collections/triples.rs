//! The split count of three heaps: the collections whose parts split into one collection of
//! each of the three largest heaps' families.
//!
//! As `splits.rs` for two heaps, parts are dealt largest first and a state keeps, for the
//! parts dealt so far (their weight `T`), every pair of weights `(wx, wy)` the first two shares
//! can have (the third has the rest, `T − wx − wy`): a bitset over a grid of `wx` rows and `wy`
//! columns. Parts are added one at a time (to `X`, to `Y` or to `Z`), so a count of parts costs
//! one step more than the count before. Families whose two heaps must differ are left to the
//! other bounds (their shapes would multiply the grid by 27).

use std::collections::HashMap;

use super::packing::Family;
use super::splits::{Deal, run, shift_or};
use super::{Met, Tally, keep_best};
use crate::game::rules::one_heap::OctalCode;

/// Most words of a state's grid: `(wx + 1)·(wy + 1)` up to 2,048 cells (two shares of 44).
const MAX_WORDS: usize = 32;

/// Most words of the states the count makes over all its stages (about 0.4 s; three heaps of
/// 0.6 at 25 take 12.7 million): past it the other bounds answer.
const MAX_WORK_WORDS: usize = 15_000_000;

/// States by their key: the total weight dealt, then the grid's words.
type Table = HashMap<Box<[u64]>, Tally, foldhash::fast::RandomState>;

/// The count for the heaps `a ≥ b ≥ c` with `others` heaps held beside them; `None` where no
/// three families take alike from a part, any must split into unequal heaps, or the count would
/// take more than [`MAX_WORK_WORDS`] or [`MAX_WORDS`] words.
pub(super) fn met_from_three(code: &OctalCode, [a, b, c]: [usize; 3], others: u128) -> Option<Met> {
    let mut best: Option<Met> = None;
    let mut work = 0;
    let (xs, ys, zs) = (Family::of(code, a), Family::of(code, b), Family::of(code, c));
    for &x in xs.iter().filter(|x| !x.unequal) {
        for &y in ys.iter().filter(|y| y.take == x.take && !y.unequal) {
            for &z in zs.iter().filter(|z| z.take == x.take && !z.unequal) {
                let counted = Grid::new([x, y, z]).and_then(|mut g| run(&mut g, a, &mut work));
                keep_best(&mut best, counted, others);
            }
        }
    }
    best
}

struct Grid {
    sides: [Family; 3],
    /// Columns of the grid (`wy` from 0 to `Y`'s capacity).
    columns: usize,
    words: usize,
    states: Table,
    /// By a lowest `wx + wy`: the cells at or above it (`Z` within its capacity).
    at_least: Vec<Box<[u64]>>,
    /// By total weight: the cells that leave all three shares in their families.
    accepted: Vec<Box<[u64]>>,
}

impl Grid {
    fn new(sides: [Family; 3]) -> Option<Grid> {
        let [x, y, z] = sides;
        let columns = y.capacity + 1;
        let cells = (x.capacity + 1).checked_mul(columns)?;
        let words = cells.div_ceil(64);
        if words > MAX_WORDS {
            return None;
        }
        let mask = |keep: &dyn Fn(usize, usize) -> bool| -> Box<[u64]> {
            let mut bits = vec![0u64; words];
            for wx in 0..=x.capacity {
                for wy in 0..=y.capacity {
                    if keep(wx, wy) {
                        let at = wx * columns + wy;
                        bits[at / 64] |= 1 << (at % 64);
                    }
                }
            }
            bits.into_boxed_slice()
        };
        let most = x.capacity + y.capacity + z.capacity;
        let at_least = (0..=x.capacity + y.capacity)
            .map(|low| mask(&|wx, wy| wx + wy >= low))
            .collect();
        let accepted = (0..=most)
            .map(|total| {
                mask(&|wx, wy| {
                    let Some(wz) = total.checked_sub(wx + wy) else {
                        return false;
                    };
                    [(x, wx), (y, wy), (z, wz)]
                        .iter()
                        .all(|&(f, w)| f.holds(w, super::packing::Shape::Empty))
                })
            })
            .collect();
        // total 0, and the cell (0, 0)
        let mut start = vec![0u64; 1 + words];
        start[1] = 1;
        let mut states = Table::default();
        states.insert(start.into_boxed_slice(), (1, 0));
        Some(Grid {
            sides,
            columns,
            words,
            states,
            at_least,
            accepted,
        })
    }
}

impl Deal for Grid {
    /// Every count of parts of size `part` onto every state, one part more at a time; `None`
    /// past [`MAX_WORK_WORDS`].
    fn deal(&mut self, part: usize, mut accept: Option<&mut Tally>, work: &mut usize) -> Option<()> {
        let [x, y, z] = self.sides;
        let weight = part + x.take;
        let most = x.capacity + y.capacity + z.capacity;
        // the cells whose `wy` leaves room for one part more
        let room_y: Vec<u64> = {
            let mut bits = vec![0u64; self.words];
            for wx in 0..=x.capacity {
                for wy in (0..=y.capacity).take_while(|wy| wy + weight <= y.capacity) {
                    let at = wx * self.columns + wy;
                    bits[at / 64] |= 1 << (at % 64);
                }
            }
            bits
        };
        let cells = (x.capacity + 1) * self.columns;
        let mut next = Table::default();
        let (mut held, mut more, mut to_y) = (vec![0u64; self.words], vec![0u64; self.words], vec![0u64; self.words]);
        let mut key = vec![0u64; 1 + self.words];
        for (state, &(count, heaps)) in &self.states {
            let (total, bits) = (state[0] as usize, &state[1..]);
            held.copy_from_slice(bits);
            for c in 0.. {
                let total = total + c * weight;
                if total > most {
                    break;
                }
                // Z within its capacity: wx + wy ≥ total − Z's capacity
                let low = total.saturating_sub(z.capacity);
                let Some(room_z) = self.at_least.get(low) else { break };
                held.iter_mut().zip(room_z.iter()).for_each(|(h, r)| *h &= r);
                // no cell works now, and none will with more parts
                if held.iter().all(|&w| w == 0) {
                    break;
                }
                let heaps = heaps.saturating_add(count.saturating_mul(c as u128));
                if let Some(sum) = accept.as_deref_mut() {
                    if held.iter().zip(self.accepted[total].iter()).any(|(h, a)| h & a != 0) {
                        *sum = (sum.0.saturating_add(count), sum.1.saturating_add(heaps));
                    }
                } else {
                    *work += self.words;
                    if *work > MAX_WORK_WORDS {
                        return None;
                    }
                    key[0] = total as u64;
                    key[1..].copy_from_slice(&held);
                    let tally = match next.get_mut(&key[..]) {
                        Some(tally) => tally,
                        None => next.entry(key.clone().into_boxed_slice()).or_insert((0, 0)),
                    };
                    *tally = (tally.0.saturating_add(count), tally.1.saturating_add(heaps));
                }
                // one part more: to Z (the cell stays), to X (a row down), to Y (a column on)
                more.copy_from_slice(&held);
                shift_or(&mut more, &held, weight * self.columns);
                to_y.iter_mut()
                    .zip(held.iter().zip(&room_y))
                    .for_each(|(t, (h, r))| *t = h & r);
                shift_or(&mut more, &to_y, weight);
                clear_past(&mut more, cells);
                std::mem::swap(&mut held, &mut more);
            }
        }
        if accept.is_none() {
            self.states = next;
        }
        Some(())
    }
}

/// Clears the bits at `cells` and above (past the grid's last row).
fn clear_past(bits: &mut [u64], cells: usize) {
    for (i, word) in bits.iter_mut().enumerate() {
        let start = i * 64;
        if start >= cells {
            *word = 0;
        } else if cells - start < 64 {
            *word &= (1u64 << (cells - start)) - 1;
        }
    }
}
