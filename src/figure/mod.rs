//! Figures for slides: the value map of a region, a value sequence, or a Cram board, drawn at a
//! resolution independent of the screen, with axes, tick labels, legend and title, and saved as
//! PNG carrying its provenance. The map's cells go through the same [`crate::raster`] path as the
//! window, so the figure shows what the screen shows. No GUI toolkit here: the command line and the
//! window's export lane both call [`make_figure`].

pub mod board;
mod legend;
mod overlay;
pub mod png_out;
pub mod text;

use std::ops::Range;

use image::{Rgba, RgbaImage};

use crate::game::Ruleset;
use crate::game::cram_setup::{CramDocument, CramModel};
use crate::game::prediction::Prediction;
use crate::game::{Cell, Layout};
use crate::raster::axes::{AxisTitles, ticks};
use crate::raster::{ColorMode, CompareWith, Legend, LegendSpec, MarksShown, Overlays, View, nice_step, raster};
use crate::solver::cram_report::{CramSolvers, CramVariant, cram_report};
use crate::solver::grid::{self, Grid};
use crate::solver::sequence::{self, Sequence};
use crate::solver::{Control, SolveError};
use text::{Anchor, Face, Ink};

/// Largest side of a figure in pixels.
pub const MAX_SIDE: u32 = 16384;
/// Smallest width of any figure; a figure with axes or a legend needs more (see
/// [`FigureError::TooNarrow`]).
pub const MIN_WIDTH: u32 = 64;
/// Narrowest map, sequence or board a figure draws, in pixels.
pub const MIN_CONTENT: u32 = 16;
/// Largest modulus of the `Modulo(k)` colour mode: its legend lists k colours.
pub const MAX_MODULUS: u32 = 32;

/// What lies behind the map: white for documents, transparent for slides with their own colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum Background {
    #[default]
    White,
    Transparent,
}

/// How a figure looks, independent of what it shows.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct FigureStyle {
    /// Width of the whole picture in pixels (ignored when a scale is given).
    pub width: u32,
    pub axes: bool,
    pub legend: bool,
    /// Empty: the ruleset expression (and slice) is the title; `-` for none.
    pub title: String,
    pub background: Background,
}

impl Default for FigureStyle {
    fn default() -> Self {
        Self {
            width: 1600,
            axes: true,
            legend: true,
            title: String::new(),
            background: Background::White,
        }
    }
}

/// What a figure shows.
#[derive(Debug, Clone, PartialEq)]
pub enum Subject {
    /// Values of the cells `rows × cols` (row a upwards, column b to the right), with the
    /// overlays the window shows over them.
    Map {
        layout: Layout,
        rows: Range<u64>,
        cols: Range<u64>,
        compare: CompareWith,
        overlays: Overlays,
    },
    /// G(0..n) of a one-heap ruleset, as rows of coloured cells.
    Sequence { n: u64 },
    /// A Cram or Push Cram board (the board editor's document), solved and drawn with its
    /// legal placements coloured by value.
    Board(CramDocument),
}

/// Everything needed to draw a figure.
#[derive(Debug, Clone, PartialEq)]
pub struct FigureSpec {
    pub ruleset: Ruleset,
    pub subject: Subject,
    pub color: ColorMode,
    pub style: FigureStyle,
    /// Pixels per cell; when given, it sets the width instead of `style.width`.
    pub scale: Option<f64>,
}

/// A drawn figure and the provenance written into its PNG.
#[derive(Debug, Clone)]
pub struct Figure {
    pub image: RgbaImage,
    /// (keyword, text) pairs for the PNG's tEXt chunks.
    pub metadata: Vec<(String, String)>,
    /// Where the map, sequence or board lies in the picture: left, top, width, height.
    pub content: [u32; 4],
}

#[derive(Debug, thiserror::Error)]
pub enum FigureError {
    #[error(transparent)]
    Solve(#[from] SolveError),
    #[error(
        "a figure of {}×{} pixels is too large: at most {MAX_SIDE} pixels a side",
        pixels(*.0),
        pixels(*.1)
    )]
    TooLarge(f64, f64),
    /// The width leaves less than [`MIN_CONTENT`] pixels for the map beside the margins;
    /// `least` is the smallest width that works for this figure.
    #[error(
        "a width of {width} pixels leaves no room for the picture beside its axes, legend and title: this figure needs a width of at least {least} pixels"
    )]
    TooNarrow { width: u32, least: u32 },
    #[error("a scale of {0} pixels per cell makes no figure: give a number above 0")]
    BadScale(f64),
    /// The scale draws the content narrower than [`MIN_CONTENT`] pixels.
    #[error(
        "a scale of {scale} pixels per cell draws the {cells} cells across {:.3} pixels: a figure needs at least {MIN_CONTENT}, a scale of at least {least}",
        *.scale * *.cells as f64
    )]
    ScaleTooSmall { scale: f64, cells: u64, least: f64 },
    #[error("the colour mode Modulo({0}) is not one a figure shows: the modulus goes from 2 to {MAX_MODULUS}")]
    Modulus(u32),
    #[error("the region {0} is empty")]
    EmptyRegion(String),
    #[error("the difference colour mode needs a ruleset or theorem to compare with")]
    NothingToCompare,
    #[error("board: {0}")]
    Board(String),
    #[error("could not encode the PNG: {0}")]
    Encode(String),
    #[error("could not write {path}: {message}")]
    Write { path: String, message: String },
}

