//! The rare/common method ("sparse space": Gangolli and Plambeck, Flammenkamp; Beling's
//! `ogsolve -m rc2` is the anchor we measure against) for take-and-break codes whose moves
//! leave at most two heaps, under normal play: octal games, codes that split without taking
//! (`4.007`), and splits into unequal heaps (Grundy's game).
//!
//! The values of most such games fall into few classes that are common and many that are rare.
//! Extend a value with the parity of its heap, `e(n) = 2·G(n) + (n mod 2)`, and pick a set `C`
//! of extended values (the common ones) such that for the splits whose number of tokens taken
//! has parity `d`:
//!
//! > no `x, y ∈ C` have `x ⊕ y ⊕ d ∈ C` (and `d ∉ C`).
//!
//! A split of `n − k` into heaps `a + b` has `e(a) ⊕ e(b) = 2·(G(a) ⊕ G(b)) + ((n − k) mod 2)`.
//! So if both parts are common, the option's value `v` satisfies `2v + (n mod 2) ⊕ d ∈ C ⊕ C`,
//! hence `2v + (n mod 2) ∉ C`. To find G(n): collect the options without a split and the splits
//! with a rare part (few: they are enumerated from the list of rare heaps), take the mex `v`;
//! if `2v + (n mod 2)` is common (or can join `C` without breaking the rule) no split of two
//! common parts reaches `v` either, and `G(n) = v`. Only otherwise are the splits scanned, until
//! `v` is found (then the next candidate is tried) or they run out. Since the value of a heap is
//! common almost always, a heap costs about the number of rare heaps below it, not `n`.
//! Leaving out the splits into equal heaps (a `u` digit) takes options away, so the argument
//! stands; the enumerations skip them.
//!
//! Each parity `d` of a splitting move keeps its own `C` and list of rare heaps. `C` is rebuilt
//! from the values' frequencies (most frequent first, each added if the rule allows) when the
//! list of rare heaps has grown past twice its length after the last rebuild, and at powers of
//! two. The engine's state is a function of the values alone ([`RareCommon::resume`] rebuilds
//! it from a saved prefix), and the values are held in 16 bits while they fit (2 bytes a heap:
//! 2^28 heaps in 512 MiB), in 32 bits after.

mod find;

use super::bits::Bits;
use crate::game::rules::one_heap::OctalCode;
use find::{Seen, find_value};

/// A stored value: 16 bits while every value fits, 32 after.
pub trait Value: Copy + Into<u32> + Send + Sync + 'static {
    /// The value `v` in this width, `None` when it does not fit.
    fn from_u32(v: u32) -> Option<Self>;
}

impl Value for u16 {
    #[inline]
    fn from_u32(v: u32) -> Option<Self> {
        u16::try_from(v).ok()
    }
}

impl Value for u32 {
    #[inline]
    fn from_u32(v: u32) -> Option<Self> {
        Some(v)
    }
}

/// One parity of the splitting moves: its common set and its rare heaps.
#[derive(Debug, Clone)]
struct Split<T> {
    /// The parity of the number of tokens the moves of this split take.
    parity: u32,
    /// The numbers of tokens taken by splitting moves of this parity, ascending, each with
    /// whether its two heaps must differ.
    takes: Vec<(usize, bool)>,
    common: Bits,
    common_list: Vec<u32>,
    /// Extended values found unable to join `common` since the last rebuild (`common` only
    /// grows between rebuilds, so they stay unable).
    rare: Bits,
    /// Every heap `i ≥ 1` whose extended value was not common when it was found (or at the last
    /// rebuild), ascending; `rare_values[j]` is the value of heap `rare_heaps[j]`.
    rare_heaps: Vec<u32>,
    rare_values: Vec<T>,
    rare_heaps_at_rebuild: usize,
    /// Per take: how many rare heaps lie below the heap the last split was of (`m` only grows,
    /// so the count is advanced rather than searched for).
    below: Vec<usize>,
    /// Scan state while proving a candidate: (index into `takes`, splits of that take scanned).
    scan: (usize, usize),
    scanned_out: bool,
    /// `provable[w]`: whether no split of two common parts can have the value whose extension
    /// is `w` ([`Split::proves`], which walks the common set), kept for every `w` below its
    /// length and recomputed when the sets change (seldom: a new class of values).
    provable: Vec<bool>,
}

