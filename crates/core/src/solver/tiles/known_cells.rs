//! A region's exact cell values as the window's level-0 tiles hold them ([`KnownCells`]),
//! handed to a CSV export so that it writes what the map has filled and computes only the
//! cells the tiles lack ([`KnownCells::csv`]), through the same engine as `nimscope grid`.
//!
//! Only exact values are taken: a cell the tiles know by its outcome alone (Wythoff's
//! N-positions far out), or whose value they keep saturated at the top of the colour scale,
//! counts as missing and is computed, so the text is the one a fill from nothing gives.

use std::fmt;

use super::{CellRect, NO_POSITION, NOT_COMPUTED, TileStore};
use crate::game::{Layout, Ruleset};
use crate::solver::control::{Control, SolveError};
use crate::solver::grid::{CellForm, Digits, Grid, Line, SATURATED, grid, grid_csv};

/// Most cells a region read from the tiles may have (4 bytes each).
pub const MAX_CELLS: u64 = 1 << 24;

/// Most rectangles the missing cells are computed in (more: their bounding rectangle).
const MAX_RECTS: usize = 4096;

/// The cells of a region, each its exact value as the level-0 tiles hold it: a value, not a
/// position ([`NO_POSITION`]), or not held exactly ([`NOT_COMPUTED`]).
#[derive(Clone, PartialEq)]
pub struct KnownCells {
    region: CellRect,
    values: Vec<u32>,
}

impl fmt::Debug for KnownCells {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KnownCells")
            .field("region", &self.region)
            .field("missing", &self.missing())
            .finish()
    }
}

impl KnownCells {
    /// The cells of `region`, none held (the values are set by [`TileStore::known_cells`]).
    fn empty(region: CellRect) -> Self {
        let n = region.len() as usize;
        Self {
            region,
            values: vec![NOT_COMPUTED; n],
        }
    }

    /// The cells these values cover.
    pub fn region(&self) -> &CellRect {
        &self.region
    }

    /// The value of cell (a, b) of the region as held: `Some(Some(v))`, `Some(None)` where it
    /// is not a position, `None` where it is not held exactly (or lies outside the region).
    pub fn get(&self, a: u64, b: u64) -> Option<Option<u32>> {
        if !self.region.contains(a, b) {
            return None;
        }
        match self.values[self.index(a, b)] {
            NOT_COMPUTED => None,
            NO_POSITION => Some(None),
            v => Some(Some(v)),
        }
    }

    fn index(&self, a: u64, b: u64) -> usize {
        let w = self.region.cols.end - self.region.cols.start;
        ((a - self.region.rows.start) * w + (b - self.region.cols.start)) as usize
    }

    /// Cells not held exactly.
    pub fn missing(&self) -> u64 {
        self.values.iter().filter(|&&v| v == NOT_COMPUTED).count() as u64
    }

    /// Cells held exactly.
    pub fn held(&self) -> u64 {
        self.values.len() as u64 - self.missing()
    }

    /// The runs of missing columns of row `a`.
    fn missing_runs(&self, a: u64) -> Vec<std::ops::Range<u64>> {
        let start = self.index(a, self.region.cols.start);
        let row = &self.values[start..start + (self.region.cols.end - self.region.cols.start) as usize];
        let mut runs: Vec<std::ops::Range<u64>> = Vec::new();
        for (b, &v) in self.region.cols.clone().zip(row) {
            if v != NOT_COMPUTED {
                continue;
            }
            match runs.last_mut() {
                Some(r) if r.end == b => r.end = b + 1,
                _ => runs.push(b..b + 1),
            }
        }
        runs
    }

    /// Rectangles holding exactly the missing cells: each row's runs of missing columns,
    /// merged with the rows above while they have the same runs.
    pub fn missing_rects(&self) -> Vec<CellRect> {
        let mut done: Vec<CellRect> = Vec::new();
        let mut open: Vec<CellRect> = Vec::new();
        for a in self.region.rows.clone() {
            let runs = self.missing_runs(a);
            if open.len() == runs.len() && open.iter().zip(&runs).all(|(r, c)| r.cols == *c) {
                open.iter_mut().for_each(|r| r.rows.end = a + 1);
            } else {
                done.append(&mut open);
                open = runs.into_iter().map(|c| CellRect::new(a..a + 1, c)).collect();
            }
        }
        done.append(&mut open);
        done
    }

    /// The smallest rectangle holding every missing cell.
    pub fn missing_span(&self) -> Option<CellRect> {
        self.missing_rects().into_iter().reduce(|x, y| {
            CellRect::new(
                x.rows.start.min(y.rows.start)..x.rows.end.max(y.rows.end),
                x.cols.start.min(y.cols.start)..x.cols.end.max(y.cols.end),
            )
        })
    }

