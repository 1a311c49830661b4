//! The panels: the ruleset picker on the left, the inspector on the right (with its move tree
//! and play mode), and the Cram board editor in the centre's second tab; the misère quotient window of
//! misère octal games.

pub mod cram_editor;
pub mod inspector;
pub mod quotient_view;
pub mod ruleset_panel;
