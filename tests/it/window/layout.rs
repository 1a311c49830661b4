//! The window laid out at 800 × 600, 1280 × 800 and UI scales 1.3 and 2 (issue 41): nothing a
//! user reads is cut by a panel's edge, and a selected position has its inspector. Each test
//! measures the widgets' rectangles (egui's accessibility tree) against the panel or the window,
//! not pixels.

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};

use nimscope::ui::app::App;
use nimscope_core::game::{Position, Ruleset};

use crate::common::{has_report, sized_harness_of, step_until};

/// A window of `w` × `h` points at UI scale `scale` (Ctrl+plus) showing `ruleset`, with
/// `select` selected in the inspector.
fn window_at(w: f32, h: f32, scale: f32, ruleset: &str, select: &str) -> Harness<'static, App> {
    let mut app = App::new(1 << 30);
    let r: Ruleset = ruleset.parse().unwrap();
    app.set_ruleset(r.clone());
    let mut h = sized_harness_of(app, w, h);
    h.step();
    h.ctx.set_zoom_factor(scale);
    h.step();
    h.state_mut().inspector_mut().select_text(&r, select).unwrap();
    let p = h.state().inspector().root().unwrap().clone();
    step_until(&mut h, "the report", |app| has_report(app, &p));
    h.step();
    h.step();
    h
}

/// The widgets whose label holds `text` end within `right` (points); says which do not.
fn cut_at(h: &Harness<'static, App>, text: &str, right: f32) -> Vec<String> {
    h.query_all_by_label_contains(text)
        .filter(|n| n.rect().right() > right + 0.5)
        .map(|n| {
            let label = n.accesskit_node().label().unwrap_or_default();
            format!("{label:?} ends at {:.0}", n.rect().right())
        })
        .collect()
}

/// The move tree's descriptions ran past the inspector's right edge at UI scale 1.3 (a panel
/// that scrolls sideways: the end of each line cut), and its last line even at 1.0. Every row
/// of the tree now ends within the window, which the inspector's right edge is.
#[test]
fn the_move_trees_lines_end_within_the_inspector() {
    for (w, hgt, scale) in [(1280.0, 800.0, 1.0), (1280.0, 800.0, 1.3), (800.0, 600.0, 1.0)] {
        // take-and-break moves have the longest descriptions
        let h = window_at(w, hgt, scale, "octal(0.137)", "30");
        assert!(
            h.state().room().shown().inspector.is_some(),
            "{w}×{hgt} at {scale}: a selection shows its inspector"
        );
        let right = w / scale;
        let rows: Vec<_> = h.query_all_by_label_contains("G = ").collect();
        assert!(rows.len() > 5, "the tree shows the options of 30");
        let cut = cut_at(&h, "G = ", right);
        assert!(cut.is_empty(), "{w}×{hgt} at UI scale {scale}: {cut:?} past {right}");
        let last = cut_at(&h, "Click a move to expand it", right);
        assert!(last.is_empty(), "{w}×{hgt} at UI scale {scale}: {last:?} past {right}");
    }
}

/// `--select 3,5` at UI scale 2 (a 1280 × 800 screen of 640 × 400 points) marked a position on
/// the map whose inspector was folded away for lack of room: a new selection shows its
/// inspector, the rulesets folding first.
#[test]
fn a_selection_at_ui_scale_2_shows_its_inspector() {
    let mut app = App::new(1 << 30);
    app.inspector_mut().select_text(&Ruleset::Wythoff, "3,5").unwrap();
    let mut h = sized_harness_of(app, 640.0, 400.0);
    let p = Position::heaps(&[3, 5]);
    step_until(&mut h, "the report of 3,5", |app| has_report(app, &p));
    h.step();
    h.step();
    assert!(
        h.state().room().shown().inspector.is_some(),
        "the selected position's inspector is folded away"
    );
    assert!(crate::common::has_label(&h, "G = 0"), "(3, 5) is a P-position");
    // the inspector stays within the window
    let inspect = h.get_by_label("Inspect").rect();
    assert!(
        inspect.right() <= 640.0,
        "the Inspect button ends at {}",
        inspect.right()
    );
    // the map keeps some room: about 166 of the 640 points (its axes and legend take 270)
    let map = h.state().map_state().last_rect.expect("the map is drawn");
    assert!(map.width() >= 120.0, "the map is {} points wide", map.width());
}

