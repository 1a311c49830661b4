//! The headless core against independent work: brute forces, closed forms, published tables,
//! the layering of the source.

mod architecture;
mod brute_force;
pub(crate) mod cram_solver;
mod far_maps;
mod figures;
mod heap_games;
mod map_figure;
mod quotient;
mod typed_rules;
