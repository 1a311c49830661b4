//! The window's room and looks ([`Room`]): the preferences at work (the UI scale and the theme
//! applied on the first frame and followed after, kept between runs as
//! [`nimscope_core::session::WindowPrefs`]), which side panels are drawn and how wide (each
//! within a share of the window, folded when the map would be left too narrow), the keys and
//! buttons that fold them (F2, F3), and the View menu's entries for all of it.

use std::ops::RangeInclusive;

use crate::ui::theme;

pub use nimscope_core::session::WindowPrefs as Prefs;

/// A side panel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Rulesets,
    Inspector,
}

/// The UI scales Ctrl+plus and Ctrl+minus reach (egui's own limits).
const UI_SCALE: RangeInclusive<f32> = 0.2..=5.0;

/// The narrowest a side panel gets, in points.
const MIN_PANEL: f32 = 160.0;
/// The map's cells keep at least this width, in points: side panels that leave less are folded
/// away (the inspector first), and come back when the window is wide enough again.
pub const MIN_MAP_WIDTH: f32 = 360.0;
/// Room the map's axes and legend take beside its cells, in points.
const MAP_FRAME_WIDTH: f32 = 260.0;

/// Which side panels are drawn, and within which widths.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PanelsShown {
    pub rulesets: Option<RangeInclusive<f32>>,
    pub inspector: Option<RangeInclusive<f32>>,
    /// A panel the user wants is folded away for lack of room.
    pub folded_for_room: bool,
}

/// The preferences and the side panels' room.
#[derive(Debug, Clone, Default)]
pub struct Room {
    prefs: Prefs,
    /// Whether the preferences were applied to the window (on the first frame, or after they
    /// were restored).
    applied: bool,
    /// The side panels drawn in the last frame.
    shown: PanelsShown,
    /// The side panel the user last asked to see: it stays, even where the room would fold it
    /// (the other folds first).
    insist: Option<Side>,
    /// The inspector's selection as of the last frame (as text): a new one shows its inspector.
    selection_seen: Option<String>,
}

impl Room {
    /// The preferences (UI scale, theme, side panels wanted).
    pub fn prefs(&self) -> &Prefs {
        &self.prefs
    }

    /// Takes restored preferences (applied on the next frame).
    pub fn set_prefs(&mut self, prefs: Prefs) {
        self.prefs = prefs;
        self.applied = false;
    }

    /// The side panels drawn in the last frame.
    pub fn shown(&self) -> &PanelsShown {
        &self.shown
    }

