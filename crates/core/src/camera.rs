//! Where the map looks: the camera in f64 cell space (which point is at the centre of the view
//! and how many cells one screen point covers), saved in sessions and used by the window's
//! canvas, and the one computation of the cells a view shows. Row `a` grows upwards, column `b`
//! to the right; cell (a, b) spans [b, b + 1] × [a, a + 1] in cell space.

use crate::game::Cell;

/// A point of cell space: `b` to the right, `a` upwards.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CellPoint {
    /// Row coordinate, growing upwards (row `a` spans [a, a + 1]).
    pub a: f64,
    /// Column coordinate, growing to the right (column `b` spans [b, b + 1]).
    pub b: f64,
}

impl CellPoint {
    /// The point at row coordinate `a`, column coordinate `b`.
    pub const fn new(a: f64, b: f64) -> Self {
        Self { a, b }
    }

    /// The centre of `cell`.
    pub fn centre_of(cell: Cell) -> Self {
        Self::new(cell.a as f64 + 0.5, cell.b as f64 + 0.5)
    }

    /// The whole cell this point lies in, if it is not left of column 0 or below row 0.
    pub fn cell(self) -> Option<Cell> {
        (self.a >= 0.0 && self.b >= 0.0 && self.a.is_finite() && self.b.is_finite())
            .then(|| Cell::new(self.a.floor() as u64, self.b.floor() as u64))
    }
}

pub use crate::solver::tiles::CellRect;

/// Position and zoom of the value map (saved in sessions as `view`).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename = "MapView")]
pub struct Camera {
    /// Cell coordinates at the centre of the view.
    pub center_a: f64,
    /// Column coordinate at the centre of the view (`center_a` is the row).
    pub center_b: f64,
    /// Cells per screen point.
    pub cells_per_point: f64,
}

/// Zoom limits: one cell filling ~600 points, up to 6 × 10⁷ cells across ~1000 points (a
/// pooled cell of the coarsest tiles, 2^16 cells wide, still covers a pixel with a margin: every
/// region a view can ask for is shown whole).
pub const MIN_CELLS_PER_POINT: f64 = 1.0 / 600.0;
/// Most cells per screen point (the furthest zoom out); see [`MIN_CELLS_PER_POINT`].
pub const MAX_CELLS_PER_POINT: f64 = 60_000.0;

impl Default for Camera {
    fn default() -> Self {
        Self {
            center_a: 32.0,
            center_b: 32.0,
            cells_per_point: 0.125,
        }
    }
}

impl Camera {
    /// Shows `[0, n) × [0, n)` in a view of `width × height` points.
    pub fn fit(n: f64, width: f32, height: f32) -> Self {
        let n = n.max(1.0) as u64;
        Self::fit_rect(&CellRect::new(0..n, 0..n), width, height)
    }

    /// Shows every cell of `region` in a view of `width × height` points, as large as fits,
    /// with the region's bottom-left corner at the view's: the room left over lies beyond the
    /// region (upwards or to the right), never at negative coordinates.
    pub fn fit_rect(region: &CellRect, width: f32, height: f32) -> Self {
        let rows = (region.rows.end.saturating_sub(region.rows.start)).max(1) as f64;
        let cols = (region.cols.end.saturating_sub(region.cols.start)).max(1) as f64;
        let (w, h) = (f64::from(width.max(1.0)), f64::from(height.max(1.0)));
        let cpp = (cols / w).max(rows / h).clamp(MIN_CELLS_PER_POINT, MAX_CELLS_PER_POINT);
        Self {
            center_a: region.rows.start as f64 + h * cpp / 2.0,
            center_b: region.cols.start as f64 + w * cpp / 2.0,
            cells_per_point: cpp,
        }
    }

    /// Keeps some of the map in view: the view's left and bottom edges at most a quarter of
    /// the view below 0, its right and top edges at most that far past `limit`.
    pub fn keep_near(&mut self, limit: u64, width: f32, height: f32) {
        let (w, h) = (
            f64::from(width) * self.cells_per_point,
            f64::from(height) * self.cells_per_point,
        );
        let limit = limit as f64;
        let clamp = |c: f64, span: f64| {
            let (lo, hi) = (span / 4.0, (limit - span / 4.0).max(span / 4.0));
            c.clamp(lo, hi)
        };
        self.center_b = clamp(self.center_b, w);
        self.center_a = clamp(self.center_a, h);
    }

    /// The point of cell space at an offset (dx right, dy down, in points) from the view centre.
    pub fn cell_from_offset(&self, dx: f32, dy: f32) -> CellPoint {
        CellPoint::new(
            self.center_a - dy as f64 * self.cells_per_point,
            self.center_b + dx as f64 * self.cells_per_point,
        )
    }

    /// The offset (dx right, dy down, in points) from the view centre of a point of cell space.
    pub fn offset_from_cell(&self, p: CellPoint) -> (f32, f32) {
        (
            ((p.b - self.center_b) / self.cells_per_point) as f32,
            ((self.center_a - p.a) / self.cells_per_point) as f32,
        )
    }

