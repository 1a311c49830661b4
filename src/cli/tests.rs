//! Tests of `cli`.

use super::Cli;
use super::args::{parse_bytes, parse_view, parse_window_size};
use super::join_clap_lines;

#[test]
fn a_view_is_rows_then_columns_and_bad_ones_are_refused() {
    let v = parse_view("0..4096,10..20").unwrap();
    assert_eq!((v.rows, v.cols), (0..4096, 10..20));
    // views reach 2^44 (maps from a closed form go that far; filled maps stop sooner)
    assert!(parse_view("1000000000000..1000000000064,0..4").is_ok());
    for bad in ["0..10", "5..3,0..4", "0..0,0..4", "0..20000000000000,0..4", "a..b,0..4"] {
        assert!(parse_view(bad).is_err(), "{bad}");
    }
    assert_eq!(parse_window_size("1920x1080"), Ok((1920, 1080)));
    for bad in ["1920", "10x10", "axb", "1920x99999"] {
        assert!(parse_window_size(bad).is_err(), "{bad}");
    }
}

#[test]
fn clap_continuation_lines_join_and_input_newlines_stay() {
    assert_eq!(
        join_clap_lines("invalid value 'jpg' for '--format <FORMAT>'\n  [possible values: png, svg]"),
        "invalid value 'jpg' for '--format <FORMAT>' [possible values: png, svg]"
    );
    assert_eq!(join_clap_lines("invalid value 'a\nb'"), "invalid value 'a\nb'");
}

#[test]
fn the_default_budget_is_spelt_once_in_bytes() {
    assert_eq!(parse_bytes("4G"), Ok(nimscope_core::solver::budget::DEFAULT));
    let cli = <Cli as clap::Parser>::try_parse_from(["nimscope", "rules"]).unwrap();
    assert_eq!(cli.memory_budget, nimscope_core::solver::budget::DEFAULT);
}

#[test]
fn a_bare_file_is_the_session_the_window_opens_and_commands_still_parse() {
    // a menu entry with `Exec=nimscope %f` runs `nimscope` with no file and `nimscope FILE` with one
    let parse = |args: &[&str]| <Cli as clap::Parser>::try_parse_from(args);
    let bare = parse(&["nimscope"]).unwrap();
    assert!(bare.file.is_none() && bare.command.is_none());
    let file = parse(&["nimscope", "sessions/zeruclid-figure2.ron"]).unwrap();
    assert_eq!(
        file.file.as_deref(),
        Some(std::path::Path::new("sessions/zeruclid-figure2.ron"))
    );
    assert!(file.command.is_none());
    assert!(
        parse(&["nimscope", "a.ron", "--session", "b.ron"]).is_err(),
        "two sessions at once"
    );
    assert!(parse(&["nimscope", "a.ron", "b.ron"]).is_err(), "one session at a time");
    // the global options still go before a command, which is not taken for a file
    let value = parse(&["nimscope", "--memory-budget", "1G", "value", "nim", "3,4"]).unwrap();
    assert!(value.file.is_none() && value.command.is_some());
    assert!(super::file_argument_error(&value).is_none());
}

#[test]
fn a_file_argument_with_a_command_or_naming_nothing_is_refused_in_one_line() {
    let parse = |args: &[&str]| <Cli as clap::Parser>::try_parse_from(args).unwrap();
    let with_command = super::file_argument_error(&parse(&["nimscope", "a.ron", "value", "nim", "3"]));
    assert!(with_command.unwrap().contains("a command takes none"));
    // a misspelt command names neither a command nor a file
    let typo = super::file_argument_error(&parse(&["nimscope", "vlaue"])).unwrap();
    assert!(
        typo.contains("'vlaue' is neither a command nor a session file"),
        "{typo}"
    );
    let real = parse(&["nimscope", env!("CARGO_MANIFEST_DIR")]);
    assert!(
        super::file_argument_error(&real).is_none(),
        "an existing path goes to the window"
    );
}
