//! The session's files in the window ([`SessionFiles`]): the file it was opened from or saved
//! to (or the example it came from), the session as last opened or saved (to tell unsaved
//! changes), its notes, the window's own state between runs (the last session, recent files,
//! my rules, preferences) and its autosave. The File menu, its shortcuts and dialogs are in
//! [`dialogs`]. Every file action takes its path from a field of its own
//! ([`super::file_prompt`]), with the desktop's dialog as a Browse button; nothing waits on a
//! dialog. What a session holds is gathered by the app; this part keeps where it lives.

mod dialogs;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::ui::app::action::{Action, AfterSaving};
use crate::ui::app::file_prompt::{FileAction, FilePrompt};
use crate::ui::app::notice::Notice;
use crate::ui::canvas::Camera;
use nimscope_core::session::{SavedRule, Session, WindowPrefs, WindowState};

/// How often the last state is written for the next start while the window runs.
const AUTOSAVE_EVERY: Duration = Duration::from_secs(30);

/// A file action waiting for its path in a window of its own, and what follows a successful
/// save (the quit question's Save goes on to close).
pub struct PendingFile {
    pub prompt: FilePrompt,
    pub then: Option<AfterSaving>,
}

/// Where the session lives and what the File menu's dialogs keep between frames.
pub struct SessionFiles {
    /// The file the session was opened from or saved to.
    path: Option<PathBuf>,
    /// The example the session was opened from (kept as shipped: Save asks for a path of the
    /// user's own, outside the repository).
    example: Option<PathBuf>,
    /// The session as last opened or saved (view excluded), to tell unsaved changes.
    saved: Session,
    notes: String,
    show_notes: bool,
    /// Closing or opening was asked for over unsaved changes: the question is showing.
    confirm: Option<AfterSaving>,
    /// Open, Save as or the CSV export, waiting for its path.
    pending: Option<PendingFile>,
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

impl Default for SessionFiles {
    fn default() -> Self {
        Self {
            path: None,
            example: None,
            saved: Session::default(),
            notes: String::new(),
            show_notes: false,
            confirm: None,
            pending: None,
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

impl SessionFiles {
    /// The file the session was opened from or saved to.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The session's notes.
    pub fn notes(&self) -> &str {
        &self.notes
    }

    /// The session's notes, to change (the notes window).
    pub fn notes_mut(&mut self) -> &mut String {
        &mut self.notes
    }

    /// Whether the notes window is open.
    pub fn notes_shown(&self) -> bool {
        self.show_notes
    }

    /// Opens or closes the notes window.
    pub fn show_notes(&mut self, open: bool) {
        self.show_notes = open;
    }

    /// What waits for the answer to "save the changes first?", while the question shows.
    pub fn confirm(&self) -> Option<&AfterSaving> {
        self.confirm.as_ref()
    }

    /// The file action waiting for its path, if any.
    pub fn pending(&self) -> Option<&PendingFile> {
        self.pending.as_ref()
    }

    /// The file action waiting for its path, to type into its field.
    pub fn pending_mut(&mut self) -> Option<&mut PendingFile> {
        self.pending.as_mut()
    }

    /// Whether a question or a file prompt is open (Escape closes them itself, as Cancel).
    pub fn modal_open(&self) -> bool {
        self.pending.is_some() || self.confirm.is_some()
    }

    /// The title the window shows.
    pub fn title(&self) -> &str {
        &self.title
    }

    /// Whether `now` differs from the session as last opened or saved (the view aside).
    pub fn is_dirty(&self, now: &Session) -> bool {
        content(now) != self.saved
    }

    /// Takes `now` as the state with nothing to save (a fresh window, a session just applied).
    pub fn mark_clean(&mut self, now: &Session) {
        self.saved = content(now);
    }

    /// The session's notes as opened.
    pub fn set_notes(&mut self, notes: String) {
        self.notes = notes;
    }

    /// The session came from `path`: an example stays as shipped (Save asks for a path of the
    /// user's own); says so in the returned notice.
    pub fn opened(&mut self, path: &Path) -> Notice {
        self.remember(path);
        if is_example(path) {
            self.path = None;
            self.example = Some(path.to_path_buf());
            Notice::done(format!(
                "opened the example {}: it stays as shipped, Save asks where to keep your copy",
                path.display()
            ))
        } else {
            self.path = Some(path.to_path_buf());
            self.example = None;
            Notice::done(format!("opened {}", path.display()))
        }
    }

    /// The session `s` was saved to `path`, which becomes its file.
    pub fn saved_to(&mut self, path: &Path, s: &Session) -> Notice {
        self.saved = content(s);
        self.path = Some(path.to_path_buf());
        self.example = None;
        self.remember(path);
        Notice::done(format!("saved {}", path.display()))
    }

    /// Puts `path` first among the recent files.
    fn remember(&mut self, path: &Path) {
        let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        self.window_state.remember(&path);
    }

    /// Asks "save the changes first?" before `after` (closing, or opening another session).
    pub fn ask_before(&mut self, after: AfterSaving) {
        self.confirm = Some(after);
    }

    /// Opening `path` (`None`: the file the Open prompt gives): asks first whether to save
    /// unsaved changes (`dirty`), else opens now.
    pub fn request_open(&mut self, path: Option<PathBuf>, dirty: bool) -> Action {
        if dirty {
            self.confirm = Some(AfterSaving::Open(path));
            Action::None
        } else {
            Action::OpenNow(path)
        }
    }

    /// Shows the Open prompt.
    pub fn open_prompt(&mut self) {
        let prompt = FilePrompt::new(FileAction::Open, &self.default_path("ron"));
        self.pending = Some(PendingFile { prompt, then: None });
    }

    /// Shows the Save as prompt; `then` follows a successful save.
    pub fn save_as_prompt(&mut self, then: Option<AfterSaving>) {
        let prefill = self.path.clone().unwrap_or_else(|| self.default_path("ron"));
        let prompt = FilePrompt::new(FileAction::SaveAs, &prefill);
        self.pending = Some(PendingFile { prompt, then });
    }

    /// Shows the prompt for the CSV file of the visible values.
    pub fn csv_prompt(&mut self) {
        let prompt = FilePrompt::new(FileAction::ExportCsv, &self.default_path("csv"));
        self.pending = Some(PendingFile { prompt, then: None });
    }

    /// The file prompt's action was carried out: it closes.
    pub fn prompt_done(&mut self) {
        self.pending = None;
    }

    /// The file prompt's action failed: it stays, with the reason, so the user can mend the
    /// path.
    pub fn prompt_failed(&mut self, why: String) {
        if let Some(p) = &mut self.pending {
            p.prompt.message = Some(why);
        }
    }

    /// What the question "save the changes first?" was waiting for, once saved.
    pub fn after_saving(&mut self, then: Option<AfterSaving>) -> Action {
        match then {
            None => Action::None,
            Some(AfterSaving::Close) => {
                self.close_now = true;
                self.close_requested = true;
                Action::None
            }
            Some(AfterSaving::Open(path)) => Action::OpenNow(path),
        }
    }

    /// Where a new file goes by default: beside the session's file (or the most recent one),
    /// else in the working folder, named after the session, with extension `ext`.
    /// Never in the examples' folder: an example's copy goes to the working folder, or the
    /// home folder when the working folder is the repository's.
    pub fn default_path(&self, ext: &str) -> PathBuf {
        let near = self
            .path
            .clone()
            .or_else(|| self.window_state.recent.first().cloned())
            .filter(|p| !is_example(p));
        let outside = || {
            let cwd = std::env::current_dir().ok()?;
            let repo = std::fs::canonicalize(env!("CARGO_MANIFEST_DIR")).ok();
            match (std::fs::canonicalize(&cwd).ok(), repo) {
                (Some(c), Some(r)) if c.starts_with(&r) && self.example.is_some() => {
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
        Session::display_name(self.path.as_deref().or(self.example.as_deref()))
    }

    /// Keeps the window's state in `dir`, restored from there (`state`); `last` says where the
    /// last session restored came from and what its file holds now (unsaved changes survive a
    /// restart).
    pub fn keep_state_in(&mut self, dir: PathBuf, state: WindowState) {
        self.window_state = state;
        self.state_dir = Some(dir);
    }

    /// The last session restored from the state was shown: it came from `path`, whose file
    /// holds `on_disk` (an example comes back as an example, still kept as shipped).
    pub fn restored_from(&mut self, path: Option<PathBuf>, on_disk: Option<&Session>) {
        match path {
            Some(p) if is_example(&p) => self.example = Some(p),
            last => self.path = last,
        }
        if let Some(s) = on_disk {
            self.saved = content(s);
        }
    }

    /// Whether the last state is due to be written again (every [`AUTOSAVE_EVERY`]).
    pub fn autosave_due(&self) -> bool {
        self.state_dir.is_some() && self.last_autosave.elapsed() > AUTOSAVE_EVERY
    }

    /// Writes the last state (`session`, the user's rules, the preferences) and the recent
    /// files for the next start; says why not, if it could not.
    pub fn write_state(&mut self, session: Session, my_rules: &[SavedRule], prefs: &WindowPrefs) -> Option<Notice> {
        let dir = self.state_dir.clone()?;
        self.last_autosave = Instant::now();
        let state = &mut self.window_state;
        state.last = Some(session);
        state.last_path = self.path.clone().or_else(|| self.example.clone());
        state.my_rules = my_rules.to_vec();
        state.prefs = prefs.clone();
        state
            .save(&dir)
            .err()
            .map(|e| Notice::error(format!("could not keep the window's state in {}: {e}", dir.display())))
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
