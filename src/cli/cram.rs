//! `nimscope cram BOARD`: a board's value or outcome by one search (with a checkpoint that
//! survives restarts), and its moves, by the mirror strategy on a half-turn-symmetric board.

use nimscope_core::query;
use nimscope_core::solver::Control;

use super::{checkpoint, cram_args, cram_plan, output};

/// The arguments of `nimscope cram`.
#[derive(Debug, clap::Args)]
pub struct CramArgs {
    /// Board: rows of '.' (empty) and '#' (blocked) separated by '/', or a size like 3x7.
    #[arg(required_unless_present_any = ["unit", "combine", "needed", "unanswered", "status", "verify"])]
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
    pub plan: Box<cram_args::PlanArgs>,
}

/// Runs `nimscope cram`: a plan's mode when one is asked, else one board.
pub fn run(args: CramArgs, control: &Control, out: &mut impl std::io::Write) -> anyhow::Result<()> {
    let common = cram_args::Common {
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
    common: &cram_args::Common,
    moves: bool,
    control: &Control,
    out: &mut impl std::io::Write,
) -> anyhow::Result<()> {
    let board = common.board.unwrap_or_default();
    let cram_args::Common {
        push,
        outcome,
        json,
        checkpoint,
        checkpoint_every,
        ..
    } = *common;
    let (r, p) = query::cram::board(board, push)?;
    let mut eval = query::cram::record_hunt_evaluator(control);
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
        let result = query::cram::outcome(&mut eval, board, &p, push, control).map_err(anyhow::Error::from);
        let o = checkpoint::finish(saving, result)?;
        output::cram_outcome(out, &r, &p, o, json)?;
        return Ok(());
    }
    let result = query::cram::solve(&mut eval, &r, &p, moves, control).map_err(anyhow::Error::from);
    let a = checkpoint::finish(saving, result)?;
    output::cram(out, &r, &p, a.value, &a.summary, a.options.as_deref(), push, json)?;
    if let Some(page) = a.mirrored {
        output::moves_page(out, &page, json)?;
        if !json {
            writeln!(out, "{}", query::cram::MIRROR)?;
        }
    }
    Ok(())
}

/// The editor document of `--board TEXT [--push]`, for the window's Cram board tab.
pub fn board_document(text: &str, push: bool) -> anyhow::Result<nimscope_core::game::cram_setup::CramDocument> {
    Ok(query::cram::document(text, push)?)
}
