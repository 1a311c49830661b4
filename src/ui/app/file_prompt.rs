//! The path of a file action (Open, Save as, Export): a text field in the window, prefilled,
//! with the desktop's file dialog as a Browse button beside it. The field is the primary way:
//! many researchers' desktops (tiling window managers, remote X, minimal installs) have no file
//! dialog at all, and a dialog that never appears must not leave the user stuck. The dialog
//! runs on a thread of its own, so a dialog that hangs never freezes the window; when it
//! answers "nothing" at once, no dialog could be shown, and the prompt says so.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::time::{Duration, Instant};

use crate::ui::theme;

/// A dialog that answers within this time without a file never showed itself (a person takes
/// longer to cancel one).
const NO_DIALOG_WITHIN: Duration = Duration::from_millis(400);

/// What the path is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileAction {
    Open,
    SaveAs,
    /// A figure, PNG or SVG.
    Export,
    /// The visible values as CSV.
    ExportCsv,
}

impl FileAction {
    /// The button that carries out the action.
    pub fn verb(self) -> &'static str {
        match self {
            FileAction::Open => "Open",
            FileAction::SaveAs => "Save",
            FileAction::Export | FileAction::ExportCsv => "Export",
        }
    }

    fn title(self) -> &'static str {
        match self {
            FileAction::Open => "Open a nimscope session",
            FileAction::SaveAs => "Save the nimscope session",
            FileAction::Export => "Export the figure",
            FileAction::ExportCsv => "Export the visible values as CSV",
        }
    }
}

/// A native dialog running on its own thread.
struct Browsing {
    answer: Receiver<Option<PathBuf>>,
    started: Instant,
    /// Whether the desktop seems to have a dialog at all (a session bus for the portal, or
    /// zenity): when it has none, "nothing" is never a person's Cancel.
    backend_likely: bool,
}

/// The path field of one file action, and the dialog helping to fill it.
pub struct FilePrompt {
    pub action: FileAction,
    /// The text of the path field.
    pub path: String,
    /// What the prompt has to say (why the last attempt failed, no dialog available, ...).
    pub message: Option<String>,
    browsing: Option<Browsing>,
    /// The path field is to take the keyboard's focus when next drawn (a prompt just opened:
    /// its first field is where the user types).
    focus_pending: bool,
}

/// What the user did with the prompt this frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PromptAnswer {
    /// Nothing yet.
    Waiting,
    /// Carry out the action on this path.
    Confirm(PathBuf),
    /// Give up the action.
    Cancel,
}

impl FilePrompt {
    /// A prompt whose field holds `prefill`.
    pub fn new(action: FileAction, prefill: &Path) -> Self {
        Self {
            action,
            path: prefill.display().to_string(),
            message: None,
            browsing: None,
            focus_pending: true,
        }
    }

    /// Gives the path field the keyboard's focus when next drawn (its window opened again).
    pub fn focus_again(&mut self) {
        self.focus_pending = true;
    }

    /// The path in the field, with a leading `~/` read as the home folder; `None` when empty.
    pub fn chosen(&self) -> Option<PathBuf> {
        let text = self.path.trim();
        if text.is_empty() {
            return None;
        }
        match (text.strip_prefix("~/"), std::env::var_os("HOME")) {
            (Some(rest), Some(home)) => Some(PathBuf::from(home).join(rest)),
            _ => Some(PathBuf::from(text)),
        }
    }

    /// Whether a native dialog is open (its answer has not come).
    pub fn is_browsing(&self) -> bool {
        self.browsing.is_some()
    }

    /// Starts the desktop's file dialog on a thread of its own.
    fn browse(&mut self, ctx: &egui::Context) {
        let (action, start) = (self.action, self.chosen());
        let wake = ctx.clone();
        self.browse_with(move || {
            let answer = native_dialog(action, start.as_deref());
            crate::ui::repaint_once(&wake);
            answer
        });
    }

