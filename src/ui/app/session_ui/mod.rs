//! Sessions and figures in the window: the File menu's Open, Open Recent, Save, Save As and
//! Export figure (PNG or SVG) and Export values as CSV, their shortcuts, the window title with the session's name and unsaved changes,
//! the question before closing or opening another session over unsaved changes, the notes,
//! and the last state restored on the next start. Every file action takes its path from a
//! field of its own ([`super::file_prompt`]), with the desktop's dialog as a Browse button, and
//! has a path-taking function (tests call those); nothing waits on a dialog.
//!
//! Here: the session's state, opening, saving and the last state; the menu and dialogs in
//! [`dialogs`], export in [`export`].

mod dialogs;
mod export;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::ui::app::App;
use crate::ui::app::file_prompt::{FileAction, FilePrompt};
use crate::ui::app::notice::Notice;
use crate::ui::canvas::Camera;
use crate::ui::panels::cram_editor::CramEditor;
use crate::ui::panels::inspector::InspectorState;
use nimscope_core::camera::CellRect;
use nimscope_core::figure::FigureStyle;
use nimscope_core::session::{Session, WindowState};

/// How often the last state is written for the next start while the window runs.
const AUTOSAVE_EVERY: Duration = Duration::from_secs(30);

/// What waits for the answer to "save the changes first?".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AfterSaving {
    /// Close the window.
    Close,
    /// Open a session: this file, or the one the Open prompt gives (`None`).
    Open(Option<PathBuf>),
}

/// Which cells a map figure exported from the window shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ExportRegion {
    /// The session's own region (as opened or saved); the visible cells for a new session.
    #[default]
    Session,
    /// The cells the map shows now.
    Visible,
}

/// A file action waiting for its path in a window of its own, and what follows a successful
/// save (the quit question's Save goes on to close).
pub struct PendingFile {
    pub prompt: FilePrompt,
    pub then: Option<AfterSaving>,
}

/// What the File menu and its dialogs keep between frames.
pub struct SessionState {
    /// The file the session was opened from or saved to.
    pub path: Option<PathBuf>,
    /// The example the session was opened from (kept as shipped: Save asks for a path of the
    /// user's own, outside the repository).
    pub example: Option<PathBuf>,
    /// The session as last opened or saved (view excluded), to tell unsaved changes.
    saved: Session,
    pub notes: String,
    pub figure: FigureStyle,
    pub show_notes: bool,
    pub show_export: bool,
    /// Closing or opening was asked for over unsaved changes: the question is showing.
    pub confirm: Option<AfterSaving>,
    /// Open or Save as, waiting for its path.
    pub pending: Option<PendingFile>,
    /// The export window's path (kept between openings).
    pub export_path: Option<FilePrompt>,
    /// The cells a map figure shows.
    pub export_region: ExportRegion,
    /// Whether a map figure draws what the map has filled (its blocks) rather than computing
    /// every cell again.
    pub export_from_map: bool,
    /// The session's own region of cells (from its file, or as saved); `None` for a session
    /// never saved, whose region is the visible one. Looking around never changes it.
    pub region: Option<CellRect>,
    /// The user answered the question: close for real next frame.
    close_now: bool,
    /// Closing follows a save: ask the viewport to close on the next frame.
    close_requested: bool,
    /// Where the window's own state lives (`None`: tests, nothing written).
    state_dir: Option<PathBuf>,
    window_state: WindowState,
    last_autosave: Instant,
    title: String,
}

impl Default for SessionState {
    fn default() -> Self {
        Self {
            path: None,
            example: None,
            saved: Session::default(),
            notes: String::new(),
            figure: FigureStyle::default(),
            show_notes: false,
            show_export: false,
            confirm: None,
            pending: None,
            export_path: None,
            export_region: ExportRegion::default(),
            export_from_map: true,
            region: None,
            close_now: false,
            close_requested: false,
            state_dir: None,
            window_state: WindowState::default(),
            last_autosave: Instant::now(),
            title: String::new(),
        }
    }
}

/// The session without the parts that change by merely looking around (pan and zoom), and
/// with a missing board read as the editor's default one (what the window shows for it).
fn content(s: &Session) -> Session {
    Session {
        view: Camera::default(),
        rows: 0..0,
        cols: 0..0,
        board: Some(s.board.clone().unwrap_or_default()),
        ..s.clone()
    }
}

