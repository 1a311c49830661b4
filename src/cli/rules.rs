//! `nimscope rules [--examples] [--json]`: the move language of typed rules, and the rules of
//! the literature written in it.

use std::io::Write;

use nimscope_core::game::rules::typed::REFERENCE;
use nimscope_core::game::rules::typed::examples::EXAMPLES;

/// The arguments of `nimscope rules`.
#[derive(Debug, clap::Args)]
pub struct RulesArgs {
    /// List the examples (name, text, and the built-in ruleset each equals, if any).
    #[arg(long)]
    pub examples: bool,
    /// One JSON object a line.
    #[arg(long, requires = "examples")]
    pub json: bool,
}

/// Runs `nimscope rules [--examples] [--json]`.
pub fn run(args: RulesArgs, out: &mut impl Write) -> std::io::Result<()> {
    let RulesArgs { examples, json } = args;
    if !examples {
        return writeln!(out, "{REFERENCE}");
    }
    if json {
        for line in nimscope_core::query::rule_examples() {
            writeln!(out, "{line}")?;
        }
        return Ok(());
    }
    for e in EXAMPLES {
        let equals = e.equals.map_or(String::new(), |b| format!(" (equals {b})"));
        writeln!(out, "# {}: {}{equals}\n{}\n", e.name, e.about, e.text)?;
    }
    Ok(())
}
