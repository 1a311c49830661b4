//! Push Cram against the brute force, its moves and bluffs, and Proposition 5.0.2 on small boards.

use super::*;

fn push_all_subsets_agree(rows: usize, cols: usize) {
    let control = Control::new();
    let mut fast = PushCramSolver::with_table_bytes(8 << 20);
    let mut brute = BrutePush::new(rows, cols);
    for mask in 0..1u128 << (rows * cols) {
        let board = Board::from_mask(rows, cols, mask).unwrap();
        let want = brute.value(mask);
        assert_eq!(post_push_value(&board), brute.post(mask), "post {board}");
        assert_eq!(fast.value(&board, &control).unwrap(), want, "value {board}");
        let want_outcome = if want == 0 { Outcome::P } else { Outcome::N };
        assert_eq!(fast.outcome(&board, &control).unwrap(), want_outcome, "outcome {board}");
    }
}

#[test]
fn push_cram_all_subsets_of_small_grids() {
    for (r, c) in [
        (1, 6),
        (6, 1),
        (2, 3),
        (3, 3),
        (2, 4),
        (4, 2),
        (3, 4),
        (4, 3),
        (2, 6),
        (5, 2),
    ] {
        push_all_subsets_agree(r, c);
    }
}

#[test]
fn push_cram_random_boards() {
    let control = Control::new();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for (rows, cols) in [(3, 6), (4, 5), (5, 4), (3, 7), (2, 10)] {
        // Outcome searches and value searches share one small table, with evictions.
        let mut fast = PushCramSolver::with_table_bytes(64 << 10);
        let mut brute = BrutePush::new(rows, cols);
        let full = (1u128 << (rows * cols)) - 1;
        for i in 0..300 {
            let mut mask = full;
            for _ in 0..(i % 3) {
                mask &= rng.next() as u128;
            }
            let board = Board::from_mask(rows, cols, mask).unwrap();
            let want = brute.value(mask);
            let outcome = fast.outcome(&board, &control).unwrap();
            assert_eq!(outcome == Outcome::P, want == 0, "outcome {board}");
            assert_eq!(fast.value(&board, &control).unwrap(), want, "value {board}");
        }
    }
}

#[test]
fn push_cram_value_in_set_answers_the_question_asked() {
    // A value plan's units ask "is your value in this set?"; random sets, one table kept
    // between questions (facts of earlier ones in it), against the brute force.
    let control = Control::new();
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut answered = [0usize; 2];
    for (rows, cols) in [(3, 5), (4, 4), (2, 7)] {
        let mut fast = PushCramSolver::with_table_bytes(1 << 20);
        let mut brute = BrutePush::new(rows, cols);
        let full = (1u128 << (rows * cols)) - 1;
        for i in 0..150 {
            let mask = if i % 4 == 0 {
                full
            } else {
                full & rng.next() as u128 | rng.next() as u128 & full
            };
            let board = Board::from_mask(rows, cols, mask).unwrap();
            let want = brute.value(mask);
            let set = rng.next() as u128 & 0b1111 | (i % 3 == 0) as u128;
            if set == 0 {
                continue;
            }
            match fast.value_in_set(&board, set, &control).unwrap() {
                Some(v) => {
                    assert_eq!(v, want, "{board} asked {set:#b}");
                    answered[0] += 1;
                }
                None => {
                    assert_eq!(
                        set >> want & 1,
                        0,
                        "{board} (value {want}) asked {set:#b}: said not in it"
                    );
                    answered[1] += 1;
                }
            }
        }
    }
    assert!(
        answered.iter().all(|&n| n > 20),
        "both answers were given: {answered:?}"
    );
}

#[test]
fn push_cram_sparse_boards_over_64_cells() {
    let control = Control::new();
    let mut rng = Rng(0xBB67_AE85_84CA_A73B);
    for (rows, cols) in [(3, 40), (6, 20), (2, 64)] {
        let mut fast = PushCramSolver::with_table_bytes(1 << 20);
        let mut brute = BrutePush::new(rows, cols);
        let cells = rows * cols;
        for _ in 0..60 {
            let mut mask = 0u128;
            while mask.count_ones() < 16 {
                let i = (rng.next() % cells as u64) as usize;
                mask |= 1u128 << i;
                if i + cols < cells {
                    mask |= 1u128 << (i + cols);
                }
                if i + 1 < cells && rng.next().is_multiple_of(2) {
                    mask |= 1u128 << (i + 1);
                }
            }
            let board = Board::from_mask(rows, cols, mask).unwrap();
            let want = brute.value(board.empty_mask());
            assert_eq!(fast.value(&board, &control).unwrap(), want, "{board}");
            assert_eq!(
                fast.outcome(&board, &control).unwrap() == Outcome::P,
                want == 0,
                "{board}"
            );
        }
    }
}

