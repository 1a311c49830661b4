//! Why a rule could not give the options of a position, and how messages name counts and
//! positions.

use crate::game::quote::quoted;

/// Why a rule could not give the options of a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// An operation went below zero, past 2^64 − 1, or divided by zero.
    #[error("term {term} of the rule, {}, at {position} ({bindings}): {what}", quoted(.text))]
    Arithmetic {
        /// The term, counted from 1.
        term: usize,
        /// The term's canonical text.
        text: String,
        /// The part that failed and how, e.g. `n - 2 goes below zero (1 - 2)`.
        what: String,
        /// The heap names and loop variables bound, e.g. `n = 1, k = 3`.
        bindings: String,
        /// The position, e.g. `heap 1` or `(3, 5)`.
        position: String,
    },
    #[error(
        "{position} {} options (term {term}, {}), more than the {limit} one position may have here; narrow the rule's ranges",
        count_words(*.count, "has more than", "would have about", *.limit),
        quoted(.text)
    )]
    /// The position has more than [`MAX_OPTIONS`](crate::game::rules::typed::MAX_OPTIONS) options.
    TooManyOptions {
        /// The term that made the option over the limit, counted from 1.
        term: usize,
        /// The term's canonical text.
        text: String,
        /// The position, e.g. `heap 1` or `(3, 5)`.
        position: String,
        /// The limit, [`MAX_OPTIONS`](crate::game::rules::typed::MAX_OPTIONS).
        limit: u64,
        /// The options counted before the cap (`None`), or the estimate that refused it.
        count: Option<u128>,
    },
    /// The term runs (or, by its ranges, would run) more than [`MAX_STEPS`](crate::game::rules::typed::MAX_STEPS) loop steps at the
    /// position.
    #[error(
        "term {term} of the rule, {}, {} loop steps at {position}, more than the {limit} one position may take; narrow its ranges",
        quoted(.text),
        count_words(*.count, "runs more than", "would run at least", *.limit)
    )]
    TooManySteps {
        /// The term, counted from 1.
        term: usize,
        /// The term's canonical text.
        text: String,
        /// The position, e.g. `heap 1` or `(3, 5)`.
        position: String,
        /// The limit, [`MAX_STEPS`](crate::game::rules::typed::MAX_STEPS).
        limit: u64,
        /// The steps counted before the cap (`None`), or the lower bound that refused it.
        count: Option<u128>,
    },
    #[error(
        "term {term} of the rule, {}, leads from {position} to {option}, which is not a position of the rule (its 'if' after the heaps says so)",
        quoted(.text)
    )]
    /// The term leads to a position the rule's domain (`if` after the heaps) excludes.
    OutsideDomain {
        /// The term, counted from 1.
        term: usize,
        /// The term's canonical text.
        text: String,
        /// The position, e.g. `heap 1` or `(3, 5)`.
        position: String,
        /// The option outside the domain, in the same form.
        option: String,
    },
    /// A collection of more heaps than one may hold.
    #[error(
        "term {term} of the rule, {}, makes a collection of more than {limit} heaps at {position}",
        quoted(.text)
    )]
    TooManyHeaps {
        /// The term's number, from 1.
        term: usize,
        /// The term's text.
        text: String,
        /// The position, e.g. `heap 1`.
        position: String,
        /// The most heaps a collection may have.
        limit: usize,
    },
    /// The caller's stop flag was raised.
    #[error("stopped")]
    Stopped,
}

/// "has more than" the cap, or "would have about N" (an estimate), for messages.
fn count_words(count: Option<u128>, counted: &str, estimated: &str, limit: impl Into<u128>) -> String {
    match count {
        None => format!("{counted} {}", big_number(limit.into())),
        Some(n) => format!("{estimated} {}", big_number(n)),
    }
}

/// A count as a reader takes it in: exact below a million, else `3.4e38`.
pub fn big_number(n: u128) -> String {
    if n < 1_000_000 {
        n.to_string()
    } else if n == u128::MAX {
        "3.4e38 (or more)".to_string()
    } else {
        format!("{:.1e}", n as f64)
    }
}

/// How a position is named in messages: `heap 5`, `(3, 4)`.
pub fn position_text(p: &[u64]) -> String {
    if p.len() == 1 {
        format!("heap {}", p[0])
    } else {
        format!("({})", p.iter().map(u64::to_string).collect::<Vec<_>>().join(", "))
    }
}
