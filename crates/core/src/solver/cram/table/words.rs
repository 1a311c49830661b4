//! Tables of Cram components whose key fits 64 bits (every component of a board of at most
//! 64 cells, and the smaller components of larger ones), one word per entry: the exact values
//! and the excluded values of the search.
//!
//! Every option of every component searched is looked up for its exact value (the enhanced
//! transposition cut-off), so these tables decide how often the search waits on memory: with
//! one word an entry they hold four times as many entries per cache line as
//! [`super::shared::SharedTable`] (three words and a share of the bucket's sequence word), and
//! the exact values of a search of 5×7 fit the processor's second-level cache.
//!
//! A key (the canonical bits of a component) is mixed by a bijection of the 64-bit words; the
//! low bits of the mix pick the bucket (a cache line of 8 words) and the entry keeps the other
//! bits, so that the key can be rebuilt from the entry and its bucket and no two keys share an
//! entry. A word is `[mix >> (6 + P) : 58 - P bits][width - 1 : 6 bits][payload : P bits]`
//! (a key of 64 bits or fewer is at most 64 cells wide); a zero payload is never stored, and a
//! zero word is a free slot. Since an entry is one word, threads read it with a plain atomic
//! load and change it by compare-and-swap: a reader sees a whole entry or none, with no lock.
//! A full bucket drops the entry with the fewest cells (the cheapest to recompute).
//!
//! A table starts small and doubles when half full, up to its cap, like the shared table: on
//! doubling, the entries whose new index bit is set move to the upper half while the other
//! threads go on (until then they are not found, which a cache may do).

use super::shared::{FILL_BATCH, Fill, Words, claim_doubling};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// Words per bucket: one cache line.
const SLOTS: usize = 8;
/// Bytes per bucket.
const BUCKET_BYTES: usize = SLOTS * 8;
/// Bits of the width minus one.
const WIDTH_BITS: u32 = 6;
/// Buckets in use at first (512 KiB), unless the cap is smaller or the table's smallest size
/// is larger.
const INITIAL_BUCKETS: usize = 1 << 13;
/// Widest key.
pub(crate) const MAX_WIDTH: usize = 1 << WIDTH_BITS;

const M1: u64 = 0xBF58_476D_1CE4_E5B9;
const M2: u64 = 0x94D0_49BB_1331_11EB;

/// The inverse of an odd number modulo 2^64 (Newton's iteration doubles the correct bits).
const fn inverse(a: u64) -> u64 {
    let mut x = a;
    let mut i = 0;
    while i < 6 {
        x = x.wrapping_mul(2u64.wrapping_sub(a.wrapping_mul(x)));
        i += 1;
    }
    x
}

const M1_INV: u64 = inverse(M1);
const M2_INV: u64 = inverse(M2);

/// A bijection of the 64-bit words that scatters keys (SplitMix64's finaliser).
#[inline(always)]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(M1);
    z = (z ^ (z >> 27)).wrapping_mul(M2);
    z ^ (z >> 31)
}

/// The inverse of [`mix`].
#[inline]
fn unmix(mut z: u64) -> u64 {
    z ^= (z >> 31) ^ (z >> 62);
    z = z.wrapping_mul(M2_INV);
    z ^= (z >> 27) ^ (z >> 54);
    z = z.wrapping_mul(M1_INV);
    z ^ (z >> 30) ^ (z >> 60)
}

/// A table `(key of at most 64 bits, width) -> non-zero payload of P bits` that threads share
/// by reference.
pub(crate) struct WordTable<const P: u32> {
    words: Words,
    /// Mask of the buckets in use (one less than their count, a power of two).
    bucket_mask: AtomicUsize,
    /// Mask of all the buckets allocated.
    max_mask: usize,
    /// Free slots filled so far (as reported by [`Fill::note_filled`]).
    filled: AtomicUsize,
}

impl<const P: u32> WordTable<P> {
    /// Bits of the mix that the smallest table uses for the bucket and the entry does not
    /// keep.
    const INDEX_BITS: u32 = WIDTH_BITS + P;
    /// Fewest buckets: the index bits the entries do not keep.
    const MIN_BUCKETS: usize = 1 << Self::INDEX_BITS;
    /// Mask of the payload.
    pub(crate) const PAYLOAD: u64 = (1 << P) - 1;

