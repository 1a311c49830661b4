//! The value map as a pyramid of tiles, as map viewers keep theirs: a tile of level `L` holds
//! [`TILE`]² *pooled cells*, each standing for a block of 2^L × 2^L cells of the map, so a view
//! of any zoom needs about one pooled cell per pixel and a zoomed-out view never reads a sample.
//!
//! A pooled cell holds a *key*, the least of its cells' keys (see [`KeyRule`]): the value itself
//! (so a block holding a P-position pools to 0 and is drawn as one), the value modulo k, or the
//! class of a difference (differ first). A block with a cell not computed yet pools to
//! [`NOT_COMPUTED`], one without any position to [`NO_POSITION`]. Because the rule is a
//! minimum, coarse tiles are the pooled values of finer ones, whichever way they are made.
//!
//! Files: this one (keys, rules, tiles), [`known`] (a region's blocks read back from the
//! tiles, for a figure of what the map filled), [`known_cells`] (a region's exact cell values
//! read back from the level-0 tiles, for a CSV of what the map filled), [`source`] (the worker's side: computing the cells of
//! a region the way the ruleset allows, in stages), [`pool`] (pooling a region's cells into
//! tiles as the stages finish), [`store`] (the window's side: the tiles kept, merged, pooled
//! upwards and evicted least recently used first).

mod absorb;
pub mod counts;
pub mod known;
pub mod known_cells;
pub mod pool;
pub mod source;
pub mod store;

use std::ops::Range;

pub use counts::ValueCounts;
pub use known::PooledRegion;
pub use known_cells::KnownCells;
pub use pool::PoolJob;
pub use source::{Compare, Stage, TileSource, outcomes_by_quotient};
pub use store::{TileReader, TileStore};

/// Side of a tile in pooled cells (at level 0, in cells).
pub const TILE: u64 = 256;
/// The coarsest level: a pooled cell of 2^16 × 2^16 cells covers the largest map.
pub const MAX_LEVEL: u8 = 16;
/// Views reach rows and columns below this: 1.7 × 10¹³, where a camera's f64 coordinates
/// still place a cell within 1/256 of its width (maps computed from a closed form go this far;
/// filled maps stop where the memory budget does).
pub const MAX_VIEW: u64 = 1 << 44;

/// The key of a cell, or of a block, not computed yet (it beats every other key when pooled:
/// a block is only as final as its least finished cell).
pub const NOT_COMPUTED: u32 = u32::MAX;
/// The key of a cell that is not a position, or of a block without any position (every other
/// key is smaller, so it only shows when the whole block is no position).
pub const NO_POSITION: u32 = u32::MAX - 1;
/// Keys of the difference rule, in the order they win a block.
pub mod differ {
    /// The outcomes differ at some cell of the block.
    pub const DIFFER: u32 = 0;
    /// Both maps have a P-position here (and nothing differs).
    pub const BOTH_P: u32 = 1;
    /// Both maps have an N-position here (and nothing differs or is P).
    pub const BOTH_N: u32 = 2;
    /// The compared map (or theorem) says nothing here.
    pub const NOT_COMPARED: u32 = 3;
}

/// How one cell's value becomes its key. Pooling takes the least key of a block, so each rule
/// puts first what must never be hidden: a 0 (a P-position), residue 0, a difference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeyRule {
    /// The Grundy value (P-positions are key 0).
    Value,
    /// The Grundy value modulo k (k ≥ 1).
    Residue(u32),
    /// The class of the pair (value here, value of the compared map): [`differ`].
    Differ,
    /// The outcome alone, 0 at a P-position and 1 elsewhere: the tiles of a map that knows
    /// only outcomes (Wythoff's P-positions anywhere, see `CellForm::outcome_of`), kept apart
    /// from tiles of values.
    Outcome,
    /// The Grundy value, a block pooled to its greatest value (the View menu's choice for the
    /// Grundy colours: the large values stand out, a P-position may be hidden).
    Greatest,
    /// The Grundy value, a block pooled to its most common value (ties: the least of them).
    /// Not a minimum: a block's key is counted from its cells ([`most_common`]), never pooled
    /// from coarser or finer keys.
    MostCommon,
}

