//! The overlays over the map (grid lines, the lines of slopes φ and 1/φ, Wythoff's pairs,
//! Theorem 3.1.6's pairs) as shapes in cell space, drawn alike by the window and the figures.

use super::color::colors;
use crate::camera::CellPoint;
use crate::game::Cell;

/// Cells narrower than this many pixels get no grid lines (the lines would hide the cells).
pub const GRID_LINES_MIN_CELL_PX: f64 = 8.0;
/// Cells narrower than this get no rings (Wythoff's pairs, Thm 3.1.6): packed closer, rings
/// would paint a thick band over the cells they mark.
pub const MARKS_MIN_CELL_PX: f64 = 3.0;

/// Overlays drawn over the map.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Overlays {
    pub grid_lines: bool,
    pub phi_lines: bool,
    pub wythoff_pairs: bool,
    /// The P-positions of seed 003 Thm 3.1.6 (nim⊚euclid0).
    pub theorem_316: bool,
}

impl Default for Overlays {
    fn default() -> Self {
        Self {
            grid_lines: true,
            phi_lines: false,
            wythoff_pairs: false,
            theorem_316: false,
        }
    }
}

/// What the overlays draw, in cell coordinates (b to the right, a upwards; cell (a, b) spans
/// [b, b + 1] × [a, a + 1]), so the window and the figures draw the same shapes. Grid lines are
/// not listed: they depend on the size of a cell in pixels.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OverlayShapes {
    /// Segments between two points, with their colours.
    pub lines: Vec<([CellPoint; 2], [u8; 4])>,
    /// Rings around cell centres, with their colours.
    pub marks: Vec<(CellPoint, [u8; 4])>,
}

impl Overlays {
    /// The overlays drawn when a cell is `cell_px` pixels wide: without rings on cells too
    /// small to ring.
    pub fn drawn_at(&self, cell_px: f64) -> Overlays {
        if cell_px >= MARKS_MIN_CELL_PX {
            *self
        } else {
            Overlays {
                wythoff_pairs: false,
                theorem_316: false,
                ..*self
            }
        }
    }

    /// Whether some overlay asked for is not drawn at `cell_px` pixels a cell.
    pub fn hidden_at(&self, cell_px: f64) -> bool {
        self.drawn_at(cell_px) != *self
    }

    /// No overlay at all.
    pub const NONE: Overlays = Overlays {
        grid_lines: false,
        phi_lines: false,
        wythoff_pairs: false,
        theorem_316: false,
    };

    /// The shapes over the cells up to column `b_max` and row `a_max` (and a little beyond,
    /// so nothing stops at the edge).
    pub fn shapes(&self, b_max: f64, a_max: f64) -> OverlayShapes {
        use crate::game::theory;
        let mut shapes = OverlayShapes::default();
        let far = (b_max.max(a_max) * 2.0).max(1.0);
        if self.phi_lines {
            let phi = theory::PHI;
            let origin = CellPoint::new(0.0, 0.0);
            shapes
                .lines
                .push(([origin, CellPoint::new(far * phi, far)], colors::OVERLAY_PHI));
            shapes
                .lines
                .push(([origin, CellPoint::new(far, far * phi)], colors::OVERLAY_PHI));
        }
        let limit = a_max.max(b_max).max(0.0) as u64 + 2;
        // Each pair (a, b) of a symmetric game marks both cells (a, b) and (b, a).
        let mut mark = |pairs: &mut dyn Iterator<Item = (u64, u64)>, color: [u8; 4]| {
            for (a, b) in pairs {
                for (row, col) in [(a, b), (b, a)] {
                    shapes.marks.push((CellPoint::centre_of(Cell::new(row, col)), color));
                }
            }
        };
        if self.wythoff_pairs {
            mark(
                &mut (0..).map(theory::wythoff_pair).take_while(|&(a, _)| a <= limit),
                colors::OVERLAY_WYTHOFF,
            );
        }
        if self.theorem_316 {
            mark(
                &mut theory::nim_push_euclid_pairs_thm317(limit).into_iter(),
                colors::OVERLAY_THEOREM,
            );
        }
        shapes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlay_shapes_follow_the_closed_forms() {
        let none = Overlays {
            grid_lines: true,
            ..Overlays::default()
        };
        assert_eq!(none.shapes(50.0, 50.0), OverlayShapes::default());
        let all = Overlays {
            phi_lines: true,
            wythoff_pairs: true,
            ..Overlays::NONE
        };
        let s = all.shapes(20.0, 10.0);
        // the two lines through the origin, of slopes φ and 1/φ
        assert_eq!(s.lines.len(), 2);
        for ([from, to], _) in &s.lines {
            assert_eq!(*from, CellPoint::new(0.0, 0.0));
            let slope = to.a / to.b;
            assert!((slope - 1.618_034).abs() < 1e-6 || (slope - 0.618_034).abs() < 1e-6);
        }
        // Wythoff's pairs (0,0), (1,2), (3,5), (4,7), ... up to 22, each marked twice
        let centres: Vec<CellPoint> = s.marks.iter().map(|&(c, _)| c).collect();
        let at = |a, b| CellPoint::new(a, b);
        assert!(centres.contains(&at(3.5, 5.5)) && centres.contains(&at(5.5, 3.5)));
        assert!(centres.contains(&at(4.5, 7.5)) && !centres.contains(&at(4.5, 6.5)));
        // a_k = floor(k φ) <= 22 for k = 0..=14 (a_14 = 22, a_15 = 24)
        assert_eq!(s.marks.len(), 2 * 15);
    }
}
