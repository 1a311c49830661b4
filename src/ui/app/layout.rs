//! Where everything goes in the window: the menu, the status bar, the side panels and the
//! central view (map, sequence, Cram board or a message), and the map's own view.

use super::notice::Notice;
use super::*;
use crate::game::{Layout, Presentation};
use crate::raster::axes::AxisTitles;
use crate::raster::{ColorMode, MarksShown};
use crate::ui::canvas::{self, MapContext, sequence_view};
use crate::ui::panels::cram_editor::{self};
use crate::ui::panels::inspector::{self};
use crate::ui::panels::ruleset_panel::{self, PanelAction};
use crate::ui::theme;
use crate::worker::Lane;

impl App {
    /// Everything drawn in one frame (also what the behaviour tests drive).
    pub fn ui_root(&mut self, ui: &mut egui::Ui) {
        self.shortcuts_ui(ui.ctx());
        // the panels drawn before the map name the cell under the pointer now, and the status
        // bar counts the tiles just received
        self.hovered = match self.central_view() {
            CentralView::Map(_) => canvas::hovered_now(ui.ctx(), &self.map_state, &self.map.tiles),
            _ => None,
        };
        self.map_progress = self.map_state.progress(&self.map.tiles, self.map_limit());
        self.session_windows_ui(&ui.ctx().clone());
        egui::Panel::top("menu").show(ui, |ui| self.menu_ui(ui));
        // one height whatever it shows (a progress bar, a button), so the map never jumps
        let status_h = ui.spacing().interact_size.y + 2.0 * ui.spacing().item_spacing.y + 4.0;
        egui::Panel::bottom("status")
            .exact_size(status_h)
            .show(ui, |ui| self.status_bar_ui(ui));
        // The board editor has its own report column: the side panels give it their room
        // (the rulesets come back on demand, to leave a Cram ruleset).
        let on_board = self.central_view() == CentralView::Board;
        if !on_board || self.rulesets_beside_board {
            egui::Panel::left("rulesets")
                .default_size(theme::SIDE_PANEL_WIDTH)
                .size_range(theme::SIDE_PANEL_WIDTH * 0.8..=theme::SIDE_PANEL_WIDTH * 1.6)
                .show(ui, |ui| {
                    egui::ScrollArea::vertical().show(ui, |ui| {
                        let compare = self.map_state.color == ColorMode::Difference;
                        if let PanelAction::Apply(r) = ruleset_panel::ruleset_panel_ui(ui, &mut self.panel, compare) {
                            self.set_ruleset(r);
                        }
                    });
                });
        }
        if !on_board {
            // a fixed range, and content that scrolls rather than pushes: the panel never grows
            // to its widest line and squeezes the map
            egui::Panel::right("inspector")
                .default_size(theme::INSPECTOR_WIDTH)
                .size_range(theme::INSPECTOR_WIDTH * 0.75..=theme::INSPECTOR_WIDTH * 1.6)
                .show(ui, |ui| {
                    inspector::inspector_ui(ui, &mut self.inspector, &self.ruleset, self.hovered);
                });
        }
        egui::CentralPanel::default().show(ui, |ui| {
            ui.horizontal(|ui| {
                let board_only = self.presentation() == Presentation::Board;
                ui.add_enabled_ui(!board_only, |ui| {
                    ui.selectable_value(&mut self.central_tab, CentralTab::ValueMap, "Value map")
                        .on_disabled_hover_text("Cram rulesets are played on a board");
                });
                ui.selectable_value(&mut self.central_tab, CentralTab::CramBoard, "Cram board");
                if on_board {
                    ui.separator();
                    let label = if self.rulesets_beside_board {
                        "Hide the rulesets"
                    } else {
                        "Show the rulesets"
                    };
                    if ui.button(label).clicked() {
                        self.rulesets_beside_board = !self.rulesets_beside_board;
                    }
                }
            });
            match self.central_view() {
                CentralView::Board => {
                    let searched = self.worker.as_ref().and_then(|w| {
                        w.running()
                            .find(|r| r.lane == Lane::Cram)
                            .map(|r| r.control.progress().0)
                    });
                    cram_editor::cram_editor_ui(ui, &mut self.cram_editor, searched);
                }
                CentralView::Message(why) => {
                    ui.add_space(24.0);
                    ui.label(why);
                }
                CentralView::Map(layout) => self.map_view_ui(ui, &layout),
                CentralView::Sequence => match self.sequence.clone() {
                    Some(s) => {
                        let (selected, options) = self.inspector.strip_marks();
                        let marks = sequence_view::StripMarks { selected, options };
                        if let Some(n) = sequence_view::sequence_ui(ui, &s, self.map_state.color, &marks) {
                            self.inspector.doc.typed = n.to_string();
                            self.inspector.select_typed(&self.ruleset);
                        }
                    }
                    None => {
                        ui.label("computing the sequence…");
                    }
                },
            }
        });
        help::help_window_ui(ui.ctx(), &mut self.show_help, &mut self.help_page);
        crate::ui::panels::quotient_view::quotient_window_ui(ui.ctx(), &mut self.quotient, &self.ruleset);
    }

    /// The value map with the inspector's marks; a click selects the cell's position.
    pub(super) fn map_view_ui(&mut self, ui: &mut egui::Ui, layout: &Layout) {
        let compare = self.compare_with();
        let marks = self.inspector.map_marks(layout, &self.ruleset);
        let context = MapContext {
            tiles: &self.map.tiles,
            max: self.map.scale_max(),
            compare: &compare,
            titles: AxisTitles::of(&self.ruleset, layout),
            marks: MarksShown {
                selected: marks.selected.is_some(),
                options: marks.options.iter().any(|(_, w)| !w),
                winning: marks.options.iter().any(|(_, w)| *w),
            },
            limit: self.map_limit(),
        };
        let response = canvas::map_ui(ui, &mut self.map_state, &context);
        let progress = self.map_state.progress(&self.map.tiles, self.map_limit());
        if progress != self.map_progress {
            // the view moved this frame: the status bar, drawn before, catches up next frame
            self.map_progress = progress;
            crate::ui::repaint_once(ui.ctx());
        }
        self.hovered = response.hovered;
        if response.clicked
            && let Some(h) = self.hovered
        {
            let p = layout.position(&self.ruleset, h.cell);
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
        canvas::marks_ui(ui, &self.map_state, marks.selected, &marks.options);
    }
}
