//! The `nimscope` binary: parses the command line and runs a subcommand.

use std::process::ExitCode;

use clap::Parser;
use clap::error::ErrorKind;

fn main() -> ExitCode {
    match nimscope::cli::Cli::try_parse() {
        Ok(cli) => nimscope::cli::main_with(cli),
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => e.exit(),
        Err(e) => {
            // One line naming what is wrong, like every other error; `--help` has the rest.
            let text = e.to_string();
            eprintln!(
                "{} (see nimscope --help)",
                text.lines().next().unwrap_or("error: bad arguments")
            );
            ExitCode::from(nimscope::cli::EXIT_ERROR)
        }
    }
}
