//! Check rows for seed 003 section 5 (Push Cram, Proposition 5.0.2 and Conjecture 5.0.3) and
//! for the classical Cram facts quoted there, computed over every rectangle up to a size limit.
//!
//! Each row says what was actually checked: when the [`Control`] is cancelled part way, the
//! range names the largest board finished and says that the run was stopped. A FAIL carries
//! the first counterexample board in the order the boards were checked.

use crate::checks::row::CheckRow;
use crate::game::rules::cram_board::Board;
use crate::solver::control::{Control, SolveError};
use crate::solver::cram::push::{PushCramSolver, post_push_value};
use crate::solver::cram::{CramSolver, Outcome};

/// Value of 0.07 on `n` cells, as the post-push value of a one-row board (0 cells: 0).
fn g007(n: usize) -> u32 {
    if n == 0 {
        return 0;
    }
    // A 1×n board exists for n <= 128, the largest n asked for here.
    Board::rectangle(1, n).map(|b| post_push_value(&b)).unwrap_or(0)
}

/// Runs `test` on `boards` in order until the first failure or cancellation, and builds the
/// row, counting the boards checked (none: the row is EMPTY). `test` returns `Ok(None)` for a board that agrees, `Ok(Some(why))` for a
/// counterexample.
fn run(
    control: &Control,
    source: &str,
    statement: &str,
    range: impl Fn(Option<&str>) -> String,
    boards: Vec<(usize, usize)>,
    mut test: impl FnMut(&Board) -> Result<Option<String>, SolveError>,
) -> CheckRow {
    let mut counterexample = None;
    let mut last_done: Option<String> = None;
    let mut stopped = false;
    let mut checked = 0;
    for (r, c) in boards {
        let Ok(board) = Board::rectangle(r, c) else {
            continue;
        };
        control.set_stage(format!("{source}, board {r}×{c}"));
        match test(&board) {
            Ok(None) => {
                checked += 1;
                last_done = Some(format!("{r}×{c}"));
            }
            Ok(Some(why)) => {
                checked += 1;
                counterexample = Some(format!("{r}×{c} ({board}): {why}"));
                break;
            }
            Err(_) => {
                stopped = true;
                break;
            }
        }
    }
    let mut range = range(last_done.as_deref());
    if stopped {
        range.push_str(&format!(
            " — stopped early (cancelled or over budget); last board finished: {}",
            last_done.as_deref().unwrap_or("none")
        ));
    }
    CheckRow::new(source, statement, range, checked, counterexample)
}

/// Rectangles `rows × cols` with `rows` in `rows_iter`, `cols >= 1`, `rows * cols <= max`,
/// kept by `keep`, ordered by cell count then rows.
fn rects(max: usize, keep: impl Fn(usize, usize) -> bool) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for r in 1..=max {
        for c in 1..=max / r {
            if keep(r, c) {
                out.push((r, c));
            }
        }
    }
    out.sort_by_key(|&(r, c)| (r * c, r));
    out
}

fn expect(
    solver: &mut PushCramSolver,
    b: &Board,
    want: Outcome,
    control: &Control,
) -> Result<Option<String>, SolveError> {
    let got = solver.outcome(b, control)?;
    Ok((got != want).then(|| format!("Push Cram outcome is {got}, expected {want}")))
}

/// Seed 003 Proposition 5.0.2 (i)–(v) and Conjecture 5.0.3 for Push Cram on every rectangle
/// of at most `max_cells` cells (each family within its own shape). Stops early, saying so in
/// the ranges, when `control` is cancelled.
pub fn check_push_cram(max_cells: usize, control: &Control) -> Vec<CheckRow> {
    let max = max_cells.min(128);
    let mut s = PushCramSolver::new();
    let src = "seed 003 Prop 5.0.2";
    let mut rows = Vec::new();

    rows.push(run(
        control,
        &format!("{src} (i)"),
        "Push Cram: (2k)×n is an N-position",
        |_| format!("(2k)×n for k ≥ 1, n ≥ 1, 2k·n ≤ {max}"),
        rects(max, |r, _| r % 2 == 0),
        |b| expect(&mut s, b, Outcome::N, control),
    ));
    rows.push(run(
        control,
        &format!("{src} (ii)"),
        "Push Cram: (2k+1)×n is an N-position if G_0.07(n) = 0",
        |_| format!("(2k+1)×n for k ≥ 0, n ≥ 1 with G_0.07(n) = 0, (2k+1)·n ≤ {max}"),
        rects(max, |r, c| r % 2 == 1 && g007(c) == 0),
        |b| expect(&mut s, b, Outcome::N, control),
    ));
    rows.push(run(
        control,
        &format!("{src} (iii)"),
        "Push Cram: 3×(2k) is a P-position",
        |last| {
            format!(
                "3×(2k) for k ≥ 1, 6k ≤ {max} (largest finished: {})",
                last.unwrap_or("none")
            )
        },
        rects(max, |r, c| r == 3 && c % 2 == 0),
        |b| expect(&mut s, b, Outcome::P, control),
    ));
    rows.push(run(
        control,
        &format!("{src} (iv)"),
        "Push Cram: n×3 is a P-position if and only if G_0.07(n) = 0",
        |last| {
            format!(
                "n×3 for n ≥ 1, 3n ≤ {max} (largest finished: {})",
                last.unwrap_or("none")
            )
        },
        rects(max, |_, c| c == 3),
        |b| {
            let want = if g007(b.rows()) == 0 { Outcome::P } else { Outcome::N };
            let got = s.outcome(b, control)?;
            Ok((got != want).then(|| format!("Push Cram outcome is {got}, G_0.07({}) = {}", b.rows(), g007(b.rows()))))
        },
    ));
    rows.push(run(
        control,
        &format!("{src} (v)"),
        "Push Cram: (2k+1)×4 is a P-position",
        |last| {
            format!(
                "(2k+1)×4 for k ≥ 0, 4(2k+1) ≤ {max} (largest finished: {})",
                last.unwrap_or("none")
            )
        },
        rects(max, |r, c| c == 4 && r % 2 == 1),
        |b| expect(&mut s, b, Outcome::P, control),
    ));
    rows.extend(push_cram_conjectures(max, &mut s, control));
    rows
}