    /// Runs `dialog` on a thread of its own (tests give a stand-in for the desktop's dialog).
    pub fn browse_with(&mut self, dialog: impl FnOnce() -> Option<PathBuf> + Send + 'static) {
        self.browse_on(dialog_backend_likely(), dialog);
    }

    fn browse_on(&mut self, backend_likely: bool, dialog: impl FnOnce() -> Option<PathBuf> + Send + 'static) {
        let (tx, rx) = mpsc::channel();
        let spawned = std::thread::Builder::new().name("file-dialog".into()).spawn(move || {
            let _ = tx.send(dialog());
        });
        match spawned {
            Ok(_) => {
                self.message = None;
                // the thread is not joined: a dialog that never answers must not hold up closing
                self.browsing = Some(Browsing {
                    answer: rx,
                    started: Instant::now(),
                    backend_likely,
                });
            }
            Err(e) => self.message = Some(format!("could not start the file dialog ({e}): type the path above")),
        }
    }

    /// Takes the dialog's answer, if it came: a file fills the field; nothing, at once, means
    /// no dialog could be shown.
    pub fn poll(&mut self) {
        let Some(b) = &self.browsing else { return };
        match b.answer.try_recv() {
            Ok(Some(path)) => {
                self.path = path.display().to_string();
                self.message = None;
                self.browsing = None;
            }
            Ok(None) => {
                if b.started.elapsed() < NO_DIALOG_WITHIN || !b.backend_likely {
                    self.message = Some(NO_DIALOG.into());
                }
                self.browsing = None;
            }
            Err(TryRecvError::Empty) => {}
            Err(TryRecvError::Disconnected) => {
                self.message = Some(NO_DIALOG.into());
                self.browsing = None;
            }
        }
    }
}

/// Whether this desktop may show a file dialog: rfd asks the XDG desktop portal over the
/// session bus, else runs zenity. Without either, no dialog can appear.
fn dialog_backend_likely() -> bool {
    if !cfg!(target_os = "linux") {
        return true;
    }
    let bus = std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some_and(|a| !a.is_empty())
        || std::env::var_os("XDG_RUNTIME_DIR").is_some_and(|d| Path::new(&d).join("bus").exists());
    let zenity =
        std::env::var_os("PATH").is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join("zenity").is_file()));
    bus || zenity
}

/// What the prompt says when the desktop showed no file dialog.
pub const NO_DIALOG: &str = "No file dialog could be opened on this desktop (it needs an XDG \
     desktop portal or zenity). Type the file's path in the field instead.";

/// The desktop's dialog for `action`, starting at `start`.
fn native_dialog(action: FileAction, start: Option<&Path>) -> Option<PathBuf> {
    let mut dialog = rfd::FileDialog::new().set_title(action.title());
    dialog = match action {
        FileAction::Open | FileAction::SaveAs => dialog.add_filter("nimscope session", &["ron"]),
        FileAction::Export => dialog
            .add_filter("PNG image or SVG drawing", &["png", "svg"])
            .add_filter("PNG image", &["png"])
            .add_filter("SVG drawing", &["svg"]),
        FileAction::ExportCsv => dialog.add_filter("CSV values", &["csv"]),
    };
    if let Some(start) = start {
        if let Some(dir) = start.parent().filter(|d| d.is_dir()) {
            dialog = dialog.set_directory(dir);
        }
        if let Some(name) = start.file_name() {
            dialog = dialog.set_file_name(name.to_string_lossy());
        }
    }
    match action {
        FileAction::Open => dialog.pick_file(),
        FileAction::SaveAs | FileAction::Export | FileAction::ExportCsv => dialog.save_file(),
    }
}

