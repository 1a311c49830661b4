//! The Cram board editor, a tab of the central area: build a Cram or Push Cram position (size,
//! blocked cells, dominoes, undo and redo, the board's text form) and study it (value and
//! outcome, components, every placement coloured by the value it leads to, the push and the
//! row values after it, the bluff property). Solving runs on the worker's Cram lane; `logic`
//! schedules it and the `*_ui` functions only draw and record what the user asked for. The
//! value shows as soon as the worker knows it; the placements fill in after it, with their
//! count so far, until the complete report arrives (or the user cancels).

use std::collections::HashMap;
use std::sync::Arc;

use crate::ui::canvas::board_view::{self, BoardAction, BoardView, Target};
use crate::ui::theme;
use crate::worker::{JobError, JobSpec, Lane, Output, Worker};
use nimscope_core::game::Outcome;
use nimscope_core::game::cram_setup::{CramDocument, CramGame, CramModel, EditError, Setup, SetupError};
use nimscope_core::game::rules::cram_board::Board;
use nimscope_core::solver::cram::push::PushMove;
use nimscope_core::solver::cram::report::{CramPhase, CramReport};

/// A position as the worker solves it.
pub type SolveKey = (Board, CramPhase);

/// Reports kept for positions solved earlier (undo and redo show them at once).
const REPORT_CACHE: usize = 256;

/// Where the solving of the current position stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SolveState {
    /// Nothing to solve (the board is invalid).
    Idle,
    Running,
    Done,
    Failed(JobError),
    Cancelled,
}

/// The editor: the model with its history, the solved reports, and what the user is doing.
pub struct CramEditor {
    pub model: CramModel,
    pub view: BoardView,
    reports: HashMap<SolveKey, Arc<CramReport>>,
    /// The newest partial report of the running job (its value first, then placements).
    partial: Option<Arc<CramReport>>,
    /// The position last sent to the worker (or found among the reports).
    key: Option<SolveKey>,
    /// The state of the job for `key`.
    state: SolveState,
    /// The last refused edit or paste, or a notice such as "copied".
    pub message: Option<String>,
    pub paste_text: String,
    pub hover: Option<Target>,
    cancel_requested: bool,
}

impl Default for CramEditor {
    fn default() -> Self {
        CramEditor {
            model: CramModel::default(),
            view: BoardView::default(),
            reports: HashMap::new(),
            partial: None,
            key: None,
            state: SolveState::Idle,
            message: None,
            paste_text: String::new(),
            hover: None,
            cancel_requested: false,
        }
    }
}

/// A value and its outcome in words.
fn describe_value(v: u32) -> String {
    match Outcome::of(v) {
        Outcome::P => format!("G = {v}, P (the previous player wins)"),
        Outcome::N => format!("G = {v}, N (the player to move wins)"),
        Outcome::D => format!("G = {v}, D (a draw)"),
    }
}

/// A move as the move list labels it.
pub fn move_label(m: PushMove) -> String {
    match m {
        PushMove::Place(d) => format!("place {d}"),
        PushMove::Push => "push the button".into(),
    }
}

impl CramEditor {
    /// An editor opened on a document (a saved session, the command line's `--board`).
    pub fn from_document(doc: &CramDocument) -> Result<CramEditor, EditError> {
        Ok(CramEditor {
            model: CramModel::from_document(doc)?,
            ..CramEditor::default()
        })
    }

    /// The editor's state as saved in sessions.
    pub fn document(&self) -> CramDocument {
        self.model.document()
    }

    /// Replaces the board with a saved one (no undo history); a bad document changes nothing.
    pub fn load_document(&mut self, doc: &CramDocument) -> Result<(), EditError> {
        self.model = CramModel::from_document(doc)?;
        self.message = None;
        Ok(())
    }

    pub fn setup(&self) -> &Setup {
        self.model.setup()
    }

    /// The game being played now: Cram, or Push Cram before or after the push.
    pub fn variant(&self) -> CramPhase {
        CramPhase::of(self.model.rules(), self.setup().pushed)
    }

