//! The File menu, its shortcuts and dialogs: open and save (with the question over unsaved
//! changes), the notes window, the window title and the question before closing.

use super::*;
use crate::ui::app::App;
use crate::ui::app::file_prompt::{FileAction, FilePrompt, PromptAnswer, file_prompt_window_ui};
use crate::ui::app::notice::Notice;
use nimscope_core::game::quote::quoted;

impl App {
    /// Keyboard shortcuts of the File menu; they wait while a text field has the focus (the
    /// keys belong to the typing there: a dialog must not open under the user's fingers).
    pub(in crate::ui::app) fn file_shortcuts_ui(&mut self, ctx: &egui::Context) {
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
    pub(super) fn save_dialog(&mut self, then: Option<AfterSaving>) {
        match self.sessions.path.clone() {
            Some(path) => match self.save_session(&path) {
                Ok(()) => self.after_saving(then),
                Err(e) => self.notice = Some(Notice::error(e)),
            },
            None => self.save_as_dialog(then),
        }
    }

    /// Shows the Save as prompt; `then` follows a successful save.
    pub(super) fn save_as_dialog(&mut self, then: Option<AfterSaving>) {
        let prefill = self.sessions.path.clone().unwrap_or_else(|| self.default_path("ron"));
        let prompt = FilePrompt::new(FileAction::SaveAs, &prefill);
        self.sessions.pending = Some(PendingFile { prompt, then });
    }

    /// What the question "save the changes first?" was waiting for, once saved.
    pub(super) fn after_saving(&mut self, then: Option<AfterSaving>) {
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
    pub(super) fn pending_file_ui(&mut self, ctx: &egui::Context) {
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
                        // the question over unsaved changes was asked before this prompt
                        // opened: one question, not two
                        self.sessions.pending = None;
                        self.open_now(Some(path));
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
    pub(in crate::ui::app) fn file_menu_ui(&mut self, ui: &mut egui::Ui) {
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
        let map = matches!(self.presentation(), nimscope_core::game::Presentation::Map(_));
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
    pub(in crate::ui::app) fn session_windows_ui(&mut self, ctx: &egui::Context) {
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

    pub(super) fn title_ui(&mut self, ctx: &egui::Context) {
        let dirty = if self.has_unsaved_changes() { " *" } else { "" };
        let title = format!("{}{dirty} - nimscope", self.session_name());
        if title != self.sessions.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.sessions.title = title;
        }
    }

    /// The title the window shows (for tests).
    pub fn window_title(&self) -> &str {
        &self.sessions.title
    }

    pub(super) fn notes_window_ui(&mut self, ctx: &egui::Context) {
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

    /// Closing with unsaved changes asks first; the last state is kept for the next start.
    pub(super) fn close_ui(&mut self, ctx: &egui::Context) {
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
    pub(super) fn save_first_ui(&mut self, ctx: &egui::Context) {
        let Some(after) = self.sessions.confirm.clone() else {
            return;
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
