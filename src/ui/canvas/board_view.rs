//! The Cram board as an egui widget: cells, blocked cells, dominoes, component outlines and
//! every legal placement as a bar across the edge between its two cells, coloured by the value
//! it leads to. Click a cell to block or unblock it, click an edge bar (or drag from one empty
//! cell to its neighbour) to place a domino, click a domino to remove it. Geometry and colours
//! come from [`nimscope_core::figure::board`], so the window and the exported figure agree.

use egui::{Align2, FontId, Pos2, Rect, Sense, Stroke, StrokeKind, vec2};

use crate::ui::theme::color32 as color;
use nimscope_core::figure::board::{self, colors};
use nimscope_core::game::cram_setup::{Setup, domino_between};
use nimscope_core::game::rules::cram_board::{Domino, Orientation};
use nimscope_core::solver::cram::push::PushMove;
use nimscope_core::solver::cram::report::CramReport;

/// Smallest and largest cell size, in points: a small board on a large screen grows to fill
/// its room (a 5×7 board at 1920×1080 is 112-point cells, not a corner of 64-point ones).
const MIN_CELL: f32 = 14.0;
const MAX_CELL: f32 = 112.0;
/// How far from a shared edge (in cells) a click counts as the edge.
const EDGE_ZONE: f32 = 0.22;

/// What the user asked for on the board this frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardAction {
    Toggle(usize, usize),
    Place(Domino),
    Remove(usize, usize),
}

/// What is under the pointer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Cell(usize, usize),
    /// The edge between the two cells of a domino.
    Edge(Domino),
}

/// The widget's state between frames.
#[derive(Debug, Clone, Default)]
pub struct BoardView {
    /// Where the board was drawn last frame (top-left of cell (0,0)) and the cell size.
    pub origin: Option<Pos2>,
    pub cell: f32,
    drag_from: Option<(usize, usize)>,
    /// The cell under the pointer during a drag (kept: the pointer may leave as it is released).
    drag_over: Option<(usize, usize)>,
}

impl BoardView {
    /// The screen position of the centre of cell `(r, c)`, once the board has been drawn.
    pub fn screen_pos_of_cell(&self, r: usize, c: usize) -> Option<Pos2> {
        let o = self.origin?;
        Some(o + vec2((c as f32 + 0.5) * self.cell, (r as f32 + 0.5) * self.cell))
    }

    /// The screen position of the middle of the edge a domino covers.
    pub fn screen_pos_of_edge(&self, d: Domino) -> Option<Pos2> {
        let o = self.origin?;
        let (x0, y0, x1, y1) = board::marker_rect(d);
        Some(o + vec2((x0 + x1) / 2.0 * self.cell, (y0 + y1) / 2.0 * self.cell))
    }

    fn cell_at(&self, p: Pos2, setup: &Setup) -> Option<(usize, usize, f32, f32)> {
        let o = self.origin?;
        let (x, y) = ((p.x - o.x) / self.cell, (p.y - o.y) / self.cell);
        if x < 0.0 || y < 0.0 || x >= setup.cols() as f32 || y >= setup.rows() as f32 {
            return None;
        }
        let (c, r) = (x.floor(), y.floor());
        Some((r as usize, c as usize, x - c, y - r))
    }

    /// The cell or edge at a screen position.
    pub fn target_at(&self, p: Pos2, setup: &Setup) -> Option<Target> {
        let (r, c, fx, fy) = self.cell_at(p, setup)?;
        // distance to each inner edge of the cell, with the domino it would be
        let mut best: Option<(f32, Domino)> = None;
        let mut consider = |dist: f32, d: Option<Domino>| {
            if let Some(d) = d
                && dist < EDGE_ZONE
                && best.is_none_or(|(b, _)| dist < b)
            {
                best = Some((dist, d));
            }
        };
        consider(
            1.0 - fx,
            (c + 1 < setup.cols())
                .then(|| domino_between((r, c), (r, c + 1)))
                .flatten(),
        );
        consider(fx, (c > 0).then(|| domino_between((r, c), (r, c - 1))).flatten());
        consider(
            1.0 - fy,
            (r + 1 < setup.rows())
                .then(|| domino_between((r, c), (r + 1, c)))
                .flatten(),
        );
        consider(fy, (r > 0).then(|| domino_between((r, c), (r - 1, c))).flatten());
        Some(match best {
            Some((_, d)) => Target::Edge(d),
            None => Target::Cell(r, c),
        })
    }
}

