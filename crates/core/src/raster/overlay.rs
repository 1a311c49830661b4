//! The overlays over the map (grid lines, the lines of slopes φ and 1/φ, Wythoff's pairs,
//! Theorem 3.1.6's pairs) as shapes in cell space, drawn alike by the window and the figures.

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
    /// Lines between cells, when the cells are wide enough ([`GRID_LINES_MIN_CELL_PX`]).
    pub grid_lines: bool,
    /// The lines b = φa and a = φb.
    pub phi_lines: bool,
    /// Rings on Wythoff's P-positions (seed 003 Prop 3.1.3).
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

/// How an overlay is stroked, in points at the window's 11-point text (a figure scales them
/// with its text): a coloured core over an optional casing of contrasting lightness, dashed or
/// not; rings are `radius` of a cell's side, so two overlays ringing one cell stay apart.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OverlayStyle {
    /// The core's colour, RGBA.
    pub color: [u8; 4],
    /// The casing's colour and how far it reaches beyond the core on each side.
    pub casing: Option<([u8; 4], f32)>,
    /// The core's width, in points.
    pub width: f32,
    /// Dash and gap lengths along a line.
    pub dash: Option<[f32; 2]>,
    /// A ring's radius as a share of a cell's side.
    pub radius: f32,
}

impl OverlayStyle {
    /// A ring's radius in pixels on cells `cell_px` wide, with strokes scaled by `scale`: a
    /// share of the cell, never smaller than a dot nor larger than the style's share of 20 pt.
    pub fn ring_radius(&self, cell_px: f64, scale: f64) -> f64 {
        let r = f64::from(self.radius);
        (cell_px * r).min(20.0 * r * scale).max(1.5 * scale)
    }
}

/// The overlays' looks, shared by the map, the figures and the legends.
pub mod styles {
    use super::OverlayStyle;
    use crate::raster::colors;

    /// The lines b = φa and a = φb: thin, dashed, with a casing of a hairline, so the cells
    /// they pass over (the P-positions they point at) show between and beside the dashes.
    pub const PHI: OverlayStyle = OverlayStyle {
        color: colors::OVERLAY_PHI,
        casing: Some((colors::CASING_DARK, 0.3)),
        width: 0.8,
        dash: Some([3.0, 5.0]),
        radius: 0.0,
    };
    /// Wythoff's P-pairs: solid rings with a light casing.
    pub const WYTHOFF: OverlayStyle = OverlayStyle {
        color: colors::OVERLAY_WYTHOFF,
        casing: Some((colors::CASING_LIGHT, 0.75)),
        width: 1.5,
        dash: None,
        radius: 0.36,
    };
    /// Inside Wythoff's rings, so a cell both mark shows both.
    pub const THEOREM: OverlayStyle = OverlayStyle {
        color: colors::OVERLAY_THEOREM,
        casing: Some((colors::CASING_DARK, 0.75)),
        width: 1.5,
        dash: None,
        radius: 0.2,
    };
}

/// What the overlays draw, in cell coordinates (b to the right, a upwards; cell (a, b) spans
/// [b, b + 1] × [a, a + 1]), so the window and the figures draw the same shapes. Grid lines are
/// not listed: they depend on the size of a cell in pixels.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OverlayShapes {
    /// Segments between two points, with their looks.
    pub lines: Vec<([CellPoint; 2], OverlayStyle)>,
    /// Rings around cell centres, with their looks.
    pub marks: Vec<(CellPoint, OverlayStyle)>,
}