    /// The position to solve, or every reason the drawing is not one.
    pub fn wanted(&self) -> Result<SolveKey, Vec<SetupError>> {
        Ok((self.setup().to_board()?, self.variant()))
    }

    /// The report of the current position: the complete one once solved, else the partial
    /// one the running (or cancelled) job sent, if any ([`CramReport::is_complete`]).
    pub fn report(&self) -> Option<&Arc<CramReport>> {
        let key = self.wanted().ok()?;
        self.reports.get(&key).or_else(|| {
            self.partial
                .as_ref()
                .filter(|p| (p.board, p.variant) == key && self.key == Some(key))
        })
    }

    /// The PNG figure of the board (see [`nimscope_core::figure::board::board_image`]).
    pub fn figure(&self, cell_px: u32) -> image::RgbaImage {
        nimscope_core::figure::board::board_image(self.setup(), self.report().map(|r| &**r), cell_px)
    }

    /// Takes a finished job of the Cram lane.
    pub fn receive(&mut self, spec: &JobSpec, result: Result<Output, JobError>) {
        let JobSpec::CramBoard { board, variant } = spec else {
            return;
        };
        let key = (*board, *variant);
        let current = self.key == Some(key);
        match result {
            Ok(Output::Cram(report)) => {
                if self.reports.len() >= REPORT_CACHE {
                    self.reports.clear();
                }
                self.reports.insert(key, report);
                if current {
                    self.partial = None;
                    self.state = SolveState::Done;
                }
            }
            Ok(Output::CramProgress(report)) if current => self.partial = Some(report),
            Ok(_) => {}
            Err(e) if current => self.state = SolveState::Failed(e),
            Err(_) => {}
        }
    }

    /// Asks the worker for the current position's report when it is not known yet.
    pub fn logic(&mut self, worker: &mut Worker) {
        if std::mem::take(&mut self.cancel_requested) {
            worker.cancel(Lane::Cram);
        }
        if self.state == SolveState::Running && !worker.is_running(Lane::Cram) {
            self.state = SolveState::Cancelled; // stopped here or by the status bar's Cancel
        }
        match self.wanted() {
            Err(_) => {
                if self.key.take().is_some() {
                    worker.cancel(Lane::Cram);
                }
                self.state = SolveState::Idle;
            }
            Ok(key) if self.key != Some(key) => {
                self.key = Some(key);
                self.partial = None;
                if self.reports.contains_key(&key) {
                    worker.cancel(Lane::Cram);
                    self.state = SolveState::Done;
                } else {
                    worker.submit(
                        Lane::Cram,
                        JobSpec::CramBoard {
                            board: key.0,
                            variant: key.1,
                        },
                    );
                    self.state = SolveState::Running;
                }
            }
            Ok(_) => {}
        }
    }

    /// Where the solving of the board as it is now stands (an edit not yet sent to the worker
    /// counts as running).
    pub fn state(&self) -> SolveState {
        match self.wanted() {
            Err(_) => SolveState::Idle,
            Ok(k) if self.key != Some(k) => SolveState::Running,
            Ok(_) => self.state.clone(),
        }
    }

    /// Solves the current position again after a failure or a cancel.
    pub fn retry(&mut self) {
        self.key = None;
    }

    /// Applies an edit, keeping the message of a refused one.
    fn edit(&mut self, edit: impl FnOnce(&mut Setup) -> Result<(), EditError>) {
        self.message = self.model.edit(edit).err().map(|e| e.to_string());
    }

    pub fn apply(&mut self, action: BoardAction) {
        match action {
            BoardAction::Toggle(r, c) => self.edit(|s| s.toggle_cell(r, c)),
            BoardAction::Place(d) => self.edit(|s| s.place(d)),
            BoardAction::Remove(r, c) => self.edit(|s| {
                s.remove_at(r, c);
                Ok(())
            }),
        }
    }

    /// Plays a move of the report: places its domino or pushes the button.
    pub fn play(&mut self, m: PushMove) {
        match m {
            PushMove::Place(d) => self.edit(|s| s.place(d)),
            PushMove::Push => self.edit(|s| {
                s.pushed = true;
                Ok(())
            }),
        }
    }

