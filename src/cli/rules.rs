//! Typed rules on the command line: `--rule-file FILE` (the ruleset expression read from a
//! file, its errors with line and column) and `nimscope rules [--examples] [--json]`.

use std::io::Write;
use std::path::Path;

use serde_json::json;

use crate::game::Ruleset;
use crate::game::quote::{escape, quoted};
use crate::game::rules::typed::REFERENCE;
use crate::game::rules::typed::examples::EXAMPLES;

/// Largest rule file read: a rule is a few lines; a megabyte is already absurd.
const MAX_RULE_FILE: u64 = 1 << 20;

/// The ruleset of `grid` and `seq`: the argument, or the file's expression.
pub fn ruleset_arg(rule_file: Option<&Path>, arg: Option<String>) -> anyhow::Result<Ruleset> {
    match (rule_file, arg) {
        (Some(file), _) => read_rule_file(file),
        (None, Some(text)) => super::parse_ruleset(&text),
        (None, None) => anyhow::bail!("give a ruleset, or --rule-file FILE"),
    }
}

/// The ruleset and the position text of `value` and `moves`: with `--rule-file` the one
/// argument is the position.
pub fn ruleset_and_position_args(
    rule_file: Option<&Path>,
    first: String,
    second: Option<String>,
) -> anyhow::Result<(Ruleset, String)> {
    match (rule_file, second) {
        (Some(file), None) => Ok((read_rule_file(file)?, first)),
        (Some(_), Some(extra)) => {
            anyhow::bail!("with --rule-file give only the position, not also {}", quoted(&extra))
        }
        (None, Some(position)) => Ok((super::parse_ruleset(&first)?, position)),
        (None, None) => anyhow::bail!("give a ruleset and a position, e.g. value wythoff 3,5"),
    }
}

/// Reads and parses a rule file: a regular file of at most [`MAX_RULE_FILE`] bytes (read as
/// every input file is, [`crate::files::input::read_bounded`]) holding one ruleset expression (comments from `#` to the end of a line). Errors name the file, the line
/// and the column.
pub fn read_rule_file(path: &Path) -> anyhow::Result<Ruleset> {
    let name = escape(&path.display().to_string());
    let bytes =
        crate::files::input::read_bounded(path, MAX_RULE_FILE, "a rule").map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    let text = String::from_utf8(bytes).map_err(|_| anyhow::anyhow!("{name}: not UTF-8 text; a rule file is text"))?;
    text.parse::<Ruleset>().map_err(|e| {
        let (line, column) = e.line_and_column();
        anyhow::anyhow!("{name}, line {line}, column {column}: {}", e.message)
    })
}

/// `nimscope rules [--examples] [--json]`.
pub fn print(out: &mut impl Write, examples: bool, json: bool) -> std::io::Result<()> {
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
