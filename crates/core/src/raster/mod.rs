//! Values + colour mode → RGBA pixels: the one raster path shared by the window's map and the
//! PNG export, so both show the same picture and it is testable without a GPU.
//!
//! The picture has row `a` growing upwards and column `b` to the right, like the papers'
//! figures. A pixel that covers several cells shows their pooled key (see
//! [`crate::solver::tiles::KeyRule`]: the least value, the least residue, a difference
//! anywhere), never a sample, so zooming out keeps every P-position; a pixel smaller than a
//! cell shows the cell under its centre. The window pools whole blocks of 2^L cells (its tile
//! pyramid); a figure pools exactly the cells whose centres fall in each pixel.
//!
//! Files: [`color`] (colour modes, palettes, legends), [`overlay`] (the overlays' shapes),
//! [`axes`] (axis titles and tick choice); this file maps pixels to cells and paints them.

pub mod axes;
pub mod color;
pub mod overlay;
pub mod range;

pub use color::{
    COLOR_MODES, ColorMode, ColorTable, CompareWith, Fill, Legend, LegendItem, LegendSpec, MarksShown, ModeChoice,
    Palette, Pooling, colors,
};
pub use overlay::{GRID_LINES_MIN_CELL_PX, MARKS_MIN_CELL_PX, OverlayShapes, OverlayStyle, Overlays, styles};
pub use range::{ColorRange, RangeTop};

use std::ops::Range;

use crate::camera::CellPoint;
use crate::game::Cell;
use crate::solver::tiles::{NO_POSITION, NOT_COMPUTED};

/// The least of 1, 2, 5 × 10^k cells at least `min`: tick spacing on whole cells.
pub fn nice_step(min: f64) -> f64 {
    let mut step = 1.0;
    loop {
        for m in [1.0, 2.0, 5.0] {
            if step * m >= min {
                return step * m;
            }
        }
        step *= 10.0;
    }
}

/// Which part of the cell plane a picture shows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct View {
    /// Column (b) at the left edge and row (a) at the bottom edge, in cells.
    pub left: f64,
    /// Row (a) at the bottom edge, in cells (see `left`).
    pub bottom: f64,
    /// Cells per pixel.
    pub cells_per_pixel: f64,
    /// Width of the picture in pixels.
    pub width: usize,
    /// Height of the picture in pixels.
    pub height: usize,
}

/// The cells (offsets along one axis from the picture's edge, in cells from `start`) that
/// pixel `x` stands for: those whose centres lie in it, or if none does (a pixel smaller than a
/// cell), the cell under its centre.
fn pixel_cells(start: f64, cells_per_pixel: f64, x: usize) -> Range<i64> {
    let lo = start + x as f64 * cells_per_pixel;
    let hi = lo + cells_per_pixel;
    let first = (lo - 0.5).ceil() as i64;
    let end = (hi - 0.5).ceil() as i64;
    if end > first {
        first..end
    } else {
        let c = (lo + cells_per_pixel / 2.0).floor() as i64;
        c..c + 1
    }
}

impl View {
    /// The cell under the centre of pixel (x, y) (y down from the top), if it has non-negative
    /// coordinates.
    pub fn cell_at(&self, x: usize, y: usize) -> Option<Cell> {
        CellPoint::new(
            self.bottom + (self.height as f64 - y as f64 - 0.5) * self.cells_per_pixel,
            self.left + (x as f64 + 0.5) * self.cells_per_pixel,
        )
        .cell()
    }

    /// The columns pixel column `x` stands for (see the module's pooling rule).
    pub fn cols_of(&self, x: usize) -> Range<i64> {
        pixel_cells(self.left, self.cells_per_pixel, x)
    }

    /// The rows pixel row `y` (down from the top) stands for.
    pub fn rows_of(&self, y: usize) -> Range<i64> {
        pixel_cells(self.bottom, self.cells_per_pixel, self.height - 1 - y)
    }
}

