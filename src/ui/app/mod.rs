//! The window: layout, menus and shortcuts, the status bar, and the logic that keeps the map
//! supplied by the background worker. `logic` does the work (drain results, schedule jobs);
//! the `*_ui` functions draw and record what the user asked for.

pub mod file_prompt;
pub mod help;
pub mod notice;
pub mod session_ui;

use std::sync::Arc;
use std::time::Duration;

use crate::game::{Layout, Presentation, Ruleset};
use crate::raster::{ColorMode, CompareWith, Palette};
use crate::solver::control::human_bytes;
use crate::solver::sequence::Sequence;
use crate::solver::tiles::{TILE, TileKey, TileStore};
use crate::ui::canvas::{self, Camera, HoveredCell, MapState, sequence_view};
use crate::ui::panels::cram_editor::{self, CramEditor};
use crate::ui::panels::inspector::{self, InspectorState};
use crate::ui::panels::ruleset_panel::{self, PanelAction, RulesetPanel};
use crate::ui::theme;
use crate::worker::{JobError, JobSpec, Lane, Output, Worker};
use notice::Notice;

/// The map covers rows and columns below this (the worker's memory budget may stop it sooner).
const MAX_MAP: u64 = 1 << 16;
/// What "Fit the map" shows before any tile is computed.
const FIRST_MAP: u64 = 64;
/// Tiles asked for in one job (the worker answers with those it finishes within a moment).
const TILES_PER_JOB: usize = 64;
/// Length of the sequence shown for one-heap rulesets.
const SEQUENCE_LEN: u64 = 600;
/// Time a frame may spend taking results from the worker.
const DRAIN_BUDGET: Duration = Duration::from_millis(10);

/// What the central area shows (saved in sessions).
pub use crate::session::Tab as CentralTab;

/// One layer of the map: the values of one ruleset over the map's tiles, as far as computed.
/// The window has two: the main map and, in the difference mode, the compared ruleset's.
pub struct MapLayer {
    /// The finished tiles, filled nearest the view first; panning back reads them.
    pub tiles: TileStore,
    /// The ruleset the tiles belong to.
    pub ruleset: Option<Ruleset>,
    /// Tiles this far from the origin (in tiles) or farther are not asked for: a job for one
    /// of them failed (over the memory budget).
    limit: u64,
    /// The worker lane that fills it.
    lane: Lane,
}

impl MapLayer {
    fn new(lane: Lane, memory_budget: u64) -> Self {
        Self {
            tiles: TileStore::new(memory_budget / 4),
            ruleset: None,
            limit: u64::MAX,
            lane,
        }
    }

    /// Forgets the values (a new ruleset or layout).
    fn clear(&mut self) {
        self.tiles.clear();
        self.limit = u64::MAX;
    }

