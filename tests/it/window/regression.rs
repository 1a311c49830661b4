//! Contradictions the window once showed, one test each, kept so they stay gone: each test's
//! comment says what was seen. (Behaviour is tested in the files named for it; this file is the
//! history.)

use nimscope::ui::app::App;
use nimscope::worker::{JobError, JobId, JobSpec, Lane, Response};
use nimscope_core::game::{Cell, Layout, Ruleset};
use nimscope_core::raster::{ColorMode, ColorRange, Palette, colors};
use nimscope_core::session::Session;
use nimscope_core::solver::Control;
use nimscope_core::solver::grid::grid;
use nimscope_core::solver::tiles::{CellRect, ValueCounts};

use crate::common::{example, harness, has_label, step_until};

use super::figures::{bare_figure, cell_color};

/// The inspector refused Wythoff's (8000, 9000) ("would need a search past the memory
/// budget") while the status bar showed G = 13210 from the map: a cell the map holds is
/// read from the map, whatever the inspector's own search says.
#[test]
fn the_inspector_reads_a_filled_cell_from_the_map() {
    let mut h = harness();
    h.step();
    h.state_mut()
        .map_state_mut()
        .show_region(CellRect::new(790..830, 890..930));
    step_until(&mut h, "the map at (800, 900)", |app| {
        app.map().tiles().get(800, 900).is_some()
    });
    let g = grid(&Ruleset::Wythoff, &Layout::Plain, 800..801, 900..901, &Control::new()).unwrap();
    let want = g.get(800, 900).unwrap();
    assert_eq!(h.state().map().tiles().get(800, 900), Some(Some(want)));
    h.state_mut()
        .inspector_mut()
        .select_text(&Ruleset::Wythoff, "800,900")
        .unwrap();
    let p = h.state().inspector().root().unwrap().clone();
    // the worker's refusal, as the window got it for (8000, 9000)
    let refusal = "only the outcome of '800,900' in wythoff is known (N, by Wythoff's theorem); its value would need a search past the memory budget";
    h.state_mut().inspector_mut().on_response(Response {
        job: JobId(u64::MAX),
        lane: Lane::Inspector,
        spec: JobSpec::Position {
            ruleset: Ruleset::Wythoff,
            position: p.clone(),
            limit: 10,
        },
        result: Err(JobError::Unsupported(refusal.into())),
        last: true,
    });
    h.step();
    h.step();
    if h.state().inspector().report(&p).is_none() {
        assert!(
            has_label(&h, &format!("G = {want}, outcome N")),
            "the inspector shows the map's value"
        );
        assert!(has_label(&h, "(from the map)"));
        assert!(
            !has_label(&h, &format!("800,900: {refusal}")),
            "the refusal is not the answer"
        );
    }
    // the status bar says the same of the cell under the pointer
    let pos = h.state().map_state().screen_pos_of_cell(Cell::new(800, 900)).unwrap();
    h.hover_at(pos);
    h.step();
    h.step();
    assert!(has_label(&h, &format!("(800, 900): G = {want}")));
}

/// misère Nim at (1, 1): G = 1, N (the player to move takes one heap and leaves the last
/// counter to the opponent); the nim-sum table said "balanced (P)" under it.
#[test]
fn the_misere_nim_table_agrees_with_g() {
    let mut h = harness();
    h.step();
    let misere: Ruleset = "misere(nim)".parse().unwrap();
    h.state_mut().set_ruleset(misere.clone());
    h.step();
    h.state_mut().inspector_mut().select_text(&misere, "1,1").unwrap();
    let p = h.state().inspector().root().unwrap().clone();
    step_until(&mut h, "the report of (1, 1)", |app| {
        app.inspector().report(&p).is_some()
    });
    h.step();
    let r = h.state().inspector().report(&p).unwrap().clone();
    // by hand: (1,1) → (0,1) or (1,0), each leaving one counter, which the opponent must take
    // and lose under misère play: both options are P, so (1,1) is N
    assert_ne!(r.value, 0);
    assert!(has_label(&h, "G = 1"));
    assert!(!has_label(&h, "balanced (P)"), "the table says P under G = 1, N");
    assert!(has_label(&h, "heaps of 1 are odd in number (2: N)"));
    // and wherever some heap is 2 or more, misère Nim is P exactly on nim-sum 0
    for (text, p_position, verdict) in [
        ("2,2", true, "2 xor 2 = 0: balanced (P)"),
        ("1,2,3", true, "1 xor 2 xor 3 = 0: balanced (P)"),
        ("1,1,1", true, "odd in number (3: P)"),
        ("3,1", false, "3 xor 1 = 2: unbalanced (N)"),
    ] {
        h.state_mut().inspector_mut().select_text(&misere, text).unwrap();
        let q = h.state().inspector().root().unwrap().clone();
        step_until(&mut h, text, |app| app.inspector().report(&q).is_some());
        h.step();
        let r = h.state().inspector().report(&q).unwrap().clone();
        assert_eq!(r.value == 0, p_position, "{text}");
        assert!(has_label(&h, verdict), "{text}: the table's verdict is {verdict}");
    }
}

