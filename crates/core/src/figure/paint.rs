//! The PNG back end of a figure: rasterises a [`Drawing`] into RGBA pixels. Rectangles and
//! cells cover the pixels whose centres lie inside them (so they match the window's pixel
//! path exactly), lines and circles are anti-aliased, text is drawn with the window's fonts.

use image::{Rgba, RgbaImage};

use super::shapes::{Cells, Drawing, Element, Rect, Stroke};
use super::text::{self, Ink, blend};
use crate::raster::colors;

/// The drawing's pixels.
pub fn paint(drawing: &Drawing) -> RgbaImage {
    let bg = drawing.background.unwrap_or([0, 0, 0, 0]);
    let mut img = RgbaImage::from_pixel(drawing.width, drawing.height, Rgba(bg));
    let clip = Rect::new(0.0, 0.0, f64::from(drawing.width), f64::from(drawing.height));
    for s in &drawing.shapes {
        paint_shape(&mut img, s, clip);
    }
    img
}

fn paint_shape(img: &mut RgbaImage, shape: &Element, clip: Rect) {
    match shape {
        Element::Fill { rect, color } => fill(img, rect.intersect(&clip), *color),
        Element::Cells(cells) => paint_cells(img, cells, clip),
        Element::Hatch(rect) => hatch(img, rect.intersect(&clip)),
        Element::Line { from, to, stroke } => stroke_line(img, clip, *from, *to, stroke),
        Element::Circle {
            centre,
            radius,
            fill,
            stroke,
        } => {
            if let Some(c) = fill {
                disc(img, clip, *centre, *radius, *c);
            }
            if let Some(s) = stroke {
                ring(img, clip, *centre, *radius, s.width, s.color);
            }
        }
        Element::Text(t) => text::draw(
            img,
            &t.text,
            Ink::new(t.face, t.size, t.color),
            t.at.0 as f32,
            t.at.1 as f32,
            t.anchor,
        ),
        Element::Group {
            clip: inner, shapes, ..
        } => {
            let clip = inner.map_or(clip, |c| c.intersect(&clip));
            for s in shapes {
                paint_shape(img, s, clip);
            }
        }
    }
}

/// The whole pixels whose centres lie in `[lo, hi)`.
fn pixel_span(lo: f64, hi: f64, limit: u32) -> std::ops::Range<u32> {
    let first = (lo - 0.5).ceil().max(0.0);
    let end = (hi - 0.5).ceil().clamp(0.0, f64::from(limit));
    if end <= first {
        return 0..0;
    }
    first as u32..end as u32
}

/// Fills the pixels whose centres lie in `rect`.
fn fill(img: &mut RgbaImage, rect: Rect, color: [u8; 4]) {
    if rect.is_empty() || color[3] == 0 {
        return;
    }
    let xs = pixel_span(rect.x0, rect.x1, img.width());
    for y in pixel_span(rect.y0, rect.y1, img.height()) {
        for x in xs.clone() {
            let p = img.get_pixel_mut(x, y);
            if color[3] == 255 {
                *p = Rgba(color);
            } else {
                blend(p, color, 1.0);
            }
        }
    }
}

fn paint_cells(img: &mut RgbaImage, cells: &Cells, clip: Rect) {
    for run in cells.runs() {
        fill(img, cells.rect_of(&run).intersect(&clip), run.color);
    }
}

/// The hatch of cells not computed yet: diagonal stripes, 2 of every 6 pixels.
fn hatch(img: &mut RgbaImage, rect: Rect) {
    fill(img, rect, colors::HATCH_BACK);
    let xs = pixel_span(rect.x0, rect.x1, img.width());
    let (x0, y0) = (rect.x0.round() as i64, rect.y0.round() as i64);
    for y in pixel_span(rect.y0, rect.y1, img.height()) {
        for x in xs.clone() {
            if (i64::from(x) - x0 + i64::from(y) - y0).rem_euclid(6) < 2 {
                *img.get_pixel_mut(x, y) = Rgba(colors::HATCH_LINE);
            }
        }
    }
}