    /// Makes the layer hold `ruleset`, forgetting values of another one.
    fn show(&mut self, ruleset: &Ruleset) {
        if self.ruleset.as_ref() != Some(ruleset) {
            self.clear();
            self.ruleset = Some(ruleset.clone());
        }
    }
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
            MapStatus::NoMap(why) => Some(why.clone()),
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
    /// The difference mode's second map, filled over the same tiles as `map`.
    pub compare: MapLayer,
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
            map: MapLayer::new(Lane::Map, memory_budget),
            compare: MapLayer::new(Lane::Compare, memory_budget),
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
        self.compare.clear();
        self.sequence = None;
        if let Some(w) = &mut self.worker {
            w.cancel(Lane::Map);
            w.cancel(Lane::Compare);
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
            for lane in [Lane::Map, Lane::Compare, Lane::Cram, Lane::Export] {
                w.cancel_and_free(lane);
            }
            self.inspector.cancel(w);
        }
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
            Worker::new(Arc::new(move || ctx.request_repaint()), self.memory_budget)
        });
        let mut exports = Vec::new();
        for resp in worker.drain(DRAIN_BUDGET) {
            match resp.lane {
                Lane::Cram => self.cram_editor.receive(&resp.spec, resp.result),
                Lane::Inspector => self.inspector.on_response(resp),
                Lane::Export => exports.push(resp),
                Lane::Map | Lane::Compare => {
                    let layer = if resp.lane == Lane::Compare {
                        &mut self.compare
                    } else {
                        &mut self.map
                    };
                    match resp.result {
                        Ok(Output::Tiles(tiles)) => {
                            let store = &mut layer.tiles;
                            let evicted: usize = tiles.into_iter().map(|(k, t)| store.insert(k, t)).sum();
                            if evicted > 0 {
                                self.notice = Some(Notice::done(format!(
                                    "evicted {evicted} map tiles used least recently, to keep the tiles within {}",
                                    human_bytes(store.cap())
                                )));
                            }
                        }
                        Ok(Output::Sequence(s)) => self.sequence = Some(s),
                        Ok(_) => debug_assert!(false, "unexpected output on lane {:?}", resp.lane),
                        Err(error) => match &resp.spec {
                            JobSpec::Tiles { tiles, .. } if !tiles.is_empty() => {
                                // stop asking for tiles this far; nearer ones may still come
                                let reach = tiles[0].reach();
                                layer.limit = layer.limit.min(reach);
                                self.status = MapStatus::TooFar {
                                    far: reach * TILE,
                                    error,
                                };
                            }
                            spec => {
                                self.status = MapStatus::Failed {
                                    what: spec.describe(),
                                    error,
                                }
                            }
                        },
                    }
                }
            }
        }
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
        self.schedule();
        if self.worker.as_ref().is_some_and(|w| w.running().next().is_some()) {
            ctx.request_repaint_after(Duration::from_millis(100)); // keep the progress bar moving
        }
    }

    fn schedule(&mut self) {
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
        let view = self.map_state.visible_tiles(MAX_MAP);
        let ask = |worker: &mut Worker, layer: &mut MapLayer, filled: &dyn Fn(TileKey) -> bool| {
            let ruleset = layer.ruleset.clone()?;
            let store = &mut layer.tiles;
            store.tick();
            store.touch(&view);
            let missing: Vec<TileKey> = view
                .iter()
                .copied()
                .filter(|&k| !store.contains(k) && k.reach() < layer.limit && filled(k))
                .take(TILES_PER_JOB)
                .collect();
            if missing.is_empty() {
                return None;
            }
            if !store.has_room_for(2 * TILE * TILE) {
                return Some(format!(
                    "the view needs more than {} of map tiles: zoom in to see the rest",
                    human_bytes(store.cap())
                ));
            }
            // A job whose tiles all left the view is superseded (a growing fill keeps its rows).
            let current = worker.running().find(|r| r.lane == layer.lane).map(|r| match &r.spec {
                JobSpec::Tiles { tiles, .. } => tiles.iter().any(|k| view.contains(k)),
                _ => true,
            });
            if current != Some(true) {
                worker.submit(
                    layer.lane,
                    JobSpec::Tiles {
                        ruleset,
                        layout: layout.clone(),
                        tiles: missing,
                    },
                );
            }
            None
        };
        self.map.show(&self.ruleset);
        let mut notice = ask(worker, &mut self.map, &|_| true);
        if self.map_state.color == ColorMode::Difference
            && let CompareWith::Ruleset(other) = compare
        {
            self.compare.show(&other);
            let main = &self.map.tiles;
            notice = notice.or(ask(worker, &mut self.compare, &|k| main.contains(k)));
        }
        if let Some(n) = notice {
            notice::notify(&mut self.notice, Notice::error(n));
        }
    }

    /// Everything drawn in one frame (also what the behaviour tests drive).
    pub fn ui_root(&mut self, ui: &mut egui::Ui) {
        self.logic(&ui.ctx().clone());
        self.shortcuts_ui(ui.ctx());
        self.session_windows_ui(&ui.ctx().clone());
        egui::Panel::top("menu").show(ui, |ui| self.menu_ui(ui));
        egui::Panel::bottom("status").show(ui, |ui| self.status_bar_ui(ui));
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
    }

    /// The value map with the inspector's marks; a click selects the cell's position.
    fn map_view_ui(&mut self, ui: &mut egui::Ui, layout: &Layout) {
        let compare = self.compare_with();
        let response = canvas::map_ui(ui, &mut self.map_state, &self.map.tiles, &compare, &self.compare.tiles);
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
        let marks = self.inspector.map_marks(layout, &self.ruleset);
        canvas::marks_ui(ui, &self.map_state, marks.selected, &marks.options);
    }

    fn shortcuts_ui(&mut self, ctx: &egui::Context) {
        if ctx.input_mut(|i| i.consume_key(egui::Modifiers::COMMAND, egui::Key::Q)) {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
        self.file_shortcuts_ui(ctx);
        inspector::keyboard_ui(ctx, &mut self.inspector); // the arrows, while the pointer is over the inspector
        let fit = self.map.tiles.extent().clamp(FIRST_MAP, MAX_MAP) as f64;
        canvas::keyboard_ui(ctx, &mut self.map_state, fit);
    }

    fn menu_ui(&mut self, ui: &mut egui::Ui) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| self.file_menu_ui(ui));
            ui.menu_button("View", |ui| {
                if ui.button("Zoom in  (+)").clicked() {
                    self.map_state.camera.zoom_at(1.5, 0.0, 0.0);
                }
                if ui.button("Zoom out  (-)").clicked() {
                    self.map_state.camera.zoom_at(1.0 / 1.5, 0.0, 0.0);
                }
                if ui.button("Fit the map  (0)").clicked() {
                    let n = self.map.tiles.extent().clamp(FIRST_MAP, MAX_MAP) as f64;
                    let r = self
                        .map_state
                        .last_rect
                        .unwrap_or(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(800.0, 600.0)));
                    self.map_state.camera = Camera::fit(n, r.width(), r.height());
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
            if let Some(w) = &self.worker {
                for r in w.running() {
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

impl eframe::App for App {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.ui_root(ui);
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
}

/// Opens the window (the binary without a subcommand): the last state first, then what the
/// command line asks for on top of it.
pub fn run_window(opts: WindowOptions) -> Result<(), String> {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("nimscope")
            .with_inner_size([1280.0, 800.0]),
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
    if opts.session.is_none() && app.sessions.path.is_none() {
        // what the command line asked to show is not a change to save
        app.mark_clean();
    }
    eframe::run_native("nimscope", options, Box::new(move |_cc| Ok(Box::new(app))))
        .map_err(|e| format!("could not open the window: {e}"))
}