/// Boards whose rows no vertical domino can change (a cell with an empty neighbour above or
/// below has none beside it) have a closed form (`frozen_rows_value` in `push.rs`); checked
/// here against the brute force on every such subset of small grids, and on one column of
/// 128 cells against 0.07 (which used to run past a minute).
#[test]
fn push_cram_frozen_rows() {
    let control = Control::new();
    let mut applied = 0;
    for (rows, cols) in [(4, 4), (5, 3), (3, 5), (6, 2), (7, 1), (2, 7)] {
        let mut fast = PushCramSolver::with_table_bytes(1 << 20);
        let mut brute = BrutePush::new(rows, cols);
        for mask in 0..1u128 << (rows * cols) {
            let empty = |r: usize, c: usize| mask & cell(cols, r, c) != 0;
            let frozen = (0..rows).all(|r| {
                (0..cols).all(|c| {
                    let vertical = (r > 0 && empty(r - 1, c)) || (r + 1 < rows && empty(r + 1, c));
                    let horizontal = (c > 0 && empty(r, c - 1)) || (c + 1 < cols && empty(r, c + 1));
                    !(empty(r, c) && vertical && horizontal)
                })
            });
            if !frozen {
                continue;
            }
            applied += 1;
            let board = Board::from_mask(rows, cols, mask).unwrap();
            let want = brute.value(mask);
            assert_eq!(fast.value(&board, &control).unwrap(), want, "{board}");
            assert_eq!(
                fast.outcome(&board, &control).unwrap() == Outcome::P,
                want == 0,
                "{board}"
            );
        }
    }
    assert!(applied > 10_000, "only {applied} boards");
    // One column: the value is 0.07's plus one (the push leaves runs of one cell, value 0).
    let mut s = PushCramSolver::new();
    for n in [1, 2, 5, 64, 127, 128] {
        let board = Board::rectangle(n, 1).unwrap();
        assert_eq!(s.value(&board, &control).unwrap(), brute_007(n) + 1, "{n}×1");
    }
}

#[test]
fn push_cram_components_too_large_to_pack() {
    // Two L shapes on 16×8 whose keys side by side need 8 × 17 > 128 cells: the outcome search
    // keeps such positions out of its table. Also with each cell removed in turn.
    let control = Control::new();
    let (rows, cols) = (16, 8);
    let mut full = 0u128;
    for r in 0..=7 {
        full |= cell(cols, r, 0);
    }
    for c in 0..cols {
        full |= cell(cols, 7, c) | cell(cols, 15, c);
    }
    for r in 9..=15 {
        full |= cell(cols, r, 7);
    }
    let mut brute = BrutePush::new(rows, cols);
    let mut fast = PushCramSolver::with_table_bytes(1 << 20);
    let mut masks = vec![full];
    masks.extend(
        (0..128)
            .map(|i| 1u128 << i)
            .filter(|b| full & b != 0)
            .map(|b| full & !b),
    );
    for mask in masks {
        let board = Board::from_mask(rows, cols, mask).unwrap();
        let want = brute.value(mask);
        assert_eq!(fast.value(&board, &control).unwrap(), want, "{board}");
        assert_eq!(
            fast.outcome(&board, &control).unwrap() == Outcome::P,
            want == 0,
            "{board}"
        );
    }
}

#[test]
fn push_cram_moves_and_bluff() {
    let control = Control::new();
    let mut s = PushCramSolver::new();
    let mut brute = BrutePush::new(3, 3);
    let board = Board::rectangle(3, 3).unwrap();
    let moves = s.move_outcomes(&board, &control).unwrap();
    assert_eq!(moves.len(), 7, "6 vertical dominoes and the push");
    assert_eq!(moves.last().unwrap().0, PushMove::Push);
    for (m, wins) in &moves {
        let after_value = match m {
            PushMove::Push => post_push_value(&board),
            PushMove::Place(d) => brute.value(board.place(*d).unwrap().empty_mask()),
        };
        assert_eq!(*wins, after_value == 0, "{m}");
    }
    // 3×3: every domino wins but the push (post-push value 1) loses, so it is no bluff.
    assert!(!s.is_bluff(&board, &control).unwrap());
    assert_eq!(s.winning_moves(&board, &control).unwrap().len(), 6);
    // One empty column of two cells: the push leaves two one-cell runs (value 0) and wins; the
    // domino leaves an empty board whose push the opponent makes, so it loses.
    let b: Board = "./.".parse().unwrap();
    assert_eq!(s.winning_moves(&b, &control).unwrap(), vec![PushMove::Push]);
    // A bluff: no domino fits and the push leaves runs of one cell (value 0).
    let b: Board = ".#/#.".parse().unwrap();
    assert!(s.is_bluff(&b, &control).unwrap(), "only move is the push, and it wins");
}

#[test]
fn proposition_5_0_2_on_small_boards() {
    let control = Control::new();
    let rows = nimscope_core::checks::cram::check_push_cram(24, &control);
    for row in rows.iter().filter(|r| r.source.contains("5.0.2")) {
        assert_eq!(row.counterexample, None, "{}: {}", row.source, row.statement);
    }
    // The conjecture's outcome part holds on these small boards too.
    let outcome = rows.iter().find(|r| r.source.ends_with("(outcome)")).unwrap();
    assert_eq!(outcome.counterexample, None);
}
