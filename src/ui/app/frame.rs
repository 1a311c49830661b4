//! What one frame draws: the menu bar and its View menu, the status bar, the side panels
//! (rulesets, inspector), the centre with its tabs, and the windows over them; every part is
//! asked for its [`super::Action`], which the app routes.

use super::export::ExportContext;
use super::map_view::MapInputs;
use super::notice::Notice;
use super::status_bar::{CentreJob, StatusBar, rate_text};
use super::{App, CentralView};
use crate::ui::canvas::sequence_view::StripMarks;
use crate::ui::job::JobState;
use crate::ui::panels::ruleset_panel::PanelAction;
use crate::ui::theme;
use crate::worker::Lane;
use nimscope_core::game::{CentralTab, Layout, Position, Presentation};
use nimscope_core::raster::ColorMode;

/// The height of the menu bar and the View menu's margins, in points: the menu's scrolling
/// part takes the rest of the window's height.
const MENU_BAR_ROOM: f32 = 48.0;

impl App {
    /// Everything drawn in one frame (also what the behaviour tests drive).
    pub fn ui_root(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        self.shortcuts_ui(&ctx);
        let view = self.central_view();
        // the panels drawn before the map name the cell under the pointer now, and the status
        // bar counts the tiles just received
        self.map
            .before_panels(&ctx, matches!(view, CentralView::Map(_)), self.region.clone());
        let dirty = self.has_unsaved_changes();
        let files = self.files.windows_ui(&ctx, dirty);
        self.route(files);
        self.export_window_ui(&ctx);
        egui::Panel::top("menu").show(ui, |ui| self.menu_bar_ui(ui));
        // one height whatever it shows (a progress bar, a button), so the map never jumps
        let status_h = ui.spacing().interact_size.y + 2.0 * ui.spacing().item_spacing.y + 4.0;
        egui::Panel::bottom("status")
            .exact_size(status_h)
            .show(ui, |ui| self.status_bar_ui(ui, &view));
        self.room
            .follow_selection(self.inspector.root().map(ToString::to_string));
        self.side_panels_ui(ui, &view);
        egui::CentralPanel::default().show(ui, |ui| self.central_ui(ui));
        self.help.ui(&ctx);
        self.quotient.ui(&ctx, &self.ruleset);
    }

    /// The window's keys: Ctrl+Q, the preferences' keys, Escape, the File menu's shortcuts,
    /// the inspector's arrows (while the pointer is over it) and the map's keys.
    fn shortcuts_ui(&mut self, ctx: &egui::Context) {
        if ctx.input_mut(|i| i.consume_key(egui::Modifiers::COMMAND, egui::Key::Q)) {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
        if let Some(scale) = self.room.keys_ui(ctx) {
            self.map.state_mut().zoom_restored = Some(scale);
        }
        // Escape closes the windows over the map (the file prompts and the unsaved-changes
        // question close on it themselves, as Cancel)
        if !self.files.modal_open() && ctx.input(|i| i.key_pressed(egui::Key::Escape)) {
            self.help.close();
            self.export.show(false);
            self.files.show_notes(false);
            self.quotient.open = false;
        }
        let files = self.files.shortcuts_ui(ctx);
        self.route(files);
        self.inspector.keyboard_ui(ctx); // the arrows, while the pointer is over the inspector
        self.map.keyboard_ui(ctx);
    }

    /// The menu bar: File, View (the looks first, as a projector needs them, then the map's
    /// entries; it scrolls where the screen is short) and Help.
    fn menu_bar_ui(&mut self, ui: &mut egui::Ui) {
        use egui::{Key, Modifiers};
        let csv = matches!(self.presentation(), Presentation::Map(_));
        // the menus by keyboard: F10 or Alt+F gives the File menu the focus, Alt+V the View
        // menu, Alt+H Help; Enter opens the focused menu
        let [to_file, to_view, to_help] = ui.input_mut(|i| {
            [
                i.consume_key(Modifiers::NONE, Key::F10) || i.consume_key(Modifiers::ALT, Key::F),
                i.consume_key(Modifiers::ALT, Key::V),
                i.consume_key(Modifiers::ALT, Key::H),
            ]
        });
        egui::MenuBar::new().ui(ui, |ui| {
            let file = ui.menu_button("File", |ui| {
                let action = self.files.menu_ui(ui, csv);
                self.route(action);
            });
            // the View menu holds fields (the colours' top): it stays open while they are
            // clicked and typed into, and closes on a click outside it or Escape
            let stays_open =
                egui::containers::menu::MenuConfig::new().close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside);
            let (view, _) = egui::containers::menu::MenuButton::new("View")
                .config(stays_open)
                .ui(ui, |ui| self.view_menu_ui(ui));
            let help = ui.menu_button("Help", |ui| self.help.menu_ui(ui));
            for (to, button) in [(to_file, &file.response), (to_view, &view), (to_help, &help.response)] {
                if to {
                    button.request_focus();
                }
            }
        });
    }

