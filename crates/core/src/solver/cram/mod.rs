//! Cram and Push Cram: exact values, outcomes and the board editor's reports.
//!
//! A Cram position is a disjunctive sum of its connected empty regions, so its value is the
//! XOR of the values of its components. Each component is simplified without changing its
//! value (`reduce`), keyed under the symmetries of the square (`keys`) and looked up in a
//! transposition table (`table`) that several threads share; the search itself
//! (`solver`, with the root's options spread over the cores by `parallel`) asks options
//! only whether their value lies in a set. `expand` turns cells into keyed components and
//! options, on `u64` or `u128` grids (`bits`), asking `pieces` first for the values of the
//! pieces an option splits into. Push Cram ([`push`], its keys in
//! `push_keys`) is not a disjunctive sum before the push and has its own outcome search on
//! the same table; `octal` holds the 0.07 values both use. [`report`] computes what the
//! board editor shows, and [`progressive`] the same report value first, placements after;
//! [`checkpoint`] saves a search's table to a file and restores it, so a search survives a
//! restart; [`plan`] splits a search into work units that separate processes answer.
//!
//! Layout (each file opens with what it holds):
//! `bits` → `reduce`, `keys`, `pieces` → `expand` → `solver` ← `parallel`; `table` under both
//! solvers; `octal` → `push_keys` → `push`; `report` and `progressive` on top of both solvers;
//! `test_rng`, the tests' pseudo-random stops and damage.

pub(crate) mod bits;
pub mod checkpoint;
mod expand;
pub(crate) mod keys;
pub(crate) mod octal;
mod parallel;
mod pieces;
pub mod plan;
pub mod progressive;
pub mod push;
mod push_keys;
pub(crate) mod reduce;
pub mod report;
mod solver;
pub(crate) mod table;
#[cfg(test)]
pub(crate) mod test_rng;

pub use solver::{CramSolver, CramStats, DEFAULT_TABLE_BYTES, Outcome, Peek};

/// Whether the mirror strategy settles this Cram board without a search: it is symmetric under
/// the half turn, which fixes no empty cell and no domino (every even×even rectangle), so each
/// move is answered by its image and the board is a P-position (value 0).
pub fn mirror_strategy_applies(board: &crate::game::rules::cram_board::Board) -> bool {
    reduce::half_turn_zero(board.empty_mask(), board.rows(), board.cols())
}
