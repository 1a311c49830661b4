//! A cache of the pieces options split into, by their cells as they lie in the grid.
//!
//! Most options deep in a Cram search split their component (two thirds of the options
//! generated on 4×9), and the pieces repeat: the moves of one column of a component leave the
//! same part on their right, and sibling components share most of their cells. Each piece
//! costs a reduction, a canonical key (up to eight images, a transpose for tall pieces) and a
//! table look-up; the cache answers from the piece's cells alone with one probe of a small
//! array that stays in the processor's caches. What it holds are facts about a set of cells
//! (its value, or the canonical key its value is stored under), so an entry never goes stale:
//! a key whose value was unknown is looked up again in the table each time.

/// Entries of the cache (a power of two): 16384 of three words, 384 KiB.
const SLOTS: usize = 1 << 14;

/// Words of an entry: the piece's cells, the canonical key, and the width, kind and value.
const WORDS: usize = 3;

/// Flag of an entry whose value is known (else it holds the key to look up).
const KNOWN: u64 = 1 << 8;

/// What the cache knows about a piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Piece {
    /// Its value.
    Value(u32),
    /// The canonical key (bits, width) its value is stored under in the table.
    Key(u64, usize),
}

/// A direct-mapped cache from a piece's cells in a grid of stride `w` (both fit in one word)
/// to what is known about it.
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

    /// What is known about the piece `cells` (stride `w <= 64`).
    #[inline(always)]
    pub(super) fn get(&self, cells: u64, w: usize) -> Option<Piece> {
        let i = Self::slot(cells, w);
        let e = &self.words[i..i + WORDS];
        if e[0] != cells || e[2] & 0xff != w as u64 {
            return None;
        }
        Some(if e[2] & KNOWN != 0 {
            Piece::Value((e[2] >> 16) as u32)
        } else {
            Piece::Key(e[1], (e[2] >> 16) as usize)
        })
    }

    /// Remembers what is known about the piece `cells` (stride `w <= 64`), replacing whatever
    /// the slot held.
    #[inline(always)]
    pub(super) fn put(&mut self, cells: u64, w: usize, piece: Piece) {
        let i = Self::slot(cells, w);
        let (key, meta) = match piece {
            Piece::Value(v) => (0, KNOWN | (v as u64) << 16),
            Piece::Key(k, kw) => (k, (kw as u64) << 16),
        };
        self.words[i..i + WORDS].copy_from_slice(&[cells, key, meta | w as u64]);
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
        c.put(0b1111, 4, Piece::Value(1));
        assert_eq!(c.get(0b1111, 4), Some(Piece::Value(1)));
        assert_eq!(c.get(0b1111, 5), None, "another width is another piece");
        assert_eq!(c.get(0b0111, 4), None);
        c.put(0b1111, 4, Piece::Key(0b1_1011, 3));
        assert_eq!(c.get(0b1111, 4), Some(Piece::Key(0b1_1011, 3)));
        c.put(u64::MAX, 64, Piece::Value(7));
        assert_eq!(c.get(u64::MAX, 64), Some(Piece::Value(7)));
        c.clear();
        assert_eq!(c.get(u64::MAX, 64), None);
    }
}
