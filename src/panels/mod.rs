//! The side panels: the ruleset picker on the left, the inspector on the right (with its move
//! tree and play mode).

pub mod cram_editor;
pub mod inspector_panel;
pub mod move_tree;
pub mod play_panel;
pub mod ruleset_panel;