/// A number of pixels as a refusal states it: whole up to a billion, then like `2.9e19`.
fn pixels(x: f64) -> String {
    if x < 1e9 { format!("{x:.0}") } else { format!("{x:.1e}") }
}

/// Colours of the frame and text.
mod ink {
    pub const WHITE: [u8; 4] = [255, 255, 255, 255];
    pub const CLEAR: [u8; 4] = [0, 0, 0, 0];
    pub const TEXT: [u8; 4] = [30, 30, 36, 255];
    pub const FRAME: [u8; 4] = [90, 90, 96, 255];
    pub const MARK: [u8; 4] = [214, 39, 40, 255];
}

/// `0..64` as the papers write it: `[0, 64)`.
fn range_text(r: &Range<u64>) -> String {
    format!("[{}, {})", r.start, r.end)
}

/// Computes what `spec` shows and draws it.
pub fn make_figure(spec: &FigureSpec, control: &Control) -> Result<Figure, FigureError> {
    // before the legend, which has an entry per residue
    check_modulus(spec.color)?;
    let mut metadata = vec![
        (
            "Software".to_string(),
            format!("nimscope {}", crate::GIT_COMMIT_VERSION),
        ),
        ("nimscope.ruleset".to_string(), spec.ruleset.to_string()),
        ("nimscope.color".to_string(), format!("{:?}", spec.color)),
    ];
    let mut title = match spec.style.title.as_str() {
        "" => default_title(spec),
        "-" => String::new(),
        t => t.to_string(),
    };
    let (image, frame) = match &spec.subject {
        Subject::Map {
            layout,
            rows,
            cols,
            compare,
            overlays,
        } => {
            if rows.is_empty() || cols.is_empty() {
                return Err(FigureError::EmptyRegion(format!(
                    "{} × {}",
                    range_text(rows),
                    range_text(cols)
                )));
            }
            metadata.push(("nimscope.layout".into(), layout_text(layout)));
            metadata.push((
                "nimscope.region".into(),
                format!("rows a in {}, columns b in {}", range_text(rows), range_text(cols)),
            ));
            let planned = map_legend(spec, compare, overlays, 99_999, 0.5, true);
            let frame = Frame::plan(
                spec,
                rows.end - rows.start,
                cols.end - cols.start,
                &title,
                Some(&planned),
            )?;
            if (spec.color, compare) == (ColorMode::Difference, &CompareWith::Nothing) {
                // refused before the grid is computed: there is nothing to compare it with
                return Err(FigureError::NothingToCompare);
            }
            control.reserve("the figure's pixels", frame.bytes())?;
            let grid = grid::grid(&spec.ruleset, layout, 0..rows.end, 0..cols.end, control)?;
            let other = match (spec.color, compare) {
                (ColorMode::Difference, CompareWith::Nothing) => return Err(FigureError::NothingToCompare),
                (ColorMode::Difference, CompareWith::Ruleset(r)) => {
                    metadata.push(("nimscope.compare".into(), r.to_string()));
                    Some(grid::grid(r, layout, 0..rows.end, 0..cols.end, control)?)
                }
                (ColorMode::Difference, CompareWith::Theorem(p)) => {
                    metadata.push(("nimscope.compare".into(), p.label().to_string()));
                    None
                }
                _ => None,
            };
            let theorem = match compare {
                CompareWith::Theorem(p) => Some(*p),
                _ => None,
            };
            let axes = AxisTitles::of(&spec.ruleset, layout);
            let mut image = draw_map(spec, &frame, &title, &axes, &grid, other.as_ref(), theorem, rows, cols);
            let area = overlay::MapArea {
                clip: [
                    frame.left as f64,
                    frame.top as f64,
                    (frame.left + frame.content_w) as f64,
                    (frame.top + frame.content_h) as f64,
                ],
                rows: rows.clone(),
                cols: cols.clone(),
                pixels_per_cell: frame.content_w as f64 / (cols.end - cols.start) as f64,
                // the window draws its axis labels at 11 points
                stroke_scale: f64::from(frame.label_px) / 11.0,
            };
            overlay::draw_overlays(&mut image, &area, &overlays.drawn_at(area.pixels_per_cell));
            metadata.push((
                "nimscope.map_px".into(),
                format!("{},{},{},{}", frame.left, frame.top, frame.content_w, frame.content_h),
            ));
            (image, frame)
        }
        Subject::Sequence { n } => {
            if *n == 0 {
                return Err(FigureError::EmptyRegion("G(0..0)".into()));
            }
            metadata.push(("nimscope.region".into(), format!("heaps n in [0, {n})")));
            let seq = sequence::sequence(&spec.ruleset, *n, control)?;
            if let (Some(p), "") = (seq.periodicity, spec.style.title.as_str()) {
                title = format!("{title}; period {} from n = {}", p.period, p.preperiod);
            }
            draw_sequence(spec, &seq, &title)?
        }
        Subject::Board(doc) => {
            let model = CramModel::from_document(doc).map_err(|e| FigureError::Board(e.to_string()))?;
            let setup = model.setup();
            let variant = CramVariant::of(doc.rules, doc.pushed);
            metadata.push(("nimscope.board".into(), setup.position_text()));
            metadata.push(("nimscope.variant".into(), variant.describe().into()));
            // A drawing that is not a legal position is still drawn, without values.
            let report = match setup.to_board() {
                Ok(board) => Some(cram_report(&board, variant, &mut CramSolvers::default(), control)?),
                Err(_) => None,
            };
            if let (Some(r), "") = (&report, spec.style.title.as_str()) {
                title = format!("{}: G = {}, {}", variant.describe(), r.value, r.outcome.as_str());
            }
            let cell_px = (spec.style.width / (setup.cols() as u32 + 4)).clamp(8, 1024);
            let picture = board::board_image(setup, report.as_ref(), cell_px);
            let legend = Legend::of_swatches(
                "Board",
                &[
                    ("winning placement".to_string(), board::colors::WINNING),
                    ("domino".to_string(), board::colors::DOMINO),
                    ("empty cell".to_string(), board::colors::EMPTY),
                    ("blocked cell".to_string(), board::colors::BLOCKED),
                ],
            );
            draw_picture(spec, &picture, &legend, &title)?
        }
    };
    metadata.push(("nimscope.size".into(), format!("{}x{}", image.width(), image.height())));
    let content = [frame.left, frame.top, frame.content_w, frame.content_h];
    if !title.is_empty() {
        metadata.insert(0, ("Title".to_string(), title));
    }
    Ok(Figure {
        image,
        metadata,
        content,
    })
}

