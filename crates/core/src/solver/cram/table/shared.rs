//! The transposition table of the board solvers (Cram, Push Cram), which several search
//! threads can use at once (the Cram solver's root search runs on every core with one table).
//!
//! Keys are bitboards (`u128`) with a non-zero 16-bit tag (the packing width, and whatever
//! else the solver needs to tell keys apart); each entry holds a 40-bit payload
//! whose meaning belongs to the solver, and a priority (the solvers use the cell count: small
//! positions are the cheapest to recompute) that decides which entry of a full bucket goes.
//!
//! A bucket is a pair of cache lines (which x86 processors fetch together): a sequence word and
//! four entries of three words. Writers take the bucket by making the sequence odd; readers
//! retry when the sequence was odd or changed while they read (a seqlock), so a reader never
//! sees half an entry and never waits on a lock word elsewhere. (Two entries in one line
//! searched as fast on Cram 5×7 and 3×15, but lost entries made Push Cram 3×23 search 13%
//! more positions.)
//!
//! The memory for the largest size comes zeroed from the allocator, which maps fresh pages
//! lazily, but only a prefix of it is in use: the table starts at 2 MiB and doubles when half
//! full, up to its cap, so a small search stays in few pages and cache lines. Doubling widens
//! the hash mask at once and then moves the entries that now belong to the upper half, bucket
//! by bucket, while other threads go on: until its bucket is moved an entry is not found,
//! which a cache may do (the search recomputes it). On
//! Linux the memory is advised to use transparent huge pages (probes are random, and with
//! 4 KiB pages most of them would also miss the TLB).

use std::alloc::{Layout, alloc_zeroed, dealloc};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering, fence};

/// Words per bucket: the sequence, four entries of (low key, high key, info), three spare.
const BUCKET_WORDS: usize = 16;
/// Entries per bucket.
const ENTRIES: usize = 4;
/// Bytes per bucket: two cache lines.
const BUCKET_BYTES: usize = BUCKET_WORDS * 8;

/// Buckets in use at first (2 MiB), unless the cap is smaller.
pub(crate) const INITIAL_BUCKETS: usize = 1 << 15;

/// Bits of the payload.
pub(crate) const PAYLOAD_BITS: u32 = 40;

/// Filled slots a thread counts before telling the table (which then may double).
pub(crate) const FILL_BATCH: usize = 256;

/// `info` word of an entry: tag (bits 0..16, 0 = free), priority (16..24), payload (24..64).
#[inline]
fn info(tag: u16, prio: u8, payload: u64) -> u64 {
    debug_assert!(payload < 1 << PAYLOAD_BITS);
    tag as u64 | (prio as u64) << 16 | payload << 24
}

#[inline]
fn tag_of(info: u64) -> u16 {
    info as u16
}

#[inline]
fn prio_of(info: u64) -> u8 {
    (info >> 16) as u8
}