/// What a click at `p` does: remove the domino under it, place one across the edge, or toggle
/// the cell.
fn click_action(view: &BoardView, p: Pos2, setup: &Setup) -> Option<BoardAction> {
    let (r, c, _, _) = view.cell_at(p, setup)?;
    if setup.domino_at(r, c).is_some() {
        return Some(BoardAction::Remove(r, c));
    }
    match view.target_at(p, setup)? {
        Target::Edge(d)
            if nimscope_core::game::cram_setup::domino_cells(d)
                .is_some_and(|cells| cells.iter().all(|&(r, c)| setup.is_free(r, c))) =>
        {
            Some(BoardAction::Place(d))
        }
        _ => Some(BoardAction::Toggle(r, c)),
    }
}

fn rect_of(o: Pos2, cell: f32, (x0, y0, x1, y1): (f32, f32, f32, f32)) -> Rect {
    Rect::from_min_max(o + vec2(x0, y0) * cell, o + vec2(x1, y1) * cell)
}

/// Draws the board in `size` and returns the user's action and what is under the pointer.
/// `report` is only used when it is the report of this very board.
pub fn board_ui(
    ui: &mut egui::Ui,
    view: &mut BoardView,
    setup: &Setup,
    report: Option<&CramReport>,
    size: egui::Vec2,
) -> (Option<BoardAction>, Option<Target>) {
    let (rows, cols) = (setup.rows(), setup.cols());
    let cell = ((size.x / (cols as f32 + 1.0)).min(size.y / (rows as f32 + 1.0))).clamp(MIN_CELL, MAX_CELL);
    let desired = vec2(cols as f32 + 1.0, rows as f32 + 1.0) * cell;
    let (rect, response) = ui.allocate_exact_size(desired, Sense::click_and_drag());
    let o = rect.min + vec2(cell / 2.0, cell / 2.0);
    view.origin = Some(o);
    view.cell = cell;

    let (action, drag_to) = board_input(ui, view, setup, &response);
    let hover = response.hover_pos().and_then(|p| view.target_at(p, setup));

    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 4.0, color(colors::BACKGROUND));
    board_cells_ui(&painter, setup, o, cell);
    let report = report.filter(|r| setup.to_board().is_ok_and(|b| b == r.board));
    if let Some(report) = report {
        report_marks_ui(&painter, report, (rows, cols), o, cell, hover);
    }
    // what a click would do
    if let Some(d) = drag_to {
        let preview = rect_of(o, cell, board::domino_rect(d));
        painter.rect_stroke(
            preview,
            cell * 0.12,
            Stroke::new(2.0, color(colors::DOMINO)),
            StrokeKind::Inside,
        );
    } else if let Some(p) = response.hover_pos()
        && let Some((r, c, _, _)) = view.cell_at(p, setup)
    {
        hover_outline_ui(&painter, setup, (r, c), hover, o, cell);
    }
    (action, hover)
}

/// The board's clicks and drags: the action they ask for, and the domino a drag would place.
fn board_input(
    ui: &egui::Ui,
    view: &mut BoardView,
    setup: &Setup,
    response: &egui::Response,
) -> (Option<BoardAction>, Option<Domino>) {
    let mut action = None;
    if response.clicked()
        && let Some(p) = response.interact_pointer_pos()
    {
        action = click_action(view, p, setup);
    }
    if response.drag_started()
        && let Some(p) = ui.input(|i| i.pointer.press_origin())
    {
        view.drag_from = view.cell_at(p, setup).map(|(r, c, _, _)| (r, c));
        view.drag_over = view.drag_from;
    }
    if view.drag_from.is_some()
        && let Some(p) = ui.input(|i| i.pointer.interact_pos())
    {
        view.drag_over = view.cell_at(p, setup).map(|(r, c, _, _)| (r, c));
    }
    let drag_to = view
        .drag_from
        .zip(view.drag_over)
        .and_then(|(a, b)| domino_between(a, b));
    if response.drag_stopped() {
        if let Some(d) = drag_to {
            action = Some(BoardAction::Place(d));
        }
        view.drag_from = None;
        view.drag_over = None;
    }
    (action, drag_to)
}