/// Encodes and writes `figure` to `path` atomically.
pub fn write_figure(figure: &Figure, path: &std::path::Path) -> Result<(), FigureError> {
    let bytes = png_out::encode(&figure.image, &figure.metadata).map_err(|e| FigureError::Encode(e.to_string()))?;
    png_out::write_atomic(path, &bytes).map_err(|e| FigureError::Write {
        path: path.display().to_string(),
        message: e.to_string(),
    })
}

fn layout_text(layout: &Layout) -> String {
    match layout {
        Layout::Plain => "plain".into(),
        Layout::Slice(t) => t
            .iter()
            .map(|x| x.map_or_else(|| "_".to_string(), |v| v.to_string()))
            .collect::<Vec<_>>()
            .join(","),
    }
}

fn default_title(spec: &FigureSpec) -> String {
    match &spec.subject {
        Subject::Map { layout, compare, .. } => {
            let mut t = spec.ruleset.to_string();
            if let Layout::Slice(_) = layout {
                t = format!(
                    "{t}, slice ({})",
                    layout_text(layout).replacen('_', "a", 1).replacen('_', "b", 1)
                );
            }
            match (spec.color, compare) {
                (ColorMode::Difference, CompareWith::Ruleset(r)) => format!("{t} against {r}"),
                (ColorMode::Difference, CompareWith::Theorem(p)) => format!("{t} against {}", p.label()),
                _ => t,
            }
        }
        Subject::Sequence { n } => format!("{}: G(0..{n})", spec.ruleset),
        Subject::Board(doc) => doc.board.clone(),
    }
}

/// Refuses a modulus no figure shows (its legend has an entry per residue).
fn check_modulus(color: ColorMode) -> Result<(), FigureError> {
    match color {
        ColorMode::Modulo(k) if !(2..=MAX_MODULUS).contains(&k) => Err(FigureError::Modulus(k)),
        _ => Ok(()),
    }
}

/// The layout of a figure: margins around a content area of `content_w × content_h` pixels.
#[derive(Debug, Clone, Copy)]
struct Frame {
    width: u32,
    height: u32,
    left: u32,
    top: u32,
    content_w: u32,
    content_h: u32,
    /// Text sizes in pixels.
    title_px: f32,
    label_px: f32,
}