#[inline]
fn payload_of(info: u64) -> u64 {
    info >> 24
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

/// Zeroed, cache-line-aligned memory for the buckets of a table.
pub(crate) struct Words {
    /// The allocation.
    raw: NonNull<u8>,
    layout: Layout,
    /// Its first cache line.
    ptr: NonNull<AtomicU64>,
    /// Words from `ptr` to the end of the allocation.
    len: usize,
}

// SAFETY: the words are atomics, shared by reference only; the allocation is owned.
unsafe impl Send for Words {}
// SAFETY: as for `Send`: every access goes through an `AtomicU64`.
unsafe impl Sync for Words {}

impl Words {
    /// `bytes` of zeroed words, the first one aligned to 128 bytes, or the layout the system
    /// refused (a table capped above what the machine can map: the caller refuses the job in
    /// words, or aborts as the standard collections do).
    pub(crate) fn try_zeroed(bytes: usize) -> Result<Words, Layout> {
        // Word alignment, and the cache-line alignment by hand: the system allocator gives
        // zeroed memory of larger alignments by writing zeros over all of it, which would
        // touch every page of the cap up front.
        #[expect(
            clippy::expect_used,
            reason = "a size below the cap (checked by the caller) and alignment 8"
        )]
        let layout = Layout::from_size_align(bytes + BUCKET_BYTES, 8).expect("table layout");
        // SAFETY: the layout has a non-zero size.
        let raw = unsafe { alloc_zeroed(layout) };
        let Some(raw) = NonNull::new(raw) else {
            return Err(layout);
        };
        let skip = raw.as_ptr().align_offset(BUCKET_BYTES);
        // SAFETY: `skip < BUCKET_BYTES`, inside the allocation.
        let ptr = unsafe { NonNull::new_unchecked(raw.as_ptr().add(skip) as *mut AtomicU64) };
        #[cfg(target_os = "linux")]
        if layout.size() >= 4 << 20 {
            const PAGE: usize = 4096;
            let start = raw.as_ptr() as usize;
            let first = start.next_multiple_of(PAGE);
            // SAFETY: the range lies inside the allocation; the advice changes no contents
            // and its failure is harmless.
            unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    (start + layout.size() - first) & !(PAGE - 1),
                    libc::MADV_HUGEPAGE,
                );
            }
        }
        let len = (layout.size() - skip) / 8;
        Ok(Words { raw, layout, ptr, len })
    }

    /// Word `i`. Checked in every build (a safe function must not read past its memory; the
    /// branch is predicted and costs nothing measurable in the probes).
    #[inline]
    pub(crate) fn word(&self, i: usize) -> &AtomicU64 {
        assert!(i < self.len, "table word {i} outside {} words", self.len);
        // SAFETY: `i < len`, inside the allocation, which holds zero-initialised atomics
        // (all-zero bytes are a valid `AtomicU64`) and lives as long as `self`.
        unsafe { &*self.ptr.as_ptr().add(i) }
    }
}

impl Drop for Words {
    fn drop(&mut self) {
        // SAFETY: allocated in `zeroed` with this layout.
        unsafe { dealloc(self.raw.as_ptr(), self.layout) }
    }
}

/// A fixed-size hash table `(key bits, tag) -> payload` that threads share by reference.
pub(crate) struct SharedTable {
    words: Words,
    /// Mask of the buckets in use (one less than their count, a power of two).
    bucket_mask: AtomicUsize,
    /// Mask of all the buckets allocated.
    max_mask: usize,
    /// Free slots filled so far (as reported by [`SharedTable::note_filled`]).
    filled: AtomicUsize,
}

impl SharedTable {
    /// A table of at most `bytes` (at least one bucket).
    pub(crate) fn with_bytes(bytes: u64) -> SharedTable {
        SharedTable::try_with_bytes(bytes).unwrap_or_else(|layout| std::alloc::handle_alloc_error(layout))
    }

    /// [`SharedTable::with_bytes`], or the layout the system refused.
    pub(crate) fn try_with_bytes(bytes: u64) -> Result<SharedTable, Layout> {
        let mut buckets = 1usize;
        while (buckets as u64 * 2) * BUCKET_BYTES as u64 <= bytes {
            buckets *= 2;
        }
        Ok(SharedTable {
            words: Words::try_zeroed(buckets * BUCKET_BYTES)?,
            bucket_mask: AtomicUsize::new(buckets.min(INITIAL_BUCKETS) - 1),
            max_mask: buckets - 1,
            filled: AtomicUsize::new(0),
        })
    }

    /// Slots in use now.
    pub(crate) fn capacity(&self) -> usize {
        (self.bucket_mask.load(Ordering::Relaxed) + 1) * ENTRIES
    }

    /// Free slots filled so far (an estimate: doubling loses some entries).
    pub(crate) fn len(&self) -> usize {
        self.filled.load(Ordering::Relaxed).min(self.capacity())
    }

    /// Adds `n` slots that [`SharedTable::update`] filled; doubles the table when it is half
    /// full and below its cap. Callers report in batches, so that threads do not contend for
    /// the counter on every store.
    pub(crate) fn note_filled(&self, n: usize) {
        if let Some(mask) = claim_doubling(&self.filled, &self.bucket_mask, self.max_mask, n, ENTRIES) {
            self.move_to_upper_half(mask);
        }
    }

