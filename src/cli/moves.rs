//! `nimscope moves RULESET POSITION`: every option of a position with its value, winning moves
//! marked, a page at a time when they are many.

use nimscope_core::solver::{Control, Evaluator};

use super::args::PositionQuery;
use super::output;

/// Options listed by `moves` when they do not all fit.
pub use nimscope_core::query::DEFAULT_PAGE;

/// The arguments of `nimscope moves`.
#[derive(Debug, clap::Args)]
pub struct MovesArgs {
    #[command(flatten)]
    pub query: PositionQuery,
    /// One JSON object a line instead of text.
    #[arg(long)]
    pub json: bool,
    /// List at most N options (default: all of them if they fit the memory budget, else
    /// the first 1000), then say how many there are.
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Start the list at option number K (from 0).
    #[arg(long, value_name = "K", default_value_t = 0)]
    pub offset: u64,
}

/// Runs `nimscope moves`.
pub fn run(args: MovesArgs, control: &Control, out: &mut impl std::io::Write) -> anyhow::Result<()> {
    let (r, p) = args.query.parse()?;
    let limit = args
        .limit
        .unwrap_or_else(|| nimscope_core::query::default_page(&r, &p, control));
    let page = Evaluator::new().options_page(&r, &p, args.offset.into(), limit, control)?;
    output::moves_page(out, &page, args.json)?;
    Ok(())
}
