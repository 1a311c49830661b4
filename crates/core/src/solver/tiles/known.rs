//! A region's pooled cells as the window's tiles hold them ([`PooledRegion`]), handed to a
//! figure so that it draws what the map has filled instead of computing it again: only the
//! blocks the tiles lack are computed ([`PooledRegion::fill_missing`]).

use super::{CellRect, KeyRule, NO_POSITION, NOT_COMPUTED, TileKey, TileStore};
use crate::solver::grid::Grid;

/// Most blocks a region read from the tiles may have (4 bytes each).
pub const MAX_BLOCKS: u64 = 1 << 24;

/// The blocks of 2^`level` cells covering a region, each its pooled key by `rule`
/// ([`NOT_COMPUTED`] where the tiles lack it).
#[derive(Debug, Clone, PartialEq)]
pub struct PooledRegion {
    /// The level: each block is 2^`level` × 2^`level` cells.
    pub level: u8,
    /// How a block's cells are pooled into its key.
    pub rule: KeyRule,
    /// The first block's row and column (in blocks), and how many rows and columns.
    pub first: (u64, u64),
    /// Number of block rows and columns, as `(rows, cols)`.
    pub shape: (u64, u64),
    keys: Vec<u32>,
}

impl PooledRegion {
    /// Cells a block covers along one side.
    pub fn block(&self) -> u64 {
        TileKey::block_of(self.level)
    }

    /// The key of block (`bi`, `bj`) (in blocks), [`NOT_COMPUTED`] outside the region.
    pub fn key(&self, bi: u64, bj: u64) -> u32 {
        let (i, j) = (bi.wrapping_sub(self.first.0), bj.wrapping_sub(self.first.1));
        if i < self.shape.0 && j < self.shape.1 {
            self.keys[(i * self.shape.1 + j) as usize]
        } else {
            NOT_COMPUTED
        }
    }

    /// The keys, row by row.
    pub fn keys(&self) -> &[u32] {
        &self.keys
    }

    /// Blocks not held.
    pub fn missing(&self) -> usize {
        self.keys.iter().filter(|&&k| k == NOT_COMPUTED).count()
    }

    /// The cells of the smallest rectangle of blocks holding every block not held.
    pub fn missing_cells(&self) -> Option<CellRect> {
        let s = self.block();
        let mut span: Option<(u64, u64, u64, u64)> = None;
        for (n, _) in self.keys.iter().enumerate().filter(|(_, k)| **k == NOT_COMPUTED) {
            let (i, j) = (n as u64 / self.shape.1, n as u64 % self.shape.1);
            span = Some(span.map_or((i, i, j, j), |(i0, i1, j0, j1)| {
                (i0.min(i), i1.max(i), j0.min(j), j1.max(j))
            }));
        }
        span.map(|(i0, i1, j0, j1)| {
            CellRect::new(
                (self.first.0 + i0) * s..(self.first.0 + i1 + 1) * s,
                (self.first.1 + j0) * s..(self.first.1 + j1 + 1) * s,
            )
        })
    }

    /// Pools the blocks not held from `grid`, the values of [`PooledRegion::missing_cells`]
    /// (exact values: residues of values past 32 bits stay exact).
    pub fn fill_missing(&mut self, grid: &Grid) {
        let s = self.block();
        let mut keys = Vec::new();
        for n in 0..self.keys.len() {
            if self.keys[n] != NOT_COMPUTED {
                continue;
            }
            let (bi, bj) = (
                self.first.0 + n as u64 / self.shape.1,
                self.first.1 + n as u64 % self.shape.1,
            );
            keys.clear();
            for a in bi * s..(bi + 1) * s {
                keys.extend((bj * s..(bj + 1) * s).map(|b| self.rule.key_wide(grid.get_wide(a, b), None)));
            }
            self.keys[n] = self.rule.pool(&mut keys);
        }
    }
}

impl TileStore {
    /// The blocks of `level` covering `region` as the tiles hold them (`None`: more than
    /// [`MAX_BLOCKS`] of them).
    pub fn pooled_region(&self, level: u8, region: &CellRect) -> Option<PooledRegion> {
        let s = TileKey::block_of(level);
        let blocks = region.align_out(s);
        let first = (blocks.rows.start / s, blocks.cols.start / s);
        let shape = (
            (blocks.rows.end - blocks.rows.start) / s,
            (blocks.cols.end - blocks.cols.start) / s,
        );
        if region.is_empty() || shape.0.saturating_mul(shape.1) > MAX_BLOCKS {
            return None;
        }
        let mut keys = Vec::with_capacity((shape.0 * shape.1) as usize);
        for bi in first.0..first.0 + shape.0 {
            let mut last: Option<(TileKey, Option<&super::Tile>)> = None;
            for bj in first.1..first.1 + shape.1 {
                let key = TileKey::at(level, bi * s, bj * s);
                let tile = match last {
                    Some((k, t)) if k == key => t,
                    _ => self.tile(key),
                };
                last = Some((key, tile));
                let span = key.cells();
                keys.push(tile.map_or(NOT_COMPUTED, |t| {
                    t.key(
                        ((bi * s - span.rows.start) / s) as usize,
                        ((bj * s - span.cols.start) / s) as usize,
                    )
                }));
            }
        }
        Some(PooledRegion {
            level,
            rule: self.rule(),
            first,
            shape,
            keys,
        })
    }

    /// The region's blocks from the finest level whose tiles hold every one of them, else from
    /// `fallback`'s (the level the window draws) if they hold some; `None` if neither.
    pub fn best_pooled_region(&self, region: &CellRect, fallback: u8) -> Option<PooledRegion> {
        let mut partial = None;
        for level in 0..=super::MAX_LEVEL {
            let s = TileKey::block_of(level);
            let blocks = region.align_out(s).len() / (s * s);
            if blocks > MAX_BLOCKS {
                continue;
            }
            let Some(p) = self.pooled_region(level, region) else {
                continue;
            };
            let missing = p.missing();
            if missing == 0 {
                return Some(p);
            }
            if level == fallback && missing < p.keys.len() {
                partial = Some(p);
            }
        }
        partial
    }
}

/// Whether `key` of a region's block is a value above `top` (a Grundy colour clipped).
pub fn above(key: u32, top: u32) -> bool {
    key > top && key < NO_POSITION
}
