//! The scriptable command line: `value`, `moves`, `grid`, `seq`, `cram`, `export`, `quotient`,
//! `rules`, `check`. A stable interface:
//! scripts and tests depend on its output. Bad input gets one `error:` line on stderr naming
//! what is wrong and exit status 2, never a panic.

mod checkpoint;
mod cram;
mod cram_plan;
mod export;
mod grid;
mod interrupt;
pub mod output;
mod progress;
pub mod quotient;
mod rules;

use std::ops::Range;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use crate::game::quote::{escape, one_line, quoted};
use crate::game::{Layout, Presentation, has_sequence};
use crate::game::{Position, Ruleset};

use crate::solver::{Control, Evaluator, sequence};

/// Exit status for bad input, refused jobs and failed computations.
pub const EXIT_ERROR: u8 = 2;
/// Exit status after Ctrl+C (128 + SIGINT, as shells report it).
pub const EXIT_INTERRUPTED: u8 = 130;

#[derive(Debug, Parser)]
#[command(name = "nimscope", version = crate::GIT_COMMIT_VERSION, about = "Explore impartial combinatorial games: values, moves, maps, sequences and the papers' theorems")]
pub struct Cli {
    /// Memory budget of one job, e.g. 512M, 4G (jobs that would need more are refused).
    // the default spells crate::solver::budget::DEFAULT (a test holds them equal)
    #[arg(long, global = true, default_value = "4G", value_parser = parse_bytes)]
    pub memory_budget: u64,
    /// Threads a job may use, e.g. 1 (default: every core). Values never depend on it.
    #[arg(long, global = true, value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// Ruleset the window opens with (when no command is given), e.g. 'octal(0.07)'.
    #[arg(long)]
    pub ruleset: Option<String>,
    /// Board the window's Cram editor opens with (when no command is given), e.g. 3x7 or ..../.##.
    #[arg(long)]
    pub board: Option<String>,
    /// With --board: the editor plays Push Cram.
    #[arg(long, requires = "board")]
    pub push: bool,
    /// Session file the window opens (when no command is given), e.g. sessions/zeruclid-figure2.ron.
    #[arg(long)]
    pub session: Option<std::path::PathBuf>,
    /// Start the window afresh instead of restoring the last state.
    #[arg(long)]
    pub fresh: bool,
    /// Position the window's inspector opens on (when no command is given), e.g. 3,5.
    #[arg(long)]
    pub select: Option<String>,
    /// Region the window's map opens on (when no command is given): rows a in A..B, columns b
    /// in C..D, e.g. 0..4096,0..4096.
    #[arg(long, value_name = "A..B,C..D", value_parser = parse_view)]
    pub view: Option<crate::solver::tiles::CellRect>,
    /// Size of the window in points (when no command is given), e.g. 1920x1080.
    #[arg(long, value_name = "WxH", value_parser = parse_window_size)]
    pub window_size: Option<(u32, u32)>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Grundy value and outcome of one position.
    Value {
        /// Ruleset expression, e.g. nim, push(nim,euclid0), sub(1,3,4), misere(octal(0.07)), or a
        /// typed rule such as 'rule(n -> [k, n - k] for k in 1..n if 2*k < n)'; left out with
        /// --rule-file.
        ruleset: String,
        /// Position, e.g. 3,5 (heaps), 60 (one heap), 20:5 (Fibonacci Nim), 3,5+7 (a sum).
        position: Option<String>,
        /// Read the ruleset expression from FILE (then give only the position).
        #[arg(long, value_name = "FILE")]
        rule_file: Option<std::path::PathBuf>,
        /// One JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Every option of a position with its value; winning moves are marked.
    Moves {
        ruleset: String,
        position: Option<String>,
        /// Read the ruleset expression from FILE (then give only the position).
        #[arg(long, value_name = "FILE")]
        rule_file: Option<std::path::PathBuf>,
        /// One JSON object a line instead of text.
        #[arg(long)]
        json: bool,
        /// List at most N options (default: all of them if they fit the memory budget, else
        /// the first 1000), then say how many there are.
        #[arg(long, value_name = "N")]
        limit: Option<usize>,
        /// Start the list at option number K (from 0).
        #[arg(long, value_name = "K", default_value_t = 0)]
        offset: u64,
    },
    /// Values of a rectangle: one line per row a, the values G(a,b) for b in the columns.
    Grid(grid::GridArgs),
    /// Values G(n) for 0 ≤ n < N of a one-heap ruleset, with the certified period.
    Seq {
        #[arg(required_unless_present = "rule_file")]
        ruleset: Option<String>,
        /// Read the ruleset expression from FILE.
        #[arg(long, value_name = "FILE", conflicts_with = "ruleset")]
        rule_file: Option<std::path::PathBuf>,
        /// N: values for n in 0..N (half-open).
        #[arg(long)]
        to: u64,
        #[arg(long)]
        json: bool,
    },
    /// Cram or Push Cram on a board: value, outcome, and with --moves every placement.
    Cram {
        /// Board: rows of '.' (empty) and '#' (blocked) separated by '/', or a size like 3x7.
        #[arg(required_unless_present_any = ["unit", "combine", "needed"])]
        board: Option<String>,
        /// Push Cram: vertical dominoes before the push, horizontal after.
        #[arg(long)]
        push: bool,
        /// Also list every move with the value it leads to.
        #[arg(long)]
        moves: bool,
        /// Only the outcome (P or N), not the value: one winning move settles it, often far
        /// sooner (a record hunt's first question).
        #[arg(long, conflicts_with = "moves")]
        outcome: bool,
        #[arg(long)]
        json: bool,
        /// Save the search to this file as it goes, and resume from it when it exists (the
        /// same command again after a restart or Ctrl+C).
        #[arg(long, value_name = "FILE")]
        checkpoint: Option<std::path::PathBuf>,
        /// Seconds between two saves of the checkpoint.
        #[arg(long, value_name = "SECONDS", default_value_t = 300, requires = "checkpoint", value_parser = clap::value_parser!(u64).range(1..=86_400))]
        checkpoint_every: u64,
        #[command(flatten)]
        plan: cram_plan::PlanArgs,
    },
    /// A figure of a saved session (its map region, sequence or Cram board) as PNG or SVG.
    Export(export::ExportArgs),
    /// The move language of typed rules (`rule(…)`): its syntax, and with --examples the rules
    /// of the literature written in it, each exactly as it is typed as a RULESET.
    Rules {
        /// List the examples (name, text, and the built-in ruleset each equals, if any).
        #[arg(long)]
        examples: bool,
        /// One JSON object a line.
        #[arg(long, requires = "examples")]
        json: bool,
    },
    /// The misère quotient of an octal game for heaps up to N (Plambeck–Siegel): its size,
    /// presentation, P-portion, each heap's element, and where it is tame or wild.
    Quotient {
        /// An octal game, e.g. 'octal(0.07)' (or 'misere(octal(0.07))').
        ruleset: String,
        /// The largest heap, e.g. 20.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(0..=i64::from(crate::solver::misere_quotient::MAX_HEAPS)))]
        heaps: u16,
        #[arg(long)]
        json: bool,
    },
    /// The papers' theorems compared with computation: PASS, FAIL with a counterexample, or
    /// EMPTY when a row's range holds no case.
    Check {
        /// Bound of the ranges checked, 0 to 100000 (rows about the papers' own examples are
        /// checked at any bound).
        #[arg(long, default_value_t = 200, allow_hyphen_values = true, value_parser = parse_upto)]
        upto: u64,
        #[arg(long)]
        json: bool,
    },
}

/// The file formats of `export --format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FigureFormat {
    Png,
    Svg,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GridFormat {
    Csv,
    Json,
}

fn parse_range(text: &str) -> Result<Range<u64>, String> {
    let (a, b) = text
        .split_once("..")
        .ok_or_else(|| format!("{} is not a range A..B", quoted(text)))?;
    let a = crate::game::position::parse_number(a).map_err(|e| format!("range start: {e}"))?;
    let b = crate::game::position::parse_number(b).map_err(|e| format!("range end: {e}"))?;
    if a > b {
        return Err(format!("range {a}..{b} is backwards"));
    }
    Ok(a..b)
}

fn parse_threads(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=1024).contains(&n) => Ok(n),
        _ => Err(format!("{} is not a number of threads from 1 to 1024", quoted(text))),
    }
}

