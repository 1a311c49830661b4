//! What a [`PoolJob`] counts besides its tiles: the values of the colour range's region (the
//! view's, or the session's when a figure takes its top from there, [`PoolJob::count_over`]),
//! and under [`MostCommon`](crate::solver::tiles::KeyRule::MostCommon) each block's most
//! common key, counted from its cells once the block is final.

use super::{PoolJob, wide};
use crate::solver::control::{Control, SolveError};
use crate::solver::grid::NONE;
use crate::solver::tiles::source::TileSource;
use crate::solver::tiles::{CellRect, NO_POSITION, TileKey, ValueCounts};

impl PoolJob {
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

    /// The values of the counted cells (the view's, unless [`PoolJob::count_over`] said
    /// otherwise) read so far.
    pub fn counts(&self) -> &ValueCounts {
        &self.counts
    }

    /// Under a rule that counts ([`MostCommon`](crate::solver::tiles::KeyRule::MostCommon)),
    /// the key of each block that became final since the edges were `before` (final square,
    /// final rows), counted from its cells.
    pub(super) fn count_blocks(
        &mut self,
        source: &TileSource,
        before: (u64, u64),
        control: &Control,
    ) -> Result<(), SolveError> {
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
}
