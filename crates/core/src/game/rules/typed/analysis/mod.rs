//! What a typed rule is, found from its compiled program and kept with it:
//! - the built-in ruleset it equals, when it provably equals one ([`Equivalent`]): Nim and
//!   Wythoff (their moves are the line families "any amount from one heap" and "the same from
//!   both", recognised term by term by their affine bounds, `lines`), and subtraction and
//!   octal games (a take-and-break rule, recognised by comparing its options with the code's
//!   on every heap up to a bound past which both are provably periodic in structure,
//!   [`octal`]; codes with a digit before the point too: `4.007` splits without taking,
//!   Grundy's game `4u.0` into unequal parts only); the solvers then take the built-in's fast
//!   fills, engines (the rare/common engine for splitting codes) and certified periods;
//! - the moves that grow without bound ([`pump`]): a term that adds to some heaps and whose
//!   guards only read the heaps it leaves alone applies again after it applies, forever, so a
//!   position where it applies is refused at once as not finite;
//! - the heaps it can always lower by one ([`steps`]): a search then meets every position
//!   below, a cost known before it starts.

pub mod affine;
mod lines;
pub mod octal;
pub mod pump;
pub mod steps;

use super::program::Program;
use crate::game::rules::one_heap::{OctalCode, SubtractionSet};

pub use octal::TakeAndBreak;
pub use pump::Pump;

/// A built-in ruleset a typed rule provably equals (the same options at every position).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Equivalent {
    /// Nim: on one heap (a collection of heaps), or on two heaps.
    Nim,
    /// Wythoff's game: take from one heap, or the same from both.
    Wythoff,
    /// `sub(S)`.
    Subtraction(SubtractionSet),
    /// An octal code (`0.d1d2…`), splitting or not.
    Octal(OctalCode),
}

/// What the analysis found about a rule, once, at its first use.
#[derive(Debug, Clone, Default)]
pub struct Facts {
    /// The moves that grow without bound.
    pub pumps: Vec<Pump>,
}

impl Facts {
    /// What `program` is, found once at its compilation.
    pub fn of(program: &Program, _zero_terminal: bool) -> Facts {
        Facts {
            pumps: pump::pumps(program),
        }
    }
}

/// The built-in ruleset `program` equals, if it provably equals one.
pub fn equivalent(program: &Program, zero_terminal: bool) -> Option<Equivalent> {
    if let Some(e) = lines::equivalent(program) {
        return Some(e);
    }
    let tb = octal::take_and_break(program, zero_terminal)?;
    tb.equivalent()
}
