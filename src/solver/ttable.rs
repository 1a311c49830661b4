//! A fixed-size, bucketed transposition table for the board solvers (Cram, Push Cram): keys are
//! bitboards (`u128`) with a small non-zero tag (the packing width, and whatever else the
//! solver needs to tell keys apart); each entry holds a 32-bit word and an optional extra
//! payload whose meaning belongs to the solver.
//!
//! The table starts small and doubles when half full, up to the bucket count allowed by its
//! memory cap: a small table is faster (fewer cache and TLB misses) for small searches. When a
//! bucket is full the entry of lowest priority (the solvers use the cell count: small
//! positions are the cheapest to recompute) is overwritten.

/// Entries per bucket; a bucket is probed linearly.
const BUCKET: usize = 4;

/// Buckets of a new table, unless the cap is smaller.
const INITIAL_BUCKETS: usize = 1 << 15;

/// One slot. `tag == 0` marks a free slot.
#[derive(Debug, Clone, Copy, Default)]
#[repr(C)]
pub(crate) struct Entry<X> {
    lo: u64,
    hi: u64,
    tag: u16,
    prio: u16,
    /// The solver's word.
    pub(crate) word: u32,
    /// The solver's extra payload (`()` when it has none).
    pub(crate) extra: X,
}

/// One bucket, aligned to a cache line so that it spans as few lines as it can.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(64))]
struct Bucket<X>([Entry<X>; BUCKET]);

