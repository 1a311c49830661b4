//! Cram against the brute force and the published values; cancellation and the memory budget.

use super::*;

/// Every subset of the empty cells of a `rows × cols` grid.
fn all_subsets_agree(rows: usize, cols: usize) {
    let control = Control::new();
    let mut fast = CramSolver::with_table_bytes(8 << 20);
    let mut brute = BruteCram::new(rows, cols);
    for mask in 0..1u128 << (rows * cols) {
        let board = Board::from_mask(rows, cols, mask).unwrap();
        let want = brute.value(mask);
        assert_eq!(fast.value(&board, &control).unwrap(), want, "{board}");
        let want_outcome = if want == 0 { Outcome::P } else { Outcome::N };
        assert_eq!(fast.outcome(&board, &control).unwrap(), want_outcome, "{board}");
    }
}

#[test]
fn cram_all_subsets_of_small_grids() {
    for (r, c) in [
        (1, 8),
        (2, 2),
        (2, 3),
        (3, 3),
        (2, 4),
        (4, 2),
        (2, 5),
        (3, 4),
        (4, 3),
        (2, 6),
    ] {
        all_subsets_agree(r, c);
    }
}

#[test]
fn cram_all_subsets_of_4x4() {
    all_subsets_agree(4, 4);
}

#[test]
fn cram_random_boards_up_to_20_cells() {
    let control = Control::new();
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    for (n, (rows, cols)) in [(4, 5), (5, 4), (2, 10), (10, 2), (1, 20), (3, 6), (6, 3), (4, 4)]
        .into_iter()
        .enumerate()
    {
        // A small table forces evictions, which must not change any value; half the grids
        // are solved on one thread, half on three.
        let mut fast = CramSolver::with_table_bytes(64 << 10).with_threads(1 + 2 * (n % 2));
        let mut brute = BruteCram::new(rows, cols);
        let full = (1u128 << (rows * cols)) - 1;
        for i in 0..400 {
            // Densities from sparse to full.
            let mut mask = full;
            for _ in 0..(i % 4) {
                mask &= rng.next() as u128 | (rng.next() as u128) << 64;
            }
            if i % 9 == 0 {
                mask = full;
            }
            let board = Board::from_mask(rows, cols, mask).unwrap();
            assert_eq!(fast.value(&board, &control).unwrap(), brute.value(mask), "{board}");
        }
    }
}

/// The root's search on several threads gives what the one-thread search gives (itself
/// checked against the brute force above), for values, outcomes and the values of moves, on
/// boards too large for the brute force.
#[test]
fn threads_agree_with_one_thread() {
    let control = Control::new();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut one = CramSolver::with_table_bytes(16 << 20).with_threads(1);
    let mut many = CramSolver::with_table_bytes(16 << 20).with_threads(4);
    for (rows, cols) in [(5, 5), (4, 6), (3, 9), (6, 4), (4, 7)] {
        let full = (1u128 << (rows * cols)) - 1;
        for i in 0..12 {
            let mut mask = full;
            for _ in 0..i % 3 {
                mask &= !(1u128 << (rng.next() % (rows * cols) as u64));
            }
            let board = Board::from_mask(rows, cols, mask).unwrap();
            assert_eq!(one.value(&board, &control), many.value(&board, &control), "{board}");
            assert_eq!(one.outcome(&board, &control), many.outcome(&board, &control), "{board}");
            if i == 0 {
                assert_eq!(
                    one.move_values(&board, &control),
                    many.move_values(&board, &control),
                    "{board}"
                );
            }
        }
        // A fresh table each grid, so that the searches do not just read each other's answers.
        one.clear();
        many.clear();
    }
}

/// Boards in frames of more than 64 cells take the solver's `u128` path; sparse ones keep the
/// brute force cheap.
#[test]
fn cram_sparse_boards_over_64_cells() {
    let control = Control::new();
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    for (rows, cols) in [(9, 9), (5, 20), (8, 16), (1, 128), (128, 1), (4, 30)] {
        let mut fast = CramSolver::with_table_bytes(1 << 20);
        let mut brute = BruteCram::new(rows, cols);
        let cells = rows * cols;
        for _ in 0..60 {
            // About 18 empty cells, in clusters so that dominoes fit.
            let mut mask = 0u128;
            while mask.count_ones() < 18 {
                let i = (rng.next() % cells as u64) as usize;
                mask |= 1u128 << i;
                if i + 1 < cells && rng.next().is_multiple_of(2) {
                    mask |= 1u128 << (i + 1);
                }
                if i + cols < cells && rng.next().is_multiple_of(2) {
                    mask |= 1u128 << (i + cols);
                }
            }
            let board = Board::from_mask(rows, cols, mask).unwrap();
            assert_eq!(
                fast.value(&board, &control).unwrap(),
                brute.value(board.empty_mask()),
                "{board}"
            );
        }
    }
}

