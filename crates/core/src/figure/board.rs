//! The Cram board as a picture, without the GUI toolkit: the geometry and colours the editor draws with,
//! and [`board_image`], the RGBA figure of a board for PNG export (cells, blocked cells,
//! dominoes, component outlines and, with a report, the legal placements coloured by value).

use super::frame::Frame;
use super::ink;
use super::shapes::{Element, Rect, Text};
use super::spec::*;
use super::text::{self, Anchor, Face};
use crate::game::cram_setup::{CramDocument, CramModel};
use crate::raster::{Legend, LegendItem};
use crate::solver::Control;
use crate::solver::cram::report::{CramPhase, CramSolvers, cram_report};

use crate::game::cram_setup::{Setup, domino_cells};
use crate::game::rules::cram_board::{Domino, Orientation};
use crate::raster::Palette;
use crate::solver::cram::push::PushMove;
use crate::solver::cram::report::{CramReport, MoveValue};

/// Colours of the board (RGBA), shared by the window and the exported figure.
pub mod colors {
    /// Around and between the cells.
    pub const BACKGROUND: [u8; 4] = [24, 24, 28, 255];
    /// An empty cell.
    pub const EMPTY: [u8; 4] = [62, 66, 76, 255];
    /// A blocked cell.
    pub const BLOCKED: [u8; 4] = [14, 14, 16, 255];
    /// The lines between cells.
    pub const GRID: [u8; 4] = [36, 38, 44, 255];
    /// Row and column numbers in the window's margin.
    pub const INDEX: [u8; 4] = [150, 150, 160, 255];
    /// A placed domino.
    pub const DOMINO: [u8; 4] = [206, 168, 104, 255];
    /// A placed domino's edge.
    pub const DOMINO_EDGE: [u8; 4] = [120, 90, 50, 255];
    /// The outline of a component (a region of empty cells before the Push Cram push).
    pub const OUTLINE: [u8; 4] = [240, 150, 40, 255];
    /// A winning placement's marker.
    pub const WINNING: [u8; 4] = [70, 225, 110, 255];
    /// The edge around a winning placement's marker.
    pub const WINNING_EDGE: [u8; 4] = [255, 255, 255, 255];
    /// A placement that loses, when only the outcome is known (before the push).
    pub const LOSING: [u8; 4] = [180, 80, 80, 255];
}

/// Length and thickness of a placement marker (a bar across the edge between the domino's two
/// cells), in cells.
pub const MARKER_LEN: f32 = 0.5;
/// Thickness of a placement marker, in cells (see [`MARKER_LEN`]).
pub const MARKER_THICK: f32 = 0.2;
/// Inset of a placed domino from its cells' borders, in cells.
pub const DOMINO_INSET: f32 = 0.1;

/// The colour of a legal placement: winning ones stand out, the others follow the value (out
/// of `max_value`, the largest value of any placement) or, unknown, say they lose.
pub fn move_color(m: &MoveValue, max_value: u32) -> [u8; 4] {
    match (m.winning, m.value) {
        (true, _) => colors::WINNING,
        (false, Some(v)) => value_color(v, max_value),
        (false, None) => colors::LOSING,
    }
}

/// The colour of a placement that leads to value `v` and does not win (so v ≥ 1), out of
/// `max_value`, the largest value of any placement.
pub fn value_color(v: u32, max_value: u32) -> [u8; 4] {
    let t = if max_value <= 1 {
        0.0
    } else {
        (v.saturating_sub(1)) as f32 / (max_value - 1) as f32
    };
    Palette::Cividis.at(0.15 + 0.85 * t)
}

/// The largest value any placement leads to (for scaling colours).
pub fn max_move_value(report: &CramReport) -> u32 {
    report.moves.iter().filter_map(|m| m.value).max().unwrap_or(0)
}

