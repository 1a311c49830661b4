//! The `nimscope` binary: parses the command line, then runs a command (the `cli` face) or,
//! with no command, opens the window (the `ui` face, when built with the `gui` feature).
//! The two faces never import each other; this file is where the choice is made.

use std::process::ExitCode;

use clap::Parser;
use clap::error::ErrorKind;
use nimscope::cli::{self, Cli, EXIT_ERROR};

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => e.exit(),
        Err(e) => {
            // One line naming what is wrong, like every other error; `--help` has the rest.
            // clap quotes the argument as given: it may hold a newline or an escape sequence.
            let text = e.to_string();
            let first = text.split("\n\n").next().unwrap_or("error: bad arguments").trim();
            let what = first.strip_prefix("error: ").unwrap_or(first);
            cli::print_error(&format!("{} (see nimscope --help)", cli::join_clap_lines(what)));
            return ExitCode::from(EXIT_ERROR);
        }
    };
    if let Some(wrong) = cli::file_argument_error(&cli) {
        cli::print_error(&wrong);
        return ExitCode::from(EXIT_ERROR);
    }
    match cli.command {
        Some(command) => cli::main_with(command, cli.memory_budget, cli.threads),
        None => open_window(cli),
    }
}

/// The window, on what the command line asks it to show.
#[cfg(feature = "gui")]
fn open_window(cli: Cli) -> ExitCode {
    let start = || -> anyhow::Result<nimscope::ui::WindowOptions> {
        Ok(nimscope::ui::WindowOptions {
            memory_budget: cli.memory_budget,
            session: cli.session.or(cli.file),
            ruleset: cli.ruleset.as_deref().map(cli::parse_ruleset).transpose()?,
            board: cli
                .board
                .as_deref()
                .map(|b| cli::board_document(b, cli.push))
                .transpose()?,
            select: cli.select,
            fresh: cli.fresh,
            view: cli.view,
            window_size: cli.window_size,
        })
    };
    match start().and_then(|options| nimscope::ui::run_window(options).map_err(anyhow::Error::msg)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            cli::print_error(&e);
            ExitCode::from(EXIT_ERROR)
        }
    }
}

#[cfg(not(feature = "gui"))]
fn open_window(_cli: Cli) -> ExitCode {
    cli::print_error(
        &"this nimscope was built without the window (the `gui` feature): give a command, see nimscope --help",
    );
    ExitCode::from(EXIT_ERROR)
}