/// The same position padded with blocked cells into a frame of more than 64 cells (the `u128`
/// path) has the same value as in its own frame (the `u64` path).
#[test]
fn cram_padding_does_not_change_values() {
    let control = Control::new();
    let mut rng = Rng(0x6A09_E667_F3BC_C909);
    let mut fast = CramSolver::with_table_bytes(1 << 20);
    for _ in 0..200 {
        let small = Board::from_mask(4, 5, rng.next() as u128 | rng.next() as u128).unwrap();
        let mut padded = 0u128;
        for r in 0..4 {
            for c in 0..5 {
                if small.is_empty(r, c) {
                    padded |= 1u128 << (r * 20 + c + 7);
                }
            }
        }
        let big = Board::from_mask(4, 20, padded).unwrap();
        assert_eq!(
            fast.value(&small, &control).unwrap(),
            fast.value(&big, &control).unwrap(),
            "{small}"
        );
    }
}

#[test]
fn cram_move_values_are_values_after_the_move() {
    let control = Control::new();
    let mut s = CramSolver::new();
    let board: Board = "..../.#../....".parse().unwrap();
    let mv = s.move_values(&board, &control).unwrap();
    assert_eq!(mv.len(), board.legal_moves().len());
    let mut brute = BruteCram::new(3, 4);
    for (d, v) in &mv {
        let after = board.place(*d).unwrap();
        assert_eq!(*v, brute.value(after.empty_mask()), "{d}");
    }
    let winning = s.winning_moves(&board, &control).unwrap();
    let expected: Vec<Domino> = mv.iter().filter(|m| m.1 == 0).map(|m| m.0).collect();
    assert_eq!(winning, expected);
}

/// The mirror strategy: a board symmetric under the half turn, with no empty cell and no empty
/// domino turned onto itself, is a second-player win. Checked here with cell loops against the
/// brute force on every symmetric subset of small grids (the theorem's hypothesis is tested
/// independently of the solver's bit version), and the solver, which applies it to every
/// component it keys, against the brute force on the same boards.
#[test]
fn half_turn_symmetric_boards_are_zero() {
    let control = Control::new();
    let mut applied = 0;
    for (rows, cols) in [(4, 4), (3, 5), (3, 6), (4, 5), (2, 8), (5, 3), (2, 7), (1, 9)] {
        let mut brute = BruteCram::new(rows, cols);
        let mut fast = CramSolver::with_table_bytes(1 << 20);
        let n = rows * cols;
        let turn = |i: usize| n - 1 - i;
        // One free choice per pair {i, turn(i)} (and for the centre cell, if any).
        let reps: Vec<usize> = (0..n).filter(|&i| i <= turn(i)).collect();
        for choice in 0..1u64 << reps.len() {
            let mut mask = 0u128;
            for (j, &i) in reps.iter().enumerate() {
                if choice >> j & 1 == 1 {
                    mask |= cell(cols, i / cols, i % cols) | cell(cols, turn(i) / cols, turn(i) % cols);
                }
            }
            let empty = |i: usize| mask >> i & 1 == 1;
            let adjacent = |a: usize, b: usize| {
                let (ra, ca, rb, cb) = (a / cols, a % cols, b / cols, b % cols);
                ra.abs_diff(rb) + ca.abs_diff(cb) == 1
            };
            let fixed_cell = (0..n).any(|i| turn(i) == i && empty(i));
            let fixed_domino = (0..n).any(|i| empty(i) && empty(turn(i)) && adjacent(i, turn(i)));
            let board = Board::from_mask(rows, cols, mask).unwrap();
            let want = brute.value(mask);
            if !fixed_cell && !fixed_domino {
                applied += 1;
                assert_eq!(want, 0, "the mirror strategy fails on {board}");
            }
            assert_eq!(fast.value(&board, &control).unwrap(), want, "{board}");
        }
    }
    assert!(applied > 1000, "the theorem applied to only {applied} boards");
}

// ---------------------------------------------------------------------------------------------
// Cram values.

#[test]
fn one_row_is_octal_007() {
    let known = [
        0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 2, 7, 4, 0, 1,
        1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 2,
    ];
    let control = Control::new();
    let mut s = CramSolver::new();
    for n in 1..=60 {
        let want = if n < known.len() { known[n] } else { brute_007(n) };
        let row = Board::rectangle(1, n).unwrap();
        let col = Board::rectangle(n, 1).unwrap();
        assert_eq!(s.value(&row, &control).unwrap(), want, "1×{n}");
        assert_eq!(s.value(&col, &control).unwrap(), want, "{n}×1");
    }
}

#[test]
fn two_rows_match_brute_force() {
    let control = Control::new();
    let mut s = CramSolver::new();
    let mut brute = BruteCram::new(2, 10);
    for n in 1..=10 {
        let board = Board::rectangle(2, n).unwrap();
        // The 2×n grid inside the 2×10 frame: the first n columns of both rows.
        let mask = ((1u128 << n) - 1) | (((1u128 << n) - 1) << 10);
        assert_eq!(s.value(&board, &control).unwrap(), brute.value(mask), "2×{n}");
    }
}

