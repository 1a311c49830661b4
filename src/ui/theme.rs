//! Colours and sizes of the window, in one place (no literal colours elsewhere in the UI).

use egui::Color32;

/// A colour of the shared raster path ([`nimscope_core::raster::colors`]) as egui draws it.
pub fn color32(c: [u8; 4]) -> Color32 {
    Color32::from_rgba_unmultiplied(c[0], c[1], c[2], c[3])
}

/// An opaque colour of the shared raster path, in a constant.
const fn rgb(c: [u8; 4]) -> Color32 {
    Color32::from_rgb(c[0], c[1], c[2])
}

pub const HOVER_OUTLINE: Color32 = Color32::from_rgb(255, 200, 0);
/// Around the map's cells: left of column 0, below row 0, past the largest map (dark theme).
pub const MAP_OFF: Color32 = Color32::from_gray(38);

/// Around the map's cells, by theme: a shade off the panels' background, never as dark as a
/// P-position nor as light as an N-position.
pub fn map_off(theme: egui::Theme) -> Color32 {
    match theme {
        egui::Theme::Dark => MAP_OFF,
        egui::Theme::Light => Color32::from_gray(200),
    }
}

/// A notice's text in the status bar, by theme (the dark theme's green is too pale on white).
pub fn notice_text(visuals: &egui::Visuals) -> Color32 {
    if visuals.dark_mode {
        NOTICE_TEXT
    } else {
        Color32::from_rgb(20, 120, 50)
    }
}

/// An error's text, by theme.
pub fn error_text(visuals: &egui::Visuals) -> Color32 {
    if visuals.dark_mode {
        ERROR_TEXT
    } else {
        Color32::from_rgb(190, 30, 30)
    }
}
pub const LEGEND_FRAME: Color32 = Color32::from_gray(140);
/// Multiplies the colours of coarser tiles shown while the view's own are not complete.
pub const STAND_IN_TINT: Color32 = Color32::from_gray(190);
pub const LEGEND_NOTE: Color32 = Color32::from_gray(170);
pub const AXIS_TEXT: Color32 = Color32::from_gray(200);

/// The map's axis and legend text on the window's background, by theme (the light theme's
/// is dark, for slides and projectors).
pub fn axis_text(ctx: &egui::Context) -> Color32 {
    match ctx.theme() {
        egui::Theme::Dark => AXIS_TEXT,
        egui::Theme::Light => Color32::from_gray(30),
    }
}

/// The legend's notes, by theme.
pub fn legend_note(ctx: &egui::Context) -> Color32 {
    match ctx.theme() {
        egui::Theme::Dark => LEGEND_NOTE,
        egui::Theme::Light => Color32::from_gray(70),
    }
}
pub const AXIS_BACKGROUND: Color32 = Color32::from_black_alpha(150);
pub const ERROR_TEXT: Color32 = Color32::from_rgb(230, 80, 80);
/// Notices that are not errors (saved, opened, exported).
pub const NOTICE_TEXT: Color32 = Color32::from_rgb(120, 200, 140);
/// The figures' colour ([`nimscope_core::raster::colors::PERIOD_MARK`]), one mark for one fact.
pub const PERIOD_MARK: Color32 = {
    let [r, g, b, _] = nimscope_core::raster::colors::PERIOD_MARK;
    Color32::from_rgb(r, g, b)
};
/// The points of the one-heap plot.
pub const SEQUENCE_POINTS: Color32 = Color32::from_rgb(90, 160, 230);

/// Width of the ruleset panel, in points.
pub const SIDE_PANEL_WIDTH: f32 = 250.0;
/// Width of the inspector, in points (the user may drag it within a range).
pub const INSPECTOR_WIDTH: f32 = 320.0;
/// Size of the small helper texts, in points (egui's default small text is hard to read).
pub const SMALL_TEXT: f32 = 11.5;
/// Target distance between axis tick labels, in points.
pub const TICK_SPACING: f32 = 80.0;
/// Width of the Cram editor's report column, in points.
pub const CRAM_REPORT_WIDTH: f32 = 320.0;