/// The space around the content: axes and their labels on the left and below, the title above,
/// the legend on the right; and the text sizes, which grow with `base`, the picture's width.
#[derive(Debug, Clone, Copy)]
struct Margins {
    left: u32,
    right: u32,
    top: u32,
    bottom: u32,
    /// The legend's height with its padding: a legend taller than the map makes the picture
    /// taller, never overlaps it.
    legend_h: u32,
    title_px: f32,
    label_px: f32,
}

impl Margins {
    fn of(spec: &FigureSpec, rows: u64, cols: u64, title: &str, legend: Option<&Legend>, base: f32) -> Margins {
        let style = &spec.style;
        let label_px = (base / 70.0).clamp(11.0, 48.0);
        let title_px = label_px * 1.3;
        let pad = (label_px * 0.6).round() as u32;
        let max_label = format!("{}", rows.max(cols).saturating_add(1_000));
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
    fn plan(
        spec: &FigureSpec,
        rows: u64,
        cols: u64,
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
                let margins = Margins::of(spec, rows, cols, title, legend, content_w as f32);
                Self::with_content(margins, rows, cols, content_w.round())
            }
            None => {
                let width = spec.style.width;
                let margins = Margins::of(spec, rows, cols, title, legend, width as f32);
                let content_w = i64::from(width) - i64::from(margins.left + margins.right);
                if width < MIN_WIDTH || content_w < i64::from(MIN_CONTENT) {
                    return Err(FigureError::TooNarrow {
                        width,
                        least: Self::least_width(spec, rows, cols, title, legend),
                    });
                }
                Self::with_content(margins, rows, cols, content_w as f64)
            }
        }
    }

    /// The smallest width at which [`Frame::plan`] leaves [`MIN_CONTENT`] pixels for the
    /// content. The margins grow with the width (their text does), so this is the least fixed
    /// point of `w = margins(w) + MIN_CONTENT`, reached by iterating from below.
    fn least_width(spec: &FigureSpec, rows: u64, cols: u64, title: &str, legend: Option<&Legend>) -> u32 {
        let mut w = MIN_WIDTH;
        loop {
            let m = Margins::of(spec, rows, cols, title, legend, w as f32);
            let need = (m.left + m.right + MIN_CONTENT).max(MIN_WIDTH);
            if need <= w {
                return w;
            }
            w = need;
        }
    }

    /// The frame around a content area `content_w` pixels wide.
    fn with_content(m: Margins, rows: u64, cols: u64, content_w: f64) -> Result<Frame, FigureError> {
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

    fn bytes(&self) -> u64 {
        u64::from(self.width) * u64::from(self.height) * 4
    }

    /// A blank picture with the title drawn.
    fn canvas(&self, style: &FigureStyle, title: &str) -> RgbaImage {
        let bg = match style.background {
            Background::White => ink::WHITE,
            Background::Transparent => ink::CLEAR,
        };
        let mut img = RgbaImage::from_pixel(self.width, self.height, Rgba(bg));
        if !title.is_empty() {
            let x = self.left as f32 + self.content_w as f32 / 2.0;
            text::draw(
                &mut img,
                title,
                Ink::new(Face::Proportional, self.title_px, ink::TEXT),
                x,
                self.title_px * 0.3,
                Anchor::CenterTop,
            );
        }
        img
    }

    /// Pastes `pixels` (content-sized RGBA) into the content area, with a frame around it.
    fn paste(&self, img: &mut RgbaImage, pixels: &[u8]) {
        for y in 0..self.content_h {
            for x in 0..self.content_w {
                let i = ((y * self.content_w + x) * 4) as usize;
                let c = [pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]];
                text::blend(img.get_pixel_mut(self.left + x, self.top + y), c, 1.0);
            }
        }
        let (x0, y0) = (self.left as i64 - 1, self.top as i64 - 1);
        let (x1, y1) = ((self.left + self.content_w) as i64, (self.top + self.content_h) as i64);
        rect_outline(img, x0, y0, x1, y1, 1, ink::FRAME);
    }

    /// Draws `legend` to the right of the content.
    fn legend(&self, img: &mut RgbaImage, legend: &Legend) {
        let x = (self.left + self.content_w) as f32 + self.label_px * 1.2;
        legend::draw(img, legend, self.label_px, x, self.top as f32);
    }
}

