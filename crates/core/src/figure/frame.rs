//! A figure's frame: margins for the title, axes and legend around a content area, planned
//! before anything is computed so that a figure too large or too narrow is refused first.

use super::shapes::{Element, Rect, Text};
use super::text::{Anchor, Face};
use crate::raster::Legend;

use super::spec::*;
use super::{ink, legend, text};

/// The layout of a figure: margins around a content area of `content_w × content_h` pixels.
#[derive(Debug, Clone, Copy)]
pub(super) struct Frame {
    pub(super) width: u32,
    pub(super) height: u32,
    pub(super) left: u32,
    pub(super) top: u32,
    pub(super) content_w: u32,
    pub(super) content_h: u32,
    /// Text sizes in pixels.
    pub(super) title_px: f32,
    pub(super) label_px: f32,
}

/// The space around the content: axes and their labels on the left and below, the title above,
/// the legend on the right; and the text sizes, which grow with `base`, the picture's width.
#[derive(Debug, Clone, Copy)]
pub(super) struct Margins {
    pub(super) left: u32,
    pub(super) right: u32,
    pub(super) top: u32,
    pub(super) bottom: u32,
    /// The legend's height with its padding: a legend taller than the map makes the picture
    /// taller, never overlaps it.
    pub(super) legend_h: u32,
    pub(super) title_px: f32,
    pub(super) label_px: f32,
}

impl Margins {
    pub(super) fn of(spec: &FigureSpec, widest: u64, title: &str, legend: Option<&Legend>, base: f32) -> Margins {
        let style = &spec.style;
        let label_px = (base / 70.0).clamp(11.0, 48.0);
        let title_px = label_px * 1.3;
        let pad = (label_px * 0.6).round() as u32;
        let max_label = format!("{widest}");
        let (label_w, _) = text::measure(&max_label, Face::Monospace, label_px);
        let left = if style.axes {
            label_w.ceil() as u32 + 3 * pad
        } else {
            pad
        };
        let bottom = if style.axes {
            (label_px * 1.6).ceil() as u32 + 2 * pad
        } else {
            pad
        };
        let title_h = if title.is_empty() {
            0
        } else {
            (title_px * 1.6).ceil() as u32
        };
        // the row axis's title sits above the map, on a line of its own
        let axis_title_h = if style.axes { (label_px * 1.6).ceil() as u32 } else { 0 };
        let top = title_h + axis_title_h + pad;
        let legend_size = legend.filter(|_| style.legend).map(|l| legend::size(l, label_px));
        let right = match legend_size {
            Some((w, _)) => (w + label_px * 1.2).ceil() as u32 + 2 * pad,
            None => pad,
        };
        let legend_h = legend_size.map_or(0, |(_, h)| h.ceil() as u32 + pad);
        Margins {
            left,
            right,
            top,
            bottom,
            legend_h,
            title_px,
            label_px,
        }
    }
}

impl Frame {
    /// Plans a figure showing `rows × cols` cells (the content's aspect ratio) with `legend`
    /// (if the style has one) on the right. Refuses, before any work, a figure with no room for
    /// its content (saying which width would do), a scale that is not a positive number or
    /// draws less than [`MIN_CONTENT`] pixels, and a figure over [`MAX_SIDE`] pixels a side.
    pub(super) fn plan(
        spec: &FigureSpec,
        rows: u64,
        cols: u64,
        title: &str,
        legend: Option<&Legend>,
    ) -> Result<Frame, FigureError> {
        Self::plan_labelled(spec, rows, cols, rows.max(cols).saturating_add(1_000), title, legend)
    }

    /// [`Frame::plan`] with axis labels up to `widest` (a map far from the origin has labels
    /// wider than its cell counts).
    pub(super) fn plan_labelled(
        spec: &FigureSpec,
        rows: u64,
        cols: u64,
        widest: u64,
        title: &str,
        legend: Option<&Legend>,
    ) -> Result<Frame, FigureError> {
        check_modulus(spec.color)?;
        let (rows, cols) = (rows.max(1), cols.max(1));
        match spec.scale {
            Some(s) if !(s.is_finite() && s > 0.0) => Err(FigureError::BadScale(s)),
            Some(s) => {
                let content_w = cols as f64 * s;
                if content_w < f64::from(MIN_CONTENT) {
                    // rounded up to three decimals, so the scale stated works
                    let least = (f64::from(MIN_CONTENT) / cols as f64 * 1000.0).ceil() / 1000.0;
                    return Err(FigureError::ScaleTooSmall {
                        scale: s,
                        cells: cols,
                        least,
                    });
                }
                // Text grows with the picture so a figure scaled down onto a slide stays readable.
                let margins = Margins::of(spec, widest, title, legend, content_w as f32);
                Self::with_content(margins, rows, cols, content_w.round())
            }
            None => {
                let width = spec.style.width;
                let margins = Margins::of(spec, widest, title, legend, width as f32);
                let content_w = i64::from(width) - i64::from(margins.left + margins.right);
                if width < MIN_WIDTH || content_w < i64::from(MIN_CONTENT) {
                    return Err(FigureError::TooNarrow {
                        width,
                        least: Self::least_width(spec, widest, title, legend),
                    });
                }
                Self::with_content(margins, rows, cols, content_w as f64)
            }
        }
    }

