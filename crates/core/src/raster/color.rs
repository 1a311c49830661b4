//! How cells are coloured: the colour modes, the palettes, the fixed colours of the map and its
//! overlays, what the difference mode compares with, how a mode pools the cells a pixel covers
//! (its [`KeyRule`]), and the legend's model. The screen and the figures take every colour
//! and every legend from here, so they agree.

pub mod legend;

pub use legend::{Fill, Legend, LegendItem, LegendSpec, MarksShown};

use crate::game::Ruleset;
use crate::game::prediction::Prediction;
use crate::game::quote::quoted;
use crate::solver::tiles::{CellRect, KeyRule, NO_POSITION, NOT_COMPUTED, differ};

/// A view of Wythoff's P-positions reaching past this row or column comes from their closed
/// form ([`ColorMode::map_rule`]); nearer, its filled map (100 MB and well under a second at
/// 8192²) also gives the readout the values.
pub const OUTCOME_FORM_FROM: u64 = 8192;

/// How cells are coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ColorMode {
    /// P-positions dark, everything else light.
    Outcome,
    /// The Grundy value on a perceptual colour map, from 0 to the top of the colour range
    /// (see [`super::range`]).
    Grundy(Palette),
    /// The same on a logarithmic scale: the small values keep their colours however large the
    /// top.
    GrundyLog(Palette),
    /// The Grundy value modulo k, on the palette.
    Modulo(u32),
    /// Where the second map's outcome differs from the first (needs a second map).
    Difference,
}

/// A colour mode as the View menu offers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ModeChoice {
    /// The mode.
    pub mode: ColorMode,
    /// How the menu names it.
    pub label: &'static str,
}

/// The colour modes the window offers, in its menu's order: the one list the menu shows and the
/// tests go through (legends, tables and figures of each).
pub const COLOR_MODES: &[ModeChoice] = &[
    ModeChoice {
        mode: ColorMode::Outcome,
        label: "P-positions",
    },
    ModeChoice {
        mode: ColorMode::Grundy(Palette::Viridis),
        label: "Grundy value (viridis)",
    },
    ModeChoice {
        mode: ColorMode::Grundy(Palette::Cividis),
        label: "Grundy value (cividis, colour-blind safe)",
    },
    ModeChoice {
        mode: ColorMode::GrundyLog(Palette::Viridis),
        label: "Grundy value, logarithmic (viridis)",
    },
    ModeChoice {
        mode: ColorMode::Modulo(2),
        label: "Grundy value mod 2",
    },
    ModeChoice {
        mode: ColorMode::Modulo(4),
        label: "Grundy value mod 4",
    },
    ModeChoice {
        mode: ColorMode::Difference,
        label: "Difference (compare with: left panel)",
    },
];

/// Perceptual colour maps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Palette {
    /// Viridis: dark purple (low) through green to yellow (high).
    Viridis,
    /// Cividis: designed to read the same with colour-vision deficiencies.
    Cividis,
}

