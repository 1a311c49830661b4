//! The window on any screen: side panels within a share of the window and folded when the map
//! would be left too narrow (by key, button or menu), the UI scale (Ctrl+plus) separate from
//! the map's zoom, the UI scale, theme and panels kept between runs, and a View menu that fits
//! a small screen.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use nimscope::ui::app::{App, MIN_MAP_WIDTH};

use crate::common::harness_sized;

fn map_width(h: &Harness<'static, App>) -> f32 {
    h.state().map_state().last_rect.expect("the map is drawn").width()
}

/// At 800 × 600, and at UI scale 1.5 on 1280 × 800, the map keeps most of the room.
#[test]
fn the_map_keeps_its_room_in_a_small_window_and_at_ui_scale_1_5() {
    let mut h = harness_sized(800.0, 600.0);
    h.step();
    h.step();
    let w = map_width(&h);
    assert!(w >= MIN_MAP_WIDTH * 0.8, "the map is {w} points wide of 800");
    let mut h = harness_sized(1280.0, 800.0);
    h.step();
    h.step();
    let before = map_width(&h);
    h.ctx.set_zoom_factor(1.5);
    h.step();
    h.step();
    let w = map_width(&h);
    let window = 1280.0 / 1.5;
    assert!(
        w >= window * 0.4,
        "at UI scale 1.5 the map is {w} of {window} points (was {before})"
    );
}

/// The panels fold with F2 and F3 and with the buttons above the map, and come back.
#[test]
fn the_side_panels_fold_with_a_key_and_a_button() {
    let mut h = harness_sized(1280.0, 800.0);
    h.step();
    h.step();
    let both = map_width(&h);
    assert!(h.state().room().shown().rulesets.is_some() && h.state().room().shown().inspector.is_some());
    h.key_press(egui::Key::F2);
    h.step();
    h.step();
    assert!(h.state().room().shown().rulesets.is_none());
    assert!(map_width(&h) > both + 100.0);
    h.get_by_label("Hide inspector").click();
    h.step();
    h.step();
    assert!(h.state().room().shown().inspector.is_none());
    h.get_by_label("Show rulesets").click();
    h.key_press(egui::Key::F3);
    h.step();
    h.step();
    assert!(h.state().room().shown().rulesets.is_some() && h.state().room().shown().inspector.is_some());
}

/// Ctrl+plus scales the text, not the map: the cells a pixel shows stay.
#[test]
fn the_ui_scale_does_not_zoom_the_map() {
    let mut h = harness_sized(1280.0, 800.0);
    h.step();
    h.step();
    let cells_per_pixel = h.state().map_state().cells_per_pixel();
    h.ctx.set_zoom_factor(1.5);
    h.step();
    h.step();
    let now = h.state().map_state().cells_per_pixel();
    assert!(
        (now - cells_per_pixel).abs() < 1e-9 * cells_per_pixel,
        "{cells_per_pixel} → {now}"
    );
    // the map's own zoom still works on plain + and -
    h.key_press(egui::Key::Minus);
    h.step();
    assert!(h.state().map_state().cells_per_pixel() > now);
}

