//! The command line as scripts see it: formats, statuses, determinism, refusals, attacks.

mod check_ranges;
mod cram_command;
mod cram_plan;
mod fuzz;
mod heap_fuzz;
mod interface;
mod terminal_errors;
mod typed_rules;
mod under_attack;
