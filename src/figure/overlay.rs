//! The map's overlays in a figure: the same shapes the window draws
//! ([`crate::raster::Overlays::shapes`]), rasterised here with anti-aliased edges and clipped
//! to the map.

use std::ops::Range;

use image::RgbaImage;

use super::text::blend;
use crate::raster::{GRID_LINES_MIN_CELL_PX, Overlays, colors};

/// Where the map lies in the picture, and how cells map to pixels.
pub(super) struct MapArea {
    /// Left, top, right, bottom edges of the map in pixels.
    pub clip: [f64; 4],
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
        let [left, _, _, bottom] = self.clip;
        (
            left + (b - self.cols.start as f64) * self.pixels_per_cell,
            bottom - (a - self.rows.start as f64) * self.pixels_per_cell,
        )
    }
}

/// Draws `overlays` over the map of `area`.
pub(super) fn draw_overlays(img: &mut RgbaImage, area: &MapArea, overlays: &Overlays) {
    let [left, top, right, bottom] = area.clip;
    if overlays.grid_lines && area.pixels_per_cell >= GRID_LINES_MIN_CELL_PX {
        for b in area.cols.clone().skip(1) {
            let (x, _) = area.to_pixel(b as f64, 0.0);
            line(img, area.clip, (x, top), (x, bottom), 1.0, colors::OVERLAY_GRID);
        }
        for a in area.rows.clone().skip(1) {
            let (_, y) = area.to_pixel(0.0, a as f64);
            line(img, area.clip, (left, y), (right, y), 1.0, colors::OVERLAY_GRID);
        }
    }
    let shapes = overlays.shapes(area.cols.end as f64, area.rows.end as f64);
    let width = 1.5 * area.stroke_scale;
    for ([from, to], color) in shapes.lines {
        line(
            img,
            area.clip,
            area.to_pixel(from.b, from.a),
            area.to_pixel(to.b, to.a),
            width,
            color,
        );
    }
    let radius = (area.pixels_per_cell * 0.3).clamp(1.5 * area.stroke_scale, 6.0 * area.stroke_scale);
    for (centre, color) in shapes.marks {
        let (x, y) = area.to_pixel(centre.b, centre.a);
        if (left..right).contains(&x) && (top..bottom).contains(&y) {
            ring(img, area.clip, (x, y), radius, width, color);
        }
    }
}

/// Blends `color` at pixel (x, y) with `coverage`, inside `clip` only.
fn plot(img: &mut RgbaImage, clip: [f64; 4], x: i64, y: i64, color: [u8; 4], coverage: f64) {
    let [left, top, right, bottom] = clip;
    let inside =
        x as f64 >= left.floor() && (x as f64) < right.ceil() && y as f64 >= top.floor() && (y as f64) < bottom.ceil();
    if coverage > 0.0 && inside && x >= 0 && y >= 0 && (x as u32) < img.width() && (y as u32) < img.height() {
        blend(img.get_pixel_mut(x as u32, y as u32), color, coverage as f32);
    }
}

/// An anti-aliased segment `width` pixels wide, clipped to `clip` first (Liang–Barsky), then
/// walked along its major axis: each pixel's coverage comes from its distance to the line.
pub(super) fn line(img: &mut RgbaImage, clip: [f64; 4], p: (f64, f64), q: (f64, f64), width: f64, color: [u8; 4]) {
    let [left, top, right, bottom] = clip;
    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (along, room) in [
        (-dx, p.0 - left),
        (dx, right - p.0),
        (-dy, p.1 - top),
        (dy, bottom - p.1),
    ] {
        if along == 0.0 {
            if room < 0.0 {
                return; // parallel to this edge and outside it
            }
        } else if along < 0.0 {
            t0 = t0.max(room / along);
        } else {
            t1 = t1.min(room / along);
        }
    }
    if t0 > t1 {
        return;
    }
    let (x0, y0, x1, y1) = (p.0 + t0 * dx, p.1 + t0 * dy, p.0 + t1 * dx, p.1 + t1 * dy);
    // Walk x when the line is flat, y when it is steep (then x and y swap back at the plot).
    let steep = dy.abs() > dx.abs();
    let (m0, n0, m1, n1) = if steep { (y0, x0, y1, x1) } else { (x0, y0, x1, y1) };
    let (m0, n0, m1, n1) = if m0 <= m1 { (m0, n0, m1, n1) } else { (m1, n1, m0, n0) };
    let slope = if m1 > m0 { (n1 - n0) / (m1 - m0) } else { 0.0 };
    let cos = 1.0 / (1.0 + slope * slope).sqrt();
    let half = width / 2.0;
    let reach = (half + 1.0) / cos;
    for m in (m0.floor() as i64)..=(m1.ceil() as i64 - 1).max(m0.floor() as i64) {
        let centre = n0 + ((m as f64 + 0.5).clamp(m0, m1) - m0) * slope;
        for n in ((centre - reach).floor() as i64)..=((centre + reach).ceil() as i64) {
            let distance = ((n as f64 + 0.5) - centre).abs() * cos;
            let coverage = (half + 0.5 - distance).clamp(0.0, 1.0);
            let (x, y) = if steep { (n, m) } else { (m, n) };
            plot(img, clip, x, y, color, coverage);
        }
    }
}

