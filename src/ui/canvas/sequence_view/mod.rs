//! One-heap rulesets: the sequence G(0..N) as a plot and as a strip of coloured cells, with the
//! certified period and pre-period marked ([`SequenceView`], which keeps the sequence and the
//! length asked for; the strip in [`strip`]).

use std::sync::Arc;

mod period_labels;
mod strip;
use period_labels::period_labels_ui;
use strip::strip_ui;
pub use strip::{strip_colors, strip_pixel_heaps};

use egui::{Stroke, Vec2};
use egui_plot::{Corner, FilledArea, GridInput, GridMark, Legend, Plot, Points, VLine};

use crate::ui::theme::{self, set_accessible};
use nimscope_core::game::Outcome;
use nimscope_core::raster::ColorMode;
use nimscope_core::session::limits::MAX_SEQUENCE_LEN;
use nimscope_core::solver::sequence::Sequence;

/// The shortest plot (points) that shows its legend.
const LEGEND_MIN_HEIGHT: f32 = 200.0;

/// Heaps of the one-heap view unless a session says otherwise: G(0..600).
pub const DEFAULT_LEN: u64 = 600;

/// The one-heap view: the sequence as far as computed, the heaps the view shows (a session's
/// `sequence_len`, changed by the length control) and the length the worker was last asked for.
#[derive(Debug, Clone)]
pub struct SequenceView {
    sequence: Option<Arc<Sequence>>,
    /// The longest sequence computed for the ruleset shown: a shorter length is its prefix.
    computed: Option<Arc<Sequence>>,
    len: u64,
    asked: Option<u64>,
}

impl Default for SequenceView {
    fn default() -> Self {
        SequenceView {
            sequence: None,
            computed: None,
            len: DEFAULT_LEN,
            asked: None,
        }
    }
}

impl SequenceView {
    /// The sequence computed for the ruleset shown, if it came.
    pub fn sequence(&self) -> Option<&Arc<Sequence>> {
        self.sequence.as_ref()
    }

    /// The heaps the view shows: G(0..len).
    pub fn length(&self) -> u64 {
        self.len
    }

    /// Shows G(0..len) (computed when the worker is next asked), `len` kept within what a
    /// session and a figure can hold (1 to [`MAX_SEQUENCE_LEN`] heaps).
    pub fn set_length(&mut self, len: u64) {
        self.len = len.clamp(1, MAX_SEQUENCE_LEN);
    }

    /// Takes the worker's sequence (kept as the longest computed when it is).
    pub fn take(&mut self, sequence: Arc<Sequence>) {
        let longer = self
            .computed
            .as_ref()
            .is_none_or(|c| c.values.len() <= sequence.values.len());
        if longer {
            self.computed = Some(sequence.clone());
        }
        self.sequence = Some(sequence);
    }

    /// Forgets the sequence (another ruleset): it is asked for again.
    pub fn forget(&mut self) {
        self.sequence = None;
        self.computed = None;
        self.asked = None;
    }

    /// What the length shown needs now, if it was not asked yet (it is then taken as asked):
    /// a length up to the longest computed is its prefix, in memory, with no job (÷10); a
    /// longer one is a job for the worker (which supersedes the job running).
    pub fn to_ask(&mut self) -> Option<SequenceNeed> {
        if self.asked == Some(self.len) {
            return None;
        }
        self.asked = Some(self.len);
        let n = usize::try_from(self.len).unwrap_or(usize::MAX);
        match &self.computed {
            Some(c) if c.values.len() >= n => {
                self.sequence = Some(Arc::new(c.prefix(n)));
                Some(SequenceNeed::InMemory)
            }
            _ => Some(SequenceNeed::Job(self.len)),
        }
    }

    /// Draws the view: the sequence with the length control (nothing before it comes: the
    /// caller says what became of its job); returns the heap clicked on the strip.
    pub fn ui(&mut self, ui: &mut egui::Ui, color: ColorMode, marks: &StripMarks) -> Option<u64> {
        let s = self.sequence.clone()?;
        sequence_ui(ui, &s, color, marks, &mut self.len)
    }

