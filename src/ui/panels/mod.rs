//! The panels: the ruleset picker on the left (with the editor of typed rules), the inspector on
//! the right (with its move tree and play mode), the Cram board editor in the centre's second
//! tab, and the misère quotient window of misère octal games.

pub mod cram_editor;
pub mod inspector;
pub mod parsed;
pub mod quotient_view;
pub mod rule_editor;
pub mod ruleset_panel;
