//! `nimscope export`: a figure of a saved session, written atomically as PNG or SVG.

use nimscope_core::figure::{Format, write_figure_as};
use nimscope_core::game::quote::escape;
use nimscope_core::query::export::ExportOptions;
use nimscope_core::session::Session;
use nimscope_core::solver::Control;

use super::args::FigureFormat;

/// The arguments of `nimscope export`.
#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    /// The session file (RON), e.g. sessions/euclid-winning-pairs.ron.
    pub session: std::path::PathBuf,
    /// The file to write (replaced atomically): `.png` or `.svg`, unless --format says.
    #[arg(short, long)]
    pub output: std::path::PathBuf,
    /// The file format (default: from the output's extension, PNG without one).
    #[arg(long, value_enum)]
    pub format: Option<FigureFormat>,
    /// Width of the picture in pixels (default: the session's figure width).
    #[arg(long)]
    pub width: Option<u32>,
    /// Pixels per cell instead of a width, e.g. 4.
    #[arg(long, conflicts_with = "width")]
    pub scale: Option<f64>,
    /// Leave out the axes and their tick labels.
    #[arg(long)]
    pub no_axes: bool,
    /// Leave out the legend.
    #[arg(long)]
    pub no_legend: bool,
    /// Title text ('-' for none; default: the session's, else the ruleset).
    #[arg(long)]
    pub title: Option<String>,
    /// Transparent background instead of white.
    #[arg(long)]
    pub transparent: bool,
}

/// Runs `nimscope export`.
pub fn run(args: ExportArgs, control: &Control, out: &mut impl std::io::Write) -> anyhow::Result<()> {
    let ExportArgs {
        session,
        output,
        format,
        width,
        scale,
        no_axes,
        no_legend,
        title,
        transparent,
    } = args;

    let s = Session::load(&session)?;
    refuse_to_overwrite(&session, &output)?;
    let format = match format {
        Some(FigureFormat::Png) => Format::Png,
        Some(FigureFormat::Svg) => Format::Svg,
        None => {
            Format::of_path(&output).map_err(|e| anyhow::anyhow!("{}: {e}", escape(&output.display().to_string())))?
        }
    };
    let options = ExportOptions {
        width,
        scale,
        no_axes,
        no_legend,
        title,
        transparent,
    };
    let figure = nimscope_core::query::export::figure(&s, &session.display().to_string(), &options, control)?;
    write_figure_as(&figure, &output, format, control)?;
    // `-o /dev/stdout`: the figure is the output, with nothing after it
    if !is_stdout(&output) {
        writeln!(
            out,
            "{}: {}×{} pixels",
            escape(&output.display().to_string()),
            figure.width(),
            figure.height()
        )?;
    }
    Ok(())
}

/// Refuses an output that is the session being exported, under any name (the same file through
/// a link, a hard link or `..`): exporting must never destroy its own input.
fn refuse_to_overwrite(session: &std::path::Path, output: &std::path::Path) -> anyhow::Result<()> {
    let same = match (std::fs::metadata(session), std::fs::metadata(output)) {
        (Ok(a), Ok(b)) => same_file(&a, &b),
        _ => false,
    };
    if same {
        anyhow::bail!(
            "{} is the session being exported: give the figure another name",
            escape(&output.display().to_string())
        );
    }
    Ok(())
}

/// Whether `path` is this process's standard output (`/dev/stdout`, `/proc/self/fd/1`, or the
/// file or pipe it leads to).
#[cfg(unix)]
fn is_stdout(path: &std::path::Path) -> bool {
    use std::os::fd::AsFd;
    let Ok(fd) = std::io::stdout().as_fd().try_clone_to_owned() else {
        return false;
    };
    match (std::fs::File::from(fd).metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => same_file(&a, &b),
        _ => false,
    }
}

#[cfg(not(unix))]
fn is_stdout(_: &std::path::Path) -> bool {
    false
}

#[cfg(unix)]
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    (a.dev(), a.ino()) == (b.dev(), b.ino())
}

#[cfg(not(unix))]
fn same_file(_: &std::fs::Metadata, _: &std::fs::Metadata) -> bool {
    false
}
