//! Every field of a session is checked before use: a bad value is refused with the file, the
//! line and column of the field and what is wrong, never a crash (here and in `nimscope
//! export`); the window's last state, damaged, is set aside under another name, never lost.

use std::path::Path;

use nimscope_core::session::{Session, SessionError, WindowState};

use crate::common::temp_dir;

/// A session file with `field` on its own line (line 3) after the ruleset.
fn with_field(ruleset: &str, field: &str) -> String {
    format!("Session(\n    ruleset: \"{ruleset}\",\n    {field},\n)\n")
}

/// Bad values, each with a word its refusal must contain.
const BAD: &[(&str, &str, &str)] = &[
    ("wythoff", "color: Modulo(4294967295)", "Modulo"),
    ("wythoff", "color: Modulo(0)", "Modulo"),
    ("wythoff", "color: Modulo(1)", "Modulo"),
    ("wythoff", "rows: (start: 5, end: 2)", "rows"),
    ("wythoff", "cols: (start: 7, end: 7)", "cols"),
    ("wythoff", "rows: (start: 0, end: 18446744073709551615)", "rows"),
    (
        "wythoff",
        "view: (center_a: 1e300, center_b: 0.0, cells_per_point: 0.1)",
        "view",
    ),
    (
        "wythoff",
        "view: (center_a: 1.0, center_b: 1.0, cells_per_point: 1e-300)",
        "view",
    ),
    ("tag(3)", "sequence_len: 0", "sequence_len"),
    ("tag(3)", "sequence_len: 18446744073709551615", "sequence_len"),
    ("wythoff", "figure: (width: 0)", "width"),
    ("wythoff", "figure: (width: 4294967295)", "width"),
    (
        "cram",
        "board: Some((board: \"..../....\", dominoes: [(row: 18446744073709551615, col: 0, orientation: Vertical)]))",
        "board",
    ),
    (
        "cram",
        "board: Some((board: \"..../....\", dominoes: [(row: 0, col: 0, orientation: Vertical), (row: 0, col: 0, orientation: Horizontal)]))",
        "overlap",
    ),
    (
        "cram",
        "board: Some((board: \"#.../....\", dominoes: [(row: 0, col: 0, orientation: Horizontal)]))",
        "blocked",
    ),
    (
        "cram",
        "board: Some((board: \"..../....\", dominoes: [(row: 1, col: 3, orientation: Horizontal)]))",
        "board",
    ),
    ("nim", "inspector: (shown: {\"3\": 18446744073709551615})", "shown"),
    (
        "nim",
        "inspector: (play: Some((positions: [Heaps([1000000000000000000]), Heaps([0])])))",
        "play",
    ),
];

#[test]
fn every_bad_field_is_refused_with_the_file_line_and_field() {
    for (ruleset, field, word) in BAD {
        let text = with_field(ruleset, field);
        match Session::from_ron(&text, "bad.ron") {
            Err(e @ SessionError::Invalid { .. }) => {
                let shown = e.to_string();
                assert!(shown.starts_with("bad.ron, line 3, column "), "{field}: {shown}");
                assert!(shown.contains(word), "{field}: {shown}");
            }
            other => panic!("{field} was not refused as invalid: {other:?}"),
        }
    }
}

#[test]
fn a_newer_file_names_the_line_and_column_of_its_version() {
    let text = "// from the future\nSession(\n  ruleset: \"nim\",\n  format_version: 7,\n)";
    let e = Session::from_ron(text, "new.ron").unwrap_err().to_string();
    assert!(
        e.starts_with("new.ron, line 4, column 3: written by a newer nimscope"),
        "{e}"
    );
}

#[test]
fn export_of_a_bad_session_is_one_line_not_a_crash() {
    let dir = temp_dir("export");
    for (ruleset, field, _) in BAD {
        let path = dir.join("s.ron");
        std::fs::write(&path, with_field(ruleset, field)).unwrap();
        let o = crate::common::nimscope(&[
            "export",
            path.to_str().unwrap(),
            "-o",
            dir.join("x.png").to_str().unwrap(),
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{field}: {err}");
        assert!(err.starts_with("error: ") && err.lines().count() == 1, "{field}: {err}");
        assert!(err.contains("s.ron, line 3"), "{field}: {err}");
        assert!(!dir.join("x.png").exists());
    }
}

/// The files of `dir` other than `window.ron`, with their contents.
fn set_aside(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().is_some_and(|n| n != "window.ron"))
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn a_damaged_last_state_is_set_aside_never_lost() {
    let dir = temp_dir("state");
    let unparsable = b"WindowState(last: Some(Session(ruleset: \"nim\"".to_vec();
    let invalid =
        b"WindowState(last: Some(Session(ruleset: \"wythoff\", color: Modulo(4294967295))), recent: [\"/a.ron\"])"
            .to_vec();
    let not_utf8 = b"WindowState(\xff\xfe)".to_vec();
    let mut kept = Vec::new();
    for bytes in [&unparsable, &invalid, &not_utf8] {
        std::fs::write(dir.join("window.ron"), bytes).unwrap();
        let state = WindowState::load(&dir);
        assert_eq!(state.last, None, "{}", String::from_utf8_lossy(bytes));
        assert!(
            !dir.join("window.ron").exists(),
            "the damaged file was left to be overwritten"
        );
        kept.push(bytes.clone());
        let aside: Vec<Vec<u8>> = set_aside(&dir).into_iter().map(|(_, b)| b).collect();
        let mut want = kept.clone();
        want.sort();
        let mut got = aside.clone();
        got.sort();
        assert_eq!(got, want, "every damaged state is kept, none overwritten");
    }
    // a good state loads as it was saved, and nothing is set aside
    let dir2 = temp_dir("good-state");
    let good = WindowState {
        last: Some(Session::default()),
        ..WindowState::default()
    };
    good.save(&dir2).unwrap();
    assert_eq!(WindowState::load(&dir2), good);
    assert!(set_aside(&dir2).is_empty());
}
