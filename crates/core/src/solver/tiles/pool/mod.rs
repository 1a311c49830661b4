//! Pooling a region's cells into the tiles of one level, stage by stage as a [`TileSource`]
//! finishes them: a [`PoolJob`] keeps one accumulator per block of the region (the least key
//! seen so far) and hands out a tile as soon as more of its blocks are final.
//!
//! A symmetric source holds only the triangle b ≤ a; a row `a` of it is read once, as row `a`
//! of the map and (mirrored) as column `a`, so every read is contiguous.
//!
//! What the job counts besides its tiles (the colour range's values, the most common key of a
//! block) lives in `count.rs`.

mod count;

use std::sync::Arc;

use super::absorb;
use super::source::{Compare, Stage, TileSource};
use super::{CellRect, KeyRule, NO_POSITION, TILE, Tile, TileKey, ValueCounts};
use crate::solver::control::{Control, SolveError};
use crate::solver::grid::NONE;

/// A source's value as an exact one (`None`: not a position).
#[inline]
fn wide(v: u32) -> Option<u64> {
    (v != NONE).then_some(u64::from(v))
}

/// The tiles of one level over one view, filled as the source's stages come.
pub struct PoolJob {
    level: u8,
    rule: KeyRule,
    /// The view, exactly (the colour scale's largest value is taken over it).
    view: CellRect,
    /// The view grown to whole blocks: the cells read.
    region: CellRect,
    /// The tiles to hand out (others in the region are read only for the scale).
    tiles: Vec<TileKey>,
    /// Blocks of the region: the first block's row and column, and how many.
    first: (u64, u64),
    shape: (usize, usize),
    /// The least key seen in each block of the region (row-major), and at level 0 under a
    /// rule whose keys are not values, the values.
    acc: Vec<u32>,
    values: Option<Vec<u32>>,
    /// Cells with max(a, b) below this are read (symmetric source), or rows of the region
    /// below this (any other).
    final_square: u64,
    final_rows: u64,
    /// Final blocks already handed out, per tile.
    handed: Vec<u64>,
    /// The largest value of a view cell read so far.
    max: Option<u32>,
    /// The cells whose values are counted for the colour range's automatic top: the view, or
    /// the region a figure of the session shows ([`PoolJob::count_over`]).
    counted: CellRect,
    /// The values of the counted cells read so far.
    counts: ValueCounts,
    scratch: Vec<u32>,
    wide: Vec<u64>,
    /// Whether the source's numbers are outcomes alone: an N-position's value is not known.
    outcome_only: bool,
}

impl PoolJob {
    /// A job pooling `view` at `level` by `rule`, handing out `tiles` (tiles of `level`).
    pub fn new(level: u8, rule: KeyRule, view: CellRect, tiles: Vec<TileKey>) -> Self {
        let block = TileKey::block_of(level);
        let region = view.align_out(block);
        let first = (region.rows.start / block, region.cols.start / block);
        let shape = (
            ((region.rows.end - region.rows.start) / block) as usize,
            ((region.cols.end - region.cols.start) / block) as usize,
        );
        let n = shape.0 * shape.1;
        let handed = vec![0; tiles.len()];
        Self {
            level,
            rule,
            region,
            tiles,
            first,
            shape,
            acc: vec![NO_POSITION; n],
            values: (level == 0 && !rule.keys_are_values()).then(|| vec![NO_POSITION; n]),
            final_square: 0,
            final_rows: 0,
            handed,
            max: None,
            counted: view.clone(),
            view,
            counts: ValueCounts::default(),
            scratch: Vec::new(),
            wide: Vec::new(),
            outcome_only: false,
        }
    }

    /// The cells the job reads: the view grown to whole blocks.
    pub fn region(&self) -> &CellRect {
        &self.region
    }

    /// The largest value among the view's cells read so far (all of them once the source's
    /// fill of the region has returned).
    pub fn max_value(&self) -> Option<u32> {
        self.max
    }

    /// Bytes the job's accumulators take (for the memory budget).
    pub fn bytes(level: u8, view: &CellRect) -> u64 {
        view.align_out(TileKey::block_of(level)).len() / (1u64 << (2 * level as u32)) * 8
    }

