//! One-heap rulesets: the sequence G(0..N) as a plot and as a strip of coloured cells, with the
//! certified period and pre-period marked.

use egui::{Rect, Sense, Stroke, Vec2, pos2};
use egui_plot::{Line, Plot, Points, VLine};

use crate::raster::ColorMode;
use crate::solver::sequence::Sequence;
use crate::ui::theme;

/// Heaps the inspector marks on the strip: the selected heap and its options (winning or not).
#[derive(Debug, Clone, Default)]
pub struct StripMarks {
    pub selected: Option<u64>,
    pub options: Vec<(u64, bool)>,
}

/// Draws the plot (top) and the strip (bottom); returns the heap clicked on the strip.
pub fn sequence_ui(ui: &mut egui::Ui, seq: &Sequence, color: ColorMode, marks: &StripMarks) -> Option<u64> {
    let values: Vec<[f64; 2]> = seq
        .values
        .iter()
        .enumerate()
        .filter_map(|(n, v)| v.map(|v| [n as f64, v as f64]))
        .collect();
    match seq.periodicity {
        Some(p) => ui.label(format!(
            "period {}, pre-period {} (certified; n counts tokens from 0)",
            p.period, p.preperiod
        )),
        None => ui.label(format!("no period certified for n < {}", seq.values.len())),
    };
    let strip_height = 28.0;
    let plot_height = (ui.available_height() - strip_height - 8.0).max(80.0);
    Plot::new("sequence-plot")
        .height(plot_height)
        .x_axis_label("n")
        .y_axis_label("G(n)")
        .show(ui, |plot| {
            plot.line(Line::new("G(n)", values.clone()));
            plot.points(Points::new("values", values.clone()).radius(2.0));
            if let Some(p) = seq.periodicity {
                plot.vline(VLine::new("pre-period", p.preperiod as f64).color(theme::PERIOD_MARK));
                plot.vline(
                    VLine::new("one period later", (p.preperiod + p.period) as f64)
                        .color(theme::PERIOD_MARK)
                        .style(egui_plot::LineStyle::dashed_loose()),
                );
            }
        });
    let (rect, response) = ui.allocate_exact_size(Vec2::new(ui.available_width(), strip_height), Sense::click());
    let painter = ui.painter_at(rect);
    let n = seq.values.len().max(1);
    let w = rect.width() / n as f32;
    let max = seq.values.iter().flatten().copied().max().unwrap_or(0);
    for (i, v) in seq.values.iter().enumerate() {
        let c = color.color(*v, max, None);
        let r = Rect::from_min_size(
            pos2(rect.left() + i as f32 * w, rect.top()),
            Vec2::new(w.max(1.0), strip_height),
        );
        painter.rect_filled(r, 0.0, crate::ui::theme::color32(c));
    }
    if let Some(p) = seq.periodicity {
        for x in [p.preperiod, p.preperiod + p.period] {
            let px = rect.left() + x as f32 * w;
            painter.line_segment(
                [pos2(px, rect.top()), pos2(px, rect.bottom())],
                Stroke::new(2.0, theme::PERIOD_MARK),
            );
        }
    }
    let centre = |n: u64| pos2(rect.left() + (n as f32 + 0.5) * w, rect.center().y);
    for &(n, winning) in &marks.options {
        if (n as usize) < seq.values.len() {
            let r = (w * 0.4).clamp(1.5, 5.0);
            if winning {
                painter.circle_filled(centre(n), r, theme::WINNING_MARK);
            } else {
                painter.circle_stroke(centre(n), r, Stroke::new(1.0, theme::OPTION_MARK));
            }
        }
    }
    if let Some(n) = marks.selected.filter(|&n| (n as usize) < seq.values.len()) {
        let r = Rect::from_center_size(centre(n), Vec2::new(w.max(3.0), strip_height));
        painter.rect_stroke(
            r,
            0.0,
            Stroke::new(2.0, theme::SELECTED_OUTLINE),
            egui::StrokeKind::Outside,
        );
    }
    let clicked = response.clicked().then(|| response.interact_pointer_pos()).flatten()?;
    let n = ((clicked.x - rect.left()) / w).floor();
    (n >= 0.0 && (n as usize) < seq.values.len()).then_some(n as u64)
}