/// The marker of domino `d` in cell units: `(x0, y0, x1, y1)` with x to the right (columns)
/// and y down (rows).
pub fn marker_rect(d: Domino) -> (f32, f32, f32, f32) {
    let (r, c) = (d.row as f32, d.col as f32);
    match d.orientation {
        Orientation::Horizontal => (
            c + 1.0 - MARKER_LEN / 2.0,
            r + 0.5 - MARKER_THICK / 2.0,
            c + 1.0 + MARKER_LEN / 2.0,
            r + 0.5 + MARKER_THICK / 2.0,
        ),
        Orientation::Vertical => (
            c + 0.5 - MARKER_THICK / 2.0,
            r + 1.0 - MARKER_LEN / 2.0,
            c + 0.5 + MARKER_THICK / 2.0,
            r + 1.0 + MARKER_LEN / 2.0,
        ),
    }
}

/// A placed domino in cell units: `(x0, y0, x1, y1)`.
pub fn domino_rect(d: Domino) -> (f32, f32, f32, f32) {
    let (r, c) = (d.row as f32, d.col as f32);
    let (w, h) = match d.orientation {
        Orientation::Horizontal => (2.0, 1.0),
        Orientation::Vertical => (1.0, 2.0),
    };
    (
        c + DOMINO_INSET,
        r + DOMINO_INSET,
        c + w - DOMINO_INSET,
        r + h - DOMINO_INSET,
    )
}

/// The sides of the cells of `cells` (stride `cols`) that border a cell outside it, as
/// segments in cell units `(x0, y0, x1, y1)`: the component's outline.
pub fn outline_segments(cells: u128, rows: usize, cols: usize) -> Vec<(f32, f32, f32, f32)> {
    let inside = |r: isize, c: isize| {
        r >= 0
            && c >= 0
            && (r as usize) < rows
            && (c as usize) < cols
            && cells >> (r as usize * cols + c as usize) & 1 == 1
    };
    let mut out = Vec::new();
    for r in 0..rows as isize {
        for c in 0..cols as isize {
            if !inside(r, c) {
                continue;
            }
            let (x, y) = (c as f32, r as f32);
            if !inside(r - 1, c) {
                out.push((x, y, x + 1.0, y));
            }
            if !inside(r + 1, c) {
                out.push((x, y + 1.0, x + 1.0, y + 1.0));
            }
            if !inside(r, c - 1) {
                out.push((x, y, x, y + 1.0));
            }
            if !inside(r, c + 1) {
                out.push((x + 1.0, y, x + 1.0, y + 1.0));
            }
        }
    }
    out
}

/// What a board picture shows, for its legend: only what is there gets an entry.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BoardContents {
    /// Some cell is empty.
    pub empty: bool,
    /// Some cell is blocked.
    pub blocked: bool,
    /// Some domino is placed.
    pub dominoes: bool,
    /// Number of components outlined (0: none, or no report).
    pub components: usize,
    /// Some placement wins.
    pub winning: bool,
    /// Placements whose outcome alone is known and which lose.
    pub losing: bool,
    /// The values (sorted) of the non-winning placements whose value is known.
    pub values: Vec<u32>,
    /// Push Cram before the push: whether the push wins, and the value it leaves.
    pub push: Option<(bool, u32)>,
}

