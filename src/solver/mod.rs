//! Exact solvers: single positions ([`search`]), rectangles of two-heap games ([`grid`]),
//! one-heap sequences with certified periods ([`sequence`]), all cancellable and reporting
//! progress through [`control`].

pub mod control;
pub mod cram;
pub mod cram_report;
pub mod evaluate;
pub mod grid;
pub mod play;
pub mod push_cram;
pub mod report;
pub mod search;
pub mod sequence;
pub(crate) mod ttable;

pub use control::{Control, SolveError};
pub use evaluate::{Evaluator, OptionValue};
