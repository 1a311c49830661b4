//! Behaviour of the window through egui_kittest (no GPU, no display): choosing a ruleset,
//! the map being requested and filled (at every zoom, every P-position kept), hovering a cell,
//! the colour mode and its scale, the map's keys, cancelling a job, the misère quotient window.

use egui_kittest::kittest::Queryable;
use nimscope::ui::app::{App, MapStatus};
use nimscope::worker::{JobSpec, Lane};
use nimscope_core::game::Cell;
use nimscope_core::game::Ruleset;
use nimscope_core::game::theory;
use nimscope_core::raster::{ColorMode, Palette};
use nimscope_core::solver::tiles::{CellRect, TileKey};

use crate::common::{harness, step_until};

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

/// A window zoomed far out, so the view needs a large map, which takes a while.
fn window_with_a_long_map_job() -> egui_kittest::Harness<'static, nimscope::ui::app::App> {
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

#[test]
fn a_misere_octal_game_opens_its_quotient_window() {
    let mut h = harness();
    h.step();
    let r: Ruleset = "misere(octal(0.07))".parse().unwrap();
    h.state_mut().set_ruleset(r);
    step_until(&mut h, "the quotient of 0.07", |app| {
        matches!(&app.quotient().result, Some(Ok(_)))
    });
    h.step();
    let Some(Ok(q)) = &h.state().quotient().result else {
        unreachable!("waited for it")
    };
    assert_eq!((q.heaps(), q.size()), (20, 24));
    assert!(h.query_all_by_label_contains("24 elements for heaps up to 20").count() >= 1);
    // the two-heap map by the quotient has as many P-cells as the plain search finds (the CLI
    // test compares cell by cell)
    let search_p = {
        let r: Ruleset = "misere(octal(0.07))".parse().unwrap();
        let mut s = nimscope_core::solver::search::Search::plain(r);
        let c = nimscope_core::solver::Control::new();
        (0..=20u64)
            .flat_map(|a| (0..=20u64).map(move |b| (a, b)))
            .filter(|&(a, b)| s.value(&nimscope_core::game::Position::Heaps(vec![a, b]), &c).unwrap() == 0)
            .count()
    };
    let label = format!("21×21 collections by the quotient: {search_p} P-positions");
    assert!(h.query_all_by_label_contains(&label).count() >= 1, "{label}");
    // the typed collection 3,5,7 is answered by its product: a · 1 · a = 1, an N-position
    assert!(h.query_all_by_label_contains("a · 1 · a = 1").count() >= 1);
    assert!(h.query_all_by_label_contains("misère outcome N").count() >= 1);
    // another ruleset closes it
    h.state_mut().set_ruleset("nim".parse().unwrap());
    h.step();
    assert!(!h.state().quotient().open);
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
