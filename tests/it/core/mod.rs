//! The core through the binary and the source: maps far out and quotients as the command line
//! prints them, figures, and the layering of the source. The core's own tests, which need no
//! binary, are in `crates/core/tests/it/`.

mod architecture;
mod far_maps;
mod figures;
mod quotient;
