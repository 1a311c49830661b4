//! The legend in a figure, as shapes (the window's painter is the other back end of
//! [`crate::raster::Legend`]). Sizes scale with the figure's text.

use super::shapes::{Dash, Element, Rect, Stroke, Text};
use super::text::{self, Anchor, Face};
use crate::raster::{Fill, Legend, LegendItem, OverlayStyle};

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
    // room for a reader's font a quarter wider than the figure's own: an SVG shown without
    // Ubuntu falls back to DejaVu Sans or Arial, which run wider
    (m.swatch.max(m.bar_w) + px * 0.6 + widest * 1.25, h)
}

/// Strokes of an overlay's style at `scale` (the figure's text size over the window's 11 pt).
pub(super) fn overlay_strokes(style: &OverlayStyle, scale: f64) -> (Stroke, Option<([u8; 4], f64)>) {
    let stroke = Stroke {
        color: style.color,
        width: f64::from(style.width) * scale,
        dash: style.dash.map(|[on, off]| Dash {
            on: f64::from(on) * scale,
            off: f64::from(off) * scale,
            offset: 0.0,
        }),
    };
    let casing = style.casing.map(|(c, reach)| (c, f64::from(reach) * scale));
    (stroke, casing)
}

/// A ring in an overlay's style: its casing, then its core.
pub(super) fn overlay_ring(centre: (f64, f64), radius: f64, style: &OverlayStyle, scale: f64) -> Vec<Element> {
    let (stroke, casing) = overlay_strokes(style, scale);
    let mut out = Vec::new();
    if let Some((color, extra)) = casing {
        out.push(Element::Circle {
            centre,
            radius,
            fill: None,
            stroke: Some(Stroke::solid(color, stroke.width + 2.0 * extra)),
        });
    }
    out.push(Element::Circle {
        centre,
        radius,
        fill: None,
        stroke: Some(Stroke { dash: None, ..stroke }),
    });
    out
}

/// `legend` as shapes, its top-left corner at (x, y).
pub(super) fn shapes(legend: &Legend, px: f32, x: f32, y: f32) -> Vec<Element> {
    let m = Metrics::new(px);
    let scale = f64::from(px) / 11.0;
    let text = |t: &str, face: Face, size: f32, at: (f32, f32)| {
        Element::Text(Text {
            at: (f64::from(at.0), f64::from(at.1)),
            text: t.to_string(),
            face,
            size,
            color: TEXT,
            anchor: Anchor::LeftCenter,
        })
    };
    let mut out = vec![text(&legend.title, Face::Proportional, px, (x, y + m.row / 2.0))];
    let mut y = y + m.row;
    let xf = f64::from(x);
    for item in &legend.items {
        let h = m.height(item);
        let (sx, sy) = (xf.round(), f64::from(y + (m.row - m.swatch) / 2.0).round());
        let s = f64::from(m.swatch);
        let centre = (f64::from(x + m.swatch / 2.0), f64::from(y + m.row / 2.0));
        let label_x = x + m.swatch.max(m.bar_w) + px * 0.6;
        let label = |t: &str| text(t, Face::Proportional, px, (label_x, y + m.row / 2.0));
        match item {
            LegendItem::Swatch { label: t, fill } => {
                let rect = Rect::new(sx, sy, sx + s, sy + s);
                out.push(match fill {
                    Fill::Solid(c) => Element::Fill { rect, color: *c },
                    Fill::Hatch => Element::Hatch(rect),
                });
                out.extend(Element::outline(sx, sy, sx + s, sy + s, 1.0, FRAME));
                out.push(label(t));
            }
            LegendItem::Bar {
                palette,
                min,
                max,
                ticks,
            } => {
                let (bx, by) = (xf.round(), f64::from(y + px * 0.5).round());
                let (bw, bh) = (f64::from(m.bar_w), f64::from(m.bar_h));
                // one band a pixel row, or a value when values are fewer than pixel rows
                let values = u64::from(max - min) + 1;
                let bands = (bh as u64).min(values).max(1);
                for k in 0..bands {
                    let (top, bottom) = (
                        by + (k as f64 * bh / bands as f64).round(),
                        by + ((k + 1) as f64 * bh / bands as f64).round(),
                    );
                    let t = if bands == values {
                        // band k (from the top) is value max − k
                        if *max == *min {
                            0.0
                        } else {
                            1.0 - k as f32 / (max - min) as f32
                        }
                    } else {
                        1.0 - (k as f32 + 0.5) / bands as f32
                    };
                    out.push(Element::Fill {
                        rect: Rect::new(bx, top, bx + bw, bottom),
                        color: palette.at(t),
                    });
                }
                out.extend(Element::outline(bx, by, bx + bw, by + bh, 1.0, FRAME));
                let span = f64::from((max - min).max(1));
                for &t in ticks {
                    // at the middle of the value's band when values are bands
                    let ty = if bands == values {
                        by + (f64::from(max - t) + 0.5) * bh / bands as f64
                    } else {
                        by + (1.0 - f64::from(t - min) / span) * (bh - 1.0)
                    };
                    let ty = ty.floor();
                    out.push(Element::Fill {
                        rect: Rect::new(bx + bw, ty, bx + bw + f64::from(px * 0.3).floor(), ty + 1.0),
                        color: FRAME,
                    });
                    out.push(text(
                        &t.to_string(),
                        Face::Monospace,
                        px * 0.9,
                        (label_x, ty as f32 + 0.5),
                    ));
                }
            }
            LegendItem::Line { label: t, style } => {
                let (stroke, casing) = overlay_strokes(style, scale);
                let (x0, x1) = (xf, f64::from(x + m.swatch));
                let rise = f64::from(m.swatch) * 0.4;
                out.extend(Element::cased_line(
                    (x0, centre.1 + rise),
                    (x1, centre.1 - rise),
                    stroke,
                    casing,
                ));
                out.push(label(t));
            }
            LegendItem::Ring { label: t, style } => {
                let r = f64::from(m.swatch) * f64::from(style.radius.max(0.2)) * 1.25;
                out.extend(overlay_ring(centre, r, style, scale));
                out.push(label(t));
            }
            LegendItem::Dot { label: t, color } => {
                out.push(Element::Circle {
                    centre,
                    radius: f64::from(m.swatch) * 0.4,
                    fill: Some(*color),
                    stroke: None,
                });
                out.push(label(t));
            }
            LegendItem::Outline { label: t, color } => {
                out.extend(Element::outline(sx, sy, sx + s, sy + s, 2.0, *color));
                out.push(label(t));
            }
            LegendItem::Note(t) => {
                out.push(text(t, Face::Proportional, px * 0.85, (x, y + m.row / 2.0)));
            }
        }
        y += h;
    }
    out
}
