//! Everything the board editor shows about one Cram or Push Cram position, computed in one
//! cancellable job: the value and outcome, the connected components with their values, every
//! legal move with the value (or, before the push, the outcome) it leads to, and for Push Cram
//! the value after the push row by row and the bluff property. [`cram_report`] computes it in
//! one piece; [`super::progressive`] gives the value first and then the placements one by one.

use super::CramSolver;
use super::push::{PushCramSolver, PushMove, post_push_value};
use crate::game::Outcome;
pub use crate::game::cram_game::CramPhase;
use crate::game::rules::cram_board::{Board, Domino, low_bits};
use crate::solver::control::{Control, SolveError};

/// A connected region of empty cells (4-neighbours).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ComponentValue {
    /// Bitboard of its cells, bit `r * cols + c`.
    pub cells: u128,
    /// Its value as a game on its own; `None` before the Push Cram push, where components do
    /// not add up as a disjunctive sum (the push acts on all of them at once).
    pub value: Option<u32>,
}

/// One legal move and where it leads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveValue {
    /// The move: a domino placed, or (Push Cram) the push.
    pub mv: PushMove,
    /// Value of the position after the move; `None` for vertical dominoes before the push,
    /// whose outcome alone is searched.
    pub value: Option<u32>,
    /// The move leaves a P-position.
    pub winning: bool,
}

/// The editor's report on one position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CramReport {
    /// The position reported on.
    pub board: Board,
    /// Which game and phase: Cram, or Push Cram before or after the push.
    pub variant: CramPhase,
    /// Its Grundy value.
    pub value: u32,
    /// Who wins from it: P (the player to move loses) or N.
    pub outcome: Outcome,
    /// In order of their first cell (row-major).
    pub components: Vec<ComponentValue>,
    /// Cram: in [`Board::legal_moves`] order; before the push: vertical dominoes in row-major
    /// order, then the push; after the push: horizontal dominoes in row-major order.
    pub moves: Vec<MoveValue>,
    /// Push Cram: for each row, the XOR of the 0.07 values of its empty runs; their XOR is the
    /// value after the push. Empty for Cram.
    pub row_values: Vec<u32>,
    /// A first-player win in which every move wins (final once the report is complete).
    pub bluff: bool,
    /// The number of legal moves: `moves` holds all of them once the report is complete, and
    /// fewer in the partial reports of [`super::progressive`].
    pub moves_total: usize,
}

impl CramReport {
    /// The move record of a domino, if it is legal here.
    pub fn move_of(&self, d: Domino) -> Option<&MoveValue> {
        self.moves.iter().find(|m| m.mv == PushMove::Place(d))
    }

    /// Whether every move has its entry (always, except in a partial report).
    pub fn is_complete(&self) -> bool {
        self.moves.len() == self.moves_total
    }

    /// The value after the push (Push Cram), the XOR of the row values.
    pub fn post_push_value(&self) -> Option<u32> {
        (self.variant != CramPhase::Cram).then(|| self.row_values.iter().fold(0, |a, b| a ^ b))
    }
}

/// The solvers a report needs, kept between jobs for their transposition tables.
#[derive(Default)]
pub struct CramSolvers {
    /// Solver of Cram positions (and of Push Cram's components after the push).
    pub cram: CramSolver,
    /// Solver of Push Cram positions before the push.
    pub push: PushCramSolver,
}

/// The connected components of the empty cells of `board`, in order of their first cell.
pub fn components(board: &Board) -> Vec<u128> {
    let (rows, cols) = (board.rows(), board.cols());
    let mut rest = board.empty_mask();
    let mut out = Vec::new();
    while rest != 0 {
        let start = rest.trailing_zeros() as usize;
        let mut comp = 0u128;
        let mut stack = vec![start];
        rest &= !(1u128 << start);
        while let Some(i) = stack.pop() {
            comp |= 1u128 << i;
            let (r, c) = (i / cols, i % cols);
            let mut visit = |j: usize| {
                if rest >> j & 1 == 1 {
                    rest &= !(1u128 << j);
                    stack.push(j);
                }
            };
            if c + 1 < cols {
                visit(i + 1);
            }
            if c > 0 {
                visit(i - 1);
            }
            if r + 1 < rows {
                visit(i + cols);
            }
            if r > 0 {
                visit(i - cols);
            }
        }
        out.push(comp);
    }
    out
}

/// The Push Cram row values after the push: per row, the XOR of 0.07 over its empty runs.
pub fn row_values(board: &Board) -> Vec<u32> {
    let cols = board.cols();
    (0..board.rows())
        .map(|r| {
            let row = board.empty_mask() >> (r * cols) & low_bits(cols);
            Board::from_mask(1, cols, row).map_or(0, |b| post_push_value(&b))
        })
        .collect()
}

