//! A figure as one list of shapes in pixel coordinates (x to the right, y down), drawn by two
//! back ends: [`super::paint`] rasterises it into the PNG, [`super::svg`] writes it as SVG.
//! Everything a figure shows (cells, overlays, axes, text, legend) is a shape here, so the two
//! files never drift apart.

use std::collections::HashMap;

use super::text::{Anchor, Face};

/// A rectangle from (x0, y0) to (x1, y1), x0 ≤ x1, y0 ≤ y1. A back end paints the pixels whose
/// centres lie inside it, so whole-number corners cover whole pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    /// Left edge, in pixels.
    pub x0: f64,
    /// Top edge, in pixels.
    pub y0: f64,
    /// Right edge, in pixels (exclusive).
    pub x1: f64,
    /// Bottom edge, in pixels (exclusive).
    pub y1: f64,
}

impl Rect {
    /// The rectangle from (x0, y0) to (x1, y1); the caller keeps x0 ≤ x1 and y0 ≤ y1.
    pub const fn new(x0: f64, y0: f64, x1: f64, y1: f64) -> Rect {
        Rect { x0, y0, x1, y1 }
    }

    /// The overlap of two rectangles (empty ones have x1 ≤ x0 or y1 ≤ y0).
    pub fn intersect(&self, other: &Rect) -> Rect {
        Rect::new(
            self.x0.max(other.x0),
            self.y0.max(other.y0),
            self.x1.min(other.x1),
            self.y1.min(other.y1),
        )
    }

    /// Whether it covers no area (x1 ≤ x0 or y1 ≤ y0).
    pub fn is_empty(&self) -> bool {
        self.x1 <= self.x0 || self.y1 <= self.y0
    }
}

/// How a line or a circle is stroked.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stroke {
    /// Colour, RGBA.
    pub color: [u8; 4],
    /// Line width in pixels.
    pub width: f64,
    /// Dash and gap lengths, and how far into the pattern the line starts.
    pub dash: Option<Dash>,
}

/// A dash pattern: `on` pixels drawn, `off` pixels skipped, starting `offset` pixels into it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Dash {
    /// Length of each dash, in pixels.
    pub on: f64,
    /// Length of each gap, in pixels.
    pub off: f64,
    /// How far into the pattern the line starts, in pixels.
    pub offset: f64,
}

impl Stroke {
    /// An undashed stroke of `color` (RGBA), `width` pixels wide.
    pub fn solid(color: [u8; 4], width: f64) -> Stroke {
        Stroke {
            color,
            width,
            dash: None,
        }
    }
}

/// A line of text, placed by `anchor` at `at`.
#[derive(Debug, Clone, PartialEq)]
pub struct Text {
    /// The anchor point, in pixels.
    pub at: (f64, f64),
    /// The text, one line.
    pub text: String,
    /// The font face.
    pub face: Face,
    /// Font size in pixels.
    pub size: f32,
    /// Colour, RGBA.
    pub color: [u8; 4],
    /// Which point of the text's box sits at `at`.
    pub anchor: Anchor,
}

/// One element of a figure.
#[derive(Debug, Clone, PartialEq)]
pub enum Element {
    /// A filled rectangle.
    Fill {
        /// The rectangle filled.
        rect: Rect,
        /// Its colour, RGBA.
        color: [u8; 4],
    },
    /// Blocks of colour on a regular grid: the map's cells (or, zoomed out, its pixels), a
    /// sequence's heaps. Drawn as runs of equal colour merged into rectangles ([`Cells::runs`]).
    Cells(Cells),
    /// The hatch of cells not computed yet.
    Hatch(Rect),
    /// A straight segment.
    Line {
        /// Start point, in pixels.
        from: (f64, f64),
        /// End point, in pixels.
        to: (f64, f64),
        /// How the segment is stroked.
        stroke: Stroke,
    },
    /// A circle, filled, stroked, or both.
    Circle {
        /// Centre, in pixels.
        centre: (f64, f64),
        /// Radius, in pixels.
        radius: f64,
        /// Fill colour (RGBA); `None`: not filled.
        fill: Option<[u8; 4]>,
        /// Outline; `None`: no outline.
        stroke: Option<Stroke>,
    },
    /// A line of text.
    Text(Text),
    /// Shapes drawn together: the map, its overlays, the axes, the legend. `clip` keeps them
    /// inside a rectangle.
    Group {
        /// The group's name, found by [`Element::find_group`] (SVG: its id).
        name: &'static str,
        /// The rectangle the shapes are clipped to; `None`: no clipping.
        clip: Option<Rect>,
        /// The grouped shapes, in drawing order.
        shapes: Vec<Element>,
    },
}

