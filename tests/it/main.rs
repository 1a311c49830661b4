//! The integration tests, in one binary so the window's dependencies are linked once, grouped
//! by face and subsystem: the headless core against independent work ([`core`]: brute forces,
//! closed forms, maps far out, quotients, typed rules, figures, the layering of the source);
//! the command line as scripts see it ([`cli`]: formats, refusals, fuzzing, attacks, work
//! units); files ([`files`]: sessions field by field, export paths); the worker's lanes
//! ([`worker`]); and the window through egui_kittest without a GPU ([`window`]). What they
//! share is in [`common`].
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or tool fails loudly on the unexpected"
)]

mod cli;
mod common;
mod core;
mod docs;
mod files;
mod worker;

#[cfg(feature = "gui")]
mod window;
