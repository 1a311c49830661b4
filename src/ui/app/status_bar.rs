//! The status bar: every running job with its progress and rate, the centre's job (the map's
//! fill or the one-heap sequence) as its one [`JobState`] says, a Cancel that stops them all,
//! and one line of words: the map's trouble (in red), else a passing notice, else the cell
//! under the pointer.

use crate::ui::app::action::Action;
use crate::ui::app::notice::{self, Notice};
use crate::ui::canvas::HoveredCell;
use crate::ui::job::{JobState, count_text};
use crate::ui::theme;
use crate::worker::{Lane, Worker};

/// The centre's job as the status bar shows it: what it computes ("the map", "G(0..600)"),
/// its state (the centre reads the same), and the words on its progress (the map's cells done
/// and rate, the sequence's rate).
pub struct CentreJob {
    pub what: String,
    pub state: JobState,
    pub detail: Option<String>,
}

/// What the status bar shows this frame.
pub struct StatusBar<'a> {
    pub worker: Option<&'a Worker>,
    /// The centre's job, when the centre shows a map or a sequence.
    pub centre: Option<CentreJob>,
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
                if let Some(c) = &self.centre {
                    action = centre_job_ui(ui, c);
                }
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

    /// The running jobs with their progress but the centre's (its state follows).
    fn jobs_ui(&self, ui: &mut egui::Ui, w: &Worker) {
        for r in w.running() {
            if r.lane == Lane::Map && self.centre.is_some() {
                continue; // the centre's job is shown as its state says
            }
            // the state the inspector reads too (its count the same words)
            let state = JobState::of_control(&r.control);
            let JobState::Running { done, stage, .. } = &state else {
                continue;
            };
            ui.label(r.spec.describe());
            let unit = r.spec.unit();
            let count = state.count_text(unit);
            match state.fraction() {
                // a part counted apart (a misère sequence's quotient first): named, not a
                // count of the job's units that stays at 0
                None if !stage.is_empty() => {
                    crate::ui::busy_ui(ui);
                    ui.label(format!("computing {stage}"));
                }
                // unknown size (a Cram search): what has been done so far, once counted
                None => {
                    crate::ui::busy_ui(ui);
                    if let Some(count) = count {
                        ui.label(count);
                    }
                }
                // the count and its rate once there is one (see JobState::count_text)
                Some(f) => {
                    ui.add(egui::ProgressBar::new(f).desired_width(160.0).show_percentage());
                    if let Some(count) = count {
                        let rate = rate_text(*done, r.started.elapsed().as_secs_f64(), unit);
                        ui.label(format!("{count}, {rate}"));
                    }
                }
            }
        }
    }
}

/// The centre's job as its state says: a progress bar only while it runs with a known size,
/// "queued", "held back" and why (in red), "stopped by Cancel" with "Compute … again", nothing
/// once done or failed (the centre and the red words say why); returns
/// [`Action::ResumeCentre`] when Compute again was pressed.
fn centre_job_ui(ui: &mut egui::Ui, c: &CentreJob) -> Action {
    match &c.state {
        JobState::Running { stage, .. } => {
            if let Some(f) = c.state.fraction() {
                ui.label(&c.what);
                ui.add(egui::ProgressBar::new(f).desired_width(160.0).show_percentage());
            } else {
                crate::ui::busy_ui(ui);
                ui.label(match stage.is_empty() {
                    true => format!("computing {}", c.what),
                    // a part counted apart (a misère sequence's quotient first): named, not a
                    // count of the job's units that stays at 0
                    false => format!("computing {stage}"),
                });
            }
            if let Some(d) = &c.detail {
                ui.label(d);
            }
        }
        JobState::Queued => {
            ui.label(format!("{}: queued", c.what));
        }
        JobState::Cancelled => {
            ui.label(format!("{}: stopped by Cancel", c.what));
            if ui.button(format!("Compute {} again", c.what)).clicked() {
                return Action::ResumeCentre;
            }
        }
        JobState::Held(_) => {
            // refused before it started: said as the map's trouble is, in red
            let red = theme::error_text(ui.visuals());
            notice::status_text_ui(ui, red, &c.state.centre_text(&c.what));
        }
        JobState::Done | JobState::Failed(_) => {}
    }
    Action::None
}

/// A rate in words: `1.2 M heaps/s`, `350 positions/s` (the count as [`count_text`] writes it).
pub(super) fn rate_text(done: u64, secs: f64, unit: &str) -> String {
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
        assert_eq!(rate_text(350, 1.0, pos.unit()), "350 positions/s");
        assert_eq!(rate_text(4_500, 1.0, "cells"), "4.5 k cells/s");
    }
}