/// The board's shapes with the top-left corner of cell (0, 0) at `origin` and cells `cell`
/// pixels wide: cells, blocked cells, dominoes and, with a report of this very board, the
/// component outlines and the legal placements coloured by the value they lead to (winning
/// ones white-edged green); and what it drew.
pub fn board_shapes(
    setup: &Setup,
    report: Option<&CramReport>,
    origin: (f64, f64),
    cell: f64,
) -> (Vec<Element>, BoardContents) {
    let (rows, cols) = (setup.rows(), setup.cols());
    let mut out = Vec::new();
    let mut seen = BoardContents::default();
    let at = |(x0, y0, x1, y1): (f32, f32, f32, f32)| {
        Rect::new(
            origin.0 + f64::from(x0) * cell,
            origin.1 + f64::from(y0) * cell,
            origin.0 + f64::from(x1) * cell,
            origin.1 + f64::from(y1) * cell,
        )
    };
    let fill = |out: &mut Vec<Element>, r: (f32, f32, f32, f32), color: [u8; 4]| {
        out.push(Element::Fill { rect: at(r), color })
    };
    let line = ((cell / 24.0).max(1.0) / cell) as f32; // grid line width in cells
    fill(&mut out, (0.0, 0.0, cols as f32, rows as f32), colors::GRID);
    for r in 0..rows {
        for c in 0..cols {
            let blocked = setup.is_blocked(r, c);
            seen.blocked |= blocked;
            seen.empty |= !blocked;
            let color = if blocked { colors::BLOCKED } else { colors::EMPTY };
            let (x, y) = (c as f32, r as f32);
            fill(&mut out, (x + line, y + line, x + 1.0 - line, y + 1.0 - line), color);
        }
    }
    let edge = ((cell / 20.0).max(1.0) / cell) as f32;
    for &d in setup.dominoes() {
        if domino_cells(d).is_some_and(|cells| cells.iter().all(|&(r, c)| r < rows && c < cols)) {
            seen.dominoes = true;
            let (x0, y0, x1, y1) = domino_rect(d);
            fill(&mut out, (x0, y0, x1, y1), colors::DOMINO_EDGE);
            fill(&mut out, (x0 + edge, y0 + edge, x1 - edge, y1 - edge), colors::DOMINO);
        }
    }
    let report = report.filter(|r| setup.to_board().is_ok_and(|b| b == r.board));
    if let Some(report) = report {
        let outline = ((cell / 16.0).max(2.0) / cell) as f32;
        for comp in &report.components {
            seen.components += 1;
            for (x0, y0, x1, y1) in outline_segments(comp.cells, rows, cols) {
                let h = outline / 2.0;
                fill(&mut out, (x0 - h, y0 - h, x1 + h, y1 + h), colors::OUTLINE);
            }
        }
        let max = max_move_value(report);
        for m in &report.moves {
            let d = match m.mv {
                PushMove::Place(d) => d,
                PushMove::Push => {
                    seen.push = Some((m.winning, m.value.or(report.post_push_value()).unwrap_or(0)));
                    continue;
                }
            };
            let (x0, y0, x1, y1) = marker_rect(d);
            if m.winning {
                seen.winning = true;
                fill(
                    &mut out,
                    (x0 - edge, y0 - edge, x1 + edge, y1 + edge),
                    colors::WINNING_EDGE,
                );
            } else {
                match m.value {
                    Some(v) => seen.values.push(v),
                    None => seen.losing = true,
                }
            }
            fill(&mut out, (x0, y0, x1, y1), move_color(m, max));
        }
        seen.values.sort_unstable();
        seen.values.dedup();
    }
    (out, seen)
}

/// The board drawn at `cell_px` pixels a cell with a margin of half a cell (see
/// [`board_shapes`]), as pixels.
pub fn board_image(setup: &Setup, report: Option<&CramReport>, cell_px: u32) -> image::RgbaImage {
    let cell = f64::from(cell_px.max(4));
    let margin = (cell / 2.0).round();
    let (rows, cols) = (setup.rows() as f64, setup.cols() as f64);
    let (shapes, _) = board_shapes(setup, report, (margin, margin), cell);
    super::paint::paint(&super::shapes::Drawing {
        width: (cols * cell + 2.0 * margin) as u32,
        height: (rows * cell + 2.0 * margin) as u32,
        background: Some(colors::BACKGROUND),
        shapes,
    })
}

/// A Cram board with its report: components, placements coloured by value.
pub(super) fn board_figure(
    spec: &FigureSpec,
    doc: &CramDocument,
    title: &mut String,
    metadata: &mut Vec<(String, String)>,
    control: &Control,
) -> Result<(Vec<Element>, Frame), FigureError> {
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
        *title = board_title(setup, variant, report.as_ref());
    }
    draw_board(spec, setup, report.as_ref(), title)
}

/// A board figure's title: the game, the board's size, the phase, the value and outcome.
pub(super) fn board_title(setup: &Setup, variant: CramPhase, report: Option<&CramReport>) -> String {
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
                // a Cram board is finite: no draws
                crate::game::Outcome::D => "a draw",
            };
            format!("{game}: G = {}, {who}", r.value)
        }
        None => format!("{game} (not a legal position: no values)"),
    }
}

