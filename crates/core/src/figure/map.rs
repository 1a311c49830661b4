//! The map figure: a region's cells through the same raster path as the window, with axes,
//! overlays and legend.

use std::ops::Range;

use super::shapes::{Cells, Element, Rect, Text};
use super::text::{Anchor, Face};
use crate::game::prediction::Prediction;
use crate::game::{Cell, Layout};
use crate::raster::axes::{AxisTitles, ticks};
use crate::raster::{ColorMode, CompareWith, Legend, LegendSpec, MarksShown, Overlays, View, colors, raster};
use crate::solver::Control;
use crate::solver::grid::Grid;
use crate::solver::tiles::{CellRect, KeyRule, NO_POSITION, NOT_COMPUTED, PooledRegion};
use std::collections::HashSet;

use super::frame::*;
use super::spec::*;
use super::{ink, overlay, text};

/// The region a map figure shows, as its [`Subject::Map`] says.
pub(super) struct Region<'a> {
    pub(super) layout: &'a Layout,
    pub(super) rows: &'a Range<u64>,
    pub(super) cols: &'a Range<u64>,
    pub(super) compare: &'a CompareWith,
    pub(super) overlays: &'a Overlays,
}

/// The map of a region: its frame planned before the values are computed (so that a figure
/// too large is refused before any work), then its cells, axes, overlays and legend.
pub(super) fn map_figure(
    spec: &FigureSpec,
    region: &Region,
    (title, known): (&str, Option<&PooledRegion>),
    metadata: &mut Vec<(String, String)>,
    control: &Control,
) -> Result<(Vec<Element>, Frame), FigureError> {
    let Region {
        layout,
        rows,
        cols,
        compare,
        overlays,
    } = *region;
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
        Frame::plan_labelled(spec, n_rows, n_cols, widest, title, Some(&planned))
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
    let cpp = n_cols as f64 / f64::from(frame.content_w);
    let blocks = match known.filter(|k| serves(spec, region, k, cpp)) {
        Some(k) => Some(with_missing(spec, layout, k, control)?),
        None => None,
    };
    if let Some(b) = &blocks {
        let s = b.block();
        metadata.push((
            "nimscope.cells".into(),
            format!("from the window's map: blocks of {s} × {s} cells"),
        ));
    }
    // outcomes alone where that is all the figure shows: Wythoff's anywhere
    let fill = if spec.color == ColorMode::Outcome {
        crate::solver::grid::outcomes
    } else {
        crate::solver::grid::grid
    };
    let grid = match blocks {
        Some(_) => None,
        None => Some(fill(&spec.ruleset, layout, rows.clone(), cols.clone(), control)?),
    };
    let other = match (spec.color, compare) {
        (ColorMode::Difference, CompareWith::Nothing) => return Err(FigureError::NothingToCompare),
        (ColorMode::Difference, CompareWith::Ruleset(r)) => {
            metadata.push(("nimscope.compare".into(), r.to_string()));
            Some(crate::solver::grid::grid(
                r,
                layout,
                rows.clone(),
                cols.clone(),
                control,
            )?)
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
        grid: grid.as_ref(),
        blocks: blocks.as_ref(),
        other: other.as_ref(),
        theorem,
        rows,
        cols,
        compare,
        overlays,
    };
    let shapes = draw_map(spec, &frame, title, &axes, &map);
    metadata.push((
        "nimscope.map_px".into(),
        format!("{},{},{},{}", frame.left, frame.top, frame.content_w, frame.content_h),
    ));
    Ok((shapes, frame))
}

/// Whether the window's blocks `known` can draw this figure: the rule the figure pools by, a
/// colour range that needs no count of the values (the window passes its top), no second map
/// to compare, every cell of the region in them, and under the most common value no figure
/// pixel holding more than one block (a most common value is counted from cells, not keys).
fn serves(spec: &FigureSpec, region: &Region, known: &PooledRegion, cpp: f64) -> bool {
    let cells = CellRect::new(region.rows.clone(), region.cols.clone());
    let rule = spec
        .color
        .map_rule(&spec.ruleset, region.layout, &cells, spec.style.pooling);
    let s = known.block();
    let held = CellRect::new(
        known.first.0 * s..(known.first.0 + known.shape.0) * s,
        known.first.1 * s..(known.first.1 + known.shape.1) * s,
    );
    known.rule == rule
        && rule != KeyRule::Differ
        && (!spec.color.needs_scale()
            || spec.style.counted.is_some()
            || matches!(spec.style.range, crate::raster::ColorRange::Fixed(_)))
        && held.intersect(&cells) == cells
        && (rule != KeyRule::MostCommon || cpp <= s as f64)
}

/// The window's blocks with those they lack computed (the smallest rectangle holding them).
fn with_missing(
    spec: &FigureSpec,
    layout: &Layout,
    known: &PooledRegion,
    control: &Control,
) -> Result<PooledRegion, FigureError> {
    let mut blocks = known.clone();
    if let Some(cells) = known.missing_cells() {
        let grid = if known.rule == KeyRule::Outcome {
            crate::solver::grid::outcomes(&spec.ruleset, layout, cells.rows, cells.cols, control)?
        } else {
            crate::solver::grid::grid(&spec.ruleset, layout, cells.rows, cells.cols, control)?
        };
        blocks.fill_missing(&grid);
    }
    Ok(blocks)
}

/// The clipped values' note as long as it gets, for planning the legend's room.
const PLANNED_CLIP: Option<&str> = Some("G > 99999 (99.9% of the cells): the top colour");

/// The legend of a map figure of `cell_px` pixels a cell: its colours, the overlays drawn,
/// and how pixels pool cells; `(max, clipped)`: the top of the colours and the note on the
/// values above it.
pub(super) fn map_legend(
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
        pooling: spec.style.pooling,
        not_computed: false,
        not_a_position,
        // the swatches of a game that loops stay only where the figure draws their colours
        // (`retain_shown`)
        loopy: true,
        compare,
        overlays: overlays.drawn_at(cell_px),
        overlays_hidden: overlays.hidden_at(cell_px),
        marks: MarksShown::default(),
    })
}

