//! Export from the window: a figure through the Export window's path field is the figure of what
//! the window shows; a map figure shows the session's region or the visible one and never
//! rewrites the session; figures of what the map has filled are drawn from its tiles, computing
//! only the blocks they lack, each pixel what a brute force over its cells (or blocks) gives,
//! with the pooled pixel's choice (least, most common, greatest) shared by the window and the
//! figures; the visible values as CSV in the format of `nimscope grid`, from the map.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use nimscope::ui::app::App;
use nimscope::ui::app::export::ExportRegion;
use nimscope_core::figure::{FigureSpec, make_figure, make_figure_with};
use nimscope_core::game::{Layout, Ruleset};
use nimscope_core::raster::{ColorMode, ColorRange, Palette, Pooling};
use nimscope_core::session::Session;
use nimscope_core::solver::Control;
use nimscope_core::solver::grid::{Grid, grid};
use nimscope_core::solver::tiles::{CellRect, KeyRule};

use crate::common::{harness, settle, step_until, temp_dir};

/// The window on `rules` in the Grundy colours, showing `region` filled.
fn filled(rules: &str, region: CellRect, pooling: Pooling) -> egui_kittest::Harness<'static, App> {
    let mut h = harness();
    h.step();
    h.state_mut().set_ruleset(rules.parse().unwrap());
    h.state_mut().map_state_mut().color = ColorMode::Grundy(Palette::Viridis);
    h.state_mut().figure_style_mut().pooling = pooling;
    h.state_mut().figure_style_mut().width = 900;
    h.state_mut().map_state_mut().show_region(region);
    h.step();
    step_until(&mut h, "the map filled", App::map_complete);
    // the automatic top is known once the view is filled
    step_until(&mut h, "the colour range", |a| a.map().layer().auto_top().is_some());
    h
}

/// The top of the Grundy colours the window passes a figure: its count over the figure's own
/// region, or its top as a fixed one.
fn window_top(spec: &FigureSpec) -> u32 {
    match (spec.style.counted, spec.style.range) {
        (Some(counted), ColorRange::Auto) => counted.top,
        (None, ColorRange::Fixed(top)) => top,
        other => panic!("the window passes its top: {other:?}"),
    }
}

/// Where the map lies in a figure, from its metadata.
fn map_px(fig: &nimscope_core::figure::Figure) -> [f64; 4] {
    let (_, v) = fig.metadata.iter().find(|(k, _)| k == "nimscope.map_px").unwrap();
    let n: Vec<f64> = v.split(',').map(|x| x.parse().unwrap()).collect();
    [n[0], n[1], n[2], n[3]]
}

/// The figure's colour at each pixel of its map, against `want(x, y)` (pixel offsets in the map).
fn check_pixels(fig: &nimscope_core::figure::Figure, want: &dyn Fn(u32, u32) -> [u8; 4]) {
    let image = fig.image();
    let [left, top, w, h] = map_px(fig);
    for y in 0..h as u32 {
        for x in 0..w as u32 {
            let got = image.get_pixel(left as u32 + x, top as u32 + y).0;
            assert_eq!(got, want(x, y), "pixel ({x}, {y}) of the map");
        }
    }
}

/// What a pixel of the cells of `g` in `rows × cols` shows under `pooling`, counted plainly.
fn brute(g: &Grid, rows: std::ops::Range<u64>, cols: std::ops::Range<u64>, pooling: Pooling) -> Option<u32> {
    let mut values: Vec<u32> = Vec::new();
    for a in rows {
        for b in cols.clone() {
            values.extend(g.get(a, b));
        }
    }
    match pooling {
        Pooling::Least => values.iter().min().copied(),
        Pooling::Greatest => values.iter().max().copied(),
        Pooling::MostCommon => {
            let mut counts = std::collections::BTreeMap::new();
            for v in values {
                *counts.entry(v).or_insert(0) += 1;
            }
            let most = counts.values().copied().max()?;
            counts.into_iter().find(|(_, n)| *n == most).map(|(v, _)| v)
        }
    }
}

