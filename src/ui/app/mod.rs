//! The window: layout, menus and shortcuts, the status bar, and the logic that keeps the map
//! supplied by the background worker. `logic` does the work (drain results, schedule jobs);
//! the `*_ui` functions draw and record what the user asked for.

pub mod file_prompt;
pub mod help;
pub mod notice;
pub mod session_ui;

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::camera::CellRect;
use crate::game::{Layout, Presentation, Ruleset};
use crate::raster::axes::AxisTitles;
use crate::raster::{ColorMode, CompareWith, MarksShown, Palette};
use crate::solver::control::human_bytes;
use crate::solver::sequence::Sequence;
use crate::solver::tiles::{KeyRule, TILE, TileKey, TileStore};
use crate::ui::canvas::{self, Camera, HoveredCell, MapContext, MapKey, MapProgress, MapState, sequence_view};
use crate::ui::panels::cram_editor::{self, CramEditor};
use crate::ui::panels::inspector::{self, InspectorState};
use crate::ui::panels::ruleset_panel::{self, PanelAction, RulesetPanel};
use crate::ui::theme;
use crate::ui::trace::{FrameTimer, Trace};
use crate::worker::{JobError, JobSpec, Lane, MapJob, Output, Worker};
use notice::Notice;

/// A filled map covers rows and columns below this (the worker's memory budget may stop it
/// sooner).
const MAX_MAP: u64 = 1 << 16;
/// A map computed cell by cell from its closed form covers rows and columns below this.
const MAX_DIRECT_MAP: u64 = crate::solver::tiles::MAX_VIEW;

/// How far a map of `ruleset` under `layout` goes, `outcome_form`: in a colour mode that takes
/// the outcomes' own closed form ([`ColorMode::has_outcome_form`]).
fn far_limit(ruleset: &Ruleset, layout: &Layout, outcome_form: bool) -> u64 {
    if crate::solver::grid::CellForm::of(ruleset, layout).is_some() || outcome_form {
        MAX_DIRECT_MAP
    } else {
        MAX_MAP
    }
}
/// While the view keeps changing (a drag, a zoom), a new map job at most this often: each one
/// supersedes the last, so asking every frame would leave the worker no time to compute.
const RESUBMIT_AFTER: Duration = Duration::from_millis(150);
/// Length of the sequence shown for one-heap rulesets.
const SEQUENCE_LEN: u64 = 600;
/// Time a frame may spend taking results from the worker.
const DRAIN_BUDGET: Duration = Duration::from_millis(10);

/// What the central area shows (saved in sessions).
pub use crate::session::Tab as CentralTab;

/// The map's values as far as computed: the tiles of one ruleset, layout and pooling rule
/// (and in the difference mode, one compared ruleset or theorem), the colour scale of the
/// view, and what the worker was last asked.
pub struct MapLayer {
    /// The finished tiles, of every level; panning back reads them.
    pub tiles: TileStore,
    /// What the tiles are of.
    of: Option<(Ruleset, Layout, KeyRule, CompareWith, bool)>,
    /// Rows and columns this far or farther are not asked for: a job that far was over the
    /// memory budget.
    limit: u64,
    /// The colour scale: the largest value of a view (once `complete`, of all its cells).
    pub scale: Option<Scale>,
    /// The job running: what it asks for and when it was asked.
    asked: Option<(Box<MapJob>, Instant)>,
    /// When the fill of the current view began, and how many of its cells were done then.
    fill: Option<(CellRect, Instant, u64)>,
}

/// The top of the colour scale, taken over a view.
#[derive(Debug, Clone, PartialEq)]
pub struct Scale {
    pub view: CellRect,
    pub max: Option<u32>,
    /// Whether every cell of the view was counted.
    pub complete: bool,
}

impl MapLayer {
    fn new(memory_budget: u64) -> Self {
        Self {
            tiles: TileStore::new(memory_budget / 4),
            of: None,
            limit: MAX_MAP,
            scale: None,
            asked: None,
            fill: None,
        }
    }

    /// Forgets the values (a new ruleset or layout).
    fn clear(&mut self) {
        self.tiles.clear();
        self.of = None;
        self.limit = MAX_MAP;
        self.scale = None;
        self.asked = None;
        self.fill = None;
    }

