//! Sessions in the window: every example in `sessions/` opens and exports; saving and opening
//! through the path fields, the title and unsaved changes, one question before closing or
//! opening over them, an example kept as shipped, a bad file that names its line and changes
//! nothing, what the window writes it reads back, the last state restored on the next start
//! (and set aside when damaged), and the window and its figure choosing one picture.

use std::path::{Path, PathBuf};

use egui_kittest::kittest::Queryable;

use nimscope::ui::app::App;
use nimscope_core::figure::FigureStyle;
use nimscope_core::figure::png_out::read_text_chunks;
use nimscope_core::session::{CentralTab, Session};

use crate::common::{example, examples, harness, settle, step_until, temp_dir};

#[test]
fn every_example_loads_in_the_window_and_exports_from_it() {
    let dir = temp_dir("window-export");
    for path in examples() {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let mut h = harness();
        h.step();
        h.state_mut().open_session(&path).unwrap();
        h.step();
        let s = Session::load(&path).unwrap();
        assert_eq!(*h.state().ruleset(), s.ruleset, "{name}");
        assert_eq!(h.state().central_tab(), s.tab, "{name}");
        assert_eq!(h.state().ruleset_panel().slice(), s.layout.slice_text(), "{name}");
        assert_eq!(h.state().map().sequence().length(), s.sequence_len, "{name}");
        assert!(!h.state().has_unsaved_changes(), "{name}: nothing changed yet");
        assert!(
            h.state().window_title().starts_with(&name),
            "{}",
            h.state().window_title()
        );
        let out = dir.join(format!("{name}.png"));
        h.state_mut().export_figure(&out).unwrap();
        step_until(&mut h, "the export", |app| {
            app.notice()
                .map(|n| n.text.as_str())
                .is_some_and(|s| s.starts_with("exported") || s.starts_with("export failed"))
        });
        assert!(
            h.state().notice().unwrap().text.starts_with("exported"),
            "{name}: {:?}",
            h.state().notice()
        );
        let bytes = std::fs::read(&out).unwrap();
        let text = read_text_chunks(&bytes).unwrap();
        let ruleset = h.state().ruleset().to_string();
        assert!(
            text.iter().any(|(k, v)| k == "nimscope.ruleset" && *v == ruleset),
            "{name}: {text:?}"
        );
    }
}

/// A window set up to show a session.
type SetUp = Box<dyn Fn(&mut App)>;

/// What the window writes it reads back: each example, and a session changed in the window
/// (colours, comparison, selection, board, notes), saved by the window, loads as the session
/// the window shows, and a second window opening it shows the same with nothing to save.
#[test]
fn the_window_accepts_what_the_window_writes() {
    let dir = temp_dir("writes");
    let mut sessions: Vec<(String, SetUp)> = examples()
        .into_iter()
        .map(|p| {
            let name = p.display().to_string();
            let open: SetUp = Box::new(move |app: &mut App| app.open_session(&p).unwrap());
            (name, open)
        })
        .collect();
    sessions.push((
        "changed in the window".into(),
        Box::new(|app: &mut App| {
            app.open_session(&example("zeruclid-figure2.ron")).unwrap();
            app.map_state_mut().color = nimscope_core::raster::ColorMode::Difference;
            app.ruleset_panel_mut().set_expression("zeruclid");
            let ruleset = app.ruleset().clone();
            app.inspector_mut().select_text(&ruleset, "1,3,5").unwrap();
            app.cram_editor_mut().paste("..#./..../....");
            app.files_mut().notes_mut().push_str("seen: (1, 3, 5)");
        }),
    ));
    for (i, (name, set_up)) in sessions.iter().enumerate() {
        let mut h = harness();
        h.step();
        set_up(h.state_mut());
        h.step();
        let out = dir.join(format!("{i}.ron"));
        h.state_mut().save_session(&out).unwrap();
        let written = Session::load(&out).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(written, h.state().session(), "{name}");
        let mut again = harness();
        again.step();
        again.state_mut().open_session(&out).unwrap();
        again.step();
        assert!(!again.state().has_unsaved_changes(), "{name}");
        assert_eq!(again.state().session(), written, "{name}");
    }
}

#[test]
fn the_push_cram_example_opens_the_board_editor_on_3x7() {
    let mut h = harness();
    h.step();
    h.state_mut().open_session(&example("push-cram-3x7.ron")).unwrap();
    h.step();
    assert_eq!(h.state().central_tab(), CentralTab::CramBoard);
    let doc = h.state().cram_editor().document();
    assert_eq!(doc.board, "......./......./.......");
}

