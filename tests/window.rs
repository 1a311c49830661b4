//! Behaviour of the window through egui_kittest (no GPU, no display): choosing a ruleset,
//! the map being requested and filled, hovering a cell, the colour mode, cancelling a job.

use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use nimscope::app::App;
use nimscope::game::Ruleset;
use nimscope::raster::{ColorMode, Palette};
use nimscope::worker::Lane;

fn harness() -> Harness<'static, App> {
    Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_ui_state(|ui, app: &mut App| app.ui_root(ui), App::new(1 << 30))
}

/// Steps the UI until `done` holds (the worker answers on its own thread).
fn step_until(h: &mut Harness<'static, App>, what: &str, done: impl Fn(&App) -> bool) {
    let start = Instant::now();
    while !done(h.state()) {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "timed out waiting for {what}"
        );
        h.step();
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn clicking_a_ruleset_requests_its_map() {
    let mut h = harness();
    h.step();
    h.get_by_label("euclid").click();
    h.step();
    assert_eq!(h.state().ruleset, "euclid".parse::<Ruleset>().unwrap());
    assert_eq!(h.state().panel.expression, "euclid");
    step_until(&mut h, "the euclid map", |app| app.map.is_some());
    let map = h.state().map.clone().unwrap();
    // seed 002: (11, 27) → (11, 16) wins, so (11, 16) is P and (11, 27) is N
    assert_eq!(map.get(11, 16), Some(0));
    assert_ne!(map.get(11, 27), Some(0));
}

#[test]
fn hovering_a_cell_shows_its_value() {
    let mut h = harness();
    step_until(&mut h, "the wythoff map", |app| app.map.is_some());
    h.step();
    let pos = h.state().map_state.screen_pos_of_cell(3, 5).expect("the map was drawn");
    h.hover_at(pos);
    h.step();
    h.step();
    let hovered = h.state().hovered.expect("a cell is under the pointer");
    assert_eq!((hovered.a, hovered.b, hovered.value), (3, 5, Some(Some(0))));
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
fn cancel_stops_the_running_job() {
    let mut h = harness();
    h.step();
    // zoom far out: the view now needs a large map, which takes a while
    h.state_mut().map_state.camera.cells_per_point = 20.0;
    h.state_mut().map_state.camera.center_a = 8000.0;
    h.state_mut().map_state.camera.center_b = 8000.0;
    step_until(&mut h, "a running job", |app| {
        app.worker().is_some_and(|w| w.is_running(Lane::Map))
    });
    h.get_by_label("Cancel").click();
    h.step();
    assert!(!h.state().worker().unwrap().is_running(Lane::Map));
    assert_eq!(h.state().status.as_deref(), Some("cancelled"));
}