impl App {
    /// Keeps the window's own state (last session, recent files) in `dir` and restores the last
    /// session from it; the binary calls this, tests do not.
    pub fn use_state_dir(&mut self, dir: PathBuf) {
        // A damaged last state is set aside (renamed, never deleted) and the window starts
        // afresh, saying so: it must never stop the window from starting.
        let (mut state, problem) = WindowState::restore(&dir);
        if let Some(message) = problem {
            self.notice = Some(Notice::error(message));
        }
        if let Some(last) = state.last.clone() {
            match self.apply_session(last) {
                Ok(()) => {
                    // an example comes back as an example: still kept as shipped
                    match state.last_path.clone() {
                        Some(p) if is_example(&p) => self.sessions.example = Some(p),
                        last => self.sessions.path = last,
                    }
                    if let Some(p) = &state.last_path
                        && let Ok(on_disk) = Session::load(p)
                    {
                        self.sessions.saved = content(&on_disk); // unsaved changes survive a restart
                    }
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
        self.panel.editor.my_rules = state.my_rules.clone();
        self.set_prefs(state.prefs.clone());
        self.sessions.window_state = state;
        self.sessions.state_dir = Some(dir);
    }

    /// Keeps the window's own state in `dir` without restoring the last session (the command
    /// line named what to show).
    pub fn keep_state_in(&mut self, dir: PathBuf) {
        let (state, problem) = WindowState::restore(&dir);
        if let Some(message) = problem {
            self.notice = Some(Notice::error(message)); // set aside, and said, as on a plain start
        }
        self.panel.editor.my_rules = state.my_rules.clone();
        self.set_prefs(state.prefs.clone());
        self.sessions.window_state = state;
        self.sessions.state_dir = Some(dir);
    }

    /// Everything the user is exploring, as a session document.
    pub fn session(&self) -> Session {
        let region = self.sessions.region.clone().unwrap_or_else(|| self.visible_region());
        let (rows, cols) = (region.rows, region.cols);
        Session {
            ruleset: self.ruleset.clone(),
            layout: self.layout.clone(),
            tab: self.central_tab,
            view: self.map_state.camera,
            rows,
            cols,
            sequence_len: self.sequence_len,
            color: self.map_state.color,
            overlays: self.map_state.overlays,
            compare: nimscope_core::session::Comparison {
                ruleset: self.panel.compare.trim().parse().ok(),
                theorem: self.panel.compare_theorem,
            },
            inspector: self.inspector.document(),
            board: Some(self.cram_editor.document()),
            figure: self.sessions.figure.clone(),
            notes: self.sessions.notes.clone(),
            ..Session::default()
        }
    }

    /// Shows `s`: the ruleset, slice, view, colours, inspector, board and notes. A session that
    /// does not apply (checked first) changes nothing.
    pub fn apply_session(&mut self, s: Session) -> Result<(), String> {
        let ruleset = s.ruleset.clone();
        // A hand-written file may spell the ruleset otherwise (`push(nim, euclid0)`): the
        // inspector keeps its selection only for the ruleset's own spelling.
        let name = ruleset.to_string();
        let board = match &s.board {
            Some(doc) => CramEditor::from_document(doc).map_err(|e| format!("board: {e}"))?,
            None => CramEditor::default(),
        };
        self.panel.expression = name.clone();
        self.panel.error = None;
        self.panel.set_slice(&s.layout.slice_text());
        self.panel.compare = s.compare.ruleset.as_ref().map_or_else(String::new, ToString::to_string);
        self.panel.compare_theorem = s.compare.theorem;
        self.set_ruleset(ruleset);
        self.sequence_len = s.sequence_len;
        self.central_tab = s.tab;
        self.map_state.camera = Camera {
            center_a: s.view.center_a,
            center_b: s.view.center_b,
            cells_per_point: s.view.cells_per_point,
        };
        // the session's view as saved: not re-anchored to the size the previous map had (its
        // legend may have been wider)
        self.map_state.last_rect = None;
        self.map_state.color = s.color;
        self.map_state.overlays = s.overlays;
        self.sessions.region = Some(CellRect {
            rows: s.rows.clone(),
            cols: s.cols.clone(),
        });
        if s.view == Camera::default() {
            // a file without a view (written by hand): its region is shown whole
            self.map_state
                .show_region(CellRect::new(s.rows.clone(), s.cols.clone()));
        }
        self.inspector = InspectorState::from_document(&name, s.inspector.clone());
        self.cram_editor = board;
        self.sessions.figure = s.figure;
        self.sessions.notes = s.notes;
        // As the window represents it (a session without a board gets the editor's default).
        self.sessions.saved = content(&self.session());
        Ok(())
    }

    /// Takes what the window shows now as the state with nothing to save (a fresh window).
    pub(in crate::ui::app) fn mark_clean(&mut self) {
        self.sessions.saved = content(&self.session());
    }

    /// Whether the session differs from the file it came from (the view aside).
    pub fn has_unsaved_changes(&self) -> bool {
        content(&self.session()) != self.sessions.saved
    }

    /// Opens a session file; on any error the current session stays as it was.
    pub fn open_session(&mut self, path: &Path) -> Result<(), String> {
        let s = Session::load(path).map_err(|e| e.to_string())?;
        self.apply_session(s).map_err(|e| format!("{}: {e}", path.display()))?;
        self.remember(path);
        if is_example(path) {
            self.sessions.path = None;
            self.sessions.example = Some(path.to_path_buf());
            self.notice = Some(Notice::done(format!(
                "opened the example {}: it stays as shipped, Save asks where to keep your copy",
                path.display()
            )));
        } else {
            self.sessions.path = Some(path.to_path_buf());
            self.sessions.example = None;
            self.notice = Some(Notice::done(format!("opened {}", path.display())));
        }
        Ok(())
    }

    /// Opens `path` (`None`: the file the Open dialog picks), asking first whether to save
    /// unsaved changes: what the File menu, Open Recent and Ctrl+O do.
    pub fn request_open(&mut self, path: Option<PathBuf>) {
        if self.has_unsaved_changes() {
            self.sessions.confirm = Some(AfterSaving::Open(path));
        } else {
            self.open_now(path);
        }
    }

    fn open_now(&mut self, path: Option<PathBuf>) {
        match path {
            Some(path) => {
                if let Err(e) = self.open_session(&path) {
                    self.notice = Some(Notice::error(e));
                }
            }
            None => {
                let prompt = FilePrompt::new(FileAction::Open, &self.default_path("ron"));
                self.sessions.pending = Some(PendingFile { prompt, then: None });
            }
        }
    }

    /// Where a new file goes by default: beside the session's file (or the most recent one),
    /// else in the working folder, named after the session, with extension `ext`.
    /// Never in the examples' folder: an example's copy goes to the working folder, or the
    /// home folder when the working folder is the repository's.
    pub fn default_path(&self, ext: &str) -> PathBuf {
        let near = self
            .sessions
            .path
            .clone()
            .or_else(|| self.sessions.window_state.recent.first().cloned())
            .filter(|p| !is_example(p));
        let outside = || {
            let cwd = std::env::current_dir().ok()?;
            let repo = std::fs::canonicalize(env!("CARGO_MANIFEST_DIR")).ok();
            match (std::fs::canonicalize(&cwd).ok(), repo) {
                (Some(c), Some(r)) if c.starts_with(&r) && self.sessions.example.is_some() => {
                    std::env::var_os("HOME").map(PathBuf::from).or(Some(cwd))
                }
                _ => Some(cwd),
            }
        };
        let dir = near
            .as_deref()
            .and_then(Path::parent)
            .map(Path::to_path_buf)
            .or_else(outside)
            .unwrap_or_default();
        dir.join(format!("{}.{ext}", self.session_name()))
    }

    /// The session's name: its file's, or its example's, or "untitled".
    pub fn session_name(&self) -> String {
        Session::display_name(self.sessions.path.as_deref().or(self.sessions.example.as_deref()))
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
        self.sessions.region = Some(CellRect {
            rows: s.rows.clone(),
            cols: s.cols.clone(),
        });
        if s.view == Camera::default() {
            // a file without a view (written by hand): its region is shown whole
            self.map_state
                .show_region(CellRect::new(s.rows.clone(), s.cols.clone()));
        }
        self.sessions.saved = content(&s);
        self.sessions.path = Some(path.to_path_buf());
        self.sessions.example = None;
        self.remember(path);
        self.notice = Some(Notice::done(format!("saved {}", path.display())));
        Ok(())
    }

    fn remember(&mut self, path: &Path) {
        let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        self.sessions.window_state.remember(&path);
        self.write_window_state();
    }

    /// Writes the last state and the recent files for the next start.
    pub fn write_window_state(&mut self) {
        let Some(dir) = self.sessions.state_dir.clone() else {
            return;
        };
        self.sessions.window_state.last = Some(self.session());
        self.sessions.window_state.last_path = self.sessions.path.clone().or_else(|| self.sessions.example.clone());
        self.sessions.window_state.my_rules = self.panel.editor.my_rules.clone();
        self.sessions.window_state.prefs = self.prefs.clone();
        if let Err(e) = self.sessions.window_state.save(&dir) {
            self.notice = Some(Notice::error(format!(
                "could not keep the window's state in {}: {e}",
                dir.display()
            )));
        }
        self.sessions.last_autosave = Instant::now();
    }
}

/// Whether `path` is one of the examples shipped in the repository's `sessions/` folder.
pub fn is_example(path: &Path) -> bool {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("sessions");
    match (
        path.parent()
            .and_then(|p| std::fs::canonicalize(if p.as_os_str().is_empty() { Path::new(".") } else { p }).ok()),
        std::fs::canonicalize(examples).ok(),
    ) {
        (Some(dir), Some(examples)) => dir == examples,
        _ => false,
    }
}
