//! `nimscope.Session` (the window's session files: loaded, changed, saved) and
//! `nimscope.Figure` (a session's figure as `nimscope export` draws it, shown inline in Jupyter
//! through `_repr_png_` and `_repr_svg_`, saved as PNG or SVG).

use std::sync::OnceLock;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyType};

use nimscope_core::figure::{Background, Figure as CoreFigure, FigureStyle, Format, write_figure_as};
use nimscope_core::game::{Layout, Ruleset};
use nimscope_core::query::{self, export::ExportOptions};
use nimscope_core::raster::{ColorMode, Palette};
use nimscope_core::session::{CentralTab, Session as CoreSession};

use crate::args::range_arg;
use crate::errors::{Kind, to_py};
use crate::job::Job;

/// Largest SVG shown inline (`_repr_svg_`); larger figures show as PNG only.
const INLINE_SVG_BYTES: usize = 4 << 20;

/// A colour mode from its name: "outcome", "grundy", "grundy-log", "modulo(k)",
/// "difference", or as a session writes it ("Grundy(Cividis)").
pub fn color_arg(text: &str) -> PyResult<ColorMode> {
    let t = text.trim().to_ascii_lowercase();
    let named = match t.as_str() {
        "outcome" => Some(ColorMode::Outcome),
        "grundy" => Some(ColorMode::Grundy(Palette::Viridis)),
        "grundy-log" => Some(ColorMode::GrundyLog(Palette::Viridis)),
        "difference" => Some(ColorMode::Difference),
        _ => t
            .strip_prefix("modulo(")
            .and_then(|k| k.strip_suffix(')'))
            .and_then(|k| k.trim().parse().ok())
            .map(ColorMode::Modulo),
    };
    match named {
        Some(c) => Ok(c),
        None => ron::from_str(text.trim()).map_err(|_| {
            PyValueError::new_err(format!(
                "{} is not a colour mode: \"outcome\", \"grundy\", \"grundy-log\", \"modulo(k)\", \"difference\", or a session's, e.g. \"Grundy(Cividis)\"",
                nimscope_core::game::quote::quoted(text)
            ))
        }),
    }
}

/// The ruleset an expression names, or the RulesetError `nimscope.Ruleset` raises for it.
fn ruleset_arg(text: &str) -> PyResult<Ruleset> {
    query::ruleset(text).map_err(|e| to_py(&e))
}

/// The layout a slice text gives ("1,_,_"; "" for the plain map), or a SessionError.
fn slice_arg(text: &str) -> PyResult<Layout> {
    Layout::from_slice_text(text)
        .map_err(|e| Kind::Session.err(format!("slice {}: {e}", nimscope_core::game::quote::quoted(text))))
}

/// A new session of `ruleset` showing what a call asks (the window's defaults elsewhere): the
/// map of `rows × cols`, or G(0..n), a slice, a colour mode.
pub fn shown(
    ruleset: &str,
    rows: Option<&Bound<'_, PyAny>>,
    cols: Option<&Bound<'_, PyAny>>,
    n: Option<u64>,
    slice: Option<String>,
    color: Option<&str>,
) -> PyResult<CoreSession> {
    let mut s = CoreSession {
        ruleset: ruleset_arg(ruleset)?,
        layout: slice_arg(slice.as_deref().unwrap_or_default())?,
        ..Default::default()
    };
    if let Some(r) = rows {
        s.rows = range_arg(r, "rows")?;
    }
    if let Some(c) = cols {
        s.cols = range_arg(c, "cols")?;
    }
    if let Some(n) = n {
        s.sequence_len = n;
    }
    if let Some(c) = color {
        s.color = color_arg(c)?;
    }
    Ok(s)
}

/// A figure style with a call's choices applied.
pub fn apply_style(
    style: &mut FigureStyle,
    width: Option<u32>,
    axes: bool,
    legend: bool,
    title: Option<String>,
    transparent: bool,
) {
    if let Some(w) = width {
        style.width = w;
    }
    style.axes &= axes;
    style.legend &= legend;
    if let Some(t) = title {
        style.title = t;
    }
    if transparent {
        style.background = Background::Transparent;
    }
}

