//! The legend as data: what each back end (the window's painter, the PNG figure, later SVG)
//! draws in its own way.

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

/// The legend's entries for the overlays and the inspector's marks drawn on the map, in the
/// order they are listed.
fn overlay_and_mark_items(spec: &LegendSpec, items: &mut Vec<LegendItem>) {
    let (o, m) = (spec.overlays, spec.marks);
    let ring = |label: &str, style| LegendItem::Ring {
        label: label.into(),
        style,
    };
    let option_ring = OverlayStyle {
        color: colors::MARK_OPTION,
        casing: None,
        width: 1.5,
        dash: None,
        radius: 0.3,
    };
    let entries = [
        (
            o.phi_lines,
            LegendItem::Line {
                label: "b = φa, a = φb".into(),
                style: styles::PHI,
            },
        ),
        (o.wythoff_pairs, ring("Wythoff's P-positions", styles::WYTHOFF)),
        (o.theorem_316, ring("P-positions by Thm 3.1.6", styles::THEOREM)),
        (
            spec.overlays_hidden,
            LegendItem::Note("zoom in to see the overlays' rings".into()),
        ),
        (
            m.selected,
            LegendItem::Outline {
                label: "position inspected".into(),
                color: colors::MARK_SELECTED,
            },
        ),
        (m.options, ring("its options", option_ring)),
        (
            m.winning,
            LegendItem::Dot {
                label: "winning moves".into(),
                color: colors::MARK_WINNING,
            },
        ),
    ];
    items.extend(entries.into_iter().filter_map(|(shown, item)| shown.then_some(item)));
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