    /// The length shown is asked of the worker again (after Cancel stopped its job).
    pub fn ask_again(&mut self) {
        self.asked = None;
    }
}

/// egui_plot numbers a mark of the n axis only when its marks are at least this far apart, in
/// points, and at full strength from 80 (its `label_spacing` for the x axis), and passes
/// `base_step_size` as the n its finest grid lines (8 points apart) step.
const N_LABEL_POINTS: f64 = 80.0;
const PLOT_LINE_POINTS: f64 = 8.0;

/// The least of 1, 2 or 5 times a power of ten that is at least `x` (at least 1: heaps are
/// whole).
fn nice_step(x: f64) -> f64 {
    let x = x.max(1.0);
    let power = 10f64.powf(x.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|&s| s >= x)
        .unwrap_or(10.0 * power)
}

/// Grid marks for n, the heap axis: the numbered step is 1, 2 or 5 times a power of ten, the
/// least whose numbers egui_plot shows at full strength, with finer lines between. Powers of
/// ten alone numbered 0..2000 at 800 × 600 with 1000 only (its 100s were too close to carry
/// numbers); never a fractional heap.
fn heap_marks(input: GridInput) -> Vec<GridMark> {
    if input.base_step_size.is_nan() || input.base_step_size <= 0.0 || input.bounds.1 <= input.bounds.0 {
        return Vec::new();
    }
    let numbered = nice_step(input.base_step_size * N_LABEL_POINTS / PLOT_LINE_POINTS);
    // the coarse lines on numbered marks only (a coarse step of its own numbered 400 and 500
    // side by side)
    let steps = [numbered * 10.0, numbered, nice_step(input.base_step_size)];
    let mut marks: Vec<GridMark> = Vec::new();
    for step in steps {
        let first = (input.bounds.0 / step).ceil() as i64;
        let last = (input.bounds.1 / step).floor() as i64;
        for i in first..=last {
            let value = i as f64 * step;
            // each value once, with the coarsest step it lies on
            if !marks.iter().any(|m| m.value == value) {
                marks.push(GridMark { value, step_size: step });
            }
        }
    }
    marks
}

/// What a new length of the one-heap view needs ([`SequenceView::to_ask`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SequenceNeed {
    /// The values were in memory: shown now, and a job running for another length is moot.
    InMemory,
    /// G(0..n), from the worker.
    Job(u64),
}

/// Heaps the inspector marks on the strip: the selected heap and its options (winning or not).
#[derive(Debug, Clone, Default)]
pub struct StripMarks {
    pub selected: Option<u64>,
    pub options: Vec<(u64, bool)>,
}

/// Grid marks for G, the value axis, at several scales (egui_plot labels only the marks far
/// enough apart: marks of one fine scale left the axis without a number), never a fractional
/// value.
fn integer_marks(input: GridInput) -> Vec<GridMark> {
    let mut marks = egui_plot::log_grid_spacer(10)(input);
    marks.retain(|m| m.step_size >= 1.0 && m.value.fract() == 0.0);
    marks
}

/// The heaps of `lo..hi` (clamped to the values) pooled into at most `buckets` runs of equal
/// width: each run's first heap, and the least and greatest value in it (runs without a
/// position are left out). Truthful pooling: a run holding a P-position has least value 0.
pub fn pool_runs(values: &[Option<u32>], lo: usize, hi: usize, buckets: usize) -> Vec<(usize, u32, u32)> {
    let hi = hi.min(values.len());
    if lo >= hi || buckets == 0 {
        return Vec::new();
    }
    let per = (hi - lo).div_ceil(buckets).max(1);
    (lo..hi)
        .step_by(per)
        .filter_map(|start| {
            let run = values[start..(start + per).min(hi)].iter().flatten();
            let (min, max) = run.fold((u32::MAX, 0), |(a, b), &v| (a.min(v), b.max(v)));
            (min != u32::MAX).then_some((start, min, max))
        })
        .collect()
}

