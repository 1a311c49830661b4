//! Contradictions the window once showed, one test each, kept so they stay gone: each test's
//! comment says what was seen. (Behaviour is tested in the files named for it; this file is the
//! history.)

use egui_kittest::kittest::{NodeT, Queryable};

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
/// and the window's scale changed with every pan. The top is the session's region's (issue
/// 41: the window counted what it showed, `nimscope export` the region).
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
    // independently: the 99th percentile of the values of the session's region, from the
    // plain grid
    let region = h.state().region().cloned().unwrap();
    let ruleset = h.state().ruleset().clone();
    let layout = h.state().layout().clone();
    let (rows, cols) = (region.rows.clone(), region.cols.clone());
    let g = grid(&ruleset, &layout, rows, cols, &Control::new()).unwrap();
    let counts = ValueCounts::of(g.rows_iter().flat_map(|(_, r)| r.into_iter().flatten()));
    assert_eq!(top, ColorRange::Auto.top(&counts), "{region:?}");
    // the figure of the region takes the window's count of it
    let spec = h.state().export_spec().unwrap();
    assert_eq!((spec.style.range, spec.style.counted), (ColorRange::Auto, Some(top)));
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

/// After a one-heap rule that loops failed, the centre kept "computing G(0..600)…" while the
/// status bar said in red why it failed. The centre says why too, and nothing is computing.
#[test]
fn a_failed_sequence_says_why_in_place_of_computing() {
    let mut h = harness();
    h.step();
    // a game that loops is valued (issue 39); one that grows without bound still fails
    let r: Ruleset = "rule(n -> n + 1)".parse().unwrap();
    h.state_mut().set_ruleset(r);
    step_until(&mut h, "the sequence's failure", |app| app.map().failure().is_some());
    h.step();
    h.step();
    assert!(
        !has_label(&h, "computing G(0.."),
        "a failed job still says it is working"
    );
    assert!(has_label(&h, "Not computed: "), "the centre says the job failed");
    assert!(
        h.query_all_by_label_contains("not a finite game").count() >= 2,
        "the centre and the status bar say why"
    );
}

/// A two-heap rule whose game is not finite: it climbs one heap forever.
const GROWS: &str = "rule((a, b) -> (a, b + 1) if a == 0; (a - 1, b) if a >= 1)";

/// A cyclic two-heap rule left the map hatched "not computed yet" with the progress bar at
/// "0 %, map: 0 of 5.9 k cells" indefinitely. The centre says why in place of the hatching,
/// and the status bar shows no fill.
#[test]
fn a_failed_map_says_why_and_shows_no_fill() {
    let mut h = harness();
    h.step();
    // a game that loops is valued (issue 39); one that grows without bound still fails
    let r: Ruleset = GROWS.parse().unwrap();
    h.state_mut().set_ruleset(r);
    step_until(&mut h, "the map's failure", |app| app.map().failure().is_some());
    h.step();
    h.step();
    assert!(!has_label(&h, "map: 0 of"), "no fill in the status bar");
    assert!(
        h.query_by_role(egui::accesskit::Role::ProgressIndicator).is_none(),
        "no progress bar"
    );
    assert!(has_label(&h, "Not computed: "), "the centre says the map failed");
    assert!(!has_label(&h, "not computed yet"), "no legend of cells still to come");
}

/// The inspector offered "Play from here" for a game that is not finite; it is disabled, and
/// its tooltip says why.
#[test]
fn no_play_from_a_position_without_a_value() {
    let mut h = harness();
    h.step();
    let text = GROWS;
    let r: Ruleset = text.parse().unwrap();
    h.state_mut().set_ruleset(r.clone());
    h.step();
    h.state_mut().inspector_mut().doc.typed = "3,5".into();
    h.state_mut().inspector_mut().select_typed(&r);
    // the inspector's answer: why (3, 5) has no value
    let said = |h: &egui_kittest::Harness<'static, App>| {
        h.query_all_by_label_contains("not a finite game")
            .filter_map(|n| n.accesskit_node().value())
            .any(|l| l.starts_with("3,5: "))
    };
    let start = std::time::Instant::now();
    while !said(&h) {
        assert!(start.elapsed().as_secs() < 60, "the inspector never said why");
        h.step();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    h.step();
    let play = h.get_by_label("Play from here");
    assert!(
        play.accesskit_node().is_disabled(),
        "Play is offered for a game that is not finite"
    );
}

/// The rule editor's hint kept "parses: Apply to explore it" after the rule was applied: it
/// says the window shows the rule, until the text changes.
#[test]
fn the_editors_hint_is_true_to_the_state() {
    let mut h = harness();
    h.step();
    let editor = "Rule (Ctrl+Enter applies)";
    h.get_by_label(editor).focus();
    h.step();
    h.get_by_label(editor).type_text("rule(n -> n - 1 if n >= 1)");
    h.step();
    h.step();
    assert!(has_label(&h, "parses: Apply to explore it"));
    h.get_by_label("Apply rule").click();
    h.step();
    h.step();
    assert!(
        !has_label(&h, "parses: Apply to explore it"),
        "applied, the hint says otherwise"
    );
    assert!(has_label(&h, "applied: the window shows this rule"));
    h.get_by_label(editor).focus();
    h.step();
    h.get_by_label(editor).type_text("; n - 2 if n >= 2");
    h.step();
    h.step();
    assert!(!has_label(&h, "applied: the window shows this rule"), "another text");
}
