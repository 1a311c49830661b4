//! The games: rulesets, positions, moves, how each ruleset is shown, and the closed forms the
//! papers prove about them. Nothing here solves anything beyond one move; the solvers live in
//! [`crate::solver`], which builds on this module and never the other way round.

pub mod catalog;
pub mod cram_game;
pub mod cram_setup;
pub mod expr;
pub mod families;
pub mod loopy;
pub mod nimber;
pub mod parse_count;
pub mod position;
pub mod prediction;
pub mod presentation;
pub mod quote;
pub mod rules;
pub mod theory;

pub use catalog::{Ruleset, Shape};
pub use expr::ParseError;
pub use families::{Family, FamilyRow};
pub use loopy::Gamma;
pub use nimber::{MexSet, Outcome, first_zero_bit, mex};
pub use position::{Position, PositionError};
pub use presentation::{Cell, CentralTab, Layout, Presentation, has_sequence};
