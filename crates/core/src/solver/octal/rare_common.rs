//! The rare/common method ("sparse space": Gangolli and Plambeck, Flammenkamp; Beling's
//! `ogsolve -m rc2` is the anchor we measure against) for octal games whose moves leave at most
//! two heaps, under normal play.
//!
//! The values of most octal games fall into few classes that are common and many that are rare.
//! Extend a value with the parity of its heap, `e(n) = 2·G(n) + (n mod 2)`, and pick a set `C` of
//! extended values (the common ones) such that for the splits whose number of tokens taken has
//! parity `d`:
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
//!
//! Each parity `d` of a splitting move keeps its own `C` and list of rare heaps. `C` is rebuilt
//! from the values' frequencies (most frequent first, each added if the rule allows) when the
//! list of rare heaps has grown past twice its length after the last rebuild, and at powers of two.

use super::bits::{Bits, value_bits};
use crate::game::rules::one_heap::OctalCode;

/// One parity of the splitting moves: its common set and its rare heaps.
#[derive(Debug, Clone)]
struct Split {
    /// The parity of the number of tokens the moves of this split take.
    parity: u32,
    /// The numbers of tokens taken by splitting moves of this parity, ascending.
    takes: Vec<usize>,
    common: Bits,
    common_list: Vec<u32>,
    /// Extended values found unable to join `common` since the last rebuild (`common` only
    /// grows between rebuilds, so they stay unable).
    rare: Bits,
    /// Every heap `i ≥ 1` whose extended value was not common when it was found (or at the last
    /// rebuild), ascending, with its value.
    rare_heaps: Vec<(u32, u32)>,
    rare_heaps_at_rebuild: usize,
    /// Scan state while proving a candidate: (index into `takes`, next smaller part).
    scan: (usize, usize),
    scanned_out: bool,
}

