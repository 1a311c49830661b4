//! Behaviour of the window through egui_kittest (no GPU, no display): choosing a ruleset,
//! the map being requested and filled, hovering a cell, the colour mode, cancelling a job.

use egui_kittest::kittest::Queryable;
use nimscope::game::Cell;
use nimscope::game::Ruleset;
use nimscope::game::theory;
use nimscope::raster::{ColorMode, Palette};
use nimscope::solver::tiles::TileKey;
use nimscope::ui::app::{App, MapStatus};
use nimscope::worker::{JobSpec, Lane};

use crate::common::{harness, step_until};

#[test]
fn clicking_a_ruleset_requests_its_map() {
    let mut h = harness();
    h.step();
    h.get_by_label("euclid").click();
    h.step();
    assert_eq!(h.state().ruleset, "euclid".parse::<Ruleset>().unwrap());
    assert_eq!(h.state().panel.expression, "euclid");
    step_until(&mut h, "the euclid map", |app| app.map.tiles.get(11, 27).is_some());
    let map = &h.state().map.tiles;
    // seed 002: (11, 27) → (11, 16) wins, so (11, 16) is P and (11, 27) is N
    assert_eq!(map.get(11, 16), Some(Some(0)));
    assert_ne!(map.get(11, 27), Some(Some(0)));
}

#[test]
fn hovering_a_cell_shows_its_value() {
    let mut h = harness();
    step_until(&mut h, "the wythoff map", |app| app.map.tiles.get(3, 5).is_some());
    h.step();
    let pos = h
        .state()
        .map_state
        .screen_pos_of_cell(Cell::new(3, 5))
        .expect("the map was drawn");
    h.hover_at(pos);
    h.step();
    h.step();
    let hovered = h.state().hovered.expect("a cell is under the pointer");
    assert_eq!((hovered.cell, hovered.value), (Cell::new(3, 5), Some(Some(0))));
    // shown in the inspector and in the status bar
    assert!(h.query_all_by_label_contains("(3, 5): G = 0, P").count() >= 1);
}

#[test]
fn the_colour_mode_changes_from_the_view_menu() {
    let mut h = harness();
    h.step();
    h.get_by_label("View").click();
    h.run();
    h.get_by_label("Grundy value (viridis)").click();
    h.step();
    assert_eq!(h.state().map_state.color, ColorMode::Grundy(Palette::Viridis));
}

#[test]
fn a_bad_expression_shows_its_error_and_changes_nothing() {
    let mut h = harness();
    h.step();
    h.state_mut().panel.expression = "push(nim".into();
    h.step();
    h.get_by_label("Apply expression").click();
    h.step();
    h.step();
    assert_eq!(h.state().ruleset, Ruleset::Wythoff);
    assert!(
        h.state()
            .panel
            .error
            .as_deref()
            .is_some_and(|e| e.contains("expected ','"))
    );
    assert!(h.query_by_label_contains("expected ','").is_some());
}

#[test]
fn a_bad_expression_is_shown_on_one_line_with_its_control_characters_escaped() {
    let mut h = harness();
    h.step();
    let long = "x".repeat(5000);
    h.state_mut().panel.expression = format!("nimm\u{1b}[31m\nred{long}");
    h.step();
    h.get_by_label("Apply expression").click();
    h.step();
    h.step();
    assert_eq!(h.state().ruleset, Ruleset::Wythoff);
    let e = h.state().panel.error.clone().unwrap();
    assert!(!e.chars().any(char::is_control), "{e:?}");
    assert!(e.contains("\\u{1b}[31m\\nred"), "{e:?}");
    assert!(e.chars().count() < 500, "a long expression is shortened: {e:?}");
}

/// A window zoomed far out, so the view needs a large map, which takes a while.
fn window_with_a_long_map_job() -> egui_kittest::Harness<'static, nimscope::ui::app::App> {
    let mut h = harness();
    h.step();
    h.state_mut().map_state.camera.cells_per_point = 20.0;
    h.state_mut().map_state.camera.center_a = 8000.0;
    h.state_mut().map_state.camera.center_b = 8000.0;
    step_until(&mut h, "a running job", |app| {
        app.worker().is_some_and(|w| w.is_running(Lane::Map))
    });
    h
}

#[test]
fn cancel_stops_the_running_job() {
    let mut h = window_with_a_long_map_job();
    h.get_by_label("Cancel").click();
    h.step();
    assert!(!h.state().worker().unwrap().is_running(Lane::Map));
    assert!(
        matches!(h.state().status, MapStatus::Cancelled { .. }),
        "{:?}",
        h.state().status
    );
}

/// The tiles the view shows, and whether all of them are in the map.
fn view_complete(app: &App) -> bool {
    let view = app.map_state.visible_tiles(u64::MAX);
    !view.is_empty() && view.iter().all(|&k| app.map.tiles.contains(k))
}

