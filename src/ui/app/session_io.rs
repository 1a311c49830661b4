//! The session as a document and its files: what the window shows written to and read from a
//! session, opening and saving (with the window's own state kept for the next start), and the
//! figure and CSV exports of what it shows.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::App;
use super::export::{self, figure_spec};
use super::files::is_example;
use super::notice::Notice;
use crate::ui::canvas::Camera;
use crate::ui::panels::cram_editor::CramEditor;
use crate::ui::panels::inspector::InspectorState;
use crate::worker::{JobSpec, Lane};
use nimscope_core::camera::CellRect;
use nimscope_core::figure::FigureSpec;
use nimscope_core::game::Presentation;
use nimscope_core::session::{Session, WindowState};
use nimscope_core::solver::tiles::PooledRegion;

impl App {
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
    pub(super) fn mark_clean(&mut self) {
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

    pub(super) fn open_now(&mut self, path: Option<PathBuf>) {
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
