//! The integration tests, in one binary so the window's dependencies are linked once: the
//! layering of the source ([`architecture`]); independent brute forces against the solvers
//! ([`brute_force`], [`cram_solver`], plans of work units in [`cram_plan`], heap games at scale in [`heap_games`]); the command line
//! as scripts see it ([`cli`], [`check_ranges`], [`terminal_errors`], [`export_paths`]); the
//! exported map pooled truthfully ([`map_figure`]); maps far from the origin and answers by
//! their fastest method ([`far_maps`]); misère quotients against the plain misère search
//! ([`quotient`]); figures in SVG and PNG from one drawing,
//! with complete legends ([`figures`]); session files checked field by field
//! ([`session_validation`]); fuzz tests of sessions and export paths bounded in time ([`fuzz`])
//! and of extreme and malformed command lines with their peak memory ([`heap_fuzz`]); issue
//! 29's attacks one by one ([`under_attack`]); the
//! worker's lanes without a window ([`lane_budget`]); and the
//! window's behaviour through egui_kittest without a GPU ([`window`], [`inspector`],
//! [`cram_editor`], [`sessions`], [`last_state`]).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or tool fails loudly on the unexpected"
)]

mod architecture;
mod brute_force;
mod check_ranges;
mod cli;
mod cram_plan;
mod cram_solver;
mod export_paths;
mod far_maps;
mod figures;
mod fuzz;
mod heap_fuzz;
mod heap_games;
mod lane_budget;
mod map_figure;
mod quotient;
mod session_validation;
mod terminal_errors;
mod typed_rules;
mod under_attack;

#[cfg(feature = "gui")]
mod common;
#[cfg(feature = "gui")]
mod cram_editor;
#[cfg(feature = "gui")]
mod inspector;
#[cfg(feature = "gui")]
mod last_state;
#[cfg(feature = "gui")]
mod sessions;
#[cfg(feature = "gui")]
mod window;
#[cfg(feature = "gui")]
mod window_room;
#[cfg(feature = "gui")]
mod window_sequence;
#[cfg(feature = "gui")]
mod window_small;
#[cfg(feature = "gui")]
mod window_truth;
#[cfg(feature = "gui")]
mod window_use;