/// Width of the length field, in points: fixed, so the ÷10 and ×10 buttons beside it stay
/// where they are whatever the number of digits.
const LENGTH_FIELD_WIDTH: f32 = 72.0;

/// The length control above the plot: the heaps computed, typed or stepped by ten.
fn length_ui(ui: &mut egui::Ui, len: &mut u64) {
    ui.horizontal(|ui| {
        let l = ui.label("heaps n <");
        let height = ui.spacing().interact_size.y;
        ui.add_sized(
            [LENGTH_FIELD_WIDTH, height],
            egui::DragValue::new(len).range(1..=MAX_SEQUENCE_LEN).speed(10.0),
        )
        .labelled_by(l.id);
        if ui
            .button("÷10")
            .on_hover_text("show fewer heaps (the values computed are kept)")
            .clicked()
        {
            *len = (*len / 10).max(10);
        }
        if ui
            .button("×10")
            .on_hover_text("compute ten times as many heaps")
            .clicked()
        {
            *len = len.saturating_mul(10).min(MAX_SEQUENCE_LEN);
        }
    });
}

/// Draws the length control, the plot (top) and the strip (bottom); returns the heap clicked
/// on the strip. `len`: the heaps the session asks for (changed here, computed by the window).
///
/// The period above the plot: "certified" only with the evidence `seq --certificate` writes
/// (the pre-period, the period, the values checked and what the theorem needs); a period
/// without a certificate is said as found, never as certified.
fn period_ui(ui: &mut egui::Ui, seq: &Sequence) {
    let shown = ui.label(period_text(seq));
    if let Some(c) = &seq.certificate {
        shown.on_hover_text(format!("{}. Values SHA-256 {}.", c.theorem, c.values_sha256));
    }
}

/// The words of [`period_ui`].
pub fn period_text(seq: &Sequence) -> String {
    match (&seq.certificate, seq.periodicity) {
        (Some(c), _) => format!(
            "period {}, pre-period {}: certified (G(n + {}) = G(n) checked for {} ≤ n < {}, {} ≥ the {} \
             the theorem needs; n counts tokens from 0)",
            c.period,
            c.preperiod,
            c.period,
            c.preperiod,
            c.checked.saturating_sub(c.period),
            c.checked,
            c.needed
        ),
        (None, Some(p)) => format!(
            "period {}, pre-period {} (found within n < {}; no certificate is written for this ruleset)",
            p.period,
            p.preperiod,
            seq.values.len()
        ),
        (None, None) => format!("no period certified for n < {}", seq.values.len()),
    }
}

/// The plot shows G(n) as points; the wheel (or Ctrl+wheel, or a pinch) zooms in n only, a drag
/// pans in n only and never left of n = 0, a double click shows all of it again; the value axis
/// stays on whole numbers from 0 to the largest value. Zoomed out past a heap a pixel, a pixel
/// column shows the range of the values of its heaps. The pre-period and one period later are
/// marked and labelled; the point under the pointer is read out below the plot. The strip
/// below shows the same heaps as the plot, under the plot's own axis: a sequence of a new
/// length is shown whole in both.
fn sequence_ui(ui: &mut egui::Ui, seq: &Sequence, color: ColorMode, marks: &StripMarks, len: &mut u64) -> Option<u64> {
    // wrapped: a long line (the certificate's evidence, the quotient's) never widens the
    // centre past the window's edge
    ui.horizontal_wrapped(|ui| {
        length_ui(ui, len);
        ui.separator();
        period_ui(ui, seq);
        if let Some(o) = &seq.outcomes_only {
            ui.separator();
            ui.label(format!(
                "n ≥ {}: the outcome alone (strip by outcome, G(n) unknown), by {}",
                o.from, o.by
            ));
        }
    });
    let strip_height = 28.0;
    let readout_height = ui.text_style_height(&egui::TextStyle::Body) + 6.0;
    let plot_height = (ui.available_height() - strip_height - readout_height - 12.0).max(80.0);
    let shown = plot_ui(ui, seq, plot_height, marks);
    ui.label(match shown.hovered {
        Some(n) => match (seq.values[n as usize], seq.outcome(n)) {
            (Some(g), _) => format!("n = {n}: G(n) = {g}, {}", Outcome::of(g)),
            (None, Some(o)) => format!("n = {n}: {o} by the misère quotient (G(n) unknown)"),
            (None, None) => format!("n = {n}: not a position"),
        },
        None => "point at the plot to read G(n); wheel or drag to zoom and pan n, double click for all".into(),
    });
    strip_ui(ui, seq, color, marks, strip_height, &shown)
}

