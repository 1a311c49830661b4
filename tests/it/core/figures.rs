//! Figures for papers: the SVG and the PNG are drawn from one list of shapes, so what the SVG
//! holds (its rectangles, texts, provenance) is read back with a real XML parser and compared
//! with the shapes and with the PNG's pixels; Wythoff's P-cells read back from the SVG equal
//! the closed form; every example session exports to both, byte for byte the same each time;
//! and every legend lists exactly what its figure draws.

use std::collections::{BTreeSet, HashSet};
use std::path::Path;

use nimscope_core::figure::png_out::read_text_chunks;
use nimscope_core::figure::shapes::Element;
use nimscope_core::figure::svg::{METADATA_NS, hex};
use nimscope_core::figure::{Figure, FigureSpec, FigureStyle, Format, Subject, board, make_figure};
use nimscope_core::game::{Layout, Ruleset, theory};
use nimscope_core::raster::{ColorMode, CompareWith, Overlays, colors};
use nimscope_core::session::Session;
use nimscope_core::solver::Control;

const EXAMPLES: [&str; 4] = [
    "euclid-winning-pairs.ron",
    "zeruclid-figure2.ron",
    "table1-wythoff-vs-nim-push-euclid.ron",
    "push-cram-3x7.ron",
];

use crate::common::{example, temp_dir};

fn example_figure(name: &str) -> Figure {
    let s = Session::load(&example(name)).unwrap();
    make_figure(&s.figure_spec(s.figure.clone(), None).unwrap(), &Control::new()).unwrap()
}

fn wythoff(rows: u64, cols: u64, width: u32) -> Figure {
    let spec = FigureSpec {
        ruleset: Ruleset::Wythoff,
        subject: Subject::Map {
            layout: Layout::Plain,
            rows: 0..rows,
            cols: 0..cols,
            compare: CompareWith::Nothing,
            overlays: Overlays::default(),
        },
        color: ColorMode::Outcome,
        style: FigureStyle {
            width,
            ..FigureStyle::default()
        },
        scale: None,
    };
    make_figure(&spec, &Control::new()).unwrap()
}

fn number(s: &str) -> f64 {
    s.parse().unwrap_or_else(|_| panic!("not a number: {s}"))
}

/// A rectangle of one colour read from the SVG's cells: in blocks, and its fill.
#[derive(Debug, Clone, PartialEq)]
struct SvgRun {
    x: u64,
    y: u64,
    w: u64,
    h: u64,
    fill: String,
}

/// The cells group of the SVG: its transform's translation and scale, its size in blocks, and
/// its rectangles.
struct SvgCells {
    origin: (f64, f64),
    block: (f64, f64),
    cols: u64,
    rows: u64,
    runs: Vec<SvgRun>,
}

fn svg_cells(doc: &roxmltree::Document) -> SvgCells {
    let g = doc
        .descendants()
        .find(|n| n.has_tag_name("g") && n.attribute("class") == Some("cells"))
        .expect("a cells group");
    let t = g.attribute("transform").unwrap();
    // translate(x y) scale(sx sy)
    let nums: Vec<f64> = t
        .replace(['(', ')'], " ")
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    assert_eq!(nums.len(), 4, "{t}");
    let mut runs = Vec::new();
    for group in g.children().filter(|n| n.has_tag_name("g")) {
        let fill = group.attribute("fill").unwrap().to_string();
        for r in group.children().filter(|n| n.has_tag_name("rect")) {
            let at = |k: &str| number(r.attribute(k).unwrap()) as u64;
            runs.push(SvgRun {
                x: at("x"),
                y: at("y"),
                w: at("width"),
                h: at("height"),
                fill: fill.clone(),
            });
        }
    }
    SvgCells {
        origin: (nums[0], nums[1]),
        block: (nums[2], nums[3]),
        cols: number(g.attribute("data-cols").unwrap()) as u64,
        rows: number(g.attribute("data-rows").unwrap()) as u64,
        runs,
    }
}

/// The blocks (column, row from the top) of the SVG's cells whose fill is `color`.
fn blocks_of(cells: &SvgCells, color: [u8; 4]) -> BTreeSet<(u64, u64)> {
    let want = hex(color);
    let mut out = BTreeSet::new();
    for r in cells.runs.iter().filter(|r| r.fill == want) {
        for y in r.y..r.y + r.h {
            for x in r.x..r.x + r.w {
                assert!(out.insert((x, y)), "block ({x}, {y}) is in two rectangles");
            }
        }
    }
    out
}

