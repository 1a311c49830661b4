//! The ruleset panel: a bad expression or slice is said in the panel, on one line, and changes
//! nothing; the comparison of the difference mode is shown only in that mode.

use egui_kittest::kittest::Queryable;

use nimscope_core::game::Ruleset;

use crate::common::harness;

#[test]
fn a_bad_expression_shows_its_error_and_changes_nothing() {
    let mut h = harness();
    h.step();
    h.state_mut().ruleset_panel_mut().set_expression("push(nim");
    h.step();
    h.get_by_label("Apply expression").click();
    h.step();
    h.step();
    assert_eq!(*h.state().ruleset(), Ruleset::Wythoff);
    assert!(
        h.state()
            .ruleset_panel()
            .error()
            .is_some_and(|e| e.contains("expected ','"))
    );
    assert!(h.query_by_label_contains("expected ','").is_some());
}

#[test]
fn a_bad_expression_is_shown_on_one_line_with_its_control_characters_escaped() {
    let mut h = harness();
    h.step();
    let long = "x".repeat(5000);
    h.state_mut()
        .ruleset_panel_mut()
        .set_expression(&format!("nimm\u{1b}[31m\nred{long}"));
    h.step();
    h.get_by_label("Apply expression").click();
    h.step();
    h.step();
    assert_eq!(*h.state().ruleset(), Ruleset::Wythoff);
    let e = h.state().ruleset_panel().error().map(str::to_string).unwrap();
    assert!(!e.chars().any(char::is_control), "{e:?}");
    assert!(e.contains("\\u{1b}[31m\\nred"), "{e:?}");
    assert!(e.chars().count() < 500, "a long expression is shortened: {e:?}");
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

/// The Syntax reference is shown as written, one line of it a line on screen (scrolled
/// sideways), not wrapped mid-line in the narrow panel.
#[test]
fn the_syntax_reference_keeps_its_lines() {
    let mut h = harness();
    h.step();
    h.get_by_label("Syntax").click();
    h.step();
    h.step();
    let first = nimscope_core::game::rules::typed::REFERENCE.lines().next().unwrap();
    let reference = h.get_by_label_contains(first).rect();
    let panel = nimscope::ui::theme::SIDE_PANEL_WIDTH;
    // its longest line (about 100 characters) is far wider than the panel
    assert!(
        reference.width() > 2.0 * panel,
        "the reference is {} wide in a panel of {panel}: wrapped",
        reference.width()
    );
    // and as many lines high as it has lines: each line's height is the first's
    let lines = nimscope_core::game::rules::typed::REFERENCE.lines().count() as f32;
    let row = reference.height() / lines;
    assert!((8.0..20.0).contains(&row), "a row of {row} points");
}