    /// The View menu: the looks, then the map's entries, in a part that scrolls where the
    /// window is short.
    fn view_menu_ui(&mut self, ui: &mut egui::Ui) {
        // the window's height below the menu bar (the popup's own position is not known yet
        // while it is sized: a room taken from it cut the menu at half the window's height)
        let room = (ui.ctx().content_rect().height() - MENU_BAR_ROOM).max(120.0);
        // A popup is sized within egui's default area (400 points high) unless its content
        // asks for more: the menu asks for its content's height (as of the last frame) up to
        // the room, or it scrolled at half a 1280 × 800 window's height and seemed to end at
        // the colour range
        let tall = egui::Id::unique("view menu content height");
        let content = ui.ctx().data(|d| d.get_temp::<f32>(tall)).unwrap_or(room);
        ui.set_min_height(content.min(room));
        let shown = egui::ScrollArea::vertical()
            .max_height(room)
            .scroll_bar_visibility(egui::scroll_area::ScrollBarVisibility::AlwaysVisible)
            .show(ui, |ui| {
                self.room.menu_ui(ui);
                ui.separator();
                self.map.menu_ui(ui, &mut self.figure, self.region.as_ref());
            });
        ui.ctx().data_mut(|d| d.insert_temp(tall, shown.content_size.y));
    }

    /// The one state of the centre's job (the map's fill, or the one-heap sequence when
    /// `sequence`), which the centre and the status bar both read.
    fn centre_state(&self, sequence: bool) -> JobState {
        let running = self
            .worker
            .as_ref()
            .and_then(|w| w.running().find(|r| r.lane == Lane::Map));
        self.map.job_state(sequence, running)
    }

    /// The centre's job for the status bar: its state and the words on its progress.
    fn centre_job(&mut self, view: &CentralView) -> Option<CentreJob> {
        let sequence = match view {
            CentralView::Map(_) => false,
            CentralView::Sequence => true,
            CentralView::Board | CentralView::Message(_) => return None,
        };
        let state = self.centre_state(sequence);
        let running = matches!(state, JobState::Running { .. });
        // the map's words are kept even when not shown: they count the fill from the view's start
        let map_text = self.map.progress_text(running);
        let (what, detail) = if sequence {
            let rate = self
                .worker
                .as_ref()
                .and_then(|w| w.running().find(|r| r.lane == Lane::Map))
                .filter(|_| state.fraction().is_some())
                .map(|r| rate_text(r.control.progress().0, r.started.elapsed().as_secs_f64(), r.spec.unit()));
            (self.map.sequence_what(), rate)
        } else {
            ("the map".to_string(), map_text)
        };
        let detail = detail.filter(|_| running);
        Some(CentreJob { what, state, detail })
    }

    /// The status bar.
    fn status_bar_ui(&mut self, ui: &mut egui::Ui, view: &CentralView) {
        let centre = self.centre_job(view);
        let bar = StatusBar {
            worker: self.worker.as_ref(),
            centre,
            status: self.map.status_text(),
            notice: self.notice.as_ref(),
            hovered: self.map.hovered(),
        };
        let action = bar.ui(ui);
        self.route(action);
    }