    /// Makes the layer hold these values, forgetting others.
    fn show(&mut self, of: (Ruleset, Layout, KeyRule, CompareWith, bool)) {
        if self.of.as_ref() != Some(&of) {
            self.clear();
            self.limit = far_limit(&of.0, &of.1, of.4);
            self.tiles.set_rule(of.2);
            self.of = Some(of);
        }
    }

    /// The top of the colour scale to draw with.
    pub fn scale_max(&self) -> u32 {
        self.scale.as_ref().and_then(|s| s.max).unwrap_or(0)
    }
}

/// A map job's identity, without the tiles it lacks.
fn same_job(x: &MapJob, y: &MapJob) -> bool {
    (&x.ruleset, &x.layout, x.color, &x.compare, x.level, &x.view)
        == (&y.ruleset, &y.layout, y.color, &y.compare, y.level, &y.view)
}

/// What the status bar says about the map. Only a failed sequence holds back its job (until
/// the ruleset changes); a cancelled map waits for the next change of view or colours.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum MapStatus {
    /// Nothing to say: the map fills or is full.
    #[default]
    Ready,
    /// Cancel was pressed with this view and these colours.
    Cancelled { camera: Camera, color: ColorMode },
    /// No map for the ruleset as set: why, in the window's words.
    NoMap(String),
    /// A tile from row or column `far` on could not be computed; nearer tiles still come.
    TooFar { far: u64, error: JobError },
    /// A job of the map failed (the sequence of a one-heap ruleset).
    Failed { what: String, error: JobError },
}

impl MapStatus {
    /// The status bar's text, if any.
    pub fn message(&self) -> Option<String> {
        match self {
            MapStatus::Ready => None,
            // said once by a notice that fades; the map just waits
            MapStatus::Cancelled { .. } => None,
            // the centre of the window says why, with what to do instead
            MapStatus::NoMap(_) => None,
            MapStatus::TooFar { far, error } => Some(format!(
                "the map beyond row or column {far} is too far to compute: {error}"
            )),
            MapStatus::Failed { what, error } => Some(format!("{what}: {error}")),
        }
    }
}

/// What the centre of the window shows (the figure of the session shows the same).
#[derive(Debug, Clone, PartialEq)]
pub enum CentralView {
    /// The Cram board editor.
    Board,
    /// The value map, cells laid out as the layout says.
    Map(Layout),
    /// The one-heap view: the plot and strip of G(0..600).
    Sequence,
    /// No picture: why, and what to do instead.
    Message(String),
}

/// The whole window's state.
pub struct App {
    pub panel: RulesetPanel,
    pub ruleset: Ruleset,
    pub layout: Layout,
    pub map_state: MapState,
    /// The map's values.
    pub map: MapLayer,
    /// How much of the view is computed (as of the last frame drawn).
    pub map_progress: MapProgress,
    /// `NIMSCOPE_TRACE`: one line a frame.
    pub trace: Option<Trace>,
    /// Whether the window is drawn by a software renderer (lavapipe, llvmpipe: a virtual
    /// display, a machine without a GPU driver), known from the first frame: each of its frames
    /// costs the CPU several hundredths of a second, taken from the solver.
    software_renderer: Option<bool>,
    pub sequence: Option<Arc<Sequence>>,
    pub hovered: Option<HoveredCell>,
    pub status: MapStatus,
    /// A passing message (files, evicted tiles), shown when there is no error.
    pub notice: Option<Notice>,
    /// The Help window and its page.
    pub show_help: bool,
    pub help_page: help::HelpPage,
    pub central_tab: CentralTab,
    /// On the Cram board tab, the ruleset panel is shown beside the board (hidden by default).
    pub rulesets_beside_board: bool,
    pub cram_editor: CramEditor,
    /// The inspector (selected position, move tree, play mode); its serde part goes in sessions.
    pub inspector: InspectorState,
    /// The misère quotient window (misère octal games).
    pub quotient: crate::ui::panels::quotient_view::QuotientView,
    /// The session's file, notes, figure style and the File menu's dialogs.
    pub sessions: session_ui::SessionState,
    worker: Option<Worker>,
    memory_budget: u64,
}

