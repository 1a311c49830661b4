//! Text for figures (titles, tick labels, legends), drawn with the fonts the window itself ships
//! (`epaint_default_fonts`), so a figure reads like the window and needs no system font.

use ab_glyph::{Font, FontRef, PxScale, ScaleFont, point};
use image::RgbaImage;

/// Which of the window's fonts to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Face {
    /// Ubuntu Light: titles and legends.
    Proportional,
    /// Hack: numbers on the axes, so digits line up.
    Monospace,
}

fn font(face: Face) -> FontRef<'static> {
    let bytes = match face {
        Face::Proportional => epaint_default_fonts::UBUNTU_LIGHT,
        Face::Monospace => epaint_default_fonts::HACK_REGULAR,
    };
    // The fonts are compiled in and known to parse; the test below guards that.
    #[expect(clippy::expect_used, reason = "compiled-in fonts, parsed by a test")]
    FontRef::try_from_slice(bytes).expect("the built-in fonts parse")
}

/// Where a text's anchor point is, relative to the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    /// The left end of the text, centred vertically.
    LeftCenter,
    /// The right end of the text, centred vertically.
    RightCenter,
    /// The middle of the text's top edge.
    CenterTop,
    /// The centre of the text's box.
    CenterCenter,
}

/// How a text is drawn: font, size in pixels, colour.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ink {
    /// The font face.
    pub face: Face,
    /// Font size in pixels.
    pub size: f32,
    /// Colour, RGBA.
    pub color: [u8; 4],
}

impl Ink {
    /// Ink of `face` at `size` pixels in `color` (RGBA).
    pub fn new(face: Face, size: f32, color: [u8; 4]) -> Self {
        Self { face, size, color }
    }
}

/// Width and height in pixels of `text` at `size` px.
pub fn measure(text: &str, face: Face, size: f32) -> (f32, f32) {
    let f = font(face);
    let scaled = f.as_scaled(PxScale::from(size));
    let mut width = 0.0;
    let mut prev = None;
    for c in text.chars() {
        let id = scaled.glyph_id(c);
        if let Some(p) = prev {
            width += scaled.kern(p, id);
        }
        width += scaled.h_advance(id);
        prev = Some(id);
    }
    (width, scaled.ascent() - scaled.descent())
}

/// The font's ascent at `size` px: how far the baseline lies below a text's top.
pub fn ascent(face: Face, size: f32) -> f32 {
    font(face).as_scaled(PxScale::from(size)).ascent()
}

/// Draws `text` at `(x, y)` (placed by `anchor`) in `color`, blending over the image.
pub fn draw(img: &mut RgbaImage, text: &str, ink: Ink, x: f32, y: f32, anchor: Anchor) {
    let Ink { face, size, color } = ink;
    let f = font(face);
    let scale = PxScale::from(size);
    let scaled = f.as_scaled(scale);
    let (w, h) = measure(text, face, size);
    let (left, top) = match anchor {
        Anchor::LeftCenter => (x, y - h / 2.0),
        Anchor::RightCenter => (x - w, y - h / 2.0),
        Anchor::CenterTop => (x - w / 2.0, y),
        Anchor::CenterCenter => (x - w / 2.0, y - h / 2.0),
    };
    let baseline = top + scaled.ascent();
    let mut caret = left;
    let mut prev = None;
    for c in text.chars() {
        let id = scaled.glyph_id(c);
        if let Some(p) = prev {
            caret += scaled.kern(p, id);
        }
        let glyph = id.with_scale_and_position(scale, point(caret.round(), baseline.round()));
        caret += scaled.h_advance(id);
        prev = Some(id);
        let Some(outline) = f.outline_glyph(glyph) else {
            continue;
        };
        let bounds = outline.px_bounds();
        outline.draw(|gx, gy, coverage| {
            let px = bounds.min.x as i64 + gx as i64;
            let py = bounds.min.y as i64 + gy as i64;
            if px < 0 || py < 0 || px >= img.width() as i64 || py >= img.height() as i64 {
                return;
            }
            blend(img.get_pixel_mut(px as u32, py as u32), color, coverage);
        });
    }
}

/// Source-over blending of `color` with opacity `coverage` onto `dst` (straight alpha).
pub fn blend(dst: &mut image::Rgba<u8>, color: [u8; 4], coverage: f32) {
    let sa = (color[3] as f32 / 255.0) * coverage.clamp(0.0, 1.0);
    let da = dst[3] as f32 / 255.0;
    let out_a = sa + da * (1.0 - sa);
    if out_a <= 0.0 {
        return;
    }
    for k in 0..3 {
        let c = (color[k] as f32 * sa + dst[k] as f32 * da * (1.0 - sa)) / out_a;
        dst[k] = c.round().clamp(0.0, 255.0) as u8;
    }
    dst[3] = (out_a * 255.0).round() as u8;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fonts_parse_and_text_leaves_ink() {
        for face in [Face::Proportional, Face::Monospace] {
            let (w, h) = measure("1024", face, 20.0);
            assert!(w > 20.0 && h > 10.0, "{face:?}: {w}×{h}");
            let mut img = RgbaImage::from_pixel(80, 30, image::Rgba([255, 255, 255, 255]));
            draw(
                &mut img,
                "1024",
                Ink::new(face, 20.0, [0, 0, 0, 255]),
                40.0,
                15.0,
                Anchor::CenterCenter,
            );
            let dark = img.pixels().filter(|p| p[0] < 128).count();
            assert!(dark > 20, "{face:?}: {dark} dark pixels");
            // nothing drawn outside the text's box
            let (x0, x1) = (40.0 - w / 2.0 - 2.0, 40.0 + w / 2.0 + 2.0);
            assert!(
                img.enumerate_pixels()
                    .all(|(x, _, p)| p[0] == 255 || (x as f32 >= x0 && (x as f32) <= x1))
            );
        }
    }

    #[test]
    fn blending_over_transparent_keeps_the_colour() {
        let mut p = image::Rgba([0, 0, 0, 0]);
        blend(&mut p, [200, 100, 50, 255], 0.5);
        assert_eq!(p, image::Rgba([200, 100, 50, 128]));
    }
}