    pub fn undo(&mut self) {
        self.message = (!self.model.undo()).then(|| "nothing to undo".into());
    }

    pub fn redo(&mut self) {
        self.message = (!self.model.redo()).then(|| "nothing to redo".into());
    }

    /// Replaces the board with a pasted text form; bad text only sets the message.
    pub fn paste(&mut self, text: &str) {
        self.message = match self.model.paste(text) {
            Ok(()) => None,
            Err(e) => Some(format!("cannot use the pasted board: {e}")),
        };
    }

    /// Asks `logic` to stop the running job.
    pub fn cancel(&mut self) {
        self.cancel_requested = true;
    }
}

/// The keyboard: undo and redo (when no text field has the focus) and Ctrl+V to paste a board.
fn shortcuts_ui(ui: &egui::Ui, editor: &mut CramEditor) {
    if ui.ctx().text_edit_focused() {
        return;
    }
    let cmd = egui::Modifiers::COMMAND;
    let (redo, undo, paste) = ui.input_mut(|i| {
        let redo = i.consume_key(cmd | egui::Modifiers::SHIFT, egui::Key::Z) || i.consume_key(cmd, egui::Key::Y);
        let undo = i.consume_key(cmd, egui::Key::Z);
        let paste = i.events.iter().find_map(|e| match e {
            egui::Event::Paste(t) => Some(t.clone()),
            _ => None,
        });
        (redo, undo, paste)
    });
    if redo {
        editor.redo();
    } else if undo {
        editor.undo();
    }
    if let Some(text) = paste {
        editor.paste(&text);
    }
}

impl CramEditor {
    /// Draws the editor tab. `searched` is the running job's count of positions searched.
    pub fn ui(&mut self, ui: &mut egui::Ui, searched: Option<u64>) {
        cram_editor_ui(ui, self, searched);
    }
}

/// The editor tab (see [`CramEditor::ui`]).
fn cram_editor_ui(ui: &mut egui::Ui, editor: &mut CramEditor, searched: Option<u64>) {
    shortcuts_ui(ui, editor);
    toolbar_ui(ui, editor);
    ui.small(
        "Click a cell to block or unblock it; drag from an empty cell to its neighbour, or click the edge \
         between them, to place a domino; click a domino to remove it. Ctrl+Z undoes, Ctrl+Shift+Z or \
         Ctrl+Y redoes, Ctrl+V pastes a board.",
    );
    if let Some(m) = &editor.message {
        ui.colored_label(theme::error_text(ui.visuals()), m);
    }
    ui.separator();
    let avail = ui.available_size();
    let side = theme::CRAM_REPORT_WIDTH.min(avail.x * 0.45);
    ui.horizontal_top(|ui| {
        let board_size = egui::vec2((avail.x - side - 16.0).max(100.0), avail.y.max(100.0));
        let report = editor.report().cloned();
        let (action, hover) = board_view::board_ui(
            ui,
            &mut editor.view,
            editor.model.setup(),
            report.as_deref(),
            board_size,
        );
        editor.hover = hover;
        if let Some(a) = action {
            editor.apply(a);
            crate::ui::repaint_once(ui.ctx());
        }
        ui.separator();
        ui.vertical(|ui| {
            ui.set_width(side);
            egui::ScrollArea::vertical().show(ui, |ui| report_ui(ui, editor, searched));
        });
    });
}

