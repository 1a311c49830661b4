//! The value map tab ([`MapView`]): the map of two heaps (its camera and colours, its layer of
//! values, the cell under the pointer, how much of the view is filled) or the sequence of one
//! heap, the jobs of the worker's map lane that fill them, what the status bar says of them, and
//! the View menu's map entries (zoom, colours and their range, pooling, overlays; in [`menu`]).

use std::time::{Duration, Instant};

mod menu;

use crate::ui::app::map_layer::{MapLayer, MapStatus, Scale, same_job};
use crate::ui::app::notice::Notice;
use crate::ui::canvas::sequence_view::{SequenceNeed, SequenceView, StripMarks};
use crate::ui::canvas::{self, HoveredCell, MapContext, MapProgress, MapState};
use crate::ui::job::{JobState, count_text};
use crate::worker::{JobError, JobSpec, Lane, MapJob, Output, Response, Running, Worker};
use nimscope_core::camera::CellRect;
use nimscope_core::figure::FigureStyle;
use nimscope_core::game::{Cell, Layout, Position, Ruleset};
use nimscope_core::raster::axes::AxisTitles;
use nimscope_core::raster::{ColorMode, ColorRange, CompareWith, MarksShown, Pooling, RangeTop};
use nimscope_core::solver::control::human_bytes;
use nimscope_core::solver::tiles::{TILE, TileKey, TileStore};

/// While the view keeps changing (a drag, a zoom), a new map job at most this often: each one
/// supersedes the last, so asking every frame would leave the worker no time to compute.
const RESUBMIT_AFTER: Duration = Duration::from_millis(150);

/// What a call to [`MapView::schedule_map`] did: the cells in view of a job it submitted (the
/// trace's map-job). A view held back says why through its job's state, not a notice.
#[derive(Debug, Default)]
pub struct MapAsked {
    pub submitted: Option<u64>,
}

/// The value map tab's state: what the map shows and how, its values, the sequence of a
/// one-heap ruleset, and the state of their jobs.
pub struct MapView {
    /// The camera, colours and overlays, and what the canvas keeps between frames.
    state: MapState,
    /// The map's values.
    layer: MapLayer,
    /// The one-heap view.
    sequence: SequenceView,
    /// What the status bar says of the map's (or the sequence's) job.
    status: MapStatus,
    /// How much of the view is computed (as of the last frame drawn).
    progress: MapProgress,
    /// The cell under the pointer.
    hovered: Option<HoveredCell>,
    /// Why the view's tiles are not asked for (more than the tile store may keep), while the
    /// view stays: its job is held back, not queued.
    held: Option<String>,
}

/// What the map is drawn with besides its own state: the ruleset and layout shown, the
/// inspector's marks, what the difference mode compares with, the colours' range and pooling.
pub struct MapInputs<'a> {
    pub ruleset: &'a Ruleset,
    pub layout: &'a Layout,
    pub selected: Option<Cell>,
    pub options: &'a [(Cell, bool)],
    pub compare: &'a CompareWith,
    pub figure: &'a FigureStyle,
}

impl MapView {
    /// A view of no values yet, whose tiles may use what `memory_budget` allows.
    pub fn new(memory_budget: u64) -> MapView {
        MapView {
            state: MapState::default(),
            layer: MapLayer::new(memory_budget),
            sequence: SequenceView::default(),
            status: MapStatus::Ready,
            progress: MapProgress::default(),
            hovered: None,
            held: None,
        }
    }

    /// The camera, colours and overlays.
    pub fn state(&self) -> &MapState {
        &self.state
    }

    /// The camera, colours and overlays, to change.
    pub fn state_mut(&mut self) -> &mut MapState {
        &mut self.state
    }

    /// The map's values.
    pub fn layer(&self) -> &MapLayer {
        &self.layer
    }

    /// The map's tiles.
    pub fn tiles(&self) -> &TileStore {
        &self.layer.tiles
    }

    /// The one-heap view.
    pub fn sequence(&self) -> &SequenceView {
        &self.sequence
    }

    /// The one-heap view, to change its length.
    pub fn sequence_mut(&mut self) -> &mut SequenceView {
        &mut self.sequence
    }

