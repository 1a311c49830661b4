//! `nimscope check [--upto N]`: the papers' statements compared with computation, a row each
//! (PASS, FAIL with a counterexample, or EMPTY).

use nimscope_core::solver::Control;

use super::output;

/// The arguments of `nimscope check`.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// Bound of the ranges checked, 0 to 100000 (rows about the papers' own examples are
    /// checked at any bound).
    #[arg(long, default_value_t = 200, allow_hyphen_values = true, value_parser = parse_upto)]
    pub upto: u64,
    #[arg(long)]
    pub json: bool,
}

/// Runs `nimscope check`.
pub fn run(args: CheckArgs, control: &Control, out: &mut impl std::io::Write) -> anyhow::Result<()> {
    let rows = nimscope_core::checks::all_checks(args.upto, control)?;
    output::checks(out, &rows, args.json)?;
    Ok(())
}

/// Largest `check --upto`: the checks fill maps of `upto × upto` cells.
pub const MAX_UPTO: u64 = nimscope_core::query::MAX_CHECK_BOUND;

fn parse_upto(text: &str) -> Result<u64, String> {
    let n = nimscope_core::game::position::parse_number(text)
        .map_err(|_| format!("a bound is a whole number from 0 to {MAX_UPTO}"))?;
    nimscope_core::query::check_bound(n).map_err(|e| e.to_string())?;
    Ok(n)
}
