//! `nimscope rules [--examples] [--json]`: the move language of typed rules, and the rules of
//! the literature written in it.

use std::io::Write;

use serde_json::json;

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
    for e in EXAMPLES {
        if json {
            writeln!(
                out,
                "{}",
                json!({"name": e.name, "about": e.about, "text": e.text, "equals": e.equals})
            )?;
        } else {
            let equals = e.equals.map_or(String::new(), |b| format!(" (equals {b})"));
            writeln!(out, "# {}: {}{equals}\n{}\n", e.name, e.about, e.text)?;
        }
    }
    Ok(())
}