/// The legend of a map figure: its colours, the overlays drawn, and how pixels pool cells.
/// The legend of a map figure of `cell_px` pixels a cell: its colours, the overlays drawn,
/// and how pixels pool cells.
fn map_legend(
    spec: &FigureSpec,
    compare: &CompareWith,
    overlays: &Overlays,
    max: u32,
    cell_px: f64,
    not_a_position: bool,
) -> Legend {
    Legend::of_map(&LegendSpec {
        mode: spec.color,
        max,
        pooled: cell_px < 1.0,
        not_computed: false,
        not_a_position,
        compare,
        overlays: overlays.drawn_at(cell_px),
        overlays_hidden: overlays.hidden_at(cell_px),
        marks: MarksShown::default(),
    })
}

pub(super) fn fill_rect(img: &mut RgbaImage, x0: i64, y0: i64, x1: i64, y1: i64, color: [u8; 4]) {
    for y in y0.max(0)..y1.min(img.height() as i64) {
        for x in x0.max(0)..x1.min(img.width() as i64) {
            text::blend(img.get_pixel_mut(x as u32, y as u32), color, 1.0);
        }
    }
}

/// The outline of the box with corners (x0, y0) and (x1, y1) inclusive, `t` pixels thick.
pub(super) fn rect_outline(img: &mut RgbaImage, x0: i64, y0: i64, x1: i64, y1: i64, t: i64, color: [u8; 4]) {
    fill_rect(img, x0, y0, x1 + 1, y0 + t, color);
    fill_rect(img, x0, y1 - t + 1, x1 + 1, y1 + 1, color);
    fill_rect(img, x0, y0, x0 + t, y1 + 1, color);
    fill_rect(img, x1 - t + 1, y0, x1 + 1, y1 + 1, color);
}

#[allow(clippy::too_many_arguments)]
fn draw_map(
    spec: &FigureSpec,
    frame: &Frame,
    title: &str,
    titles: &AxisTitles,
    grid: &Grid,
    other: Option<&Grid>,
    theorem: Option<Prediction>,
    rows: &Range<u64>,
    cols: &Range<u64>,
) -> RgbaImage {
    let mut img = frame.canvas(&spec.style, title);
    let cpp = (cols.end - cols.start) as f64 / frame.content_w as f64;
    let view = View {
        left: cols.start as f64,
        bottom: rows.start as f64,
        cells_per_pixel: cpp,
        width: frame.content_w as usize,
        height: frame.content_h as usize,
    };
    let max = grid.max_value();
    let value = |c: Cell| (rows.contains(&c.a) && cols.contains(&c.b)).then(|| grid.get(c.a, c.b));
    let other_value = |c: Cell| match (other, theorem) {
        (Some(g), _) => g.get(c.a, c.b),
        (None, Some(p)) => p.is_p(c.a, c.b).map(|p| u32::from(!p)),
        (None, None) => None,
    };
    let pixels = raster(&view, spec.color, max, &value, &other_value);
    frame.paste(&mut img, &pixels);
    if spec.style.axes {
        axes(&mut img, frame, titles, rows, cols, cpp);
    }
    if spec.style.legend {
        let Subject::Map { compare, overlays, .. } = &spec.subject else {
            return img;
        };
        let not_a_position = rows.clone().any(|a| cols.clone().any(|b| grid.get(a, b).is_none()));
        let legend = map_legend(spec, compare, overlays, max, 1.0 / cpp, not_a_position);
        frame.legend(&mut img, &legend);
    }
    img
}

/// Tick marks and labels at cell centres (columns b along the bottom, rows a up the left side),
/// never overlapping, and the axes' titles: the columns' below their labels, the rows' above
/// the map.
fn axes(img: &mut RgbaImage, frame: &Frame, titles: &AxisTitles, rows: &Range<u64>, cols: &Range<u64>, cpp: f64) {
    let px = frame.label_px;
    let label = Ink::new(Face::Monospace, px, ink::TEXT);
    let width = |k: u64| f64::from(text::measure(&k.to_string(), Face::Monospace, px).0);
    let height = |_: u64| f64::from(px);
    let tick = (px * 0.4).round() as i64;
    let bottom = (frame.top + frame.content_h) as i64;
    let gap = f64::from(px);
    for b in ticks(cols.start as f64, cols.end as f64, cols.end, 1.0 / cpp, gap, &width) {
        let x = frame.left as f64 + ((b - cols.start) as f64 + 0.5) / cpp;
        let xi = x.round() as i64;
        fill_rect(img, xi, bottom, xi + 1, bottom + tick, ink::FRAME);
        text::draw(
            img,
            &b.to_string(),
            label,
            x as f32,
            (bottom + tick) as f32 + px * 0.2,
            Anchor::CenterTop,
        );
    }
    for a in ticks(
        rows.start as f64,
        rows.end as f64,
        rows.end,
        1.0 / cpp,
        gap * 0.5,
        &height,
    ) {
        let y = (frame.top + frame.content_h) as f64 - ((a - rows.start) as f64 + 0.5) / cpp;
        let yi = y.round() as i64;
        let x0 = frame.left as i64 - 1;
        fill_rect(img, x0 - tick, yi, x0, yi + 1, ink::FRAME);
        text::draw(
            img,
            &a.to_string(),
            label,
            (x0 - tick) as f32 - px * 0.3,
            y as f32,
            Anchor::RightCenter,
        );
    }
    let words = Ink::new(Face::Proportional, px, ink::TEXT);
    let mid_x = frame.left as f32 + frame.content_w as f32 / 2.0;
    let cols_title = match &titles.caption {
        Some(c) => format!("{}   (positions {c})", titles.cols),
        None => titles.cols.clone(),
    };
    text::draw(
        img,
        &cols_title,
        words,
        mid_x,
        (bottom + tick) as f32 + px * 1.35,
        Anchor::CenterTop,
    );
    text::draw(
        img,
        &titles.rows,
        words,
        frame.left as f32,
        frame.top as f32 - px * 0.8,
        Anchor::LeftCenter,
    );
}

