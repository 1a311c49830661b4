//! The words beside the plot's period lines ("pre-period ends (53)", "one period later (87)"):
//! placed in screen space, measured, so they never overlap each other. Placed in the plot's own
//! units a fixed fraction of a value apart, they overlapped wherever the plot was short (UI
//! scale 2) or the period narrow on screen.

use egui::{Rect, Vec2, pos2};
use egui_plot::PlotTransform;

use crate::ui::theme;
use nimscope_core::solver::period::Periodicity;

/// Room between a label and its line, the frame's top, or another label (points).
const GAP: f32 = 3.0;

/// The labels of the pre-period's end and of one period later, at the top of the plot shown by
/// `transform`, each beside its line (the lines are drawn at n − ½, between two heaps). They
/// are widgets (a screen reader reads them, a test measures them) that take no input: the plot
/// under them keeps its pointer.
pub(super) fn period_labels_ui(ui: &mut egui::Ui, p: Periodicity, transform: &PlotTransform) {
    let font = egui::TextStyle::Small.resolve(ui.style());
    let labels = [
        (p.preperiod, format!("pre-period ends ({})", p.preperiod)),
        (
            p.preperiod + p.period,
            format!("one period later ({})", p.preperiod + p.period),
        ),
    ];
    let lines: Vec<(f32, Vec2)> = labels
        .iter()
        .map(|(n, text)| {
            let x = transform.position_from_point_x(*n as f64 - 0.5);
            let size = ui
                .painter()
                .layout_no_wrap(text.clone(), font.clone(), theme::PERIOD_MARK)
                .size();
            (x, size)
        })
        .collect();
    for (rect, (_, text)) in place_labels(*transform.frame(), &lines).into_iter().zip(labels) {
        let Some(rect) = rect else { continue };
        let mut at = ui.new_child(egui::UiBuilder::new().max_rect(rect));
        // a backing of the plot's colour: the words stay legible over the points
        let backing = ui.visuals().extreme_bg_color.gamma_multiply(0.85);
        at.painter().rect_filled(rect.expand(1.0), 2.0, backing);
        let words = egui::RichText::new(text).small().color(theme::PERIOD_MARK);
        at.add(
            egui::Label::new(words)
                .selectable(false)
                .wrap_mode(egui::TextWrapMode::Extend),
        );
    }
}

/// Where the labels of lines at screen x (each with its label's size) go within `frame`: at
/// its top, right of its line, or left of it where the right would pass the frame's edge; a
/// label that would overlap one placed before goes below it. A line outside the frame has
/// none.
pub(super) fn place_labels(frame: Rect, lines: &[(f32, Vec2)]) -> Vec<Option<Rect>> {
    let mut placed: Vec<Rect> = Vec::new();
    lines
        .iter()
        .map(|&(x, size)| {
            if !(frame.left()..=frame.right()).contains(&x) {
                return None;
            }
            let left = if x + GAP + size.x <= frame.right() {
                x + GAP
            } else {
                (x - GAP - size.x).max(frame.left())
            };
            let mut rect = Rect::from_min_size(pos2(left, frame.top() + GAP), size);
            // below every label it would touch (each step moves it down: it ends)
            while let Some(below) = placed.iter().find(|r| r.expand(GAP / 2.0).intersects(rect)) {
                rect = rect.translate(Vec2::new(0.0, below.bottom() + GAP - rect.top()));
            }
            placed.push(rect);
            Some(rect)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::place_labels;
    use egui::{Rect, Vec2, pos2};

    /// Labels of lines close together on screen stack; far apart they share the top row; a
    /// label that would pass the right edge goes left of its line; none overlap, all within
    /// the frame's width.
    #[test]
    fn labels_never_overlap() {
        let frame = Rect::from_min_max(pos2(40.0, 20.0), pos2(440.0, 220.0));
        let size = Vec2::new(120.0, 14.0);
        for (a, b) in [
            (60.0, 80.0),
            (60.0, 300.0),
            (400.0, 430.0),
            (100.0, 100.0),
            (435.0, 60.0),
        ] {
            let rects = place_labels(frame, &[(a, size), (b, size)]);
            let (r0, r1) = (rects[0].unwrap(), rects[1].unwrap());
            assert!(!r0.intersects(r1), "{a}, {b}: {r0:?} {r1:?}");
            for r in [r0, r1] {
                assert!(r.left() >= frame.left() && r.right() <= frame.right(), "{r:?}");
            }
        }
        let row_of = |a: f32, b: f32| {
            let rects = place_labels(frame, &[(a, size), (b, size)]);
            (rects[0].unwrap(), rects[1].unwrap())
        };
        let (near0, near1) = row_of(60.0, 80.0);
        assert!(near1.top() >= near0.bottom(), "close lines: stacked");
        let (far0, far1) = row_of(60.0, 300.0);
        assert_eq!(far0.top(), far1.top(), "far apart: one row");
        assert_eq!((far0.left(), far1.left()), (63.0, 303.0), "right of their lines");
        let (edge, _) = row_of(435.0, 60.0);
        assert_eq!(edge.right(), 432.0, "left of a line near the right edge");
        assert_eq!(place_labels(frame, &[(500.0, size)]), vec![None], "a line out of view");
    }
}