/// What the plot showed this frame: the heaps in view (in n, heap n centred at n), where its
/// data area lies on screen, and the heap under the pointer.
struct PlotShown {
    lo: f64,
    hi: f64,
    left: f32,
    right: f32,
    hovered: Option<u64>,
}

impl PlotShown {
    /// The screen x of the data coordinate `x`.
    fn screen_x(&self, x: f64) -> f32 {
        self.left + ((x - self.lo) / (self.hi - self.lo).max(1e-9)) as f32 * (self.right - self.left)
    }
}

/// The heaps `lo..hi` the plot shows for a sequence of `len` heaps: all of them when the
/// length changed (a new sequence is shown whole), else the range kept from the last frame,
/// never left of n = 0 nor past the end, at least a few heaps wide.
fn x_range(kept: Option<(usize, f64, f64)>, len: usize) -> (f64, f64) {
    let n = len as f64;
    let (lo, hi) = match kept {
        Some((l, lo, hi)) if l == len => (lo, hi),
        _ => (-0.5, n - 0.5),
    };
    let width = (hi - lo).clamp(4.0_f64.min(n), n.max(1.0));
    let left = lo.clamp(-0.5, (n - 0.5 - width).max(-0.5));
    (left, left + width)
}

/// The plot of G(n); returns what it showed. The values drawn are those of the range the plot
/// shows this frame: when a drag or the wheel moves it after they were chosen, one more frame
/// is asked for at once, so the plot never waits for the pointer to show a range whole.
fn plot_ui(ui: &mut egui::Ui, seq: &Sequence, plot_height: f32, marks: &StripMarks) -> PlotShown {
    let len = seq.values.len();
    let top = seq.values.iter().flatten().copied().max().unwrap_or(0) as f64;
    let id = egui::Id::unique("sequence-plot-range");
    let kept: Option<(usize, f64, f64)> = ui.data(|d| d.get_temp(id));
    let (lo, hi) = x_range(kept, len);
    let mut hovered: Option<u64> = None;
    let plot = Plot::new("sequence-plot")
        .height(plot_height)
        .x_axis_label("n")
        .y_axis_label("G(n)")
        .allow_scroll(false)
        .allow_zoom([true, false])
        .allow_drag([true, false])
        .allow_boxed_zoom(false)
        .x_grid_spacer(heap_marks)
        .y_grid_spacer(integer_marks)
        .default_x_bounds(lo, hi)
        .default_y_bounds(-0.5, top + 1.5);
    // the legend where it leaves the plot room: a short plot (800 × 600 at UI scale 2) was
    // mostly legend, over the labels of the period's lines, which say the same in place
    let plot = if plot_height >= LEGEND_MIN_HEIGHT {
        plot.legend(Legend::default().position(Corner::RightTop))
    } else {
        plot
    };
    let response = plot.show(ui, |plot| {
        plot.set_plot_bounds_x(lo..=hi);
        plot.set_plot_bounds_y(-0.5..=top + 1.5);
        values_ui(plot, seq, lo, hi);
        if let Some(p) = seq.periodicity {
            period_lines_ui(plot, p);
        }
        // the wheel zooms n around the pointer (the plot's own wheel would scroll G)
        let wheel = plot.ctx().input(|i| i.smooth_scroll_delta.y);
        if plot.response().hovered() && wheel != 0.0 {
            plot.zoom_bounds_around_hovered(Vec2::new((wheel / 200.0).exp(), 1.0));
        }
        hovered = plot
            .pointer_coordinate()
            .filter(|_| plot.response().hovered())
            .map(|p| p.x.round())
            .filter(|&n| n >= 0.0 && n < len as f64)
            .map(|n| n as u64);
    });
    let b = response.transform.bounds();
    let (shown_lo, shown_hi) = x_range(Some((len, b.min()[0], b.max()[0])), len);
    if (shown_lo, shown_hi) != (lo, hi) {
        ui.ctx().request_repaint();
    }
    ui.data_mut(|d| d.insert_temp(id, (len, shown_lo, shown_hi)));
    if let Some(p) = seq.periodicity {
        period_labels_ui(ui, p, &response.transform);
    }
    let frame = response.transform.frame();
    let shown = PlotShown {
        lo,
        hi,
        left: frame.left(),
        right: frame.right(),
        hovered,
    };
    let name = format!(
        "plot of G(n): heaps {} to {} of {len}{}",
        heap_at(lo, len, true),
        heap_at(hi, len, false),
        selected_text(seq, marks)
    );
    set_accessible(ui, response.response.id, egui::accesskit::Role::Figure, &name);
    shown
}