impl Element {
    /// The four sides of the box with corners (x0, y0) and (x1, y1) inclusive, `t` pixels
    /// thick, as filled rectangles.
    pub fn outline(x0: f64, y0: f64, x1: f64, y1: f64, t: f64, color: [u8; 4]) -> [Element; 4] {
        let fill = |rect| Element::Fill { rect, color };
        [
            fill(Rect::new(x0, y0, x1 + 1.0, y0 + t)),
            fill(Rect::new(x0, y1 - t + 1.0, x1 + 1.0, y1 + 1.0)),
            fill(Rect::new(x0, y0 + t, x0 + t, y1 - t + 1.0)),
            fill(Rect::new(x1 - t + 1.0, y0 + t, x1 + 1.0, y1 - t + 1.0)),
        ]
    }

    /// A line with its casing (a wider stroke of another colour under it) when it has one.
    pub fn cased_line(
        from: (f64, f64),
        to: (f64, f64),
        stroke: Stroke,
        casing: Option<([u8; 4], f64)>,
    ) -> Vec<Element> {
        let mut out = Vec::new();
        if let Some((color, extra)) = casing {
            out.push(Element::Line {
                from,
                to,
                stroke: Stroke {
                    color,
                    width: stroke.width + 2.0 * extra,
                    ..stroke
                },
            });
        }
        out.push(Element::Line { from, to, stroke });
        out
    }

    /// The group named `name` among `shapes` (searched depth first).
    pub fn find_group<'a>(shapes: &'a [Element], name: &str) -> Option<&'a [Element]> {
        shapes.iter().find_map(|s| match s {
            Element::Group { name: n, shapes, .. } if *n == name => Some(shapes.as_slice()),
            Element::Group { shapes, .. } => Element::find_group(shapes, name),
            _ => None,
        })
    }

    /// Every shape, groups opened, in drawing order.
    pub fn flatten(shapes: &[Element]) -> Vec<&Element> {
        let mut out = Vec::new();
        for s in shapes {
            match s {
                Element::Group { shapes, .. } => out.extend(Element::flatten(shapes)),
                s => out.push(s),
            }
        }
        out
    }
}

/// Blocks of colour on a grid `cols × rows`, each `block.0 × block.1` pixels, the first at
/// `origin` (its top-left corner); `colors` row by row from the top. A transparent colour
/// (alpha 0) draws nothing.
#[derive(Debug, Clone, PartialEq)]
pub struct Cells {
    /// Top-left corner of block (0, 0), in pixels.
    pub origin: (f64, f64),
    /// Width and height of one block, in pixels.
    pub block: (f64, f64),
    /// Number of blocks across.
    pub cols: usize,
    /// Number of blocks down.
    pub rows: usize,
    /// One RGBA colour per block, row by row from the top (`cols × rows` of them).
    pub colors: Vec<[u8; 4]>,
}

/// A rectangle of blocks of one colour: `cols × rows` blocks from block (col, row).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Run {
    /// Column of the run's first block.
    pub col: usize,
    /// Row of the run's first block.
    pub row: usize,
    /// Number of blocks across.
    pub cols: usize,
    /// Number of blocks down.
    pub rows: usize,
    /// The run's colour, RGBA.
    pub color: [u8; 4],
}

impl Cells {
    /// The colour of block (col, row).
    pub fn at(&self, col: usize, row: usize) -> [u8; 4] {
        self.colors[row * self.cols + col]
    }