// The inspector and its marks on the map.
pub const WINNING_TEXT: Color32 = Color32::from_rgb(80, 200, 120);
pub const MEX_HIGHLIGHT: Color32 = Color32::from_rgb(255, 170, 0);
pub const VALUE_PRESENT: Color32 = Color32::from_rgb(70, 110, 170);
pub const VALUE_ABSENT: Color32 = Color32::from_gray(45);
// the map's legend names them, so they come from the raster path's colours
pub const SELECTED_OUTLINE: Color32 = rgb(nimscope_core::raster::colors::MARK_SELECTED);
pub const OPTION_MARK: Color32 = rgb(nimscope_core::raster::colors::MARK_OPTION);
pub const WINNING_MARK: Color32 = rgb(nimscope_core::raster::colors::MARK_WINNING);
/// Indentation of one level of the move tree, in points.
pub const TREE_INDENT: f32 = 14.0;

/// Text for the window: the default fonts lack some symbols the move descriptions use (an
/// arrow, ⊕, ≤, ≥), so they are spelled in ASCII here; the command line keeps them.
pub fn shown(text: &str) -> String {
    text.replace('→', "->")
        .replace('⊕', "xor")
        .replace('≤', "<=")
        .replace('≠', "!=")
        .replace('≥', ">=")
}

/// The panels' background, by theme. The window is cleared to it and the panels paint no fill
/// of their own ([`apply`]): under a software renderer every pixel painted costs CPU, and the
/// panels' fills were one full layer over the whole window (a frame at 1280 × 800 under
/// lavapipe: 0.17 s of CPU with them, 0.11 s without).
pub fn panel_background(visuals: &egui::Visuals) -> Color32 {
    if visuals.dark_mode {
        egui::Visuals::dark().panel_fill
    } else {
        egui::Visuals::light().panel_fill
    }
}

/// Sets the window's text sizes: helper texts readable at a glance.
pub fn apply(ctx: &egui::Context) {
    ctx.all_styles_mut(|style| {
        style
            .text_styles
            .insert(egui::TextStyle::Small, egui::FontId::proportional(SMALL_TEXT));
        // the clear colour is the panels' background (`panel_background`)
        style.visuals.panel_fill = Color32::TRANSPARENT;
    });
}

/// Names a painted view (the map, the plot, the strip) for screen readers: its role and what
/// it shows.
pub fn set_accessible(ui: &egui::Ui, id: egui::Id, role: egui::accesskit::Role, name: &str) {
    ui.ctx().accesskit_node_builder(id, |node| {
        node.set_role(role);
        node.set_label(name.to_string());
    });
}

#[cfg(test)]
mod tests {
    use egui::Color32;

    use super::{error_text, map_off, notice_text, panel_background};

    /// WCAG's contrast ratio of two colours.
    fn contrast(x: Color32, y: Color32) -> f32 {
        let lum = |c: Color32| {
            let f = |v: u8| {
                let v = f32::from(v) / 255.0;
                if v <= 0.039_28 {
                    v / 12.92
                } else {
                    ((v + 0.055) / 1.055).powf(2.4)
                }
            };
            0.2126 * f(c.r()) + 0.7152 * f(c.g()) + 0.0722 * f(c.b())
        };
        let (a, b) = (lum(x), lum(y));
        (a.max(b) + 0.05) / (a.min(b) + 0.05)
    }

    /// The status bar's notices and errors read on both themes' backgrounds (WCAG AA for text,
    /// 4.5:1), and the map's surroundings stand apart from the panels.
    #[test]
    fn texts_read_in_both_themes() {
        for visuals in [egui::Visuals::dark(), egui::Visuals::light()] {
            let bg = panel_background(&visuals);
            for (what, c) in [("notice", notice_text(&visuals)), ("error", error_text(&visuals))] {
                let r = contrast(c, bg);
                assert!(r >= 4.5, "{what} in dark mode {}: {r}", visuals.dark_mode);
            }
            assert!(
                contrast(
                    map_off(if visuals.dark_mode {
                        egui::Theme::Dark
                    } else {
                        egui::Theme::Light
                    }),
                    bg
                ) >= 1.1,
                "dark mode {}",
                visuals.dark_mode
            );
        }
    }
}
