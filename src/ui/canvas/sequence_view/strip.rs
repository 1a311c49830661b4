//! The strip under the one-heap plot: one texel a screen pixel, each pixel pooling its heaps
//! as the map pools cells (a P-position is never hidden), with the inspector's marks.

use egui::{Rect, Sense, Stroke, Vec2, pos2};

use super::{PlotShown, StripMarks, heap_at, selected_text};
use crate::ui::theme::{self, set_accessible};
use nimscope_core::game::Outcome;
use nimscope_core::raster::ColorMode;
use nimscope_core::solver::sequence::Sequence;

/// The heaps pixel `i` of `pixels` shows over the range `lo..hi` (heap n centred at n): those
/// whose centre lies in the pixel, so each heap of the range is in exactly one pixel; zoomed in
/// past a pixel a heap, the heap the pixel lies on. Empty outside the heaps `0..len`.
pub fn strip_pixel_heaps(lo: f64, hi: f64, pixels: usize, len: usize, i: usize) -> std::ops::Range<usize> {
    let step = (hi - lo) / pixels.max(1) as f64;
    let (x0, x1) = (lo + step * i as f64, lo + step * (i + 1) as f64);
    let clamp = |x: f64| (x.max(0.0) as usize).min(len);
    let heaps = clamp(x0.ceil())..clamp(x1.ceil());
    if !heaps.is_empty() {
        return heaps;
    }
    let mid = (x0 + x1) / 2.0;
    if mid < -0.5 || mid >= len as f64 - 0.5 {
        return 0..0;
    }
    let n = clamp(mid.round());
    n..(n + 1).min(len)
}

/// The colours of the strip's `pixels` over `lo..hi`, a pixel pooling its heaps as the map
/// pools cells (the least key: a pixel is P-coloured only if one of its heaps is a P-position,
/// and every P-position colours its pixel); heaps known by their outcome alone count by it.
/// Transparent where the pixel holds no heap.
pub fn strip_colors(seq: &Sequence, color: ColorMode, max: u32, lo: f64, hi: f64, pixels: usize) -> Vec<[u8; 4]> {
    let rule = color.key_rule();
    let len = seq.values.len();
    (0..pixels)
        .map(|i| {
            let heaps = strip_pixel_heaps(lo, hi, pixels, len, i);
            if heaps.is_empty() {
                return [0, 0, 0, 0];
            }
            let mut key: Option<u32> = None;
            let mut outcome_n = false;
            for n in heaps {
                let k = match (seq.values[n], seq.outcomes_only.as_ref().and_then(|o| o.get(n as u64))) {
                    (Some(v), _) => Some(rule.key(Some(v), None)),
                    // a P-position known by its outcome alone: G = 0
                    (None, Some(Outcome::P)) => Some(rule.key(Some(0), None)),
                    (None, Some(Outcome::N)) => {
                        outcome_n = true;
                        None
                    }
                    // (outcomes alone come from a misère quotient: never a draw)
                    (None, Some(Outcome::D) | None) => None,
                };
                key = match (key, k) {
                    (Some(a), Some(b)) => Some(rule.combine(a, b)),
                    (a, b) => a.or(b),
                };
            }
            match (key, outcome_n) {
                (Some(k), _) => color.key_color(k, max),
                (None, true) => ColorMode::Outcome.color(Some(1), 1, None),
                (None, false) => color.color(None, max, None),
            }
        })
        .collect()
}

/// What the strip's texture was drawn from, so it is drawn again only when that changes.
#[derive(Clone, PartialEq)]
struct StripKey {
    /// Where the values lie (tells one sequence from another; never read).
    values: usize,
    len: usize,
    color: ColorMode,
    lo: u64,
    hi: u64,
    pixels: usize,
}