/// Largest `check --upto`: the checks fill maps of `upto × upto` cells.
pub const MAX_UPTO: u64 = 100_000;

fn parse_upto(text: &str) -> Result<u64, String> {
    let n = crate::game::position::parse_number(text)
        .map_err(|_| format!("a bound is a whole number from 0 to {MAX_UPTO}"))?;
    if n > MAX_UPTO {
        return Err(format!(
            "a bound is at most {MAX_UPTO} (the checks fill maps of bound × bound cells)"
        ));
    }
    Ok(n)
}

/// `A..B,C..D`: rows a in A..B and columns b in C..D, neither empty, within the largest map.
pub fn parse_view(text: &str) -> Result<crate::solver::tiles::CellRect, String> {
    let (rows, cols) = text
        .split_once(',')
        .ok_or_else(|| format!("{} is not a view A..B,C..D (rows, then columns)", quoted(text)))?;
    let (rows, cols) = (parse_range(rows.trim())?, parse_range(cols.trim())?);
    const LARGEST: u64 = crate::solver::tiles::MAX_VIEW;
    if rows.is_empty() || cols.is_empty() {
        return Err(format!("the view {} holds no cell", quoted(text)));
    }
    if rows.end > LARGEST || cols.end > LARGEST {
        return Err(format!(
            "the view {} reaches past the largest map ({LARGEST} rows and columns)",
            quoted(text)
        ));
    }
    Ok(crate::solver::tiles::CellRect::new(rows, cols))
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

fn parse_bytes(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let (digits, unit) = t.find(|c: char| !c.is_ascii_digit()).map_or((t, ""), |i| t.split_at(i));
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("{} is not a size such as 512M or 4G", quoted(text)))?;
    let mult: u64 = match unit.to_ascii_uppercase().trim_end_matches(['B', 'I']) {
        "" => 1,
        "K" => 1 << 10,
        "M" => 1 << 20,
        "G" => 1 << 30,
        "T" => 1 << 40,
        _ => {
            return Err(format!(
                "{}: unknown unit {} (use K, M, G or T)",
                quoted(text),
                quoted(unit)
            ));
        }
    };
    n.checked_mul(mult)
        .ok_or_else(|| format!("{} is too large", quoted(text)))
}