/// The legend of a board figure: an entry for each thing drawn, none for what is absent.
pub(super) fn board_legend(seen: &BoardContents, report: Option<&CramReport>) -> Legend {
    let sw = |label: String, c: [u8; 4]| LegendItem::Swatch {
        label,
        fill: crate::raster::Fill::Solid(c),
    };
    let mut items = Vec::new();
    if seen.winning {
        items.push(sw("winning placement (leaves a P-position)".into(), colors::WINNING));
    }
    if seen.losing {
        items.push(sw("losing placement".into(), colors::LOSING));
    }
    let max = report.map_or(0, max_move_value);
    for &v in &seen.values {
        items.push(sw(format!("placement leaving G = {v}"), value_color(v, max)));
    }
    if let Some((wins, after)) = seen.push {
        let verdict = if wins { "wins" } else { "loses" };
        let color = if wins { colors::WINNING } else { colors::LOSING };
        items.push(sw(format!("the push: leaves G = {after}, {verdict}"), color));
    }
    if seen.dominoes {
        items.push(sw("domino placed".into(), colors::DOMINO));
    }
    if seen.empty {
        items.push(sw("empty cell".into(), colors::EMPTY));
    }
    if seen.blocked {
        items.push(sw("blocked cell".into(), colors::BLOCKED));
    }
    if seen.components > 0 {
        let label = match report.map(|r| r.variant) {
            Some(CramPhase::PushBefore) => "region of empty cells",
            _ => "component (values nim-add)",
        };
        items.push(LegendItem::Outline {
            label: label.into(),
            color: colors::OUTLINE,
        });
    }
    Legend {
        title: "Board".into(),
        items,
    }
}

/// The board drawn in the content area: half a cell of margin around it, and below it, before
/// the Push Cram push, the push as a button coloured like a placement.
pub(super) fn draw_board(
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
    let (_, seen) = board_shapes(setup, report, (0.0, 0.0), 1.0);
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
    let (board_shapes, _) = board_shapes(setup, report, origin, cell);
    let mut shapes = vec![Element::Fill {
        rect: frame.content_rect(),
        color: colors::BACKGROUND,
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
        let color = if wins { colors::WINNING } else { colors::LOSING };
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
    use crate::solver::Control;
    use crate::solver::cram::report::{CramPhase, CramSolvers, cram_report};

    #[test]
    fn the_figure_shows_cells_dominoes_and_winning_placements() {
        let mut setup = Setup::empty(2, 3);
        setup.toggle_cell(1, 2).unwrap();
        setup
            .place(Domino {
                row: 0,
                col: 0,
                orientation: Orientation::Vertical,
            })
            .unwrap();
        let board = setup.to_board().unwrap();
        let report = cram_report(&board, CramPhase::Cram, &mut CramSolvers::default(), &Control::new()).unwrap();
        let img = board_image(&setup, Some(&report), 40);
        assert_eq!(img.dimensions(), (3 * 40 + 40, 2 * 40 + 40));
        let at = |x: f32, y: f32| img.get_pixel((20.0 + x * 40.0) as u32, (20.0 + y * 40.0) as u32).0;
        assert_eq!(at(2.5, 1.5), colors::BLOCKED);
        assert_eq!(at(0.5, 1.0), colors::DOMINO);
        assert_eq!(at(1.5, 0.25), colors::EMPTY);
        // the free cells (0,1), (0,2), (1,1) form an L of value 1: each placement leaves one
        // cell, so both win
        assert_eq!(report.value, 1);
        assert_eq!(at(2.0, 0.5), colors::WINNING);
        assert_eq!(at(1.5, 1.0), colors::WINNING);
        // outline along the top of the component
        assert_eq!(at(1.5, 0.0), colors::OUTLINE);
        // without a report: no markers
        let plain = board_image(&setup, None, 40);
        assert_eq!(plain.get_pixel(20 + 80, 20 + 20).0, colors::GRID);
    }
}