impl KeyRule {
    /// The key of a cell of value `v` (`None`: not a position); in the difference rule `other`
    /// is the compared value (`None`: nothing to compare with).
    #[inline]
    pub fn key(self, v: Option<u32>, other: Option<u32>) -> u32 {
        let Some(v) = v else { return NO_POSITION };
        let infinite = crate::game::loopy::cells::is_infinite(v);
        match self {
            KeyRule::Value | KeyRule::Greatest | KeyRule::MostCommon => v.min(NO_POSITION - 1),
            // an infinite value of a game that loops keeps its code: it has no residue, and
            // a draw is no N-position
            KeyRule::Residue(_) | KeyRule::Outcome if infinite && crate::game::loopy::cells::is_draw(v) => v,
            KeyRule::Residue(_) if infinite => v,
            KeyRule::Residue(k) => v % k.max(1),
            KeyRule::Outcome => u32::from(v != 0),
            KeyRule::Differ => match other {
                None => differ::NOT_COMPARED,
                Some(w) if (w == 0) != (v == 0) => differ::DIFFER,
                Some(_) if v == 0 => differ::BOTH_P,
                Some(_) => differ::BOTH_N,
            },
        }
    }

    /// [`KeyRule::key`] of an exact value, which may pass 32 bits far from the origin: its
    /// residue is exact; as a key of [`KeyRule::Value`] it stops at `NO_POSITION − 1` (=
    /// `grid::SATURATED`), the top of the colour scale, and the readout says so.
    #[inline]
    pub fn key_wide(self, v: Option<u64>, other: Option<u32>) -> u32 {
        match (self, v) {
            (KeyRule::Residue(k), Some(v))
                if !(v < u64::from(u32::MAX) && crate::game::loopy::cells::is_infinite(v as u32)) =>
            {
                (v % u64::from(k.max(1))) as u32
            }
            _ => self.key(v.map(|v| v.min(u64::from(NO_POSITION - 1)) as u32), other),
        }
    }

    /// Whether a key of this rule is the cell's value itself (level-0 tiles then need no
    /// separate values for the hover readout).
    pub fn keys_are_values(self) -> bool {
        matches!(self, KeyRule::Value | KeyRule::Greatest | KeyRule::MostCommon)
    }

    /// Whether a block's key is pooled from its parts' keys by [`KeyRule::combine`] (a
    /// coarser tile from finer ones); the most common value is counted from the cells instead.
    pub fn pools_by_combining(self) -> bool {
        self != KeyRule::MostCommon
    }

    /// Two keys pooled by this rule: the least (the greatest under [`KeyRule::Greatest`], a
    /// block without a position losing to any value), unless either is not computed yet.
    /// Under [`KeyRule::MostCommon`] this is only a stand-in (the least) until the block's
    /// cells are counted.
    #[inline]
    pub fn combine(self, x: u32, y: u32) -> u32 {
        if x == NOT_COMPUTED || y == NOT_COMPUTED {
            NOT_COMPUTED
        } else if self == KeyRule::Greatest {
            match (x, y) {
                (NO_POSITION, k) | (k, NO_POSITION) => k,
                _ => x.max(y),
            }
        } else {
            x.min(y)
        }
    }

    /// What a pixel or block of cells with `keys` shows under this rule: their pooled key, or
    /// under [`KeyRule::MostCommon`] the most common key among the positions (ties: the
    /// least). Sorts `keys`.
    pub fn pool(self, keys: &mut [u32]) -> u32 {
        if self == KeyRule::MostCommon {
            most_common(keys)
        } else {
            keys.iter().fold(NO_POSITION, |k, &x| self.combine(k, x))
        }
    }
}

/// Two keys pooled by the least-key rules: the least, unless either is not computed yet.
#[inline]
pub fn combine(x: u32, y: u32) -> u32 {
    KeyRule::Value.combine(x, y)
}

/// The most common key of `keys` that is a position (ties: the least), [`NO_POSITION`] if
/// none is, [`NOT_COMPUTED`] if some cell is not computed yet. Sorts `keys`.
pub fn most_common(keys: &mut [u32]) -> u32 {
    keys.sort_unstable();
    if keys.last() == Some(&NOT_COMPUTED) {
        return NOT_COMPUTED;
    }
    let (mut best, mut best_n) = (NO_POSITION, 0usize);
    for run in keys.chunk_by(|x, y| x == y) {
        // sorted: NO_POSITION comes last, and an earlier run of the same length wins the tie
        if run[0] != NO_POSITION && run.len() > best_n {
            (best, best_n) = (run[0], run.len());
        }
    }
    best
}

