//! The window: everything that names egui, eframe, egui_plot or rfd, behind the `gui` feature.
//! [`theme`] (colours, sizes, text the fonts can draw) is the base every other part builds on;
//! [`canvas`] draws the map, the one-heap strip and the Cram board; [`panels`] the ruleset
//! picker, the inspector and the board editor; [`app`] puts them together, runs the worker's
//! results into them and handles files; [`trace`] records each frame for measurements. Nothing here climbs back up: the panels and the canvas
//! never import `app`.

pub mod app;
pub mod canvas;
pub mod panels;
pub mod theme;
pub mod trace;

pub use app::{App, WindowOptions, run_window};

/// Asks egui for one more frame, soon. `Context::request_repaint` draws two (egui lets things
/// "settle" for a frame), and under a software renderer a frame costs up to 0.1 s of CPU
/// that a running fill then lacks: a map's batches woke the window for two or three frames
/// each. A delay above zero asks for exactly one.
pub fn repaint_once(ctx: &egui::Context) {
    ctx.request_repaint_after(std::time::Duration::from_millis(1));
}
