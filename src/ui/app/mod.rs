//! The window's state ([`App`]) and what it is made of: the map layer ([`map_layer`]), the
//! work between frames ([`logic`]: drain results, schedule jobs), where things go ([`layout`]),
//! menus, shortcuts and the status bar ([`chrome`]), and starting the window ([`window`]). The
//! `*_ui` functions draw and record what the user asked for; `logic` does the work.

mod chrome;
pub mod file_prompt;
pub mod help;
pub mod layout;
mod logic;
mod map_layer;
pub mod notice;
pub mod prefs;
pub mod session_ui;
mod window;

pub use layout::{MIN_MAP_WIDTH, PanelsShown};
pub use map_layer::{MapLayer, MapStatus, Scale};
pub use window::{WindowOptions, run_window};

use std::sync::Arc;
use std::time::Duration;

use crate::ui::canvas::{HoveredCell, MapProgress, MapState};
use crate::ui::panels::cram_editor::CramEditor;
use crate::ui::panels::inspector::InspectorState;
use crate::ui::panels::ruleset_panel::RulesetPanel;
use crate::ui::trace::Trace;
use crate::worker::{Lane, Worker};
use nimscope_core::game::{Layout, Presentation, Ruleset};
use nimscope_core::raster::CompareWith;
use nimscope_core::session::CentralTab;
use nimscope_core::solver::sequence::Sequence;
use notice::Notice;

/// A filled map covers rows and columns below this (the worker's memory budget may stop it
/// sooner).
const MAX_MAP: u64 = 1 << 16;
/// A map computed cell by cell from its closed form covers rows and columns below this.
const MAX_DIRECT_MAP: u64 = nimscope_core::solver::tiles::MAX_VIEW;

/// How far a map of `ruleset` under `layout` goes, `outcome_form`: in a colour mode that takes
/// the outcomes' own closed form ([`ColorMode::has_outcome_form`]).
fn far_limit(ruleset: &Ruleset, layout: &Layout, outcome_form: bool) -> u64 {
    if nimscope_core::solver::grid::CellForm::of(ruleset, layout).is_some() || outcome_form {
        MAX_DIRECT_MAP
    } else {
        MAX_MAP
    }
}
/// While the view keeps changing (a drag, a zoom), a new map job at most this often: each one
/// supersedes the last, so asking every frame would leave the worker no time to compute.
const RESUBMIT_AFTER: Duration = Duration::from_millis(150);
/// Length of the sequence shown for one-heap rulesets, unless a session says otherwise.
const SEQUENCE_LEN: u64 = 600;
/// Time a frame may spend taking results from the worker.
const DRAIN_BUDGET: Duration = Duration::from_millis(10);

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
    /// The longest sequence computed for the current ruleset: a shorter length is its prefix.
    sequence_computed: Option<Arc<Sequence>>,
    /// Heaps of the one-heap view: G(0..sequence_len) (a session's `sequence_len`).
    pub sequence_len: u64,
    /// The length the worker was last asked for (for the current ruleset).
    sequence_asked: Option<u64>,
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
    /// UI scale, theme, side panels (kept between runs).
    pub prefs: prefs::Prefs,
    prefs_applied: bool,
    /// The side panels drawn in the last frame.
    pub panels_shown: layout::PanelsShown,
    /// The side panel the user last asked to see: it stays, even where the room would fold it
    /// (the other folds first).
    pub(super) insist: Option<prefs::Side>,
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
            sequence_computed: None,
            sequence_len: SEQUENCE_LEN,
            sequence_asked: None,
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
            prefs: prefs::Prefs::default(),
            prefs_applied: false,
            panels_shown: layout::PanelsShown::default(),
            insist: None,
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
        if let Some(rules) = r.cram_game() {
            self.central_tab = CentralTab::CramBoard;
            self.cram_editor.model.set_rules(rules);
        }
        if r != self.ruleset {
            // a title typed for (or saved with) another ruleset would name the wrong game: the
            // figure of the new one is titled by its ruleset until the user types another
            self.sessions.figure.title.clear();
        }
        self.ruleset = r;
        self.map.clear();
        // The progress counted last frame is the old map's: until the next frame counts the
        // new one, the map is not complete (a test waiting for it saw the old map "complete"
        // when the worker had filled it within the first frame).
        self.map_progress = MapProgress::default();
        self.sequence = None;
        self.sequence_computed = None;
        self.sequence_asked = None;
        if let Some(w) = &mut self.worker {
            w.cancel(Lane::Map);
        }
    }

    /// The top of the Grundy colours the window draws with now (and its figures take).
    pub fn color_top(&self) -> nimscope_core::raster::RangeTop {
        self.map.range_top(self.sessions.figure.range)
    }

    pub fn worker(&self) -> Option<&Worker> {
        self.worker.as_ref()
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
        self.map.asked = None;
        self.status = MapStatus::Cancelled {
            camera: self.map_state.camera,
            color: self.map_state.color,
        };
        self.notice = Some(Notice::done(
            "cancelled: the map goes on when you pan, zoom or change the colours".into(),
        ));
    }
}