    /// What the status bar says of the map's job.
    pub fn status(&self) -> &MapStatus {
        &self.status
    }

    /// How much of the view is computed, as of the last frame.
    pub fn progress(&self) -> MapProgress {
        self.progress
    }

    /// The cell under the pointer.
    pub fn hovered(&self) -> Option<HoveredCell> {
        self.hovered
    }

    /// Rows and columns below this are shown.
    pub fn limit(&self) -> u64 {
        self.layer.limit
    }

    /// The top of the Grundy colours under `range`, as the map draws them now.
    pub fn color_top(&self, range: ColorRange) -> RangeTop {
        self.layer.range_top(range)
    }

    /// The whole cells the map shows now (at least one).
    pub fn visible_region(&self) -> CellRect {
        let visible = self.state.visible_cells(u64::MAX);
        let at_least_one = |r: std::ops::Range<u64>| r.start..r.end.max(r.start + 1);
        CellRect {
            rows: at_least_one(visible.rows),
            cols: at_least_one(visible.cols),
        }
    }

    /// Forgets the values and the sequence: another ruleset or layout is shown. The progress
    /// counted last frame is the old map's: until the next frame counts the new one, the map
    /// is not complete (a test waiting for it saw the old map "complete" when the worker had
    /// filled it within the first frame).
    pub fn clear(&mut self) {
        self.status = MapStatus::Ready;
        self.layer.clear();
        self.progress = MapProgress::default();
        self.held = None;
        self.sequence.forget();
    }

    /// Forgets the automatic top of the colours: the next view filled gives a new one.
    pub fn rescale(&mut self) {
        self.layer.rescale();
    }

    /// The session was saved with `region`: an automatic top counted over another (the first
    /// view filled) is counted again over the region, as `nimscope export` of the file counts it.
    pub fn region_saved(&mut self, region: &CellRect) {
        if self.layer.auto_region.as_ref().is_some_and(|counted| counted != region) {
            self.layer.rescale();
        }
    }

    /// The status bar's Cancel: the map waits until the view or the colours change.
    pub fn cancel(&mut self) {
        self.layer.asked = None;
        self.status = MapStatus::Cancelled {
            camera: self.state.camera,
            color: self.state.color,
        };
    }

    /// "Compute again" after Cancel: the map (or the sequence) is asked for again now, not
    /// only after the view or the colours change.
    pub fn resume(&mut self) {
        if matches!(self.status, MapStatus::Cancelled { .. }) {
            self.status = MapStatus::Ready;
            self.sequence.ask_again();
        }
    }

    /// The one state of the map's (`sequence`: the one-heap view's) job, which the centre, the
    /// status bar and its progress bar all read: `running` is the worker's job on the map
    /// lane, if any.
    pub fn job_state(&self, sequence: bool, running: Option<&Running>) -> JobState {
        if let Some(why) = self.failure() {
            return JobState::Failed(why);
        }
        if matches!(self.status, MapStatus::Cancelled { .. }) {
            return JobState::Cancelled;
        }
        if let Some(why) = self.held.as_ref().filter(|_| !sequence) {
            // a job of an earlier view may still run: this view's is not asked for
            return JobState::Held(why.clone());
        }
        let running = running.filter(|r| matches!(r.spec, JobSpec::Sequence { .. }) == sequence);
        if let Some(r) = running {
            let (done, total) = if sequence {
                r.control.progress()
            } else {
                (self.progress.done, self.progress.in_view)
            };
            let stage = r.control.stage();
            return JobState::Running { done, total, stage };
        }
        let finished = if sequence {
            self.sequence.sequence().is_some()
        } else {
            self.complete()
        };
        if finished { JobState::Done } else { JobState::Queued }
    }

    /// What the one-heap view's job computes, in the centre's words: "G(0..600)".
    pub fn sequence_what(&self) -> String {
        format!("G(0..{})", self.sequence.length())
    }

    /// Whether the user stopped the work and the view and colours are still those they stopped
    /// it on (else the map goes on: nothing is asked of the worker until then).
    pub fn still_cancelled(&mut self) -> bool {
        if let MapStatus::Cancelled { camera, color } = self.status {
            if (camera, color) == (self.state.camera, self.state.color) {
                return true;
            }
            self.status = MapStatus::Ready;
        }
        false
    }