    /// The blocks as rectangles of one colour: runs of equal colour along each row, and a run
    /// continued straight down while the rows below repeat it exactly. Every opaque block is
    /// in exactly one rectangle; the order is fixed (by top row, then column).
    pub fn runs(&self) -> Vec<Run> {
        let mut out: Vec<Run> = Vec::new();
        // runs ending on the previous row, by (col, cols, color): their index in `out`
        let mut open: HashMap<(usize, usize, [u8; 4]), usize> = HashMap::new();
        let mut next = HashMap::new();
        for row in 0..self.rows {
            next.clear();
            let line = &self.colors[row * self.cols..(row + 1) * self.cols];
            let mut col = 0;
            while col < self.cols {
                let color = line[col];
                let mut end = col + 1;
                while end < self.cols && line[end] == color {
                    end += 1;
                }
                if color[3] != 0 {
                    let key = (col, end - col, color);
                    let index = match open.get(&key) {
                        Some(&i) => {
                            out[i].rows += 1;
                            i
                        }
                        None => {
                            out.push(Run {
                                col,
                                row,
                                cols: end - col,
                                rows: 1,
                                color,
                            });
                            out.len() - 1
                        }
                    };
                    next.insert(key, index);
                }
                col = end;
            }
            std::mem::swap(&mut open, &mut next);
        }
        out
    }

    /// The pixel rectangle of `run`.
    pub fn rect_of(&self, run: &Run) -> Rect {
        let (ox, oy) = self.origin;
        let (bw, bh) = self.block;
        Rect::new(
            ox + run.col as f64 * bw,
            oy + run.row as f64 * bh,
            ox + (run.col + run.cols) as f64 * bw,
            oy + (run.row + run.rows) as f64 * bh,
        )
    }
}

/// A whole figure: its size, background (`None`: transparent), shapes in drawing order, and
/// its provenance (keyword, text) pairs.
#[derive(Debug, Clone, PartialEq)]
pub struct Drawing {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Background colour (RGBA); `None`: transparent.
    pub background: Option<[u8; 4]>,
    /// The shapes, in drawing order.
    pub shapes: Vec<Element>,
}

/// A text's box: left, top, width, height in pixels, from the font's own metrics.
pub fn text_box(t: &Text) -> (f64, f64, f64, f64) {
    let (w, h) = super::text::measure(&t.text, t.face, t.size);
    let (w, h) = (f64::from(w), f64::from(h));
    let (x, y) = t.at;
    let (left, top) = match t.anchor {
        Anchor::LeftCenter => (x, y - h / 2.0),
        Anchor::RightCenter => (x - w, y - h / 2.0),
        Anchor::CenterTop => (x - w / 2.0, y),
        Anchor::CenterCenter => (x - w / 2.0, y - h / 2.0),
    };
    (left, top, w, h)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_cover_every_block_once_and_merge_equal_neighbours() {
        let (a, b, clear) = ([1, 2, 3, 255], [9, 9, 9, 255], [0, 0, 0, 0]);
        #[rustfmt::skip]
        let colors = vec![
            a, a, b, b,
            a, a, b, clear,
            a, a, a, a,
            b, a, a, a,
        ];
        let cells = Cells {
            origin: (10.0, 20.0),
            block: (2.0, 3.0),
            cols: 4,
            rows: 4,
            colors,
        };
        let runs = cells.runs();
        let mut covered = vec![0; 16];
        for r in &runs {
            for row in r.row..r.row + r.rows {
                for col in r.col..r.col + r.cols {
                    assert_eq!(cells.at(col, row), r.color);
                    covered[row * 4 + col] += 1;
                }
            }
        }
        let want: Vec<i32> = cells.colors.iter().map(|c| i32::from(c[3] != 0)).collect();
        assert_eq!(covered, want);
        // `a a` over two rows is one rectangle; `b b` then `b` are two (their widths differ),
        // as are the last two rows' runs of a
        assert_eq!(
            runs[0],
            Run {
                col: 0,
                row: 0,
                cols: 2,
                rows: 2,
                color: a
            }
        );
        assert_eq!(runs.len(), 6);
        assert_eq!(cells.rect_of(&runs[0]), Rect::new(10.0, 20.0, 14.0, 26.0));
    }
}
