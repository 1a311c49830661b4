//! The panels: the ruleset picker on the left (with the editor of typed rules), the inspector on
//! the right (with its move tree and play mode), the Cram board editor in the centre's second
//! tab, and the misère quotient window of misère octal games.

pub mod cram_editor;
pub mod inspector;
pub mod parsed;
pub mod quotient_view;
pub mod rule_editor;
pub mod ruleset_panel;

/// A row of widgets that wraps at the panel's visible edge (`ui`'s own width may run past it: a
/// panel narrower than its widest content, at 800 × 600 or at UI scale 2, cut such rows).
pub(crate) fn row<R>(ui: &mut egui::Ui, add: impl FnOnce(&mut egui::Ui) -> R) -> R {
    let visible = (ui.clip_rect().right() - ui.cursor().left()).min(ui.available_width());
    let layout = egui::Layout::left_to_right(egui::Align::Center).with_main_wrap(true);
    let height = ui.spacing().interact_size.y;
    ui.allocate_ui_with_layout(egui::vec2(visible.max(1.0), height), layout, add)
        .inner
}