#[test]
fn wythoffs_p_cells_read_back_from_the_svg_are_the_closed_forms() {
    let (rows, cols) = (40u64, 60u64);
    let fig = wythoff(rows, cols, 1000);
    let svg = fig.svg();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let cells = svg_cells(&doc);
    assert_eq!((cells.cols, cells.rows), (cols, rows), "one block a cell");
    let p: BTreeSet<(u64, u64)> = blocks_of(&cells, colors::P_POSITION)
        .into_iter()
        .map(|(x, y)| (rows - 1 - y, x)) // (a, b): rows grow upwards
        .collect();
    let want: BTreeSet<(u64, u64)> = (0..rows)
        .flat_map(|a| (0..cols).map(move |b| (a, b)))
        .filter(|&(a, b)| theory::is_wythoff_p(a, b))
        .collect();
    assert_eq!(p, want);
    // every cell is in exactly one rectangle, P or N
    let n = blocks_of(&cells, colors::N_POSITION);
    assert_eq!(p.len() + n.len(), (rows * cols) as usize);
    // where the SVG says its map is, the figure's provenance says too
    let [left, top, w, h] = fig.content;
    assert_eq!(cells.origin, (f64::from(left), f64::from(top)));
    assert!((cells.block.0 * cols as f64 - f64::from(w)).abs() < 0.01);
    assert!((cells.block.1 * rows as f64 - f64::from(h)).abs() < 0.01);
}

