//! Pooling a stage's cells into a [`super::PoolJob`]'s blocks on every core: the blocks are
//! split by rows of blocks, each written by one task, which reads its cells a row (or, for a
//! symmetric source, a segment of a row) at a time and folds each block's run of cells into
//! its key with the rule chosen once, not per cell. What the tasks count (the largest value of
//! the view, the values of the counted region) is merged at the end.
//!
//! The window's map spent most of its fill here, one cell at a time on one core: Euclid's view
//! 0..9000 (115 M cells) pooled in 4.3 s against a 2.1–2.9 s fill.

use std::ops::Range;

use rayon::prelude::*;

use super::source::TileSource;
use super::{CellRect, KeyRule, NO_POSITION, NOT_COMPUTED, ValueCounts};
use crate::solver::control::{Control, SolveError};

/// What a task needs to know of the job: where its blocks lie and what it counts.
pub(super) struct Geometry<'a> {
    pub level: u8,
    pub rule: KeyRule,
    /// The first block's row and column, and the blocks a row of blocks holds.
    pub first: (u64, u64),
    pub width: usize,
    /// The cells read (whole blocks), the view (its largest value) and the counted region.
    pub region: &'a CellRect,
    pub view: &'a CellRect,
    pub counted: &'a CellRect,
    /// The source's numbers are outcomes alone (an N-position's value is not known).
    pub outcome_only: bool,
}

/// What the tasks found besides the keys: the view's largest value and the counted values.
pub(super) struct Tally {
    pub max: Option<u32>,
    pub counts: ValueCounts,
}

impl Tally {
    fn new() -> Self {
        Self {
            max: None,
            counts: ValueCounts::default(),
        }
    }

    fn merge(mut self, other: Tally) -> Tally {
        self.max = self.max.max(other.max);
        self.counts.merge(&other.counts);
        self
    }
}

/// A value as the readout and the colour scale take it: values past 32 bits at the top.
#[inline]
fn clamped(v: u64) -> u32 {
    v.min(u64::from(NO_POSITION - 1)) as u32
}

/// The key of a run of cells (`u64::MAX`: not a position) under `rule` (not the difference
/// rule, which compares with a second map cell by cell).
#[inline]
fn run_key(rule: KeyRule, run: &[u64]) -> u32 {
    let positions = || run.iter().copied().filter(|&v| v != u64::MAX);
    let key = match rule {
        // the least value (a stand-in for the most common one until its block is counted)
        KeyRule::Value | KeyRule::MostCommon => run
            .iter()
            .copied()
            .min()
            .map(|v| if v == u64::MAX { NO_POSITION } else { clamped(v) }),
        KeyRule::Greatest => positions().max().map(clamped),
        KeyRule::Residue(k) => positions().map(|v| (v % u64::from(k.max(1))) as u32).min(),
        KeyRule::Outcome => positions().map(|v| u32::from(v != 0)).min(),
        KeyRule::Differ => None,
    };
    key.unwrap_or(NO_POSITION)
}

/// The value a level-0 tile keeps beside its key (a rule whose keys are not values): the value,
/// unknown for an N-position known by its outcome alone.
#[inline]
fn kept_value(v: u64, outcome_only: bool) -> u32 {
    match v {
        u64::MAX => NO_POSITION,
        v if outcome_only && v != 0 => NOT_COMPUTED,
        v => clamped(v),
    }
}

impl Geometry<'_> {
    /// Folds the cells `row` of row `a` (from column `start`, a block's first column) into the
    /// blocks of `acc` (a row of blocks) and, at level 0, `values`; counts them in `tally`.
    fn row(&self, acc: &mut [u32], values: Option<&mut [u32]>, tally: &mut Tally, a: u64, start: u64, row: &[u64]) {
        let s = 1usize << self.level;
        let j0 = ((start >> self.level) - self.first.1) as usize;
        for (slot, run) in acc[j0..].iter_mut().zip(row.chunks(s)) {
            *slot = self.rule.combine(*slot, run_key(self.rule, run));
        }
        if let Some(values) = values {
            for (slot, &v) in values[j0..].iter_mut().zip(row) {
                *slot = kept_value(v, self.outcome_only);
            }
        }
        let cells = start..start + row.len() as u64;
        // the cells of the row in `r`'s columns
        let part = |r: &CellRect| {
            let lo = r.cols.start.clamp(cells.start, cells.end);
            let hi = r.cols.end.clamp(lo, cells.end);
            &row[(lo - start) as usize..(hi - start) as usize]
        };
        if self.view.rows.contains(&a) {
            let m = part(self.view)
                .iter()
                .copied()
                .filter(|&v| v != u64::MAX)
                .max()
                .map(clamped);
            tally.max = tally.max.max(m);
        }
        if self.counted.rows.contains(&a) && !self.counted.cols.is_empty() {
            for &v in part(self.counted).iter().filter(|&&v| v != u64::MAX) {
                tally.counts.add(clamped(v));
            }
        }
    }

    /// The rows of map row block `br` (global index).
    fn block_rows(&self, br: u64) -> Range<u64> {
        (br << self.level).max(self.region.rows.start)..((br + 1) << self.level).min(self.region.rows.end)
    }
}

