//! How many ruleset expressions this thread has parsed: the count behind the tests that a
//! typed text is parsed once per change, at the border, and never again per frame or on its way
//! from the window's editor to the map (`tests/it/window/parses.rs`). Per thread, so tests
//! running side by side never count each other's parses; one thread-local increment per parse.

use std::cell::Cell;

thread_local! {
    static RULESETS_PARSED: Cell<u64> = const { Cell::new(0) };
}

/// The ruleset expressions ([`crate::game::Ruleset`]'s `FromStr`) parsed on this thread so
/// far. A test reads it before and after what it checks; nothing else depends on it.
pub fn rulesets_parsed() -> u64 {
    RULESETS_PARSED.with(Cell::get)
}

/// Counts one parse (called by the parser only).
pub(crate) fn count_ruleset_parse() {
    RULESETS_PARSED.with(|c| c.set(c.get() + 1));
}