#[test]
fn a_pooled_svg_darkens_the_pixels_the_png_darkens_and_no_others() {
    // 2000 cells on 500 pixels: each block is a pixel holding 4 × 4 cells
    let fig = wythoff(2000, 2000, 700);
    let [left, top, w, h] = fig.content;
    let doc_text = fig.svg();
    let doc = roxmltree::Document::parse(&doc_text).unwrap();
    let cells = svg_cells(&doc);
    assert_eq!((cells.cols, cells.rows), (u64::from(w), u64::from(h)));
    assert_eq!(cells.block, (1.0, 1.0));
    let image = fig.image();
    let png_dark: BTreeSet<(u64, u64)> = (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .filter(|&(x, y)| image.get_pixel(left + x, top + y).0 == colors::P_POSITION)
        .map(|(x, y)| (u64::from(x), u64::from(y)))
        .collect();
    let svg_dark = blocks_of(&cells, colors::P_POSITION);
    assert!(!svg_dark.is_empty());
    assert_eq!(svg_dark, png_dark);
}

#[test]
fn the_svg_holds_the_shapes_and_the_pngs_provenance() {
    for name in EXAMPLES {
        let fig = example_figure(name);
        let svg = fig.svg();
        let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{name}: {e}"));
        let root = doc.root_element();
        assert_eq!(root.attribute("width"), Some(fig.width().to_string().as_str()));
        assert_eq!(root.attribute("height"), Some(fig.height().to_string().as_str()));
        // the texts, in drawing order, are the drawing's texts: real text, not outlines
        let texts: Vec<String> = doc
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .map(|n| n.text().unwrap_or("").to_string())
            .collect();
        let want: Vec<String> = Element::flatten(&fig.drawing.shapes)
            .into_iter()
            .filter_map(|s| match s {
                Element::Text(t) => Some(t.text.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(texts, want, "{name}");
        assert!(!texts.is_empty());
        // the cells are the merged runs, one <rect> each
        if let Some(Element::Cells(c)) = Element::find_group(&fig.drawing.shapes, "map").and_then(|g| g.first()) {
            assert_eq!(svg_cells(&doc).runs.len(), c.runs().len(), "{name}");
        }
        // the provenance, entry for entry as in the PNG's text chunks
        let entries: Vec<(String, String)> = doc
            .descendants()
            .filter(|n| n.tag_name().name() == "entry" && n.tag_name().namespace() == Some(METADATA_NS))
            .map(|n| {
                (
                    n.attribute("key").unwrap().to_string(),
                    n.text().unwrap_or("").to_string(),
                )
            })
            .collect();
        let png = fig.encode(Format::Png).unwrap();
        assert_eq!(entries, read_text_chunks(&png).unwrap(), "{name}");
        assert!(entries.iter().any(|(k, _)| k == "nimscope.ruleset"));
    }
}

#[test]
fn every_example_exports_to_svg_and_png_the_same_bytes_each_time() {
    let dir = temp_dir("examples");
    for name in EXAMPLES {
        for ext in ["png", "svg"] {
            let out = dir.join(format!("{name}.{ext}"));
            let run = || {
                let o = std::process::Command::new(env!("CARGO_BIN_EXE_nimscope"))
                    .args(["export", example(name).to_str().unwrap(), "-o", out.to_str().unwrap()])
                    .output()
                    .unwrap();
                assert!(o.status.success(), "{name}: {}", String::from_utf8_lossy(&o.stderr));
                std::fs::read(&out).unwrap()
            };
            let (a, b) = (run(), run());
            assert_eq!(a, b, "{name}.{ext}: two exports, two different files");
            match ext {
                "png" => assert!(a.starts_with(b"\x89PNG")),
                _ => {
                    let text = String::from_utf8(a).unwrap();
                    roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
                }
            }
        }
    }
}

#[test]
fn a_200_by_200_map_in_svg_stays_under_a_few_megabytes() {
    // the example with the most colours: Zeruclid's Grundy values over 200 × 200 cells
    let fig = example_figure("zeruclid-figure2.ron");
    let Some(Element::Cells(c)) = Element::find_group(&fig.drawing.shapes, "map").and_then(|g| g.first()) else {
        panic!("a map")
    };
    assert_eq!((c.cols, c.rows), (200, 200));
    let bytes = fig.svg().len();
    assert!(bytes < 3_000_000, "{bytes} bytes");
    // where colours repeat, merging runs pays: Wythoff's outcomes over 200 × 200 cells
    let fig = wythoff(200, 200, 1400);
    let Some(Element::Cells(c)) = Element::find_group(&fig.drawing.shapes, "map").and_then(|g| g.first()) else {
        panic!("a map")
    };
    assert!(c.runs().len() < 200 * 200 / 20, "{} runs", c.runs().len());
    assert!(fig.svg().len() < 200_000, "{} bytes", fig.svg().len());
}

/// The colours of the shapes in a group: fills (of rectangles and cells) and strokes.
fn group_colors(fig: &Figure, group: &str) -> (HashSet<[u8; 4]>, HashSet<[u8; 4]>) {
    let mut fills = HashSet::new();
    let mut strokes = HashSet::new();
    for s in Element::flatten(Element::find_group(&fig.drawing.shapes, group).unwrap_or(&[])) {
        match s {
            Element::Fill { color, .. } => {
                fills.insert(*color);
            }
            Element::Cells(c) => fills.extend(c.colors.iter().copied().filter(|c| c[3] > 0)),
            Element::Line { stroke, .. } => {
                strokes.insert(stroke.color);
            }
            Element::Circle { stroke, fill, .. } => {
                strokes.extend(stroke.map(|s| s.color));
                fills.extend(*fill);
            }
            _ => {}
        }
    }
    (fills, strokes)
}

fn legend_texts(fig: &Figure) -> Vec<String> {
    Element::flatten(Element::find_group(&fig.drawing.shapes, "legend").unwrap_or(&[]))
        .into_iter()
        .filter_map(|s| match s {
            Element::Text(t) => Some(t.text.clone()),
            _ => None,
        })
        .collect()
}

/// The legend's frames are drawn in this grey, which no cell has.
const LEGEND_FRAME: [u8; 4] = [90, 90, 96, 255];

#[test]
fn every_legend_lists_what_its_figure_draws_and_nothing_else() {
    for name in EXAMPLES {
        let fig = example_figure(name);
        let s = Session::load(&example(name)).unwrap();
        let (mut legend_fills, legend_strokes) = group_colors(&fig, "legend");
        legend_fills.remove(&LEGEND_FRAME);
        let (_, mut overlay_strokes) = group_colors(&fig, "overlays");
        overlay_strokes.remove(&colors::OVERLAY_GRID); // the cells' borders explain themselves
        // one entry per overlay drawn (its core and casing), none for one not drawn
        assert_eq!(legend_strokes, overlay_strokes, "{name}: the overlays' entries");
        let texts = legend_texts(&fig).join(" | ");
        match s.color {
            ColorMode::Grundy(_) => assert!(texts.contains("Grundy value G"), "{name}: {texts}"),
            _ if Element::find_group(&fig.drawing.shapes, "map").is_some() => {
                // a swatch for each colour of the cells, and none for a colour not there
                let (cells, _) = group_colors(&fig, "map");
                assert_eq!(legend_fills, cells, "{name}: {texts}");
            }
            _ => {}
        }
    }
}

#[test]
fn the_push_cram_figure_names_its_board_shows_the_push_and_lists_only_what_is_on_it() {
    let fig = example_figure("push-cram-3x7.ron");
    let title = &fig.metadata.iter().find(|(k, _)| k == "Title").unwrap().1;
    assert!(
        title.starts_with("Push Cram on a 3×7 board, before the push"),
        "{title}"
    );
    let texts = legend_texts(&fig).join(" | ");
    // an empty board: no domino, no blocked cell; every vertical domino wins, the push loses
    for absent in ["domino placed", "blocked cell", "losing placement"] {
        assert!(!texts.contains(absent), "{absent} in {texts}");
    }
    for present in ["winning placement", "the push: leaves G = 1, loses", "empty cell"] {
        assert!(texts.contains(present), "{present} not in {texts}");
    }
    let (board_fills, _) = group_colors(&fig, "board");
    let (mut legend_fills, _) = group_colors(&fig, "legend");
    legend_fills.remove(&LEGEND_FRAME);
    assert!(legend_fills.is_subset(&board_fills), "an entry for something not drawn");
    let drawn: HashSet<[u8; 4]> = board_fills
        .into_iter()
        .filter(|c| {
            ![
                board::colors::BACKGROUND,
                board::colors::GRID,
                board::colors::WINNING_EDGE,
                board::colors::DOMINO_EDGE,
            ]
            .contains(c)
        })
        .collect();
    assert!(drawn.is_subset(&legend_fills), "a colour drawn without an entry");
    // the push is drawn, with what it leaves: the three rows are 0.07 heaps of 7, G = 1 each
    let all: Vec<String> = Element::flatten(&fig.drawing.shapes)
        .into_iter()
        .filter_map(|s| match s {
            Element::Text(t) => Some(t.text.clone()),
            _ => None,
        })
        .collect();
    assert!(all.iter().any(|t| t == "push: leaves G = 1 (rows 1, 1, 1)"), "{all:?}");
}

#[test]
fn the_euclid_legend_says_who_loses_and_the_dark_cells_are_those() {
    let fig = example_figure("euclid-winning-pairs.ron");
    let texts = legend_texts(&fig);
    assert!(texts.iter().any(|t| t == "P: the player to move loses"), "{texts:?}");
    assert!(texts.iter().any(|t| t == "N: the player to move wins"), "{texts:?}");
    let doc_text = fig.svg();
    let doc = roxmltree::Document::parse(&doc_text).unwrap();
    let cells = svg_cells(&doc);
    let s = Session::load(&example("euclid-winning-pairs.ron")).unwrap();
    let top = s.rows.end - 1;
    for (x, y) in blocks_of(&cells, colors::P_POSITION) {
        let (a, b) = (top - y, s.cols.start + x);
        assert!(
            !theory::euclid_first_player_wins(a, b),
            "({a}, {b}) is dark but a first-player win"
        );
    }
}

#[test]
fn export_picks_the_format_by_extension_or_format_and_refuses_others() {
    let dir = temp_dir("formats");
    let session = example("table1-wythoff-vs-nim-push-euclid.ron");
    let run = |out: &Path, extra: &[&str]| {
        let mut args = vec!["export", session.to_str().unwrap(), "-o", out.to_str().unwrap()];
        args.extend(extra);
        std::process::Command::new(env!("CARGO_BIN_EXE_nimscope"))
            .args(&args)
            .output()
            .unwrap()
    };
    let svg = dir.join("t.SVG");
    assert!(run(&svg, &[]).status.success());
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
    let forced = dir.join("t.png");
    assert!(run(&forced, &["--format", "svg"]).status.success());
    assert!(std::fs::read_to_string(&forced).unwrap().contains("<svg"));
    let jpg = dir.join("t.jpg");
    let o = run(&jpg, &[]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.starts_with("error: ") && err.contains("t.jpg") && err.contains(".svg"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1);
    assert!(!jpg.exists());
}

#[test]
fn an_svg_over_the_memory_budget_is_refused_before_it_is_written() {
    let dir = temp_dir("budget");
    let fig = example_figure("zeruclid-figure2.ron");
    let (svg, png) = (dir.join("z.svg"), dir.join("z.png"));
    let tight = Control::with_budget(1 << 20); // the SVG's 39 000 rectangles need about 2 MB
    let err = nimscope_core::figure::write_figure(&fig, &svg, &tight)
        .unwrap_err()
        .to_string();
    assert!(err.contains("SVG"), "{err}");
    assert!(!svg.exists());
    nimscope_core::figure::write_figure(&fig, &svg, &Control::new()).unwrap();
    nimscope_core::figure::write_figure(&fig, &png, &tight).unwrap();
}
