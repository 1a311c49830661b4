//! The window's behaviour through egui_kittest, without a GPU: one file per part or behaviour
//! of the window, and `regression.rs` for contradictions it once showed. A new test goes in the
//! file of the part it drives (the map view, the ruleset panel, the inspector, ...); helpers
//! shared by several files go in `tests/it/common`.

mod cram_editor;
mod export;
mod figures;
mod inspector;
mod jobs;
mod keyboard;
mod layout;
mod map_view;
mod parses;
mod quotient;
mod regression;
mod room;
mod ruleset_panel;
mod sequence;
mod sessions;
mod status_and_help;
