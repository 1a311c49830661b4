//! The core's integration tests, in one binary, each against independent work: brute forces
//! written here from the rules alone ([`brute_force`], [`cram_solver`]), published tables and
//! closed forms ([`heap_games`]), the map's figures against the plain search ([`map_figure`]),
//! and typed rules against hand-written brute forces ([`typed_rules`]). They need no window
//! and no binary: `cargo test -p nimscope-core` runs them without building the GUI toolkit.
//! What runs the `nimscope` binary is tested in the application's `tests/it/`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or tool fails loudly on the unexpected"
)]

mod brute_force;
mod cram_solver;
mod heap_games;
mod loopy;
mod map_figure;
mod records;
mod typed_rules;
