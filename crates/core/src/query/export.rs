//! A session's figure as `nimscope export` draws it: the session's own figure style with the
//! export's overrides (width or scale, axes, legend, title, background), so a figure made from
//! Python and one exported from the command line are the same pixels and provenance.

use super::QueryError;
use crate::figure::{Background, Figure, make_figure};
use crate::session::Session;
use crate::solver::Control;

/// What an export may change of the session's figure style; `Default` changes nothing.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ExportOptions {
    /// Width of the picture in pixels (default: the session's).
    pub width: Option<u32>,
    /// Pixels per cell instead of a width.
    pub scale: Option<f64>,
    /// Draw no axes.
    pub no_axes: bool,
    /// Draw no legend.
    pub no_legend: bool,
    /// The title (`-` for none; default: the session's, else the ruleset).
    pub title: Option<String>,
    /// A transparent background instead of white.
    pub transparent: bool,
}

/// The figure of `session` with `options` applied; `source` names the session in errors (its
/// file, as the command line gives it).
pub fn figure(
    session: &Session,
    source: &str,
    options: &ExportOptions,
    control: &Control,
) -> Result<Figure, QueryError> {
    let mut style = session.figure.clone();
    style.width = options.width.unwrap_or(style.width);
    style.axes &= !options.no_axes;
    style.legend &= !options.no_legend;
    if let Some(t) = &options.title {
        style.title = t.clone();
    }
    if options.transparent {
        style.background = Background::Transparent;
    }
    let spec = session
        .figure_spec(style, options.scale)
        .map_err(|e| QueryError::Unanswerable(format!("{source}: {e}")))?;
    Ok(make_figure(&spec, control)?)
}