/// Heaps per row of a sequence figure: a multiple of a short period, so periodic values line
/// up in columns, else 50.
fn sequence_row_len(seq: &Sequence) -> u64 {
    match seq.periodicity {
        Some(p) if (1..=60).contains(&p.period) => p.period * 30u64.div_ceil(p.period),
        _ => 50,
    }
}

fn draw_sequence(spec: &FigureSpec, seq: &Sequence, title: &str) -> Result<(RgbaImage, Frame), FigureError> {
    let n = seq.values.len() as u64;
    let per_row = sequence_row_len(seq).min(n);
    let rows = n.div_ceil(per_row);
    let max = seq.values.iter().flatten().copied().max().unwrap_or(0);
    let legend = sequence_legend(spec.color, max);
    let frame = Frame::plan(spec, rows, per_row, title, Some(&legend))?;
    let mut img = frame.canvas(&spec.style, title);
    let cell = frame.content_w as f64 / per_row as f64;
    let mut pixels = vec![0u8; (frame.content_w * frame.content_h * 4) as usize];
    for y in 0..frame.content_h {
        let r = ((y as f64 + 0.5) / cell) as u64;
        for x in 0..frame.content_w {
            let c = ((x as f64 + 0.5) / cell) as u64;
            let heap = r * per_row + c;
            let i = ((y * frame.content_w + x) * 4) as usize;
            if let Some(v) = seq.values.get(heap as usize) {
                pixels[i..i + 4].copy_from_slice(&spec.color.color(*v, max, None));
            }
        }
    }
    frame.paste(&mut img, &pixels);
    if let Some(p) = seq.periodicity.filter(|p| p.preperiod > 0 && p.preperiod < n) {
        // Outline the first heap of the periodic part.
        let (r, c) = (p.preperiod / per_row, p.preperiod % per_row);
        let x0 = frame.left as i64 + (c as f64 * cell) as i64;
        let y0 = frame.top as i64 + (r as f64 * cell) as i64;
        let side = cell.max(3.0) as i64;
        rect_outline(
            &mut img,
            x0,
            y0,
            x0 + side - 1,
            y0 + side - 1,
            (side / 6).max(1),
            ink::MARK,
        );
    }
    if spec.style.axes {
        let px = frame.label_px;
        let step = nice_step(px as f64 * 2.0 / cell).max(1.0) as u64;
        for r in (0..rows).step_by(step as usize) {
            let y = frame.top as f32 + ((r as f64 + 0.5) * cell) as f32;
            let label = format!("n = {}", r * per_row);
            text::draw(
                &mut img,
                &label,
                Ink::new(Face::Monospace, px * 0.8, ink::TEXT),
                frame.left as f32 - px * 0.4,
                y,
                Anchor::RightCenter,
            );
        }
    }
    if spec.style.legend {
        frame.legend(&mut img, &legend);
    }
    Ok((img, frame))
}

/// The legend of a sequence figure (one cell a heap: nothing is pooled).
fn sequence_legend(mode: ColorMode, max: u32) -> Legend {
    Legend::of_map(&LegendSpec {
        mode,
        max,
        pooled: false,
        not_computed: false,
        not_a_position: false,
        compare: &CompareWith::Nothing,
        overlays: Overlays::NONE,
        overlays_hidden: false,
        marks: MarksShown::default(),
    })
}

