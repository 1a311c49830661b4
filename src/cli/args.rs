//! What the commands share: argument groups (`#[command(flatten)]`), the parsers of sizes,
//! ranges and views, and turning a ruleset or position text into the core's types once, at the
//! border, with the one error prefix each.

use std::ops::Range;
use std::path::{Path, PathBuf};

use clap::ValueEnum;

use nimscope_core::game::quote::quoted;
use nimscope_core::game::{Position, Ruleset};

/// The ruleset of `grid` and `seq`: an expression, or a file holding one.
#[derive(Debug, clap::Args)]
pub struct RulesetSource {
    /// Ruleset expression, e.g. wythoff, octal(0.07), or a typed rule; left out with --rule-file.
    #[arg(required_unless_present = "rule_file")]
    pub ruleset: Option<String>,
    /// Read the ruleset expression from FILE.
    #[arg(long, value_name = "FILE", conflicts_with = "ruleset")]
    pub rule_file: Option<PathBuf>,
}

impl RulesetSource {
    /// The ruleset, parsed.
    pub fn ruleset(self) -> anyhow::Result<Ruleset> {
        ruleset_arg(self.rule_file.as_deref(), self.ruleset)
    }
}

/// The ruleset and position of `value` and `moves`.
#[derive(Debug, clap::Args)]
pub struct PositionQuery {
    /// Ruleset expression, e.g. nim, push(nim,euclid0), sub(1,3,4), misere(octal(0.07)), or a
    /// typed rule such as 'rule(n -> [k, n - k] for k in 1..n if 2*k < n)'; left out with
    /// --rule-file.
    pub ruleset: String,
    /// Position, e.g. 3,5 (heaps), 60 (one heap), 20:5 (Fibonacci Nim), 3,5+7 (a sum).
    pub position: Option<String>,
    /// Read the ruleset expression from FILE (then give only the position).
    #[arg(long, value_name = "FILE")]
    pub rule_file: Option<PathBuf>,
}

impl PositionQuery {
    /// The ruleset and the position, parsed; errors name which was wrong.
    pub fn parse(self) -> anyhow::Result<(Ruleset, Position)> {
        let (r, position) = ruleset_and_position_args(self.rule_file.as_deref(), self.ruleset, self.position)?;
        let p = position_of(&r, &position)?;
        Ok((r, p))
    }
}

/// The ruleset of `grid` and `seq`: the argument, or the file's expression.
fn ruleset_arg(rule_file: Option<&Path>, arg: Option<String>) -> anyhow::Result<Ruleset> {
    match (rule_file, arg) {
        (Some(file), _) => read_rule_file(file),
        (None, Some(text)) => parse_ruleset(&text),
        (None, None) => anyhow::bail!("give a ruleset, or --rule-file FILE"),
    }
}

/// The ruleset and the position text of `value` and `moves`: with `--rule-file` the one
/// argument is the position.
fn ruleset_and_position_args(
    rule_file: Option<&Path>,
    first: String,
    second: Option<String>,
) -> anyhow::Result<(Ruleset, String)> {
    match (rule_file, second) {
        (Some(file), None) => Ok((read_rule_file(file)?, first)),
        (Some(_), Some(extra)) => {
            anyhow::bail!("with --rule-file give only the position, not also {}", quoted(&extra))
        }
        (None, Some(position)) => Ok((parse_ruleset(&first)?, position)),
        (None, None) => anyhow::bail!("give a ruleset and a position, e.g. value wythoff 3,5"),
    }
}

/// Reads and parses a rule file ([`nimscope_core::query::rule_file`]).
pub fn read_rule_file(path: &Path) -> anyhow::Result<Ruleset> {
    Ok(nimscope_core::query::rule_file(path)?)
}

/// The file formats of `export --format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FigureFormat {
    Png,
    Svg,
}

/// The formats of `grid --format` and of the quotient's table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GridFormat {
    Csv,
    Json,
}

/// A ruleset expression of the command line; the error names it as such
/// ([`nimscope_core::query::ruleset`]).
pub fn parse_ruleset(text: &str) -> anyhow::Result<Ruleset> {
    Ok(nimscope_core::query::ruleset(text)?)
}

/// A position of `r`; the error names the text and the ruleset
/// ([`nimscope_core::query::position`]).
pub fn position_of(r: &Ruleset, position: &str) -> anyhow::Result<Position> {
    Ok(nimscope_core::query::position(r, position)?)
}

pub(super) fn parse_range(text: &str) -> Result<Range<u64>, String> {
    let (a, b) = text
        .split_once("..")
        .ok_or_else(|| format!("{} is not a range A..B", quoted(text)))?;
    let a = nimscope_core::game::position::parse_number(a).map_err(|e| format!("range start: {e}"))?;
    let b = nimscope_core::game::position::parse_number(b).map_err(|e| format!("range end: {e}"))?;
    if a > b {
        return Err(format!("range {a}..{b} is backwards"));
    }
    Ok(a..b)
}

pub(super) fn parse_threads(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=1024).contains(&n) => Ok(n),
        _ => Err(format!("{} is not a number of threads from 1 to 1024", quoted(text))),
    }
}

/// `A..B,C..D`: rows a in A..B and columns b in C..D, neither empty, within the largest map.
pub fn parse_view(text: &str) -> Result<nimscope_core::solver::tiles::CellRect, String> {
    let (rows, cols) = text
        .split_once(',')
        .ok_or_else(|| format!("{} is not a view A..B,C..D (rows, then columns)", quoted(text)))?;
    let (rows, cols) = (parse_range(rows.trim())?, parse_range(cols.trim())?);
    const LARGEST: u64 = nimscope_core::solver::tiles::MAX_VIEW;
    if rows.is_empty() || cols.is_empty() {
        return Err(format!("the view {} holds no cell", quoted(text)));
    }
    if rows.end > LARGEST || cols.end > LARGEST {
        return Err(format!(
            "the view {} reaches past the largest map ({LARGEST} rows and columns)",
            quoted(text)
        ));
    }
    Ok(nimscope_core::solver::tiles::CellRect::new(rows, cols))
}

/// `WxH`: a window of W × H points, each from 320 to 16384.
pub fn parse_window_size(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("{} is not a window size WxH such as 1280x800", quoted(text));
    let (w, h) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    let (w, h): (u32, u32) = (
        w.trim().parse().map_err(|_| bad())?,
        h.trim().parse().map_err(|_| bad())?,
    );
    if !(320..=16384).contains(&w) || !(320..=16384).contains(&h) {
        return Err(format!("a window of {w}x{h}: each side from 320 to 16384 points"));
    }
    Ok((w, h))
}

/// A size such as `512M` or `4G` ([`nimscope_core::solver::budget::parse_bytes`]).
pub(super) fn parse_bytes(text: &str) -> Result<u64, String> {
    nimscope_core::solver::budget::parse_bytes(text)
}