impl<T: Value> Split<T> {
    fn new(parity: u32, takes: Vec<(usize, bool)>) -> Self {
        Self {
            parity,
            below: vec![0; takes.len()],
            takes,
            common: Bits::default(),
            common_list: Vec::new(),
            rare: Bits::default(),
            rare_heaps: Vec::new(),
            rare_values: Vec::new(),
            rare_heaps_at_rebuild: 0,
            scan: (0, 0),
            scanned_out: false,
            provable: Vec::new(),
        }
    }

    /// Whether `x` may join `common`: `x ≠ d` and `x ⊕ d ∉ C ⊕ C`.
    fn can_add(&self, x: u32) -> bool {
        x != self.parity
            && !self.rare.contains(x)
            && self
                .common_list
                .iter()
                .all(|&y| !self.common.contains(x ^ self.parity ^ y))
    }

    fn add_common(&mut self, x: u32) {
        self.common.insert(x);
        self.common_list.push(x);
        self.provable.clear();
    }

    /// Whether no split of two common parts can have the value whose extension is `w`.
    fn proves(&self, w: u32) -> bool {
        self.common.contains(w) || self.can_add(w)
    }

    /// [`Split::proves`] for every extension below `room`, where it is not known yet.
    fn refresh_provable(&mut self, room: usize) {
        if self.provable.len() < room {
            self.provable = (0..room as u32).map(|w| self.proves(w)).collect();
        }
    }

    /// [`Split::proves`], read off the table (`refresh_provable` covers `w`).
    #[inline]
    fn provable(&self, w: u32) -> bool {
        self.provable.get(w as usize).copied().unwrap_or_else(|| self.proves(w))
    }

    /// Files the extended value `e` of heap `n` (value `v`): common if it is or can be, else
    /// rare.
    fn file(&mut self, n: usize, e: u32, v: T) {
        if self.common.contains(e) {
            return;
        }
        if self.can_add(e) {
            self.add_common(e);
        } else {
            self.rare.insert(e);
            self.provable.clear();
            if n >= 1 {
                self.rare_heaps.push(n as u32);
                self.rare_values.push(v);
            }
        }
    }

    /// Rebuilds `common` greedily from the most frequent extended values, then the list of
    /// rare heaps.
    fn rebuild(&mut self, counts: &[u64], values: &[T]) {
        let mut order: Vec<u32> = (0..counts.len() as u32).filter(|&e| counts[e as usize] > 0).collect();
        order.sort_by_key(|&e| (std::cmp::Reverse(counts[e as usize]), e));
        self.common = Bits::default();
        self.common_list.clear();
        self.rare = Bits::default();
        self.provable.clear();
        for e in order {
            if self.can_add(e) {
                self.add_common(e);
            } else {
                self.rare.insert(e);
            }
        }
        self.rare_heaps.clear();
        self.rare_values.clear();
        for (i, &g) in values.iter().enumerate().skip(1) {
            if !self.common.contains(2 * g.into() + (i as u32 & 1)) {
                self.rare_heaps.push(i as u32);
                self.rare_values.push(g);
            }
        }
        self.rare_heaps_at_rebuild = self.rare_heaps.len();
        // the split last looked at was of heap n − 1 − k
        let n = values.len();
        for (b, &(k, _)) in self.below.iter_mut().zip(&self.takes) {
            let m = (n.saturating_sub(1 + k)) as u32;
            *b = self.rare_heaps.partition_point(|&i| i < m);
        }
    }

    fn widen(self) -> Split<u32> {
        Split {
            parity: self.parity,
            takes: self.takes,
            common: self.common,
            common_list: self.common_list,
            rare: self.rare,
            rare_heaps: self.rare_heaps,
            rare_values: self.rare_values.into_iter().map(Into::into).collect(),
            rare_heaps_at_rebuild: self.rare_heaps_at_rebuild,
            below: self.below,
            scan: self.scan,
            scanned_out: self.scanned_out,
            provable: self.provable,
        }
    }
}

/// Counters of the work done, for the benchmark and `seq --json`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Work {
    /// Splits valued through a rare part.
    pub rare_pairs: u64,
    /// Splits valued while scanning to prove a candidate.
    pub scanned_pairs: u64,
    /// Heaps whose value needed a scan.
    pub scans: u64,
    /// Times the common values were rebuilt from the counts.
    pub rebuilds: u64,
}

