//! How cells are coloured: the colour modes, the palettes, the fixed colours of the map and its
//! overlays, what the difference mode compares with, how a mode pools the cells a pixel covers
//! (its [`KeyRule`]), and the legend's model. The screen and the figures take every colour
//! and every legend from here, so they agree.

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

pub use legend::{Fill, Legend, LegendItem, LegendSpec, MarksShown};

/// The legend as data: what each back end (the window's painter, the PNG figure, later SVG)
/// draws in its own way.
pub mod legend {
    use super::{ColorMode, CompareWith, Palette, colors};
    use crate::raster::Overlays;
    use crate::raster::overlay::{OverlayStyle, styles};

    /// How a swatch is filled.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Fill {
        /// One flat colour, RGBA.
        Solid([u8; 4]),
        /// The hatch of cells not computed yet.
        Hatch,
    }

    /// One line of a legend.
    #[derive(Debug, Clone, PartialEq)]
    pub enum LegendItem {
        /// A square of colour and what it means.
        Swatch {
            /// What the colour means.
            label: String,
            /// How the square is filled.
            fill: Fill,
        },
        /// A colour bar from value `min` (bottom) to `max` (top), with ticks at `ticks`.
        Bar {
            /// The colour map of the bar.
            palette: Palette,
            /// The value at the bottom.
            min: u32,
            /// The value at the top.
            max: u32,
            /// The values labelled beside the bar.
            ticks: Vec<u32>,
        },
        /// A line drawn over the map (an overlay).
        Line {
            /// What the line shows.
            label: String,
            /// How it is stroked.
            style: OverlayStyle,
        },
        /// A ring around a cell (an overlay, or the inspector's options).
        Ring {
            /// What the ring marks.
            label: String,
            /// How it is stroked.
            style: OverlayStyle,
        },
        /// A filled disc on a cell (the inspector's winning options).
        Dot {
            /// What the disc marks.
            label: String,
            /// Its colour, RGBA.
            color: [u8; 4],
        },
        /// A square outline (the inspector's position in focus).
        Outline {
            /// What the outline marks.
            label: String,
            /// Its colour, RGBA.
            color: [u8; 4],
        },
        /// A line of explanation (how pixels pool cells).
        Note(String),
    }

    /// The inspector's marks shown on the map, for their legend entries.
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
    pub struct MarksShown {
        /// The position in focus is outlined.
        pub selected: bool,
        /// Its options are ringed.
        pub options: bool,
        /// Its winning options are marked with a disc.
        pub winning: bool,
    }

    /// What a legend describes.
    #[derive(Debug, Clone, PartialEq)]
    pub struct LegendSpec<'a> {
        /// The colour mode the legend explains.
        pub mode: ColorMode,
        /// The top of the colour scale (see [`crate::raster::range`]).
        pub max: u32,
        /// What the legend says of the values above the top, if there are any.
        pub clipped: Option<String>,
        /// Whether a pixel stands for more than one cell (then the pooling rule is said).
        pub pooled: bool,
        /// What a pooled pixel of the Grundy colours shows.
        pub pooling: super::Pooling,
        /// Whether some cells shown are not computed yet.
        pub not_computed: bool,
        /// Whether some cells shown are not positions.
        pub not_a_position: bool,
        /// Whether some cells shown hold infinite values (a game that loops: draws, ∞(A)).
        pub loopy: bool,
        /// What difference mode compares with.
        pub compare: &'a CompareWith,
        /// The overlays drawn.
        pub overlays: Overlays,
        /// Whether some overlay asked for is not drawn at this zoom (its rings).
        pub overlays_hidden: bool,
        /// The inspector's marks shown.
        pub marks: MarksShown,
    }

    /// A legend: a title and its lines, top to bottom.
    #[derive(Debug, Clone, PartialEq)]
    pub struct Legend {
        /// The legend's heading.
        pub title: String,
        /// Its lines, top to bottom.
        pub items: Vec<LegendItem>,
    }

    /// The Grundy legend's notes: the clipped values, and what a pooled pixel shows.
    fn grundy_notes(spec: &LegendSpec, items: &mut Vec<LegendItem>) {
        if let Some(note) = &spec.clipped {
            items.push(LegendItem::Note(note.clone()));
        }
        if spec.pooled {
            items.push(LegendItem::Note(format!(
                "a pixel: {} of its cells",
                spec.pooling.words()
            )));
        }
    }

    /// 0, 1, 2, 5, 10, 20, 50, … below `top`, and `top`.
    pub fn log_steps(top: u32) -> Vec<u32> {
        let mut out = vec![0];
        let mut base = 1u64;
        'outer: loop {
            for m in [1, 2, 5] {
                let v = base * m;
                if v >= u64::from(top) {
                    break 'outer;
                }
                out.push(v as u32);
            }
            base *= 10;
        }
        if top > 0 {
            out.push(top);
        }
        out
    }

    /// Ticks of a colour bar over [min, max]: round values, at most about `count`, always the
    /// ends.
    pub fn bar_ticks(min: u32, max: u32, count: u32) -> Vec<u32> {
        if max <= min {
            return vec![min];
        }
        let step = crate::raster::nice_step((max - min) as f64 / (count + 1) as f64) as u32;
        let mut ticks: Vec<u32> = (min.div_ceil(step)..=max / step).map(|k| k * step).collect();
        if ticks.first() != Some(&min) {
            ticks.insert(0, min);
        }
        if ticks.last() != Some(&max) {
            // keep the end, dropping a round tick too close to it
            if ticks.len() > 1 && ticks.last().is_some_and(|&t| (max - t) * 2 <= step) {
                ticks.pop();
            }
            ticks.push(max);
        }
        ticks
    }

    /// The legend's entries for the overlays and the inspector's marks drawn on the map.
    fn overlay_and_mark_items(spec: &LegendSpec, items: &mut Vec<LegendItem>) {
        let o = spec.overlays;
        if o.phi_lines {
            items.push(LegendItem::Line {
                label: "b = φa, a = φb".into(),
                style: styles::PHI,
            });
        }
        if o.wythoff_pairs {
            items.push(LegendItem::Ring {
                label: "Wythoff's P-positions".into(),
                style: styles::WYTHOFF,
            });
        }
        if o.theorem_316 {
            items.push(LegendItem::Ring {
                label: "P-positions by Thm 3.1.6".into(),
                style: styles::THEOREM,
            });
        }
        if spec.overlays_hidden {
            items.push(LegendItem::Note("zoom in to see the overlays' rings".into()));
        }
        let m = spec.marks;
        if m.selected {
            items.push(LegendItem::Outline {
                label: "position inspected".into(),
                color: colors::MARK_SELECTED,
            });
        }
        if m.options {
            items.push(LegendItem::Ring {
                label: "its options".into(),
                style: OverlayStyle {
                    color: colors::MARK_OPTION,
                    casing: None,
                    width: 1.5,
                    dash: None,
                    radius: 0.3,
                },
            });
        }
        if m.winning {
            items.push(LegendItem::Dot {
                label: "winning moves".into(),
                color: colors::MARK_WINNING,
            });
        }
    }

    impl Legend {
        /// The legend of a map: an entry for everything drawn.
        pub fn of_map(spec: &LegendSpec) -> Legend {
            let sw = |label: &str, c: [u8; 4]| LegendItem::Swatch {
                label: label.to_string(),
                fill: Fill::Solid(c),
            };
            let mut items = Vec::new();
            let title = match spec.mode {
                ColorMode::Outcome => {
                    items.push(sw("P: the player to move loses", colors::P_POSITION));
                    items.push(sw("N: the player to move wins", colors::N_POSITION));
                    if spec.pooled {
                        items.push(LegendItem::Note("a pixel is P if any of its cells is".into()));
                    }
                    "Outcome".to_string()
                }
                ColorMode::Grundy(palette) => {
                    items.push(LegendItem::Bar {
                        palette,
                        min: 0,
                        max: spec.max,
                        ticks: bar_ticks(0, spec.max, 5),
                    });
                    grundy_notes(spec, &mut items);
                    "Grundy value G".to_string()
                }
                ColorMode::GrundyLog(_) => {
                    // steps at 0, 1, 2, 5, 10, 20, 50, … and the top: a logarithmic scale read
                    // without a bar whose ticks would crowd at its top
                    for v in log_steps(spec.max) {
                        let label = if v == spec.max && spec.clipped.is_some() {
                            format!("G ≥ {v}")
                        } else {
                            format!("G = {v}")
                        };
                        items.push(sw(&label, spec.mode.key_color(v, spec.max)));
                    }
                    grundy_notes(spec, &mut items);
                    "Grundy value G (log scale)".to_string()
                }
                ColorMode::Modulo(k) => {
                    for r in 0..k.max(1) {
                        items.push(sw(&format!("G mod {k} = {r}"), spec.mode.key_color(r, spec.max)));
                    }
                    if spec.pooled {
                        items.push(LegendItem::Note("a pixel: the least residue of its cells".into()));
                    }
                    format!("G mod {k}")
                }
                ColorMode::Difference => {
                    items.push(sw("outcomes differ", colors::DIFFER));
                    items.push(sw("P-position of both", colors::BOTH_P));
                    items.push(sw("N-position of both", colors::N_POSITION));
                    items.push(sw("nothing to compare", colors::NOT_A_POSITION));
                    if spec.pooled {
                        items.push(LegendItem::Note("a pixel differs if any of its cells does".into()));
                    }
                    match spec.compare.describe() {
                        Some(c) => format!("Against {c}"),
                        None => "Difference".to_string(),
                    }
                }
            };
            if spec.loopy && spec.mode != ColorMode::Difference {
                items.push(sw("D: a draw, ∞(A), 0 ∉ A", colors::DRAW));
                if spec.mode != ColorMode::Outcome {
                    items.push(sw("∞(A), 0 ∈ A: a win", colors::INFINITE_WIN));
                }
            }
            if spec.not_a_position && spec.mode != ColorMode::Difference {
                items.push(sw("not a position", colors::NOT_A_POSITION));
            }
            if spec.not_computed {
                items.push(LegendItem::Swatch {
                    label: "not computed yet".into(),
                    fill: Fill::Hatch,
                });
            }
            overlay_and_mark_items(spec, &mut items);
            Legend { title, items }
        }

        /// Drops the swatches of cell colours that `shown` says are nowhere in the picture (a
        /// figure's legend lists only what it draws); notes, bars and marks stay.
        pub fn retain_shown(&mut self, shown: &dyn Fn([u8; 4]) -> bool) {
            self.items.retain(|item| match item {
                LegendItem::Swatch {
                    fill: Fill::Solid(c), ..
                } => shown(*c),
                _ => true,
            });
        }

        /// The texts of the legend (for measuring the space it needs).
        pub fn texts(&self) -> Vec<String> {
            let mut out = vec![self.title.clone()];
            for item in &self.items {
                match item {
                    LegendItem::Swatch { label, .. }
                    | LegendItem::Line { label, .. }
                    | LegendItem::Ring { label, .. }
                    | LegendItem::Dot { label, .. }
                    | LegendItem::Outline { label, .. } => out.push(label.clone()),
                    LegendItem::Note(t) => out.push(t.clone()),
                    LegendItem::Bar { ticks, .. } => out.extend(ticks.iter().map(|t| t.to_string())),
                }
            }
            out
        }
    }
}

#[cfg(test)]
mod tests;