/// Seed 003's Conjectures 5.0.3 on Push Cram boards of at most `max` cells.
fn push_cram_conjectures(max: usize, s: &mut PushCramSolver, control: &Control) -> Vec<CheckRow> {
    let mut rows = Vec::new();
    let conj = "seed 003 Conj 5.0.3";
    rows.push(run(
        control,
        &format!("{conj} (outcome)"),
        "Push Cram: 3×(2k+1) is an N-position",
        |last| {
            format!(
                "3×(2k+1) for k ≥ 0, 3(2k+1) ≤ {max} (largest finished: {})",
                last.unwrap_or("none")
            )
        },
        rects(max, |r, c| r == 3 && c % 2 == 1),
        |b| expect(s, b, Outcome::N, control),
    ));
    rows.push(run(
        control,
        &format!("{conj} (bluff)"),
        "Push Cram: 3×(2k+1) is a bluff position (every move, the push included, wins)",
        |last| {
            format!(
                "3×(2k+1) for k ≥ 0, 3(2k+1) ≤ {max} (largest finished: {})",
                last.unwrap_or("none")
            )
        },
        rects(max, |r, c| r == 3 && c % 2 == 1),
        |b| {
            if post_push_value(b) != 0 {
                return Ok(Some(format!(
                    "pushing the button loses (post-push value {} ≠ 0)",
                    post_push_value(b)
                )));
            }
            Ok(s.losing_vertical_move(b, control)?
                .map(|d| format!("vertical domino {d} loses")))
        },
    ));
    rows.push(run(
        control,
        &format!("{conj} (bluff, dominoes only; our variant)"),
        "Push Cram: in 3×(2k+1) with G_0.07(2k+1) ≠ 0 every vertical domino wins (and the push loses)",
        |last| {
            format!(
                "3×(2k+1) with G_0.07(2k+1) ≠ 0, 3(2k+1) ≤ {max} (largest finished: {})",
                last.unwrap_or("none")
            )
        },
        rects(max, |r, c| r == 3 && c % 2 == 1 && g007(c) != 0),
        |b| {
            if post_push_value(b) == 0 {
                return Ok(Some("pushing the button wins".to_string()));
            }
            Ok(s.losing_vertical_move(b, control)?
                .map(|d| format!("vertical domino {d} loses")))
        },
    ));
    rows.push(run(
        control,
        &format!("{conj} (bluff, dominoes only)"),
        "Push Cram: in 3×(2k+1) every vertical domino wins (the push is not counted)",
        |last| {
            format!(
                "3×(2k+1) for k ≥ 0, 3(2k+1) ≤ {max} (largest finished: {})",
                last.unwrap_or("none")
            )
        },
        rects(max, |r, c| r == 3 && c % 2 == 1),
        |b| {
            Ok(s.losing_vertical_move(b, control)?
                .map(|d| format!("vertical domino {d} loses")))
        },
    ));
    rows
}

/// The Cram facts quoted in seed 003 section 5: even×even rectangles are P (mirror strategy),
/// even×odd ones N (centre domino, then mirror), for every rectangle of at most `max_cells`
/// cells with both sides ≥ 1.
pub fn check_cram(max_cells: usize, control: &Control) -> Vec<CheckRow> {
    let max = max_cells.min(128);
    let mut s = CramSolver::new();
    let src = "seed 003 §5 (Cram)";
    let mut rows = Vec::new();
    rows.push(run(
        control,
        src,
        "Cram: an even×even rectangle is a P-position",
        |last| format!("(2a)×(2b), 4ab ≤ {max} (largest finished: {})", last.unwrap_or("none")),
        rects(max, |r, c| r % 2 == 0 && c % 2 == 0),
        |b| {
            let got = s.outcome(b, control)?;
            Ok((got != Outcome::P).then(|| format!("Cram outcome is {got}")))
        },
    ));
    rows.push(run(
        control,
        src,
        "Cram: an even×odd rectangle is an N-position",
        |last| {
            format!(
                "(2a)×(2b+1) and (2b+1)×(2a), ≤ {max} cells (largest finished: {})",
                last.unwrap_or("none")
            )
        },
        rects(max, |r, c| (r * c) % 2 == 0 && (r % 2 == 1 || c % 2 == 1)),
        |b| {
            let got = s.outcome(b, control)?;
            Ok((got != Outcome::N).then(|| format!("Cram outcome is {got}")))
        },
    ));
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn g007_matches_known_values() {
        let v: Vec<u32> = (0..10).map(g007).collect();
        assert_eq!(v, [0, 0, 1, 1, 2, 0, 3, 1, 1, 0]);
    }
}