/// The rare/common split of one parity of splitting moves, as reported.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SplitSummary {
    /// "odd" or "even": the parity of the number of tokens the splitting moves take.
    pub takes: &'static str,
    /// The rare classes: (value, parity of the heap, how many heaps have it), by value.
    pub rare: Vec<(u32, &'static str, u64)>,
    /// How many heaps ≥ 1 have a rare extended value.
    pub rare_heaps: u64,
    /// How many extended values are common.
    pub common_classes: u64,
    /// How many heaps ≥ 1 have a common extended value.
    pub common_heaps: u64,
}

/// The engine over values stored as `T`.
struct Core<T> {
    splits: Vec<Split<T>>,
    values: Vec<T>,
}

impl<T: Value> Core<T> {
    fn widen(self) -> Core<u32> {
        Core {
            splits: self.splits.into_iter().map(Split::widen).collect(),
            values: self.values.into_iter().map(Into::into).collect(),
        }
    }
}

enum Store {
    Narrow(Core<u16>),
    Wide(Core<u32>),
}

/// G(0), G(1), … of a take-and-break code whose moves leave at most two heaps, by the
/// rare/common method.
pub struct RareCommon {
    /// Options without a split: (tokens taken, may leave nothing, may leave one heap).
    takes: Vec<(usize, bool, bool)>,
    store: Store,
    max: u32,
    /// How many heaps have each extended value.
    counts: Vec<u64>,
    seen: Seen,
    next_rebuild: usize,
    /// Counts of the work done so far.
    pub work: Work,
}

impl RareCommon {
    /// `None` for a code with a move that leaves three heaps (see [`super::plain`]).
    pub fn new(code: &OctalCode) -> Option<Self> {
        if code.splits_in_three() {
            return None;
        }
        let mut takes = Vec::new();
        let mut by_parity = [Vec::new(), Vec::new()];
        for m in code.moves() {
            let k = m.take as usize;
            if m.digit & 3 != 0 {
                takes.push((k, m.digit & 1 != 0, m.digit & 2 != 0));
            }
            if m.digit & 4 != 0 {
                by_parity[k & 1].push((k, m.unequal));
            }
        }
        let splits = by_parity
            .into_iter()
            .enumerate()
            .filter(|(_, t)| !t.is_empty())
            .map(|(d, t)| Split::new(d as u32, t))
            .collect();
        Some(Self {
            takes,
            store: Store::Narrow(Core {
                splits,
                values: Vec::new(),
            }),
            max: 0,
            counts: Vec::new(),
            seen: Seen::default(),
            next_rebuild: 64,
            work: Work::default(),
        })
    }

    /// The engine after the values `prefix` (G(0), G(1), …, as computed before), ready for
    /// the next: its state depends on the values alone, so a run resumed from a saved prefix
    /// goes on exactly as if it had not stopped.
    pub fn resume(code: &OctalCode, prefix: impl IntoIterator<Item = u32>) -> Option<Self> {
        let mut e = Self::new(code)?;
        for v in prefix {
            e.record(v);
        }
        Some(e)
    }

    /// How many values are computed.
    pub fn len(&self) -> usize {
        match &self.store {
            Store::Narrow(c) => c.values.len(),
            Store::Wide(c) => c.values.len(),
        }
    }

    /// Whether no value is computed yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// G(i), `i < len()`.
    #[inline]
    pub fn get(&self, i: usize) -> u32 {
        match &self.store {
            Store::Narrow(c) => c.values[i].into(),
            Store::Wide(c) => c.values[i],
        }
    }

    /// The values in 16 bits, while they all fit.
    pub fn narrow_values(&self) -> Option<&[u16]> {
        match &self.store {
            Store::Narrow(c) => Some(&c.values),
            Store::Wide(_) => None,
        }
    }

    /// The values in 32 bits, once one did not fit in 16.
    pub fn wide_values(&self) -> Option<&[u32]> {
        match &self.store {
            Store::Narrow(_) => None,
            Store::Wide(c) => Some(&c.values),
        }
    }