/// A filled view at one cell a pixel: the figure is drawn from the map's level-0 tiles (no
/// fill started), and every pixel is the colour of the value `grid` computes for its cell.
#[test]
fn a_figure_of_a_filled_view_draws_from_the_map() {
    let mut h = filled("euclid", CellRect::new(0..200, 0..260), Pooling::Least);
    let spec: FigureSpec = h.state().export_spec().unwrap();
    let known = h.state().export_known(&spec).expect("the map's tiles hold the view");
    assert_eq!((known.level, known.missing()), (0, 0));
    let top = window_top(&spec);
    let fig = make_figure_with(&spec, Some(&known), &Control::new()).unwrap();
    assert_eq!(fig.from_map, Some(1), "drawn from the map");
    let region = h.state().export_region();
    let g = grid(
        &"euclid".parse::<Ruleset>().unwrap(),
        &Layout::Plain,
        region.rows.clone(),
        region.cols.clone(),
        &Control::new(),
    )
    .unwrap();
    let [_, _, w, hh] = map_px(&fig);
    let (n_rows, n_cols) = (
        (region.rows.end - region.rows.start) as f64,
        (region.cols.end - region.cols.start) as f64,
    );
    let mode = spec.color;
    check_pixels(&fig, &|x, y| {
        // the cell under the pixel's centre (a pixel is smaller than a cell here)
        let b = region.cols.start + ((f64::from(x) + 0.5) * n_cols / w) as u64;
        let a = region.rows.start + ((hh - f64::from(y) - 0.5) * n_rows / hh) as u64;
        mode.color(g.get(a, b), top, None)
    });
    // through the window: the export says it drew from the map
    let path = std::env::temp_dir().join(format!("nimscope-fig-{}.png", std::process::id()));
    h.state_mut().export_figure(&path).unwrap();
    step_until(&mut h, "the export", |a| a.notice().is_some());
    let text = h.state().notice().unwrap().text.clone();
    let _ = std::fs::remove_file(&path);
    assert!(text.contains("from the map: blocks of 1 × 1 cells"), "{text}");
}

/// Zoomed out, each pixel of a figure drawn from the map pools the map's blocks whose centres
/// fall in it, as the window does: checked against the values of their cells, for the three
/// choices of what a pooled pixel shows (the tiles hold the chosen key: the window too).
#[test]
fn a_zoomed_out_figure_pools_the_maps_blocks() {
    for pooling in Pooling::ALL {
        let h = filled("euclid", CellRect::new(0..1500, 0..1800), pooling);
        let want_rule = match pooling {
            Pooling::Least => KeyRule::Value,
            Pooling::MostCommon => KeyRule::MostCommon,
            Pooling::Greatest => KeyRule::Greatest,
        };
        assert_eq!(h.state().map().tiles().rule(), want_rule);
        let mut spec = h.state().export_spec().unwrap();
        let known = h.state().export_known(&spec).expect("the map's tiles hold the view");
        assert!(known.level >= 1 && known.missing() == 0, "level {}", known.level);
        let s = known.block();
        let region = h.state().export_region();
        // a most common value is of cells: one figure pixel a block or less
        spec.style.width = if pooling == Pooling::MostCommon { 1600 } else { 400 };
        let fig = make_figure_with(&spec, Some(&known), &Control::new()).unwrap();
        assert_eq!(fig.from_map, Some(s), "{pooling:?}");
        let g = grid(
            &"euclid".parse::<Ruleset>().unwrap(),
            &Layout::Plain,
            0..region.rows.end.div_ceil(s) * s,
            0..region.cols.end.div_ceil(s) * s,
            &Control::new(),
        )
        .unwrap();
        let top = window_top(&spec);
        let [_, _, w, hh] = map_px(&fig);
        let cpp = (region.cols.end - region.cols.start) as f64 / w;
        // blocks whose centres lie in [lo, lo + cpp) cells from `start`, else the one under the middle
        let blocks = |start: u64, lo: f64| {
            let first = ((start as f64 + lo) / s as f64 - 0.5).ceil() as u64;
            let end = ((start as f64 + lo + cpp) / s as f64 - 0.5).ceil() as u64;
            if end > first {
                first..end
            } else {
                let c = ((start as f64 + lo + cpp / 2.0) / s as f64) as u64;
                c..c + 1
            }
        };
        check_pixels(&fig, &|x, y| {
            let bs = blocks(region.cols.start, f64::from(x) * cpp);
            let ars = blocks(region.rows.start, (hh - 1.0 - f64::from(y)) * cpp);
            // a block's key from its cells, then the pixel's from its blocks' keys
            let keys: Vec<u32> = ars
                .flat_map(|i| bs.clone().map(move |j| (i, j)))
                .filter_map(|(i, j)| brute(&g, i * s..(i + 1) * s, j * s..(j + 1) * s, pooling))
                .collect();
            let v = match pooling {
                Pooling::Greatest => keys.iter().max().copied(),
                _ if keys.len() == 1 || pooling == Pooling::Least => keys.iter().min().copied(),
                _ => panic!("a most common pixel of several blocks"),
            };
            spec.color.color(v, top, None)
        });
    }
}

