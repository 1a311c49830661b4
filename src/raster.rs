//! Values + colour mode → RGBA pixels: the one raster path shared by the window's map and the
//! PNG export, so both show the same picture and it is testable without a GPU.
//!
//! The picture has row `a` growing upwards and column `b` to the right, like the papers'
//! figures: pixel (x, y) shows the cell under its centre.

use crate::camera::CellPoint;
use crate::game::prediction::Prediction;
use crate::game::{Cell, Ruleset};

/// How cells are coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ColorMode {
    /// P-positions dark, everything else light.
    Outcome,
    /// The Grundy value on a perceptual colour map, scaled to `max`.
    Grundy(Palette),
    /// The Grundy value modulo k, on the palette.
    Modulo(u32),
    /// Where the second map's outcome differs from the first (needs a second map).
    Difference,
}

/// Perceptual colour maps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Palette {
    Viridis,
    /// Cividis: designed to read the same with colour-vision deficiencies.
    Cividis,
}

/// RGBA colours of the map (kept here, beside the palettes, so the screen and the export agree).
pub mod colors {
    pub const P_POSITION: [u8; 4] = [20, 20, 30, 255];
    pub const N_POSITION: [u8; 4] = [236, 236, 228, 255];
    pub const NOT_A_POSITION: [u8; 4] = [160, 160, 160, 255];
    pub const NOT_COMPUTED: [u8; 4] = [0, 0, 0, 0];
    pub const DIFFER: [u8; 4] = [214, 39, 40, 255];
    pub const BOTH_P: [u8; 4] = [20, 20, 30, 255];
    /// The overlays: cell borders, the lines of slopes φ and 1/φ, Wythoff's pairs, and the
    /// pairs of seed 003 Theorem 3.1.6.
    pub const OVERLAY_GRID: [u8; 4] = [128, 128, 128, 110];
    pub const OVERLAY_PHI: [u8; 4] = [230, 120, 20, 255];
    pub const OVERLAY_WYTHOFF: [u8; 4] = [30, 160, 220, 255];
    pub const OVERLAY_THEOREM: [u8; 4] = [220, 30, 120, 255];
}

/// Cells narrower than this many pixels get no grid lines (the lines would hide the cells).
pub const GRID_LINES_MIN_CELL_PX: f64 = 8.0;

const VIRIDIS: [[u8; 3]; 9] = [
    [68, 1, 84],
    [71, 44, 122],
    [59, 81, 139],
    [44, 113, 142],
    [33, 144, 141],
    [39, 173, 129],
    [92, 200, 99],
    [170, 220, 50],
    [253, 231, 37],
];

const CIVIDIS: [[u8; 3]; 9] = [
    [0, 34, 78],
    [18, 53, 112],
    [59, 73, 108],
    [87, 92, 109],
    [112, 113, 115],
    [138, 134, 120],
    [167, 157, 116],
    [198, 181, 103],
    [253, 234, 69],
];

impl Palette {
    /// The colour at `t ∈ [0, 1]`, interpolated between the anchors.
    pub fn at(self, t: f32) -> [u8; 4] {
        let table = match self {
            Palette::Viridis => &VIRIDIS,
            Palette::Cividis => &CIVIDIS,
        };
        let x = t.clamp(0.0, 1.0) * (table.len() - 1) as f32;
        let i = (x.floor() as usize).min(table.len() - 2);
        let f = x - i as f32;
        let mix = |k: usize| (table[i][k] as f32 * (1.0 - f) + table[i + 1][k] as f32 * f).round() as u8;
        [mix(0), mix(1), mix(2), 255]
    }
}

