//! Pooling a region's cells into the tiles of one level, stage by stage as a [`TileSource`]
//! finishes them: a [`PoolJob`] keeps one accumulator per block of the region (the least key
//! seen so far) and hands out a tile as soon as more of its blocks are final.
//!
//! A symmetric source holds only the triangle b ≤ a; a row `a` of it is read once, as row `a`
//! of the map and (mirrored) as column `a`, so every read is contiguous.

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

    /// Counts the values of `region` for the colour range instead of the view's (the
    /// session's region, which a figure of the session takes its top from). Its cells inside
    /// the job's region are counted as they are pooled; those outside it by
    /// [`PoolJob::count_rest`], once the source has filled them.
    pub fn count_over(mut self, region: CellRect) -> Self {
        self.counted = region;
        self
    }

    /// The counted region's cells the pooled region does not hold (to be filled, then
    /// counted by [`PoolJob::count_rest`]): `None` when it holds them all.
    pub fn uncounted(&self) -> Option<&CellRect> {
        (self.counted.intersect(&self.region) != self.counted).then_some(&self.counted)
    }

    /// Counts the cells of the counted region outside the pooled region, from `source`
    /// (which has filled them).
    pub fn count_rest(&mut self, source: &TileSource, control: &Control) -> Result<(), SolveError> {
        let counted = self.counted.clone();
        let symmetric = source.is_symmetric();
        let mut row = Vec::new();
        for a in counted.rows.clone() {
            if a % 64 == 0 {
                control.check()?;
            }
            // the columns of row a the pooling did not read: all of them, or those either
            // side of the pooled region's
            let inside = self.region.rows.contains(&a);
            let parts = if inside {
                [
                    counted.cols.start..self.region.cols.start.clamp(counted.cols.start, counted.cols.end),
                    self.region.cols.end.clamp(counted.cols.start, counted.cols.end)..counted.cols.end,
                ]
            } else {
                [counted.cols.clone(), 0..0]
            };
            for cols in parts.into_iter().filter(|c| !c.is_empty()) {
                if symmetric {
                    for b in cols {
                        let v = source.value(a.max(b), a.min(b));
                        if v != NONE {
                            self.counts.add(v.min(NO_POSITION - 1));
                        }
                    }
                } else {
                    source.read_row_wide(a, cols, &mut row);
                    for &v in row.iter().filter(|&&v| v != u64::MAX) {
                        self.counts.add(v.min(u64::from(NO_POSITION - 1)) as u32);
                    }
                }
            }
        }
        Ok(())
    }

    /// The region whose values [`PoolJob::counts`] counts.
    pub fn counted(&self) -> &CellRect {
        &self.counted
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

    /// The values of the counted cells (the view's, unless [`PoolJob::count_over`] said
    /// otherwise) read so far.
    pub fn counts(&self) -> &ValueCounts {
        &self.counts
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

    /// Under a rule that counts ([`KeyRule::MostCommon`]), the key of each block that became
    /// final since the edges were `before` (final square, final rows), counted from its cells.
    fn count_blocks(&mut self, source: &TileSource, before: (u64, u64), control: &Control) -> Result<(), SolveError> {
        let symmetric = source.is_symmetric();
        let s = TileKey::block_of(self.level);
        let (r0, c0) = self.first;
        let was_final = |bi: u64, bj: u64| {
            let (a_end, b_end) = ((bi + 1) * s, (bj + 1) * s);
            if symmetric {
                a_end <= before.0 && b_end <= before.0
            } else {
                a_end <= before.1
            }
        };
        let mut keys = Vec::with_capacity((s * s).min(1 << 20) as usize);
        let mut row = Vec::new();
        for bi in r0..r0 + self.shape.0 as u64 {
            control.check()?;
            for bj in c0..c0 + self.shape.1 as u64 {
                if !self.is_final(symmetric, bi, bj) || was_final(bi, bj) {
                    continue;
                }
                keys.clear();
                for a in bi * s..(bi + 1) * s {
                    if symmetric {
                        // the source holds the triangle b ≤ a
                        keys.extend((bj * s..(bj + 1) * s).map(|b| {
                            let v = source.value(a.max(b), a.min(b));
                            self.rule.key(wide(v).map(|v| v as u32), None)
                        }));
                    } else {
                        source.read_row_wide(a, bj * s..(bj + 1) * s, &mut row);
                        keys.extend(
                            row.iter()
                                .map(|&v| self.rule.key_wide((v != u64::MAX).then_some(v), None)),
                        );
                    }
                }
                let i = self.slot(bi * s, bj * s);
                self.acc[i] = self.rule.pool(&mut keys);
            }
        }
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
mod tests {
    use super::*;
    use crate::game::{Layout, Ruleset};
    use crate::solver::grid::grid;
    use crate::solver::tiles::{TileStore, combine};

    /// Fills `view` of `rules` at `level` through a source and a pool job, into a store.
    fn pooled(rules: &str, slice: Option<&str>, rule: KeyRule, level: u8, view: CellRect) -> (TileStore, Option<u32>) {
        let r: Ruleset = rules.parse().unwrap();
        let layout = slice.map_or(Layout::Plain, |s| Layout::parse_slice(s).unwrap());
        let mut source = TileSource::new_for(&r, &layout, rule == KeyRule::Outcome);
        let tiles = TileKey::covering(level, &view, (0.0, 0.0));
        let mut job = PoolJob::new(level, rule, view.clone(), tiles);
        let mut store = TileStore::new(u64::MAX);
        let c = Control::new();
        let region = job.region().clone();
        source
            .fill(&region, &c, &mut |s, stage| {
                for (k, t) in job.absorb(s, &Compare::Nothing, stage, &c)? {
                    store.insert(k, &t);
                }
                Ok(())
            })
            .unwrap();
        (store, job.max_value())
    }

    /// The values counted for the colour range are those of the region asked for, whether it
    /// lies inside the view, overlaps it or holds it, for a symmetric source (Wythoff), a
    /// closed form (Euclid) and a slice: the counts of the plain grid over that region.
    #[test]
    fn the_colour_range_counts_the_region_asked_for() {
        let c = Control::new();
        for (rules, slice, view, counted) in [
            (
                "wythoff",
                None,
                CellRect::new(0..300, 0..400),
                CellRect::new(0..200, 0..200),
            ),
            (
                "wythoff",
                None,
                CellRect::new(50..300, 0..400),
                CellRect::new(0..500, 100..600),
            ),
            (
                "euclid",
                None,
                CellRect::new(10..300, 20..400),
                CellRect::new(0..900, 0..700),
            ),
            (
                "zeruclid",
                Some("1,_,_"),
                CellRect::new(0..40, 0..60),
                CellRect::new(10..90, 5..70),
            ),
        ] {
            let r: Ruleset = rules.parse().unwrap();
            let layout = slice.map_or(Layout::Plain, |s| Layout::parse_slice(s).unwrap());
            let mut source = TileSource::new(&r, &layout);
            let tiles = TileKey::covering(1, &view, (0.0, 0.0));
            let mut job = PoolJob::new(1, KeyRule::Value, view.clone(), tiles).count_over(counted.clone());
            let region = job.region().clone();
            source
                .fill(&region, &c, &mut |s, stage| {
                    job.absorb(s, &Compare::Nothing, stage, &c).map(drop)
                })
                .unwrap();
            if let Some(rest) = job.uncounted().cloned() {
                source.fill(&rest, &c, &mut |_, _| Ok(())).unwrap();
                job.count_rest(&source, &c).unwrap();
            }
            let g = grid(&r, &layout, counted.rows.clone(), counted.cols.clone(), &c).unwrap();
            let want = ValueCounts::of(g.rows_iter().flat_map(|(_, row)| row.into_iter().flatten()));
            assert_eq!(job.counts(), &want, "{rules} {view:?} counting {counted:?}");
        }
    }

    /// A block's key from its cells' keys, counted plainly: the least, the greatest, or the
    /// most common (ties: the least) position's key.
    fn brute_pool(rule: KeyRule, keys: impl Iterator<Item = u32>) -> u32 {
        let keys: Vec<u32> = keys.collect();
        let positions = keys.iter().copied().filter(|&k| k != NO_POSITION);
        match rule {
            KeyRule::Greatest => positions.max().unwrap_or(NO_POSITION),
            KeyRule::MostCommon => {
                let mut counts = std::collections::BTreeMap::new();
                for k in positions {
                    *counts.entry(k).or_insert(0u64) += 1;
                }
                let most = counts.values().copied().max().unwrap_or(0);
                counts
                    .iter()
                    .find(|(_, n)| **n == most)
                    .map_or(NO_POSITION, |(k, _)| *k)
            }
            _ => keys.into_iter().fold(NO_POSITION, combine),
        }
    }

    /// A level-0 tile keeps each cell's value (the readout's), mirrored cells included.
    fn values_kept(store: &TileStore, plain: &crate::solver::grid::Grid, region: &CellRect, rules: &str) {
        for a in region.rows.clone() {
            for b in region.cols.clone() {
                let want = plain.get_wide(a, b).map(|v| v.min(u64::from(NO_POSITION - 1)) as u32);
                assert_eq!(store.get(a, b), Some(want), "{rules} ({a}, {b}): the value kept");
            }
        }
    }

    /// Every pooled cell is its block's key in the plain grid (a brute force over the block:
    /// the least, greatest or most common), every cell of the view is covered, and the scale
    /// is the view's maximum.
    #[test]
    fn pooled_tiles_hold_the_least_key_of_their_blocks() {
        let c = Control::new();
        for (rules, slice, rule, level, view) in [
            ("wythoff", None, KeyRule::Value, 0, CellRect::new(0..300, 0..300)),
            ("wythoff", None, KeyRule::Value, 2, CellRect::new(5..1030, 3..700)),
            ("wythoff", None, KeyRule::MostCommon, 2, CellRect::new(5..1030, 3..700)),
            ("euclid", None, KeyRule::Greatest, 3, CellRect::new(0..900, 40..700)),
            (
                "zeruclid",
                Some("1,_,_"),
                KeyRule::MostCommon,
                2,
                CellRect::new(3..70, 0..90),
            ),
            (
                "zeruclid",
                Some("1,_,_"),
                KeyRule::Greatest,
                1,
                CellRect::new(0..70, 0..90),
            ),
            (
                "euclid",
                None,
                KeyRule::MostCommon,
                1,
                CellRect::new(1_000_000..1_000_300, 1_618_000..1_618_200),
            ),
            (
                "wythoff",
                None,
                KeyRule::Residue(4),
                3,
                CellRect::new(900..2100, 17..2000),
            ),
            ("euclid", None, KeyRule::Value, 1, CellRect::new(100..700, 300..900)),
            // far from the origin, from the closed form
            (
                "euclid",
                None,
                KeyRule::Residue(3),
                2,
                CellRect::new(
                    1_000_000_000_000..1_000_000_000_600,
                    1_618_033_988_500..1_618_033_989_000,
                ),
            ),
            (
                "nim",
                None,
                KeyRule::Value,
                0,
                CellRect::new(1 << 40..(1 << 40) + 300, 5..300),
            ),
            // values past 32 bits: residues of the exact values
            (
                "nim",
                None,
                KeyRule::Residue(7),
                0,
                CellRect::new(5..300, (1 << 40) + 3..(1 << 40) + 200),
            ),
            (
                "euclid",
                None,
                KeyRule::Residue(5),
                1,
                CellRect::new(1..200, 1_000_000_000_000..1_000_000_000_300),
            ),
            ("grossman", None, KeyRule::Value, 2, CellRect::new(0..600, 0..600)),
            // level 0 under residues: the tiles keep the values too, mirrored ones included
            ("wythoff", None, KeyRule::Residue(3), 0, CellRect::new(3..300, 0..260)),
            ("euclid", None, KeyRule::Residue(2), 0, CellRect::new(0..200, 50..300)),
            ("fibonacci-nim", None, KeyRule::Value, 1, CellRect::new(0..300, 0..400)),
            (
                "zeruclid",
                Some("1,_,_"),
                KeyRule::Value,
                1,
                CellRect::new(0..70, 0..90),
            ),
            (
                "sum(sub(1,2),tag(3))",
                None,
                KeyRule::Residue(2),
                2,
                CellRect::new(3..500, 0..300),
            ),
        ] {
            let r: Ruleset = rules.parse().unwrap();
            let layout = slice.map_or(Layout::Plain, |s| Layout::parse_slice(s).unwrap());
            let (store, max) = pooled(rules, slice, rule, level, view.clone());
            let s = TileKey::block_of(level);
            let region = view.align_out(s);
            let plain = grid(&r, &layout, region.rows.clone(), region.cols.clone(), &c).unwrap();
            let mut want_max = None;
            for a in view.rows.clone() {
                for b in view.cols.clone() {
                    if let Some(v) = plain.get(a, b) {
                        want_max = want_max.max(Some(v));
                    }
                }
            }
            assert_eq!(max, want_max, "{rules}: the view's largest value");
            if level == 0 {
                values_kept(&store, &plain, &region, rules);
            }
            for bi in region.rows.start / s..region.rows.end / s {
                for bj in region.cols.start / s..region.cols.end / s {
                    let keys = (bi * s..(bi + 1) * s)
                        .flat_map(|a| (bj * s..(bj + 1) * s).map(move |b| (a, b)))
                        .map(|(a, b)| rule.key_wide(plain.get_wide(a, b), None));
                    let want = brute_pool(rule, keys);
                    assert_eq!(
                        store.key(level, bi * s, bj * s),
                        Some(want),
                        "{rules} L{level} block ({bi}, {bj})"
                    );
                }
            }
        }
    }

    /// Wythoff's P-positions pooled as outcomes, near the origin (the zeros of the filled map)
    /// and at 10¹² (the pairs (⌊nφ⌋, ⌊nφ⌋ + n), by the defining inequality of ⌊nφ⌋); a cell's
    /// readout is its value where the outcome gives it (0 at a P-position) and not computed
    /// elsewhere, and a source of outcomes serves no map of values.
    #[test]
    fn wythoff_outcome_tiles_anywhere() {
        let c = Control::new();
        let r = Ruleset::Wythoff;
        let near = grid(&r, &Layout::Plain, 0..300, 0..300, &c).unwrap();
        let (an, bn) = crate::game::theory::wythoff_pair(618_033_988_749);
        let far = CellRect::new(an - 100..an + 100, bn - 150..bn + 150);
        let p_by_inequality = |a: u64, b: u64| {
            let (lo, hi) = (i128::from(a.min(b)), i128::from(a.max(b)));
            let n = hi - lo;
            let f = |m: i128| m * m - m * n - n * n;
            f(lo) < 0 && f(lo + 1) > 0
        };
        for (view, level) in [(CellRect::new(0..300, 0..300), 0), (far.clone(), 0), (far.clone(), 2)] {
            let (store, _) = pooled("wythoff", None, KeyRule::Outcome, level, view.clone());
            let s = TileKey::block_of(level);
            let region = view.align_out(s);
            for bi in region.rows.start / s..region.rows.end / s {
                for bj in region.cols.start / s..region.cols.end / s {
                    let cells = || (bi * s..(bi + 1) * s).flat_map(|a| (bj * s..(bj + 1) * s).map(move |b| (a, b)));
                    let p = if view.rows.start == 0 {
                        cells().any(|(a, b)| near.get(a, b) == Some(0))
                    } else {
                        cells().any(|(a, b)| p_by_inequality(a, b))
                    };
                    assert_eq!(
                        store.key(level, bi * s, bj * s),
                        Some(u32::from(!p)),
                        "L{level} ({bi},{bj})"
                    );
                    if level == 0 {
                        let want = if p { Some(Some(0)) } else { None };
                        assert_eq!(store.get(bi, bj), want, "readout at ({bi},{bj})");
                    }
                }
            }
        }
        let outcomes = TileSource::new_for(&r, &Layout::Plain, true);
        assert!(outcomes.outcome_only());
        assert!(outcomes.serves(&r, &Layout::Plain, true));
        assert!(!outcomes.serves(&r, &Layout::Plain, false));
        let values = TileSource::new(&r, &Layout::Plain);
        assert!(!values.serves(&r, &Layout::Plain, true));
        // a ruleset whose values have a closed form: one source for both
        let euclid: Ruleset = "euclid".parse().unwrap();
        assert!(TileSource::new(&euclid, &Layout::Plain).serves(&euclid, &Layout::Plain, true));
    }
}