#[test]
fn even_by_even_is_zero() {
    let control = Control::new();
    let mut s = CramSolver::new();
    for (r, c) in [(2, 2), (2, 4), (4, 4), (2, 6), (4, 6), (2, 8), (2, 12)] {
        let b = Board::rectangle(r, c).unwrap();
        assert_eq!(s.value(&b, &control).unwrap(), 0, "{r}×{c}");
    }
}

#[test]
fn published_nimbers() {
    let control = Control::new();
    let mut s = CramSolver::new();
    for (n, want) in (3..=10).zip([0, 1, 1, 4, 1, 3, 1, 2]) {
        let b = Board::rectangle(3, n).unwrap();
        assert_eq!(s.value(&b, &control).unwrap(), want, "3×{n}");
    }
    for (r, c, want) in [(4, 5, 2), (4, 7, 3), (5, 5, 0), (5, 6, 2)] {
        let b = Board::rectangle(r, c).unwrap();
        assert_eq!(s.value(&b, &control).unwrap(), want, "{r}×{c}");
        // Transposed boards have the same value.
        let t = Board::rectangle(c, r).unwrap();
        assert_eq!(s.value(&t, &control).unwrap(), want, "{c}×{r}");
    }
}

/// 5×7 is the slowest published value here: about 5 s with opt-level 2.
#[test]
fn published_nimber_5x7() {
    let control = Control::new();
    let mut s = CramSolver::new();
    assert_eq!(s.value(&Board::rectangle(5, 7).unwrap(), &control).unwrap(), 1);
}

#[test]
fn cram_cancellation_and_budget() {
    let control = Control::new();
    control.cancel();
    let mut s = CramSolver::new();
    let big = Board::rectangle(7, 7).unwrap();
    assert_eq!(s.value(&big, &control), Err(SolveError::Cancelled));
    // The solver stays usable after a cancelled request.
    let fresh = Control::new();
    assert_eq!(s.value(&Board::rectangle(3, 4).unwrap(), &fresh).unwrap(), 1);
    let tiny = Control::with_budget(1000);
    let mut s2 = CramSolver::new();
    assert!(matches!(s2.value(&big, &tiny), Err(SolveError::OverBudget { .. })));
}

/// The tables are sized to the job's memory budget (half of it at most): small budgets give
/// the right values, from a 1×2 board to 4×5, for Cram and Push Cram; only a budget too small
/// for a 64 KiB table is refused, with a message that says so. (Every budget under 256 MiB
/// used to be refused.)
#[test]
fn tables_fit_the_memory_budget() {
    for budget in [128u64 << 10, 1 << 20, 16 << 20, 100 << 20] {
        let control = Control::with_budget(budget);
        let mut cram = CramSolver::new();
        let mut push = PushCramSolver::new();
        let mut brute = BruteCram::new(4, 5);
        let mut brute_push = BrutePush::new(4, 5);
        for text in ["1x2", "2x3", "3x4", "4x5", "..#../...../#...."] {
            let board: Board = text.parse().unwrap();
            let mut mask = 0u128;
            for r in 0..board.rows() {
                for c in 0..board.cols() {
                    if board.is_empty(r, c) {
                        mask |= cell(5, r, c);
                    }
                }
            }
            assert_eq!(
                cram.value(&board, &control),
                Ok(brute.value(mask)),
                "{text}, {budget} bytes"
            );
            assert_eq!(
                push.value(&board, &control),
                Ok(brute_push.value(mask)),
                "{text}, {budget} bytes"
            );
        }
        assert!(cram.stats().table_capacity > 0);
    }
    let tiny = Control::with_budget(100 << 10);
    let board = Board::rectangle(3, 3).unwrap();
    for e in [
        CramSolver::new().value(&board, &tiny).unwrap_err(),
        PushCramSolver::new().value(&board, &tiny).unwrap_err(),
    ] {
        assert!(matches!(e, SolveError::OverBudget { .. }), "{e}");
        assert!(e.to_string().contains("128.0 KiB"), "{e}");
    }
}

#[test]
fn cram_cancel_from_another_thread() {
    let control = Control::new();
    let c2 = control.clone();
    let handle = std::thread::Builder::new()
        .name("cram-7x9".into())
        .spawn(move || {
            let mut s = CramSolver::with_table_bytes(16 << 20).with_threads(3);
            s.value(&Board::rectangle(7, 9).unwrap(), &c2)
        })
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(50));
    control.cancel();
    let started = std::time::Instant::now();
    assert_eq!(handle.join().unwrap(), Err(SolveError::Cancelled));
    // a guard against a search that ignores the flag (it would run for hours), not a speed goal
    assert!(started.elapsed().as_secs() < 30);
    assert!(control.progress().0 > 0, "progress was reported");
}
