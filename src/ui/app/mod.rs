//! The window ([`App`]): the parts it is made of, each owning its state behind its own `ui`
//! (the ruleset panel, the inspector, the Cram board editor and the quotient window in
//! [`crate::ui::panels`]; the value map and sequence in [`map_view`], the session's files and
//! File menu in [`files`], the Export window in [`export`], the room and looks in [`room`],
//! the status bar in [`status_bar`], Help in [`help`]), and the app that lays them out, routes
//! what they ask for ([`action::Action`]) and keeps what they share: the ruleset shown with its
//! layout and tab (asked [`Presentation::shown`] once for "map, sequence or board?"), the
//! session's region and figure style, the worker. Every `impl App` is in this file; starting the
//! window is in [`window`].

pub mod action;
pub mod export;
pub mod file_prompt;
pub mod files;
pub mod help;
pub mod map_layer;
pub mod map_view;
pub mod notice;
pub mod room;
pub mod status_bar;
mod window;

pub use action::{Action, AfterSaving};
pub use map_layer::{MapLayer, MapStatus, Scale};
pub use room::{MIN_MAP_WIDTH, PanelsShown};
pub use window::{NO_DISPLAY, WindowOptions, run_window};

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use crate::ui::app::export::{ExportContext, ExportWindow, export_notice, figure_spec};
use crate::ui::app::files::{SessionFiles, is_example};
use crate::ui::app::help::Help;
use crate::ui::app::map_view::{MapInputs, MapView};
use crate::ui::app::notice::Notice;
use crate::ui::app::room::Room;
use crate::ui::app::status_bar::StatusBar;
use crate::ui::canvas::sequence_view::StripMarks;
use crate::ui::canvas::{Camera, MapState};
use crate::ui::panels::cram_editor::CramEditor;
use crate::ui::panels::inspector::InspectorState;
use crate::ui::panels::quotient_view::QuotientView;
use crate::ui::panels::ruleset_panel::{PanelAction, RulesetPanel};
use crate::ui::theme;
use crate::ui::trace::{FrameTimer, Trace};
use crate::worker::{JobSpec, Lane, Output, Worker};
use nimscope_core::camera::CellRect;
use nimscope_core::figure::{FigureSpec, FigureStyle};
use nimscope_core::game::{CentralTab, Layout, Position, Presentation, Ruleset};
use nimscope_core::raster::{ColorMode, CompareWith, RangeTop};
use nimscope_core::session::{Session, WindowState};
use nimscope_core::solver::tiles::PooledRegion;

/// The height of the menu bar and the View menu's margins, in points: the menu's scrolling
/// part takes the rest of the window's height.
const MENU_BAR_ROOM: f32 = 48.0;

/// Time a frame may spend taking results from the worker.
const DRAIN_BUDGET: Duration = Duration::from_millis(10);

/// What the centre of the window shows (the figure of the session shows the same: both ask
/// [`Presentation::shown`]).
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

/// The whole window: its parts and what they share.
pub struct App {
    /// The ruleset panel on the left (with the rule editor).
    rulesets: RulesetPanel,
    /// The ruleset shown, its layout, and the centre's tab.
    ruleset: Ruleset,
    layout: Layout,
    tab: CentralTab,
    /// The session's own region of cells (from its file, or as saved); `None` for a session
    /// never saved, whose region is the visible one. Looking around never changes it.
    region: Option<CellRect>,
    /// The session's figure style (its colour range and pooling are the map's too).
    figure: FigureStyle,
    /// The value map tab: the map or the sequence.
    map: MapView,
    /// The inspector on the right (selected position, move tree, play mode).
    inspector: InspectorState,
    /// The Cram board tab.
    cram_editor: CramEditor,
    /// The misère quotient window (misère octal games).
    quotient: QuotientView,
    /// The session's file, notes, the File menu's dialogs and the window's own state.
    files: SessionFiles,
    /// The Export figure window.
    export: ExportWindow,
    help: Help,
    /// The preferences and the side panels' room.
    room: Room,
    /// On the Cram board tab, the ruleset panel is shown beside the board (hidden by default).
    rulesets_beside_board: bool,
    /// A passing message (files, evicted tiles), shown when the map has no trouble to say.
    notice: Option<Notice>,
    worker: Option<Worker>,
    memory_budget: u64,
    /// `NIMSCOPE_TRACE`: one line a frame.
    trace: Option<Trace>,
    /// Whether the window is drawn by a software renderer (lavapipe, llvmpipe: a virtual
    /// display, a machine without a GPU driver), known from the first frame: each of its frames
    /// costs the CPU several hundredths of a second, taken from the solver.
    software_renderer: Option<bool>,
}

