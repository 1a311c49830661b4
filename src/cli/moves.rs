//! `nimscope moves RULESET POSITION`: every option of a position with its value, winning moves
//! marked, a page at a time when they are many.

use nimscope_core::game::{Position, Ruleset};
use nimscope_core::solver::{Control, Evaluator};

use super::args::PositionQuery;
use super::output;

/// Options listed by `moves` when they do not all fit.
pub const DEFAULT_PAGE: usize = 1000;

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
    let limit = args.limit.unwrap_or_else(|| default_page(&r, &p, control));
    let page = Evaluator::new().options_page(&r, &p, args.offset.into(), limit, control)?;
    output::moves_page(out, &page, args.json)?;
    Ok(())
}

/// The page `moves` lists without `--limit`: every option when they all fit the memory budget
/// (as the page is held to align its columns), else the first [`DEFAULT_PAGE`].
fn default_page(r: &Ruleset, p: &Position, control: &Control) -> usize {
    let each = 2 * nimscope_core::solver::search::position_bytes(p) + 256;
    let fit = nimscope_core::solver::budget::held_listing(control.memory_budget()) / each;
    match nimscope_core::game::rules::paging::option_count(r, p) {
        Some(total) if total <= u128::from(fit) => total as usize,
        Some(_) => DEFAULT_PAGE,
        None => usize::try_from(fit).unwrap_or(usize::MAX),
    }
}