/// The strip of the heaps the plot shows, under the plot's data area, one texel a screen
/// pixel (nearest-neighbour: no seam between pixels, no blending of a P-position away), with
/// the inspector's marks; returns the heap clicked.
pub(super) fn strip_ui(
    ui: &mut egui::Ui,
    seq: &Sequence,
    color: ColorMode,
    marks: &StripMarks,
    strip_height: f32,
    shown: &PlotShown,
) -> Option<u64> {
    use egui::emath::GuiRounding;
    let (row, _) = ui.allocate_exact_size(Vec2::new(ui.available_width(), strip_height), Sense::hover());
    let ppp = ui.ctx().pixels_per_point();
    let rect = Rect::from_x_y_ranges(shown.left..=shown.right, row.y_range()).round_to_pixels(ppp);
    let response = ui.interact(rect, ui.scope_id().with("sequence-strip-area"), Sense::click());
    let pixels = (rect.width() * ppp).round().max(1.0) as usize;
    let len = seq.values.len();
    let max = seq.values.iter().flatten().copied().max().unwrap_or(0);
    let key = StripKey {
        values: seq.values.as_ptr() as usize,
        len,
        color,
        lo: shown.lo.to_bits(),
        hi: shown.hi.to_bits(),
        pixels,
    };
    let id = egui::Id::unique("sequence-strip");
    let cached: Option<(StripKey, egui::TextureHandle)> = ui.data(|d| d.get_temp(id));
    let texture = match cached {
        Some((k, t)) if k == key => t,
        _ => {
            let colors = strip_colors(seq, color, max, shown.lo, shown.hi, pixels);
            let image = egui::ColorImage::from_rgba_unmultiplied([pixels, 1], colors.as_flattened());
            let t = ui
                .ctx()
                .load_texture("sequence-strip", image, egui::TextureOptions::NEAREST);
            ui.data_mut(|d| d.insert_temp(id, (key, t.clone())));
            t
        }
    };
    let painter = ui.painter_at(row);
    painter.image(
        texture.id(),
        rect,
        Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0)),
        egui::Color32::WHITE,
    );
    if let Some(p) = seq.periodicity {
        for x in [p.preperiod, p.preperiod + p.period] {
            let px = shown.screen_x(x as f64 - 0.5);
            if rect.x_range().contains(px) {
                painter.line_segment(
                    [pos2(px, rect.top()), pos2(px, rect.bottom())],
                    Stroke::new(2.0, theme::PERIOD_MARK),
                );
            }
        }
    }
    strip_marks_ui(&painter, rect, shown, len, marks);
    let name = format!(
        "strip of G(n) by colour: heaps {} to {} of {len}{}",
        heap_at(shown.lo, len, true),
        heap_at(shown.hi, len, false),
        selected_text(seq, marks)
    );
    set_accessible(ui, response.id, egui::accesskit::Role::Image, &name);
    let clicked = response.clicked().then(|| response.interact_pointer_pos()).flatten()?;
    let x =
        shown.lo + f64::from((clicked.x - shown.left) / (shown.right - shown.left).max(1.0)) * (shown.hi - shown.lo);
    let n = x.round();
    (n >= 0.0 && (n as usize) < len).then_some(n as u64)
}

/// The inspector's marks on the strip: its options (winning filled) and the selected heap,
/// each at its heap's place under the plot's axis.
fn strip_marks_ui(painter: &egui::Painter, rect: Rect, shown: &PlotShown, len: usize, marks: &StripMarks) {
    let w = shown.screen_x(1.0) - shown.screen_x(0.0);
    let centre = |n: u64| pos2(shown.screen_x(n as f64), rect.center().y);
    let visible = |n: u64| (n as usize) < len && rect.x_range().contains(centre(n).x);
    for &(n, winning) in &marks.options {
        if visible(n) {
            let r = (w * 0.4).clamp(1.5, 5.0);
            if winning {
                painter.circle_filled(centre(n), r, theme::WINNING_MARK);
            } else {
                painter.circle_stroke(centre(n), r, Stroke::new(1.0, theme::OPTION_MARK));
            }
        }
    }
    if let Some(n) = marks.selected.filter(|&n| visible(n)) {
        let r = Rect::from_center_size(centre(n), Vec2::new(w.max(3.0), rect.height()));
        painter.rect_stroke(
            r,
            0.0,
            Stroke::new(2.0, theme::SELECTED_OUTLINE),
            egui::StrokeKind::Outside,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::strip_pixel_heaps;

    /// Zoomed out, every heap of the range lies in exactly one pixel of the strip; zoomed in,
    /// every pixel over the heaps shows the heap it lies on.
    #[test]
    fn each_heap_lies_in_one_strip_pixel() {
        for (len, pixels, lo, hi) in [
            (10_000usize, 637usize, -0.5, 9999.5),
            (600_000, 1280, -0.5, 599_999.5),
            (600, 637, -0.5, 599.5),
            (600, 900, 100.2, 140.9),
            (10, 3, -0.5, 9.5),
        ] {
            let mut seen = vec![0u32; len];
            for i in 0..pixels {
                let heaps = strip_pixel_heaps(lo, hi, pixels, len, i);
                let mid = lo + (hi - lo) * (i as f64 + 0.5) / pixels as f64;
                if (-0.5..len as f64 - 0.5).contains(&mid) {
                    assert!(!heaps.is_empty(), "{len} heaps, {pixels} px: pixel {i} holds none");
                }
                for n in heaps {
                    seen[n] += 1;
                }
            }
            let in_range = |n: usize| (lo..hi).contains(&(n as f64));
            if hi - lo >= pixels as f64 {
                assert!(
                    (0..len).filter(|&n| in_range(n)).all(|n| seen[n] == 1),
                    "{len}, {pixels}"
                );
            } else {
                assert!(
                    (0..len).filter(|&n| in_range(n)).all(|n| seen[n] >= 1),
                    "{len}, {pixels}"
                );
            }
        }
    }
}