impl App {
    pub fn new(memory_budget: u64) -> Self {
        let mut app = Self {
            panel: RulesetPanel::default(),
            ruleset: Ruleset::Wythoff,
            layout: Layout::Plain,
            map_state: MapState::default(),
            map: MapLayer::new(memory_budget),
            map_progress: MapProgress::default(),
            trace: None,
            software_renderer: None,
            sequence: None,
            hovered: None,
            status: MapStatus::Ready,
            notice: None,
            show_help: false,
            help_page: help::HelpPage::default(),
            central_tab: CentralTab::default(),
            rulesets_beside_board: false,
            cram_editor: CramEditor::default(),
            inspector: InspectorState::default(),
            quotient: Default::default(),
            sessions: session_ui::SessionState::default(),
            worker: None,
            memory_budget,
        };
        app.mark_clean(); // nothing to save until the user changes something
        app
    }

    /// How the current ruleset is shown (the one answer, see [`Presentation`]).
    pub fn presentation(&self) -> Presentation {
        Presentation::of(&self.ruleset, &self.layout)
    }

    /// What the centre shows: the board editor on its tab (and for Cram rulesets, which have
    /// nothing else), else what the presentation says.
    pub fn central_view(&self) -> CentralView {
        let presentation = self.presentation();
        if self.central_tab == CentralTab::CramBoard {
            return CentralView::Board;
        }
        match presentation {
            Presentation::Board => CentralView::Board,
            Presentation::Map(layout) => CentralView::Map(layout),
            Presentation::Sequence => CentralView::Sequence,
            Presentation::NeedsSlice => CentralView::Message(format!(
                "{} is played on three or more heaps: the map shows a slice. Choose the heaps on the \
                 axes and the values of the others in the left panel (a slice such as 1,_,_).",
                self.ruleset
            )),
            Presentation::PositionsOnly(why) => CentralView::Message(format!(
                "{why}. Type a position in the inspector on the right to see its value and its moves."
            )),
        }
    }

    /// What the difference mode compares the map with, as the left panel says (a ruleset that
    /// does not parse compares with nothing; the panel shows why).
    pub fn compare_with(&self) -> CompareWith {
        CompareWith::from_parts(self.panel.compare_theorem, &self.panel.compare).unwrap_or(CompareWith::Nothing)
    }

    /// Switches to a ruleset: forgets the old values and starts over from the origin.
    pub fn set_ruleset(&mut self, r: Ruleset) {
        self.panel.fit_to(&r);
        self.status = MapStatus::Ready;
        self.layout = match Layout::from_slice_text(&self.panel.slice) {
            Ok(l) => l,
            Err(e) => {
                self.panel.error = Some(e); // shown in the ruleset panel, where it can be mended
                Layout::Plain
            }
        };
        if let Some(rules) = cram_editor::rules_of(&r) {
            self.central_tab = CentralTab::CramBoard;
            self.cram_editor.model.set_rules(rules);
        }
        self.ruleset = r;
        self.map.clear();
        self.sequence = None;
        if let Some(w) = &mut self.worker {
            w.cancel(Lane::Map);
        }
    }

    pub fn worker(&self) -> Option<&Worker> {
        self.worker.as_ref()
    }

    /// Stops every running job and gives back what the solver threads keep (the status bar's
    /// Cancel). The map waits until the view or the colours change; the inspector until the
    /// user asks for a position again.
    pub fn cancel_jobs(&mut self) {
        if let Some(w) = &mut self.worker {
            for lane in [Lane::Map, Lane::Cram, Lane::Export] {
                w.cancel_and_free(lane);
            }
            self.inspector.cancel(w);
        }
        self.map.asked = None;
        self.status = MapStatus::Cancelled {
            camera: self.map_state.camera,
            color: self.map_state.color,
        };
        self.notice = Some(Notice::done(
            "cancelled: the map goes on when you pan, zoom or change the colours".into(),
        ));
    }

