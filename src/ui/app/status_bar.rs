//! The status bar: every running job with its progress and rate, the map's fill, a Cancel that
//! stops them all, and one line of words: the map's trouble (in red), else a passing notice,
//! else the cell under the pointer.

use crate::ui::app::action::Action;
use crate::ui::app::map_view::count_text;
use crate::ui::app::notice::{self, Notice};
use crate::ui::canvas::{HoveredCell, MapProgress};
use crate::ui::theme;
use crate::worker::{JobSpec, Lane, Worker};

/// What the status bar shows this frame.
pub struct StatusBar<'a> {
    pub worker: Option<&'a Worker>,
    /// The map's fill in words while it is not complete (see
    /// [`super::map_view::MapView::progress_text`]).
    pub map_text: Option<String>,
    pub progress: MapProgress,
    /// The map's trouble, said in red.
    pub status: Option<String>,
    pub notice: Option<&'a Notice>,
    pub hovered: Option<HoveredCell>,
}

impl StatusBar<'_> {
    /// Draws the bar; returns [`Action::CancelJobs`] when Cancel was pressed.
    pub fn ui(&self, ui: &mut egui::Ui) -> Action {
        let mut action = Action::None;
        ui.horizontal(|ui| {
            if let Some(w) = self.worker {
                self.jobs_ui(ui, w);
                if w.running().next().is_some() && ui.button("Cancel").clicked() {
                    action = Action::CancelJobs;
                }
            }
            if let Some(s) = &self.status {
                let red = theme::error_text(ui.visuals());
                notice::status_text_ui(ui, red, s);
            } else if !notice::notice_ui(ui, self.notice)
                && let Some(h) = self.hovered
            {
                ui.label(h.describe());
            }
        });
        action
    }

    /// The running jobs with their progress, and the map's fill.
    fn jobs_ui(&self, ui: &mut egui::Ui, w: &Worker) {
        for r in w.running() {
            if r.lane == Lane::Map && matches!(r.spec, JobSpec::Map(_)) {
                continue; // the map's own figure follows
            }
            let (done, total) = r.control.progress();
            let frac = if total > 0 { done as f32 / total as f32 } else { 0.0 };
            let secs = r.started.elapsed().as_secs_f64().max(1e-3);
            ui.label(r.spec.describe());
            let stage = r.control.stage();
            if !stage.is_empty() && total == 0 {
                // a part counted apart (a misère sequence's quotient first): named, not a
                // count of the job's units that stays at 0
                crate::ui::busy_ui(ui);
                ui.label(format!("computing {stage}"));
                continue;
            }
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
        if let Some(text) = &self.map_text {
            let p = &self.progress;
            ui.add(
                egui::ProgressBar::new((p.done as f64 / p.in_view.max(1) as f64) as f32)
                    .desired_width(160.0)
                    .show_percentage(),
            );
            ui.label(text);
        }
    }
}

/// A rate in words: `1.2 M heaps/s`, `350 options/s` (the count as [`count_text`] writes it).
fn rate_text(done: u64, secs: f64, unit: &str) -> String {
    format!("{} {unit}/s", count_text((done as f64 / secs.max(1e-3)) as u64))
}

#[cfg(test)]
mod tests {
    use super::rate_text;
    use crate::worker::JobSpec;
    use nimscope_core::game::{Position, Ruleset};

    #[test]
    fn a_rate_names_what_its_job_counts() {
        let seq = JobSpec::Sequence {
            ruleset: Ruleset::Nim,
            n: 100_000,
        };
        assert_eq!(rate_text(2_000_000, 1.0, seq.unit()), "2.0 M heaps/s");
        let pos = JobSpec::Position {
            ruleset: Ruleset::Nim,
            position: Position::heaps(&[3, 5]),
            limit: 100,
        };
        assert_eq!(rate_text(350, 1.0, pos.unit()), "350 options/s");
        assert_eq!(rate_text(4_500, 1.0, "cells"), "4.5 k cells/s");
    }
}