/// A saved exploration: the ruleset, the region or sequence a figure shows, colours,
/// overlays, the Cram board, notes; the files the window saves (File ▸ Save) and `nimscope
/// export` reads.
#[pyclass(module = "nimscope")]
#[derive(Clone)]
pub struct Session {
    session: CoreSession,
    /// What errors call it: its file when it was loaded from one.
    source: String,
}

impl Session {
    /// A session whose fields are checked as a loaded file's are.
    pub fn checked(session: CoreSession) -> PyResult<Session> {
        session
            .validate()
            .map_err(|e| Kind::Session.err(format!("session {}: {}", e.field.join("."), e.message)))?;
        Ok(Session {
            session,
            source: "session".into(),
        })
    }

    fn set(&mut self, change: impl FnOnce(&mut CoreSession)) -> PyResult<()> {
        let mut s = self.session.clone();
        change(&mut s);
        self.session = Session::checked(s)?.session;
        Ok(())
    }

    /// The figure of this session with `scale` (pixels per cell) if given.
    pub fn draw(
        &self,
        py: Python<'_>,
        scale: Option<f64>,
        budget: Option<u64>,
        threads: Option<usize>,
        progress: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Figure> {
        self.export(
            py,
            ExportOptions {
                scale,
                ..Default::default()
            },
            budget,
            threads,
            progress,
        )
    }

    fn export(
        &self,
        py: Python<'_>,
        options: ExportOptions,
        budget: Option<u64>,
        threads: Option<usize>,
        progress: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Figure> {
        let job = Job::new(py, budget, threads, progress)?;
        let (session, source) = (&self.session, &self.source);
        let figure = job.run(py, |control| query::export::figure(session, source, &options, control))?;
        Ok(Figure {
            figure,
            session: self.clone(),
            scale: options.scale,
            png: OnceLock::new(),
        })
    }
}

#[pymethods]
impl Session {
    /// A new session of `ruleset` (default "wythoff") with the window's defaults: the map of
    /// rows × cols 0..64, colours by outcome, a figure 1600 pixels wide.
    #[new]
    #[pyo3(signature = (ruleset="wythoff", *, rows=None, cols=None, n=None, slice=None, color=None, board=None, push=false, notes=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        ruleset: &str,
        rows: Option<&Bound<'_, PyAny>>,
        cols: Option<&Bound<'_, PyAny>>,
        n: Option<u64>,
        slice: Option<String>,
        color: Option<&str>,
        board: Option<&str>,
        push: bool,
        notes: Option<String>,
    ) -> PyResult<Session> {
        let mut s = shown(ruleset, rows, cols, n, slice, color)?;
        if let Some(b) = board {
            s.board = Some(query::cram::document(b, push).map_err(|e| to_py(&e))?);
            s.tab = CentralTab::CramBoard;
        }
        s.notes = notes.unwrap_or_default();
        Session::checked(s)
    }

    /// Reads a session file (RON), checked field by field as the window reads it; errors name
    /// the file, line and column.
    #[classmethod]
    fn load(_cls: &Bound<'_, PyType>, path: std::path::PathBuf) -> PyResult<Session> {
        let session = CoreSession::load(&path).map_err(|e| Kind::Session.err(e.to_string()))?;
        Ok(Session {
            session,
            source: path.display().to_string(),
        })
    }

    /// A session from its RON text; `name` names it in errors.
    #[classmethod]
    #[pyo3(signature = (text, name="<string>"))]
    fn from_ron(_cls: &Bound<'_, PyType>, text: &str, name: &str) -> PyResult<Session> {
        let session = CoreSession::from_ron(text, name).map_err(|e| Kind::Session.err(e.to_string()))?;
        Ok(Session {
            session,
            source: name.to_string(),
        })
    }

    /// Writes the session atomically (the window opens it with File ▸ Open or `--session`).
    fn save(&self, path: std::path::PathBuf) -> PyResult<()> {
        self.session.save(&path).map_err(|e| Kind::Session.err(e.to_string()))
    }

    /// The session as RON text (the same session, the same bytes).
    fn to_ron(&self) -> String {
        self.session.to_ron()
    }

    /// The ruleset expression.
    #[getter]
    fn get_ruleset(&self) -> String {
        self.session.ruleset.to_string()
    }

    #[setter]
    fn set_ruleset(&mut self, value: &str) -> PyResult<()> {
        let r = ruleset_arg(value)?;
        self.set(|s| s.ruleset = r)
    }

    /// The rows of the map a figure shows, as a range.
    #[getter]
    fn get_rows(&self) -> (u64, u64) {
        (self.session.rows.start, self.session.rows.end)
    }

    #[setter]
    fn set_rows(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let r = range_arg(value, "rows")?;
        self.set(|s| s.rows = r)
    }

    /// The columns of the map a figure shows.
    #[getter]
    fn get_cols(&self) -> (u64, u64) {
        (self.session.cols.start, self.session.cols.end)
    }

    #[setter]
    fn set_cols(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let c = range_arg(value, "cols")?;
        self.set(|s| s.cols = c)
    }

    /// Heaps a one-heap ruleset's figure shows: G(0..n).
    #[getter]
    fn get_n(&self) -> u64 {
        self.session.sequence_len
    }

    #[setter]
    fn set_n(&mut self, value: u64) -> PyResult<()> {
        self.set(|s| s.sequence_len = value)
    }

    /// The fixed heaps of a slice ("1,_,_"), empty for the plain map.
    #[getter]
    fn get_slice(&self) -> String {
        self.session.layout.slice_text()
    }

    #[setter]
    fn set_slice(&mut self, value: &str) -> PyResult<()> {
        let l = slice_arg(value)?;
        self.set(|s| s.layout = l)
    }

    /// The colour mode as the session file writes it ("Outcome", "Grundy(Viridis)", ...);
    /// set it by name ("grundy") or so.
    #[getter]
    fn get_color(&self) -> String {
        ron::to_string(&self.session.color).unwrap_or_default()
    }

    #[setter]
    fn set_color(&mut self, value: &str) -> PyResult<()> {
        let c = color_arg(value)?;
        self.set(|s| s.color = c)
    }

    /// The Cram board's text, or None.
    #[getter]
    fn get_board(&self) -> Option<String> {
        self.session.board.as_ref().map(|b| b.board.clone())
    }

    /// The notes.
    #[getter]
    fn get_notes(&self) -> String {
        self.session.notes.clone()
    }

    #[setter]
    fn set_notes(&mut self, value: String) -> PyResult<()> {
        self.set(|s| s.notes = value)
    }

    /// The figure's title ("" for the ruleset, "-" for none).
    #[getter]
    fn get_title(&self) -> String {
        self.session.figure.title.clone()
    }

    #[setter]
    fn set_title(&mut self, value: String) -> PyResult<()> {
        self.set(|s| s.figure.title = value)
    }

    /// The figure's width in pixels.
    #[getter]
    fn get_width(&self) -> u32 {
        self.session.figure.width
    }

    #[setter]
    fn set_width(&mut self, value: u32) -> PyResult<()> {
        self.set(|s| s.figure.width = value)
    }

    /// The session's figure, as `nimscope export SESSION -o FILE` draws it with the same
    /// options (--width, --scale, --no-axes, --no-legend, --title, --transparent).
    #[pyo3(signature = (*, width=None, scale=None, axes=true, legend=true, title=None, transparent=false, memory_budget=None, threads=None, progress=None))]
    #[allow(clippy::too_many_arguments)]
    fn figure(
        &self,
        py: Python<'_>,
        width: Option<u32>,
        scale: Option<f64>,
        axes: bool,
        legend: bool,
        title: Option<String>,
        transparent: bool,
        memory_budget: Option<&Bound<'_, PyAny>>,
        threads: Option<usize>,
        progress: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Figure> {
        let options = ExportOptions {
            width,
            scale,
            no_axes: !axes,
            no_legend: !legend,
            title,
            transparent,
        };
        let budget = memory_budget.map(crate::job::budget_arg).transpose()?;
        self.export(
            py,
            options,
            budget,
            threads.map(crate::job::threads_arg).transpose()?,
            progress,
        )
    }

    fn __repr__(&self) -> String {
        format!("Session(ruleset={:?})", self.session.ruleset)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Session>()
            .is_ok_and(|o| o.borrow().session == self.session)
    }
}

/// A figure: a map, a sequence or a Cram board with its axes, legend, title and provenance,
/// as `nimscope export` draws it. Shown inline in Jupyter; `.save("fig.png")` or
/// `.save("fig.svg")` writes it.
#[pyclass(module = "nimscope", frozen)]
pub struct Figure {
    figure: CoreFigure,
    /// The session it was drawn from.
    session: Session,
    scale: Option<f64>,
    png: OnceLock<Vec<u8>>,
}

impl Figure {
    fn png_bytes(&self) -> PyResult<&[u8]> {
        if let Some(b) = self.png.get() {
            return Ok(b);
        }
        let bytes = self
            .figure
            .encode(Format::Png)
            .map_err(|e| Kind::Figure.err(e.to_string()))?;
        Ok(self.png.get_or_init(|| bytes))
    }
}

#[pymethods]
impl Figure {
    /// Width in pixels.
    #[getter]
    fn width(&self) -> u32 {
        self.figure.width()
    }

    /// Height in pixels.
    #[getter]
    fn height(&self) -> u32 {
        self.figure.height()
    }

    /// The provenance written into the file (the PNG's text chunks, the SVG's metadata).
    #[getter]
    fn metadata<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in &self.figure.metadata {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    /// The session it was drawn from: saved, `nimscope export` draws the same figure (with
    /// --scale if one was given).
    #[getter]
    fn session(&self) -> Session {
        self.session.clone()
    }

    /// Pixels per cell, if the figure was drawn at a scale.
    #[getter]
    fn scale(&self) -> Option<f64> {
        self.scale
    }

    /// The PNG file's bytes.
    fn png<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        Ok(PyBytes::new(py, self.png_bytes()?))
    }

    /// The SVG document.
    fn svg(&self) -> String {
        self.figure.svg()
    }

    /// The pixels as a (height, width, 4) uint8 numpy array (RGBA), e.g. for
    /// matplotlib's imshow.
    fn to_array<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        use numpy::{IntoPyArray, PyArrayMethods};
        let image = self.figure.image();
        let (w, h) = (image.width() as usize, image.height() as usize);
        Ok(image.into_raw().into_pyarray(py).reshape([h, w, 4])?.into_any())
    }

    /// Writes the figure atomically as PNG or SVG, as the file's extension says (or
    /// format="png"/"svg").
    #[pyo3(signature = (path, format=None))]
    fn save(&self, py: Python<'_>, path: std::path::PathBuf, format: Option<&str>) -> PyResult<()> {
        let format = match format.map(str::to_ascii_lowercase).as_deref() {
            None => Format::of_path(&path).map_err(|e| Kind::Figure.err(format!("{}: {e}", path.display())))?,
            Some("png") => Format::Png,
            Some("svg") => Format::Svg,
            Some(other) => {
                return Err(PyValueError::new_err(format!(
                    "format is 'png' or 'svg', not {other:?}"
                )));
            }
        };
        let job = Job::new(py, None, None, None)?;
        let figure = &self.figure;
        job.run(py, |control| {
            write_figure_as(figure, &path, format, control).map_err(query::QueryError::from)
        })
    }

    /// The PNG, for Jupyter.
    fn _repr_png_<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        self.png(py)
    }

    /// The SVG, for Jupyter (None for a figure whose SVG would be too large to show inline).
    fn _repr_svg_(&self) -> Option<String> {
        let svg = self.figure.svg();
        (svg.len() <= INLINE_SVG_BYTES).then_some(svg)
    }

    fn __repr__(&self) -> String {
        let title = self
            .figure
            .metadata
            .iter()
            .find(|(k, _)| k == "Title")
            .map_or(String::new(), |(_, v)| format!(" {v:?}"));
        format!(
            "<nimscope.Figure{title} {}×{} pixels>",
            self.figure.width(),
            self.figure.height()
        )
    }
}