    /// Takes the worker's results and asks for what the view still lacks.
    pub fn logic(&mut self, ctx: &egui::Context) {
        let worker = self.worker.get_or_insert_with(|| {
            theme::apply(ctx); // the first frame: the window's text sizes
            let ctx = ctx.clone();
            Worker::new(Arc::new(move || crate::ui::repaint_once(&ctx)), self.memory_budget)
        });
        let mut exports = Vec::new();
        let mut maps = Vec::new();
        for resp in worker.drain(DRAIN_BUDGET) {
            match resp.lane {
                Lane::Cram => self.cram_editor.receive(&resp.spec, resp.result),
                Lane::Inspector => self.inspector.on_response(resp),
                Lane::Export => exports.push(resp),
                Lane::Map => maps.push(resp),
            }
        }
        for resp in maps {
            self.on_map_response(resp);
        }
        let Some(worker) = self.worker.as_mut() else { return };
        if self.central_tab == CentralTab::CramBoard {
            self.cram_editor.logic(worker);
        }
        self.inspector.logic(&self.ruleset, worker);
        for resp in exports {
            self.on_export_response(resp);
        }
        if let MapStatus::Cancelled { camera, color } = self.status {
            if (camera, color) == (self.map_state.camera, self.map_state.color) {
                return; // the user stopped the work: wait for the next change of view or ruleset
            }
            self.status = MapStatus::Ready;
        }
        self.schedule(ctx);
        // The map's batches wake the window themselves; other jobs report progress only
        // through their counters, read when a frame is drawn.
        if self
            .worker
            .as_ref()
            .is_some_and(|w| w.running().any(|r| r.lane != Lane::Map))
        {
            ctx.request_repaint_after(Duration::from_millis(250));
        }
    }