/// Blends `color` at pixel (x, y) with `coverage`, inside `clip` only.
fn plot(img: &mut RgbaImage, clip: Rect, x: i64, y: i64, color: [u8; 4], coverage: f64) {
    // a pixel belongs to the clip when its centre does, as for rectangles
    let (cx, cy) = (x as f64 + 0.5, y as f64 + 0.5);
    let inside = cx >= clip.x0 && cx < clip.x1 && cy >= clip.y0 && cy < clip.y1;
    if coverage > 0.0 && inside && x >= 0 && y >= 0 && (x as u32) < img.width() && (y as u32) < img.height() {
        blend(img.get_pixel_mut(x as u32, y as u32), color, coverage as f32);
    }
}

/// A line with its stroke: whole, or cut into dashes.
fn stroke_line(img: &mut RgbaImage, clip: Rect, p: (f64, f64), q: (f64, f64), stroke: &Stroke) {
    let Some(dash) = stroke.dash.filter(|d| d.on > 0.0 && d.off >= 0.0) else {
        line(img, clip, p, q, stroke.width, stroke.color);
        return;
    };
    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
    let length = dx.hypot(dy);
    if length == 0.0 {
        return;
    }
    let period = dash.on + dash.off;
    // where the pattern stands at p: `offset` into it, as SVG's stroke-dashoffset
    let mut s = -dash.offset.rem_euclid(period);
    while s < length {
        let (a, b) = (s.max(0.0), (s + dash.on).min(length));
        if b > a {
            let at = |t: f64| (p.0 + dx * t / length, p.1 + dy * t / length);
            line(img, clip, at(a), at(b), stroke.width, stroke.color);
        }
        s += period;
    }
}