/// Theorem 3.1.6's pairs are listed from the origin (each needs the ones before it): their
/// marks are drawn in views below this row and column only.
pub const THEOREM_MARKS_LIMIT: u64 = 1 << 24;

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
        self.shapes_within(0.0, 0.0, b_max, a_max)
    }

    /// [`Overlays::shapes`] over the cells from row `a_min` and column `b_min` on: the Wythoff
    /// pairs marked are those near the region (a view at 10¹² does not list the pairs from
    /// the origin), and Theorem 3.1.6's, listed from the origin, only below
    /// [`THEOREM_MARKS_LIMIT`].
    pub fn shapes_within(&self, a_min: f64, b_min: f64, b_max: f64, a_max: f64) -> OverlayShapes {
        use crate::game::theory;
        let mut shapes = OverlayShapes::default();
        let far = (b_max.max(a_max) * 2.0).max(1.0);
        if self.phi_lines {
            let phi = theory::PHI;
            let origin = CellPoint::new(0.0, 0.0);
            shapes
                .lines
                .push(([origin, CellPoint::new(far * phi, far)], styles::PHI));
            shapes
                .lines
                .push(([origin, CellPoint::new(far, far * phi)], styles::PHI));
        }
        let limit = a_max.max(b_max).max(0.0) as u64 + 2;
        // Each pair (a, b) of a symmetric game marks both cells (a, b) and (b, a).
        let mut mark = |pairs: &mut dyn Iterator<Item = (u64, u64)>, style: OverlayStyle| {
            for (a, b) in pairs {
                for (row, col) in [(a, b), (b, a)] {
                    shapes.marks.push((CellPoint::centre_of(Cell::new(row, col)), style));
                }
            }
        };
        if self.wythoff_pairs {
            // the pairs whose smaller heap is near the rows, then near the columns: the pair
            // (a_n, b_n) has n = a_n/φ within one, and a_n = ⌊nφ⌋ (the mirror image is marked too)
            let from = |x: f64| {
                let x = x.max(0.0) as u64;
                (theory::floor_phi_times(x) - x).saturating_sub(2)
            };
            let span = |start: u64, to: u64| {
                let mut n = start;
                while theory::wythoff_pair(n).0 <= to {
                    n += 1;
                }
                start..n
            };
            let rows = span(from(a_min), a_max.max(0.0) as u64 + 2);
            let cols = span(from(b_min), b_max.max(0.0) as u64 + 2);
            // one run where the two meet, so no pair is marked twice
            let runs = if rows.start <= cols.end && cols.start <= rows.end {
                [rows.start.min(cols.start)..rows.end.max(cols.end), 0..0]
            } else {
                [rows, cols]
            };
            for run in runs {
                mark(&mut run.map(theory::wythoff_pair), styles::WYTHOFF);
            }
        }
        if self.theorem_316 && limit <= THEOREM_MARKS_LIMIT {
            mark(
                &mut theory::nim_push_euclid_pairs_thm317(limit).into_iter(),
                styles::THEOREM,
            );
        }
        shapes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raster::{ColorMode, Palette, colors};

    /// WCAG's relative luminance of an sRGB colour.
    fn luminance(c: [u8; 4]) -> f64 {
        let lin = |v: u8| {
            let v = f64::from(v) / 255.0;
            if v <= 0.040_45 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])
    }

    /// WCAG's contrast ratio, 1 (none) to 21 (black on white).
    fn contrast(a: [u8; 4], b: [u8; 4]) -> f64 {
        let (la, lb) = (luminance(a), luminance(b));
        (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
    }

    /// Every overlay shows over every colour a cell can take in any colour mode: its core or
    /// its casing stands out from the cell by a contrast ratio of at least 2 (pink on the
    /// difference mode's red, 1.3, was what hid Table 1's rings).
    #[test]
    fn overlays_stand_out_over_every_cell_colour() {
        let mut cells = vec![
            colors::P_POSITION,
            colors::N_POSITION,
            colors::NOT_A_POSITION,
            colors::DIFFER,
            colors::BOTH_P,
            colors::HATCH_BACK,
            colors::HATCH_LINE,
        ];
        for palette in [Palette::Viridis, Palette::Cividis] {
            cells.extend((0..=64).map(|i| palette.at(i as f32 / 64.0)));
        }
        for k in 2..=12 {
            cells.extend((0..k).map(|r| ColorMode::Modulo(k).key_color(r, 0)));
        }
        for style in [styles::PHI, styles::WYTHOFF, styles::THEOREM] {
            for &cell in &cells {
                let best = contrast(style.color, cell).max(style.casing.map_or(1.0, |(c, _)| contrast(c, cell)));
                assert!(best >= 2.0, "{style:?} over {cell:?}: contrast {best:.2}");
            }
        }
        assert!(
            contrast([220, 30, 120, 255], colors::DIFFER) < 1.5,
            "the old pink on red"
        );
    }

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

    /// Far from the origin the Wythoff pairs marked are those near the region, not every pair
    /// from the origin: the marks in a 40 × 60 region at 10¹² are its P-positions.
    #[test]
    fn wythoff_marks_far_out_are_the_regions_pairs() {
        use crate::game::theory;
        let pairs = Overlays {
            wythoff_pairs: true,
            ..Overlays::NONE
        };
        let (a0, b0) = (1_000_000_000_000u64, 1_618_033_988_720u64);
        let s = pairs.shapes_within(a0 as f64, b0 as f64, (b0 + 60) as f64, (a0 + 40) as f64);
        // the pairs whose smaller heap is in the rows or in the columns, each marked both ways
        assert!(s.marks.len() < 4 * (40 + 60), "{} marks", s.marks.len());
        let inside: std::collections::BTreeSet<(u64, u64)> = s
            .marks
            .iter()
            .map(|(c, _)| (c.a as u64, c.b as u64))
            .filter(|&(a, b)| (a0..a0 + 40).contains(&a) && (b0..b0 + 60).contains(&b))
            .collect();
        let want: std::collections::BTreeSet<(u64, u64)> = (a0..a0 + 40)
            .flat_map(|a| (b0..b0 + 60).map(move |b| (a, b)))
            .filter(|&(a, b)| theory::is_wythoff_p(a, b))
            .collect();
        assert!(!want.is_empty());
        assert_eq!(inside, want);
        // Theorem 3.1.6's pairs are listed from the origin: not that far out
        let thm = Overlays {
            theorem_316: true,
            ..Overlays::NONE
        };
        assert!(
            thm.shapes_within(a0 as f64, b0 as f64, (b0 + 60) as f64, (a0 + 40) as f64)
                .marks
                .is_empty()
        );
    }
}
