//! Errors a terminal can trust: exactly one line on stderr, control characters (newlines,
//! escape sequences) shown escaped rather than obeyed, and quoted input shortened with an
//! ellipsis, however long or hostile the input.

use std::path::PathBuf;
use std::process::Output;

use crate::common::nimscope;

use crate::common::temp_dir;

/// The refusal's stderr: status 2, one line ending in a newline, no control character but
/// that newline.
fn one_clean_line(o: &Output, what: &str) -> String {
    assert_eq!(o.status.code(), Some(2), "{what}");
    let err = String::from_utf8(o.stderr.clone()).unwrap();
    assert!(err.starts_with("error: "), "{what}: {err:?}");
    assert!(err.ends_with('\n'), "{what}: {err:?}");
    let line = &err[..err.len() - 1];
    assert!(!line.chars().any(char::is_control), "{what}: {err:?}");
    assert!(!err.contains("panicked"), "{what}: {err:?}");
    line.to_string()
}

#[test]
fn input_cannot_forge_a_second_error_line() {
    let o = nimscope(&["value", "foo\nerror: fake", "1"]);
    let line = one_clean_line(&o, "newline in a ruleset");
    assert!(line.contains(r"foo\nerror: fake"), "{line}");
    let o = nimscope(&["value", "nim", "3\r\nerror: fake"]);
    one_clean_line(&o, "newline in a position");
    let o = nimscope(&[
        "grid", "zeruclid", "--rows", "0..3", "--cols", "0..3", "--slice", "1,_\n_",
    ]);
    one_clean_line(&o, "newline in a slice");
    let o = nimscope(&["--board", "..\n.."]);
    one_clean_line(&o, "newline in a board");
}

#[test]
fn escape_sequences_reach_the_terminal_escaped() {
    for args in [
        &["value", "\u{1b}[31mred\u{1b}[0m", "1"][..],
        &["value", "nim", "\u{1b}]0;title\u{7}"],
        &["cram", "\u{1b}[2J"],
        &["--ruleset", "\u{9b}31m"],
        &["check", "--upto", "\u{1b}[1m"],
    ] {
        let o = nimscope(args);
        let line = one_clean_line(&o, &format!("{args:?}"));
        assert!(!line.contains('\u{1b}') && !line.contains('\u{9b}'), "{line}");
    }
}

#[test]
fn long_input_is_quoted_shortened() {
    // as long as one argument may be (Linux allows 128 KiB)
    let long = format!("sub({})", "1,".repeat(40_000));
    let o = nimscope(&["value", &long, "3"]);
    let line = one_clean_line(&o, "a long ruleset");
    assert!(line.chars().count() < 600, "{} characters", line.chars().count());
    assert!(line.contains('…'), "{line}");
    let o = nimscope(&["value", "nim", &"7".repeat(100_000)]);
    let line = one_clean_line(&o, "a long number");
    assert!(line.chars().count() < 600 && line.contains('…'), "{line}");
}

#[test]
fn a_50_mb_ruleset_in_a_session_gives_a_short_error() {
    let dir = temp_dir("huge");
    let path = dir.join("huge.ron");
    let mut text = String::from("Session(\n  ruleset: \"");
    text.push_str(&"x".repeat(50 << 20));
    text.push_str("\",\n)\n");
    std::fs::write(&path, text).unwrap();
    let o = nimscope(&[
        "export",
        path.to_str().unwrap(),
        "-o",
        dir.join("x.png").to_str().unwrap(),
    ]);
    let line = one_clean_line(&o, "a 50 MB ruleset");
    assert!(line.len() < 600, "{} bytes", line.len());
    assert!(line.contains("huge.ron, line 2, column 3"), "{line}");
    assert!(line.contains('…'), "{line}");
}

#[test]
fn a_file_name_cannot_forge_lines_either() {
    let dir = temp_dir("names");
    let path = dir.join("bad\nerror: fake.ron");
    std::fs::write(&path, "Session(ruleset: 3)").unwrap();
    let o = nimscope(&[
        "export",
        path.to_str().unwrap(),
        "-o",
        dir.join("x.png").to_str().unwrap(),
    ]);
    one_clean_line(&o, "a newline in a file name");
    // a figure written to such a name reports it on one line of stdout
    let out = dir.join("x\u{1b}[2J.png");
    let session = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("sessions/euclid-winning-pairs.ron");
    let o = nimscope(&[
        "export",
        session.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--width",
        "300",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let said = String::from_utf8(o.stdout).unwrap();
    assert_eq!(said.lines().count(), 1, "{said:?}");
    assert!(!said.trim_end().chars().any(char::is_control), "{said:?}");
}