/// `n` empty buckets. On Linux the allocation is advised to use transparent huge pages before
/// it is touched: the table is probed at random, and with 4 KiB pages most probes of a large
/// table also miss the TLB.
fn new_buckets<X: Copy + Default>(n: usize) -> Vec<Bucket<X>> {
    let mut v: Vec<Bucket<X>> = Vec::with_capacity(n);
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let start = v.as_mut_ptr() as usize;
        let end = start + n * std::mem::size_of::<Bucket<X>>();
        let first = start.next_multiple_of(PAGE);
        if end > first + (2 << 20) {
            // SAFETY: the range lies inside the allocation, which nothing has touched yet;
            // the advice changes no contents and its failure is harmless.
            unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    (end - first) & !(PAGE - 1),
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    v.resize(n, Bucket([Entry::default(); BUCKET]));
    v
}

/// A fixed-size hash table `(key bits, tag) -> (word, extra)`.
pub(crate) struct Table<X> {
    entries: Vec<Bucket<X>>,
    bucket_mask: usize,
    len: usize,
    /// Bucket count allowed by the memory cap.
    max_buckets: usize,
}

#[inline]
fn hash(bits: u128, tag: u16) -> u64 {
    let lo = bits as u64;
    let hi = (bits >> 64) as u64;
    let mut h = lo ^ hi.rotate_left(27).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (tag as u64) << 48;
    h ^= h >> 31;
    h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^= h >> 29;
    h = h.wrapping_mul(0x94D0_49BB_1331_11EB);
    h ^ (h >> 32)
}

impl<X: Copy + Default> Table<X> {
    /// Bytes per entry.
    #[cfg(test)]
    pub(crate) const ENTRY_BYTES: u64 = std::mem::size_of::<Entry<X>>() as u64;

    /// A table that may grow up to `bytes` (at least one bucket is always allocated).
    pub(crate) fn with_bytes(bytes: u64) -> Table<X> {
        let mut max_buckets = 1usize;
        while (max_buckets as u64 * 2) * std::mem::size_of::<Bucket<X>>() as u64 <= bytes {
            max_buckets *= 2;
        }
        let buckets = max_buckets.min(INITIAL_BUCKETS);
        Table {
            entries: new_buckets(buckets),
            bucket_mask: buckets - 1,
            len: 0,
            max_buckets,
        }
    }

    /// Entries stored.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Slots allocated now.
    pub(crate) fn capacity(&self) -> usize {
        self.entries.len() * BUCKET
    }

    /// Forgets every entry (keeps the allocation).
    pub(crate) fn clear(&mut self) {
        self.entries
            .iter_mut()
            .for_each(|b| *b = Bucket([Entry::default(); BUCKET]));
        self.len = 0;
    }

    #[inline]
    fn bucket(&self, bits: u128, tag: u16) -> usize {
        hash(bits, tag) as usize & self.bucket_mask
    }

    /// Doubles the table and re-inserts every entry.
    fn grow(&mut self) {
        let buckets = (self.bucket_mask + 1) * 2;
        let old = std::mem::replace(&mut self.entries, new_buckets(buckets));
        self.bucket_mask = buckets - 1;
        self.len = 0;
        for e in old.iter().flat_map(|b| b.0) {
            if e.tag != 0 {
                let b = self.bucket(e.lo as u128 | (e.hi as u128) << 64, e.tag);
                if let Some(slot) = self.entries[b].0.iter_mut().find(|s| s.tag == 0) {
                    *slot = e;
                    self.len += 1;
                }
            }
        }
    }

    /// Asks the CPU to start loading the bucket of a key.
    #[inline]
    pub(crate) fn prefetch(&self, bits: u128, tag: u16) {
        #[cfg(target_arch = "x86_64")]
        {
            let b = self.bucket(bits, tag);
            let p = self.entries[b].0.as_ptr() as *const i8;
            let bytes = std::mem::size_of::<Bucket<X>>();
            // SAFETY: prefetching is a hint with no effect on memory; `p` and `p + 64` (when
            // the bucket is longer than 64 bytes) lie in the bucket.
            unsafe {
                use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
                _mm_prefetch(p, _MM_HINT_T0);
                if bytes > 64 {
                    _mm_prefetch(p.add(64), _MM_HINT_T0);
                }
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (bits, tag);
    }

    /// The entry of a key (`tag != 0`).
    #[inline]
    pub(crate) fn get(&self, bits: u128, tag: u16) -> Option<&Entry<X>> {
        debug_assert!(tag != 0);
        let b = self.bucket(bits, tag);
        let (lo, hi) = (bits as u64, (bits >> 64) as u64);
        self.entries[b]
            .0
            .iter()
            .find(|e| e.lo == lo && e.hi == hi && e.tag == tag)
    }

    /// Stores `word` and `extra` for a key (`tag != 0`), or merges them into its entry:
    /// `merge(old word, old extra)` gives what to store when the key is present.
    #[inline]
    pub(crate) fn put(&mut self, bits: u128, tag: u16, prio: u16, merge: impl FnOnce(Option<(u32, X)>) -> (u32, X)) {
        debug_assert!(tag != 0);
        let b = self.bucket(bits, tag);
        let (lo, hi) = (bits as u64, (bits >> 64) as u64);
        let slot = &mut self.entries[b].0;
        let mut victim = 0;
        let mut old = None;
        for (i, e) in slot.iter().enumerate() {
            if e.tag == 0 {
                self.len += 1;
                victim = i;
                break;
            }
            if e.lo == lo && e.hi == hi && e.tag == tag {
                victim = i;
                old = Some((e.word, e.extra));
                break;
            }
            if e.prio < slot[victim].prio {
                victim = i;
            }
        }
        let (word, extra) = merge(old);
        slot[victim] = Entry {
            lo,
            hi,
            tag,
            prio,
            word,
            extra,
        };
        if self.len * 2 > self.entries.len() * BUCKET && self.bucket_mask + 1 < self.max_buckets {
            self.grow();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_compact() {
        assert_eq!(Table::<u64>::ENTRY_BYTES, 32);
        assert_eq!(Table::<()>::ENTRY_BYTES, 24);
    }

    #[test]
    fn stores_merges_and_evicts_the_smallest() {
        // One bucket only: the fifth key evicts the entry of lowest priority.
        let mut t = Table::<u64>::with_bytes(4 * 32);
        for k in 0..4u128 {
            t.put(k << 70, 1, 10 + k as u16, |_| (k as u32, 0));
        }
        t.put(1 << 70, 1, 11, |old| {
            let (w, x) = old.unwrap();
            (w + 100, x | 1)
        });
        assert_eq!(t.get(1 << 70, 1).map(|e| (e.word, e.extra)), Some((101, 1)));
        assert!(t.get(1 << 70, 2).is_none());
        t.put(99, 1, 50, |_| (7, 0));
        assert!(t.get(0, 1).is_none(), "lowest priority evicted");
        assert_eq!(t.get(99, 1).map(|e| e.word), Some(7));
        assert_eq!(t.len(), 4);
        t.clear();
        assert_eq!(t.len(), 0);
        assert!(t.get(99, 1).is_none());
    }

    #[test]
    fn grows_up_to_the_cap() {
        let mut t = Table::<()>::with_bytes(1 << 24);
        let first = t.capacity();
        for k in 0..200_000u128 {
            t.put(k * 0x1_0000_0001, 3, 1, |_| (k as u32, ()));
        }
        assert!(t.capacity() > first);
        assert!(t.capacity() as u64 * Table::<()>::ENTRY_BYTES <= 1 << 24);
        let found = (0..200_000u128)
            .filter(|&k| t.get(k * 0x1_0000_0001, 3).map(|e| e.word) == Some(k as u32))
            .count();
        assert!(found > 150_000, "{found}");
    }
}
