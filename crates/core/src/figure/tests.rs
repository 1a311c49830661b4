//! Figures checked against the solved values: Wythoff's pairs in the cells and the rings,
//! provenance, refusals before work, the least width, transparent backgrounds.

use super::frame::Frame;
use super::sequence::sequence_row_len;
use super::{Background, FigureError, FigureSpec, FigureStyle, MAX_MODULUS, MIN_CONTENT, Subject, make_figure};
use crate::game::prediction::Prediction;
use crate::game::{Layout, Ruleset};
use crate::raster::{ColorMode, CompareWith, Overlays};
use crate::solver::Control;
use crate::solver::grid::{self};
use image::RgbaImage;

/// A figure of bare cells, 10 pixels each for 30 columns: no axes, legend or title.
fn bare_style() -> FigureStyle {
    FigureStyle {
        width: 30 * 10 + 2 * 7,
        axes: false,
        legend: false,
        title: "-".into(),
        background: Background::White,
        ..FigureStyle::default()
    }
}

fn wythoff_spec(style: FigureStyle) -> FigureSpec {
    FigureSpec {
        ruleset: Ruleset::Wythoff,
        subject: Subject::Map {
            layout: Layout::Plain,
            rows: 0..20,
            cols: 0..30,
            compare: CompareWith::Nothing,
            overlays: Overlays::default(),
        },
        color: ColorMode::Outcome,
        style,
        scale: None,
    }
}

/// The colour at the centre of cell (a, b) of a map figure with no axes, legend or title.
fn cell_color(img: &RgbaImage, frame_left: u32, frame_top: u32, cell: f64, rows: u64, a: u64, b: u64) -> [u8; 4] {
    let x = frame_left as f64 + (b as f64 + 0.5) * cell;
    let y = frame_top as f64 + (rows as f64 - a as f64 - 0.5) * cell;
    img.get_pixel(x as u32, y as u32).0
}

#[test]
fn map_cells_show_the_wythoff_pairs() {
    let style = bare_style();
    let spec = wythoff_spec(style);
    let fig = make_figure(&spec, &Control::new()).unwrap();
    let image = fig.image();
    let frame = Frame::plan(&spec, 20, 30, "", None).unwrap();
    assert_eq!(frame.content_w, 300);
    assert_eq!(image.height(), frame.height);
    for a in 0..20u64 {
        for b in 0..30u64 {
            let expect_p = crate::game::theory::is_wythoff_p(a, b);
            let c = cell_color(&image, frame.left, frame.top, 10.0, 20, a, b);
            let want = if expect_p {
                crate::raster::colors::P_POSITION
            } else {
                crate::raster::colors::N_POSITION
            };
            assert_eq!(c, want, "({a}, {b})");
        }
    }
}

/// An outcome figure of Wythoff at 10¹² (no map could be filled there) shows the
/// P-positions of the closed form.
#[test]
fn wythoff_outcomes_far_from_the_origin() {
    let style = bare_style();
    let (a0, b0) = crate::game::theory::wythoff_pair(618_033_988_749);
    let (a0, b0) = (a0 - 10, b0 - 15);
    let mut spec = wythoff_spec(style);
    if let Subject::Map { rows, cols, .. } = &mut spec.subject {
        (*rows, *cols) = (a0..a0 + 20, b0..b0 + 30);
    }
    let image = make_figure(&spec, &Control::new()).unwrap().image();
    let frame = Frame::plan(&spec, 20, 30, "", None).unwrap();
    let mut p = 0;
    for a in 0..20u64 {
        for b in 0..30u64 {
            let expect_p = crate::game::theory::is_wythoff_p(a0 + a, b0 + b);
            p += u32::from(expect_p);
            let want = if expect_p {
                crate::raster::colors::P_POSITION
            } else {
                crate::raster::colors::N_POSITION
            };
            assert_eq!(
                cell_color(&image, frame.left, frame.top, 10.0, 20, a, b),
                want,
                "({a}, {b})"
            );
        }
    }
    assert!(p >= 5, "{p} P-positions in the figure");
}