    /// Takes in a map job's answer: its tiles, the view's colour scale, or why it failed.
    fn on_map_response(&mut self, resp: crate::worker::Response) {
        let layer = &mut self.map;
        if resp.last {
            layer.asked = None;
        }
        match (resp.result, &resp.spec) {
            (Ok(Output::Tiles(batch)), JobSpec::Map(job)) => {
                let store = &mut layer.tiles;
                let evicted: usize = batch.tiles.iter().map(|(k, t)| store.insert(*k, t)).sum();
                if evicted > 0 {
                    self.notice = Some(Notice::done(format!(
                        "evicted {evicted} map tiles used least recently, to keep the tiles within {}",
                        human_bytes(store.cap())
                    )));
                }
                layer.scale = Some(Scale {
                    view: job.view.clone(),
                    max: batch.max,
                    complete: resp.last,
                });
            }
            (Ok(Output::Sequence(s)), _) => self.sequence = Some(s),
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
    }

    /// Whether every cell in view has its final value and colour (the trace's map-complete).
    pub fn map_complete(&self) -> bool {
        let CentralView::Map(_) = self.central_view() else {
            return false;
        };
        let view = self.map_state.visible_cells(self.map_limit());
        let scaled = !self.map_state.color.needs_scale()
            || self.map.scale.as_ref().is_some_and(|s| s.complete && s.view == view);
        self.map_progress.in_view > 0 && self.map_progress.is_complete() && scaled
    }

    /// Rows and columns below this are shown.
    fn map_limit(&self) -> u64 {
        self.map.limit
    }

    fn schedule(&mut self, ctx: &egui::Context) {
        let view = self.central_view();
        let compare = self.compare_with();
        let Some(worker) = self.worker.as_mut() else { return };
        let layout = match view {
            CentralView::Board => return,
            CentralView::Message(why) => {
                if !matches!(self.status, MapStatus::NoMap(_)) {
                    self.status = MapStatus::NoMap(why);
                }
                return;
            }
            CentralView::Sequence => {
                if self.sequence.is_none() && !worker.is_running(Lane::Map) && self.status == MapStatus::Ready {
                    worker.submit(
                        Lane::Map,
                        JobSpec::Sequence {
                            ruleset: self.ruleset.clone(),
                            n: SEQUENCE_LEN,
                        },
                    );
                }
                return;
            }
            CentralView::Map(layout) => layout,
        };
        if matches!(self.status, MapStatus::Failed { .. } | MapStatus::NoMap(_)) {
            return; // wait for a change of ruleset
        }
        let color = self.map_state.color;
        let compare = match color {
            ColorMode::Difference => compare,
            _ => CompareWith::Nothing,
        };
        // the rule may depend on how far the view reaches (Wythoff's P-positions)
        let reach = self.map_state.visible_cells(self.map.limit);
        self.map.show((
            self.ruleset.clone(),
            layout.clone(),
            color.map_rule(&self.ruleset, &layout, &reach),
            compare.clone(),
            color.has_outcome_form(&self.ruleset, &layout),
        ));
        let limit = self.map.limit;
        let view = self.map_state.visible_cells(limit);
        let level = self.map_state.level();
        let tiles = self.map_state.visible_tiles(limit);
        let store = &mut self.map.tiles;
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
        let need_scale = color.needs_scale() && !self.map.scale.as_ref().is_some_and(|s| s.complete && s.view == view);
        if missing.is_empty() && !need_scale {
            return;
        }
        let tile_bytes = TILE * TILE * 8;
        if !store.has_room_for(missing.len() as u64 * tile_bytes) {
            notice::notify(
                &mut self.notice,
                Notice::error(format!(
                    "the view needs more than {} of map tiles: zoom in to see the rest",
                    human_bytes(store.cap())
                )),
            );
            return;
        }
        let job = MapJob {
            ruleset: self.ruleset.clone(),
            layout,
            color,
            compare,
            level,
            view,
            tiles: missing,
        };
        match &self.map.asked {
            Some((running, _)) if same_job(running, &job) && worker.is_running(Lane::Map) => return,
            Some((_, at)) if worker.is_running(Lane::Map) && at.elapsed() < RESUBMIT_AFTER => {
                ctx.request_repaint_after(RESUBMIT_AFTER - at.elapsed());
                return;
            }
            _ => {}
        }
        let job = Box::new(job);
        self.map.asked = Some((job.clone(), Instant::now()));
        worker.submit(Lane::Map, JobSpec::Map(job));
    }

    /// Everything drawn in one frame (also what the behaviour tests drive).
    pub fn ui_root(&mut self, ui: &mut egui::Ui) {
        self.logic(&ui.ctx().clone());
        self.shortcuts_ui(ui.ctx());
        // the panels drawn before the map name the cell under the pointer now, and the status
        // bar counts the tiles just received
        self.hovered = match self.central_view() {
            CentralView::Map(_) => canvas::hovered_now(ui.ctx(), &self.map_state, &self.map.tiles),
            _ => None,
        };
        self.map_progress = self.map_state.progress(&self.map.tiles, self.map_limit());
        self.session_windows_ui(&ui.ctx().clone());
        egui::Panel::top("menu").show(ui, |ui| self.menu_ui(ui));
        // one height whatever it shows (a progress bar, a button), so the map never jumps
        let status_h = ui.spacing().interact_size.y + 2.0 * ui.spacing().item_spacing.y + 4.0;
        egui::Panel::bottom("status")
            .exact_size(status_h)
            .show(ui, |ui| self.status_bar_ui(ui));
        // The board editor has its own report column: the side panels give it their room
        // (the rulesets come back on demand, to leave a Cram ruleset).
        let on_board = self.central_view() == CentralView::Board;
        if !on_board || self.rulesets_beside_board {
            egui::Panel::left("rulesets")
                .default_size(theme::SIDE_PANEL_WIDTH)
                .size_range(theme::SIDE_PANEL_WIDTH * 0.8..=theme::SIDE_PANEL_WIDTH * 1.6)
                .show(ui, |ui| {
                    egui::ScrollArea::vertical().show(ui, |ui| {
                        let compare = self.map_state.color == ColorMode::Difference;
                        if let PanelAction::Apply(r) = ruleset_panel::ruleset_panel_ui(ui, &mut self.panel, compare) {
                            self.set_ruleset(r);
                        }
                    });
                });
        }
        if !on_board {
            // a fixed range, and content that scrolls rather than pushes: the panel never grows
            // to its widest line and squeezes the map
            egui::Panel::right("inspector")
                .default_size(theme::INSPECTOR_WIDTH)
                .size_range(theme::INSPECTOR_WIDTH * 0.75..=theme::INSPECTOR_WIDTH * 1.6)
                .show(ui, |ui| {
                    inspector::inspector_ui(ui, &mut self.inspector, &self.ruleset, self.hovered);
                });
        }
        egui::CentralPanel::default().show(ui, |ui| {
            ui.horizontal(|ui| {
                let board_only = self.presentation() == Presentation::Board;
                ui.add_enabled_ui(!board_only, |ui| {
                    ui.selectable_value(&mut self.central_tab, CentralTab::ValueMap, "Value map")
                        .on_disabled_hover_text("Cram rulesets are played on a board");
                });
                ui.selectable_value(&mut self.central_tab, CentralTab::CramBoard, "Cram board");
                if on_board {
                    ui.separator();
                    let label = if self.rulesets_beside_board {
                        "Hide the rulesets"
                    } else {
                        "Show the rulesets"
                    };
                    if ui.button(label).clicked() {
                        self.rulesets_beside_board = !self.rulesets_beside_board;
                    }
                }
            });
            match self.central_view() {
                CentralView::Board => {
                    let searched = self.worker.as_ref().and_then(|w| {
                        w.running()
                            .find(|r| r.lane == Lane::Cram)
                            .map(|r| r.control.progress().0)
                    });
                    cram_editor::cram_editor_ui(ui, &mut self.cram_editor, searched);
                }
                CentralView::Message(why) => {
                    ui.add_space(24.0);
                    ui.label(why);
                }
                CentralView::Map(layout) => self.map_view_ui(ui, &layout),
                CentralView::Sequence => match self.sequence.clone() {
                    Some(s) => {
                        let (selected, options) = self.inspector.strip_marks();
                        let marks = sequence_view::StripMarks { selected, options };
                        if let Some(n) = sequence_view::sequence_ui(ui, &s, self.map_state.color, &marks) {
                            self.inspector.doc.typed = n.to_string();
                            self.inspector.select_typed(&self.ruleset);
                        }
                    }
                    None => {
                        ui.label("computing the sequence…");
                    }
                },
            }
        });
        help::help_window_ui(ui.ctx(), &mut self.show_help, &mut self.help_page);
        crate::ui::panels::quotient_view::quotient_window_ui(ui.ctx(), &mut self.quotient, &self.ruleset);
    }

    /// The value map with the inspector's marks; a click selects the cell's position.
    fn map_view_ui(&mut self, ui: &mut egui::Ui, layout: &Layout) {
        let compare = self.compare_with();
        let marks = self.inspector.map_marks(layout, &self.ruleset);
        let context = MapContext {
            tiles: &self.map.tiles,
            max: self.map.scale_max(),
            compare: &compare,
            titles: AxisTitles::of(&self.ruleset, layout),
            marks: MarksShown {
                selected: marks.selected.is_some(),
                options: marks.options.iter().any(|(_, w)| !w),
                winning: marks.options.iter().any(|(_, w)| *w),
            },
            limit: self.map_limit(),
        };
        let response = canvas::map_ui(ui, &mut self.map_state, &context);
        let progress = self.map_state.progress(&self.map.tiles, self.map_limit());
        if progress != self.map_progress {
            // the view moved this frame: the status bar, drawn before, catches up next frame
            self.map_progress = progress;
            crate::ui::repaint_once(ui.ctx());
        }
        self.hovered = response.hovered;
        if response.clicked
            && let Some(h) = self.hovered
        {
            let p = layout.position(&self.ruleset, h.cell);
            if self.inspector.playing() {
                // a click on the map plays that move; anything else is refused with a word
                if let Err(why) = self.inspector.play_to(&p) {
                    self.notice = Some(Notice::error(format!("not played: {why}")));
                }
            } else {
                self.inspector.doc.typed = p.to_string();
                self.inspector.select_typed(&self.ruleset);
            }
        }
        canvas::marks_ui(ui, &self.map_state, marks.selected, &marks.options);
    }

    fn shortcuts_ui(&mut self, ctx: &egui::Context) {
        if ctx.input_mut(|i| i.consume_key(egui::Modifiers::COMMAND, egui::Key::Q)) {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
        self.file_shortcuts_ui(ctx);
        inspector::keyboard_ui(ctx, &mut self.inspector); // the arrows, while the pointer is over the inspector
        canvas::keyboard_ui(ctx, &mut self.map_state);
    }

    fn menu_ui(&mut self, ui: &mut egui::Ui) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| self.file_menu_ui(ui));
            ui.menu_button("View", |ui| {
                for (label, key) in [
                    ("Zoom in  (+)", MapKey::ZoomIn),
                    ("Zoom out  (-)", MapKey::ZoomOut),
                    ("Fit: the first 64 × 64 cells  (0)", MapKey::Fit),
                ] {
                    if ui.button(label).clicked() {
                        self.map_state.apply(key);
                    }
                }
                ui.separator();
                self.color_mode_ui(ui);
                ui.separator();
                let o = &mut self.map_state.overlays;
                ui.checkbox(&mut o.grid_lines, "Grid lines");
                ui.checkbox(&mut o.phi_lines, "Lines b = φa and a = φb");
                ui.checkbox(&mut o.wythoff_pairs, "Wythoff pairs");
                ui.checkbox(&mut o.theorem_316, "Thm 3.1.6 P-positions of push(nim,euclid0)");
            });
            ui.menu_button("Help", |ui| {
                for (page, label) in [
                    (help::HelpPage::QuickStart, "Quick start"),
                    (help::HelpPage::Keys, "Keys and gestures"),
                    (help::HelpPage::About, "About nimscope"),
                ] {
                    if ui.button(label).clicked() {
                        self.show_help = true;
                        self.help_page = page;
                        ui.close();
                    }
                }
            });
        });
    }

    /// The colour mode choices (in the View menu).
    pub fn color_mode_ui(&mut self, ui: &mut egui::Ui) {
        let c = &mut self.map_state.color;
        ui.radio_value(c, ColorMode::Outcome, "P-positions");
        ui.radio_value(c, ColorMode::Grundy(Palette::Viridis), "Grundy value (viridis)");
        ui.radio_value(
            c,
            ColorMode::Grundy(Palette::Cividis),
            "Grundy value (cividis, colour-blind safe)",
        );
        ui.radio_value(c, ColorMode::Modulo(2), "Grundy value mod 2");
        ui.radio_value(c, ColorMode::Modulo(4), "Grundy value mod 4");
        ui.radio_value(c, ColorMode::Difference, "Difference (compare with: left panel)");
    }

    fn status_bar_ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            let mut cancel = false;
            let map_running = self.worker.as_ref().is_some_and(|w| w.is_running(Lane::Map));
            let map_text = self.map_progress_text(map_running);
            if let Some(w) = &self.worker {
                for r in w.running() {
                    if r.lane == Lane::Map && matches!(r.spec, JobSpec::Map(_)) {
                        continue; // the map's own figure follows
                    }
                    let (done, total) = r.control.progress();
                    let frac = if total > 0 { done as f32 / total as f32 } else { 0.0 };
                    let secs = r.started.elapsed().as_secs_f64().max(1e-3);
                    ui.label(r.spec.describe());
                    if total == 0 {
                        // unknown size (a Cram search): what has been done so far
                        ui.spinner();
                        ui.label(format!("{done} positions searched"));
                        continue;
                    }
                    ui.add(
                        egui::ProgressBar::new(frac.min(1.0))
                            .desired_width(160.0)
                            .show_percentage(),
                    );
                    ui.label(format!("{:.1} M cells/s", done as f64 / secs / 1e6));
                }
                if let Some(text) = map_text {
                    let p = &self.map_progress;
                    ui.add(
                        egui::ProgressBar::new((p.done as f64 / p.in_view.max(1) as f64) as f32)
                            .desired_width(160.0)
                            .show_percentage(),
                    );
                    ui.label(text);
                }
                if w.running().next().is_some() && ui.button("Cancel").clicked() {
                    cancel = true;
                }
            }
            if cancel {
                self.cancel_jobs();
            }
            if let Some(s) = self.status.message() {
                ui.colored_label(theme::ERROR_TEXT, s);
            } else if !notice::notice_ui(ui, self.notice.as_ref())
                && let Some(h) = self.hovered
            {
                ui.label(h.describe());
            }
        });
    }
}

