//! Sessions and figures in the window: the File menu's Open, Open Recent, Save, Save As and
//! Export figure (PNG or SVG) and Export values as CSV, their shortcuts, the window title with the session's name and unsaved changes,
//! the question before closing or opening another session over unsaved changes, the notes,
//! and the last state restored on the next start. Every file action takes its path from a
//! field of its own ([`super::file_prompt`]), with the desktop's dialog as a Browse button, and
//! has a path-taking function (tests call those); nothing waits on a dialog.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::App;
use super::file_prompt::{FileAction, FilePrompt, PromptAnswer, file_prompt_window_ui, path_row_ui};
use super::notice::Notice;
use crate::camera::CellRect;
use crate::figure::{Background, FigureStyle, MAX_SIDE};
use crate::session::{Session, WindowState};
use crate::ui::canvas::Camera;
use crate::ui::panels::cram_editor::CramEditor;
use crate::ui::panels::inspector::InspectorState;
use crate::worker::{JobSpec, Lane, Output, Response};

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
            saved: Session::default(),
            notes: String::new(),
            figure: FigureStyle::default(),
            show_notes: false,
            show_export: false,
            confirm: None,
            pending: None,
            export_path: None,
            export_region: ExportRegion::default(),
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
                    self.sessions.path = state.last_path.clone();
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
                    self.notice = Some(Notice::error(crate::game::quote::one_line(&message)));
                    state.last = None;
                    state.last_path = None;
                }
            }
        }
        self.panel.editor.my_rules = state.my_rules.clone();
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
        self.sessions.window_state = state;
        self.sessions.state_dir = Some(dir);
    }

    /// Everything the user is exploring, as a session document.
    pub fn session(&self) -> Session {
        let region = self.sessions.region.clone().unwrap_or_else(|| self.visible_region());
        let (rows, cols) = (region.rows, region.cols);
        Session {
            ruleset: self.ruleset.to_string(),
            slice: self.panel.slice.trim().to_string(),
            tab: self.central_tab,
            view: self.map_state.camera,
            rows,
            cols,
            sequence_len: super::SEQUENCE_LEN,
            color: self.map_state.color,
            overlays: self.map_state.overlays,
            compare: self.panel.compare.trim().to_string(),
            compare_theorem: self.panel.compare_theorem,
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
        let ruleset: crate::game::Ruleset = s.ruleset.parse().map_err(|e| format!("ruleset '{}': {e}", s.ruleset))?;
        // A hand-written file may spell the ruleset otherwise (`push(nim, euclid0)`): the
        // inspector keeps its selection only for the ruleset's own spelling.
        let name = ruleset.to_string();
        s.layout()?;
        let board = match &s.board {
            Some(doc) => CramEditor::from_document(doc).map_err(|e| format!("board: {e}"))?,
            None => CramEditor::default(),
        };
        self.panel.expression = name.clone();
        self.panel.error = None;
        self.panel.set_slice(&s.slice);
        self.panel.compare = s.compare.clone();
        self.panel.compare_theorem = s.compare_theorem;
        self.set_ruleset(ruleset);
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
        self.inspector = InspectorState::from_document(&name, s.inspector.clone());
        self.cram_editor = board;
        self.sessions.figure = s.figure;
        self.sessions.notes = s.notes;
        // As the window represents it (a session without a board gets the editor's default).
        self.sessions.saved = content(&self.session());
        Ok(())
    }

    /// Takes what the window shows now as the state with nothing to save (a fresh window).
    pub(super) fn mark_clean(&mut self) {
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
        self.sessions.path = Some(path.to_path_buf());
        self.remember(path);
        self.notice = Some(Notice::done(format!("opened {}", path.display())));
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
    pub fn default_path(&self, ext: &str) -> PathBuf {
        let near = self
            .sessions
            .path
            .clone()
            .or_else(|| self.sessions.window_state.recent.first().cloned());
        let dir = near
            .as_deref()
            .and_then(Path::parent)
            .map(Path::to_path_buf)
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_default();
        dir.join(format!(
            "{}.{ext}",
            Session::display_name(self.sessions.path.as_deref())
        ))
    }

    /// Saves the session to `path` (atomically) and makes it the session's file.
    pub fn save_session(&mut self, path: &Path) -> Result<(), String> {
        let s = self.session();
        s.save(path).map_err(|e| e.to_string())?;
        self.sessions.region = Some(CellRect {
            rows: s.rows.clone(),
            cols: s.cols.clone(),
        });
        self.sessions.saved = content(&s);
        self.sessions.path = Some(path.to_path_buf());
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
        self.sessions.window_state.last_path = self.sessions.path.clone();
        self.sessions.window_state.my_rules = self.panel.editor.my_rules.clone();
        if let Err(e) = self.sessions.window_state.save(&dir) {
            self.notice = Some(Notice::error(format!(
                "could not keep the window's state in {}: {e}",
                dir.display()
            )));
        }
        self.sessions.last_autosave = Instant::now();
    }

    /// The whole cells the map shows now (at least one).
    pub fn visible_region(&self) -> CellRect {
        let visible = self.map_state.visible_cells(u64::MAX);
        let at_least_one = |r: std::ops::Range<u64>| r.start..r.end.max(r.start + 1);
        CellRect {
            rows: at_least_one(visible.rows),
            cols: at_least_one(visible.cols),
        }
    }

    /// The region a map figure exported now shows, as the export window says.
    pub fn export_region(&self) -> CellRect {
        match (self.sessions.export_region, &self.sessions.region) {
            (ExportRegion::Session, Some(r)) => r.clone(),
            _ => self.visible_region(),
        }
    }

    /// Starts writing the current view's figure to `path` in the background; a map shows the
    /// region the export window chose (the session's region is never changed by it). The file's
    /// extension chooses the format: `.png` or `.svg`.
    pub fn export_figure(&mut self, path: &Path) -> Result<(), String> {
        crate::figure::Format::of_path(path).map_err(|e| e.to_string())?;
        let region = self.export_region();
        let session = Session {
            rows: region.rows,
            cols: region.cols,
            ..self.session()
        };
        let spec = session.figure_spec(self.sessions.figure.clone(), None)?;
        let worker = self.worker.as_mut().ok_or("the solver is not running yet")?;
        worker.submit(
            Lane::Export,
            JobSpec::Export {
                spec: Box::new(spec),
                path: path.to_path_buf(),
            },
        );
        self.notice = None;
        Ok(())
    }

    /// Starts writing the values of the map's visible cells to `path` as CSV, the format of
    /// `nimscope grid` (one line per row a, the columns b comma-separated), in the background.
    pub fn export_csv(&mut self, path: &Path) -> Result<(), String> {
        let layout = match self.presentation() {
            crate::game::Presentation::Map(layout) => layout,
            _ => return Err("values are written as CSV for a map of two heaps: this ruleset shows no map".into()),
        };
        let region = self.visible_region();
        let worker = self.worker.as_mut().ok_or("the solver is not running yet")?;
        if worker.is_running(Lane::Export) {
            return Err("a file is being written: wait for it (or Cancel it) first".into());
        }
        worker.submit(
            Lane::Export,
            JobSpec::Csv {
                ruleset: self.ruleset.clone(),
                layout,
                rows: region.rows,
                cols: region.cols,
                path: path.to_path_buf(),
            },
        );
        self.notice = None;
        Ok(())
    }

    /// Takes a finished export.
    pub(super) fn on_export_response(&mut self, resp: Response) {
        let csv = matches!(resp.spec, JobSpec::Csv { .. });
        self.notice = Some(match resp.result {
            Ok(Output::Exported { path, width, height }) => {
                Notice::done(format!("exported {} ({width}×{height} pixels)", path.display()))
            }
            Ok(Output::CsvWritten { path, rows, cols }) => Notice::done(format!(
                "wrote the values of {rows} rows × {cols} columns to {}",
                path.display()
            )),
            Err(e) if csv => Notice::error(format!("CSV export failed: {e}")),
            Ok(_) => return,
            Err(e) => Notice::error(format!("export failed: {e}")),
        });
    }

    /// Keyboard shortcuts of the File menu; they wait while a text field has the focus (the
    /// keys belong to the typing there: a dialog must not open under the user's fingers).
    pub(super) fn file_shortcuts_ui(&mut self, ctx: &egui::Context) {
        use egui::{Key, KeyboardShortcut, Modifiers};
        if ctx.text_edit_focused() {
            return;
        }
        let save_as = KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, Key::S);
        if ctx.input_mut(|i| i.consume_shortcut(&save_as)) {
            self.save_as_dialog(None);
        }
        if ctx.input_mut(|i| i.consume_key(Modifiers::COMMAND, Key::S)) {
            self.save_dialog(None);
        }
        if ctx.input_mut(|i| i.consume_key(Modifiers::COMMAND, Key::O)) {
            self.request_open(None);
        }
        if ctx.input_mut(|i| i.consume_key(Modifiers::COMMAND, Key::E)) {
            self.sessions.show_export = true;
        }
    }

    /// Save: to the session's file, or through the Save as prompt when it has none; `then`
    /// follows a successful save.
    fn save_dialog(&mut self, then: Option<AfterSaving>) {
        match self.sessions.path.clone() {
            Some(path) => match self.save_session(&path) {
                Ok(()) => self.after_saving(then),
                Err(e) => self.notice = Some(Notice::error(e)),
            },
            None => self.save_as_dialog(then),
        }
    }

    /// Shows the Save as prompt; `then` follows a successful save.
    fn save_as_dialog(&mut self, then: Option<AfterSaving>) {
        let prefill = self.sessions.path.clone().unwrap_or_else(|| self.default_path("ron"));
        let prompt = FilePrompt::new(FileAction::SaveAs, &prefill);
        self.sessions.pending = Some(PendingFile { prompt, then });
    }

    /// What the question "save the changes first?" was waiting for, once saved.
    fn after_saving(&mut self, then: Option<AfterSaving>) {
        match then {
            None => {}
            Some(AfterSaving::Close) => {
                self.sessions.close_now = true;
                self.sessions.close_requested = true;
            }
            Some(AfterSaving::Open(path)) => self.open_now(path),
        }
    }

    /// The Open or Save as prompt, when one is waiting.
    fn pending_file_ui(&mut self, ctx: &egui::Context) {
        let Some(pending) = &mut self.sessions.pending else {
            return;
        };
        let heading = match pending.prompt.action {
            FileAction::Open => "Open a session",
            FileAction::SaveAs => "Save the session as",
            FileAction::Export => "Export",
            FileAction::ExportCsv => "Export the visible values as CSV",
        };
        match file_prompt_window_ui(ctx, &mut pending.prompt, heading) {
            PromptAnswer::Waiting => {}
            PromptAnswer::Cancel => self.sessions.pending = None,
            PromptAnswer::Confirm(path) => {
                let action = pending.prompt.action;
                let then = pending.then.clone();
                let result = match action {
                    FileAction::Open => {
                        self.sessions.pending = None;
                        self.request_open(Some(path));
                        return;
                    }
                    FileAction::ExportCsv => self.export_csv(&path),
                    _ => self.save_session(&path),
                };
                match result {
                    Ok(()) => {
                        self.sessions.pending = None;
                        self.after_saving(then);
                    }
                    // the prompt stays, with the reason, so the user can mend the path
                    Err(e) => {
                        if let Some(p) = &mut self.sessions.pending {
                            p.prompt.message = Some(e);
                        }
                    }
                }
            }
        }
    }

    /// The File menu's entries.
    pub(super) fn file_menu_ui(&mut self, ui: &mut egui::Ui) {
        if ui.button("Open session…  (Ctrl+O)").clicked() {
            ui.close();
            self.request_open(None);
        }
        let recent = self.sessions.window_state.recent.clone();
        ui.add_enabled_ui(!recent.is_empty(), |ui| {
            ui.menu_button("Open recent", |ui| {
                for path in recent {
                    if ui.button(path.display().to_string()).clicked() {
                        ui.close();
                        self.request_open(Some(path));
                    }
                }
            });
        });
        if ui.button("Save session  (Ctrl+S)").clicked() {
            ui.close();
            self.save_dialog(None);
        }
        if ui.button("Save session as…  (Ctrl+Shift+S)").clicked() {
            ui.close();
            self.save_as_dialog(None);
        }
        ui.separator();
        if ui.button("Export figure (PNG or SVG)…  (Ctrl+E)").clicked() {
            ui.close();
            self.sessions.show_export = true;
        }
        let map = matches!(self.presentation(), crate::game::Presentation::Map(_));
        let csv = ui
            .add_enabled(map, egui::Button::new("Export visible values as CSV…"))
            .on_hover_text("the values of the cells the map shows, as `nimscope grid` writes them")
            .on_disabled_hover_text("for the value map of two heaps");
        if csv.clicked() {
            ui.close();
            let prompt = FilePrompt::new(FileAction::ExportCsv, &self.default_path("csv"));
            self.sessions.pending = Some(PendingFile { prompt, then: None });
        }
        if ui.button("Session notes…").clicked() {
            ui.close();
            self.sessions.show_notes = true;
        }
        ui.separator();
        if ui.button("Quit  (Ctrl+Q)").clicked() {
            ui.close();
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        }
    }

    /// The notes, export and unsaved-changes windows, the title, closing, and the autosave.
    pub(super) fn session_windows_ui(&mut self, ctx: &egui::Context) {
        self.title_ui(ctx);
        self.notes_window_ui(ctx);
        self.export_window_ui(ctx);
        self.pending_file_ui(ctx);
        self.close_ui(ctx);
        self.save_first_ui(ctx);
        if self.sessions.state_dir.is_some() && self.sessions.last_autosave.elapsed() > AUTOSAVE_EVERY {
            self.write_window_state();
        }
    }

    fn title_ui(&mut self, ctx: &egui::Context) {
        let dirty = if self.has_unsaved_changes() { " *" } else { "" };
        let title = format!(
            "{}{dirty} - nimscope",
            Session::display_name(self.sessions.path.as_deref())
        );
        if title != self.sessions.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.sessions.title = title;
        }
    }

    /// The title the window shows (for tests).
    pub fn window_title(&self) -> &str {
        &self.sessions.title
    }

    fn notes_window_ui(&mut self, ctx: &egui::Context) {
        let mut open = self.sessions.show_notes;
        egui::Window::new("Session notes").open(&mut open).show(ctx, |ui| {
            ui.label("Saved with the session.");
            ui.add(
                egui::TextEdit::multiline(&mut self.sessions.notes)
                    .desired_rows(10)
                    .desired_width(f32::INFINITY),
            )
            .labelled_by(ui.label("Notes").id);
        });
        self.sessions.show_notes = open;
    }

    fn export_window_ui(&mut self, ctx: &egui::Context) {
        let mut open = self.sessions.show_export;
        let mut chosen = None;
        let default_export = self.default_path("png");
        let visible = self.visible_region();
        egui::Window::new("Export figure").open(&mut open).show(ctx, |ui| {
            let f = &mut self.sessions.figure;
            ui.label("The figure shows what the window shows: the map (of the region chosen below), the sequence, or the Cram board.");
            ui.horizontal(|ui| {
                let label = ui.label("Width (pixels)");
                ui.add(egui::DragValue::new(&mut f.width).range(256..=MAX_SIDE))
                    .labelled_by(label.id);
            });
            ui.checkbox(&mut f.axes, "Axes and tick labels");
            ui.checkbox(&mut f.legend, "Legend");
            ui.horizontal(|ui| {
                let label = ui.label("Title");
                ui.text_edit_singleline(&mut f.title).labelled_by(label.id);
            });
            ui.small("Empty: the ruleset; '-': no title.");
            ui.horizontal(|ui| {
                ui.radio_value(&mut f.background, Background::White, "White background");
                ui.radio_value(&mut f.background, Background::Transparent, "Transparent");
            });
            ui.separator();
            region_choice_ui(ui, &mut self.sessions.export_region, self.sessions.region.as_ref(), &visible);
            ui.separator();
            let default = default_export;
            let prompt = self
                .sessions
                .export_path
                .get_or_insert_with(|| FilePrompt::new(FileAction::Export, &default));
            let enter = path_row_ui(ui, prompt);
            ui.small("The file's extension chooses the format: .png (pixels) or .svg (vector, for a paper).");
            if ui.button("Export").clicked() || enter {
                match prompt.chosen() {
                    Some(p) => chosen = Some(p),
                    None => prompt.message = Some("type the file's path first".into()),
                }
            }
            if let Some(w) = &self.worker
                && w.is_running(Lane::Export)
            {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label("exporting…");
                });
            }
        });
        self.sessions.show_export = open;
        if let Some(path) = chosen
            && let Err(e) = self.export_figure(&path)
        {
            let message = format!("export: {e}");
            if let Some(p) = &mut self.sessions.export_path {
                p.message = Some(message.clone());
            }
            self.notice = Some(Notice::error(message));
        }
    }

    /// Closing with unsaved changes asks first; the last state is kept for the next start.
    fn close_ui(&mut self, ctx: &egui::Context) {
        if std::mem::take(&mut self.sessions.close_requested) {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
        if ctx.input(|i| i.viewport().close_requested()) {
            if self.sessions.close_now || !self.has_unsaved_changes() {
                self.write_window_state();
                return;
            }
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.sessions.confirm = Some(AfterSaving::Close);
        }
    }

    /// The question "save the changes first?" before closing or opening another session.
    fn save_first_ui(&mut self, ctx: &egui::Context) {
        let Some(after) = self.sessions.confirm.clone() else {
            return;
        };
        let name = Session::display_name(self.sessions.path.as_deref());
        let (question, discard) = match after {
            AfterSaving::Close => (
                format!("Save the changes to '{name}' before closing?"),
                "Close without saving",
            ),
            AfterSaving::Open(_) => (
                format!("Save the changes to '{name}' before opening another session?"),
                "Open without saving",
            ),
        };
        let mut answer = None;
        let modal = egui::Modal::new(egui::Id::unique("unsaved-changes")).show(ctx, |ui| {
            ui.heading("Unsaved changes");
            ui.label(question);
            ui.horizontal(|ui| {
                if ui.button("Save").clicked() {
                    answer = Some(true);
                }
                if ui.button(discard).clicked() {
                    answer = Some(false);
                }
                if ui.button("Cancel").clicked() {
                    self.sessions.confirm = None;
                }
            });
        });
        if modal.should_close() && answer.is_none() {
            self.sessions.confirm = None; // Escape or a click outside: as Cancel
        }
        let Some(save) = answer else {
            return;
        };
        self.sessions.confirm = None;
        if save {
            // to the session's file, or through the Save as prompt; closing or opening follows
            self.save_dialog(Some(after));
        } else {
            match after {
                AfterSaving::Close => {
                    self.sessions.close_now = true;
                    ctx.send_viewport_cmd(egui::ViewportCommand::Close);
                }
                AfterSaving::Open(path) => self.open_now(path),
            }
        }
    }
}

/// `[a, b)` as the figures write a range.
fn range_text(r: &std::ops::Range<u64>) -> String {
    format!("[{}, {})", r.start, r.end)
}

/// The export window's choice of cells for a map figure, saying which cells each choice is.
fn region_choice_ui(ui: &mut egui::Ui, choice: &mut ExportRegion, session: Option<&CellRect>, visible: &CellRect) {
    let cells = |r: &CellRect| {
        format!(
            "rows a in {}, columns b in {}",
            range_text(&r.rows),
            range_text(&r.cols)
        )
    };
    ui.label("A map figure shows");
    match session {
        Some(r) => {
            ui.radio_value(
                choice,
                ExportRegion::Session,
                format!("the session's region: {}", cells(r)),
            );
        }
        None => {
            ui.add_enabled(
                false,
                egui::RadioButton::new(
                    false,
                    "the session's region (none yet: it is set when the session is saved)",
                ),
            );
        }
    }
    let visible_label = format!("the visible region: {}", cells(visible));
    if session.is_none() {
        let _ = ui.radio(true, visible_label);
    } else {
        ui.radio_value(choice, ExportRegion::Visible, visible_label);
    }
}