    /// The rectangles the missing cells are computed in: exactly theirs where every cell has a
    /// closed form (each cell computed alone), else their bounding rectangle (a fill from the
    /// origin computes everything below its far corner anyway: one fill, not one per part).
    pub fn rects_to_compute(&self, ruleset: &Ruleset, layout: &Layout) -> Vec<CellRect> {
        let rects = self.missing_rects();
        if CellForm::of(ruleset, layout).is_some() && rects.len() <= MAX_RECTS {
            rects
        } else {
            self.missing_span().into_iter().collect()
        }
    }

    /// The CSV text of the region (the format of `nimscope grid`), the held values written as
    /// they are and the missing cells computed by [`grid`] over [`KnownCells::rects_to_compute`];
    /// with the number of cells computed. A fill from the origin that would reach the region's
    /// far corner anyway computes the whole region instead (the same values, one fill).
    pub fn csv(&self, ruleset: &Ruleset, layout: &Layout, control: &Control) -> Result<(Vec<u8>, u64), SolveError> {
        let rects = self.rects_to_compute(ruleset, layout);
        let (rows, cols) = (&self.region.rows, &self.region.cols);
        let far_corner = CellForm::of(ruleset, layout).is_none()
            && rects.iter().any(|r| r.rows.end == rows.end && r.cols.end == cols.end);
        if far_corner {
            return Ok((
                grid_csv(ruleset, layout, rows.clone(), cols.clone(), control)?,
                self.region.len(),
            ));
        }
        let mut grids: Vec<Grid> = Vec::new();
        for r in rects {
            grids.push(grid(ruleset, layout, r.rows, r.cols, control)?);
            control.check()?;
        }
        let computed = grids
            .iter()
            .map(|g| CellRect::new(g.rows.clone(), g.cols.clone()).len())
            .sum();
        // rows are formatted a block at a time on every core, and joined in order
        use rayon::prelude::*;
        const BLOCK: u64 = 64;
        let digits = Digits::new();
        let starts: Vec<u64> = rows.clone().step_by(BLOCK as usize).collect();
        let blocks: Vec<Vec<u8>> = starts
            .into_par_iter()
            .map(|a0| {
                control.check()?;
                let mut out = Vec::new();
                for a in a0..(a0 + BLOCK).min(rows.end) {
                    self.write_row(a, &grids, &digits, &mut out)?;
                }
                Ok(out)
            })
            .collect::<Result<_, SolveError>>()?;
        Ok((blocks.concat(), computed))
    }

    /// Row `a` of the CSV text: the held values, and the missing ones from `grids`.
    fn write_row(&self, a: u64, grids: &[Grid], digits: &Digits, out: &mut Vec<u8>) -> Result<(), SolveError> {
        let in_row: Vec<&Grid> = grids.iter().filter(|g| g.rows.contains(&a)).collect();
        let start = self.index(a, self.region.cols.start);
        let width = (self.region.cols.end - self.region.cols.start) as usize;
        let mut line = Line::new(width);
        for (b, &held) in self.region.cols.clone().zip(&self.values[start..start + width]) {
            let value = match held {
                NOT_COMPUTED => in_row
                    .iter()
                    .find(|g| g.cols.contains(&b))
                    .ok_or_else(|| SolveError::Unsupported(format!("cell ({a}, {b}) was not computed")))?
                    .get_wide(a, b),
                NO_POSITION => None,
                v => Some(u64::from(v)),
            };
            match value {
                Some(v) => digits.push(&mut line, v),
                None => line.push_comma(),
            }
        }
        line.finish(width);
        out.extend_from_slice(line.text());
        Ok(())
    }
}