/// The cells of a rectangle: rows `a` in `rows`, columns `b` in `cols` (half-open).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct CellRect {
    /// The rows `a` (half-open).
    pub rows: Range<u64>,
    /// The columns `b` (half-open).
    pub cols: Range<u64>,
}

impl CellRect {
    /// The cells with rows in `rows` and columns in `cols`.
    pub fn new(rows: Range<u64>, cols: Range<u64>) -> Self {
        Self { rows, cols }
    }

    /// Whether it holds no cell.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty() || self.cols.is_empty()
    }

    /// Whether it holds cell (a, b).
    pub fn contains(&self, a: u64, b: u64) -> bool {
        self.rows.contains(&a) && self.cols.contains(&b)
    }

    /// Number of cells.
    pub fn len(&self) -> u64 {
        if self.is_empty() {
            return 0;
        }
        (self.rows.end - self.rows.start).saturating_mul(self.cols.end - self.cols.start)
    }

    /// The cells in both.
    pub fn intersect(&self, other: &CellRect) -> CellRect {
        let cut = |x: &Range<u64>, y: &Range<u64>| {
            let start = x.start.max(y.start);
            start..x.end.min(y.end).max(start)
        };
        CellRect {
            rows: cut(&self.rows, &other.rows),
            cols: cut(&self.cols, &other.cols),
        }
    }

    /// The smallest rectangle of whole blocks of `side` cells (aligned on multiples of `side`)
    /// holding this one.
    pub fn align_out(&self, side: u64) -> CellRect {
        let out = |r: &Range<u64>| {
            if r.is_empty() {
                return r.start..r.start;
            }
            (r.start / side) * side..r.end.div_ceil(side).saturating_mul(side)
        };
        CellRect {
            rows: out(&self.rows),
            cols: out(&self.cols),
        }
    }
}

/// A tile's place in the pyramid: at `level` L, tile (`row`, `col`) holds the pooled cells of
/// the blocks of 2^L cells whose rows start in `[row·TILE·2^L, (row+1)·TILE·2^L)` (and columns
/// likewise).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TileKey {
    /// The level: each pooled cell stands for 2^`level` × 2^`level` cells.
    pub level: u8,
    /// The tile's row among the tiles of its level.
    pub row: u64,
    /// The tile's column among the tiles of its level.
    pub col: u64,
}

impl TileKey {
    /// The level-0 tile holding cell (a, b).
    pub fn of_cell(a: u64, b: u64) -> Self {
        Self::at(0, a, b)
    }

    /// The tile of `level` holding cell (a, b).
    pub fn at(level: u8, a: u64, b: u64) -> Self {
        let side = Self::span_of(level);
        Self {
            level,
            row: a / side,
            col: b / side,
        }
    }

    /// Cells a pooled cell of `level` stands for, along one side.
    pub fn block_of(level: u8) -> u64 {
        1u64 << level
    }

    /// Cells a tile of `level` covers, along one side.
    pub fn span_of(level: u8) -> u64 {
        TILE << level
    }

    /// Cells one of its pooled cells stands for, along one side: 2^`level`.
    pub fn block(&self) -> u64 {
        Self::block_of(self.level)
    }

    /// The cells the tile covers.
    pub fn cells(&self) -> CellRect {
        let s = Self::span_of(self.level);
        CellRect::new(
            self.row * s..(self.row + 1).saturating_mul(s),
            self.col * s..(self.col + 1).saturating_mul(s),
        )
    }

    /// The tile one level coarser holding this one, and where this one sits in it (the
    /// quadrant's first pooled row and column).
    pub fn parent(&self) -> Option<(TileKey, usize, usize)> {
        (self.level < MAX_LEVEL).then(|| {
            let half = (TILE / 2) as usize;
            (
                TileKey {
                    level: self.level + 1,
                    row: self.row / 2,
                    col: self.col / 2,
                },
                (self.row % 2) as usize * half,
                (self.col % 2) as usize * half,
            )
        })
    }

    /// The tiles of `level` a rectangle of cells touches, nearest to `centre` (a, b) first.
    pub fn covering(level: u8, cells: &CellRect, centre: (f64, f64)) -> Vec<TileKey> {
        if cells.is_empty() {
            return Vec::new();
        }
        let s = Self::span_of(level);
        let rows = cells.rows.start / s..cells.rows.end.div_ceil(s);
        let cols = cells.cols.start / s..cells.cols.end.div_ceil(s);
        let mut keys: Vec<TileKey> = rows
            .flat_map(|row| cols.clone().map(move |col| TileKey { level, row, col }))
            .collect();
        let d = |k: &TileKey| {
            let half = s as f64 / 2.0;
            let (a, b) = (
                k.row as f64 * s as f64 + half - centre.0,
                k.col as f64 * s as f64 + half - centre.1,
            );
            a * a + b * b
        };
        keys.sort_by(|x, y| d(x).total_cmp(&d(y)).then(x.cmp(y)));
        keys
    }
}