/// After opening the Zeruclid example and switching to Nim, the exported figure was titled
/// "Zeruclid (1, a, b): Grundy values…".
#[test]
fn a_figure_is_titled_by_the_ruleset_after_switching() {
    let mut h = harness();
    h.step();
    h.state_mut().open_session(&example("zeruclid-figure2.ron")).unwrap();
    h.step();
    assert!(h.state().figure_style().title.contains("Zeruclid"));
    h.state_mut().set_ruleset(Ruleset::Nim);
    h.step();
    let spec = h.state().export_spec().unwrap();
    assert_eq!(spec.ruleset, Ruleset::Nim);
    assert_eq!(spec.style.title, "", "the default title: the ruleset");
    // a title typed for the new ruleset stays
    h.state_mut().figure_style_mut().title = "Nim, my way".into();
    h.state_mut().set_ruleset(Ruleset::Nim);
    assert_eq!(h.state().export_spec().unwrap().style.title, "Nim, my way");
}

/// The Zeruclid example showed a colour bar of 0..288 in the window and 0..290 in its figure,
/// and the window's scale changed with every pan.
#[test]
fn the_window_and_its_figure_share_one_colour_range_kept_while_panning() {
    let mut h = harness();
    h.step();
    h.state_mut().open_session(&example("zeruclid-figure2.ron")).unwrap();
    assert!(h.state().map_state().color.needs_scale());
    step_until(&mut h, "the example's map", |app| {
        app.map_complete() && app.map().layer().auto_top().is_some()
    });
    let top = h.state().color_top();
    // independently: the 99th percentile of the values in view, from the plain grid
    let view = h.state().map_state().visible_cells(u64::MAX);
    let ruleset = h.state().ruleset().clone();
    let layout = h.state().layout().clone();
    let g = grid(&ruleset, &layout, view.rows.clone(), view.cols.clone(), &Control::new()).unwrap();
    let counts = ValueCounts::of(g.rows_iter().flat_map(|(_, r)| r.into_iter().flatten()));
    assert_eq!(top, ColorRange::Auto.top(&counts), "{view:?}");
    // the figure takes the window's top
    let spec = h.state().export_spec().unwrap();
    assert_eq!(spec.style.range, ColorRange::Fixed(top.top));
    // panning and zooming keep it
    for (dx, dy, zoom) in [(150.0, 0.0, 1.0), (0.0, -120.0, 1.0), (0.0, 0.0, 0.5)] {
        h.state_mut().map_state_mut().camera.pan(dx, dy);
        h.state_mut().map_state_mut().camera.zoom_at(zoom, 0.0, 0.0);
        h.step();
        step_until(&mut h, "the moved view", App::map_complete);
        assert_eq!(h.state().color_top(), top, "after moving by {dx}, {dy}, zoom {zoom}");
    }
    // a fixed top is the figure's too
    h.state_mut().figure_style_mut().range = ColorRange::Fixed(40);
    assert_eq!(h.state().color_top().top, 40);
    assert_eq!(h.state().export_spec().unwrap().style.range, ColorRange::Fixed(40));
    h.state_mut().map_state_mut().color = ColorMode::GrundyLog(Palette::Viridis);
    h.step();
    assert_eq!(h.state().color_top().top, 40);
}

/// Shift+0 fitted the map though the help says "0 without Shift": a real keyboard sends the
/// key with Shift held in its own event, and releases Shift within the same frame.
#[test]
fn shift_0_does_not_fit_even_when_shift_is_released_within_the_frame() {
    let mut h = harness();
    h.step();
    h.step();
    h.state_mut().map_state_mut().camera.zoom_at(3.0, 10.0, 10.0);
    let moved = h.state().map_state().camera;
    for key in [egui::Key::Num0, egui::Key::Minus] {
        h.event(egui::Event::Key {
            key,
            physical_key: Some(key),
            pressed: true,
            repeat: false,
            modifiers: egui::Modifiers::SHIFT,
        });
        h.step();
        assert_eq!(h.state().map_state().camera, moved, "Shift+{key:?} does nothing");
    }
    h.event(egui::Event::Key {
        key: egui::Key::Num0,
        physical_key: Some(egui::Key::Num0),
        pressed: true,
        repeat: false,
        modifiers: egui::Modifiers::NONE,
    });
    h.step();
    assert_ne!(h.state().map_state().camera, moved, "0 fits");
}

/// A session of Nim (played on any number of heaps, shown as the map of two) exports a map,
/// as the window shows it, not the sequence of one heap (the bug this test was written for).
#[test]
fn a_nim_session_exports_a_map() {
    for rules in ["nim", "cdn", "zeruclid", "fibonacci-nim"] {
        let s = Session {
            ruleset: rules.parse().unwrap(),
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
