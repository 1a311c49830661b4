//! The inspector: what is known about the cell under the pointer or the selected cell. The full
//! move tree and play mode come with the inspector issue; this shows the position, its value and
//! outcome, and how the map colours it.

use crate::game::Outcome;

/// A cell to describe.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CellInfo {
    pub a: u64,
    pub b: u64,
    /// `None`: not computed yet; `Some(None)`: not a position.
    pub value: Option<Option<u32>>,
}

/// Text describing a cell, as shown in the inspector and the status bar.
pub fn describe(cell: &CellInfo) -> String {
    match cell.value {
        None => format!("({}, {}): not computed yet", cell.a, cell.b),
        Some(None) => format!("({}, {}): not a position", cell.a, cell.b),
        Some(Some(g)) => format!("({}, {}): G = {g}, {}", cell.a, cell.b, Outcome::of(g)),
    }
}

pub fn inspector_ui(ui: &mut egui::Ui, ruleset: &str, hovered: Option<CellInfo>, selected: Option<CellInfo>) {
    ui.heading("Inspector");
    ui.label(format!("ruleset: {ruleset}"));
    ui.separator();
    match hovered {
        Some(c) => ui.label(format!("under the pointer {}", describe(&c))),
        None => ui.label("point at a cell to read its value"),
    };
    if let Some(c) = selected {
        ui.separator();
        ui.strong("selected");
        ui.label(describe(&c));
    }
}