/// The row and column numbers in the margin (as the move list counts them), the cells and
/// the dominoes placed.
fn board_cells_ui(painter: &egui::Painter, setup: &Setup, o: Pos2, cell: f32) {
    let (rows, cols) = (setup.rows(), setup.cols());
    let font = FontId::proportional((cell * 0.28).clamp(8.0, 13.0));
    for r in 0..rows {
        let p = o + vec2(-cell * 0.25, (r as f32 + 0.5) * cell);
        painter.text(
            p,
            Align2::CENTER_CENTER,
            r.to_string(),
            font.clone(),
            color(colors::INDEX),
        );
    }
    for c in 0..cols {
        let p = o + vec2((c as f32 + 0.5) * cell, -cell * 0.25);
        painter.text(
            p,
            Align2::CENTER_CENTER,
            c.to_string(),
            font.clone(),
            color(colors::INDEX),
        );
    }
    let line = (cell / 24.0).max(1.0);
    for r in 0..rows {
        for c in 0..cols {
            let cr = rect_of(o, cell, (c as f32, r as f32, c as f32 + 1.0, r as f32 + 1.0));
            painter.rect_filled(cr, 0.0, color(colors::GRID));
            let fill = if setup.is_blocked(r, c) {
                colors::BLOCKED
            } else {
                colors::EMPTY
            };
            painter.rect_filled(cr.shrink(line), 0.0, color(fill));
        }
    }
    for &d in setup.dominoes() {
        let dr = rect_of(o, cell, board::domino_rect(d));
        painter.rect_filled(dr, cell * 0.12, color(colors::DOMINO));
        painter.rect_stroke(
            dr,
            cell * 0.12,
            Stroke::new((cell / 20.0).max(1.0), color(colors::DOMINO_EDGE)),
            StrokeKind::Inside,
        );
    }
}

/// The report's marks: the components outlined (with their values when there are several)
/// and a marker per placement, coloured by its value, winning ones edged.
fn report_marks_ui(
    painter: &egui::Painter,
    report: &CramReport,
    (rows, cols): (usize, usize),
    o: Pos2,
    cell: f32,
    hover: Option<Target>,
) {
    let stroke = Stroke::new((cell / 16.0).max(2.0), color(colors::OUTLINE));
    for comp in &report.components {
        for (x0, y0, x1, y1) in board::outline_segments(comp.cells, rows, cols) {
            painter.line_segment([o + vec2(x0, y0) * cell, o + vec2(x1, y1) * cell], stroke);
        }
    }
    if report.components.len() > 1 {
        for comp in &report.components {
            let (Some(v), first) = (comp.value, comp.cells.trailing_zeros() as usize) else {
                continue;
            };
            let p = o + vec2((first % cols) as f32 + 0.08, (first / cols) as f32 + 0.04) * cell;
            painter.text(
                p,
                Align2::LEFT_TOP,
                v.to_string(),
                FontId::proportional((cell * 0.3).max(9.0)),
                color(colors::OUTLINE),
            );
        }
    }
    let max = board::max_move_value(report);
    for m in &report.moves {
        let PushMove::Place(d) = m.mv else { continue };
        let mr = rect_of(o, cell, board::marker_rect(d));
        let hovered = hover == Some(Target::Edge(d));
        let mr = if hovered { mr.expand(cell * 0.05) } else { mr };
        painter.rect_filled(mr, cell * 0.04, color(board::move_color(m, max)));
        if m.winning {
            painter.rect_stroke(
                mr,
                cell * 0.04,
                Stroke::new((cell / 20.0).max(1.5), color(colors::WINNING_EDGE)),
                StrokeKind::Outside,
            );
        }
    }
}

/// The outline of what a click at cell (r, c) would act on: the domino there, the domino a
/// click on an edge would place, or the cell.
fn hover_outline_ui(
    painter: &egui::Painter,
    setup: &Setup,
    (r, c): (usize, usize),
    hover: Option<Target>,
    o: Pos2,
    cell: f32,
) {
    let target = match hover {
        Some(Target::Edge(d)) if setup.domino_at(r, c).is_none() => {
            let (a, b) = match d.orientation {
                Orientation::Horizontal => (2.0, 1.0),
                Orientation::Vertical => (1.0, 2.0),
            };
            (d.col as f32, d.row as f32, d.col as f32 + a, d.row as f32 + b)
        }
        _ => match setup.domino_at(r, c) {
            Some(d) => board::domino_rect(d),
            None => (c as f32, r as f32, c as f32 + 1.0, r as f32 + 1.0),
        },
    };
    painter.rect_stroke(
        rect_of(o, cell, target),
        2.0,
        Stroke::new(1.5, crate::ui::theme::HOVER_OUTLINE),
        StrokeKind::Inside,
    );
}
