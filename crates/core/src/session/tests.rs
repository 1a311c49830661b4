//! Tests of `session`.

use std::path::{Path, PathBuf};

use super::{Comparison, FORMAT_VERSION, Session, SessionError, WindowState, locate};
use crate::figure::FigureStyle;
use crate::game::Ruleset;
use crate::game::cram_setup::CramDocument;
use crate::game::parse_count::rulesets_parsed;
use crate::raster::ColorMode;

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("nimscope-session-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn round_trip_through_a_file() {
    let dir = temp_dir("rt");
    let mut s = Session {
        ruleset: "push(nim,euclid0)".parse().unwrap(),
        notes: "Table 1 of seed 003\nsecond line".into(),
        compare: Comparison {
            ruleset: Some(Ruleset::Wythoff),
            theorem: None,
        },
        color: ColorMode::Difference,
        ..Session::default()
    };
    s.inspector.selected = Some("2,4".into());
    s.inspector.expanded.insert("2,4".into());
    s.board = Some(CramDocument::default());
    let path = dir.join("a.ron");
    s.save(&path).unwrap();
    assert_eq!(Session::load(&path).unwrap(), s);
    // the same session gives the same bytes
    assert_eq!(std::fs::read_to_string(&path).unwrap(), s.to_ron());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn errors_name_the_file_and_line() {
    let text = "Session(\n    ruleset: \"nim\",\n    notes: 5,\n)";
    match Session::from_ron(text, "x.ron") {
        Err(SessionError::Syntax { path, line, .. }) => assert_eq!((path.as_str(), line), ("x.ron", 3)),
        other => panic!("{other:?}"),
    }
    let newer = "Session(format_version: 99, ruleset: \"nim\", some_future_field: 3)";
    assert_eq!(
        Session::from_ron(newer, "n.ron"),
        Err(SessionError::Newer {
            path: "n.ron".into(),
            at: Some((1, 9)),
            found: 99
        })
    );
    let bad = "Session(ruleset: \"push(nim\")";
    assert!(matches!(
        Session::from_ron(bad, "b.ron"),
        Err(SessionError::Invalid { .. })
    ));
    let bad_pos = "Session(ruleset: \"wythoff\", inspector: (selected: Some(\"1,2,3\")))";
    let e = Session::from_ron(bad_pos, "p.ron").unwrap_err().to_string();
    assert!(
        e.starts_with("p.ron, line 1, column 41: selected position '1,2,3'"),
        "{e}"
    );
    let missing = Session::load(Path::new("/nonexistent/s.ron")).unwrap_err().to_string();
    assert!(missing.starts_with("/nonexistent/s.ron: "), "{missing}");
}

#[test]
fn fields_are_located_by_their_path_of_keys() {
    let text = r##"// ruleset: "in a comment"
Session(
    notes: "ruleset: not a key, \" nor this: ",
    inspector: (selected: Some("3,5"), shown: {"3": 4}),
    view: MapView(center_a: 1e3, center_b: 2.0, cells_per_point: 0.1),
    board: Some((board: "../..", dominoes: [(row: 0, col: 0, orientation: Vertical)])),
    figure: /* width: */ (title: r#"width: "#, width: 300),
    ruleset: "nim",
)"##;
    assert_eq!(locate(text, &["ruleset"]), Some((8, 5)));
    assert_eq!(locate(text, &["notes"]), Some((3, 5)));
    assert_eq!(locate(text, &["inspector", "shown"]), Some((4, 40)));
    assert_eq!(locate(text, &["view"]), Some((5, 5)));
    assert_eq!(locate(text, &["board", "dominoes"]), Some((6, 34)));
    assert_eq!(locate(text, &["figure", "width"]), Some((7, 48)));
    assert_eq!(locate(text, &["shown"]), None, "only at its own depth");
    assert_eq!(locate(text, &["slice"]), None);
}

#[test]
fn the_window_state_keeps_the_recent_files_of_a_bad_last_session() {
    let dir = temp_dir("bad-last");
    std::fs::write(
        dir.join("window.ron"),
        "WindowState(\n  last: Some(Session(color: Modulo(0))),\n  recent: [\"a.ron\"],\n)",
    )
    .unwrap();
    let (state, message) = WindowState::restore(&dir);
    assert_eq!(state.recent, [Path::new("a.ron")]);
    assert_eq!(state.last, None);
    let message = message.unwrap();
    assert!(message.contains("line 2, column 22: color Modulo(0)"), "{message}");
    assert!(message.contains("window.ron.damaged-1"), "{message}");
    assert!(dir.join("window.ron.damaged-1").exists());
    // a missing file is a first start, not damage
    assert_eq!(WindowState::restore(&dir), (WindowState::default(), None));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn fields_left_out_take_their_defaults() {
    let s = Session::from_ron("(ruleset: \"euclid\")", "x").unwrap();
    assert_eq!(s.ruleset, "euclid".parse().unwrap());
    assert_eq!(s.figure, FigureStyle::default());
    assert_eq!(s.format_version, FORMAT_VERSION);
}

#[test]
fn recent_files_are_most_recent_first_without_repeats() {
    let dir = temp_dir("recent");
    let mut w = WindowState::default();
    for name in ["a", "b", "a", "c"] {
        w.remember(Path::new(name));
    }
    assert_eq!(w.recent, [Path::new("c"), Path::new("a"), Path::new("b")]);
    w.save(&dir).unwrap();
    assert_eq!(WindowState::load(&dir), w);
    std::fs::write(dir.join("window.ron"), "garbage(").unwrap();
    assert_eq!(WindowState::load(&dir), WindowState::default());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_saved_game_passes_validation_exactly_when_the_inspector_keeps_it() {
    use crate::game::Position;
    use crate::solver::play::{GameRecord, Opponent};
    let mut s = Session::default();
    let ruleset = s.ruleset.clone();
    let game = |steps: &[&[u64]]| GameRecord {
        positions: steps.iter().map(|h| Position::heaps(h)).collect(),
        opponent: Opponent::ByHand,
    };
    for (g, legal) in [
        (game(&[&[3, 5], &[1, 3]]), true),
        (game(&[&[3, 5], &[2, 2]]), false),
        (game(&[&[3, 5]]), true),
    ] {
        assert_eq!(g.check(&ruleset).is_ok(), legal, "{g:?}");
        s.inspector.play = Some(g);
        let v = s.validate();
        assert_eq!(v.is_ok(), legal, "{v:?}");
        if let Err(e) = v {
            assert_eq!(e.field, vec!["inspector", "play"]);
            assert!(e.message.contains("is not a move from '3,5'"), "{}", e.message);
        }
    }
}

#[test]
fn a_session_parses_its_texts_once_and_writes_them_back_as_read() {
    let text = "Session(\n    ruleset: \"zeruclid\",\n    slice: \"1,_,_\",\n    compare: \"push(nim,euclid0)\",\n)";
    let before = rulesets_parsed();
    let s = Session::from_ron(text, "z.ron").unwrap();
    assert_eq!(
        rulesets_parsed() - before,
        2,
        "the ruleset and the compared one, once each"
    );
    let again = s.to_ron();
    let figure = s.figure_spec(FigureStyle::default(), None).unwrap();
    assert_eq!(rulesets_parsed() - before, 2, "writing and the figure parse nothing");
    assert!(again.contains("ruleset: \"zeruclid\""), "{again}");
    assert!(again.contains("slice: \"1,_,_\""), "{again}");
    assert!(again.contains("compare: \"push(nim,euclid0)\""), "{again}");
    assert_eq!(Session::from_ron(&again, "z.ron").unwrap(), s);
    assert_eq!(figure.ruleset, Ruleset::Zeruclid);
}

#[test]
fn a_bad_text_is_refused_at_its_field() {
    for (field, text, word) in [
        ("ruleset", "Session(\n  ruleset: \"push(nim\",\n)", "ruleset 'push(nim'"),
        ("slice", "Session(\n  slice: \"1,_\",\n)", "slice '1,_'"),
        ("compare", "Session(\n  compare: \"wyth\",\n)", "compare 'wyth'"),
    ] {
        let e = Session::from_ron(text, "b.ron").unwrap_err().to_string();
        assert!(e.starts_with("b.ron, line 2, column 3: "), "{field}: {e}");
        assert!(e.contains(word), "{field}: {e}");
    }
}
