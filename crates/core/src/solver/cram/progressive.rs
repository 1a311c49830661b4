//! The board editor's report, value first: [`cram_report_progressive`] computes the same
//! [`CramReport`] as `cram_report` but shows it to the caller as
//! it grows, so the window can print the position's value in a second and fill in the
//! placements after it (the full report of 5×7 takes about half a minute).
//!
//! The API: `cram_report_progressive(&board, variant, &mut solvers, &control, on_update)`
//! calls `on_update(&partial)` with each partial report and returns the complete one:
//! 1. first, as soon as it is known, the value and outcome, the components (with their values
//!    where they have them) and the Push Cram row values, with no move yet;
//! 2. then, after each placement valued (placements settled by look-ups alone come in one
//!    batch), the report with one entry more in `moves`. The entries stay in the report's
//!    canonical order (that of `cram_report`), so a list drawn from them never reorders; the
//!    progress is `moves.len()` of `moves_total` ([`CramReport::is_complete`]);
//! 3. the complete report is the return value (never passed to `on_update`): equal, field by
//!    field, to `cram_report`'s (tested below on every board the brute force checks).
//!
//! `bluff` is final only in the complete report (`false` before). Cancelling `control` ends
//! the job with [`SolveError::Cancelled`]; the partial reports already handed out stay true.
//!
//! The order of the placements, most promising first:
//! - Cram: first the placements whose value the table and the closed forms already give
//!   ([`CramSolver::peek`]): the value search that came before stored the value-0 option it
//!   found, so for a first-player win a winning placement is among them; then the others,
//!   those with the fewest moves left in their unknown components first (the solver's own
//!   option order: the cheapest to settle, so the list fills fastest). A placement symmetric
//!   to one already valued is a look-up by then.
//! - Push Cram before the push: the push first (its value is a closed form), then the vertical
//!   dominoes in row-major order, each an outcome search.
//! - Push Cram after the push: everything is a closed form; the report comes whole.
//!
//! [`CramSolver::peek`]: super::CramSolver::peek

use super::Peek;
use super::push::{PushMove, post_push_value};
use super::report::{
    ComponentValue, CramPhase, CramReport, CramSolvers, MoveValue, components, cram_report, row_values,
};
use crate::game::Outcome;
use crate::game::rules::cram_board::{Board, Domino};
use crate::solver::control::{Control, SolveError};

fn unreachable_move(e: impl ToString) -> SolveError {
    SolveError::Unsupported(e.to_string())
}

/// The report's moves, one slot per legal move in canonical order, filled as they are valued.
struct Slots {
    slots: Vec<Option<MoveValue>>,
}

impl Slots {
    fn new(n: usize) -> Slots {
        Slots { slots: vec![None; n] }
    }

    /// Copies the filled slots, in order, into the report.
    fn fill(&self, report: &mut CramReport) {
        report.moves = self.slots.iter().flatten().cloned().collect();
    }
}

/// A placement whose value is known.
fn placed(d: Domino, value: u32) -> MoveValue {
    MoveValue {
        mv: PushMove::Place(d),
        value: Some(value),
        winning: value == 0,
    }
}

