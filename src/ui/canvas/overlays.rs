//! What is drawn over and around the map's tiles: the overlays (lines, rings of the theory)
//! and the axes outside the map.

use egui::{Align2, FontId, Painter, Pos2, Rect, Stroke, pos2};

use super::{MapState, to_screen};
use crate::ui::theme;
use nimscope_core::camera::CellPoint;
use nimscope_core::raster::axes::{AxisTitles, ticks};
use nimscope_core::raster::{GRID_LINES_MIN_CELL_PX, OverlayStyle, colors};

pub(super) fn overlays_ui(painter: &Painter, state: &MapState, rect: Rect) {
    let cam = state.camera;
    let to_screen = |p: CellPoint| to_screen(&cam, rect, p);
    let (lo, hi) = cam.extent(rect.width(), rect.height());
    let cell_px = 1.0 / cam.cells_per_point;
    if state.overlays.grid_lines && cell_px >= GRID_LINES_MIN_CELL_PX {
        let stroke = Stroke::new(1.0, theme::color32(colors::OVERLAY_GRID));
        let (bl, al) = (lo.b.max(0.0), lo.a.max(0.0));
        for b in (bl.ceil() as i64)..=(hi.b.ceil() as i64) {
            let b = b as f64;
            painter.line_segment(
                [to_screen(CellPoint::new(al, b)), to_screen(CellPoint::new(hi.a, b))],
                stroke,
            );
        }
        for a in (al.ceil() as i64)..=(hi.a.ceil() as i64) {
            let a = a as f64;
            painter.line_segment(
                [to_screen(CellPoint::new(a, bl)), to_screen(CellPoint::new(a, hi.b))],
                stroke,
            );
        }
    }
    let shapes = state.overlays.drawn_at(cell_px).shapes_within(lo.a, lo.b, hi.b, hi.a);
    for ([from, to], style) in shapes.lines {
        overlay_line(painter, to_screen(from), to_screen(to), &style);
    }
    for (centre, style) in shapes.marks {
        let p = to_screen(centre);
        if rect.contains(p) {
            overlay_ring(painter, p, style.ring_radius(cell_px, 1.0) as f32, &style);
        }
    }
}

/// An overlay's line as the figures draw it: its casing, then its core, dashed or not.
pub(crate) fn overlay_line(painter: &Painter, from: Pos2, to: Pos2, style: &OverlayStyle) {
    let mut strokes = Vec::new();
    if let Some((casing, reach)) = style.casing {
        strokes.push(Stroke::new(style.width + 2.0 * reach, theme::color32(casing)));
    }
    strokes.push(Stroke::new(style.width, theme::color32(style.color)));
    for stroke in strokes {
        match style.dash {
            Some([dash, gap]) => {
                painter.extend(egui::Shape::dashed_line(&[from, to], stroke, dash, gap));
            }
            None => {
                painter.line_segment([from, to], stroke);
            }
        }
    }
}

/// An overlay's ring: its casing, then its core.
pub(crate) fn overlay_ring(painter: &Painter, centre: Pos2, radius: f32, style: &OverlayStyle) {
    if let Some((casing, reach)) = style.casing {
        painter.circle_stroke(
            centre,
            radius,
            Stroke::new(style.width + 2.0 * reach, theme::color32(casing)),
        );
    }
    painter.circle_stroke(centre, radius, Stroke::new(style.width, theme::color32(style.color)));
}

/// Tick labels at cell centres below the map (columns) and left of it (rows), spaced so no
/// two overlap, and the axes' titles: the columns' below their labels, the rows' above the map.
/// The width of the axis label of `k`.
pub(super) fn label_width(painter: &Painter, k: u64) -> f32 {
    let digit = painter
        .layout_no_wrap("0".into(), FontId::monospace(11.0), theme::axis_text(painter.ctx()))
        .size()
        .x;
    digit * k.to_string().len() as f32
}

pub(super) fn axes_ui(painter: &Painter, state: &MapState, rect: Rect, titles: &AxisTitles, limit: u64) {
    let cam = state.camera;
    let (lo, hi) = cam.extent(rect.width(), rect.height());
    let font = FontId::monospace(11.0);
    let px_per_cell = 1.0 / cam.cells_per_point;
    let digit = painter
        .layout_no_wrap("0".into(), font.clone(), theme::axis_text(painter.ctx()))
        .size()
        .x as f64;
    let width = |k: u64| digit * k.to_string().len() as f64;
    let height = |_: u64| 13.0;
    for b in ticks(lo.b, hi.b, limit, px_per_cell, 12.0, &width) {
        let (dx, _) = cam.offset_from_cell(CellPoint::new(0.0, b as f64 + 0.5));
        let x = rect.center().x + dx;
        painter.line_segment(
            [pos2(x, rect.bottom()), pos2(x, rect.bottom() + 4.0)],
            Stroke::new(1.0, theme::axis_text(painter.ctx())),
        );
        painter.text(
            pos2(x, rect.bottom() + 5.0),
            Align2::CENTER_TOP,
            b.to_string(),
            font.clone(),
            theme::axis_text(painter.ctx()),
        );
    }
    for a in ticks(lo.a, hi.a, limit, px_per_cell, 16.0, &height) {
        let (_, dy) = cam.offset_from_cell(CellPoint::new(a as f64 + 0.5, 0.0));
        let y = rect.center().y + dy;
        painter.line_segment(
            [pos2(rect.left() - 4.0, y), pos2(rect.left(), y)],
            Stroke::new(1.0, theme::axis_text(painter.ctx())),
        );
        painter.text(
            pos2(rect.left() - 6.0, y),
            Align2::RIGHT_CENTER,
            a.to_string(),
            font.clone(),
            theme::axis_text(painter.ctx()),
        );
    }
    let words = FontId::proportional(13.0);
    let cols = match &titles.caption {
        Some(c) => format!("{}    positions {c}", titles.cols),
        None => titles.cols.clone(),
    };
    painter.text(
        pos2(rect.center().x, rect.bottom() + 20.0),
        Align2::CENTER_TOP,
        cols,
        words.clone(),
        theme::axis_text(painter.ctx()),
    );
    painter.text(
        pos2(rect.left() - 6.0, rect.top() - 4.0),
        Align2::LEFT_BOTTOM,
        &titles.rows,
        words,
        theme::axis_text(painter.ctx()),
    );
}