/// Runs one command, printing to stdout; errors are returned for the caller to print.
pub fn run(command: Command, control: &Control, out: &mut impl std::io::Write) -> anyhow::Result<()> {
    match command {
        Command::Value {
            ruleset,
            position,
            rule_file,
            json,
        } => {
            let (r, position) = rules::ruleset_and_position_args(rule_file.as_deref(), ruleset, position)?;
            let p = position_of(&r, &position)?;
            let a = Evaluator::new().answer(&r, &p, control)?;
            output::value(out, &r, &p, &a, json)?;
        }
        Command::Moves {
            ruleset,
            position,
            rule_file,
            json,
            limit,
            offset,
        } => {
            let (r, position) = rules::ruleset_and_position_args(rule_file.as_deref(), ruleset, position)?;
            let p = position_of(&r, &position)?;
            let limit = limit.unwrap_or_else(|| default_page(&r, &p, control));
            let page = Evaluator::new().options_page(&r, &p, offset.into(), limit, control)?;
            output::moves_page(out, &page, json)?;
        }
        Command::Grid(args) => grid::run(args, control, out)?,
        Command::Seq {
            ruleset,
            rule_file,
            to,
            json,
        } => {
            let r = rules::ruleset_arg(rule_file.as_deref(), ruleset)?;
            if !has_sequence(&r) {
                match Presentation::of(&r, &Layout::Plain) {
                    Presentation::Board => anyhow::bail!("{r} is played on a board: use cram"),
                    _ => anyhow::bail!("{r} is not played on one heap: use grid for its map"),
                }
            }
            if to > MAX_SEQ {
                anyhow::bail!(
                    "seq --to {to}: seq prints every value, at most {MAX_SEQ} of them (for one heap, ask value)"
                );
            }
            let s = sequence::compute_with_quotient(&r, to, control)?;
            output::sequence(out, &r, &s, json, &interrupt::interrupted)?;
        }
        Command::Cram {
            board,
            push,
            moves,
            outcome,
            json,
            checkpoint,
            checkpoint_every,
            plan,
        } => {
            let common = cram_plan::Common {
                board: board.as_deref(),
                push,
                outcome,
                json,
                checkpoint: checkpoint.as_deref(),
                checkpoint_every,
            };
            if let Some(result) = cram_plan::run(&plan, &common, control, out) {
                return result;
            }
            cram::board(&common, moves, control, out)?;
        }
        Command::Export(args) => export::run(args, control, out)?,
        Command::Rules { examples, json } => rules::print(out, examples, json)?,
        Command::Quotient { ruleset, heaps, json } => {
            let r = parse_ruleset(&ruleset)?;
            quotient::run(&r, heaps, json, control, out)?;
        }
        Command::Check { upto, json } => {
            let rows = crate::checks::all_checks(upto, control)?;
            output::checks(out, &rows, json)?;
        }
    }
    Ok(())
}

/// The page `moves` lists without `--limit`: every option when they all fit the memory budget
/// (as the page is held to align its columns), else the first [`DEFAULT_PAGE`].
fn default_page(r: &Ruleset, p: &Position, control: &Control) -> usize {
    let each = 2 * crate::solver::search::position_bytes(p) + 256;
    let fit = crate::solver::budget::held_listing(control.memory_budget()) / each;
    match crate::game::rules::paging::option_count(r, p) {
        Some(total) if total <= u128::from(fit) => total as usize,
        Some(_) => DEFAULT_PAGE,
        None => usize::try_from(fit).unwrap_or(usize::MAX),
    }
}

/// Most values `seq` prints (about 15 GB of text).
pub const MAX_SEQ: u64 = 1 << 32;

/// Options listed by `moves` when they do not all fit.
pub const DEFAULT_PAGE: usize = 1000;