    /// After a doubling from `old_mask`: moves each entry of bucket `b` that now hashes to
    /// `b + old_mask + 1` there (dropped if that bucket is full already).
    fn move_to_upper_half(&self, old_mask: usize) {
        let new_mask = old_mask * 2 + 1;
        for b in 0..=old_mask {
            let (lower, upper) = (b * BUCKET_WORDS, (b + old_mask + 1) * BUCKET_WORDS);
            let s_lower = self.lock(lower);
            let s_upper = self.lock(upper);
            for e in 0..ENTRIES {
                let w = lower + 1 + 3 * e;
                let i = self.words.word(w + 2).load(Ordering::Relaxed);
                if tag_of(i) == 0 {
                    continue;
                }
                let lo = self.words.word(w).load(Ordering::Relaxed);
                let hi = self.words.word(w + 1).load(Ordering::Relaxed);
                let bits = lo as u128 | (hi as u128) << 64;
                if hash(bits, tag_of(i)) as usize & new_mask == b {
                    continue;
                }
                self.words.word(w + 2).store(0, Ordering::Relaxed);
                let free =
                    (0..ENTRIES).find(|f| tag_of(self.words.word(upper + 3 + 3 * f).load(Ordering::Relaxed)) == 0);
                if let Some(f) = free {
                    let to = upper + 1 + 3 * f;
                    self.words.word(to).store(lo, Ordering::Relaxed);
                    self.words.word(to + 1).store(hi, Ordering::Relaxed);
                    self.words.word(to + 2).store(i, Ordering::Relaxed);
                }
            }
            self.unlock(upper, s_upper);
            self.unlock(lower, s_lower);
        }
    }

    /// Takes the bucket at word `b` (makes its sequence odd); returns the sequence before.
    #[inline]
    fn lock(&self, b: usize) -> u64 {
        let seq = self.words.word(b);
        let mut s = seq.load(Ordering::Relaxed);
        loop {
            if s & 1 == 0 {
                match seq.compare_exchange_weak(s, s + 1, Ordering::Acquire, Ordering::Relaxed) {
                    Ok(_) => break,
                    Err(now) => s = now,
                }
            } else {
                std::hint::spin_loop();
                s = seq.load(Ordering::Relaxed);
            }
        }
        fence(Ordering::Release);
        s
    }

    /// Releases the bucket at word `b` taken when its sequence was `s`.
    #[inline]
    fn unlock(&self, b: usize, s: u64) {
        self.words.word(b).store(s + 2, Ordering::Release);
    }

    /// First word of the bucket of a key.
    #[inline]
    fn bucket(&self, bits: u128, tag: u16) -> usize {
        (hash(bits, tag) as usize & self.bucket_mask.load(Ordering::Relaxed)) * BUCKET_WORDS
    }