/// The roles of the widgets a user reads or operates (not the panels and scroll areas that
/// hold them).
fn is_widget(role: egui::accesskit::Role) -> bool {
    use egui::accesskit::Role;
    matches!(
        role,
        Role::Button
            | Role::Label
            | Role::TextInput
            | Role::MultilineTextInput
            | Role::CheckBox
            | Role::RadioButton
            | Role::ComboBox
            | Role::Link
            | Role::Slider
    )
}

/// The ruleset panel clipped its right edge at 800 × 600 and at UI scale 2 (its rows of a
/// field and a button wider than the panel). Every widget starting in the panel ends in it.
#[test]
fn the_ruleset_panels_widgets_end_within_the_panel() {
    for (w, hgt, scale) in [(800.0, 600.0, 1.0), (1280.0, 800.0, 1.3), (1280.0, 800.0, 2.0)] {
        let mut h = sized_harness_of(App::new(1 << 30), w, hgt);
        h.step();
        h.ctx.set_zoom_factor(scale);
        h.step();
        h.step();
        if h.state().room().shown().rulesets.is_none() {
            // folded for lack of room: the user asks for it (F2)
            h.key_press(egui::Key::F2);
            h.step();
            h.step();
        }
        assert!(h.state().room().shown().rulesets.is_some());
        // the centre starts right of the panel: its first tab marks the panel's edge
        let tab = h.get_by_label("Value map").rect();
        let edge = tab.left() - 4.0;
        // the panel's band: below the menu bar, and not the status bar (the last 40 points of
        // the window, unless scrolled out of sight below it)
        let bottom = hgt / scale;
        let in_panel = |r: egui::Rect| r.top() >= tab.top() - 2.0 && !(bottom - 40.0..=bottom).contains(&r.top());
        let cut: Vec<String> = h
            .query_all(egui_kittest::kittest::by().predicate(|n| is_widget(n.role())))
            .filter(|n| in_panel(n.rect()) && n.rect().left() < edge && n.rect().right() > edge + 0.5)
            .map(|n| {
                let label = n.accesskit_node().label().unwrap_or_default();
                let role = n.accesskit_node().role();
                format!("{role:?} {label:?} {:.0}..{:.0}", n.rect().left(), n.rect().right())
            })
            .collect();
        assert!(
            cut.is_empty(),
            "{w}×{hgt} at UI scale {scale}: past the panel's edge {edge}: {cut:?}"
        );
    }
}

/// The plot's labels "pre-period ends" and "one period later" overlapped at UI scale 2 (placed
/// a fixed part of a value apart in a plot a hundred points high). Measured on screen, they
/// never overlap and stay within the window: a period wide on screen (0.07 at 800 × 600), one
/// a few points wide (sub(1,3,4): its lines 7 heaps apart), at UI scales 1 and 2.
#[test]
fn the_period_labels_never_overlap() {
    for (w, hgt, scale, ruleset) in [
        (800.0, 600.0, 2.0, "octal(0.07)"),
        (800.0, 600.0, 1.0, "octal(0.07)"),
        (1280.0, 800.0, 2.0, "sub(1,3,4)"),
    ] {
        let mut app = App::new(1 << 30);
        app.set_ruleset(ruleset.parse().unwrap());
        let mut h = sized_harness_of(app, w, hgt);
        h.step();
        h.ctx.set_zoom_factor(scale);
        step_until(&mut h, "the sequence", |app| app.map().sequence().sequence().is_some());
        h.step();
        h.step();
        let pre = h.get_by_label_contains("pre-period ends (").rect();
        let again = h.get_by_label_contains("one period later (").rect();
        let at = format!("{ruleset} at {w}×{hgt}, UI scale {scale}");
        assert!(!pre.intersects(again), "{at}: {pre:?} overlaps {again:?}");
        for r in [pre, again] {
            assert!(r.left() >= 0.0 && r.right() <= w / scale, "{at}: {r:?} past the window");
        }
    }
}
