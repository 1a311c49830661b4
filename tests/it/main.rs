//! The application's integration tests, in one binary so the window's dependencies are linked
//! once. Where a new test goes:
//!
//! - a property of the core that needs no binary and no window (values against a brute force,
//!   a closed form, a published table): `crates/core/tests/it/`, which builds without the GUI
//!   toolkit (`cargo test -p nimscope-core`);
//! - the core seen through the binary or the source ([`core`]: maps far out, quotients as
//!   printed, figures, the layering of the source);
//! - a command as a script sees it ([`cli`]: one file per command or concern, findings in
//!   `cli/regression.rs`);
//! - files on disk ([`files`]: sessions, export paths); the worker's lanes ([`worker`]);
//! - the window through egui_kittest without a GPU ([`window`]: one file per panel or
//!   workflow, findings in `window/regression.rs`);
//! - the documents against the code ([`docs`]).
//!
//! What the tests share (running the binary, example sessions, temporary folders removed on
//! drop, FIFOs, the window's harness) is in [`common`], once.
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