fn unreachable_move(e: impl ToString) -> SolveError {
    SolveError::Unsupported(e.to_string())
}

/// Computes the report of `board` under `variant`; cancellable through `control`.
pub fn cram_report(
    board: &Board,
    variant: CramPhase,
    solvers: &mut CramSolvers,
    control: &Control,
) -> Result<CramReport, SolveError> {
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
    match variant {
        CramPhase::Cram => {
            for &cells in &comps {
                let v = solvers.cram.value(&sub_board(cells)?, control)?;
                report.value ^= v;
                report.components.push(ComponentValue { cells, value: Some(v) });
            }
            for (d, v) in solvers.cram.move_values(board, control)? {
                report.moves.push(MoveValue {
                    mv: PushMove::Place(d),
                    value: Some(v),
                    winning: v == 0,
                });
            }
        }
        CramPhase::PushAfter => {
            for &cells in &comps {
                let v = post_push_value(&sub_board(cells)?);
                report.value ^= v;
                report.components.push(ComponentValue { cells, value: Some(v) });
            }
            for d in board.horizontal_moves() {
                let v = post_push_value(&board.place(d).map_err(unreachable_move)?);
                report.moves.push(MoveValue {
                    mv: PushMove::Place(d),
                    value: Some(v),
                    winning: v == 0,
                });
            }
            report.row_values = row_values(board);
        }
        CramPhase::PushBefore => {
            report.row_values = row_values(board);
            let after_push = post_push_value(board);
            for (mv, winning) in solvers.push.move_outcomes(board, control)? {
                let value = (mv == PushMove::Push).then_some(after_push);
                report.moves.push(MoveValue { mv, value, winning });
            }
            report.components = comps
                .iter()
                .map(|&cells| ComponentValue { cells, value: None })
                .collect();
            report.value = solvers.push.value(board, control)?;
        }
    }
    report.outcome = Outcome::of(report.value);
    report.bluff = !report.moves.is_empty() && report.moves.iter().all(|m| m.winning);
    report.moves_total = report.moves.len();
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::mex;
    use crate::game::rules::cram_board::Orientation;
    use std::collections::HashMap;

    /// The plain mex recursion over whole boards, with `allowed` picking the dominoes.
    fn brute(b: &Board, allowed: &dyn Fn(&Board) -> Vec<Domino>, memo: &mut HashMap<Board, u32>) -> u32 {
        if let Some(&v) = memo.get(b) {
            return v;
        }
        let opts: Vec<u32> = allowed(b)
            .into_iter()
            .map(|d| brute(&b.place(d).unwrap(), allowed, memo))
            .collect();
        let v = mex(opts);
        memo.insert(*b, v);
        v
    }

    /// Push Cram before the push by brute force: vertical dominoes or the push.
    fn brute_push(b: &Board, memo: &mut HashMap<Board, u32>, after: &mut HashMap<Board, u32>) -> u32 {
        if let Some(&v) = memo.get(b) {
            return v;
        }
        let mut opts = vec![brute(b, &Board::horizontal_moves, after)];
        for d in b.vertical_moves() {
            opts.push(brute_push(&b.place(d).unwrap(), memo, after));
        }
        let v = mex(opts);
        memo.insert(*b, v);
        v
    }

    /// Small boards with a sprinkling of blocked cells, from a fixed pseudo-random sequence.
    fn boards() -> Vec<Board> {
        let mut out = Vec::new();
        let mut seed = 0x9e37_79b9_u64;
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
        out
    }

    #[test]
    fn cram_report_matches_brute_force() {
        let mut solvers = CramSolvers::default();
        let control = Control::new();
        let mut memo = HashMap::new();
        for b in boards() {
            let r = cram_report(&b, CramPhase::Cram, &mut solvers, &control).unwrap();
            assert_eq!(r.value, brute(&b, &Board::legal_moves, &mut memo), "{b}");
            // the components nim-sum to the whole and cover the empty cells exactly once
            let xor = r.components.iter().fold(0, |a, c| a ^ c.value.unwrap());
            assert_eq!(xor, r.value, "{b}");
            let union = r.components.iter().fold(0u128, |a, c| {
                assert_eq!(a & c.cells, 0);
                a | c.cells
            });
            assert_eq!(union, b.empty_mask());
            assert_eq!(r.moves.len(), b.legal_moves().len());
            for m in &r.moves {
                let PushMove::Place(d) = m.mv else {
                    panic!("no push in Cram")
                };
                let after = brute(&b.place(d).unwrap(), &Board::legal_moves, &mut memo);
                assert_eq!(m.value, Some(after));
                assert_eq!(m.winning, after == 0);
            }
            assert_eq!(r.bluff, solvers.cram.is_bluff(&b, &control).unwrap(), "{b}");
        }
    }

    #[test]
    fn push_cram_reports_match_brute_force() {
        let mut solvers = CramSolvers::default();
        let control = Control::new();
        let (mut before, mut after) = (HashMap::new(), HashMap::new());
        for b in boards() {
            let r = cram_report(&b, CramPhase::PushBefore, &mut solvers, &control).unwrap();
            assert_eq!(r.value, brute_push(&b, &mut before, &mut after), "{b}");
            let pushed = brute(&b, &Board::horizontal_moves, &mut after);
            assert_eq!(r.post_push_value(), Some(pushed), "{b}");
            assert_eq!(
                r.moves.last().map(|m| (m.mv, m.value)),
                Some((PushMove::Push, Some(pushed)))
            );
            for m in &r.moves[..r.moves.len() - 1] {
                let PushMove::Place(d) = m.mv else {
                    panic!("the push comes last")
                };
                assert_eq!(d.orientation, Orientation::Vertical);
                assert_eq!(
                    m.winning,
                    brute_push(&b.place(d).unwrap(), &mut before, &mut after) == 0
                );
            }
            assert_eq!(r.bluff, solvers.push.is_bluff(&b, &control).unwrap(), "{b}");

            let r = cram_report(&b, CramPhase::PushAfter, &mut solvers, &control).unwrap();
            assert_eq!(r.value, pushed, "{b}");
            let xor = r.components.iter().fold(0, |a, c| a ^ c.value.unwrap());
            assert_eq!(xor, pushed);
            assert!(r.moves.iter().all(|m| matches!(m.mv,
                PushMove::Place(d) if d.orientation == Orientation::Horizontal)));
            assert_eq!(r.moves.len(), b.horizontal_moves().len());
        }
    }

    #[test]
    fn known_values() {
        let mut solvers = CramSolvers::default();
        let control = Control::new();
        let report =
            |s: &str, v, solvers: &mut CramSolvers| cram_report(&s.parse().unwrap(), v, solvers, &control).unwrap();
        // both sides even: the second player wins by symmetry; one even, one odd: the first
        // player wins by the central domino, then symmetry
        assert_eq!(report("4x4", CramPhase::Cram, &mut solvers).outcome, Outcome::P);
        assert_eq!(report("2x6", CramPhase::Cram, &mut solvers).outcome, Outcome::P);
        assert_eq!(report("2x5", CramPhase::Cram, &mut solvers).outcome, Outcome::N);
        // a strip is 0.07 (Dawson's Kayles in cells): 0, 0, 1, 1, 2, 0, 3, 1, 1, 0 for 0..10
        let g007 = [0, 0, 1, 1, 2, 0, 3, 1, 1, 0];
        for (n, &g) in g007.iter().enumerate().skip(1) {
            let r = report(&format!("1x{n}"), CramPhase::Cram, &mut solvers);
            assert_eq!(r.value, g, "1x{n}");
            let r = report(&format!("{n}x3"), CramPhase::PushAfter, &mut solvers);
            assert_eq!(r.row_values, vec![1; n]);
            assert_eq!(r.value, (n % 2) as u32);
        }
        // a full-width row of 128 cells: one run
        let strip: Board = "1x128".parse().unwrap();
        assert_eq!(row_values(&strip), vec![post_push_value(&strip)]);
        assert_eq!(components(&strip), vec![u128::MAX]);
        // rows: runs of 4 (value 2) and 2 (value 1) in row 1, one run of 7 (value 1) in row 2
        let r = report("....#../.......", CramPhase::PushBefore, &mut solvers);
        assert_eq!(r.row_values, vec![3, 1]);
        assert_eq!(r.post_push_value(), Some(2));
        // two components, each outlined with its own value
        let r = report("..#../..#..", CramPhase::Cram, &mut solvers);
        assert_eq!(r.components.len(), 2);
        assert_eq!(r.components[0].value, r.components[1].value);
        assert_eq!(r.value, 0);
        assert_eq!(r.outcome, Outcome::P);
    }

    #[test]
    fn cancelled_and_over_budget() {
        let mut solvers = CramSolvers::default();
        let control = Control::new();
        control.cancel();
        let b: Board = "8x8".parse().unwrap();
        assert_eq!(
            cram_report(&b, CramPhase::Cram, &mut solvers, &control),
            Err(SolveError::Cancelled)
        );
        // The table takes half the budget, and needs at least 64 KiB.
        let small = Control::with_budget(100 << 10);
        let e = cram_report(&b, CramPhase::Cram, &mut CramSolvers::default(), &small).unwrap_err();
        assert!(e.to_string().contains("memory budget"), "{e}");
    }
}
