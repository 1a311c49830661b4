//! The value map: choosing a ruleset asks for its map and fills it (at every zoom, every
//! P-position kept, far out too), hovering a cell reads its value, the colour mode and the
//! range of its colours, a region asked for shown whole, three-heap games on a slice, and
//! Cancel that stops the map until the view changes. Expected values come from closed forms
//! (Wythoff's P-positions, seed 003's Figure 2), not from the code under test.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use nimscope::ui::app::{App, MapStatus};
use nimscope::worker::{JobSpec, Lane};
use nimscope_core::game::{Cell, Ruleset, theory};
use nimscope_core::raster::{ColorMode, Palette};
use nimscope_core::solver::tiles::{CellRect, TileKey};

use crate::common::{harness, harness_of, harness_sized, step_until};

#[test]
fn clicking_a_ruleset_requests_its_map() {
    let mut h = harness();
    h.step();
    h.get_by_label("euclid").click();
    h.step();
    assert_eq!(*h.state().ruleset(), "euclid".parse::<Ruleset>().unwrap());
    assert_eq!(h.state().ruleset_panel().expression(), "euclid");
    step_until(&mut h, "the euclid map", |app| app.map().tiles().get(11, 27).is_some());
    let map = &h.state().map().tiles();
    // seed 002: (11, 27) → (11, 16) wins, so (11, 16) is P and (11, 27) is N
    assert_eq!(map.get(11, 16), Some(Some(0)));
    assert_ne!(map.get(11, 27), Some(Some(0)));
}

#[test]
fn hovering_a_cell_shows_its_value() {
    let mut h = harness();
    step_until(&mut h, "the wythoff map", |app| app.map().tiles().get(3, 5).is_some());
    h.step();
    let pos = h
        .state()
        .map_state()
        .screen_pos_of_cell(Cell::new(3, 5))
        .expect("the map was drawn");
    h.hover_at(pos);
    h.step();
    h.step();
    let hovered = h.state().map().hovered().expect("a cell is under the pointer");
    assert_eq!((hovered.cell, hovered.value), (Cell::new(3, 5), Some(Some(0))));
    // shown in the inspector and in the status bar
    assert!(h.query_all_by_label_contains("(3, 5): G = 0, P").count() >= 1);
    // moved to another cell, the panels drawn before the map name it in the same frame
    let pos = h.state().map_state().screen_pos_of_cell(Cell::new(4, 7)).unwrap();
    h.hover_at(pos);
    h.step();
    assert_eq!(h.state().map().hovered().map(|c| c.cell), Some(Cell::new(4, 7)));
    assert!(
        h.query_all_by_label_contains("(4, 7): G = 0, P").count() >= 2,
        "inspector and status bar"
    );
}

#[test]
fn the_colour_mode_changes_from_the_view_menu() {
    let mut h = harness();
    h.step();
    h.get_by_label("View").click();
    h.run();
    h.get_by_label("Grundy value (viridis)").click();
    h.step();
    assert_eq!(h.state().map_state().color, ColorMode::Grundy(Palette::Viridis));
}

/// A window zoomed far out, so the view needs a large map, which takes a while.
fn window_with_a_long_map_job() -> Harness<'static, App> {
    let mut h = harness();
    h.step();
    // Wythoff typed as a rule: its map lists every option of every cell, so a view far out
    // takes minutes (the built-in fill is now too quick to be caught running on a busy machine)
    let slow: Ruleset = nimscope_core::game::rules::typed::examples::example("wythoff")
        .unwrap()
        .text
        .parse()
        .unwrap();
    h.state_mut().set_ruleset(slow);
    h.step();
    h.state_mut().map_state_mut().camera.cells_per_point = 20.0;
    h.state_mut().map_state_mut().camera.center_a = 8000.0;
    h.state_mut().map_state_mut().camera.center_b = 8000.0;
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
        matches!(h.state().map().status(), MapStatus::Cancelled { .. }),
        "{:?}",
        h.state().map().status()
    );
}

/// Whether every cell in view has its final value.
fn view_complete(app: &App) -> bool {
    app.map_complete()
}

