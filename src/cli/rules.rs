//! Typed rules on the command line: `--rule-file FILE` (the ruleset expression read from a
//! file, its errors with line and column) and `nimscope rules [--examples] [--json]`.

use std::io::Write;
use std::path::Path;

use serde_json::json;

use crate::game::Ruleset;
use crate::game::quote::escape;
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

/// The ruleset and position texts of `value` and `moves`: with `--rule-file` the one argument
/// is the position.
pub fn ruleset_and_position_args(
    rule_file: Option<&Path>,
    first: String,
    second: Option<String>,
) -> anyhow::Result<(String, String)> {
    match (rule_file, second) {
        (Some(file), None) => Ok((read_rule_file(file)?.to_string(), first)),
        (Some(_), Some(extra)) => {
            anyhow::bail!("with --rule-file give only the position, not also '{}'", escape(&extra))
        }
        (None, Some(position)) => Ok((first, position)),
        (None, None) => anyhow::bail!("give a ruleset and a position, e.g. value wythoff 3,5"),
    }
}

/// Reads and parses a rule file: a regular file of at most [`MAX_RULE_FILE`] bytes holding one
/// ruleset expression (comments from `#` to the end of a line). Errors name the file, the line
/// and the column.
pub fn read_rule_file(path: &Path) -> anyhow::Result<Ruleset> {
    let name = escape(&path.display().to_string());
    let meta = std::fs::metadata(path).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    if !meta.is_file() {
        anyhow::bail!("{name}: not a regular file; --rule-file reads a text file holding a rule");
    }
    if meta.len() > MAX_RULE_FILE {
        anyhow::bail!(
            "{name}: {} bytes, larger than any rule ({} bytes at most)",
            meta.len(),
            MAX_RULE_FILE
        );
    }
    let text = std::fs::read_to_string(path).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    text.parse::<Ruleset>().map_err(|e| {
        let mut at = (e.at.saturating_sub(1)).min(text.len());
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let before = &text[..at];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        anyhow::anyhow!("{name}, line {line}, column {column}: {}", e.message)
    })
}

/// The language's reference, as `nimscope rules` prints it.
const REFERENCE: &str = "\
A typed rule is a ruleset: rule(HEAPS -> TERM; TERM; ...)
  HEAPS   n (one heap; a position is a collection of heaps, their sum), (a, b) or (a, b, c),
          optionally followed by 'if COND', the positions that exist, e.g. (a, b) if a >= 1 and b >= 1
  TERM    TARGET CLAUSES: the options TARGET for every binding of the clauses
  TARGET  (x, y) or (x, y, z); for one heap a heap x or a collection [x, y] (empty: [])
  CLAUSES for v in LO..HI (HI excluded), for v in LO..=HI, for v in {1, 3, 4}; if COND (or where COND)
  COND    comparisons < <= > >= == != (chains: 1 <= b <= a), and, or, not, parentheses
  EXPR    numbers (u64), names, + - * / %, min(..), max(..), gcd(..), isqrt(x), |x - y|
Arithmetic is checked: a value below zero or past 2^64 - 1 is an error naming the term, the part
and the position, unless a guard skips it. A guard is checked as soon as the names it uses are
bound (each part of an 'and' separately): '(a - k*b, b) for k in 1..=a/b if b >= 1' never
divides by zero. Comments run from # to the end of the line.
Example: nimscope seq 'rule(n -> [k, n - k] for k in 1..n if 2*k < n)' --to 30
More:    nimscope rules --examples";

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
