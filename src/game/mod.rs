//! The games: rulesets, positions, moves, and the closed forms the papers prove about them.
//! Nothing here solves anything beyond one move; the solvers live in [`crate::solver`].

pub mod catalog;
pub mod cram_setup;
pub mod nimber;
pub mod position;
pub mod prediction;
pub mod rules;
pub mod theory;

pub use catalog::{ParseError, Ruleset, Shape};
pub use nimber::{MexSet, Outcome, first_zero_bit, mex};
pub use position::{Position, PositionError};
