//! The side panels: the ruleset picker on the left, the inspector on the right.

pub mod cram_editor;
pub mod inspector_panel;
pub mod ruleset_panel;
