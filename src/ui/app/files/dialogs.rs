//! The File menu, its shortcuts and dialogs: the Open, Save as and CSV prompts, the question
//! over unsaved changes before closing or opening, the notes window, the window title and
//! closing. What needs the whole session (opening, saving, exporting) goes back to the app as an
//! [`Action`].

use super::{PendingFile, SessionFiles};
use crate::ui::app::action::{Action, AfterSaving};
use crate::ui::app::file_prompt::{FileAction, PromptAnswer, file_prompt_window_ui};
use nimscope_core::game::quote::quoted;

impl SessionFiles {
    /// Keyboard shortcuts of the File menu; they wait while a text field has the focus (the
    /// keys belong to the typing there: a dialog must not open under the user's fingers).
    pub fn shortcuts_ui(&mut self, ctx: &egui::Context) -> Action {
        use egui::{Key, KeyboardShortcut, Modifiers};
        if ctx.text_edit_focused() {
            return Action::None;
        }
        let save_as = KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, Key::S);
        if ctx.input_mut(|i| i.consume_shortcut(&save_as)) {
            return Action::SaveAs(None);
        }
        if ctx.input_mut(|i| i.consume_key(Modifiers::COMMAND, Key::S)) {
            return Action::Save(None);
        }
        if ctx.input_mut(|i| i.consume_key(Modifiers::COMMAND, Key::O)) {
            return Action::Open(None);
        }
        if ctx.input_mut(|i| i.consume_key(Modifiers::COMMAND, Key::E)) {
            return Action::ShowExport;
        }
        Action::None
    }

    /// The File menu's entries; `csv`: the centre shows a map, whose visible values can be
    /// written as CSV.
    pub fn menu_ui(&mut self, ui: &mut egui::Ui, csv: bool) -> Action {
        let mut action = Action::None;
        if ui.button("Open session…  (Ctrl+O)").clicked() {
            ui.close();
            action = Action::Open(None);
        }
        let recent = self.window_state.recent.clone();
        ui.add_enabled_ui(!recent.is_empty(), |ui| {
            ui.menu_button("Open recent", |ui| {
                for path in recent {
                    if ui.button(path.display().to_string()).clicked() {
                        ui.close();
                        action = Action::Open(Some(path));
                    }
                }
            });
        });
        if ui.button("Save session  (Ctrl+S)").clicked() {
            ui.close();
            action = Action::Save(None);
        }
        if ui.button("Save session as…  (Ctrl+Shift+S)").clicked() {
            ui.close();
            action = Action::SaveAs(None);
        }
        ui.separator();
        if ui.button("Export figure (PNG or SVG)…  (Ctrl+E)").clicked() {
            ui.close();
            action = Action::ShowExport;
        }
        let values = ui
            .add_enabled(csv, egui::Button::new("Export visible values as CSV…"))
            .on_hover_text("the values of the cells the map shows, as `nimscope grid` writes them")
            .on_disabled_hover_text("for the value map of two heaps");
        if values.clicked() {
            ui.close();
            action = Action::CsvPrompt;
        }
        if ui.button("Session notes…").clicked() {
            ui.close();
            self.show_notes = true;
        }
        ui.separator();
        if ui.button("Quit  (Ctrl+Q)").clicked() {
            ui.close();
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        }
        action
    }

    /// The title, the notes window, the file prompt, closing and the question over unsaved
    /// changes (`dirty`), and the autosave when due.
    pub fn windows_ui(&mut self, ctx: &egui::Context, dirty: bool) -> Action {
        self.title_ui(ctx, dirty);
        self.notes_window_ui(ctx);
        let prompt = self.pending_file_ui(ctx);
        let close = self.close_ui(ctx, dirty);
        let question = self.save_first_ui(ctx);
        let autosave = if self.autosave_due() {
            Action::WriteState
        } else {
            Action::None
        };
        prompt.or(close).or(question).or(autosave)
    }

    fn title_ui(&mut self, ctx: &egui::Context, dirty: bool) {
        let star = if dirty { " *" } else { "" };
        let title = format!("{}{star} - nimscope", self.session_name());
        if title != self.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
    }

    fn notes_window_ui(&mut self, ctx: &egui::Context) {
        let mut open = self.show_notes;
        egui::Window::new("Session notes").open(&mut open).show(ctx, |ui| {
            ui.label("Saved with the session.");
            ui.add(
                egui::TextEdit::multiline(&mut self.notes)
                    .desired_rows(10)
                    .desired_width(f32::INFINITY),
            )
            .labelled_by(ui.label("Notes").id);
        });
        self.show_notes = open;
    }

    /// The Open, Save as or CSV prompt, when one is waiting; what its answer asks for.
    fn pending_file_ui(&mut self, ctx: &egui::Context) -> Action {
        let Some(pending) = &mut self.pending else {
            return Action::None;
        };
        let heading = match pending.prompt.action {
            FileAction::Open => "Open a session",
            FileAction::SaveAs => "Save the session as",
            FileAction::Export => "Export",
            FileAction::ExportCsv => "Export the visible values as CSV",
        };
        match file_prompt_window_ui(ctx, &mut pending.prompt, heading) {
            PromptAnswer::Waiting => Action::None,
            PromptAnswer::Cancel => {
                self.pending = None;
                Action::None
            }
            PromptAnswer::Confirm(path) => match pending.prompt.action {
                FileAction::Open => {
                    // the question over unsaved changes was asked before this prompt opened:
                    // one question, not two
                    self.pending = None;
                    Action::OpenNow(Some(path))
                }
                FileAction::ExportCsv => Action::CsvTo(path),
                FileAction::SaveAs | FileAction::Export => Action::SaveTo(path, pending.then.clone()),
            },
        }
    }

    /// Closing with unsaved changes asks first; the last state is kept for the next start.
    fn close_ui(&mut self, ctx: &egui::Context, dirty: bool) -> Action {
        if std::mem::take(&mut self.close_requested) {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
        if ctx.input(|i| i.viewport().close_requested()) {
            if self.close_now || !dirty {
                return Action::WriteState;
            }
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.confirm = Some(AfterSaving::Close);
        }
        Action::None
    }

    /// The question "save the changes first?" before closing or opening another session.
    fn save_first_ui(&mut self, ctx: &egui::Context) -> Action {
        let Some(after) = self.confirm.clone() else {
            return Action::None;
        };
        let name = self.session_name();
        let (question, discard) = match after {
            AfterSaving::Close => (
                format!("Save the changes to {} before closing?", quoted(&name)),
                "Close without saving",
            ),
            AfterSaving::Open(_) => (
                format!("Save the changes to {} before opening another session?", quoted(&name)),
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
                    self.confirm = None;
                }
            });
        });
        if modal.should_close() && answer.is_none() {
            self.confirm = None; // Escape or a click outside: as Cancel
        }
        let Some(save) = answer else {
            return Action::None;
        };
        self.confirm = None;
        if save {
            // to the session's file, or through the Save as prompt; closing or opening follows
            return Action::Save(Some(after));
        }
        match after {
            AfterSaving::Close => {
                self.close_now = true;
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
                Action::None
            }
            AfterSaving::Open(path) => Action::OpenNow(path),
        }
    }
}

impl PendingFile {
    /// What the prompt is for.
    pub fn action(&self) -> FileAction {
        self.prompt.action
    }
}
