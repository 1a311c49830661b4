//! Sessions and figures: the example sessions load in the window and export, their pictures
//! agree with the papers' statements (closed forms written independently of the solver), the
//! command line's export is byte-identical run to run, and bad files or paths change nothing.

use std::path::{Path, PathBuf};

use egui_kittest::kittest::Queryable;
use nimscope_core::figure::png_out::read_text_chunks;
use nimscope_core::figure::{Figure, FigureStyle, make_figure};
use nimscope_core::game::theory;
use nimscope_core::raster::{Overlays, colors};
use nimscope_core::session::CentralTab;
use nimscope_core::session::Session;
use nimscope_core::solver::Control;

use crate::common::{harness, step_until};

const EXAMPLES: [&str; 4] = [
    "euclid-winning-pairs.ron",
    "zeruclid-figure2.ron",
    "table1-wythoff-vs-nim-push-euclid.ron",
    "push-cram-3x7.ron",
];

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("sessions").join(name)
}

use crate::common::temp_dir;

/// A figure and its pixels.
struct Bare {
    fig: Figure,
    image: image::RgbaImage,
}

impl std::ops::Deref for Bare {
    type Target = Figure;
    fn deref(&self) -> &Figure {
        &self.fig
    }
}

/// A figure of the session without axes, legend, title or overlays, so cells are easy to find.
fn bare_figure(s: &Session) -> Bare {
    let s = Session {
        overlays: Overlays::NONE,
        ..s.clone()
    };
    let style = FigureStyle {
        width: 600,
        axes: false,
        legend: false,
        title: "-".into(),
        ..FigureStyle::default()
    };
    let fig = make_figure(&s.figure_spec(style, None).unwrap(), &Control::new()).unwrap();
    let image = fig.image();
    Bare { fig, image }
}

/// The colour at the centre of cell (a, b) of a map figure of `s`.
fn cell_color(fig: &Bare, s: &Session, a: u64, b: u64) -> [u8; 4] {
    let [left, top, w, h] = fig.content;
    let (nr, nc) = ((s.rows.end - s.rows.start) as f64, (s.cols.end - s.cols.start) as f64);
    let x = left as f64 + ((b - s.cols.start) as f64 + 0.5) * w as f64 / nc;
    let y = top as f64 + h as f64 - ((a - s.rows.start) as f64 + 0.5) * h as f64 / nr;
    fig.image.get_pixel(x as u32, y as u32).0
}

#[test]
fn seed_002_diagram_shows_euclids_winning_pairs() {
    let s = Session::load(&example("euclid-winning-pairs.ron")).unwrap();
    let fig = bare_figure(&s);
    for a in s.rows.clone() {
        for b in s.cols.clone() {
            let want = if theory::euclid_first_player_wins(a, b) {
                colors::N_POSITION
            } else {
                colors::P_POSITION
            };
            assert_eq!(cell_color(&fig, &s, a, b), want, "({a}, {b})");
        }
    }
}

#[test]
fn table_1_difference_map_matches_the_two_closed_forms() {
    let s = Session::load(&example("table1-wythoff-vs-nim-push-euclid.ron")).unwrap();
    let fig = bare_figure(&s);
    for a in s.rows.clone() {
        for b in s.cols.clone() {
            let (w, e) = (theory::is_wythoff_p(a, b), theory::nim_push_euclid_p_thm316(a, b));
            let want = match (w, e) {
                (true, true) => colors::BOTH_P,
                (false, false) => colors::N_POSITION,
                _ => colors::DIFFER,
            };
            assert_eq!(cell_color(&fig, &s, a, b), want, "({a}, {b})");
        }
    }
    // the pairs Table 1 prints in both rows are the dark cells
    for (a, b) in theory::TABLE_1_NIM_PUSH_EUCLID {
        if theory::TABLE_1_WYTHOFF.contains(&(a, b)) {
            assert_eq!(cell_color(&fig, &s, a, b), colors::BOTH_P);
            assert_eq!(cell_color(&fig, &s, b, a), colors::BOTH_P);
        }
    }
}