    /// Before the panels are drawn: the cell under the pointer now (for a map shown), and the
    /// progress counting the tiles just received.
    pub fn before_panels(&mut self, ctx: &egui::Context, map_shown: bool, region: Option<CellRect>) {
        // a failed map is not drawn: no cell is under the pointer
        self.hovered = if map_shown && self.failure().is_none() {
            canvas::hovered_now(ctx, &self.state, &self.layer.tiles)
        } else {
            None
        };
        self.progress = self.state.progress(&self.layer.tiles, self.layer.limit);
        self.state.fit_region = region;
    }

    /// The map keys (`+`, `-`, `0`, the arrows).
    pub fn keyboard_ui(&mut self, ctx: &egui::Context) {
        canvas::keyboard_ui(ctx, &mut self.state);
    }

    /// Whether every cell in view has its final value and colour (the trace's map-complete).
    pub fn complete(&self) -> bool {
        let scaled = !self.state.color.needs_scale() || self.layer.auto_top.is_some();
        self.progress.in_view > 0 && self.progress.is_complete() && scaled
    }

    /// Draws the map with the inspector's marks, `job` its job's state (a view held back says
    /// why over the cells it has); returns the cell clicked.
    pub fn map_ui(&mut self, ui: &mut egui::Ui, inputs: &MapInputs, job: &JobState) -> Option<Cell> {
        if let JobState::Failed(_) = job {
            // a failed map says why in place of the hatching of cells that will never come
            failed_ui(ui, &job.centre_text("the map"));
            return None;
        }
        let range = self.layer.range_top(inputs.figure.range);
        let context = MapContext {
            tiles: &self.layer.tiles,
            max: range.top,
            clipped: range.clipped_note(),
            pooling: inputs.figure.pooling,
            compare: inputs.compare,
            titles: AxisTitles::of(inputs.ruleset, inputs.layout),
            marks: MarksShown {
                selected: inputs.selected.is_some(),
                options: inputs.options.iter().any(|(_, w)| !w),
                winning: inputs.options.iter().any(|(_, w)| *w),
            },
            limit: self.layer.limit,
            loopy: self.layer.has_infinite(),
        };
        let area = ui.available_rect_before_wrap();
        let response = self.state.ui(ui, &context);
        if let JobState::Held(_) = job {
            held_ui(ui, area, &job.centre_text("the map"));
        }
        let progress = self.state.progress(&self.layer.tiles, self.layer.limit);
        if progress != self.progress {
            // the view moved this frame: the status bar, drawn before, catches up next frame
            self.progress = progress;
            crate::ui::repaint_once(ui.ctx());
        }
        self.hovered = response.hovered;
        let name = self.accessible_name(inputs.selected);
        crate::ui::theme::set_accessible(ui, response.id, egui::accesskit::Role::Figure, &name);
        canvas::marks_ui(ui, &self.state, inputs.selected, inputs.options);
        response.clicked.then_some(self.hovered.map(|h| h.cell)).flatten()
    }

    /// What a screen reader says of the map: the cells in view and the selected cell's value.
    fn accessible_name(&self, selected: Option<Cell>) -> String {
        let v = self.state.visible_cells(self.layer.limit);
        let mut name = format!(
            "value map: rows a {}..{}, columns b {}..{}",
            v.rows.start, v.rows.end, v.cols.start, v.cols.end
        );
        if let Some(c) = selected {
            let value = match self.layer.tiles.get(c.a, c.b) {
                Some(Some(g)) => format!("G = {g}, {}", if g == 0 { "P" } else { "N" }),
                _ => "not computed yet".to_string(),
            };
            name.push_str(&format!("; selected ({}, {}): {value}", c.a, c.b));
        }
        name
    }