    /// Applies the preferences on the first frame (or after they were restored), and from then
    /// on records the UI scale the user chose with Ctrl+plus, Ctrl+minus and Ctrl+0; F2 and F3
    /// fold the side panels. Returns the UI scale restored this frame, if any (the map keeps a
    /// region it shows whole under it).
    pub fn keys_ui(&mut self, ctx: &egui::Context) -> Option<f32> {
        let mut restored = None;
        if !self.applied {
            self.applied = true;
            let scale = self.prefs.ui_scale;
            if scale.is_finite() && UI_SCALE.contains(&scale) {
                ctx.set_zoom_factor(scale);
                restored = Some(scale);
            }
            ctx.set_theme(self.theme());
        }
        self.prefs.ui_scale = ctx.zoom_factor();
        if ctx.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::F2)) {
            self.toggle(Side::Rulesets);
        }
        if ctx.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::F3)) {
            self.toggle(Side::Inspector);
        }
        restored
    }

    /// Shows a side panel hidden (by the user, or folded for lack of room: then it is shown
    /// anyway, the other folding first) or hides one shown: F2, F3, the buttons above the map
    /// and the View menu.
    pub fn toggle(&mut self, side: Side) {
        let shown = match side {
            Side::Rulesets => self.shown.rulesets.is_some(),
            Side::Inspector => self.shown.inspector.is_some(),
        };
        match side {
            Side::Rulesets => self.prefs.show_rulesets = !shown,
            Side::Inspector => self.prefs.show_inspector = !shown,
        }
        if !shown {
            self.insist = Some(side);
        } else if self.insist == Some(side) {
            self.insist = None;
        }
    }

    /// Takes the inspector's selection (as text) before the panels are measured: a new one
    /// shows the inspector when it was folded away for lack of room (the rulesets fold first),
    /// so a selected position always has its report beside it (`--select` at UI scale 2 marked
    /// a position whose inspector was folded away). An inspector the user hid stays hidden.
    pub fn follow_selection(&mut self, selected: Option<String>) {
        let new = selected.is_some() && selected != self.selection_seen;
        if new && self.prefs.show_inspector && self.shown.inspector.is_none() {
            self.insist = Some(Side::Inspector);
        }
        self.selection_seen = selected;
    }

    /// The side panels a window `width` points wide draws this frame, given which may be shown
    /// here (the board editor takes the room of both, the rulesets come back on demand).
    pub fn measure(&mut self, width: f32, allowed: (bool, bool)) -> PanelsShown {
        self.shown = side_panels_room(width, allowed, &self.prefs, self.insist);
        self.shown.clone()
    }

    fn theme(&self) -> egui::Theme {
        if self.prefs.light_theme {
            egui::Theme::Light
        } else {
            egui::Theme::Dark
        }
    }

    /// The View menu's theme, UI scale and side panels entries.
    pub fn menu_ui(&mut self, ui: &mut egui::Ui) {
        if ui
            .checkbox(&mut self.prefs.light_theme, "Light theme (slides, projectors)")
            .changed()
        {
            ui.ctx().set_theme(self.theme());
        }
        ui.horizontal(|ui| {
            ui.label(format!("UI scale {:.0}%", self.prefs.ui_scale * 100.0));
            if ui.button("-").on_hover_text("Ctrl+minus").clicked() {
                egui::gui_zoom::zoom_out(ui.ctx());
            }
            if ui.button("+").on_hover_text("Ctrl+plus").clicked() {
                egui::gui_zoom::zoom_in(ui.ctx());
            }
            if ui.button("100%").on_hover_text("Ctrl+0").clicked() {
                ui.ctx().set_zoom_factor(1.0);
            }
        });
        let shown = self.shown.clone();
        for (side, on, label) in [
            (Side::Rulesets, shown.rulesets.is_some(), "Show rulesets  (F2)"),
            (Side::Inspector, shown.inspector.is_some(), "Show inspector  (F3)"),
        ] {
            let mut now = on;
            if ui.checkbox(&mut now, label).clicked() {
                self.toggle(side);
            }
        }
    }

    /// The buttons above the map that fold and unfold the side panels (also F2 and F3).
    pub fn toggles_ui(&mut self, ui: &mut egui::Ui) {
        let shown = self.shown.clone();
        let label = |on: bool, name: &str| {
            if on {
                format!("Hide {name}")
            } else {
                format!("Show {name}")
            }
        };
        if ui
            .selectable_label(shown.rulesets.is_some(), label(shown.rulesets.is_some(), "rulesets"))
            .on_hover_text("the ruleset panel on the left (F2)")
            .clicked()
        {
            self.toggle(Side::Rulesets);
        }
        if ui
            .selectable_label(shown.inspector.is_some(), label(shown.inspector.is_some(), "inspector"))
            .on_hover_text("the inspector on the right (F3)")
            .clicked()
        {
            self.toggle(Side::Inspector);
        }
        if shown.folded_for_room {
            ui.small("(folded: the window is narrow)").on_hover_text(
                "a side panel is folded so the map keeps its room; widen the window or lower the UI scale (Ctrl+minus)",
            );
        }
    }
}

/// A side panel's width range on a window `width` points wide: its own range, narrowed so that
/// the panel never takes more than `share` of the window.
fn panel_range(base: f32, width: f32, share: f32) -> RangeInclusive<f32> {
    let max = (base * 1.6).min(width * share).max(MIN_PANEL);
    let min = (base * 0.7).min(max);
    min..=max
}

/// The side panels a window `width` points wide draws, given which may be shown here and which
/// the user wants: each at most a share of the window, and none when the map would be left
/// narrower than [`MIN_MAP_WIDTH`] (the inspector folds first), except the one the user last
/// asked for (`insist`): the other folds first, and it stays even if the map is then narrower.
fn side_panels_room(
    width: f32,
    (rulesets, inspector): (bool, bool),
    prefs: &Prefs,
    insist: Option<Side>,
) -> PanelsShown {
    let want_left = rulesets && prefs.show_rulesets;
    let want_right = inspector && prefs.show_inspector;
    let left = panel_range(theme::SIDE_PANEL_WIDTH, width, 0.28);
    let right = panel_range(theme::INSPECTOR_WIDTH, width, 0.32);
    let need = |l: bool, r: bool| {
        MIN_MAP_WIDTH + MAP_FRAME_WIDTH + if l { *left.start() } else { 0.0 } + if r { *right.start() } else { 0.0 }
    };
    let (mut l, mut r) = (want_left, want_right);
    let order = if insist == Some(Side::Inspector) {
        [Side::Rulesets, Side::Inspector]
    } else {
        [Side::Inspector, Side::Rulesets]
    };
    for side in order {
        if need(l, r) > width && insist != Some(side) {
            match side {
                Side::Rulesets => l = false,
                Side::Inspector => r = false,
            }
        }
    }
    PanelsShown {
        rulesets: l.then_some(left),
        inspector: r.then_some(right),
        folded_for_room: (want_left && !l) || (want_right && !r),
    }
}