    /// The ruleset panel on the left and the inspector on the right, where there is room (the
    /// board editor has its own report column: the side panels give it their room, the
    /// rulesets coming back on demand to leave a Cram ruleset).
    fn side_panels_ui(&mut self, ui: &mut egui::Ui, view: &CentralView) {
        let on_board = *view == CentralView::Board;
        let width = ui.ctx().content_rect().width();
        let room = self
            .room
            .measure(width, (!on_board || self.rulesets_beside_board, !on_board));
        if let Some(range) = room.rulesets {
            egui::Panel::left("rulesets")
                .default_size(theme::SIDE_PANEL_WIDTH.clamp(*range.start(), *range.end()))
                .size_range(range)
                .show(ui, |ui| {
                    egui::ScrollArea::vertical().show(ui, |ui| {
                        let compare = self.map.state().color == ColorMode::Difference;
                        if let PanelAction::Apply(r) = self.rulesets.ui(ui, compare) {
                            self.set_ruleset(r);
                        }
                    });
                });
        }
        if let Some(range) = room.inspector {
            let map_layout = match view {
                CentralView::Map(layout) => Some(layout),
                _ => None,
            };
            // a range, and content that scrolls rather than pushes: the panel never grows to
            // its widest line and squeezes the map
            egui::Panel::right("inspector")
                .default_size(theme::INSPECTOR_WIDTH.clamp(*range.start(), *range.end()))
                .size_range(range)
                .show(ui, |ui| {
                    let (map, ruleset) = (&self.map, &self.ruleset);
                    let from_map = |p: &Position| map_layout.and_then(|layout| map.value_of(ruleset, layout, p));
                    self.inspector.ui(ui, &self.ruleset, self.map.hovered(), &from_map);
                });
        }
    }

    /// The centre: its tabs and what the presentation shows there.
    fn central_ui(&mut self, ui: &mut egui::Ui) {
        let view = self.central_view();
        let on_board = view == CentralView::Board;
        // wrapped: on a narrow window (a large UI scale) the row never widens the map past the
        // window's edge
        ui.horizontal_wrapped(|ui| {
            let board_only = Presentation::of(&self.ruleset, &self.layout) == Presentation::Board;
            ui.add_enabled_ui(!board_only, |ui| {
                ui.selectable_value(&mut self.tab, CentralTab::ValueMap, "Value map")
                    .on_disabled_hover_text("Cram rulesets are played on a board");
            });
            ui.selectable_value(&mut self.tab, CentralTab::CramBoard, "Cram board");
            ui.separator();
            if on_board {
                let label = if self.rulesets_beside_board {
                    "Hide the rulesets"
                } else {
                    "Show the rulesets"
                };
                if ui.button(label).clicked() {
                    self.rulesets_beside_board = !self.rulesets_beside_board;
                }
            } else {
                self.room.toggles_ui(ui);
            }
        });
        // the tab chosen just now is shown in this frame
        match self.central_view() {
            CentralView::Board => {
                let searched = self.worker.as_ref().and_then(|w| {
                    w.running()
                        .find(|r| r.lane == Lane::Cram)
                        .map(|r| r.control.progress().0)
                });
                self.cram_editor.ui(ui, searched);
            }
            CentralView::Message(why) => {
                ui.add_space(24.0);
                ui.label(why);
            }
            CentralView::Map(layout) => self.map_ui(ui, &layout),
            CentralView::Sequence => {
                let (selected, options) = self.inspector.strip_marks();
                let job = self.centre_state(true);
                if let Some(n) = self.map.sequence_ui(ui, &StripMarks { selected, options }, &job) {
                    self.inspector.doc.typed = n.to_string();
                    self.inspector.select_typed(&self.ruleset);
                }
            }
        }
    }

    /// The value map with the inspector's marks; a click selects the cell's position, or in a
    /// game plays the move to it.
    fn map_ui(&mut self, ui: &mut egui::Ui, layout: &Layout) {
        let compare = self.compare_with();
        let marks = self.inspector.map_marks(layout, &self.ruleset);
        let inputs = MapInputs {
            ruleset: &self.ruleset,
            layout,
            selected: marks.selected,
            options: &marks.options,
            compare: &compare,
            figure: &self.figure,
        };
        let job = self.centre_state(false);
        let Some(cell) = self.map.map_ui(ui, &inputs, &job) else {
            return;
        };
        let p = layout.position(&self.ruleset, cell);
        if self.inspector.playing() {
            // a click on the map plays that move; anything else is refused with a word
            if let Err(why) = self.inspector.play_to(&p) {
                self.notice = Some(Notice::error(format!("not played: {why}")));
            }
        } else {
            self.inspector.doc.typed = p.to_string();
            self.inspector.select_typed(&self.ruleset);
        }
    }

    /// The Export figure window, while open.
    fn export_window_ui(&mut self, ctx: &egui::Context) {
        let context = ExportContext {
            session_region: self.region.as_ref(),
            visible: self.map.visible_region(),
            level: self.map.state().level(),
            default_path: self.files.default_path("png"),
            exporting: self.worker.as_ref().is_some_and(|w| w.is_running(Lane::Export)),
        };
        let action = self.export.ui(ctx, &mut self.figure, &context);
        self.route(action);
    }
}