    /// Draws the one-heap view with the inspector's marks, `job` its job's state; returns the
    /// heap clicked. Until the sequence comes the centre says what became of its job: queued,
    /// computing, stopped by Cancel (with "Compute G(0..600) again") or why it failed.
    pub fn sequence_ui(&mut self, ui: &mut egui::Ui, marks: &StripMarks, job: &JobState) -> Option<u64> {
        let text = job.centre_text(&self.sequence_what());
        match job {
            JobState::Failed(_) if self.sequence.sequence().is_none() => {
                failed_ui(ui, &text);
                return None;
            }
            JobState::Cancelled => {
                let again = ui
                    .horizontal_wrapped(|ui| {
                        ui.label(&text);
                        ui.button(format!("Compute {} again", self.sequence_what())).clicked()
                    })
                    .inner;
                if again {
                    self.resume();
                    crate::ui::repaint_once(ui.ctx());
                }
            }
            _ if self.sequence.sequence().is_none() && job.is_working() => {
                ui.horizontal(|ui| {
                    crate::ui::busy_ui(ui);
                    ui.label(&text);
                });
            }
            _ => {}
        }
        self.sequence.ui(ui, self.state.color, marks)
    }

    /// Why the map's (or the sequence's) job failed, if it did: it is not asked again until
    /// the ruleset changes, so nothing is "computing" any more.
    pub fn failure(&self) -> Option<String> {
        match &self.status {
            MapStatus::Failed { .. } => self.status.message(),
            _ => None,
        }
    }

    /// Takes an answer of the map lane: a map's tiles and the view's colour scale, the
    /// sequence, or why they failed; returns what the status bar should say of it. "Rescale to
    /// this view" fixes `figure`'s top when the view's count comes.
    pub fn on_response(&mut self, resp: Response, figure: &mut FigureStyle) -> Option<Notice> {
        let layer = &mut self.layer;
        if resp.last {
            layer.asked = None;
        }
        let mut notice = None;
        match (resp.result, &resp.spec) {
            (Ok(Output::Tiles(batch)), JobSpec::Map(job)) => {
                let store = &mut layer.tiles;
                let evicted: usize = batch.tiles.iter().map(|(k, t)| store.insert(*k, t)).sum();
                if evicted > 0 {
                    notice = Some(Notice::done(format!(
                        "evicted {evicted} map tiles used least recently, to keep the tiles within {}",
                        human_bytes(store.cap())
                    )));
                }
                layer.scale = Some(Scale {
                    view: job.view.clone(),
                    max: batch.max,
                    complete: resp.last,
                });
                if resp.last && job.color.needs_scale() {
                    match batch.counts {
                        Some(counts) => {
                            let region = job.scale.clone().unwrap_or_else(|| job.view.clone());
                            layer.take_counts(counts, region);
                            if std::mem::take(&mut layer.fix_to_view)
                                && let Some(top) = layer.auto_top
                            {
                                // "Rescale to this view": the view's top, fixed
                                figure.range = ColorRange::Fixed(top.top.max(1));
                            }
                        }
                        // the session's region is past the budget: the view's values give it
                        None => layer.region_too_large = true,
                    }
                }
            }
            (Ok(Output::Sequence(s)), _) => self.sequence.take(s),
            (Ok(_), _) => debug_assert!(false, "unexpected output on the map lane"),
            (Err(error), JobSpec::Map(job)) => {
                let far = job.view.rows.end.max(job.view.cols.end);
                match &error {
                    JobError::OverBudget { needed, budget, .. } => {
                        // the fill's memory grows as the square of its extent: ask no farther
                        // than what fits
                        let fits = far as f64 * (*budget as f64 / (*needed).max(1) as f64).sqrt() * 0.9;
                        layer.limit = layer.limit.min(far.saturating_sub(1)).min(fits as u64).max(TILE);
                        self.status = MapStatus::TooFar {
                            far: layer.limit,
                            error,
                        };
                    }
                    _ => {
                        self.status = MapStatus::Failed {
                            what: resp.spec.describe(),
                            error,
                        }
                    }
                }
            }
            (Err(error), spec) => {
                self.status = MapStatus::Failed {
                    what: spec.describe(),
                    error,
                }
            }
        }
        notice
    }

    /// Says why there is no picture (the centre says it too), once.
    pub fn no_picture(&mut self, why: String) {
        if !matches!(self.status, MapStatus::NoMap(_)) {
            self.status = MapStatus::NoMap(why);
        }
    }

