//! `nimscope seq RULESET --to N`: the values G(0..N) of a one-heap ruleset, with the certified
//! period.

use nimscope_core::query::maps;
use nimscope_core::solver::Control;

use super::args::RulesetSource;
use super::{interrupt, output};

/// Most values `seq` prints (about 15 GB of text).
pub const MAX_SEQ: u64 = 1 << 32;

/// The arguments of `nimscope seq`.
#[derive(Debug, clap::Args)]
pub struct SeqArgs {
    #[command(flatten)]
    pub ruleset: RulesetSource,
    /// N: values for n in 0..N (half-open).
    #[arg(long)]
    pub to: u64,
    #[arg(long)]
    pub json: bool,
}

/// Runs `nimscope seq`.
pub fn run(args: SeqArgs, control: &Control, out: &mut impl std::io::Write) -> anyhow::Result<()> {
    let SeqArgs { ruleset, to, json } = args;
    let r = ruleset.ruleset()?;
    maps::check_sequence(&r)?;
    if to > MAX_SEQ {
        anyhow::bail!("seq --to {to}: seq prints every value, at most {MAX_SEQ} of them (for one heap, ask value)");
    }
    let s = maps::sequence(&r, to, control)?;
    output::sequence(out, &r, &s, json, &interrupt::interrupted)?;
    Ok(())
}