    /// Asks the CPU to start loading the bucket of a key (for a look-up soon after).
    #[inline]
    pub(crate) fn prefetch(&self, bits: u128, tag: u16) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.words.word(self.bucket(bits, tag)) as *const AtomicU64 as *const i8;
            // SAFETY: prefetching is a hint with no effect on memory.
            unsafe { std::arch::x86_64::_mm_prefetch(p, std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (bits, tag);
    }

    /// The payload stored for a key (`tag != 0`).
    #[inline]
    pub(crate) fn get(&self, bits: u128, tag: u16) -> Option<u64> {
        debug_assert!(tag != 0);
        let b = self.bucket(bits, tag);
        let (lo, hi) = (bits as u64, (bits >> 64) as u64);
        let seq = self.words.word(b);
        loop {
            let before = seq.load(Ordering::Acquire);
            if before & 1 == 1 {
                std::hint::spin_loop();
                continue;
            }
            let mut found = None;
            for e in 0..ENTRIES {
                let w = b + 1 + 3 * e;
                let i = self.words.word(w + 2).load(Ordering::Relaxed);
                if tag_of(i) == tag
                    && self.words.word(w).load(Ordering::Relaxed) == lo
                    && self.words.word(w + 1).load(Ordering::Relaxed) == hi
                {
                    found = Some(payload_of(i));
                }
            }
            fence(Ordering::Acquire);
            if seq.load(Ordering::Relaxed) == before {
                return found;
            }
        }
    }

    /// Stores a payload for a key (`tag != 0`), or merges it into the key's entry:
    /// `merge(old payload)` gives what to store (below `1 << PAYLOAD_BITS`). When the bucket
    /// is full, the entry of lowest priority goes. Returns whether a free slot was used.
    #[inline]
    pub(crate) fn update(&self, bits: u128, tag: u16, prio: u8, merge: impl FnOnce(Option<u64>) -> u64) -> bool {
        debug_assert!(tag != 0);
        let b = self.bucket(bits, tag);
        let (lo, hi) = (bits as u64, (bits >> 64) as u64);
        let s = self.lock(b);
        let mut victim = 0;
        let mut victim_prio = u8::MAX;
        let mut old = None;
        let mut fresh = false;
        for e in 0..ENTRIES {
            let w = b + 1 + 3 * e;
            let i = self.words.word(w + 2).load(Ordering::Relaxed);
            if tag_of(i) == 0 {
                if !fresh && old.is_none() {
                    victim = e;
                    victim_prio = 0;
                    fresh = true;
                }
                continue;
            }
            if tag_of(i) == tag
                && self.words.word(w).load(Ordering::Relaxed) == lo
                && self.words.word(w + 1).load(Ordering::Relaxed) == hi
            {
                victim = e;
                old = Some(payload_of(i));
                fresh = false;
                break;
            }
            if !fresh && prio_of(i) < victim_prio {
                victim = e;
                victim_prio = prio_of(i);
            }
        }
        let payload = merge(old);
        let w = b + 1 + 3 * victim;
        self.words.word(w).store(lo, Ordering::Relaxed);
        self.words.word(w + 1).store(hi, Ordering::Relaxed);
        self.words
            .word(w + 2)
            .store(info(tag, prio, payload), Ordering::Relaxed);
        self.unlock(b, s);
        fresh
    }
}

impl SharedTable {
    /// Calls `f(key bits, tag, priority, payload)` on every entry of the buckets in use, each
    /// read whole (the seqlock of `get`), while other threads may go on storing: a checkpoint
    /// of a running search. An entry moved by a doubling meanwhile may be seen twice or not at
    /// all; every entry seen was stored as it is.
    pub(crate) fn for_each_entry(&self, mut f: impl FnMut(u128, u16, u8, u64)) {
        let buckets = self.bucket_mask.load(Ordering::Relaxed) + 1;
        for bucket in 0..buckets {
            let b = bucket * BUCKET_WORDS;
            let seq = self.words.word(b);
            let entries = loop {
                let before = seq.load(Ordering::Acquire);
                if before & 1 == 1 {
                    std::hint::spin_loop();
                    continue;
                }
                let mut entries = [(0u64, 0u64, 0u64); ENTRIES];
                for (e, entry) in entries.iter_mut().enumerate() {
                    let w = b + 1 + 3 * e;
                    *entry = (
                        self.words.word(w).load(Ordering::Relaxed),
                        self.words.word(w + 1).load(Ordering::Relaxed),
                        self.words.word(w + 2).load(Ordering::Relaxed),
                    );
                }
                fence(Ordering::Acquire);
                if seq.load(Ordering::Relaxed) == before {
                    break entries;
                }
            };
            for (lo, hi, i) in entries {
                if tag_of(i) != 0 {
                    f(lo as u128 | (hi as u128) << 64, tag_of(i), prio_of(i), payload_of(i));
                }
            }
        }
    }
}

/// Counts `n` more filled slots of a table of `entries` slots a bucket and, when that makes it
/// half full below its cap, claims its doubling: the old mask, for the caller to move the
/// entries of; `None` when no doubling is due or another thread claimed it first. Shared by
/// [`SharedTable`] and the tables of words, which grow alike.
#[inline]
pub(crate) fn claim_doubling(
    filled: &AtomicUsize,
    bucket_mask: &AtomicUsize,
    max_mask: usize,
    n: usize,
    entries: usize,
) -> Option<usize> {
    let filled = filled.fetch_add(n, Ordering::Relaxed) + n;
    let mask = bucket_mask.load(Ordering::Relaxed);
    // Another thread may have doubled it already: then this does nothing.
    (filled * 2 > (mask + 1) * entries
        && mask < max_mask
        && bucket_mask
            .compare_exchange(mask, mask * 2 + 1, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok())
    .then_some(mask)
}

/// A table that grows as slots fill: it is told how many in batches ([`FillCounter`]).
pub(crate) trait Fill {
    fn note_filled(&self, n: usize);
}

impl Fill for SharedTable {
    fn note_filled(&self, n: usize) {
        SharedTable::note_filled(self, n);
    }
}

/// Counts the slots one thread fills and reports them to the table in batches, so that
/// threads do not contend for the table's counter on every store.
#[derive(Debug, Default)]
pub(crate) struct FillCounter(usize);

impl FillCounter {
    /// Counts the result of an update (`fresh`: a free slot was used).
    #[inline]
    pub(crate) fn count(&mut self, table: &impl Fill, fresh: bool) {
        self.0 += fresh as usize;
        if self.0 >= FILL_BATCH {
            self.flush(table);
        }
    }

    /// Reports what is counted.
    pub(crate) fn flush(&mut self, table: &impl Fill) {
        if self.0 > 0 {
            table.note_filled(std::mem::take(&mut self.0));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_merges_and_evicts_the_lowest_priority() {
        // One bucket: the fifth key evicts the entry of lowest priority.
        let t = SharedTable::with_bytes(BUCKET_BYTES as u64);
        assert_eq!(t.capacity(), ENTRIES);
        t.note_filled(ENTRIES);
        assert_eq!(t.capacity(), ENTRIES, "no room to grow");
        assert!(t.update(1 << 70, 1, 10, |_| 5));
        assert!(t.update(2 << 70, 1, 12, |_| 6));
        assert!(t.update(3 << 70, 1, 14, |_| 7));
        assert!(t.update(4 << 70, 1, 16, |_| 8));
        assert!(!t.update(1 << 70, 1, 10, |old| old.unwrap() + 100));
        assert_eq!(t.get(1 << 70, 1), Some(105));
        assert_eq!(t.get(1 << 70, 2), None, "tags tell keys apart");
        assert!(!t.update(99, 3, 50, |_| 7));
        assert_eq!(t.get(1 << 70, 1), None, "lowest priority evicted");
        assert_eq!(t.get(2 << 70, 1), Some(6));
        assert_eq!(t.get(99, 3), Some(7));
    }

    #[test]
    fn doubles_when_half_full_up_to_the_cap() {
        let t = SharedTable::with_bytes(1 << 24);
        let first = t.capacity();
        assert_eq!(first, INITIAL_BUCKETS * ENTRIES);
        t.update(5, 1, 1, |_| 9);
        t.note_filled(first / 2 + 1);
        assert_eq!(t.capacity(), 2 * first);
        assert_eq!(t.get(5, 1), Some(9), "moved on doubling");
        for _ in 0..10 {
            t.note_filled(t.capacity());
        }
        assert_eq!(t.capacity() * BUCKET_BYTES / ENTRIES, 1 << 24);
    }

    #[test]
    fn threads_never_read_torn_entries() {
        // Two writers store, for keys of a small table, payloads derived from the key; every
        // read must give either nothing or the key's own payload.
        let t = SharedTable::with_bytes(1 << 23);
        let payload = |k: u128| (k as u64).wrapping_mul(0x9E37_79B9) & ((1 << PAYLOAD_BITS) - 1);
        std::thread::scope(|s| {
            for offset in 0..2u128 {
                let t = &t;
                std::thread::Builder::new()
                    .name(format!("writer-{offset}"))
                    .spawn_scoped(s, move || {
                        for round in 0..20_000u128 {
                            let k = (round * 2 + offset) % 500 + (1 << 80) * (round % 3);
                            t.update(k, 1 + (k % 3) as u16, (k % 200) as u8, |_| payload(k));
                            if round % 1000 == 0 {
                                // Doublings while the other thread reads and writes.
                                t.note_filled(30_000);
                            }
                            let probe = (round * 7) % 500;
                            if let Some(p) = t.get(probe, 1 + (probe % 3) as u16) {
                                assert_eq!(p, payload(probe));
                            }
                        }
                    })
                    .unwrap();
            }
        });
    }
}