/// A figure of a region larger than the filled view computes only the blocks the map lacks;
/// the figure is the one computed from nothing, pixel for pixel.
#[test]
fn a_figure_computes_only_what_the_map_lacks() {
    let mut h = filled("wythoff", CellRect::new(0..200, 0..260), Pooling::Least);
    let visible = h.state().visible_region();
    let region = CellRect::new(0..visible.rows.end + 37, 0..visible.cols.end);
    h.state_mut().set_region(region.clone());
    h.state_mut()
        .export_window_mut()
        .set_region_choice(ExportRegion::Session);
    let spec = h.state().export_spec().unwrap();
    let known = h.state().export_known(&spec).expect("the map holds most of it");
    assert_eq!(known.level, 0);
    let missing = known.missing_cells().expect("rows above the view are missing");
    assert_eq!(missing.rows, visible.rows.end..region.rows.end);
    let from_map = make_figure_with(&spec, Some(&known), &Control::new()).unwrap();
    assert_eq!(from_map.from_map, Some(1));
    let computed = make_figure(&spec, &Control::new()).unwrap();
    assert_eq!(computed.from_map, None);
    let image = computed.image();
    check_pixels(&from_map, &|x, y| {
        let [left, top, _, _] = map_px(&computed);
        image.get_pixel(left as u32 + x, top as u32 + y).0
    });
}

/// Unticked, the export window computes every cell; the choice of the pooled pixel is saved
/// in the session and said in its legend.
#[test]
fn the_choices_are_kept() {
    let mut h = filled("wythoff", CellRect::new(0..100, 0..100), Pooling::Greatest);
    let spec = h.state().export_spec().unwrap();
    assert!(h.state().export_known(&spec).is_some());
    h.state_mut().export_window_mut().set_from_map(false);
    assert!(h.state().export_known(&spec).is_none());
    assert_eq!(h.state().session().figure.pooling, Pooling::Greatest);
    let text = h.state().session().to_ron();
    assert!(text.contains("pooling: Greatest"), "{text}");
}