/// Wythoff's P-positions (⌊kφ⌋, ⌊kφ²⌋) and their mirror images, from the closed form.
fn wythoff_p_positions(upto: u64) -> Vec<(u64, u64)> {
    (0..)
        .map(theory::wythoff_pair)
        .take_while(|&(a, _)| a < upto)
        .flat_map(|(a, b)| [(a, b), (b, a)])
        .collect()
}

#[test]
fn panning_far_asks_for_the_view_and_fills_it_keeping_every_p_position() {
    let mut h = harness();
    step_until(&mut h, "the first view", view_complete);
    assert!(h.state().map().tiles().contains(TileKey::of_cell(0, 0)));
    // pan far up the map, one cell a point
    {
        let cam = &mut h.state_mut().map_state_mut().camera;
        cam.center_a = 6000.0;
        cam.center_b = 2500.0;
        cam.cells_per_point = 1.0;
    }
    let level = h.state().map_state().level();
    let view = h.state().map_state().visible_tiles(u64::MAX);
    let job_of_view = |app: &App| {
        app.worker().unwrap().running().find_map(|r| match &r.spec {
            JobSpec::Map(job) if job.view == app.map_state().visible_cells(u64::MAX) => Some(r.spec.clone()),
            _ => None,
        })
    };
    // (a job of the last view may still be sending its last batch: the new one follows)
    step_until(&mut h, "a job for the new view", |app| job_of_view(app).is_some());
    let asked = job_of_view(h.state());
    let Some(JobSpec::Map(job)) = asked else {
        panic!("a map job runs after the pan, not {asked:?}")
    };
    assert_eq!(job.tiles[0], view[0], "the tile nearest the view's centre comes first");
    assert_eq!(job.tiles[0], TileKey::at(level, 6000, 2500));
    assert!(
        job.tiles.iter().all(|k| view.contains(k)),
        "only tiles in view are asked for"
    );
    step_until(&mut h, "the far view to fill", view_complete);
    // each pooled block in view holds key 0 exactly when one of its cells is a P-position
    let cells = h.state().map_state().visible_cells(u64::MAX);
    let s = TileKey::block_of(level);
    let p: std::collections::HashSet<(u64, u64)> = wythoff_p_positions(cells.rows.end.max(cells.cols.end))
        .into_iter()
        .map(|(a, b)| (a / s, b / s))
        .collect();
    let map = &h.state().map().tiles();
    for a in (cells.rows.start / s * s..cells.rows.end).step_by(s as usize) {
        for b in (cells.cols.start / s * s..cells.cols.end).step_by(s as usize) {
            let key = map.key(level, a, b).expect("the tile is held");
            assert_eq!(key == 0, p.contains(&(a / s, b / s)), "block at ({a}, {b}), key {key}");
        }
    }
    // panning back reads the cached tiles: no job is needed
    {
        let cam = &mut h.state_mut().map_state_mut().camera;
        cam.center_a = 32.0;
        cam.center_b = 32.0;
        cam.cells_per_point = 0.125;
    }
    h.step();
    h.step();
    assert!(view_complete(h.state()));
    assert!(!h.state().worker().unwrap().is_running(Lane::Map));
}