fn toolbar_ui(ui: &mut egui::Ui, editor: &mut CramEditor) {
    ui.horizontal_wrapped(|ui| {
        let (mut rows, mut cols) = (editor.setup().rows(), editor.setup().cols());
        let l = ui.label("Rows");
        let r = ui
            .add(egui::DragValue::new(&mut rows).range(1..=nimscope_core::game::cram_setup::MAX_SIDE))
            .labelled_by(l.id);
        let l = ui.label("Columns");
        let c = ui
            .add(egui::DragValue::new(&mut cols).range(1..=nimscope_core::game::cram_setup::MAX_SIDE))
            .labelled_by(l.id);
        if r.changed() || c.changed() {
            editor.edit(|s| s.resize(rows, cols));
        }
        ui.separator();
        for (rules, name) in [(CramGame::Cram, "Cram"), (CramGame::PushCram, "Push Cram")] {
            if ui.radio(editor.model.rules() == rules, name).clicked() {
                editor.model.set_rules(rules);
                editor.message = None;
            }
        }
        ui.separator();
        if ui
            .add_enabled(editor.model.can_undo(), egui::Button::new("Undo"))
            .on_hover_text("Ctrl+Z")
            .clicked()
        {
            editor.undo();
        }
        if ui
            .add_enabled(editor.model.can_redo(), egui::Button::new("Redo"))
            .on_hover_text("Ctrl+Shift+Z or Ctrl+Y")
            .clicked()
        {
            editor.redo();
        }
        if ui
            .button("Clear")
            .on_hover_text("every cell empty, no domino")
            .clicked()
        {
            editor.edit(|s| {
                s.clear();
                Ok(())
            });
        }
        ui.separator();
        if ui
            .button("Copy board text")
            .on_hover_text("the position as `nimscope cram` takes it: dominoes become blocked cells")
            .clicked()
        {
            ui.ctx().copy_text(editor.setup().position_text());
            editor.message = None;
        }
        let l = ui.label("Board text");
        let edit = ui
            .add(
                egui::TextEdit::singleline(&mut editor.paste_text)
                    .id_salt("cram-board-text")
                    .desired_width(140.0)
                    .hint_text("..../.##./.... or 3x7"),
            )
            .labelled_by(l.id);
        let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if ui.button("Use board text").clicked() || enter {
            let text = editor.paste_text.clone();
            editor.paste(&text);
        }
    });
}

fn report_ui(ui: &mut egui::Ui, editor: &mut CramEditor, searched: Option<u64>) {
    let variant = editor.variant();
    ui.heading(variant.describe());
    if editor.model.rules() == CramGame::PushCram {
        push_phase_ui(ui, editor);
    }
    if let Err(errors) = editor.wanted() {
        ui.colored_label(theme::error_text(ui.visuals()), "Not solved; the board stays editable:");
        for e in errors {
            ui.colored_label(theme::error_text(ui.visuals()), e.to_string());
        }
        return;
    }
    solve_state_ui(ui, editor, searched);
    let Some(report) = editor.report().cloned() else { return };
    report_summary_ui(ui, &report);
    ui.separator();
    if let Some(m) = report_moves_ui(ui, editor, &report) {
        editor.play(m);
    }
}

/// Push Cram's phase, with the button that pushes (or goes back before the push).
fn push_phase_ui(ui: &mut egui::Ui, editor: &mut CramEditor) {
    {
        ui.horizontal_wrapped(|ui| {
            if editor.setup().pushed {
                ui.label("Phase: after the push (horizontal dominoes only).");
                if ui.button("Back before the push").clicked() {
                    editor.edit(|s| {
                        s.pushed = false;
                        Ok(())
                    });
                }
            } else {
                ui.label("Phase: before the push (vertical dominoes, or push the button).");
                if ui.button("Push the button").clicked() {
                    editor.play(PushMove::Push);
                }
            }
        });
    }
}

/// Where the solver is: running (with its progress, a few times a second), failed, cancelled.
fn solve_state_ui(ui: &mut egui::Ui, editor: &mut CramEditor, searched: Option<u64>) {
    match editor.state() {
        SolveState::Running => {
            let partial = editor.report().map(|r| (r.moves.len(), r.moves_total));
            ui.horizontal_wrapped(|ui| {
                // no spinner: it would redraw the window every frame while the search runs
                // the button first: it stays put while the text beside it grows
                if ui.button("Cancel solving").clicked() {
                    editor.cancel();
                }
                let searched = searched.map_or(String::new(), |n| format!(": {n} positions searched"));
                ui.label(match partial {
                    Some((done, total)) => format!("valuing the placements, {done} of {total}{searched}"),
                    None => format!("solving{searched}"),
                });
            });
            ui.ctx().request_repaint_after(crate::ui::PROGRESS_INTERVAL);
        }
        SolveState::Failed(e) => {
            ui.colored_label(theme::error_text(ui.visuals()), format!("Cannot solve this board: {e}"));
            ui.label("The board stays editable.");
            if ui.button("Solve again").clicked() {
                editor.retry();
            }
        }
        SolveState::Cancelled => {
            ui.label("Solving was cancelled.");
            if ui.button("Solve again").clicked() {
                editor.retry();
            }
        }
        SolveState::Idle | SolveState::Done => {}
    }
}

