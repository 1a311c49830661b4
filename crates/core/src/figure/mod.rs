//! Figures for papers and slides: the value map of a region, a value sequence, or a Cram
//! board, with axes, tick labels, legend and title, laid out at a resolution independent of the
//! screen as one list of shapes ([`shapes::Drawing`]) and written as PNG ([`paint`]) or SVG
//! ([`svg`]) from that one drawing, each carrying the figure's provenance. The map's cells go
//! through the same [`crate::raster`] path as the window, so the figure shows what the screen
//! shows. No GUI toolkit here: the command line and the window's export lane both call
//! [`make_figure`].

pub mod board;
mod frame;
mod legend;
mod map;
mod overlay;
pub mod paint;
pub mod png_out;
mod sequence;
pub mod shapes;
mod spec;
pub mod svg;
#[cfg(test)]
mod tests;
pub mod text;

pub use spec::*;

use crate::solver::Control;
use shapes::Drawing;

/// Colours of the frame and text.
mod ink {
    pub const WHITE: [u8; 4] = [255, 255, 255, 255];
    pub const CLEAR: [u8; 4] = [0, 0, 0, 0];
    pub const TEXT: [u8; 4] = [30, 30, 36, 255];
    pub const FRAME: [u8; 4] = [90, 90, 96, 255];
}

/// Computes what `spec` shows and draws it.
pub fn make_figure(spec: &FigureSpec, control: &Control) -> Result<Figure, FigureError> {
    make_figure_with(spec, None, control)
}

/// [`make_figure`], a map figure drawn from `known`, the region's blocks as the window's tiles
/// hold them, where they serve it (the same rule, a fixed colour range): only the blocks they
/// lack are computed. The figure then pools blocks of 2^L cells, as the window does, where a
/// figure computed from nothing pools cells; its metadata says which (`nimscope.cells`).
pub fn make_figure_with(
    spec: &FigureSpec,
    known: Option<&crate::solver::tiles::PooledRegion>,
    control: &Control,
) -> Result<Figure, FigureError> {
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
            let region = map::Region {
                layout,
                rows,
                cols,
                compare,
                overlays,
            };
            map::map_figure(spec, &region, (&title, known), &mut metadata, control)?
        }
        Subject::Sequence { n } => sequence::sequence_figure(spec, *n, &mut title, &mut metadata, control)?,
        Subject::Board(doc) => board::board_figure(spec, doc, &mut title, &mut metadata, control)?,
    };
    let from_map = known
        .filter(|_| metadata.iter().any(|(k, _)| k == "nimscope.cells"))
        .map(crate::solver::tiles::PooledRegion::block);
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
        from_map,
    })
}