    #[inline]
    fn slot(&self, a: u64, b: u64) -> usize {
        let l = self.level as u32;
        ((a >> l) - self.first.0) as usize * self.shape.1 + ((b >> l) - self.first.1) as usize
    }

    /// Takes in the cells `stage` finished, and returns the tiles that gained final blocks.
    pub fn absorb(
        &mut self,
        source: &TileSource,
        compare: &Compare,
        stage: Stage,
        control: &Control,
    ) -> Result<Vec<(TileKey, Arc<Tile>)>, SolveError> {
        self.outcome_only = source.outcome_only();
        let before = (self.final_square, self.final_rows);
        let compared = !matches!(compare, Compare::Nothing);
        match stage {
            Stage::Triangle(rows) => {
                let rows = rows.start..rows.end.min(self.region.rows.end.max(self.region.cols.end));
                if compared {
                    for a in rows.clone() {
                        if a % 64 == 0 {
                            control.check()?;
                        }
                        self.triangle_row(source, compare, a);
                    }
                } else {
                    self.on_every_core(source, rows.clone(), true, control)?;
                }
                self.final_square = self.final_square.max(rows.end);
            }
            Stage::Rows(rows) => {
                let rows = rows.start.max(self.region.rows.start)..rows.end.min(self.region.rows.end);
                if compared {
                    for a in rows.clone() {
                        if a % 64 == 0 {
                            control.check()?;
                        }
                        self.plain_row(source, compare, a);
                    }
                } else {
                    self.on_every_core(source, rows.clone(), false, control)?;
                }
                self.final_rows = self.final_rows.max(rows.end);
            }
        }
        if !self.rule.pools_by_combining() && self.level > 0 {
            self.count_blocks(source, before, control)?;
        }
        Ok(self.hand_out(source.is_symmetric()))
    }

    /// Pools rows `rows` of the region (of the triangle, if `triangle`) on every core (see
    /// [`absorb`]), nothing to compare with.
    fn on_every_core(
        &mut self,
        source: &TileSource,
        rows: std::ops::Range<u64>,
        triangle: bool,
        control: &Control,
    ) -> Result<(), SolveError> {
        let g = absorb::Geometry {
            level: self.level,
            rule: self.rule,
            first: self.first,
            width: self.shape.1,
            region: &self.region,
            view: &self.view,
            counted: &self.counted,
            outcome_only: self.outcome_only,
        };
        let tally = if triangle {
            absorb::triangle(&g, &mut self.acc, self.values.as_deref_mut(), source, rows, control)?
        } else {
            absorb::rows(&g, &mut self.acc, self.values.as_deref_mut(), source, rows, control)?
        };
        self.max = self.max.max(tally.max);
        self.counts.merge(&tally.counts);
        Ok(())
    }

    /// Row `a` of a symmetric source (cells (a, b), b ≤ a), as row `a` of the map and as
    /// column `a` (cells (b, a), b < a).
    fn triangle_row(&mut self, source: &TileSource, compare: &Compare, a: u64) {
        let r = self.region.clone();
        let direct = r
            .rows
            .contains(&a)
            .then(|| r.cols.start.min(a + 1)..r.cols.end.min(a + 1));
        let mirror = r.cols.contains(&a).then(|| r.rows.start.min(a)..r.rows.end.min(a));
        let lo = direct.iter().chain(&mirror).map(|x| x.start).min();
        let hi = direct.iter().chain(&mirror).map(|x| x.end).max();
        let (Some(lo), Some(hi)) = (lo, hi) else { return };
        if lo >= hi {
            return;
        }
        let mut row = std::mem::take(&mut self.scratch);
        source.read_row(a, lo..hi, &mut row);
        if let Some(cols) = direct {
            for b in cols {
                let v = row[(b - lo) as usize];
                self.take(a, b, wide(v), compare.value(a, b));
            }
        }
        if let Some(rows) = mirror {
            for b in rows {
                let v = row[(b - lo) as usize];
                self.take(b, a, wide(v), compare.value(b, a));
            }
        }
        self.scratch = row;
    }

