//! Issue 27's contradictions, one test each: a cell the map has filled is read from the map by
//! the inspector; the nim-sum table of misère Nim agrees with G; a figure's title follows the
//! ruleset; the window's colour range is the figure's and stays while panning; a `--view` is
//! shown whole; Shift+0 is not 0.

use std::path::Path;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use nimscope::ui::app::App;
use nimscope::worker::{JobError, JobId, JobSpec, Lane, Response};
use nimscope_core::game::{Cell, Layout, Ruleset};
use nimscope_core::raster::{ColorMode, ColorRange, Palette};
use nimscope_core::solver::Control;
use nimscope_core::solver::grid::grid;
use nimscope_core::solver::tiles::{CellRect, ValueCounts};

use crate::common::{harness, harness_of, step_until};

fn example(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("sessions").join(name)
}

fn sized(w: f32, h: f32) -> Harness<'static, App> {
    Harness::builder()
        .with_size(egui::vec2(w, h))
        .with_max_steps(32)
        .build_ui_state(
            |ui, app: &mut App| {
                app.advance(ui.ctx());
                app.ui_root(ui)
            },
            App::new(1 << 30),
        )
}

fn label_with(h: &Harness<'static, App>, text: &str) -> bool {
    h.query_all_by_label_contains(text).count() > 0
}

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
            label_with(&h, &format!("G = {want}, outcome N")),
            "the inspector shows the map's value"
        );
        assert!(label_with(&h, "(from the map)"));
        assert!(
            !label_with(&h, &format!("800,900: {refusal}")),
            "the refusal is not the answer"
        );
    }
    // the status bar says the same of the cell under the pointer
    let pos = h.state().map_state().screen_pos_of_cell(Cell::new(800, 900)).unwrap();
    h.hover_at(pos);
    h.step();
    h.step();
    assert!(label_with(&h, &format!("(800, 900): G = {want}")));
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
    assert!(label_with(&h, "G = 1"));
    assert!(!label_with(&h, "balanced (P)"), "the table says P under G = 1, N");
    assert!(label_with(&h, "heaps of 1 are odd in number (2: N)"));
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
        assert!(label_with(&h, verdict), "{text}: the table's verdict is {verdict}");
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

/// `--view 0..20000,0..20000` showed columns 0..14627 only (the zoom-out limit), silently.
#[test]
fn a_requested_view_is_shown_whole_in_a_small_window() {
    let mut h = sized(800.0, 600.0);
    h.step();
    h.state_mut()
        .map_state_mut()
        .show_region(CellRect::new(0..20_000, 0..20_000));
    h.step();
    h.step();
    let shown = h.state().map_state().visible_cells(u64::MAX);
    assert!(
        shown.rows.start == 0 && shown.cols.start == 0 && shown.rows.end >= 20_000 && shown.cols.end >= 20_000,
        "{shown:?}"
    );
    // and as far as a filled map goes
    h.state_mut()
        .map_state_mut()
        .show_region(CellRect::new(0..60_000, 0..60_000));
    h.step();
    let shown = h.state().map_state().visible_cells(u64::MAX);
    assert!(shown.rows.end >= 60_000 && shown.cols.end >= 60_000, "{shown:?}");
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

/// The CSV of a view the map has filled is written from the map's values, at once, not
/// computed again by a second fill; it is what `nimscope grid` computes.
#[test]
fn the_csv_of_a_filled_view_is_written_from_the_map() {
    let mut h = harness();
    h.step();
    h.state_mut().set_ruleset("euclid".parse().unwrap());
    h.state_mut().map_state_mut().show_region(CellRect::new(0..150, 0..200));
    h.step();
    step_until(&mut h, "the euclid view", App::map_complete);
    let region = h.state().visible_region();
    let path = std::env::temp_dir().join(format!("nimscope-csv-{}.csv", std::process::id()));
    let _ = std::fs::remove_file(&path);
    h.state_mut().export_csv(&path).unwrap();
    // written before any worker could have answered
    let text = std::fs::read(&path).expect("written at once");
    let _ = std::fs::remove_file(&path);
    assert!(
        h.state()
            .notice()
            .as_ref()
            .is_some_and(|n| n.text.contains("(from the map)"))
    );
    let euclid: Ruleset = "euclid".parse().unwrap();
    let g = grid(
        &euclid,
        &Layout::Plain,
        region.rows.clone(),
        region.cols.clone(),
        &Control::new(),
    )
    .unwrap();
    let mut want = Vec::new();
    g.write_csv(&mut want).unwrap();
    assert_eq!(
        String::from_utf8(text).unwrap(),
        String::from_utf8(want).unwrap(),
        "{region:?}"
    );
}

/// A session without a view (a file written by hand) shows its region whole, and a region
/// asked for on start gives the colours' automatic top: both as when the region is fitted in
/// a window already up. The first frame's view (the first 64 × 64 cells) used to fill before
/// the region was fitted and to give its top (46 for Euclid, against about 100).
#[test]
fn a_region_asked_for_on_start_is_shown_and_scaled() {
    let dir = crate::common::temp_dir("no-view");
    let path = dir.join("euclid.ron");
    std::fs::write(
        &path,
        "Session(format_version: 1, ruleset: \"euclid\", rows: (start: 0, end: 1000), \
         cols: (start: 0, end: 1000), color: Grundy(Viridis))",
    )
    .unwrap();
    let region = CellRect::new(0..1000, 0..1000);
    let settled = |h: &mut Harness<'static, App>| {
        step_until(h, "the region filled", App::map_complete);
        let shown = h.state().visible_region();
        assert!(shown.intersect(&region) == region, "{shown:?}");
        h.state().map().layer().auto_top().unwrap().top
    };
    // in a window already up, the region fitted
    let mut h = harness();
    h.step();
    h.state_mut().open_session(&path).unwrap();
    h.step();
    h.state_mut().map_state_mut().show_region(region.clone());
    h.state_mut().map_mut().rescale();
    h.step();
    let want = settled(&mut h);
    assert!(want > 64, "{want}");
    // the session on start, alone and with a `--view`
    for view in [None, Some(region.clone())] {
        let mut app = App::new(1 << 30);
        app.open_session(&path).unwrap();
        if let Some(v) = view.clone() {
            app.map_state_mut().show_region(v);
        }
        let mut h = harness_of(app);
        assert_eq!(settled(&mut h), want, "{view:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
