//! How cells are coloured: the colour modes, the palettes, the fixed colours of the map and its
//! overlays, what the difference mode compares with, and the legend's entries. The screen and
//! the figures take every colour from here, so they agree.

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

#[cfg(test)]
mod tests {
    use super::*;

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