/// Zoomed out to Wythoff 0..4096 (several cells a pixel), the map keeps every P-position: a
/// pooled block is P-coloured exactly when it holds one (seed 003 Prop 3.1.3's closed form),
/// the progress only grows, and the hover readout names the block it rings.
#[test]
fn zoomed_out_every_p_position_shows_and_progress_only_grows() {
    let mut h = harness();
    h.step();
    h.state_mut()
        .map_state_mut()
        .show_region(CellRect::new(0..4096, 0..4096));
    h.step();
    let level = h.state().map_state().level();
    assert!(level >= 2, "several cells a pixel: level {level}");
    let mut last = 0;
    step_until(&mut h, "the zoomed-out view", |app| {
        assert!(app.map().progress().done >= last, "progress went back");
        view_complete(app)
    });
    last = h.state().map().progress().done;
    assert_eq!(last, h.state().map().progress().in_view);
    let cells = h.state().map_state().visible_cells(u64::MAX);
    assert!(cells.rows.end >= 4096 && cells.cols.end >= 4096 && cells.rows.start == 0);
    let s = TileKey::block_of(level);
    let p: std::collections::HashSet<(u64, u64)> = wythoff_p_positions(cells.rows.end.max(cells.cols.end))
        .into_iter()
        .map(|(a, b)| (a / s, b / s))
        .collect();
    let map = &h.state().map().tiles();
    let mut dark = 0;
    for a in (0..cells.rows.end).step_by(s as usize) {
        for b in (0..cells.cols.end).step_by(s as usize) {
            let key = map.key(level, a, b).expect("held");
            assert_eq!(key == 0, p.contains(&(a / s, b / s)), "block at ({a}, {b})");
            dark += usize::from(key == 0);
        }
    }
    assert!(
        dark > 2 * 4096 / (s as usize) - 4,
        "both P-lines, unbroken: {dark} blocks"
    );
    // the readout names the block the ring marks
    let rect = h.state().map_state().last_rect.unwrap();
    let at = rect.center();
    h.hover_at(at);
    h.step();
    let hovered = h.state().map().hovered().expect("the pointer is over the map");
    let block = hovered.block.expect("zoomed out, the block is named");
    assert!(block.rows.0 <= hovered.cell.a && hovered.cell.a < block.rows.1);
    assert_eq!(block.rows.1 - block.rows.0, s);
    let words = hovered.describe();
    assert!(
        words.contains(&format!("rows {}..{}", block.rows.0, block.rows.1)),
        "{words}"
    );
}

#[test]
fn the_default_view_starts_at_the_origin() {
    let mut h = harness();
    h.step();
    h.step();
    let state = &h.state().map_state();
    let rect = state.last_rect.unwrap();
    let (lo, hi) = state.camera.extent(rect.width(), rect.height());
    assert!(lo.a.abs() < 1e-9 && lo.b.abs() < 1e-9, "no negative band: {lo:?}");
    assert!(hi.a >= 64.0 - 1e-9 && hi.b >= 64.0 - 1e-9);
}

