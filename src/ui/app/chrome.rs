//! The window's chrome: keyboard shortcuts, the menu bar, the colour mode menu and the status
//! bar with the map's progress.

use std::time::Instant;

use super::*;
use crate::ui::canvas::{self, MapKey};
use crate::ui::panels::inspector::{self};
use crate::ui::theme;
use crate::worker::{JobSpec, Lane};
use nimscope_core::raster::{COLOR_MODES, ColorRange, Pooling};

impl App {
    pub(super) fn shortcuts_ui(&mut self, ctx: &egui::Context) {
        if ctx.input_mut(|i| i.consume_key(egui::Modifiers::COMMAND, egui::Key::Q)) {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
        self.prefs_ui(ctx);
        self.escape_ui(ctx);
        self.file_shortcuts_ui(ctx);
        inspector::keyboard_ui(ctx, &mut self.inspector); // the arrows, while the pointer is over the inspector
        canvas::keyboard_ui(ctx, &mut self.map_state);
    }

    /// Escape closes the windows over the map: Help, Export figure, Session notes and the
    /// misère quotient (the file prompts and the unsaved-changes question close on it
    /// themselves, as Cancel).
    fn escape_ui(&mut self, ctx: &egui::Context) {
        if self.sessions.pending.is_some() || self.sessions.confirm.is_some() {
            return;
        }
        if ctx.input(|i| i.key_pressed(egui::Key::Escape)) {
            self.show_help = false;
            self.sessions.show_export = false;
            self.sessions.show_notes = false;
            self.quotient.open = false;
        }
    }

    pub(super) fn menu_ui(&mut self, ui: &mut egui::Ui) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| self.file_menu_ui(ui));
            ui.menu_button("View", |ui| {
                // taller than a small screen at a large UI scale: the menu scrolls, and what a
                // projector needs first (theme, UI scale, panels) comes first
                let room = ui.ctx().content_rect().height() - ui.next_widget_position().y - 8.0;
                egui::ScrollArea::vertical().max_height(room.max(120.0)).show(ui, |ui| {
                    self.theme_menu_ui(ui);
                    self.panels_menu_ui(ui);
                    ui.separator();
                    self.view_menu_ui(ui);
                });
            });
            ui.menu_button("Help", |ui| {
                for (page, label) in [
                    (help::HelpPage::QuickStart, "Quick start"),
                    (help::HelpPage::Keys, "Keys and gestures"),
                    (help::HelpPage::About, "About nimscope"),
                ] {
                    if ui.button(label).clicked() {
                        self.show_help = true;
                        self.help_page = page;
                        ui.close();
                    }
                }
            });
        });
    }

    /// The View menu's map entries: zoom, colours, overlays.
    fn view_menu_ui(&mut self, ui: &mut egui::Ui) {
        for (label, key) in [
            ("Zoom in  (+)", MapKey::ZoomIn),
            ("Zoom out  (-)", MapKey::ZoomOut),
            ("Fit the region  (0)", MapKey::Fit),
        ] {
            if ui.button(label).clicked() {
                self.map_state.apply(key);
            }
        }
        ui.separator();
        self.color_mode_ui(ui);
        ui.separator();
        let o = &mut self.map_state.overlays;
        ui.checkbox(&mut o.grid_lines, "Grid lines");
        ui.checkbox(&mut o.phi_lines, "Lines b = φa and a = φb");
        ui.checkbox(&mut o.wythoff_pairs, "Wythoff pairs");
        ui.checkbox(&mut o.theorem_316, "Thm 3.1.6 P-positions of push(nim,euclid0)");
    }

    /// The colour mode choices (in the View menu).
    pub fn color_mode_ui(&mut self, ui: &mut egui::Ui) {
        let c = &mut self.map_state.color;
        for choice in COLOR_MODES {
            ui.radio_value(c, choice.mode, choice.label);
        }
        ui.separator();
        self.color_range_ui(ui);
    }

    /// The range of the Grundy colours: automatic (kept while panning; "Rescale" takes the
    /// view's), or a fixed top the user types. Figures exported take the same.
    pub fn color_range_ui(&mut self, ui: &mut egui::Ui) {
        let range = self.sessions.figure.range;
        let shown = self.map.range_top(range);
        ui.label("Colour range of Grundy values");
        let mut fixed = matches!(range, ColorRange::Fixed(_));
        ui.horizontal(|ui| {
            if ui
                .radio(!fixed, "Automatic")
                .on_hover_text(
                    "the top colour at the 99th percentile of the values of the first view filled; kept while panning",
                )
                .clicked()
            {
                fixed = false;
            }
            if ui
                .radio(fixed, "Fixed top")
                .on_hover_text("values above the top share its colour")
                .clicked()
            {
                fixed = true;
            }
        });
        let mut top = match range {
            ColorRange::Fixed(t) => t,
            ColorRange::Auto => shown.top,
        };
        ui.horizontal(|ui| {
            let label = ui.label("Top");
            ui.add_enabled(fixed, egui::DragValue::new(&mut top).range(1..=u32::MAX - 2))
                .labelled_by(label.id);
            if ui
                .button("Rescale to this view")
                .on_hover_text("take the automatic top from the values in view now")
                .clicked()
            {
                fixed = false;
                self.map.rescale();
            }
        });
        self.sessions.figure.range = if fixed {
            ColorRange::Fixed(top.max(1))
        } else {
            ColorRange::Auto
        };
        if let Some(note) = shown.clipped_note() {
            ui.small(note);
        }
        self.pooling_ui(ui);
    }

    /// What a pixel of the Grundy colours shows when it covers several cells: the least value
    /// (a P-position is never hidden), the most common, or the greatest. Saved with the
    /// session's figure settings, so its figures pool the same way.
    pub fn pooling_ui(&mut self, ui: &mut egui::Ui) {
        ui.label("A pixel of many cells shows");
        ui.horizontal(|ui| {
            for (pooling, label, tip) in [
                (Pooling::Least, "least G", "a P-position (G = 0) is never hidden"),
                (
                    Pooling::MostCommon,
                    "most common G",
                    "the value most of its cells have (ties: the least)",
                ),
                (Pooling::Greatest, "greatest G", "the largest values stand out"),
            ] {
                ui.radio_value(&mut self.sessions.figure.pooling, pooling, label)
                    .on_hover_text(tip);
            }
        });
    }

    pub(super) fn status_bar_ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            let mut cancel = false;
            let map_running = self.worker.as_ref().is_some_and(|w| w.is_running(Lane::Map));
            let map_text = self.map_progress_text(map_running);
            if let Some(w) = &self.worker {
                for r in w.running() {
                    if r.lane == Lane::Map && matches!(r.spec, JobSpec::Map(_)) {
                        continue; // the map's own figure follows
                    }
                    let (done, total) = r.control.progress();
                    let frac = if total > 0 { done as f32 / total as f32 } else { 0.0 };
                    let secs = r.started.elapsed().as_secs_f64().max(1e-3);
                    ui.label(r.spec.describe());
                    if total == 0 {
                        // unknown size (a Cram search): what has been done so far
                        crate::ui::busy_ui(ui);
                        ui.label(format!("{done} {} searched", r.spec.unit()));
                        continue;
                    }
                    ui.add(
                        egui::ProgressBar::new(frac.min(1.0))
                            .desired_width(160.0)
                            .show_percentage(),
                    );
                    ui.label(rate_text(done, secs, r.spec.unit()));
                }
                if let Some(text) = map_text {
                    let p = &self.map_progress;
                    ui.add(
                        egui::ProgressBar::new((p.done as f64 / p.in_view.max(1) as f64) as f32)
                            .desired_width(160.0)
                            .show_percentage(),
                    );
                    ui.label(text);
                }
                if w.running().next().is_some() && ui.button("Cancel").clicked() {
                    cancel = true;
                }
            }
            if cancel {
                self.cancel_jobs();
            }
            // the map too far to compute is said while the view reaches it, not after a Fit
            let status = match &self.status {
                MapStatus::TooFar { far, .. } => {
                    let view = self.map_state.visible_cells(u64::MAX);
                    (view.rows.end.max(view.cols.end) > *far)
                        .then(|| self.status.message())
                        .flatten()
                }
                s => s.message(),
            };
            if let Some(s) = status {
                let red = theme::error_text(ui.visuals());
                notice::status_text_ui(ui, red, &s);
            } else if !notice::notice_ui(ui, self.notice.as_ref())
                && let Some(h) = self.hovered
            {
                ui.label(h.describe());
            }
        });
    }
}