    /// Bytes of the smallest table.
    pub(crate) const MIN_BYTES: u64 = Self::MIN_BUCKETS as u64 * BUCKET_BYTES as u64;

    /// A table of at most `bytes`, or of [`Self::MIN_BYTES`] if that is more.
    #[cfg(test)]
    pub(crate) fn with_bytes(bytes: u64) -> Self {
        Self::try_with_bytes(bytes).unwrap_or_else(|layout| std::alloc::handle_alloc_error(layout))
    }

    /// [`WordTable::with_bytes`], or the layout the system refused.
    pub(crate) fn try_with_bytes(bytes: u64) -> Result<Self, std::alloc::Layout> {
        let mut buckets = Self::MIN_BUCKETS;
        while (buckets as u64 * 2) * BUCKET_BYTES as u64 <= bytes {
            buckets *= 2;
        }
        Ok(WordTable {
            words: Words::try_zeroed(buckets * BUCKET_BYTES)?,
            bucket_mask: AtomicUsize::new(buckets.min(INITIAL_BUCKETS.max(Self::MIN_BUCKETS)) - 1),
            max_mask: buckets - 1,
            filled: AtomicUsize::new(0),
        })
    }

    /// Whether a key can go in this table.
    #[inline(always)]
    pub(crate) fn fits(key: u128, w: usize) -> bool {
        key >> 64 == 0 && w <= MAX_WIDTH
    }

    /// Slots in use now.
    pub(crate) fn capacity(&self) -> usize {
        (self.bucket_mask.load(Ordering::Relaxed) + 1) * SLOTS
    }

    /// Free slots filled so far (an estimate: doubling loses some entries).
    pub(crate) fn len(&self) -> usize {
        self.filled.load(Ordering::Relaxed).min(self.capacity())
    }

    /// The entry's bits other than the payload, for a mixed key and a width.
    #[inline(always)]
    fn pattern(m: u64, w: usize) -> u64 {
        (m >> Self::INDEX_BITS << Self::INDEX_BITS) | ((w as u64 - 1) << P)
    }

    /// The first word of the bucket of a mixed key.
    #[inline(always)]
    fn bucket(&self, m: u64) -> usize {
        m as usize & self.bucket_mask.load(Ordering::Relaxed)
    }

    /// The payload stored for a key (`fits(key, w)`).
    #[inline]
    pub(crate) fn get(&self, key: u64, w: usize) -> Option<u64> {
        debug_assert!((1..=MAX_WIDTH).contains(&w));
        let m = mix(key);
        let b = self.bucket(m) * SLOTS;
        let pattern = Self::pattern(m, w);
        for i in 0..SLOTS {
            let x = self.words.word(b + i).load(Ordering::Relaxed);
            if x & !Self::PAYLOAD == pattern && x & Self::PAYLOAD != 0 {
                return Some(x & Self::PAYLOAD);
            }
        }
        None
    }