    /// The values computed, G(0..len), widened to 32 bits.
    pub fn into_values(self) -> Vec<u32> {
        match self.store {
            Store::Narrow(c) => c.values.into_iter().map(u32::from).collect(),
            Store::Wide(c) => c.values,
        }
    }

    /// Bytes held per computed heap.
    pub fn bytes_per_heap(&self) -> u64 {
        match &self.store {
            Store::Narrow(_) => 2,
            Store::Wide(_) => 4,
        }
    }

    /// Computes the next value, G(len).
    pub fn next_value(&mut self) -> u32 {
        let v = match &mut self.store {
            Store::Narrow(c) => find_value(
                &c.values,
                &self.takes,
                &mut c.splits,
                &mut self.seen,
                self.max,
                &mut self.work,
            ),
            Store::Wide(c) => find_value(
                &c.values,
                &self.takes,
                &mut c.splits,
                &mut self.seen,
                self.max,
                &mut self.work,
            ),
        };
        self.record(v);
        v
    }

    /// Files the next value, found or restored.
    fn record(&mut self, v: u32) {
        if let Store::Narrow(_) = self.store
            && u16::from_u32(v).is_none()
        {
            // a value past 16 bits: the values and the rare lists go to 32 from now on
            let Store::Narrow(c) = std::mem::replace(
                &mut self.store,
                Store::Wide(Core {
                    splits: Vec::new(),
                    values: Vec::new(),
                }),
            ) else {
                return;
            };
            self.store = Store::Wide(c.widen());
        }
        self.max = self.max.max(v);
        let e = 2 * v + (self.len() as u32 & 1);
        if self.counts.len() <= e as usize {
            self.counts.resize(e as usize + 1, 0);
        }
        self.counts[e as usize] += 1;
        let rebuild = match &mut self.store {
            Store::Narrow(c) => c.push(v, e, self.next_rebuild, &self.counts),
            Store::Wide(c) => c.push(v, e, self.next_rebuild, &self.counts),
        };
        if rebuild {
            if self.len() >= self.next_rebuild {
                // more frequent rebuilds were tried (every 256 to 4096 heaps): the split hardly
                // changes (0.064 to 10^5: 7 % fewer rare pairs) and the time does not improve
                self.next_rebuild *= 2;
            }
            self.work.rebuilds += 1;
        }
    }

    /// The current split of each parity of splitting moves.
    pub fn summary(&self) -> Vec<SplitSummary> {
        match &self.store {
            Store::Narrow(c) => c.summary(&self.counts),
            Store::Wide(c) => c.summary(&self.counts),
        }
    }
}

impl<T: Value> Core<T> {
    /// Appends `v` (extended value `e`) and files it; rebuilds the splits when due (returns
    /// whether it did).
    fn push(&mut self, v: u32, e: u32, next_rebuild: usize, counts: &[u64]) -> bool {
        let n = self.values.len();
        let Some(x) = T::from_u32(v) else {
            return false;
        };
        self.values.push(x);
        for s in &mut self.splits {
            s.file(n, e, x);
        }
        let len = self.values.len();
        let grown = self
            .splits
            .iter()
            .any(|s| s.rare_heaps.len() > 2 * s.rare_heaps_at_rebuild + 64);
        if len >= next_rebuild || grown {
            for s in &mut self.splits {
                s.rebuild(counts, &self.values);
            }
            return true;
        }
        false
    }

    fn summary(&self, counts: &[u64]) -> Vec<SplitSummary> {
        let parity_name = |p: u32| if p == 0 { "even" } else { "odd" };
        self.splits
            .iter()
            .map(|s| {
                let mut rare = Vec::new();
                let mut rare_heaps = 0;
                let mut common_heaps = 0;
                for (e, &c) in counts.iter().enumerate() {
                    let e = e as u32;
                    // heap 0 is never a part of a split: leave it out of the counts
                    let c = c - u64::from(e == 0 && !self.values.is_empty());
                    if c == 0 {
                        continue;
                    }
                    if s.common.contains(e) {
                        common_heaps += c;
                    } else {
                        rare.push((e / 2, parity_name(e & 1), c));
                        rare_heaps += c;
                    }
                }
                SplitSummary {
                    takes: parity_name(s.parity),
                    rare,
                    rare_heaps,
                    common_classes: s.common_list.len() as u64,
                    common_heaps,
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;
