//! Exact solvers: single positions ([`search`], [`evaluate`]), rectangles of two-heap games
//! ([`grid`]) and the map's tiles ([`tiles`]), one-heap sequences with certified periods
//! ([`sequence`]), Cram and Push Cram ([`cram`]: the solvers share one transposition table;
//! [`cram::push`] and [`cram::report`] hold its Push Cram solver and the editor's report),
//! the inspector's position reports ([`report`]), the choice of method for one position
//! ([`route`]) and play mode's rules ([`play`]); all cancellable and reporting progress
//! through [`control`]; a job that must outgrow its memory budget is refused before it starts
//! by [`cost`].

pub mod budget;
pub mod closed_form;
pub mod control;
pub mod cost;
pub mod cram;
pub mod equivalent;
pub mod evaluate;
pub mod grid;
pub mod loopy;
pub mod misere_quotient;
pub mod octal;
pub mod period;
pub mod play;
pub mod report;
pub mod route;
pub mod search;
pub mod sequence;
pub mod tiles;

pub use control::{Control, SolveError};
pub use evaluate::{CramSummary, Evaluator, OptionValue};
