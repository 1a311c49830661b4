//! The search's memo: every position valued so far, with its value.
//!
//! Most positions a search meets are collections of small heaps (a misère or push search of
//! a take-and-break game meets millions of them), and a general map keeps each as a
//! `Position` (32 bytes in the table's slot, its heaps in an allocation of their own at 8
//! bytes each, the allocator's header): about 200 bytes for a collection of eight heaps. Here a
//! collection whose heaps are all below 2^16 is packed: its heaps go, 2 bytes each, into
//! chunks of an arena that never move, and the table's slot holds where they start, how many
//! there are and the value (12 bytes, and the table's control byte): about 35 bytes for the
//! same collection. Every other position (Fibonacci Nim, sums, positions after a push, Cram
//! boards, larger heaps) is kept in a general map as before. Either way a position is found by
//! its heaps in order, exactly as `Position`'s equality finds it.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};

use hashbrown::HashTable;
use hashbrown::hash_table::Entry;

use crate::game::Position;

/// Rough memory of one general entry besides its position's heaps (key, value, table
/// overhead).
pub(crate) const BYTES_PER_ENTRY: u64 = 96;

/// Bytes of one bucket of the packed table: a slot and its control byte.
pub(crate) const PACKED_BUCKET_BYTES: u64 = std::mem::size_of::<Slot>() as u64 + 1;

/// Bytes of one bucket of the general map's table.
pub(crate) const GENERAL_BUCKET_BYTES: u64 = std::mem::size_of::<(Position, u32)>() as u64 + 1;

/// Heaps (2 bytes each) of the largest chunk of the arena: chunks double from [`FIRST_CHUNK`]
/// up to it (2 MiB), so a small search holds little and a large one allocates rarely.
const LARGEST_CHUNK: usize = 1 << 20;

/// Heaps of the first chunk.
const FIRST_CHUNK: usize = 256;

/// Rough memory of a position held in the general map or in an option list: its enum, boxes
/// and heaps (a position of 30,000 heaps costs 240 KB, not the 128 bytes of a small one).
pub fn position_bytes(p: &Position) -> u64 {
    match p {
        Position::Heaps(h) => 40 + 8 * h.len() as u64,
        Position::Fib { .. } => 40,
        Position::Sum(a, b) => 32 + position_bytes(a) + position_bytes(b),
        Position::Pushed { inner, .. } => 32 + position_bytes(inner),
        Position::Board(_) => 96,
    }
}

/// The buckets of a table that holds `entries`: a power of two, at most 7/8 of them full, at
/// least 4 (hashbrown's, which the standard map is, for slots of 4 bytes or more).
pub(crate) fn table_buckets(entries: u128) -> u128 {
    match entries {
        0..=3 => 4,
        4..=7 => 8,
        _ => entries.saturating_mul(8).div_ceil(7).next_power_of_two(),
    }
}

/// A packed entry: where its heaps start in the arena (48 bits), how many (16 bits), its value.
#[derive(Debug, Clone, Copy)]
struct Slot {
    start_low: u32,
    start_high_and_len: u32,
    value: u32,
}

impl Slot {
    fn new(start: usize, len: usize, value: u32) -> Slot {
        Slot {
            start_low: start as u32,
            start_high_and_len: ((start >> 32) as u32) << 16 | len as u32,
            value,
        }
    }

    fn start(&self) -> usize {
        (self.start_low as usize) | ((self.start_high_and_len >> 16) as usize) << 32
    }

    fn len(&self) -> usize {
        (self.start_high_and_len & 0xffff) as usize
    }
}

/// Positions and their values.
#[derive(Clone, Default)]
pub(crate) struct Memo {
    packed: HashTable<Slot>,
    /// The heaps of the packed entries: chunk `i` starts at heap `i · LARGEST_CHUNK` of the
    /// arena's addresses (a chunk smaller than that leaves the rest of its range unused).
    chunks: Vec<Vec<u16>>,
    general: HashMap<Position, u32, foldhash::fast::RandomState>,
    /// Memory of the general map's entries, by [`position_bytes`] and [`BYTES_PER_ENTRY`].
    general_bytes: u64,
    hasher: foldhash::fast::RandomState,
}

impl std::fmt::Debug for Memo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Memo")
            .field("packed", &self.packed.len())
            .field("general", &self.general.len())
            .finish()
    }
}

/// The heaps of `p` where it is packed: a collection of fewer than 2^16 heaps, each below 2^16.
fn packable(p: &Position) -> Option<&[u64]> {
    match p {
        Position::Heaps(h) if h.len() <= usize::from(u16::MAX) && h.iter().all(|&x| x <= u64::from(u16::MAX)) => {
            Some(h)
        }
        _ => None,
    }
}

impl Memo {
    /// The value memoised for `p`.
    pub(crate) fn get(&self, p: &Position) -> Option<u32> {
        let Some(heaps) = packable(p) else {
            return self.general.get(p).copied();
        };
        let hash = hash_heaps(&self.hasher, heaps.iter().map(|&x| x as u16));
        self.packed
            .find(hash, |s| {
                s.len() == heaps.len()
                    && arena_heaps(&self.chunks, s)
                        .iter()
                        .zip(heaps)
                        .all(|(&a, &b)| u64::from(a) == b)
            })
            .map(|s| s.value)
    }

