//! The window ([`App`]): the parts it is made of, each owning its state behind its own `ui`
//! (the ruleset panel, the inspector, the Cram board editor and the quotient window in
//! [`crate::ui::panels`]; the value map and sequence in [`map_view`], the session's files and
//! File menu in [`files`], the Export window in [`export`], the room and looks in [`room`],
//! the status bar in [`status_bar`], Help in [`help`]), and the app that lays them out, routes
//! what they ask for ([`action::Action`]) and keeps what they share: the ruleset shown with its
//! layout and tab (asked [`Presentation::shown`] once for "map, sequence or board?"), the
//! session's region and figure style, the worker. The app's own work is split by what it does:
//! here its state and the routing of actions; what a frame draws in [`frame`]; each frame's
//! traffic with the worker (and eframe's entry points) in [`jobs`]; the session as a document,
//! its files and exports in [`session_io`]. Starting the window is in [`window`].

pub mod action;
pub mod export;
pub mod file_prompt;
pub mod files;
mod frame;
pub mod help;
mod jobs;
pub mod map_layer;
pub mod map_view;
pub mod notice;
pub mod room;
mod session_io;
pub mod status_bar;
mod window;

pub use action::{Action, AfterSaving};
pub use map_layer::{MapLayer, MapStatus, Scale};
pub use room::{MIN_MAP_WIDTH, PanelsShown};
pub use window::{NO_DISPLAY, WindowOptions, run_window};

use std::path::Path;

use crate::ui::app::export::ExportWindow;
use crate::ui::app::files::SessionFiles;
use crate::ui::app::help::Help;
use crate::ui::app::map_view::MapView;
use crate::ui::app::notice::Notice;
use crate::ui::app::room::Room;
use crate::ui::canvas::MapState;
use crate::ui::panels::cram_editor::CramEditor;
use crate::ui::panels::inspector::InspectorState;
use crate::ui::panels::quotient_view::QuotientView;
use crate::ui::panels::ruleset_panel::RulesetPanel;
use crate::ui::trace::Trace;
use crate::worker::{Lane, Worker};
use nimscope_core::camera::CellRect;
use nimscope_core::figure::FigureStyle;
use nimscope_core::game::{CentralTab, Layout, Presentation, Ruleset};
use nimscope_core::raster::{CompareWith, RangeTop};

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
            Action::ResumeCentre => self.map.resume(),
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
}
