//! The window: layout, menus and shortcuts, the status bar, and the logic that keeps the map
//! supplied by the background worker. `logic` does the work (drain results, schedule jobs);
//! the `*_ui` functions draw and record what the user asked for.

pub mod notice;
pub mod session_ui;
pub mod theme;

use std::sync::Arc;
use std::time::Duration;

use crate::canvas::{self, Camera, Compare, HoveredCell, MapState, sequence_view};
use crate::game::{Ruleset, Shape};
use crate::panels::cram_editor::{self, CramEditor};
use crate::panels::inspector_panel::{self, CellInfo, InspectorState};
use crate::panels::ruleset_panel::{self, PanelAction, RulesetPanel};
use crate::raster::{ColorMode, Palette};
use crate::solver::control::human_bytes;
use crate::solver::grid::{self, Layout};
use crate::solver::sequence::{self, Sequence};
use crate::solver::tiles::{TILE, TileKey, TileStore};
use crate::worker::{JobSpec, Lane, Output, Worker};
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

/// The whole window's state.
pub struct App {
    pub panel: RulesetPanel,
    pub ruleset: Ruleset,
    pub layout: Layout,
    pub map_state: MapState,
    /// The map's finished tiles, filled nearest the view first; panning back reads them.
    pub map: TileStore,
    /// The difference mode's second map, filled over the same tiles as `map`.
    pub compare_map: TileStore,
    /// The ruleset `compare_map` holds.
    compare_ruleset: Option<Ruleset>,
    /// Tiles this far from the origin (in tiles) or farther are not asked for: a job for one
    /// of them failed (over the memory budget). Per map: main, compared.
    map_limit: [u64; 2],
    pub sequence: Option<Arc<Sequence>>,
    pub hovered: Option<HoveredCell>,
    pub selected: Option<HoveredCell>,
    /// The map's last error (or "cancelled"), shown in the status bar; it holds back the
    /// map's jobs until the ruleset or the view changes.
    pub status: Option<String>,
    /// A passing message (files, evicted tiles), shown when there is no error.
    pub notice: Option<Notice>,
    pub show_about: bool,
    pub central_tab: CentralTab,
    pub cram_editor: CramEditor,
    /// The inspector (selected position, move tree, play mode); its serde part goes in sessions.
    pub inspector: InspectorState,
    /// The session's file, notes, figure style and the File menu's dialogs.
    pub sessions: session_ui::SessionState,
    worker: Option<Worker>,
    memory_budget: u64,
    /// The map's view and colours when the user pressed Cancel: the map waits until they change.
    cancelled_view: Option<(Camera, ColorMode)>,
}

impl App {
    pub fn new(memory_budget: u64) -> Self {
        Self {
            panel: RulesetPanel::default(),
            ruleset: Ruleset::Wythoff,
            layout: Layout::Plain,
            map_state: MapState::default(),
            map: TileStore::new(memory_budget / 4),
            compare_map: TileStore::new(memory_budget / 4),
            compare_ruleset: None,
            map_limit: [u64::MAX; 2],
            sequence: None,
            hovered: None,
            selected: None,
            status: None,
            notice: None,
            show_about: false,
            central_tab: CentralTab::default(),
            cram_editor: CramEditor::default(),
            inspector: InspectorState::default(),
            sessions: session_ui::SessionState::default(),
            worker: None,
            memory_budget,
            cancelled_view: None,
        }
    }

    /// Whether the current ruleset is shown as a 2-D map (else as a sequence).
    pub fn is_map(&self) -> bool {
        self.layout != Layout::Plain || !matches!(self.ruleset.shape(), Shape::OneHeap)
    }

    /// Switches to a ruleset: forgets the old values and starts over from the origin.
    pub fn set_ruleset(&mut self, r: Ruleset) {
        self.panel.fit_to(&r);
        self.layout = match self.panel.slice.trim() {
            "" => Layout::Plain,
            s => match Layout::parse_slice(s) {
                Ok(l) => l,
                Err(e) => {
                    self.status = Some(e);
                    Layout::Plain
                }
            },
        };
        if let Some(rules) = cram_editor::rules_of(&r) {
            self.central_tab = CentralTab::CramBoard;
            self.cram_editor.model.set_rules(rules);
        }
        self.ruleset = r;
        self.map.clear();
        self.compare_map.clear();
        self.map_limit = [u64::MAX; 2];
        self.sequence = None;
        self.selected = None;
        self.status = None;
        if let Some(w) = &mut self.worker {
            w.cancel(Lane::Map);
            w.cancel(Lane::Compare);
        }
    }

    pub fn worker(&self) -> Option<&Worker> {
        self.worker.as_ref()
    }