/// Refuses an output that is the session being exported, under any name (the same file through
/// a link, a hard link or `..`): exporting must never destroy its own input.
fn refuse_to_overwrite(session: &std::path::Path, output: &std::path::Path) -> anyhow::Result<()> {
    let same = match (std::fs::metadata(session), std::fs::metadata(output)) {
        (Ok(a), Ok(b)) => same_file(&a, &b),
        _ => false,
    };
    if same {
        anyhow::bail!(
            "{} is the session being exported: give the figure another name",
            escape(&output.display().to_string())
        );
    }
    Ok(())
}

/// Whether `path` is this process's standard output (`/dev/stdout`, `/proc/self/fd/1`, or the
/// file or pipe it leads to).
#[cfg(unix)]
fn is_stdout(path: &std::path::Path) -> bool {
    use std::os::fd::AsFd;
    let Ok(fd) = std::io::stdout().as_fd().try_clone_to_owned() else {
        return false;
    };
    match (std::fs::File::from(fd).metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => same_file(&a, &b),
        _ => false,
    }
}

#[cfg(not(unix))]
fn is_stdout(_: &std::path::Path) -> bool {
    false
}

#[cfg(unix)]
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    (a.dev(), a.ino()) == (b.dev(), b.ino())
}

#[cfg(not(unix))]
fn same_file(_: &std::fs::Metadata, _: &std::fs::Metadata) -> bool {
    false
}

/// The editor document of `--board TEXT [--push]`, for the window's Cram board tab.
pub fn board_document(text: &str, push: bool) -> anyhow::Result<crate::game::cram_setup::CramDocument> {
    use crate::game::cram_setup::{CramDocument, CramGame, Setup};
    let setup = Setup::parse(text).map_err(|e| anyhow::anyhow!("board {}: {e}", quoted(text)))?;
    Ok(CramDocument {
        board: setup.cells_text(),
        dominoes: Vec::new(),
        rules: if push { CramGame::PushCram } else { CramGame::Cram },
        pushed: false,
    })
}

/// A ruleset expression of the command line; the error names it as such.
pub fn parse_ruleset(text: &str) -> anyhow::Result<Ruleset> {
    text.parse::<Ruleset>().map_err(|e| anyhow::anyhow!("ruleset: {e}"))
}

fn position_of(r: &Ruleset, position: &str) -> anyhow::Result<Position> {
    r.parse_position(position)
        .map_err(|e| anyhow::anyhow!("position {} of {r}: {e}", quoted(position)))
}

/// Prints an error as the command line does: one `error:` line on stderr, which input cannot
/// forge or stretch: control characters are escaped, quoted input shortened
/// ([`crate::game::quote::one_line`]).
pub fn print_error(e: &dyn std::fmt::Display) {
    eprintln!("error: {}", one_line(&e.to_string()));
}

/// clap's first paragraph on one line: its own continuation lines (indented, such as
/// `  [possible values: png, svg]`) join the line before with a space, so they do not show as
/// an escaped `\n`; a newline inside the argument as given (followed by no indentation) stays,
/// for [`print_error`] to escape.
pub fn join_clap_lines(text: &str) -> String {
    let mut out = String::new();
    for (i, line) in text.split('\n').enumerate() {
        if i == 0 {
            out.push_str(line);
        } else if line.starts_with("  ") {
            out.push(' ');
            out.push_str(line.trim_start());
        } else {
            out.push('\n');
            out.push_str(line);
        }
    }
    out
}

/// The binary's entry point for subcommands: runs, prints errors as one line, gives the exit
/// code.
pub fn main_with(command: Command, memory_budget: u64, threads: Option<usize>) -> ExitCode {
    let mut control = Control::with_budget(memory_budget);
    if let Some(n) = threads {
        control = control.with_threads(n);
    }
    let watcher = progress::Watcher::start(&control);
    let stdout = std::io::stdout();
    let mut lock = std::io::BufWriter::new(stdout.lock());
    let result = run(command, &control, &mut lock);
    watcher.stop();
    let flushed = std::io::Write::flush(&mut lock);
    match result.and(flushed.map_err(anyhow::Error::from)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            if e.downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            {
                return ExitCode::SUCCESS;
            }
            if interrupt::interrupted() {
                // a checkpointed search says where it is saved; anything else stopped
                let stopped = e.downcast_ref::<crate::solver::SolveError>().is_some()
                    || e.downcast_ref::<std::io::Error>()
                        .is_some_and(|io| io.kind() == std::io::ErrorKind::Interrupted);
                if stopped {
                    print_error(&"interrupted (Ctrl+C); nothing was saved");
                } else {
                    print_error(&e);
                }
                return ExitCode::from(EXIT_INTERRUPTED);
            }
            print_error(&e);
            ExitCode::from(EXIT_ERROR)
        }
    }
}

#[cfg(test)]
mod tests;