/// RGBA colours of the map (kept here, beside the palettes, so the screen and the export agree).
pub mod colors {
    /// P-positions (Grundy value 0) in the outcome colours: near black.
    pub const P_POSITION: [u8; 4] = [20, 20, 30, 255];
    /// N-positions in the outcome colours: off-white.
    pub const N_POSITION: [u8; 4] = [236, 236, 228, 255];
    /// Cells that are not positions of the ruleset, and cells with nothing to compare with.
    pub const NOT_A_POSITION: [u8; 4] = [160, 160, 160, 255];
    /// Cells not computed yet are transparent in a tile; the map shows this hatch through them.
    pub const NOT_COMPUTED: [u8; 4] = [0, 0, 0, 0];
    /// The hatch's background, behind cells not computed yet.
    pub const HATCH_BACK: [u8; 4] = [92, 96, 104, 255];
    /// The hatch's lines.
    pub const HATCH_LINE: [u8; 4] = [128, 132, 140, 255];
    /// Difference mode: the two maps' outcomes differ here.
    pub const DIFFER: [u8; 4] = [214, 39, 40, 255];
    /// Where a sequence's period begins: the same orange in the window and in figures.
    pub const PERIOD_MARK: [u8; 4] = [230, 120, 20, 255];
    /// Difference mode: a P-position of both maps.
    pub const BOTH_P: [u8; 4] = [20, 20, 30, 255];
    /// A draw of a game that loops (value ∞(A), 0 not in A): a rose no palette holds.
    pub const DRAW: [u8; 4] = [224, 120, 160, 255];
    /// An infinite value with a winning move (∞(A), 0 in A) on the Grundy scales: a pale rose
    /// (in the outcome colours it is an N-position).
    pub const INFINITE_WIN: [u8; 4] = [240, 200, 218, 255];
    /// The overlays: cell borders, the lines of slopes φ and 1/φ, Wythoff's pairs, and the
    /// pairs of seed 003 Theorem 3.1.6. Each stroke is drawn over a casing of the opposite
    /// lightness ([`CASING_LIGHT`], [`CASING_DARK`]), so it stays visible over every colour a
    /// cell can have: dark P-positions, light N-positions, the difference mode's red, every
    /// palette colour (a test checks the contrast against each).
    pub const OVERLAY_GRID: [u8; 4] = [128, 128, 128, 110];
    /// The lines b = φa and a = φb.
    pub const OVERLAY_PHI: [u8; 4] = [255, 127, 0, 255];
    /// Wythoff's P-pairs (rings).
    pub const OVERLAY_WYTHOFF: [u8; 4] = [0, 90, 255, 255];
    /// The P-positions of seed 003 Thm 3.1.6 (rings inside Wythoff's).
    pub const OVERLAY_THEOREM: [u8; 4] = [255, 214, 0, 255];
    /// The casing under dark strokes.
    pub const CASING_LIGHT: [u8; 4] = [255, 255, 255, 255];
    /// The casing under light strokes.
    pub const CASING_DARK: [u8; 4] = [16, 16, 24, 255];
    /// The inspector's marks: the position in focus, the options (rings), winning options.
    pub const MARK_SELECTED: [u8; 4] = [255, 60, 200, 255];
    /// Rings on the options of the position in focus.
    pub const MARK_OPTION: [u8; 4] = [150, 80, 240, 255];
    /// Discs on its winning options (those to P-positions).
    pub const MARK_WINNING: [u8; 4] = [60, 230, 110, 255];
}

/// What a pixel of the Grundy colours shows when it covers several cells (the View menu's
/// choice, saved with the session's figure settings, so the window and its figures agree).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum Pooling {
    /// The least value of its cells: a P-position (0) is never hidden.
    #[default]
    Least,
    /// The value most of its cells have (ties: the least of them).
    MostCommon,
    /// The greatest value of its cells.
    Greatest,
}

impl Pooling {
    /// Every rule, in the View menu's order.
    pub const ALL: [Pooling; 3] = [Pooling::Least, Pooling::MostCommon, Pooling::Greatest];

    /// How the View menu and the legend name it: "the least G of its cells" and so on.
    pub fn words(self) -> &'static str {
        match self {
            Pooling::Least => "the least G",
            Pooling::MostCommon => "the most common G",
            Pooling::Greatest => "the greatest G",
        }
    }
}

impl Palette {
    /// The colour at `t ∈ [0, 1]`, from `colorous`'s tables (viridis: matplotlib's 256
    /// entries; cividis: d3's polynomial fit of Nuñez et al.'s table), not from hand-typed stops.
    pub fn at(self, t: f32) -> [u8; 4] {
        let gradient = match self {
            Palette::Viridis => colorous::VIRIDIS,
            Palette::Cividis => colorous::CIVIDIS,
        };
        let t = if t.is_nan() { 0.0 } else { f64::from(t.clamp(0.0, 1.0)) };
        let c = gradient.eval_continuous(t);
        [c.r, c.g, c.b, 255]
    }

