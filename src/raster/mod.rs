//! Values + colour mode → RGBA pixels: the one raster path shared by the window's map and the
//! PNG export, so both show the same picture and it is testable without a GPU.
//!
//! The picture has row `a` growing upwards and column `b` to the right, like the papers'
//! figures: pixel (x, y) shows the cell under its centre.
//!
//! Files: [`color`] (colour modes, palettes, legends), [`overlay`] (the overlays' shapes); this
//! file maps pixels to cells and paints them.

pub mod color;
pub mod overlay;

pub use color::{ColorMode, CompareWith, Palette, colors, legend_entries};
pub use overlay::{GRID_LINES_MIN_CELL_PX, OverlayShapes, Overlays};

use crate::camera::CellPoint;
use crate::game::Cell;

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
    pub bottom: f64,
    /// Cells per pixel.
    pub cells_per_pixel: f64,
    pub width: usize,
    pub height: usize,
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
}

/// Paints `view` into RGBA bytes (row-major, top row first). `value(a, b)` is `None` for cells
/// not computed yet (transparent) and `Some(None)` for cells that are not positions.
pub fn raster(
    view: &View,
    mode: ColorMode,
    max: u32,
    value: &dyn Fn(Cell) -> Option<Option<u32>>,
    other: &dyn Fn(Cell) -> Option<u32>,
) -> Vec<u8> {
    let mut out = vec![0u8; view.width * view.height * 4];
    for y in 0..view.height {
        for x in 0..view.width {
            let px = match view.cell_at(x, y) {
                None => colors::NOT_COMPUTED,
                Some(cell) => match value(cell) {
                    None => colors::NOT_COMPUTED,
                    Some(v) => mode.color(v, max, other(cell)),
                },
            };
            let i = (y * view.width + x) * 4;
            out[i..i + 4].copy_from_slice(&px);
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
            ColorMode::Outcome,
            0,
            &|c| Some(Some(c.a as u32 ^ c.b as u32)),
            &|_| None,
        );
        // bottom-left (0,0) is P, top-left (1,0) is N
        assert_eq!(&px[12..16], &colors::P_POSITION);
        assert_eq!(&px[0..4], &colors::N_POSITION);
    }

    #[test]
    fn tick_steps_are_round() {
        assert_eq!(nice_step(0.01), 1.0);
        assert_eq!(nice_step(3.0), 5.0);
        assert_eq!(nice_step(700.0), 1000.0);
    }
}
