//! The map's camera in f64 cell space: which cell is at the centre of the view and how many
//! cells one screen point covers. Row `a` grows upwards, column `b` to the right.

/// Position and zoom of the value map.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Camera {
    /// Cell coordinates (b, a) at the centre of the view.
    pub center_b: f64,
    pub center_a: f64,
    /// Cells per screen point.
    pub cells_per_point: f64,
}

/// Zoom limits: one cell filling ~600 points, up to 32768 cells across ~1000 points.
pub const MIN_CELLS_PER_POINT: f64 = 1.0 / 600.0;
pub const MAX_CELLS_PER_POINT: f64 = 32.0;

impl Default for Camera {
    fn default() -> Self {
        Self {
            center_b: 32.0,
            center_a: 32.0,
            cells_per_point: 0.125,
        }
    }
}

impl Camera {
    /// Shows `[0, n) × [0, n)` in a view of `size` points.
    pub fn fit(n: f64, width: f32, height: f32) -> Self {
        let cpp = (n / width.min(height).max(1.0) as f64).clamp(MIN_CELLS_PER_POINT, MAX_CELLS_PER_POINT);
        Self {
            center_b: n / 2.0,
            center_a: n / 2.0,
            cells_per_point: cpp,
        }
    }

    /// The cell coordinates (b, a) at a point offset (dx right, dy down) from the view centre.
    pub fn cell_from_offset(&self, dx: f32, dy: f32) -> (f64, f64) {
        (
            self.center_b + dx as f64 * self.cells_per_point,
            self.center_a - dy as f64 * self.cells_per_point,
        )
    }

    /// The offset (dx right, dy down) from the view centre of cell coordinates (b, a).
    pub fn offset_from_cell(&self, b: f64, a: f64) -> (f32, f32) {
        (
            ((b - self.center_b) / self.cells_per_point) as f32,
            ((self.center_a - a) / self.cells_per_point) as f32,
        )
    }

    /// Zooms by `factor` (> 1 zooms in) keeping the cell under the offset fixed.
    pub fn zoom_at(&mut self, factor: f64, dx: f32, dy: f32) {
        let (b, a) = self.cell_from_offset(dx, dy);
        self.cells_per_point = (self.cells_per_point / factor).clamp(MIN_CELLS_PER_POINT, MAX_CELLS_PER_POINT);
        let (b2, a2) = self.cell_from_offset(dx, dy);
        self.center_b += b - b2;
        self.center_a += a - a2;
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
        assert!((before.0 - after.0).abs() < 1e-9 && (before.1 - after.1).abs() < 1e-9);
        let (dx, dy) = c.offset_from_cell(before.0, before.1);
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
}