    /// The smallest width at which [`Frame::plan`] leaves [`MIN_CONTENT`] pixels for the
    /// content. The margins grow with the width (their text does), so this is the least fixed
    /// point of `w = margins(w) + MIN_CONTENT`, reached by iterating from below.
    pub(super) fn least_width(spec: &FigureSpec, widest: u64, title: &str, legend: Option<&Legend>) -> u32 {
        let mut w = MIN_WIDTH;
        loop {
            let m = Margins::of(spec, widest, title, legend, w as f32);
            let need = (m.left + m.right + MIN_CONTENT).max(MIN_WIDTH);
            if need <= w {
                return w;
            }
            w = need;
        }
    }

    /// The frame around a content area `content_w` pixels wide.
    pub(super) fn with_content(m: Margins, rows: u64, cols: u64, content_w: f64) -> Result<Frame, FigureError> {
        let content_w = content_w.max(1.0);
        let content_h = (rows as f64 * content_w / cols as f64).round().max(1.0);
        let width = content_w + f64::from(m.left + m.right);
        let height = (content_h + f64::from(m.bottom)).max(f64::from(m.legend_h)) + f64::from(m.top);
        if width > f64::from(MAX_SIDE) || height > f64::from(MAX_SIDE) {
            // in f64: a scale of 1e300 is refused as too large, not an overflow
            return Err(FigureError::TooLarge(width, height));
        }
        Ok(Frame {
            width: width as u32,
            height: height as u32,
            left: m.left,
            top: m.top,
            content_w: content_w as u32,
            content_h: content_h as u32,
            title_px: m.title_px,
            label_px: m.label_px,
        })
    }

    pub(super) fn bytes(&self) -> u64 {
        u64::from(self.width) * u64::from(self.height) * 4
    }

    /// The title, centred above the content, moved or made smaller as far as it must be to
    /// stay inside the picture (with room for a reader's font a fifth wider than ours).
    pub(super) fn title(&self, title: &str) -> Vec<Element> {
        if title.is_empty() {
            return Vec::new();
        }
        let room = f64::from(self.width) - 2.0 * f64::from(self.label_px * 0.6);
        let (w, _) = text::measure(title, Face::Proportional, self.title_px);
        let wide = f64::from(w) * 1.2;
        let size = if wide > room {
            (f64::from(self.title_px) * room / wide) as f32
        } else {
            self.title_px
        };
        let half = wide.min(room) / 2.0;
        let centre = f64::from(self.left) + f64::from(self.content_w) / 2.0;
        let x = centre.clamp(
            half + f64::from(self.label_px * 0.6),
            (f64::from(self.width) - half - f64::from(self.label_px * 0.6)).max(half),
        );
        vec![Element::Text(Text {
            at: (x, f64::from(self.title_px * 0.3)),
            text: title.to_string(),
            face: Face::Proportional,
            size,
            color: ink::TEXT,
            anchor: Anchor::CenterTop,
        })]
    }

    /// The content area's rectangle.
    pub(super) fn content_rect(&self) -> Rect {
        Rect::new(
            f64::from(self.left),
            f64::from(self.top),
            f64::from(self.left + self.content_w),
            f64::from(self.top + self.content_h),
        )
    }

    /// The frame around the content area, just outside it.
    pub(super) fn frame(&self) -> [Element; 4] {
        let (x0, y0) = (f64::from(self.left) - 1.0, f64::from(self.top) - 1.0);
        let (x1, y1) = (
            f64::from(self.left + self.content_w),
            f64::from(self.top + self.content_h),
        );
        Element::outline(x0, y0, x1, y1, 1.0, ink::FRAME)
    }

    /// `legend` to the right of the content.
    pub(super) fn legend(&self, legend: &Legend) -> Element {
        let x = (self.left + self.content_w) as f32 + self.label_px * 1.2;
        Element::Group {
            name: "legend",
            clip: None,
            shapes: legend::shapes(legend, self.label_px, x, self.top as f32),
        }
    }
}
