//! What a figure is asked to show ([`FigureSpec`], [`Subject`], [`FigureStyle`]), what it
//! becomes ([`Figure`]), its formats and errors, its default title, and writing it to a file.

use std::ops::Range;

use image::RgbaImage;

use super::shapes::{Drawing, Element};
use crate::game::Layout;
use crate::game::Ruleset;
use crate::game::cram_setup::CramDocument;
use crate::raster::{ColorMode, CompareWith, Overlays};
use crate::solver::{Control, SolveError};

use super::{paint, png_out, svg};

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
    /// An opaque white background.
    #[default]
    White,
    /// No background: the pixels outside the shapes stay transparent.
    Transparent,
}

/// How a figure looks, independent of what it shows.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct FigureStyle {
    /// Width of the whole picture in pixels (ignored when a scale is given).
    pub width: u32,
    /// Draw the axes with their titles and ticks.
    pub axes: bool,
    /// Draw the legend beside the picture.
    pub legend: bool,
    /// Empty: the ruleset expression (and slice) is the title; `-` for none.
    pub title: String,
    /// What lies behind the picture.
    pub background: Background,
    /// The range of the Grundy colours (the window's, when it exports).
    pub range: crate::raster::ColorRange,
    /// The top of `range` over the figure's region and the values above it, as the window
    /// counted them over that same region: the figure draws with them (the top and the
    /// legend's note a figure counting its cells would give), counting nothing. Never saved:
    /// a figure made from a session file counts its region itself.
    #[serde(skip)]
    pub counted: Option<crate::raster::RangeTop>,
    /// What a pixel of the Grundy colours covering several cells shows (the window's too).
    pub pooling: crate::raster::Pooling,
}

impl Default for FigureStyle {
    fn default() -> Self {
        Self {
            width: 1600,
            axes: true,
            legend: true,
            title: String::new(),
            background: Background::White,
            range: crate::raster::ColorRange::Auto,
            counted: None,
            pooling: crate::raster::Pooling::Least,
        }
    }
}

/// What a figure shows.
#[derive(Debug, Clone, PartialEq)]
pub enum Subject {
    /// Values of the cells `rows × cols` (row a upwards, column b to the right), with the
    /// overlays the window shows over them.
    Map {
        /// Which position each cell stands for (plain, or a slice of a ruleset on more heaps).
        layout: Layout,
        /// The rows shown, a half-open range of `a`.
        rows: Range<u64>,
        /// The columns shown, a half-open range of `b`.
        cols: Range<u64>,
        /// What difference mode compares with (ignored by the other colour modes).
        compare: CompareWith,
        /// The overlays drawn over the cells.
        overlays: Overlays,
    },
    /// G(0..n) of a one-heap ruleset, as rows of coloured cells.
    Sequence {
        /// Number of heap sizes drawn: 0 to n − 1.
        n: u64,
    },
    /// A Cram or Push Cram board (the board editor's document), solved and drawn with its
    /// legal placements coloured by value.
    Board(CramDocument),
}

/// Everything needed to draw a figure.
#[derive(Debug, Clone, PartialEq)]
pub struct FigureSpec {
    /// The ruleset whose values are drawn.
    pub ruleset: Ruleset,
    /// What is drawn: a map, a sequence or a board.
    pub subject: Subject,
    /// How values are coloured.
    pub color: ColorMode,
    /// How the figure looks (size, axes, legend, title, background).
    pub style: FigureStyle,
    /// Pixels per cell; when given, it sets the width instead of `style.width`.
    pub scale: Option<f64>,
}

/// A laid-out figure: its shapes, and the provenance written into its PNG or SVG.
#[derive(Debug, Clone)]
pub struct Figure {
    /// The shapes, and the picture's size and background.
    pub drawing: Drawing,
    /// (keyword, text) pairs: the PNG's text chunks, the SVG's `<metadata>`.
    pub metadata: Vec<(String, String)>,
    /// Where the map, sequence or board lies in the picture: left, top, width, height.
    pub content: [u32; 4],
    /// The side of the blocks of cells the map was drawn from, when it was drawn from the
    /// window's map (see [`super::make_figure_with`]); `None`: from its cells.
    pub from_map: Option<u64>,
}

/// The file formats of a figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// A PNG image (with its provenance in text chunks).
    Png,
    /// An SVG document (with its provenance in `<metadata>`).
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

    /// The format's name, `PNG` or `SVG`, as messages say it.
    pub fn name(self) -> &'static str {
        match self {
            Format::Png => "PNG",
            Format::Svg => "SVG",
        }
    }
}

