//! The window's preferences at work: the UI scale and the theme applied on the first frame and
//! followed every frame after, the keys that fold the side panels (F2, F3), and the View
//! menu's theme choice. They are kept with the window's state between runs
//! ([`crate::session::WindowPrefs`]).

use super::*;

pub use crate::session::WindowPrefs as Prefs;

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
            }
            ctx.set_theme(self.theme());
        }
        self.prefs.ui_scale = ctx.zoom_factor();
        if ctx.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::F2)) {
            self.prefs.show_rulesets = self.panels_shown.rulesets.is_none();
        }
        if ctx.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::F3)) {
            self.prefs.show_inspector = self.panels_shown.inspector.is_none();
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
