//! The window's preferences at work: the UI scale and the theme applied on the first frame and
//! followed every frame after, the keys that fold the side panels (F2, F3), and the View
//! menu's theme choice. They are kept with the window's state between runs
//! ([`nimscope_core::session::WindowPrefs`]).

use super::*;

pub use nimscope_core::session::WindowPrefs as Prefs;

/// A side panel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Rulesets,
    Inspector,
}

/// The UI scales Ctrl+plus and Ctrl+minus reach (egui's own limits).
const UI_SCALE: std::ops::RangeInclusive<f32> = 0.2..=5.0;

impl App {
    /// Applies the preferences on the first frame (or after they were restored), and from then
    /// on records the UI scale the user chose with Ctrl+plus, Ctrl+minus and Ctrl+0.
    pub(super) fn prefs_ui(&mut self, ctx: &egui::Context) {
        if !self.prefs_applied {
            self.prefs_applied = true;
            let scale = self.prefs.ui_scale;
            if scale.is_finite() && UI_SCALE.contains(&scale) {
                ctx.set_zoom_factor(scale);
                self.map_state.zoom_restored = Some(scale);
            }
            ctx.set_theme(self.theme());
        }
        self.prefs.ui_scale = ctx.zoom_factor();
        if ctx.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::F2)) {
            self.toggle_panel(Side::Rulesets);
        }
        if ctx.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::F3)) {
            self.toggle_panel(Side::Inspector);
        }
    }

    /// Shows a side panel hidden (by the user, or folded for lack of room: then it is shown
    /// anyway, the other folding first) or hides one shown: F2, F3, the buttons above the map
    /// and the View menu.
    pub fn toggle_panel(&mut self, side: Side) {
        let shown = match side {
            Side::Rulesets => self.panels_shown.rulesets.is_some(),
            Side::Inspector => self.panels_shown.inspector.is_some(),
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

    /// The View menu's entries for the side panels.
    pub(super) fn panels_menu_ui(&mut self, ui: &mut egui::Ui) {
        let shown = self.panels_shown.clone();
        for (side, on, label) in [
            (Side::Rulesets, shown.rulesets.is_some(), "Show rulesets  (F2)"),
            (Side::Inspector, shown.inspector.is_some(), "Show inspector  (F3)"),
        ] {
            let mut now = on;
            if ui.checkbox(&mut now, label).clicked() {
                self.toggle_panel(side);
            }
        }
    }

    fn theme(&self) -> egui::Theme {
        if self.prefs.light_theme {
            egui::Theme::Light
        } else {
            egui::Theme::Dark
        }
    }

    /// The View menu's theme and UI scale entries.
    pub(super) fn theme_menu_ui(&mut self, ui: &mut egui::Ui) {
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
    }

    /// Takes restored preferences (applied on the next frame).
    pub(super) fn set_prefs(&mut self, prefs: Prefs) {
        self.prefs = prefs;
        self.prefs_applied = false;
    }
}
