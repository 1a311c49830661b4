//! Exact solvers: single positions ([`search`], [`evaluate`]), rectangles of two-heap games
//! ([`grid`]) and the map's tiles ([`tiles`]), one-heap sequences with certified periods
//! ([`sequence`]), Cram and Push Cram ([`cram`], [`push_cram`] sharing one transposition table,
//! the editor's [`cram_report`]),
//! the inspector's position reports ([`report`]) and play mode's rules ([`play`]); all
//! cancellable and reporting progress through [`control`].

pub mod closed_form;
pub mod control;
pub mod cram;
pub mod cram_report;
pub mod evaluate;
pub mod grid;
pub mod octal;
pub mod play;
pub mod push_cram;
pub mod report;
pub mod search;
pub mod sequence;
pub(crate) mod shared_table;
pub mod tiles;

pub use control::{Control, SolveError};
pub use evaluate::{Evaluator, OptionValue};
