//! `nimscope cram BOARD`: a board's value or outcome by one search (with a checkpoint that
//! survives restarts), and its moves, by the mirror strategy on a half-turn-symmetric board.

use crate::game::{Outcome, Position, Ruleset};

use super::*;
use crate::game::quote::quoted;
use crate::solver::{Control, Evaluator};

/// The evaluator of a board's search, whole or a work unit: the searches may be long (record
/// hunts), so their tables may fill a search's share of the budget (they start small and grow
/// as they fill).
pub(super) fn record_hunt_evaluator(control: &Control) -> Evaluator {
    Evaluator::with_cram_table_bytes(crate::solver::budget::search_table(control.memory_budget()))
}

/// Solves one board as `common` says, listing its moves with `moves`.
pub fn board(
    common: &cram_plan::Common,
    moves: bool,
    control: &Control,
    out: &mut impl std::io::Write,
) -> anyhow::Result<()> {
    let board = common.board.unwrap_or_default();
    let cram_plan::Common {
        push,
        outcome,
        json,
        checkpoint,
        checkpoint_every,
        ..
    } = *common;
    let r = parse_ruleset(if push { "push-cram" } else { "cram" })?;
    let p = r
        .parse_position(board)
        .map_err(|e| anyhow::anyhow!("board {}: {e}", quoted(board)))?;
    let mut eval = record_hunt_evaluator(control);
    let saving = match &checkpoint {
        Some(path) => Some(checkpoint::start(
            path,
            push,
            &p,
            &mut eval,
            control,
            std::time::Duration::from_secs(checkpoint_every),
        )?),
        None => None,
    };
    if outcome {
        let mut decide = || -> anyhow::Result<Outcome> {
            let Position::Board(b) = &p else {
                anyhow::bail!("board {}: not a board before the push", quoted(board))
            };
            let (cram, push_cram) = eval.cram_solvers();
            Ok(if push {
                push_cram.outcome(b, control)?
            } else {
                cram.outcome(b, control)?
            })
        };
        let result = decide();
        let o = checkpoint::finish(saving, result)?;
        output::cram_outcome(out, &r, &p, o, json)?;
        return Ok(());
    }
    let mirrored = if moves { mirror_options(&r, &p) } else { None };
    let mut solve = || -> anyhow::Result<_> {
        let g = eval.value(&r, &p, control)?;
        // Option values only when they are listed: a board's value can be known at
        // once (2x64 by symmetry) while its options need searches.
        let summary = eval.cram_summary(&r, &p, g, control)?;
        let opts = if moves && mirrored.is_none() {
            Some(eval.options(&r, &p, control)?)
        } else {
            None
        };
        Ok((g, summary, opts))
    };
    let result = solve();
    let (g, summary, opts) = checkpoint::finish(saving, result)?;
    output::cram(out, &r, &p, g, &summary, opts.as_deref(), push, json)?;
    if let Some(page) = mirrored {
        output::moves_page(out, &page, json)?;
        if !json {
            writeln!(out, "{MIRROR}")?;
        }
    }
    Ok(())
}

/// Empty cells above which `cram --moves` lists the options of a board symmetric under the
/// half turn by the mirror strategy instead of searching each (a search per option of 4x8
/// takes seconds, of 6x6 half a minute, of 2x64 hours).
const MIRROR_MOVES_ABOVE: usize = 32;

const MIRROR: &str = "every move leads to an N-position: the board is symmetric under the half turn, so the reply at the move's mirror image restores the symmetry (the mirror strategy); the options' values are not searched";

/// The options of a Cram board of more than [`MIRROR_MOVES_ABOVE`] empty cells that the
/// mirror strategy answers: on a board symmetric under the half turn fixing no empty cell and
/// no domino (every even×even rectangle), each move is answered by its image, so every option
/// is an N-position (its value, not 0, is not known without a search).
fn mirror_options(r: &Ruleset, p: &Position) -> Option<crate::solver::evaluate::OptionsPage> {
    use crate::solver::evaluate::{Answer, OptionAnswer, OptionsPage, ValueMethod};
    let (Ruleset::Cram(crate::game::catalog::Dominoes::Both), Position::Board(b)) = (r, p) else {
        return None;
    };
    if b.empty_count() <= MIRROR_MOVES_ABOVE
        || !crate::solver::cram::reduce::half_turn_zero(b.empty_mask(), b.rows(), b.cols())
    {
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
