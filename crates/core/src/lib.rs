//! nimscope-core: the headless core of nimscope, the explorer for impartial combinatorial
//! games. Everything a script, the command line, the window or Python needs, and no GUI
//! toolkit, command-line parser or terminal code:
//!
//! - [`game`]: rulesets (one serde enum, [`game::Ruleset`], parsed from expressions such as
//!   `push(nim,euclid0)` by [`game::expr`]), positions, moves, how each ruleset is shown
//!   ([`game::Presentation`]: a map, a sequence or a board) and the papers' closed forms;
//! - [`solver`]: Grundy values of positions, rectangles ([`solver::grid`]), the map's tiles,
//!   sequences and Cram boards; cancellable, reporting progress, refusing jobs over the memory
//!   budget ([`solver::Control`]);
//! - [`checks`]: the papers' theorems compared with computation (`nimscope check`);
//! - [`camera`] (where a map looks), [`raster`] (values → pixels, for the screen and the
//!   figures), [`figure`] (PNG and SVG figures), [`session`] (saved explorations) and [`files`]
//!   (the one atomic writer, and input files read with a bound);
//! - [`query`]: the questions every face asks (a value, moves, a sequence, a map, a quotient,
//!   a Cram board, a session's figure), checked and refused with the same one-line messages.
//!
//! Every arrow points down this list; the faces (the `nimscope` binary's command line and
//! window, the Python package) sit above it and the core imports none of them.

#![warn(missing_docs)]

pub mod camera;
pub mod checks;
pub mod figure;
pub mod files;
pub mod game;
pub mod query;
pub mod raster;
pub mod session;
pub mod solver;

/// The version of nimscope, from Cargo.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
/// The git commit nimscope was built from (`-dirty` when the tree had changes), from `build.rs`.
pub const GIT_COMMIT: &str = env!("NIMSCOPE_GIT_COMMIT");

/// `0.1.0 (commit abc1234)`: what `--version` prints and saved files record.
pub const GIT_COMMIT_VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (commit ", env!("NIMSCOPE_GIT_COMMIT"), ")");
