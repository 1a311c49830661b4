//! The SVG back end of a figure: writes a [`Drawing`] as an SVG 1.1 document with the same
//! layout as the PNG. Cells are rectangles of merged runs (grouped by colour, in block units
//! under one transform), overlays are lines and circles, text is real `<text>` (in the fonts the
//! PNG uses where the reader has them), and the provenance goes into `<metadata>`. Numbers are
//! written with at most two decimals and no `-0`, so the same figure gives the same bytes.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::shapes::{Cells, Drawing, Element, Rect, Stroke, Text};
use super::text::{Anchor, Face};
use crate::raster::colors;

/// The namespace of nimscope's provenance entries in `<metadata>`.
pub const METADATA_NS: &str = "urn:nimscope:figure";

/// The drawing as an SVG document, with `metadata` (keyword, text) pairs as its provenance.
pub fn to_svg(drawing: &Drawing, metadata: &[(String, String)]) -> String {
    let mut w = Writer::default();
    let (width, height) = (drawing.width, drawing.height);
    w.line(r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    w.line(&format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{width}" height="{height}" viewBox="0 0 {width} {height}" xml:space="preserve">"#
    ));
    if let Some((_, title)) = metadata.iter().find(|(k, _)| k == "Title") {
        w.line(&format!("<title>{}</title>", escape(title)));
    }
    w.line("<metadata>");
    w.line(&format!(r#"<nimscope:figure xmlns:nimscope="{METADATA_NS}">"#));
    for (k, v) in metadata {
        w.line(&format!(
            r#"<nimscope:entry key="{}">{}</nimscope:entry>"#,
            escape(k),
            escape(v)
        ));
    }
    w.line("</nimscope:figure>");
    w.line("</metadata>");
    w.line("<defs>");
    // the fonts of the PNG (the window's own), then common look-alikes
    w.line("<style>text{font-family:Ubuntu,'Ubuntu Light','DejaVu Sans',Arial,sans-serif;white-space:pre}text.m{font-family:Hack,'DejaVu Sans Mono',Menlo,Consolas,monospace;font-weight:400}</style>");
    if uses_hatch(&drawing.shapes) {
        w.line(&format!(
            r#"<pattern id="hatch" patternUnits="userSpaceOnUse" width="6" height="6"><rect width="6" height="6" fill="{}"/><path d="M-1,1 l2,-2 M0,6 l6,-6 M5,7 l2,-2" stroke="{}" stroke-width="1.5"/></pattern>"#,
            hex(colors::HATCH_BACK),
            hex(colors::HATCH_LINE)
        ));
    }
    w.line("</defs>");
    if let Some(bg) = drawing.background {
        w.line(&format!(
            r#"<rect width="{width}" height="{height}"{}/>"#,
            fill_attr(bg)
        ));
    }
    for s in &drawing.shapes {
        write_shape(&mut w, s);
    }
    w.line("</svg>");
    w.out
}

#[derive(Default)]
struct Writer {
    out: String,
    clips: usize,
}

impl Writer {
    fn line(&mut self, s: &str) {
        self.out.push_str(s);
        self.out.push('\n');
    }
}

fn uses_hatch(shapes: &[Element]) -> bool {
    Element::flatten(shapes).iter().any(|s| matches!(s, Element::Hatch(_)))
}

fn write_shape(w: &mut Writer, shape: &Element) {
    match shape {
        Element::Fill { rect, color } => {
            if color[3] > 0 && !rect.is_empty() {
                let line = format!("<rect{}{}/>", rect_attrs(rect), fill_attr(*color));
                w.line(&line);
            }
        }
        Element::Cells(cells) => write_cells(w, cells),
        Element::Hatch(rect) => {
            let line = format!(r#"<rect{} fill="url(#hatch)"/>"#, rect_attrs(rect));
            w.line(&line);
        }
        Element::Line { from, to, stroke } => {
            let line = format!(
                r#"<line x1="{}" y1="{}" x2="{}" y2="{}"{}/>"#,
                num(from.0),
                num(from.1),
                num(to.0),
                num(to.1),
                stroke_attrs(stroke)
            );
            w.line(&line);
        }
        Element::Circle {
            centre,
            radius,
            fill,
            stroke,
        } => {
            let mut line = format!(
                r#"<circle cx="{}" cy="{}" r="{}""#,
                num(centre.0),
                num(centre.1),
                num(*radius)
            );
            match fill {
                Some(c) => line.push_str(&fill_attr(*c)),
                None => line.push_str(r#" fill="none""#),
            }
            if let Some(s) = stroke {
                line.push_str(&stroke_attrs(s));
            }
            line.push_str("/>");
            w.line(&line);
        }
        Element::Text(t) => write_text(w, t),
        Element::Group { name, clip, shapes } => {
            let mut open = format!(r#"<g id="{name}""#);
            if let Some(c) = clip {
                w.clips += 1;
                let id = format!("clip{}", w.clips);
                let def = format!(r#"<clipPath id="{id}"><rect{}/></clipPath>"#, rect_attrs(c));
                w.line(&def);
                let _ = write!(open, r#" clip-path="url(#{id})""#);
            }
            open.push('>');
            w.line(&open);
            for s in shapes {
                write_shape(w, s);
            }
            w.line("</g>");
        }
    }
}

/// The blocks as merged runs, in block units under one transform, grouped by colour (in a
/// fixed order: by colour value) so each colour is written once.
fn write_cells(w: &mut Writer, cells: &Cells) {
    let mut by_color: BTreeMap<[u8; 4], Vec<String>> = BTreeMap::new();
    for r in cells.runs() {
        by_color.entry(r.color).or_default().push(format!(
            r#"<rect x="{}" y="{}" width="{}" height="{}"/>"#,
            r.col, r.row, r.cols, r.rows
        ));
    }
    let open = format!(
        r#"<g class="cells" data-cols="{}" data-rows="{}" transform="translate({} {}) scale({} {})" shape-rendering="crispEdges">"#,
        cells.cols,
        cells.rows,
        num(cells.origin.0),
        num(cells.origin.1),
        num4(cells.block.0),
        num4(cells.block.1)
    );
    w.line(&open);
    for (color, rects) in by_color {
        w.line(&format!("<g{}>", fill_attr(color)));
        for r in rects {
            w.line(&r);
        }
        w.line("</g>");
    }
    w.line("</g>");
}

/// Real text: anchored left, centre or right by `text-anchor`, on the baseline the PNG uses
/// (from the font's own ascent), so a reader's font of other widths stays aligned.
fn write_text(w: &mut Writer, t: &Text) {
    let (_, top, _, _) = super::shapes::text_box(t);
    let baseline = top + f64::from(super::text::ascent(t.face, t.size));
    let anchor = match t.anchor {
        Anchor::LeftCenter => "start",
        Anchor::RightCenter => "end",
        Anchor::CenterTop | Anchor::CenterCenter => "middle",
    };
    let class = match t.face {
        Face::Proportional => "",
        Face::Monospace => r#" class="m""#,
    };
    let line = format!(
        r#"<text x="{}" y="{}" font-size="{}" text-anchor="{anchor}"{class}{}>{}</text>"#,
        num(t.at.0),
        num(baseline),
        num(f64::from(t.size)),
        fill_attr(t.color),
        escape(&t.text)
    );
    w.line(&line);
}

fn rect_attrs(r: &Rect) -> String {
    format!(
        r#" x="{}" y="{}" width="{}" height="{}""#,
        num(r.x0),
        num(r.y0),
        num(r.x1 - r.x0),
        num(r.y1 - r.y0)
    )
}

fn fill_attr(c: [u8; 4]) -> String {
    if c[3] == 255 {
        format!(r#" fill="{}""#, hex(c))
    } else {
        format!(r#" fill="{}" fill-opacity="{}""#, hex(c), num4(f64::from(c[3]) / 255.0))
    }
}

fn stroke_attrs(s: &Stroke) -> String {
    let mut out = format!(r#" stroke="{}" stroke-width="{}""#, hex(s.color), num(s.width));
    if s.color[3] != 255 {
        let _ = write!(out, r#" stroke-opacity="{}""#, num4(f64::from(s.color[3]) / 255.0));
    }
    if let Some(d) = s.dash {
        let _ = write!(
            out,
            r#" stroke-dasharray="{} {}" stroke-dashoffset="{}""#,
            num(d.on),
            num(d.off),
            num(d.offset)
        );
    }
    out
}

/// `#rrggbb`.
pub fn hex(c: [u8; 4]) -> String {
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

/// A number with at most `decimals` decimals, trailing zeros and a negative zero dropped.
fn fixed(x: f64, decimals: usize) -> String {
    if !x.is_finite() {
        return "0".into();
    }
    let s = format!("{x:.decimals$}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    };
    if s == "-0" { "0".into() } else { s }
}

/// Pixel coordinates: two decimals (a hundredth of a pixel).
pub fn num(x: f64) -> String {
    fixed(x, 2)
}

/// Scales and opacities: four decimals.
fn num4(x: f64) -> String {
    fixed(x, 4)
}

/// Text as XML character data or an attribute value.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // XML 1.0 has no other control characters than tab, newline and return
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short_and_fixed() {
        assert_eq!(num(3.0), "3");
        assert_eq!(num(2.5), "2.5");
        assert_eq!(num(1.0 / 3.0), "0.33");
        assert_eq!(num(-0.001), "0");
        assert_eq!(num(-1.256), "-1.26");
        assert_eq!(num(f64::NAN), "0");
        assert_eq!(escape("a<b & \"c\"\u{1}"), "a&lt;b &amp; &quot;c&quot; ");
    }
}
