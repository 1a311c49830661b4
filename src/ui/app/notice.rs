//! Passing messages in the status bar (a file opened, saved or exported, or why not; map tiles
//! evicted). Kept apart from the map's status, whose errors hold back the map's jobs.

use std::time::{Duration, Instant};

use crate::ui::theme;

/// How long the status bar shows a notice, and a notice about an error.
const NOTICE_FOR: Duration = Duration::from_secs(10);
const ERROR_FOR: Duration = Duration::from_secs(60);

#[derive(Debug, Clone)]
pub struct Notice {
    pub text: String,
    pub error: bool,
    shown_at: Instant,
}

impl Notice {
    pub fn done(text: String) -> Self {
        Self {
            text,
            error: false,
            shown_at: Instant::now(),
        }
    }

    pub fn error(text: String) -> Self {
        Self {
            text,
            error: true,
            shown_at: Instant::now(),
        }
    }

    /// Whether it is still shown.
    pub fn is_visible(&self) -> bool {
        self.shown_at.elapsed() <= if self.error { ERROR_FOR } else { NOTICE_FOR }
    }
}

/// Draws the notice if it is still shown; returns whether it drew.
pub fn notice_ui(ui: &mut egui::Ui, notice: Option<&Notice>) -> bool {
    let Some(n) = notice.filter(|n| n.is_visible()) else {
        return false;
    };
    let visuals = ui.visuals();
    let color = if n.error {
        theme::error_text(visuals)
    } else {
        theme::notice_text(visuals)
    };
    status_text_ui(ui, color, &n.text);
    true
}

/// A line of the status bar: cut at the window's edge with "…", the whole text in its tooltip
/// (a long message never runs out of sight).
pub fn status_text_ui(ui: &mut egui::Ui, color: egui::Color32, text: &str) {
    // in the window's fonts (a cycle's arrows are drawn as ->)
    let text = &crate::ui::theme::shown(text);
    let label = egui::Label::new(egui::RichText::new(text).color(color)).truncate();
    ui.add(label).on_hover_text(text);
}