    /// Memoises `p`'s value (a position memoised before takes the new value).
    pub(crate) fn insert(&mut self, p: Position, value: u32) {
        let Some(heaps) = packable(&p) else {
            let bytes = position_bytes(&p) + BYTES_PER_ENTRY;
            if self.general.insert(p, value).is_none() {
                self.general_bytes += bytes;
            }
            return;
        };
        let hash = hash_heaps(&self.hasher, heaps.iter().map(|&x| x as u16));
        let (chunks, hasher) = (&mut self.chunks, &self.hasher);
        let entry = self.packed.entry(
            hash,
            |s| {
                s.len() == heaps.len()
                    && arena_heaps(chunks, s)
                        .iter()
                        .zip(heaps)
                        .all(|(&a, &b)| u64::from(a) == b)
            },
            |s| hash_heaps(hasher, arena_heaps(chunks, s).iter().copied()),
        );
        match entry {
            Entry::Occupied(mut o) => o.get_mut().value = value,
            Entry::Vacant(v) => {
                let start = push_heaps(chunks, heaps);
                v.insert(Slot::new(start, heaps.len(), value));
            }
        }
    }

    /// Positions memoised.
    pub(crate) fn len(&self) -> usize {
        self.packed.len() + self.general.len()
    }

    /// Memory the memo holds: the packed table and arena as allocated, the general map's
    /// entries by [`position_bytes`] and [`BYTES_PER_ENTRY`].
    pub(crate) fn bytes(&self) -> u64 {
        let table = packed_table_bytes(self.packed.capacity());
        let arena: u64 = self.chunks.iter().map(|c| 2 * c.capacity() as u64).sum();
        table + arena + self.general_bytes
    }

    /// The bytes memoising `p` allocates at once beside what the memo holds: none while its
    /// table has room (and, packed, the arena's last chunk); when the table is full, a table
    /// of twice the buckets, held beside the old one while the entries move, and a new chunk
    /// where the last one is full. [`BYTES_PER_ENTRY`] averages the general map's table over
    /// its entries, but this moment is the peak: at 15 million entries 1.4 GB at once (a
    /// search counted under 4 GiB peaked at 5.3 GiB without it).
    pub(crate) fn growth_bytes(&self, p: &Position) -> u64 {
        let Some(heaps) = packable(p) else {
            if self.general.len() < self.general.capacity() {
                return 0;
            }
            let buckets = u64::try_from(table_buckets(self.general.len() as u128 + 1)).unwrap_or(u64::MAX);
            return buckets.saturating_mul(GENERAL_BUCKET_BYTES);
        };
        let table = if self.packed.len() < self.packed.capacity() {
            0
        } else {
            let buckets = u64::try_from(table_buckets(self.packed.len() as u128 + 1)).unwrap_or(u64::MAX);
            buckets.saturating_mul(PACKED_BUCKET_BYTES)
        };
        let chunk = if room_in_last(&self.chunks, heaps.len()) {
            0
        } else {
            2 * next_chunk(&self.chunks, heaps.len()) as u64
        };
        table + chunk
    }
}

/// The hash of a collection's heaps (as 16-bit numbers, four to a word), the same whether
/// they are a position's or the arena's.
fn hash_heaps(hasher: &foldhash::fast::RandomState, heaps: impl ExactSizeIterator<Item = u16>) -> u64 {
    let mut h = hasher.build_hasher();
    h.write_usize(heaps.len());
    let (mut word, mut filled) = (0u64, 0);
    for x in heaps {
        word = word << 16 | u64::from(x);
        filled += 1;
        if filled == 4 {
            h.write_u64(word);
            (word, filled) = (0, 0);
        }
    }
    if filled > 0 {
        h.write_u64(word);
    }
    h.finish()
}

/// The heaps of a packed entry.
fn arena_heaps<'a>(chunks: &'a [Vec<u16>], slot: &Slot) -> &'a [u16] {
    let (chunk, at) = (slot.start() / LARGEST_CHUNK, slot.start() % LARGEST_CHUNK);
    &chunks[chunk][at..at + slot.len()]
}

/// The heaps of the next chunk: twice the last, from [`FIRST_CHUNK`] to [`LARGEST_CHUNK`], and
/// at least `len`.
fn next_chunk(chunks: &[Vec<u16>], len: usize) -> usize {
    let last = chunks.last().map_or(FIRST_CHUNK / 2, Vec::capacity);
    (last * 2).clamp(FIRST_CHUNK, LARGEST_CHUNK).max(len)
}

/// Whether the arena's last chunk holds `len` heaps more (within its range of addresses, should
/// the allocator have given it more room than asked).
fn room_in_last(chunks: &[Vec<u16>], len: usize) -> bool {
    chunks
        .last()
        .is_some_and(|c| c.capacity().min(LARGEST_CHUNK) - c.len() >= len)
}

