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
