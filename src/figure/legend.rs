//! The legend in a figure: the raster back end of [`crate::raster::Legend`] (the window's
//! painter is the other; an SVG one would be a third). Sizes scale with the figure's text.

use image::RgbaImage;

use super::overlay::{line, ring};
use super::text::{self, Anchor, Face, Ink};
use super::{fill_rect, rect_outline};
use crate::raster::{Fill, Legend, LegendItem, colors};

/// Colours of the legend's text and frames.
const TEXT: [u8; 4] = [30, 30, 36, 255];
const FRAME: [u8; 4] = [90, 90, 96, 255];

/// Sizes of a legend drawn with labels of `px` pixels.
struct Metrics {
    px: f32,
    row: f32,
    swatch: f32,
    bar_h: f32,
    bar_w: f32,
}

impl Metrics {
    fn new(px: f32) -> Self {
        Self {
            px,
            row: (px * 1.5).round(),
            swatch: (px * 0.9).round(),
            bar_h: (px * 9.0).round(),
            bar_w: (px * 1.1).round(),
        }
    }

    fn height(&self, item: &LegendItem) -> f32 {
        match item {
            LegendItem::Bar { .. } => self.bar_h + self.px,
            _ => self.row,
        }
    }
}

/// Width and height in pixels of `legend` with labels of `px` pixels.
pub(super) fn size(legend: &Legend, px: f32) -> (f32, f32) {
    let m = Metrics::new(px);
    let widest = legend
        .texts()
        .iter()
        .map(|t| text::measure(t, Face::Proportional, px).0)
        .fold(0.0f32, f32::max);
    let h = m.row + legend.items.iter().map(|i| m.height(i)).sum::<f32>();
    (m.swatch.max(m.bar_w) + px * 0.6 + widest, h)
}

/// Draws `legend` with its top-left corner at (x, y).
pub(super) fn draw(img: &mut RgbaImage, legend: &Legend, px: f32, x: f32, y: f32) {
    let m = Metrics::new(px);
    let ink = Ink::new(Face::Proportional, px, TEXT);
    text::draw(img, &legend.title, ink, x, y + m.row / 2.0, Anchor::LeftCenter);
    let mut y = y + m.row;
    let clip = [0.0, 0.0, img.width() as f64, img.height() as f64];
    for item in &legend.items {
        let h = m.height(item);
        let (sx, sy) = (x as i64, (y + (m.row - m.swatch) / 2.0) as i64);
        let s = m.swatch as i64;
        let centre = (f64::from(x + m.swatch / 2.0), f64::from(y + m.row / 2.0));
        let label_x = x + m.swatch.max(m.bar_w) + px * 0.6;
        let label =
            |img: &mut RgbaImage, t: &str| text::draw(img, t, ink, label_x, y + m.row / 2.0, Anchor::LeftCenter);
        match item {
            LegendItem::Swatch { label: t, fill } => {
                match fill {
                    Fill::Solid(c) => fill_rect(img, sx, sy, sx + s, sy + s, *c),
                    Fill::Hatch => hatch(img, sx, sy, s),
                }
                rect_outline(img, sx, sy, sx + s, sy + s, 1, FRAME);
                label(img, t);
            }
            LegendItem::Bar {
                palette,
                min,
                max,
                ticks,
            } => {
                let (bx, by) = (x as i64, (y + px * 0.5) as i64);
                let (bw, bh) = (m.bar_w as i64, m.bar_h as i64);
                for row in 0..bh {
                    let t = 1.0 - row as f32 / (bh - 1).max(1) as f32;
                    fill_rect(img, bx, by + row, bx + bw, by + row + 1, palette.at(t));
                }
                rect_outline(img, bx, by, bx + bw, by + bh, 1, FRAME);
                let span = (max - min).max(1) as f32;
                for &t in ticks {
                    let ty = by as f32 + (1.0 - (t - min) as f32 / span) * (bh - 1) as f32;
                    fill_rect(
                        img,
                        bx + bw,
                        ty as i64,
                        bx + bw + (px * 0.3) as i64,
                        ty as i64 + 1,
                        FRAME,
                    );
                    text::draw(
                        img,
                        &t.to_string(),
                        Ink::new(Face::Monospace, px * 0.9, TEXT),
                        label_x,
                        ty,
                        Anchor::LeftCenter,
                    );
                }
            }
            LegendItem::Line { label: t, color } => {
                let w = f64::from(px) * 0.15;
                let (x0, x1) = (f64::from(x), f64::from(x + m.swatch));
                line(
                    img,
                    clip,
                    (x0, centre.1 + w * 3.0),
                    (x1, centre.1 - w * 3.0),
                    w.max(1.5),
                    *color,
                );
                label(img, t);
            }
            LegendItem::Ring { label: t, color } => {
                ring(img, clip, centre, f64::from(m.swatch) * 0.4, 1.5, *color);
                label(img, t);
            }
            LegendItem::Dot { label: t, color } => {
                let r = (m.swatch * 0.4) as i64;
                let (cx, cy) = (centre.0 as i64, centre.1 as i64);
                for dy in -r..=r {
                    for dx in -r..=r {
                        if dx * dx + dy * dy <= r * r {
                            fill_rect(img, cx + dx, cy + dy, cx + dx + 1, cy + dy + 1, *color);
                        }
                    }
                }
                label(img, t);
            }
            LegendItem::Outline { label: t, color } => {
                rect_outline(img, sx, sy, sx + s, sy + s, 2, *color);
                label(img, t);
            }
            LegendItem::Note(t) => {
                text::draw(
                    img,
                    t,
                    Ink::new(Face::Proportional, px * 0.85, TEXT),
                    x,
                    y + m.row / 2.0,
                    Anchor::LeftCenter,
                );
            }
        }
        y += h;
    }
}

/// The hatch of cells not computed yet, in a square of side `s`.
fn hatch(img: &mut RgbaImage, x: i64, y: i64, s: i64) {
    fill_rect(img, x, y, x + s, y + s, colors::HATCH_BACK);
    for d in 0..s {
        for k in 0..s {
            if (d + k) % 6 < 2 {
                fill_rect(img, x + d, y + k, x + d + 1, y + k + 1, colors::HATCH_LINE);
            }
        }
    }
}
