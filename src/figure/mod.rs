//! Figures for papers and slides: the value map of a region, a value sequence, or a Cram
//! board, with axes, tick labels, legend and title, laid out at a resolution independent of the
//! screen as one list of shapes ([`shapes::Drawing`]) and written as PNG ([`paint`]) or SVG
//! ([`svg`]) from that one drawing, each carrying the figure's provenance. The map's cells go
//! through the same [`crate::raster`] path as the window, so the figure shows what the screen
//! shows. No GUI toolkit here: the command line and the window's export lane both call
//! [`make_figure`].

pub mod board;
mod legend;
mod overlay;
pub mod paint;
pub mod png_out;
pub mod shapes;
pub mod svg;
pub mod text;

use std::ops::Range;

use image::RgbaImage;

use crate::game::Ruleset;
use crate::game::cram_setup::{CramDocument, CramModel, Setup};
use crate::game::prediction::Prediction;
use crate::game::{Cell, Layout};
use crate::raster::ColorRange;
use crate::raster::axes::{AxisTitles, ticks};
use crate::raster::{
    ColorMode, CompareWith, Legend, LegendItem, LegendSpec, MarksShown, Overlays, View, colors, nice_step, raster,
};
use crate::solver::cram::report::{CramPhase, CramReport, CramSolvers, cram_report};
use crate::solver::grid::{self, Grid};
use crate::solver::sequence::{self, Sequence};
use crate::solver::tiles::ValueCounts;
use crate::solver::{Control, SolveError};
use board::BoardContents;
use shapes::{Cells, Drawing, Element, Rect, Text};
use std::collections::HashSet;
use text::{Anchor, Face};

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
    /// The range of the Grundy colours (the window's, when it exports).
    pub range: ColorRange,
}