    /// Row `a` of any source over the region's columns, exactly (values past 32 bits too).
    fn plain_row(&mut self, source: &TileSource, compare: &Compare, a: u64) {
        let cols = self.region.cols.clone();
        let mut row = std::mem::take(&mut self.wide);
        source.read_row_wide(a, cols.clone(), &mut row);
        for (b, &v) in cols.zip(&row) {
            self.take(a, b, (v != u64::MAX).then_some(v), compare.value(a, b));
        }
        self.wide = row;
    }

    /// One cell (a, b) of value `v` (`None`: not a position).
    #[inline]
    fn take(&mut self, a: u64, b: u64, wide: Option<u64>, other: Option<u32>) {
        let key = self.rule.key_wide(wide, other);
        // as the readout and the colour scale take it: values past 32 bits at the top
        let value = wide.map(|v| v.min(u64::from(NO_POSITION - 1)) as u32);
        let i = self.slot(a, b);
        self.acc[i] = self.rule.combine(self.acc[i], key);
        if let Some(values) = &mut self.values {
            values[i] = match value {
                // a P-position's value is 0; an N-position's is not known from its outcome
                Some(v) if self.outcome_only && v != 0 => super::NOT_COMPUTED,
                _ => KeyRule::Value.key(value, None),
            };
        }
        if let Some(v) = value {
            // an infinite value of a game that loops is off the scale
            if self.view.contains(a, b) && !crate::game::loopy::cells::is_infinite(v) {
                self.max = Some(self.max.map_or(v, |m| m.max(v)));
            }
            if self.counted.contains(a, b) {
                self.counts.add(v);
            }
        }
    }

    /// Whether every cell of the block (global block indices) is read.
    fn is_final(&self, symmetric: bool, bi: u64, bj: u64) -> bool {
        let s = TileKey::block_of(self.level);
        let (a_end, b_end) = ((bi + 1) * s, (bj + 1) * s);
        if symmetric {
            a_end <= self.final_square && b_end <= self.final_square
        } else {
            a_end <= self.final_rows
        }
    }

    /// The tiles with more final blocks than they had when last handed out.
    fn hand_out(&mut self, symmetric: bool) -> Vec<(TileKey, Arc<Tile>)> {
        let t = TILE;
        let (r0, c0) = self.first;
        let (nr, nc) = (self.shape.0 as u64, self.shape.1 as u64);
        let mut out = Vec::new();
        for (n, key) in self.tiles.iter().enumerate() {
            // the tile's blocks inside the region
            let rows = (key.row * t).max(r0)..((key.row + 1) * t).min(r0 + nr);
            let cols = (key.col * t).max(c0)..((key.col + 1) * t).min(c0 + nc);
            if rows.is_empty() || cols.is_empty() {
                continue;
            }
            let s = TileKey::block_of(self.level);
            let below = |r: &std::ops::Range<u64>, edge: u64| r.clone().filter(|&i| (i + 1) * s <= edge).count() as u64;
            let count = if symmetric {
                below(&rows, self.final_square) * below(&cols, self.final_square)
            } else {
                below(&rows, self.final_rows) * (cols.end - cols.start)
            };
            if count <= self.handed[n] {
                continue;
            }
            self.handed[n] = count;
            let mut tile = Tile::empty(self.values.is_some());
            for i in rows.clone() {
                for j in cols.clone() {
                    if !self.is_final(symmetric, i, j) {
                        continue;
                    }
                    let src = (i - r0) as usize * self.shape.1 + (j - c0) as usize;
                    let dst = ((i - key.row * t) * t + (j - key.col * t)) as usize;
                    tile.keys[dst] = self.acc[src];
                    if let (Some(v), Some(w)) = (tile.values.as_mut(), self.values.as_ref()) {
                        v[dst] = w[src];
                    }
                    tile.done += 1;
                }
            }
            out.push((*key, Arc::new(tile)));
        }
        out
    }
}

#[cfg(test)]
mod tests;