/// One task: a row of blocks (its global index), its accumulators and, at level 0, values.
type Task<'a> = (u64, &'a mut [u32], Option<&'a mut [u32]>);

/// The rows of blocks `blocks` (global indices) of `acc` and `values`, as tasks.
fn tasks<'a>(g: &Geometry, acc: &'a mut [u32], values: Option<&'a mut [u32]>, blocks: Range<u64>) -> Vec<Task<'a>> {
    tasks_from(g, g.first.0, acc, values, blocks)
}

/// The rows of blocks `blocks` (global indices) of `acc` and `values`, whose first row is
/// that of block `base`, as tasks.
fn tasks_from<'a>(
    g: &Geometry,
    base: u64,
    acc: &'a mut [u32],
    values: Option<&'a mut [u32]>,
    blocks: Range<u64>,
) -> Vec<Task<'a>> {
    let w = g.width.max(1);
    let span = (blocks.start - base) as usize * w..(blocks.end - base) as usize * w;
    let accs = acc[span.clone()].chunks_mut(w);
    let mut values = values.map(|v| v[span].chunks_mut(w));
    blocks
        .zip(accs)
        .map(|(br, a)| (br, a, values.as_mut().and_then(Iterator::next)))
        .collect()
}

/// Runs `task` on every task on every core; merges what they count.
fn run_tasks(
    control: &Control,
    tasks: Vec<Task<'_>>,
    task: impl Fn(Task<'_>, &mut Tally, &mut Vec<u64>) -> Result<(), SolveError> + Sync,
) -> Result<Tally, SolveError> {
    crate::solver::grid::direct::on_threads(control, || {
        tasks
            .into_par_iter()
            .try_fold(
                || (Tally::new(), Vec::new()),
                |(mut tally, mut row), t| {
                    control.check()?;
                    task(t, &mut tally, &mut row)?;
                    Ok((tally, row))
                },
            )
            .map(|r| r.map(|(tally, _)| tally))
            .try_reduce(Tally::new, |x, y| Ok(x.merge(y)))
    })
}

/// Folds rows `rows` of the region (every cell of them final) into the blocks.
pub(super) fn rows(
    g: &Geometry,
    acc: &mut [u32],
    values: Option<&mut [u32]>,
    source: &TileSource,
    rows: Range<u64>,
    control: &Control,
) -> Result<Tally, SolveError> {
    if rows.is_empty() {
        return Ok(Tally::new());
    }
    let blocks = rows.start >> g.level..((rows.end - 1) >> g.level) + 1;
    run_tasks(
        control,
        tasks(g, acc, values, blocks),
        |(br, acc, mut values), tally, row| {
            let mine = g.block_rows(br);
            for a in mine.start.max(rows.start)..mine.end.min(rows.end) {
                source.read_row_wide(a, g.region.cols.clone(), row);
                g.row(acc, values.as_deref_mut(), tally, a, g.region.cols.start, row);
            }
            Ok(())
        },
    )
}

/// Folds the cells of a symmetric source that rows `stage` of its triangle finished (every
/// cell (a, b) with max(a, b) in `stage`) into the blocks: row a of the triangle is row a of
/// the map up to the diagonal and, mirrored, column a (its cells (b, a), b < a). Both are
/// read a row of the triangle at a time, contiguously: the mirrored cells are pooled into a
/// transposed scratch (a row of it is a column of blocks, written by one task) and folded into
/// the blocks at the end. Reading the mirror as columns (a few cells of each of a stage's rows per row of
/// blocks) cost Wythoff's 4096 × 5843 view a third of its pooling.
pub(super) fn triangle(
    g: &Geometry,
    acc: &mut [u32],
    mut values: Option<&mut [u32]>,
    source: &TileSource,
    stage: Range<u64>,
    control: &Control,
) -> Result<Tally, SolveError> {
    let within = |r: &Range<u64>| stage.start.max(r.start)..stage.end.min(r.end).max(stage.start.max(r.start));
    // row a of the map, up to the diagonal
    let rows = within(&g.region.rows);
    let mut tally = Tally::new();
    if !rows.is_empty() {
        let blocks = rows.start >> g.level..((rows.end - 1) >> g.level) + 1;
        tally = run_tasks(
            control,
            tasks(g, acc, values.as_deref_mut(), blocks),
            |(br, acc, mut values), tally, row| {
                let mine = g.block_rows(br);
                for a in mine.start.max(rows.start)..mine.end.min(rows.end) {
                    let cols = g.region.cols.start.min(a + 1)..g.region.cols.end.min(a + 1);
                    if !cols.is_empty() {
                        source.read_row_wide(a, cols.clone(), row);
                        g.row(acc, values.as_deref_mut(), tally, a, cols.start, row);
                    }
                }
                Ok(())
            },
        )?;
    }
    // column b of the map off the triangle: row b of the triangle, cells (a, b), a < b
    let cols = within(&g.region.cols);
    if !cols.is_empty() {
        let mirrored = mirror(g, acc, values, source, cols, control)?;
        tally = tally.merge(mirrored);
    }
    Ok(tally)
}

/// The mirrored part of [`triangle`]: columns `cols` of the region, their cells (a, b) with
/// a < b, each column read as its row of the triangle and pooled into a transposed scratch,
/// then folded in.
fn mirror(
    g: &Geometry,
    acc: &mut [u32],
    values: Option<&mut [u32]>,
    source: &TileSource,
    cols: Range<u64>,
    control: &Control,
) -> Result<Tally, SolveError> {
    let transposed = |r: &CellRect| CellRect::new(r.cols.clone(), r.rows.clone());
    let (region, view, counted) = (transposed(g.region), transposed(g.view), transposed(g.counted));
    let height = ((g.region.rows.end - g.region.rows.start) >> g.level) as usize;
    let t = Geometry {
        first: (g.first.1, g.first.0),
        width: height,
        region: &region,
        view: &view,
        counted: &counted,
        ..*g
    };
    let blocks = cols.start >> g.level..((cols.end - 1) >> g.level) + 1;
    let n = (blocks.end - blocks.start) as usize * height;
    let mut acc_t = vec![NO_POSITION; n];
    let mut values_t = values.is_some().then(|| vec![NOT_COMPUTED; n]);
    let tally = run_tasks(
        control,
        tasks_from(&t, blocks.start, &mut acc_t, values_t.as_deref_mut(), blocks.clone()),
        |(bc, acc, mut values), tally, row| {
            let mine = t.block_rows(bc);
            for b in mine.start.max(cols.start)..mine.end.min(cols.end) {
                let rows = region.cols.start.min(b)..region.cols.end.min(b);
                if !rows.is_empty() {
                    source.read_row_wide(b, rows.clone(), row);
                    t.row(acc, values.as_deref_mut(), tally, b, rows.start, row);
                }
            }
            Ok(())
        },
    )?;
    // the scratch's row k is the region's column of blocks `blocks.start + k`
    let w = g.width.max(1);
    for (k, bc) in blocks.clone().enumerate() {
        let j = (bc - g.first.1) as usize;
        for (i, &key) in acc_t[k * height..(k + 1) * height].iter().enumerate() {
            acc[i * w + j] = g.rule.combine(acc[i * w + j], key);
        }
    }
    if let (Some(values), Some(values_t)) = (values, values_t) {
        // level 0: a block is a cell, the scratch's row b − blocks.start is column b; its cells
        // (a, b) with a < b were read
        for b in cols {
            let (k, j) = ((b - blocks.start) as usize, (b - g.first.1) as usize);
            let above = g.region.rows.start.min(b)..g.region.rows.end.min(b);
            for a in above {
                let i = (a - g.first.0) as usize;
                values[i * w + j] = values_t[k * height + i];
            }
        }
    }
    Ok(tally)
}