impl App {
    /// The status bar's words on the map's fill while the view is not complete: cells done of
    /// the cells in view (monotonic while the view stays), and the rate since the view began.
    fn map_progress_text(&mut self, running: bool) -> Option<String> {
        let CentralView::Map(_) = self.central_view() else {
            return None;
        };
        let view = self.map_state.visible_cells(self.map_limit());
        let p = self.map_progress;
        if !matches!(&self.map.fill, Some((v, _, _)) if *v == view) {
            self.map.fill = Some((view, Instant::now(), p.done));
        }
        if p.is_complete() && !running {
            return None;
        }
        let (_, since, done0) = self.map.fill.as_ref()?;
        let secs = since.elapsed().as_secs_f64().max(1e-3);
        let new_cells = p.done.saturating_sub(*done0);
        let counts = format!("map: {} of {} cells", count_text(p.done), count_text(p.in_view));
        if new_cells == 0 {
            // no batch yet since the view changed: a rate of 0.0 would say the solver stalled
            return Some(counts);
        }
        Some(format!("{counts}, {:.1} M cells/s", new_cells as f64 / secs / 1e6))
    }
}

/// A count of cells in a few digits: 830, 12.5 k, 16.8 M.
fn count_text(n: u64) -> String {
    match n {
        0..1_000 => n.to_string(),
        1_000..1_000_000 => format!("{:.1} k", n as f64 / 1e3),
        _ => format!("{:.1} M", n as f64 / 1e6),
    }
}