/// Paints `view` into RGBA bytes (row-major, top row first), each pixel the pooled key of the
/// cells it stands for, by the mode's rule with the Grundy colours pooled as `pooling` says.
/// `value(a, b)` is `None` for cells not computed yet (transparent) and `Some(None)` for cells
/// that are not positions; `other` is the compared value (difference mode). Cells left of
/// column 0 or below row 0 count as not computed.
pub fn raster(
    view: &View,
    (mode, pooling): (ColorMode, Pooling),
    max: u32,
    value: &dyn Fn(Cell) -> Option<Option<u32>>,
    other: &dyn Fn(Cell) -> Option<u32>,
) -> Vec<u8> {
    let rule = mode.pooled_rule(pooling);
    let table = mode.color_table(max);
    let key = |a: i64, b: i64| match (u64::try_from(a), u64::try_from(b)) {
        (Ok(a), Ok(b)) => {
            let cell = Cell::new(a, b);
            match value(cell) {
                Some(v) => rule.key(v, other(cell)),
                None => NOT_COMPUTED,
            }
        }
        _ => NOT_COMPUTED,
    };
    let cols: Vec<Range<i64>> = (0..view.width).map(|x| view.cols_of(x)).collect();
    let mut out = vec![0u8; view.width * view.height * 4];
    let mut keys = vec![NO_POSITION; view.width];
    // a rule that counts keeps every key of a pixel row's pixels
    let mut bins: Vec<Vec<u32>> = vec![Vec::new(); if rule.pools_by_combining() { 0 } else { view.width }];
    for y in 0..view.height {
        keys.fill(NO_POSITION);
        bins.iter_mut().for_each(Vec::clear);
        for a in view.rows_of(y) {
            for (x, bs) in cols.iter().enumerate() {
                match bins.get_mut(x) {
                    Some(bin) => bin.extend(bs.clone().map(|b| key(a, b))),
                    None => keys[x] = bs.clone().fold(keys[x], |k, b| rule.combine(k, key(a, b))),
                }
            }
        }
        for (x, bin) in bins.iter_mut().enumerate() {
            keys[x] = rule.pool(bin);
        }
        for (x, &k) in keys.iter().enumerate() {
            let i = (y * view.width + x) * 4;
            out[i..i + 4].copy_from_slice(&table.get(k));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_map_to_pixels_with_rows_upwards() {
        let view = View {
            left: 0.0,
            bottom: 0.0,
            cells_per_pixel: 1.0,
            width: 3,
            height: 2,
        };
        assert_eq!(view.cell_at(0, 1), Some(Cell::new(0, 0)));
        assert_eq!(view.cell_at(2, 0), Some(Cell::new(1, 2)));
        let px = raster(
            &view,
            (ColorMode::Outcome, Pooling::Least),
            0,
            &|c| Some(Some(c.a as u32 ^ c.b as u32)),
            &|_| None,
        );
        // bottom-left (0,0) is P, top-left (1,0) is N
        assert_eq!(&px[12..16], &colors::P_POSITION);
        assert_eq!(&px[0..4], &colors::N_POSITION);
    }

    /// Pixels of 2.5 cells: every cell belongs to exactly one pixel (the one holding its
    /// centre); pixels smaller than a cell show the cell under their centre.
    #[test]
    fn each_cell_belongs_to_the_pixel_holding_its_centre() {
        let view = View {
            left: 0.0,
            bottom: 0.0,
            cells_per_pixel: 2.5,
            width: 4,
            height: 4,
        };
        let spans: Vec<Range<i64>> = (0..4).map(|x| view.cols_of(x)).collect();
        assert_eq!(spans, vec![0..2, 2..5, 5..7, 7..10]);
        let fine = View {
            cells_per_pixel: 0.4,
            ..view
        };
        assert_eq!(
            (0..5).map(|x| fine.cols_of(x)).collect::<Vec<_>>(),
            vec![0..1, 0..1, 1..2, 1..2, 1..2]
        );
        // Nim at 2.5 cells a pixel: a pixel is P exactly when a diagonal cell (a, a) is in it
        let px = raster(
            &view,
            (ColorMode::Outcome, Pooling::Least),
            0,
            &|c| Some(Some((c.a ^ c.b) as u32)),
            &|_| None,
        );
        for y in 0..4 {
            for x in 0..4 {
                let rows = view.rows_of(y);
                let p = view.cols_of(x).any(|b| rows.contains(&b));
                let i = (y * 4 + x) * 4;
                let want = if p { colors::P_POSITION } else { colors::N_POSITION };
                assert_eq!(&px[i..i + 4], &want, "pixel ({x}, {y})");
            }
        }
    }

    /// A pooled pixel of the Grundy colours shows the least, most common or greatest value of
    /// the cells whose centres fall in it, counted here plainly over those cells.
    #[test]
    fn a_pooled_pixel_shows_the_chosen_value_of_its_cells() {
        let view = View {
            left: 3.0,
            bottom: 1.0,
            cells_per_pixel: 2.7,
            width: 9,
            height: 7,
        };
        let f = |a: u64, b: u64| ((a * 7 + b * 3 + a * b) % 6) as u32;
        let value = |c: Cell| Some((c.a % 5 != 4 || !c.b.is_multiple_of(3)).then(|| f(c.a, c.b)));
        let mode = ColorMode::Grundy(Palette::Viridis);
        // the cells whose centres lie in pixel x along one axis, from `start`
        let within = |start: f64, x: usize| {
            let (lo, hi) = (start + x as f64 * 2.7, start + (x + 1) as f64 * 2.7);
            (0..40u64).filter(move |&c| c as f64 + 0.5 >= lo && (c as f64 + 0.5) < hi)
        };
        for pooling in Pooling::ALL {
            let px = raster(&view, (mode, pooling), 5, &value, &|_| None);
            for y in 0..view.height {
                for x in 0..view.width {
                    let mut values = Vec::new();
                    let mut any_cell = false;
                    for a in within(view.bottom, view.height - 1 - y) {
                        for b in within(view.left, x) {
                            any_cell = true;
                            if let Some(Some(v)) = value(Cell::new(a, b)) {
                                values.push(v);
                            }
                        }
                    }
                    assert!(any_cell);
                    let count = |v: u32| values.iter().filter(|&&w| w == v).count();
                    let want = match pooling {
                        Pooling::Least => values.iter().min().copied(),
                        Pooling::Greatest => values.iter().max().copied(),
                        // ties go to the least value
                        Pooling::MostCommon => (0..6).rev().max_by_key(|&v| count(v)).filter(|&v| count(v) > 0),
                    };
                    let i = (y * view.width + x) * 4;
                    assert_eq!(
                        &px[i..i + 4],
                        &mode.color(want, 5, None),
                        "{pooling:?} pixel ({x}, {y})"
                    );
                }
            }
        }
    }

    #[test]
    fn tick_steps_are_round() {
        assert_eq!(nice_step(0.01), 1.0);
        assert_eq!(nice_step(3.0), 5.0);
        assert_eq!(nice_step(700.0), 1000.0);
    }
}
