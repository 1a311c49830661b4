//! nimscope: an explorer for impartial combinatorial games. Two faces over one headless core:
//!
//! - [`game`]: rulesets (one serde enum, [`game::Ruleset`], parsed from expressions such as
//!   `push(nim,euclid0)` by [`game::expr`]), positions, moves, how each ruleset is shown
//!   ([`game::Presentation`]: a map, a sequence or a board) and the papers' closed forms;
//! - [`solver`]: Grundy values of positions, rectangles ([`solver::grid`]), the map's tiles,
//!   sequences and Cram boards; cancellable, reporting progress, refusing jobs over the memory
//!   budget ([`solver::Control`]);
//! - [`checks`]: the papers' theorems compared with computation (`nimscope check`);
//! - [`worker`] (the solver threads and their typed messages), [`camera`] (where the map
//!   looks), [`raster`] (values → pixels, for the screen and the figures), [`figure`] (PNG
//!   figures), [`session`] (saved explorations) and [`files`] (the one atomic writer, and
//!   input files read with a bound);
//! - the faces: [`cli`], the scriptable command line, and `ui`, the window (behind the `gui`
//!   feature, and the only module that uses the GUI toolkit). `main.rs` picks one; neither
//!   imports the other.
//!
//! Every arrow points down this list: nothing in the core imports a face.

pub mod camera;
pub mod checks;
pub mod cli;
pub mod figure;
pub mod files;
pub mod game;
pub mod raster;
pub mod session;
pub mod solver;
#[cfg(feature = "gui")]
pub mod ui;
pub mod worker;

/// Version and commit embedded by `build.rs`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
pub const GIT_COMMIT: &str = env!("NIMSCOPE_GIT_COMMIT");

/// `0.1.0 (commit abc1234)`: what `--version` prints and saved files record.
pub const GIT_COMMIT_VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (commit ", env!("NIMSCOPE_GIT_COMMIT"), ")");
