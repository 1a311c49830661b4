//! The map's legend in the window: the painter back end of [`nimscope_core::raster::Legend`], drawn
//! in a strip of its own beside the map, so it never hides a cell.

use egui::{Align2, FontId, Painter, Pos2, Rect, Stroke, StrokeKind, Vec2, pos2};

use crate::ui::theme;
use nimscope_core::raster::{Fill, Legend, LegendItem, colors};

const ROW: f32 = 18.0;
const SWATCH: f32 = 13.0;
const BAR_H: f32 = 150.0;
const BAR_W: f32 = 14.0;
const FONT: f32 = 12.0;

fn item_height(item: &LegendItem) -> f32 {
    match item {
        LegendItem::Bar { .. } => BAR_H + 12.0,
        _ => ROW,
    }
}

/// Width the legend needs, in points: its labels beside their swatches (titles and notes
/// wrap to it).
pub fn legend_width(painter: &Painter, legend: &Legend) -> f32 {
    let font = FontId::proportional(FONT);
    let widest = legend
        .items
        .iter()
        .filter_map(|item| match item {
            LegendItem::Swatch { label, .. }
            | LegendItem::Line { label, .. }
            | LegendItem::Ring { label, .. }
            | LegendItem::Dot { label, .. }
            | LegendItem::Outline { label, .. } => Some(label.clone()),
            LegendItem::Bar { max, .. } => Some(max.to_string()),
            LegendItem::Note(_) => None,
        })
        .map(|t| {
            painter
                .layout_no_wrap(theme::shown(&t), font.clone(), theme::axis_text(painter.ctx()))
                .size()
                .x
        })
        .fold(0.0f32, f32::max);
    SWATCH.max(BAR_W) + 8.0 + widest + 12.0
}

/// Text wrapped to `width`, drawn with its top-left corner at `at`; returns its height.
fn wrapped(painter: &Painter, text: &str, font: FontId, color: egui::Color32, at: Pos2, width: f32) -> f32 {
    let galley = painter.layout(theme::shown(text), font, color, width.max(20.0));
    let h = galley.size().y;
    painter.galley(at, galley, color);
    h
}

/// Draws `legend` from the top of `rect`.
pub fn legend_ui(painter: &Painter, legend: &Legend, rect: Rect) {
    let font = FontId::proportional(FONT);
    let c = theme::color32;
    let x = rect.left() + 6.0;
    let width = rect.width() - 8.0;
    let mut y = rect.top() + 2.0;
    y += wrapped(
        painter,
        &legend.title,
        font.clone(),
        theme::axis_text(painter.ctx()),
        pos2(x, y),
        width,
    ) + 3.0;
    let label_x = x + SWATCH.max(BAR_W) + 8.0;
    for item in &legend.items {
        let mid = y + ROW / 2.0;
        let sw = Rect::from_center_size(pos2(x + SWATCH / 2.0, mid), Vec2::splat(SWATCH));
        let label = |t: &str| {
            painter.text(
                pos2(label_x, mid),
                Align2::LEFT_CENTER,
                theme::shown(t),
                font.clone(),
                theme::axis_text(painter.ctx()),
            );
        };
        match item {
            LegendItem::Swatch { label: t, fill } => {
                match fill {
                    Fill::Solid(col) => {
                        painter.rect_filled(sw, 1.0, c(*col));
                    }
                    Fill::Hatch => hatch(painter, sw),
                }
                painter.rect_stroke(sw, 1.0, Stroke::new(1.0, theme::LEGEND_FRAME), StrokeKind::Outside);
                label(t);
            }
            LegendItem::Bar {
                palette,
                min,
                max,
                ticks,
            } => {
                let bar = Rect::from_min_size(pos2(x, y + 6.0), Vec2::new(BAR_W, BAR_H));
                let steps = 64;
                for i in 0..steps {
                    let t = 1.0 - (i as f32 + 0.5) / steps as f32;
                    let h = BAR_H / steps as f32;
                    let r = Rect::from_min_size(pos2(bar.left(), bar.top() + i as f32 * h), Vec2::new(BAR_W, h + 0.5));
                    painter.rect_filled(r, 0.0, c(palette.at(t)));
                }
                painter.rect_stroke(bar, 0.0, Stroke::new(1.0, theme::LEGEND_FRAME), StrokeKind::Outside);
                let span = (max - min).max(1) as f32;
                for &t in ticks {
                    let ty = bar.bottom() - (t - min) as f32 / span * BAR_H;
                    painter.line_segment(
                        [pos2(bar.right(), ty), pos2(bar.right() + 4.0, ty)],
                        Stroke::new(1.0, theme::axis_text(painter.ctx())),
                    );
                    painter.text(
                        pos2(label_x, ty),
                        Align2::LEFT_CENTER,
                        t.to_string(),
                        FontId::monospace(11.0),
                        theme::axis_text(painter.ctx()),
                    );
                }
            }
            LegendItem::Line { label: t, style } => {
                super::overlay_line(painter, pos2(sw.left(), sw.bottom()), pos2(sw.right(), sw.top()), style);
                label(t);
            }
            LegendItem::Ring { label: t, style } => {
                super::overlay_ring(painter, sw.center(), SWATCH * style.radius.max(0.2) * 1.1, style);
                label(t);
            }
            LegendItem::Dot { label: t, color } => {
                painter.circle_filled(sw.center(), SWATCH * 0.38, c(*color));
                label(t);
            }
            LegendItem::Outline { label: t, color } => {
                painter.rect_stroke(sw.shrink(1.0), 0.0, Stroke::new(2.0, c(*color)), StrokeKind::Inside);
                label(t);
            }
            LegendItem::Note(t) => {
                let font = FontId::proportional(FONT - 1.0);
                y += wrapped(
                    painter,
                    t,
                    font,
                    theme::legend_note(painter.ctx()),
                    pos2(x, y + 2.0),
                    width,
                ) + 4.0;
                continue;
            }
        }
        y += item_height(item);
    }
}

/// The hatch of cells not computed yet, over `rect` (the legend's swatch; the map draws the
/// same hatch from a texture, `TileTextures::hatch`).
pub fn hatch(painter: &Painter, rect: Rect) {
    let p = painter.with_clip_rect(rect.intersect(painter.clip_rect()));
    p.rect_filled(rect, 0.0, theme::color32(colors::HATCH_BACK));
    let stroke = Stroke::new(1.5, theme::color32(colors::HATCH_LINE));
    let spacing = super::map_textures::HATCH_SPACING;
    let (w, h) = (rect.width(), rect.height());
    let mut d = 0.0;
    while d < w + h {
        let from = Pos2::new(rect.left() + d, rect.top());
        let to = Pos2::new(rect.left() + d - h, rect.bottom());
        p.line_segment([from, to], stroke);
        d += spacing;
    }
}
