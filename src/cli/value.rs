//! `nimscope value RULESET POSITION`: a position's Grundy value, outcome and the method that
//! found it.

use nimscope_core::solver::{Control, Evaluator};

use super::args::PositionQuery;
use super::output;

/// The arguments of `nimscope value`.
#[derive(Debug, clap::Args)]
pub struct ValueArgs {
    #[command(flatten)]
    pub query: PositionQuery,
    /// One JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs `nimscope value`.
pub fn run(args: ValueArgs, control: &Control, out: &mut impl std::io::Write) -> anyhow::Result<()> {
    let (r, p) = args.query.parse()?;
    let a = Evaluator::new().answer(&r, &p, control)?;
    output::value(out, &r, &p, &a, args.json)?;
    Ok(())
}