    /// Stops every running job (the status bar's Cancel).
    pub fn cancel_jobs(&mut self) {
        if let Some(w) = &mut self.worker {
            w.cancel(Lane::Map);
            w.cancel(Lane::Compare);
            w.cancel(Lane::Cram);
        }
        self.status = Some("cancelled".into());
        self.cancelled_view = Some((self.map_state.camera, self.map_state.color));
    }

    /// Takes the worker's results and asks for what the view still lacks.
    pub fn logic(&mut self, ctx: &egui::Context) {
        let worker = self.worker.get_or_insert_with(|| {
            let ctx = ctx.clone();
            Worker::new(Arc::new(move || ctx.request_repaint()), self.memory_budget)
        });
        let mut exports = Vec::new();
        for resp in worker.drain(DRAIN_BUDGET) {
            if resp.lane == Lane::Cram {
                self.cram_editor.receive(&resp.spec, resp.result);
                continue;
            }
            if resp.lane == Lane::Inspector {
                self.inspector.on_response(resp);
                continue;
            }
            if resp.lane == Lane::Export {
                exports.push(resp);
                continue;
            }
            let compare = usize::from(resp.lane == Lane::Compare);
            match (resp.lane, resp.result) {
                (Lane::Map | Lane::Compare, Ok(Output::Tiles(tiles))) => {
                    let store = if compare == 1 {
                        &mut self.compare_map
                    } else {
                        &mut self.map
                    };
                    let evicted: usize = tiles.into_iter().map(|(k, t)| store.insert(k, t)).sum();
                    if evicted > 0 {
                        self.notice = Some(Notice::done(format!(
                            "evicted {evicted} map tiles used least recently, to keep the tiles within {}",
                            human_bytes(store.cap())
                        )));
                    }
                }
                (Lane::Map, Ok(Output::Sequence(s))) => self.sequence = Some(s),
                (lane, Ok(_)) => debug_assert!(false, "unexpected output on lane {lane:?}"),
                (_, Err(e)) => {
                    if let JobSpec::Tiles { tiles, .. } = &resp.spec
                        && let Some(first) = tiles.first()
                    {
                        // stop asking for tiles this far; nearer ones may still come
                        self.map_limit[compare] = self.map_limit[compare].min(first.reach());
                        let far = first.reach() * TILE;
                        self.status = Some(format!("the map beyond row or column {far} is too far to compute: {e}"));
                    } else {
                        self.status = Some(format!("{}: {e}", resp.spec.describe()));
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
        if self.status.as_deref() == Some("cancelled") {
            if self.cancelled_view == Some((self.map_state.camera, self.map_state.color)) {
                return; // the user stopped the work: wait for the next change of view or ruleset
            }
            self.status = None;
        }
        self.cancelled_view = None;
        self.schedule();
        if self.worker.as_ref().is_some_and(|w| w.running().next().is_some()) {
            ctx.request_repaint_after(Duration::from_millis(100)); // keep the progress bar moving
        }
    }

    fn schedule(&mut self) {
        let is_map = self.is_map();
        let Some(worker) = self.worker.as_mut() else { return };
        if self.ruleset.shape() == Shape::Board {
            return; // a Cram ruleset has no map: the Cram board tab shows it
        }
        if !is_map {
            if self.sequence.is_none()
                && !worker.is_running(Lane::Map)
                && self.status.is_none()
                && sequence::is_one_heap(&self.ruleset)
            {
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
        if self.layout == Layout::Plain
            && !grid::has_fast_fill(&self.ruleset)
            && self.ruleset.shape() == Shape::ThreeHeaps
        {
            self.status = Some(format!(
                "{} is played on three heaps: enter a slice such as 1,_,_",
                self.ruleset
            ));
            return;
        }
        let view = self.map_state.visible_tiles(MAX_MAP);
        let ask = |worker: &mut Worker,
                   lane: Lane,
                   store: &mut TileStore,
                   limit: u64,
                   ruleset: &Ruleset,
                   filled: &dyn Fn(TileKey) -> bool| {
            store.tick();
            store.touch(&view);
            let missing: Vec<TileKey> = view
                .iter()
                .copied()
                .filter(|&k| !store.contains(k) && k.reach() < limit && filled(k))
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
            let current = worker.running().find(|r| r.lane == lane).map(|r| match &r.spec {
                JobSpec::Tiles { tiles, .. } => tiles.iter().any(|k| view.contains(k)),
                _ => true,
            });
            if current != Some(true) {
                worker.submit(
                    lane,
                    JobSpec::Tiles {
                        ruleset: ruleset.clone(),
                        layout: self.layout.clone(),
                        tiles: missing,
                    },
                );
            }
            None
        };
        let mut notice = ask(
            worker,
            Lane::Map,
            &mut self.map,
            self.map_limit[0],
            &self.ruleset,
            &|_| true,
        );
        if self.map_state.color == ColorMode::Difference && self.panel.compare_theorem.is_none() {
            let Ok(other) = self.panel.compare.parse::<Ruleset>() else {
                return;
            };
            if self.compare_ruleset.as_ref() != Some(&other) {
                self.compare_map.clear();
                self.map_limit[1] = u64::MAX;
                self.compare_ruleset = Some(other.clone());
            }
            let main = &self.map;
            let n = ask(
                worker,
                Lane::Compare,
                &mut self.compare_map,
                self.map_limit[1],
                &other,
                &|k| main.contains(k),
            );
            notice = notice.or(n);
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
        egui::Panel::left("rulesets")
            .default_size(theme::SIDE_PANEL_WIDTH)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    if let PanelAction::Apply(r) = ruleset_panel::ruleset_panel_ui(ui, &mut self.panel) {
                        self.set_ruleset(r);
                    }
                });
            });
        egui::Panel::right("inspector")
            .default_size(theme::SIDE_PANEL_WIDTH + 80.0)
            .show(ui, |ui| {
                let cell = |h: HoveredCell| CellInfo {
                    a: h.a,
                    b: h.b,
                    value: h.value,
                };
                inspector_panel::inspector_ui(ui, &mut self.inspector, &self.ruleset, self.hovered.map(cell));
            });
        egui::CentralPanel::default().show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.selectable_value(&mut self.central_tab, CentralTab::ValueMap, "Value map");
                ui.selectable_value(&mut self.central_tab, CentralTab::CramBoard, "Cram board");
            });
            if self.central_tab == CentralTab::CramBoard {
                let searched = self.worker.as_ref().and_then(|w| {
                    w.running()
                        .find(|r| r.lane == Lane::Cram)
                        .map(|r| r.control.progress().0)
                });
                cram_editor::cram_editor_ui(ui, &mut self.cram_editor, searched);
            } else if self.ruleset.shape() == Shape::Board {
                ui.label("Cram rulesets are played on a board: open the Cram board tab.");
            } else if self.is_map() {
                let compare = match self.panel.compare_theorem {
                    Some(p) => Compare::Theorem(p),
                    None if self.compare_map.is_empty() => Compare::Nothing,
                    None => Compare::Map(&self.compare_map),
                };
                let response = canvas::map_ui(ui, &mut self.map_state, &self.map, compare);
                self.hovered = response.hovered;
                if response.clicked && self.hovered.is_some() {
                    self.selected = self.hovered;
                    if let Some(h) = self.hovered {
                        let p = self.layout.position(&self.ruleset, h.a, h.b);
                        self.inspector.doc.typed = p.to_string();
                        self.inspector.select_typed(&self.ruleset);
                    }
                }
                let marks = self.inspector.map_marks(&self.layout, &self.ruleset);
                canvas::marks_ui(ui, &self.map_state, marks.selected, &marks.options);
            } else if let Some(s) = self.sequence.clone() {
                let (selected, options) = self.inspector.strip_marks();
                let marks = sequence_view::StripMarks { selected, options };
                if let Some(n) = sequence_view::sequence_ui(ui, &s, self.map_state.color, &marks) {
                    self.inspector.doc.typed = n.to_string();
                    self.inspector.select_typed(&self.ruleset);
                }
            } else {
                ui.label("computing the sequence…");
            }
        });
        if self.show_about {
            let mut open = true;
            egui::Window::new("About nimscope")
                .open(&mut open)
                .show(ui.ctx(), |ui| {
                    ui.label(format!("nimscope {}", crate::GIT_COMMIT_VERSION));
                    ui.label("An explorer for impartial combinatorial games.");
                });
            self.show_about = open;
        }
    }

    fn shortcuts_ui(&mut self, ctx: &egui::Context) {
        if ctx.input_mut(|i| i.consume_key(egui::Modifiers::COMMAND, egui::Key::Q)) {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
        self.file_shortcuts_ui(ctx);
        self.inspector.keyboard_ui(ctx); // takes the arrows while the pointer is over the inspector
        let fit = self.map.extent().clamp(FIRST_MAP, MAX_MAP) as f64;
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
                    let n = self.map.extent().clamp(FIRST_MAP, MAX_MAP) as f64;
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
                if ui.button("About nimscope").clicked() {
                    self.show_about = true;
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
            if let Some(s) = &self.status {
                ui.colored_label(theme::ERROR_TEXT, s);
            } else if !notice::notice_ui(ui, self.notice.as_ref())
                && let Some(h) = self.hovered
            {
                ui.label(inspector_panel::describe(&CellInfo {
                    a: h.a,
                    b: h.b,
                    value: h.value,
                }));
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
    eframe::run_native("nimscope", options, Box::new(move |_cc| Ok(Box::new(app))))
        .map_err(|e| format!("could not open the window: {e}"))
}
