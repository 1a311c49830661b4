//! Cram and Push Cram boards as `nimscope cram` asks about them: the board read from its text,
//! the record hunt's evaluator (its tables may fill a search's share of the budget), the value
//! with the board's summary and its moves (on a large board symmetric under the half turn, the
//! moves by the mirror strategy instead of a search each), or the outcome alone.

use super::QueryError;
use crate::game::catalog::Dominoes;
use crate::game::cram_setup::{CramDocument, CramGame, Setup};
use crate::game::{Outcome, Position, Ruleset};
use crate::solver::evaluate::{Answer, OptionAnswer, OptionsPage, ValueMethod};
use crate::solver::{Control, CramSummary, Evaluator, OptionValue};

/// The ruleset (`cram` or `push-cram`) and the board of `text`: rows of `.` (empty) and `#`
/// (blocked) separated by `/`, or a size such as `3x7`.
pub fn board(text: &str, push: bool) -> Result<(Ruleset, Position), QueryError> {
    let r = super::ruleset(if push { "push-cram" } else { "cram" })?;
    let p = r.parse_position(text).map_err(|e| QueryError::Board {
        text: text.to_string(),
        message: e.to_string(),
    })?;
    Ok((r, p))
}

/// The board editor's document of `text` (the window's Cram tab, a board's figure).
pub fn document(text: &str, push: bool) -> Result<CramDocument, QueryError> {
    let setup = Setup::parse(text).map_err(|e| QueryError::Board {
        text: text.to_string(),
        message: e.to_string(),
    })?;
    Ok(CramDocument {
        board: setup.cells_text(),
        dominoes: Vec::new(),
        rules: if push { CramGame::PushCram } else { CramGame::Cram },
        pushed: false,
    })
}

/// The evaluator of a board's search, whole or a work unit: the searches may be long (record
/// hunts), so their tables may fill a search's share of the budget (they start small and grow
/// as they fill).
pub fn record_hunt_evaluator(control: &Control) -> Evaluator {
    Evaluator::with_cram_table_bytes(crate::solver::budget::search_table(control.memory_budget()))
}

/// What `nimscope cram BOARD` finds: the value, the summary, and the moves when asked (each
/// with its value, or by the mirror strategy: see [`mirror_options`]).
#[derive(Debug, Clone)]
pub struct CramAnswer {
    /// The board's Grundy value.
    pub value: u32,
    /// Moves, bluff, and (Push Cram before the push) the value after it.
    pub summary: CramSummary,
    /// Every move with its searched value (asked for, and not answered by the mirror strategy).
    pub options: Option<Vec<OptionValue>>,
    /// Every move by the mirror strategy (each an N-position; values not searched).
    pub mirrored: Option<OptionsPage>,
}

/// The value of board `p` of `r`, its summary, and with `moves` every move.
pub fn solve(
    eval: &mut Evaluator,
    r: &Ruleset,
    p: &Position,
    moves: bool,
    control: &Control,
) -> Result<CramAnswer, QueryError> {
    let mirrored = if moves { mirror_options(r, p) } else { None };
    let value = eval.value(r, p, control)?;
    // Option values only when they are listed: a board's value can be known at once (2x64 by
    // symmetry) while its options need searches.
    let summary = eval.cram_summary(r, p, value, control)?;
    let options = if moves && mirrored.is_none() {
        Some(eval.options(r, p, control)?)
    } else {
        None
    };
    Ok(CramAnswer {
        value,
        summary,
        options,
        mirrored,
    })
}

/// The outcome alone of board `p` (before any push): one winning move settles it, often far
/// sooner than the value.
pub fn outcome(
    eval: &mut Evaluator,
    text: &str,
    p: &Position,
    push: bool,
    control: &Control,
) -> Result<Outcome, QueryError> {
    let Position::Board(b) = p else {
        return Err(QueryError::Board {
            text: text.to_string(),
            message: "not a board before the push".into(),
        });
    };
    let (cram, push_cram) = eval.cram_solvers();
    Ok(if push {
        push_cram.outcome(b, control)?
    } else {
        cram.outcome(b, control)?
    })
}

/// Empty cells above which the moves of a board symmetric under the half turn are listed by
/// the mirror strategy instead of a search each (a search per option of 4x8 takes seconds, of
/// 6x6 half a minute, of 2x64 hours).
const MIRROR_MOVES_ABOVE: usize = 32;

/// What the listing of mirrored moves says after them.
pub const MIRROR: &str = "every move leads to an N-position: the board is symmetric under the half turn, so the reply at the move's mirror image restores the symmetry (the mirror strategy); the options' values are not searched";

/// The options of a Cram board of more than `MIRROR_MOVES_ABOVE` empty cells that the
/// mirror strategy answers: on a board symmetric under the half turn fixing no empty cell and
/// no domino (every even×even rectangle), each move is answered by its image, so every option
/// is an N-position (its value, not 0, is not known without a search).
pub fn mirror_options(r: &Ruleset, p: &Position) -> Option<OptionsPage> {
    let (Ruleset::Cram(Dominoes::Both), Position::Board(b)) = (r, p) else {
        return None;
    };
    if b.empty_count() <= MIRROR_MOVES_ABOVE || !crate::solver::cram::mirror_strategy_applies(b) {
        return None;
    }
    let mut opts = Vec::new();
    r.options(p, &mut opts);
    let options: Vec<OptionAnswer> = opts
        .into_iter()
        .map(|o| OptionAnswer {
            description: r.describe_move(p, &o),
            to: o.to_string(),
            answer: Answer {
                grundy: None,
                infinite: None,
                outcome: Outcome::N,
                method: ValueMethod::ClosedForm,
                by: "the mirror strategy".into(),
            },
            position: o,
        })
        .collect();
    Some(OptionsPage {
        total: options.len() as u128,
        offset: 0,
        options,
    })
}