    /// The corners of a view of `width × height` points: bottom-left (least a and b) and
    /// top-right (greatest a and b).
    pub fn extent(&self, width: f32, height: f32) -> (CellPoint, CellPoint) {
        (
            self.cell_from_offset(-width / 2.0, height / 2.0),
            self.cell_from_offset(width / 2.0, -height / 2.0),
        )
    }

    /// The cells at least partly shown in a view of `width × height` points, clipped to rows
    /// and columns in `[0, limit)`.
    pub fn visible_cells(&self, width: f32, height: f32, limit: u64) -> CellRect {
        let (lo, hi) = self.extent(width, height);
        let range = |lo: f64, hi: f64| {
            let start = lo.max(0.0).floor().min(limit as f64) as u64;
            let end = (hi.ceil().max(0.0)).min(limit as f64) as u64;
            start..end.max(start)
        };
        CellRect {
            rows: range(lo.a, hi.a),
            cols: range(lo.b, hi.b),
        }
    }

    /// Zooms by `factor` (> 1 zooms in) keeping the point under the offset fixed.
    pub fn zoom_at(&mut self, factor: f64, dx: f32, dy: f32) {
        let before = self.cell_from_offset(dx, dy);
        self.cells_per_point = (self.cells_per_point / factor).clamp(MIN_CELLS_PER_POINT, MAX_CELLS_PER_POINT);
        let after = self.cell_from_offset(dx, dy);
        self.center_a += before.a - after.a;
        self.center_b += before.b - after.b;
    }

    /// Moves the view by a drag of (dx, dy) points.
    pub fn pan(&mut self, dx: f32, dy: f32) {
        self.center_b -= dx as f64 * self.cells_per_point;
        self.center_a += dy as f64 * self.cells_per_point;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zoom_keeps_the_cell_under_the_pointer() {
        let mut c = Camera::default();
        let before = c.cell_from_offset(100.0, -40.0);
        c.zoom_at(3.0, 100.0, -40.0);
        let after = c.cell_from_offset(100.0, -40.0);
        assert!((before.a - after.a).abs() < 1e-9 && (before.b - after.b).abs() < 1e-9);
        let (dx, dy) = c.offset_from_cell(before);
        assert!((dx - 100.0).abs() < 1e-3 && (dy + 40.0).abs() < 1e-3);
    }

    #[test]
    fn zoom_is_clamped_from_one_cell_to_the_whole_map() {
        let mut c = Camera::default();
        c.zoom_at(1e9, 0.0, 0.0);
        assert_eq!(c.cells_per_point, MIN_CELLS_PER_POINT);
        c.zoom_at(1e-12, 0.0, 0.0);
        assert_eq!(c.cells_per_point, MAX_CELLS_PER_POINT);
        const { assert!(MAX_CELLS_PER_POINT * 800.0 >= 8192.0) };
    }

    #[test]
    fn visible_cells_are_the_cells_the_view_touches() {
        // 10 points a cell, centred on (5, 5): a 100×60 view shows b in [0, 10), a in [2, 8)
        let c = Camera {
            center_a: 5.0,
            center_b: 5.0,
            cells_per_point: 0.1,
        };
        assert_eq!(c.visible_cells(100.0, 60.0, 1000), CellRect::new(2..8, 0..10));
        // every cell under a point of the view is in the rectangle
        for (dx, dy) in [(-49.0, 29.0), (49.0, -29.0), (0.0, 0.0)] {
            let cell = c.cell_from_offset(dx, dy).cell().unwrap();
            assert!(c.visible_cells(100.0, 60.0, 1000).contains(cell.a, cell.b), "{cell}");
        }
        // half a cell off the grid is still shown; nothing below 0 or at the limit and beyond
        let c = Camera { center_b: 0.0, ..c };
        assert_eq!(c.visible_cells(101.0, 60.0, 1000).cols, 0..6);
        assert_eq!(c.visible_cells(100.0, 60.0, 4), CellRect::new(2..4, 0..4));
    }

    /// A region fitted is shown whole, from its bottom-left corner: no negative cell in view.
    #[test]
    fn a_fitted_region_is_shown_whole_from_its_corner() {
        for (region, w, h) in [
            (CellRect::new(0..64, 0..64), 680.0, 620.0),
            (CellRect::new(0..4096, 0..4096), 1200.0, 700.0),
            (CellRect::new(100..300, 2000..2100), 500.0, 800.0),
        ] {
            let c = Camera::fit_rect(&region, w, h);
            let seen = c.visible_cells(w, h, u64::MAX);
            assert_eq!(
                (seen.rows.start, seen.cols.start),
                (region.rows.start, region.cols.start)
            );
            assert!(
                seen.rows.end >= region.rows.end && seen.cols.end >= region.cols.end,
                "{seen:?}"
            );
            // tight on one axis
            assert!(
                seen.rows.end <= region.rows.end + 1 || seen.cols.end <= region.cols.end + 1,
                "{seen:?}"
            );
            let (lo, _) = c.extent(w, h);
            assert!(lo.a >= region.rows.start as f64 - 1e-6 && lo.b >= region.cols.start as f64 - 1e-6);
        }
    }
}
