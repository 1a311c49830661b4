//! The command line as scripts see it, by command and by concern: `check` ([`check`]), `cram`
//! and its checkpoints ([`cram`]), work units ([`cram_plan`]), formats, statuses and
//! determinism across commands ([`interface`]), errors as a terminal shows them
//! ([`terminal_errors`]), generated inputs ([`fuzz`], [`heap_fuzz`]), and the history: each
//! finding of a bug report or an attack run as it was found ([`regression`]); typed rules'
//! findings of issue 39 ([`typed_rules`]).

mod check;
mod cram;
mod cram_plan;
mod desktop_entry;
mod fuzz;
mod heap_fuzz;
mod interface;
mod records;
mod regression;
mod terminal_errors;
mod typed_rules;