#[test]
fn every_example_loads_in_the_window_and_exports_from_it() {
    let dir = temp_dir("window-export");
    for name in EXAMPLES {
        let mut h = harness();
        h.step();
        h.state_mut().open_session(&example(name)).unwrap();
        h.step();
        let s = Session::load(&example(name)).unwrap();
        assert_eq!(h.state().ruleset, s.ruleset.parse().unwrap(), "{name}");
        assert_eq!(h.state().central_tab, s.tab, "{name}");
        assert_eq!(h.state().panel.slice, s.slice, "{name}");
        assert!(!h.state().has_unsaved_changes(), "{name}: nothing changed yet");
        assert!(
            h.state().window_title().starts_with(&name.replace(".ron", "")),
            "{}",
            h.state().window_title()
        );
        let out = dir.join(name.replace(".ron", ".png"));
        h.state_mut().export_figure(&out).unwrap();
        step_until(&mut h, "the export", |app| {
            app.notice
                .as_ref()
                .map(|n| n.text.as_str())
                .is_some_and(|s| s.starts_with("exported") || s.starts_with("export failed"))
        });
        assert!(
            h.state().notice.as_ref().unwrap().text.starts_with("exported"),
            "{:?}",
            h.state().notice
        );
        let bytes = std::fs::read(&out).unwrap();
        let text = read_text_chunks(&bytes).unwrap();
        let ruleset = h.state().ruleset.to_string();
        assert!(
            text.iter().any(|(k, v)| k == "nimscope.ruleset" && *v == ruleset),
            "{name}: {text:?}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_push_cram_example_opens_the_board_editor_on_3x7() {
    let mut h = harness();
    h.step();
    h.state_mut().open_session(&example("push-cram-3x7.ron")).unwrap();
    h.step();
    assert_eq!(h.state().central_tab, CentralTab::CramBoard);
    let doc = h.state().cram_editor.document();
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
    h.state_mut().sessions.notes.push_str("\nmy own remark");
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
    assert_eq!(h.state().session().ruleset, "zeruclid");
    assert!(h.state().sessions.confirm.is_none());
    h.state_mut().open_session(&euclid).unwrap();
    h.state_mut().sessions.notes.push_str("\nnot saved yet");
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
    assert!(h.state().sessions.confirm.is_none());
    assert!(h.query_by_label("Unsaved changes").is_none());
    assert_eq!(h.state().session(), before);
    // Escape is Cancel too
    h.state_mut().request_open(Some(zeruclid.clone()));
    h.step();
    h.step();
    h.key_press(egui::Key::Escape);
    h.step();
    h.step();
    assert!(h.state().sessions.confirm.is_none());
    assert_eq!(h.state().session(), before);
    // "Open without saving" opens the other session
    h.state_mut().request_open(Some(zeruclid.clone()));
    h.step();
    h.step();
    h.get_by_label("Open without saving").click();
    h.step();
    h.step();
    assert!(h.state().sessions.confirm.is_none());
    assert_eq!(h.state().session().ruleset, "zeruclid");
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

use crate::common::nimscope;

#[test]
fn command_line_export_is_deterministic_and_carries_provenance() {
    let dir = temp_dir("cli-export");
    let session = example("zeruclid-figure2.ron");
    let (a, b) = (dir.join("a.png"), dir.join("b.png"));
    for out in [&a, &b] {
        let o = nimscope(&[
            "export",
            session.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--width",
            "900",
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let bytes = std::fs::read(&a).unwrap();
    assert_eq!(bytes, std::fs::read(&b).unwrap(), "two runs, the same bytes");
    let text = read_text_chunks(&bytes).unwrap();
    let get = |k: &str| text.iter().find(|(key, _)| key == k).map(|(_, v)| v.as_str());
    assert_eq!(get("nimscope.ruleset"), Some("zeruclid"));
    assert_eq!(get("nimscope.layout"), Some("1,_,_"));
    assert_eq!(
        get("nimscope.region"),
        Some("rows a in [0, 200), columns b in [0, 200)")
    );
    assert!(get("Software").unwrap().contains(nimscope_core::GIT_COMMIT));
    let img = image::load_from_memory(&bytes).unwrap();
    assert_eq!(img.width(), 900);
    // a transparent figure at a scale of 2 pixels per cell
    let o = nimscope(&[
        "export",
        example("table1-wythoff-vs-nim-push-euclid.ron").to_str().unwrap(),
        "-o",
        a.to_str().unwrap(),
        "--scale",
        "2",
        "--transparent",
        "--no-legend",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let img = image::open(&a).unwrap().to_rgba8();
    assert_eq!(img.get_pixel(0, 0).0[3], 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn large_figures_reach_8192_pixels_a_side() {
    let dir = temp_dir("large");
    let out = dir.join("big.png");
    let o = nimscope(&[
        "export",
        example("euclid-winning-pairs.ron").to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--width",
        "8192",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let img = image::open(&out).unwrap();
    assert_eq!(img.width(), 8192);
    assert!(img.height() > 7000);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn export_errors_are_one_line_and_leave_nothing_behind() {
    let dir = temp_dir("errors");
    let bad = dir.join("bad.ron");
    std::fs::write(&bad, "Session(ruleset: \"nim\",\n ruleset: 3)").unwrap();
    let o = nimscope(&[
        "export",
        bad.to_str().unwrap(),
        "-o",
        dir.join("x.png").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.starts_with("error: ") && err.contains("bad.ron, line 2") && err.lines().count() == 1,
        "{err}"
    );
    let missing_dir = dir.join("no-such-folder").join("x.png");
    let o = nimscope(&[
        "export",
        example("euclid-winning-pairs.ron").to_str().unwrap(),
        "-o",
        missing_dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("could not write"), "{err}");
    let o = nimscope(&[
        "export",
        example("euclid-winning-pairs.ron").to_str().unwrap(),
        "-o",
        dir.join("y.png").to_str().unwrap(),
        "--width",
        "20000",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("too large"));
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["bad.ron"], "no partial or temporary files");
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
    assert!(h.state().sessions.show_export);
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
    assert!(h.state().sessions.show_notes);
}

#[test]
fn the_last_state_comes_back_on_the_next_start() {
    let dir = temp_dir("state");
    let mut h = harness();
    h.step();
    h.state_mut().keep_state_in(dir.to_path_buf());
    h.state_mut().open_session(&example("zeruclid-figure2.ron")).unwrap();
    h.state_mut().sessions.notes = "unsaved thoughts".into();
    h.step();
    h.state_mut().write_window_state(); // what closing the window does
    let before = h.state().session();
    let mut h2 = harness();
    h2.state_mut().use_state_dir(dir.to_path_buf());
    h2.step();
    let after = h2.state().session();
    assert_eq!(after.ruleset, "zeruclid");
    assert_eq!(after.slice, "1,_,_");
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
    let p = h.state().ruleset.parse_position("2,4").unwrap();
    assert_eq!(h.state().inspector.root(), Some(&p));
    assert!(h.state().inspector.doc.expanded.contains("2,4"));
    assert!(!h.state().has_unsaved_changes(), "{}", h.state().window_title());
    assert_eq!(h.state().window_title(), "spaced - nimscope");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn file_shortcuts_wait_while_a_text_field_has_the_focus() {
    let dir = temp_dir("shortcuts");
    let path = dir.join("mine.ron");
    let mut h = harness();
    h.step();
    h.state_mut().save_session(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    h.state_mut().sessions.show_notes = true;
    for _ in 0..3 {
        h.step(); // a new window sizes itself before it shows
    }
    h.get_by_label("Notes").focus();
    h.step();
    h.get_by_label("Notes").type_text("se");
    h.step();
    for key in [egui::Key::E, egui::Key::S] {
        h.key_press_modifiers(egui::Modifiers::COMMAND, key);
        h.step();
    }
    assert_eq!(h.state().sessions.notes, "se");
    assert!(
        !h.state().sessions.show_export,
        "Ctrl+E while typing opened the export window"
    );
    assert!(!path.exists(), "Ctrl+S while typing saved the session");
    // with no text field focused the same keys work
    h.state_mut().sessions.show_notes = false;
    h.step();
    h.step();
    for key in [egui::Key::E, egui::Key::S] {
        h.key_press_modifiers(egui::Modifiers::COMMAND, key);
        h.step();
    }
    assert!(h.state().sessions.show_export);
    assert!(path.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The window and the figure of its session show the same thing (map, sequence, board, or
/// nothing), for a ruleset of every family of the catalog, plain and sliced: both ask
/// `Presentation`, and this checks they keep doing so.
#[test]
fn the_window_and_its_figure_choose_the_same_picture_for_every_ruleset() {
    use nimscope::ui::app::{App, CentralView};
    use nimscope_core::figure::Subject;
    use nimscope_core::game::catalog::NAMES;
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
        ("grundy", ""),
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
    for name in NAMES {
        let word = name.split('(').next().unwrap();
        assert!(cases.iter().any(|(r, _)| r.starts_with(word)), "no case for {name}");
    }
    for &(rules, slice) in cases {
        let mut app = App::new(1 << 30);
        app.panel.expression = rules.into();
        app.panel.slice = slice.into();
        let r = rules.parse().unwrap();
        app.set_ruleset(r);
        app.panel.slice = slice.into(); // set_ruleset fits the panel to the ruleset
        app.layout = nimscope_core::game::Layout::from_slice_text(slice).unwrap();
        let window = app.central_view();
        let figure = app.session().figure_spec(FigureStyle::default(), None);
        let same = match (&window, &figure) {
            (CentralView::Board, Ok(spec)) => matches!(spec.subject, Subject::Board(_)),
            (CentralView::Sequence, Ok(spec)) => matches!(spec.subject, Subject::Sequence { .. }),
            (CentralView::Map(l), Ok(spec)) => matches!(&spec.subject, Subject::Map { layout, .. } if layout == l),
            (CentralView::Message(_), Err(_)) => true,
            _ => false,
        };
        assert!(
            same,
            "{rules} [{slice}]: the window shows {window:?}, the figure {figure:?}"
        );
    }
}

/// A session of Nim (played on any number of heaps, shown as the map of two) exports a map,
/// as the window shows it, not the sequence of one heap (the bug this test was written for).
#[test]
fn a_nim_session_exports_a_map() {
    for rules in ["nim", "cdn", "zeruclid", "fibonacci-nim"] {
        let s = Session {
            ruleset: rules.into(),
            rows: 0..8,
            cols: 0..8,
            ..Session::default()
        };
        let fig = bare_figure(&s);
        let chunks: std::collections::HashMap<String, String> = fig.metadata.iter().cloned().collect();
        assert_eq!(
            chunks.get("nimscope.region").map(String::as_str),
            Some("rows a in [0, 8), columns b in [0, 8)"),
            "{rules}"
        );
        if rules == "nim" {
            // (a, b) is P exactly when a = b
            assert_eq!(cell_color(&fig, &s, 5, 5), colors::P_POSITION);
            assert_eq!(cell_color(&fig, &s, 5, 6), colors::N_POSITION);
        }
    }
}