/// A Nim figure by residues at 2^40, where the values pass 32 bits: each cell has the
/// colour of its exact value's residue (not of the top of the value scale's).
#[test]
fn residues_past_32_bits_are_exact() {
    let style = bare_style();
    let mut spec = wythoff_spec(style);
    spec.ruleset = Ruleset::Nim;
    spec.color = ColorMode::Modulo(3);
    let a0 = (1u64 << 40) + 17;
    if let Subject::Map { rows, cols, .. } = &mut spec.subject {
        (*rows, *cols) = (a0..a0 + 20, 0..30);
    }
    let image = make_figure(&spec, &Control::new()).unwrap().image();
    let frame = Frame::plan(&spec, 20, 30, "", None).unwrap();
    for a in 0..20u64 {
        for b in 0..30u64 {
            let want = crate::raster::color::residue_color((((a0 + a) ^ b) % 3) as u32, 3);
            assert_eq!(
                cell_color(&image, frame.left, frame.top, 10.0, 20, a, b),
                want,
                "({a}, {b})"
            );
        }
    }
}

#[test]
fn the_wythoff_overlay_rings_exactly_the_solved_p_positions() {
    let style = FigureStyle {
        width: 30 * 40 + 2 * 7,
        axes: false,
        legend: false,
        title: "-".into(),
        background: Background::White,
        ..FigureStyle::default()
    };
    let mut spec = wythoff_spec(style);
    let Subject::Map { overlays, .. } = &mut spec.subject else {
        unreachable!()
    };
    *overlays = Overlays {
        grid_lines: true,
        wythoff_pairs: true,
        ..Overlays::NONE
    };
    let fig = make_figure(&spec, &Control::new()).unwrap();
    let [left, top, w, _] = fig.content;
    let cell = f64::from(w) / 30.0;
    let frame = Frame::plan(&spec, 20, 30, "", None).unwrap();
    let radius = crate::raster::styles::WYTHOFF.ring_radius(cell, f64::from(frame.label_px) / 11.0);
    let image = fig.image();
    // the solver's values, not the closed form the overlay is drawn from
    let grid = grid::grid(&Ruleset::Wythoff, &Layout::Plain, 0..20, 0..30, &Control::new()).unwrap();
    let bluish = |c: [u8; 4]| c[2] as i32 > c[0] as i32 + 60;
    for a in 0..20u64 {
        for b in 0..30u64 {
            let x = f64::from(left) + (b as f64 + 0.5) * cell + radius;
            let y = f64::from(top) + (20.0 - a as f64 - 0.5) * cell;
            let ring = image.get_pixel(x as u32, y as u32).0;
            assert_eq!(bluish(ring), grid.get(a, b) == Some(0), "({a}, {b}): {ring:?}");
            let centre = image.get_pixel((x - radius) as u32, y as u32).0;
            assert!(
                !bluish(centre),
                "({a}, {b}): the ring leaves the cell's colour in its middle"
            );
        }
    }
}

#[test]
fn provenance_and_determinism() {
    let spec = wythoff_spec(FigureStyle::default());
    let a = make_figure(&spec, &Control::new()).unwrap();
    let b = make_figure(&spec, &Control::new()).unwrap();
    assert_eq!(a.image(), b.image());
    assert_eq!(a.svg(), b.svg());
    let keys: Vec<&str> = a.metadata.iter().map(|(k, _)| k.as_str()).collect();
    assert!(keys.contains(&"Title") && keys.contains(&"nimscope.region") && keys.contains(&"Software"));
    assert!(
        a.metadata
            .iter()
            .any(|(k, v)| k == "nimscope.ruleset" && v == "wythoff")
    );
    assert_eq!(a.image().width(), 1600);
}

