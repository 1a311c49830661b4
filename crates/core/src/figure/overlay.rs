//! The map's overlays in a figure: the same shapes the window draws
//! ([`crate::raster::Overlays::shapes`]) in the same styles, as figure shapes: grid lines
//! first, then the φ lines, then the rings, so no line covers a ring. Lines are cut to the map
//! here (a dashed line keeps its pattern's phase), so neither back end draws far outside it.

use std::ops::Range;

use super::legend::{overlay_ring, overlay_strokes};
use super::shapes::{Element, Rect, Stroke};
use crate::raster::{GRID_LINES_MIN_CELL_PX, Overlays, colors};

/// Where the map lies in the picture, and how cells map to pixels.
pub(super) struct MapArea {
    /// The map's edges in pixels.
    pub clip: Rect,
    pub rows: Range<u64>,
    pub cols: Range<u64>,
    pub pixels_per_cell: f64,
    /// Widths of lines and rings grow with the picture's text, so a figure scaled down onto a
    /// slide shows them as the window does.
    pub stroke_scale: f64,
}

impl MapArea {
    /// The pixel position of the point (b, a) in cell coordinates.
    fn to_pixel(&self, b: f64, a: f64) -> (f64, f64) {
        (
            self.clip.x0 + (b - self.cols.start as f64) * self.pixels_per_cell,
            self.clip.y1 - (a - self.rows.start as f64) * self.pixels_per_cell,
        )
    }
}

/// A point in pixels.
type Point = (f64, f64);

/// The part of segment p–q inside `clip` (Liang–Barsky) and how far along the segment it
/// starts, or `None` when none of it is inside.
fn cut(p: Point, q: Point, clip: Rect) -> Option<(Point, Point, f64)> {
    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (along, room) in [
        (-dx, p.0 - clip.x0),
        (dx, clip.x1 - p.0),
        (-dy, p.1 - clip.y0),
        (dy, clip.y1 - p.1),
    ] {
        if along == 0.0 {
            if room < 0.0 {
                return None;
            }
        } else if along < 0.0 {
            t0 = t0.max(room / along);
        } else {
            t1 = t1.min(room / along);
        }
    }
    (t0 < t1).then(|| {
        (
            (p.0 + t0 * dx, p.1 + t0 * dy),
            (p.0 + t1 * dx, p.1 + t1 * dy),
            t0 * dx.hypot(dy),
        )
    })
}

/// The shapes of `overlays` over the map of `area` (to be clipped to the map).
pub(super) fn overlay_shapes(area: &MapArea, overlays: &Overlays) -> Vec<Element> {
    let mut out = Vec::new();
    let clip = area.clip;
    if overlays.grid_lines && area.pixels_per_cell >= GRID_LINES_MIN_CELL_PX {
        let grid = Stroke::solid(colors::OVERLAY_GRID, 1.0);
        for b in area.cols.clone().skip(1) {
            let (x, _) = area.to_pixel(b as f64, 0.0);
            out.push(Element::Line {
                from: (x, clip.y0),
                to: (x, clip.y1),
                stroke: grid,
            });
        }
        for a in area.rows.clone().skip(1) {
            let (_, y) = area.to_pixel(0.0, a as f64);
            out.push(Element::Line {
                from: (clip.x0, y),
                to: (clip.x1, y),
                stroke: grid,
            });
        }
    }
    let shapes = overlays.shapes_within(
        area.rows.start as f64,
        area.cols.start as f64,
        area.cols.end as f64,
        area.rows.end as f64,
    );
    for ([from, to], style) in &shapes.lines {
        let (mut stroke, casing) = overlay_strokes(style, area.stroke_scale);
        let reach = stroke.width + casing.map_or(0.0, |(_, w)| 2.0 * w);
        let room = Rect::new(clip.x0 - reach, clip.y0 - reach, clip.x1 + reach, clip.y1 + reach);
        let Some((p, q, skipped)) = cut(area.to_pixel(from.b, from.a), area.to_pixel(to.b, to.a), room) else {
            continue;
        };
        if let Some(d) = &mut stroke.dash {
            d.offset = skipped.rem_euclid(d.on + d.off);
        }
        out.extend(Element::cased_line(p, q, stroke, casing));
    }
    for (centre, style) in &shapes.marks {
        let (x, y) = area.to_pixel(centre.b, centre.a);
        if (clip.x0..clip.x1).contains(&x) && (clip.y0..clip.y1).contains(&y) {
            let radius = style.ring_radius(area.pixels_per_cell, area.stroke_scale);
            out.extend(overlay_ring((x, y), radius, style, area.stroke_scale));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cutting_keeps_the_part_inside_and_says_how_far_it_starts() {
        let clip = Rect::new(0.0, 0.0, 10.0, 10.0);
        let (p, q, skipped) = cut((-10.0, 5.0), (20.0, 5.0), clip).unwrap();
        assert_eq!((p, q, skipped), ((0.0, 5.0), (10.0, 5.0), 10.0));
        assert!(cut((-10.0, 15.0), (20.0, 15.0), clip).is_none());
    }
}