impl App {
    /// The status bar's words on the map's fill while the view is not complete: cells done of
    /// the cells in view (monotonic while the view stays), and the rate since the view began.
    pub(super) fn map_progress_text(&mut self, running: bool) -> Option<String> {
        let CentralView::Map(_) = self.central_view() else {
            return None;
        };
        let view = self.map_state.visible_cells(self.map_limit());
        let p = self.map_progress;
        if !matches!(&self.map.fill, Some((v, _, _)) if *v == view) {
            self.map.fill = Some((view, Instant::now(), p.done));
        }
        if p.is_complete() && !running {
            return None;
        }
        let (_, since, done0) = self.map.fill.as_ref()?;
        let secs = since.elapsed().as_secs_f64().max(1e-3);
        let new_cells = p.done.saturating_sub(*done0);
        let counts = format!("map: {} of {} cells", count_text(p.done), count_text(p.in_view));
        if new_cells == 0 {
            // no batch yet since the view changed: a rate of 0.0 would say the solver stalled
            return Some(counts);
        }
        Some(format!("{counts}, {:.1} M cells/s", new_cells as f64 / secs / 1e6))
    }
}

/// A count of cells in a few digits: 830, 12.5 k, 16.8 M.
fn count_text(n: u64) -> String {
    match n {
        0..1_000 => n.to_string(),
        1_000..1_000_000 => format!("{:.1} k", n as f64 / 1e3),
        _ => format!("{:.1} M", n as f64 / 1e6),
    }
}

/// A rate in words: `1.2 M heaps/s`, `350 options/s` (the count as [`count_text`] writes it).
fn rate_text(done: u64, secs: f64, unit: &str) -> String {
    format!("{} {unit}/s", count_text((done as f64 / secs.max(1e-3)) as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rate_names_what_its_job_counts() {
        let seq = JobSpec::Sequence {
            ruleset: Ruleset::Nim,
            n: 100_000,
        };
        assert_eq!(rate_text(2_000_000, 1.0, seq.unit()), "2.0 M heaps/s");
        let pos = JobSpec::Position {
            ruleset: Ruleset::Nim,
            position: nimscope_core::game::Position::heaps(&[3, 5]),
            limit: 100,
        };
        assert_eq!(rate_text(350, 1.0, pos.unit()), "350 options/s");
        assert_eq!(rate_text(4_500, 1.0, "cells"), "4.5 k cells/s");
    }
}