fn draw_picture(
    spec: &FigureSpec,
    picture: &RgbaImage,
    legend: &Legend,
    title: &str,
) -> Result<(RgbaImage, Frame), FigureError> {
    let spec = FigureSpec {
        style: FigureStyle {
            axes: false,
            legend: spec.style.legend && !legend.items.is_empty(),
            ..spec.style.clone()
        },
        ..spec.clone()
    };
    let frame = Frame::plan(
        &spec,
        u64::from(picture.height()),
        u64::from(picture.width()),
        title,
        Some(legend),
    )?;
    let mut img = frame.canvas(&spec.style, title);
    let scaled = image::imageops::resize(
        picture,
        frame.content_w,
        frame.content_h,
        image::imageops::FilterType::Nearest,
    );
    frame.paste(&mut img, scaled.as_raw());
    if spec.style.legend {
        frame.legend(&mut img, legend);
    }
    Ok((img, frame))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wythoff_spec(style: FigureStyle) -> FigureSpec {
        FigureSpec {
            ruleset: Ruleset::Wythoff,
            subject: Subject::Map {
                layout: Layout::Plain,
                rows: 0..20,
                cols: 0..30,
                compare: CompareWith::Nothing,
                overlays: Overlays::default(),
            },
            color: ColorMode::Outcome,
            style,
            scale: None,
        }
    }

    /// The colour at the centre of cell (a, b) of a map figure with no axes, legend or title.
    fn cell_color(img: &RgbaImage, frame_left: u32, frame_top: u32, cell: f64, rows: u64, a: u64, b: u64) -> [u8; 4] {
        let x = frame_left as f64 + (b as f64 + 0.5) * cell;
        let y = frame_top as f64 + (rows as f64 - a as f64 - 0.5) * cell;
        img.get_pixel(x as u32, y as u32).0
    }

    #[test]
    fn map_cells_show_the_wythoff_pairs() {
        let style = FigureStyle {
            width: 30 * 10 + 2 * 7,
            axes: false,
            legend: false,
            title: "-".into(),
            background: Background::White,
        };
        let spec = wythoff_spec(style);
        let fig = make_figure(&spec, &Control::new()).unwrap();
        let frame = Frame::plan(&spec, 20, 30, "", None).unwrap();
        assert_eq!(frame.content_w, 300);
        assert_eq!(fig.image.height(), frame.height);
        for a in 0..20u64 {
            for b in 0..30u64 {
                let expect_p = crate::game::theory::is_wythoff_p(a, b);
                let c = cell_color(&fig.image, frame.left, frame.top, 10.0, 20, a, b);
                let want = if expect_p {
                    crate::raster::colors::P_POSITION
                } else {
                    crate::raster::colors::N_POSITION
                };
                assert_eq!(c, want, "({a}, {b})");
            }
        }
    }

    #[test]
    fn the_wythoff_overlay_rings_exactly_the_solved_p_positions() {
        let style = FigureStyle {
            width: 30 * 40 + 2 * 7,
            axes: false,
            legend: false,
            title: "-".into(),
            background: Background::White,
        };
        let mut spec = wythoff_spec(style);
        let Subject::Map { overlays, .. } = &mut spec.subject else {
            unreachable!()
        };
        *overlays = Overlays {
            grid_lines: true,
            wythoff_pairs: true,
            ..Overlays::NONE
        };
        let fig = make_figure(&spec, &Control::new()).unwrap();
        let [left, top, w, _] = fig.content;
        let cell = f64::from(w) / 30.0;
        let frame = Frame::plan(&spec, 20, 30, "", None).unwrap();
        let radius = (cell * 0.3).min(6.0 * f64::from(frame.label_px) / 11.0);
        // the solver's values, not the closed form the overlay is drawn from
        let grid = grid::grid(&Ruleset::Wythoff, &Layout::Plain, 0..20, 0..30, &Control::new()).unwrap();
        let bluish = |c: [u8; 4]| c[2] as i32 > c[0] as i32 + 60;
        for a in 0..20u64 {
            for b in 0..30u64 {
                let x = f64::from(left) + (b as f64 + 0.5) * cell + radius;
                let y = f64::from(top) + (20.0 - a as f64 - 0.5) * cell;
                let ring = fig.image.get_pixel(x as u32, y as u32).0;
                assert_eq!(bluish(ring), grid.get(a, b) == Some(0), "({a}, {b}): {ring:?}");
                let centre = fig.image.get_pixel((x - radius) as u32, y as u32).0;
                assert!(
                    !bluish(centre),
                    "({a}, {b}): the ring leaves the cell's colour in its middle"
                );
            }
        }
    }

    #[test]
    fn provenance_and_determinism() {
        let spec = wythoff_spec(FigureStyle::default());
        let a = make_figure(&spec, &Control::new()).unwrap();
        let b = make_figure(&spec, &Control::new()).unwrap();
        assert_eq!(a.image, b.image);
        let keys: Vec<&str> = a.metadata.iter().map(|(k, _)| k.as_str()).collect();
        assert!(keys.contains(&"Title") && keys.contains(&"nimscope.region") && keys.contains(&"Software"));
        assert!(
            a.metadata
                .iter()
                .any(|(k, v)| k == "nimscope.ruleset" && v == "wythoff")
        );
        assert_eq!(a.image.width(), 1600);
    }

    #[test]
    fn bad_requests_are_refused_before_any_work() {
        let mut spec = wythoff_spec(FigureStyle::default());
        spec.scale = Some(1000.0);
        assert!(matches!(
            make_figure(&spec, &Control::new()),
            Err(FigureError::TooLarge(..))
        ));
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            spec.scale = Some(bad);
            assert!(matches!(
                make_figure(&spec, &Control::new()),
                Err(FigureError::BadScale(_))
            ));
        }
        for huge in [1e18, 1e300, f64::MAX] {
            spec.scale = Some(huge);
            assert!(matches!(
                make_figure(&spec, &Control::new()),
                Err(FigureError::TooLarge(..))
            ));
        }
        // 30 columns at 0.0001 pixels each: refused, naming a scale that works
        spec.scale = Some(0.0001);
        let Err(FigureError::ScaleTooSmall { least, .. }) = make_figure(&spec, &Control::new()) else {
            panic!("a 0.003-pixel map was drawn")
        };
        spec.scale = Some(least);
        let fig = make_figure(&spec, &Control::new()).unwrap();
        assert!(fig.content[2] >= MIN_CONTENT);
        spec.scale = Some(least - 0.002);
        assert!(make_figure(&spec, &Control::new()).is_err());
        spec.color = ColorMode::Modulo(u32::MAX);
        spec.scale = None;
        assert!(matches!(
            make_figure(&spec, &Control::new()),
            Err(FigureError::Modulus(_))
        ));
        spec.scale = None;
        spec.color = ColorMode::Difference;
        assert!(matches!(
            make_figure(&spec, &Control::new()),
            Err(FigureError::NothingToCompare)
        ));
    }

    #[test]
    fn the_least_width_stated_is_the_least_that_works() {
        let styles = [
            FigureStyle::default(),
            FigureStyle {
                axes: false,
                legend: false,
                title: "-".into(),
                ..FigureStyle::default()
            },
        ];
        for style in styles {
            for (rows, cols, color) in [
                (20u64, 30u64, ColorMode::Outcome),
                (1 << 40, 1 << 40, ColorMode::Difference),
                (3, 1, ColorMode::Modulo(MAX_MODULUS)),
            ] {
                let mut spec = wythoff_spec(style.clone());
                spec.color = color;
                spec.style.width = 1;
                let Err(FigureError::TooNarrow { least, .. }) = Frame::plan(&spec, rows, cols, "t", None) else {
                    panic!("a width of 1 is too narrow")
                };
                let mut plan = |w: u32| {
                    spec.style.width = w;
                    Frame::plan(&spec, rows, cols, "t", None)
                };
                let ok = plan(least).unwrap();
                assert_eq!(ok.width, least);
                assert!(ok.content_w >= MIN_CONTENT);
                match plan(least - 1) {
                    Err(FigureError::TooNarrow { least: again, .. }) => assert_eq!(again, least),
                    other => panic!("{other:?}"),
                }
                for w in least..least + 400 {
                    assert!(plan(w).is_ok(), "{w}");
                }
            }
        }
    }

    #[test]
    fn transparent_background_and_difference_against_a_theorem() {
        let mut spec = wythoff_spec(FigureStyle {
            background: Background::Transparent,
            legend: false,
            ..FigureStyle::default()
        });
        spec.color = ColorMode::Difference;
        spec.subject = Subject::Map {
            layout: Layout::Plain,
            rows: 0..40,
            cols: 0..40,
            compare: CompareWith::Theorem(Prediction::WythoffPairs),
            overlays: Overlays::default(),
        };
        let fig = make_figure(&spec, &Control::new()).unwrap();
        assert_eq!(fig.image.get_pixel(0, 0).0[3], 0, "the corner is transparent");
        // Prop 3.1.3 holds, so no cell is marked as differing
        assert!(!fig.image.pixels().any(|p| p.0 == crate::raster::colors::DIFFER));
    }

    #[test]
    fn sequence_rows_are_a_multiple_of_the_period() {
        let spec = FigureSpec {
            ruleset: "octal(0.07)".parse().unwrap(),
            subject: Subject::Sequence { n: 300 },
            color: ColorMode::Grundy(crate::raster::Palette::Viridis),
            style: FigureStyle::default(),
            scale: None,
        };
        let fig = make_figure(&spec, &Control::new()).unwrap();
        assert!(
            fig.metadata
                .iter()
                .any(|(k, v)| k == "Title" && v.contains("period 34 from n = 53"))
        );
        let seq = sequence::sequence(&spec.ruleset, 300, &Control::new()).unwrap();
        assert_eq!(sequence_row_len(&seq), 34);
    }
}
