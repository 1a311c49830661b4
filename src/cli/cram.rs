//! `nimscope cram BOARD`: a board's value or outcome by one search (with a checkpoint that
//! survives restarts), and its moves, by the mirror strategy on a half-turn-symmetric board.

use nimscope_core::game::quote::quoted;
use nimscope_core::game::{Outcome, Position, Ruleset};
use nimscope_core::solver::Control;

use super::args::parse_ruleset;
use super::{checkpoint, cram_plan, output};

/// The arguments of `nimscope cram`.
#[derive(Debug, clap::Args)]
pub struct CramArgs {
    /// Board: rows of '.' (empty) and '#' (blocked) separated by '/', or a size like 3x7.
    #[arg(required_unless_present_any = ["unit", "combine", "needed"])]
    pub board: Option<String>,
    /// Push Cram: vertical dominoes before the push, horizontal after.
    #[arg(long)]
    pub push: bool,
    /// Also list every move with the value it leads to.
    #[arg(long)]
    pub moves: bool,
    /// Only the outcome (P or N), not the value: one winning move settles it, often far
    /// sooner (a record hunt's first question).
    #[arg(long, conflicts_with = "moves")]
    pub outcome: bool,
    #[arg(long)]
    pub json: bool,
    /// Save the search to this file as it goes, and resume from it when it exists (the
    /// same command again after a restart or Ctrl+C).
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<std::path::PathBuf>,
    /// Seconds between two saves of the checkpoint.
    #[arg(long, value_name = "SECONDS", default_value_t = 300, requires = "checkpoint", value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub checkpoint_every: u64,
    #[command(flatten)]
    pub plan: cram_plan::PlanArgs,
}

/// Runs `nimscope cram`: a plan's mode when one is asked, else one board.
pub fn run(args: CramArgs, control: &Control, out: &mut impl std::io::Write) -> anyhow::Result<()> {
    let common = cram_plan::Common {
        board: args.board.as_deref(),
        push: args.push,
        outcome: args.outcome,
        json: args.json,
        checkpoint: args.checkpoint.as_deref(),
        checkpoint_every: args.checkpoint_every,
    };
    if let Some(result) = cram_plan::run(&args.plan, &common, control, out) {
        return result;
    }
    board(&common, args.moves, control, out)
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
    let mut eval = cram_plan::record_hunt_evaluator(control);
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
fn mirror_options(r: &Ruleset, p: &Position) -> Option<nimscope_core::solver::evaluate::OptionsPage> {
    use nimscope_core::solver::evaluate::{Answer, OptionAnswer, OptionsPage, ValueMethod};
    let (Ruleset::Cram(nimscope_core::game::catalog::Dominoes::Both), Position::Board(b)) = (r, p) else {
        return None;
    };
    if b.empty_count() <= MIRROR_MOVES_ABOVE || !nimscope_core::solver::cram::mirror_strategy_applies(b) {
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

/// The editor document of `--board TEXT [--push]`, for the window's Cram board tab.
pub fn board_document(text: &str, push: bool) -> anyhow::Result<nimscope_core::game::cram_setup::CramDocument> {
    use nimscope_core::game::cram_setup::{CramDocument, CramGame, Setup};
    let setup = Setup::parse(text).map_err(|e| anyhow::anyhow!("board {}: {e}", quoted(text)))?;
    Ok(CramDocument {
        board: setup.cells_text(),
        dominoes: Vec::new(),
        rules: if push { CramGame::PushCram } else { CramGame::Cram },
        pushed: false,
    })
}