/// Appends `heaps` to the arena (in a new chunk where the last has no room), and says where
/// they start.
fn push_heaps(chunks: &mut Vec<Vec<u16>>, heaps: &[u64]) -> usize {
    if !room_in_last(chunks, heaps.len()) {
        let size = next_chunk(chunks, heaps.len());
        chunks.push(Vec::with_capacity(size));
    }
    let index = chunks.len() - 1;
    let chunk = &mut chunks[index];
    let start = index * LARGEST_CHUNK + chunk.len();
    chunk.extend(heaps.iter().map(|&x| x as u16));
    start
}

/// Bytes of the packed table with room for `capacity` entries (7/8 of its buckets; none
/// before the first entry).
fn packed_table_bytes(capacity: usize) -> u64 {
    if capacity == 0 {
        return 0;
    }
    (table_buckets(capacity as u128) as u64).saturating_mul(PACKED_BUCKET_BYTES)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::search::memo_last_growth;

    /// A position of a small deterministic generator: collections of small heaps mostly, some
    /// with a heap past 2^16, some of other kinds.
    fn position(seed: u64) -> Position {
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (seed >> 7);
        let mut next = |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % m
        };
        match next(10) {
            0 => Position::Fib {
                n: next(50),
                q: next(50),
            },
            1 => Position::Heaps(vec![next(3), 65_536 + next(3)]),
            _ => Position::Heaps((0..next(5)).map(|_| next(6)).collect()),
        }
    }

    #[test]
    fn the_memo_finds_what_a_map_finds() {
        let mut memo = Memo::default();
        let mut reference: HashMap<Position, u32> = HashMap::new();
        for seed in 0..60_000u64 {
            let p = position(seed);
            assert_eq!(memo.get(&p), reference.get(&p).copied(), "{p}");
            // some positions again, with a new value
            let v = (seed % 97) as u32;
            memo.insert(p.clone(), v);
            reference.insert(p, v);
            assert_eq!(memo.len(), reference.len());
        }
        for (p, &v) in &reference {
            assert_eq!(memo.get(p), Some(v), "{p}");
        }
        // heaps in another order, or one more empty heap, are another position
        memo.insert(Position::Heaps(vec![1, 2]), 5);
        assert_eq!(
            memo.get(&Position::Heaps(vec![2, 1])),
            reference.get(&Position::Heaps(vec![2, 1])).copied()
        );
        assert_eq!(memo.get(&Position::Heaps(vec![1, 2])), Some(5));
    }

    #[test]
    fn the_memos_growth_is_what_it_allocates() {
        // packed collections: each insertion adds exactly what growth_bytes said beforehand
        // (a new table, whose old one is freed after the move, and a new chunk of the arena),
        // nothing in between; the last growth is the peak the estimate before a search counts
        let mut memo = Memo::default();
        let (mut growths, mut last_peak) = (0, 0u128);
        for h in 0..200_000u64 {
            let p = Position::Heaps(vec![h % 1000, h / 1000, 7]);
            let (growth, before, capacity) = (memo.growth_bytes(&p), memo.bytes(), memo.packed.capacity());
            let old_table = packed_table_bytes(capacity);
            memo.insert(p, 0);
            if memo.packed.capacity() == capacity {
                assert_eq!(memo.bytes(), before + growth, "at {h}");
            } else {
                assert_eq!(memo.bytes() + old_table, before + growth, "at {h}");
                if capacity >= 8 {
                    growths += 1;
                    let new_table = packed_table_bytes(memo.packed.capacity());
                    last_peak = u128::from(capacity as u64) * 100 + u128::from(new_table);
                }
            }
        }
        assert!(growths >= 14, "{growths}");
        let (held, table) = memo_last_growth(200_000, PACKED_BUCKET_BYTES).unwrap();
        assert_eq!(held * 100 + table, last_peak);
        // 200,000 collections of three heaps: under 30 bytes each (a table of 2^18 buckets,
        // 3.4 MB, and chunks of 2 MB for 1.2 MB of heaps), where the general map counts 184
        assert!(memo.bytes() < 200_000 * 30, "{}", memo.bytes());

        // the general map's table, against the standard map's own capacity
        let mut memo = Memo::default();
        let (mut growths, mut last_peak) = (0, 0u128);
        for n in 0..200_000u64 {
            let p = Position::Fib { n, q: 1 };
            let (growth, before) = (memo.growth_bytes(&p), memo.general.capacity());
            memo.insert(p, 0);
            if before == memo.general.capacity() {
                assert_eq!(growth, 0, "no growth at {n}");
            } else if before >= 8 {
                growths += 1;
                last_peak = u128::from(before as u64 * 100 + growth);
                let buckets = growth / GENERAL_BUCKET_BYTES;
                assert!(buckets.is_power_of_two(), "{growth}");
                assert_eq!(memo.general.capacity() as u64, buckets / 8 * 7, "at {n}");
            }
        }
        assert!(growths >= 14, "{growths}");
        let (held, table) = memo_last_growth(200_000, GENERAL_BUCKET_BYTES).unwrap();
        assert_eq!(held * 100 + table, last_peak);
    }
}
