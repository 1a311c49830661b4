//! Finding the value of one heap: the options without a split and the splits with a rare part
//! marked, the mex tried as a candidate, and the splits scanned only when the common set cannot
//! prove it.

use super::super::bits::value_bits;
use super::{Split, Value, Work};

/// The options' values of the heap being computed, one byte a value: independent stores,
/// where a bitset's read-modify-write chains one insertion to the next. Its length is a power
/// of two above every value so far, so the nim-sum of two values is always inside it.
#[derive(Default)]
pub(super) struct Seen(Vec<u8>);

impl Seen {
    fn reset(&mut self, max: u32) {
        let room = (1usize << value_bits(max)).max(64);
        self.0.clear();
        self.0.resize(room, 0);
    }

    #[inline(always)]
    fn mark(&mut self, x: u32) {
        self.0[x as usize] = 1;
    }

    /// [`Seen::mark`] without the bounds check, for the two hot loops.
    ///
    /// # Safety
    /// `x` is the nim-sum of two values of heaps computed so far: every value is at most
    /// `max`, so below `2^value_bits(max)`, and so is a nim-sum of two of them; [`Seen::reset`]
    /// made the table that long.
    #[inline(always)]
    unsafe fn mark_sum(&mut self, x: u32) {
        debug_assert!((x as usize) < self.0.len());
        // SAFETY: see the function's contract
        unsafe { *self.0.get_unchecked_mut(x as usize) = 1 };
    }

    #[inline(always)]
    fn marked(&self, x: u32) -> bool {
        self.0.get(x as usize).is_some_and(|&b| b != 0)
    }

    fn room(&self) -> usize {
        self.0.len()
    }

    /// The first value from `from` on not marked (the mex, when every value below `from` is
    /// marked); the set is never full.
    #[inline]
    fn first_zero_from(&self, from: u32) -> u32 {
        let start = (from as usize & !7).min(self.0.len());
        let mut i = start;
        let (chunks, _) = self.0[start..].as_chunks::<8>();
        for chunk in chunks {
            let w = u64::from_le_bytes(*chunk);
            if w != 0x0101_0101_0101_0101 {
                // the lowest byte that is 0 (marks are 0 or 1)
                let mut zeros = !w & 0x0101_0101_0101_0101;
                // bytes below `from` in the first chunk do not count
                if i < from as usize {
                    zeros &= u64::MAX << (8 * (from as usize - i));
                }
                if zeros != 0 {
                    return (i + zeros.trailing_zeros() as usize / 8) as u32;
                }
            }
            i += 8;
        }
        self.0[i..].iter().position(|&b| b == 0).map_or(self.0.len(), |j| i + j) as u32
    }
}

/// The options without a split: (tokens taken, may leave nothing, may leave one heap).
type Takes = [(usize, bool, bool)];

/// Marks the values `G(r) ⊕ G(m − r)` of the splits of `m` with a rare part `r` (the first
/// `end` rare heaps, all below `m`), skipping the split into equal heaps when `unequal`.
#[inline(always)]
fn mark_rare<T: Value>(g: &[T], heaps: &[u32], values: &[T], m: usize, unequal: bool, seen: &mut Seen) {
    debug_assert!(heaps.iter().all(|&r| r >= 1 && (r as usize) < m) && m <= g.len());
    // SAFETY (both loops): every rare heap r is in 1..m (the caller passes those below m, and
    // heap 0 is never listed), so m − r is in 1..m, inside `g`; the values are heaps' values,
    // so their nim-sum is inside `seen` (see `mark_sum`)
    if unequal && m.is_multiple_of(2) {
        let half = (m / 2) as u32;
        for (&r, &gr) in heaps.iter().zip(values) {
            if r != half {
                // SAFETY: as above, m − r is in 1..m and the nim-sum inside `seen`
                unsafe { seen.mark_sum(gr.into() ^ (*g.get_unchecked(m - r as usize)).into()) };
            }
        }
        return;
    }
    for (&r, &gr) in heaps.iter().zip(values) {
        // SAFETY: as above, m − r is in 1..m and the nim-sum inside `seen`
        unsafe { seen.mark_sum(gr.into() ^ (*g.get_unchecked(m - r as usize)).into()) };
    }
}