/// Computes the report of `board` under `variant`, handing each partial report to
/// `on_update` (see the module's header); returns the complete report. Cancellable through
/// `control`.
pub fn cram_report_progressive(
    board: &Board,
    variant: CramPhase,
    solvers: &mut CramSolvers,
    control: &Control,
    mut on_update: impl FnMut(&CramReport),
) -> Result<CramReport, SolveError> {
    if variant == CramPhase::PushAfter {
        // Closed forms only: nothing to wait for.
        return cram_report(board, variant, solvers, control);
    }
    control.check()?;
    let comps = components(board);
    let sub_board = |cells: u128| Board::from_mask(board.rows(), board.cols(), cells).map_err(unreachable_move);
    let mut report = CramReport {
        board: *board,
        variant,
        value: 0,
        outcome: Outcome::P,
        components: Vec::with_capacity(comps.len()),
        moves: Vec::new(),
        row_values: Vec::new(),
        bluff: false,
        moves_total: 0,
    };
    let mut emit = |report: &CramReport| {
        if !report.is_complete() {
            on_update(report);
        }
    };
    if variant == CramPhase::Cram {
        for &cells in &comps {
            let v = solvers.cram.value(&sub_board(cells)?, control)?;
            report.value ^= v;
            report.components.push(ComponentValue { cells, value: Some(v) });
        }
        report.outcome = Outcome::of(report.value);
        let moves = board.legal_moves();
        report.moves_total = moves.len();
        emit(&report);
        let mut slots = Slots::new(moves.len());
        let mut pending = Vec::new();
        for (i, &d) in moves.iter().enumerate() {
            control.check()?;
            let after = board.place(d).map_err(unreachable_move)?;
            match solvers.cram.peek(&after, control)? {
                Peek::Known(v) => slots.slots[i] = Some(placed(d, v)),
                Peek::Unknown { moves, cells } => pending.push((moves, cells, i, after)),
            }
        }
        if pending.len() < moves.len() {
            slots.fill(&mut report);
            emit(&report);
        }
        pending.sort_unstable_by_key(|&(moves, cells, i, _)| (moves, cells, i));
        for (_, _, i, after) in pending {
            control.check()?;
            let v = solvers.cram.value(&after, control)?;
            slots.slots[i] = Some(placed(moves[i], v));
            slots.fill(&mut report);
            emit(&report);
        }
    } else {
        report.row_values = row_values(board);
        report.components = comps
            .iter()
            .map(|&cells| ComponentValue { cells, value: None })
            .collect();
        report.value = solvers.push.value(board, control)?;
        report.outcome = Outcome::of(report.value);
        let verticals = board.vertical_moves();
        report.moves_total = verticals.len() + 1;
        emit(&report);
        // Vertical dominoes in row-major order, then the push (as in `cram_report`).
        let mut slots = Slots::new(verticals.len() + 1);
        let after_push = post_push_value(board);
        slots.slots[verticals.len()] = Some(MoveValue {
            mv: PushMove::Push,
            value: Some(after_push),
            winning: after_push == 0,
        });
        slots.fill(&mut report);
        emit(&report);
        for (i, &d) in verticals.iter().enumerate() {
            control.check()?;
            let after = board.place(d).map_err(unreachable_move)?;
            let winning = solvers.push.outcome(&after, control)? == Outcome::P;
            slots.slots[i] = Some(MoveValue {
                mv: PushMove::Place(d),
                value: None,
                winning,
            });
            slots.fill(&mut report);
            emit(&report);
        }
    }
    report.bluff = !report.moves.is_empty() && report.moves.iter().all(|m| m.winning);
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Boards up to 3×5 with blocked cells from a fixed pseudo-random sequence, plus a few
    /// larger ones with many symmetric placements.
    fn boards() -> Vec<Board> {
        let mut out = Vec::new();
        let mut seed = 0x2545_f491_u64;
        for rows in 1..=3 {
            for cols in 1..=5 {
                for _ in 0..4 {
                    let mut mask = 0u128;
                    for i in 0..rows * cols {
                        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                        if !(seed >> 33).is_multiple_of(5) {
                            mask |= 1 << i;
                        }
                    }
                    out.push(Board::from_mask(rows, cols, mask).unwrap());
                }
            }
        }
        for text in ["4x4", "3x5", "4x5", "3x6", "..#../...../.....", "1x9", "2x7"] {
            out.push(text.parse().unwrap());
        }
        out
    }

    /// The partial reports and the complete one, each from fresh solvers.
    fn run(b: &Board, variant: CramPhase) -> (Vec<CramReport>, CramReport) {
        let mut partial = Vec::new();
        let full = cram_report_progressive(b, variant, &mut CramSolvers::default(), &Control::new(), |r| {
            partial.push(r.clone())
        })
        .unwrap();
        (partial, full)
    }

    #[test]
    fn same_report_as_the_full_one_value_first_placements_growing() {
        for b in boards() {
            for variant in [CramPhase::Cram, CramPhase::PushBefore, CramPhase::PushAfter] {
                let reference = cram_report(&b, variant, &mut CramSolvers::default(), &Control::new()).unwrap();
                let (partial, full) = run(&b, variant);
                assert_eq!(full, reference, "{b} {variant:?}");
                assert!(full.is_complete());
                // The value comes first, before any placement (the push being a placement
                // too), whenever there is one to wait for.
                if variant != CramPhase::PushAfter && full.moves_total > 0 {
                    assert!(partial[0].moves.is_empty(), "{b} {variant:?}");
                }
                let mut last = None;
                for p in &partial {
                    assert!(!p.is_complete(), "{b}: the complete report is returned, not passed");
                    assert_eq!(
                        (p.value, p.outcome, p.moves_total),
                        (full.value, full.outcome, full.moves_total)
                    );
                    assert_eq!((&p.components, &p.row_values), (&full.components, &full.row_values));
                    assert!(!p.bluff);
                    // Entries of the full report, in its order, one batch more each time.
                    let mut rest = full.moves.iter();
                    assert!(p.moves.iter().all(|m| rest.any(|f| f == m)), "{b} {variant:?}");
                    assert!(last.is_none_or(|n| p.moves.len() > n));
                    last = Some(p.moves.len());
                }
            }
        }
    }

    #[test]
    fn a_winning_placement_comes_with_the_first_batch() {
        // For a first-player win of Cram, the value search has stored a winning option: the
        // first placements shown include one.
        for b in boards() {
            let (partial, full) = run(&b, CramPhase::Cram);
            if full.outcome != Outcome::N {
                continue;
            }
            match partial.iter().find(|p| !p.moves.is_empty()) {
                Some(first) => assert!(first.moves.iter().any(|m| m.winning), "{b}: {first:?}"),
                // every placement was known at once: the report came whole
                None => assert!(full.moves.iter().any(|m| m.winning)),
            }
        }
    }

    #[test]
    fn cancelled_keeps_the_partial_reports_true() {
        let b: Board = "5x5".parse().unwrap();
        let full = cram_report(&b, CramPhase::Cram, &mut CramSolvers::default(), &Control::new()).unwrap();
        let control = Control::new();
        let mut seen = Vec::new();
        let r = cram_report_progressive(&b, CramPhase::Cram, &mut CramSolvers::default(), &control, |p| {
            seen.push(p.clone());
            if p.moves.len() >= 3 {
                control.cancel();
            }
        });
        assert_eq!(r, Err(SolveError::Cancelled));
        let last = seen.last().unwrap();
        assert!(last.moves.len() >= 3 && !last.is_complete());
        assert_eq!(last.value, full.value);
        assert!(last.moves.iter().all(|m| full.moves.contains(m)));
    }
}