impl Figure {
    /// Width of the picture in pixels.
    pub fn width(&self) -> u32 {
        self.drawing.width
    }

    /// Height of the picture in pixels.
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

/// Why a figure could not be made or written. Each message is one line for the user.
#[derive(Debug, thiserror::Error)]
pub enum FigureError {
    /// Solving the values failed (cancelled, over the memory budget).
    #[error(transparent)]
    Solve(#[from] SolveError),
    #[error(
        "a figure of {}×{} pixels is too large: at most {MAX_SIDE} pixels a side",
        pixels(*.0),
        pixels(*.1)
    )]
    /// The picture would be larger (width, height in pixels) than [`MAX_SIDE`] a side.
    TooLarge(f64, f64),
    /// The width leaves less than [`MIN_CONTENT`] pixels for the map beside the margins;
    /// `least` is the smallest width that works for this figure.
    #[error(
        "a width of {width} pixels leaves no room for the picture beside its axes, legend and title: this figure needs a width of at least {least} pixels"
    )]
    TooNarrow {
        /// The width asked for, in pixels.
        width: u32,
        /// The smallest width that works for this figure.
        least: u32,
    },
    /// The scale is not a number above 0.
    #[error("a scale of {0} pixels per cell makes no figure: give a number above 0")]
    BadScale(f64),
    /// The scale draws the content narrower than [`MIN_CONTENT`] pixels.
    #[error(
        "a scale of {scale} pixels per cell draws the {cells} cells across {:.3} pixels: a figure needs at least {MIN_CONTENT}, a scale of at least {least}",
        *.scale * *.cells as f64
    )]
    ScaleTooSmall {
        /// The scale asked for, in pixels per cell.
        scale: f64,
        /// Number of columns of cells across the content.
        cells: u64,
        /// The smallest scale that works.
        least: f64,
    },
    /// The modulus of the `Modulo(k)` colour mode is outside 2..=[`MAX_MODULUS`].
    #[error("the colour mode Modulo({0}) is not one a figure shows: the modulus goes from 2 to {MAX_MODULUS}")]
    Modulus(u32),
    /// The region asked for holds no cell (the region as text).
    #[error("the region {0} is empty")]
    EmptyRegion(String),
    /// Difference mode was asked for with nothing to compare with.
    #[error("the difference colour mode needs a ruleset or theorem to compare with")]
    NothingToCompare,
    /// The board document is not a board the figure can draw (the reason).
    #[error("board: {0}")]
    Board(String),
    /// Encoding the PNG failed (the encoder's message).
    #[error("could not encode the PNG: {0}")]
    Encode(String),
    /// The file's extension names no figure format (the extension given).
    #[error("a figure is written as PNG or SVG: name the file .png or .svg (not .{0})")]
    UnknownFormat(String),
    /// Writing the file failed.
    #[error("could not write {path}: {message}")]
    Write {
        /// The file, as given.
        path: String,
        /// Why writing failed.
        message: String,
    },
}

/// A number of pixels as a refusal states it: whole up to a billion, then like `2.9e19`.
pub(super) fn pixels(x: f64) -> String {
    if x < 1e9 { format!("{x:.0}") } else { format!("{x:.1e}") }
}

/// `0..64` as the papers write it: `[0, 64)`.
pub(super) fn range_text(r: &Range<u64>) -> String {
    format!("[{}, {})", r.start, r.end)
}

/// Encodes and writes `figure` to `path` atomically, as the file's extension says
/// ([`Format::of_path`]).
pub fn write_figure(figure: &Figure, path: &std::path::Path, control: &Control) -> Result<(), FigureError> {
    write_figure_as(figure, path, Format::of_path(path)?, control)
}

/// Bytes an SVG takes per rectangle of cells, at most (`<rect x=".." y=".." width=".."
/// height=".."/>` with numbers of up to five digits, and a newline).
pub(super) const SVG_BYTES_PER_RUN: u64 = 56;

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

pub(super) fn layout_text(layout: &Layout) -> String {
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
pub(super) const TITLE_RULE_CHARS: usize = 48;

pub(super) fn default_title(spec: &FigureSpec) -> String {
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
pub(super) fn check_modulus(color: ColorMode) -> Result<(), FigureError> {
    match color {
        ColorMode::Modulo(k) if !(2..=MAX_MODULUS).contains(&k) => Err(FigureError::Modulus(k)),
        _ => Ok(()),
    }
}