impl eframe::App for App {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let timer = FrameTimer::start();
        // A map's batches wake the window at most every forty frames' worth of the last
        // frame's cost (its ui as this thread sees it): a quarter of a second with a GPU. A
        // software renderer's own threads spend far more than the ui (measured under Xvfb at
        // 1280 × 800: 0.035–0.1 s of CPU a frame), which this thread does not see: there the
        // batches wake the window every second and a half, so a fill keeps the CPU.
        let software = *self.software_renderer.get_or_insert_with(|| {
            let info = frame.wgpu_render_state().map(|r| r.adapter.get_info());
            let software = info
                .as_ref()
                .is_some_and(|i| i.device_type == eframe::wgpu::DeviceType::Cpu);
            if let Some(t) = &mut self.trace {
                let adapter = info.map_or("unknown".into(), |i| {
                    format!("{} ({:?}, {:?})", i.name, i.backend, i.device_type)
                });
                t.renderer(&adapter, software);
            }
            software
        });
        self.map_state.set_software_renderer(software);
        if let (Some(cost), Some(w)) = (frame.info().cpu_usage, &self.worker) {
            let least = if software { 1.5 } else { 0.25 };
            let every = Duration::from_secs_f32((cost * 40.0).clamp(least, 3.0));
            w.set_wake_every(every);
        }
        self.ui_root(ui);
        if self.trace.is_some() {
            let time = timer.stop();
            let complete = self.map_complete();
            let p = self.map_progress;
            if let Some(t) = &mut self.trace {
                t.frame(time, p.done, p.in_view, complete);
            }
        }
    }

    fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
        theme::panel_background(visuals).to_normalized_gamma_f32()
    }

    fn on_exit(&mut self) {
        self.write_window_state();
    }
}

