//! A cache of the values of the pieces options split into, by their cells as they lie in the
//! grid.
//!
//! Most options deep in a Cram search split their component (two thirds of the options
//! generated on 4×9), and the pieces repeat: the moves of one column of a component leave the
//! same part on their right, and sibling components share most of their cells. Each piece
//! costs a reduction, a canonical key (up to eight images, a transpose for tall pieces) and a
//! table look-up; the cache answers from the piece's cells alone with one probe of a small
//! array. What it holds are values of sets of cells, facts that never go stale. Only known
//! values are kept: a piece whose value is unknown is keyed again (keeping its key too made
//! entries of three words, which straddle cache lines, and was slower).

/// Entries of the cache (a power of two): 16384 of two words, 256 KiB.
const SLOTS: usize = 1 << 14;

/// Words of an entry: the piece's cells, then its width (low byte) and value (from bit 16).
const WORDS: usize = 2;

/// A direct-mapped cache from a piece's cells in a grid of stride `w` to its value.
pub(super) struct PieceCache {
    /// `WORDS` words a slot; a slot whose first word is 0 is empty (no piece is empty).
    words: Vec<u64>,
}

impl PieceCache {
    pub(super) fn new() -> PieceCache {
        // Zeroed memory from the allocator: pages only where a search writes.
        PieceCache {
            words: vec![0; SLOTS * WORDS],
        }
    }

    #[inline(always)]
    fn slot(cells: u64, w: usize) -> usize {
        let m = (cells ^ (w as u64) << 57).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (m >> (64 - SLOTS.trailing_zeros())) as usize * WORDS
    }

    /// The piece's cells as one word, if they and the stride fit an entry (pieces of grids
    /// wider than a word are never kept).
    #[inline(always)]
    fn word(cells: u128, w: usize) -> Option<u64> {
        (cells >> 64 == 0 && w <= 64).then_some(cells as u64)
    }

    /// The value of the piece `cells` (stride `w`), if known.
    #[inline(always)]
    pub(super) fn get(&self, cells: u128, w: usize) -> Option<u32> {
        let cells = Self::word(cells, w)?;
        let i = Self::slot(cells, w);
        let e = &self.words[i..i + WORDS];
        (e[0] == cells && e[1] & 0xff == w as u64).then(|| (e[1] >> 16) as u32)
    }

    /// Remembers the value of the piece `cells` (stride `w`), replacing whatever the slot
    /// held; a piece that does not fit an entry is not kept.
    #[inline(always)]
    pub(super) fn put(&mut self, cells: u128, w: usize, value: u32) {
        let Some(cells) = Self::word(cells, w) else { return };
        let i = Self::slot(cells, w);
        self.words[i..i + WORDS].copy_from_slice(&[cells, (value as u64) << 16 | w as u64]);
    }

    /// Forgets every piece.
    pub(super) fn clear(&mut self) {
        self.words.fill(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_piece_is_found_only_under_its_own_cells_and_width() {
        let mut c = PieceCache::new();
        assert_eq!(c.get(0b1111, 4), None);
        c.put(0b1111, 4, 1);
        assert_eq!(c.get(0b1111, 4), Some(1));
        assert_eq!(c.get(0b1111, 5), None, "another width is another piece");
        assert_eq!(c.get(0b0111, 4), None);
        c.put(0b1111, 4, 0);
        assert_eq!(c.get(0b1111, 4), Some(0));
        c.put(u64::MAX as u128, 64, 7);
        assert_eq!(c.get(u64::MAX as u128, 64), Some(7));
        c.put(1 << 64, 65, 3);
        assert_eq!(c.get(1 << 64, 65), None, "a piece wider than a word is not kept");
        c.clear();
        assert_eq!(c.get(u64::MAX as u128, 64), None);
    }
}
