//! Where everything goes in the window: the menu, the status bar, the side panels and the
//! central view (map, sequence, Cram board or a message), and the map's own view.

use super::notice::Notice;
use super::prefs::{Prefs, Side};
use super::*;
use crate::ui::canvas::{self, MapContext, sequence_view};
use crate::ui::panels::cram_editor::{self};
use crate::ui::panels::inspector::{self};
use crate::ui::panels::ruleset_panel::{self, PanelAction};
use crate::ui::theme;
use crate::worker::Lane;
use nimscope_core::game::{Layout, Presentation};
use nimscope_core::raster::axes::AxisTitles;
use nimscope_core::raster::{ColorMode, MarksShown};

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
        let map_layout = match self.central_view() {
            CentralView::Map(layout) => Some(layout),
            _ => None,
        };
        self.map_state.fit_region = self.sessions.region.clone();
        let room = side_panels_room(
            ui.ctx().content_rect().width(),
            (!on_board || self.rulesets_beside_board, !on_board),
            &self.prefs,
            self.insist,
        );
        self.panels_shown = room.clone();
        if let Some(range) = room.rulesets.clone() {
            egui::Panel::left("rulesets")
                .default_size(theme::SIDE_PANEL_WIDTH.clamp(*range.start(), *range.end()))
                .size_range(range)
                .show(ui, |ui| {
                    egui::ScrollArea::vertical().show(ui, |ui| {
                        let compare = self.map_state.color == ColorMode::Difference;
                        if let PanelAction::Apply(r) = ruleset_panel::ruleset_panel_ui(ui, &mut self.panel, compare) {
                            self.set_ruleset(r);
                        }
                    });
                });
        }
        if let Some(range) = room.inspector.clone() {
            // a range, and content that scrolls rather than pushes: the panel never grows to
            // its widest line and squeezes the map
            egui::Panel::right("inspector")
                .default_size(theme::INSPECTOR_WIDTH.clamp(*range.start(), *range.end()))
                .size_range(range)
                .show(ui, |ui| {
                    let (map, ruleset) = (&self.map, &self.ruleset);
                    let from_map = |p: &nimscope_core::game::Position| match &map_layout {
                        Some(layout) => map.value_of(ruleset, layout, p),
                        None => None,
                    };
                    inspector::inspector_ui(ui, &mut self.inspector, &self.ruleset, self.hovered, &from_map);
                });
        }
        egui::CentralPanel::default().show(ui, |ui| {
            // wrapped: on a narrow window (a large UI scale) the row never widens the map past
            // the window's edge
            ui.horizontal_wrapped(|ui| {
                let board_only = self.presentation() == Presentation::Board;
                ui.add_enabled_ui(!board_only, |ui| {
                    ui.selectable_value(&mut self.central_tab, CentralTab::ValueMap, "Value map")
                        .on_disabled_hover_text("Cram rulesets are played on a board");
                });
                ui.selectable_value(&mut self.central_tab, CentralTab::CramBoard, "Cram board");
                if !on_board {
                    ui.separator();
                    self.panel_toggles_ui(ui);
                }
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
                        if let Some(n) =
                            sequence_view::sequence_ui(ui, &s, self.map_state.color, &marks, &mut self.sequence_len)
                        {
                            self.inspector.doc.typed = n.to_string();
                            self.inspector.select_typed(&self.ruleset);
                        }
                    }
                    None => {
                        ui.label(format!("computing G(0..{})…", self.sequence_len));
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
        let range = self.color_top();
        let context = MapContext {
            tiles: &self.map.tiles,
            max: range.top,
            clipped: range.clipped_note(),
            pooling: self.sessions.figure.pooling,
            compare: &compare,
            titles: AxisTitles::of(&self.ruleset, layout),
            marks: MarksShown {
                selected: marks.selected.is_some(),
                options: marks.options.iter().any(|(_, w)| !w),
                winning: marks.options.iter().any(|(_, w)| *w),
            },
            limit: self.map_limit(),
            loopy: self.map.has_infinite(),
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

/// A side panel's width range on a window `width` points wide: its own range, narrowed so that
/// the panel never takes more than `share` of the window.
fn panel_range(base: f32, width: f32, share: f32) -> std::ops::RangeInclusive<f32> {
    let max = (base * 1.6).min(width * share).max(MIN_PANEL);
    let min = (base * 0.7).min(max);
    min..=max
}

/// The narrowest a side panel gets, in points.
const MIN_PANEL: f32 = 160.0;
/// The map's cells keep at least this width, in points: side panels that leave less are folded
/// away (the inspector first), and come back when the window is wide enough again.
pub const MIN_MAP_WIDTH: f32 = 360.0;
/// Room the map's axes and legend take beside its cells, in points.
const MAP_FRAME_WIDTH: f32 = 260.0;

/// Which side panels are drawn, and within which widths.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PanelsShown {
    pub rulesets: Option<std::ops::RangeInclusive<f32>>,
    pub inspector: Option<std::ops::RangeInclusive<f32>>,
    /// A panel the user wants is folded away for lack of room.
    pub folded_for_room: bool,
}

/// The side panels a window `width` points wide draws, given which may be shown here and which
/// the user wants: each at most a share of the window, and none when the map would be left
/// narrower than [`MIN_MAP_WIDTH`] (the inspector folds first), except the one the user last
/// asked for (`insist`): the other folds first, and it stays even if the map is then narrower.
fn side_panels_room(
    width: f32,
    (rulesets, inspector): (bool, bool),
    prefs: &Prefs,
    insist: Option<Side>,
) -> PanelsShown {
    let want_left = rulesets && prefs.show_rulesets;
    let want_right = inspector && prefs.show_inspector;
    let left = panel_range(theme::SIDE_PANEL_WIDTH, width, 0.28);
    let right = panel_range(theme::INSPECTOR_WIDTH, width, 0.32);
    let need = |l: bool, r: bool| {
        MIN_MAP_WIDTH + MAP_FRAME_WIDTH + if l { *left.start() } else { 0.0 } + if r { *right.start() } else { 0.0 }
    };
    let (mut l, mut r) = (want_left, want_right);
    let order = if insist == Some(Side::Inspector) {
        [Side::Rulesets, Side::Inspector]
    } else {
        [Side::Inspector, Side::Rulesets]
    };
    for side in order {
        if need(l, r) > width && insist != Some(side) {
            match side {
                Side::Rulesets => l = false,
                Side::Inspector => r = false,
            }
        }
    }
    PanelsShown {
        rulesets: l.then_some(left),
        inspector: r.then_some(right),
        folded_for_room: (want_left && !l) || (want_right && !r),
    }
}

impl App {
    /// The buttons that fold and unfold the side panels (also F2 and F3).
    fn panel_toggles_ui(&mut self, ui: &mut egui::Ui) {
        let shown = self.panels_shown.clone();
        let label = |on: bool, name: &str| {
            if on {
                format!("Hide {name}")
            } else {
                format!("Show {name}")
            }
        };
        if ui
            .selectable_label(shown.rulesets.is_some(), label(shown.rulesets.is_some(), "rulesets"))
            .on_hover_text("the ruleset panel on the left (F2)")
            .clicked()
        {
            self.toggle_panel(Side::Rulesets);
        }
        if ui
            .selectable_label(shown.inspector.is_some(), label(shown.inspector.is_some(), "inspector"))
            .on_hover_text("the inspector on the right (F3)")
            .clicked()
        {
            self.toggle_panel(Side::Inspector);
        }
        if shown.folded_for_room {
            ui.small("(folded: the window is narrow)").on_hover_text(
                "a side panel is folded so the map keeps its room; widen the window or lower the UI scale (Ctrl+minus)",
            );
        }
    }
}
