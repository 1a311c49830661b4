//! What the papers' checks share: maps and cells to compare, rows and tallies.

use crate::checks::row::{CheckRow, Tally};
use crate::game::Layout;
use crate::game::Ruleset;
// the theorems are checked against the fill from the origin, never against their own formulas
use crate::solver::grid::{Grid, filled as grid};
use crate::solver::{Control, SolveError};

pub(super) type Rows = Vec<CheckRow>;

pub(super) fn row(
    source: &str,
    statement: &str,
    range: String,
    checked: u64,
    counterexample: Option<String>,
) -> CheckRow {
    CheckRow::new(source, statement, range, checked, counterexample)
}

#[expect(
    clippy::expect_used,
    reason = "the table's rulesets are literals, each parsed by a test"
)]
pub(super) fn rules(text: &str) -> Ruleset {
    text.parse().expect("check rulesets are valid expressions")
}

pub(super) fn map(text: &str, n: u64, control: &Control) -> Result<Grid, SolveError> {
    // each map is a part of its own for the progress line: its share done and time left
    control.set_stage(format!("the map of {text}, {n}×{n}"));
    grid(&rules(text), &Layout::Plain, 0..n, 0..n, control)
}

/// Starts a part of the table that searches positions one at a time (`total` of them), for
/// the progress line: its name, its share done and the time left.
pub(super) fn searching(control: &Control, what: String, total: u64) {
    control.set_stage(what);
    control.set_total(total);
}

/// The cells of `[lo, n)²` in `domain`, each checked by `bad` (its counterexample, if it is
/// one).
pub(super) fn cells(
    lo: u64,
    n: u64,
    domain: impl Fn(u64, u64) -> bool,
    mut bad: impl FnMut(u64, u64) -> Option<String>,
) -> Tally {
    let mut t = Tally::default();
    for a in lo..n {
        for b in lo..n {
            if domain(a, b) {
                t.case(bad(a, b));
            }
        }
    }
    t
}

/// Every cell.
pub(super) fn all(_: u64, _: u64) -> bool {
    true
}

/// A value the solver should have computed but did not, as a counterexample.
pub(super) fn missing(what: &str, a: u64, b: u64) -> String {
    format!("no value of {what} at ({a},{b})")
}

pub(super) fn is_p(g: &Grid, a: u64, b: u64) -> bool {
    g.get(a, b) == Some(0)
}

impl Tally {
    /// Adds the row of these cases to `rows`.
    pub(super) fn push_to(self, rows: &mut Rows, source: &str, statement: &str, range: String) {
        rows.push(self.row(source, statement, range));
    }
}