impl App {
    /// A window on Wythoff's map, whose jobs may each use `memory_budget` bytes.
    pub fn new(memory_budget: u64) -> Self {
        let mut app = Self {
            rulesets: RulesetPanel::default(),
            ruleset: Ruleset::Wythoff,
            layout: Layout::Plain,
            tab: CentralTab::default(),
            region: None,
            figure: FigureStyle::default(),
            map: MapView::new(memory_budget),
            inspector: InspectorState::default(),
            cram_editor: CramEditor::default(),
            quotient: QuotientView::default(),
            files: SessionFiles::default(),
            export: ExportWindow::default(),
            help: Help::default(),
            room: Room::default(),
            rulesets_beside_board: false,
            notice: None,
            worker: None,
            memory_budget,
            trace: None,
            software_renderer: None,
        };
        app.mark_clean(); // nothing to save until the user changes something
        app
    }

    /// The ruleset shown.
    pub fn ruleset(&self) -> &Ruleset {
        &self.ruleset
    }

    /// How the map lays out the ruleset's positions.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The centre's tab.
    pub fn central_tab(&self) -> CentralTab {
        self.tab
    }

    /// Chooses the centre's tab.
    pub fn set_central_tab(&mut self, tab: CentralTab) {
        self.tab = tab;
    }

    /// How the session is shown: the one decision the centre, the map jobs and the figures
    /// share ([`Presentation::shown`]).
    pub fn presentation(&self) -> Presentation {
        Presentation::shown(&self.ruleset, &self.layout, self.tab)
    }