/// The report's value, bluff, row values after the push and components.
fn report_summary_ui(ui: &mut egui::Ui, report: &CramReport) {
    ui.label(format!("Value: {}", describe_value(report.value)));
    ui.label(if !report.is_complete() {
        "Bluff position: known once every placement is valued"
    } else if report.bluff {
        "Bluff position: yes (every move wins)"
    } else {
        "Bluff position: no"
    });
    if report.variant != CramPhase::Cram {
        ui.separator();
        ui.label("Row values after the push (0.07 of each row's runs):");
        for (r, v) in report.row_values.iter().enumerate() {
            ui.label(format!("row {r}: {v}"));
        }
        if let Some(v) = report.post_push_value() {
            ui.label(format!("After the push: {}", describe_value(v)));
        }
    }
    ui.separator();
    ui.label(format!("Components (outlined): {}", report.components.len()));
    for (i, comp) in report.components.iter().enumerate() {
        let cells = comp.cells.count_ones();
        ui.label(match comp.value {
            Some(v) => format!("component {}: {cells} cells, G = {v}", i + 1),
            None => format!("component {}: {cells} cells", i + 1),
        });
    }
    if report.variant == CramPhase::PushBefore && report.components.len() > 1 {
        ui.small("Before the push the components do not add up: the push acts on all of them.");
    }
}

/// The placements: the one under the pointer, the count, and the list (a click plays one,
/// returned).
fn report_moves_ui(ui: &mut egui::Ui, editor: &CramEditor, report: &CramReport) -> Option<PushMove> {
    let hovered = match editor.hover {
        Some(Target::Edge(d)) => report.move_of(d),
        _ => None,
    };
    match hovered {
        Some(m) => ui.label(format!(
            "Pointer: {} leads to {}{}",
            move_label(m.mv),
            m.value.map_or_else(
                || if m.winning {
                    "a P-position".into()
                } else {
                    "an N-position".into()
                },
                |v| format!("G = {v}")
            ),
            if m.winning { ", winning" } else { "" }
        )),
        None => ui.label("Pointer: hover a placement for its value"),
    };
    let wins = report.moves.iter().filter(|m| m.winning).count();
    ui.label(if report.is_complete() {
        format!("Moves: {} ({wins} winning)", report.moves.len())
    } else {
        format!(
            "Moves: {} of {} valued so far, most promising first ({wins} winning)",
            report.moves.len(),
            report.moves_total
        )
    });
    ui.small(if report.variant == CramPhase::PushBefore {
        "Placements: green, edged white = winning; red = losing."
    } else {
        "Placements: green, edged white = winning (leads to G = 0); the others from blue-grey (G = 1) \
         to yellow (the largest value)."
    });
    let mut play = None;
    egui::Grid::new("cram_moves").striped(true).show(ui, |ui| {
        for m in &report.moves {
            if ui.small_button(move_label(m.mv)).clicked() {
                play = Some(m.mv);
            }
            ui.label(match (m.value, m.winning) {
                (Some(v), _) => format!("G = {v}"),
                (None, true) => "to a P-position".into(),
                (None, false) => "to an N-position".into(),
            });
            if m.winning {
                ui.colored_label(
                    crate::ui::theme::color32(nimscope_core::figure::board::colors::WINNING),
                    "winning",
                );
            } else {
                ui.label("");
            }
            ui.end_row();
        }
    });
    play
}
