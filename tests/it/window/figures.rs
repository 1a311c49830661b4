//! The figures of sessions: the examples' pictures agree with the papers' statements (closed
//! forms written independently of the solver), the command line's export is byte-identical run
//! to run and carries its provenance, figures reach 8192 pixels a side, and export errors are
//! one line that leaves nothing behind.

use nimscope_core::figure::png_out::read_text_chunks;
use nimscope_core::figure::{Figure, FigureStyle, make_figure};
use nimscope_core::game::theory;
use nimscope_core::raster::{Overlays, colors};
use nimscope_core::session::Session;
use nimscope_core::solver::Control;

use crate::common::{example, nimscope, temp_dir};

/// A figure and its pixels.
pub(super) struct Bare {
    fig: Figure,
    image: image::RgbaImage,
}

impl std::ops::Deref for Bare {
    type Target = Figure;
    fn deref(&self) -> &Figure {
        &self.fig
    }
}

/// A figure of the session without axes, legend, title or overlays, so cells are easy to find.
pub(super) fn bare_figure(s: &Session) -> Bare {
    let s = Session {
        overlays: Overlays::NONE,
        ..s.clone()
    };
    let style = FigureStyle {
        width: 600,
        axes: false,
        legend: false,
        title: "-".into(),
        ..FigureStyle::default()
    };
    let fig = make_figure(&s.figure_spec(style, None).unwrap(), &Control::new()).unwrap();
    let image = fig.image();
    Bare { fig, image }
}

/// The colour at the centre of cell (a, b) of a map figure of `s`.
pub(super) fn cell_color(fig: &Bare, s: &Session, a: u64, b: u64) -> [u8; 4] {
    let [left, top, w, h] = fig.content;
    let (nr, nc) = ((s.rows.end - s.rows.start) as f64, (s.cols.end - s.cols.start) as f64);
    let x = left as f64 + ((b - s.cols.start) as f64 + 0.5) * w as f64 / nc;
    let y = top as f64 + h as f64 - ((a - s.rows.start) as f64 + 0.5) * h as f64 / nr;
    fig.image.get_pixel(x as u32, y as u32).0
}

#[test]
fn seed_002_diagram_shows_euclids_winning_pairs() {
    let s = Session::load(&example("euclid-winning-pairs.ron")).unwrap();
    let fig = bare_figure(&s);
    for a in s.rows.clone() {
        for b in s.cols.clone() {
            let want = if theory::euclid_first_player_wins(a, b) {
                colors::N_POSITION
            } else {
                colors::P_POSITION
            };
            assert_eq!(cell_color(&fig, &s, a, b), want, "({a}, {b})");
        }
    }
}

#[test]
fn table_1_difference_map_matches_the_two_closed_forms() {
    let s = Session::load(&example("table1-wythoff-vs-nim-push-euclid.ron")).unwrap();
    let fig = bare_figure(&s);
    for a in s.rows.clone() {
        for b in s.cols.clone() {
            let (w, e) = (theory::is_wythoff_p(a, b), theory::nim_push_euclid_p_thm316(a, b));
            let want = match (w, e) {
                (true, true) => colors::BOTH_P,
                (false, false) => colors::N_POSITION,
                _ => colors::DIFFER,
            };
            assert_eq!(cell_color(&fig, &s, a, b), want, "({a}, {b})");
        }
    }
    // the pairs Table 1 prints in both rows are the dark cells
    for (a, b) in theory::TABLE_1_NIM_PUSH_EUCLID {
        if theory::TABLE_1_WYTHOFF.contains(&(a, b)) {
            assert_eq!(cell_color(&fig, &s, a, b), colors::BOTH_P);
            assert_eq!(cell_color(&fig, &s, b, a), colors::BOTH_P);
        }
    }
}

#[test]
fn command_line_export_is_deterministic_and_carries_provenance() {
    let dir = temp_dir("cli-export");
    let session = example("zeruclid-figure2.ron");
    let (a, b) = (dir.join("a.png"), dir.join("b.png"));
    for out in [&a, &b] {
        let o = nimscope(&[
            "export",
            session.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--width",
            "900",
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let bytes = std::fs::read(&a).unwrap();
    assert_eq!(bytes, std::fs::read(&b).unwrap(), "two runs, the same bytes");
    let text = read_text_chunks(&bytes).unwrap();
    let get = |k: &str| text.iter().find(|(key, _)| key == k).map(|(_, v)| v.as_str());
    assert_eq!(get("nimscope.ruleset"), Some("zeruclid"));
    assert_eq!(get("nimscope.layout"), Some("1,_,_"));
    assert_eq!(
        get("nimscope.region"),
        Some("rows a in [0, 200), columns b in [0, 200)")
    );
    assert!(get("Software").unwrap().contains(nimscope_core::GIT_COMMIT));
    let img = image::load_from_memory(&bytes).unwrap();
    assert_eq!(img.width(), 900);
    // a transparent figure at a scale of 2 pixels per cell
    let o = nimscope(&[
        "export",
        example("table1-wythoff-vs-nim-push-euclid.ron").to_str().unwrap(),
        "-o",
        a.to_str().unwrap(),
        "--scale",
        "2",
        "--transparent",
        "--no-legend",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let img = image::open(&a).unwrap().to_rgba8();
    assert_eq!(img.get_pixel(0, 0).0[3], 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn large_figures_reach_8192_pixels_a_side() {
    let dir = temp_dir("large");
    let out = dir.join("big.png");
    let o = nimscope(&[
        "export",
        example("euclid-winning-pairs.ron").to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--width",
        "8192",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let img = image::open(&out).unwrap();
    assert_eq!(img.width(), 8192);
    assert!(img.height() > 7000);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn export_errors_are_one_line_and_leave_nothing_behind() {
    let dir = temp_dir("errors");
    let bad = dir.join("bad.ron");
    std::fs::write(&bad, "Session(ruleset: \"nim\",\n ruleset: 3)").unwrap();
    let o = nimscope(&[
        "export",
        bad.to_str().unwrap(),
        "-o",
        dir.join("x.png").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.starts_with("error: ") && err.contains("bad.ron, line 2") && err.lines().count() == 1,
        "{err}"
    );
    let missing_dir = dir.join("no-such-folder").join("x.png");
    let o = nimscope(&[
        "export",
        example("euclid-winning-pairs.ron").to_str().unwrap(),
        "-o",
        missing_dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("could not write"), "{err}");
    let o = nimscope(&[
        "export",
        example("euclid-winning-pairs.ron").to_str().unwrap(),
        "-o",
        dir.join("y.png").to_str().unwrap(),
        "--width",
        "20000",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("too large"));
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["bad.ron"], "no partial or temporary files");
    std::fs::remove_dir_all(&dir).unwrap();
}