/// An anti-aliased segment `width` pixels wide, clipped to `clip` first (Liang–Barsky), then
/// walked along its major axis: each pixel's coverage comes from its distance to the line.
pub(super) fn line(img: &mut RgbaImage, clip: Rect, p: (f64, f64), q: (f64, f64), width: f64, color: [u8; 4]) {
    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    // the clip is widened by the stroke's half width: a line along an edge still shows
    let half = width / 2.0;
    for (along, room) in [
        (-dx, p.0 - (clip.x0 - half)),
        (dx, clip.x1 + half - p.0),
        (-dy, p.1 - (clip.y0 - half)),
        (dy, clip.y1 + half - p.1),
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
    let reach = (half + 1.0) / cos;
    for m in (m0.floor() as i64)..=(m1.ceil() as i64 - 1).max(m0.floor() as i64) {
        // the part of this pixel column the segment covers (its ends cut partly)
        let (lo, hi) = ((m as f64).max(m0), (m as f64 + 1.0).min(m1));
        let along = if m1 > m0 { (hi - lo).clamp(0.0, 1.0) } else { 1.0 };
        let centre = n0 + ((lo + hi) / 2.0 - m0) * slope;
        for n in ((centre - reach).floor() as i64)..=((centre + reach).ceil() as i64) {
            let distance = ((n as f64 + 0.5) - centre).abs() * cos;
            let coverage = (half + 0.5 - distance).clamp(0.0, 1.0) * along;
            let (x, y) = if steep { (n, m) } else { (m, n) };
            plot(img, clip, x, y, color, coverage);
        }
    }
}

/// An anti-aliased circle of `radius` around `centre`, its stroke `width` pixels wide.
pub(super) fn ring(img: &mut RgbaImage, clip: Rect, centre: (f64, f64), radius: f64, width: f64, color: [u8; 4]) {
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

/// An anti-aliased filled disc.
fn disc(img: &mut RgbaImage, clip: Rect, centre: (f64, f64), radius: f64, color: [u8; 4]) {
    let reach = radius + 1.0;
    for y in ((centre.1 - reach).floor() as i64)..=((centre.1 + reach).ceil() as i64) {
        for x in ((centre.0 - reach).floor() as i64)..=((centre.0 + reach).ceil() as i64) {
            let d = ((x as f64 + 0.5 - centre.0).powi(2) + (y as f64 + 0.5 - centre.1).powi(2)).sqrt();
            plot(img, clip, x, y, color, (radius + 0.5 - d).clamp(0.0, 1.0));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::shapes::Dash;
    use super::*;

    const WHITE: [u8; 4] = [255, 255, 255, 255];
    const BLACK: [u8; 4] = [0, 0, 0, 255];

    fn inked(img: &RgbaImage, x: u32, y: u32) -> bool {
        img.get_pixel(x, y).0 != WHITE
    }

    #[test]
    fn lines_cover_their_pixels_and_stay_inside_the_clip() {
        let mut img = RgbaImage::from_pixel(40, 30, Rgba(WHITE));
        let clip = Rect::new(5.0, 5.0, 35.0, 25.0);
        // a diagonal from far outside to far outside, through the clip's corners
        line(&mut img, clip, (-20.0, -20.0), (60.0, 60.0), 1.5, BLACK);
        for y in 0..30 {
            for x in 0..40 {
                let inside = (5..35).contains(&x) && (5..25).contains(&y);
                let on_line = (x as i64 - y as i64).abs() <= 1;
                if !inside {
                    assert!(!inked(&img, x, y), "({x}, {y}) is outside the clip");
                } else if (x as i64 - y as i64) == 0 {
                    assert_eq!(img.get_pixel(x, y).0, BLACK, "({x}, {y}) is on the line");
                } else if !on_line {
                    assert!(!inked(&img, x, y), "({x}, {y}) is off the line");
                }
            }
        }
        // a steep line and a horizontal one
        let mut img = RgbaImage::from_pixel(40, 30, Rgba(WHITE));
        line(&mut img, clip, (10.5, 0.0), (12.5, 40.0), 1.0, BLACK);
        line(&mut img, clip, (0.0, 20.5), (40.0, 20.5), 1.0, BLACK);
        assert!(inked(&img, 11, 12) && inked(&img, 30, 20) && !inked(&img, 30, 22));
        assert!(!inked(&img, 10, 2) && !inked(&img, 2, 20));
    }

    #[test]
    fn dashes_leave_gaps_where_the_pattern_says() {
        let mut img = RgbaImage::from_pixel(40, 5, Rgba(WHITE));
        let clip = Rect::new(0.0, 0.0, 40.0, 5.0);
        let stroke = Stroke {
            color: BLACK,
            width: 1.0,
            dash: Some(Dash {
                on: 4.0,
                off: 6.0,
                offset: 2.0,
            }),
        };
        stroke_line(&mut img, clip, (0.0, 2.5), (40.0, 2.5), &stroke);
        // two pixels of the first dash, then a gap of six, a dash of four, ...
        let ink: String = (0..40).map(|x| if inked(&img, x, 2) { '#' } else { '.' }).collect();
        assert_eq!(ink, "##......####......####......####......##");
    }

    #[test]
    fn rings_are_hollow_and_discs_full() {
        let mut img = RgbaImage::from_pixel(40, 40, Rgba(WHITE));
        let clip = Rect::new(0.0, 0.0, 40.0, 40.0);
        ring(&mut img, clip, (20.0, 20.0), 8.0, 1.5, BLACK);
        assert!(!inked(&img, 20, 20), "the centre stays clear");
        assert!(inked(&img, 27, 19) && inked(&img, 12, 20) && inked(&img, 20, 12));
        assert!(!inked(&img, 32, 20) && !inked(&img, 2, 2));
        disc(&mut img, clip, (20.0, 20.0), 3.0, BLACK);
        assert_eq!(img.get_pixel(20, 20).0, BLACK);
    }

    #[test]
    fn rectangles_cover_the_pixels_whose_centres_they_hold() {
        let mut img = RgbaImage::from_pixel(10, 10, Rgba(WHITE));
        fill(&mut img, Rect::new(1.0, 1.0, 3.0, 2.0), BLACK);
        fill(&mut img, Rect::new(5.4, 5.4, 6.6, 6.6), BLACK); // holds the centre of (5, 5) and (6, 6)
        let inked_at: Vec<(u32, u32)> = img
            .enumerate_pixels()
            .filter(|(_, _, p)| p.0 == BLACK)
            .map(|(x, y, _)| (x, y))
            .collect();
        assert_eq!(inked_at, vec![(1, 1), (2, 1), (5, 5), (6, 5), (5, 6), (6, 6)]);
    }
}
