//! One-heap rulesets: the sequence G(0..N) as a plot and as a strip of coloured cells, with the
//! certified period and pre-period marked.

use egui::{Rect, Sense, Stroke, Vec2, pos2};
use egui_plot::{Corner, GridInput, GridMark, Legend, Plot, PlotPoint, Points, Text, VLine};

use crate::game::Outcome;
use crate::raster::ColorMode;
use crate::solver::sequence::Sequence;
use crate::ui::theme;

/// Heaps the inspector marks on the strip: the selected heap and its options (winning or not).
#[derive(Debug, Clone, Default)]
pub struct StripMarks {
    pub selected: Option<u64>,
    pub options: Vec<(u64, bool)>,
}

/// Integer grid marks for G, the value axis: never a fractional value.
fn integer_marks(input: GridInput) -> Vec<GridMark> {
    let (lo, hi) = input.bounds;
    let step = nice_integer_step(input.base_step_size);
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    (first..=last)
        .map(|k| GridMark {
            value: k as f64 * step,
            step_size: step,
        })
        .collect()
}

/// The least of 1, 2, 5 × 10^k at least `min` (and at least 1).
fn nice_integer_step(min: f64) -> f64 {
    crate::raster::nice_step(min.max(1.0))
}

/// Draws the plot (top) and the strip (bottom); returns the heap clicked on the strip.
///
/// The plot shows G(n) as points; the wheel (or Ctrl+wheel, or a pinch) zooms in n only, a drag
/// pans in n only and never left of n = 0, a double click shows all of it again; the value axis
/// stays on whole numbers from 0 to the largest value. The pre-period and one period later are
/// marked and labelled; the point under the pointer is read out below the plot.
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
    let readout_height = ui.text_style_height(&egui::TextStyle::Body) + 6.0;
    let plot_height = (ui.available_height() - strip_height - readout_height - 12.0).max(80.0);
    let len = seq.values.len() as f64;
    let top = seq.values.iter().flatten().copied().max().unwrap_or(0) as f64;
    let mut hovered: Option<u64> = None;
    Plot::new("sequence-plot")
        .height(plot_height)
        .x_axis_label("n")
        .y_axis_label("G(n)")
        .allow_scroll(false)
        .allow_zoom([true, false])
        .allow_drag([true, false])
        .allow_boxed_zoom(false)
        .y_grid_spacer(integer_marks)
        .default_x_bounds(-0.5, len - 0.5)
        .default_y_bounds(-0.5, top + 1.5)
        .legend(Legend::default().position(Corner::RightTop))
        .show(ui, |plot| {
            plot.points(
                Points::new("G(n)", values.clone())
                    .radius(2.5)
                    .color(theme::SEQUENCE_POINTS),
            );
            if let Some(p) = seq.periodicity {
                let (start, again) = (p.preperiod as f64, (p.preperiod + p.period) as f64);
                plot.vline(
                    VLine::new(format!("pre-period ends: n = {}", p.preperiod), start - 0.5).color(theme::PERIOD_MARK),
                );
                plot.vline(
                    VLine::new(format!("one period later: n = {}", p.preperiod + p.period), again - 0.5)
                        .color(theme::PERIOD_MARK)
                        .style(egui_plot::LineStyle::dashed_loose()),
                );
                let labels = [
                    (start, top + 1.0, format!("pre-period ends ({})", p.preperiod)),
                    (
                        again,
                        top + 0.4,
                        format!("one period later ({})", p.preperiod + p.period),
                    ),
                ];
                for (x, y, text) in labels {
                    plot.text(
                        // no name: the legend lists the lines, these label them in place
                        Text::new("", PlotPoint::new(x - 0.5, y), text)
                            .color(theme::PERIOD_MARK)
                            .anchor(egui::Align2::LEFT_BOTTOM),
                    );
                }
            }
            // the wheel zooms n around the pointer (the plot's own wheel would scroll G)
            let wheel = plot.ctx().input(|i| i.smooth_scroll_delta.y);
            if plot.response().hovered() && wheel != 0.0 {
                plot.zoom_bounds_around_hovered(Vec2::new((wheel / 200.0).exp(), 1.0));
            }
            // n never left of 0 nor past the end, at least a few heaps wide; G from 0 to the top
            let b = plot.plot_bounds();
            let (lo, hi) = (b.min()[0], b.max()[0]);
            let width = (hi - lo).clamp(4.0, len);
            let left = lo.clamp(-0.5, (len - 0.5 - width).max(-0.5));
            if (left, width) != (lo, hi - lo) {
                plot.set_plot_bounds_x(left..=left + width);
            }
            if (b.min()[1], b.max()[1]) != (-0.5, top + 1.5) {
                plot.set_plot_bounds_y(-0.5..=top + 1.5);
            }
            hovered = plot
                .pointer_coordinate()
                .filter(|_| plot.response().hovered())
                .map(|p| p.x.round())
                .filter(|&n| n >= 0.0 && n < len)
                .map(|n| n as u64);
        });
    ui.label(match hovered {
        Some(n) => match seq.values[n as usize] {
            Some(g) => format!("n = {n}: G(n) = {g}, {}", Outcome::of(g)),
            None => format!("n = {n}: not a position"),
        },
        None => "point at the plot to read G(n); wheel or drag to zoom and pan n, double click for all".into(),
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
