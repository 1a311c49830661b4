//! One row of the `nimscope check` table: a statement from a paper, the range it was checked
//! on, and PASS or FAIL with the first counterexample.

/// Result of checking one statement against computation.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CheckRow {
    /// Where the statement comes from, e.g. "seed 003 Thm 3.1.6".
    pub source: String,
    /// The statement in a few words.
    pub statement: String,
    /// The range of positions checked, e.g. "0 <= a, b < 200".
    pub range: String,
    /// `None` for PASS; `Some(counterexample)` for FAIL.
    pub counterexample: Option<String>,
}
