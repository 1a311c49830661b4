//! The exported map at a zoom where each pixel stands for several cells: it must darken
//! exactly the pixels that hold a P-position, checked against Wythoff's P-positions computed
//! here from their closed form (seed 003 Prop 3.1.3: (⌊kφ⌋, ⌊kφ²⌋) and mirror images), in
//! integers, apart from the solver and from `theory`. The figure says where its map lies
//! (`nimscope.map_px`), which is how the pixels are found.

use nimscope_core::figure::{Background, FigureSpec, FigureStyle, Subject, make_figure};
use nimscope_core::game::{Layout, Ruleset};
use nimscope_core::raster::{ColorMode, CompareWith, Overlays, colors};
use nimscope_core::solver::Control;

/// ⌊kφ⌋ = ⌊(k + √(5k²)) / 2⌋, exactly: √(5k²) is irrational for k > 0, so flooring the root
/// first changes nothing.
fn floor_k_phi(k: u64) -> u64 {
    (k + (5 * k * k).isqrt()) / 2
}

#[test]
fn a_wythoff_4096_figure_at_1024_px_darkens_exactly_the_pixels_holding_a_p_position() {
    const N: u64 = 4096;
    const PX: u64 = 1024;
    let spec = FigureSpec {
        ruleset: Ruleset::Wythoff,
        subject: Subject::Map {
            layout: Layout::Plain,
            rows: 0..N,
            cols: 0..N,
            compare: CompareWith::Nothing,
            overlays: Overlays::NONE,
        },
        color: ColorMode::Outcome,
        style: FigureStyle {
            axes: true,
            legend: true,
            title: String::new(),
            background: Background::White,
            ..FigureStyle::default()
        },
        scale: Some(PX as f64 / N as f64),
    };
    let fig = make_figure(&spec, &Control::new()).unwrap();
    let map_px = &fig.metadata.iter().find(|(k, _)| k == "nimscope.map_px").unwrap().1;
    let [left, top, width, height]: [u32; 4] = map_px
        .split(',')
        .map(|x| x.parse().unwrap())
        .collect::<Vec<_>>()
        .try_into()
        .unwrap();
    assert_eq!((width, height), (PX as u32, PX as u32));
    assert_eq!([left, top, width, height], fig.content);
    // the pixels holding a P-position: pixel (x, y) holds columns 4x.. and rows from the top
    let cells_per_px = N / PX;
    let mut dark = vec![false; (PX * PX) as usize];
    let mut hold = |a: u64, b: u64| {
        if a < N && b < N {
            let (x, y) = (b / cells_per_px, PX - 1 - a / cells_per_px);
            dark[(y * PX + x) as usize] = true;
        }
    };
    for k in 0.. {
        let a = floor_k_phi(k);
        if a >= N {
            break;
        }
        hold(a, a + k);
        hold(a + k, a);
    }
    let want = dark.iter().filter(|&&d| d).count();
    assert_eq!(want, 2440, "the pixels holding a P-position, by the closed form");
    let mut seen = 0;
    let image = fig.image();
    for y in 0..PX {
        for x in 0..PX {
            let px = image.get_pixel(left + x as u32, top + y as u32).0;
            let is_dark = dark[(y * PX + x) as usize];
            let expect = if is_dark {
                colors::P_POSITION
            } else {
                colors::N_POSITION
            };
            assert_eq!(px, expect, "pixel ({x}, {y})");
            seen += usize::from(px == colors::P_POSITION);
        }
    }
    assert_eq!(seen, want);
}