#[test]
fn three_heaps_of_zeruclid_show_seed_003_figure_2() {
    use egui::accesskit::Role;
    use nimscope_core::game::Layout;
    use nimscope_core::game::Position;
    use nimscope_core::solver::Control;
    use nimscope_core::solver::search::Search;
    let mut h = harness();
    h.step();
    h.get_by_label("zeruclid").click();
    h.run_steps(4); // the map fills meanwhile, waking the window
    assert_eq!(*h.state().layout(), Layout::Plain, "zeruclid opens on two heaps");
    h.get_by_role_and_label(Role::SpinButton, "heaps")
        .set_value_accesskit(3.0);
    h.run_steps(4);
    h.get_by_role_and_label(Role::SpinButton, "heap 1")
        .set_value_accesskit(1.0);
    h.run_steps(4);
    assert_eq!(h.state().ruleset_panel().slice(), "1,_,_");
    assert_eq!(*h.state().layout(), Layout::parse_slice("1,_,_").unwrap());
    assert_eq!(*h.state().map().status(), MapStatus::Ready);
    step_until(&mut h, "the slice", |app| app.map().tiles().get(20, 30).is_some());
    let z: Ruleset = "zeruclid".parse().unwrap();
    let mut search = Search::plain(z);
    let c = Control::new();
    for (a, b) in [(0, 0), (1, 1), (2, 5), (7, 3), (12, 20), (20, 30)] {
        let expect = search.value(&Position::heaps(&[1, a, b]), &c).unwrap();
        assert_eq!(
            h.state().map().tiles().get(a, b),
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
    assert_eq!(h.state().ruleset_panel().slice(), "1,_,_");
    assert_eq!(*h.state().map().status(), MapStatus::Ready);
    step_until(&mut h, "the euclid3 slice", |app| app.map().tiles().get(3, 4).is_some());
}

#[test]
fn after_cancel_panning_the_map_resumes_it() {
    let mut h = window_with_a_long_map_job();
    h.get_by_label("Cancel").click();
    h.step();
    h.step();
    assert!(
        matches!(h.state().map().status(), MapStatus::Cancelled { .. }),
        "{:?}",
        h.state().map().status()
    );
    // the map stays stopped while the view stays where it was
    h.step();
    assert!(!h.state().worker().unwrap().is_running(Lane::Map));
    h.key_press(egui::Key::ArrowRight);
    h.step();
    assert_eq!(
        *h.state().map().status(),
        MapStatus::Ready,
        "panning did not resume the map"
    );
    assert!(h.state().worker().unwrap().is_running(Lane::Map));
}

/// Textured rectangles painted in the last frame other than text: the map's tiles and hatch.
fn textured_rectangles(h: &egui_kittest::Harness<'static, App>) -> usize {
    h.output()
        .shapes
        .iter()
        .filter(|c| matches!(&c.shape, egui::Shape::Mesh(m) if m.texture_id != egui::TextureId::default()))
        .count()
}

/// A software renderer pays for every pixel painted, so once the view is complete each tile
/// in view is one textured rectangle and nothing lies under it: no hatch, and no coarser tile
/// standing in, even for a tile at the view's edge that is complete only where it is seen
/// (the 0..40 view here shows a corner of a tile of 256 × 256 cells). Before, the two coarser
/// levels the zoomed-out view had filled were painted under it as well.
#[test]
fn a_complete_view_paints_each_tile_once() {
    let mut h = harness();
    h.step();
    // zoomed out first, so that coarser tiles exist to stand in
    h.state_mut()
        .map_state_mut()
        .show_region(CellRect::new(0..1500, 0..1500));
    h.step();
    let coarse = h.state().map_state().level();
    assert!(
        (1..=2).contains(&coarse),
        "a level the finest tiles fall back on: {coarse}"
    );
    step_until(&mut h, "the zoomed-out view", view_complete);
    h.state_mut().map_state_mut().show_region(CellRect::new(0..40, 0..40));
    h.step();
    assert_eq!(h.state().map_state().level(), 0);
    step_until(&mut h, "the zoomed-in view", view_complete);
    h.step();
    let tiles = h.state().map_state().visible_tiles(u64::MAX);
    assert_eq!(tiles.len(), 1, "one tile of 256 x 256 cells holds the view");
    assert!(
        !h.state().map().tiles().tile(tiles[0]).expect("held").is_complete(),
        "the tile is complete only where it is seen"
    );
    assert_eq!(textured_rectangles(&h), 1, "the tile alone, once");
}

/// While a view fills, each pixel of the map is painted once (a software renderer pays for
/// every pixel, on the cores the fill runs on): a tile not complete only over the rectangle it
/// has computed, the hatch only around it, and no coarser tile under it (the store pools each
/// tile upwards, so in a view's first fill its stand-ins have no cell it lacks). Before, the
/// hatch, two stand-ins and the tile were painted over each other under every tile not
/// complete.
#[test]
fn a_filling_view_paints_each_pixel_of_the_map_once() {
    let mut h = harness();
    h.step();
    h.state_mut().set_ruleset("misere(wythoff)".parse().unwrap());
    h.state_mut()
        .map_state_mut()
        .show_region(CellRect::new(0..8000, 0..8000));
    h.step();
    step_until(&mut h, "part of the view filled", |app| {
        app.map().progress().done > 0 && !app.map_complete()
    });
    h.step();
    let pieces: Vec<egui::Rect> = h
        .output()
        .shapes
        .iter()
        .filter_map(|c| match &c.shape {
            egui::Shape::Mesh(m) if m.texture_id != egui::TextureId::default() => Some(m.calc_bounds()),
            _ => None,
        })
        .collect();
    assert!(pieces.len() >= 2, "the hatch and what is computed: {pieces:?}");
    for (i, a) in pieces.iter().enumerate() {
        for b in &pieces[i + 1..] {
            let both = a.intersect(*b);
            assert!(
                both.width() < 0.5 || both.height() < 0.5,
                "{a:?} and {b:?} are painted over each other"
            );
        }
    }
}

/// Wythoff's P-positions mode far out (10¹²): the map comes from the P-positions' closed form
/// (no fill could get there) and every pooled block is P exactly where one of its cells is.
#[test]
fn wythoff_p_positions_show_at_ten_to_the_twelve() {
    let mut h = harness();
    step_until(&mut h, "the first view", view_complete);
    let (a0, b0) = theory::wythoff_pair(618_033_988_749);
    {
        let cam = &mut h.state_mut().map_state_mut().camera;
        cam.center_a = a0 as f64;
        cam.center_b = b0 as f64;
        cam.cells_per_point = 0.25;
    }
    h.step();
    h.step();
    step_until(&mut h, "the far view to fill", |app| {
        view_complete(app) && app.map_state().visible_cells(u64::MAX).rows.contains(&a0)
    });
    let level = h.state().map_state().level();
    let cells = h.state().map_state().visible_cells(u64::MAX);
    assert!(cells.rows.contains(&a0) && cells.cols.contains(&b0), "{cells:?}");
    let s = TileKey::block_of(level);
    let map = &h.state().map().tiles();
    let mut p_blocks = 0;
    for a in (cells.rows.start / s * s..cells.rows.end).step_by(s as usize) {
        for b in (cells.cols.start / s * s..cells.cols.end).step_by(s as usize) {
            let p = (a..a + s).any(|x| (b..b + s).any(|y| theory::is_wythoff_p(x, y)));
            let key = map.key(level, a, b).expect("the tile is held");
            assert_eq!(key == 0, p, "block at ({a}, {b}), key {key}");
            p_blocks += u32::from(p);
        }
    }
    assert!(p_blocks > 0);
    assert_eq!(level, 0, "a cell is four points across");
    assert_eq!(map.get(a0, b0), Some(Some(0)), "the readout of a P-position: G = 0");
    // its neighbour is N by the same closed form, and the readout says so (its value is for
    // the inspector), not "not computed yet"
    assert!(!theory::is_wythoff_p(a0, b0 + 1));
    let pos = h
        .state()
        .map_state()
        .screen_pos_of_cell(Cell::new(a0, b0 + 1))
        .expect("drawn");
    h.hover_at(pos);
    h.step();
    h.step();
    let words = h.state().map().hovered().expect("over the map").describe();
    assert_eq!(
        words,
        format!("({a0}, {}): N (its outcome alone is known, not G)", b0 + 1)
    );
}

#[test]
fn cancel_is_said_once_and_the_map_goes_on_after_a_pan() {
    use nimscope::ui::app::MapStatus;
    let mut h = harness();
    h.step();
    h.state_mut().cancel_jobs();
    h.step();
    assert!(matches!(h.state().map().status(), MapStatus::Cancelled { .. }));
    // not a status that stays: a passing notice says it, the status bar has no error
    assert_eq!(h.state().map().status().message(), None);
    assert!(
        h.state()
            .notice()
            .as_ref()
            .is_some_and(|n| n.text.starts_with("cancelled"))
    );
    h.state_mut().map_state_mut().camera.pan(40.0, 0.0);
    h.step();
    assert_eq!(*h.state().map().status(), MapStatus::Ready);
}

/// A ruleset without a map (a sum, whose positions the inspector values) is explained once,
/// in the centre of the window, not a second time in red in the status bar.
#[test]
fn a_ruleset_without_a_map_is_explained_once() {
    use nimscope::ui::app::CentralView;
    let mut h = harness();
    h.step();
    h.state_mut().set_ruleset("sum(wythoff,nim)".parse().unwrap());
    h.step();
    h.step();
    let CentralView::Message(why) = h.state().central_view() else {
        panic!("a sum has no map: {:?}", h.state().central_view())
    };
    assert!(why.contains("inspector"), "{why}");
    assert_eq!(h.state().map().status().message(), None);
}

/// `--view 0..20000,0..20000` showed columns 0..14627 only (the zoom-out limit), silently.
#[test]
fn a_requested_view_is_shown_whole_in_a_small_window() {
    let mut h = harness_sized(800.0, 600.0);
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
