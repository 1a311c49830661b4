//! The window: everything that names egui, eframe, egui_plot or rfd, behind the `gui` feature.
//! [`theme`] (colours, sizes, text the fonts can draw) and [`job`] (the one state of a job
//! that every part shows) are the base every other part builds on;
//! [`canvas`] draws the map, the one-heap strip and the Cram board; [`panels`] the ruleset
//! picker, the inspector and the board editor; [`app`] puts them together, runs the worker's
//! results into them and handles files; [`trace`] records each frame for measurements. Nothing here climbs back up: the panels and the canvas
//! never import `app`.

pub mod app;
pub mod canvas;
pub mod job;
pub mod panels;
pub mod theme;
pub mod trace;

pub use app::{App, WindowOptions, run_window};

/// Asks egui for one more frame, soon. `Context::request_repaint` draws two (egui lets things
/// "settle" for a frame), and under a software renderer a frame costs up to 0.1 s of CPU
/// that a running fill then lacks: a map's batches woke the window for two or three frames
/// each. A delay above zero asks for exactly one.
#[track_caller]
pub fn repaint_once(ctx: &egui::Context) {
    ctx.request_repaint_after(std::time::Duration::from_millis(1));
}

/// How often the window is redrawn while a job runs and nothing else asks: progress a few
/// times a second, never a continuous repaint (under a software renderer each frame costs the
/// solver a tenth of a second of CPU).
pub const PROGRESS_INTERVAL: std::time::Duration = std::time::Duration::from_millis(300);

/// Wakes the window for a job's news (a map's batch, a quotient's stage) at most a few times
/// a second: wakes within [`WAKE_DELAY`] of each other make one frame.
#[track_caller]
pub fn wake_soon(ctx: &egui::Context) {
    ctx.request_repaint_after(WAKE_DELAY);
}

/// The longest a job's news waits for a frame.
pub const WAKE_DELAY: std::time::Duration = std::time::Duration::from_millis(150);

/// A still mark that work is under way (egui's spinner redraws the window every frame while
/// shown; this one is redrawn only with the progress).
pub fn busy_ui(ui: &mut egui::Ui) {
    ui.weak("…")
        .on_hover_text("working; the window shows the progress a few times a second");
}