impl TileStore {
    /// The exact values of `region`'s cells as the level-0 tiles hold them (a value the tiles
    /// keep saturated, or know only by its outcome, is not held); `None` when the region has
    /// more than [`MAX_CELLS`] cells or none of them is held.
    pub fn known_cells(&self, region: &CellRect) -> Option<KnownCells> {
        if region.is_empty() || region.len() > MAX_CELLS {
            return None;
        }
        let mut known = KnownCells::empty(region.clone());
        let reader = self.reader();
        let mut n = 0;
        for a in region.rows.clone() {
            for b in region.cols.clone() {
                match reader.get(a, b) {
                    Some(Some(v)) if v < SATURATED => known.values[n] = v,
                    Some(None) => known.values[n] = NO_POSITION,
                    _ => {}
                }
                n += 1;
            }
        }
        (known.held() > 0).then_some(known)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::tiles::{KeyRule, TILE, Tile, TileKey};

    /// A store whose level-0 tiles hold the values of `g` at the cells `held` says.
    fn store_of(g: &Grid, held: impl Fn(u64, u64) -> bool) -> TileStore {
        let mut store = TileStore::new(u64::MAX);
        for key in TileKey::covering(0, &CellRect::new(g.rows.clone(), g.cols.clone()), (0.0, 0.0)) {
            let mut t = Tile::empty(false);
            let cells = key.cells();
            for (i, a) in cells.rows.clone().enumerate() {
                for (j, b) in cells.cols.clone().enumerate() {
                    if g.rows.contains(&a) && g.cols.contains(&b) && held(a, b) {
                        t.keys[i * TILE as usize + j] = KeyRule::Value.key(g.get(a, b), None);
                        t.done += 1;
                    }
                }
            }
            store.insert(key, &t);
        }
        store
    }

    fn csv_of(g: &Grid) -> Vec<u8> {
        let mut out = Vec::new();
        g.write_csv(&mut out).unwrap();
        out
    }

    /// The missing cells' rectangles cover exactly the missing cells, each once.
    #[test]
    fn the_rectangles_are_the_missing_cells() {
        let nim: Ruleset = "nim".parse().unwrap();
        let region = CellRect::new(3..70, 5..90);
        let g = grid(&nim, &Layout::Plain, 0..70, 0..90, &Control::new()).unwrap();
        let held = |a: u64, b: u64| (a * 7 + b * 3) % 11 < 6 || (a > 40 && b < 30);
        let known = store_of(&g, held).known_cells(&region).unwrap();
        let mut seen = std::collections::HashMap::new();
        for r in known.missing_rects() {
            for a in r.rows.clone() {
                for b in r.cols.clone() {
                    *seen.entry((a, b)).or_insert(0) += 1;
                }
            }
        }
        for a in region.rows.clone() {
            for b in region.cols.clone() {
                let want = u32::from(!held(a, b));
                assert_eq!(seen.get(&(a, b)).copied().unwrap_or(0), want, "({a}, {b})");
            }
        }
        assert_eq!(known.missing(), seen.len() as u64);
    }

    /// The CSV of a region partly held is the one `grid` writes from nothing: under a closed
    /// form only the missing cells are computed (counted by the engine's own progress), under
    /// a fill the rectangle holding them.
    #[test]
    fn a_partly_held_region_is_written_as_computed_from_nothing() {
        for (rules, closed) in [("nim", true), ("euclid", true), ("wythoff", false)] {
            let r: Ruleset = rules.parse().unwrap();
            let region = CellRect::new(10..300, 20..280);
            let full = grid(
                &r,
                &Layout::Plain,
                region.rows.clone(),
                region.cols.clone(),
                &Control::new(),
            )
            .unwrap();
            // the map filled a square of the origin and a strip far out
            let held = |a: u64, b: u64| (a < 150 && b < 200) || a >= 290;
            let store = store_of(&full, held);
            let known = store.known_cells(&region).unwrap();
            let control = Control::new();
            let (text, computed) = known.csv(&r, &Layout::Plain, &control).unwrap();
            assert_eq!(text, csv_of(&full), "{rules}");
            let missing = region.len() - 140 * 180 - 10 * 260;
            assert_eq!(known.missing(), missing, "{rules}");
            if closed {
                assert_eq!((computed, control.progress().0), (missing, missing), "{rules}");
            } else {
                assert_eq!(known.rects_to_compute(&r, &Layout::Plain).len(), 1, "{rules}");
                assert_eq!(computed, CellRect::new(10..290, 20..280).len(), "{rules}");
                // missing cells at the far corner: the fill reaches it anyway, one fill of all
                let known = store_of(&full, |a, _| a < 150).known_cells(&region).unwrap();
                let (text, computed) = known.csv(&r, &Layout::Plain, &Control::new()).unwrap();
                assert_eq!((text, computed), (csv_of(&full), region.len()), "{rules}");
            }
        }
    }

    /// A value the tiles keep saturated, or know by its outcome alone, is not taken.
    #[test]
    fn only_exact_values_are_held() {
        let mut store = TileStore::new(u64::MAX);
        let mut t = Tile::empty(false);
        t.keys[0] = SATURATED;
        t.keys[1] = 7;
        t.keys[2] = NO_POSITION;
        t.done = 3;
        store.insert(TileKey::of_cell(0, 0), &t);
        let known = store.known_cells(&CellRect::new(0..1, 0..4)).unwrap();
        assert_eq!(
            (0..4).map(|b| known.get(0, b)).collect::<Vec<_>>(),
            [None, Some(Some(7)), Some(None), None]
        );
        // Wythoff's map far out knows its N-positions by outcome: the tile's value is missing
        let mut t = Tile::empty(true);
        t.keys[0] = 1;
        t.values.as_mut().unwrap()[0] = NOT_COMPUTED;
        t.done = 1;
        let mut store = TileStore::new(u64::MAX);
        store.set_rule(KeyRule::Outcome);
        store.insert(TileKey::of_cell(0, 0), &t);
        assert!(store.known_cells(&CellRect::new(0..1, 0..1)).is_none());
        assert!(
            store.known_cells(&CellRect::new(0..1 << 13, 0..1 << 12)).is_none(),
            "too large"
        );
    }
}