impl ColorMode {
    /// The colour of a cell of value `v` (`None`: not a position), with `max` the largest value
    /// shown (for scaling) and `other` the compared map's value in difference mode.
    pub fn color(self, v: Option<u32>, max: u32, other: Option<u32>) -> [u8; 4] {
        let Some(v) = v else { return colors::NOT_A_POSITION };
        match self {
            ColorMode::Outcome => {
                if v == 0 {
                    colors::P_POSITION
                } else {
                    colors::N_POSITION
                }
            }
            ColorMode::Grundy(p) => p.at(if max == 0 { 0.0 } else { v as f32 / max as f32 }),
            ColorMode::Modulo(k) => {
                let k = k.max(1);
                Palette::Viridis.at(if k == 1 { 0.0 } else { (v % k) as f32 / (k - 1) as f32 })
            }
            ColorMode::Difference => match other {
                Some(w) if (w == 0) != (v == 0) => colors::DIFFER,
                Some(_) if v == 0 => colors::BOTH_P,
                Some(_) => colors::N_POSITION,
                None => colors::NOT_A_POSITION,
            },
        }
    }
}

/// What the difference colour mode compares the map with: the screen and the figures alike.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CompareWith {
    Nothing,
    /// A second ruleset's values at the same cells.
    Ruleset(Ruleset),
    /// A theorem's predicted P-positions.
    Theorem(Prediction),
}

impl CompareWith {
    /// From the two fields sessions and the left panel keep: a theorem, else a ruleset
    /// expression (empty: nothing).
    pub fn from_parts(theorem: Option<Prediction>, ruleset: &str) -> Result<CompareWith, String> {
        match (theorem, ruleset.trim()) {
            (Some(p), _) => Ok(CompareWith::Theorem(p)),
            (None, "") => Ok(CompareWith::Nothing),
            (None, r) => r
                .parse()
                .map(CompareWith::Ruleset)
                .map_err(|e| format!("compare '{r}': {e}")),
        }
    }

    /// What the theorem says of a cell, as a value: 0 where it predicts P, 1 where N, `None`
    /// where it says nothing (and for the other cases, whose values come from a map).
    pub fn theorem_value(&self, cell: Cell) -> Option<u32> {
        match self {
            CompareWith::Theorem(p) => p.is_p(cell.a, cell.b).map(|p| u32::from(!p)),
            _ => None,
        }
    }
}

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

/// The colour key of a mode: labels and their colours, for the window's legend and the figures'.
pub fn legend_entries(mode: ColorMode, max: u32) -> Vec<(String, [u8; 4])> {
    match mode {
        ColorMode::Outcome => vec![("P".into(), colors::P_POSITION), ("N".into(), colors::N_POSITION)],
        ColorMode::Grundy(_) => {
            let steps = 5u32.min(max.max(1));
            (0..=steps)
                .map(|i| {
                    let v = max * i / steps;
                    (format!("{v}"), mode.color(Some(v), max, None))
                })
                .collect()
        }
        ColorMode::Modulo(k) => (0..k)
            .map(|v| (format!("{v} mod {k}"), mode.color(Some(v), max, None)))
            .collect(),
        ColorMode::Difference => vec![
            ("outcomes differ".into(), colors::DIFFER),
            ("both P".into(), colors::BOTH_P),
            ("both N".into(), colors::N_POSITION),
        ],
    }
}

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

    #[test]
    fn tick_steps_are_round() {
        assert_eq!(nice_step(0.01), 1.0);
        assert_eq!(nice_step(3.0), 5.0);
        assert_eq!(nice_step(700.0), 1000.0);
    }

    #[test]
    fn palettes_run_from_dark_to_light_and_difference_stands_out() {
        let lum = |c: [u8; 4]| c[0] as u32 * 3 + c[1] as u32 * 6 + c[2] as u32;
        for p in [Palette::Viridis, Palette::Cividis] {
            assert!(lum(p.at(0.0)) < lum(p.at(0.5)) && lum(p.at(0.5)) < lum(p.at(1.0)));
        }
        assert_eq!(ColorMode::Difference.color(Some(0), 0, Some(3)), colors::DIFFER);
        assert_eq!(ColorMode::Difference.color(Some(0), 0, Some(0)), colors::BOTH_P);
        assert_eq!(ColorMode::Outcome.color(None, 0, None), colors::NOT_A_POSITION);
    }
}
