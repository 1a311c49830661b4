//! The transposition tables of the board solvers: the shared table of buckets any key fits
//! ([`shared`]), the one-word tables of keys of 64 bits or fewer ([`words`]), and the Cram
//! solver's pair of them ([`Tables`]: exact values and excluded values apart).
//!
//! Layout: `shared` (buckets under a seqlock, growing by doubling) ← `words` (one word an
//! entry, sharing `shared`'s memory and fill counting) ← this file's facade.

mod shared;
mod words;

pub(crate) use shared::{FillCounter, PAYLOAD_BITS, SharedTable};
pub(crate) use words::{BoundsTable, ExactTable};

/// What is known about the value of a component.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(in crate::solver::cram) struct Info {
    pub(in crate::solver::cram) exact: Option<u32>,
    /// Bit `v` set: the value is not `v` (for `v < PAYLOAD_BITS`). A prefix of ones is a lower
    /// bound.
    pub(in crate::solver::cram) not: u64,
}

/// The tables of components: key = canonical bits and width, priority = cell count.
///
/// Exact values and excluded values live apart. Every option of every component searched is
/// looked up for its exact value (the enhanced transposition cut-off), while what a component
/// is not is read only when it is itself searched, and there are about ten times more
/// components with excluded values than with exact ones. Keys of 64 bits or fewer go to
/// tables of one word an entry ([`ExactTable`], [`BoundsTable`]), small enough for the
/// processor's caches; wider keys (components of more than 64 cells) to [`SharedTable`]s.
pub(in crate::solver::cram) struct Tables {
    /// Absent when the memory is too small for them: then the shared tables take every key.
    small: Option<ExactTable>,
    small_bounds: Option<BoundsTable>,
    /// Payload: the value plus one.
    wide: SharedTable,
    /// Payload: bit `v` set when the value is not `v`.
    wide_bounds: SharedTable,
}

impl Tables {
    /// Tables that together use at most `bytes`: a quarter each, or half each for the shared
    /// tables when a quarter is too small for a table of words. (They start small and grow
    /// as they fill, so a table a search does not use costs no memory.)
    /// `Err`: the system refused the memory (the tables are virtual memory the size of their
    /// cap, of which only what is used gets pages; a cap beyond what the machine can map is
    /// refused here rather than aborting the process).
    pub(in crate::solver::cram) fn with_bytes(bytes: u64) -> Result<Tables, std::alloc::Layout> {
        let quarter = bytes / 4;
        Ok(if quarter >= BoundsTable::MIN_BYTES.max(ExactTable::MIN_BYTES) {
            Tables {
                small: Some(ExactTable::try_with_bytes(quarter)?),
                small_bounds: Some(BoundsTable::try_with_bytes(quarter)?),
                wide: SharedTable::try_with_bytes(quarter)?,
                wide_bounds: SharedTable::try_with_bytes(quarter)?,
            }
        } else {
            Tables {
                small: None,
                small_bounds: None,
                wide: SharedTable::try_with_bytes(bytes / 2)?,
                wide_bounds: SharedTable::try_with_bytes(bytes / 2)?,
            }
        })
    }

    /// Entries stored.
    pub(in crate::solver::cram) fn len(&self) -> usize {
        self.small.as_ref().map_or(0, |t| t.len())
            + self.small_bounds.as_ref().map_or(0, |t| t.len())
            + self.wide.len()
            + self.wide_bounds.len()
    }

    /// Slots in use now.
    pub(in crate::solver::cram) fn capacity(&self) -> usize {
        self.small.as_ref().map_or(0, |t| t.capacity())
            + self.small_bounds.as_ref().map_or(0, |t| t.capacity())
            + self.wide.capacity()
            + self.wide_bounds.capacity()
    }

    /// The table of words for the exact value of a key, if it fits one.
    #[inline(always)]
    pub(in crate::solver::cram) fn small_for(&self, key: u128, w: usize) -> Option<&ExactTable> {
        self.small.as_ref().filter(|_| ExactTable::fits(key, w))
    }

    /// The table of words for the excluded values of a key, if it fits one.
    #[inline(always)]
    pub(in crate::solver::cram) fn small_bounds_for(&self, key: u128, w: usize) -> Option<&BoundsTable> {
        self.small_bounds.as_ref().filter(|_| BoundsTable::fits(key, w))
    }

