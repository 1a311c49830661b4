//! The window as a newcomer meets it (issue 15): file actions through the window's own path
//! fields (no file dialog needed), a fresh window with nothing to save, the status bar that
//! forgets what is over, Cancel that stops every job, play mode on the map, the mex of a
//! position whose options are valued only in part, and the panels' sizes.

use egui_kittest::kittest::Queryable;
use nimscope_core::session::Session;

use crate::common::{harness, step_until};

use crate::common::temp_dir;

/// A few frames: a new window sizes itself before it shows, a menu opens over one.
fn settle(h: &mut egui_kittest::Harness<'static, nimscope::ui::app::App>) {
    for _ in 0..3 {
        h.step();
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

#[test]
fn export_through_the_path_field() {
    let dir = temp_dir("export");
    let path = dir.join("figure.png");
    let mut h = harness();
    step_until(&mut h, "the map", |app| app.map().tiles().get(3, 5).is_some());
    h.state_mut().export_window_mut().show(true);
    settle(&mut h);
    h.state_mut().export_window_mut().set_path(&path);
    h.step();
    h.get_by_label("Export").click();
    step_until(&mut h, "the figure", |_| path.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn cancel_is_said_once_and_the_map_goes_on_after_a_pan() {
    use nimscope::ui::app::MapStatus;
    let mut h = harness();
    h.step();
    h.state_mut().cancel_jobs();
    h.step();
    assert!(matches!(h.state().map().status(), MapStatus::Cancelled { .. }));
    // not a status that stays: a passing notice says it, the status bar has no error
    assert_eq!(h.state().map().status().message(), None);
    assert!(
        h.state()
            .notice()
            .as_ref()
            .is_some_and(|n| n.text.starts_with("cancelled"))
    );
    h.state_mut().map_state_mut().camera.pan(40.0, 0.0);
    h.step();
    assert_eq!(*h.state().map().status(), MapStatus::Ready);
}

/// A ruleset without a map (a sum, whose positions the inspector values) is explained once,
/// in the centre of the window, not a second time in red in the status bar.
#[test]
fn a_ruleset_without_a_map_is_explained_once() {
    use nimscope::ui::app::CentralView;
    let mut h = harness();
    h.step();
    h.state_mut().set_ruleset("sum(wythoff,nim)".parse().unwrap());
    h.step();
    h.step();
    let CentralView::Message(why) = h.state().central_view() else {
        panic!("a sum has no map: {:?}", h.state().central_view())
    };
    assert!(why.contains("inspector"), "{why}");
    assert_eq!(h.state().map().status().message(), None);
}

#[test]
fn a_bad_slice_is_said_in_the_panel_not_the_status_bar() {
    let mut h = harness();
    h.step();
    h.state_mut().ruleset_panel_mut().set_expression("zeruclid");
    h.state_mut().set_ruleset("zeruclid".parse().unwrap());
    h.step();
    let before = h.state().layout().clone();
    // typed as a user types it: one '_' too few, then Enter
    let field = h.get_by_label("slice:");
    field.click();
    h.step();
    h.get_by_label("slice:").type_text(",_");
    h.step();
    h.state_mut().ruleset_panel_mut().set_slice("1,_");
    h.get_by_label("slice:").focus();
    h.step();
    h.key_press(egui::Key::Enter);
    h.step();
    h.step();
    assert_eq!(h.state().map().status().message(), None, "not in the status bar");
    let e = h
        .state()
        .ruleset_panel()
        .error()
        .map(str::to_string)
        .expect("the slice's error is kept for the panel");
    assert!(e.contains("exactly two '_'"), "{e}");
    let start: String = e.chars().take(30).collect();
    assert!(h.query_by_label_contains(&start).is_some(), "the panel shows: {e}");
    assert_eq!(*h.state().layout(), before, "the map keeps its slice");
}

#[test]
fn cancel_stops_the_inspector_and_it_stays_stopped() {
    use nimscope::worker::Lane;
    let mut h = harness();
    h.step();
    // a misère sum is searched, not nim-summed: long enough to be cancelled
    h.state_mut().ruleset_panel_mut().set_expression("misere(octal(0.77))");
    h.state_mut().set_ruleset("misere(octal(0.77))".parse().unwrap());
    h.step();
    let r = h.state().ruleset().clone();
    h.state_mut().inspector_mut().select_text(&r, "40,41,43").unwrap();
    step_until(&mut h, "the inspector's job", |app| {
        app.worker().is_some_and(|w| w.is_running(Lane::Inspector))
    });
    h.state_mut().cancel_jobs();
    for _ in 0..10 {
        h.step();
    }
    assert!(
        !h.state().worker().unwrap().is_running(Lane::Inspector),
        "the job stays stopped"
    );
    assert!(h.query_by_label_contains("40,41,43: stopped by Cancel").is_some());
    // asking again computes again
    h.get_by_label("Compute again").click();
    h.step();
    h.step();
    assert!(h.state().worker().unwrap().is_running(Lane::Inspector));
    h.state_mut().cancel_jobs();
}

#[test]
fn a_partly_valued_position_claims_no_mex() {
    let mut h = harness();
    h.step();
    h.state_mut().ruleset_panel_mut().set_expression("nim");
    h.state_mut().set_ruleset("nim".parse().unwrap());
    h.step();
    let r = h.state().ruleset().clone();
    // 6000 + 5 options, more than one report values
    h.state_mut().inspector_mut().select_text(&r, "6000,5").unwrap();
    step_until(&mut h, "the report", |app| {
        app.inspector()
            .root()
            .is_some_and(|p| app.inspector().report(p).is_some())
    });
    h.step();
    assert!(h.query_by_label_contains("the smallest missing value").is_none());
    assert!(h.query_by_label_contains("the others are not valued here").is_some());
    let g = 6000 ^ 5; // Bouton
    assert!(
        h.query_by_label_contains(&format!("G = {g} (from the solver)"))
            .is_some()
    );
}

#[test]
fn in_a_game_a_click_on_the_map_plays_the_move_and_the_header_follows() {
    use nimscope_core::game::{Cell, Position};
    let mut h = harness();
    step_until(&mut h, "the map", |app| app.map().tiles().get(5, 5).is_some());
    let r = h.state().ruleset().clone();
    h.state_mut().inspector_mut().select_text(&r, "3,5").unwrap();
    h.state_mut().inspector_mut().start_play(Position::heaps(&[3, 5]));
    step_until(&mut h, "the report of (3,5)", |app| {
        app.inspector().report(&Position::heaps(&[3, 5])).is_some()
    });
    // (4,4) is not a move from (3,5); (1,3) is (2 from both heaps)
    let click = |h: &mut egui_kittest::Harness<'static, nimscope::ui::app::App>, cell: Cell| {
        let p = h.state().map_state().screen_pos_of_cell(cell).unwrap();
        h.hover_at(p);
        h.step();
        h.drag_at(p);
        h.step();
        h.drop_at(p);
        h.step();
        h.step();
    };
    click(&mut h, Cell::new(4, 4));
    let game = h.state().inspector().doc.play.clone().expect("still playing");
    assert_eq!(game.moves(), 0, "not a move: nothing played");
    assert!(h.state().notice().is_some_and(|n| n.text.contains("not a move")));
    click(&mut h, Cell::new(1, 3));
    let game = h.state().inspector().doc.play.clone().expect("still playing");
    assert_eq!(
        game.current(),
        Some(&Position::heaps(&[1, 3])),
        "the click played (3,5) -> (1,3)"
    );
    step_until(&mut h, "the report of (1,3)", |app| {
        app.inspector().report(&Position::heaps(&[1, 3])).is_some()
    });
    h.step();
    assert!(
        h.query_by_label("position 1,3").is_some(),
        "the header shows the game's position"
    );
}

#[test]
fn the_inspector_does_not_widen_with_a_long_position() {
    let mut h = harness();
    step_until(&mut h, "the map", |app| app.map().tiles().get(3, 5).is_some());
    let before = h.state().map_state().last_rect.unwrap().width();
    h.state_mut().ruleset_panel_mut().set_expression("nim");
    h.state_mut().set_ruleset("nim".parse().unwrap());
    h.step();
    let long: Vec<String> = (1..=60).map(|k| (1000 + k).to_string()).collect();
    let r = h.state().ruleset().clone();
    h.state_mut().inspector_mut().select_text(&r, &long.join(",")).unwrap();
    for _ in 0..20 {
        h.step();
    }
    let after = h.state().map_state().last_rect.unwrap().width();
    assert!(
        (after - before).abs() < 1.0,
        "the map went from {before} to {after} points wide"
    );
}

#[test]
fn the_ruleset_panel_shows_the_comparison_only_in_the_difference_mode() {
    use nimscope_core::raster::ColorMode;
    let mut h = harness();
    h.step();
    assert!(h.query_by_label("compared ruleset").is_none());
    h.state_mut().map_state_mut().color = ColorMode::Difference;
    h.step();
    h.step();
    assert!(h.query_by_label("compared ruleset").is_some());
}

#[test]
fn the_board_tab_gives_the_board_the_room_of_the_side_panels() {
    let mut h = harness();
    h.step();
    assert!(h.query_by_label("Inspector").is_some());
    h.get_by_label("Cram board").click();
    h.step();
    h.step();
    assert!(h.query_by_label("Inspector").is_none());
    assert!(h.query_by_label("Catalog").is_none());
    h.get_by_label("Show the rulesets").click();
    h.step();
    h.step();
    assert!(h.query_by_label("Catalog").is_some());
}

#[test]
fn help_has_a_quick_start_and_the_keys() {
    let mut h = harness();
    h.step();
    h.get_by_label("Help").click();
    h.step();
    h.step();
    h.get_by_label("Quick start").click();
    for _ in 0..3 {
        h.step();
    }
    assert!(h.query_by_label("1. Pick a ruleset").is_some());
    h.get_by_label("Keys and gestures").click();
    h.step();
    h.step();
    assert!(h.query_by_label("right click a node").is_some());
    assert!(h.query_by_label("Ctrl+V").is_some());
}

#[test]
fn export_offers_the_sessions_region_or_the_visible_one_and_never_rewrites_the_session() {
    use nimscope::ui::app::export::ExportRegion;
    let table1 =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("sessions/table1-wythoff-vs-nim-push-euclid.ron");
    let saved = Session::load(&table1).unwrap();
    let mut h = harness();
    h.step();
    h.state_mut().open_session(&table1).unwrap();
    h.step();
    // looking around changes neither the session's region nor what it exports by default
    h.state_mut().map_state_mut().camera.pan(-300.0, 200.0);
    h.step();
    let region = h.state().export_region();
    assert_eq!((region.rows, region.cols), (saved.rows.clone(), saved.cols.clone()));
    assert_eq!(
        (h.state().session().rows, h.state().session().cols),
        (saved.rows.clone(), saved.cols.clone())
    );
    h.state_mut()
        .export_window_mut()
        .set_region_choice(ExportRegion::Visible);
    assert_eq!(h.state().export_region(), h.state().visible_region());
    assert_ne!(h.state().export_region().rows, saved.rows);
    // choosing the visible region for the figure leaves the session's own region alone, in
    // the document and in the file
    h.step();
    assert_eq!(
        (h.state().session().rows, h.state().session().cols),
        (saved.rows.clone(), saved.cols.clone())
    );
    assert_eq!(Session::load(&table1).unwrap(), saved);
    // the window says which cells each choice is
    h.state_mut().export_window_mut().show(true);
    settle(&mut h);
    let said = format!(
        "the session's region: rows a in [{}, {})",
        saved.rows.start, saved.rows.end
    );
    assert!(h.query_by_label_contains(&said).is_some(), "{said}");
    assert!(h.query_by_label_contains("the visible region: rows a in").is_some());
}

/// The notice's text once a file job has answered.
fn wait_for_notice(h: &mut egui_kittest::Harness<'static, nimscope::ui::app::App>, what: &str) -> String {
    step_until(h, what, |app| {
        app.notice()
            .as_ref()
            .is_some_and(|n| ["wrote", "exported", "failed"].iter().any(|w| n.text.contains(w)))
    });
    h.state().notice().unwrap().text.clone()
}

#[test]
fn the_visible_values_export_as_csv_in_the_format_of_grid() {
    let dir = temp_dir("csv");
    let path = dir.join("values.csv");
    let mut h = harness();
    h.step();
    let euclid = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("sessions/euclid-winning-pairs.ron");
    h.state_mut().open_session(&euclid).unwrap();
    settle(&mut h);
    h.get_by_label("File").click();
    settle(&mut h);
    h.get_by_label("Export visible values as CSV…").click();
    settle(&mut h);
    assert!(
        h.query_by_label("Export the visible values as CSV").is_some(),
        "its own prompt"
    );
    assert!(h.query_by_label("Browse…").is_some());
    h.state_mut()
        .files_mut()
        .pending_mut()
        .expect("the CSV prompt")
        .prompt
        .path = path.display().to_string();
    h.step();
    h.get_by_label("Export").click();
    let said = wait_for_notice(&mut h, "the CSV");
    let region = h.state().visible_region();
    assert!(said.starts_with("wrote the values of"), "{said}");
    // the bytes `nimscope grid` prints for the same cells
    let rows = format!("{}..{}", region.rows.start, region.rows.end);
    let cols = format!("{}..{}", region.cols.start, region.cols.end);
    let grid = crate::common::nimscope(&["grid", "euclid", "--rows", &rows, "--cols", &cols]);
    assert!(grid.status.success());
    let written = std::fs::read(&path).unwrap();
    assert_eq!(written, grid.stdout);
    // and the values are Euclid's: 0 exactly where the first player loses (seed 002)
    let text = String::from_utf8(written).unwrap();
    for (a, line) in region.rows.clone().zip(text.lines()) {
        for (b, field) in region.cols.clone().zip(line.split(',')) {
            if a > 0 && b > 0 {
                let p = field == "0";
                assert_eq!(
                    p,
                    !nimscope_core::game::theory::euclid_first_player_wins(a, b),
                    "({a}, {b})"
                );
            }
        }
    }
    // a file that cannot be written: a clear message, and the prompt stays for another try
    let bad = dir.join("no-such-folder").join("values.csv");
    h.state_mut().export_csv(&bad).unwrap();
    let said = wait_for_notice(&mut h, "the failed CSV");
    assert!(said.starts_with("CSV export failed: could not write"), "{said}");
    assert!(said.contains("no-such-folder"), "{said}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_figure_exported_as_svg_from_the_window_shows_the_sessions_region() {
    let dir = temp_dir("svg");
    let path = dir.join("figure.svg");
    let mut h = harness();
    h.step();
    let euclid = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("sessions/euclid-winning-pairs.ron");
    h.state_mut().open_session(&euclid).unwrap();
    h.state_mut().map_state_mut().camera.pan(-200.0, 100.0); // looking around
    settle(&mut h);
    h.state_mut().export_figure(&path).unwrap();
    let said = wait_for_notice(&mut h, "the SVG");
    assert!(said.starts_with("exported"), "{said}");
    let svg = std::fs::read_to_string(&path).unwrap();
    roxmltree::Document::parse(&svg).unwrap();
    assert!(
        svg.contains(
            r#"<nimscope:entry key="nimscope.region">rows a in [1, 30), columns b in [1, 30)</nimscope:entry>"#
        ),
        "the session's region, not the visible one"
    );
    // an extension that is no figure format is refused before any work
    let err = h.state_mut().export_figure(&dir.join("figure.jpg")).unwrap_err();
    assert!(err.contains(".svg"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