/// The first (or last) heap whose centre lies in the plot's range from (or to) `x`.
fn heap_at(x: f64, len: usize, first: bool) -> usize {
    let n = if first { x.ceil() } else { x.floor() };
    (n.max(0.0) as usize).min(len.saturating_sub(1))
}

/// The selected heap's value, said after a view's name for a screen reader.
fn selected_text(seq: &Sequence, marks: &StripMarks) -> String {
    let Some(n) = marks.selected else { return String::new() };
    match (seq.values.get(n as usize).copied().flatten(), seq.outcome(n)) {
        (Some(g), _) => format!("; selected n = {n}: G = {g}, {}", Outcome::of(g)),
        (None, Some(o)) => format!("; selected n = {n}: {o}"),
        (None, None) => format!("; selected n = {n}"),
    }
}

/// The values in `lo..hi`: a point a heap while heaps are wider than a pixel, else the range
/// of values of each pixel's heaps (drawn as a band, so a lone P-position among large values
/// is never lost).
fn values_ui(plot: &mut egui_plot::PlotUi, seq: &Sequence, lo: f64, hi: f64) {
    let pixels = plot.transform().frame().width().max(1.0) as usize;
    let lo = lo.max(0.0).floor() as usize;
    let hi = (hi.max(0.0).ceil() as usize + 1).min(seq.values.len());
    if hi.saturating_sub(lo) <= pixels {
        let points: Vec<[f64; 2]> = (lo..hi)
            .filter_map(|n| seq.values[n].map(|v| [n as f64, f64::from(v)]))
            .collect();
        plot.points(Points::new("G(n)", points).radius(2.5).color(theme::SEQUENCE_POINTS));
        return;
    }
    let runs = pool_runs(&seq.values, lo, hi, pixels);
    let xs: Vec<f64> = runs.iter().map(|r| r.0 as f64).collect();
    let mins: Vec<f64> = runs.iter().map(|r| f64::from(r.1)).collect();
    let maxs: Vec<f64> = runs.iter().map(|r| f64::from(r.2)).collect();
    plot.add(
        FilledArea::new("G(n): least to greatest of a pixel's heaps", &xs, &mins, &maxs)
            .fill_color(theme::SEQUENCE_POINTS)
            .stroke(Stroke::new(1.0, theme::SEQUENCE_POINTS)),
    );
}

/// The pre-period's end and one period later, as lines (named in the legend; their labels
/// in place are drawn over the plot by [`period_labels_ui`]).
fn period_lines_ui(plot: &mut egui_plot::PlotUi, p: nimscope_core::solver::period::Periodicity) {
    let (start, again) = (p.preperiod as f64, (p.preperiod + p.period) as f64);
    plot.vline(VLine::new(format!("pre-period ends: n = {}", p.preperiod), start - 0.5).color(theme::PERIOD_MARK));
    plot.vline(
        VLine::new(format!("one period later: n = {}", p.preperiod + p.period), again - 0.5)
            .color(theme::PERIOD_MARK)
            .style(egui_plot::LineStyle::dashed_loose()),
    );
}

