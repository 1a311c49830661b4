//! The keyboard: Escape closes every window over the map, the map's keys fire without Shift
//! only, the arrows walk the move tree while the pointer is over the inspector, and the File
//! shortcuts wait while a text field has the focus.

use egui_kittest::kittest::Queryable;

use nimscope::ui::app::App;
use nimscope::ui::app::help::HelpPage;
use nimscope_core::solver::tiles::CellRect;

use crate::common::{harness, select_typed, temp_dir};

#[test]
fn escape_closes_help_export_and_notes() {
    let mut h = harness();
    h.step();
    for title in ["Help", "Export figure", "Session notes"] {
        let app = h.state_mut();
        match title {
            "Help" => app.help_mut().open(HelpPage::QuickStart),
            "Export figure" => app.export_window_mut().show(true),
            _ => app.files_mut().show_notes(true),
        }
        h.step();
        h.step();
        assert!(h.query_all_by_label(title).count() > 0, "{title} is open");
        h.key_press(egui::Key::Escape);
        h.step();
        h.step();
        let app = h.state();
        assert!(
            !(app.help().is_open() || app.export_window().is_open() || app.files().notes_shown()),
            "Escape closes {title}"
        );
    }
}

/// `0` fits the first 64 × 64 cells, `-` zooms out, `+` zooms in; with Shift, `0` is `)` and
/// `-` is `_`, which do nothing.
#[test]
fn map_keys_fire_without_shift_only() {
    let mut h = harness();
    h.step();
    h.step();
    h.state_mut().map_state_mut().camera.zoom_at(3.0, 10.0, 10.0);
    let moved = h.state().map_state().camera;
    let press = |h: &mut egui_kittest::Harness<'static, App>, key, modifiers| {
        h.key_press_modifiers(modifiers, key);
        h.step();
    };
    press(&mut h, egui::Key::Num0, egui::Modifiers::SHIFT);
    press(&mut h, egui::Key::Minus, egui::Modifiers::SHIFT);
    assert_eq!(h.state().map_state().camera, moved, "Shift+0 and Shift+- do nothing");
    let rect = h.state().map_state().last_rect.unwrap();
    press(&mut h, egui::Key::Num0, egui::Modifiers::NONE);
    let want = nimscope::ui::canvas::Camera::fit_rect(&CellRect::new(0..64, 0..64), rect.width(), rect.height());
    let now = h.state().map_state().camera;
    let now_rect = h.state().map_state().last_rect.unwrap();
    let (lo, _) = now.extent(now_rect.width(), now_rect.height());
    assert_eq!(now.cells_per_point, want.cells_per_point, "0 fits the first cells");
    assert!(lo.a.abs() < 1e-9 && lo.b.abs() < 1e-9, "from the origin: {lo:?}");
    press(&mut h, egui::Key::Minus, egui::Modifiers::NONE);
    let zoomed_out = h.state().map_state().camera.cells_per_point;
    assert!(zoomed_out > want.cells_per_point);
    press(&mut h, egui::Key::Plus, egui::Modifiers::SHIFT);
    assert!(
        h.state().map_state().camera.cells_per_point < zoomed_out,
        "+ is often Shift+="
    );
}

#[test]
fn the_keyboard_walks_the_tree_when_the_pointer_is_over_the_inspector() {
    let mut h = harness();
    select_typed(&mut h, "nim", "1,2");
    let inspector = h.get_by_label_contains("1,2   G =").rect().center();
    h.hover_at(inspector);
    h.step();
    let camera = h.state().map_state().camera;
    h.key_press(egui::Key::ArrowLeft); // collapse the root
    h.step();
    h.step();
    assert!(h.state().inspector().doc.expanded.is_empty());
    h.key_press(egui::Key::ArrowRight); // expand it again
    h.step();
    h.step();
    assert!(h.state().inspector().doc.expanded.contains("1,2"));
    h.key_press(egui::Key::ArrowDown); // to the first option
    h.step();
    h.step();
    assert_eq!(h.state().inspector().cursor(), Some("1,2 > 0,2"));
    h.key_press(egui::Key::ArrowLeft); // a leaf: back to the parent
    h.step();
    h.key_press(egui::Key::ArrowLeft); // collapse
    h.step();
    h.step();
    assert!(h.state().inspector().doc.expanded.is_empty());
    // the map did not pan while the inspector had the arrows
    assert_eq!(h.state().map_state().camera.center_a, camera.center_a);
    assert_eq!(h.state().map_state().camera.center_b, camera.center_b);
}

#[test]
fn file_shortcuts_wait_while_a_text_field_has_the_focus() {
    let dir = temp_dir("shortcuts");
    let path = dir.join("mine.ron");
    let mut h = harness();
    h.step();
    h.state_mut().save_session(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    h.state_mut().files_mut().show_notes(true);
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
    assert_eq!(h.state().files().notes(), "se");
    assert!(
        !h.state().export_window().is_open(),
        "Ctrl+E while typing opened the export window"
    );
    assert!(!path.exists(), "Ctrl+S while typing saved the session");
    // with no text field focused the same keys work
    h.state_mut().files_mut().show_notes(false);
    h.step();
    h.step();
    for key in [egui::Key::E, egui::Key::S] {
        h.key_press_modifiers(egui::Modifiers::COMMAND, key);
        h.step();
    }
    assert!(h.state().export_window().is_open());
    assert!(path.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
