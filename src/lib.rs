//! nimscope: an explorer for impartial combinatorial games.
//!
//! The architecture in ten lines:
//! - [`game`]: rulesets (one serde enum, [`game::Ruleset`], parsed from expressions such as
//!   `push(nim,euclid0)`), positions, moves, and the papers' closed forms ([`game::theory`]);
//! - [`solver`]: Grundy values of positions, rectangles and sequences; cancellable, reporting
//!   progress, refusing jobs over the memory budget ([`solver::Control`]);
//! - [`checks`]: the papers' theorems compared with computation (`nimscope check`);
//! - [`cli`]: the scriptable command line over the same solver;
//! - [`worker`] (the solver thread) and [`raster`] (values → pixels): still no egui;
//! - [`app`], [`canvas`], [`panels`]: the window, the only modules that import egui.

pub mod app;
pub mod canvas;
pub mod check_row;
pub mod checks;
pub mod cli;
pub mod cram_figure;
pub mod game;
pub mod panels;
pub mod raster;
pub mod solver;
pub mod worker;

/// Version and commit embedded by `build.rs`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
pub const GIT_COMMIT: &str = env!("NIMSCOPE_GIT_COMMIT");

/// `0.1.0 (commit abc1234)`: what `--version` prints and saved files record.
pub const GIT_COMMIT_VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (commit ", env!("NIMSCOPE_GIT_COMMIT"), ")");