/// An anti-aliased circle of `radius` around `centre`, its stroke `width` pixels wide.
pub(super) fn ring(img: &mut RgbaImage, clip: [f64; 4], centre: (f64, f64), radius: f64, width: f64, color: [u8; 4]) {
    let half = width / 2.0;
    let reach = radius + half + 1.0;
    for y in ((centre.1 - reach).floor() as i64)..=((centre.1 + reach).ceil() as i64) {
        for x in ((centre.0 - reach).floor() as i64)..=((centre.0 + reach).ceil() as i64) {
            let d = ((x as f64 + 0.5 - centre.0).powi(2) + (y as f64 + 0.5 - centre.1).powi(2)).sqrt();
            let coverage = (half + 0.5 - (d - radius).abs()).clamp(0.0, 1.0);
            plot(img, clip, x, y, color, coverage);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;

    const WHITE: [u8; 4] = [255, 255, 255, 255];

    fn inked(img: &RgbaImage, x: u32, y: u32) -> bool {
        img.get_pixel(x, y).0 != WHITE
    }

    #[test]
    fn lines_cover_their_pixels_and_stay_inside_the_clip() {
        let mut img = RgbaImage::from_pixel(40, 30, Rgba(WHITE));
        let clip = [5.0, 5.0, 35.0, 25.0];
        // a diagonal from far outside to far outside, through the clip's corners
        line(&mut img, clip, (-20.0, -20.0), (60.0, 60.0), 1.5, [0, 0, 0, 255]);
        for y in 0..30 {
            for x in 0..40 {
                let inside = (5..35).contains(&x) && (5..25).contains(&y);
                let on_line = (x as i64 - y as i64).abs() <= 1;
                if !inside {
                    assert!(!inked(&img, x, y), "({x}, {y}) is outside the clip");
                } else if (x as i64 - y as i64) == 0 {
                    assert_eq!(img.get_pixel(x, y).0, [0, 0, 0, 255], "({x}, {y}) is on the line");
                } else if !on_line {
                    assert!(!inked(&img, x, y), "({x}, {y}) is off the line");
                }
            }
        }
        // a steep line and a horizontal one
        let mut img = RgbaImage::from_pixel(40, 30, Rgba(WHITE));
        line(&mut img, clip, (10.5, 0.0), (12.5, 40.0), 1.0, [0, 0, 0, 255]);
        line(&mut img, clip, (0.0, 20.5), (40.0, 20.5), 1.0, [0, 0, 0, 255]);
        assert!(inked(&img, 11, 12) && inked(&img, 30, 20) && !inked(&img, 30, 22));
        assert!(!inked(&img, 10, 2) && !inked(&img, 2, 20));
    }

    #[test]
    fn rings_are_hollow() {
        let mut img = RgbaImage::from_pixel(40, 40, Rgba(WHITE));
        ring(&mut img, [0.0, 0.0, 40.0, 40.0], (20.0, 20.0), 8.0, 1.5, [0, 0, 0, 255]);
        assert!(!inked(&img, 20, 20), "the centre stays clear");
        assert!(inked(&img, 27, 19) && inked(&img, 12, 20) && inked(&img, 20, 12));
        assert!(!inked(&img, 32, 20) && !inked(&img, 2, 2));
    }
}