/// What the command line asks the window to open with.
#[derive(Debug, Default)]
pub struct WindowOptions {
    pub memory_budget: u64,
    /// A session file to open (`nimscope --session FILE`).
    pub session: Option<std::path::PathBuf>,
    /// The ruleset to show (`--ruleset R`).
    pub ruleset: Option<Ruleset>,
    /// The Cram board tab's position (`--board 3x7 [--push]`).
    pub board: Option<crate::game::cram_setup::CramDocument>,
    /// The position the inspector opens on (`--select 3,5`).
    pub select: Option<String>,
    /// Start afresh instead of restoring the last state (`--fresh`).
    pub fresh: bool,
    /// The map's region to show (`--view A..B,C..D`: rows a in A..B, columns b in C..D).
    pub view: Option<CellRect>,
    /// The window's size in points (`--window-size WxH`; else 1280 × 800).
    pub window_size: Option<(u32, u32)>,
}

/// Opens the window (the binary without a subcommand): the last state first, then what the
/// command line asks for on top of it.
pub fn run_window(opts: WindowOptions) -> Result<(), String> {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("nimscope")
            .with_inner_size(opts.window_size.map_or([1280.0, 800.0], |(w, h)| [w as f32, h as f32])),
        ..Default::default()
    };
    let mut app = App::new(opts.memory_budget);
    if let Some(dir) = crate::session::state_dir() {
        if opts.fresh || opts.session.is_some() || opts.ruleset.is_some() || opts.board.is_some() {
            app.keep_state_in(dir); // the command line says what to show
        } else {
            app.use_state_dir(dir);
        }
    }
    if let Some(path) = &opts.session {
        app.open_session(path)?;
    }
    if let Some(r) = opts.ruleset {
        app.panel.expression = r.to_string();
        app.set_ruleset(r);
    }
    if let Some(doc) = opts.board {
        app.cram_editor.load_document(&doc).map_err(|e| format!("board: {e}"))?;
        app.central_tab = CentralTab::CramBoard;
    }
    if let Some(text) = opts.select {
        let ruleset = app.ruleset.clone();
        app.inspector.select_text(&ruleset, &text)?;
    }
    if let Some(region) = opts.view {
        app.map_state.show_region(region);
    }
    app.trace = Trace::from_env()?;
    if opts.session.is_none() && app.sessions.path.is_none() {
        // what the command line asked to show is not a change to save
        app.mark_clean();
    }
    eframe::run_native("nimscope", options, Box::new(move |_cc| Ok(Box::new(app))))
        .map_err(|e| format!("could not open the window: {e}"))
}