#[test]
fn bad_requests_are_refused_before_any_work() {
    let mut spec = wythoff_spec(FigureStyle::default());
    spec.scale = Some(1000.0);
    assert!(matches!(
        make_figure(&spec, &Control::new()),
        Err(FigureError::TooLarge(..))
    ));
    for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        spec.scale = Some(bad);
        assert!(matches!(
            make_figure(&spec, &Control::new()),
            Err(FigureError::BadScale(_))
        ));
    }
    for huge in [1e18, 1e300, f64::MAX] {
        spec.scale = Some(huge);
        assert!(matches!(
            make_figure(&spec, &Control::new()),
            Err(FigureError::TooLarge(..))
        ));
    }
    // 30 columns at 0.0001 pixels each: refused, naming a scale that works
    spec.scale = Some(0.0001);
    let Err(FigureError::ScaleTooSmall { least, .. }) = make_figure(&spec, &Control::new()) else {
        panic!("a 0.003-pixel map was drawn")
    };
    spec.scale = Some(least);
    let fig = make_figure(&spec, &Control::new()).unwrap();
    assert!(fig.content[2] >= MIN_CONTENT);
    spec.scale = Some(least - 0.002);
    assert!(make_figure(&spec, &Control::new()).is_err());
    spec.color = ColorMode::Modulo(u32::MAX);
    spec.scale = None;
    assert!(matches!(
        make_figure(&spec, &Control::new()),
        Err(FigureError::Modulus(_))
    ));
    spec.scale = None;
    spec.color = ColorMode::Difference;
    assert!(matches!(
        make_figure(&spec, &Control::new()),
        Err(FigureError::NothingToCompare)
    ));
}

#[test]
fn the_least_width_stated_is_the_least_that_works() {
    let styles = [
        FigureStyle::default(),
        FigureStyle {
            axes: false,
            legend: false,
            title: "-".into(),
            ..FigureStyle::default()
        },
    ];
    for style in styles {
        for (rows, cols, color) in [
            (20u64, 30u64, ColorMode::Outcome),
            (1 << 40, 1 << 40, ColorMode::Difference),
            (3, 1, ColorMode::Modulo(MAX_MODULUS)),
        ] {
            let mut spec = wythoff_spec(style.clone());
            spec.color = color;
            spec.style.width = 1;
            let Err(FigureError::TooNarrow { least, .. }) = Frame::plan(&spec, rows, cols, "t", None) else {
                panic!("a width of 1 is too narrow")
            };
            let mut plan = |w: u32| {
                spec.style.width = w;
                Frame::plan(&spec, rows, cols, "t", None)
            };
            let ok = plan(least).unwrap();
            assert_eq!(ok.width, least);
            assert!(ok.content_w >= MIN_CONTENT);
            match plan(least - 1) {
                Err(FigureError::TooNarrow { least: again, .. }) => assert_eq!(again, least),
                other => panic!("{other:?}"),
            }
            for w in least..least + 400 {
                assert!(plan(w).is_ok(), "{w}");
            }
        }
    }
}

#[test]
fn transparent_background_and_difference_against_a_theorem() {
    let mut spec = wythoff_spec(FigureStyle {
        background: Background::Transparent,
        legend: false,
        ..FigureStyle::default()
    });
    spec.color = ColorMode::Difference;
    spec.subject = Subject::Map {
        layout: Layout::Plain,
        rows: 0..40,
        cols: 0..40,
        compare: CompareWith::Theorem(Prediction::WythoffPairs),
        overlays: Overlays::default(),
    };
    let fig = make_figure(&spec, &Control::new()).unwrap();
    assert_eq!(fig.image().get_pixel(0, 0).0[3], 0, "the corner is transparent");
    // Prop 3.1.3 holds, so no cell is marked as differing
    assert!(!fig.image().pixels().any(|p| p.0 == crate::raster::colors::DIFFER));
}

#[test]
fn sequence_rows_are_a_multiple_of_the_period() {
    let spec = FigureSpec {
        ruleset: "octal(0.07)".parse().unwrap(),
        subject: Subject::Sequence { n: 300 },
        color: ColorMode::Grundy(crate::raster::Palette::Viridis),
        style: FigureStyle::default(),
        scale: None,
    };
    let fig = make_figure(&spec, &Control::new()).unwrap();
    assert!(
        fig.metadata
            .iter()
            .any(|(k, v)| k == "Title" && v.contains("period 34 from n = 53"))
    );
    let seq = crate::solver::sequence::sequence(&spec.ruleset, 300, &Control::new()).unwrap();
    assert_eq!(sequence_row_len(&seq), 34);
}