impl Default for FigureStyle {
    fn default() -> Self {
        Self {
            width: 1600,
            axes: true,
            legend: true,
            title: String::new(),
            background: Background::White,
            range: ColorRange::Auto,
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

/// A laid-out figure: its shapes, and the provenance written into its PNG or SVG.
#[derive(Debug, Clone)]
pub struct Figure {
    pub drawing: Drawing,
    /// (keyword, text) pairs: the PNG's text chunks, the SVG's `<metadata>`.
    pub metadata: Vec<(String, String)>,
    /// Where the map, sequence or board lies in the picture: left, top, width, height.
    pub content: [u32; 4],
}

/// The file formats of a figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Png,
    Svg,
}

impl Format {
    /// The format a file's name asks for: `.svg` or `.png` (in any case); a name without an
    /// extension (such as `/dev/stdout`) gets PNG; any other extension is refused.
    pub fn of_path(path: &std::path::Path) -> Result<Format, FigureError> {
        match path.extension().map(|e| e.to_string_lossy().to_ascii_lowercase()) {
            None => Ok(Format::Png),
            Some(e) if e == "png" => Ok(Format::Png),
            Some(e) if e == "svg" => Ok(Format::Svg),
            Some(e) => Err(FigureError::UnknownFormat(e)),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Format::Png => "PNG",
            Format::Svg => "SVG",
        }
    }
}

impl Figure {
    pub fn width(&self) -> u32 {
        self.drawing.width
    }

    pub fn height(&self) -> u32 {
        self.drawing.height
    }

    /// The figure's pixels (the PNG's image).
    pub fn image(&self) -> RgbaImage {
        paint::paint(&self.drawing)
    }

    /// The figure as an SVG document.
    pub fn svg(&self) -> String {
        svg::to_svg(&self.drawing, &self.metadata)
    }

    /// The bytes of the figure's file in `format`.
    pub fn encode(&self, format: Format) -> Result<Vec<u8>, FigureError> {
        match format {
            Format::Png => {
                png_out::encode(&self.image(), &self.metadata).map_err(|e| FigureError::Encode(e.to_string()))
            }
            Format::Svg => Ok(self.svg().into_bytes()),
        }
    }
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
    #[error("a figure is written as PNG or SVG: name the file .png or .svg (not .{0})")]
    UnknownFormat(String),
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
    let (shapes, frame) = match &spec.subject {
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
            // The legend is planned before the values are known: the widest it can be with
            // cells of the size this plan gives (the pooling note and the one on hidden rings
            // only for cells under 3 pixels, as then drawn), with every overlay's entry.
            let (n_rows, n_cols) = (rows.end - rows.start, cols.end - cols.start);
            let plan = |cell_px: f64| -> Result<Frame, FigureError> {
                let mut planned = map_legend(spec, compare, overlays, (99_999, PLANNED_CLIP), 1e9, true);
                if cell_px < crate::raster::MARKS_MIN_CELL_PX {
                    for item in map_legend(spec, compare, overlays, (99_999, PLANNED_CLIP), 0.5, true).items {
                        if !planned.items.contains(&item) {
                            planned.items.push(item);
                        }
                    }
                }
                let widest = rows.end.max(cols.end).max(n_rows.max(n_cols).saturating_add(1_000));
                Frame::plan_labelled(spec, n_rows, n_cols, widest, &title, Some(&planned))
            };
            let mut frame = match plan(1e9) {
                // too narrow for any cells: the least width that works is the small cells'
                Err(FigureError::TooNarrow { .. }) => plan(0.5)?,
                other => other?,
            };
            if f64::from(frame.content_w) / (n_cols as f64) < crate::raster::MARKS_MIN_CELL_PX {
                frame = plan(0.5)?;
            }
            if (spec.color, compare) == (ColorMode::Difference, &CompareWith::Nothing) {
                // refused before the grid is computed: there is nothing to compare it with
                return Err(FigureError::NothingToCompare);
            }
            control.reserve("the figure's pixels", frame.bytes())?;
            let grid = grid::grid(&spec.ruleset, layout, rows.clone(), cols.clone(), control)?;
            let other = match (spec.color, compare) {
                (ColorMode::Difference, CompareWith::Nothing) => return Err(FigureError::NothingToCompare),
                (ColorMode::Difference, CompareWith::Ruleset(r)) => {
                    metadata.push(("nimscope.compare".into(), r.to_string()));
                    Some(grid::grid(r, layout, rows.clone(), cols.clone(), control)?)
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
            let map = MapData {
                grid: &grid,
                other: other.as_ref(),
                theorem,
                rows,
                cols,
                compare,
                overlays,
            };
            let shapes = draw_map(spec, &frame, &title, &axes, &map);
            metadata.push((
                "nimscope.map_px".into(),
                format!("{},{},{},{}", frame.left, frame.top, frame.content_w, frame.content_h),
            ));
            (shapes, frame)
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
            let variant = CramPhase::of(doc.rules, doc.pushed);
            metadata.push(("nimscope.board".into(), setup.position_text()));
            metadata.push(("nimscope.variant".into(), variant.describe().into()));
            // A drawing that is not a legal position is still drawn, without values.
            let report = match setup.to_board() {
                Ok(board) => Some(cram_report(&board, variant, &mut CramSolvers::default(), control)?),
                Err(_) => None,
            };
            if spec.style.title.is_empty() {
                title = board_title(setup, variant, report.as_ref());
            }
            draw_board(spec, setup, report.as_ref(), &title)?
        }
    };
    let drawing = Drawing {
        width: frame.width,
        height: frame.height,
        background: match spec.style.background {
            Background::White => Some(ink::WHITE),
            Background::Transparent => None,
        },
        shapes,
    };
    metadata.push(("nimscope.size".into(), format!("{}x{}", drawing.width, drawing.height)));
    let content = [frame.left, frame.top, frame.content_w, frame.content_h];
    if !title.is_empty() {
        metadata.insert(0, ("Title".to_string(), title));
    }
    Ok(Figure {
        drawing,
        metadata,
        content,
    })
}

/// Encodes and writes `figure` to `path` atomically, as the file's extension says
/// ([`Format::of_path`]).
pub fn write_figure(figure: &Figure, path: &std::path::Path, control: &Control) -> Result<(), FigureError> {
    write_figure_as(figure, path, Format::of_path(path)?, control)
}

/// Bytes an SVG takes per rectangle of cells, at most (`<rect x=".." y=".." width=".."
/// height=".."/>` with numbers of up to five digits, and a newline).
const SVG_BYTES_PER_RUN: u64 = 56;

/// Encodes and writes `figure` to `path` atomically in `format`. An SVG is refused before it is
/// written when its text would exceed the memory budget (a pooled map of many colours across
/// thousands of pixels has a rectangle for nearly every pixel).
pub fn write_figure_as(
    figure: &Figure,
    path: &std::path::Path,
    format: Format,
    control: &Control,
) -> Result<(), FigureError> {
    if format == Format::Svg {
        let runs: u64 = Element::flatten(&figure.drawing.shapes)
            .into_iter()
            .map(|s| match s {
                Element::Cells(c) => c.runs().len() as u64,
                _ => 1,
            })
            .sum();
        control.reserve(
            "the SVG's text (export a PNG instead, or fewer pixels)",
            runs.saturating_mul(SVG_BYTES_PER_RUN),
        )?;
    }
    let bytes = figure.encode(format)?;
    crate::files::write_atomic(path, &bytes).map_err(|e| FigureError::Write {
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

/// Longest typed rule in a default title (the provenance keeps the whole text).
const TITLE_RULE_CHARS: usize = 48;

fn default_title(spec: &FigureSpec) -> String {
    match &spec.subject {
        Subject::Map { layout, compare, .. } => {
            let mut t = spec.ruleset.short_text(TITLE_RULE_CHARS);
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
        Subject::Sequence { n } => format!("{}: G(0..{n})", spec.ruleset.short_text(TITLE_RULE_CHARS)),
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
    fn of(spec: &FigureSpec, widest: u64, title: &str, legend: Option<&Legend>, base: f32) -> Margins {
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
    fn plan(
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
    fn plan_labelled(
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
    fn least_width(spec: &FigureSpec, widest: u64, title: &str, legend: Option<&Legend>) -> u32 {
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

    /// The title, centred above the content, moved or made smaller as far as it must be to
    /// stay inside the picture (with room for a reader's font a fifth wider than ours).
    fn title(&self, title: &str) -> Vec<Element> {
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
    fn content_rect(&self) -> Rect {
        Rect::new(
            f64::from(self.left),
            f64::from(self.top),
            f64::from(self.left + self.content_w),
            f64::from(self.top + self.content_h),
        )
    }

    /// The frame around the content area, just outside it.
    fn frame(&self) -> [Element; 4] {
        let (x0, y0) = (f64::from(self.left) - 1.0, f64::from(self.top) - 1.0);
        let (x1, y1) = (
            f64::from(self.left + self.content_w),
            f64::from(self.top + self.content_h),
        );
        Element::outline(x0, y0, x1, y1, 1.0, ink::FRAME)
    }

    /// `legend` to the right of the content.
    fn legend(&self, legend: &Legend) -> Element {
        let x = (self.left + self.content_w) as f32 + self.label_px * 1.2;
        Element::Group {
            name: "legend",
            clip: None,
            shapes: legend::shapes(legend, self.label_px, x, self.top as f32),
        }
    }
}

/// The legend of a map figure: its colours, the overlays drawn, and how pixels pool cells.
/// The legend of a map figure of `cell_px` pixels a cell: its colours, the overlays drawn,
/// and how pixels pool cells.
/// The clipped values' note as long as it gets, for planning the legend's room.
const PLANNED_CLIP: Option<&str> = Some("G > 99999 (99.9% of the cells): the top colour");

/// The legend of a map figure; `(max, clipped)`: the top of the colours and the note on the
/// values above it.
fn map_legend(
    spec: &FigureSpec,
    compare: &CompareWith,
    overlays: &Overlays,
    (max, clipped): (u32, Option<&str>),
    cell_px: f64,
    not_a_position: bool,
) -> Legend {
    Legend::of_map(&LegendSpec {
        mode: spec.color,
        max,
        clipped: clipped.map(str::to_string),
        pooled: cell_px < 1.0,
        not_computed: false,
        not_a_position,
        compare,
        overlays: overlays.drawn_at(cell_px),
        overlays_hidden: overlays.hidden_at(cell_px),
        marks: MarksShown::default(),
    })
}

/// What a map figure shows: the values, the compared ones, the region, the overlays.
struct MapData<'a> {
    grid: &'a Grid,
    other: Option<&'a Grid>,
    theorem: Option<Prediction>,
    rows: &'a Range<u64>,
    cols: &'a Range<u64>,
    compare: &'a CompareWith,
    overlays: &'a Overlays,
}

/// The map's cells as blocks: one block a cell when cells are at least a pixel wide, else one
/// a pixel, each the pooled key of the cells whose centres fall in it ([`raster`]).
fn map_cells(spec: &FigureSpec, frame: &Frame, map: &MapData, max: u32) -> Cells {
    let (rows, cols) = (map.rows, map.cols);
    let (n_rows, n_cols) = ((rows.end - rows.start) as usize, (cols.end - cols.start) as usize);
    let cpp = n_cols as f64 / f64::from(frame.content_w);
    let value = |c: Cell| (rows.contains(&c.a) && cols.contains(&c.b)).then(|| map.grid.get(c.a, c.b));
    let other_value = |c: Cell| match (map.other, map.theorem) {
        (Some(g), _) => g.get(c.a, c.b),
        (None, Some(p)) => p.is_p(c.a, c.b).map(|p| u32::from(!p)),
        (None, None) => None,
    };
    let origin = (f64::from(frame.left), f64::from(frame.top));
    let (view, block) = if cpp <= 1.0 {
        let view = View {
            left: cols.start as f64,
            bottom: rows.start as f64,
            cells_per_pixel: 1.0,
            width: n_cols,
            height: n_rows,
        };
        let block = (
            f64::from(frame.content_w) / n_cols as f64,
            f64::from(frame.content_h) / n_rows as f64,
        );
        (view, block)
    } else {
        let view = View {
            left: cols.start as f64,
            bottom: rows.start as f64,
            cells_per_pixel: cpp,
            width: frame.content_w as usize,
            height: frame.content_h as usize,
        };
        (view, (1.0, 1.0))
    };
    let bytes = raster(&view, spec.color, max, &value, &other_value);
    Cells {
        origin,
        block,
        cols: view.width,
        rows: view.height,
        colors: bytes.chunks_exact(4).map(|c| [c[0], c[1], c[2], c[3]]).collect(),
    }
}

fn draw_map(spec: &FigureSpec, frame: &Frame, title: &str, titles: &AxisTitles, map: &MapData) -> Vec<Element> {
    let (rows, cols) = (map.rows, map.cols);
    let mut out = frame.title(title);
    let cpp = (cols.end - cols.start) as f64 / f64::from(frame.content_w);
    // the colours' top: the range's over the region's values (the window passes its own)
    let counts = ValueCounts::of(map.grid.rows_iter().flat_map(|(_, r)| r.into_iter().flatten()));
    let range = spec.style.range.top(&counts);
    let max = range.top;
    let cells = map_cells(spec, frame, map, max);
    let shown: HashSet<[u8; 4]> = cells.colors.iter().copied().collect();
    let area = overlay::MapArea {
        clip: frame.content_rect(),
        rows: rows.clone(),
        cols: cols.clone(),
        pixels_per_cell: f64::from(frame.content_w) / (cols.end - cols.start) as f64,
        // the window draws its axis labels at 11 points
        stroke_scale: f64::from(frame.label_px) / 11.0,
    };
    out.push(Element::Group {
        name: "map",
        clip: Some(frame.content_rect()),
        shapes: vec![Element::Cells(cells)],
    });
    out.extend(frame.frame());
    out.push(Element::Group {
        name: "overlays",
        clip: Some(frame.content_rect()),
        shapes: overlay::overlay_shapes(&area, &map.overlays.drawn_at(area.pixels_per_cell)),
    });
    if spec.style.axes {
        out.push(Element::Group {
            name: "axes",
            clip: None,
            shapes: axes(frame, titles, rows, cols, cpp),
        });
    }
    if spec.style.legend {
        let not_a_position = shown.contains(&colors::NOT_A_POSITION);
        let clipped = range.clipped_note();
        let mut legend = map_legend(
            spec,
            map.compare,
            map.overlays,
            (max, clipped.as_deref()),
            1.0 / cpp,
            not_a_position,
        );
        legend.retain_shown(&|c| shown.contains(&c));
        out.push(frame.legend(&legend));
    }
    out
}

/// Tick marks and labels at cell centres (columns b along the bottom, rows a up the left side),
/// never overlapping, and the axes' titles: the columns' below their labels, the rows' above
/// the map.
fn axes(frame: &Frame, titles: &AxisTitles, rows: &Range<u64>, cols: &Range<u64>, cpp: f64) -> Vec<Element> {
    let mut out = Vec::new();
    let px = frame.label_px;
    let label = |text: String, at: (f32, f32), anchor| {
        Element::Text(Text {
            at: (f64::from(at.0), f64::from(at.1)),
            text,
            face: Face::Monospace,
            size: px,
            color: ink::TEXT,
            anchor,
        })
    };
    let width = |k: u64| f64::from(text::measure(&k.to_string(), Face::Monospace, px).0);
    let height = |_: u64| f64::from(px);
    let tick = f64::from(px * 0.4).round();
    let bottom = f64::from(frame.top + frame.content_h);
    let gap = f64::from(px);
    for b in ticks(cols.start as f64, cols.end as f64, cols.end, 1.0 / cpp, gap, &width) {
        let x = f64::from(frame.left) + ((b - cols.start) as f64 + 0.5) / cpp;
        let xi = x.round();
        out.push(Element::Fill {
            rect: Rect::new(xi, bottom, xi + 1.0, bottom + tick),
            color: ink::FRAME,
        });
        out.push(label(
            b.to_string(),
            (x as f32, (bottom + tick) as f32 + px * 0.2),
            Anchor::CenterTop,
        ));
    }
    for a in ticks(
        rows.start as f64,
        rows.end as f64,
        rows.end,
        1.0 / cpp,
        gap * 0.5,
        &height,
    ) {
        let y = bottom - ((a - rows.start) as f64 + 0.5) / cpp;
        let yi = y.round();
        let x0 = f64::from(frame.left) - 1.0;
        out.push(Element::Fill {
            rect: Rect::new(x0 - tick, yi, x0, yi + 1.0),
            color: ink::FRAME,
        });
        out.push(label(
            a.to_string(),
            ((x0 - tick) as f32 - px * 0.3, y as f32),
            Anchor::RightCenter,
        ));
    }
    let words = |text: String, at: (f32, f32), anchor| {
        Element::Text(Text {
            at: (f64::from(at.0), f64::from(at.1)),
            text,
            face: Face::Proportional,
            size: px,
            color: ink::TEXT,
            anchor,
        })
    };
    let mid_x = frame.left as f32 + frame.content_w as f32 / 2.0;
    let cols_title = match &titles.caption {
        Some(c) => format!("{}   (positions {c})", titles.cols),
        None => titles.cols.clone(),
    };
    out.push(words(
        cols_title,
        (mid_x, (bottom + tick) as f32 + px * 1.35),
        Anchor::CenterTop,
    ));
    out.push(words(
        titles.rows.clone(),
        (frame.left as f32, frame.top as f32 - px * 0.8),
        Anchor::LeftCenter,
    ));
    out
}

/// Heaps per row of a sequence figure: a multiple of a short period, so periodic values line
/// up in columns, else 50.
fn sequence_row_len(seq: &Sequence) -> u64 {
    match seq.periodicity {
        Some(p) if (1..=60).contains(&p.period) => p.period * 30u64.div_ceil(p.period),
        _ => 50,
    }
}

fn draw_sequence(spec: &FigureSpec, seq: &Sequence, title: &str) -> Result<(Vec<Element>, Frame), FigureError> {
    let n = seq.values.len() as u64;
    let per_row = sequence_row_len(seq).min(n);
    let rows = n.div_ceil(per_row);
    let max = seq.values.iter().flatten().copied().max().unwrap_or(0);
    let period_mark = seq.periodicity.filter(|p| p.preperiod > 0 && p.preperiod < n);
    let mut legend = sequence_legend(spec.color, max);
    if let Some(p) = period_mark {
        legend.items.push(LegendItem::Outline {
            label: format!("n = {}, where the period {} starts", p.preperiod, p.period),
            color: ink::MARK,
        });
    }
    let frame = Frame::plan(spec, rows, per_row, title, Some(&legend))?;
    let mut out = frame.title(title);
    let cell = f64::from(frame.content_w) / per_row as f64;
    let colors: Vec<[u8; 4]> = (0..rows * per_row)
        .map(|heap| match seq.values.get(heap as usize) {
            Some(v) => spec.color.color(*v, max, None),
            None => ink::CLEAR,
        })
        .collect();
    let shown: HashSet<[u8; 4]> = colors.iter().copied().collect();
    out.push(Element::Group {
        name: "map",
        clip: Some(frame.content_rect()),
        shapes: vec![Element::Cells(Cells {
            origin: (f64::from(frame.left), f64::from(frame.top)),
            block: (cell, f64::from(frame.content_h) / rows as f64),
            cols: per_row as usize,
            rows: rows as usize,
            colors,
        })],
    });
    out.extend(frame.frame());
    if let Some(p) = period_mark {
        // Outline the first heap of the periodic part.
        let (r, c) = (p.preperiod / per_row, p.preperiod % per_row);
        let x0 = (f64::from(frame.left) + c as f64 * cell).floor();
        let y0 = (f64::from(frame.top) + r as f64 * cell).floor();
        let side = cell.max(3.0).floor();
        out.extend(Element::outline(
            x0,
            y0,
            x0 + side - 1.0,
            y0 + side - 1.0,
            (side / 6.0).floor().max(1.0),
            ink::MARK,
        ));
    }
    if spec.style.axes {
        let px = frame.label_px;
        let step = nice_step(f64::from(px) * 2.0 / cell).max(1.0) as u64;
        for r in (0..rows).step_by(step as usize) {
            let y = f64::from(frame.top) + (r as f64 + 0.5) * cell;
            out.push(Element::Text(Text {
                at: (f64::from(frame.left as f32 - px * 0.4), y),
                text: format!("n = {}", r * per_row),
                face: Face::Monospace,
                size: px * 0.8,
                color: ink::TEXT,
                anchor: Anchor::RightCenter,
            }));
        }
    }
    if spec.style.legend {
        legend.retain_shown(&|c| shown.contains(&c));
        out.push(frame.legend(&legend));
    }
    Ok((out, frame))
}

/// The legend of a sequence figure (one cell a heap: nothing is pooled).
fn sequence_legend(mode: ColorMode, max: u32) -> Legend {
    Legend::of_map(&LegendSpec {
        mode,
        max,
        clipped: None,
        pooled: false,
        not_computed: false,
        not_a_position: false,
        compare: &CompareWith::Nothing,
        overlays: Overlays::NONE,
        overlays_hidden: false,
        marks: MarksShown::default(),
    })
}

/// A board figure's title: the game, the board's size, the phase, the value and outcome.
fn board_title(setup: &Setup, variant: CramPhase, report: Option<&CramReport>) -> String {
    let board = format!("{}×{} board", setup.rows(), setup.cols());
    let game = match variant {
        CramPhase::Cram => format!("Cram on a {board}"),
        CramPhase::PushBefore => format!("Push Cram on a {board}, before the push"),
        CramPhase::PushAfter => format!("Push Cram on a {board}, after the push"),
    };
    match report {
        Some(r) => {
            let who = match r.outcome {
                crate::game::Outcome::P => "P-position: the player to move loses",
                crate::game::Outcome::N => "N-position: the player to move wins",
            };
            format!("{game}: G = {}, {who}", r.value)
        }
        None => format!("{game} (not a legal position: no values)"),
    }
}

/// The legend of a board figure: an entry for each thing drawn, none for what is absent.
fn board_legend(seen: &BoardContents, report: Option<&CramReport>) -> Legend {
    let sw = |label: String, c: [u8; 4]| LegendItem::Swatch {
        label,
        fill: crate::raster::Fill::Solid(c),
    };
    let mut items = Vec::new();
    if seen.winning {
        items.push(sw(
            "winning placement (leaves a P-position)".into(),
            board::colors::WINNING,
        ));
    }
    if seen.losing {
        items.push(sw("losing placement".into(), board::colors::LOSING));
    }
    let max = report.map_or(0, board::max_move_value);
    for &v in &seen.values {
        items.push(sw(format!("placement leaving G = {v}"), board::value_color(v, max)));
    }
    if let Some((wins, after)) = seen.push {
        let verdict = if wins { "wins" } else { "loses" };
        let color = if wins {
            board::colors::WINNING
        } else {
            board::colors::LOSING
        };
        items.push(sw(format!("the push: leaves G = {after}, {verdict}"), color));
    }
    if seen.dominoes {
        items.push(sw("domino placed".into(), board::colors::DOMINO));
    }
    if seen.empty {
        items.push(sw("empty cell".into(), board::colors::EMPTY));
    }
    if seen.blocked {
        items.push(sw("blocked cell".into(), board::colors::BLOCKED));
    }
    if seen.components > 0 {
        let label = match report.map(|r| r.variant) {
            Some(CramPhase::PushBefore) => "region of empty cells",
            _ => "component (values nim-add)",
        };
        items.push(LegendItem::Outline {
            label: label.into(),
            color: board::colors::OUTLINE,
        });
    }
    Legend {
        title: "Board".into(),
        items,
    }
}

/// The board drawn in the content area: half a cell of margin around it, and below it, before
/// the Push Cram push, the push as a button coloured like a placement.
fn draw_board(
    spec: &FigureSpec,
    setup: &Setup,
    report: Option<&CramReport>,
    title: &str,
) -> Result<(Vec<Element>, Frame), FigureError> {
    let pushable = report.is_some_and(|r| r.variant == CramPhase::PushBefore);
    // in cells: the board, its margins, and a row for the push button
    let (w_cells, h_cells) = (
        setup.cols() as f64 + 1.0,
        setup.rows() as f64 + 1.0 + if pushable { 1.2 } else { 0.0 },
    );
    // planned on a fine grid of the same shape, so the content keeps the board's proportions
    let (plan_rows, plan_cols) = ((h_cells * 10.0).round() as u64, (w_cells * 10.0).round() as u64);
    let (_, seen) = board::board_shapes(setup, report, (0.0, 0.0), 1.0);
    let legend = board_legend(&seen, report);
    let style = FigureStyle {
        axes: false,
        legend: spec.style.legend && !legend.items.is_empty(),
        ..spec.style.clone()
    };
    let spec = FigureSpec { style, ..spec.clone() };
    let frame = Frame::plan(&spec, plan_rows, plan_cols, title, Some(&legend))?;
    let mut out = frame.title(title);
    let cell = f64::from(frame.content_w) / w_cells;
    let origin = (f64::from(frame.left) + cell / 2.0, f64::from(frame.top) + cell / 2.0);
    let (board_shapes, _) = board::board_shapes(setup, report, origin, cell);
    let mut shapes = vec![Element::Fill {
        rect: frame.content_rect(),
        color: board::colors::BACKGROUND,
    }];
    shapes.extend(board_shapes);
    if let Some((wins, after)) = seen.push {
        let rows: Vec<String> = report.map_or(Vec::new(), |r| r.row_values.iter().map(u32::to_string).collect());
        let text = format!("push: leaves G = {after} (rows {})", rows.join(", "));
        let size = frame.label_px;
        let (text_w, _) = text::measure(&text, Face::Proportional, size);
        let (cx, top) = (
            f64::from(frame.left) + f64::from(frame.content_w) / 2.0,
            origin.1 + (setup.rows() as f64 + 0.3) * cell,
        );
        let (w, h) = (
            f64::from(text_w) * 1.2 + f64::from(size) * 1.5,
            (cell * 0.7).max(f64::from(size) * 1.6),
        );
        let rect = Rect::new(cx - w / 2.0, top, cx + w / 2.0, top + h);
        let color = if wins {
            board::colors::WINNING
        } else {
            board::colors::LOSING
        };
        shapes.push(Element::Fill { rect, color });
        // dark letters on a light button, white on a dark one
        let light = u32::from(color[0]) * 3 + u32::from(color[1]) * 6 + u32::from(color[2]) > 1400;
        shapes.push(Element::Text(Text {
            at: (cx, top + h / 2.0),
            text,
            face: Face::Proportional,
            size,
            color: if light { ink::TEXT } else { ink::WHITE },
            anchor: Anchor::CenterCenter,
        }));
    }
    out.push(Element::Group {
        name: "board",
        clip: Some(frame.content_rect()),
        shapes,
    });
    if spec.style.legend {
        out.push(frame.legend(&legend));
    }
    Ok((out, frame))
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
            ..FigureStyle::default()
        };
        let spec = wythoff_spec(style);
        let fig = make_figure(&spec, &Control::new()).unwrap();
        let image = fig.image();
        let frame = Frame::plan(&spec, 20, 30, "", None).unwrap();
        assert_eq!(frame.content_w, 300);
        assert_eq!(image.height(), frame.height);
        for a in 0..20u64 {
            for b in 0..30u64 {
                let expect_p = crate::game::theory::is_wythoff_p(a, b);
                let c = cell_color(&image, frame.left, frame.top, 10.0, 20, a, b);
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
            ..FigureStyle::default()
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
        let radius = crate::raster::styles::WYTHOFF.ring_radius(cell, f64::from(frame.label_px) / 11.0);
        let image = fig.image();
        // the solver's values, not the closed form the overlay is drawn from
        let grid = grid::grid(&Ruleset::Wythoff, &Layout::Plain, 0..20, 0..30, &Control::new()).unwrap();
        let bluish = |c: [u8; 4]| c[2] as i32 > c[0] as i32 + 60;
        for a in 0..20u64 {
            for b in 0..30u64 {
                let x = f64::from(left) + (b as f64 + 0.5) * cell + radius;
                let y = f64::from(top) + (20.0 - a as f64 - 0.5) * cell;
                let ring = image.get_pixel(x as u32, y as u32).0;
                assert_eq!(bluish(ring), grid.get(a, b) == Some(0), "({a}, {b}): {ring:?}");
                let centre = image.get_pixel((x - radius) as u32, y as u32).0;
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
        assert_eq!(a.image(), b.image());
        assert_eq!(a.svg(), b.svg());
        let keys: Vec<&str> = a.metadata.iter().map(|(k, _)| k.as_str()).collect();
        assert!(keys.contains(&"Title") && keys.contains(&"nimscope.region") && keys.contains(&"Software"));
        assert!(
            a.metadata
                .iter()
                .any(|(k, v)| k == "nimscope.ruleset" && v == "wythoff")
        );
        assert_eq!(a.image().width(), 1600);
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
        assert_eq!(fig.image().get_pixel(0, 0).0[3], 0, "the corner is transparent");
        // Prop 3.1.3 holds, so no cell is marked as differing
        assert!(!fig.image().pixels().any(|p| p.0 == crate::raster::colors::DIFFER));
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