    /// Asks the processor to start loading the bucket of a key.
    #[inline]
    pub(crate) fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.words.word(self.bucket(mix(key)) * SLOTS) as *const AtomicU64 as *const i8;
            // SAFETY: prefetching is a hint with no effect on memory.
            unsafe { std::arch::x86_64::_mm_prefetch(p, std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Stores a payload for a key (`fits(key, w)`), or merges it into the key's entry:
    /// `merge(old payload)` gives what to store, of which the low `P` bits are kept (nothing
    /// is stored when they are 0). Returns whether a free slot was used.
    #[inline]
    pub(crate) fn update(&self, key: u64, w: usize, merge: impl Fn(Option<u64>) -> u64) -> bool {
        debug_assert!((1..=MAX_WIDTH).contains(&w));
        let m = mix(key);
        let bucket = self.bucket(m);
        let b = bucket * SLOTS;
        let pattern = Self::pattern(m, w);
        let mut free = None;
        for i in 0..SLOTS {
            let slot = self.words.word(b + i);
            let x = slot.load(Ordering::Relaxed);
            if x & !Self::PAYLOAD == pattern && x & Self::PAYLOAD != 0 {
                let payload = merge(Some(x & Self::PAYLOAD)) & Self::PAYLOAD;
                if payload != 0 {
                    // Lost to another thread's change: a cache may drop an update.
                    let _ = slot.compare_exchange(x, pattern | payload, Ordering::Relaxed, Ordering::Relaxed);
                }
                return false;
            }
            if x == 0 && free.is_none() {
                free = Some(i);
            }
        }
        let payload = merge(None) & Self::PAYLOAD;
        if payload == 0 {
            return false;
        }
        if let Some(i) = free {
            // Another thread may have taken the slot since: then this entry is dropped.
            return self
                .words
                .word(b + i)
                .compare_exchange(0, pattern | payload, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok();
        }
        // Full: the entry with the fewest cells goes.
        let (victim, old) = (0..SLOTS)
            .map(|i| (i, self.words.word(b + i).load(Ordering::Relaxed)))
            .min_by_key(|&(_, x)| self.key_of(x, bucket).count_ones())
            .unwrap_or((0, 0));
        let _ =
            self.words
                .word(b + victim)
                .compare_exchange(old, pattern | payload, Ordering::Relaxed, Ordering::Relaxed);
        false
    }

    /// Calls `f(key, width, payload)` on every entry of the buckets in use, while other
    /// threads may go on storing (a checkpoint of a running search): an entry is one word, so
    /// each is read whole; one moved by a doubling meanwhile may be seen twice or not at all.
    pub(crate) fn for_each_entry(&self, mut f: impl FnMut(u64, usize, u64)) {
        let buckets = self.bucket_mask.load(Ordering::Relaxed) + 1;
        for bucket in 0..buckets {
            for i in 0..SLOTS {
                let x = self.words.word(bucket * SLOTS + i).load(Ordering::Relaxed);
                if x & Self::PAYLOAD != 0 {
                    let w = (x >> P) as usize % MAX_WIDTH + 1;
                    f(self.key_of(x, bucket), w, x & Self::PAYLOAD);
                }
            }
        }
    }

    /// The key of a non-free entry found in bucket `bucket`.
    #[inline]
    fn key_of(&self, x: u64, bucket: usize) -> u64 {
        unmix((x >> Self::INDEX_BITS << Self::INDEX_BITS) | (bucket as u64 & (Self::MIN_BUCKETS as u64 - 1)))
    }

    /// After a doubling from `old_mask`: moves each entry of bucket `b` that now belongs to
    /// `b + old_mask + 1` there (dropped if that bucket is full already).
    fn move_to_upper_half(&self, old_mask: usize) {
        let high = old_mask + 1;
        for bucket in 0..=old_mask {
            let (lower, upper) = (bucket * SLOTS, (bucket + high) * SLOTS);
            for i in 0..SLOTS {
                let x = self.words.word(lower + i).load(Ordering::Relaxed);
                // The new index bit is one the entry keeps (the table has at least
                // `MIN_BUCKETS` buckets, so the bit is above the index bits it drops).
                if x == 0 || (x as usize) & high == 0 {
                    continue;
                }
                if self
                    .words
                    .word(lower + i)
                    .compare_exchange(x, 0, Ordering::Relaxed, Ordering::Relaxed)
                    .is_err()
                {
                    continue;
                }
                if let Some(j) = (0..SLOTS).find(|&j| self.words.word(upper + j).load(Ordering::Relaxed) == 0) {
                    let _ = self
                        .words
                        .word(upper + j)
                        .compare_exchange(0, x, Ordering::Relaxed, Ordering::Relaxed);
                }
            }
        }
    }
}

impl<const P: u32> Fill for WordTable<P> {
    /// Adds `n` filled slots; doubles the table when it is half full and below its cap.
    fn note_filled(&self, n: usize) {
        if let Some(mask) = claim_doubling(&self.filled, &self.bucket_mask, self.max_mask, n, SLOTS) {
            self.move_to_upper_half(mask);
        }
    }
}

const _: () = assert!(FILL_BATCH < INITIAL_BUCKETS * SLOTS / 2);

/// Exact values: the payload is the value plus one (values up to 62; larger ones need 63
/// options, and no board comes near).
pub(crate) type ExactTable = WordTable<6>;

/// Excluded values: bit `v` of the payload says the value is not `v` (for `v < 10`; Cram
/// values seldom pass 10, and forgetting an excluded value only costs a search).
pub(crate) type BoundsTable = WordTable<10>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mix_is_a_bijection() {
        for x in [0u64, 1, 2, 0xFFFF, u64::MAX, 0x1234_5678_9ABC_DEF0, 1 << 63] {
            assert_eq!(unmix(mix(x)), x);
        }
        assert_eq!(M1.wrapping_mul(M1_INV), 1);
        assert_eq!(M2.wrapping_mul(M2_INV), 1);
    }

    #[test]
    fn stores_merges_and_evicts_the_fewest_cells() {
        // The smallest table; keys that share a bucket by construction: a mix whose low bits
        // are 0 (the bijection lets us pick the mixes).
        let t = BoundsTable::with_bytes(0);
        assert_eq!(t.capacity(), BoundsTable::MIN_BUCKETS * SLOTS);
        let key = |i: u64| unmix(i << 20);
        for i in 1..=SLOTS as u64 {
            assert!(t.update(key(i), 3, |_| i));
        }
        for i in 1..=SLOTS as u64 {
            assert_eq!(t.get(key(i), 3), Some(i));
            assert_eq!(t.get(key(i), 4), None, "widths tell keys apart");
        }
        // Merging keeps the slot.
        assert!(!t.update(key(2), 3, |old| old.unwrap_or(0) | 1 << 9));
        assert_eq!(t.get(key(2), 3), Some(2 | 1 << 9));
        // The ninth key evicts the one with the fewest cells.
        let fewest = (1..=SLOTS as u64).min_by_key(|&i| key(i).count_ones()).unwrap();
        assert!(!t.update(key(99), 3, |_| 1));
        assert_eq!(t.get(key(99), 3), Some(1));
        assert_eq!(t.get(key(fewest), 3), None);
        // Payloads are cut to their bits, and an empty one is not stored (a key of another
        // bucket).
        let other = unmix(100 << 20 | 5);
        assert!(!t.update(other, 2, |_| 1 << 10));
        assert_eq!(t.get(other, 2), None);
        assert!(t.update(other, 64, |_| BoundsTable::PAYLOAD));
        assert_eq!(t.get(other, 64), Some(BoundsTable::PAYLOAD));
    }

    #[test]
    fn doubles_and_keeps_its_entries() {
        let t = ExactTable::with_bytes(1 << 24);
        let first = t.capacity();
        let keys: Vec<u64> = (0..2000u64).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15)).collect();
        for (i, &k) in keys.iter().enumerate() {
            t.update(k, 1 + i % 64, |_| 1 + (i % 50) as u64);
        }
        t.note_filled(first / 2 + 1);
        assert_eq!(t.capacity(), 2 * first);
        for (i, &k) in keys.iter().enumerate() {
            assert_eq!(t.get(k, 1 + i % 64), Some(1 + (i % 50) as u64), "moved on doubling");
        }
        for _ in 0..20 {
            t.note_filled(t.capacity());
        }
        assert_eq!(t.capacity() * 8, 1 << 24, "up to the cap");
    }

    #[test]
    fn threads_never_read_another_keys_payload() {
        let t = ExactTable::with_bytes(1 << 16);
        let payload = |k: u64| 1 + k.wrapping_mul(0x9E37_79B9) % 60;
        std::thread::scope(|s| {
            for offset in 0..2u64 {
                let t = &t;
                std::thread::Builder::new()
                    .name(format!("writer-{offset}"))
                    .spawn_scoped(s, move || {
                        for round in 0..50_000u64 {
                            let k = (round * 2 + offset) % 3000;
                            t.update(k, 1 + (k % 8) as usize, |_| payload(k));
                            if round % 5000 == 0 {
                                t.note_filled(20_000);
                            }
                            let probe = (round * 7) % 3000;
                            if let Some(p) = t.get(probe, 1 + (probe % 8) as usize) {
                                assert_eq!(p, payload(probe));
                            }
                        }
                    })
                    .unwrap();
            }
        });
    }
}