/// The pooled cells of one tile, row by row (pooled row `i` holds the blocks of cell rows
/// `[row_start + i·2^L, …)`), and at level 0, under a rule whose keys are not values, the
/// values themselves (for the hover readout).
#[derive(Debug, Clone, PartialEq)]
pub struct Tile {
    pub(crate) keys: Vec<u32>,
    /// Level 0 only, when the keys are not the values: each cell's value as a key of
    /// [`KeyRule::Value`].
    pub(crate) values: Option<Vec<u32>>,
    /// Pooled cells computed (not [`NOT_COMPUTED`]).
    pub(crate) done: u32,
}

impl Tile {
    /// A tile with nothing computed.
    pub fn empty(with_values: bool) -> Self {
        let n = (TILE * TILE) as usize;
        Self {
            keys: vec![NOT_COMPUTED; n],
            values: with_values.then(|| vec![NOT_COMPUTED; n]),
            done: 0,
        }
    }

    /// The key of pooled cell (i, j) (row i upwards from the tile's first row, column j).
    #[inline]
    pub fn key(&self, i: usize, j: usize) -> u32 {
        self.keys[i * TILE as usize + j]
    }

    /// The keys, row by row.
    pub fn keys(&self) -> &[u32] {
        &self.keys
    }

    /// The value of pooled cell (i, j) of a level-0 tile as a key of [`KeyRule::Value`].
    pub fn value_key(&self, i: usize, j: usize) -> u32 {
        let k = i * TILE as usize + j;
        self.values.as_ref().map_or(self.keys[k], |v| v[k])
    }

    /// Whether every pooled cell is computed.
    pub fn is_complete(&self) -> bool {
        self.done as u64 == TILE * TILE
    }

    /// Pooled cells computed.
    pub fn done(&self) -> u64 {
        u64::from(self.done)
    }

    /// Bytes the tile holds (its keys and, when kept apart, its values).
    pub fn bytes(&self) -> u64 {
        (self.keys.len() + self.values.as_ref().map_or(0, Vec::len)) as u64 * 4
    }

    /// Takes every computed pooled cell of `other` this tile lacks (values are final, so
    /// nothing computed ever changes); returns whether anything changed.
    pub fn merge(&mut self, other: &Tile) -> bool {
        let mut changed = false;
        for (i, (mine, theirs)) in self.keys.iter_mut().zip(&other.keys).enumerate() {
            if *mine == NOT_COMPUTED && *theirs != NOT_COMPUTED {
                *mine = *theirs;
                self.done += 1;
                changed = true;
                if let (Some(v), Some(w)) = (self.values.as_mut(), other.values.as_ref()) {
                    v[i] = w[i];
                }
            }
        }
        changed
    }

    /// Fills the quadrant at (`i0`, `j0`) of this tile (one level coarser) with `child` pooled
    /// 2×2 by `rule`, where this tile lacks it; returns whether anything changed.
    pub fn pool_from(&mut self, child: &Tile, i0: usize, j0: usize, rule: KeyRule) -> bool {
        let t = TILE as usize;
        let mut changed = false;
        for i in 0..t / 2 {
            for j in 0..t / 2 {
                let k = (i0 + i) * t + j0 + j;
                if self.keys[k] != NOT_COMPUTED {
                    continue;
                }
                let c = |di: usize, dj: usize| child.keys[(2 * i + di) * t + 2 * j + dj];
                let key = rule.combine(rule.combine(c(0, 0), c(0, 1)), rule.combine(c(1, 0), c(1, 1)));
                if key != NOT_COMPUTED {
                    self.keys[k] = key;
                    self.done += 1;
                    changed = true;
                }
            }
        }
        changed
    }

