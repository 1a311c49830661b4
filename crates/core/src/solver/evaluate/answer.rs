//! What the evaluator answers: a value with the method that found it ([`Answer`]), the options
//! of a position with theirs, a page of them, and what `nimscope cram` says of a board.

use super::super::grid;
use crate::game::{Gamma, Outcome, Position};

/// How a value was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueMethod {
    /// A formula from the theory (or a certified period), without a search.
    ClosedForm,
    /// A computation over the positions below (a search, a filled map or sequence).
    Search,
    /// A product in the misère quotient of an octal game (the outcome; the misère Grundy value
    /// only where a small search gives it).
    MisereQuotient,
    /// Smith's theory of games that loop: a retrograde labelling of the positions reached.
    Loopy,
}

impl ValueMethod {
    /// `"closed form"` or `"search"`, as `--json` writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            ValueMethod::ClosedForm => "closed form",
            ValueMethod::Search => "search",
            ValueMethod::MisereQuotient => "misère quotient",
            ValueMethod::Loopy => "loopy labelling",
        }
    }
}

/// The value of a position as exactly as it is known, with the method that found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The Grundy value (the misère Grundy value under misère play); `None` when only the
    /// outcome is known (Wythoff off its P-positions, Fibonacci Nim, for positions too large to
    /// search).
    pub grundy: Option<u64>,
    /// `Some(A)` when the value is `∞(A)` (a game that loops; `grundy` is then `None`): `A`
    /// the finite values of the options.
    pub infinite: Option<Vec<u64>>,
    /// P (the player to move loses), N, or D (a draw, in a game that loops).
    pub outcome: Outcome,
    /// How the value was found: a closed form, a search, or a misère quotient.
    pub method: ValueMethod,
    /// The theorem or computation, e.g. "Bouton's theorem (the nim-sum of the heaps)".
    pub by: String,
}

impl Answer {
    pub(super) fn value(v: u64, method: ValueMethod, by: impl Into<String>) -> Self {
        Self {
            grundy: Some(v),
            infinite: None,
            outcome: Outcome::of(u32::from(v != 0)),
            method,
            by: by.into(),
        }
    }

    /// The answer of a value of Smith's theory (finite, or `∞(A)`).
    pub fn of_gamma(g: Gamma, method: ValueMethod, by: impl Into<String>) -> Self {
        let outcome = g.outcome();
        let (grundy, infinite) = match g {
            Gamma::Finite(v) => (Some(v), None),
            Gamma::Infinite(a) => (None, Some(a)),
        };
        Self {
            grundy,
            infinite,
            outcome,
            method,
            by: by.into(),
        }
    }

    /// The value as Smith's theory writes it (a finite value is a Grundy value), if known.
    pub fn gamma(&self) -> Option<Gamma> {
        match (&self.grundy, &self.infinite) {
            (Some(v), _) => Some(Gamma::Finite(*v)),
            (None, Some(a)) => Some(Gamma::Infinite(a.clone())),
            _ => None,
        }
    }

    pub(super) fn searched(v: u32) -> Self {
        Self::value(
            v.into(),
            ValueMethod::Search,
            "the mex over the options (memoised search)",
        )
    }
}

/// One option of a position, with its value.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct OptionValue {
    /// The move in words, e.g. "subtract 2×5 from 27".
    pub description: String,
    /// The option in the position text form, e.g. `3,5`.
    pub to: String,
    /// The Grundy value; for an infinite value of a game that loops, a cell code
    /// ([`crate::game::loopy::cells`]: it tells a draw from a win) and the value in `gamma`.
    pub grundy: u32,
    /// The option's outcome: P or N.
    pub outcome: Outcome,
    /// A move to a P-position wins.
    pub winning: bool,
    /// The value in a game that loops (`None` for finite games).
    #[serde(skip)]
    pub gamma: Option<Gamma>,
    /// The option as a position.
    #[serde(skip)]
    pub position: Position,
}

impl OptionValue {
    /// The value as views write it: the Grundy value, or `∞(A)` in a game that loops.
    pub fn value_text(&self) -> String {
        self.gamma
            .as_ref()
            .map_or_else(|| self.grundy.to_string(), ToString::to_string)
    }
}

/// The `u32` a view holds for a value of Smith's theory: a finite value as it is, an infinite
/// one as the cell code of its kind (draw or win; the set itself is in the [`Gamma`]).
pub fn gamma_cell(g: &Gamma) -> u32 {
    match g {
        Gamma::Finite(v) => u32::try_from(*v).unwrap_or(grid::SATURATED),
        Gamma::Infinite(a) => crate::game::loopy::cells::encode(0, a.first() == Some(&0)),
    }
}

/// What `nimscope cram` says about a board besides its value: the number of moves, whether
/// every move wins (a bluff), and before a Push Cram push the value after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CramSummary {
    /// Number of legal moves.
    pub moves: usize,
    /// A first-player win in which every move wins.
    pub bluff: bool,
    /// Push Cram before the push: the value after pushing; `None` otherwise.
    pub after_push: Option<u32>,
}

/// One option of a position with its [`Answer`] (values beyond 32 bits, outcome-only answers).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionAnswer {
    /// The move in words, e.g. "subtract 2×5 from 27".
    pub description: String,
    /// The option in the position text form, e.g. `3,5`.
    pub to: String,
    /// What is known of the option's value.
    pub answer: Answer,
    /// The option as a position.
    pub position: Position,
}

impl OptionAnswer {
    /// A move to a P-position wins.
    pub fn winning(&self) -> bool {
        self.answer.outcome == Outcome::P
    }
}

/// A page of the options of a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionsPage {
    /// How many options the position has.
    pub total: u128,
    /// The number of the first option on the page (from 0).
    pub offset: u128,
    /// The options on this page, in the ruleset's order of options.
    pub options: Vec<OptionAnswer>,
}
