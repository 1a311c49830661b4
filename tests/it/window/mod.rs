//! The window's behaviour through egui_kittest, without a GPU.

mod cram_editor;
mod inspector;
mod last_state;
mod map_view;
mod quotient;
mod sessions;
mod window_export;
mod window_room;
mod window_sequence;
mod window_small;
mod window_truth;
mod window_use;