    /// Asks the worker for the sequence of `ruleset` when its length was not asked yet.
    pub fn schedule_sequence(&mut self, worker: &mut Worker, ruleset: &Ruleset) {
        if self.status != MapStatus::Ready {
            return; // a failed sequence waits for a change of ruleset
        }
        match self.sequence.to_ask() {
            None => {}
            // ÷10: the values in memory; a longer job still running is no longer wanted
            Some(SequenceNeed::InMemory) => worker.cancel(Lane::Map),
            // a new length supersedes the job running (the lane keeps the latest)
            Some(SequenceNeed::Job(n)) => {
                let spec = JobSpec::Sequence {
                    ruleset: ruleset.clone(),
                    n,
                };
                worker.submit(Lane::Map, spec);
            }
        }
    }

    /// Asks the worker for the tiles of the view the map lacks (nothing while cancelled, failed
    /// or before the first view is fitted); says how many cells it asked for, and gives a notice
    /// when the view needs more tiles than may be kept.
    pub fn schedule_map(
        &mut self,
        ctx: &egui::Context,
        worker: &mut Worker,
        (ruleset, layout): (&Ruleset, &Layout),
        compare: &CompareWith,
        (pooling, region): (Pooling, Option<&CellRect>),
    ) -> MapAsked {
        if matches!(self.status, MapStatus::Failed { .. } | MapStatus::NoMap(_)) {
            return MapAsked::default(); // wait for a change of ruleset
        }
        if self.state.fit_pending() {
            // the first frame, before the region asked for is fitted: a view filled now would
            // give the colours' automatic top of cells never shown
            ctx.request_repaint();
            return MapAsked::default();
        }
        let color = self.state.color;
        let compare = match color {
            ColorMode::Difference => compare.clone(),
            _ => CompareWith::Nothing,
        };
        // the rule may depend on how far the view reaches (Wythoff's P-positions)
        let reach = self.state.visible_cells(self.layer.limit);
        self.layer.show((
            ruleset.clone(),
            layout.clone(),
            color.map_rule(ruleset, layout, &reach, pooling),
            compare.clone(),
            color.has_outcome_form(ruleset, layout),
        ));
        let limit = self.layer.limit;
        let view = self.state.visible_cells(limit);
        let level = self.state.level();
        let tiles = self.state.visible_tiles(limit);
        let store = &mut self.layer.tiles;
        store.tick();
        store.touch(&tiles);
        let ancestors: Vec<TileKey> = tiles
            .iter()
            .flat_map(|k| std::iter::successors(k.parent().map(|p| p.0), |p| p.parent().map(|q| q.0)).take(5))
            .collect();
        store.touch(&ancestors);
        let missing: Vec<TileKey> = tiles
            .iter()
            .copied()
            .filter(|&k| {
                store
                    .tile(k)
                    .is_none_or(|t| t.cells_done_in(k, &view) < k.cells().intersect(&view).len())
            })
            .collect();
        // the colours' automatic top is taken once, over the session's region (or the first view
        // filled): panning keeps it
        let need_scale = color.needs_scale() && self.layer.auto_top.is_none();
        let tile_bytes = TILE * TILE * 8;
        // held back while the view's tiles would not fit: its job's state says why (the
        // centre and the status bar), and nothing is asked until the view changes
        self.held = (!missing.is_empty() && !store.has_room_for(missing.len() as u64 * tile_bytes)).then(|| {
            format!(
                "the view needs more than {} of map tiles: zoom in to see the rest",
                human_bytes(store.cap())
            )
        });
        if self.held.is_some() || (missing.is_empty() && !need_scale) {
            return MapAsked::default();
        }
        let job = MapJob {
            ruleset: ruleset.clone(),
            layout: layout.clone(),
            color,
            pooling,
            compare,
            level,
            // the automatic top over the session's region, as its figure counts it
            scale: if need_scale {
                self.layer.scale_region(region)
            } else {
                None
            },
            view,
            tiles: missing,
        };
        match &self.layer.asked {
            Some((running, _)) if same_job(running, &job) && worker.is_running(Lane::Map) => {
                return MapAsked::default();
            }
            Some((_, at)) if worker.is_running(Lane::Map) && at.elapsed() < RESUBMIT_AFTER => {
                ctx.request_repaint_after(RESUBMIT_AFTER - at.elapsed());
                return MapAsked::default();
            }
            _ => {}
        }
        let job = Box::new(job);
        let submitted = Some(job.view.len());
        self.layer.asked = Some((job.clone(), Instant::now()));
        worker.submit(Lane::Map, JobSpec::Map(job));
        MapAsked { submitted }
    }

