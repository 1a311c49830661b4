//! The integration tests, in one binary so the window's dependencies are linked once: the
//! layering of the source ([`architecture`]),
//! independent brute forces against the solvers ([`brute_force`], [`cram_solver`]), the command
//! line as scripts see it ([`cli`]), the exported map pooled truthfully ([`map_figure`]), and
//! the window's behaviour through egui_kittest without a GPU ([`window`], [`inspector`],
//! [`cram_editor`], [`sessions`]).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or tool fails loudly on the unexpected"
)]

mod architecture;
mod brute_force;
mod cli;
mod cram_solver;
mod map_figure;

#[cfg(feature = "gui")]
mod common;
#[cfg(feature = "gui")]
mod cram_editor;
#[cfg(feature = "gui")]
mod inspector;
#[cfg(feature = "gui")]
mod sessions;
#[cfg(feature = "gui")]
mod window;
