//! `nimscope grid`: the values (or outcomes) of a rectangle of a two-heap map or a slice.

use std::ops::Range;

use nimscope_core::query::maps::{self, MapAnswer};
use nimscope_core::solver::Control;

use super::args::{GridFormat, RulesetSource, parse_range};
use super::{output, quotient};

/// The arguments of `nimscope grid`.
#[derive(Debug, clap::Args)]
pub struct GridArgs {
    #[command(flatten)]
    pub ruleset: RulesetSource,
    /// Half-open row range A..B.
    #[arg(long, value_parser = parse_range)]
    pub rows: Range<u64>,
    /// Half-open column range C..D.
    #[arg(long, value_parser = parse_range)]
    pub cols: Range<u64>,
    /// Fixed heaps of a slice of a game on more heaps, e.g. 1,_,_ for Zeruclid (1,a,b).
    #[arg(long)]
    pub slice: Option<String>,
    #[arg(long, value_enum, default_value_t = GridFormat::Csv)]
    pub format: GridFormat,
    /// Each cell's outcome instead of its value: 0 for a P-position, 1 for an N-position
    /// (Wythoff's anywhere in the plane, from its P-positions' closed form).
    #[arg(long)]
    pub outcome: bool,
}

/// Runs `nimscope grid`.
pub fn run(args: GridArgs, control: &Control, out: &mut impl std::io::Write) -> anyhow::Result<()> {
    let GridArgs {
        ruleset,
        rows,
        cols,
        slice,
        format,
        outcome,
    } = args;

    let r = ruleset.ruleset()?;
    match maps::map(&r, rows, cols, slice.as_deref(), outcome, control)? {
        MapAnswer::Values(g) => output::grid(out, &g, format, outcome)?,
        // the collections {a, b} of a misère octal game: outcomes by its quotient
        MapAnswer::MisereOutcomes(m) => quotient::print_pair_map(out, &r, &m, format)?,
    }
    Ok(())
}