#[cfg(test)]
mod tests {
    use super::{N_LABEL_POINTS, PLOT_LINE_POINTS, heap_marks, integer_marks, pool_runs};
    use egui_plot::GridInput;

    /// The n axis of a plot 520 points wide over 0..2000 (the one-heap view at 800 × 600, the
    /// rulesets shown) carries numbers every 500, at least four of them; egui_plot's powers
    /// of ten gave 1000 alone. At 600 heaps, every 100; at 10⁶ on 300 points, every 500 000.
    #[test]
    fn the_n_axis_carries_several_numbers_in_a_small_window() {
        for (width, heaps, every, least) in [
            (520.0, 2000.0, 500.0, 4),
            (520.0, 600.0, 100.0, 5),
            // UI scale 2 on 1280 × 800: 400 and 500 were numbered side by side
            (400.0, 600.0, 200.0, 3),
            (300.0, 1e6, 500_000.0, 2),
        ] {
            let input = GridInput {
                bounds: (-0.5, heaps - 0.5),
                base_step_size: heaps / width * PLOT_LINE_POINTS,
            };
            let points_per_heap = width / heaps;
            let numbered: Vec<f64> = heap_marks(input)
                .into_iter()
                .filter(|m| m.step_size * points_per_heap >= N_LABEL_POINTS)
                .map(|m| m.value)
                .collect();
            assert!(numbered.len() >= least, "{heaps}: {numbered:?}");
            assert!(
                numbered.iter().all(|v| v.fract() == 0.0 && v % every == 0.0),
                "{heaps}: {numbered:?}"
            );
            assert!(numbered.contains(&every), "{heaps}: {numbered:?}");
        }
        // the powers of ten alone: 1000 (and 0) only over 0..2000
        let log = egui_plot::log_grid_spacer(10)(GridInput {
            bounds: (-0.5, 1999.5),
            base_step_size: 2000.0 / 520.0 * PLOT_LINE_POINTS,
        });
        let numbered = log
            .iter()
            .filter(|m| m.step_size * 520.0 / 2000.0 >= N_LABEL_POINTS)
            .count();
        assert!(numbered < 4);
    }

    /// The value axis has coarse marks (which get numbers) as well as fine ones, all integers.
    #[test]
    fn the_value_axis_has_marks_of_several_scales() {
        let marks = integer_marks(GridInput {
            bounds: (-0.5, 201.5),
            base_step_size: 0.7,
        });
        assert!(marks.iter().all(|m| m.value.fract() == 0.0 && m.step_size >= 1.0));
        assert!(marks.iter().any(|m| m.step_size >= 100.0 && m.value == 100.0));
        assert!(marks.iter().any(|m| m.step_size == 10.0 && m.value == 30.0));
    }

    #[test]
    fn pooled_runs_keep_every_p_position_and_the_range() {
        // octal-like: values 1..=9 with a lone 0 at 5000
        let values: Vec<Option<u32>> = (0..10_000u32)
            .map(|n| Some(if n == 5000 { 0 } else { 1 + n % 9 }))
            .collect();
        let runs = pool_runs(&values, 0, values.len(), 100);
        assert_eq!(runs.len(), 100);
        assert!(runs.iter().all(|r| r.2 == 9));
        let with_p: Vec<_> = runs.iter().filter(|r| r.1 == 0).collect();
        assert_eq!(with_p.len(), 1);
        assert!(with_p[0].0 <= 5000 && 5000 < with_p[0].0 + 100);
        assert!(pool_runs(&values, 10, 5, 3).is_empty());
        assert_eq!(pool_runs(&values, 0, 3, 10), vec![(0, 1, 1), (1, 2, 2), (2, 3, 3)]);
    }
}