/// G(n) for `n = g.len()`, from the values before it.
pub(super) fn find_value<T: Value>(
    g: &[T],
    takes: &Takes,
    splits: &mut [Split<T>],
    seen: &mut Seen,
    max: u32,
    work: &mut Work,
) -> u32 {
    let n = g.len();
    seen.reset(max);
    for &(k, gone, one) in takes {
        if k > n {
            break;
        }
        if gone && k == n {
            seen.mark(0);
        }
        if one && k < n {
            seen.mark(g[n - k].into());
        }
    }
    // splits with a rare part
    for s in splits.iter_mut() {
        for (ti, &(k, unequal)) in s.takes.iter().enumerate() {
            if k + 2 > n {
                break;
            }
            let m = n - k;
            let mut end = s.below[ti];
            while end < s.rare_heaps.len() && (s.rare_heaps[end] as usize) < m {
                end += 1;
            }
            s.below[ti] = end;
            mark_rare(g, &s.rare_heaps[..end], &s.rare_values[..end], m, unequal, seen);
            work.rare_pairs += end as u64;
        }
    }
    let mut v = seen.first_zero_from(0);
    // prove the candidate for every parity, scanning the splits of a parity where needed
    let parity = n as u32 & 1;
    for s in splits.iter_mut() {
        s.scan = (0, 0);
        s.scanned_out = false;
        s.refresh_provable(2 * seen.room());
    }
    let mut scanned = false;
    'prove: loop {
        for s in splits.iter_mut() {
            if s.scanned_out || s.provable(2 * v + parity) {
                continue;
            }
            scanned = true;
            // scan this parity's splits until v shows up or they run out
            let (mut ti, mut a) = s.scan;
            while ti < s.takes.len() {
                let (k, unequal) = s.takes[ti];
                if k + 2 > n {
                    ti = s.takes.len();
                    break;
                }
                let m = n - k;
                let first = a;
                let hit = scan_until(g, seen, m, unequal, &mut a, v);
                work.scanned_pairs += (a - first) as u64;
                if hit {
                    s.scan = (ti, a);
                    v = seen.first_zero_from(v);
                    continue 'prove;
                }
                ti += 1;
                a = 0;
            }
            s.scan = (ti, a);
            s.scanned_out = true;
            v = seen.first_zero_from(v);
            continue 'prove;
        }
        break;
    }
    if scanned {
        work.scans += 1;
    }
    v
}

/// Marks the values of the splits `(a, m − a)`, `a` from `*done + 1` up to the largest smaller
/// part (`*done` of them marked already), a block at a time, until `v` is marked (returns
/// `true`, `*done` past that block) or they run out. Checking once a block lets the block's
/// values be computed side by side; its marks are the next candidates' anyway. (From the
/// middle out, where no split has a rare part, twice as many splits were needed: the small
/// heaps' values reach the rare values sooner.)
#[inline]
fn scan_until<T: Value>(g: &[T], seen: &mut Seen, m: usize, unequal: bool, done: &mut usize, v: u32) -> bool {
    const BLOCK: usize = 32;
    let h = if unequal { (m - 1) / 2 } else { m / 2 };
    let top = &g[..m];
    while *done + BLOCK <= h {
        let a = *done + 1;
        let lo = &top[a..a + BLOCK];
        // hi[BLOCK − 1 − j] = G(m − a − j)
        let hi = &top[m - a - (BLOCK - 1)..=m - a];
        for j in 0..BLOCK {
            // SAFETY: a nim-sum of two heaps' values (see `mark_sum`)
            unsafe { seen.mark_sum(lo[j].into() ^ hi[BLOCK - 1 - j].into()) };
        }
        *done += BLOCK;
        if seen.marked(v) {
            return true;
        }
    }
    while *done < h {
        let a = *done + 1;
        seen.mark(top[a].into() ^ top[m - a].into());
        *done += 1;
    }
    seen.marked(v)
}