    /// What the centre shows: the presentation, a message where there is no picture.
    pub fn central_view(&self) -> CentralView {
        match self.presentation() {
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

    /// The ruleset panel.
    pub fn ruleset_panel(&self) -> &RulesetPanel {
        &self.rulesets
    }

    /// The ruleset panel, to type into it.
    pub fn ruleset_panel_mut(&mut self) -> &mut RulesetPanel {
        &mut self.rulesets
    }

    /// The value map tab (the map and the sequence).
    pub fn map(&self) -> &MapView {
        &self.map
    }

    /// The value map tab, to change its view.
    pub fn map_mut(&mut self) -> &mut MapView {
        &mut self.map
    }

    /// The map's camera, colours and overlays.
    pub fn map_state(&self) -> &MapState {
        self.map.state()
    }

    /// The map's camera, colours and overlays, to change.
    pub fn map_state_mut(&mut self) -> &mut MapState {
        self.map.state_mut()
    }

    /// The inspector.
    pub fn inspector(&self) -> &InspectorState {
        &self.inspector
    }

    /// The inspector, to select or play.
    pub fn inspector_mut(&mut self) -> &mut InspectorState {
        &mut self.inspector
    }

    /// The Cram board editor.
    pub fn cram_editor(&self) -> &CramEditor {
        &self.cram_editor
    }

    /// The Cram board editor, to edit the board.
    pub fn cram_editor_mut(&mut self) -> &mut CramEditor {
        &mut self.cram_editor
    }

    /// The misère quotient window.
    pub fn quotient(&self) -> &QuotientView {
        &self.quotient
    }

    /// The misère quotient window, to start or cancel its job.
    pub fn quotient_mut(&mut self) -> &mut QuotientView {
        &mut self.quotient
    }

    /// The session's files, notes and File dialogs.
    pub fn files(&self) -> &SessionFiles {
        &self.files
    }

    /// The session's files, notes and File dialogs, to change.
    pub fn files_mut(&mut self) -> &mut SessionFiles {
        &mut self.files
    }

    /// The Export figure window.
    pub fn export_window(&self) -> &ExportWindow {
        &self.export
    }

    /// The Export figure window, to choose what it exports.
    pub fn export_window_mut(&mut self) -> &mut ExportWindow {
        &mut self.export
    }

    /// The Help window.
    pub fn help(&self) -> &Help {
        &self.help
    }

    /// The Help window, to open it.
    pub fn help_mut(&mut self) -> &mut Help {
        &mut self.help
    }

    /// The preferences and the side panels' room.
    pub fn room(&self) -> &Room {
        &self.room
    }

    /// The session's figure style.
    pub fn figure_style(&self) -> &FigureStyle {
        &self.figure
    }

    /// The session's figure style, to change.
    pub fn figure_style_mut(&mut self) -> &mut FigureStyle {
        &mut self.figure
    }

    /// The session's own region, if it has one.
    pub fn region(&self) -> Option<&CellRect> {
        self.region.as_ref()
    }

    /// Makes `region` the session's own (what "Fit" comes back to, and the figure's).
    pub fn set_region(&mut self, region: CellRect) {
        self.region = Some(region);
    }

    /// The passing message of the status bar, if any.
    pub fn notice(&self) -> Option<&Notice> {
        self.notice.as_ref()
    }

    /// The worker, once the first frame started it.
    pub fn worker(&self) -> Option<&Worker> {
        self.worker.as_ref()
    }

    /// Records one line a frame (`NIMSCOPE_TRACE`).
    pub fn set_trace(&mut self, trace: Option<Trace>) {
        self.trace = trace;
    }

    /// What the difference mode compares the map with, as the ruleset panel says.
    pub fn compare_with(&self) -> CompareWith {
        self.rulesets.comparison().with()
    }

    /// The top of the Grundy colours the window draws with now (and its figures take).
    pub fn color_top(&self) -> RangeTop {
        self.map.color_top(self.figure.range)
    }

    /// Whether every cell in view has its final value and colour (the trace's map-complete).
    pub fn map_complete(&self) -> bool {
        matches!(self.central_view(), CentralView::Map(_)) && self.map.complete()
    }

    /// Switches to a ruleset: the panel shows it, the old values are forgotten and the map
    /// starts over from the origin.
    pub fn set_ruleset(&mut self, r: Ruleset) {
        self.layout = self.rulesets.show(&r);
        if let Some(rules) = r.cram_game() {
            self.tab = CentralTab::CramBoard;
            self.cram_editor.model.set_rules(rules);
        }
        if r != self.ruleset {
            // a title typed for (or saved with) another ruleset would name the wrong game: the
            // figure of the new one is titled by its ruleset until the user types another
            self.figure.title.clear();
        }
        self.ruleset = r;
        self.map.clear();
        if let Some(w) = &mut self.worker {
            w.cancel(Lane::Map);
        }
    }

    /// Stops every running job and gives back what the solver threads keep (the status bar's
    /// Cancel). The map waits until the view or the colours change; the inspector until the
    /// user asks for a position again.
    pub fn cancel_jobs(&mut self) {
        if let Some(w) = &mut self.worker {
            for lane in [Lane::Map, Lane::Cram, Lane::Export, Lane::Quotient] {
                w.cancel_and_free(lane);
            }
            self.inspector.cancel(w);
        }
        self.map.cancel();
        self.notice = Some(Notice::done(
            "cancelled: the map goes on when you pan, zoom or change the colours".into(),
        ));
    }

    /// Does what a part asked for.
    pub fn route(&mut self, action: Action) {
        match action {
            Action::None => {}
            Action::CancelJobs => self.cancel_jobs(),
            Action::Open(path) => self.request_open(path),
            Action::OpenNow(path) => self.open_now(path),
            Action::Save(then) => match self.files.path().map(Path::to_path_buf) {
                Some(path) => match self.save_session(&path) {
                    Ok(()) => {
                        let next = self.files.after_saving(then);
                        self.route(next);
                    }
                    Err(e) => self.notice = Some(Notice::error(e)),
                },
                None => self.files.save_as_prompt(then),
            },
            Action::SaveAs(then) => self.files.save_as_prompt(then),
            Action::SaveTo(path, then) => match self.save_session(&path) {
                Ok(()) => {
                    self.files.prompt_done();
                    let next = self.files.after_saving(then);
                    self.route(next);
                }
                Err(e) => self.files.prompt_failed(e),
            },
            Action::ShowExport => self.export.show(true),
            Action::ExportTo(path) => {
                if let Err(e) = self.export_figure(&path) {
                    let message = format!("export: {e}");
                    self.export.failed(message.clone());
                    self.notice = Some(Notice::error(message));
                }
            }
            Action::CsvPrompt => self.files.csv_prompt(),
            Action::CsvTo(path) => match self.export_csv(&path) {
                Ok(()) => self.files.prompt_done(),
                Err(e) => self.files.prompt_failed(e),
            },
            Action::WriteState => self.write_window_state(),
        }
    }

    /// Takes the worker's results and asks for what the view still lacks. eframe calls it
    /// (through `logic`) before every frame and while the window is hidden, so results and
    /// exports go on while it is minimised; a test harness that drives `ui_root` calls it first.
    pub fn advance(&mut self, ctx: &egui::Context) {
        let worker = self.worker.get_or_insert_with(|| {
            theme::apply(ctx); // the first frame: the window's text sizes
            let ctx = ctx.clone();
            // a map's batches come many a second: their frames are a few a second at most; a
            // finished job is shown at once (the status bar, the map complete, the sequence)
            let wake = move |last: bool| {
                if last {
                    crate::ui::repaint_once(&ctx);
                } else {
                    crate::ui::wake_soon(&ctx);
                }
            };
            Worker::new(Arc::new(wake), self.memory_budget)
        });
        let (mut exports, mut maps) = (Vec::new(), Vec::new());
        for resp in worker.drain(DRAIN_BUDGET) {
            match resp.lane {
                Lane::Cram => self.cram_editor.receive(&resp.spec, resp.result),
                Lane::Inspector => self.inspector.on_response(resp),
                Lane::Export => exports.push(resp),
                Lane::Map => maps.push(resp),
                Lane::Quotient => self.quotient.on_response(resp),
            }
        }
        for resp in maps {
            if let (Some(t), Ok(Output::Tiles(batch))) = (&mut self.trace, &resp.result) {
                let event = if resp.last { "map-done" } else { "map-batch" };
                t.map_event(event, batch.tiles.len() as u64);
            }
            if let Some(n) = self.map.on_response(resp, &mut self.figure) {
                self.notice = Some(n);
            }
        }
        for resp in exports {
            if let Some(n) = export_notice(resp) {
                self.notice = Some(n);
            }
        }
        let Some(worker) = self.worker.as_mut() else { return };
        if self.tab == CentralTab::CramBoard {
            self.cram_editor.logic(worker);
        }
        self.inspector.logic(&self.ruleset, worker);
        self.quotient.logic(&self.ruleset, worker);
        if self.map.still_cancelled() {
            return; // the user stopped the work: wait for the next change of view or ruleset
        }
        self.schedule(ctx);
        // The map's batches wake the window themselves; other jobs report progress only
        // through their counters, read when a frame is drawn.
        if self
            .worker
            .as_ref()
            .is_some_and(|w| w.running().any(|r| r.lane != Lane::Map))
        {
            ctx.request_repaint_after(crate::ui::PROGRESS_INTERVAL);
        }
    }

    /// Asks the worker for what the centre shows and lacks.
    fn schedule(&mut self, ctx: &egui::Context) {
        let view = self.central_view();
        let compare = self.compare_with();
        let Some(worker) = self.worker.as_mut() else { return };
        match view {
            CentralView::Board => {}
            CentralView::Message(why) => self.map.no_picture(why),
            CentralView::Sequence => self.map.schedule_sequence(worker, &self.ruleset),
            CentralView::Map(layout) => {
                let rules = (&self.ruleset, &layout);
                let figure = (self.figure.pooling, self.region.as_ref());
                let asked = self.map.schedule_map(ctx, worker, rules, &compare, figure);
                if let Some(n) = asked.notice {
                    notice::notify(&mut self.notice, n);
                }
                if let (Some(t), Some(cells)) = (&mut self.trace, asked.submitted) {
                    t.map_event("map-job", cells);
                }
            }
        }
    }

    /// Everything drawn in one frame (also what the behaviour tests drive).
    pub fn ui_root(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        self.shortcuts_ui(&ctx);
        let view = self.central_view();
        // the panels drawn before the map name the cell under the pointer now, and the status
        // bar counts the tiles just received
        self.map
            .before_panels(&ctx, matches!(view, CentralView::Map(_)), self.region.clone());
        let dirty = self.has_unsaved_changes();
        let files = self.files.windows_ui(&ctx, dirty);
        self.route(files);
        self.export_window_ui(&ctx);
        egui::Panel::top("menu").show(ui, |ui| self.menu_bar_ui(ui));
        // one height whatever it shows (a progress bar, a button), so the map never jumps
        let status_h = ui.spacing().interact_size.y + 2.0 * ui.spacing().item_spacing.y + 4.0;
        egui::Panel::bottom("status")
            .exact_size(status_h)
            .show(ui, |ui| self.status_bar_ui(ui, &view));
        self.side_panels_ui(ui, &view);
        egui::CentralPanel::default().show(ui, |ui| self.central_ui(ui));
        self.help.ui(&ctx);
        self.quotient.ui(&ctx, &self.ruleset);
    }

    /// The window's keys: Ctrl+Q, the preferences' keys, Escape, the File menu's shortcuts,
    /// the inspector's arrows (while the pointer is over it) and the map's keys.
    fn shortcuts_ui(&mut self, ctx: &egui::Context) {
        if ctx.input_mut(|i| i.consume_key(egui::Modifiers::COMMAND, egui::Key::Q)) {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
        if let Some(scale) = self.room.keys_ui(ctx) {
            self.map.state_mut().zoom_restored = Some(scale);
        }
        // Escape closes the windows over the map (the file prompts and the unsaved-changes
        // question close on it themselves, as Cancel)
        if !self.files.modal_open() && ctx.input(|i| i.key_pressed(egui::Key::Escape)) {
            self.help.close();
            self.export.show(false);
            self.files.show_notes(false);
            self.quotient.open = false;
        }
        let files = self.files.shortcuts_ui(ctx);
        self.route(files);
        self.inspector.keyboard_ui(ctx); // the arrows, while the pointer is over the inspector
        self.map.keyboard_ui(ctx);
    }

    /// The menu bar: File, View (the looks first, as a projector needs them, then the map's
    /// entries; it scrolls where the screen is short) and Help.
    fn menu_bar_ui(&mut self, ui: &mut egui::Ui) {
        use egui::{Key, Modifiers};
        let csv = matches!(self.presentation(), Presentation::Map(_));
        // the menus by keyboard: F10 or Alt+F gives the File menu the focus, Alt+V the View
        // menu, Alt+H Help; Enter opens the focused menu
        let [to_file, to_view, to_help] = ui.input_mut(|i| {
            [
                i.consume_key(Modifiers::NONE, Key::F10) || i.consume_key(Modifiers::ALT, Key::F),
                i.consume_key(Modifiers::ALT, Key::V),
                i.consume_key(Modifiers::ALT, Key::H),
            ]
        });
        egui::MenuBar::new().ui(ui, |ui| {
            let file = ui.menu_button("File", |ui| {
                let action = self.files.menu_ui(ui, csv);
                self.route(action);
            });
            // the View menu holds fields (the colours' top): it stays open while they are
            // clicked and typed into, and closes on a click outside it or Escape
            let stays_open =
                egui::containers::menu::MenuConfig::new().close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside);
            let (view, _) = egui::containers::menu::MenuButton::new("View")
                .config(stays_open)
                .ui(ui, |ui| self.view_menu_ui(ui));
            let help = ui.menu_button("Help", |ui| self.help.menu_ui(ui));
            for (to, button) in [(to_file, &file.response), (to_view, &view), (to_help, &help.response)] {
                if to {
                    button.request_focus();
                }
            }
        });
    }

    /// The View menu: the looks, then the map's entries, in a part that scrolls where the
    /// window is short.
    fn view_menu_ui(&mut self, ui: &mut egui::Ui) {
        // the window's height below the menu bar (the popup's own position is not known yet
        // while it is sized: a room taken from it cut the menu at half the window's height)
        let room = (ui.ctx().content_rect().height() - MENU_BAR_ROOM).max(120.0);
        // A popup is sized within egui's default area (400 points high) unless its content
        // asks for more: the menu asks for its content's height (as of the last frame) up to
        // the room, or it scrolled at half a 1280 × 800 window's height and seemed to end at
        // the colour range
        let tall = egui::Id::unique("view menu content height");
        let content = ui.ctx().data(|d| d.get_temp::<f32>(tall)).unwrap_or(room);
        ui.set_min_height(content.min(room));
        let shown = egui::ScrollArea::vertical()
            .max_height(room)
            .scroll_bar_visibility(egui::scroll_area::ScrollBarVisibility::AlwaysVisible)
            .show(ui, |ui| {
                self.room.menu_ui(ui);
                ui.separator();
                self.map.menu_ui(ui, &mut self.figure, self.region.as_ref());
            });
        ui.ctx().data_mut(|d| d.insert_temp(tall, shown.content_size.y));
    }

    /// The status bar.
    fn status_bar_ui(&mut self, ui: &mut egui::Ui, view: &CentralView) {
        let running = self.worker.as_ref().is_some_and(|w| w.is_running(Lane::Map));
        let map_text = match view {
            CentralView::Map(_) => self.map.progress_text(running),
            _ => None,
        };
        let bar = StatusBar {
            worker: self.worker.as_ref(),
            map_text,
            progress: self.map.progress(),
            status: self.map.status_text(),
            notice: self.notice.as_ref(),
            hovered: self.map.hovered(),
        };
        let action = bar.ui(ui);
        self.route(action);
    }

    /// The ruleset panel on the left and the inspector on the right, where there is room (the
    /// board editor has its own report column: the side panels give it their room, the
    /// rulesets coming back on demand to leave a Cram ruleset).
    fn side_panels_ui(&mut self, ui: &mut egui::Ui, view: &CentralView) {
        let on_board = *view == CentralView::Board;
        let width = ui.ctx().content_rect().width();
        let room = self
            .room
            .measure(width, (!on_board || self.rulesets_beside_board, !on_board));
        if let Some(range) = room.rulesets {
            egui::Panel::left("rulesets")
                .default_size(theme::SIDE_PANEL_WIDTH.clamp(*range.start(), *range.end()))
                .size_range(range)
                .show(ui, |ui| {
                    egui::ScrollArea::vertical().show(ui, |ui| {
                        let compare = self.map.state().color == ColorMode::Difference;
                        if let PanelAction::Apply(r) = self.rulesets.ui(ui, compare) {
                            self.set_ruleset(r);
                        }
                    });
                });
        }
        if let Some(range) = room.inspector {
            let map_layout = match view {
                CentralView::Map(layout) => Some(layout),
                _ => None,
            };
            // a range, and content that scrolls rather than pushes: the panel never grows to
            // its widest line and squeezes the map
            egui::Panel::right("inspector")
                .default_size(theme::INSPECTOR_WIDTH.clamp(*range.start(), *range.end()))
                .size_range(range)
                .show(ui, |ui| {
                    let (map, ruleset) = (&self.map, &self.ruleset);
                    let from_map = |p: &Position| map_layout.and_then(|layout| map.value_of(ruleset, layout, p));
                    self.inspector.ui(ui, &self.ruleset, self.map.hovered(), &from_map);
                });
        }
    }

    /// The centre: its tabs and what the presentation shows there.
    fn central_ui(&mut self, ui: &mut egui::Ui) {
        let view = self.central_view();
        let on_board = view == CentralView::Board;
        // wrapped: on a narrow window (a large UI scale) the row never widens the map past the
        // window's edge
        ui.horizontal_wrapped(|ui| {
            let board_only = Presentation::of(&self.ruleset, &self.layout) == Presentation::Board;
            ui.add_enabled_ui(!board_only, |ui| {
                ui.selectable_value(&mut self.tab, CentralTab::ValueMap, "Value map")
                    .on_disabled_hover_text("Cram rulesets are played on a board");
            });
            ui.selectable_value(&mut self.tab, CentralTab::CramBoard, "Cram board");
            ui.separator();
            if on_board {
                let label = if self.rulesets_beside_board {
                    "Hide the rulesets"
                } else {
                    "Show the rulesets"
                };
                if ui.button(label).clicked() {
                    self.rulesets_beside_board = !self.rulesets_beside_board;
                }
            } else {
                self.room.toggles_ui(ui);
            }
        });
        // the tab chosen just now is shown in this frame
        match self.central_view() {
            CentralView::Board => {
                let searched = self.worker.as_ref().and_then(|w| {
                    w.running()
                        .find(|r| r.lane == Lane::Cram)
                        .map(|r| r.control.progress().0)
                });
                self.cram_editor.ui(ui, searched);
            }
            CentralView::Message(why) => {
                ui.add_space(24.0);
                ui.label(why);
            }
            CentralView::Map(layout) => self.map_ui(ui, &layout),
            CentralView::Sequence => {
                let (selected, options) = self.inspector.strip_marks();
                if let Some(n) = self.map.sequence_ui(ui, &StripMarks { selected, options }) {
                    self.inspector.doc.typed = n.to_string();
                    self.inspector.select_typed(&self.ruleset);
                }
            }
        }
    }

    /// The value map with the inspector's marks; a click selects the cell's position, or in a
    /// game plays the move to it.
    fn map_ui(&mut self, ui: &mut egui::Ui, layout: &Layout) {
        let compare = self.compare_with();
        let marks = self.inspector.map_marks(layout, &self.ruleset);
        let inputs = MapInputs {
            ruleset: &self.ruleset,
            layout,
            selected: marks.selected,
            options: &marks.options,
            compare: &compare,
            figure: &self.figure,
        };
        let Some(cell) = self.map.map_ui(ui, &inputs) else {
            return;
        };
        let p = layout.position(&self.ruleset, cell);
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

    /// The Export figure window, while open.
    fn export_window_ui(&mut self, ctx: &egui::Context) {
        let context = ExportContext {
            session_region: self.region.as_ref(),
            visible: self.map.visible_region(),
            level: self.map.state().level(),
            default_path: self.files.default_path("png"),
            exporting: self.worker.as_ref().is_some_and(|w| w.is_running(Lane::Export)),
        };
        let action = self.export.ui(ctx, &mut self.figure, &context);
        self.route(action);
    }

    /// Everything the user is exploring, as a session document.
    pub fn session(&self) -> Session {
        let region = self.region.clone().unwrap_or_else(|| self.map.visible_region());
        let state = self.map.state();
        Session {
            ruleset: self.ruleset.clone(),
            layout: self.layout.clone(),
            tab: self.tab,
            view: state.camera,
            rows: region.rows,
            cols: region.cols,
            sequence_len: self.map.sequence().length(),
            color: state.color,
            overlays: state.overlays,
            compare: self.rulesets.comparison(),
            inspector: self.inspector.document(),
            board: Some(self.cram_editor.document()),
            figure: self.figure.clone(),
            notes: self.files.notes().to_string(),
            ..Session::default()
        }
    }

    /// Shows `s`: the ruleset, slice, view, colours, inspector, board and notes. A session
    /// whose board does not fit the editor changes nothing.
    pub fn apply_session(&mut self, s: Session) -> Result<(), String> {
        // A hand-written file may spell the ruleset otherwise (`push(nim, euclid0)`): the
        // inspector keeps its selection only for the ruleset's own spelling.
        let name = s.ruleset.to_string();
        let board = match &s.board {
            Some(doc) => CramEditor::from_document(doc).map_err(|e| format!("board: {e}"))?,
            None => CramEditor::default(),
        };
        self.rulesets.set_slice(&s.layout.slice_text());
        self.rulesets.set_comparison(&s.compare);
        self.set_ruleset(s.ruleset);
        self.map.sequence_mut().set_length(s.sequence_len);
        self.tab = s.tab;
        let state = self.map.state_mut();
        state.camera = s.view;
        // the session's view as saved: not re-anchored to the size the previous map had (its
        // legend may have been wider)
        state.last_rect = None;
        state.color = s.color;
        state.overlays = s.overlays;
        let region = CellRect::new(s.rows.clone(), s.cols.clone());
        if s.view == Camera::default() {
            // a file without a view (written by hand): its region is shown whole
            state.show_region(region.clone());
        }
        self.region = Some(region);
        self.inspector = InspectorState::from_document(&name, s.inspector);
        self.cram_editor = board;
        self.figure = s.figure;
        self.files.set_notes(s.notes);
        // as the window represents it (a session without a board gets the editor's default)
        self.mark_clean();
        Ok(())
    }

    /// Takes what the window shows now as the state with nothing to save.
    fn mark_clean(&mut self) {
        let now = self.session();
        self.files.mark_clean(&now);
    }

    /// Whether the session differs from the file it came from (the view aside).
    pub fn has_unsaved_changes(&self) -> bool {
        self.files.is_dirty(&self.session())
    }

    /// The title the window shows.
    pub fn window_title(&self) -> &str {
        self.files.title()
    }

    /// Opens a session file; on any error the current session stays as it was.
    pub fn open_session(&mut self, path: &Path) -> Result<(), String> {
        let s = Session::load(path).map_err(|e| e.to_string())?;
        self.apply_session(s).map_err(|e| format!("{}: {e}", path.display()))?;
        self.notice = Some(self.files.opened(path));
        self.write_window_state();
        Ok(())
    }

    /// Opens `path` (`None`: the file the Open prompt gives), asking first whether to save
    /// unsaved changes: what the File menu, Open Recent and Ctrl+O do.
    pub fn request_open(&mut self, path: Option<PathBuf>) {
        let dirty = self.has_unsaved_changes();
        let action = self.files.request_open(path, dirty);
        self.route(action);
    }

    fn open_now(&mut self, path: Option<PathBuf>) {
        match path {
            Some(path) => {
                if let Err(e) = self.open_session(&path) {
                    self.notice = Some(Notice::error(e));
                }
            }
            None => self.files.open_prompt(),
        }
    }

    /// Saves the session to `path` (atomically) and makes it the session's file.
    pub fn save_session(&mut self, path: &Path) -> Result<(), String> {
        if is_example(path) {
            return Err(format!(
                "{} is one of nimscope's examples, kept as shipped: save your copy elsewhere",
                path.display()
            ));
        }
        let s = self.session();
        s.save(path).map_err(|e| e.to_string())?;
        let region = CellRect::new(s.rows.clone(), s.cols.clone());
        if s.view == Camera::default() {
            // a file without a view (written by hand): its region is shown whole
            self.map.state_mut().show_region(region.clone());
        }
        self.map.region_saved(&region);
        self.region = Some(region);
        self.notice = Some(self.files.saved_to(path, &s));
        self.write_window_state();
        Ok(())
    }

    /// Where a new file goes by default (see [`SessionFiles::default_path`]).
    pub fn default_path(&self, ext: &str) -> PathBuf {
        self.files.default_path(ext)
    }

    /// Keeps the window's own state (last session, recent files) in `dir` and restores the last
    /// session from it; the binary calls this, tests do not. A damaged last state is set aside
    /// (renamed, never deleted) and the window starts afresh, saying so: it must never stop the
    /// window from starting.
    pub fn use_state_dir(&mut self, dir: PathBuf) {
        let (mut state, problem) = WindowState::restore(&dir);
        if let Some(message) = problem {
            self.notice = Some(Notice::error(message));
        }
        if let Some(last) = state.last.clone() {
            match self.apply_session(last) {
                Ok(()) => {
                    let on_disk = state.last_path.as_deref().and_then(|p| Session::load(p).ok());
                    self.files.restored_from(state.last_path.clone(), on_disk.as_ref());
                }
                Err(e) => {
                    // kept where the autosave cannot overwrite it
                    let kept = match WindowState::set_aside(&dir) {
                        Ok(p) => format!("it is kept as {}", p.display()),
                        Err(io) => format!("it could not be set aside: {io}"),
                    };
                    let message = format!("the last session could not be restored ({e}); {kept}");
                    self.notice = Some(Notice::error(nimscope_core::game::quote::one_line(&message)));
                    state.last = None;
                    state.last_path = None;
                }
            }
        }
        self.take_state(dir, state);
    }

    /// Keeps the window's own state in `dir` without restoring the last session (the command
    /// line named what to show).
    pub fn keep_state_in(&mut self, dir: PathBuf) {
        let (state, problem) = WindowState::restore(&dir);
        if let Some(message) = problem {
            self.notice = Some(Notice::error(message)); // set aside, and said, as on a plain start
        }
        self.take_state(dir, state);
    }

    /// The user's rules and preferences of a restored state, and where to keep it.
    fn take_state(&mut self, dir: PathBuf, state: WindowState) {
        self.rulesets.set_my_rules(state.my_rules.clone());
        self.room.set_prefs(state.prefs.clone());
        self.files.keep_state_in(dir, state);
    }

    /// Writes the last state and the recent files for the next start.
    pub fn write_window_state(&mut self) {
        let session = self.session();
        if let Some(n) = self
            .files
            .write_state(session, self.rulesets.my_rules(), self.room.prefs())
        {
            self.notice = Some(n);
        }
    }

    /// The whole cells the map shows now (at least one).
    pub fn visible_region(&self) -> CellRect {
        self.map.visible_region()
    }

    /// The region a map figure exported now shows, as the export window says.
    pub fn export_region(&self) -> CellRect {
        self.export.region(self.region.as_ref(), self.map.visible_region())
    }

    /// What a figure exported now shows: the session with the export window's region, in the
    /// window's colours.
    pub fn export_spec(&self) -> Result<FigureSpec, String> {
        figure_spec(self.session(), self.export_region(), &self.map)
    }

    /// The map's blocks a figure of `spec` may draw from (see [`ExportWindow::known`]).
    pub fn export_known(&self, spec: &FigureSpec) -> Option<Arc<PooledRegion>> {
        self.export.known(spec, &self.map)
    }

    /// Starts writing the current view's figure to `path` in the background; a map shows the
    /// region the export window chose (the session's region is never changed by it). The file's
    /// extension chooses the format: `.png` or `.svg`.
    pub fn export_figure(&mut self, path: &Path) -> Result<(), String> {
        nimscope_core::figure::Format::of_path(path).map_err(|e| e.to_string())?;
        let spec = self.export_spec()?;
        let known = self.export_known(&spec);
        let worker = self.worker.as_mut().ok_or("the solver is not running yet")?;
        let path = path.to_path_buf();
        let spec = Box::new(spec);
        worker.submit(Lane::Export, JobSpec::Export { spec, path, known });
        self.notice = None;
        Ok(())
    }

    /// Writes the values of the map's visible cells to `path` as CSV (see [`export::write_csv`]).
    pub fn export_csv(&mut self, path: &Path) -> Result<(), String> {
        let Presentation::Map(layout) = self.presentation() else {
            return Err("values are written as CSV for a map of two heaps: this ruleset shows no map".into());
        };
        let region = self.visible_region();
        let rules = (&self.ruleset, &layout);
        self.notice = export::write_csv(&self.map, rules, &region, path, self.worker.as_mut())?;
        Ok(())
    }
}

impl eframe::App for App {
    /// Before every frame, and while the window is hidden when a result wakes it: results
    /// and exports go on while the window is minimised.
    fn logic(&mut self, ctx: &egui::Context, _frame: &mut eframe::Frame) {
        self.advance(ctx);
    }

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
        self.map.set_software_renderer(software);
        if let (Some(cost), Some(w)) = (frame.info().cpu_usage, &self.worker) {
            let least = if software { 1.5 } else { 0.25 };
            let every = Duration::from_secs_f32((cost * 40.0).clamp(least, 3.0));
            w.set_wake_every(every);
        }
        let waiting_for_fit = self.map.state().fit_pending();
        self.ui_root(ui);
        if waiting_for_fit && !self.map.state().fit_pending() {
            // the region asked for on start was just fitted to the map drawn in this frame: its
            // fill starts now, not a frame later (under a software renderer, a frame is 0.1 s
            // and more)
            self.schedule(ui.ctx());
        }
        if self.trace.is_some() {
            let time = timer.stop();
            let complete = self.map_complete();
            let p = self.map.progress();
            let view = self.map.state().visible_cells(self.map.limit());
            if let Some(t) = &mut self.trace {
                t.frame(time, (p.done, p.in_view), complete, &view);
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