#[test]
fn panning_far_asks_for_the_tiles_in_view_first_and_fills_the_view() {
    let mut h = harness();
    step_until(&mut h, "the first view", view_complete);
    let origin = TileKey { row: 0, col: 0 };
    assert!(h.state().map.tiles.contains(origin));
    // pan far up the map, one cell a point
    {
        let cam = &mut h.state_mut().map_state.camera;
        cam.center_a = 6000.0;
        cam.center_b = 2500.0;
        cam.cells_per_point = 1.0;
    }
    h.step();
    let view = h.state().map_state.visible_tiles(u64::MAX);
    let asked = h
        .state()
        .worker()
        .unwrap()
        .running()
        .find(|r| r.lane == Lane::Map)
        .map(|r| r.spec.clone());
    let Some(JobSpec::Tiles { tiles, .. }) = asked else {
        panic!("a tile job runs after the pan, not {asked:?}")
    };
    assert_eq!(tiles[0], view[0], "the tile nearest the view's centre comes first");
    assert_eq!(tiles[0], TileKey::of_cell(6000, 2500));
    assert!(
        tiles.iter().all(|k| view.contains(k)),
        "only tiles in view are asked for"
    );
    step_until(&mut h, "the far view to fill", view_complete);
    // Wythoff's P-positions in view are the pairs (⌊nφ⌋, ⌊nφ²⌋) and their mirror images
    let map = &h.state().map.tiles;
    for n in 1..5000 {
        let (a, b) = theory::wythoff_pair(n);
        if let Some(v) = map.get(b, a) {
            assert_eq!(v, Some(0), "({b}, {a})");
            assert_ne!(map.get(b, a + 1), Some(Some(0)));
        }
    }
    // panning back reads the cached tiles: no job is needed
    {
        let cam = &mut h.state_mut().map_state.camera;
        cam.center_a = 32.0;
        cam.center_b = 32.0;
        cam.cells_per_point = 0.125;
    }
    h.step();
    assert!(view_complete(h.state()));
    assert!(!h.state().worker().unwrap().is_running(Lane::Map));
}

#[test]
fn three_heaps_of_zeruclid_show_seed_003_figure_2() {
    use egui::accesskit::Role;
    use nimscope::game::Layout;
    use nimscope::game::Position;
    use nimscope::solver::Control;
    use nimscope::solver::search::Search;
    let mut h = harness();
    h.step();
    h.get_by_label("zeruclid").click();
    h.run();
    assert_eq!(h.state().layout, Layout::Plain, "zeruclid opens on two heaps");
    h.get_by_role_and_label(Role::SpinButton, "heaps")
        .set_value_accesskit(3.0);
    h.run();
    h.get_by_role_and_label(Role::SpinButton, "heap 1")
        .set_value_accesskit(1.0);
    h.run();
    assert_eq!(h.state().panel.slice, "1,_,_");
    assert_eq!(h.state().layout, Layout::parse_slice("1,_,_").unwrap());
    assert_eq!(h.state().status, MapStatus::Ready);
    step_until(&mut h, "the slice", |app| app.map.tiles.get(20, 30).is_some());
    let z: Ruleset = "zeruclid".parse().unwrap();
    let mut search = Search::plain(z);
    let c = Control::new();
    for (a, b) in [(0, 0), (1, 1), (2, 5), (7, 3), (12, 20), (20, 30)] {
        let expect = search.value(&Position::heaps(&[1, a, b]), &c).unwrap();
        assert_eq!(
            h.state().map.tiles.get(a, b),
            Some(Some(expect)),
            "Zeruclid (1, {a}, {b})"
        );
    }
}

#[test]
fn a_three_heap_game_opens_on_a_slice() {
    let mut h = harness();
    h.step();
    h.get_by_label("euclid3").click();
    h.run();
    assert_eq!(h.state().panel.slice, "1,_,_");
    assert_eq!(h.state().status, MapStatus::Ready);
    step_until(&mut h, "the euclid3 slice", |app| app.map.tiles.get(3, 4).is_some());
}

#[test]
fn after_cancel_panning_the_map_resumes_it() {
    let mut h = window_with_a_long_map_job();
    h.get_by_label("Cancel").click();
    h.step();
    h.step();
    assert!(
        matches!(h.state().status, MapStatus::Cancelled { .. }),
        "{:?}",
        h.state().status
    );
    // the map stays stopped while the view stays where it was
    h.step();
    assert!(!h.state().worker().unwrap().is_running(Lane::Map));
    h.key_press(egui::Key::ArrowRight);
    h.step();
    assert_eq!(h.state().status, MapStatus::Ready, "panning did not resume the map");
    assert!(h.state().worker().unwrap().is_running(Lane::Map));
}
