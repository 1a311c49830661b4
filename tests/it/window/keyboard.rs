//! The keyboard: Escape closes every window over the map, the map's keys fire without Shift
//! only, the arrows walk the move tree while the pointer is over the inspector, and the File
//! shortcuts wait while a text field has the focus.

use egui_kittest::kittest::Queryable;

use nimscope::ui::app::App;
use nimscope::ui::app::help::HelpPage;
use nimscope_core::solver::tiles::CellRect;

use crate::common::{harness, select_typed, step_until, temp_dir};

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
    // (Ctrl+E last: the Export window's path field then takes the keys)
    for key in [egui::Key::S, egui::Key::E] {
        h.key_press_modifiers(egui::Modifiers::COMMAND, key);
        h.step();
    }
    assert!(h.state().export_window().is_open());
    assert!(path.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Euclid's value by its rule alone (docs/games.md): from (a, b), subtract a positive multiple of
/// the smaller entry from the larger, the result ≥ 0; a position with a zero entry has no move.
fn euclid_brute(a: u64, b: u64, memo: &mut std::collections::HashMap<(u64, u64), u32>) -> u32 {
    let (lo, hi) = (a.min(b), a.max(b));
    if lo == 0 {
        return 0;
    }
    if let Some(&v) = memo.get(&(lo, hi)) {
        return v;
    }
    let options: std::collections::HashSet<u32> = (1..=hi / lo).map(|k| euclid_brute(lo, hi - k * lo, memo)).collect();
    let v = (0..).find(|v| !options.contains(v)).unwrap();
    memo.insert((lo, hi), v);
    v
}

/// Presses Tab until the node `found` holds has the focus; fails if it never has (Tab trapped
/// in a field, or the node out of Tab's reach).
fn tab_to(
    h: &mut egui_kittest::Harness<'static, App>,
    what: &str,
    found: impl Fn(&egui_kittest::Harness<'static, App>) -> bool,
) {
    for _ in 0..120 {
        if found(h) {
            return;
        }
        h.key_press(egui::Key::Tab);
        h.step();
    }
    panic!("Tab never reached {what}");
}

/// The main workflow by keyboard alone: Tab through the window to the catalog (past the rule
/// editor, where Tab inserted tab characters and never left), Enter on "euclid", Tab on to the
/// inspector's Position field, type a position and Enter; the inspector's value is read from
/// the accessibility tree (what a screen reader reads) against a brute force of Euclid's rule,
/// and the map's name says it too;
/// Ctrl+E opens the Export window with its path field focused, a path typed and Enter write
/// the figure.
#[test]
fn the_main_workflow_by_keyboard_alone() {
    use egui_kittest::kittest::NodeT;
    let dir = temp_dir("keyboard-workflow");
    let mut h = harness();
    h.step();
    h.step();
    let focused = |label: &'static str| {
        move |h: &egui_kittest::Harness<'static, App>| h.query_all_by_label(label).any(|n| n.is_focused())
    };
    // the rule editor comes before the catalog: Tab passes through it
    tab_to(&mut h, "the rule editor", focused("Rule (Ctrl+Enter applies)"));
    tab_to(&mut h, "the catalog's euclid", focused("euclid"));
    let typed = h.get_by_label("Rule (Ctrl+Enter applies)").value().unwrap_or_default();
    assert!(!typed.contains('\t'), "Tab typed into the editor: {typed:?}");
    h.key_press(egui::Key::Enter);
    h.step();
    h.step();
    assert_eq!(h.state().ruleset().to_string(), "euclid", "Enter on the focused button");
    tab_to(&mut h, "the inspector's Position field", focused("Position"));
    h.get_by_label("Position").type_text("7,12");
    h.step();
    h.key_press(egui::Key::Enter);
    h.step();
    let p = h.state().ruleset().parse_position("7,12").unwrap();
    step_until(&mut h, "the report of (7, 12)", |app| {
        app.inspector().report(&p).is_some()
    });
    h.step();
    h.step();
    let want = euclid_brute(7, 12, &mut Default::default());
    let read: Vec<String> = h
        .query_all_by_label_contains("G = ")
        .filter_map(|n| {
            let node = n.accesskit_node();
            node.label().or_else(|| node.value())
        })
        .filter(|l| l.starts_with("G = ") && l.contains(", outcome "))
        .collect();
    assert_eq!(read.len(), 1, "the inspector's value, once: {read:?}");
    let outcome = if want == 0 { "P" } else { "N" };
    assert!(
        read[0].starts_with(&format!("G = {want}, outcome {outcome} ")),
        "the accessibility tree reads {:?}, the rule gives G = {want}",
        read[0]
    );
    // the map names what it shows and the selected cell's value (it had no name), once its
    // fill, which runs apart from the inspector's, has reached the cell
    step_until(&mut h, "the map", |app| app.map_complete());
    h.step();
    let map = h
        .get_by_label_contains("value map: rows a ")
        .accesskit_node()
        .label()
        .unwrap();
    assert!(
        map.ends_with(&format!("; selected (7, 12): G = {want}, {outcome}")),
        "the map's accessible name: {map:?}"
    );
    // export: Ctrl+E, the path field has the focus, a path and Enter
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::E);
    for _ in 0..3 {
        h.step();
    }
    assert!(h.state().export_window().is_open());
    let field = h.get_by_role_and_label(egui::accesskit::Role::TextInput, "File");
    assert!(field.is_focused(), "the Export window's first field has the focus");
    let path = dir.join("euclid.png");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.step();
    h.get_by_role_and_label(egui::accesskit::Role::TextInput, "File")
        .type_text(path.to_str().unwrap());
    h.step();
    h.key_press(egui::Key::Enter);
    h.step();
    step_until(&mut h, "the export", |a| {
        a.notice().is_some_and(|n| n.text.contains("exported"))
    });
    let png = image::open(&path).unwrap();
    assert!(
        png.width() > 100 && png.height() > 100,
        "a figure: {}×{}",
        png.width(),
        png.height()
    );
}

/// Alt+F and F10 did nothing: they give the File menu the focus (Alt+V the View menu), and
/// Enter opens it.
#[test]
fn f10_and_alt_keys_reach_the_menus() {
    for (modifiers, key, menu, entry) in [
        (egui::Modifiers::NONE, egui::Key::F10, "File", "Open session…  (Ctrl+O)"),
        (egui::Modifiers::ALT, egui::Key::F, "File", "Open session…  (Ctrl+O)"),
        (egui::Modifiers::ALT, egui::Key::V, "View", "Grid lines"),
    ] {
        let mut h = harness();
        h.step();
        h.key_press_modifiers(modifiers, key);
        h.step();
        h.step();
        let focused = h
            .get_all_by_role_and_label(egui::accesskit::Role::Button, menu)
            .any(|n| n.is_focused());
        assert!(focused, "{key:?} focuses the {menu} menu");
        h.key_press(egui::Key::Enter);
        h.step();
        h.step();
        assert!(h.query_by_label(entry).is_some(), "Enter opens the {menu} menu");
    }
}