/// The CSV of a view the map has only partly filled writes the cells the map holds and
/// computes only the others: the file is the one `nimscope grid` writes from nothing, and the
/// job says it computed exactly the cells the map lacked.
#[test]
fn a_csv_of_a_partly_filled_view_computes_only_what_the_map_lacks() {
    let mut h = filled("euclid", CellRect::new(0..200, 0..260), Pooling::Least);
    let filled_view = h.state().visible_region();
    // a larger view, exported before the map starts to fill it
    let wider = CellRect::new(0..filled_view.rows.end + 150, 0..filled_view.cols.end + 90);
    h.state_mut().map_state_mut().show_region(wider);
    let region = h.state().visible_region();
    let tiles = &h.state().map().tiles();
    let held = region
        .rows
        .clone()
        .flat_map(|a| region.cols.clone().map(move |b| (a, b)))
        .filter(|&(a, b)| tiles.get(a, b).is_some())
        .count() as u64;
    assert!(
        held >= filled_view.intersect(&region).len() && held < region.len(),
        "{held}"
    );
    let dir = crate::common::temp_dir("partly");
    let path = dir.join("values.csv");
    h.state_mut().export_csv(&path).unwrap();
    assert!(!path.exists(), "a partly filled view is not written at once");
    step_until(&mut h, "the CSV", |app| {
        app.notice().is_some_and(|n| n.text.contains("wrote"))
    });
    let said = h.state().notice().unwrap().text.clone();
    let computed = region.len() - held;
    assert!(
        said.contains(&format!("({computed} cells computed, the rest from the map)")),
        "{said}"
    );
    let rows = format!("{}..{}", region.rows.start, region.rows.end);
    let cols = format!("{}..{}", region.cols.start, region.cols.end);
    let grid = crate::common::nimscope(&["grid", "euclid", "--rows", &rows, "--cols", &cols]);
    assert!(grid.status.success());
    assert!(
        std::fs::read(&path).unwrap() == grid.stdout,
        "the bytes of `nimscope grid`"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Another choice of the pooled pixel keeps the cells the map filled: a view at one cell a
/// pixel is complete again at once, without a second fill.
#[test]
fn a_new_pooling_keeps_the_filled_cells() {
    let mut h = filled("wythoff", CellRect::new(0..200, 0..260), Pooling::Least);
    assert_eq!(h.state().map_state().level(), 0);
    let region = h.state().visible_region();
    let values: Vec<_> = region
        .cols
        .clone()
        .map(|b| h.state().map().tiles().get(150, b))
        .collect();
    let top = h.state().map().layer().auto_top();
    h.state_mut().figure_style_mut().pooling = Pooling::Greatest;
    h.step();
    assert_eq!(h.state().map().tiles().rule(), KeyRule::Greatest);
    let kept: Vec<_> = region
        .cols
        .clone()
        .map(|b| h.state().map().tiles().get(150, b))
        .collect();
    assert_eq!(kept, values);
    assert!(h.state().map_complete(), "complete without a second fill");
    assert_eq!(h.state().map().layer().auto_top(), top, "the same colour range");
}

#[test]
fn export_through_the_path_field_writes_the_figure_of_the_view() {
    let dir = temp_dir("export");
    let path = dir.join("figure.png");
    let mut h = harness();
    step_until(&mut h, "the map", |app| app.map_complete());
    h.state_mut().export_window_mut().show(true);
    settle(&mut h);
    h.state_mut().export_window_mut().set_path(&path);
    h.step();
    h.get_by_label("Export").click();
    let said = wait_for_notice(&mut h, "the figure");
    assert!(said.starts_with("exported"), "{said}");
    // the file is the figure of what the window shows: its pixels are those of the figure
    // drawn here from the same spec (the map's region, in the window's colours)
    let spec = h.state().export_spec().unwrap();
    let known = h.state().export_known(&spec);
    let want = make_figure_with(&spec, known.as_deref(), &Control::new()).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    let got = image::load_from_memory(&bytes).unwrap().into_rgba8();
    assert_eq!(got.dimensions(), (want.width(), want.height()));
    assert!(got == want.image(), "the written figure's pixels are the figure's");
    let chunks = nimscope_core::figure::png_out::read_text_chunks(&bytes).unwrap();
    let region = h.state().visible_region();
    let region = format!(
        "rows a in [{}, {}), columns b in [{}, {})",
        region.rows.start, region.rows.end, region.cols.start, region.cols.end
    );
    for (key, value) in [("nimscope.ruleset", "wythoff"), ("nimscope.region", region.as_str())] {
        assert!(chunks.iter().any(|(k, v)| k == key && v == value), "{key}: {chunks:?}");
    }
}

#[test]
fn export_offers_the_sessions_region_or_the_visible_one_and_never_rewrites_the_session() {
    use nimscope::ui::app::export::ExportRegion;
    let table1 =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("sessions/table1-wythoff-vs-nim-push-euclid.ron");
    let saved = Session::load(&table1).unwrap();
    let mut h = harness();
    h.step();
    h.state_mut().open_session(&table1).unwrap();
    h.step();
    // looking around changes neither the session's region nor what it exports by default
    h.state_mut().map_state_mut().camera.pan(-300.0, 200.0);
    h.step();
    let region = h.state().export_region();
    assert_eq!((region.rows, region.cols), (saved.rows.clone(), saved.cols.clone()));
    assert_eq!(
        (h.state().session().rows, h.state().session().cols),
        (saved.rows.clone(), saved.cols.clone())
    );
    h.state_mut()
        .export_window_mut()
        .set_region_choice(ExportRegion::Visible);
    assert_eq!(h.state().export_region(), h.state().visible_region());
    assert_ne!(h.state().export_region().rows, saved.rows);
    // choosing the visible region for the figure leaves the session's own region alone, in
    // the document and in the file
    h.step();
    assert_eq!(
        (h.state().session().rows, h.state().session().cols),
        (saved.rows.clone(), saved.cols.clone())
    );
    assert_eq!(Session::load(&table1).unwrap(), saved);
    // the window says which cells each choice is
    h.state_mut().export_window_mut().show(true);
    settle(&mut h);
    let said = format!(
        "the session's region: rows a in [{}, {})",
        saved.rows.start, saved.rows.end
    );
    assert!(h.query_by_label_contains(&said).is_some(), "{said}");
    assert!(h.query_by_label_contains("the visible region: rows a in").is_some());
}

/// The notice's text once a file job has answered.
fn wait_for_notice(h: &mut Harness<'static, App>, what: &str) -> String {
    step_until(h, what, |app| {
        app.notice()
            .as_ref()
            .is_some_and(|n| ["wrote", "exported", "failed"].iter().any(|w| n.text.contains(w)))
    });
    h.state().notice().unwrap().text.clone()
}

#[test]
fn the_visible_values_export_as_csv_in_the_format_of_grid() {
    let dir = temp_dir("csv");
    let path = dir.join("values.csv");
    let mut h = harness();
    h.step();
    let euclid = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("sessions/euclid-winning-pairs.ron");
    h.state_mut().open_session(&euclid).unwrap();
    settle(&mut h);
    h.get_by_label("File").click();
    settle(&mut h);
    h.get_by_label("Export visible values as CSV…").click();
    settle(&mut h);
    assert!(
        h.query_by_label("Export the visible values as CSV").is_some(),
        "its own prompt"
    );
    assert!(h.query_by_label("Browse…").is_some());
    h.state_mut()
        .files_mut()
        .pending_mut()
        .expect("the CSV prompt")
        .prompt
        .path = path.display().to_string();
    h.step();
    h.get_by_label("Export").click();
    let said = wait_for_notice(&mut h, "the CSV");
    let region = h.state().visible_region();
    assert!(said.starts_with("wrote the values of"), "{said}");
    // the bytes `nimscope grid` prints for the same cells
    let rows = format!("{}..{}", region.rows.start, region.rows.end);
    let cols = format!("{}..{}", region.cols.start, region.cols.end);
    let grid = crate::common::nimscope(&["grid", "euclid", "--rows", &rows, "--cols", &cols]);
    assert!(grid.status.success());
    let written = std::fs::read(&path).unwrap();
    assert_eq!(written, grid.stdout);
    // and the values are Euclid's: 0 exactly where the first player loses (seed 002)
    let text = String::from_utf8(written).unwrap();
    for (a, line) in region.rows.clone().zip(text.lines()) {
        for (b, field) in region.cols.clone().zip(line.split(',')) {
            if a > 0 && b > 0 {
                let p = field == "0";
                assert_eq!(
                    p,
                    !nimscope_core::game::theory::euclid_first_player_wins(a, b),
                    "({a}, {b})"
                );
            }
        }
    }
    // a file that cannot be written: a clear message, and the prompt stays for another try
    let bad = dir.join("no-such-folder").join("values.csv");
    h.state_mut().export_csv(&bad).unwrap();
    let said = wait_for_notice(&mut h, "the failed CSV");
    assert!(said.starts_with("CSV export failed: could not write"), "{said}");
    assert!(said.contains("no-such-folder"), "{said}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_figure_exported_as_svg_from_the_window_shows_the_sessions_region() {
    let dir = temp_dir("svg");
    let path = dir.join("figure.svg");
    let mut h = harness();
    h.step();
    let euclid = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("sessions/euclid-winning-pairs.ron");
    h.state_mut().open_session(&euclid).unwrap();
    h.state_mut().map_state_mut().camera.pan(-200.0, 100.0); // looking around
    settle(&mut h);
    h.state_mut().export_figure(&path).unwrap();
    let said = wait_for_notice(&mut h, "the SVG");
    assert!(said.starts_with("exported"), "{said}");
    let svg = std::fs::read_to_string(&path).unwrap();
    roxmltree::Document::parse(&svg).unwrap();
    assert!(
        svg.contains(
            r#"<nimscope:entry key="nimscope.region">rows a in [1, 30), columns b in [1, 30)</nimscope:entry>"#
        ),
        "the session's region, not the visible one"
    );
    // an extension that is no figure format is refused before any work
    let err = h.state_mut().export_figure(&dir.join("figure.jpg")).unwrap_err();
    assert!(err.contains(".svg"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
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

/// The pixels of a PNG file.
fn png_pixels(path: &std::path::Path) -> image::RgbaImage {
    image::open(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .to_rgba8()
}

/// Exports the window's figure of its session's region to `path`, waiting for the file.
fn export_from_window(h: &mut egui_kittest::Harness<'static, App>, path: &std::path::Path) {
    h.state_mut()
        .export_window_mut()
        .set_region_choice(ExportRegion::Session);
    h.state_mut().export_figure(path).unwrap();
    step_until(h, "the export", |a| {
        a.notice().is_some_and(|n| n.text.contains("exported"))
    });
}

/// Draws the figure of a saved session with `nimscope export` and compares it with the
/// window's, pixel by pixel.
fn assert_same_figure(window: &std::path::Path, session: &std::path::Path, dir: &std::path::Path) {
    let cli = dir.join("cli.png");
    let out = crate::common::nimscope(&["export", session.to_str().unwrap(), "-o", cli.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let (a, b) = (png_pixels(window), png_pixels(&cli));
    assert_eq!(a.dimensions(), b.dimensions());
    let differ = a.pixels().zip(b.pixels()).filter(|(x, y)| x != y).count();
    assert_eq!(
        differ, 0,
        "pixels differ between the window's figure and nimscope export's"
    );
}

/// `nimscope export` of sessions/zeruclid-figure2.ron topped its Grundy colours at 265, the
/// window at 255 (it counted what it showed, the command line the session's region): about
/// 609 k pixels and the legends differed. The window counts the session's region too, and its
/// figure (drawn from the map) is the command line's, pixel for pixel.
#[test]
fn the_window_and_the_command_line_draw_one_figure_of_a_session() {
    let dir = temp_dir("one-figure");
    let session = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("sessions/zeruclid-figure2.ron");
    let mut h = harness();
    h.step();
    h.state_mut().open_session(&session).unwrap();
    h.step();
    step_until(&mut h, "the map filled", App::map_complete);
    let saved = nimscope_core::session::Session::load(&session).unwrap();
    let region = CellRect::new(saved.rows.clone(), saved.cols.clone());
    assert_ne!(
        h.state().visible_region(),
        region,
        "the window shows another region than the session's"
    );
    assert_eq!(
        h.state().map().layer().auto_region(),
        Some(&region),
        "the top is the region's"
    );
    let window = dir.join("window.png");
    export_from_window(&mut h, &window);
    assert_same_figure(&window, &session, &dir);
}

/// A new session, zoomed out on Euclid: the automatic top of the first view (wider than the
/// region saved, at the window's aspect) is taken again over the region when the session is
/// saved, so the figure computed from every cell and `nimscope export` of the file agree (the
/// issue: 98 against 102 on Euclid 0..9000).
#[test]
fn a_saved_sessions_figure_is_the_windows() {
    let dir = temp_dir("saved-figure");
    let mut h = filled("euclid", CellRect::new(0..1500, 0..1500), Pooling::Least);
    // the view the top came from, then a pan before saving: the saved region is the view now
    let first = h.state().map().layer().auto_region().cloned().unwrap();
    h.state_mut()
        .map_state_mut()
        .show_region(CellRect::new(200..1400, 300..1700));
    h.step();
    step_until(&mut h, "the map filled", App::map_complete);
    let path = dir.join("euclid.ron");
    h.state_mut().save_session(&path).unwrap();
    let region = h.state().region().cloned().unwrap();
    assert_ne!(first, region);
    step_until(&mut h, "the colour range of the region saved", |a| {
        a.map().layer().auto_region() == Some(&region)
    });
    // zoomed out: every cell computed (blocks drawn from the map are the window's resolution)
    h.state_mut().export_window_mut().set_from_map(false);
    let window = dir.join("window.png");
    export_from_window(&mut h, &window);
    assert_same_figure(&window, &path, &dir);
}