    /// The palette's name in lower case: `viridis` or `cividis`.
    pub fn name(self) -> &'static str {
        match self {
            Palette::Viridis => "viridis",
            Palette::Cividis => "cividis",
        }
    }
}

impl ColorMode {
    /// How the cells of a pixel pool: the least value (a 0, a P-position, is never hidden), the
    /// least residue, or a difference anywhere.
    pub fn key_rule(self) -> KeyRule {
        match self {
            ColorMode::Outcome | ColorMode::Grundy(_) | ColorMode::GrundyLog(_) => KeyRule::Value,
            ColorMode::Modulo(k) => KeyRule::Residue(k.max(1)),
            ColorMode::Difference => KeyRule::Differ,
        }
    }

    /// [`ColorMode::key_rule`] with the Grundy colours' pixels pooled as `pooling` says (the
    /// other modes keep their own rule: a P-position, residue 0 or a difference is never
    /// hidden).
    pub fn pooled_rule(self, pooling: Pooling) -> KeyRule {
        match (self, pooling) {
            (ColorMode::Grundy(_) | ColorMode::GrundyLog(_), Pooling::MostCommon) => KeyRule::MostCommon,
            (ColorMode::Grundy(_) | ColorMode::GrundyLog(_), Pooling::Greatest) => KeyRule::Greatest,
            _ => self.key_rule(),
        }
    }

    /// Whether this mode shows `ruleset` under `layout` from the closed form of its outcomes
    /// alone (Wythoff's P-positions) somewhere: its map then reaches as far as the
    /// closed-form maps.
    pub fn has_outcome_form(self, ruleset: &Ruleset, layout: &crate::game::Layout) -> bool {
        self == ColorMode::Outcome
            && crate::solver::grid::CellForm::outcome_of(ruleset, layout)
                .is_some_and(crate::solver::grid::CellForm::outcome_only)
    }

    /// The rule a map of `ruleset` under `layout` over `view` pools by in this mode:
    /// [`ColorMode::key_rule`], except that a view reaching past [`OUTCOME_FORM_FROM`] of a
    /// ruleset whose outcomes alone have a closed form (Wythoff) shows them from that form, as
    /// [`KeyRule::Outcome`]; nearer, the map is filled, so the readout has the values. The
    /// collections of a misère octal game show their outcomes by its quotient, as
    /// [`KeyRule::Outcome`] too.
    pub fn map_rule(
        self,
        ruleset: &Ruleset,
        layout: &crate::game::Layout,
        view: &CellRect,
        pooling: Pooling,
    ) -> KeyRule {
        // collections of a misère octal game: their outcomes by its misère quotient, anywhere
        if self == ColorMode::Outcome && crate::solver::tiles::outcomes_by_quotient(ruleset, layout) {
            return KeyRule::Outcome;
        }
        if view.rows.end.max(view.cols.end) > OUTCOME_FORM_FROM && self.has_outcome_form(ruleset, layout) {
            KeyRule::Outcome
        } else {
            self.pooled_rule(pooling)
        }
    }

    /// Whether the colours depend on the largest value of the region (the colour scale).
    pub fn needs_scale(self) -> bool {
        matches!(self, ColorMode::Grundy(_) | ColorMode::GrundyLog(_))
    }

    /// The palette of a Grundy mode (linear or logarithmic) and whether it is logarithmic.
    pub fn grundy(self) -> Option<(Palette, bool)> {
        match self {
            ColorMode::Grundy(p) => Some((p, false)),
            ColorMode::GrundyLog(p) => Some((p, true)),
            _ => None,
        }
    }

