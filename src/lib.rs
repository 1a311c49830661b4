//! nimscope, the application: the two faces of the explorer over the headless core
//! ([`nimscope_core`]: games, solvers, checks, figures, sessions):
//!
//! - [`cli`], the scriptable command line (`nimscope value`, `grid`, `seq`, ...);
//! - [`worker`], the solver threads behind the window and their typed messages;
//! - `ui`, the window (behind the `gui` feature, and the only module that uses the GUI
//!   toolkit).
//!
//! `main.rs` picks a face; neither imports the other, and the core imports neither.

pub mod cli;
#[cfg(feature = "gui")]
pub mod ui;
pub mod worker;
