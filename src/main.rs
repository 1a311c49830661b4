//! The `nimscope` binary: parses the command line and runs a subcommand.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    nimscope::cli::main_with(nimscope::cli::Cli::parse())
}