    /// The exact value of a component, if stored.
    #[inline]
    pub(in crate::solver::cram) fn exact(&self, key: u128, w: usize) -> Option<u32> {
        let payload = match self.small_for(key, w) {
            Some(t) => t.get(key as u64, w),
            None => self.wide.get(key, w as u16),
        };
        payload.map(|p| p as u32 - 1)
    }

    /// The values a component is known not to have (bit `v`: not `v`).
    #[inline]
    pub(in crate::solver::cram) fn excluded(&self, key: u128, w: usize) -> u64 {
        match self.small_bounds_for(key, w) {
            Some(t) => t.get(key as u64, w),
            None => self.wide_bounds.get(key, w as u16),
        }
        .unwrap_or(0)
    }

    /// Stores the value of a component, counting the slots filled in `filled`.
    #[inline]
    pub(in crate::solver::cram) fn store(&self, key: u128, w: usize, value: u32, filled: &mut Filled) {
        match self.small_for(key, w) {
            Some(t) => {
                if value as u64 + 1 > ExactTable::PAYLOAD {
                    // Does not fit (63 options and more; no board comes near).
                    return;
                }
                let fresh = t.update(key as u64, w, |_| value as u64 + 1);
                filled.small.count(t, fresh);
            }
            None => {
                let fresh = self
                    .wide
                    .update(key, w as u16, key.count_ones() as u8, |_| value as u64 + 1);
                filled.wide.count(&self.wide, fresh);
            }
        }
    }

    /// Records that a component's value is none of `set` (bit `v`: not `v`).
    #[inline]
    pub(in crate::solver::cram) fn exclude(&self, key: u128, w: usize, set: u64, filled: &mut Filled) {
        match self.small_bounds_for(key, w) {
            Some(t) => {
                let fresh = t.update(key as u64, w, |old| old.unwrap_or(0) | set);
                filled.small_bounds.count(t, fresh);
            }
            None => {
                let set = set & ((1 << PAYLOAD_BITS) - 1);
                let fresh = self
                    .wide_bounds
                    .update(key, w as u16, key.count_ones() as u8, |old| old.unwrap_or(0) | set);
                filled.wide_bounds.count(&self.wide_bounds, fresh);
            }
        }
    }

    /// Asks the processor to start loading the entry of a component's excluded values.
    #[inline]
    pub(in crate::solver::cram) fn prefetch_bounds(&self, key: u128, w: usize) {
        match self.small_bounds_for(key, w) {
            Some(t) => t.prefetch(key as u64),
            None => self.wide_bounds.prefetch(key, w as u16),
        }
    }

    /// Calls `f(key, width, fact)` on every entry, while the search may go on (a checkpoint):
    /// the fact is an exact value (`Ok`) or a set of excluded values (`Err`, bit `v`: not `v`).
    pub(in crate::solver::cram) fn for_each_entry(&self, mut f: impl FnMut(u128, usize, Result<u32, u64>)) {
        if let Some(t) = &self.small {
            t.for_each_entry(|key, w, payload| f(key as u128, w, Ok(payload as u32 - 1)));
        }
        self.wide
            .for_each_entry(|key, tag, _, payload| f(key, tag as usize, Ok(payload as u32 - 1)));
        if let Some(t) = &self.small_bounds {
            t.for_each_entry(|key, w, set| f(key as u128, w, Err(set)));
        }
        self.wide_bounds
            .for_each_entry(|key, tag, _, set| f(key, tag as usize, Err(set)));
    }

    /// Stores what a checkpoint holds: an exact value (`Ok`) or a set of excluded values.
    pub(in crate::solver::cram) fn restore(&self, key: u128, w: usize, fact: Result<u32, u64>, filled: &mut Filled) {
        match fact {
            Ok(value) => self.store(key, w, value, filled),
            Err(set) => self.exclude(key, w, set, filled),
        }
    }

    /// Reports the slots counted in `filled`.
    pub(in crate::solver::cram) fn flush(&self, filled: &mut Filled) {
        if let Some(t) = &self.small {
            filled.small.flush(t);
        }
        if let Some(t) = &self.small_bounds {
            filled.small_bounds.flush(t);
        }
        filled.wide.flush(&self.wide);
        filled.wide_bounds.flush(&self.wide_bounds);
    }
}

/// Table slots one solver filled and has not reported to the tables yet.
#[derive(Debug, Default)]
pub(in crate::solver::cram) struct Filled {
    small: FillCounter,
    small_bounds: FillCounter,
    wide: FillCounter,
    wide_bounds: FillCounter,
}
