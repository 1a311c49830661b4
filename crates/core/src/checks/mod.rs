//! `nimscope check`: every closed form and characterisation of the seed papers compared with
//! the solver over a range. Each row names its statement, the range checked, how many cases it
//! held, and PASS, FAIL with the first counterexample, or EMPTY when the range held no case (a
//! statement checked on nothing has not passed). A FAIL is a finding to report, never a bug to
//! hide: the statements are implemented as written (in [`crate::game::theory`]), the values
//! computed by the plain solver.

mod compare;
pub mod cram;
mod papers;
pub mod row;
mod seed_000;
mod seed_001_002;
mod seed_003;
mod seed_004;

pub use papers::paper_checks;
pub use row::{CheckRow, Verdict};

use crate::solver::{Control, SolveError};

/// All rows of the table, in a fixed order; `upto` bounds the ranges derived from it (boards
/// of Push Cram up to `upto / 5` cells and of Cram up to `3 · upto / 20` cells); rows about
/// the papers' own listed examples check them at any bound.
pub fn all_checks(upto: u64, control: &Control) -> Result<Vec<CheckRow>, SolveError> {
    let mut rows = paper_checks(upto, control)?;
    let cells = |n: u64| n.min(cram_limit()) as usize;
    rows.extend(cram::check_push_cram(cells(upto / 5), control));
    rows.extend(cram::check_cram(cells(upto.saturating_mul(3) / 20), control));
    control.check()?;
    Ok(rows)
}

/// Boards larger than this are not part of the default table (minutes each).
fn cram_limit() -> u64 {
    60
}

/// Formats rows as a plain-text table (deterministic: same rows, same bytes).
pub fn format_table(rows: &[CheckRow]) -> String {
    let w_src = rows.iter().map(|r| r.source.chars().count()).max().unwrap_or(6).max(6);
    let w_stmt = rows
        .iter()
        .map(|r| r.statement.chars().count())
        .max()
        .unwrap_or(9)
        .max(9);
    let w_range = rows.iter().map(|r| r.range.chars().count()).max().unwrap_or(5).max(5);
    let pad = |s: &str, w: usize| format!("{s}{}", " ".repeat(w.saturating_sub(s.chars().count())));
    let mut out = format!(
        "{}  {}  {}  result\n",
        pad("source", w_src),
        pad("statement", w_stmt),
        pad("range", w_range)
    );
    for r in rows {
        let result = match (r.result, &r.counterexample) {
            (Verdict::Fail, Some(c)) => format!("FAIL: {c}"),
            (Verdict::Empty, _) => "EMPTY (no case in range)".to_string(),
            (v, _) => v.as_str().to_string(),
        };
        out.push_str(&format!(
            "{}  {}  {}  {result}\n",
            pad(&r.source, w_src),
            pad(&r.statement, w_stmt),
            pad(&r.range, w_range)
        ));
    }
    let count = |v: Verdict| rows.iter().filter(|r| r.result == v).count();
    out.push_str(&format!(
        "{} statements: {} PASS, {} FAIL, {} EMPTY (no case in range)\n",
        rows.len(),
        count(Verdict::Pass),
        count(Verdict::Fail),
        count(Verdict::Empty)
    ));
    out
}
