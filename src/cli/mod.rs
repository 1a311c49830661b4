//! The scriptable command line: one file a command (`value`, `moves`, `grid`, `seq`, `cram`,
//! `export`, `quotient`, `rules`, `check`), the argument groups they share ([`args`]), and how
//! they print ([`output`]). A stable interface: scripts and tests depend on its output. Bad
//! input gets one `error:` line on stderr naming what is wrong and exit status 2, never a panic.

pub mod args;
mod check;
mod checkpoint;
mod cram;
mod cram_args;
mod cram_hunt;
mod cram_plan;
mod cram_unit;
mod export;
mod grid;
mod interrupt;
mod moves;
pub mod output;
mod progress;
mod quotient;
mod rules;
mod seq;
mod value;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use nimscope_core::game::quote::one_line;
use nimscope_core::solver::Control;

pub use args::{GridFormat, parse_ruleset, parse_view, parse_window_size};
pub use cram::board_document;
pub use moves::DEFAULT_PAGE;
pub use seq::MAX_SEQ;

/// Exit status for bad input, refused jobs and failed computations.
pub const EXIT_ERROR: u8 = 2;
/// Exit status after Ctrl+C (128 + SIGINT, as shells report it).
pub const EXIT_INTERRUPTED: u8 = 130;

#[derive(Debug, Parser)]
#[command(name = "nimscope", version = nimscope_core::GIT_COMMIT_VERSION, about = "Explore impartial combinatorial games: values, moves, maps, sequences and the papers' theorems")]
pub struct Cli {
    /// Memory budget of one job, e.g. 512M, 4G (jobs that would need more are refused).
    // the default spells nimscope_core::solver::budget::DEFAULT (a test holds them equal)
    #[arg(long, global = true, default_value = "4G", value_parser = args::parse_bytes)]
    pub memory_budget: u64,
    /// Threads a job may use, e.g. 1 (default: every core). Values never depend on it.
    #[arg(long, global = true, value_parser = args::parse_threads)]
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
    /// Session file the window opens, as a file manager or a menu entry passes it
    /// (`nimscope FILE.ron`, the same as `--session FILE.ron`).
    #[arg(value_name = "FILE.ron", conflicts_with = "session")]
    pub file: Option<std::path::PathBuf>,
    /// Start the window afresh instead of restoring the last state.
    #[arg(long)]
    pub fresh: bool,
    /// Position the window's inspector opens on (when no command is given), e.g. 3,5.
    #[arg(long)]
    pub select: Option<String>,
    /// Region the window's map opens on (when no command is given): rows a in A..B, columns b
    /// in C..D, e.g. 0..4096,0..4096.
    #[arg(long, value_name = "A..B,C..D", value_parser = args::parse_view)]
    pub view: Option<nimscope_core::solver::tiles::CellRect>,
    /// Size of the window in points (when no command is given), e.g. 1920x1080.
    #[arg(long, value_name = "WxH", value_parser = args::parse_window_size)]
    pub window_size: Option<(u32, u32)>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Grundy value and outcome of one position.
    Value(value::ValueArgs),
    /// Every option of a position with its value; winning moves are marked.
    Moves(moves::MovesArgs),
    /// Values of a rectangle: one line per row a, the values G(a,b) for b in the columns.
    Grid(grid::GridArgs),
    /// Values G(n) for 0 ≤ n < N of a one-heap ruleset, with the certified period.
    Seq(seq::SeqArgs),
    /// Cram or Push Cram on a board: value, outcome, and with --moves every placement.
    Cram(cram::CramArgs),
    /// A figure of a saved session (its map region, sequence or Cram board) as PNG or SVG.
    Export(export::ExportArgs),
    /// The move language of typed rules (`rule(…)`): its syntax, and with --examples the rules
    /// of the literature written in it, each exactly as it is typed as a RULESET.
    Rules(rules::RulesArgs),
    /// The misère quotient of an octal game for heaps up to N (Plambeck–Siegel): its size,
    /// presentation, P-portion, each heap's element, and where it is tame or wild.
    Quotient(quotient::QuotientArgs),
    /// The papers' theorems compared with computation: PASS, FAIL with a counterexample, or
    /// EMPTY when a row's range holds no case.
    Check(check::CheckArgs),
}

/// What is wrong with the bare `FILE.ron` argument, said before anything runs: a command takes
/// no session file, and a word that is no file is more likely a command misspelt than a session
/// (clap would have named it an unrecognised subcommand).
pub fn file_argument_error(cli: &Cli) -> Option<String> {
    let file = cli.file.as_ref()?;
    if cli.command.is_some() {
        return Some(format!(
            "a session file ('{}') opens the window; a command takes none (see nimscope --help)",
            file.display()
        ));
    }
    if !file.exists() {
        return Some(format!(
            "'{}' is neither a command nor a session file (see nimscope --help)",
            file.display()
        ));
    }
    None
}

/// Runs one command, printing to `out`; errors are returned for the caller to print.
pub fn run(command: Command, control: &Control, out: &mut impl std::io::Write) -> anyhow::Result<()> {
    match command {
        Command::Value(args) => value::run(args, control, out),
        Command::Moves(args) => moves::run(args, control, out),
        Command::Grid(args) => grid::run(args, control, out),
        Command::Seq(args) => seq::run(args, control, out),
        Command::Cram(args) => cram::run(args, control, out),
        Command::Export(args) => export::run(args, control, out),
        Command::Rules(args) => Ok(rules::run(args, out)?),
        Command::Quotient(args) => quotient::run(args, control, out),
        Command::Check(args) => check::run(args, control, out),
    }
}

/// Prints an error as the command line does: one `error:` line on stderr, which input cannot
/// forge or stretch: control characters are escaped, quoted input shortened
/// ([`nimscope_core::game::quote::one_line`]).
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
                let stopped = e.downcast_ref::<nimscope_core::solver::SolveError>().is_some()
                    || e.downcast_ref::<std::io::Error>()
                        .is_some_and(|io| io.kind() == std::io::ErrorKind::Interrupted);
                if stopped {
                    print_error(&format!("{}; nothing was saved", interrupt::signal_name()));
                } else {
                    print_error(&e);
                }
                return ExitCode::from(interrupt::status());
            }
            print_error(&e);
            ExitCode::from(EXIT_ERROR)
        }
    }
}

#[cfg(test)]
mod tests;