/// The path field with its Browse button and message; returns whether Enter was pressed in
/// the field.
pub fn path_row_ui(ui: &mut egui::Ui, prompt: &mut FilePrompt) -> bool {
    prompt.poll();
    let mut enter = false;
    ui.horizontal(|ui| {
        let label = ui.label("File");
        let field = ui
            .add(egui::TextEdit::singleline(&mut prompt.path).desired_width(320.0))
            .labelled_by(label.id);
        if std::mem::take(&mut prompt.focus_pending) {
            field.request_focus();
        }
        enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        let browse = ui
            .add_enabled(!prompt.is_browsing(), egui::Button::new("Browse…"))
            .on_hover_text("the desktop's file dialog, where there is one");
        if browse.clicked() {
            prompt.browse(ui.ctx());
        }
    });
    if prompt.is_browsing() {
        ui.horizontal(|ui| {
            crate::ui::busy_ui(ui);
            ui.label("waiting for the file dialog (or type the path above)");
        });
    }
    if let Some(m) = &prompt.message {
        ui.colored_label(theme::error_text(ui.visuals()), m);
    }
    enter
}

/// A file action's own window: the path row and the action's button. `id` keeps the window
/// apart from the others.
pub fn file_prompt_window_ui(ctx: &egui::Context, prompt: &mut FilePrompt, heading: &str) -> PromptAnswer {
    let mut answer = PromptAnswer::Waiting;
    let mut open = true;
    egui::Window::new(heading)
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .pivot(egui::Align2::CENTER_TOP)
        .default_pos(ctx.content_rect().center_top() + egui::vec2(0.0, 120.0))
        .show(ctx, |ui| {
            let enter = path_row_ui(ui, prompt);
            ui.horizontal(|ui| {
                let go = ui.button(prompt.action.verb()).clicked();
                if go || enter {
                    match prompt.chosen() {
                        Some(p) => answer = PromptAnswer::Confirm(p),
                        None => prompt.message = Some("type the file's path first".into()),
                    }
                }
                if ui.button("Cancel").clicked() {
                    answer = PromptAnswer::Cancel;
                }
            });
        });
    if !open || ctx.input(|i| i.key_pressed(egui::Key::Escape)) {
        answer = PromptAnswer::Cancel;
    }
    answer
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};
    use std::time::Duration;

    use super::{FileAction, FilePrompt, NO_DIALOG, NO_DIALOG_WITHIN};

    fn wait_for_answer(p: &mut FilePrompt) {
        for _ in 0..400 {
            p.poll();
            if !p.is_browsing() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        panic!("the stand-in dialog never answered");
    }

    #[test]
    fn a_dialog_that_shows_nothing_is_reported_and_the_field_stays() {
        let mut p = FilePrompt::new(FileAction::SaveAs, Path::new("/tmp/a.ron"));
        p.browse_with(|| None);
        wait_for_answer(&mut p);
        assert_eq!(p.message.as_deref(), Some(NO_DIALOG));
        assert_eq!(p.chosen(), Some(PathBuf::from("/tmp/a.ron")));
    }

    #[test]
    fn a_picked_file_fills_the_field_and_a_slow_cancel_says_nothing() {
        let mut p = FilePrompt::new(FileAction::Open, Path::new(""));
        assert_eq!(p.chosen(), None);
        p.browse_on(true, || Some(PathBuf::from("/data/x.ron")));
        wait_for_answer(&mut p);
        assert_eq!((p.path.as_str(), p.message.as_deref()), ("/data/x.ron", None));
        p.browse_on(true, || {
            std::thread::sleep(NO_DIALOG_WITHIN + Duration::from_millis(100));
            None
        });
        wait_for_answer(&mut p);
        assert_eq!((p.path.as_str(), p.message.as_deref()), ("/data/x.ron", None));
        // on a desktop with no dialog at all, even a slow "nothing" is no dialog
        p.browse_on(false, || {
            std::thread::sleep(NO_DIALOG_WITHIN + Duration::from_millis(100));
            None
        });
        wait_for_answer(&mut p);
        assert_eq!(p.message.as_deref(), Some(NO_DIALOG));
    }

    #[test]
    fn a_tilde_means_home() {
        let Some(home) = std::env::var_os("HOME") else { return };
        let p = FilePrompt::new(FileAction::Export, Path::new("~/fig.png"));
        assert_eq!(p.chosen(), Some(PathBuf::from(home).join("fig.png")));
    }
}
