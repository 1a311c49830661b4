//! The options of `nimscope cram` that split a search into work units (`--plan`, `--unit`,
//! `--needed`, `--combine`, `--status`, `--verify`, ...) and the rest of `cram`'s options they
//! read, apart from the modes that run them: [`super::cram_plan`] dispatches to
//! [`super::cram_unit`], and both read these (so neither imports the other's arguments).

use std::path::{Path, PathBuf};

use clap::Args;

use super::cram_hunt;
use nimscope_core::solver::cram::plan::Bluff;

/// The options of `cram` that split a search into units.
#[derive(Debug, Clone, Args)]
pub struct PlanArgs {
    /// Write a plan of BOARD's search to DIR: the positions --depth plies below the root, each
    /// a unit that `--unit DIR K` answers (with --outcome: only P or N is asked), and a key
    /// that signs its answers (DIR/plan.key).
    #[arg(long, value_name = "DIR", conflicts_with_all = ["unit", "combine", "moves", "checkpoint"])]
    pub plan: Option<PathBuf>,
    /// Plies from the root to the plan's units (1 to 4).
    #[arg(long, value_name = "D", requires = "plan")]
    pub depth: Option<u32>,
    /// Answer what the plan in DIR asks unit K now (skipped when the answers so far do not
    /// need it; stopped when they stop needing it), writing its answer and its proven values
    /// into DIR; resumes from --checkpoint.
    #[arg(long, num_args = 2, value_names = ["DIR", "K"], conflicts_with_all = ["combine", "moves", "board", "push", "outcome"])]
    pub unit: Option<Vec<String>>,
    /// With --unit: neither load the other units' proven values nor write this one's (to
    /// measure what sharing them saves).
    #[arg(long, requires = "unit")]
    pub no_proven: bool,
    /// With --unit, in a value plan: ask the unit whether its value is one of these (e.g.
    /// 0,1) instead of what the plan needs, by its own search even if it is answered (to check
    /// an answer again from scratch, in a copy of the plan).
    #[arg(
        long,
        value_name = "VALUES",
        requires = "unit",
        value_delimiter = ',',
        conflicts_with = "round"
    )]
    pub ask: Option<Vec<u32>>,
    /// With --needed: record the units listed as round R of the hunt (DIR/rounds/round-R.json).
    /// With --unit: answer the question round R asked the unit.
    #[arg(long, value_name = "R")]
    pub round: Option<u32>,
    /// Values each option is asked about in one round beyond the one it is needed for (0, the
    /// default: one at a time, the least processor time; more: fewer rounds, more processor
    /// time). A round recorded with --round keeps its own.
    #[arg(long, value_name = "W")]
    pub ahead: Option<u32>,
    /// How a root of value 1 asks whether it is a bluff: all (its options whose outcome is
    /// unknown, in one round; the default) or one (an option a round, the least processor time).
    #[arg(long, value_name = "all|one", value_parser = parse_bluff)]
    pub bluff: Option<Bluff>,
    /// With --unit: seconds between two looks at the other units' answers (a unit they make
    /// unnecessary stops, saving its checkpoint); default: 30, or more for plans of thousands
    /// of units.
    #[arg(long, value_name = "SECONDS", requires = "unit", value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub recheck_every: Option<u64>,
    /// The root's value (or outcome) from the answers of the plan in DIR, as `cram BOARD`
    /// prints it; which units are missing otherwise.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["moves", "board", "push", "outcome", "checkpoint"])]
    pub combine: Option<PathBuf>,
    /// The units the root of the plan in DIR still needs, comma-separated (a value plan asks
    /// in rounds: run these, then ask again), nothing when it is settled; with --json, each
    /// with its question.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["moves", "board", "push", "outcome", "checkpoint", "combine", "unit", "plan"])]
    pub needed: Option<PathBuf>,
    /// The units round R of the plan in DIR asked that did not answer and are still needed,
    /// comma-separated (for a scheduler's combine step: they failed or were stopped).
    #[arg(long, num_args = 2, value_names = ["DIR", "R"], conflicts_with_all = ["moves", "board", "push", "outcome", "checkpoint", "combine", "unit", "plan", "needed"])]
    pub unanswered: Option<Vec<String>>,
    #[command(flatten)]
    pub hunt: cram_hunt::HuntArgs,
}

/// The rest of `cram`'s options that a plan's modes read.
pub struct Common<'a> {
    pub board: Option<&'a str>,
    pub push: bool,
    pub outcome: bool,
    pub json: bool,
    pub checkpoint: Option<&'a Path>,
    pub checkpoint_every: u64,
}

fn parse_bluff(text: &str) -> Result<Bluff, String> {
    Bluff::parse(text)
}