    /// Pooled cells computed inside `cells` (the tile at `key` covering them), each counted by
    /// the number of its cells inside: the progress of a view.
    pub fn cells_done_in(&self, key: TileKey, cells: &CellRect) -> u64 {
        let area = key.cells().intersect(cells);
        if area.is_empty() {
            return 0;
        }
        let tile = key.cells();
        if self.is_complete() {
            return area.len();
        }
        let b = key.block();
        let span =
            |r: &Range<u64>, start: u64| ((r.start - start) / b) as usize..((r.end - start).div_ceil(b)) as usize;
        let (is, js) = (span(&area.rows, tile.rows.start), span(&area.cols, tile.cols.start));
        let overlap = |lo: u64, hi: u64, r: &Range<u64>| hi.min(r.end).saturating_sub(lo.max(r.start));
        let mut done = 0;
        for i in is {
            let (a0, a1) = (tile.rows.start + i as u64 * b, tile.rows.start + (i as u64 + 1) * b);
            let h = overlap(a0, a1, &area.rows);
            let row = &self.keys[i * TILE as usize..(i + 1) * TILE as usize];
            for j in js.clone() {
                if row[j] != NOT_COMPUTED {
                    let (b0, b1) = (tile.cols.start + j as u64 * b, tile.cols.start + (j as u64 + 1) * b);
                    done += h * overlap(b0, b1, &area.cols);
                }
            }
        }
        done
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_put_first_what_must_not_be_hidden() {
        // exact values past 32 bits: exact residues, the top of the scale as values
        let big = (1u64 << 40) + 3;
        assert_eq!(KeyRule::Residue(7).key_wide(Some(big), None), (big % 7) as u32);
        assert_eq!(KeyRule::Value.key_wide(Some(big), None), crate::solver::grid::SATURATED);
        assert_eq!(KeyRule::Value.key_wide(Some(5), None), 5);
        assert_eq!(KeyRule::Outcome.key_wide(Some(big), None), 1);
        assert_eq!(KeyRule::Outcome.key_wide(Some(0), None), 0);
        assert_eq!(KeyRule::Differ.key_wide(Some(big), Some(0)), differ::DIFFER);
        assert_eq!(KeyRule::Residue(3).key_wide(None, None), NO_POSITION);
        assert_eq!(KeyRule::Value.key(Some(0), None), 0);
        assert_eq!(KeyRule::Value.key(None, None), NO_POSITION);
        assert_eq!(KeyRule::Residue(4).key(Some(9), None), 1);
        assert_eq!(KeyRule::Differ.key(Some(0), Some(3)), differ::DIFFER);
        assert_eq!(KeyRule::Differ.key(Some(0), Some(0)), differ::BOTH_P);
        assert_eq!(KeyRule::Differ.key(Some(2), Some(3)), differ::BOTH_N);
        assert_eq!(KeyRule::Differ.key(Some(2), None), differ::NOT_COMPARED);
        assert_eq!(combine(5, NO_POSITION), 5);
        assert_eq!(combine(0, NOT_COMPUTED), NOT_COMPUTED);
    }

    #[test]
    fn tiles_nest_in_their_parents() {
        let k = TileKey {
            level: 0,
            row: 3,
            col: 2,
        };
        assert_eq!(k.cells(), CellRect::new(768..1024, 512..768));
        let (p, i0, j0) = k.parent().unwrap();
        assert_eq!(
            p,
            TileKey {
                level: 1,
                row: 1,
                col: 1
            }
        );
        assert_eq!((i0, j0), (128, 0));
        assert_eq!(p.cells(), CellRect::new(512..1024, 512..1024));
        assert_eq!(
            TileKey::at(2, 1100, 3000),
            TileKey {
                level: 2,
                row: 1,
                col: 2
            }
        );
        let r = CellRect::new(3..9, 17..17);
        assert!(r.is_empty());
        assert_eq!(r.len(), 0);
        assert_eq!(CellRect::new(3..9, 5..17).align_out(4), CellRect::new(0..12, 4..20));
    }

    #[test]
    fn progress_counts_the_cells_of_computed_blocks_inside_the_view() {
        let key = TileKey {
            level: 1,
            row: 0,
            col: 0,
        };
        let mut t = Tile::empty(false);
        // blocks (0, 0) and (1, 3) computed: cells [0,2)×[0,2) and [2,4)×[6,8)
        t.keys[0] = 4;
        t.keys[TILE as usize + 3] = 0;
        t.done = 2;
        assert_eq!(t.cells_done_in(key, &CellRect::new(0..10, 0..10)), 8);
        // a view from (1, 1): one cell of the first block, and two cells of the second
        assert_eq!(t.cells_done_in(key, &CellRect::new(1..10, 1..7)), 1 + 2);
    }
}