impl Split {
    fn new(parity: u32, takes: Vec<usize>) -> Self {
        Self {
            parity,
            takes,
            common: Bits::default(),
            common_list: Vec::new(),
            rare: Bits::default(),
            rare_heaps: Vec::new(),
            rare_heaps_at_rebuild: 0,
            scan: (0, 1),
            scanned_out: false,
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
    }

    /// Whether no split of two common parts can have the value whose extension is `w`.
    fn proves(&self, w: u32) -> bool {
        self.common.contains(w) || self.can_add(w)
    }

    /// Files the extended value `e` of heap `n`: common if it is or can be, else rare.
    fn file(&mut self, n: usize, e: u32) {
        if self.common.contains(e) {
            return;
        }
        if self.can_add(e) {
            self.add_common(e);
        } else {
            self.rare.insert(e);
            if n >= 1 {
                self.rare_heaps.push((n as u32, e / 2));
            }
        }
    }

    /// Rebuilds `common` greedily from the most frequent extended values, then the list of
    /// rare heaps.
    fn rebuild(&mut self, counts: &[u64], values: &[u32]) {
        let mut order: Vec<u32> = (0..counts.len() as u32).filter(|&e| counts[e as usize] > 0).collect();
        order.sort_by_key(|&e| (std::cmp::Reverse(counts[e as usize]), e));
        self.common = Bits::default();
        self.common_list.clear();
        self.rare = Bits::default();
        for e in order {
            if self.can_add(e) {
                self.add_common(e);
            } else {
                self.rare.insert(e);
            }
        }
        self.rare_heaps.clear();
        for (i, &g) in values.iter().enumerate().skip(1) {
            if !self.common.contains(2 * g + (i as u32 & 1)) {
                self.rare_heaps.push((i as u32, g));
            }
        }
        self.rare_heaps_at_rebuild = self.rare_heaps.len();
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

/// G(n) for `n = g.len()`, from the values before it (16 or 32 bits a value).
fn find_value<T: Copy + Into<u32>>(
    g: &[T],
    takes: &[(usize, bool, bool)],
    splits: &mut [Split],
    seen: &mut Vec<u8>,
    max: u32,
    work: &mut Work,
) -> u32 {
    let n = g.len();
    let at = |i: usize| -> u32 { g[i].into() };
    // options' values stay below the next power of two above every value so far
    let room = 1usize << value_bits(max);
    seen.clear();
    seen.resize(room.max(64), 0);
    for &(k, gone, one) in takes {
        if k > n {
            break;
        }
        if gone && k == n {
            seen[0] = 1;
        }
        if one && k < n {
            seen[at(n - k) as usize] = 1;
        }
    }
    // splits with a rare part
    for s in splits.iter() {
        for &k in &s.takes {
            if k + 2 > n {
                break;
            }
            let m = n - k;
            let end = s.rare_heaps.partition_point(|&(i, _)| (i as usize) < m);
            for &(i, gi) in &s.rare_heaps[..end] {
                seen[(gi ^ at(m - i as usize)) as usize] = 1;
            }
            work.rare_pairs += end as u64;
        }
    }
    let mut v = first_zero(seen);
    // prove the candidate for every parity, scanning the splits of a parity where needed
    let parity = n as u32 & 1;
    for s in splits.iter_mut() {
        s.scan = (0, 1);
        s.scanned_out = false;
    }
    let mut scanned = false;
    'prove: loop {
        for s in splits.iter_mut() {
            if s.scanned_out || s.proves(2 * v + parity) {
                continue;
            }
            scanned = true;
            // scan this parity's splits until v shows up or they run out
            let (mut ti, mut a) = s.scan;
            while ti < s.takes.len() {
                let k = s.takes[ti];
                if k + 2 > n {
                    ti = s.takes.len();
                    break;
                }
                let m = n - k;
                let first = a;
                let hit = scan_for(g, seen, m, &mut a, v);
                work.scanned_pairs += (a - first) as u64;
                if hit {
                    s.scan = (ti, a);
                    v = first_zero(seen);
                    continue 'prove;
                }
                ti += 1;
                a = 1;
            }
            s.scan = (ti, a);
            s.scanned_out = true;
            v = first_zero(seen);
            continue 'prove;
        }
        break;
    }
    if scanned {
        work.scans += 1;
    }
    v
}

/// Marks the values of the splits `(a, m − a)`, `a` from `*a` to `m/2`, eight at a time, until
/// one has the value `v` (returns `true`, `*a` past that block) or they run out.
#[inline]
fn scan_for<T: Copy + Into<u32>>(g: &[T], seen: &mut [u8], m: usize, a: &mut usize, v: u32) -> bool {
    let half = m / 2;
    let xor = |i: usize, j: usize| -> u32 { g[i].into() ^ g[j].into() };
    while *a + 8 <= half + 1 {
        let mut hit = false;
        for j in 0..8 {
            let x = xor(*a + j, m - *a - j);
            seen[x as usize] = 1;
            hit |= x == v;
        }
        *a += 8;
        if hit {
            return true;
        }
    }
    while *a <= half {
        let x = xor(*a, m - *a);
        seen[x as usize] = 1;
        *a += 1;
        if x == v {
            return true;
        }
    }
    false
}

/// The first index holding 0 (the mex of the marked values); `seen` is never full.
#[inline]
fn first_zero(seen: &[u8]) -> u32 {
    let mut i = 0;
    let (chunks, _) = seen.as_chunks::<8>();
    for chunk in chunks {
        let w = u64::from_le_bytes(*chunk);
        if w != 0x0101_0101_0101_0101 {
            // the lowest byte that is 0 (marks are 0 or 1)
            let zeros = !w & 0x0101_0101_0101_0101;
            return (i + zeros.trailing_zeros() as usize / 8) as u32;
        }
        i += 8;
    }
    seen[i..].iter().position(|&b| b == 0).map_or(seen.len(), |j| i + j) as u32
}

/// G(0), G(1), … of an octal code whose moves leave at most two heaps, by the rare/common
/// method.
pub struct RareCommon {
    /// Options without a split: (tokens taken, may leave nothing, may leave one heap).
    takes: Vec<(usize, bool, bool)>,
    splits: Vec<Split>,
    values: Vec<u32>,
    /// The same values in 16 bits while they fit: half the memory traffic in the hot loops.
    narrow: Option<Vec<u16>>,
    max: u32,
    /// How many heaps have each extended value.
    counts: Vec<u64>,
    /// The options' values of the heap being computed, one byte a value: independent stores,
    /// where a bitset's read-modify-write chains one insertion to the next.
    seen: Vec<u8>,
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
        for (t, &d) in code.digits().iter().enumerate() {
            let k = t + 1;
            if d & 3 != 0 {
                takes.push((k, d & 1 != 0, d & 2 != 0));
            }
            if d & 4 != 0 {
                by_parity[k & 1].push(k);
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
            splits,
            values: Vec::new(),
            narrow: Some(Vec::new()),
            max: 0,
            counts: Vec::new(),
            seen: Vec::new(),
            next_rebuild: 64,
            work: Work::default(),
        })
    }

    /// G(0..len), the values computed so far.
    pub fn values(&self) -> &[u32] {
        &self.values
    }

    /// The values computed, G(0..len).
    pub fn into_values(self) -> Vec<u32> {
        self.values
    }

    /// Computes the next value, G(len).
    pub fn next_value(&mut self) -> u32 {
        let v = match &self.narrow {
            Some(g) => find_value(
                g,
                &self.takes,
                &mut self.splits,
                &mut self.seen,
                self.max,
                &mut self.work,
            ),
            None => find_value(
                &self.values,
                &self.takes,
                &mut self.splits,
                &mut self.seen,
                self.max,
                &mut self.work,
            ),
        };
        self.record(v);
        v
    }

    fn record(&mut self, v: u32) {
        let n = self.values.len();
        self.values.push(v);
        match (&mut self.narrow, u16::try_from(v)) {
            (Some(g), Ok(x)) => g.push(x),
            // a value past 16 bits: the hot loops read the 32-bit copy from now on
            (narrow, _) => *narrow = None,
        }
        self.max = self.max.max(v);
        let e = 2 * v + (n as u32 & 1);
        if self.counts.len() <= e as usize {
            self.counts.resize(e as usize + 1, 0);
        }
        self.counts[e as usize] += 1;
        for s in &mut self.splits {
            s.file(n, e);
        }
        let len = self.values.len();
        let grown = self
            .splits
            .iter()
            .any(|s| s.rare_heaps.len() > 2 * s.rare_heaps_at_rebuild + 64);
        if len >= self.next_rebuild || grown {
            if len >= self.next_rebuild {
                // more frequent rebuilds were tried (every 256 to 4096 heaps): the split hardly
                // changes (0.064 to 10^5: 7 % fewer rare pairs) and the time does not improve
                self.next_rebuild *= 2;
            }
            for s in &mut self.splits {
                s.rebuild(&self.counts, &self.values);
            }
            self.work.rebuilds += 1;
        }
    }

    /// The current split of each parity of splitting moves.
    pub fn summary(&self) -> Vec<SplitSummary> {
        let parity_name = |p: u32| if p == 0 { "even" } else { "odd" };
        self.splits
            .iter()
            .map(|s| {
                let mut rare = Vec::new();
                let mut rare_heaps = 0;
                let mut common_heaps = 0;
                for (e, &c) in self.counts.iter().enumerate() {
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
mod tests {
    use super::super::plain::Plain;
    use super::*;

    fn both(code: &str, n: usize) -> (Vec<u32>, Vec<u32>) {
        let c: OctalCode = code.parse().unwrap();
        let mut rc = RareCommon::new(&c).unwrap();
        let mut plain = Plain::new(&c);
        for _ in 0..n {
            rc.next_value();
            plain.next_value();
        }
        (rc.into_values(), plain.into_values())
    }

    #[test]
    fn agrees_with_the_plain_method() {
        for code in [
            "0.6", "0.16", "0.064", "0.07", "0.77", "0.137", "0.4", "0.04", "0.5", "0.14", "0.54", "0.26", "0.36",
            "0.106", "0.1446", "0.7777", "0.3", "0.447",
        ] {
            let (rc, plain) = both(code, 3000);
            assert_eq!(rc, plain, "{code}");
        }
    }

    #[test]
    fn the_split_is_reported() {
        let c: OctalCode = "0.6".parse().unwrap();
        let mut rc = RareCommon::new(&c).unwrap();
        for _ in 0..5000 {
            rc.next_value();
        }
        let s = rc.summary();
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].takes, "odd");
        assert_eq!(s[0].rare_heaps + s[0].common_heaps, 4999);
        // ogsolve 0.0.7 (`-m rc2 -s`) finds the same 928 rare heaps of 0.6 below 5000
        assert!(s[0].rare_heaps < 1000, "{:?}", s[0]);
    }
}