#[test]
fn saving_and_reopening_keeps_everything_and_the_title_tracks_changes() {
    let dir = temp_dir("save");
    let mut h = harness();
    h.step();
    h.state_mut()
        .open_session(&example("euclid-winning-pairs.ron"))
        .unwrap();
    h.step();
    h.state_mut().files_mut().notes_mut().push_str("\nmy own remark");
    h.step();
    assert!(h.state().has_unsaved_changes());
    assert!(h.state().window_title().contains('*'), "{}", h.state().window_title());
    let path = dir.join("mine.ron");
    h.state_mut().save_session(&path).unwrap();
    h.step();
    assert!(!h.state().has_unsaved_changes());
    assert_eq!(h.state().window_title(), "mine - nimscope");
    let saved = Session::load(&path).unwrap();
    assert!(saved.notes.ends_with("my own remark"));
    assert_eq!(saved.inspector.selected.as_deref(), Some("11,27"));
    // a second window opening the file shows the same session
    let mut h2 = harness();
    h2.step();
    h2.state_mut().open_session(&path).unwrap();
    h2.step();
    let mut a = h.state().session();
    let mut b = h2.state().session();
    (a.rows, a.cols, b.rows, b.cols) = (0..0, 0..0, 0..0, 0..0);
    assert_eq!(a, b);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn opening_over_unsaved_changes_asks_first() {
    let euclid = example("euclid-winning-pairs.ron");
    let zeruclid = example("zeruclid-figure2.ron");
    let mut h = harness();
    h.step();
    h.state_mut().open_session(&euclid).unwrap();
    h.step();
    // nothing changed: Open Recent opens at once
    h.state_mut().request_open(Some(zeruclid.clone()));
    h.step();
    assert_eq!(h.state().session().ruleset.to_string(), "zeruclid");
    assert!(h.state().files().confirm().is_none());
    h.state_mut().open_session(&euclid).unwrap();
    h.state_mut().files_mut().notes_mut().push_str("\nnot saved yet");
    // no job left running: the status bar's Cancel would be a second "Cancel" beside the question's
    h.step();
    crate::common::step_until(&mut h, "the jobs to finish", |app| {
        app.worker().is_some_and(|w| w.running().next().is_none())
    });
    let before = h.state().session();
    // Cancel keeps everything
    h.state_mut().request_open(Some(zeruclid.clone()));
    for _ in 0..3 {
        h.step();
    }
    // a job started meanwhile (on a loaded machine the map may still be filling) would put the
    // status bar's Cancel beside the question's
    crate::common::step_until(&mut h, "the jobs to finish", |app| {
        app.worker().is_some_and(|w| w.running().next().is_none())
    });
    assert!(h.query_by_label("Unsaved changes").is_some(), "the question shows");
    h.get_by_label("Cancel").click();
    h.step();
    h.step();
    assert!(h.state().files().confirm().is_none());
    assert!(h.query_by_label("Unsaved changes").is_none());
    assert_eq!(h.state().session(), before);
    // Escape is Cancel too
    h.state_mut().request_open(Some(zeruclid.clone()));
    h.step();
    h.step();
    h.key_press(egui::Key::Escape);
    h.step();
    h.step();
    assert!(h.state().files().confirm().is_none());
    assert_eq!(h.state().session(), before);
    // "Open without saving" opens the other session
    h.state_mut().request_open(Some(zeruclid.clone()));
    h.step();
    h.step();
    h.get_by_label("Open without saving").click();
    h.step();
    h.step();
    assert!(h.state().files().confirm().is_none());
    assert_eq!(h.state().session().ruleset.to_string(), "zeruclid");
    assert!(!h.state().has_unsaved_changes());
}

#[test]
fn a_malformed_or_newer_file_names_the_file_and_line_and_changes_nothing() {
    let dir = temp_dir("bad");
    let bad = dir.join("bad.ron");
    std::fs::write(&bad, "Session(\n    ruleset: \"nim\",\n    color: Purple,\n)\n").unwrap();
    let newer = dir.join("newer.ron");
    std::fs::write(&newer, "Session(format_version: 7, ruleset: \"nim\")").unwrap();
    let mut h = harness();
    h.step();
    h.state_mut()
        .open_session(&example("table1-wythoff-vs-nim-push-euclid.ron"))
        .unwrap();
    h.step();
    let before = h.state().session();
    let e = h.state_mut().open_session(&bad).unwrap_err();
    assert!(e.contains("bad.ron, line 3"), "{e}");
    let e = h.state_mut().open_session(&newer).unwrap_err();
    assert!(e.contains("newer.ron") && e.contains("newer nimscope"), "{e}");
    h.step();
    assert_eq!(h.state().session(), before);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_file_menu_opens_the_export_and_notes_windows() {
    let mut h = harness();
    h.step();
    h.get_by_label("File").click();
    h.step();
    h.step();
    h.get_by_label("Export figure (PNG or SVG)…  (Ctrl+E)").click();
    h.step();
    assert!(h.state().export_window().is_open());
    for _ in 0..3 {
        h.step(); // a new window sizes itself before it shows
    }
    assert!(h.query_by_label("Browse…").is_some() && h.query_by_label("Export").is_some());
    let mut h = harness();
    h.step();
    h.get_by_label("File").click();
    h.step();
    h.step();
    h.get_by_label("Session notes…").click();
    h.step();
    h.step();
    assert!(h.state().files().notes_shown());
}

#[test]
fn the_last_state_comes_back_on_the_next_start() {
    let dir = temp_dir("state");
    let mut h = harness();
    h.step();
    h.state_mut().keep_state_in(dir.to_path_buf());
    h.state_mut().open_session(&example("zeruclid-figure2.ron")).unwrap();
    *h.state_mut().files_mut().notes_mut() = "unsaved thoughts".into();
    h.step();
    h.state_mut().write_window_state(); // what closing the window does
    let before = h.state().session();
    let mut h2 = harness();
    h2.state_mut().use_state_dir(dir.to_path_buf());
    h2.step();
    let after = h2.state().session();
    assert_eq!(after.ruleset.to_string(), "zeruclid");
    assert_eq!(after.layout.slice_text(), "1,_,_");
    assert_eq!(after.notes, "unsaved thoughts");
    assert_eq!(
        (after.view, after.color, after.overlays),
        (before.view, before.color, before.overlays)
    );
    assert!(
        h2.state().has_unsaved_changes(),
        "the notes differ from the file on disk"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_hand_written_ruleset_spelling_keeps_the_selection_and_is_not_a_change() {
    let dir = temp_dir("spelling");
    let path = dir.join("spaced.ron");
    std::fs::write(
        &path,
        "Session(ruleset: \"push(nim, euclid0)\", inspector: (selected: Some(\"2,4\"), expanded: [\"2,4\"]))",
    )
    .unwrap();
    let mut h = harness();
    h.step();
    h.state_mut().open_session(&path).unwrap();
    for _ in 0..3 {
        h.step();
    }
    let p = h.state().ruleset().parse_position("2,4").unwrap();
    assert_eq!(h.state().inspector().root(), Some(&p));
    assert!(h.state().inspector().doc.expanded.contains("2,4"));
    assert!(!h.state().has_unsaved_changes(), "{}", h.state().window_title());
    assert_eq!(h.state().window_title(), "spaced - nimscope");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The window and the figure of its session show the same thing (map, sequence, board, or
/// nothing), for a ruleset of every family of the catalog, plain and sliced: both ask
/// `Presentation`, and this checks they keep doing so.
#[test]
fn the_window_and_its_figure_choose_the_same_picture_for_every_ruleset() {
    use nimscope::ui::app::{App, CentralView};
    use nimscope_core::figure::Subject;
    use nimscope_core::game::families::FAMILIES;
    let cases: &[(&str, &str)] = &[
        ("nim", ""),
        ("nim", "2,_,_"),
        ("wythoff", ""),
        ("wythoff", "1,_,_"),
        ("euclid", ""),
        ("grossman", ""),
        ("euclid0", ""),
        ("m-euclid", ""),
        ("zeruclid", ""),
        ("zeruclid", "1,_,_"),
        ("euclid3", ""),
        ("euclid3", "_,4,_"),
        ("cdn", ""),
        ("sub(1,3,4)", ""),
        ("tag(3)", ""),
        ("divisor", ""),
        ("fibonacci-nim", ""),
        ("octal(0.07)", ""),
        ("push(nim,euclid0)", ""),
        ("sum(nim,sub(1,2))", ""),
        ("sum(wythoff,nim)", ""),
        ("misere(nim)", ""),
        ("misere(octal(0.77))", ""),
        ("cram", ""),
        ("cram-v", ""),
        ("cram-h", ""),
        ("push-cram", ""),
        ("rule(n -> [k, n - k] for k in 1..n if 2*k < n)", ""),
        (
            "rule((a, b) -> (a - k, b) for k in 1..=a; (a - k, b - k) for k in 1..=min(a, b))",
            "",
        ),
    ];
    // every family of the catalog is among the cases
    for row in FAMILIES {
        let family_of = |r: &str| r.parse::<nimscope_core::game::Ruleset>().unwrap().family();
        assert!(
            cases.iter().any(|(r, _)| family_of(r) == row.family),
            "no case for {}",
            row.name
        );
    }
    for &(rules, slice) in cases {
        for tab in [CentralTab::ValueMap, CentralTab::CramBoard] {
            let mut app = App::new(1 << 30);
            let s = Session {
                ruleset: rules.parse().unwrap(),
                layout: nimscope_core::game::Layout::from_slice_text(slice).unwrap(),
                tab,
                ..Session::default()
            };
            app.apply_session(s).unwrap();
            let window = app.central_view();
            // the figure of the session as the window writes it and `nimscope export` reads it
            let saved = Session::from_ron(&app.session().to_ron(), "s.ron").unwrap();
            let figure = saved.figure_spec(FigureStyle::default(), None);
            let same = match (&window, &figure) {
                (CentralView::Board, Ok(spec)) => matches!(spec.subject, Subject::Board(_)),
                (CentralView::Sequence, Ok(spec)) => matches!(spec.subject, Subject::Sequence { .. }),
                (CentralView::Map(l), Ok(spec)) => matches!(&spec.subject, Subject::Map { layout, .. } if layout == l),
                (CentralView::Message(_), Err(_)) => true,
                _ => false,
            };
            assert!(
                same,
                "{rules} [{slice}] {tab:?}: the window shows {window:?}, the figure {figure:?}"
            );
        }
    }
}

#[test]
fn a_fresh_window_has_nothing_to_save() {
    let mut h = harness();
    for _ in 0..5 {
        h.step();
    }
    assert!(
        !h.state().has_unsaved_changes(),
        "a window nobody touched has no unsaved changes"
    );
    assert!(!h.state().window_title().contains('*'), "{}", h.state().window_title());
}

#[test]
fn save_as_and_open_through_the_path_field() {
    let dir = temp_dir("save-open");
    let path = dir.join("mine.ron");
    let mut h = harness();
    h.step();
    h.get_by_label("File").click();
    h.step();
    h.step();
    h.get_by_label("Save session as…  (Ctrl+Shift+S)").click();
    settle(&mut h);
    // the prompt is prefilled with a path; replace it by ours
    h.state_mut()
        .files_mut()
        .pending_mut()
        .expect("the Save as prompt")
        .prompt
        .path = path.display().to_string();
    h.step();
    h.get_by_label("Save").click();
    settle(&mut h);
    assert!(path.exists(), "saved through the field");
    assert!(h.state().files().pending().is_none());
    assert_eq!(Session::load(&path).unwrap().ruleset.to_string(), "wythoff");
    // Open: the field, then the button
    h.get_by_label("File").click();
    h.step();
    h.step();
    h.get_by_label("Open session…  (Ctrl+O)").click();
    settle(&mut h);
    let missing = dir.join("missing.ron");
    h.state_mut()
        .files_mut()
        .pending_mut()
        .expect("the Open prompt")
        .prompt
        .path = missing.display().to_string();
    h.step();
    h.get_by_label("Open").click();
    settle(&mut h);
    // a bad path says why (in the status bar), and nothing else changes
    assert!(
        h.state()
            .notice()
            .as_ref()
            .is_some_and(|n| n.error && n.text.contains("missing.ron"))
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_quit_question_can_save_through_the_path_field() {
    let dir = temp_dir("quit");
    let path = dir.join("before-closing.ron");
    let mut h = harness();
    h.step();
    *h.state_mut().files_mut().notes_mut() = "a change".into();
    h.step();
    assert!(h.state().has_unsaved_changes());
    h.state_mut()
        .files_mut()
        .ask_before(nimscope::ui::app::AfterSaving::Close);
    settle(&mut h);
    h.get_by_label("Save").click();
    settle(&mut h);
    // no file yet: the Save as prompt takes over from the question
    let pending = h.state_mut().files_mut().pending_mut().expect("the Save as prompt");
    pending.prompt.path = path.display().to_string();
    h.step();
    h.get_by_label("Save").click();
    settle(&mut h);
    assert!(path.exists());
    assert!(!h.state().has_unsaved_changes());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Open over unsaved changes asked "Unsaved changes" twice: before the Open prompt and again
/// once the path was chosen.
#[test]
fn opening_through_the_prompt_asks_once() {
    let mut h = harness();
    h.step();
    h.state_mut()
        .open_session(&example("euclid-winning-pairs.ron"))
        .unwrap();
    h.state_mut().files_mut().notes_mut().push_str("\nnot saved yet");
    h.step();
    step_until(&mut h, "the jobs to finish", |app| {
        app.worker().is_some_and(|w| w.running().next().is_none())
    });
    h.state_mut().request_open(None);
    h.step();
    h.step();
    assert!(h.query_by_label("Unsaved changes").is_some());
    h.get_by_label("Open without saving").click();
    h.step();
    h.step();
    // the prompt, with the example's path typed
    let path = example("zeruclid-figure2.ron");
    h.state_mut()
        .files_mut()
        .pending_mut()
        .expect("the Open prompt")
        .prompt
        .path = path.display().to_string();
    h.step();
    h.get_by_label("Open").click();
    h.step();
    h.step();
    assert!(h.state().files().confirm().is_none(), "no second question");
    assert!(h.query_by_label("Unsaved changes").is_none());
    assert_eq!(h.state().session().ruleset.to_string(), "zeruclid");
}

/// After opening an example, Save and Export defaulted to paths inside the repository's
/// `sessions/`: an example is opened as shipped, and Save asks where to keep a copy.
#[test]
fn an_example_stays_as_shipped() {
    let mut h = harness();
    h.step();
    let path = example("zeruclid-figure2.ron");
    let before = std::fs::read(&path).unwrap();
    h.state_mut().open_session(&path).unwrap();
    h.step();
    assert_eq!(h.state().files().path(), None, "Save goes to Save as");
    assert!(h.state().window_title().starts_with("zeruclid-figure2"));
    let examples = std::fs::canonicalize(example("")).unwrap();
    for ext in ["ron", "png", "csv"] {
        let p = h.state().default_path(ext);
        let dir = std::fs::canonicalize(p.parent().unwrap()).unwrap();
        assert_ne!(dir, examples, "{ext}: {p:?}");
        assert!(p.ends_with(format!("zeruclid-figure2.{ext}")), "{p:?}");
    }
    // Save (Ctrl+S) opens the Save as prompt; saving onto the example is refused
    h.state_mut().files_mut().notes_mut().push_str("\nmine");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    h.step();
    h.step();
    assert!(h.state().files().pending().is_some(), "Save as asks where");
    assert!(h.state_mut().save_session(&path).is_err());
    assert_eq!(std::fs::read(&path).unwrap(), before, "the example is untouched");
}

/// The files of `dir` but `window.ron`.
fn others(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().is_some_and(|n| n != "window.ron"))
        .collect();
    v.sort();
    v
}

#[test]
fn a_damaged_last_state_is_set_aside_and_the_window_starts_fresh() {
    for (name, bytes) in [
        ("unparsable", &b"WindowState(last: Some(Session(ruleset: \"nim\""[..]),
        (
            "invalid",
            b"WindowState(last: Some(Session(ruleset: \"wythoff\", color: Modulo(4294967295))))",
        ),
    ] {
        let dir = temp_dir(name);
        std::fs::write(dir.join("window.ron"), bytes).unwrap();
        let mut h = harness();
        h.state_mut().use_state_dir(dir.to_path_buf());
        for _ in 0..3 {
            h.step();
        }
        let kept = others(&dir);
        assert_eq!(kept.len(), 1, "{name}: {kept:?}");
        assert_eq!(std::fs::read(&kept[0]).unwrap(), bytes, "{name}");
        let notice = h
            .state()
            .notice()
            .unwrap_or_else(|| panic!("{name}: no word to the user"));
        assert!(notice.error, "{name}: {}", notice.text);
        let kept_name = kept[0].file_name().unwrap().to_string_lossy().into_owned();
        assert!(notice.text.contains(&kept_name), "{name}: {}", notice.text);
        // fresh: the default ruleset
        assert_eq!(h.state().session().ruleset, Session::default().ruleset, "{name}");
        // the next autosave writes a good state beside the kept one
        h.state_mut().write_window_state();
        assert_eq!(others(&dir), kept, "{name}");
        assert!(dir.join("window.ron").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