/// What a map figure shows: the values, the compared ones, the region, the overlays.
pub(super) struct MapData<'a> {
    /// The cells' values, unless the figure is drawn from the window's blocks.
    pub(super) grid: Option<&'a Grid>,
    pub(super) blocks: Option<&'a PooledRegion>,
    pub(super) other: Option<&'a Grid>,
    pub(super) theorem: Option<Prediction>,
    pub(super) rows: &'a Range<u64>,
    pub(super) cols: &'a Range<u64>,
    pub(super) compare: &'a CompareWith,
    pub(super) overlays: &'a Overlays,
}

/// The map's cells as blocks: one block a cell when cells are at least a pixel wide, else one
/// a pixel, each the pooled key of the cells whose centres fall in it ([`raster`]).
pub(super) fn map_cells(spec: &FigureSpec, frame: &Frame, map: &MapData, max: u32) -> Cells {
    let (rows, cols) = (map.rows, map.cols);
    let (n_rows, n_cols) = ((rows.end - rows.start) as usize, (cols.end - cols.start) as usize);
    let cpp = n_cols as f64 / f64::from(frame.content_w);
    // a residue from the exact value (far from the origin, values pass 32 bits; as a value
    // they stop at the top of the colour scale, grid::SATURATED)
    // blocks of one cell are the cells: drawn as cells are
    let cells_of_map = map.blocks.filter(|b| b.level == 0);
    let value = |c: Cell| {
        if let Some(b) = cells_of_map {
            return if rows.contains(&c.a) && cols.contains(&c.b) {
                block_value(b.key(c.a, c.b))
            } else {
                None
            };
        }
        (rows.contains(&c.a) && cols.contains(&c.b)).then(|| match spec.color {
            ColorMode::Modulo(k) => map
                .grid
                .and_then(|g| g.get_wide(c.a, c.b))
                .map(|v| (v % u64::from(k.max(1))) as u32),
            _ => map.grid.and_then(|g| g.get(c.a, c.b)),
        })
    };
    let other_value = |c: Cell| match (map.other, map.theorem) {
        (Some(g), _) => g.get(c.a, c.b),
        (None, Some(p)) => p.is_p(c.a, c.b).map(|p| u32::from(!p)),
        (None, None) => None,
    };
    let origin = (f64::from(frame.left), f64::from(frame.top));
    let (view, block) = if let Some(b) = map.blocks.filter(|b| b.level > 0) {
        // a pixel each, over the blocks whose centres fall in it (the window's pooling)
        let s = b.block() as f64;
        let view = View {
            left: cols.start as f64 / s,
            bottom: rows.start as f64 / s,
            cells_per_pixel: cpp / s,
            width: frame.content_w as usize,
            height: frame.content_h as usize,
        };
        (view, (1.0, 1.0))
    } else if cpp <= 1.0 {
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
    let pooling = (spec.color, spec.style.pooling);
    let bytes = match map.blocks.filter(|b| b.level > 0) {
        // a block's key as its value: the rules that serve keep it as it is
        Some(b) => raster(&view, pooling, max, &|c| block_value(b.key(c.a, c.b)), &|_| None),
        None => raster(&view, pooling, max, &value, &other_value),
    };
    Cells {
        origin,
        block,
        cols: view.width,
        rows: view.height,
        colors: bytes.chunks_exact(4).map(|c| [c[0], c[1], c[2], c[3]]).collect(),
    }
}

/// A block's key as [`raster`] takes a value.
fn block_value(key: u32) -> Option<Option<u32>> {
    match key {
        NOT_COMPUTED => None,
        NO_POSITION => Some(None),
        k => Some(Some(k)),
    }
}

pub(super) fn draw_map(
    spec: &FigureSpec,
    frame: &Frame,
    title: &str,
    titles: &AxisTitles,
    map: &MapData,
) -> Vec<Element> {
    let (rows, cols) = (map.rows, map.cols);
    let mut out = frame.title(title);
    let cpp = (cols.end - cols.start) as f64 / f64::from(frame.content_w);
    // the colours' top: the range's over the region's values (the window passes its own)
    let counts = crate::solver::tiles::ValueCounts::of(
        map.grid
            .iter()
            .flat_map(|g| g.rows_iter().flat_map(|(_, r)| r.into_iter().flatten())),
    );
    let range = spec.style.counted.unwrap_or_else(|| spec.style.range.top(&counts));
    let max = range.top;
    // from the window's blocks the values are not counted (unless the window counted them
    // over this region): the note says only that some are above the top
    let clipped = match map.blocks {
        Some(b) if spec.color.needs_scale() && spec.style.counted.is_none() => b
            .keys()
            .iter()
            .any(|&k| crate::solver::tiles::known::above(k, max))
            .then(|| format!("G > {max}: the top colour")),
        _ => range.clipped_note(),
    };
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
pub(super) fn axes(frame: &Frame, titles: &AxisTitles, rows: &Range<u64>, cols: &Range<u64>, cpp: f64) -> Vec<Element> {
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