/// The UI scale, the light theme and the folded panels come back on the next start.
#[test]
fn the_ui_scale_theme_and_panels_are_remembered() {
    let dir = std::env::temp_dir().join(format!("nimscope-room-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    {
        let mut h = harness_sized(1280.0, 800.0);
        h.state_mut().keep_state_in(dir.clone());
        h.step();
        h.ctx.set_zoom_factor(1.5);
        h.key_press(egui::Key::F3);
        h.step();
        h.get_by_label("View").click();
        h.run();
        h.get_by_label("Light theme (slides, projectors)").click();
        h.step();
        assert_eq!(h.ctx.theme(), egui::Theme::Light);
        h.state_mut().write_window_state();
    }
    let mut h = harness_sized(1280.0, 800.0);
    h.state_mut().keep_state_in(dir.clone());
    h.step();
    h.step();
    assert_eq!(h.ctx.zoom_factor(), 1.5);
    assert_eq!(h.ctx.theme(), egui::Theme::Light);
    assert!(h.state().room().prefs().light_theme && !h.state().room().prefs().show_inspector);
    assert!(h.state().room().shown().inspector.is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

/// In a window too narrow for the inspector, asking for it shows it (the rulesets fold to make
/// room), by the button above the map and by the View menu; hiding it folds it again.
#[test]
fn show_inspector_shows_it_when_folded_for_room() {
    let mut h = harness_sized(800.0, 600.0);
    h.step();
    h.step();
    assert!(h.state().room().shown().inspector.is_none() && h.state().room().shown().folded_for_room);
    h.get_by_label("Show inspector").click();
    h.step();
    h.step();
    assert!(h.state().room().shown().inspector.is_some(), "shown when asked for");
    assert!(map_width(&h) > 200.0, "the map keeps {} points", map_width(&h));
    h.get_by_label("Hide inspector").click();
    h.step();
    h.step();
    assert!(h.state().room().shown().inspector.is_none());
    h.get_by_label("View").click();
    h.run();
    h.get_by_label("Show inspector  (F3)").click();
    h.step();
    h.step();
    assert!(h.state().room().shown().inspector.is_some(), "shown from the View menu");
}

/// A region shown whole on start (`--view`) stays whole when the UI scale the preferences
/// restore arrives a frame later (at UI scale 1.5 it showed two thirds of its rows).
#[test]
fn a_view_stays_whole_under_the_restored_ui_scale() {
    use nimscope_core::solver::tiles::CellRect;
    let mut h = harness_sized(1280.0, 800.0);
    h.state_mut()
        .map_state_mut()
        .show_region(CellRect::new(0..9000, 0..9000));
    h.step();
    h.step();
    h.state_mut().map_state_mut().zoom_restored = Some(1.5);
    h.ctx.set_zoom_factor(1.5);
    h.step();
    h.step();
    h.step();
    let v = h.state().map_state().visible_cells(u64::MAX);
    assert!(
        v.rows.start == 0 && v.cols.start == 0 && v.rows.end >= 9000 && v.cols.end >= 9000,
        "{v:?}"
    );
}

/// At UI scale 1.5 on a small screen the View menu is taller than the window: the theme and
/// the UI scale (what a projector needs) come first, within the window, and the rest of the
/// menu scrolls. They were below the window's edge, out of reach.
#[test]
fn the_view_menu_fits_a_small_screen_at_ui_scale_1_5() {
    for (w, hh) in [(800.0, 600.0), (1280.0, 800.0)] {
        let mut h = harness_sized(w, hh);
        h.step();
        h.ctx.set_zoom_factor(1.5);
        h.step();
        h.get_by_label("View").click();
        h.run();
        let bottom = hh / 1.5;
        for label in ["Light theme (slides, projectors)", "Show inspector  (F3)", "100%"] {
            let rect = h.get_by_label(label).rect();
            assert!(
                rect.bottom() <= bottom,
                "{label} at {rect:?}, the window ends at {bottom}"
            );
        }
        h.get_by_label("Light theme (slides, projectors)").click();
        h.step();
        assert_eq!(h.ctx.theme(), egui::Theme::Light);
    }
}

/// Every setting of the View menu, at 1280 × 800 and at 800 × 600: the menu ended at the colour
/// range's choice, the rest (the Top field, Rescale, the pooling, every overlay) reachable only
/// by the wheel with no scrollbar, and typing into the Top field closed the menu and zoomed the
/// map instead. Each setting is scrolled to and lies within the window; the Top field is
/// focused and typed into by keyboard and a checkbox toggled by Space, the menu staying open
/// and the map's camera still.
#[test]
fn every_view_setting_is_reachable_and_editable_at_both_sizes() {
    use nimscope_core::raster::ColorRange;
    for (w, hh) in [(1280.0, 800.0), (800.0, 600.0)] {
        let mut h = harness_sized(w, hh);
        h.step();
        h.step();
        h.get_by_label("View").click();
        h.run();
        // at 1280 × 800 the whole menu shows without scrolling (it scrolled at half the
        // window's height and seemed to end at the colour range)
        let last = h.get_by_label("Thm 3.1.6 P-positions of push(nim,euclid0)").rect();
        assert_eq!(
            last.bottom() <= hh,
            w > 1000.0,
            "{w}×{hh}: the menu's last entry at {last:?}"
        );
        let settings = [
            "Light theme (slides, projectors)",
            "100%",
            "Show rulesets  (F2)",
            "Show inspector  (F3)",
            "P-positions",
            "Grundy value (viridis)",
            "Automatic",
            "Fixed top",
            "Top",
            "Rescale to this view",
            "least G",
            "most common G",
            "greatest G",
            "Grid lines",
            "Lines b = φa and a = φb",
            "Wythoff pairs",
            "Thm 3.1.6 P-positions of push(nim,euclid0)",
        ];
        for label in settings {
            h.get_by_label(label).scroll_to_me();
            h.run();
            let rect = h.get_by_label(label).rect();
            assert!(
                rect.top() >= 0.0 && rect.bottom() <= hh && rect.left() >= 0.0 && rect.right() <= w,
                "{w}×{hh}: {label} at {rect:?}, outside the window"
            );
        }
        let camera = h.state().map_state().camera;
        h.get_by_label("Fixed top").click();
        h.run();
        // the Top field by keyboard: focused, its text replaced, Enter
        let top = h.get_by_label("Top");
        top.scroll_to_me();
        h.run();
        h.get_by_label("Top").focus();
        h.run();
        h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
        h.get_by_label("Top").type_text("40");
        h.run();
        h.key_press(egui::Key::Enter);
        h.run();
        assert_eq!(h.state().figure_style().range, ColorRange::Fixed(40), "{w}×{hh}");
        assert!(
            h.query_by_label("Grid lines").is_some(),
            "{w}×{hh}: the menu stays open after typing into Top"
        );
        // a checkbox by keyboard: focused, Space
        let before = h.state().map_state().overlays.grid_lines;
        h.get_by_label("Grid lines").focus();
        h.run();
        h.key_press(egui::Key::Space);
        h.run();
        assert_ne!(
            h.state().map_state().overlays.grid_lines,
            before,
            "{w}×{hh}: Space toggles"
        );
        assert!(
            h.query_by_label("Wythoff pairs").is_some(),
            "{w}×{hh}: the menu is open"
        );
        assert_eq!(h.state().map_state().camera, camera, "{w}×{hh}: the map did not move");
        // Escape closes it
        h.key_press(egui::Key::Escape);
        h.run();
        assert!(
            h.query_by_label("Wythoff pairs").is_none(),
            "{w}×{hh}: Escape closes the menu"
        );
    }
}