    /// The colour of a pooled key of this mode's rule, with `max` the top of the colour scale.
    pub fn key_color(self, key: u32, max: u32) -> [u8; 4] {
        match key {
            NOT_COMPUTED => return colors::NOT_COMPUTED,
            NO_POSITION => return colors::NOT_A_POSITION,
            _ => {}
        }
        // the values of a game that loops: a draw in its own colour in every mode of values
        if self != ColorMode::Difference && crate::game::loopy::cells::is_infinite(key) {
            return match (crate::game::loopy::cells::is_draw(key), self) {
                (true, _) => colors::DRAW,
                (false, ColorMode::Outcome) => colors::N_POSITION,
                (false, _) => colors::INFINITE_WIN,
            };
        }
        match self {
            ColorMode::Outcome => {
                if key == 0 {
                    colors::P_POSITION
                } else {
                    colors::N_POSITION
                }
            }
            ColorMode::Grundy(p) => p.at(super::range::position(key, max, false)),
            ColorMode::GrundyLog(p) => p.at(super::range::position(key, max, true)),
            ColorMode::Modulo(k) => residue_color(key, k),
            ColorMode::Difference => match key {
                differ::DIFFER => colors::DIFFER,
                differ::BOTH_P => colors::BOTH_P,
                differ::BOTH_N => colors::N_POSITION,
                _ => colors::NOT_A_POSITION,
            },
        }
    }

    /// The colour of one cell of value `v` (`None`: not a position), with `max` the top of the
    /// colour scale and `other` the compared map's value in difference mode.
    pub fn color(self, v: Option<u32>, max: u32, other: Option<u32>) -> [u8; 4] {
        self.key_color(self.key_rule().key(v, other), max)
    }

    /// A table of the colours of keys 0..=`max` (the keys a tile of this mode can hold below
    /// [`NO_POSITION`]), for colouring many pooled cells fast: the screen's textures and the
    /// figures take the same table.
    pub fn color_table(self, max: u32) -> ColorTable {
        let top = match self {
            ColorMode::Outcome => 1,
            ColorMode::Grundy(_) | ColorMode::GrundyLog(_) => max.min(1 << 20),
            ColorMode::Modulo(k) => k.max(1) - 1,
            ColorMode::Difference => differ::NOT_COMPARED,
        };
        ColorTable {
            mode: self,
            max,
            colors: (0..=top).map(|k| self.key_color(k, max)).collect(),
        }
    }
}

/// The colours of a mode's keys, looked up rather than computed.
#[derive(Debug, Clone, PartialEq)]
pub struct ColorTable {
    mode: ColorMode,
    max: u32,
    colors: Vec<[u8; 4]>,
}

impl ColorTable {
    /// The colours of the keys the table holds, from key 0.
    pub fn colors(&self) -> &[[u8; 4]] {
        &self.colors
    }

    /// The colour of `key`, from the table when it holds it.
    #[inline]
    pub fn get(&self, key: u32) -> [u8; 4] {
        match self.colors.get(key as usize) {
            Some(&c) if self.mode != ColorMode::Outcome || key == 0 => c,
            _ => self.mode.key_color(key, self.max),
        }
    }
}

/// The colour of residue `r` modulo `k`: a qualitative palette (Tableau 10, as `colorous`
/// ships it) while the residues fit in it, so neighbouring residues never look alike; viridis
/// steps beyond that.
pub fn residue_color(r: u32, k: u32) -> [u8; 4] {
    let k = k.max(1);
    if k as usize <= colorous::TABLEAU10.len() {
        let c = colorous::TABLEAU10[(r % k) as usize];
        return [c.r, c.g, c.b, 255];
    }
    let c = colorous::VIRIDIS.eval_rational((r % k) as usize, k as usize);
    [c.r, c.g, c.b, 255]
}

/// What the difference colour mode compares the map with: the screen and the figures alike.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CompareWith {
    /// No comparison: difference mode has nothing to show.
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
                .map_err(|e| format!("compare {}: {e}", quoted(r))),
        }
    }

    /// A few words naming what is compared with (for the legend).
    pub fn describe(&self) -> Option<String> {
        match self {
            CompareWith::Nothing => None,
            CompareWith::Ruleset(r) => Some(r.to_string()),
            CompareWith::Theorem(p) => Some(p.label().to_string()),
        }
    }
}

#[cfg(test)]
mod tests;