    /// The status bar's words on the map's fill while the view is not complete: cells done of
    /// the cells in view (monotonic while the view stays), and the rate since the view began.
    pub fn progress_text(&mut self, running: bool) -> Option<String> {
        if self.failure().is_some() {
            return None; // no progress to show: the centre and the status bar say why
        }
        let view = self.state.visible_cells(self.layer.limit);
        let p = self.progress;
        if !matches!(&self.layer.fill, Some((v, _, _)) if *v == view) {
            self.layer.fill = Some((view, Instant::now(), p.done));
        }
        if p.is_complete() && !running {
            return None;
        }
        let (_, since, done0) = self.layer.fill.as_ref()?;
        let secs = since.elapsed().as_secs_f64().max(1e-3);
        let new_cells = p.done.saturating_sub(*done0);
        let counts = format!("{} of {} cells", count_text(p.done), count_text(p.in_view));
        if new_cells == 0 {
            // no batch yet since the view changed: a rate of 0.0 would say the solver stalled
            return Some(counts);
        }
        Some(format!("{counts}, {:.1} M cells/s", new_cells as f64 / secs / 1e6))
    }

    /// What the status bar says of the map in red, if anything: the map too far to compute is
    /// said while the view reaches it, not after a Fit.
    pub fn status_text(&self) -> Option<String> {
        match &self.status {
            MapStatus::TooFar { far, .. } => {
                let view = self.state.visible_cells(u64::MAX);
                (view.rows.end.max(view.cols.end) > *far)
                    .then(|| self.status.message())
                    .flatten()
            }
            s => s.message(),
        }
    }

    /// The value of `p` on the map of `ruleset` with `layout`, if the map has filled its cell.
    pub fn value_of(&self, ruleset: &Ruleset, layout: &Layout, p: &Position) -> Option<u32> {
        self.layer.value_of(ruleset, layout, p)
    }

    /// Says whether the window is drawn by a software renderer (it uploads more tiles a frame).
    pub fn set_software_renderer(&mut self, software: bool) {
        self.state.set_software_renderer(software);
    }
}

/// The centre of a failed job: why (`text`, "Not computed: …"), in red, where its picture
/// would be.
fn failed_ui(ui: &mut egui::Ui, text: &str) {
    ui.add_space(24.0);
    let red = crate::ui::theme::error_text(ui.visuals());
    ui.colored_label(red, crate::ui::theme::shown(text));
    ui.label("Change the rule (or choose another ruleset) to try again.");
}

/// The centre of a job held back: why (`text`, "the map held back: …"), in red, over the
/// middle of the map (its legend and axes stay readable), whose filled cells stay drawn (and
/// clickable: the words take no input).
fn held_ui(ui: &mut egui::Ui, area: egui::Rect, text: &str) {
    let middle = egui::Rect::from_min_max(
        egui::pos2(area.left() + 8.0, area.center().y - 24.0),
        egui::pos2(area.right() - 8.0, area.bottom() - 8.0),
    );
    let builder = egui::UiBuilder::new()
        .max_rect(middle)
        .layout(egui::Layout::top_down(egui::Align::Center));
    let mut over = ui.new_child(builder);
    egui::Frame::popup(over.style()).show(&mut over, |ui| {
        let red = crate::ui::theme::error_text(ui.visuals());
        let words = egui::RichText::new(crate::ui::theme::shown(text)).color(red);
        ui.add(egui::Label::new(words).selectable(false));
        ui.add(egui::Label::new("Nothing more is computed until the view changes.").selectable(false));
    });
}
